"""Imposition maths: grids, mirroring for duplex, crop marks outside the cards."""

from __future__ import annotations

import pytest

from pnp.core.units import CARD_SIZES, PAPERS, Size, mm, pt
from pnp.printing.imposition import Rect, crop_marks, fit_grid, mirror


def test_units_round_trip() -> None:
    assert pt(25.4) == pytest.approx(72.0)
    assert mm(pt(63.0)) == pytest.approx(63.0)


@pytest.mark.parametrize(
    ("paper", "card", "count", "landscape"),
    [
        ("a4", "poker", 9, False),
        ("letter", "poker", 9, False),
        ("a4", "mini", 18, True),
        ("a4", "tarot", 4, False),
        ("a3", "poker", 18, True),
        ("a4", "square", 8, False),
    ],
)
def test_most_cards_per_sheet(paper: str, card: str, count: int, landscape: bool) -> None:
    grid = fit_grid(PAPERS[paper], CARD_SIZES[card], 0.0, 0.0)
    assert grid is not None and grid.count == count
    assert (grid.paper.w > grid.paper.h) == landscape
    ext = grid.extent()
    # centred, inside the paper, with room for crop marks
    assert ext.x == pytest.approx(grid.paper.w - ext.right)
    assert ext.y == pytest.approx(grid.paper.h - ext.bottom)
    assert ext.x >= 5 and ext.y >= 5


def test_bleed_separates_cards() -> None:
    grid = fit_grid(PAPERS["a4"], CARD_SIZES["poker"], 0.0, 3.0)
    assert grid is not None
    a, b = grid.rect(0), grid.rect(1)
    assert b.x - a.right == pytest.approx(6.0)
    assert not a.grow(3).overlaps(b.grow(3))


def test_mirror_long_and_short_edge() -> None:
    page = Size(210, 297)
    r = Rect(10, 20, 63, 88)
    assert mirror(r, page, "long") == Rect(210 - 10 - 63, 20, 63, 88)
    assert mirror(r, page, "short") == Rect(10, 297 - 20 - 88, 63, 88)
    assert mirror(r, page, "none") == r
    land = Size(297, 210)
    assert mirror(r, land, "long") == Rect(10, 210 - 20 - 88, 63, 88)
    # mirroring twice gives the original
    assert mirror(mirror(r, page, "long"), page, "long") == r


def test_crop_marks_never_touch_a_card() -> None:
    for bleed in (0.0, 2.0):
        grid = fit_grid(PAPERS["letter"], CARD_SIZES["poker"], 0.0, bleed)
        assert grid is not None
        marks = crop_marks(grid, bleed)
        assert len(marks) == 2 * len(grid.x_edges()) + 2 * len(grid.y_edges())
        cards = [grid.rect(i).grow(bleed) for i in range(grid.count)]
        for m in marks:
            box = m.bbox()
            for c in cards:
                assert not c.overlaps(Rect(box.x, box.y, max(box.w, 1e-3), max(box.h, 1e-3)))


def test_one_cell_format_for_face_tables_and_the_setup_sheet() -> None:
    from pnp.printing.render import Renderer
    from pnp.typeset.faces import cell_text

    assert cell_text(1.5, "cm", "it", str) == "1,5\u00a0cm"
    assert cell_text(1200, None, "de", str) == "1.200"
    assert cell_text(0, "mm", "en", str) == "–"
    assert cell_text(True, None, "en", str) == "1"
    assert cell_text("0", None, "en", str) == "0"  # a written 0 stays a 0
    assert "cell_text" in Renderer.cell.__code__.co_names  # the setup sheet uses the same


# every name the imposition module defined before it became a package
IMPOSITION_NAMES = [
    "BOARD_MARGIN",
    "BOARD_OVERLAP",
    "Duplex",
    "FoldGrid",
    "Furniture",
    "Grid",
    "Item",
    "Line",
    "MARK_LENGTH",
    "MARK_OFFSET",
    "MIN_MARGIN",
    "Options",
    "PROOF_SCALE_MAX",
    "Page",
    "PageKind",
    "Rect",
    "SCALE_BAR",
    "Shape",
    "Slot",
    "TOKEN_GAP",
    "Tile",
    "crop_marks",
    "fit_fold",
    "fit_grid",
    "mirror",
    "mirror_line",
    "number_sheets",
    "place_furniture",
    "plan_board_tiles",
    "plan_document",
    "plan_proof",
    "tile_board",
]


def test_imposition_names_stay_importable_from_the_package() -> None:
    import importlib

    import pnp.printing.imposition as imposition

    for name in IMPOSITION_NAMES:
        assert name in imposition.__all__, name
        value = getattr(imposition, name)
        home = getattr(value, "__module__", None)
        if isinstance(home, str) and home.startswith("pnp.printing.imposition."):
            # one object, defined in one submodule of the package
            assert getattr(importlib.import_module(home), name) is value, name
