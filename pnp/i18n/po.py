"""PO files as GNU gettext reads and writes them.

A :class:`Catalog` holds a header entry, the active entries in file order and the obsolete
(``#~``) entries. :func:`dumps` lays a catalog out as GNU gettext 0.21's ``write-po.c`` does
(comment order, flag order, line wrapping at 79 columns: :mod:`.gnuwrap`), so that ``msgcat``,
``msgmerge`` and Poedit leave a file pnp wrote unchanged. :func:`parse` reads a file that
:func:`.pocheck.scan_po` accepted; every byte-level and grammar problem is reported there, with
its line, before anything here runs.

Why not polib's or babel's writer: both wrap at 76-78 columns with Python's textwrap, which
breaks lines where GNU does not, so every hand-off through a GNU tool became a diff of hundreds
of lines; polib's reader also refuses comments GNU accepts (``#note``). polib and
translate-toolkit stay in the tests, as independent readers of what pnp writes.
"""

from __future__ import annotations

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
_RANGE = re.compile(r"range:\s*(\d+)\s*\.\.\s*(\d+)$")


@dataclass
class Flags:
    """An entry's ``#,`` flags, as GNU keeps them: flags it does not know are not kept."""

    fuzzy: bool = False
    formats: dict[str, str] = field(default_factory=dict)  # "python-brace" -> "yes" | "no"
    range: tuple[int, int] | None = None
    wrap: bool | None = None  # None: not said; False: no-wrap

    @classmethod
    def parse(cls, words: list[str]) -> Flags:
        flags = cls()
        for word in (w.strip() for w in words):
            if word == "fuzzy":
                flags.fuzzy = True
            elif word in ("wrap", "no-wrap"):
                flags.wrap = word == "wrap"
            elif (m := _RANGE.match(word)) is not None:
                lo, hi = int(m.group(1)), int(m.group(2))
                flags.range = (lo, hi) if lo <= hi else None
            elif word.endswith("-format"):
                name = word[: -len("-format")]
                state = "yes"
                for prefix, value in (("no-", "no"), ("possible-", "yes"), ("impossible-", "")):
                    if name.startswith(prefix) and name[len(prefix) :] in _FORMAT_INDEX:
                        name, state = name[len(prefix) :], value
                        break
                if name in _FORMAT_INDEX:
                    if state:
                        flags.formats[name] = state
                    else:
                        flags.formats.pop(name, None)
        return flags

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


def unquote(token: str) -> str:
    """The text of one ``"..."`` token (quotes included), escapes resolved."""

    def one(m: re.Match[str]) -> str:
        if m.group(1):
            return _ESCAPES[m.group(1)]
        if m.group(2):
            return chr(int(m.group(2), 8))
        return chr(int(m.group(3), 16) & 0xFF)

    return _ESCAPE.sub(one, token[1:-1])


_KEYWORD = re.compile(r"(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s*(\".*)$")


def parse(text: str) -> Catalog:
    """Entries of a PO text that :func:`.pocheck.scan_po` found free of errors."""
    reader = _Reader()
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


class _Reader:
    """The entries of a PO text, line by line, in the order of the file."""

    def __init__(self) -> None:
        self.entries: list[Entry] = []
        self.start()

    def start(self) -> None:
        """Begin a new entry."""
        self.entry = Entry("")
        self.started = False  # the entry has a keyword already (a comment then starts the next)
        self.target: str | None = None  # the field continuation strings add to
        self.values: dict[str, str] = {}
        self.flag_words: list[str] = []

    def finish(self) -> None:
        """Complete the entry being read (if it has a keyword), and begin a new one."""
        if self.started:
            entry = self.entry
            values = self.values
            entry.flags = Flags.parse(self.flag_words)
            entry.msgid = values.get("msgid", "")
            entry.msgctxt = values.get("msgctxt")
            entry.msgid_plural = values.get("msgid_plural")
            entry.previous_msgctxt = values.get("#|msgctxt")
            entry.previous_msgid = values.get("#|msgid")
            entry.previous_msgid_plural = values.get("#|msgid_plural")
            forms = sorted((int(k[7:-1]), v) for k, v in values.items() if k.startswith("msgstr["))
            if entry.msgid_plural is not None:
                entry.msgstr = [v for _i, v in forms] or [""]
            else:
                entry.msgstr = [values.get("msgstr", "")]
            self.entries.append(entry)
        self.start()

    def read(self, text: str) -> None:
        """Read every line of ``text``, then complete the last entry."""
        for number, raw in enumerate(text.split("\n"), 1):
            line = raw.strip()
            if not line:
                continue
            if line.startswith("#") and not line.startswith(("#~", "#|", "#.", "#:", "#,")):
                self.translator_comment(raw)
                continue
            obsolete = line.startswith("#~")
            if obsolete:
                line = line[2:]
                line = ("#" + line if line.startswith("|") else line).strip()
                if not line:
                    continue
            if line.startswith("#") and not line.startswith("#|"):
                self.comment(line)
                continue
            previous = line.startswith("#|")
            if previous:
                line = line[2:].lstrip()
            if line.startswith('"'):
                if self.target is not None:
                    self.values[self.target] += unquote(line)
                continue
            m = _KEYWORD.match(line)
            if m is None:
                continue
            keyword = m.group(1)
            if not keyword.startswith("msgstr") and any(
                k.startswith("msgstr") for k in self.values
            ):
                self.finish()  # the next entry, with no comment before it
            entry = self.entry
            if previous:
                keyword = "#|" + keyword
            elif keyword == "msgid":
                entry.line = number
            elif keyword.startswith("msgstr") and not entry.msgstr_line:
                entry.msgstr_line = number
            entry.obsolete = obsolete
            self.started = True
            self.values[keyword] = unquote(m.group(3))
            self.target = keyword  # the field continuation strings add to
        self.finish()

    def translator_comment(self, raw: str) -> None:
        """A ``# ...`` line: it keeps its spaces (but the one after ``#``)."""
        if self.started:
            self.finish()
        body = raw.lstrip()[1:].rstrip("\r")
        self.entry.comments.append(body[1:] if body.startswith(" ") else body)

    def comment(self, line: str) -> None:
        """A ``#.``, ``#:`` or ``#,`` line (or another comment, as written in an obsolete entry)."""
        if self.started:
            self.finish()
        entry = self.entry
        kind, rest = line[:2], line[2:]
        rest = rest[1:] if rest.startswith(" ") else rest
        if kind == "#.":
            entry.extracted.append(rest)
        elif kind == "#:":
            entry.references.extend(rest.split())
        elif kind == "#,":  # GNU keeps the last flags line of an entry
            self.flag_words[:] = rest.split(",")
        else:
            body = line[1:]
            entry.comments.append(body[1:] if body.startswith(" ") else body)
