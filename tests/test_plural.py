"""pnp.i18n.plural: Plural-Forms read like GNU msgfmt -c reads them, evaluated like gettext.

Three references: GNU msgfmt (which expressions and headers it accepts), Python's own gettext
(``gettext.c2py``, an independent evaluator of the same C expressions) and CLDR through babel
(which plural category each number takes in twelve languages).
"""

from __future__ import annotations

import gettext
import os
import shutil
import subprocess
import tempfile

import pytest
from babel import Locale
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pnp.i18n.plural import (
    MAX_NPLURALS,
    PluralError,
    PluralForms,
    evaluate,
    inspect_header,
    parse_plural_forms,
    plural_forms_for,
)

from helpers import needs_tool

MSGFMT = shutil.which("msgfmt")
needs_msgfmt = needs_tool(
    MSGFMT is None,
    "GNU gettext's msgfmt is not installed: these tests compare pnp with `msgfmt -c`",
)


def msgfmt_accepts(value: str, nplurals: int) -> bool:
    """Whether msgfmt -c accepts a catalog with this Plural-Forms and one plural entry."""
    assert MSGFMT is not None
    forms = "".join(f'msgstr[{k}] "f{k}"\n' for k in range(max(nplurals, 1)))
    text = (
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
        f'"Plural-Forms: {value}\\n"\n\nmsgid "one"\nmsgid_plural "many"\n{forms}'
    )
    fd, name = tempfile.mkstemp(suffix=".po")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        done = subprocess.run([MSGFMT, "-c", "-o", os.devnull, name], capture_output=True)
    finally:
        os.unlink(name)
    return done.returncode == 0


def pnp_accepts(value: str) -> bool:
    try:
        parse_plural_forms(value)
    except PluralError:
        return False
    return True


# --- reading -----------------------------------------------------------------------------------


def test_usual_headers() -> None:
    fr = parse_plural_forms("nplurals=2; plural=(n > 1);")
    assert fr == PluralForms(2, "(n > 1)")
    assert [fr.index(n) for n in (0, 1, 2, 100)] == [0, 0, 1, 1]
    ja = parse_plural_forms("nplurals=1; plural=0;")
    assert ja.nplurals == 1 and ja.index(5) == 0
    # like msgfmt: the order does not matter, the expression ends at ; or the end
    assert parse_plural_forms("plural=n != 1; nplurals=2").expr == "n != 1"
    assert parse_plural_forms("nplurals=2; plural=n>1 ; anything").index(2) == 1


def test_errors_say_what_to_fix_and_where() -> None:
    cases = {
        "nplurals=2;": ("plural=", 1),
        "plural=(n != 1);": ("nplurals=", 1),
        "nplurals=x; plural=n != 1;": ("whole number", 10),
        "nplurals=2; plural=n = 1;": ("==", 22),
        "nplurals=2; plural=n & 1;": ("&&", 22),
        "nplurals=2; plural=(n != 1;": ("')'", 27),
        "nplurals=2; plural=n ? 1;": ("':'", 25),
        "nplurals=2; plural=-n;": ("'-'", 20),
        "nplurals=2; plural=0x1;": ("'x'", 21),
        "nplurals=2; plural=n != 1 junk;": ("end it with ';'", 27),
        "nplurals=2; plural=n / (n - 5);": ("divides by zero (for n = 5)", 20),
        "nplurals=2; plural=n - 1;": ("negative", 20),
        "nplurals=2; plural=n % 3;": ("gives 2 for n = 2", 20),
        "nplurals=0; plural=0;": ("gives 0", 20),
    }
    for value, (words, col) in cases.items():
        with pytest.raises(PluralError) as caught:
            parse_plural_forms(value)
        assert words in caught.value.message, value
        assert caught.value.col == col, value
        assert caught.value.gnu


def test_pnp_refuses_what_no_language_needs() -> None:
    for value in (
        f"nplurals={MAX_NPLURALS + 1}; plural=n % {MAX_NPLURALS + 1};",
        "nplurals=1000000000; plural=0;",
        "nplurals=2; plural=" + "(" * 150 + "n" + ")" * 150 + " > 1;",
        "nplurals=2; plural=" + "!" * 200 + "n;",
        "nplurals=2; plural=" + " + ".join(["n"] * 400) + " > 1;",
    ):
        with pytest.raises(PluralError) as caught:
            parse_plural_forms(value)
        assert not caught.value.gnu, value


def test_hostile_values_are_read_quickly() -> None:
    for value in (
        "nplurals=2; plural=" + "9" * 100_000 + ";",
        "nplurals=" + "9" * 100_000 + "; plural=0;",
        "nplurals=2; plural=" + "n+" * 500_000 + "n;",
    ):
        with pytest.raises(PluralError):
            parse_plural_forms(value)


