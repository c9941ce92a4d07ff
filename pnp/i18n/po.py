"""PO files as GNU gettext reads and writes them.

A :class:`Catalog` holds a header entry, the active entries in file order and the obsolete
(``#~``) entries. :func:`dumps` lays a catalog out as GNU gettext 0.21's ``write-po.c`` does
(comment order, flag order, line wrapping at 79 columns: :mod:`.gnuwrap`), so that ``msgcat``,
``msgmerge`` and Poedit leave a file pnp wrote unchanged. :func:`parse` reads a file that
:func:`.pocheck.scan_po` accepted; every byte-level and grammar problem is reported there, with
its line, before anything here runs. It reads tokens as GNU's po-lex.c does, not lines: a
keyword and its string on one line or on two, several entries on one line, adjacent strings
(``"Che" "fin"``), backslash-newline, and escapes as bytes in the file's charset (``\\303\\251``
is é in UTF-8); it gives what ``msgunfmt`` gives after ``msgfmt`` (and lays it out as
``msgcat``), which tests/test_po_gnu_reading.py checks on generated layouts. Escaped bytes
that are no text in the charset (GNU drops them, with a warning) are a :class:`PoReadError`.

Why not polib's or babel's writer: both wrap at 76-78 columns with Python's textwrap, which
breaks lines where GNU does not, so every hand-off through a GNU tool became a diff of hundreds
of lines; polib's reader also refuses comments GNU accepts (``#note``). polib and
translate-toolkit stay in the tests, as independent readers of what pnp writes.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from .gnuwrap import field_lines, reference_lines

# The format flags GNU gettext 0.21 knows, in the order it writes them (message.c).
FORMATS = [
    "c",
    "objc",
    "python",
    "python-brace",
    "java",
    "java-printf",
    "csharp",
    "javascript",
    "scheme",
    "lisp",
    "elisp",
    "librep",
    "ruby",
    "sh",
    "awk",
    "lua",
    "object-pascal",
    "smalltalk",
    "qt",
    "qt-plural",
    "kde",
    "kde-kuit",
    "boost",
    "tcl",
    "perl",
    "perl-brace",
    "php",
    "gcc-internal",
    "gfc-internal",
    "ycp",
]
_FORMAT_INDEX = {name: i for i, name in enumerate(FORMATS)}
_FLAG_WORD = re.compile(r"[^\n \t\r\f\v,]+")
_RANGE = re.compile(r"([0-9]+)\.\.([0-9]+)")
_INT_MAX = 2**31 - 1


def _range(word: str, before: tuple[int, int] | None) -> tuple[int, int] | None:
    """The ``MIN..MAX`` word after ``range:`` (GNU reads the digits and ignores what follows)."""
    m = _RANGE.match(word)
    if m is None:
        return before
    lo, hi = (min(int(g), _INT_MAX) for g in m.groups())
    return (lo, hi) if lo <= hi else before


@dataclass
class Flags:
    """An entry's ``#,`` flags, as GNU keeps them: flags it does not know are not kept."""

    fuzzy: bool = False
    formats: dict[str, str] = field(default_factory=dict)  # "python-brace" -> "yes" | "no"
    range: tuple[int, int] | None = None
    wrap: bool | None = None  # None: not said; False: no-wrap

    @classmethod
    def parse(cls, text: str) -> Flags:
        """The flags of one ``#,`` (or ``#!``) line, read as GNU's po_parse_comment_special reads
        them: words between white space and commas; ``range:`` takes the next word."""
        flags = cls()
        words = _FLAG_WORD.findall(text)
        k = 0
        while k < len(words):
            word = words[k]
            k += 1
            if word == "fuzzy":
                flags.fuzzy = True
            elif word in ("wrap", "no-wrap"):
                flags.wrap = word == "wrap"
            elif word == "range:":
                if k < len(words):
                    flags.range = _range(words[k], flags.range)
                    k += 1
            elif word.endswith("-format"):
                flags.format_word(word[: -len("-format")])
        return flags

    def format_word(self, name: str) -> None:
        """``[no-|possible-|impossible-]LANG`` of a ``LANG-format`` flag GNU knows."""
        state = "yes"
        for prefix, value in (("no-", "no"), ("possible-", "yes"), ("impossible-", "")):
            if name.startswith(prefix):
                name, state = name[len(prefix) :], value
                break
        if name in _FORMAT_INDEX:
            if state:
                self.formats[name] = state
            else:
                self.formats.pop(name, None)

    def words(self, translated: bool) -> list[str]:
        """The flags as GNU writes them; ``fuzzy`` only on a translated entry."""
        out = ["fuzzy"] if self.fuzzy and translated else []
        for name in sorted(self.formats, key=_FORMAT_INDEX.__getitem__):
            out.append(("" if self.formats[name] == "yes" else "no-") + name + "-format")
        if self.range is not None:
            out.append(f"range: {self.range[0]}..{self.range[1]}")
        if self.wrap is False:
            out.append("no-wrap")
        return out

    def copy(self) -> Flags:
        return Flags(self.fuzzy, dict(self.formats), self.range, self.wrap)


