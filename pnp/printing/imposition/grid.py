"""Grids: how many faces of one size fit on the paper and where, flat or folded.

:func:`fit_grid` finds the grid holding the most faces in either orientation, centred;
:func:`fit_fold` the gutter-fold arrangement (fronts on one half, backs mirrored on the other).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ...core.units import Size
from .geometry import Line, Rect
from .pages import MARK_OFFSET, MIN_MARGIN, MIN_MARK, OUTLINE_CLEAR


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
        return cut_lines(self.x0, self.cols, self.pitch_x, self.cell.w)

    def y_edges(self) -> list[float]:
        return cut_lines(self.y0, self.rows, self.pitch_y, self.cell.h)


def cut_lines(start: float, count: int, pitch: float, size: float) -> list[float]:
    """Where ``count`` cells of ``size``, ``pitch`` apart from ``start``, are cut: both edges of
    each cell, once (touching cells share one)."""
    return sorted({round(start + i * pitch + d, 4) for i in range(count) for d in (0, size)})


def edge_room(bleed: float, marked: bool = True) -> float:
    """The room a grid keeps between the paper edge and its first trim line: the printable
    margin (the default one: cards do not move with ``--margin``), the bleed, and a crop mark
    at least MIN_MARK long (for faces cut on their outlines, tokens: OUTLINE_CLEAR). (Not the
    shift of the backs: a ``--back-offset`` shortens the marks of the backs, or drops them;
    the fronts keep theirs, and cutting follows those.)"""
    return MIN_MARGIN + bleed + (MARK_OFFSET + MIN_MARK if marked else OUTLINE_CLEAR)


def fit_count(
    length: float, cell: float, spacing: float, bleed: float, marked: bool, reserve: float = 0.0
) -> int:
    """How many cells fit in a row ``length`` mm long: with room for a crop mark at both ends
    of the row, or, when that holds one cell fewer, at one end (the row ``reserve`` mm from
    the margin at the other, the room the backs' offset takes: each cut line still has a mark
    of MIN_MARK mm)."""
    both = math.floor((length - 2 * edge_room(bleed, marked) + spacing) / (cell + spacing) + 1e-9)
    if not marked:
        return both
    one = length - edge_room(bleed) - flush(bleed, reserve)
    return max(both, math.floor((one + spacing) / (cell + spacing) + 1e-9))


def flush(bleed: float, reserve: float = 0.0) -> float:
    """Where a row too long for marks at both ends starts: at the margin, past the bleed and
    the room the backs' offset needs (they must stay inside the margin too)."""
    return MIN_MARGIN + bleed + reserve


def place(length: float, extent: float, bleed: float, marked: bool, reserve: float = 0.0) -> float:
    """Where a row of cells ``extent`` mm long starts: centred when that leaves room for the
    marks at both ends, else against the margin at the start (its marks at the end)."""
    if extent <= length - 2 * edge_room(bleed, marked) + 1e-9:
        return (length - extent) / 2
    return flush(bleed, reserve)


def grids(
    paper: Size, cell: Size, gap: float, bleed: float, marked: bool = True, reserve: float = 0.0
) -> list[Grid]:
    """Grids of ``cell`` on ``paper``, most cells first: in each orientation the fullest,
    then one column or one row fewer (which leaves a margin for the scale bar); centred, or
    against a margin where that fits one more row or column (:func:`fit_count`).
    ``marked``: the faces get crop marks (else they are cut on their outlines); ``reserve``:
    mm a grid against a margin keeps from it, for the backs' offset."""
    spacing = max(gap, 2 * bleed)
    found: list[Grid] = []
    for orient in (paper.portrait(), paper.landscape()):
        cols = fit_count(orient.w, cell.w, spacing, bleed, marked, reserve)
        rows = fit_count(orient.h, cell.h, spacing, bleed, marked, reserve)
        for c, r in ((cols, rows), (cols - 1, rows), (cols, rows - 1)):
            if c < 1 or r < 1:
                continue
            gw = c * cell.w + (c - 1) * spacing
            gh = r * cell.h + (r - 1) * spacing
            x0 = place(orient.w, gw, bleed, marked, reserve)
            y0 = place(orient.h, gh, bleed, marked, reserve)
            found.append(Grid(orient, cell, c, r, cell.w + spacing, cell.h + spacing, x0, y0))
    # most cells first; between equals, the order above (portrait, fullest)
    return sorted(found, key=lambda g: -g.count)


def fit_grid(paper: Size, cell: Size, gap: float, bleed: float) -> Grid | None:
    """The grid holding the most cells on ``paper`` (either orientation), centred."""
    found = grids(paper, cell, gap, bleed)
    return found[0] if found else None


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


def fit_fold(
    paper: Size, cell: Size, gap: float, bleed: float, gutter: float = 0.0
) -> FoldGrid | None:
    """The gutter-fold arrangement holding the most cards: the fold halves the long side."""
    found = folds(paper, cell, gap, bleed, gutter)
    return found[0] if found else None


def folds(paper: Size, cell: Size, gap: float, bleed: float, gutter: float = 0.0) -> list[FoldGrid]:
    """Gutter-fold arrangements, most cards first: in each orientation the fullest, then one
    column or one row fewer (which leaves a margin for the scale bar). ``gutter``: mm
    between the fronts and the backs across the fold (0: they meet at the fold)."""
    spacing = max(gap, 2 * bleed)
    edge = edge_room(bleed)
    found: list[FoldGrid] = []
    for page in (paper.portrait(), paper.landscape()):
        horizontal = page.h >= page.w  # fold across the long side
        half = Size(page.w, page.h / 2) if horizontal else Size(page.w / 2, page.h)
        # half the gutter (at least the bleed) between the cards and the fold, the outer edge
        # keeps its margin
        inner = max(bleed, gutter / 2)
        avail_w = half.w - 2 * edge if horizontal else half.w - edge - inner
        avail_h = half.h - edge - inner if horizontal else half.h - 2 * edge
        cols = math.floor((avail_w + spacing) / (cell.w + spacing) + 1e-9)
        rows = math.floor((avail_h + spacing) / (cell.h + spacing) + 1e-9)
        for c, r in ((cols, rows), (cols - 1, rows), (cols, rows - 1)):
            if c < 1 or r < 1:
                continue
            gw = c * cell.w + (c - 1) * spacing
            gh = r * cell.h + (r - 1) * spacing
            if horizontal:
                x0, y0 = (page.w - gw) / 2, page.h / 2 - inner - gh
                fold = Line(0, page.h / 2, page.w, page.h / 2)
            else:
                x0, y0 = page.w / 2 - inner - gw, (page.h - gh) / 2
                fold = Line(page.w / 2, 0, page.w / 2, page.h)
            grid = Grid(page, cell, c, r, cell.w + spacing, cell.h + spacing, x0, y0)
            found.append(FoldGrid(grid, fold, horizontal))
    return sorted(found, key=lambda f: -f.grid.count)
