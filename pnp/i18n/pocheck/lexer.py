"""The lexer: GNU po-lex.c over the decoded text of a catalog, token by token.

It reads keywords, strings with C escapes, ``#`` comments, the ``#~`` (obsolete) and ``#|``
(previous) prefixes, numbers and brackets; a newline ends ``#~`` and ``#|``. Backslash-newline
pairs are joined before (:func:`join_lines`), and the lexer maps offsets in the joined text back
to the lines of the file. Errors inside a token (an unknown keyword, an unclosed string, a bad
escape) are reported as it reads them, as msgfmt does.
"""

from __future__ import annotations

import bisect
import re

from .problems import EAL, PLAIN, Problems
from .tokens import (
    COMMENT,
    EOF,
    ESCAPES,
    JUNK,
    KEYWORDS,
    LBRACKET,
    LONG_MAX,
    NAME,
    NUMBER,
    PREV_KEYWORDS,
    PREV_STRING,
    RBRACKET,
    STRING,
    Tok,
)

SPACE = re.compile(r"[ \t\r\f\v\n]*")
_IDENT = re.compile(r"[A-Za-z0-9_$]*")
_DIGITS = re.compile(r"[0-9]*")
_OCTAL = re.compile(r"[0-7]{1,3}")
_HEX = re.compile(r"[0-9A-Fa-f]+")
_CHUNK = re.compile(r'[^"\\\n]*')


def end(pattern: re.Pattern[str], s: str, i: int) -> int:
    """Where a pattern that cannot fail (it may match nothing) ends, from ``i``."""
    m = pattern.match(s, i)
    assert m is not None
    return m.end()


def join_lines(text: str) -> tuple[str, list[int]]:
    """Remove each backslash-newline (GNU joins the lines); return where each one was."""
    pieces = text.split("\\\n")
    splices: list[int] = []
    offset = 0
    for piece in pieces[:-1]:
        offset += len(piece)
        splices.append(offset)
    return "".join(pieces), splices