@dataclass
class Entry:
    """One message. ``msgstr`` holds every form: one string, or one per plural form."""

    msgid: str
    msgstr: list[str] = field(default_factory=lambda: [""])
    msgctxt: str | None = None
    msgid_plural: str | None = None
    comments: list[str] = field(default_factory=list)  # translator comments (``# ...``)
    extracted: list[str] = field(default_factory=list)  # ``#.`` notes for translators
    references: list[str] = field(default_factory=list)  # ``#:`` file:line
    flags: Flags = field(default_factory=Flags)
    previous_msgctxt: str | None = None
    previous_msgid: str | None = None
    previous_msgid_plural: str | None = None
    obsolete: bool = False
    line: int = 0  # where the entry's msgid is (1-based; 0: not read from a file)
    msgstr_line: int = 0  # where its first msgstr is

    @property
    def key(self) -> tuple[str | None, str]:
        return (self.msgctxt, self.msgid)

    @property
    def translated(self) -> bool:
        """GNU's notion: the first form is not empty (a fuzzy entry may be translated)."""
        return bool(self.msgstr and self.msgstr[0])

    @property
    def complete(self) -> bool:
        """Translated, not fuzzy, and every plural form filled."""
        return self.translated and not self.flags.fuzzy and all(self.msgstr)

    @property
    def fuzzy(self) -> bool:
        return self.flags.fuzzy

    def clear_previous(self) -> None:
        self.previous_msgctxt = self.previous_msgid = self.previous_msgid_plural = None


@dataclass
class Catalog:
    """A PO or POT file: the header entry (msgid ""), the active entries, the obsolete ones."""

    header: Entry = field(default_factory=lambda: Entry(""))
    entries: list[Entry] = field(default_factory=list)
    obsolete: list[Entry] = field(default_factory=list)
    header_at: int = 0  # how many entries come before the header (GNU keeps it where it was)

    def __iter__(self) -> Iterator[Entry]:
        return iter(self.entries)

    def find(self, msgctxt: str | None, msgid: str) -> Entry | None:
        for entry in self.entries:
            if entry.msgctxt == msgctxt and entry.msgid == msgid:
                return entry
        return None

    # --- header fields ("Name: value" lines of the header's msgstr) -----------------------------

    def field(self, name: str) -> str | None:
        return header_field(self.header.msgstr[0], name)

    def set_field(self, name: str, value: str) -> None:
        self.header.msgstr[0] = with_header_field(self.header.msgstr[0], name, value)


def header_field(header: str, name: str) -> str | None:
    """The value of ``name`` in a header's msgstr, or None; names compare without case."""
    wanted = name.lower()
    for line in header.split("\n"):
        key, sep, value = line.partition(":")
        if sep and key.strip().lower() == wanted:
            return value.strip()
    return None


def with_header_field(header: str, name: str, value: str) -> str:
    """The header with ``name`` set to ``value``: in place when present, else added at the end."""
    lines = header.split("\n")
    wanted = name.lower()
    for i, line in enumerate(lines):
        key, sep, _old = line.partition(":")
        if sep and key.strip().lower() == wanted:
            lines[i] = f"{key}: {value}"
            return "\n".join(lines)
    body = header[:-1] if header.endswith("\n") else header
    return (body + "\n" if body else "") + f"{name}: {value}\n"


# --- writing ---------------------------------------------------------------------------------


def _comment_lines(marker: str, texts: list[str]) -> list[str]:
    """``# text`` lines (``#`` alone for an empty one); embedded newlines become more lines."""
    out = []
    for text in texts:
        for part in text.split("\n"):
            out.append(marker + (" " + part if part else ""))
    return out


