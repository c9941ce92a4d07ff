"""The strict reading of a gettext PO catalog: what ``msgfmt -c`` refuses, named at the line to fix.

pnp hands translators PO catalogs and reads them back with polib. Before polib, :func:`scan_po`
reads the bytes the way GNU gettext's ``msgfmt -c -o /dev/null`` (version 0.21: check-format,
check-header, check-domain) does and reports every error msgfmt reports, as a
:class:`PoProblem` with the line a translator must fix and a message in plain words; msgfmt's
warnings (header fields left at their template values...) come back as warnings.

How it mirrors msgfmt:

- the lexer reads tokens like GNU's po-lex.c: keywords, strings with C escapes, ``#`` comments,
  ``#~`` (obsolete) and ``#|`` (previous) prefixes, backslash-newline joins. A catalog is a
  stream of tokens, not of lines: ``msgid "a" msgstr "b"`` on one line is fine, and a string
  after a blank line still continues the msgstr above it;
- the parser follows GNU's grammar (po-gram-gen.y) and bison's error recovery, so the errors are
  the ones msgfmt finds, in its order;
- duplicates (same msgctxt and msgid) are errors even when one copy is obsolete (``#~``) or
  untranslated; an ``#,`` line replaces the flags of the ones above it (msgfmt keeps only the
  last one);
- untranslated and fuzzy entries are not checked further; the others are checked for the header,
  the plural forms (``Plural-Forms`` against each entry's ``msgstr[N]``), leading and trailing
  ``\n``, and the ``c-format``, ``python-format`` and ``python-brace-format`` placeholders.
  msgfmt skips these checks when the file has a syntax error; pnp makes them anyway, so that a
  translator sees everything at once.

The line of a problem is the one msgfmt names, except where msgfmt names a line after it (an
unterminated string, a misplaced comment, the end of the file, a keyword whose text is missing)
and for problems of one translation, named at its own ``msgstr[N]``.
:func:`scan_po_details` keeps, for each problem, the lines msgfmt itself prints.

pnp also refuses, on purpose, a few things msgfmt lets through: a file over 16 MB, NUL bytes,
bytes that do not decode in the declared charset, a UTF-8 file labelled with another charset,
a charset pnp cannot read (anything but GNU's portable names that Python knows), strings longer
than ``max_string`` characters, and the limits of :mod:`.plural`. It accepts a UTF-8
byte-order mark (with a warning), which msgfmt does not.

The scan is linear in the size of the file. Ordinary entries, runs of comments and runs of
strings are each read with one regular expression whose repetitions never backtrack; the rest
goes token by token.
"""

from __future__ import annotations

import bisect
import codecs
import gc
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from .plural import HeaderPlural, PluralForms, evaluate, inspect_header, plural_forms_for

MAX_FILE_BYTES = 16 * 1024 * 1024
"""pnp does not read a catalog larger than this (checked before decoding)."""
MAX_ERRORS = 200
"""After this many errors the scan stops: the file needs fixing before more is useful."""
MAX_WARNINGS = 200
"""Warnings after this many are counted, not listed."""
FAST_PATHS = True
"""Read ordinary entries, comments and runs of strings in bulk (the tests turn it off to check
that the result is the same)."""

ERROR = "error"
WARNING = "warning"


@dataclass(frozen=True)
class PoProblem:
    """One thing to fix in a catalog: where (1-based line and column) and what to do."""

    line: int
    col: int
    message: str
    severity: str  # "error" or "warning"


@dataclass
class PoScan:
    """What :func:`scan_po` found in a catalog."""

    problems: list[PoProblem]
    text: str | None
    """The decoded file (None when it could not be decoded)."""
    charset: str
    """The charset the header declares, normalised (``UTF-8``), or "" when it declares none."""
    plural: PluralForms | None
    """The header's Plural-Forms, when it has one that is valid."""
    msgstr_lines: dict[tuple[str | None, str], int]
    """(msgctxt or None, msgid) of each active (non-obsolete) entry -> line of its first msgstr."""

    @property
    def errors(self) -> list[PoProblem]:
        return [p for p in self.problems if p.severity == ERROR]


def scan_po(data: bytes, *, max_string: int = 100_000) -> PoScan:
    """Check a PO catalog as ``msgfmt -c`` would, plus pnp's own refusals (see the module)."""
    return scan_po_details(data, max_string=max_string).scan


# How msgfmt prints an error: with error() (PLAIN), or with error_at_line() (EAL), which prints
# nothing when the previous error_at_line() named the same line (GNU sets error_one_per_line);
# CONT is an error_at_line() continuation ("...this is the location of the first definition").
PLAIN = 0
EAL = 1
CONT = 2


@dataclass
class Finding:
    """A problem with what msgfmt prints for it (nothing when only pnp reports it)."""

    problem: PoProblem
    gnu: tuple[tuple[int, int], ...] = ()
    """(line, how) of each message msgfmt -c prints for it, in order; line 0 is the whole file."""


@dataclass
class ScanDetails:
    """The scan, plus the findings in the order msgfmt reports them (for comparing with it)."""

    scan: PoScan
    findings: list[Finding]
    refused_by_pnp_only: bool = False
    """True when an error comes from pnp's own limits (msgfmt may accept the file)."""

    def msgfmt_lines(self) -> list[int]:
        """The lines of the errors msgfmt -c prints, in its order (continuations left out)."""
        out: list[int] = []
        last = -1
        for finding in self.findings:
            for line, how in finding.gnu:
                if how == PLAIN:
                    out.append(line)
                elif line != last:
                    last = line
                    if how == EAL:
                        out.append(line)
        return out


def scan_po_details(data: bytes, *, max_string: int = 100_000) -> ScanDetails:
    """Like :func:`scan_po`, keeping msgfmt's order and lines (used by the tests against it)."""
    # The scan makes many small objects that live until its end, and creates no cycles: the
    # garbage collector would only walk them again and again (quadratic on huge catalogs).
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _Scan(data, max_string).run()
    finally:
        if collecting:
            gc.enable()


# --- tokens ------------------------------------------------------------------------------------

EOF = 0
COMMENT = 1
DOMAIN = 2
JUNK = 3
PREV_MSGCTXT = 4
PREV_MSGID = 5
PREV_MSGID_PLURAL = 6
PREV_STRING = 7
MSGCTXT = 8
MSGID = 9
MSGID_PLURAL = 10
MSGSTR = 11
NAME = 12
LBRACKET = 13
RBRACKET = 14
NUMBER = 15
STRING = 16

_KEYWORDS = {
    "domain": DOMAIN,
    "msgid": MSGID,
    "msgid_plural": MSGID_PLURAL,
    "msgstr": MSGSTR,
    "msgctxt": MSGCTXT,
}
_PREV_KEYWORDS = {"msgid": PREV_MSGID, "msgid_plural": PREV_MSGID_PLURAL, "msgctxt": PREV_MSGCTXT}
_SHOWN = {
    EOF: "the end of the file",
    COMMENT: "a comment",
    DOMAIN: "domain",
    PREV_MSGCTXT: "#| msgctxt",
    PREV_MSGID: "#| msgid",
    PREV_MSGID_PLURAL: "#| msgid_plural",
    PREV_STRING: "a #| string",
    MSGCTXT: "msgctxt",
    MSGID: "msgid",
    MSGID_PLURAL: "msgid_plural",
    MSGSTR: "msgstr",
    LBRACKET: "'['",
    RBRACKET: "']'",
    STRING: "a string",
}


@dataclass(slots=True)
class _Tok:
    """A token: its kind, value, where msgfmt says it is, where it starts, and #~ or not."""

    kind: int
    value: object
    gline: int  # the line msgfmt names for this token (where its last character is read)
    line: int  # the line it starts on
    pos: int  # offset of its first character in the (joined) text
    obs: bool
    cut: bool = False  # a string gettext cuts at a \0 (pnp warns when the parser takes it)


_ESCAPES = {"n": "\n", "t": "\t", "b": "\b", "r": "\r", "f": "\f", "v": "\v", "a": "\a"}
_SPACE = re.compile(r"[ \t\r\f\v\n]*")
_IDENT = re.compile(r"[A-Za-z0-9_$]*")
_DIGITS = re.compile(r"[0-9]*")
_OCTAL = re.compile(r"[0-7]{1,3}")
_HEX = re.compile(r"[0-9A-Fa-f]+")
_CHUNK = re.compile(r'[^"\\\n]*')
_LONG_MAX = (1 << 63) - 1


def _end(pattern: re.Pattern[str], s: str, i: int) -> int:
    """Where a pattern that cannot fail (it may match nothing) ends, from ``i``."""
    m = pattern.match(s, i)
    assert m is not None
    return m.end()


class _Lexer:
    """GNU po-lex.c over decoded text, with backslash-newline already joined."""

    def __init__(self, scan: _Scan, text: str, splices: list[int]) -> None:
        self.scan = scan
        self.s = text
        self.n = len(text)
        self.i = 0
        self.nl = 0  # newlines before self.i (in the joined text)
        self.splices = splices  # offsets in the joined text where a backslash-newline was
        self.obs = False
        self.prev = False
        self.last_line = 1
        self.eilseq = 0  # bytes msgfmt will find invalid when it reads on (see on_header_charset)
        self.col_cache = (0, 0)  # (an offset, the start of its line)

    def line_at(self, pos: int, nl: int) -> int:
        """The file line of offset ``pos`` when ``nl`` newlines of the joined text precede it."""
        if self.splices:
            return nl + 1 + bisect.bisect_right(self.splices, pos)
        return nl + 1

    def col(self, pos: int) -> int:
        """The 1-based column of ``pos`` (asked mostly in order: the last answer is kept)."""
        seen, start = self.col_cache
        if pos >= seen:
            found = self.s.rfind("\n", seen, pos)
            start = found + 1 if found >= 0 else start
        else:
            start = self.s.rfind("\n", 0, pos) + 1
        self.col_cache = (pos, start)
        return pos - start + 1

    def error(self, gline: int, line: int, pos: int, message: str) -> None:
        self.scan.error(line, self.col(pos), message, ((gline, EAL),))

    def next(self) -> _Tok:
        s = self.s
        n = self.n
        while self.eilseq:
            self.eilseq -= 1
            self.scan.error(
                self.last_line,
                self.col(self.i),
                "this character is split by the end of the header entry: msgfmt reads its "
                "first byte before it knows the charset and the rest after; remove it",
                ((self.last_line, PLAIN),),
            )
        while True:
            i = self.i
            if i >= n:
                return _Tok(EOF, None, self.line_at(n, self.nl), self.last_line, n, self.obs)
            c = s[i]
            if c in " \t\r\f\v\n":
                end = _end(_SPACE, s, i)
                newlines = s.count("\n", i, end)
                if newlines:
                    self.nl += newlines
                    self.obs = self.prev = False
                self.i = end
                continue
            line = self.line_at(i, self.nl)
            self.last_line = line
            if c == "#":
                c2 = s[i + 1] if i + 1 < n else ""
                if c2 == "~":
                    self.obs = True
                    self.i = i + 2
                    if i + 2 < n and s[i + 2] == "|":
                        self.prev = True
                        self.i = i + 3
                    continue
                if c2 == "|":
                    self.prev = True
                    self.i = i + 2
                    continue
                end = s.find("\n", i + 1)
                if end < 0:
                    self.i = n
                    tok = _Tok(COMMENT, s[i + 1 :], self.line_at(n, self.nl), line, i, self.obs)
                else:
                    self.i = end + 1
                    self.nl += 1
                    gline = self.line_at(end, self.nl)
                    tok = _Tok(COMMENT, s[i + 1 : end], gline, line, i, self.obs)
                self.obs = False
                return tok
            if c == '"':
                return self.string(i, line)
            if c.isascii() and (c.isalpha() or c == "_" or c == "$"):
                end = _end(_IDENT, s, i + 1)
                word = s[i:end]
                self.i = end
                gline = self.line_at(end, self.nl)  # msgfmt: where the word ends
                kind = (_PREV_KEYWORDS if self.prev else _KEYWORDS).get(word)
                if kind is None:
                    self.error(gline, line, i, _unknown_keyword(word, self.prev))
                    return _Tok(NAME, word, gline, line, i, self.obs)
                return _Tok(kind, word, gline, line, i, self.obs)
            if "0" <= c <= "9":
                end = _end(_DIGITS, s, i + 1)
                self.i = end
                digits = s[i:end].lstrip("0")
                value = _LONG_MAX if len(digits) > 19 else min(int(digits or "0"), _LONG_MAX)
                return _Tok(NUMBER, value, self.line_at(end, self.nl), line, i, self.obs)
            self.i = i + 1
            if c == "[":
                return _Tok(LBRACKET, c, line, line, i, self.obs)
            if c == "]":
                return _Tok(RBRACKET, c, line, line, i, self.obs)
            return _Tok(JUNK, c, line, line, i, self.obs)

    def string(self, start: int, line: int) -> _Tok:
        s = self.s
        n = self.n
        parts: list[str] = []
        j = start + 1
        while True:
            end = _end(_CHUNK, s, j)
            if end > j:
                parts.append(s[j:end])
            if end >= n:
                self.error(
                    self.line_at(n, self.nl),
                    line,
                    start,
                    "the file ends inside this string: add the closing double quote "
                    '(" at the end of the text); is the file cut short?',
                )
                j = n
                gline = self.line_at(n, self.nl)
                break
            c = s[end]
            if c == '"':
                j = end + 1
                gline = self.line_at(end, self.nl)
                break
            if c == "\n":
                j = end + 1
                self.nl += 1  # the newline belongs to the string: #~ and #| stay in force
                gline = self.line_at(end, self.nl)
                self.error(
                    gline,
                    line,
                    start,
                    "this string is not closed: add the final double quote at the end of the "
                    'line (a text that goes on over several lines is written "..." on each)',
                )
                break
            j = self.escape(end, parts)
        self.i = j
        value = "".join(parts)
        cut = "\0" in value
        if cut:
            value = value[: value.index("\0")]
        if "\x04" in value:
            self.error(
                gline,
                line,
                start,
                "this string contains the control character EOT (\\004 or \\x04), which a "
                "catalog cannot hold: remove it",
            )
        if self.prev:
            return _Tok(PREV_STRING, value, gline, line, start, self.obs, cut)
        return _Tok(STRING, value, gline, line, start, self.obs, cut)

    def escape(self, at: int, parts: list[str]) -> int:
        """Decode the escape at ``s[at] == '\\'``; return where the string goes on."""
        s = self.s
        k = at + 1
        c = s[k] if k < self.n else ""
        if c in _ESCAPES:
            parts.append(_ESCAPES[c])
            return k + 1
        if c == "\\" or c == '"':
            parts.append(c)
            return k + 1
        if "0" <= c <= "7":
            m = _OCTAL.match(s, k)
            assert m is not None
            parts.append(chr(int(m.group(), 8) & 0xFF))
            return m.end()
        if c == "x":
            m = _HEX.match(s, k + 1)
            if m is not None:
                parts.append(chr(int(m.group()[-2:], 16)))
                return m.end()
            k += 1  # the x is read; what follows it is read again
            shown = "\\x"
        else:
            shown = "\\" + c if c else "\\"
        line = self.line_at(k, self.nl)
        self.scan.error(
            line,
            self.col(at),
            f"{shown} is not an escape sequence gettext knows: write \\\\ for a backslash; "
            'the escapes are \\n \\t \\" \\\\ and \\r \\a \\b \\f \\v, \\NNN (octal), \\xHH',
            ((line, PLAIN),),
        )
        parts.append(" ")
        return k


