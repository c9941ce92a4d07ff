"""msgfmt's checks of a complete catalog (its "phase 2"): the header's Plural-Forms against the
plural entries, the header's fields, and each translated entry's line breaks and format strings.

They look at the entries the :class:`.collect.Collector` kept; untranslated and fuzzy entries
are not checked, as msgfmt does not check them.
"""

from __future__ import annotations

import re

from ..plural import HeaderPlural, evaluate, inspect_header, plural_forms_for
from .collect import Collector
from .entries import Form, Message, header_line
from .formats import FORMATS, Invalid
from .problems import CONT, EAL, PLAIN

_HEADER_FIELDS = [
    ("Project-Id-Version", "PACKAGE VERSION"),
    ("PO-Revision-Date", "YEAR-MO-DA HO:MI+ZONE"),
    ("Last-Translator", "FULL NAME <EMAIL@ADDRESS>"),
    ("Language-Team", "LANGUAGE <LL@li.org>"),
    ("MIME-Version", None),
    ("Content-Type", "text/plain; charset=CHARSET"),
    ("Content-Transfer-Encoding", "ENCODING"),
    ("Language", ""),
]
"""The fields msgfmt wants in a header, and the template's value of each (None: none)."""

# GNU's table of known plural formulas (plural-table.c): with one of these languages in the header,
# msgfmt prints its plural errors with a suggestion, on several lines, differently.
_GNU_PLURAL_CODES = (
    "ja vi ko en de nl sv da no nb nn fo es pt it bg el fi et he eo hu tr ca pt_BR fr lv ga ro lt "
    "ru uk be sr hr cs sk pl sl"
)
_GNU_PLURAL_LANGS = frozenset(_GNU_PLURAL_CODES.split(" "))
_GNU_PLURAL_NAMES = (
    "Japanese", "Vietnamese", "Korean", "English", "German", "Dutch", "Swedish", "Danish",
    "Norwegian", "Norwegian Bokmal", "Norwegian Nynorsk", "Faroese", "Spanish", "Portuguese",
    "Italian", "Bulgarian", "Greek", "Finnish", "Estonian", "Hebrew", "Esperanto", "Hungarian",
    "Turkish", "Catalan", "Brazilian", "French", "Latvian", "Irish", "Romanian", "Lithuanian",
    "Russian", "Ukrainian", "Belarusian", "Serbian", "Croatian", "Czech", "Slovak", "Polish",
    "Slovenian",
)  # fmt: skip


def check_catalog(scan: Collector) -> None:
    """Every check msgfmt -c makes once the whole file is read."""
    scan.in_phase2 = True
    header = scan.header
    often: tuple[bool, ...] | None = None
    if header is not None:
        often = check_plural(scan, header)
    for message in scan.messages:
        if message.is_header:
            check_header_fields(scan, message)
        if message.msgid:
            check_pair(scan, message, often)


# --- the plural forms --------------------------------------------------------------------------


def check_plural(scan: Collector, header: Message) -> tuple[bool, ...] | None:
    """Plural-Forms against the plural entries (GNU check_plural).

    Return msgfmt's "distribution": for each form, whether the expression takes it for
    many n (then placeholders are checked strictly in that form), or None if unknown.
    """
    plurals = [m for m in scan.messages if m.plural is not None]
    kw = header.forms[0].kw
    text = header.forms[0].text
    found: HeaderPlural = inspect_header(text)
    scan.plural = found.forms  # (None unless the header's Plural-Forms is right)
    pline = header_line(text, header.str_toks, "Plural-Forms", kw)
    scan.plural_line = pline if found.forms is not None else 0
    if found.plural_at < 0 or found.nplurals_at < 0:
        if not plurals:
            return (False, True)  # msgfmt's default: the Germanic n != 1
        _no_plural_forms(scan, header, found, plurals[0].forms[0], pline)
        return None
    failed = False
    helped = PLAIN if _gnu_has_help(text) else EAL
    for problem in found.errors:
        how = helped if problem.stage in ("nplurals", "expression") else EAL
        scan.error(
            pline,
            1,
            f"Plural-Forms: {problem.message}",
            () if not problem.gnu else ((kw.gline, how),),
            deliberate=not problem.gnu,
        )
        failed = failed or problem.gnu
    nplurals = found.nplurals
    if failed or nplurals is None:
        return None
    if _check_counts(scan, plurals, nplurals, header.forms[0]):
        return None
    return found.often


