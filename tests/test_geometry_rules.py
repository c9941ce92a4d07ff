"""element-outside and element-hides-text: where they fire, how often, and that their work
does not grow with the number of cards (the fixture packs check the noise cases)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.content.load import load_game, open_root
from pnp.core.findings import Finding, Report
from pnp.core.rules import ELEMENT_HIDES_TEXT, ELEMENT_OUTSIDE
from pnp.validate import geometry

from helpers import make_root, run_validate

GAME = """\
title: {en: Geo}
source_language: en
languages: [en]
"""


def write_game(tmp_path: Path, **files: str) -> Path:
    root = make_root(tmp_path)
    folder = root / "cards" / "geo"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(GAME, "utf-8")
    for name, text in files.items():
        (folder / f"{name}.yaml").write_text(text, "utf-8")
    return root


def findings(root: Path, rule: str) -> list[Finding]:
    report = run_validate(root)
    return [f for f in report.sorted() if f.rule == rule]


def line_of(root: Path, name: str, needle: str) -> int:
    text = (root / "cards" / "geo" / f"{name}.yaml").read_text("utf-8")
    return next(n for n, line in enumerate(text.splitlines(), 1) if needle in line)


BOARD = """\
boards:
  main:
    size: [600, 400]
    layout: board-main
tracks:
  score: {min: 0, max: 30, board: main}
layouts:
  board-main:
    elements:
      - {name: frame, box: [0, 0, 600, 400], stroke: "#000000"}
      - {name: score, box: [0, 10, 760, 20], track: score}
"""


def test_a_track_760_mm_wide_on_a_600_mm_board(tmp_path: Path) -> None:
    root = write_game(tmp_path, board=BOARD)
    [f] = findings(root, ELEMENT_OUTSIDE)
    assert f.pos.path == "cards/geo/board.yaml"
    assert f.pos.line == line_of(root, "board", "name: score")
    for part in ("'score'", "track score", "board-main", "160 mm past the right edge"):
        assert part in f.message
    assert "600 x 400 mm" in f.message and "board 'main'" in f.message
    assert "enlarge the board" in f.message


def deck(n: int, layout: str, size: str = "poker", did: str = "main") -> str:
    cards = "".join(f"      - {{id: {did}-{i}, title: T{i}}}\n" for i in range(n))
    return f"  {did}:\n    size: {size}\n    layout: {layout}\n    cards:\n{cards}"


def test_once_per_layout_element_not_per_card_or_size(tmp_path: Path) -> None:
    layouts = """\
layouts:
  wide:
    elements:
      - {name: title, box: [5, 5, 30, 10], field: title}
      - {name: strip, box: ["50%", "10%", "60%", "5%"], fill: "#ff0000"}
"""
    decks = "decks:\n" + deck(100, "wide") + deck(30, "wide", "mini", "small")
    root = write_game(tmp_path, layouts=layouts, decks=decks)
    [f] = findings(root, ELEMENT_OUTSIDE)  # 130 cards, two sizes: one finding
    assert f.pos.line == line_of(root, "layouts", "name: strip")
    assert "past the right edge" in f.message and "'strip'" in f.message
    # the strip is drawn over the title on both sizes: still one finding for the pair
    [h] = findings(root, ELEMENT_HIDES_TEXT)
    assert h.pos == f.pos and "'title'" in h.message


def test_backgrounds_and_neighbours_do_not_hide_text(tmp_path: Path) -> None:
    layouts = """\
layouts:
  plain:
    elements:
      - {name: ground, box: [0, 0, 63, 88], fill: "#eeeeee"}
      - {name: title, box: [5, 5, 53, 10], field: title}
      - {name: seal, box: [5, 15, 10, 10], fill: "#333333"}
      - {name: edge, box: [57, 5, 6, 10], fill: "#333333"}
      - {name: frame, box: [5, 5, 53, 10], stroke: "#333333"}
"""
    root = write_game(tmp_path, layouts=layouts, decks="decks:\n" + deck(3, "plain"))
    # seal starts where the title ends; edge overlaps it by exactly 1 mm: neither hides it
    assert findings(root, ELEMENT_HIDES_TEXT) == []
    assert findings(root, ELEMENT_OUTSIDE) == []


def test_a_layout_is_resolved_once_per_face_size(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    layouts = "layouts:\n  plain:\n    elements:\n      - {box: [5, 5, 53, 10], field: title}\n"
    decks = "decks:\n" + deck(2_000, "plain") + deck(5, "plain", "mini", "small")
    root = write_game(tmp_path, layouts=layouts, decks=decks)
    report = Report()
    game = load_game(open_root(root), "geo", report)
    assert game is not None and not report.errors
    asked: list[str] = []
    real = geometry.face_layout_id

    def counted(*args: object) -> str:
        asked.append("x")
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(geometry, "face_layout_id", counted)
    uses = geometry.drawn(game)
    assert [(u.lid, u.w, u.h) for u in uses] == [("plain", 63, 88), ("plain", 44, 63)]
    assert len(asked) == 2  # once per deck and side, not once per card
