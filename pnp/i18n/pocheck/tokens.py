"""The tokens of a PO file, as GNU's po-lex.c makes them: their kinds, the keywords, the token."""

from __future__ import annotations

from dataclasses import dataclass

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

KEYWORDS = {
    "domain": DOMAIN,
    "msgid": MSGID,
    "msgid_plural": MSGID_PLURAL,
    "msgstr": MSGSTR,
    "msgctxt": MSGCTXT,
}
PREV_KEYWORDS = {
    "msgid": PREV_MSGID,
    "msgid_plural": PREV_MSGID_PLURAL,
    "msgctxt": PREV_MSGCTXT,
}
SHOWN = {
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
"""How a token kind is named in a message about a syntax error."""

ESCAPES = {"n": "\n", "t": "\t", "b": "\b", "r": "\r", "f": "\f", "v": "\v", "a": "\a"}
"""The one-letter C escapes of a string and what they stand for."""
LONG_MAX = (1 << 63) - 1
"""The largest number msgfmt reads (a C long); larger ones are taken as this."""


@dataclass(slots=True)
class Tok:
    """A token: its kind, value, where msgfmt says it is, where it starts, and #~ or not."""

    kind: int
    value: object
    gline: int  # the line msgfmt names for this token (where its last character is read)
    line: int  # the line it starts on
    pos: int  # offset of its first character in the (joined) text
    obs: bool
    cut: bool = False  # a string gettext cuts at a \0 (pnp warns when the parser takes it)