def entry_lines(entry: Entry) -> list[str]:
    wrap = entry.flags.wrap is not False
    out = _comment_lines("#", entry.comments)
    out += _comment_lines("#.", entry.extracted)
    if entry.references:
        out += reference_lines(entry.references)
    words = entry.flags.words(entry.translated)
    if words:
        out.append("#, " + ", ".join(words))
    prev = "#~| " if entry.obsolete else "#| "
    if entry.previous_msgctxt is not None:
        out += field_lines("msgctxt", entry.previous_msgctxt, prev, wrap=wrap)
    if entry.previous_msgid is not None:
        out += field_lines("msgid", entry.previous_msgid, prev, wrap=wrap)
    if entry.previous_msgid_plural is not None:
        out += field_lines("msgid_plural", entry.previous_msgid_plural, prev, wrap=wrap)
    prefix = "#~ " if entry.obsolete else ""
    if entry.msgctxt is not None:
        out += field_lines("msgctxt", entry.msgctxt, prefix, wrap=wrap)
    out += field_lines("msgid", entry.msgid, prefix, wrap=wrap)
    if entry.msgid_plural is not None:
        out += field_lines("msgid_plural", entry.msgid_plural, prefix, wrap=wrap)
        for i, form in enumerate(entry.msgstr):
            out += field_lines(f"msgstr[{i}]", form, prefix, wrap=wrap)
    else:
        out += field_lines("msgstr", entry.msgstr[0] if entry.msgstr else "", prefix, wrap=wrap)
    return out


def dumps(catalog: Catalog) -> str:
    """The file, laid out as GNU gettext writes it (UTF-8 text; the caller encodes it)."""
    blocks = [entry_lines(e) for e in catalog.entries]
    blocks.insert(min(catalog.header_at, len(blocks)), entry_lines(catalog.header))
    blocks += [entry_lines(e) for e in catalog.obsolete if e.translated]
    return "\n\n".join("\n".join(block) for block in blocks) + "\n"


def encode(catalog: Catalog) -> bytes:
    """The file's bytes in the charset its header declares (UTF-8 when it names none)."""
    text = dumps(catalog)
    return text.encode(python_codec(charset_of(catalog.header.msgstr[0])) or "utf-8")


def charset_of(header: str) -> str:
    content_type = header_field(header, "Content-Type") or ""
    m = re.search(r"charset=\s*([^\s;]+)", content_type, re.IGNORECASE)
    return m.group(1) if m else ""


def python_codec(charset: str) -> str | None:
    """The Python codec of a PO charset name, or None when Python has no such codec."""
    import codecs

    if not charset or charset.upper() == "CHARSET":
        return None
    try:
        return codecs.lookup(charset).name
    except LookupError:
        return None


# --- reading ---------------------------------------------------------------------------------


class PoReadError(ValueError):
    """Something in a PO text that pnp will not read (1-based line and column, what to do)."""

    def __init__(self, line: int, col: int, message: str) -> None:
        super().__init__(f"{line}:{col}: {message}")
        self.line = line
        self.col = col
        self.message = message


_ESCAPES = {
    "n": "\n",
    "t": "\t",
    "r": "\r",
    "a": "\a",
    "b": "\b",
    "f": "\f",
    "v": "\v",
    "\\": "\\",
    '"': '"',
}
_ESCAPE = re.compile(r'\\(?:([ntrabfv\\"])|([0-7]{1,3})|x([0-9A-Fa-f]+))')
# The tokens of GNU's po-lex.c (white space, the #~ and #| prefixes, comments, strings, words,
# numbers, brackets); anything else is a character msgfmt refuses.
_TOKEN = re.compile(
    r'(?P<str>"(?:[^"\\\n]|\\.)*")|(?P<nl>[ \t\r\f\v]*\n[ \t\r\f\v\n]*)|(?P<sp>[ \t\r\f\v]+)'
    r"|(?P<kw>[A-Za-z_$][A-Za-z0-9_$]*)|(?P<pre>#~\|?|#\|)|(?P<com>#[^\n]*\n?)|(?P<num>[0-9]+)"
    r"|(?P<br>[\[\]])|(?P<junk>.)",
    re.S,
)
_BYTES = re.compile("[\udc80-\udcff]")
_KEYWORDS = frozenset({"msgctxt", "msgid", "msgid_plural", "msgstr"})
_STARTS = frozenset({"msgctxt", "msgid", "#|msgctxt", "#|msgid"})


