"""pnp's bidirectional algorithm (pnp/compat/uax9.py) is Unicode's: every line of the
conformance files BidiCharacterTest.txt (91,707 paragraphs, brackets included) and BidiTest.txt
(770,241 paragraphs of bidi classes, marked slow), its bracket table is BidiBrackets.txt, and it
orders lines as the Rust crate behind python-bidi's public API does.

The Unicode files come with Debian's ``unicode-data`` package (/usr/share/unicode, or the folder
PNP_UNICODE_DATA names); elsewhere these tests skip, except under CI=true, where a missing file
is a failure.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from bidi import get_display

from pnp.compat import bidi as compat_bidi
from pnp.compat import uax9

UNICODE = Path(os.environ.get("PNP_UNICODE_DATA", "/usr/share/unicode"))


def _data(name: str) -> Path:
    path = UNICODE / name
    if not path.is_file():
        message = f"{path} is missing: install Debian's unicode-data package"
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI must test the bidirectional algorithm: {message}")
        pytest.skip(message)
    return path


def _l1(text: str, levels: list[int], paragraph: int) -> list[int]:
    """Rule L1 on one line: separators, and whitespace (isolate controls and characters removed
    by X9 included) before them or at the end of the line, at the paragraph's level."""
    out = list(levels)
    trailing = True
    for k in range(len(text) - 1, -1, -1):
        c = uax9.bidi_class(text[k])
        if c in ("S", "B"):
            out[k], trailing = paragraph, True
        elif trailing and (c == "WS" or c == "PDI" or c in uax9.ISOLATES or c in uax9.REMOVED):
            out[k] = paragraph
        else:
            trailing = False
    return out


def _agrees(text: str, level: int, expected: list[str]) -> bool:
    got = _l1(text, uax9.resolve(text, level), level)
    return all(e == "x" or int(e) == g for e, g in zip(expected, got, strict=True))


def test_every_line_of_bidi_character_test() -> None:
    """Each line: code points; direction (0, 1, 2: auto); the paragraph's level; levels ('x'
    for characters X9 removes)."""
    failed, total = [], 0
    for line in _data("BidiCharacterTest.txt").read_text("utf-8").splitlines():
        if not line or line[0] == "#":
            continue
        fields = line.split(";")
        text = "".join(chr(int(cp, 16)) for cp in fields[0].split())
        direction, paragraph = int(fields[1]), int(fields[2])
        level = uax9.paragraph_level(text) if direction == 2 else direction
        total += 1
        if level != paragraph or not _agrees(text, level, fields[3].split()):
            failed.append(line)
    assert total > 90_000
    assert not failed, f"{len(failed)} of {total} lines differ, the first: {failed[:3]}"


# one character of each bidi class, to turn BidiTest.txt's classes into text
_OF_CLASS = {
    "L": "a",
    "R": "\u05d0",
    "AL": "\u0627",
    "EN": "1",
    "ES": "+",
    "ET": "#",
    "AN": "\u0660",
    "CS": ",",
    "NSM": "\u0300",
    "BN": "\u00ad",
    "B": "\u2029",
    "S": "\t",
    "WS": " ",
    "ON": "!",
    "LRE": "\u202a",
    "LRO": "\u202d",
    "RLE": "\u202b",
    "RLO": "\u202e",
    "PDF": "\u202c",
    "LRI": "\u2066",
    "RLI": "\u2067",
    "FSI": "\u2068",
    "PDI": "\u2069",
}


def _bidi_test_cases(path: Path) -> Iterator[tuple[str, int | None, list[str]]]:
    """(text, paragraph level or None for auto, expected levels) of each case of BidiTest.txt."""
    levels: list[str] = []
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            line = line.strip()
            if line.startswith("@Levels:"):
                levels = line.split(":", 1)[1].split()
            elif line and line[0] not in "#@":
                classes, bits = line.split(";")
                text = "".join(_OF_CLASS[c] for c in classes.split())
                for bit, level in ((1, None), (2, 0), (4, 1)):
                    if int(bits, 16) & bit:
                        yield text, level, levels


