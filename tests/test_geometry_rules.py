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


# --- rotation, lines and polygons (issue 18) ---------------------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from pnp.typeset.faces import clip, extent, spans  # noqa: E402
from pnp.typeset.faces.shapes import box_corners, turned  # noqa: E402

_mm = st.floats(-50, 150, allow_nan=False).map(lambda v: round(v, 2))
_side = st.floats(0.5, 80, allow_nan=False).map(lambda v: round(v, 2))
_boxes = st.tuples(_mm, _mm, _side, _side)


@settings(max_examples=300, derandomize=True, deadline=None)
@given(a=_boxes, b=_boxes)
def test_upright_boxes_overlap_as_before(a: tuple[float, ...], b: tuple[float, ...]) -> None:
    """For upright boxes the outline maths gives what the box intersection gave before
    rotation existed: the width and height of the common part (nothing when apart)."""
    ox = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    oy = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    got = geometry._overlap(box_corners(a), box_corners(b))  # type: ignore[arg-type]
    if ox > 1e-6 and oy > 1e-6:
        assert got == pytest.approx((ox, oy), abs=1e-6)
    else:
        assert min(got) == pytest.approx(0.0, abs=1e-6)


@settings(max_examples=300, derandomize=True, deadline=None)
@given(a=_boxes, b=_boxes, turn=st.floats(-360, 360, allow_nan=False))
def test_the_common_part_lies_in_both_shapes(
    a: tuple[float, ...], b: tuple[float, ...], turn: float
) -> None:
    """Clipping a turned box by another turned box gives points inside both (the rules'
    overlap is measured on that part)."""
    pa = turned(box_corners(a), (a[0] + a[2] / 2, a[1] + a[3] / 2), turn)  # type: ignore[arg-type]
    pb = turned(box_corners(b), (b[0] + b[2] / 2, b[1] + b[3] / 2), -turn / 3)  # type: ignore[arg-type]
    common = clip(pa, pb)
    for shape, box in ((pa, a), (pb, b)):
        w, h = spans(shape, shape)
        assert (w, h) == pytest.approx((box[2], box[3]), abs=1e-6)  # a box keeps its sides
    for x, y in common:
        for shape in (pa, pb):
            (x0, y0), (x1, y1), _, (x3, y3) = shape
            u = ((x - x0) * (x1 - x0) + (y - y0) * (y1 - y0)) / ((x1 - x0) ** 2 + (y1 - y0) ** 2)
            v = ((x - x0) * (x3 - x0) + (y - y0) * (y3 - y0)) / ((x3 - x0) ** 2 + (y3 - y0) ** 2)
            assert -1e-6 <= u <= 1 + 1e-6 and -1e-6 <= v <= 1 + 1e-6


def test_a_quarter_turn_about_the_centre(tmp_path: Path) -> None:
    """rotate: 90 is clockwise on the face: the top-left corner goes to the top right."""
    corners = turned(box_corners((10, 20, 40, 10)), (30, 25), 90)
    assert corners[0] == pytest.approx((35, 5))  # top-left -> top-right of the turned box
    assert extent(corners) == pytest.approx((25, 5, 10, 40))


SHAPES = """\
layouts:
  shapes:
    elements:
      - {name: title, box: [5, 30, 53, 10], field: title}
      - {name: strip, box: [-33, 40, 80, 8], field: title, rotate: 270}
      - {name: bar, box: [-13.5, 41, 90, 6], stroke: "#000000", rotate: 90}
      - {name: cross, line: [0, 0, 63, 90], stroke: "#000000"}
      - {name: hat, points: [[20, 25], [40, 25], [30, 35]], fill: "#ff0000"}
      - {name: lying, points: [[10, 41], [50, 41], [50, 43], [10, 43]], fill: "#00ff00"}
      - {name: standing, points: [[10, 44], [50, 44], [50, 46], [10, 46]], fill: "#00ff00",
         rotate: 90}
"""


def test_rotated_elements_lines_and_polygons_are_measured_as_printed(tmp_path: Path) -> None:
    root = write_game(tmp_path, layouts=SHAPES, decks="decks:\n" + deck(2, "shapes"))
    outside = {f.pos.line: f.message for f in findings(root, ELEMENT_OUTSIDE)}
    # the strip turned upright fits; the bar turned upright is 1 mm too long at each end; the
    # line ends 2 mm below the face
    assert sorted(outside) == [
        line_of(root, "layouts", "name: bar"),
        line_of(root, "layouts", "name: cross"),
    ]
    assert (
        "1 mm past the top edge and 1 mm past the bottom edge"
        in outside[line_of(root, "layouts", "name: bar")]
    )
    assert "turned 90°" in outside[line_of(root, "layouts", "name: bar")]
    assert "2 mm past the bottom edge" in outside[line_of(root, "layouts", "name: cross")]
    # the hat covers the title's top 5 mm; a bar lying under the title hides nothing, the
    # same bar standing (turned a quarter) crosses it; a line hides nothing
    hidden = {f.pos.line: f.message for f in findings(root, ELEMENT_HIDES_TEXT)}
    assert sorted(hidden) == [
        line_of(root, "layouts", "name: hat"),
        line_of(root, "layouts", "name: standing"),
    ]
    assert "filled polygon" in hidden[line_of(root, "layouts", "name: hat")]
    assert "covers 2 x 10 mm" in hidden[line_of(root, "layouts", "name: standing")]