def _unknown_keyword(word: str, previous: bool) -> str:
    if previous and word == "msgstr":
        return (
            "#| lines keep only the previous msgctxt, msgid and msgid_plural, never a msgstr: "
            "remove this line"
        )
    if previous:
        return (
            f"'{word}' is not a keyword of a #| line (#| msgctxt, #| msgid, #| msgid_plural): "
            "fix or remove it"
        )
    return (
        f"'{word}' is not a catalog keyword: a line starts with msgctxt, msgid, msgid_plural, "
        'msgstr, a # comment, or a string in double quotes (is a " missing at the start '
        "of this text?)"
    )


# --- charsets ----------------------------------------------------------------------------------

# GNU's portable encoding names (po-charset.c) and the codec Python reads each with.
_CHARSETS = {
    "ASCII": "ascii",
    "ANSI_X3.4-1968": "ascii",
    "US-ASCII": "ascii",
    "UTF-8": "utf-8",
    "KOI8-R": "koi8_r",
    "KOI8-U": "koi8_u",
    "KOI8-T": "koi8_t",
    "CP850": "cp850",
    "CP866": "cp866",
    "CP874": "cp874",
    "CP932": "cp932",
    "CP949": "cp949",
    "CP950": "cp950",
    "CP1250": "cp1250",
    "CP1251": "cp1251",
    "CP1252": "cp1252",
    "CP1253": "cp1253",
    "CP1254": "cp1254",
    "CP1255": "cp1255",
    "CP1256": "cp1256",
    "CP1257": "cp1257",
    "GB2312": "gb2312",
    "EUC-JP": "euc_jp",
    "EUC-KR": "euc_kr",
    "EUC-TW": "",  # GNU knows it, Python does not
    "BIG5": "big5",
    "BIG5-HKSCS": "big5hkscs",
    "GBK": "gbk",
    "GB18030": "gb18030",
    "SHIFT_JIS": "shift_jis",
    "JOHAB": "johab",
    "TIS-620": "tis_620",
    "VISCII": "",
    "GEORGIAN-PS": "",
}
for _n in (1, 2, 3, 4, 5, 6, 7, 8, 9, 13, 14, 15):
    _CHARSETS[f"ISO-8859-{_n}"] = f"iso8859_{_n}"
    _CHARSETS[f"ISO_8859-{_n}"] = f"iso8859_{_n}"
_CANONICAL = {name.upper(): name for name in _CHARSETS}
_CANONICAL.update({f"ISO_8859-{n}": f"ISO-8859-{n}" for n in (1, 2, 3, 4, 5, 6, 7, 8, 9)})
_CANONICAL.update({f"ISO_8859-{n}": f"ISO-8859-{n}" for n in (13, 14, 15)})
_CANONICAL.update({"ANSI_X3.4-1968": "ASCII", "US-ASCII": "ASCII"})


def _canonical_charset(name: str) -> str | None:
    """GNU's canonical name for a declared charset, or None if GNU does not know it."""
    return _CANONICAL.get(name.upper())


def _declared_charset(header: str) -> str | None:
    """The text after the first ``charset=`` of a header, up to white space (msgfmt's rule)."""
    at = header.find("charset=")
    if at < 0:
        return None
    m = re.compile(r"[^ \t\n]*").match(header, at + len("charset="))
    assert m is not None
    return m.group()


class _Restart(Exception):
    """The header declares a charset the file must be decoded with first."""

    def __init__(self, codec: str) -> None:
        self.codec = codec


# --- entries -----------------------------------------------------------------------------------


@dataclass(slots=True)
class _Form:
    """One translation: msgstr, or msgstr[index]."""

    kw: _Tok  # the msgstr keyword
    text: str
    index: int = -1


@dataclass(slots=True)
class _Message:
    """A complete entry as msgfmt keeps it."""

    ctxt: str | None
    msgid: str
    msgid_tok: _Tok
    plural: str | None
    plural_tok: _Tok | None
    forms: list[_Form]
    obsolete: bool
    fuzzy: bool
    formats: dict[str, str]
    range: tuple[int, int] | None
    str_toks: list[_Tok] | None = None  # the header's msgstr strings, to find a field's line

    @property
    def is_header(self) -> bool:
        return self.ctxt is None and self.msgid == ""


@dataclass(slots=True)
class _Flags:
    fuzzy: bool = False
    formats: dict[str, str] = field(default_factory=dict)
    range: tuple[int, int] | None = None


_FORMAT_FLAGS: dict[str, tuple[str, str]] = {}
for _lang in ("c", "python", "python-brace"):
    _FORMAT_FLAGS[f"{_lang}-format"] = (_lang, "yes")
    _FORMAT_FLAGS[f"no-{_lang}-format"] = (_lang, "no")
    _FORMAT_FLAGS[f"possible-{_lang}-format"] = (_lang, "possible")
    _FORMAT_FLAGS[f"impossible-{_lang}-format"] = (_lang, "impossible")
_FLAG_SPLIT = re.compile(r"[^\n \t\r\f\v,]+")
_RANGE = re.compile(r"([0-9]+)\.\.([0-9]+)")


def _read_flags(text: str, flags: _Flags) -> None:
    """Read a ``#,`` line into the flags of the next entry (GNU po_parse_comment_special)."""
    words = _FLAG_SPLIT.findall(text)
    k = 0
    while k < len(words):
        word = words[k]
        k += 1
        if word == "fuzzy":
            flags.fuzzy = True
        elif word in _FORMAT_FLAGS:
            lang, value = _FORMAT_FLAGS[word]
            flags.formats[lang] = value
        elif word == "range:" and k < len(words):
            m = _RANGE.match(words[k])
            k += 1
            if m:
                low = min(int(m.group(1)[-12:]), 2**31 - 1)
                high = min(int(m.group(2)[-12:]), 2**31 - 1)
                if low <= high:
                    flags.range = (low, high)


# --- the parser: GNU's grammar, bison's recovery -----------------------------------------------

# Parser states, named after what has been read (see GNU po-gram-gen.y).
P = 0  # between entries
D1 = 1  # domain .
C1 = 2  # msgctxt .
C2 = 3  # msgctxt "..." .
M1 = 4  # msgid .
M2 = 5  # msgid "..." .
M3 = 6  # msgid "..." msgstr .
M4 = 7  # msgid "..." msgstr "..." .
MP1 = 8  # msgid_plural .
MP2 = 9  # msgid_plural "..." .
M6 = 10  # msgid "..." msgid_plural "..." .
PM = 11  # (plural forms) msgstr .   expecting [
B2 = 12  # msgstr [ .
B3 = 13  # msgstr [ N .
B4 = 14  # msgstr [ N ] .
B5 = 15  # msgstr [ N ] "..." .
M5 = 16  # msgid "..." msgstr[N] "..." .   (no msgid_plural)
M7 = 17  # msgid "..." msgid_plural "..." msgstr[N] "..." .
Q1 = 18  # #| msgctxt .
Q2 = 19  # #| msgctxt "..." .
Q3 = 20  # #| msgid .
Q4 = 21  # #| msgid "..." .
Q5 = 22  # #| msgid_plural .
Q6 = 23  # #| msgid_plural "..." .
R = 24  # #| lines read: expecting msgctxt or msgid

# The tokens each state shifts, and to which state; in the states of _REDUCES any other token
# completes what was read (bison's default reduction); elsewhere it is a syntax error.
_SHIFTS: dict[int, dict[int, int]] = {
    P: {COMMENT: P, DOMAIN: D1, MSGID: M1, MSGCTXT: C1, PREV_MSGID: Q3, PREV_MSGCTXT: Q1},
    D1: {STRING: P},
    C1: {STRING: C2},
    C2: {STRING: C2, MSGID: M1},
    M1: {STRING: M2},
    M2: {STRING: M2, MSGSTR: M3, MSGID_PLURAL: MP1},
    M3: {STRING: M4, LBRACKET: B2},
    M4: {STRING: M4},
    MP1: {STRING: MP2},
    MP2: {STRING: MP2},
    M6: {MSGSTR: PM},
    PM: {LBRACKET: B2},
    B2: {NUMBER: B3},
    B3: {RBRACKET: B4},
    B4: {STRING: B5},
    B5: {STRING: B5},
    M5: {MSGSTR: PM},
    M7: {MSGSTR: PM},
    Q1: {PREV_STRING: Q2},
    Q2: {PREV_STRING: Q2, PREV_MSGID: Q3},
    Q3: {PREV_STRING: Q4},
    Q4: {PREV_STRING: Q4, PREV_MSGID_PLURAL: Q5},
    Q5: {PREV_STRING: Q6},
    Q6: {PREV_STRING: Q6},
    R: {MSGID: M1, MSGCTXT: C1},
}
_REDUCES = frozenset({M2, M4, MP2, M6, B5, M5, M7, Q4, Q6})
# States whose first string starts a new list (the others add to the current one).
_NEW_LIST = frozenset({C1, M1, M3, MP1, B4, Q1, Q3, Q5})
_APPENDS = frozenset({C2, M2, M4, MP2, B5, Q2, Q4, Q6})

