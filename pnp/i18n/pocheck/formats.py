"""Format strings: the placeholders of a ``c-format``, ``python-format`` or
``python-brace-format`` text, read as GNU gettext 0.21 reads them (format-c.c, format-python.c,
format-python-brace.c), and the comparison of a translation's placeholders with the source's.

Each kind has a parser (text -> what its placeholders take; :class:`Invalid` when the text is
not a valid format string) and a check (source's, translation's -> what to fix). ``strict``:
the translation must use exactly the source's placeholders; otherwise it may use fewer (a
plural form msgfmt does not check strictly).
"""

from __future__ import annotations

import re
from collections.abc import Callable


class Invalid(Exception):
    """A format string that is not valid; the message says why, for a translator."""


# --- C -----------------------------------------------------------------------------------------

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
_MIXED_C = "it mixes numbered (%1$s) and unnumbered (%s) placeholders"


def c_format(s: str, translated: bool) -> list[int]:
    """The argument types of a C format string, as GNU format-c.c reads it."""
    return _CFormat(s, translated).types()


class _CFormat:
    """One C format string, read placeholder by placeholder."""

    def __init__(self, s: str, translated: bool) -> None:
        self.s = s
        self.n = len(s)
        self.translated = translated  # a translation may use the I flag (localised digits)
        self.unnumbered: list[int] = []
        self.numbered: list[tuple[int, int]] = []
        self.count = 0  # the placeholders read so far

    def types(self) -> list[int]:
        i = 0
        while True:
            i = self.s.find("%", i)
            if i < 0:
                break
            i = self.placeholder(i + 1)
        if self.numbered:
            return self.merged()
        return self.unnumbered

    def placeholder(self, i: int) -> int:
        """Read the placeholder whose % is before ``i``; return where the text goes on."""
        s = self.s
        n = self.n
        self.count += 1
        number, k = self.number_at(i)
        if k != i and number == 0:
            raise Invalid(f"placeholder {self.count} has the argument number 0 (%0$): start at 1")
        i = k
        while i < n and (s[i] in " +-#0'" or (self.translated and s[i] == "I")):
            i += 1
        i = self.width(i)
        if i < n and s[i] == ".":
            i = self.width(i + 1)  # the precision
        if i < n and s[i] == "<":
            kind, i = self.c99_macro(i)
        else:
            kind, i = self.conversion(i)
        if kind:
            self.add(number, kind)
        return i + 1

    def number_at(self, k: int) -> tuple[int, int]:
        """An argument number ``N$`` at ``k``: (N, where it ends), or (0, k) if there is none."""
        s = self.s
        j = k
        while j < self.n and "0" <= s[j] <= "9":
            j += 1
        if j > k and j < self.n and s[j] == "$":
            return int(s[k:j][-12:]), j + 1
        return 0, k

    def add(self, number: int, kind: int) -> None:
        if number:
            if self.unnumbered:
                raise Invalid(_MIXED_C)
            self.numbered.append((number, kind))
        else:
            if self.numbered:
                raise Invalid(_MIXED_C)
            self.unnumbered.append(kind)

    def width(self, i: int) -> int:
        """A width or precision at ``i``: digits, or ``*`` (maybe ``*N$``), an int argument."""
        s = self.s
        if i < self.n and s[i] == "*":
            star, k = self.number_at(i + 1)
            if k != i + 1 and star == 0:
                raise Invalid(f"placeholder {self.count} has the argument number 0 (*0$)")
            self.add(star, _C_INT)
            return k
        while i < self.n and "0" <= s[i] <= "9":
            i += 1
        return i

    def c99_macro(self, i: int) -> tuple[int, int]:
        """``<PRId64>`` and the like, at ``s[i] == '<'``: the type, and where the > is."""
        m = _C99_MACRO.match(self.s, i + 1)
        if m is None:
            raise Invalid(
                f"placeholder {self.count}: <...> must name a format macro such as <PRId64>"
            )
        kind = _C_INT | (_C_UNSIGNED if m.group(1) in "ouxX" else 0) | _C99[m.group(2)]
        i = m.end()
        if i >= self.n or self.s[i] != ">":
            raise Invalid(f"placeholder {self.count}: close <PRI...> with >")
        return kind, i

    def conversion(self, i: int) -> tuple[int, int]:
        """The size letters and the conversion at ``i``: the type, and where the conversion is."""
        s = self.s
        size = 0
        while i < self.n:
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
        if i >= self.n:
            raise Invalid("the text ends in the middle of a placeholder (write %% for a %)")
        return _c_kind(s[i], size, self.count), i

    def merged(self) -> list[int]:
        """The types of the numbered arguments, 1, 2, 3... (each used one way, none left out)."""
        self.numbered.sort(key=lambda a: a[0])
        merged: list[tuple[int, int]] = []
        for number, kind in self.numbered:
            if merged and merged[-1][0] == number:
                if merged[-1][1] != kind:
                    raise Invalid(f"it uses argument {number} in two incompatible ways")
                continue
            merged.append((number, kind))
        for k, (number, _kind) in enumerate(merged, 1):
            if number != k:
                raise Invalid(f"it uses argument {number} but not argument {k}")
        return [kind for _number, kind in merged]