class Lexer:
    """GNU po-lex.c over decoded text, with backslash-newline already joined."""

    def __init__(self, problems: Problems, text: str, splices: list[int]) -> None:
        self.problems = problems
        self.s = text
        self.n = len(text)
        self.i = 0
        self.nl = 0  # newlines before self.i (in the joined text)
        self.splices = splices  # offsets in the joined text where a backslash-newline was
        self.obs = False
        self.prev = False
        self.last_line = 1
        # bytes msgfmt will find invalid when it reads on (see Collector.on_header_charset)
        self.eilseq = 0
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
        self.problems.error(line, self.col(pos), message, ((gline, EAL),))

    def pass_over(self, i: int, to: int) -> None:
        """Go on at ``to``, past white space or dropped tokens from ``i``: a newline among them
        ends the #~ and #| prefixes."""
        newlines = self.s.count("\n", i, to)
        if newlines:
            self.nl += newlines
            self.obs = self.prev = False
        self.i = to

    def next(self) -> Tok:
        """The next token (white space and the #~ and #| prefixes are read on the way)."""
        if self.eilseq:
            self.split_characters()
        s = self.s
        n = self.n
        while True:
            i = self.i
            if i >= n:
                return Tok(EOF, None, self.line_at(n, self.nl), self.last_line, n, self.obs)
            c = s[i]
            if c in " \t\r\f\v\n":
                self.pass_over(i, end(SPACE, s, i))
                continue
            line = self.line_at(i, self.nl)
            self.last_line = line
            if c == "#":
                tok = self.comment(i, line)
                if tok is None:
                    continue
                return tok
            if c == '"':
                return self.string(i, line)
            if c.isascii() and (c.isalpha() or c == "_" or c == "$"):
                return self.word(i, line)
            if "0" <= c <= "9":
                return self.number(i, line)
            self.i = i + 1
            if c == "[":
                return Tok(LBRACKET, c, line, line, i, self.obs)
            if c == "]":
                return Tok(RBRACKET, c, line, line, i, self.obs)
            return Tok(JUNK, c, line, line, i, self.obs)

    def split_characters(self) -> None:
        """Report the bytes msgfmt finds invalid after the header told it the charset."""
        while self.eilseq:
            self.eilseq -= 1
            self.problems.error(
                self.last_line,
                self.col(self.i),
                "this character is split by the end of the header entry: msgfmt reads its "
                "first byte before it knows the charset and the rest after; remove it",
                ((self.last_line, PLAIN),),
            )

    def comment(self, i: int, line: int) -> Tok | None:
        """A comment line at ``s[i] == '#'``; None when it was the prefix #~, #| or #~|."""
        s = self.s
        n = self.n
        c2 = s[i + 1] if i + 1 < n else ""
        if c2 == "~":
            self.obs = True
            self.i = i + 2
            if i + 2 < n and s[i + 2] == "|":
                self.prev = True
                self.i = i + 3
            return None
        if c2 == "|":
            self.prev = True
            self.i = i + 2
            return None
        stop = s.find("\n", i + 1)
        if stop < 0:
            self.i = n
            tok = Tok(COMMENT, s[i + 1 :], self.line_at(n, self.nl), line, i, self.obs)
        else:
            self.i = stop + 1
            self.nl += 1
            gline = self.line_at(stop, self.nl)
            tok = Tok(COMMENT, s[i + 1 : stop], gline, line, i, self.obs)
        self.obs = False
        return tok

    def word(self, i: int, line: int) -> Tok:
        """A keyword (or a word that is not one, reported)."""
        s = self.s
        stop = end(_IDENT, s, i + 1)
        word = s[i:stop]
        self.i = stop
        gline = self.line_at(stop, self.nl)  # msgfmt: where the word ends
        kind = (PREV_KEYWORDS if self.prev else KEYWORDS).get(word)
        if kind is None:
            self.error(gline, line, i, unknown_keyword(word, self.prev))
            return Tok(NAME, word, gline, line, i, self.obs)
        return Tok(kind, word, gline, line, i, self.obs)

    def number(self, i: int, line: int) -> Tok:
        """A number (the N of msgstr[N]), read as msgfmt reads it into a C long."""
        s = self.s
        stop = end(_DIGITS, s, i + 1)
        self.i = stop
        digits = s[i:stop].lstrip("0")
        value = LONG_MAX if len(digits) > 19 else min(int(digits or "0"), LONG_MAX)
        return Tok(NUMBER, value, self.line_at(stop, self.nl), line, i, self.obs)

    def string(self, start: int, line: int) -> Tok:
        s = self.s
        n = self.n
        parts: list[str] = []
        j = start + 1
        while True:
            stop = end(_CHUNK, s, j)
            if stop > j:
                parts.append(s[j:stop])
            if stop >= n:
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
            c = s[stop]
            if c == '"':
                j = stop + 1
                gline = self.line_at(stop, self.nl)
                break
            if c == "\n":
                j = stop + 1
                self.nl += 1  # the newline belongs to the string: #~ and #| stay in force
                gline = self.line_at(stop, self.nl)
                self.error(
                    gline,
                    line,
                    start,
                    "this string is not closed: add the final double quote at the end of the "
                    'line (a text that goes on over several lines is written "..." on each)',
                )
                break
            j = self.escape(stop, parts)
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
            return Tok(PREV_STRING, value, gline, line, start, self.obs, cut)
        return Tok(STRING, value, gline, line, start, self.obs, cut)

    def escape(self, at: int, parts: list[str]) -> int:
        """Decode the escape at ``s[at] == '\\'``; return where the string goes on."""
        s = self.s
        k = at + 1
        c = s[k] if k < self.n else ""
        if c in ESCAPES:
            parts.append(ESCAPES[c])
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
        self.problems.error(
            line,
            self.col(at),
            f"{shown} is not an escape sequence gettext knows: write \\\\ for a backslash; "
            'the escapes are \\n \\t \\" \\\\ and \\r \\a \\b \\f \\v, \\NNN (octal), \\xHH',
            ((line, PLAIN),),
        )
        parts.append(" ")
        return k


def unknown_keyword(word: str, previous: bool) -> str:
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
