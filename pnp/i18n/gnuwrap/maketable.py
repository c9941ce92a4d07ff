"""``python -m pnp.i18n.gnuwrap.maketable``: remake ``pnp/data/linebreak.txt`` from GNU
libunistring 1.0 itself (a maintainer's tool; ``--check`` compares instead of writing).

The library is loaded with ctypes: its exported line-break property table (the symbol
``libunistring_unilbrkprop``, a three-level table looked up as libunistring's
``unilbrkprop_lookup`` does) gives each code point's class, and ``uc_width(c, "UTF-8")`` its
display width. Only libunistring 1.0 is accepted (``libunistring.so.2`` whose
``_libunistring_version`` says 1.0.0, as on Debian 12, package libunistring2 1.0-2): another
version has other classes, and GNU gettext 0.21 as Debian 12 ships it is pnp's contract. The
pair table of :mod:`.classes` is checked against the library's (``libunistring_unilbrk_table``)
on the way.
"""

from __future__ import annotations

import argparse
import ctypes
import sys
from pathlib import Path

from .classes import CLASS_NAMES, CLS, PAIRS

DATA = Path(__file__).parents[2] / "data" / "linebreak.txt"
LIBRARY = "libunistring.so.2"
VERSION = 0x010000  # _libunistring_version of 1.0.0: major << 16 | minor << 8 | subminor

# libunistring 1.0's lbrkprop1.h: the shape of unilbrkprop (39,740 bytes, the symbol's size).
_HEADER_0, _HEADER_1, _HEADER_2, _HEADER_3, _HEADER_4 = 16, 15, 7, 511, 127
_LEVEL2, _LEVEL3 = 4 << 9, 246 << 7


class _Lbrkprop(ctypes.Structure):
    _fields_ = (
        ("level1", ctypes.c_int * _HEADER_1),
        ("level2", ctypes.c_int * _LEVEL2),
        ("level3", ctypes.c_ubyte * _LEVEL3),
    )


# unilbrk/lbrktables.h of libunistring 1.0: the classes numbered 0-38 are CLASS_NAMES; these
# are resolved at run time, as u8_possible_linebreaks_v2 does for UTF-8 text.
_CB, _AI, _SA, _XX = 39, 40, 41, 42
_RESOLVED = {_CB: "ID1", _AI: "AL", _SA: "AL", _XX: "AL"}
_ZERO_WIDTH = frozenset(("BK", "CR", "LF"))
_PAIR_LETTERS = {1: "D", 2: "I", 3: "P"}  # lbrktables.h: D, I, P

# Characters whose class UAX #14 fixes, to catch a table read wrongly.
_KNOWN = {
    **{cp: CLS[name] for cp, name in (
        (0x0A, "LF"), (0x20, "SP"), (0x41, "AL"), (0x30, "NU"), (0x28, "OP1"), (0x05D0, "HL"),
        (0x200B, "ZW"), (0x200D, "ZWJ"), (0x1F1E6, "RI"), (0x261D, "EB"), (0x1F3FB, "EM"),
        (0x2060, "WJ"), (0x00A0, "GL"), (0x0301, "CM"), (0x4E00, "ID1"),
    )},
    0x0E01: _SA, 0x00A7: _AI, 0xFFFC: _CB, 0x0378: _XX,
}  # fmt: skip

HEADER = """\
# Line-break classes and display widths of all Unicode code points, exactly as GNU
# libunistring 1.0 (the library GNU gettext 0.21's msgcat/msgmerge wrap with) sees them.
# Read by pnp/i18n/gnuwrap/tables.py; the pair table is in pnp/i18n/gnuwrap/classes.py.
#
# Made by pnp/i18n/gnuwrap/maketable.py from libunistring 1.0 itself (libunistring.so.2 of
# Debian 12, package libunistring2 1.0-2, Unicode 14 data): it loads the library with ctypes,
# reads its exported line-break property table (symbol libunistring_unilbrkprop, looked up as
# libunistring's unilbrkprop_lookup does) and calls uc_width(c, "UTF-8") for every code point
# 0..10FFFF; it checks the pair table of classes.py against the library's on the way
# (symbol libunistring_unilbrk_table). Remake the file, on such a system, with
#     python -m pnp.i18n.gnuwrap.maketable
# (tests/test_linebreak_table.py checks that this gives the file byte for byte).
# The classes that libunistring resolves at run time are resolved here as it does for UTF-8
# text: AI, SA and XX become AL, CB becomes ID1. Characters of class BK, CR and LF get width 0
# (the fill never counts them) and width -1 (control characters) is written as 0.
#
# Format: tokens START:CLASS[*WIDTH], START in hex; a token holds from START up to the next
# token's START. WIDTH is 1 when not written. Class names are libunistring 1.0's (CP1/OP1:
# not East Asian, CP2/OP2: East Asian; ID2: ideographic or a potential future emoji).
"""
TOKENS_PER_LINE = 10


