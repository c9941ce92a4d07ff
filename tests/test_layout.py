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
    # no duplex: the sheet of backs is turned over like a book page and glued: mirror x
    assert mirror(r, page, "none") == Rect(210 - 10 - 63, 20, 63, 88)
    assert mirror(r, Size(297, 210), "none") == Rect(297 - 10 - 63, 20, 63, 88)
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


# --- the printable area (issue 16) -------------------------------------------------------------


def _inside(box: Rect, paper: Size, margin: float) -> bool:
    eps = 1e-6
    return (
        box.x >= margin - eps
        and box.y >= margin - eps
        and box.right <= paper.w - margin + eps
        and box.bottom <= paper.h - margin + eps
    )


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("card", ["poker", "mini", "tarot", "square", "bridge"])
@pytest.mark.parametrize("bleed", [0.0, 3.0])
def test_marks_and_furniture_stay_in_the_printable_area(
    card: str, paper: str, bleed: float
) -> None:
    """A mark at both ends of every cut line, each inside the 5 mm margin and at least
    MIN_MARK long; the scale bar and the label inside it too (Letter with bleed lost its side
    marks: the bleed was subtracted twice)."""
    from pnp.printing.imposition import MIN_MARK, SCALE_BAR, Options, place_furniture
    from pnp.printing.imposition.sheets import choose_grid

    grid = choose_grid(PAPERS[paper], CARD_SIZES[card], 0.0, bleed, Options(), marked=True)
    assert grid is not None
    marks = crop_marks(grid, bleed)
    assert len(marks) == 2 * len(grid.x_edges()) + 2 * len(grid.y_edges())
    for m in marks:
        box = m.bbox()
        assert _inside(box, grid.paper, 5.0), m
        assert max(box.w, box.h) >= MIN_MARK - 1e-9
    fur = place_furniture(grid.paper, grid.extent().grow(bleed), marks)
    assert fur.scale_bar is not None
    bar = fur.scale_bar.bbox()
    assert max(bar.w, bar.h) == pytest.approx(SCALE_BAR)
    assert _inside(bar.grow(3.0), grid.paper, 5.0 - 3.0 + 0.0)  # ticks and caption inside
    assert fur.label_width > 0


def test_a_larger_margin_shortens_marks_but_never_moves_cards() -> None:
    from pnp.printing.imposition import Options
    from pnp.printing.imposition.sheets import choose_grid

    a = choose_grid(PAPERS["a4"], CARD_SIZES["poker"], 0.0, 0.0, Options(), True)
    b = choose_grid(PAPERS["a4"], CARD_SIZES["poker"], 0.0, 0.0, Options(margin=9.0), True)
    assert a == b
    assert a is not None
    for m in crop_marks(a, 0.0, 9.0):
        assert _inside(m.bbox(), a.paper, 9.0)


def test_back_offset_shortens_back_marks_inside_the_margin() -> None:
    """The backs move with --back-offset, the cards do not: their marks are clipped to the
    printable area (dropped when less than MIN_MARK is left); the fronts keep all theirs."""
    from pnp.printing.imposition import MIN_MARK, Item, Options, impose

    item = Item(None, None, None, "front")  # type: ignore[arg-type]
    back = Item(None, None, None, "back")  # type: ignore[arg-type]
    plain = impose(
        PAPERS["letter"],
        CARD_SIZES["poker"],
        0.0,
        [(item, back)] * 9,
        Options(paper="letter"),
        "d",
        ("fronts", "backs"),
        0.0,
    )
    opts = Options(paper="letter", back_offset=(1.5, -1.0))
    front, backs = impose(
        PAPERS["letter"],
        CARD_SIZES["poker"],
        0.0,
        [(item, back)] * 9,
        opts,
        "d",
        ("fronts", "backs"),
        0.0,
    )
    assert [s.rect for s in front.slots] == [s.rect for s in plain[0].slots]
    assert front.marks == plain[0].marks
    assert 0 < len(backs.marks) <= len(front.marks)
    for m in backs.marks:
        box = m.bbox()
        assert _inside(box, backs.size, 5.0)
        assert max(box.w, box.h) >= MIN_MARK - 1e-9


def _page(kind: str, side: str = "front"):
    from pnp.printing.imposition import Page

    return Page(kind, Size(210, 297), side=side)  # type: ignore[arg-type]


def test_duplex_packs_pages_without_blank_sheets() -> None:
    """Setup first (a blank after it only when it has an odd number of pages and sheets with
    backs follow), then fronts with their backs, then the one-sided pages."""
    from pnp.printing.imposition import Options, double_sided_pages, number_sheets

    pages = [
        _page("setup"),
        _page("setup"),
        _page("board"),  # a one-sided tile
        _page("fronts"),
        _page("backs", "back"),
        _page("tokens"),  # tokens without backs
        _page("fronts"),
        _page("backs", "back"),
    ]
    out = number_sheets(list(pages), Options())
    assert [p.kind for p in out] == [
        "setup",
        "setup",
        "fronts",
        "backs",
        "fronts",
        "backs",
        "board",
        "tokens",
    ]
    assert [p.sheet for p in out] == [1, 1, 2, 2, 3, 3, 4, 5]
    assert double_sided_pages(out, Options()) == 6
    odd = number_sheets([_page("setup"), _page("fronts"), _page("backs", "back")], Options())
    assert [p.kind for p in odd] == ["setup", "blank", "fronts", "backs"]
    assert odd[1].trim is None
    alone = number_sheets([_page("setup"), _page("board")], Options())
    assert [p.kind for p in alone] == ["setup", "board"]
    assert double_sided_pages(alone, Options()) == 0
    glue = number_sheets(
        [_page("setup"), _page("fronts"), _page("backs", "back")], Options(duplex="none")
    )
    assert [p.sheet for p in glue] == [1, 2, 3]


def test_horizontal_fold_turns_the_backs() -> None:
    from pnp.printing.imposition import Item, Options, impose

    item = Item(None, None, None, "front")  # type: ignore[arg-type]
    back = Item(None, None, None, "back")  # type: ignore[arg-type]
    for paper in ("a4", "letter"):
        pages = impose(
            PAPERS[paper],
            CARD_SIZES["poker"],
            0.0,
            [(item, back)] * 4,
            Options(paper=paper, fold=True),
            "d",
            ("fronts", "backs"),
            3.0,
        )
        (page,) = pages[:1]
        assert page.fold is not None
        horizontal = page.fold.y1 == page.fold.y2
        backs = [s for s in page.slots if s.item.side == "back"]
        fronts = [s for s in page.slots if s.item.side == "front"]
        assert all(s.turned == horizontal for s in backs)
        assert not any(s.turned for s in fronts)


def test_cli_margin_default_is_the_imposition_default() -> None:
    import inspect

    from pnp.cli.build import build_cmd
    from pnp.printing.imposition import MIN_MARGIN, Options

    assert inspect.signature(build_cmd).parameters["margin"].default == MIN_MARGIN
    assert Options().margin == MIN_MARGIN