def _no_plural_forms(
    scan: Collector, header: Message, found: HeaderPlural, first: Form, pline: int
) -> None:
    """The header lacks plural= or nplurals=, and the catalog has plural entries (``first``:
    the first one's first form)."""
    assert scan.lexer is not None
    kw = header.forms[0].kw
    text = header.forms[0].text
    lang = _header_field(text, "Language")
    help_ = _gnu_has_help(text)
    advice = plural_forms_for(lang) if lang else "nplurals=2; plural=(n != 1);"
    for what, at in (("plural=", found.plural_at), ("nplurals=", found.nplurals_at)):
        if at < 0:
            scan.error(
                first.kw.line,
                scan.lexer.col(first.kw.pos),
                f"this entry has plural forms, but the header (line {pline}) has no "
                f'{what}: add "Plural-Forms: {advice}\\n" to it',
                ((first.kw.gline, EAL),) + (() if help_ else ((kw.gline, CONT),)),
            )


def _check_counts(scan: Collector, plurals: list[Message], nplurals: int, header: Form) -> bool:
    """Each plural entry has nplurals forms; True when one does not."""
    assert scan.lexer is not None
    counts = [(len(m.forms), m) for m in plurals]
    if not counts:
        return False
    low = min(c for c, _m in counts)
    high = max(c for c, _m in counts)
    gnu_pick = None  # the entry msgfmt names
    if low < nplurals:
        gnu_pick = next(m for c, m in counts if c == low)
    elif high > nplurals:
        gnu_pick = next(m for c, m in counts if c == high)
    failed = False
    for c, m in counts:
        if c != nplurals:
            failed = True
            form = m.forms[0].kw
            scan.error(
                form.line,
                scan.lexer.col(form.pos),
                _count_message(c, nplurals),
                ((header.kw.gline, EAL), (form.gline, CONT)) if m is gnu_pick else (),
            )
    return failed


def _count_message(count: int, nplurals: int) -> str:
    if count < nplurals:
        missing = ", ".join(f"msgstr[{k}]" for k in range(count, min(nplurals, count + 3)))
        if nplurals > count + 3:
            missing += "..."
        return (
            f"the header's Plural-Forms says nplurals={nplurals}, and this entry has only "
            f"{count} plural form{'s' if count != 1 else ''}: add {missing}"
        )
    extra = f"msgstr[{nplurals}]" + (" and the ones after it" if count > nplurals + 1 else "")
    return (
        f"the header's Plural-Forms says nplurals={nplurals}, and this entry has {count} plural "
        f"forms: remove {extra} (or correct nplurals in the header)"
    )


def _gnu_has_help(header: str) -> bool:
    """Whether msgfmt finds a suggested formula for the header's language (its plural_help)."""
    at = header.find("Language: ")
    if at >= 0:
        m = re.compile(r"[^ \t\n]*").match(header, at + len("Language: "))
        assert m is not None
        if m.group() in _GNU_PLURAL_LANGS:
            return True
    at = header.find("Language-Team: ")
    if at >= 0:
        rest = header[at + len("Language-Team: ") :]
        return rest.startswith(_GNU_PLURAL_NAMES)
    return False


def _header_field(header: str, name: str) -> str:
    for line in header.split("\n"):
        if line.startswith(name + ":"):
            return line[len(name) + 1 :].strip()
    return ""


# --- the header's fields -----------------------------------------------------------------------


def check_header_fields(scan: Collector, header: Message) -> None:
    text = header.forms[0].text
    kw = header.forms[0].kw
    lines = text.split("\n")
    for name, default in _HEADER_FIELDS:
        value = None
        for line in lines:
            if line.startswith(name + ":"):
                value = line[len(name) + 1 :]
                break
        if value is None:
            if name == "Language":
                advice = 'add the language code, e.g. "Language: fr\\n"'
            else:
                advice = f'add "{name}: ...\\n"'
            scan.warn(kw.line, 1, f"the header has no {name} field: {advice}")
            continue
        shown = value[1:] if value.startswith(" ") else value
        if default is not None and shown == default:
            line_no = header_line(text, header.str_toks, name + ":", kw)
            scan.warn(
                line_no,
                1,
                f"the header field {name} still has the template's placeholder"
                + (f" {default!r}" if default else " (empty)")
                + ": fill it in",
            )


