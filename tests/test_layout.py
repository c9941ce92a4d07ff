"""Imposition maths: grids, mirroring for duplex, crop marks outside the cards."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from pnp.core.units import CARD_SIZES, PAPERS, Size, mm, pt
from pnp.printing.imposition import Page, Rect, fit_grid, mirror


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
    """The fullest grid, centred where that leaves room for a crop mark at both ends of
    every cut line; else against the top or left margin, each cut line keeping one mark
    (Letter: three rows of poker cards leave 15.4 mm, not the 19 mm of two marks)."""
    grid = fit_grid(PAPERS[paper], CARD_SIZES[card], 0.0, 0.0)
    assert grid is not None and grid.count == count
    assert (grid.paper.w > grid.paper.h) == landscape
    ext = grid.extent()
    assert ext.x >= 5 and ext.y >= 5
    assert grid.paper.w - ext.right >= 5 and grid.paper.h - ext.bottom >= 5
    centred_x = ext.x == pytest.approx(grid.paper.w - ext.right)
    centred_y = ext.y == pytest.approx(grid.paper.h - ext.bottom)
    assert centred_x or ext.x == pytest.approx(5.0)
    assert centred_y or ext.y == pytest.approx(5.0)
    flush = {("letter", "poker"), ("a4", "square")}  # one row more against the top margin
    assert (centred_x and centred_y) == ((paper, card) not in flush), (paper, card)
    page = _full_sheet(paper, card, 0.0)
    assert page.short_marks == 0 and len(page.slots) == count


def _full_sheet(paper: str, card: str, bleed: float, **options: Any) -> Page:
    """The first page of fronts of a deck that fills a sheet, as the build imposes it."""
    from pnp.printing.imposition import Item, Options, impose

    item = Item(None, None, None, "front")  # type: ignore[arg-type]
    grid = fit_grid(PAPERS[paper], CARD_SIZES[card], 0.0, bleed)
    assert grid is not None
    items = [(item, None)] * grid.count
    opts = Options(paper=paper, **options)
    size = CARD_SIZES[card]
    return impose(PAPERS[paper], size, 0.0, items, opts, "d", ("fronts", "backs"), bleed)[0]


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
    """Every cut line keeps a mark, and no mark touches a card or its bleed."""
    for bleed in (0.0, 2.0):
        page = _full_sheet("letter", "poker", bleed)
        assert page.short_marks == 0
        cards = [s.rect.grow(bleed) for s in page.slots]
        for m in page.marks:
            box = m.bbox()
            for c in cards:
                assert not c.overlaps(Rect(box.x, box.y, max(box.w, 1e-3), max(box.h, 1e-3)))
        cut = {round(x, 4) for s in page.slots for x in (s.rect.x, s.rect.right)}
        cut |= {round(y, 4) for s in page.slots for y in (s.rect.y, s.rect.bottom)}
        marked = {round(m.x1, 4) for m in page.marks if m.x1 == m.x2}
        marked |= {round(m.y1, 4) for m in page.marks if m.y1 == m.y2}
        assert cut <= marked, sorted(cut - marked)


def test_one_cell_format_for_face_tables_and_the_setup_sheet() -> None:
    from pnp.printing.render.tables import SetupTables
    from pnp.typeset.faces import cell_text

    assert cell_text(1.5, "cm", "it", str) == "1,5\u00a0cm"
    assert cell_text(1200, None, "de", str) == "1.200"
    assert cell_text(0, "mm", "en", str) == "–"
    assert cell_text(True, None, "en", str) == "1"
    assert cell_text("0", None, "en", str) == "0"  # a written 0 stays a 0
    assert "cell_text" in SetupTables.cell.__code__.co_names  # the setup sheet uses the same


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
    """A mark at an end of every cut line (both, where the paper has room), each inside the
    5 mm margin and at least MIN_MARK long; the scale bar and the label inside it too (Letter
    with bleed lost its side marks: the bleed was subtracted twice)."""
    from pnp.printing.imposition import MIN_MARK, SCALE_BAR

    page = _full_sheet(paper, card, bleed)
    assert page.short_marks == 0
    assert page.marks
    for m in page.marks:
        box = m.bbox()
        assert _inside(box, page.size, 5.0), m
        assert max(box.w, box.h) >= MIN_MARK - 1e-9
    fur = page.furniture
    assert fur.scale_bar is not None
    bar = fur.scale_bar.bbox()
    assert max(bar.w, bar.h) == pytest.approx(SCALE_BAR)
    assert _inside(bar.grow(3.0), page.size, 5.0 - 3.0 + 0.0)  # ticks and caption inside
    assert fur.label_width > 0


def test_a_larger_margin_shortens_marks_but_never_moves_cards() -> None:
    a = _full_sheet("a4", "poker", 0.0)
    b = _full_sheet("a4", "poker", 0.0, margin=9.0)
    assert [s.rect for s in a.slots] == [s.rect for s in b.slots]
    for m in b.marks:
        assert _inside(m.bbox(), b.size, 9.0)


def test_back_offset_shortens_back_marks_inside_the_margin() -> None:
    """The backs move with --back-offset; cards centred on the sheet do not: their marks are
    clipped to the printable area (dropped when less than MIN_MARK is left); the fronts keep
    all theirs. A grid against a margin keeps room for the offset (the backs stay inside
    the printable area too), which may cost it a row: Letter holds 8 poker cards then, not 9.
    (The items have no faces: only the geometry is checked.)"""
    from pnp.printing.imposition import MIN_MARK, outside_printable

    for paper, offset in (("a4", (1.5, -1.0)), ("letter", (1.5, -1.0)), ("letter", (0.4, 0.4))):
        plain = _full_sheet(paper, "poker", 0.0)
        front = _full_sheet(paper, "poker", 0.0, back_offset=offset)
        pages = _sheets(paper, len(plain.slots), back_offset=offset)
        assert outside_printable(pages, 5.0) == [], (paper, offset)
        backs = pages[1]
        if paper == "a4":
            assert [s.rect for s in front.slots] == [s.rect for s in plain.slots]
            assert front.marks == plain.marks
        elif offset == (1.5, -1.0):
            assert len(front.slots) == 8
        assert 0 < len(backs.marks) <= len(front.marks)
        for m in backs.marks:
            box = m.bbox()
            assert _inside(box, backs.size, 5.0)
            assert max(box.w, box.h) >= MIN_MARK - 1e-9


def _sheets(paper: str, n: int, **options: Any) -> list[Page]:
    """Every page of a deck of ``n`` poker cards with backs."""
    from pnp.printing.imposition import Item, Options, impose

    deck = SimpleNamespace(id="d")
    item = Item(None, deck, None, "front")  # type: ignore[arg-type]
    back = Item(None, deck, None, "back")  # type: ignore[arg-type]
    opts = Options(paper=paper, **options)
    size = CARD_SIZES["poker"]
    return impose(PAPERS[paper], size, 0.0, [(item, back)] * n, opts, "d", ("fronts", "backs"), 0.0)


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
