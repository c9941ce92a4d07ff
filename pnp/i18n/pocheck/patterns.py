"""The fast paths' regular expressions, and the decoding of the strings they match.

Each expression reads in one match what the token-by-token path would read without an error:
a whole ordinary entry (active or obsolete), a run of comment lines, more strings of the field
being read, a run of ``msgstr[N]`` forms, or tokens bison drops after an error. Their
repetitions are possessive (``*+``, ``++``): they never give back what they matched, so they
cannot backtrack (and run about 5 times faster); each is used only where giving back could not
change the outcome.
"""

from __future__ import annotations

import re

from .tokens import ESCAPES

_ESC = r'\\(?:[ntbrfva\\"]|[0-7]{1,3}+|x[0-9A-Fa-f]++)'
_S = r'"[^"\\\n\x04]*+(?:' + _ESC + r'[^"\\\n\x04]*+)*+"'  # a string (maybe without errors)
_W = r"[ \t\r\f\v\n]*+"  # between the tokens of an entry
_OW = r"[ \t\r\f\v]*+(?:\n[ \t\r\f\v\n]*+#~(?!\|)[ \t\r\f\v]*+)*+"  # ... of an obsolete entry
_PW = r"[ \t\r\f\v]*+(?:\n[ \t\r\f\v\n]*+#\|[ \t\r\f\v]*+)*+"  # ... of #| lines
_OPW = r"[ \t\r\f\v]*+(?:\n[ \t\r\f\v\n]*+#~\|[ \t\r\f\v]*+)*+"  # ... of #~| lines


def _strings(between: str) -> str:
    """One string or more, with ``between`` between them."""
    return _S + r"(?:" + between + _S + r")*+"


def _previous(prefix: str, w: str) -> str:
    """Optional #| lines (the previous msgctxt, msgid, msgid_plural); then a new line ends them.
    ``prefix`` starts them, ``w`` goes between their tokens."""
    strs = _strings(w)
    return (
        r"(?:" + prefix + r"[ \t\r\f\v]*+(?:msgctxt" + w + strs + w + r")?+msgid" + w + strs
        + r"(?:" + w + r"msgid_plural" + w + strs + r")?+[ \t\r\f\v]*+\n" + _W + r")?+"
    )  # fmt: skip


def _fields(w: str) -> str:
    """An entry's msgctxt, msgid, and msgstr or msgid_plural and msgstr[N] forms, in named groups:
    ck, c (msgctxt and its strings), ik, i (msgid), sk, s (msgstr), pk, p (msgid_plural), f (the
    forms). ``w`` goes between their tokens."""
    strs = _strings(w)
    form = r"msgstr" + w + r"\[" + w + r"[0-9]++" + w + r"\]" + w + strs
    return (
        r"(?:(?P<ck>msgctxt)" + w + r"(?P<c>" + strs + r")" + w + r")?+"
        + r"(?P<ik>msgid)" + w + r"(?P<i>" + strs + r")" + w
        + r"(?:(?P<sk>msgstr)" + w + r"(?P<s>" + strs + r")"
        + r"|(?P<pk>msgid_plural)" + w + r"(?P<p>" + strs + r")" + w
        + r"(?P<f>" + form + r"(?:" + w + form + r")*+))"
    )  # fmt: skip