def test_evaluation_is_unsigned_64_bit_like_gnu() -> None:
    forms = parse_plural_forms("nplurals=2; plural=(n * 18446744073709551615) > 5;")
    assert [forms.index(n) for n in (0, 1, 2)] == [0, 1, 1]
    assert evaluate("1000 / (n - 1001)", 5) == 0  # n - 1001 wraps to a huge number
    assert evaluate("n / 0", 3) is None
    assert parse_plural_forms("nplurals=2; plural=99999999999999999999999 > n;").index(1) == 1


def test_index_outside_the_checked_numbers_is_form_0_like_gettext() -> None:
    forms = parse_plural_forms("nplurals=2; plural=n > 5000 ? 7 : n != 1;")
    assert forms.index(1) == 0 and forms.index(2) == 1
    assert forms.index(6000) == 0  # 7 is no form: gettext takes form 0
    assert forms.index(-1) == 0  # gettext's n is unsigned: -1 is 2**64 - 1


def test_inspect_header_finds_the_attributes_anywhere() -> None:
    header = "Language: fr\nPlural-Forms: nplurals=2; plural=(n > 1);\n"
    found = inspect_header(header)
    assert found.forms == PluralForms(2, "(n > 1)")
    assert found.often == (False, True)  # form 0 only for n = 0 and 1
    assert inspect_header("Language: fr\n").forms is None


# --- against msgfmt ----------------------------------------------------------------------------

GNU_CASES = [
    "nplurals=2; plural=n != 1;",
    "nplurals=2; plural=n / 0;",
    "nplurals=2; plural=n % (n-n);",
    "nplurals=2; plural=n-1;",
    "nplurals=2; plural=(n-1)>0;",
    "nplurals=2; plural=-n;",
    "nplurals=2; plural=n+;",
    "nplurals=2; plural=n != 1 junk;",
    "nplurals=2; plural=n != 1",
    "nplurals=x; plural=n != 1;",
    "nplurals=; plural=n != 1;",
    "plural=n != 1; nplurals=2;",
    "nplurals=0; plural=0;",
    "nplurals=1; plural=0;",
    "nplurals=3; plural=n==1 ? 0 : n==2 ? 1 : 2;",
    "nplurals=2; plural=n = 1;",
    "nplurals=2; plural=n & 1;",
    "nplurals=2; plural=2 > n > 0;",
    "nplurals=2; plural=0x1;",
    "nplurals=2; plural=(n != 1;",
    "nplurals=2; plural=();",
    "nplurals=2; plural=;",
    "nplurals=2; plural=!!n;",
    "nplurals=2; plural=!n + 1;",  # (!n) + 1 is 2 for n = 0: refused; !(n + 1) would pass
    "nplurals=2; plural=!n == 0;",
    "nplurals=2; plural=1000 / (n - 1000) ;",
    "nplurals=2; plural=1000 / (n - 1001) ;",
    "nplurals=+2; plural=n>1;",
    "nplurals= 2; plural=n>1;",
    "nplurals=2x; plural=n>1;",
    "nplurals=02; plural=n>1;",
    "nplurals=2; plural= n\t!= 1;",
    "nplurals=2; plural=N != 1;",
    "nplurals=2; plural=n ? 1 : ;",
    "nplurals=2; plural=n >= 2 && n <= 4 || n == 0;",
    "nplurals=2; plural=(n * 18446744073709551615) > 5;",
    "nplurals=2; plural=99999999999999999999999 > n;",
    "nplurals=6; plural=n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 "
    ": n%100>=11 ? 4 : 5;",
]


@needs_msgfmt
@pytest.mark.parametrize("value", GNU_CASES)
def test_the_same_headers_as_msgfmt(value: str) -> None:
    found = inspect_header(value)
    nplurals = found.nplurals if found.nplurals is not None and found.nplurals < 50 else 2
    assert pnp_accepts(value) == msgfmt_accepts(value, nplurals)


def expressions(depth: int = 3) -> st.SearchStrategy[str]:
    """C expressions over n in GNU's grammar, with some spacing and parentheses."""
    leaf = st.one_of(st.just("n"), st.integers(0, 12).map(str))
    ops = ["||", "&&", "==", "!=", "<", ">", "<=", ">=", "+", "-", "*", "/", "%"]

    def extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        return st.one_of(
            st.tuples(inner, st.sampled_from(ops), inner).map(lambda t: f"{t[0]} {t[1]} {t[2]}"),
            inner.map(lambda e: f"({e})"),
            inner.map(lambda e: f"!{e}"),
            st.tuples(inner, inner, inner).map(lambda t: f"{t[0]} ? {t[1]} : {t[2]}"),
        )

    return st.recursive(leaf, extend, max_leaves=8)


