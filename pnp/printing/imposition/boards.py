"""Boards larger than the paper: tiles with glue margins, one page each."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from ...content.model import Board, Face
from ...core.units import Size
from .furniture import place_bar
from .geometry import Line, Rect
from .pages import MARK_OFFSET, MIN_MARGIN, Furniture, Item, Options, Page, Slot

TILE_FURNITURE = 7.0  # mm inside the printable margin around a tile: marks, bar, label, map
BOARD_MARGIN = MIN_MARGIN + TILE_FURNITURE  # mm around a tile at the default margin
BOARD_OVERLAP = 10.0  # mm each tile repeats of its neighbour: the glue margin


@dataclass(frozen=True)
class Tile:
    """One page of a tiled board: which part of the board it shows and where."""

    board: Board
    side: Literal["front", "back"]
    col: int
    row: int
    cols: int
    rows: int
    region: Rect  # in board millimetres
    overlap: float
    margin: float = BOARD_MARGIN  # mm from the paper edge to the tile
    printable: float = MIN_MARGIN  # mm at the paper edge where nothing is drawn

    @property
    def label(self) -> str:
        return f"{chr(ord('A') + self.row)}{self.col + 1}"


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


def plan_board_tiles(board: Board, paper: Size, opts: Options) -> list[Page]:
    """One page per tile, per side, per copy; each with its cut marks and a scale bar."""
    margin = opts.margin + TILE_FURNITURE
    page_size, cols, rows = tile_board(board.size, paper, margin=margin)
    aw, ah = page_size.w - 2 * margin, page_size.h - 2 * margin
    step_x, step_y = aw - BOARD_OVERLAP, ah - BOARD_OVERLAP
    pages: list[Page] = []
    sides: list[tuple[Literal["front", "back"], Face]] = [("front", board)]
    if board.back is not None:
        sides.append(("back", board.back))
    for copy in range(board.copies):
        for side, face in sides:
            for r in range(rows):
                for c in range(cols):
                    x0, y0 = c * step_x, r * step_y
                    region = Rect(x0, y0, min(aw, board.size.w - x0), min(ah, board.size.h - y0))
                    tile = Tile(
                        board, side, c, r, cols, rows, region, BOARD_OVERLAP, margin, opts.margin
                    )
                    rect = Rect(margin, margin, region.w, region.h)
                    item = Item(face, board, board, side, copy=copy)
                    page = Page("board", page_size, group=board.id, payload=tile)
                    page.slots.append(Slot(rect, item))
                    page.trim = rect
                    page.marks = tile_marks(rect, page_size, opts.margin)
                    page.furniture = Furniture()
                    place_bar(page.furniture, page_size, rect, page.marks, opts.margin, "top")
                    pages.append(page)
    return pages


def tile_marks(r: Rect, page: Size, margin: float) -> list[Line]:
    """Cut marks at a tile's corners, from MARK_OFFSET outside it to the printable margin."""
    start = MARK_OFFSET
    top, left = r.y - start, r.x - start
    bottom, right = r.bottom + start, r.right + start
    lines = []
    for x in (r.x, r.right):
        lines.append(Line(x, margin, x, top))
        lines.append(Line(x, bottom, x, page.h - margin))
    for y in (r.y, r.bottom):
        lines.append(Line(margin, y, left, y))
        lines.append(Line(right, y, page.w - margin, y))
    return [m for m in lines if m.bbox().w + m.bbox().h > 0.5]