# The fast paths' regular expressions. Their repetitions are possessive (*+, ++): they never give
# back what they matched, so they cannot backtrack (and run about 5 times faster); each is used
# only where giving back could not change the outcome.
_ESC = r'\\(?:[ntbrfva\\"]|[0-7]{1,3}+|x[0-9A-Fa-f]++)'
_S = r'"[^"\\\n\x04]*+(?:' + _ESC + r'[^"\\\n\x04]*+)*+"'  # a string (maybe without errors)
_W = r"[ \t\r\f\v\n]*+"  # between the tokens of an entry
_OW = r"[ \t\r\f\v]*+(?:\n[ \t\r\f\v\n]*+#~(?!\|)[ \t\r\f\v]*+)*+"  # ... of an obsolete entry
_PW = r"[ \t\r\f\v]*+(?:\n[ \t\r\f\v\n]*+#\|[ \t\r\f\v]*+)*+"  # ... of #| lines
_OPW = r"[ \t\r\f\v]*+(?:\n[ \t\r\f\v\n]*+#~\|[ \t\r\f\v]*+)*+"  # ... of #~| lines
_STRS = _S + r"(?:" + _W + _S + r")*+"
_OSTRS = _S + r"(?:" + _OW + _S + r")*+"
_PSTRS = _S + r"(?:" + _PW + _S + r")*+"
_OPSTRS = _S + r"(?:" + _OPW + _S + r")*+"
# What follows an entry, cannot continue it, and is read without an error: the end, a comment,
# or msgid or msgctxt, maybe after #~ or #| (but #~ or #| alone, then a string on the next line,
# would continue the entry).
_NEXT = r"(?=\Z|#(?![~|])|(?:#(?:~\|?|\|)[ \t\r\f\v]*+)?+msg(?:id|ctxt)(?![\w$]))"
_ACTIVE = re.compile(
    # #| lines (the previous msgctxt, msgid, msgid_plural); then a new line ends them
    r"(?:#\|[ \t\r\f\v]*+(?:msgctxt"
    + _PW
    + _PSTRS
    + _PW
    + r")?+msgid"
    + _PW
    + _PSTRS
    + r"(?:"
    + _PW
    + r"msgid_plural"
    + _PW
    + _PSTRS
    + r")?+[ \t\r\f\v]*+\n"
    + _W
    + r")?+"
    r"(?:(?P<ck>msgctxt)" + _W + r"(?P<c>" + _STRS + r")" + _W + r")?+"
    r"(?P<ik>msgid)"
    + _W
    + r"(?P<i>"
    + _STRS
    + r")"
    + _W
    + r"(?:(?P<sk>msgstr)"
    + _W
    + r"(?P<s>"
    + _STRS
    + r")"
    r"|(?P<pk>msgid_plural)"
    + _W
    + r"(?P<p>"
    + _STRS
    + r")"
    + _W
    + r"(?P<f>msgstr"
    + _W
    + r"\["
    + _W
    + r"[0-9]++"
    + _W
    + r"\]"
    + _W
    + _STRS
    + r"(?:"
    + _W
    + r"msgstr"
    + _W
    + r"\["
    + _W
    + r"[0-9]++"
    + _W
    + r"\]"
    + _W
    + _STRS
    + r")*+))"
    + _W
    + _NEXT
)
_OBSOLETE = re.compile(
    # #~| lines (the previous msgctxt, msgid, msgid_plural of an obsolete entry)
    r"(?:#~\|[ \t\r\f\v]*+(?:msgctxt"
    + _OPW
    + _OPSTRS
    + _OPW
    + r")?+msgid"
    + _OPW
    + _OPSTRS
    + r"(?:"
    + _OPW
    + r"msgid_plural"
    + _OPW
    + _OPSTRS
    + r")?+[ \t\r\f\v]*+\n"
    + r"[ \t\r\f\v\n]*+)?+"
    r"#~[ \t\r\f\v]*+"
    r"(?:(?P<ck>msgctxt)" + _OW + r"(?P<c>" + _OSTRS + r")" + _OW + r")?+"
    r"(?P<ik>msgid)"
    + _OW
    + r"(?P<i>"
    + _OSTRS
    + r")"
    + _OW
    + r"(?:(?P<sk>msgstr)"
    + _OW
    + r"(?P<s>"
    + _OSTRS
    + r")"
    r"|(?P<pk>msgid_plural)"
    + _OW
    + r"(?P<p>"
    + _OSTRS
    + r")"
    + _OW
    + r"(?P<f>msgstr"
    + _OW
    + r"\["
    + _OW
    + r"[0-9]++"
    + _OW
    + r"\]"
    + _OW
    + _OSTRS
    + r"(?:"
    + _OW
    + r"msgstr"
    + _OW
    + r"\["
    + _OW
    + r"[0-9]++"
    + _OW
    + r"\]"
    + _OW
    + _OSTRS
    + r")*+))"
    # the obsolete entry's last line ends; or, on the same line, #~ starts another entry (then
    # the #~ of this line is still in force)
    r"(?:[ \t\r\f\v]*+(?:\n|\Z)[ \t\r\f\v\n]*+"
    + _NEXT
    + r"|[ \t\r\f\v]*+(?=#~[ \t\r\f\v]*+msg(?:id|ctxt)(?![\w$])))"
)
_FORM_RUN = re.compile(
    r"(?:" + _W + r"msgstr" + _W + r"\[" + _W + r"[0-9]++" + _W + r"\]" + _W + _STRS + r")++"
)
_FORM_STATES = frozenset({M2, M5, M6, M7, B5})
_FORM = re.compile(
    r"msgstr" + _W + r"\[" + _W + r"([0-9]++)" + _W + r"\]" + _W + r"(" + _STRS + r")"
)
_OBS_FORM = re.compile(
    r"msgstr" + _OW + r"\[" + _OW + r"([0-9]++)" + _OW + r"\]" + _OW + r"(" + _OSTRS + r")"
)
# Comment lines (not #~ nor #|), and the white space after them.
_COMMENTS = re.compile(r"(?:#(?:[^~|\n][^\n]*+)?+\n[ \t\r\f\v\n]*+)++")
_SPECIAL_REVERSED = re.compile(r"[,!]#[ \t\r\f\v]*+(?=\n|\Z)")  # "#," at a line start, reversed
# More strings of the field being read: plain, in an obsolete entry, or in #| lines.
_RUNS = {
    (False, False): re.compile(r"(?:" + _W + _S + r")++"),
    (True, False): re.compile(r"(?:" + _OW + _S + r")++"),
    (False, True): re.compile(r"(?:" + _PW + _S + r")++"),
}
# Tokens bison drops after an error (anything that cannot start an entry), none with an error.
_DISCARD = re.compile(r'(?:[^"#A-Za-z_$]++|"[^"\\\n\x04]*+")++')
_PREFIX = re.compile(r"(#~\|?|#\|)[ \t]*")
_STRING = re.compile(_S)
_KEEP_TOKENS = 1000  # the header's strings whose lines are kept (to point at its fields)
_PIECE = re.compile(r'"((?:[^"\\]|\\.)*+)"')
_ESCAPE = re.compile(r'\\(?:([ntbrfva\\"])|([0-7]{1,3})|x([0-9A-Fa-f]+))')


def _unescape(m: re.Match[str]) -> str:
    simple, octal, hexa = m.groups()
    if simple is not None:
        return _ESCAPES.get(simple, simple)
    if octal is not None:
        return chr(int(octal, 8) & 0xFF)
    return chr(int(hexa[-2:], 16))


def _strs_value(raw: str) -> str | None:
    """The text of strings a fast path read, or None if one holds \\0 or \\004 (see _pieces)."""
    if "\\" not in raw and "\0" not in raw:
        if raw.find('"', 1) == len(raw) - 1:
            return raw[1:-1]
        return "".join(raw.split('"')[1::2])
    if raw.find('"', 1) == len(raw) - 1:  # one string (an escaped quote would be found)
        value = _ESCAPE.sub(_unescape, raw[1:-1])
        return None if "\0" in value or "\x04" in value else value
    out = []
    for piece in _PIECE.findall(raw):
        value = _ESCAPE.sub(_unescape, piece) if "\\" in piece else piece
        if "\0" in value or "\x04" in value:
            return None
        out.append(value)
    return "".join(out)


def _strs_cut(raw: str) -> tuple[str, int] | None:
    """Like _strs_value, each string cut at its \\0, and how many were; None if \\004."""
    out = []
    cut = 0
    for piece in _PIECE.findall(raw):
        value = _ESCAPE.sub(_unescape, piece) if "\\" in piece else piece
        if "\0" in value:
            value = value[: value.index("\0")]
            cut += 1
        if "\x04" in value:
            return None
        out.append(value)
    return "".join(out), cut


def _decoded(s: str, start: int, end: int) -> list[tuple[int, str, bool]] | None:
    """Like _pieces, in one piece when no string holds \\0 (then nothing needs a warning)."""
    value = _strs_value(s[start:end])
    if value is not None:
        return [(start, value, False)]
    return _pieces(s, start, end)


def _pieces(s: str, start: int, end: int) -> list[tuple[int, str, bool]] | None:
    """Each string in s[start:end]: (offset, text cut at \\0, whether cut); None if \\004."""
    out = []
    for m in _STRING.finditer(s, start, end):
        piece = m.group()[1:-1]
        value = _ESCAPE.sub(_unescape, piece) if "\\" in piece else piece
        cut = "\0" in value
        if cut:
            value = value[: value.index("\0")]
        if "\x04" in value:
            return None
        out.append((m.start(), value, cut))
    return out


@dataclass(slots=True)
class _StrList:
    """string_list: the strings of one field; ``first`` gives its position and #~ flag."""

    first: _Tok
    parts: list[str]
    toks: list[_Tok] | None = None