def _byte(value: int) -> str:
    """A byte an escape makes: ASCII as itself, others held as a surrogate until the field's
    bytes are decoded in the file's charset (GNU concatenates bytes, then reads them)."""
    return chr(value) if value < 0x80 else chr(0xDC00 + value)


def _escape(m: re.Match[str]) -> str:
    if m.group(1):
        return _ESCAPES[m.group(1)]
    if m.group(2):
        return _byte(int(m.group(2), 8) & 0xFF)
    return _byte(int(m.group(3)[-2:], 16))


def _token_text(token: str) -> str:
    """The text of one ``"..."`` token: escapes resolved, cut at a ``\\0`` as gettext cuts it."""
    body = token[1:-1]
    if "\\" not in body:
        return body
    value = _ESCAPE.sub(_escape, body)
    cut = value.find("\0")
    return value if cut < 0 else value[:cut]


def parse(text: str, charset: str = "") -> Catalog:
    """The entries of a PO text that :func:`.pocheck.scan_po` accepted, read as GNU gettext reads
    them: token by token (keywords and strings on one line or several, adjacent strings,
    backslash-newline joined), escapes as bytes of the file's ``charset`` (default: the one its
    header declares). :class:`PoReadError` for what pnp will not read (escaped bytes that are
    not text in the charset: GNU drops them)."""
    reader = _Reader(python_codec(charset) if charset else None)
    reader.read(text)
    catalog = Catalog()
    for e in reader.entries:
        if e.msgid == "" and e.msgctxt is None and not e.obsolete and catalog.header.line == 0:
            catalog.header = e
            catalog.header_at = len(catalog.entries)
        elif e.obsolete:
            catalog.obsolete.append(e)
        else:
            catalog.entries.append(e)
    return catalog


def _join_lines(text: str) -> tuple[str, list[int]]:
    """GNU's lexer drops each backslash-newline; return the text and where each one was."""
    pieces = text.split("\\\n")
    splices, offset = [], 0
    for piece in pieces[:-1]:
        offset += len(piece)
        splices.append(offset)
    return "".join(pieces), splices


