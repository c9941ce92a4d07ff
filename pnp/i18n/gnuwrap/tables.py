"""The class and display width of every code point, read from ``pnp/data/linebreak.txt`` (made
from libunistring 1.0 itself; the file says how), and the regular expressions built from them
and the pair table: each finds the break opportunities of a text, or of its class codes."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterable
from functools import cache, cached_property
from pathlib import Path

from .classes import BA, CLS, HL, HY, LETTERS, PAIRS, SIMPLE, SLOW_CLASSES, SP

DATA = Path(__file__).parents[2] / "data" / "linebreak.txt"

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


class Tables:
    """The class codes of all code points, read from ``pnp/data/linebreak.txt``, and the
    regular expressions built from them and the pair table."""

    def __init__(self) -> None:
        starts: list[int] = []
        codes: list[int] = []
        for line in DATA.read_text(encoding="ascii").splitlines():
            if line.startswith("#"):
                continue
            for token in line.split():
                first, _, rest = token.partition(":")
                name, _, width = rest.partition("*")
                starts.append(int(first, 16))
                codes.append((int(width or "1") << 6) | CLS[name])
        self.codes = _Codes(starts, codes)

        # The code-point ranges of each class, among the characters the regexes read as text;
        # `complex` finds any other character.
        self.ranges: dict[int, list[tuple[int, int]]] = {c: [] for c in SIMPLE}
        for start, end, code in zip(starts, [*starts[1:], 0x110000], codes, strict=True):
            cls = code & 63
            if start < _FAST_LIMIT and code >> 6 == 1 and cls in self.ranges:
                self.ranges[cls].append((start, min(end, _FAST_LIMIT) - 1))
        taken = sorted(r for ranges in self.ranges.values() for r in ranges)
        self.complex = re.compile(f"[^{_ranges_text(taken)}]")

        present = frozenset(c for c, ranges in self.ranges.items() if ranges)
        self.text = Finder(self._set, " ", present)
        self.coded = Finder(_code_set, _code_set({SP}), SIMPLE)  # for class-code strings

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


class Finder:
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
                after = frozenset(c for c in present - {SP} if rule(PAIRS[before], c))
                if after:
                    groups.setdefault(after, set()).add(before)
            return [(frozenset(before), after) for after, before in groups.items()]

        spaced = grouped(lambda row, c: row[c] in "DI", present - {SP})
        after_spaces = (
            space
            + "(?:"
            + "|".join(f"(?<={charset(b)}{space}){space}*(?={charset(a)})" for b, a in spaced)
        )
        direct = grouped(lambda row, c: row[c] == "D", present - {SP} - LETTERS)
        union = charset(frozenset().union(*(b for b, _ in direct)))
        # LB21a: never after a Hebrew letter and a hyphen or BA character.
        after_hebrew = f"(?<!{charset(frozenset({HL}))}{charset(frozenset({HY, BA}))})"
        after_other = f"{union}{after_hebrew}(?:" + "|".join(
            f"(?<={charset(b)})(?={charset(a)})" for b, a in direct
        )
        direct = grouped(lambda row, c: row[c] == "D", LETTERS)
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
def load_tables() -> Tables:
    """The tables, built on first use (about 10 ms; each regex compiles on its first use)."""
    return Tables()


NOT_WIDTH_1 = re.compile(b"[\\x00-\\x3f\\x80-\\xff]")
SLOW_CODES = re.compile(_code_set(SLOW_CLASSES))
SPACE_CODE = chr(1 << 6 | SP)  # U+0020 is the only character of class SP
WIDTH_OF = bytes(code >> 6 for code in range(256))