def _c_kind(c: str, size: int, count: int) -> int:
    """The type a conversion letter takes with these size letters (0: no argument)."""
    wide = _C_LONG if size & (_C_LONG | _C_LONGLONG) else 0
    if c in "%m":
        return 0
    if c == "c":
        return _C_CHAR | wide
    if c == "C":
        return _C_CHAR | _C_LONG
    if c == "s":
        return _C_STRING | wide
    if c == "S":
        return _C_STRING | _C_LONG
    if c in "id":
        return _C_INT | (size & _C_SIZEMASK)
    if c in "ouxX":
        return _C_INT | _C_UNSIGNED | (size & _C_SIZEMASK)
    if c in "eEfFgGaA":
        return _C_DOUBLE | (size & _C_LONGLONG)
    if c == "p":
        return _C_POINTER
    if c == "n":
        return _C_COUNT | (size & _C_SIZEMASK)
    raise Invalid(
        f"in placeholder {count}, {c!r} is not a conversion (%s, %d, %f...); "
        "write %% for a percent sign"
    )


def c_check(src: list[int], tr: list[int], strict: bool, names: tuple[str, str]) -> list[str]:
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


# --- Python % ----------------------------------------------------------------------------------

_PY_NONE, _PY_ANY, _PY_CHAR, _PY_STRING, _PY_INT, _PY_FLOAT = range(6)
_MIXED_PY = "it mixes named (%(name)s) and unnamed (%s) placeholders"


def python_format(s: str, translated: bool) -> tuple[dict[str, int], list[int]]:
    """Named and unnamed argument types of a Python %-format (GNU format-python.c)."""
    return _PythonFormat(s).types()


class _PythonFormat:
    """One Python %-format string, read placeholder by placeholder."""

    def __init__(self, s: str) -> None:
        self.s = s
        self.n = len(s)
        self.named: list[tuple[str, int]] = []
        self.unnamed: list[int] = []
        self.count = 0  # the placeholders read so far

    def types(self) -> tuple[dict[str, int], list[int]]:
        i = 0
        while True:
            i = self.s.find("%", i)
            if i < 0:
                break
            i = self.placeholder(i + 1)
        return _merged_names(self.named), self.unnamed

    def placeholder(self, i: int) -> int:
        """Read the placeholder whose % is before ``i``; return where the text goes on."""
        s = self.s
        n = self.n
        self.count += 1
        name = None
        if i < n and s[i] == "(":
            name, i = self.name(i)
        while i < n and s[i] in "-+ #0":
            i += 1
        if i < n and s[i] == "*":
            i += 1
            self.add_unnamed(_PY_INT)
        else:
            while i < n and "0" <= s[i] <= "9":
                i += 1
        zero_precision = False
        if i < n and s[i] == ".":
            zero_precision, i = self.precision(i + 1)
        if i < n and s[i] in "hlL":
            i += 1
        c = s[i] if i < n else ""
        kind = _python_kind(c, zero_precision, self.count)
        if name is not None:
            if self.unnamed:
                raise Invalid(_MIXED_PY)
            self.named.append((name, kind))
        elif c != "%":
            self.add_unnamed(kind)
        return i + 1

    def name(self, i: int) -> tuple[str, int]:
        """The name of ``%(name)``, at ``s[i] == '('`` (it may hold balanced parentheses), and
        where it ends."""
        s = self.s
        depth = 0
        j = i + 1
        while j < self.n:
            if s[j] == "(":
                depth += 1
            elif s[j] == ")":
                if depth == 0:
                    break
                depth -= 1
            j += 1
        if j >= self.n:
            raise Invalid("a %( is not closed by ) (write %% for a percent sign)")
        return s[i + 1 : j], j + 1

    def precision(self, i: int) -> tuple[bool, int]:
        """The precision after the dot, at ``i``: whether it is zero (then %s may print
        nothing of its argument), and where it ends."""
        s = self.s
        n = self.n
        if i < n and s[i] == "*":
            self.add_unnamed(_PY_INT)
            return False, i + 1
        zero_precision = False
        if i < n and "0" <= s[i] <= "9":
            zero_precision = True
            while i < n and "0" <= s[i] <= "9":
                if s[i] != "0":
                    zero_precision = False
                i += 1
        return zero_precision, i

    def add_unnamed(self, kind: int) -> None:
        if self.named:
            raise Invalid(_MIXED_PY)
        self.unnamed.append(kind)


