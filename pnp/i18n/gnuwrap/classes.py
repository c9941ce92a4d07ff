"""libunistring 1.0's line breaking: the classes, the pair table, and the walk that follows its
rules one by one over a string of class codes (for text the regular expressions cannot read)."""

from __future__ import annotations

# Line-break classes, numbered as libunistring 1.0 numbers them (unilbrk/lbrktables.h). The
# first 33 index the pair table; the others are handled before it is consulted.
# fmt: off
CLASS_NAMES = (
    "WJ", "GL", "B2", "BA", "BB", "HY", "CL", "CP1", "CP2", "EX", "IN", "NS", "OP1", "OP2", "QU",
    "IS", "NU", "PO", "PR", "SY", "AL", "H2", "H3", "ID1", "ID2", "JL", "JV", "JT", "HL", "RI",
    "ZWJ", "EB", "EM", "BK", "CR", "LF", "CM", "ZW", "SP",
)
# fmt: on
CLS = {name: number for number, name in enumerate(CLASS_NAMES)}
AL, NU, HL, HY, BA = CLS["AL"], CLS["NU"], CLS["HL"], CLS["HY"], CLS["BA"]
RI, ZWJ = CLS["RI"], CLS["ZWJ"]
BK, CR, LF, CM, ZW, SP = CLS["BK"], CLS["CR"], CLS["LF"], CLS["CM"], CLS["ZW"], CLS["SP"]
_HL_BA = 100  # not a class: "a Hebrew letter, then a hyphen or BA character" (rule LB21a)
_NO_BREAK_AFTER = frozenset((ZWJ, _HL_BA))  # LB8a, LB21a: never a break after these

# libunistring 1.0's pair table (unilbrk_table, read from libunistring.so.2 of Debian 12):
# row = class before the opportunity (the last one that is not a space), column = class after.
# D: break; I: break only if spaces come between; P: no break.
PAIRS = (
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
_TABLE_SIZE = len(PAIRS)

# The classes the regexes handle ("simple"): between them, a break before a character depends
# only on the last character before it that is not a space and on whether spaces came between
# (plus rule LB21a, Hebrew letter + hyphen, which looks one character further back). The slow
# classes need the walk: attached marks and joiners are skipped over, flags go in pairs.
SLOW_CLASSES = frozenset((BK, CR, LF, CM, ZW, ZWJ, RI))
_SIMPLE_CLASSES = frozenset(range(_TABLE_SIZE)) - SLOW_CLASSES - {SP}
SIMPLE = _SIMPLE_CLASSES | {SP}
LETTERS = frozenset((AL, NU))  # most characters of most text; never a direct break between


def opportunities_slow(codes: bytes) -> tuple[list[int], list[int]]:
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
                if last == ZW:
                    possible.append(i)  # LB8
                elif last == BK or prev in _NO_BREAK_AFTER:
                    pass  # never at the start of a line; LB8a; LB21a (then `last` is HY or BA)
                elif last == RI and cls == RI:
                    if spaced or ri_run % 2 == 0:  # LB30a: regional indicators go in pairs
                        possible.append(i)
                else:
                    verdict = PAIRS[last][cls]
                    if verdict == "D" or (verdict == "I" and spaced):
                        possible.append(i)
                last = cls
                spaced = False
            prev = _HL_BA if prev == HL and cls in (HY, BA) else cls
        ri_run = ri_run + 1 if cls == RI else 0
    return possible, mandatory
