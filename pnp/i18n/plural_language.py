"""Does a catalog's Plural-Forms fit its language?

msgfmt checks that a Plural-Forms header is a valid formula, not that it is the right one: a
Polish catalog that says ``nplurals=2; plural=(n != 1);`` passes, and then 5 takes the form
written for 2, 3 and 4. pnp compares the header with the language's rules, by what the two
formulas do (the form each gives to n = 0 .. 1000 and to a million), not by their spelling. Two
rules are right: GNU gettext's table (:mod:`.plural_table`, the one msginit and Poedit write)
and CLDR's, as babel ships it (French and the other Romance languages get a third form for
millions there). A language known to neither is not checked. A region code is checked by its
language (``pt_BR`` by ``pt`` where the table has no ``pt_BR``).
"""

from __future__ import annotations

from functools import lru_cache

from .plural import CHECKED_N, PluralError, PluralForms, parse_plural_forms

_NUMBERS = (*CHECKED_N, 1_000_000)


def _gnu(code: str) -> str | None:
    from .plural_table import PLURALS

    for key in (code, code.split("_")[0]):
        if key in PLURALS:
            n, expr = PLURALS[key]
            return f"nplurals={n}; plural={expr};"
    return None


def _cldr(code: str) -> str | None:
    from babel.core import UnknownLocaleError
    from babel.messages.plurals import get_plural

    for key in (code, code.split("_")[0]):
        try:
            return str(get_plural(key).plural_forms)
        except (UnknownLocaleError, ValueError):
            continue
    return None


@lru_cache(maxsize=64)
def language_rules(lang: str) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """The Plural-Forms values right for ``lang`` (GNU's first), each with the form it gives
    each number checked; empty when neither GNU's table nor CLDR knows the language."""
    code = lang.replace("-", "_")
    out: list[tuple[str, tuple[int, ...]]] = []
    for value in (_gnu(code), _cldr(code)):
        if value is None:
            continue
        try:
            forms = parse_plural_forms(value)
        except PluralError:
            continue
        table = _table(forms)
        if all(table != known for _v, known in out):
            out.append((value, table))
    return tuple(out)


def _table(forms: PluralForms) -> tuple[int, ...]:
    return (forms.nplurals, *(forms.index(n) for n in _NUMBERS))


def plural_mismatch(lang: str, forms: PluralForms) -> str | None:
    """What is wrong with ``forms`` as ``lang``'s Plural-Forms, and what to write; None when it
    does what the language's rules do (or the language is unknown)."""
    rules = language_rules(lang)
    if not rules:
        return None
    table = _table(forms)
    if any(table == known for _v, known in rules):
        return None
    expected, known = rules[0]
    name = _name(lang)
    if forms.nplurals != known[0]:
        what = f"has nplurals={forms.nplurals}, and {name} has {known[0]} plural forms"
    else:
        i = next(i for i in range(len(_NUMBERS)) if table[i + 1] != known[i + 1])
        n = _NUMBERS[i]
        what = f"gives n = {n} form {table[i + 1]}, and {name} gives it form {known[i + 1]}"
    also = f' (or CLDR\'s "{rules[1][0]}")' if len(rules) > 1 else ""
    return (
        f"[{lang}] the header's Plural-Forms {what}, so counted texts would print the wrong "
        f'form: write "Plural-Forms: {expected}\\n"{also}, then give each plural entry its '
        "forms in that order"
    )


def _name(lang: str) -> str:
    """``Polish (pl)``; the code alone when babel does not know it."""
    from babel.core import Locale, UnknownLocaleError

    try:
        name = Locale.parse(lang.replace("-", "_")).english_name
    except (UnknownLocaleError, ValueError, TypeError):
        return lang
    return f"{name} ({lang})" if name else lang