def _python_kind(c: str, zero_precision: bool, count: int) -> int:
    """The type a conversion letter takes."""
    if c == "%":
        return _PY_NONE
    if c == "c":
        return _PY_CHAR
    if c in ("s", "r"):
        return _PY_ANY if zero_precision else _PY_STRING
    if c and c in "iduoxX":
        return _PY_INT
    if c and c in "eEfgG":
        return _PY_FLOAT
    if not c:
        raise Invalid("the text ends in the middle of a placeholder (write %% for a %)")
    raise Invalid(
        f"in placeholder {count}, {c!r} is not a conversion (%s, %d, %f...); "
        "write %% for a percent sign"
    )


def _merged_names(named: list[tuple[str, int]]) -> dict[str, int]:
    """The type of each name (a name used twice must be used alike, or once as %.0s)."""
    merged: dict[str, int] = {}
    for name, kind in sorted(named, key=lambda a: a[0]):
        if name in merged:
            old = merged[name]
            if kind == old or old == _PY_ANY:
                merged[name] = kind
            elif kind == _PY_ANY:
                pass
            else:
                raise Invalid(f"it uses %({name}) in two incompatible ways")
        else:
            merged[name] = kind
    return merged


def python_check(
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
        out += _named_problems(named1, named2, strict, names)
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


def _named_problems(
    named1: dict[str, int], named2: dict[str, int], strict: bool, names: tuple[str, str]
) -> list[str]:
    """The first problem with the named placeholders of a translation, if any."""
    msgid, msgstr = names
    for name in sorted(set(named1) | set(named2)):
        if name not in named1:
            return [f"%({name}) is not a placeholder of {msgid}: use only the original's names"]
        if name not in named2 and strict:
            return [f"the placeholder %({name}) of {msgid} is missing from {msgstr}"]
    for name in sorted(named2):
        a, b = named1[name], named2[name]
        if not (a == b or (not strict and _PY_ANY in (a, b))):
            return [
                f"%({name}) is not of the same kind in {msgid} and {msgstr} "
                "(e.g. %(n)d against %(n)s): keep the original's"
            ]
    return []


# --- Python {} ---------------------------------------------------------------------------------


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
    i = _brace_field(s, i, n)
    if i < n and s[i] == ":":
        if not top:
            raise Invalid("a placeholder inside a format specification cannot have one itself")
        i += 1
        nested = i < n and s[i] == "{"  # {:{width}}
        i = _brace_directive(s, i, False, names) if nested else _brace_spec(s, i, n)
    if i >= n or s[i] != "}":
        raise Invalid("a placeholder is not closed: add } (write {{ and }} for braces)")
    if top:
        names.append(s[start:i])
    return i + 1


def _brace_field(s: str, i: int, n: int) -> int:
    """The end of a placeholder's field at ``i``: a name or number, then .name or [key]."""
    end = _named_end(s, i, n)
    if end == i:
        end = _numeric_end(s, i, n)
    if end == i:
        raise Invalid("a { must start a placeholder like {name} or {0} (write {{ for a brace)")
    i = end
    while i < n and s[i] in ".[":
        if s[i] == ".":
            j = _named_end(s, i + 1, n)
            if j == i + 1:
                raise Invalid("after a . in a placeholder comes a name, as in {user.name}")
            i = j
        else:
            j = _named_end(s, i + 1, n)
            if j == i + 1:
                j = _numeric_end(s, i + 1, n)
            if j == i + 1:
                raise Invalid("after a [ in a placeholder comes a name or number, as in {a[0]}")
            if j >= n or s[j] != "]":
                raise Invalid("a [ in a placeholder is not closed by ]")
            i = j + 1
    return i


def _brace_spec(s: str, i: int, n: int) -> int:
    """The end of a format specification at ``i`` (after the colon): [[fill]align][sign][#]
    [0][width][.precision][type]."""
    if i >= n:
        raise Invalid("a placeholder is not closed: add }")
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
    return i


def brace_format(s: str, translated: bool) -> set[str]:
    """The placeholders of a Python {}-format (GNU format-python-brace.c, 0.21)."""
    names: list[str] = []
    i = s.find("{")
    while i >= 0:
        i = _brace_directive(s, i, True, names)
        i = s.find("{", i)
    return set(names)


def brace_check(src: set[str], tr: set[str], strict: bool, names: tuple[str, str]) -> list[str]:
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
FORMATS: list[tuple[str, str, _Parse, _Check]] = [
    ("c", "C", c_format, c_check),  # type: ignore[list-item]
    ("python", "Python", python_format, python_check),  # type: ignore[list-item]
    ("python-brace", "Python brace", brace_format, brace_check),  # type: ignore[list-item]
]
"""(flag name, name shown, parser, check) of each kind of format string pnp checks."""