EXPRESSIONS = expressions()


@needs_msgfmt
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(EXPRESSIONS, st.integers(1, 6), st.sampled_from(["", "", "", " junk", ")", "("]))
def test_generated_expressions_agree_with_msgfmt(expr: str, nplurals: int, tail: str) -> None:
    value = f"nplurals={nplurals}; plural={expr}{tail};"
    assert pnp_accepts(value) == msgfmt_accepts(value, nplurals), value


@settings(max_examples=300, deadline=None)
@given(EXPRESSIONS)
def test_index_matches_python_gettext(expr: str) -> None:
    """pnp's evaluation against gettext.c2py, where both evaluate the same.

    Python's ints do not wrap like C's unsigned long (so no subtraction or division here), its
    ``or``/``and`` give an operand where C gives 0 or 1, and c2py gives ``!`` the precedence of
    Python's ``not`` (so no &&, || or ! either: the twelve languages below test && and ||, and
    msgfmt tests that ! binds tightest, with "!n + 1").
    """
    if any(op in expr for op in ("-", "/", "&&", "||", "!")):
        return
    try:
        reference = gettext.c2py(expr)
    except (ValueError, RecursionError):
        return
    for n in (0, 1, 2, 3, 5, 11, 21, 101, 1000):
        try:
            expected = reference(n)
        except ZeroDivisionError:
            assert evaluate(expr, n) is None
            continue
        if isinstance(expected, bool):
            expected = int(expected)
        if not 0 <= expected < 2**63:
            continue  # Python's ints do not wrap like C's unsigned long
        assert evaluate(expr, n) == expected, (expr, n)


# --- twelve languages --------------------------------------------------------------------------

# CLDR category -> the form of gettext's formula for it (CLDR 46 gives French, Italian,
# Spanish and Portuguese a "many" for millions, which their formula counts with "other")
CATEGORIES = {
    "fr": {"one": 0, "many": 1, "other": 1},
    "en": {"one": 0, "other": 1},
    "pl": {"one": 0, "few": 1, "many": 2, "other": 2},
    "ru": {"one": 0, "few": 1, "many": 2, "other": 2},
    "ar": {"zero": 0, "one": 1, "two": 2, "few": 3, "many": 4, "other": 5},
    "cs": {"one": 0, "few": 1, "many": 2, "other": 2},
    "ja": {"other": 0},
    "lt": {"one": 0, "few": 1, "many": 2, "other": 2},
    "ro": {"one": 0, "few": 1, "other": 2},
    "sl": {"one": 0, "two": 1, "few": 2, "other": 3},
    "ga": {"one": 0, "two": 1, "few": 2, "many": 3, "other": 4},
    "cy": {"zero": 0, "one": 1, "two": 2, "few": 3, "many": 4, "other": 0},
}
# babel's Arabic formula sends n % 100 in 0..2 (100, 101, 102...) to form 4 ("many") where CLDR
# says "other", and 11..99 to form 5 where CLDR says "many"; GNU's documented formula is CLDR's.
GNU_ARABIC = (
    "nplurals=6; plural=n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 "
    ": n%100>=11 ? 4 : 5;"
)
NUMBERS = [*range(0, 230), 1000, 1001, 1002, 1011, 1021, 10_000, 100_000, 1_000_000]


@pytest.mark.parametrize("lang", sorted(CATEGORIES))
def test_index_follows_gettext_and_cldr(lang: str) -> None:
    from pnp.i18n.plural_table import PLURALS

    value = plural_forms_for(lang)
    forms = parse_plural_forms(value)
    nplurals, expr = PLURALS[lang]  # GNU gettext's table (babel <= 2.18 shipped it)
    assert forms.nplurals == nplurals
    reference = gettext.c2py(expr)
    assert [forms.index(n) for n in NUMBERS] == [int(reference(n)) for n in NUMBERS]
    if lang == "ar":
        forms = parse_plural_forms(GNU_ARABIC)
    locale = Locale.parse(lang)
    expected = [CATEGORIES[lang][locale.plural_form(n)] for n in NUMBERS]
    assert [forms.index(n) for n in NUMBERS] == expected


def test_plural_forms_for() -> None:
    assert plural_forms_for("fr") == "nplurals=2; plural=(n > 1);"
    assert plural_forms_for("pt-BR") == plural_forms_for("pt_BR") == "nplurals=2; plural=(n > 1);"
    assert plural_forms_for("ja") == "nplurals=1; plural=0;"
    assert plural_forms_for("xx") == "nplurals=2; plural=(n != 1);"
    assert plural_forms_for("de_AT") == "nplurals=2; plural=(n != 1);"
    for lang in CATEGORIES:
        parse_plural_forms(plural_forms_for(lang))  # each one is valid for msgfmt and pnp
