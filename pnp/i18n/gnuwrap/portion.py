"""One portion of a value (the text up to and including a newline): escaped as GNU writes it,
its break opportunities, and where its lines break to fit the width (a greedy fill)."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from itertools import accumulate

from .classes import opportunities_slow
from .tables import NOT_WIDTH_1, SLOW_CODES, SPACE_CODE, WIDTH_OF, Finder, load_tables

_ESCAPES = {
    "\\": "\\\\",
    '"': '\\"',
    "\n": "\\n",
    "\t": "\\t",
    "\r": "\\r",
    "\a": "\\a",
    "\b": "\\b",
    "\f": "\\f",
    "\v": "\\v",
}
_TO_ESCAPE = re.compile('[\\\\"\a\b\t\n\v\f\r]')


def escape(value: str) -> str:
    """The value as GNU writes it between quotes: C escapes for backslash, quote and the seven
    control characters that have one; every other character raw."""
    if _TO_ESCAPE.search(value) is None:
        return value
    return _TO_ESCAPE.sub(lambda match: _ESCAPES[match[0]], value)


# ---------------------------------------------------------------------------------------------
# Break opportunities.


def _forbidden(escaped: str, pos: int, keep: frozenset[int]) -> bool:
    """Whether GNU takes this break opportunity away: inside an escape sequence, before the
    ``\\n`` that ends a portion, or inside a format directive (`keep`)."""
    if pos in keep:
        return True
    if escaped[pos - 1] == "\\":
        # After an odd run of backslashes the position is inside an escape sequence.
        run = 1
        while pos - run - 1 >= 0 and escaped[pos - run - 1] == "\\":
            run += 1
        if run % 2:
            return True
    return pos == len(escaped) - 2 and escaped.endswith("\\n")


def _last_opportunity(part: Portion, finder: Finder, subject: str, line: int, end: int) -> int:
    """The last opportunity GNU keeps after `line` and before `end`, or -1."""
    while True:
        match = finder.last.match(subject, line, end)
        if match is None or match.end() <= line:
            return -1
        if not _forbidden(part.escaped, match.end(), part.keep):
            return match.end()
        end = match.end()


def _fast_breaks(
    part: Portion, finder: Finder, subject: str, startcol: int, width: int
) -> list[int]:
    """The fill for text without slow classes: per line, the last opportunity where the line
    still fits, else the first one after it. `subject` is the escaped text or its class codes,
    `finder` has the regexes for it."""
    widths = part.widths
    n = len(subject)
    out: list[int] = []
    line = 0
    reach = width - startcol  # the line may hold text up to this display width
    while True:
        # The line may hold subject[line:limit].
        limit = reach if widths is None else bisect_right(widths, reach) - 1
        if limit >= n:
            return out
        pos = _last_opportunity(part, finder, subject, line, limit + 1)
        if pos < 0:
            # The line's first piece is wider than the line: the break comes after it.
            start = after = max(line, limit)
            space = " " if subject is part.escaped else SPACE_CODE
            while start > line and subject[start - 1] == space:
                start -= 1  # a run of spaces is matched from its first space
            for match in finder.first.finditer(subject, start):
                if match.end() > after and not _forbidden(part.escaped, match.end(), part.keep):
                    pos = match.end()
                    break
            else:
                return out
        out.append(pos)
        line = pos
        reach = width + (pos if widths is None else widths[pos])


def _without_forbidden(escaped: str, possible: list[int], keep: frozenset[int]) -> list[int]:
    """The opportunities GNU keeps."""
    if "\\" not in escaped and not keep:
        return possible
    return [pos for pos in possible if not _forbidden(escaped, pos, keep)]


# ---------------------------------------------------------------------------------------------
# The fill.


def _fill(bounds: list[int], widths: list[int], startcol: int, width: int) -> list[int]:
    """Greedy fill without mandatory breaks. ``bounds``: the break opportunities, then the end;
    ``widths``: the display width of the text before each of them. Returns where lines break.

    A line is broken before a piece when the piece would end past the width; a piece wider than
    a whole line stays on the line it starts and the line breaks after it."""
    out: list[int] = []
    last = len(bounds) - 1
    line = -1  # index in bounds of the current line start (-1: the start of the text)
    reach = width - startcol  # the line holds text up to this width from the start
    while True:
        end = bisect_right(widths, reach, line + 1)  # the first piece that ends past the width
        if end > last:
            return out
        if end - 1 > line:
            line = end - 1  # break before that piece
        elif end == last:
            return out  # the line's first piece overflows alone and ends the text
        else:
            line = end  # the line's first piece overflows alone: break after it
        out.append(bounds[line])
        reach = widths[line] + width


def _fill_with_mandatory(
    possible: list[int], mandatory: list[int], widths: Sequence[int], startcol: int, width: int
) -> list[int]:
    """The same fill, piece by piece, for text with mandatory breaks: at one the column is
    taken back to 0 and no earlier opportunity can be used, as in libunistring, although GNU
    writes no line end there."""
    events = sorted([(pos, False) for pos in possible] + [(pos, True) for pos in mandatory])
    events.append((len(widths) - 1, True))
    out: list[int] = []
    column = startcol
    piece_start = 0
    usable = False  # whether the current piece starts at a break opportunity
    for pos, hard in events:
        piece = widths[pos] - widths[piece_start]
        if usable and column + piece > width:
            out.append(piece_start)
            column = 0
        if hard:
            usable = False
            column = 0
        else:
            usable = True
            column += piece
        piece_start = pos
    return out


class Portion:
    """One escaped portion with what its layout needs, computed once and reused when the first
    line is given up for ``keyword ""``."""

    __slots__ = ("codes", "escaped", "keep", "mandatory", "possible", "total", "widths")

    def __init__(self, portion: str, keep: frozenset[int] = frozenset()) -> None:
        self.escaped = escaped = escape(portion)
        self.keep = keep
        self.codes: str | None = None  # the class codes, when the text is not searched itself
        self.possible: list[int] | None = None  # all opportunities, for text the walk read
        self.mandatory: list[int] = []
        self.widths: list[int] | None = None  # display width before each index; None: the index
        self.total = len(escaped)
        if escaped.isascii() and escaped.isprintable():
            return
        tables = load_tables()
        if tables.complex.search(escaped) is None:
            return  # one column per character, and the regexes can read the text itself
        codes = escaped.translate(tables.codes)
        code_bytes = codes.encode("latin-1")
        if NOT_WIDTH_1.search(code_bytes) is not None:
            self.widths = [0, *accumulate(code_bytes.translate(WIDTH_OF))]
            self.total = self.widths[-1]
        if SLOW_CODES.search(codes) is None:
            self.codes = codes
        else:
            possible, self.mandatory = opportunities_slow(code_bytes)
            self.possible = _without_forbidden(escaped, possible, keep)

    def has_break(self, startcol: int, width: int) -> bool:
        """Whether the portion needs a line break at all: when it is too wide for its line, the
        fill breaks at some opportunity as soon as there is one."""
        if startcol + self.total <= width:
            return False
        if self.possible is not None:
            return bool(self.breaks(startcol, width) if self.mandatory else self.possible)
        finder, subject = self._finder()
        return _last_opportunity(self, finder, subject, 0, len(subject)) > 0

    def breaks(self, startcol: int, width: int) -> list[int]:
        """Where GNU breaks this portion's lines, as indices into the escaped text."""
        if startcol + self.total <= width:
            return []  # fits: no piece can pass the width, whatever the opportunities
        if self.possible is None:
            finder, subject = self._finder()
            return _fast_breaks(self, finder, subject, startcol, width)
        if self.mandatory:
            widths = self.widths
            assert widths is not None
            return _fill_with_mandatory(self.possible, self.mandatory, widths, startcol, width)
        bounds = [*self.possible, len(self.escaped)]
        at = bounds if self.widths is None else [self.widths[b] for b in bounds]
        return _fill(bounds, at, startcol, width)

    def _finder(self) -> tuple[Finder, str]:
        """The regexes for this text, and the string they read: the text or its class codes."""
        tables = load_tables()
        if self.codes is None:
            return tables.text, self.escaped
        return tables.coded, self.codes
