"""An entry as msgfmt keeps it: its translations, the flags of its ``#,`` line, the whole entry."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .tokens import Tok


@dataclass(slots=True)
class Form:
    """One translation: msgstr, or msgstr[index]."""

    kw: Tok  # the msgstr keyword
    text: str
    index: int = -1


@dataclass(slots=True)
class Message:
    """A complete entry as msgfmt keeps it."""

    ctxt: str | None
    msgid: str
    msgid_tok: Tok
    plural: str | None
    plural_tok: Tok | None
    forms: list[Form]
    obsolete: bool
    fuzzy: bool
    formats: dict[str, str]
    range: tuple[int, int] | None
    str_toks: list[Tok] | None = None  # the header's msgstr strings, to find a field's line

    @property
    def is_header(self) -> bool:
        return self.ctxt is None and self.msgid == ""


@dataclass(slots=True)
class Flags:
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


def read_flags(text: str, flags: Flags) -> None:
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


def header_line(header: str, toks: list[Tok] | None, needle: str, kw: Tok) -> int:
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