# --- each translated entry ---------------------------------------------------------------------


def check_pair(scan: Collector, m: Message, often: tuple[bool, ...] | None) -> None:
    """Leading/trailing newlines and format strings of a translated entry (GNU check_pair)."""
    _check_line_breaks(scan, m)
    _check_formats(scan, m, often)


def _check_line_breaks(scan: Collector, m: Message) -> None:
    """msgid, msgid_plural and every translation all begin with \\n or none does; the same at
    the end."""
    assert scan.lexer is not None
    col = scan.lexer.col
    gline = ((m.forms[0].kw.gline, EAL),)
    for begins in (True, False):
        where = "begin" if begins else "end"

        def has(text: str, begins: bool = begins) -> bool:
            return text[:1] == "\n" if begins else text[-1:] == "\n"

        want = has(m.msgid)
        if m.plural is not None and has(m.plural) != want:
            tok = m.plural_tok or m.msgid_tok
            scan.error(
                tok.line,
                col(tok.pos),
                f"msgid and msgid_plural do not both {where} with a line break (\\n): make "
                "them agree (this comes from the template: tell its authors)",
                gline,
            )
        for k, form in enumerate(m.forms):
            if has(form.text) == want:
                continue
            name = f"msgstr[{k}]" if m.plural is not None else "msgstr"
            if want:
                text = (
                    f"the msgid {where}s with a line break (\\n) and {name} does not: "
                    f"{where} the translation with \\n too"
                )
            else:
                text = (
                    f"{name} {where}s with a line break (\\n) and the msgid does not: "
                    f"remove it from the {'start' if begins else 'end'} of the translation"
                )
            scan.error(form.kw.line, col(form.kw.pos), text, gline)


def _check_formats(scan: Collector, m: Message, often: tuple[bool, ...] | None) -> None:
    """The placeholders of each translation against the source's, for each format flag."""
    assert scan.lexer is not None
    col = scan.lexer.col
    gline = ((m.forms[0].kw.gline, EAL),)
    plural = m.plural
    source = plural if plural is not None else m.msgid
    source_name = "msgid_plural" if plural is not None else "msgid"
    several = len(m.forms) > 1
    for lang, pretty, parse, check in FORMATS:
        if m.formats.get(lang) not in ("yes", "possible"):
            continue
        try:
            src = parse(source, False)
        except Invalid:
            continue
        for k, form in enumerate(m.forms):
            name = f"msgstr[{k}]" if plural is not None else "msgstr"
            try:
                tr = parse(form.text, True)
            except Invalid as exc:
                scan.error(
                    form.kw.line,
                    col(form.kw.pos),
                    f"{name} is not a valid {pretty} format string ({lang}-format), unlike "
                    f"the {source_name}: {exc}",
                    gline,
                )
                continue
            strict = plural is None or not several or _strict_for(scan, k, m, often)
            for text in check(src, tr, strict, (source_name, name)):
                scan.error(form.kw.line, col(form.kw.pos), text, gline)


def _strict_for(scan: Collector, k: int, m: Message, often: tuple[bool, ...] | None) -> bool:
    """Whether form ``k`` of a plural entry is checked strictly (it is taken for many n)."""
    if often is None or k >= len(often) or not often[k]:
        return False
    return m.range is None or _plural_histogram(scan, m.range, k) > 1


def _plural_histogram(scan: Collector, rng: tuple[int, int], k: int) -> int:
    """How many n of the range (``#, range:``) take form ``k``."""
    low, high = max(rng[0], 0), rng[1]
    if high - low > 1000:
        high = low + 1000
    header = scan.header
    assert header is not None
    found = inspect_header(header.forms[0].text)
    if found.forms is None:  # msgfmt's default, the Germanic n != 1
        return sum(1 for n in range(low, high + 1) if int(n != 1) == k)
    expr = found.forms.expr
    return sum(1 for n in range(low, high + 1) if evaluate(expr, n) == k)
