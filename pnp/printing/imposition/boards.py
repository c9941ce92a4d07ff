"""Boards larger than the paper: an overview of the assembled board, then its tiles.

Each tile is one page: its part of the board (it repeats BOARD_OVERLAP mm of its neighbours
to the right and below, the grey strips they are glued onto), cut marks at its four corners,
a scale bar above it and its label with a map of the tiles in the margin beside it. A tile of
the last column or row is smaller than the page's area: its marks and label follow its real
edges, never the page's. Before the tiles, one page shows the whole board drawn small, with
the tiles' grid and labels over it and how to assemble them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Literal

from ...content.model import Board, Face
from ...core.units import Size
from .furniture import place_bar
from .geometry import Line, Rect
from .marks import mark_room
from .pages import (
    MARK_LENGTH,
    MARK_OFFSET,
    MIN_MARGIN,
    MIN_MARK,
    Furniture,
    Item,
    Options,
    Page,
    Slot,
)

TILE_FURNITURE = 7.0  # mm inside the printable margin around a tile: marks, bar, label, map
BOARD_MARGIN = MIN_MARGIN + TILE_FURNITURE  # mm around a tile at the default margin
BOARD_OVERLAP = 10.0  # mm each tile repeats of its neighbour: the glue margin
LABEL_GAP = 1.0  # mm between a tile's edge and its label band
LABEL_ROOM = 80.0  # mm: the narrowest band below a tile worth its label (else beside it)

Side = Literal["front", "back"]


@dataclass(frozen=True)
class Tile:
    """One page of a tiled board: which part of the board it shows and where."""

    board: Board
    side: Side
    col: int
    row: int
    cols: int
    rows: int
    region: Rect  # in board millimetres
    overlap: float
    margin: float = BOARD_MARGIN  # mm from the paper edge to the tile
    printable: float = MIN_MARGIN  # mm at the paper edge where nothing is drawn
    band: Rect | None = None  # page mm: where the label and the map go, outside the tile

    @property
    def label(self) -> str:
        return tile_label(self.row, self.col)

    @property
    def rect(self) -> Rect:
        """The tile on its page (mm): its top-left corner at the margin."""
        return Rect(self.margin, self.margin, self.region.w, self.region.h)


def tile_label(row: int, col: int) -> str:
    """A1, A2, ... B1: the row as a letter, the column as a number."""
    return f"{chr(ord('A') + row)}{col + 1}"


@dataclass(frozen=True)
class BoardOverview:
    """The page before a board's tiles: the board drawn small, its tiles' grid and labels
    over it, and how to assemble them."""

    board: Board
    tiles: tuple[Tile, ...]  # one side's tiles (all sides are cut alike)
    drawings: tuple[tuple[Side, Rect], ...]  # each side of the board, scaled into a rect
    heading: Rect  # page mm: the heading's line
    text: Rect  # page mm: how to assemble

    @property
    def scale(self) -> float:
        return self.drawings[0][1].w / self.board.size.w


def tile_board(
    board_size: Size, paper: Size, overlap: float = BOARD_OVERLAP, margin: float = BOARD_MARGIN
) -> tuple[Size, int, int]:
    """The paper orientation and the columns x rows that tile a board with the fewest pages."""
    best: tuple[Size, int, int] | None = None
    for page in (paper.portrait(), paper.landscape()):
        aw, ah = page.w - 2 * margin, page.h - 2 * margin
        cols = max(1, math.ceil((board_size.w - overlap) / (aw - overlap) - 1e-9))
        rows = max(1, math.ceil((board_size.h - overlap) / (ah - overlap) - 1e-9))
        if best is None or cols * rows < best[1] * best[2]:
            best = (page, cols, rows)
    assert best is not None
    return best


def board_sides(board: Board) -> list[tuple[Side, Face]]:
    """The faces of a board that are printed: its front, and its back when it has one."""
    sides: list[tuple[Side, Face]] = [("front", board)]
    if board.back is not None:
        sides.append(("back", board.back))
    return sides


def plan_board_tiles(board: Board, paper: Size, opts: Options) -> list[Page]:
    """The board's overview page, then one page per tile, per side, per copy; each tile with
    its cut marks, a scale bar and its label in the margin."""
    margin = opts.margin + TILE_FURNITURE
    page_size, cols, rows = tile_board(board.size, paper, margin=margin)
    aw, ah = page_size.w - 2 * margin, page_size.h - 2 * margin
    step_x, step_y = aw - BOARD_OVERLAP, ah - BOARD_OVERLAP
    tiles: list[Page] = []
    for copy in range(board.copies):
        for side, face in board_sides(board):
            for r in range(rows):
                for c in range(cols):
                    x0, y0 = c * step_x, r * step_y
                    region = Rect(x0, y0, min(aw, board.size.w - x0), min(ah, board.size.h - y0))
                    tile = Tile(
                        board, side, c, r, cols, rows, region, BOARD_OVERLAP, margin, opts.margin
                    )
                    tiles.append(
                        _tile_page(tile, Item(face, board, board, side, copy=copy), page_size)
                    )
    first = [p.payload for p in tiles[: cols * rows]]
    overview = plan_overview(board, [t for t in first if isinstance(t, Tile)], paper, opts.margin)
    return [overview, *tiles]


def _tile_page(tile: Tile, item: Item, page_size: Size) -> Page:
    """One tile's page: the tile at the margin, its marks, scale bar and label band."""
    rect = tile.rect
    marks = tile_marks(rect, page_size, tile.printable)
    band = label_band(rect, page_size, tile.printable)
    tile = replace(tile, band=band)
    page = Page("board", page_size, group=tile.board.id, payload=tile)
    page.slots.append(Slot(rect, item))
    page.trim = rect
    page.marks = marks
    page.furniture = Furniture()
    # the scale bar above the tile when it has room there, else wherever the top margin has
    above = Size(min(page_size.w, rect.right + tile.printable), page_size.h)
    if not place_bar(page.furniture, above, rect, marks, tile.printable, "top"):
        place_bar(page.furniture, page_size, rect, marks, tile.printable, "top")
    return page


