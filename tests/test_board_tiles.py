"""Boards larger than the paper (issue 27, part 6): an overview page before the tiles, marks
only where the board is, labels in the margin, no word over the board.

The plan is checked for the bundled boards that are tiled (Austerity's and Status's main
boards) on A4 and Letter, at the default margin and at --margin 3; the PDF of a test pack with
a two-sided tiled board is measured: its marks from the content stream (tests/pdfmeasure.py),
its words with pdfplumber, its margin on the rasterised pages.
"""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pdfplumber
import pytest
from pdfmeasure import PageScan, crop_marks, margin_intrusions, scan_pdf

from pnp.build.pipeline import BuildOptions, build
from pnp.content.load import load_game, open_root
from pnp.content.model import Board
from pnp.core.findings import Report
from pnp.core.units import PAPERS, Size
from pnp.printing.imposition import (
    MARK_LENGTH,
    MARK_OFFSET,
    BoardOverview,
    Line,
    Options,
    Page,
    Rect,
    Tile,
    plan_board_tiles,
    plan_document,
)

from helpers import REPO

PACK = Path(__file__).parent / "packs" / "boards"
TOL = 0.01  # mm
MARK_WIDTH_PT = 0.5  # pnp.printing.render.marks: crop marks
BACK = """    back:
      title: {en: The Big Board (night), de: Der große Spielplan (Nacht)}
"""


def _inside(r: Rect, page: Size, margin: float) -> bool:
    """``r`` lies within the printable area of ``page``."""
    return (
        r.x >= margin - TOL
        and r.y >= margin - TOL
        and r.right <= page.w - margin + TOL
        and r.bottom <= page.h - margin + TOL
    )


def _crosses(line: Line, r: Rect) -> bool:
    """Some of ``line`` lies inside ``r`` (its edges excluded)."""
    b = line.bbox()
    return (
        b.right > r.x + TOL
        and b.x < r.right - TOL
        and b.bottom > r.y + TOL
        and b.y < r.bottom - TOL
    )


def _on_an_edge(m: Line, r: Rect, tol: float = TOL) -> bool:
    """``m`` continues one of the tile's edges, from MARK_OFFSET outside a corner, at most
    MARK_LENGTH long: it crosses no empty paper."""
    b = m.bbox()
    if b.w < tol:  # vertical: on the left or right edge, above or below the tile
        on_edge = min(abs(b.x - r.x), abs(b.x - r.right)) < tol
        above = abs(b.bottom - (r.y - MARK_OFFSET)) < tol
        below = abs(b.y - (r.bottom + MARK_OFFSET)) < tol
        return on_edge and (above or below) and b.h <= MARK_LENGTH + tol
    on_edge = min(abs(b.y - r.y), abs(b.y - r.bottom)) < tol
    left = abs(b.right - (r.x - MARK_OFFSET)) < tol
    right = abs(b.x - (r.right + MARK_OFFSET)) < tol
    return on_edge and (left or right) and b.w <= MARK_LENGTH + tol


@pytest.fixture(scope="module")
def bundled_boards() -> dict[str, Board]:
    out: dict[str, Board] = {}
    for gid in ("austerity", "status"):
        game = load_game(open_root(REPO), gid, Report())
        assert game is not None
        out[gid] = game.boards["main"]
    return out


@pytest.mark.parametrize("margin", [5.0, 3.0])
@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("gid", ["austerity", "status"])
def test_plan_overview_first_then_tiles(
    bundled_boards: dict[str, Board], gid: str, paper: str, margin: float
) -> None:
    board = bundled_boards[gid]
    pages = plan_board_tiles(board, PAPERS[paper], Options(paper=paper, margin=margin))
    first, tiles = pages[0], pages[1:]
    assert first.kind == "board-overview" and all(p.kind == "board" for p in tiles)
    ov = first.payload
    assert isinstance(ov, BoardOverview) and ov.board is board
    grid = [p.payload for p in tiles[: len(ov.tiles)]]
    assert [t.label for t in ov.tiles] == [t.label for t in grid if isinstance(t, Tile)]
    assert [t.label for t in ov.tiles][:2] == ["A1", "A2"] and len(ov.tiles) > 1
    # the board (each side) drawn whole and undistorted inside the printable area, under the
    # heading and above the text
    for _side, rect in ov.drawings:
        assert _inside(rect, first.size, margin)
        assert rect.w / rect.h == pytest.approx(board.size.w / board.size.h)
        assert rect.y >= ov.heading.bottom - TOL and rect.bottom <= ov.text.y - TOL
    assert _inside(ov.heading, first.size, margin) and _inside(ov.text, first.size, margin)
    assert not first.slots and first.trim is None  # nothing on it is a face to cut