class _Parser:
    """The entry being read, the grammar state, and bison's error recovery."""

    def __init__(self, scan: _Scan, lexer: _Lexer) -> None:
        self.scan = scan
        self.lexer = lexer
        self.state = P
        self.errstatus = 0
        self.plural_counter = 0  # GNU resets it only at msgid_plural
        self.flags = _Flags()  # from #, lines; GNU forgets them only when an entry is stored
        self.la: _Tok | None = None
        self.reset()

    def reset(self) -> None:
        """Forget the entry being read (complete, or dropped by an error)."""
        self.prev_ctxt_kw: _Tok | None = None
        self.prev_kw: _Tok | None = None
        self.prev_plural_kw: _Tok | None = None
        self.ctxt_kw: _Tok | None = None
        self.domain_kw: _Tok | None = None
        self.intro: _Tok | None = None  # msgid
        self.plural_kw: _Tok | None = None
        self.msgstr_kw: _Tok | None = None
        self.form_kw: _Tok | None = None
        self.form_lb: _Tok | None = None
        self.form_num: _Tok | None = None
        self.form_rb: _Tok | None = None
        self.lists: dict[int, _StrList] = {}  # by the state that started each list
        self.current: _StrList | None = None
        self.forms: list[tuple[_Tok, _StrList, int]] = []
        self.after_plural = False  # the plural forms being read follow a msgid_plural

    def same_obs(self, first: _Tok, second: _Tok) -> None:
        """GNU check_obsolete: all tokens of an entry are #~ or none is."""
        if first.obs != second.obs:
            if second.obs:
                what = "this line is marked obsolete (#~) but the entry it belongs to is not"
            else:
                what = "this line lacks the #~ of the obsolete entry it belongs to"
            self.scan.error(
                second.line,
                self.lexer.col(second.pos),
                f"{what}: an entry is obsolete on all its lines or on none (add or remove #~)",
                ((second.gline, EAL),),
            )

    def run(self) -> None:
        lexer = self.lexer
        scan = self.scan
        fast = FAST_PATHS
        failed_at = -1  # where the fast path last gave up (the slow path reads on from there)
        while True:
            if fast and self.la is not None and self.state == P and not lexer.eilseq:
                self.unread(failed_at)
            if self.la is None:
                if fast and not lexer.eilseq:
                    if self.state == P:
                        if self.fast_between():
                            continue
                        failed_at = lexer.i
                    elif (self.state in _APPENDS and self.fast_strings()) or (
                        self.state in _FORM_STATES and self.fast_forms()
                    ):
                        continue
                self.la = lexer.next()
            tok = self.la
            state = self.state
            nxt = _SHIFTS[state].get(tok.kind)
            if nxt is not None:
                self.la = None
                if self.errstatus:
                    self.errstatus -= 1
                self.state = nxt
                self.shift(state, tok)
                continue
            if state == P and tok.kind == EOF:
                return
            if state in _REDUCES:
                self.reduce(state)
                continue
            if self.errstatus == 0:
                self.syntax_error(state, tok)
            elif self.errstatus == 3:
                if tok.kind == EOF:
                    return
                self.la = None  # bison drops a token that cannot start anything
            self.errstatus = 3
            self.state = P
            self.reset()
            if scan.stopped:
                return

    # -- fast paths: ordinary entries, runs of comments, of strings or of dropped tokens, each
    # read with one regular expression. They take only what the token-by-token path reads the
    # same way, without an error; the tests check that both paths find the same.
    def unread(self, failed_at: int) -> None:
        """Give the lookahead back to the lexer if it starts what the fast path may read.

        Such a token (a keyword, or a comment line) changed nothing but the position, the line
        count and the #~ and #| flags, which are put back as they were before it.
        """
        tok = self.la
        assert tok is not None
        lexer = self.lexer
        s = lexer.s
        kind = tok.kind
        if kind == COMMENT:
            if tok.obs or lexer.prev or tok.pos == failed_at:
                return
            if lexer.i > tok.pos and s[lexer.i - 1] == "\n":
                lexer.nl -= 1
            lexer.i = tok.pos
        elif kind in (MSGID, MSGCTXT) and not tok.obs and not lexer.prev:
            if tok.pos == failed_at:
                return
            lexer.i = tok.pos
        elif kind in (MSGID, MSGCTXT, PREV_MSGID, PREV_MSGCTXT):
            start = s.rfind("\n", max(0, tok.pos - 80), tok.pos) + 1  # (a prefix is short)
            prefix = _PREFIX.fullmatch(s, start, tok.pos)
            if start == failed_at or prefix is None:
                return
            if prefix.group(1) != (
                "#~" if kind in (MSGID, MSGCTXT) else "#|" if not tok.obs else "#~|"
            ):
                return
            lexer.i = start
            lexer.obs = lexer.prev = False
        else:
            return
        self.la = None

    def fast_between(self) -> bool:
        """In state P: read what follows in bulk if it is ordinary. False: use the slow path."""
        lexer = self.lexer
        s = lexer.s
        i = lexer.i
        if i < lexer.n and s[i] in " \t\r\f\v\n":
            end = _end(_SPACE, s, i)
            newlines = s.count("\n", i, end)
            if newlines:
                lexer.nl += newlines
                lexer.obs = lexer.prev = False
            lexer.i = i = end
        if i >= lexer.n:
            return False
        if self.errstatus == 3:  # bison drops every token that cannot start an entry
            m = _DISCARD.match(s, i)
            if m is not None:
                end = m.end()
                newlines = s.count("\n", i, end)
                if newlines:
                    lexer.nl += newlines
                    lexer.obs = lexer.prev = False
                lexer.i = end
                return True
        if lexer.obs or lexer.prev:
            return False
        return self.fast_run(i)

    def fast_run(self, i: int) -> bool:
        """Read comments and ordinary entries in bulk for as long as they come."""
        lexer = self.lexer
        s = lexer.s
        scan = self.scan
        seen = scan.seen
        msgstr_lines = scan.msgstr_lines
        limit = scan.max_string
        count = s.count
        line_at = lexer.line_at
        splices = lexer.splices
        active = _ACTIVE.match
        obsolete_entry = _OBSOLETE.match
        done = False
        while True:
            c = s[i : i + 2]
            if c[:1] == "#" and c[1:] not in ("~", "|"):
                if not self.fast_comments(i):
                    return done
                done = True
                i = lexer.i
                continue
            if c[:1] == "m" or c == "#|":
                obsolete = False
                m = active(s, i)
            elif c == "#~":
                obsolete = True
                m = obsolete_entry(s, i)
            else:
                return done
            if m is None:
                return done
            if c == "#|" or c == "#~":  # #| strings may hold \0 or \004 too
                head = m.start(1) if m.start(1) >= 0 else m.start(3)
                if ("\\" in s[i:head] or "\0" in s[i:head]) and _strs_value(s[i:head]) is None:
                    return self.fast_entry(i, m, obsolete) or done
            flags = self.flags
            ctxt_raw, id_raw, str_raw = m.group(2, 4, 6)
            end = m.end()
            if str_raw is None or flags.formats or end - i > limit:
                return self.fast_entry(i, m, obsolete) or done
            # The most common entry: nothing to check later unless its line breaks differ.
            # (one string, no escape: its text is between the quotes)
            if "\\" in id_raw or "\0" in id_raw or id_raw.find('"', 1) != len(id_raw) - 1:
                msgid = _strs_value(id_raw)
            else:
                msgid = id_raw[1:-1]
            if "\\" in str_raw or "\0" in str_raw or str_raw.find('"', 1) != len(str_raw) - 1:
                text = _strs_value(str_raw)
            else:
                text = str_raw[1:-1]
            ctxt = None if ctxt_raw is None else _strs_value(ctxt_raw)
            if (
                msgid is None or text is None or (ctxt_raw is not None and ctxt is None)
            ) and scan.nwarnings >= MAX_WARNINGS:
                # strings cut at \0, and no room left for their warnings: only count them
                head = m.start(1) if m.start(1) >= 0 else m.start(3)
                cuts = [_strs_cut(raw) for raw in (s[i:head], ctxt_raw or '""', id_raw, str_raw)]
                if all(cut is not None for cut in cuts):
                    _prev, ctxt_cut, id_cut, str_cut = cuts
                    assert ctxt_cut is not None and id_cut is not None and str_cut is not None
                    ctxt = None if ctxt_raw is None else ctxt_cut[0]
                    msgid = id_cut[0]
                    text = str_cut[0]
                    scan.dropped_warnings += sum(cut[1] for cut in cuts if cut is not None)
            if (
                msgid is None
                or text is None
                or (ctxt is None and (ctxt_raw is not None or (msgid == "" and not obsolete)))
                or (ctxt, msgid) in seen
            ):
                return self.fast_entry(i, m, obsolete) or done
            key = (ctxt, msgid)
            if (
                text
                and not (obsolete or flags.fuzzy)
                and (
                    (text[:1] == "\n") != (msgid[:1] == "\n")
                    or (text[-1:] == "\n") != (msgid[-1:] == "\n")
                )
            ):
                return self.fast_entry(i, m, obsolete) or done
            id_at = m.start(3)
            str_at = m.start(5)
            nl = lexer.nl + count("\n", i, id_at)
            id_line = nl + 1
            nl += count("\n", id_at, str_at)
            if splices:
                id_line = line_at(id_at, id_line - 1)
                str_line = line_at(str_at, nl)
                str_gline = line_at(str_at + 6, nl)
            else:
                str_line = str_gline = nl + 1
            seen[key] = (id_line, obsolete, str_gline)
            if not obsolete:
                msgstr_lines[key] = str_line
            if flags.fuzzy or flags.range:
                self.flags = _Flags()
            lexer.last_line = str_line
            lexer.nl = nl + count("\n", str_at, end)
            lexer.i = i = end
            # (the next entry may be on the same #~ line: the #~ is still in force)
            lexer.obs = obsolete and s.find("\n", m.end(6), end) < 0
            self.errstatus = 0
            done = True

    def fast_comments(self, i: int) -> bool:
        """A run of comment lines: each is a token; only the last #, line's flags count."""
        lexer = self.lexer
        s = lexer.s
        m = _COMMENTS.match(s, i)
        if m is None:
            return False
        end = m.end()
        special = _SPECIAL_REVERSED.search(s[end - 1 : i - 1 if i else None : -1])
        if special is not None or s.startswith(("#,", "#!"), i):
            at = end - 1 - special.start() - 1 if special is not None else i
            self.flags = _Flags()
            _read_flags(s[at + 2 : s.find("\n", at)], self.flags)
        if self.errstatus:
            self.errstatus = max(
                0, self.errstatus - 1 - len(re.findall(r"\n[ \t\r\f\v]*#", s[i:end]))
            )
        newlines = count = s.count("\n", i, end)
        lexer.last_line = lexer.line_at(end, lexer.nl + count)
        lexer.nl += newlines
        lexer.i = end
        return True

    def fast_entry(self, i: int, m: re.Match[str], obsolete: bool) -> bool:
        """An ordinary entry (read by _ACTIVE or _OBSOLETE) that may need checks later."""
        lexer = self.lexer
        s = lexer.s
        count = s.count
        line_at = lexer.line_at
        base = lexer.nl
        # the groups: 1 msgctxt, 2 its strings, 3 msgid, 4 ..., 5 msgstr, 6 ..., 7 msgid_plural,
        # 8 ..., 9 the msgstr[N]
        (
            _all,
            (ck, _e1),
            ctxt_span,
            (ik, _e3),
            id_span,
            (sk, _e5),
            str_span,
            (pk, _e7),
            pl_span,
            (
                f0,
                f1,
            ),
        ) = m.regs
        # Read every string first (in the order of the file): a \004 sends the whole entry to the
        # slow path, which reports it; a \0 cuts a string, with a warning, as there.
        head = ck if ck >= 0 else ik
        prev = _pieces(s, i, head) if head > i and _strs_value(s[i:head]) is None else []
        ctxt = None if ck < 0 else _decoded(s, *ctxt_span)
        msgid = _decoded(s, *id_span)
        plural = None if pk < 0 else _decoded(s, *pl_span)
        forms_raw: list[tuple[int, list[tuple[int, str, bool]] | None, int]] = []
        if sk >= 0:
            forms_raw.append((sk, _decoded(s, *str_span), -1))
        else:
            found = (_OBS_FORM if obsolete else _FORM).finditer(s, f0, f1)
            for index, form in enumerate(found):
                if int(form.group(1)[-6:]) != index:
                    return False  # the slow path says which index is wrong
                forms_raw.append((form.start(), _decoded(s, *form.span(2)), index))
        if (
            prev is None
            or msgid is None
            or (ck >= 0 and ctxt is None)
            or (pk >= 0 and plural is None)
            or any(p is None for _at, p, _k in forms_raw)
        ):
            return False
        text_id = msgid[0][1] if len(msgid) == 1 else "".join(v for _a, v, _c in msgid)
        if ck < 0 and text_id == "" and not obsolete:
            return False  # the header: the slow path reads its charset
        here, nl = i, base  # (counting lines as the pieces come, in the order of the file)
        for group in (prev, ctxt, msgid, plural, *(p for _a, p, _k in forms_raw)):
            for at, _value, cut in group or ():
                if cut:
                    nl += count("\n", here, at)
                    here = at
                    self.scan.warn_cut(line_at(at, nl), at)
        forms = []
        nl = base
        at = i
        for kw_at, pieces, index in forms_raw:
            nl += count("\n", at, kw_at)
            at = kw_at
            assert pieces is not None
            text = pieces[0][1] if len(pieces) == 1 else "".join(v for _a, v, _c in pieces)
            line = line_at(kw_at, nl)
            kw = _Tok(MSGSTR, None, line_at(kw_at + 6, nl), line, kw_at, obsolete)
            forms.append(_Form(kw, text, index))
        nl = base + count("\n", i, ik)
        intro = _Tok(MSGID, None, line_at(ik + 5, nl), line_at(ik, nl), ik, obsolete)
        plural_kw = ctxt_kw = None
        if plural is not None:
            nl = base + count("\n", i, pk)
            plural_kw = _Tok(
                MSGID_PLURAL, None, line_at(pk + 12, nl), line_at(pk, nl), pk, obsolete
            )
            self.plural_counter = len(forms)
        if ctxt is not None:
            nl = base + count("\n", i, ck)
            ctxt_kw = _Tok(MSGCTXT, None, line_at(ck + 7, nl), line_at(ck, nl), ck, obsolete)
        end = m.end()
        lexer.last_line = forms[-1].kw.line
        lexer.nl += count("\n", i, end)
        lexer.i = end
        # (the next entry may be on the same #~ line: the #~ is still in force)
        lexer.obs = obsolete and s.find("\n", max(m.end(6), m.end(9)), end) < 0
        self.errstatus = 0
        flags = self.flags
        if flags.fuzzy or flags.formats or flags.range:
            self.flags = _Flags()
        self.scan.store(
            None if ctxt is None else "".join(v for _a, v, _c in ctxt),
            ctxt_kw,
            text_id,
            intro,
            None if plural is None else "".join(v for _a, v, _c in plural),
            plural_kw,
            forms,
            flags,
            None,
            None,
            end - i <= self.scan.max_string,
        )
        return True

    def fast_forms(self) -> bool:
        """A run of msgstr[N] "..." forms, while a plural entry is read token by token."""
        lexer = self.lexer
        if lexer.obs or lexer.prev:
            return False
        s = lexer.s
        i = lexer.i
        m = _FORM_RUN.match(s, i)
        if m is None:
            return False
        found = []
        for form in _FORM.finditer(s, i, m.end()):
            pieces = _decoded(s, *form.span(2))
            if pieces is None:
                return False  # a \004: the token path reports it
            found.append((form, pieces))
        if self.state == B5:  # the form before is complete (msgfmt reads this msgstr first)
            self.end_form()
        elif self.state == M2:  # msgid "..." msgstr[0]: plural forms without msgid_plural
            self.after_plural = False
        else:
            self.after_plural = self.state != M5
        line_at = lexer.line_at
        here, nl = i, lexer.nl  # (counting lines as the forms come)
        last = len(found) - 1
        for k, (form, pieces) in enumerate(found):
            at = form.start()
            nl += s.count("\n", here, at)
            here = at
            line = line_at(at, nl)
            kw = _Tok(MSGSTR, None, line_at(at + 6, nl), line, at, False)
            for start, _value, cut in pieces:
                if cut:
                    nl += s.count("\n", here, start)
                    here = start
                    self.scan.warn_cut(line_at(start, nl), start)
            lst = _StrList(kw, [value for _start, value, _cut in pieces])
            number = min(int(form.group(1)[-19:]), _LONG_MAX)
            if k < last:
                # a complete form, as end_form takes it (all its tokens lack #~ alike)
                if number != self.plural_counter:
                    self.form_kw = kw
                    self.form_num = _Tok(NUMBER, number, kw.gline, line, at, False)
                    self.form_lb = self.form_rb = kw
                    self.lists[B4] = lst
                    self.state = B5
                    self.end_form()  # (it says which number is wrong)
                else:
                    self.plural_counter += 1
                    self.forms.append((kw, lst, number))
                    self.state = M7 if self.after_plural else M5
                continue
            self.form_kw = kw
            self.form_lb = self.form_rb = kw
            self.form_num = _Tok(NUMBER, number, kw.gline, line, at, False)
            self.lists[B4] = lst
            self.current = lst
            self.state = B5  # the last one waits for what follows, as in the token path
        end = m.end()
        lexer.nl = nl + s.count("\n", here, end)
        lexer.last_line = lexer.line_at(end, lexer.nl)
        lexer.i = end
        self.errstatus = 0
        return True

    def fast_strings(self) -> bool:
        """More strings of the field being read, in a run without errors."""
        lexer = self.lexer
        lst = self.current
        if lst is None or lst.first.obs != lexer.obs or (lexer.obs and lexer.prev):
            return False
        if lexer.prev != (self.state in (Q2, Q4, Q6)):
            return False
        s = lexer.s
        i = lexer.i
        m = _RUNS[(lexer.obs, lexer.prev)].match(s, i)
        if m is None:
            return False
        end = m.end()
        if "\\" not in s[i:end] and "\0" not in s[i:end] and lst.toks is None:
            values = s[i:end].split('"')[1::2]
            lst.parts.extend(values)
            strings = len(values)
        elif self.scan.nwarnings >= MAX_WARNINGS and lst.toks is None:
            # no room left for warnings about cut strings: only count them
            counted = _strs_cut(s[i:end])
            if counted is None:
                return False
            lst.parts.append(counted[0])
            self.scan.dropped_warnings += counted[1]
            strings = len(_PIECE.findall(s, i, end))
        else:
            pieces = _pieces(s, i, end)
            if pieces is None:
                return False
            nl = lexer.nl
            at = i
            toks = lst.toks
            for start, value, cut in pieces:
                nl += s.count("\n", at, start)
                at = start
                line = lexer.line_at(start, nl)
                if cut:
                    self.scan.warn_cut(line, start)
                lst.parts.append(value)
                if toks is not None and len(toks) < _KEEP_TOKENS:  # a header: where each is
                    toks.append(_Tok(STRING, value, line, line, start, lexer.obs))
            strings = len(pieces)
        if self.errstatus:
            self.errstatus = max(0, self.errstatus - strings)
        lexer.nl += s.count("\n", i, end)
        lexer.last_line = lexer.line_at(end, lexer.nl)
        lexer.i = end
        return True

    def shift(self, state: int, tok: _Tok) -> None:
        kind = tok.kind
        if tok.cut:
            self.scan.warn_cut(tok.line, tok.pos)
        if kind in (STRING, PREV_STRING):
            if state == D1:
                self.scan.on_domain(tok)
            elif state in _NEW_LIST:
                keep = state == M3 and self.ctxt_kw is None and not any(self.lists[M1].parts)
                lst = _StrList(tok, [tok.value], [tok] if keep else None)  # type: ignore[list-item]
                self.lists[state] = lst
                self.current = lst
            else:
                lst = self.current  # type: ignore[assignment]
                assert lst is not None
                self.same_obs(lst.first, tok)
                lst.parts.append(tok.value)  # type: ignore[arg-type]
                if lst.toks is not None and len(lst.toks) < _KEEP_TOKENS:
                    lst.toks.append(tok)
            return
        if kind == DOMAIN:
            self.domain_kw = tok
        elif kind == COMMENT:
            text = tok.value
            assert isinstance(text, str)
            if text[:1] in (",", "!"):
                # msgfmt 0.21 keeps only the last #, line: each one replaces the flags
                self.flags = _Flags()
                _read_flags(text[1:], self.flags)
        elif kind == MSGID:
            if state == C2:  # msg_intro: MSGCTXT string_list MSGID
                assert self.ctxt_kw is not None
                self.same_obs(self.ctxt_kw, self.lists[C1].first)
                self.same_obs(self.ctxt_kw, tok)
            if self.prev_kw is not None:  # message_intro: prev msg_intro
                self.same_obs(self.prev_kw, tok)
            self.intro = tok
        elif kind == MSGCTXT:
            self.ctxt_kw = tok
        elif kind == MSGID_PLURAL:
            self.plural_kw = tok
        elif kind == MSGSTR:
            if state == M2:
                self.msgstr_kw = tok
            else:  # M5, M6, M7: another plural form
                self.form_kw = tok
                self.after_plural = state != M5
        elif kind == LBRACKET:
            if state == M3:  # msgid "..." msgstr[ : plural forms without msgid_plural
                self.form_kw = self.msgstr_kw
                self.msgstr_kw = None
                self.after_plural = False
            self.form_lb = tok
        elif kind == NUMBER:
            self.form_num = tok
        elif kind == RBRACKET:
            self.form_rb = tok
        elif kind == PREV_MSGCTXT:
            self.prev_ctxt_kw = tok
        elif kind == PREV_MSGID:
            if state == Q2:  # prev_msg_intro: PREV_MSGCTXT prev_string_list PREV_MSGID
                assert self.prev_ctxt_kw is not None
                self.same_obs(self.prev_ctxt_kw, self.lists[Q1].first)
                self.same_obs(self.prev_ctxt_kw, tok)
            self.prev_kw = tok
        elif kind == PREV_MSGID_PLURAL:
            self.prev_plural_kw = tok

    def reduce(self, state: int) -> None:
        """The default reduction of ``state``: a part, or the whole entry, is complete."""
        if state == MP2:  # msgid_pluralform: MSGID_PLURAL string_list
            assert self.plural_kw is not None
            self.same_obs(self.plural_kw, self.lists[MP1].first)
            self.plural_counter = 0
            self.state = M6
        elif state == B5:  # pluralform, then pluralform_list
            self.end_form()
        elif state == Q4:  # prev: prev_msg_intro prev_string_list
            assert self.prev_kw is not None
            self.same_obs(self.prev_kw, self.lists[Q3].first)
            self.state = R
        elif state == Q6:  # prev_msgid_pluralform, then prev with it
            assert self.prev_kw is not None and self.prev_plural_kw is not None
            self.same_obs(self.prev_plural_kw, self.lists[Q5].first)
            self.same_obs(self.prev_kw, self.lists[Q3].first)
            self.same_obs(self.prev_kw, self.prev_plural_kw)
            self.state = R
        else:
            self.end_message(state)

    def end_form(self) -> None:
        """pluralform: MSGSTR '[' NUMBER ']' string_list (GNU checks the numbering here)."""
        kw, lb, num, rb = self.form_kw, self.form_lb, self.form_num, self.form_rb
        assert kw is not None and lb is not None and num is not None and rb is not None
        lst = self.lists[B4]
        self.same_obs(kw, lb)
        self.same_obs(kw, num)
        self.same_obs(kw, rb)
        self.same_obs(kw, lst.first)
        if num.value != self.plural_counter:
            if self.plural_counter == 0:
                what = f"the first plural form must be msgstr[0], not msgstr[{num.value}]"
            else:
                what = (
                    f"plural forms are numbered in order: msgstr[{self.plural_counter}] comes "
                    f"here, not msgstr[{num.value}]"
                )
            self.scan.error(kw.line, self.lexer.col(kw.pos), what, ((kw.gline, EAL),))
        self.plural_counter += 1
        if self.forms:  # pluralform_list: pluralform_list pluralform
            self.same_obs(self.forms[0][0], kw)
        self.forms.append((kw, lst, num.value))  # type: ignore[arg-type]
        self.state = M7 if self.after_plural else M5

    def end_message(self, state: int) -> None:
        """An entry is complete (GNU's rules for message): check it, hand it to the catalog."""
        intro = self.intro
        assert intro is not None
        self.same_obs(intro, self.lists[M1].first)
        scan = self.scan
        if state == M4:
            kw = self.msgstr_kw
            assert kw is not None
            lst = self.lists[M3]
            self.same_obs(intro, kw)
            self.same_obs(intro, lst.first)
            scan.on_message(self, [_Form(kw, "".join(lst.parts))], lst.toks)
        elif state == M7:
            assert self.plural_kw is not None
            self.same_obs(intro, self.plural_kw)
            self.same_obs(intro, self.forms[0][0])
            forms = [_Form(kw, "".join(lst.parts), k) for kw, lst, k in self.forms]
            scan.on_message(self, forms, None)
        elif state == M6:
            assert self.plural_kw is not None
            self.same_obs(intro, self.plural_kw)
            scan.error(
                intro.line,
                self.lexer.col(intro.pos),
                "this entry has msgid_plural but no translations: add msgstr[0], msgstr[1]... "
                "after it (as many as the header's nplurals)",
                ((intro.gline, EAL),),
            )
        elif state == M5:
            self.same_obs(intro, self.forms[0][0])
            scan.error(
                intro.line,
                self.lexer.col(intro.pos),
                "msgstr[N] is for plural entries, and this one has no msgid_plural: add the "
                'msgid_plural line after msgid, or write a single msgstr "..."',
                ((intro.gline, EAL),),
            )
        else:  # M2
            scan.error(
                intro.line,
                self.lexer.col(intro.pos),
                'this msgid has no msgstr: add msgstr "" (or the translation) after it',
                ((intro.gline, EAL),),
            )
        self.state = P
        self.reset()

    def field_text(self, state: int) -> str | None:
        lst = self.lists.get(state)
        return None if lst is None else "".join(lst.parts)

    # -- what to say about a syntax error --
    def syntax_error(self, state: int, tok: _Tok) -> None:
        scan = self.scan
        if tok.kind == NAME:
            scan.extend_last(tok.gline)  # msgfmt says "keyword unknown", then "syntax error"
            return
        if tok.kind == EOF:
            message = _eof_message(state)
        elif tok.kind == COMMENT and state != P:
            message = (
                "a comment line (#...) cannot come inside an entry: move it above the entry "
                "(comments first, then #| lines, then msgctxt or msgid)"
            )
        else:
            message = _unexpected_message(state, tok)
        line, col = tok.line, self.lexer.col(tok.pos)
        # After a keyword waiting for its text, the line to fix is the keyword's (msgfmt names
        # the line of the token it could not take, maybe the next entry's)
        keyword = {
            D1: self.domain_kw,
            C1: self.ctxt_kw,
            M1: self.intro,
            MP1: self.plural_kw,
            M3: self.msgstr_kw,
            PM: self.form_kw,
            B2: self.form_lb,
            B3: self.form_num,
            B4: self.form_rb,
            Q1: self.prev_ctxt_kw,
            Q3: self.prev_kw,
            Q5: self.prev_plural_kw,
        }.get(state)
        if keyword is not None and keyword.line < line:
            if tok.kind != EOF:
                message += f" (on line {line})"
            line, col = keyword.line, self.lexer.col(keyword.pos)
        scan.error(line, col, message, ((tok.gline, PLAIN),))


