"""Assumptions end to end: ``assumption:`` on a card, token, board and table is listed by
validation (rule ``assumption``, info by default) and printed with one mark each, which the
setup sheet explains once."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest

from pnp.build.pipeline import BuildOptions, build
from pnp.content.load import load_game, open_root
from pnp.core.findings import Report
from pnp.core.rules import RULES, Severity
from pnp.printing.imposition import Options
from pnp.printing.render.setup import has_assumptions
from pnp.typeset.faces.marks import MARK, free_corner
from pnp.typeset.faces.ops import FillOp, StrokeOp

from helpers import FIXTURES, make_root, run_validate

PACK = FIXTURES / "assumption"
EXPLAINED = "not given by the rulebook: an assumption of this copy"


def _without_override(root: Path) -> None:
    """The fixture raises the rule to a warning for test_rules; drop that to see the default."""
    game = root / "cards" / "mini" / "game.yaml"
    text = game.read_text("utf-8")
    game.write_text(text.split("rules:")[0], "utf-8")


def test_the_rule_is_info_and_listed_by_default(tmp_path: Path) -> None:
    assert RULES["assumption"].severity is Severity.INFO
    root = make_root(tmp_path, PACK)
    _without_override(root)
    report = run_validate(root)
    found = [f for f in report.sorted() if f.rule == "assumption"]
    assert [(f.pos.path, f.pos.line) for f in found] == [
        ("cards/mini/decks.yaml", 13),
        ("cards/mini/decks.yaml", 20),
        ("cards/mini/decks.yaml", 27),
        ("cards/mini/decks.yaml", 31),
    ]
    assert all(f.severity is Severity.INFO for f in found)
    assert not report.has_errors() and not report.warnings
    text = report.format_text()
    assert "info [assumption] main/beta is this copy's assumption" in text
    assert "1 coin is this copy's guess" in text  # the reason is quoted
    assert "chips/chip" in text and "table deal" in text
    assert "board map is marked as an assumption but gives no reason" in text


@pytest.fixture(scope="module")
def pdf_pages(tmp_path_factory: pytest.TempPathFactory) -> list[list[dict]]:
    tmp = tmp_path_factory.mktemp("assumption")
    root = make_root(tmp, PACK)
    report = Report()
    outs = build(
        open_root(root),
        ["mini"],
        BuildOptions(langs=("en",), layout=Options(paper="a4"), out_dir=tmp / "out"),
        report,
    )
    assert not report.has_errors(), report.format_text()
    with pdfplumber.open(outs[0].path) as pdf:
        return [[dict(c, page_text=p.extract_text() or "") for c in p.chars] for p in pdf.pages]


def _text(chars: list[dict]) -> str:
    return "".join(c["text"] for c in chars)


def test_the_setup_sheet_marks_the_table_and_explains_the_mark_once(pdf_pages) -> None:
    sheet = pdf_pages[0][0]["page_text"]
    assert f"Cards dealt {MARK}" in sheet
    everything = " ".join(p[0]["page_text"] for p in pdf_pages if p)
    assert everything.count(EXPLAINED) == 1


def test_each_assumed_item_has_one_mark_and_the_others_none(pdf_pages) -> None:
    by_label = {}
    for chars in pdf_pages[1:]:
        if not chars:
            continue
        text = chars[0]["page_text"]
        marks = _text(chars).count(MARK)
        if "fronts (Main deck)" in text:
            by_label["cards"] = marks
        elif "backs" in text:
            by_label.setdefault("backs", 0)
            by_label["backs"] += marks
        elif "The map" in text or "Chip" in text:  # labels run sideways: read their faces
            # the chips ride on the free paper of the map's tile (printing.imposition.leftovers)
            by_label["board and tokens"] = by_label.get("board and tokens", 0) + marks
    # two copies of beta, one board, two copies of the chip; no mark on any back, none on alpha
    assert by_label == {"cards": 2, "backs": 0, "board and tokens": 3}


def test_the_mark_touches_no_other_text(pdf_pages) -> None:
    for chars in pdf_pages[1:]:
        daggers = [c for c in chars if c["text"] == MARK]
        others = [c for c in chars if c["text"] not in (MARK, " ")]
        for d in daggers:
            for o in others:
                apart = (
                    d["x1"] <= o["x0"]
                    or o["x1"] <= d["x0"]
                    or d["bottom"] <= o["top"]
                    or o["bottom"] <= d["top"]
                )
                assert apart, f"the mark at {d['x0']:.1f},{d['top']:.1f} touches {o['text']!r}"


def test_free_corner_avoids_what_is_drawn() -> None:
    w, h, side = 63.0, 88.0, 3.0
    frame = StrokeOp((1.0, 1.0, 61.0, 86.0), "#000", 0.8, 3.0)
    band = FillOp((2.0, 2.0, 59.0, 10.0), "#333")  # a title band across the top
    x, y, _, _ = free_corner([frame, band], w, h, side)
    assert y > 80  # both top corners are taken: a bottom one
    assert x > 50  # the bottom right comes first
    assert x + side <= w - 1.8 and y + side <= h - 1.8  # inside the frame and its corners
    x2, y2, _, _ = free_corner([frame], w, h, side)
    assert (x2 > 50, y2 < 10) == (True, True)  # nothing drawn: the top right


def test_a_game_without_assumptions_explains_nothing(tmp_path: Path) -> None:
    report = Report()
    game = load_game(open_root(make_root(tmp_path, FIXTURES / "clean")), "mini", report)
    assert game is not None and not has_assumptions(game)
    marked = load_game(open_root(make_root(tmp_path / "b", PACK)), "mini", report)
    assert marked is not None and has_assumptions(marked)