def test_representatives_have_their_class() -> None:
    assert {c: uax9.bidi_class(ch) for c, ch in _OF_CLASS.items()} == {c: c for c in _OF_CLASS}


@pytest.mark.slow  # about 15 s
def test_every_case_of_bidi_test() -> None:
    failed, total = [], 0
    for text, level, expected in _bidi_test_cases(_data("BidiTest.txt")):
        total += 1
        paragraph = uax9.paragraph_level(text) if level is None else level
        if not _agrees(text, paragraph, expected):
            failed.append((text, level, expected))
    assert total > 750_000
    assert not failed, f"{len(failed)} of {total} cases differ, the first: {failed[:3]}"


def test_bracket_table_is_bidi_brackets_txt() -> None:
    pairs = []
    for line in _data("BidiBrackets.txt").read_text("utf-8").splitlines():
        fields = [f.strip() for f in line.split("#")[0].split(";")]
        if len(fields) == 3 and fields[2] == "o":
            pairs.append(chr(int(fields[0], 16)) + chr(int(fields[1], 16)))
    assert "".join(pairs) == uax9.BRACKETS


def test_unassigned_code_points_default_as_derived_bidi_class_says() -> None:
    names = {"Right_To_Left": "R", "Arabic_Letter": "AL", "European_Terminator": "ET"}
    ranges = []
    for line in _data("extracted/DerivedBidiClass.txt").read_text("utf-8").splitlines():
        if line.startswith("# @missing:") and "0000..10FFFF" not in line:
            span, name = (f.strip() for f in line.split(":", 1)[1].split(";"))
            first, last = span.split("..")
            ranges.append((int(first, 16), int(last, 16), names[name]))
    assert tuple(ranges) == uax9._UNASSIGNED


def test_a_bracket_pair_in_a_right_to_left_paragraph() -> None:
    """Rule N0: the closing bracket takes the direction of what the pair holds and follows,
    not the paragraph's (without N0 it would be at level 1)."""
    assert compat_bidi.embedding_levels("a(a)", True) == (2, 2, 2, 2)
    assert compat_bidi.embedding_levels("\u05d0(\u05d0)", False) == (1, 1, 1, 1)
    assert compat_bidi.embedding_levels("a(\u05d0)", True) == (2, 1, 1, 1)  # holds R: R


def test_paragraph_separators_start_a_paragraph_at_the_level_given() -> None:
    assert uax9.resolve("\u05d0 a\na \u05d0", 0) == [1, 0, 0, 0, 0, 0, 1]
    assert uax9.paragraph_level("\u2067a\u2069\u05d0 a") == 1  # P2 skips isolates


def _visual(text: str, levels: list[int]) -> str:
    """Rule L2: the characters of one line, left to right."""
    order = list(range(len(text)))
    for level in range(max(levels, default=0), 0, -1):
        k = 0
        while k < len(order):
            if levels[order[k]] >= level:
                end = k
                while end < len(order) and levels[order[end]] >= level:
                    end += 1
                order[k:end] = order[k:end][::-1]
                k = end
            else:
                k += 1
    return "".join(text[k] for k in order)


def test_lines_are_ordered_as_the_rust_crate_orders_them() -> None:
    """python-bidi's public API (the Rust crate unicode-bidi) against these levels, on short
    strings of letters of both directions, numbers, brackets and separators."""
    alphabet = "ab\u05d0\u05d1\u0627 12\u0660()[]{},.-+#%\u0300\u2066\u2067\u2068\u2069"
    rnd = random.Random(9)
    differ = []
    for _ in range(3000):
        text = "".join(rnd.choice(alphabet) for _ in range(rnd.randint(1, 10)))
        for level in (0, 1):
            levels = _l1(text, uax9.resolve(text, level), level)
            mine = _visual(text, levels).replace("\u2066", "").replace("\u2067", "")
            theirs = str(get_display(text, base_dir="LR"[level]))
            theirs = theirs.replace("\u2066", "").replace("\u2067", "")
            drop = "\u2068\u2069"
            if mine.translate({ord(c): None for c in drop}) != theirs.translate(
                {ord(c): None for c in drop}
            ):
                differ.append((text, level, mine, theirs))
    assert not differ, differ[:5]