def _eof_message(state: int) -> str:
    what = {
        D1: "domain",
        C1: "msgctxt",
        C2: "msgctxt",
        M1: "msgid",
        M3: "msgstr",
        MP1: "msgid_plural",
        PM: "msgstr",
        B2: "msgstr[",
        B3: "msgstr[N",
        B4: "msgstr[N]",
        Q1: "#| msgctxt",
        Q2: "#| msgctxt",
        Q3: "#| msgid",
        Q5: "#| msgid_plural",
        R: "the #| lines",
    }.get(state, "this entry")
    return (
        f"the file ends after {what}, in the middle of an entry: is the file cut short? "
        "Complete the entry or remove it"
    )


def _unexpected_message(state: int, tok: _Tok) -> str:
    kind = tok.kind
    if kind == NUMBER:
        got = f"the number {tok.value}"
    elif kind == JUNK:
        got = f"the character {tok.value!r}"
    else:
        got = _SHOWN.get(kind, repr(tok.value))
    if state == P:
        if kind == STRING:
            return (
                "this string belongs to no keyword: a text in double quotes goes after msgid, "
                "msgstr... or continues the one above (is a keyword missing, or a comment line "
                "in the middle of an entry?)"
            )
        if kind == MSGSTR:
            return (
                "msgstr without a msgid before it: each entry is msgid then msgstr (a comment "
                "line between them ends the entry)"
            )
        if kind == MSGID_PLURAL:
            return "msgid_plural must come right after the msgid of its entry"
        if kind == PREV_STRING:
            return "this #| string belongs to no #| keyword: fix or remove the line"
        if kind == PREV_MSGID_PLURAL:
            return "#| msgid_plural must come right after a #| msgid: fix or remove the line"
        return (
            f"unexpected {got}: a line is a keyword (msgctxt, msgid, msgid_plural, msgstr), "
            "a # comment, or a string in double quotes"
        )
    if state in (M1, C1, MP1):
        word = {M1: "msgid", C1: "msgctxt", MP1: "msgid_plural"}[state]
        return f'{word} needs its text in double quotes after it ({word} "..."), not {got}'
    if state == C2:
        return f"msgctxt must be followed by the msgid of its entry, not {got}"
    if state == M3:
        return f'msgstr needs its text in double quotes after it (msgstr "..."), not {got}'
    if state == PM:
        if kind == STRING:
            return (
                "this entry has msgid_plural: its translations are msgstr[0], msgstr[1]... "
                '(write msgstr[0] "..." instead of msgstr "...")'
            )
        return f"after msgstr in a plural entry comes [N] (msgstr[0], msgstr[1]...), not {got}"
    if state == B2:
        return f"msgstr[ needs the number of the plural form (msgstr[0]...), not {got}"
    if state == B3:
        return f"close the plural form's number with ] (msgstr[0]...), not {got}"
    if state == B4:
        return f'msgstr[N] needs its text in double quotes after it (msgstr[0] "..."), not {got}'
    if state == D1:
        return "domain needs a name in double quotes (and pnp catalogs have no domain line)"
    if state in (Q1, Q3, Q5):
        return f"a #| keyword needs its text in double quotes on the same #| line, not {got}"
    if state == Q2:
        return f"#| msgctxt must be followed by #| msgid, not {got}"
    if state == R:
        return (
            "the #| lines (the previous source text) must be followed directly by the entry's "
            f"msgctxt or msgid, not {got}"
        )
    return f"unexpected {got} here"