@pytest.mark.parametrize("margin", [5.0, 3.0])
@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("gid", ["austerity", "status"])
def test_plan_marks_and_labels_follow_the_tile(
    bundled_boards: dict[str, Board], gid: str, paper: str, margin: float
) -> None:
    board = bundled_boards[gid]
    pages = plan_board_tiles(board, PAPERS[paper], Options(paper=paper, margin=margin))
    partial = 0
    for page in pages[1:]:
        tile = page.payload
        assert isinstance(tile, Tile)
        r = page.slots[0].rect
        assert r == tile.rect == page.trim
        partial += r.w < pages[1].slots[0].rect.w or r.h < pages[1].slots[0].rect.h
        _check_tile_page(page, tile, r, margin)
    assert partial >= 2  # the last column and row are smaller than the page's area


def _check_tile_page(page: Page, tile: Tile, r: Rect, margin: float) -> None:
    assert len(page.marks) == 8  # two at each corner
    for m in page.marks:
        assert not _crosses(m, r), (tile.label, m)
        assert _on_an_edge(m, r), (tile.label, m, r)
        assert _inside(m.bbox(), page.size, margin), (tile.label, m)
    band = tile.band
    assert band is not None and band.w > 40 and band.h >= 5
    assert not band.overlaps(r) and _inside(band, page.size, margin), (tile.label, band)
    assert not any(_crosses(m, band) for m in page.marks), (tile.label, band)
    bar = page.furniture.scale_bar
    assert bar is not None and not _crosses(bar, r) and _inside(bar.bbox(), page.size, margin)


def test_a_narrow_tile_has_its_label_beside_it(bundled_boards: dict[str, Board]) -> None:
    """A last column 14 mm wide: the label goes right of the tile's marks, not over them."""
    board = dataclasses.replace(bundled_boards["austerity"], size=Size(190, 250))
    pages = plan_board_tiles(board, PAPERS["a4"], Options())
    narrow = [p for p in pages[1:] if p.slots[0].rect.w < 20]
    assert narrow
    for page in narrow:
        tile = page.payload
        assert isinstance(tile, Tile) and tile.band is not None
        r = tile.rect
        assert tile.band.x >= r.right + MARK_OFFSET + MARK_LENGTH
        _check_tile_page(page, tile, r, 5.0)


# --- a two-sided board, built ------------------------------------------------------------------


