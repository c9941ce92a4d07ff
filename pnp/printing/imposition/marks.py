"""Crop marks: short lines in the margins that continue the cut lines of a grid of faces.

A mark starts MARK_OFFSET mm outside the card's trim (or bleed) edge and runs towards the paper
edge, MARK_LENGTH mm long at most, ending where the printable area ends: a printer that cannot
print the outer ``margin`` mm of the paper prints every mark whole.
"""

from __future__ import annotations

from collections.abc import Callable

from ...core.units import Size
from .geometry import Line, Rect
from .grid import Grid, cut_lines
from .pages import MARK_LENGTH, MARK_OFFSET, MIN_MARGIN, MIN_MARK

MARK_GAP = 0.5  # mm a mark keeps from its card (and bleed) at the least: the backs' offset
BAND_MARK = 3.5  # mm, the crop marks between two bands of a shared sheet (each band's own)

SIDES = ("top", "bottom", "left", "right")


def crop_marks(grid: Grid, bleed: float, margin: float = MIN_MARGIN) -> list[Line]:
    """A mark at both ends of every cut line of the grid, never over a card or its bleed."""
    return side_marks(grid, grid.extent(), bleed, margin, set(SIDES))


def side_marks(grid: Grid, ext: Rect, bleed: float, margin: float, sides: set[str]) -> list[Line]:
    """Marks on the given sides of the block of trim boxes ``ext`` (a grid's cells, pitch and
    paper), each as long as the printable area allows (at least MIN_MARK, else none)."""
    xs = cut_lines(ext.x, grid.cols, grid.pitch_x, grid.cell.w)
    ys = cut_lines(ext.y, grid.rows, grid.pitch_y, grid.cell.h)
    room = mark_room(grid.paper, ext, bleed, margin)
    offset = bleed + MARK_OFFSET
    lines: list[Line] = []
    if "top" in sides and room["top"] >= MIN_MARK:
        end = ext.y - offset
        lines.extend(Line(x, end - room["top"], x, end) for x in xs)
    if "bottom" in sides and room["bottom"] >= MIN_MARK:
        start = ext.bottom + offset
        lines.extend(Line(x, start, x, start + room["bottom"]) for x in xs)
    if "left" in sides and room["left"] >= MIN_MARK:
        end = ext.x - offset
        lines.extend(Line(end - room["left"], y, end, y) for y in ys)
    if "right" in sides and room["right"] >= MIN_MARK:
        start = ext.right + offset
        lines.extend(Line(start, y, start + room["right"], y) for y in ys)
    return lines


def mark_room(paper: Size, ext: Rect, bleed: float, margin: float) -> dict[str, float]:
    """How long a mark can be on each side: from MARK_OFFSET outside the bleed to the margin,
    MARK_LENGTH at most."""
    offset = bleed + MARK_OFFSET
    free = {
        "top": ext.y - offset - margin,
        "bottom": paper.h - margin - ext.bottom - offset,
        "left": ext.x - offset - margin,
        "right": paper.w - margin - ext.right - offset,
    }
    return {side: min(MARK_LENGTH, length) for side, length in free.items()}


def shift_marks(marks: list[Line], dx: float, dy: float, paper: Size, margin: float) -> list[Line]:
    """Marks moved by the back offset and clipped to the printable area. A mark left shorter
    than MIN_MARK grows towards its card instead, by MARK_OFFSET - MARK_GAP at most (it still
    stops short of the card and its bleed); one that cannot is dropped."""
    lo_x, hi_x, lo_y, hi_y = margin, paper.w - margin, margin, paper.h - margin
    out: list[Line] = []
    for m in marks:
        x1, x2 = sorted((m.x1 + dx, m.x2 + dx))
        y1, y2 = sorted((m.y1 + dy, m.y2 + dy))
        if x1 == x2:  # vertical: above or below the grid
            y1, y2 = _clip(y1, y2, lo_y, hi_y, before=y1 + y2 < paper.h)
            if y2 - y1 >= MIN_MARK - 1e-9:
                out.append(Line(x1, y1, x2, y2))
        else:
            x1, x2 = _clip(x1, x2, lo_x, hi_x, before=x1 + x2 < paper.w)
            if x2 - x1 >= MIN_MARK - 1e-9:
                out.append(Line(x1, y1, x2, y2))
    return out