# --- format strings ----------------------------------------------------------------------------

_C_INT = 1
_C_DOUBLE = 2
_C_CHAR = 3
_C_STRING = 4
_C_POINTER = 6
_C_COUNT = 7
_C_UNSIGNED = 1 << 3
_C_SHORT = 1 << 4
_C_CHARSIZE = 2 << 4
_C_LONG = 1 << 6
_C_LONGLONG = 2 << 6
_C_SIZEMASK = 0xFFFFF0 & ~_C_UNSIGNED
_C99 = {
    "8": 1 << 8,
    "16": 1 << 9,
    "32": 1 << 10,
    "64": 1 << 11,
    "LEAST8": 1 << 12,
    "LEAST16": 1 << 13,
    "LEAST32": 1 << 14,
    "LEAST64": 1 << 15,
    "FAST8": 1 << 16,
    "FAST16": 1 << 17,
    "FAST32": 1 << 18,
    "FAST64": 1 << 19,
    "MAX": 1 << 20,
    "PTR": 1 << 21,
}
_C_SIZE_T = 1 << 22
_C_PTRDIFF = 1 << 23
_C99_MACRO = re.compile(r"PRI([diouxX])(8|16|32|64|LEAST(?:8|16|32|64)|FAST(?:8|16|32|64)|MAX|PTR)")


class _Invalid(Exception):
    """A format string that is not valid; the message says why, for a translator."""


def _c_format(s: str, translated: bool) -> list[int]:
    """The argument types of a C format string, as GNU format-c.c reads it."""
    unnumbered: list[int] = []
    numbered: list[tuple[int, int]] = []
    n = len(s)
    i = 0
    count = 0

    def number_at(k: int) -> tuple[int, int]:
        j = k
        while j < n and "0" <= s[j] <= "9":
            j += 1
        if j > k and j < n and s[j] == "$":
            return int(s[k:j][-12:]), j + 1
        return 0, k

    def add(number: int, kind: int) -> None:
        if number:
            if unnumbered:
                raise _Invalid("it mixes numbered (%1$s) and unnumbered (%s) placeholders")
            numbered.append((number, kind))
        else:
            if numbered:
                raise _Invalid("it mixes numbered (%1$s) and unnumbered (%s) placeholders")
            unnumbered.append(kind)

    while True:
        i = s.find("%", i)
        if i < 0:
            break
        i += 1
        count += 1
        number, k = number_at(i)
        if k != i:
            if number == 0:
                raise _Invalid(f"placeholder {count} has the argument number 0 (%0$): start at 1")
            i = k
        while i < n and (s[i] in " +-#0'" or (translated and s[i] == "I")):
            i += 1
        for _part in ("width", "precision"):
            if _part == "precision":
                if i < n and s[i] == ".":
                    i += 1
                else:
                    break
            if i < n and s[i] == "*":
                i += 1
                star, k = number_at(i)
                if k != i:
                    if star == 0:
                        raise _Invalid(f"placeholder {count} has the argument number 0 (*0$)")
                    i = k
                add(star, _C_INT)
            else:
                while i < n and "0" <= s[i] <= "9":
                    i += 1
        if i < n and s[i] == "<":
            m = _C99_MACRO.match(s, i + 1)
            if m is None:
                raise _Invalid(
                    f"placeholder {count}: <...> must name a format macro such as <PRId64>"
                )
            kind = _C_INT | (_C_UNSIGNED if m.group(1) in "ouxX" else 0) | _C99[m.group(2)]
            i = m.end()
            if i >= n or s[i] != ">":
                raise _Invalid(f"placeholder {count}: close <PRI...> with >")
        else:
            size = 0
            while i < n:
                c = s[i]
                if c == "h":
                    size = _C_CHARSIZE if size & (_C_SHORT | _C_CHARSIZE) else _C_SHORT
                elif c == "l":
                    size = _C_LONGLONG if size & (_C_LONG | _C_LONGLONG) else _C_LONG
                elif c in "Lq":
                    size = _C_LONGLONG
                elif c == "j":
                    size = _C99["MAX"]
                elif c in "zZ":
                    size = _C_SIZE_T
                elif c == "t":
                    size = _C_PTRDIFF
                else:
                    break
                i += 1
            if i >= n:
                raise _Invalid("the text ends in the middle of a placeholder (write %% for a %)")
            c = s[i]
            wide = _C_LONG if size & (_C_LONG | _C_LONGLONG) else 0
            if c in "%m":
                kind = 0
            elif c == "c":
                kind = _C_CHAR | wide
            elif c == "C":
                kind = _C_CHAR | _C_LONG
            elif c == "s":
                kind = _C_STRING | wide
            elif c == "S":
                kind = _C_STRING | _C_LONG
            elif c in "id":
                kind = _C_INT | (size & _C_SIZEMASK)
            elif c in "ouxX":
                kind = _C_INT | _C_UNSIGNED | (size & _C_SIZEMASK)
            elif c in "eEfFgGaA":
                kind = _C_DOUBLE | (size & _C_LONGLONG)
            elif c == "p":
                kind = _C_POINTER
            elif c == "n":
                kind = _C_COUNT | (size & _C_SIZEMASK)
            else:
                raise _Invalid(
                    f"in placeholder {count}, {c!r} is not a conversion (%s, %d, %f...); "
                    "write %% for a percent sign"
                )
        if kind:
            add(number, kind)
        i += 1
    if numbered:
        numbered.sort(key=lambda a: a[0])
        merged: list[tuple[int, int]] = []
        for number, kind in numbered:
            if merged and merged[-1][0] == number:
                if merged[-1][1] != kind:
                    raise _Invalid(f"it uses argument {number} in two incompatible ways")
                continue
            merged.append((number, kind))
        for k, (number, _kind) in enumerate(merged, 1):
            if number != k:
                raise _Invalid(f"it uses argument {number} but not argument {k}")
        return [kind for _number, kind in merged]
    return unnumbered


def _c_check(src: list[int], tr: list[int], strict: bool, names: tuple[str, str]) -> list[str]:
    msgid, msgstr = names
    if (len(src) != len(tr)) if strict else (len(src) < len(tr)):
        return [
            f"the number of placeholders (%d, %s...) differs: {msgid} has {len(src)}, "
            f"{msgstr} has {len(tr)}; use the same ones"
        ]
    return [
        f"placeholder {k} is not of the same kind in {msgid} and {msgstr} (e.g. %d against "
        "%s): keep the original's"
        for k, (a, b) in enumerate(zip(src, tr, strict=False), 1)
        if a != b
    ]


_PY_NONE, _PY_ANY, _PY_CHAR, _PY_STRING, _PY_INT, _PY_FLOAT = range(6)


def _python_format(s: str, translated: bool) -> tuple[dict[str, int], list[int]]:
    """Named and unnamed argument types of a Python %-format (GNU format-python.c)."""
    named: list[tuple[str, int]] = []
    unnamed: list[int] = []
    n = len(s)
    i = 0
    count = 0
    mixed = "it mixes named (%(name)s) and unnamed (%s) placeholders"
    while True:
        i = s.find("%", i)
        if i < 0:
            break
        i += 1
        count += 1
        name = None
        if i < n and s[i] == "(":
            depth = 0
            j = i + 1
            while j < n:
                if s[j] == "(":
                    depth += 1
                elif s[j] == ")":
                    if depth == 0:
                        break
                    depth -= 1
                j += 1
            if j >= n:
                raise _Invalid("a %( is not closed by ) (write %% for a percent sign)")
            name = s[i + 1 : j]
            i = j + 1
        while i < n and s[i] in "-+ #0":
            i += 1
        if i < n and s[i] == "*":
            i += 1
            if named:
                raise _Invalid(mixed)
            unnamed.append(_PY_INT)
        else:
            while i < n and "0" <= s[i] <= "9":
                i += 1
        zero_precision = False
        if i < n and s[i] == ".":
            i += 1
            if i < n and s[i] == "*":
                i += 1
                if named:
                    raise _Invalid(mixed)
                unnamed.append(_PY_INT)
            elif i < n and "0" <= s[i] <= "9":
                zero_precision = True
                while i < n and "0" <= s[i] <= "9":
                    if s[i] != "0":
                        zero_precision = False
                    i += 1
        if i < n and s[i] in "hlL":
            i += 1
        c = s[i] if i < n else ""
        if c == "%":
            kind = _PY_NONE
        elif c == "c":
            kind = _PY_CHAR
        elif c in ("s", "r"):
            kind = _PY_ANY if zero_precision else _PY_STRING
        elif c and c in "iduoxX":
            kind = _PY_INT
        elif c and c in "eEfgG":
            kind = _PY_FLOAT
        elif not c:
            raise _Invalid("the text ends in the middle of a placeholder (write %% for a %)")
        else:
            raise _Invalid(
                f"in placeholder {count}, {c!r} is not a conversion (%s, %d, %f...); "
                "write %% for a percent sign"
            )
        if name is not None:
            if unnamed:
                raise _Invalid(mixed)
            named.append((name, kind))
        elif c != "%":
            if named:
                raise _Invalid(mixed)
            unnamed.append(kind)
        i += 1
    merged: dict[str, int] = {}
    for name, kind in sorted(named, key=lambda a: a[0]):
        if name in merged:
            old = merged[name]
            if kind == old or old == _PY_ANY:
                merged[name] = kind
            elif kind == _PY_ANY:
                pass
            else:
                raise _Invalid(f"it uses %({name}) in two incompatible ways")
        else:
            merged[name] = kind
    return merged, unnamed