@pytest.fixture(scope="module")
def two_sided(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The boards test pack, its main board (420 x 300 mm) given a back."""
    root = tmp_path_factory.mktemp("two-sided")
    shutil.copytree(PACK / "cards", root / "cards")
    shutil.copytree(REPO / "pnp" / "data" / "fonts", root / "fonts")
    boards = root / "cards" / "bigboard" / "boards.yaml"
    text = boards.read_text("utf-8")
    anchor = "  tile-a:\n"
    boards.write_text(text.replace(anchor, BACK + anchor, 1), "utf-8")
    return root


def _build(root: Path, out: Path, **layout: object) -> Path:
    report = Report()
    opts = BuildOptions(langs=("en",), layout=Options(**layout), out_dir=out)  # type: ignore[arg-type]
    (output,) = build(open_root(root), ["bigboard"], opts, report)
    assert not report.has_errors(), report.format_text()
    return output.path


def test_overview_before_the_tiles_and_no_blank_sheet(two_sided: Path) -> None:
    game = load_game(open_root(two_sided), "bigboard", Report())
    assert game is not None
    for duplex in ("long", "none"):
        plan = plan_document(game, Options(duplex=duplex))
        kinds = [p.kind for p in plan]
        at = kinds.index("board-overview")
        assert kinds[at + 1 : at + 9] == ["board"] * 8  # front A1-B2, then back A1-B2
        ov = plan[at]
        assert isinstance(ov.payload, BoardOverview) and len(ov.payload.drawings) == 2
        sides = [getattr(p.payload, "side", None) for p in plan[at + 1 : at + 9]]
        assert sides == ["front"] * 4 + ["back"] * 4
        # single-sided, a sheet of its own, and no blank page for it
        sharing = [p for p in plan if p.sheet == ov.sheet]
        assert sharing == [ov] and ov.side == "front"
        blanks = [n for n, k in enumerate(kinds) if k == "blank"]
        assert all(kinds[n - 1] == "setup" for n in blanks)


def test_built_tiles_measured_on_the_pdf(two_sided: Path, tmp_path: Path) -> None:
    """The overview comes before the tiles: on a page of its own, or on the setup sheet when
    the sheet has room for it (it saves the page)."""
    plan = _rendered_plan(two_sided, tmp_path)
    path = tmp_path / "bigboard" / "bigboard-en-a4.pdf"
    scans = scan_pdf(path)
    assert len(scans) == len(plan)
    with pdfplumber.open(path) as pdf:
        texts = [p.extract_text() or "" for p in pdf.pages]
        at = next(n for n, t in enumerate(texts) if "How to assemble The Big Board" in t)
        assert plan[at].kind in ("board-overview", "setup")
        tiles = [n for n, p in enumerate(plan) if p.kind == "board"]
        words = {w["text"] for w in pdf.pages[at].extract_words()}
        assert {"A1", "A2", "B1", "B2"} <= words, words
        assert "back to back" in texts[at]  # both sides are assembled alike
        assert all(n > at for n in tiles) and not any("tile A1 of" in t for t in texts[:at])
        for n in tiles:
            _check_built_tile(pdf.pages[n], scans[n], plan[n])
    assert [i for i in margin_intrusions(path) if i.page - 1 in (at, *tiles)] == []


def _rendered_plan(root: Path, out: Path) -> list[Page]:
    """Build the board's game, and the page plan the renderer drew."""
    from pnp.printing.render import Renderer

    seen: list[Page] = []
    real = Renderer.render

    def render(renderer: object, pages: list[Page], *rest: object, **kw: object) -> bytes:
        seen[:] = pages
        return real(renderer, pages, *rest, **kw)  # type: ignore[arg-type]

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(Renderer, "render", render)
        _build(root, out)
    return seen


def _check_built_tile(page: pdfplumber.page.Page, scan: PageScan, planned: Page) -> None:
    tile = planned.payload
    assert isinstance(tile, Tile)
    trim = scan.trim
    assert trim is not None
    r = Rect(trim.x, trim.y, trim.w, trim.h)
    assert r.w == pytest.approx(tile.rect.w, abs=0.05) and r.x == pytest.approx(
        tile.rect.x, abs=0.05
    )
    # the marks drawn by the page: 8, each continuing an edge, none across empty paper
    marks = crop_marks(scan.strokes, [trim], 0.0, MARK_WIDTH_PT)
    lines = [Line(s.x1, s.y1, s.x2, s.y2) for s in marks]
    assert len(lines) == 8, (tile.label, lines)
    for m in lines:
        assert _on_an_edge(m, r, tol=0.02), (tile.label, m, r)
        assert _inside(m.bbox(), planned.size, 5.0)
    # the label and its words in the margin; "glue" nowhere on the board
    mm = 25.4 / 72
    words = page.extract_words()
    label = [w for w in words if w["text"] in ("tile", f"{tile.label}")]
    assert len(label) >= 2, tile.label
    for w in label + [w for w in words if "glue" in w["text"]]:
        box = Rect(
            w["x0"] * mm, w["top"] * mm, (w["x1"] - w["x0"]) * mm, (w["bottom"] - w["top"]) * mm
        )
        assert not box.overlaps(r), (tile.label, w["text"], box, r)
