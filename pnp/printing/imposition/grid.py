"""Grids: how many faces of one size fit on the paper and where, flat or folded.

:func:`fit_grid` finds the grid holding the most faces in either orientation, centred;
:func:`fit_fold` the gutter-fold arrangement (fronts on one half, backs mirrored on the other).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ...core.units import Size
from .geometry import Line, Rect
from .pages import MARK_OFFSET, MIN_MARGIN


@dataclass(frozen=True)
class Grid:
    paper: Size  # oriented
    cell: Size  # the item's trim size
    cols: int
    rows: int
    pitch_x: float  # distance between the left edges of two neighbours
    pitch_y: float
    x0: float  # top-left of the first trim box
    y0: float

    @property
    def count(self) -> int:
        return self.cols * self.rows

    def rect(self, index: int) -> Rect:
        r, c = divmod(index, self.cols)
        return Rect(
            self.x0 + c * self.pitch_x, self.y0 + r * self.pitch_y, self.cell.w, self.cell.h
        )

    def extent(self) -> Rect:
        last = self.rect(self.count - 1)
        return Rect(self.x0, self.y0, last.right - self.x0, last.bottom - self.y0)

    def x_edges(self) -> list[float]:
        edges = {
            round(self.x0 + c * self.pitch_x + d, 4)
            for c in range(self.cols)
            for d in (0, self.cell.w)
        }
        return sorted(edges)

    def y_edges(self) -> list[float]:
        edges = {
            round(self.y0 + r * self.pitch_y + d, 4)
            for r in range(self.rows)
            for d in (0, self.cell.h)
        }
        return sorted(edges)


def fit_grid(
    paper: Size, cell: Size, gap: float, bleed: float, margin: float = MIN_MARGIN
) -> Grid | None:
    """The grid holding the most cells on ``paper`` (either orientation), centred."""
    best: Grid | None = None
    spacing = max(gap, 2 * bleed)
    mark_room = MARK_OFFSET + 2.0 if bleed == 0 else bleed + MARK_OFFSET + 2.0
    edge = max(margin, mark_room)
    for orient in (paper.portrait(), paper.landscape()):
        cols = math.floor((orient.w - 2 * edge + spacing) / (cell.w + spacing) + 1e-9)
        rows = math.floor((orient.h - 2 * edge + spacing) / (cell.h + spacing) + 1e-9)
        if cols < 1 or rows < 1:
            continue
        gw = cols * cell.w + (cols - 1) * spacing
        gh = rows * cell.h + (rows - 1) * spacing
        grid = Grid(
            orient,
            cell,
            cols,
            rows,
            cell.w + spacing,
            cell.h + spacing,
            (orient.w - gw) / 2,
            (orient.h - gh) / 2,
        )
        if best is None or grid.count > best.count:
            best = grid
    return best


@dataclass(frozen=True)
class FoldGrid:
    """Fronts on one half of the sheet, backs mirrored on the other, across the fold line."""

    grid: Grid  # the fronts
    fold: Line
    horizontal: bool  # the fold line runs horizontally (fronts above it)

    def back_rect(self, index: int) -> Rect:
        r = self.grid.rect(index)
        if self.horizontal:
            f = self.fold.y1
            return Rect(r.x, 2 * f - r.y - r.h, r.w, r.h)
        f = self.fold.x1
        return Rect(2 * f - r.x - r.w, r.y, r.w, r.h)


def fit_fold(paper: Size, cell: Size, gap: float, bleed: float) -> FoldGrid | None:
    """The gutter-fold arrangement holding the most cards: the fold halves the long side."""
    best: FoldGrid | None = None
    spacing = max(gap, 2 * bleed)
    edge = max(MIN_MARGIN, bleed + MARK_OFFSET + 2.0)
    for page in (paper.portrait(), paper.landscape()):
        horizontal = page.h >= page.w  # fold across the long side
        half = Size(page.w, page.h / 2) if horizontal else Size(page.w / 2, page.h)
        # cards touch the fold (plus their bleed), the outer edge keeps its margin
        inner = bleed
        avail_w = half.w - 2 * edge if horizontal else half.w - edge - inner
        avail_h = half.h - edge - inner if horizontal else half.h - 2 * edge
        cols = math.floor((avail_w + spacing) / (cell.w + spacing) + 1e-9)
        rows = math.floor((avail_h + spacing) / (cell.h + spacing) + 1e-9)
        if cols < 1 or rows < 1:
            continue
        gw = cols * cell.w + (cols - 1) * spacing
        gh = rows * cell.h + (rows - 1) * spacing
        if horizontal:
            x0, y0 = (page.w - gw) / 2, page.h / 2 - inner - gh
            fold = Line(0, page.h / 2, page.w, page.h / 2)
        else:
            x0, y0 = page.w / 2 - inner - gw, (page.h - gh) / 2
            fold = Line(page.w / 2, 0, page.w / 2, page.h)
        grid = Grid(page, cell, cols, rows, cell.w + spacing, cell.h + spacing, x0, y0)
        candidate = FoldGrid(grid, fold, horizontal)
        if best is None or grid.count > best.grid.count:
            best = candidate
    return best