def _python_check(
    src: tuple[dict[str, int], list[int]],
    tr: tuple[dict[str, int], list[int]],
    strict: bool,
    names: tuple[str, str],
) -> list[str]:
    msgid, msgstr = names
    named1, unnamed1 = src
    named2, unnamed2 = tr
    if named1 and unnamed2:
        return [
            f"{msgid} uses named placeholders (%(name)s): the translation must use the same "
            "names, not unnamed %s or %d"
        ]
    if unnamed1 and named2:
        return [
            f"{msgid} uses unnamed placeholders (%s, %d): the translation must too, not "
            "named ones like %(name)s"
        ]
    out: list[str] = []
    if named1 or named2:
        for name in sorted(set(named1) | set(named2)):
            if name not in named1:
                out.append(
                    f"%({name}) is not a placeholder of {msgid}: use only the original's names"
                )
                break
            if name not in named2:
                if strict:
                    out.append(f"the placeholder %({name}) of {msgid} is missing from {msgstr}")
                    break
                continue
        if not out:
            for name in sorted(named2):
                a, b = named1[name], named2[name]
                if not (a == b or (not strict and _PY_ANY in (a, b))):
                    out.append(
                        f"%({name}) is not of the same kind in {msgid} and {msgstr} "
                        "(e.g. %(n)d against %(n)s): keep the original's"
                    )
                    break
    if unnamed1 or unnamed2:
        if len(unnamed1) != len(unnamed2):
            out.append(
                f"the number of placeholders (%s, %d...) differs: {msgid} has {len(unnamed1)}, "
                f"{msgstr} has {len(unnamed2)}; use the same ones"
            )
        else:
            for k, (a, b) in enumerate(zip(unnamed1, unnamed2, strict=True), 1):
                if not (a == b or (not strict and _PY_ANY in (a, b))):
                    out.append(
                        f"placeholder {k} is not of the same kind in {msgid} and {msgstr} "
                        "(e.g. %d against %s): keep the original's"
                    )
    return out


def _named_end(s: str, i: int, n: int) -> int:
    """The end of an identifier [A-Za-z_][A-Za-z0-9_]* at ``s[i]``, or ``i``."""
    if i < n and s[i].isascii() and (s[i].isalpha() or s[i] == "_"):
        i += 1
        while i < n and s[i].isascii() and (s[i].isalnum() or s[i] == "_"):
            i += 1
    return i


def _numeric_end(s: str, i: int, n: int) -> int:
    while i < n and "0" <= s[i] <= "9":
        i += 1
    return i


def _brace_directive(s: str, i: int, top: bool, names: list[str]) -> int:
    """Parse the directive at ``s[i] == '{'``; return the offset after it."""
    n = len(s)
    i += 1
    if i < n and s[i] == "{":
        return i + 1
    start = i
    end = _named_end(s, i, n)
    if end == i:
        end = _numeric_end(s, i, n)
    if end == i:
        raise _Invalid("a { must start a placeholder like {name} or {0} (write {{ for a brace)")
    i = end
    while i < n and s[i] in ".[":
        if s[i] == ".":
            j = _named_end(s, i + 1, n)
            if j == i + 1:
                raise _Invalid("after a . in a placeholder comes a name, as in {user.name}")
            i = j
        else:
            j = _named_end(s, i + 1, n)
            if j == i + 1:
                j = _numeric_end(s, i + 1, n)
            if j == i + 1:
                raise _Invalid("after a [ in a placeholder comes a name or number, as in {a[0]}")
            if j >= n or s[j] != "]":
                raise _Invalid("a [ in a placeholder is not closed by ]")
            i = j + 1
    if i < n and s[i] == ":":
        if not top:
            raise _Invalid("a placeholder inside a format specification cannot have one itself")
        i += 1
        if i < n and s[i] == "{":
            i = _brace_directive(s, i, False, names)
        else:
            if i >= n:
                raise _Invalid("a placeholder is not closed: add }")
            if i + 1 < n and s[i + 1] in "<>=^":
                i += 2
            elif s[i] in "<>=^":
                i += 1
            if i < n and s[i] in "+- ":
                i += 1
            if i < n and s[i] == "#":
                i += 1
            if i < n and s[i] == "0":
                i += 1
            i = _numeric_end(s, i, n)
            if i + 1 < n and s[i] == "." and "0" <= s[i + 1] <= "9":
                i = _numeric_end(s, i + 1, n)
            if i < n and s[i] in "bcdoxXneEfFgG%":
                i += 1
    if i >= n or s[i] != "}":
        raise _Invalid("a placeholder is not closed: add } (write {{ and }} for braces)")
    if top:
        names.append(s[start:i])
    return i + 1


def _brace_format(s: str, translated: bool) -> set[str]:
    """The placeholders of a Python {}-format (GNU format-python-brace.c, 0.21)."""
    names: list[str] = []
    i = s.find("{")
    while i >= 0:
        i = _brace_directive(s, i, True, names)
        i = s.find("{", i)
    return set(names)


def _brace_check(src: set[str], tr: set[str], strict: bool, names: tuple[str, str]) -> list[str]:
    msgid, msgstr = names
    if not strict or src == tr:
        return []
    missing = sorted(src - tr)
    if missing and (not (tr - src) or missing[0] < min(tr - src)):
        return [f"the placeholder {{{missing[0]}}} of {msgid} is missing from {msgstr}"]
    extra = min(tr - src)
    return [f"{{{extra}}} is not a placeholder of {msgid}: use only the original's"]


_Parse = Callable[[str, bool], object]
_Check = Callable[[object, object, bool, tuple[str, str]], list[str]]
_FORMATS: list[tuple[str, str, _Parse, _Check]] = [
    ("c", "C", _c_format, _c_check),  # type: ignore[list-item]
    ("python", "Python", _python_format, _python_check),  # type: ignore[list-item]
    ("python-brace", "Python brace", _brace_format, _brace_check),  # type: ignore[list-item]
]


# --- header fields -----------------------------------------------------------------------------

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


# --- the scan ----------------------------------------------------------------------------------


class _Stop(Exception):
    """Too many errors: the scan ends here."""