class Unavailable(Exception):
    """libunistring 1.0 cannot be loaded here; the message says why."""


def load(name: str = LIBRARY) -> ctypes.CDLL:
    """libunistring 1.0; Unavailable when it is absent or another version."""
    try:
        lib = ctypes.CDLL(name)
        version = ctypes.c_int.in_dll(lib, "_libunistring_version").value
    except (OSError, ValueError) as exc:
        raise Unavailable(f"cannot load {name} ({exc}); on Debian 12: libunistring2") from exc
    if version != VERSION:
        found = f"{version >> 16}.{version >> 8 & 255}.{version & 255}"
        raise Unavailable(f"{name} is libunistring {found}; the table is libunistring 1.0's")
    return lib


def raw_classes(lib: ctypes.CDLL) -> bytes:
    """The class number libunistring's table gives each code point 0..10FFFF (before the
    run-time resolution)."""
    table = _Lbrkprop.in_dll(lib, "libunistring_unilbrkprop")
    level1, level2, level3 = list(table.level1), list(table.level2), bytes(table.level3)
    out = bytearray([_XX]) * 0x110000
    for cp in range(0x110000):
        index1 = cp >> _HEADER_0
        if index1 >= _HEADER_1 or (lookup1 := level1[index1]) < 0:
            continue
        lookup2 = level2[lookup1 + ((cp >> _HEADER_2) & _HEADER_3)]
        if lookup2 >= 0:
            out[cp] = level3[lookup2 + (cp & _HEADER_4)]
    for cp, expected in _KNOWN.items():
        if out[cp] != expected:
            raise RuntimeError(f"U+{cp:04X} reads as class {out[cp]}, not {expected}: misread")
    return bytes(out)


def library_pairs(lib: ctypes.CDLL) -> tuple[str, ...]:
    """libunistring's pair table, written as :data:`.classes.PAIRS` is."""
    size = len(PAIRS)
    raw = bytes((ctypes.c_ubyte * (size * size)).in_dll(lib, "libunistring_unilbrk_table"))
    return tuple(
        "".join(_PAIR_LETTERS.get(v, "?") for v in raw[row * size : (row + 1) * size])
        for row in range(size)
    )


def render(lib: ctypes.CDLL) -> str:
    """The text of ``pnp/data/linebreak.txt``."""
    uc_width = lib.uc_width
    uc_width.argtypes = (ctypes.c_uint32, ctypes.c_char_p)
    uc_width.restype = ctypes.c_int
    classes = raw_classes(lib)
    tokens: list[str] = []
    last = ""
    for cp in range(0x110000):
        number = classes[cp]
        name = _RESOLVED.get(number) or CLASS_NAMES[number]
        width = 0 if name in _ZERO_WIDTH else max(uc_width(cp, b"UTF-8"), 0)
        value = name if width == 1 else f"{name}*{width}"
        if value != last:
            tokens.append(f"{cp:X}:{value}")
            last = value
    lines = [
        " ".join(tokens[i : i + TOKENS_PER_LINE]) for i in range(0, len(tokens), TOKENS_PER_LINE)
    ]
    return HEADER + "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pnp.i18n.gnuwrap.maketable")
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args(argv)
    try:
        lib = load()
    except Unavailable as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    status = 0
    if library_pairs(lib) != PAIRS:
        print("error: PAIRS in pnp/i18n/gnuwrap/classes.py is not libunistring's", file=sys.stderr)
        status = 1
    text = render(lib)
    if args.check:
        if DATA.read_text(encoding="ascii") != text:
            print(f"error: {DATA} is not what the library gives; remake it", file=sys.stderr)
            status = 1
    else:
        DATA.write_text(text, encoding="ascii", newline="\n")
        print(f"wrote {DATA}")
    return status


if __name__ == "__main__":
    sys.exit(main())