_STRS = _strings(_W)
# What follows an entry, cannot continue it, and is read without an error: the end, a comment,
# or msgid or msgctxt, maybe after #~ or #| (but #~ or #| alone, then a string on the next line,
# would continue the entry).
_NEXT = r"(?=\Z|#(?![~|])|(?:#(?:~\|?|\|)[ \t\r\f\v]*+)?+msg(?:id|ctxt)(?![\w$]))"
ACTIVE = re.compile(_previous(r"#\|", _PW) + _fields(_W) + _W + _NEXT)
OBSOLETE = re.compile(
    _previous(r"#~\|", _OPW)
    + r"#~[ \t\r\f\v]*+"
    + _fields(_OW)
    # the obsolete entry's last line ends; or, on the same line, #~ starts another entry (then
    # the #~ of this line is still in force)
    + r"(?:[ \t\r\f\v]*+(?:\n|\Z)[ \t\r\f\v\n]*+"
    + _NEXT
    + r"|[ \t\r\f\v]*+(?=#~[ \t\r\f\v]*+msg(?:id|ctxt)(?![\w$])))"
)
FORM_RUN = re.compile(
    r"(?:" + _W + r"msgstr" + _W + r"\[" + _W + r"[0-9]++" + _W + r"\]" + _W + _STRS + r")++"
)
FORM = re.compile(
    r"msgstr" + _W + r"\[" + _W + r"([0-9]++)" + _W + r"\]" + _W + r"(" + _STRS + r")"
)
OBS_FORM = re.compile(
    r"msgstr" + _OW + r"\[" + _OW + r"([0-9]++)" + _OW + r"\]" + _OW + r"(" + _strings(_OW) + r")"
)
# Comment lines (not #~ nor #|), and the white space after them.
COMMENTS = re.compile(r"(?:#(?:[^~|\n][^\n]*+)?+\n[ \t\r\f\v\n]*+)++")
SPECIAL_REVERSED = re.compile(r"[,!]#[ \t\r\f\v]*+(?=\n|\Z)")  # "#," at a line start, reversed
# More strings of the field being read: plain, in an obsolete entry, or in #| lines.
RUNS = {
    (False, False): re.compile(r"(?:" + _W + _S + r")++"),
    (True, False): re.compile(r"(?:" + _OW + _S + r")++"),
    (False, True): re.compile(r"(?:" + _PW + _S + r")++"),
}
# Tokens bison drops after an error (anything that cannot start an entry), none with an error.
DISCARD = re.compile(r'(?:[^"#A-Za-z_$]++|"[^"\\\n\x04]*+")++')
PREFIX = re.compile(r"(#~\|?|#\|)[ \t]*")
_STRING = re.compile(_S)
PIECE = re.compile(r'"((?:[^"\\]|\\.)*+)"')
_ESCAPE = re.compile(r'\\(?:([ntbrfva\\"])|([0-7]{1,3})|x([0-9A-Fa-f]+))')

Pieces = list[tuple[int, str, bool]]
"""The strings of a field: (offset, text cut at \\0, whether it was cut) of each."""


def _unescape(m: re.Match[str]) -> str:
    simple, octal, hexa = m.groups()
    if simple is not None:
        return ESCAPES.get(simple, simple)
    if octal is not None:
        return chr(int(octal, 8) & 0xFF)
    return chr(int(hexa[-2:], 16))


def strs_value(raw: str) -> str | None:
    """The text of strings a fast path read, or None if one holds \\0 or \\004 (see pieces)."""
    if "\\" not in raw and "\0" not in raw:
        if raw.find('"', 1) == len(raw) - 1:
            return raw[1:-1]
        return "".join(raw.split('"')[1::2])
    if raw.find('"', 1) == len(raw) - 1:  # one string (an escaped quote would be found)
        value = _ESCAPE.sub(_unescape, raw[1:-1])
        return None if "\0" in value or "\x04" in value else value
    out = []
    for piece in PIECE.findall(raw):
        value = _ESCAPE.sub(_unescape, piece) if "\\" in piece else piece
        if "\0" in value or "\x04" in value:
            return None
        out.append(value)
    return "".join(out)


def strs_cut(raw: str) -> tuple[str, int] | None:
    """Like strs_value, each string cut at its \\0, and how many were; None if \\004."""
    out = []
    cut = 0
    for piece in PIECE.findall(raw):
        value = _ESCAPE.sub(_unescape, piece) if "\\" in piece else piece
        if "\0" in value:
            value = value[: value.index("\0")]
            cut += 1
        if "\x04" in value:
            return None
        out.append(value)
    return "".join(out), cut


def decoded(s: str, start: int, end: int) -> Pieces | None:
    """Like pieces, in one piece when no string holds \\0 (then nothing needs a warning)."""
    value = strs_value(s[start:end])
    if value is not None:
        return [(start, value, False)]
    return pieces(s, start, end)


def pieces(s: str, start: int, end: int) -> Pieces | None:
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


def text_of(pieces: Pieces) -> str:
    """The text of a field's strings."""
    return pieces[0][1] if len(pieces) == 1 else "".join(v for _a, v, _c in pieces)