class _Scan:
    """One scan: decoding, reading (lexer and parser), msgfmt's checks, and what they found."""

    def __init__(self, data: bytes, max_string: int) -> None:
        self.data = data
        self.max_string = max_string
        self.findings: list[Finding] = []
        self.nerrors = 0
        self.pnp_only = False
        self.nwarnings = 0
        self.dropped_warnings = 0
        self.stopped = False
        self.phase1_errors = 0  # errors msgfmt would print while reading (it then stops)
        self.in_phase2 = False
        self.text: str | None = None
        self.charset = ""
        self.charset_seen = False
        self.codec = "utf-8"
        self.utf8_ok = False
        self.lexer: _Lexer | None = None
        self.messages: list[_Message] = []
        # (msgctxt, msgid) -> (line of msgid, obsolete, msgfmt's line of msgstr)
        self.seen: dict[tuple[str | None, str], tuple[int, bool, int]] = {}
        self.msgstr_lines: dict[tuple[str | None, str], int] = {}
        self.header: _Message | None = None
        self.plural: PluralForms | None = None

    # -- recording problems --
    def add(
        self, line: int, col: int, message: str, severity: str, gnu: tuple[tuple[int, int], ...]
    ) -> None:
        if severity == ERROR:
            if self.nerrors >= MAX_ERRORS:
                self.stopped = True
                raise _Stop
            self.nerrors += 1
            if gnu and not self.in_phase2:
                self.phase1_errors += 1
            if self.in_phase2 and self.phase1_errors:
                gnu = ()  # msgfmt stops before its checks when reading failed
        elif self.nwarnings >= MAX_WARNINGS:
            self.dropped_warnings += 1
            return
        else:
            self.nwarnings += 1
        self.findings.append(Finding(PoProblem(line, max(col, 1), message, severity), gnu))

    def error(
        self,
        line: int,
        col: int,
        message: str,
        gnu: tuple[tuple[int, int], ...] = (),
        *,
        deliberate: bool = False,
    ) -> None:
        """An error; ``deliberate``: one of pnp's own refusals (msgfmt may accept the file)."""
        if deliberate:
            self.pnp_only = True
        self.add(line, col, message, ERROR, gnu)

    def warn(self, line: int, col: int, message: str) -> None:
        self.add(line, col, message, WARNING, ())

    def warn_cut(self, line: int, pos: int) -> None:
        """A string cut at \\0, at offset ``pos`` (its column found only if it is listed)."""
        if self.nwarnings >= MAX_WARNINGS:
            self.dropped_warnings += 1
            return
        assert self.lexer is not None
        self.warn(
            line,
            self.lexer.col(pos),
            "\\0 ends this text for gettext: what follows it in the same string is lost",
        )

    def extend_last(self, gline: int) -> None:
        """Add a syntax error msgfmt prints to the last error (one problem, two msgfmt lines)."""
        for finding in reversed(self.findings):
            if finding.problem.severity == ERROR:
                finding.gnu = (*finding.gnu, (gline, PLAIN))
                return

    # -- the whole scan --
    def run(self) -> ScanDetails:
        notes: list[PoProblem] = []
        try:
            self.read()
        except _Stop:
            notes.append(
                PoProblem(
                    self.findings[-1].problem.line,
                    1,
                    f"more than {MAX_ERRORS} errors: the scan stopped at this line; fix these "
                    "first",
                    WARNING,
                )
            )
        problems = sorted((f.problem for f in self.findings), key=lambda p: (p.line, p.col))
        if self.dropped_warnings:
            last = problems[-1] if problems else PoProblem(1, 1, "", WARNING)
            notes.append(
                PoProblem(
                    last.line,
                    last.col,
                    f"{self.dropped_warnings} more warnings are not shown",
                    WARNING,
                )
            )
        self.findings += [Finding(note) for note in notes]
        scan = PoScan(problems + notes, self.text, self.charset, self.plural, self.msgstr_lines)
        return ScanDetails(scan, self.findings, self.pnp_only)

    def read(self) -> None:
        data = self.data
        if len(data) > MAX_FILE_BYTES:
            self.error(
                1,
                1,
                f"this catalog is {len(data) / 1e6:.1f} MB: pnp does not read catalogs over "
                f"{MAX_FILE_BYTES // (1024 * 1024)} MB (is it really a translation catalog?)",
                deliberate=True,
            )
            return
        if data.startswith(codecs.BOM_UTF8):
            data = data[3:]
            self.warn(
                1,
                1,
                "the file starts with a UTF-8 byte-order mark: pnp reads it, but GNU msgfmt "
                "refuses it; save the file as UTF-8 without BOM",
            )
        nul = data.find(b"\0")
        if nul >= 0:
            line = data.count(b"\n", 0, nul) + 1
            self.error(
                line,
                nul - data.rfind(b"\n", 0, nul),
                "this line contains a NUL byte (a zero byte): a catalog is text; is it a binary "
                "file, or saved as UTF-16? Save it as UTF-8",
                deliberate=True,
            )
        try:
            text = data.decode("utf-8")
            self.utf8_ok = True
        except UnicodeDecodeError:
            text = data.decode("latin-1")  # provisional: the header's charset decides
        self.text = text if self.utf8_ok else None
        prelude = (list(self.findings), self.nerrors, self.nwarnings, self.pnp_only)
        try:
            self.parse(text)
        except _Restart as restart:
            self.findings, self.nerrors, self.nwarnings, self.pnp_only = prelude
            self.dropped_warnings = 0
            self.restart(data, restart.codec)
            return
        self.check_charset_after(data)
        self.phase2()

    def restart(self, data: bytes, codec: str) -> None:
        """Read again, decoded with the header's charset (a catalog neither ASCII nor UTF-8)."""
        self.phase1_errors = 0
        self.messages = []
        self.seen = {}
        self.msgstr_lines = {}
        self.header = None
        self.charset_seen = False
        self.codec = codec
        try:
            text = data.decode(codec)
        except UnicodeDecodeError as exc:
            line = data.count(b"\n", 0, exc.start) + 1
            self.error(
                line,
                exc.start - data.rfind(b"\n", 0, exc.start),
                f"these bytes are not {self.charset} text, though the header declares "
                f"charset={self.charset}: save the file as UTF-8 and declare charset=UTF-8",
                deliberate=True,
            )
            text = data.decode(codec, errors="replace")
            self.text = None
        else:
            self.text = text
        self.parse(text)
        self.phase2()

    def check_charset_after(self, data: bytes) -> None:
        """After reading: bytes a UTF-8 (or undeclared) catalog cannot hold."""
        if self.utf8_ok or self.codec != "utf-8" or self.charset not in ("", "UTF-8"):
            return
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = data.count(b"\n", 0, exc.start) + 1
            declared = self.charset or "no charset"
            self.error(
                line,
                exc.start - data.rfind(b"\n", 0, exc.start),
                f"this line is not valid UTF-8 text (the header declares {declared}): save the "
                "file as UTF-8",
                deliberate=True,
            )

    def parse(self, text: str) -> None:
        splices: list[int] = []
        if "\\\n" in text:
            text, splices = _join_lines(text)
        lexer = _Lexer(self, text, splices)
        self.lexer = lexer
        parser = _Parser(self, lexer)
        parser.run()
        if self.header is None:
            self.error(
                1,
                1,
                'this catalog has no header entry (msgid "" with msgstr "Content-Type: text/plain; '
                'charset=UTF-8\\n" and the other fields); add one: `pnp i18n update` writes it',
                ((0, PLAIN),),
            )

    # -- the parser's callbacks --
    def on_domain(self, tok: _Tok) -> None:
        assert self.lexer is not None
        self.error(
            tok.line,
            self.lexer.col(tok.pos),
            f"'domain {tok.value}': pnp catalogs have one domain per file, so domain lines are "
            "not allowed: remove this line",
            ((tok.gline, EAL),),
        )

    def on_message(self, parser: _Parser, forms: list[_Form], str_toks: list[_Tok] | None) -> None:
        """The parser read a whole entry (GNU do_callback_message)."""
        flags = parser.flags
        parser.flags = _Flags()
        assert parser.intro is not None
        self.store(
            parser.field_text(C1),
            parser.ctxt_kw,
            parser.field_text(M1) or "",
            parser.intro,
            parser.field_text(MP1),
            parser.plural_kw,
            forms,
            flags,
            str_toks,
            parser.la,
        )

    def store(
        self,
        ctxt: str | None,
        ctxt_kw: _Tok | None,
        msgid: str,
        intro: _Tok,
        plural: str | None,
        plural_kw: _Tok | None,
        forms: list[_Form],
        flags: _Flags,
        str_toks: list[_Tok] | None,
        lookahead: _Tok | None,
        short: bool = False,
    ) -> None:
        """Keep an entry as msgfmt does: duplicates, untranslated and fuzzy entries aside.

        ``short``: the whole entry is shorter than max_string (no text can be too long).
        """
        lexer = self.lexer
        assert lexer is not None
        obsolete = intro.obs
        limit = self.max_string
        if not short and (
            len(msgid) > limit
            or (ctxt is not None and len(ctxt) > limit)
            or (plural is not None and len(plural) > limit)
            or any(len(form.text) > limit for form in forms)
        ):
            fields = [(ctxt_kw, ctxt), (intro, msgid), (plural_kw, plural)]
            fields += [(form.kw, form.text) for form in forms]
            for tok, value in fields:
                if tok is not None and value is not None and len(value) > limit:
                    self.error(
                        tok.line,
                        lexer.col(tok.pos),
                        f"this text is {len(value):,} characters long: pnp accepts at most "
                        f"{limit:,} in one msgid or msgstr; shorten or split it",
                        deliberate=True,
                    )
        header_like = ctxt is None and msgid == "" and not obsolete
        if header_like:
            self.on_header_charset(forms[0].text, str_toks, forms[0].kw, lookahead)
        key = (ctxt, msgid)
        first = self.seen.get(key)
        if first is not None:
            where, first_obsolete, first_gline = first
            if first_obsolete or obsolete:
                extra = " (an obsolete #~ entry counts too: delete the copy you do not want)"
            else:
                extra = ""
            self.error(
                intro.line,
                lexer.col(intro.pos),
                f"this entry (same msgctxt and msgid) is already in the file at line {where}: "
                f"keep only one of the two{extra}",
                ((intro.gline, EAL), (first_gline, CONT)),
            )
            if not obsolete and key not in self.msgstr_lines:
                self.msgstr_lines[key] = forms[0].kw.line  # (its copy was obsolete)
            return
        kw = forms[0].kw
        self.seen[key] = (intro.line, obsolete, kw.gline)
        if obsolete:
            return
        self.msgstr_lines[key] = kw.line
        if not forms[0].text or (flags.fuzzy and not header_like):
            return  # msgfmt does not check untranslated and fuzzy entries
        if not (header_like or plural is not None or flags.formats):
            # only the line breaks remain to be checked: keep the entry only if they differ
            begins = msgid[:1] == "\n"
            ends = msgid[-1:] == "\n"
            text = forms[0].text
            if (text[:1] == "\n") == begins and (text[-1:] == "\n") == ends:
                return
        message = _Message(
            ctxt,
            msgid,
            intro,
            plural,
            plural_kw,
            forms,
            obsolete,
            flags.fuzzy,
            flags.formats,
            flags.range,
            str_toks if header_like else None,
        )
        self.messages.append(message)
        if header_like and self.header is None:
            self.header = message

    def on_header_charset(
        self, header: str, toks: list[_Tok] | None, kw: _Tok, lookahead: _Tok | None
    ) -> None:
        """msgfmt reads the charset of every header entry it meets; pnp decodes with the first."""
        if (
            lookahead is not None
            and lookahead.kind == JUNK
            and self.utf8_ok
            and not str(lookahead.value).isascii()
            and _canonical_charset(_declared_charset(header) or "") == "UTF-8"
        ):
            # msgfmt read the first byte of this character before the header told it the
            # charset: each byte after it is now an invalid sequence of its own.
            assert self.lexer is not None
            self.lexer.eilseq += len(str(lookahead.value).encode("utf-8")) - 1
        if self.charset_seen:
            return
        self.charset_seen = True
        declared = _declared_charset(header)
        line = self.header_line(header, toks, "charset=", kw)
        if declared is None:
            self.warn(
                line,
                1,
                'the header declares no charset: add "Content-Type: text/plain; '
                'charset=UTF-8\\n" (and save the file as UTF-8)',
            )
            return
        canonical = _canonical_charset(declared)
        self.charset = canonical or declared
        codec = _CHARSETS.get(canonical or "", "")
        if not codec:
            if declared == "CHARSET":
                why = "the header still says charset=CHARSET, the template's placeholder"
            elif canonical is None:
                why = f"charset={declared} is not a portable encoding name (GNU warns too)"
            else:
                why = f"pnp cannot read charset={declared}"
            self.error(
                line,
                1,
                f"{why}: save the file as UTF-8 and declare charset=UTF-8",
                deliberate=True,
            )
            return
        if codec == "utf-8":
            return
        if self.utf8_ok:
            assert self.lexer is not None
            if not self.lexer.s.isascii():
                self.error(
                    line,
                    1,
                    f"the header declares charset={declared}, but the file is UTF-8 text (its "
                    "accented letters are UTF-8 bytes): declare charset=UTF-8 instead",
                    deliberate=True,
                )
            return
        if self.codec != codec:
            raise _Restart(codec)

    def header_line(self, header: str, toks: list[_Tok] | None, needle: str, kw: _Tok) -> int:
        """The line of the header string holding ``needle`` (else the msgstr line)."""
        at = header.find(needle)
        if at < 0 or not toks:
            return kw.line
        offset = 0
        for tok in toks:
            offset += len(tok.value)  # type: ignore[arg-type]
            if offset > at:
                return tok.line
        return kw.line

    # -- msgfmt's checks of the complete catalog --
    def phase2(self) -> None:
        self.in_phase2 = True
        header = self.header
        often: tuple[bool, ...] | None = None
        if header is not None:
            often = self.check_plural(header)
        for message in self.messages:
            if message.is_header:
                self.check_header_fields(message)
            if message.msgid:
                self.check_pair(message, often)

    def check_plural(self, header: _Message) -> tuple[bool, ...] | None:
        """Plural-Forms against the plural entries (GNU check_plural).

        Return msgfmt's "distribution": for each form, whether the expression takes it for
        many n (then placeholders are checked strictly in that form), or None if unknown.
        """
        assert self.lexer is not None
        col = self.lexer.col
        plurals = [m for m in self.messages if m.plural is not None]
        kw = header.forms[0].kw
        text = header.forms[0].text
        found: HeaderPlural = inspect_header(text)
        self.plural = found.forms  # (None unless the header's Plural-Forms is right)
        pline = self.header_line(text, header.str_toks, "Plural-Forms", kw)
        if found.plural_at < 0 or found.nplurals_at < 0:
            if not plurals:
                return (False, True)  # msgfmt's default: the Germanic n != 1
            first = plurals[0].forms[0].kw
            lang = _header_field(text, "Language")
            help_ = _gnu_has_help(text)
            advice = plural_forms_for(lang) if lang else "nplurals=2; plural=(n != 1);"
            for what, at in (("plural=", found.plural_at), ("nplurals=", found.nplurals_at)):
                if at < 0:
                    self.error(
                        first.line,
                        col(first.pos),
                        f"this entry has plural forms, but the header (line {pline}) has no "
                        f'{what}: add "Plural-Forms: {advice}\\n" to it',
                        ((first.gline, EAL),) + (() if help_ else ((kw.gline, CONT),)),
                    )
            return None
        failed = False
        helped = PLAIN if _gnu_has_help(text) else EAL
        for problem in found.errors:
            how = helped if problem.stage in ("nplurals", "expression") else EAL
            self.error(
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
        counts = [(len(m.forms), m) for m in plurals]
        if counts:
            low = min(c for c, _m in counts)
            high = max(c for c, _m in counts)
            gnu_pick = None
            if low < nplurals:
                gnu_pick = next(m for c, m in counts if c == low)
            elif high > nplurals:
                gnu_pick = next(m for c, m in counts if c == high)
            for c, m in counts:
                if c != nplurals:
                    failed = True
                    form = m.forms[0].kw
                    self.error(
                        form.line,
                        col(form.pos),
                        _count_message(c, nplurals),
                        ((kw.gline, EAL), (form.gline, CONT)) if m is gnu_pick else (),
                    )
        if failed:
            return None
        return found.often

    def check_header_fields(self, header: _Message) -> None:
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
                self.warn(kw.line, 1, f"the header has no {name} field: {advice}")
                continue
            shown = value[1:] if value.startswith(" ") else value
            if default is not None and shown == default:
                line_no = self.header_line(text, header.str_toks, name + ":", kw)
                self.warn(
                    line_no,
                    1,
                    f"the header field {name} still has the template's placeholder"
                    + (f" {default!r}" if default else " (empty)")
                    + ": fill it in",
                )

    def check_pair(self, m: _Message, often: tuple[bool, ...] | None) -> None:
        """Leading/trailing newlines and format strings of a translated entry (GNU check_pair)."""
        assert self.lexer is not None
        col = self.lexer.col
        gline = ((m.forms[0].kw.gline, EAL),)
        msgid = m.msgid
        plural = m.plural
        forms = m.forms
        # 1 and 2: all or none begin with \n, all or none end with \n
        for begins in (True, False):
            where = "begin" if begins else "end"

            def has(text: str, begins: bool = begins) -> bool:
                return text[:1] == "\n" if begins else text[-1:] == "\n"

            want = has(msgid)
            if plural is not None and has(plural) != want:
                tok = m.plural_tok or m.msgid_tok
                self.error(
                    tok.line,
                    col(tok.pos),
                    f"msgid and msgid_plural do not both {where} with a line break (\\n): make "
                    "them agree (this comes from the template: tell its authors)",
                    gline,
                )
            for k, form in enumerate(forms):
                if has(form.text) == want:
                    continue
                name = f"msgstr[{k}]" if plural is not None else "msgstr"
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
                self.error(form.kw.line, col(form.kw.pos), text, gline)
        # 3: format strings
        source = plural if plural is not None else msgid
        source_name = "msgid_plural" if plural is not None else "msgid"
        several = len(forms) > 1
        for lang, pretty, parse, check in _FORMATS:
            if m.formats.get(lang) not in ("yes", "possible"):
                continue
            try:
                src = parse(source, False)
            except _Invalid:
                continue
            for k, form in enumerate(forms):
                name = f"msgstr[{k}]" if plural is not None else "msgstr"
                try:
                    tr = parse(form.text, True)
                except _Invalid as exc:
                    self.error(
                        form.kw.line,
                        col(form.kw.pos),
                        f"{name} is not a valid {pretty} format string ({lang}-format), unlike "
                        f"the {source_name}: {exc}",
                        gline,
                    )
                    continue
                strict = plural is None or not several or self.strict_for(k, m, often)
                for text in check(src, tr, strict, (source_name, name)):
                    self.error(form.kw.line, col(form.kw.pos), text, gline)

    def strict_for(self, k: int, m: _Message, often: tuple[bool, ...] | None) -> bool:
        if often is None or k >= len(often) or not often[k]:
            return False
        return m.range is None or self.plural_histogram(m.range, k) > 1

    def plural_histogram(self, rng: tuple[int, int], k: int) -> int:
        low, high = max(rng[0], 0), rng[1]
        if high - low > 1000:
            high = low + 1000
        header = self.header
        assert header is not None
        found = inspect_header(header.forms[0].text)
        if found.forms is None:  # msgfmt's default, the Germanic n != 1
            return sum(1 for n in range(low, high + 1) if int(n != 1) == k)
        expr = found.forms.expr
        return sum(1 for n in range(low, high + 1) if evaluate(expr, n) == k)


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


def _join_lines(text: str) -> tuple[str, list[int]]:
    """Remove each backslash-newline (GNU joins the lines); return where each one was."""
    pieces = text.split("\\\n")
    splices: list[int] = []
    offset = 0
    for piece in pieces[:-1]:
        offset += len(piece)
        splices.append(offset)
    return "".join(pieces), splices
