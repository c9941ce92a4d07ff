"""Line layout of PO string fields and ``#:`` lines, exactly as GNU gettext 0.21 writes them.

``msgcat``, ``msgmerge`` and the other GNU tools rewrite every PO file they touch with their own
layout (``write-po.c``). pnp writes the same layout, so that a file pnp wrote comes back
byte-identical from a GNU tool and a hand-off through one is not a diff of every wrapped string.

How GNU lays out ``keyword "value"``:

* The value is cut into portions, each ending just after an embedded newline, and each portion
  is escaped (``\\\\ \\" \\n \\t \\r \\a \\b \\f \\v``; everything else is written raw).
* Break opportunities are found in the *escaped* portion by libunistring's line breaking
  (Unicode UAX #14 as libunistring 1.0 implements it: a pair table plus a few rules that look
  further back), then two kinds are taken away: inside an escape sequence, and just before the
  ``\\n`` that ends a portion.
* A greedy fill cuts the portion into pieces at the opportunities and breaks the line before a
  piece that would end past the width: 79 columns less the prefix, both quotes and, on the
  first line, ``keyword ``. A piece wider than a line stays whole. Columns are display columns:
  East Asian wide characters count 2, combining marks 0.
* When a value has more than one portion, or its first portion would need a break after
  ``keyword "``, GNU writes ``keyword ""`` and starts the text on the next line.

The line-break classes and widths of all code points come from libunistring 1.0 itself, in
``pnp/data/linebreak.txt`` (that file says how it was made); the pair table is below. Three
ways to the same layout, the quickest that applies:

* Text of one-column characters below U+3000 without combining marks, joiners and the like
  (nearly all Latin, Greek, Cyrillic, Hebrew and Arabic text): per line, one regular expression
  run on the text finds the last break opportunity that still fits. No per-character work.
* Other text without those classes (CJK, most emoji): the same regular expressions, run on the
  string of the characters' class codes (one ``str.translate``), with display widths summed.
* Text with combining marks, zero-width (non-)joiners and spaces, regional indicators (flags)
  or line separators: a walk over its characters that follows libunistring's rules one by one,
  about ten times slower.

Format directives: GNU does not break inside a format directive of an entry flagged
``*-format``. Directives seldom hold a break opportunity (``% d`` with its space flag does), and
which spans gettext 0.21 takes for directives is its parsers' business (its python-brace parser
marks them at the wrong place), so they are not found here: pass them in ``keep``.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterable, Sequence
from functools import cache, cached_property
from itertools import accumulate
from pathlib import Path

# ---------------------------------------------------------------------------------------------
# Line-break classes, numbered as libunistring 1.0 numbers them (unilbrk/lbrktables.h). The
# first 33 index the pair table; the others are handled before it is consulted.
# fmt: off
CLASS_NAMES = (
    "WJ", "GL", "B2", "BA", "BB", "HY", "CL", "CP1", "CP2", "EX", "IN", "NS", "OP1", "OP2", "QU",
    "IS", "NU", "PO", "PR", "SY", "AL", "H2", "H3", "ID1", "ID2", "JL", "JV", "JT", "HL", "RI",
    "ZWJ", "EB", "EM", "BK", "CR", "LF", "CM", "ZW", "SP",
)
# fmt: on
_CLS = {name: number for number, name in enumerate(CLASS_NAMES)}
AL, NU, HL, HY, BA = _CLS["AL"], _CLS["NU"], _CLS["HL"], _CLS["HY"], _CLS["BA"]
RI, ZWJ = _CLS["RI"], _CLS["ZWJ"]
BK, CR, LF, CM, ZW, SP = _CLS["BK"], _CLS["CR"], _CLS["LF"], _CLS["CM"], _CLS["ZW"], _CLS["SP"]
_HL_BA = 100  # not a class: "a Hebrew letter, then a hyphen or BA character" (rule LB21a)

# libunistring 1.0's pair table (unilbrk_table, read from libunistring.so.2 of Debian 12):
# row = class before the opportunity (the last one that is not a space), column = class after.
# D: break; I: break only if spaces come between; P: no break.
_PAIRS = (
    "PIIIIIPPPPIIIIIPIIIPIIIIIIIIIIIII",  # WJ
    "PIIIIIPPPPIIIIIPIIIPIIIIIIIIIIIII",  # GL
    "PIPIDIPPPPIIDDIPDDDPDDDDDDDDDDDDD",  # B2
    "PDDIDIPPPPIIDDIPDDDPDDDDDDDDDDDDD",  # BA
    "PIIIIIPPPPIIIIIPIIIPIIIIIIIIIIIII",  # BB
    "PDDIDIPPPPIIDDIPIDDPDDDDDDDDDDDDD",  # HY
    "PIDIDIPPPPIPDDIPDIIPDDDDDDDDDDDDD",  # CL
    "PIDIDIPPPPIIDDIPIIIPIDDDDDDDIDIDD",  # CP1
    "PIDIDIPPPPIIDDIPDIIPDDDDDDDDDDDDD",  # CP2
    "PIDIDIPPPPIIDDIPDDDPDDDDDDDDDDDDD",  # EX
    "PIDIDIPPPPIIDDIPDDDPDDDDDDDDDDDDD",  # IN
    "PIDIDIPPPPIIDDIPDDDPDDDDDDDDDDDDD",  # NS
    "PPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPP",  # OP1
    "PPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPP",  # OP2
    "PIIIIIPPPPIIPPIPIIIPIIIIIIIIIIIII",  # QU
    "PIDIDIPPPPIIDDIPIDDPDDDDDDDDDDDDD",  # IS
    "PIDIDIPPPPIIIDIPIIIPIDDDDDDDIDIDD",  # NU
    "PIDIDIPPPPIIIIIPIDDPIDDDDDDDIDIDD",  # PO
    "PIDIDIPPPPIIIIIPIDDPIIIIIIIIIDIII",  # PR
    "PIDIDIPPPPIIDDIPIDDPDDDDDDDDIDDDD",  # SY
    "PIDIDIPPPPIIIDIPIIIPIDDDDDDDIDIDD",  # AL
    "PIDIDIPPPPIIDDIPDIDPDDDDDDIIDDDDD",  # H2
    "PIDIDIPPPPIIDDIPDIDPDDDDDDDIDDDDD",  # H3
    "PIDIDIPPPPIIDDIPDIDPDDDDDDDDDDDDD",  # ID1
    "PIDIDIPPPPIIDDIPDIDPDDDDDDDDDDDDI",  # ID2
    "PIDIDIPPPPIIDDIPDIDPDIIDDIIDDDDDD",  # JL
    "PIDIDIPPPPIIDDIPDIDPDDDDDDIIDDDDD",  # JV
    "PIDIDIPPPPIIDDIPDIDPDDDDDDDIDDDDD",  # JT
    "PIDIDIPPPPIIIDIPIIIPIDDDDDDDIDIDD",  # HL
    "PIDIDIPPPPIIDDIPDDDPDDDDDDDDDDDDD",  # RI
    "PIDIDIPPPPIIIDIPIIIPIDDIIDDDIDIII",  # ZWJ
    "PIDIDIPPPPIIDDIPDIDPDDDDDDDDDDDDI",  # EB
    "PIDIDIPPPPIIDDIPDIDPDDDDDDDDDDDDD",  # EM
)
_TABLE_SIZE = len(_PAIRS)

_DATA = Path(__file__).parent.parent / "data" / "linebreak.txt"

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

_INFINITE = 1 << 62  # the width of a no-wrap field: only newlines end its lines


def escape(value: str) -> str:
    """The value as GNU writes it between quotes: C escapes for backslash, quote and the seven
    control characters that have one; every other character raw."""
    if _TO_ESCAPE.search(value) is None:
        return value
    return _TO_ESCAPE.sub(lambda match: _ESCAPES[match[0]], value)


# ---------------------------------------------------------------------------------------------
# The code-point table and what is built from it.

# The classes the regexes handle ("simple"): between them, a break before a character depends
# only on the last character before it that is not a space and on whether spaces came between
# (plus rule LB21a, Hebrew letter + hyphen, which looks one character further back). The slow
# classes need the walk: attached marks and joiners are skipped over, flags go in pairs.
_SLOW_CLASSES = frozenset((BK, CR, LF, CM, ZW, ZWJ, RI))
_SIMPLE_CLASSES = frozenset(range(_TABLE_SIZE)) - _SLOW_CLASSES - {SP}
_SIMPLE = _SIMPLE_CLASSES | {SP}
_LETTERS = frozenset((AL, NU))  # most characters of most text; never a direct break between
# The regexes run on the text itself when it has only one-column characters of simple classes
# below this code point: their character sets stay small enough to compile quickly.
_FAST_LIMIT = 0x3000


class _Codes(dict[int, int]):
    """Code point -> class code, ``width << 6 | class`` (width 0, 1 or 2), looked up in the run
    table on first use and then remembered. ``str.translate`` uses it directly to turn a text
    into its string of class codes."""

    def __init__(self, starts: list[int], codes: list[int]) -> None:
        super().__init__()
        self.starts = starts
        self.codes = codes

    def __missing__(self, cp: int) -> int:
        code = self.codes[bisect_right(self.starts, cp) - 1]
        self[cp] = code
        return code


class _Tables:
    """The class codes of all code points, read from ``pnp/data/linebreak.txt``, and the
    regular expressions built from them and the pair table."""

    def __init__(self) -> None:
        starts: list[int] = []
        codes: list[int] = []
        for line in _DATA.read_text(encoding="ascii").splitlines():
            if line.startswith("#"):
                continue
            for token in line.split():
                first, _, rest = token.partition(":")
                name, _, width = rest.partition("*")
                starts.append(int(first, 16))
                codes.append((int(width or "1") << 6) | _CLS[name])
        self.codes = _Codes(starts, codes)

        # The code-point ranges of each class, among the characters the regexes read as text;
        # `complex` finds any other character.
        self.ranges: dict[int, list[tuple[int, int]]] = {c: [] for c in _SIMPLE}
        for start, end, code in zip(starts, [*starts[1:], 0x110000], codes, strict=True):
            cls = code & 63
            if start < _FAST_LIMIT and code >> 6 == 1 and cls in self.ranges:
                self.ranges[cls].append((start, min(end, _FAST_LIMIT) - 1))
        taken = sorted(r for ranges in self.ranges.values() for r in ranges)
        self.complex = re.compile(f"[^{_ranges_text(taken)}]")

        present = frozenset(c for c, ranges in self.ranges.items() if ranges)
        self.text = _Finder(self._set, " ", present)
        self.coded = _Finder(_code_set, _code_set({SP}), _SIMPLE)  # for class-code strings

    def _set(self, classes: frozenset[int]) -> str:
        """A regex character set for these classes that is right for text the regexes read
        directly: the members, or everything but the other classes, whichever is shorter."""
        inside = sorted(r for c in classes for r in self.ranges[c])
        outside = sorted(r for c in self.ranges.keys() - classes for r in self.ranges[c])
        if not outside:
            return "[\\s\\S]"
        if _size(inside) <= _size(outside):
            return f"[{_ranges_text(inside)}]" if inside else "(?!)"
        return f"[^{_ranges_text(outside)}]"


def _code_set(classes: Iterable[int]) -> str:
    """A regex character set matching the class codes of these classes, at any width."""
    return "[" + "".join(f"\\x{w << 6 | c:02x}" for c in sorted(classes) for w in (0, 1, 2)) + "]"


class _Finder:
    """Regexes that end where a break opportunity is, in a string of `present` classes and
    spaces (`space` matches one) where no slow class occurs. `charset` writes a regex set.

    Three kinds of opportunity:
    1. a character, spaces, then a character that may start a line after those spaces (the
       match is the spaces);
    2. a character other than a letter or digit, then one that may directly follow it on a new
       line (the match is the first character);
    3. a letter or digit, then a character that may directly follow it on a new line (the
       match is empty).
    `first` finds the first opportunity from where a search starts, `last` (with a greedy prefix
    that backtracks from the end) the last one before where the match must end. Kinds 2 and 3
    can start at the same character, 3 ending before it and 2 after it: the order of the
    alternatives picks the right one for each. Both are compiled on first use."""

    def __init__(
        self, charset: Callable[[frozenset[int]], str], space: str, present: frozenset[int]
    ) -> None:
        def grouped(
            rule: Callable[[str, int], bool], rows: frozenset[int]
        ) -> list[tuple[frozenset[int], frozenset[int]]]:
            """The classes `rows` grouped by the set of classes that `rule` lets follow them."""
            groups: dict[frozenset[int], set[int]] = {}
            for before in sorted(rows & present):
                after = frozenset(c for c in present - {SP} if rule(_PAIRS[before], c))
                if after:
                    groups.setdefault(after, set()).add(before)
            return [(frozenset(before), after) for after, before in groups.items()]

        spaced = grouped(lambda row, c: row[c] in "DI", present - {SP})
        after_spaces = (
            space
            + "(?:"
            + "|".join(f"(?<={charset(b)}{space}){space}*(?={charset(a)})" for b, a in spaced)
        )
        direct = grouped(lambda row, c: row[c] == "D", present - {SP} - _LETTERS)
        union = charset(frozenset().union(*(b for b, _ in direct)))
        # LB21a: never after a Hebrew letter and a hyphen or BA character.
        after_hebrew = f"(?<!{charset(frozenset({HL}))}{charset(frozenset({HY, BA}))})"
        after_other = f"{union}{after_hebrew}(?:" + "|".join(
            f"(?<={charset(b)})(?={charset(a)})" for b, a in direct
        )
        direct = grouped(lambda row, c: row[c] == "D", _LETTERS)
        after_letter = "|".join(f"(?<={charset(b)})(?={charset(a)})" for b, a in direct)
        self._first = f"{after_letter}|{after_spaces})|{after_other})"
        self._last = f"(?s:.*)(?:{after_spaces})|{after_other})|{after_letter})"

    @cached_property
    def first(self) -> re.Pattern[str]:
        return re.compile(self._first)

    @cached_property
    def last(self) -> re.Pattern[str]:
        return re.compile(self._last)


def _size(ranges: list[tuple[int, int]]) -> int:
    return sum(hi - lo + 1 for lo, hi in ranges)


def _ranges_text(ranges: list[tuple[int, int]]) -> str:
    """Code-point ranges as the inside of a regex character set."""
    merged: list[list[int]] = []
    for lo, hi in ranges:
        if merged and merged[-1][1] + 1 >= lo:
            merged[-1][1] = max(merged[-1][1], hi)
        else:
            merged.append([lo, hi])
    return "".join(
        _literal(lo) if lo == hi else f"{_literal(lo)}-{_literal(hi)}" for lo, hi in merged
    )


def _literal(cp: int) -> str:
    """A code point inside a regex character set: itself (quicker to compile than an escape),
    escaped when it means something there or is a control character."""
    char = chr(cp)
    return f"\\{char}" if char in "\\]^-[" else char if cp >= 0x20 else f"\\x{cp:02x}"


@cache
def _tables() -> _Tables:
    """The tables, built on first use (about 10 ms; each regex compiles on its first use)."""
    return _Tables()


_NOT_WIDTH_1 = re.compile(b"[\\x00-\\x3f\\x80-\\xff]")
_SLOW_CODES = re.compile(_code_set(_SLOW_CLASSES))
_SPACE_CODE = chr(1 << 6 | SP)  # U+0020 is the only character of class SP
_WIDTH_OF = bytes(code >> 6 for code in range(256))


# ---------------------------------------------------------------------------------------------
# Break opportunities.


def _opportunities_slow(codes: bytes) -> tuple[list[int], list[int]]:
    """Break opportunities and mandatory breaks of a class string, character by character,
    following libunistring 1.0's u8_possible_linebreaks_v2 rule by rule. Positions are indices
    of the character the break comes before."""
    possible: list[int] = []
    mandatory: list[int] = []
    prev = BK  # class of the previous character (HL + HY/BA is remembered as _HL_BA)
    last = BK  # class of the last character that is neither a space nor attached to another
    spaced = False  # spaces since `last`
    ri_run = 0  # regional indicators just before this character
    for i, code in enumerate(codes):
        cls = code & 63
        if cls in (BK, CR, LF):
            # LB4-LB6: a mandatory break. (CR LF never reaches here: both are escaped.)
            mandatory.append(i)
            prev = cls
            last = BK
            spaced = False
        else:
            if cls == SP:
                spaced = True  # LB7: never before a space
            elif cls == ZW:
                last = ZW  # LB7: never before a zero-width space
                spaced = False
            elif cls in (CM, ZWJ):
                # LB9, LB10: attached to what comes before, unless that is a line start, a
                # space or a zero-width space; then it breaks like a letter.
                if last == BK:
                    last = AL
                    spaced = False
                elif last == ZW or spaced:
                    possible.append(i)
                    last = AL
                    spaced = False
            else:
                if last == BK:
                    pass  # never at the start of a line
                elif last == ZW:
                    possible.append(i)  # LB8
                elif prev == ZWJ:
                    pass  # LB8a
                elif last == RI and cls == RI:
                    if spaced or ri_run % 2 == 0:  # LB30a: regional indicators go in pairs
                        possible.append(i)
                elif prev == _HL_BA:
                    pass  # LB21a
                else:
                    verdict = _PAIRS[last][cls]
                    if verdict == "D" or (verdict == "I" and spaced):
                        possible.append(i)
                last = cls
                spaced = False
            prev = _HL_BA if prev == HL and cls in (HY, BA) else cls
        ri_run = ri_run + 1 if cls == RI else 0
    return possible, mandatory


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


def _last_opportunity(part: _Portion, finder: _Finder, subject: str, line: int, end: int) -> int:
    """The last opportunity GNU keeps after `line` and before `end`, or -1."""
    while True:
        match = finder.last.match(subject, line, end)
        if match is None or match.end() <= line:
            return -1
        if not _forbidden(part.escaped, match.end(), part.keep):
            return match.end()
        end = match.end()


def _fast_breaks(
    part: _Portion, finder: _Finder, subject: str, startcol: int, width: int
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
            space = " " if subject is part.escaped else _SPACE_CODE
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


class _Portion:
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
        tables = _tables()
        if tables.complex.search(escaped) is None:
            return  # one column per character, and the regexes can read the text itself
        codes = escaped.translate(tables.codes)
        code_bytes = codes.encode("latin-1")
        if _NOT_WIDTH_1.search(code_bytes) is not None:
            self.widths = [0, *accumulate(code_bytes.translate(_WIDTH_OF))]
            self.total = self.widths[-1]
        if _SLOW_CODES.search(codes) is None:
            self.codes = codes
        else:
            possible, self.mandatory = _opportunities_slow(code_bytes)
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

    def _finder(self) -> tuple[_Finder, str]:
        """The regexes for this text, and the string they read: the text or its class codes."""
        tables = _tables()
        if self.codes is None:
            return tables.text, self.escaped
        return tables.coded, self.codes


def _portions(value: str) -> list[str]:
    """The value cut after each newline."""
    parts = value.split("\n")
    out = [part + "\n" for part in parts[:-1]]
    if parts[-1]:
        out.append(parts[-1])
    return out


def field_lines(
    keyword: str,
    value: str,
    prefix: str = "",
    *,
    wrap: bool = True,
    width: int = 79,
    keep: Iterable[tuple[int, int]] = (),
) -> list[str]:
    """The lines (no trailing newline) GNU writes for `keyword "value"`.

    keyword: "msgctxt", "msgid", "msgid_plural", "msgstr", "msgstr[0]", ...
    prefix: "" for active entries, "#~ " for obsolete ones, "#| " for previous fields
    (#| msgid ...), "#~| " for previous fields of obsolete entries.
    wrap=False is the `no-wrap` flag: lines are split only after embedded newlines.
    width: the page width (msgcat's ``--width``, 79 by default).
    keep: spans ``(start, end)`` of `value` that must stay on one line, the format directives
    GNU finds in an entry flagged ``*-format`` (a line may still start at ``start``)."""
    if not value:
        return [f'{prefix}{keyword} ""']
    # Columns count from the first character after the opening quote of a continuation line;
    # the width keeps room for the closing quote.
    text_width = (width if wrap else _INFINITE) - 1 - (len(prefix) + 1)
    portions = _portions(value)
    kept = _kept_positions(portions, keep) if keep else None
    lines: list[str] = []
    first = True
    for number, portion in enumerate(portions):
        part = _Portion(portion, kept[number] if kept else frozenset())
        startcol = len(keyword) + 1  # after `keyword "`
        if first and (
            len(portions) > 1 or startcol > text_width or part.has_break(startcol, text_width)
        ):
            lines.append(f'{prefix}{keyword} ""')
            first = False
        breaks = part.breaks(startcol if first else 0, text_width)
        text = part.escaped
        for a, b in zip([0, *breaks], [*breaks, len(text)], strict=True):
            if first:
                lines.append(f'{prefix}{keyword} "{text[a:b]}"')
                first = False
            else:
                lines.append(f'{prefix}"{text[a:b]}"')
    return lines


def _kept_positions(portions: list[str], keep: Iterable[tuple[int, int]]) -> list[frozenset[int]]:
    """For each portion, the positions in its escaped text where a line may not break because
    they are inside one of the `keep` spans of the value (after its first character)."""
    inside: set[int] = set()
    for start, end in keep:
        inside.update(range(start + 1, end))
    out = []
    offset = 0
    for portion in portions:
        positions = set()
        column = 0
        for i, char in enumerate(portion):
            if offset + i in inside:
                positions.add(column)
            column += len(escape(char))
        out.append(frozenset(positions))
        offset += len(portion)
    return out


# ---------------------------------------------------------------------------------------------
# References.

_BLANKS = " \t\n"


def _parse_references(text: str) -> list[tuple[str, int | None]]:
    """File references as GNU gettext 0.21 reads a ``#:`` line: words separated by blanks, each
    ``NAME:LINE`` or ``NAME``; ``NAME : LINE`` and ``NAME: LINE`` also give a line number.
    0.21 knows no quoting: a file name with a space is read as two references."""

    def skip_blanks(i: int) -> int:
        while i < n and text[i] in _BLANKS:
            i += 1
        return i

    def number_at(i: int) -> int:
        """The end of the ASCII digits starting at i, if at least one is there and a blank or
        the end follows them; else -1."""
        j = i
        while j < n and "0" <= text[j] <= "9":
            j += 1
        return j if j > i and (j == n or text[j] in _BLANKS) else -1

    out: list[tuple[str, int | None]] = []
    n = len(text)
    i = skip_blanks(0)
    while i < n:
        start = i
        while i < n and text[i] not in _BLANKS:
            i += 1
        word = text[start:i]
        after = skip_blanks(i)
        if after < n and text[after] == ":":  # NAME : LINE
            digits = skip_blanks(after + 1)
            end = number_at(digits)
            if end >= 0:
                out.append((word, int(text[digits:end])))
                i = skip_blanks(end)
                continue
        if word.endswith(":"):  # NAME: LINE
            end = number_at(after)
            if end >= 0:
                out.append((word[:-1], int(text[after:end])))
                i = skip_blanks(end)
                continue
        digits = len(word) - len(word.rstrip("0123456789"))
        if digits and len(word) - digits > 1 and word[-digits - 1] == ":":  # NAME:LINE
            out.append((word[: -digits - 1], int(word[-digits:])))
        else:
            out.append((word, None))
        i = skip_blanks(i)
    return out


def reference_lines(refs: list[str], width: int = 79) -> list[str]:
    """The `#:` lines GNU writes for these file:line references (as msgcat prints them,
    including how it writes file names with spaces).

    The references are read as msgcat 0.21 reads a ``#:`` line holding them (see
    :func:`_parse_references`): a file name with a space or tab becomes two references, which
    0.21 writes back separated by one space, and possibly on two lines. A repeated reference
    is written once (``./a.py:1`` repeats ``a.py:1``), a leading ``./`` is dropped, and a
    reference goes to a new line when it
    would pass the width, its width counted in UTF-8 bytes, as GNU does."""
    lines: list[str] = []
    line = "#:"
    column = 2
    seen: set[tuple[str, int | None]] = set()
    for name, number in _parse_references(" ".join(refs)):
        while name.startswith("./"):
            name = name[2:]
        # GNU compares references before taking ``./`` away, so a file it writes can still
        # hold one twice; the next reading removes it. Comparing after gives that fixed point.
        if (name, number) in seen:
            continue
        seen.add((name, number))
        shown = name if number is None else f"{name}:{number}"
        size = len(shown.encode("utf-8")) + 1
        if column > 2 and column + size > width:
            lines.append(line)
            line = "#:"
            column = 2
        line += " " + shown
        column += size
    if column > 2:
        lines.append(line)
    return lines