def tile_marks(r: Rect, page: Size, margin: float) -> list[Line]:
    """Cut marks at a tile's four corners, continuing its edges: from MARK_OFFSET outside it,
    MARK_LENGTH long at most, ending inside the printable area; none across empty paper."""
    room = mark_room(page, r, 0.0, margin)
    o = MARK_OFFSET
    lines: list[Line] = []
    for x in (r.x, r.right):
        if room["top"] >= MIN_MARK:
            lines.append(Line(x, r.y - o - room["top"], x, r.y - o))
        if room["bottom"] >= MIN_MARK:
            lines.append(Line(x, r.bottom + o, x, r.bottom + o + room["bottom"]))
    for y in (r.y, r.bottom):
        if room["left"] >= MIN_MARK:
            lines.append(Line(r.x - o - room["left"], y, r.x - o, y))
        if room["right"] >= MIN_MARK:
            lines.append(Line(r.right + o, y, r.right + o + room["right"], y))
    return lines


def label_band(r: Rect, page: Size, printable: float) -> Rect:
    """Where a tile's label and map go: in the margin below the tile, between its corner
    marks; beside it, right of its marks, when the tile is too narrow and the paper has room
    there."""
    depth = TILE_FURNITURE - LABEL_GAP
    below = Rect(
        r.x, r.bottom + LABEL_GAP, r.w, min(depth, page.h - printable - r.bottom - LABEL_GAP)
    )
    beside_x = r.right + MARK_OFFSET + MARK_LENGTH + LABEL_GAP
    beside = Rect(beside_x, r.y, page.w - printable - beside_x, depth)
    if r.w < LABEL_ROOM and beside.w > r.w:
        return beside
    return below


OVERVIEW_HEADING = 10.0  # mm at the top of the overview: the heading
OVERVIEW_TEXT = 30.0  # mm at the bottom: how to assemble the tiles
OVERVIEW_CAPTION = 6.0  # mm above each side of a two-sided board: its name
OVERVIEW_GAP = 6.0  # mm between the drawings, and above the text


def plan_overview(board: Board, tiles: list[Tile], paper: Size, margin: float) -> Page:
    """The overview page: the board (each side) as large as the paper allows inside the
    printable margin, under a heading and above the assembly instructions."""
    laid = [(overview_in(board, tiles, page, margin), page) for page in paper_ways(paper)]
    best, page = max(laid, key=lambda found: found[0].scale)
    return Page("board-overview", page, group=board.id, payload=best)


def paper_ways(paper: Size) -> tuple[Size, Size]:
    return paper.portrait(), paper.landscape()


def overview_in(board: Board, tiles: list[Tile], area: Size, margin: float = 0.0) -> BoardOverview:
    """The overview laid out in ``area`` (a page, or a block of the setup sheet) inside
    ``margin``: the board as large as it goes between the heading and the instructions."""
    sides = [side for side, _face in board_sides(board)]
    top = margin + OVERVIEW_HEADING
    bottom = area.h - margin - OVERVIEW_TEXT - OVERVIEW_GAP
    room = Rect(margin, top, area.w - 2 * margin, bottom - top)
    rects = max(_arrangements(board.size, room, len(sides)), key=lambda r: r[0].w)
    inner = area.w - 2 * margin
    return BoardOverview(
        board,
        tuple(tiles),
        tuple(zip(sides, rects, strict=True)),
        heading=Rect(margin, margin, inner, OVERVIEW_HEADING),
        text=Rect(margin, area.h - margin - OVERVIEW_TEXT, inner, OVERVIEW_TEXT),
    )


def _arrangements(size: Size, area: Rect, n: int) -> list[list[Rect]]:
    """Where the ``n`` sides of a board of ``size`` can be drawn in ``area``: one side fills
    it; two go one above the other, or side by side, each under its caption."""
    if n == 1:
        return [[_fit(size, area)]]
    cap, gap = OVERVIEW_CAPTION, OVERVIEW_GAP
    cell_h = (area.h - gap - 2 * cap) / 2
    stacked = [
        _fit(size, Rect(area.x, area.y + cap + i * (cell_h + cap + gap), area.w, cell_h))
        for i in range(2)
    ]
    cell_w = (area.w - gap) / 2
    beside = [
        _fit(size, Rect(area.x + i * (cell_w + gap), area.y + cap, cell_w, area.h - cap))
        for i in range(2)
    ]
    return [stacked, beside]


def _fit(size: Size, cell: Rect) -> Rect:
    """``size`` scaled to fit ``cell``, centred in it."""
    scale = min(cell.w / size.w, cell.h / size.h)
    w, h = size.w * scale, size.h * scale
    return Rect(cell.x + (cell.w - w) / 2, cell.y + (cell.h - h) / 2, w, h)
