"""Boards larger than the paper: tiles with glue margins, one page each."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from ...content.model import Board, Face
from ...core.units import Size
from .geometry import Rect
from .pages import Item, Options, Page, Slot

BOARD_MARGIN = 10.0  # mm around a tile: marks, labels, the assembly map
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

    @property
    def label(self) -> str:
        return f"{chr(ord('A') + self.row)}{self.col + 1}"


def tile_board(
    board_size: Size, paper: Size, overlap: float = BOARD_OVERLAP
) -> tuple[Size, int, int]:
    """The paper orientation and the columns x rows that tile a board with the fewest pages."""
    best: tuple[Size, int, int] | None = None
    for page in (paper.portrait(), paper.landscape()):
        aw, ah = page.w - 2 * BOARD_MARGIN, page.h - 2 * BOARD_MARGIN
        cols = max(1, math.ceil((board_size.w - overlap) / (aw - overlap) - 1e-9))
        rows = max(1, math.ceil((board_size.h - overlap) / (ah - overlap) - 1e-9))
        if best is None or cols * rows < best[1] * best[2]:
            best = (page, cols, rows)
    assert best is not None
    return best


def plan_board_tiles(board: Board, paper: Size, opts: Options) -> list[Page]:
    page_size, cols, rows = tile_board(board.size, paper)
    aw, ah = page_size.w - 2 * BOARD_MARGIN, page_size.h - 2 * BOARD_MARGIN
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
                    tile = Tile(board, side, c, r, cols, rows, region, BOARD_OVERLAP)
                    rect = Rect(BOARD_MARGIN, BOARD_MARGIN, region.w, region.h)
                    item = Item(face, board, board, side, copy=copy)
                    page = Page("board", page_size, group=board.id, payload=tile)
                    page.slots.append(Slot(rect, item))
                    page.trim = rect
                    pages.append(page)
    return pages