def _clip(a: float, b: float, lo: float, hi: float, before: bool) -> tuple[float, float]:
    """Clip [a, b] to [lo, hi]; lengthen it on its inner end (towards the card: b when the
    mark lies before the grid, a after it) to MIN_MARK when it became shorter."""
    a, b = max(a, lo), min(b, hi)
    short = MIN_MARK - (b - a)
    if short > 0:
        grow = min(short, MARK_OFFSET - MARK_GAP)
        if before:
            b += grow
        else:
            a -= grow
    return a, b


def band_marks(
    grid: Grid, count: int, bleed: float, margin: float, top: float, bottom: float
) -> tuple[list[Line], int]:
    """Crop marks for the first ``count`` cells of ``grid`` (filled row by row), vertical ones
    between ``top`` and ``bottom`` (the margin, or half-way to the next band), horizontal ones
    inside the margin (:func:`cell_marks`)."""
    cells = [grid.rect(i) for i in range(count)]
    area = Rect(margin, top, grid.paper.w - 2 * margin, bottom - top)
    return cell_marks(cells, bleed, area)


def cell_marks(cells: list[Rect], bleed: float, area: Rect) -> tuple[list[Line], int]:
    """Crop marks for ``cells``: a mark at each end of every cut line of those cells that has
    room for MIN_MARK mm inside ``area``, none for an empty place in a grid. A line that ends
    beside empty places (a last row part filled) gets its mark there, on the empty paper.
    Returns the marks, and how many cut lines have none."""
    offset = bleed + MARK_OFFSET
    lines: list[Line] = []
    bare = 0

    def marks(*ends: tuple[float, Callable[[float], Line]]) -> None:
        nonlocal bare
        made = [make(min(MARK_LENGTH, room)) for room, make in ends if room >= MIN_MARK - 1e-9]
        lines.extend(made)
        bare += not made

    for x, (y1, y2) in _segments(cells, vertical=True):
        end, start = y1 - offset, y2 + offset
        marks((end - area.y, _vertical(x, end, -1)), (area.bottom - start, _vertical(x, start, 1)))
    for y, (x1, x2) in _segments(cells, vertical=False):
        end, start = x1 - offset, x2 + offset
        marks(
            (end - area.x, _horizontal(y, end, -1)), (area.right - start, _horizontal(y, start, 1))
        )
    return lines, bare


def _vertical(x: float, at: float, way: int) -> Callable[[float], Line]:
    """A vertical mark of a given length from ``at``, up (way -1) or down (1)."""
    return lambda n: Line(x, min(at, at + way * n), x, max(at, at + way * n))


def _horizontal(y: float, at: float, way: int) -> Callable[[float], Line]:
    """A horizontal mark of a given length from ``at``, left (way -1) or right (1)."""
    return lambda n: Line(min(at, at + way * n), y, max(at, at + way * n), y)


def _segments(cells: list[Rect], vertical: bool) -> list[tuple[float, tuple[float, float]]]:
    """The cut lines of ``cells``: each edge coordinate (x for vertical lines, y for
    horizontal ones) with the span of the cells it bounds, in order."""
    spans: dict[float, tuple[float, float]] = {}
    for r in cells:
        edges = (r.x, r.right) if vertical else (r.y, r.bottom)
        lo, hi = (r.y, r.bottom) if vertical else (r.x, r.right)
        for e in edges:
            key = round(e, 4)
            a, b = spans.get(key, (lo, hi))
            spans[key] = (min(a, lo), max(b, hi))
    return sorted(spans.items())