class _Reader:
    """The entries of a PO text, token by token, in the order of the file."""

    def __init__(self, codec: str | None) -> None:
        self.codec = codec  # None: the header's charset decides
        self.entries: list[Entry] = []
        self.text = ""
        self.start()

    def start(self) -> None:
        """Begin a new entry."""
        self.entry = Entry("")
        self.started = False  # the entry has a keyword already (a comment then starts the next)
        self.has_msgstr = False
        self.target: str | None = None  # the field the next strings belong to
        self.current: list[str] | None = None  # its strings (None: not known yet)
        self.values: dict[str, list[str]] = {}
        self.where: dict[str, int] = {}  # field -> offset of its keyword
        self.flag_text = ""
        self.index = 0  # the N of msgstr[N]

    def read(self, text: str) -> None:
        """Read every token of ``text``, then complete the last entry."""
        splices: list[int] = []
        if "\\\n" in text:
            text, splices = _join_lines(text)
        self.text, self.splices = text, splices
        nl = 0  # newlines before the token (in the joined text)
        obsolete = previous = False  # the #~ and #| prefixes in force (a newline ends them)
        current: list[str] | None = None  # the strings of the field being read
        for m in _TOKEN.finditer(text):
            kind = m.lastgroup
            if kind == "str" and current is not None:
                token = m.group()
                current.append(token[1:-1] if "\\" not in token else _token_text(token))
                continue
            if kind == "nl":
                nl += m.group().count("\n")
                obsolete = previous = False
                continue
            if kind == "sp":
                continue
            if kind == "pre":
                obsolete = obsolete or "~" in m.group()
                previous = previous or "|" in m.group()
                continue
            if kind == "com":
                self.comment(m.group()[1:].removesuffix("\n"))
                nl += m.group().endswith("\n")
                obsolete = False  # (GNU: a comment ends #~, not #|)
            else:
                line = nl + 1 + (bisect.bisect_right(splices, m.start()) if splices else 0)
                self.token(kind or "", m.group(), m.start(), line, obsolete, previous)
            current = self.current
        self.finish()

    def token(self, kind: str, value: str, pos: int, line: int, obs: bool, prev: bool) -> None:
        """A string, keyword, number or bracket at offset ``pos`` of ``line``."""
        if kind == "str" and self.target is not None:  # the first string of a msgstr
            self.current = self.values.setdefault(self.target, [])
            self.current.append(_token_text(value))
        elif kind == "kw" and value in _KEYWORDS and not (prev and value == "msgstr"):
            self.keyword(("#|" if prev else "") + value, pos, line, obs)
        elif kind == "num" and self.target == "msgstr":
            self.index = int(value)
        elif kind == "br" and self.target == "msgstr":
            if value == "]":
                self.target = f"msgstr[{self.index}]"
                self.where[self.target] = self.where["msgstr"]
                self.current = self.values.setdefault(self.target, [])
        else:
            shown = "string" if kind == "str" else repr(value)
            raise PoReadError(
                line,
                self.col(pos),
                f"pnp cannot read this {shown} here; `msgfmt -c` says what is wrong with the file",
            )

    def keyword(self, keyword: str, pos: int, line: int, obsolete: bool) -> None:
        if keyword in _STARTS and self.has_msgstr:
            self.finish()  # the next entry, with no comment before it
        entry = self.entry
        if keyword == "msgid":
            entry.line = line
        elif keyword == "msgstr":
            self.has_msgstr = True
            entry.msgstr_line = entry.msgstr_line or line
        if not keyword.startswith("#|"):
            entry.obsolete = obsolete
        self.started = True
        self.target = keyword
        self.where[keyword] = pos
        self.current = None if keyword == "msgstr" else self.values.setdefault(keyword, [])

    def col(self, pos: int) -> int:
        return pos - self.text.rfind("\n", 0, pos)

    def comment(self, body: str) -> None:
        """A comment line (``body``: what follows ``#``), dispatched as GNU's reader does."""
        if self.started:
            self.finish()
        entry = self.entry
        kind, rest = body[:1], body[1:]
        if kind == ".":
            entry.extracted.append(rest[1:] if rest.startswith(" ") else rest)
        elif kind == ":":
            entry.references.extend(w for w in re.split(r"[ \t\n]+", rest) if w)
        elif kind in (",", "!"):  # GNU keeps the last flags line of an entry
            self.flag_text = rest
        else:
            entry.comments.append(body[1:] if body.startswith(" ") else body)

    def field(self, name: str) -> str | None:
        """A field's text: its strings joined, escaped bytes read in the file's charset."""
        parts = self.values.get(name)
        if parts is None:
            return None
        value = "".join(parts)
        if _BYTES.search(value) is None:
            return value
        codec = self.codec or python_codec(charset_of(value)) or "utf-8"
        try:
            return value.encode(codec, "surrogateescape").decode(codec)
        except UnicodeError:
            pos = self.where[name]
            line = self.line_of(pos)
            raise PoReadError(
                line,
                self.col(pos),
                f"the escaped bytes of this {name.removeprefix('#|')} (\\NNN or \\xHH) are not "
                f"{codec.upper()} text, and GNU gettext would drop them: write the characters "
                "themselves, or escape every byte of each one",
            ) from None

    def line_of(self, pos: int) -> int:
        line = self.text.count("\n", 0, pos) + 1
        return line + (bisect.bisect_right(self.splices, pos) if self.splices else 0)

    def finish(self) -> None:
        """Complete the entry being read (if it has a keyword), and begin a new one."""
        if self.started:
            entry = self.entry
            entry.flags = Flags.parse(self.flag_text)
            entry.msgid = self.field("msgid") or ""
            entry.msgctxt = self.field("msgctxt")
            entry.msgid_plural = self.field("msgid_plural")
            entry.previous_msgctxt = self.field("#|msgctxt")
            entry.previous_msgid = self.field("#|msgid")
            entry.previous_msgid_plural = self.field("#|msgid_plural")
            forms = sorted((int(k[7:-1]), k) for k in self.values if k.startswith("msgstr["))
            if entry.msgid_plural is not None:
                entry.msgstr = [self.field(k) or "" for _i, k in forms] or [""]
            else:
                entry.msgstr = [self.field("msgstr") or ""]
            if (
                self.codec is None
                and entry.msgid == ""
                and entry.msgctxt is None
                and not entry.obsolete
            ):
                self.codec = python_codec(charset_of(entry.msgstr[0])) or "utf-8"
            self.entries.append(entry)
        self.start()
