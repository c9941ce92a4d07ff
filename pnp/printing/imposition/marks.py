"""Crop marks: short lines in the margins that continue the cut lines of a grid of faces."""

from __future__ import annotations

from .geometry import Line, Rect
from .grid import FoldGrid, Grid
from .pages import MARK_LENGTH, MARK_OFFSET


def crop_marks(grid: Grid, bleed: float) -> list[Line]:
    """Short lines in the margins, continuing every cut line, never over a card or its bleed."""
    ext = grid.extent().grow(bleed)
    offset = bleed + MARK_OFFSET
    top_room = ext.y - offset
    side_room = ext.x - offset
    lines: list[Line] = []
    vlen = min(MARK_LENGTH, max(top_room - 0.5, 0))
    hlen = min(MARK_LENGTH, max(side_room - 0.5, 0))
    y_top = grid.y0 - offset
    y_bot = grid.extent().bottom + offset
    x_left = grid.x0 - offset
    x_right = grid.extent().right + offset
    if vlen > 0.5:
        for x in grid.x_edges():
            lines.append(Line(x, y_top - vlen, x, y_top))
            lines.append(Line(x, y_bot, x, y_bot + vlen))
    if hlen > 0.5:
        for y in grid.y_edges():
            lines.append(Line(x_left - hlen, y, x_left, y))
            lines.append(Line(x_right, y, x_right + hlen, y))
    return lines


def fold_marks(grid: Grid, ext: Rect, fold: FoldGrid, bleed: float) -> list[Line]:
    """Crop marks around one half, on the three sides away from the fold."""
    offset = bleed + MARK_OFFSET
    xs = sorted(
        {round(ext.x + c * grid.pitch_x + d, 4) for c in range(grid.cols) for d in (0, grid.cell.w)}
    )
    ys = sorted(
        {round(ext.y + r * grid.pitch_y + d, 4) for r in range(grid.rows) for d in (0, grid.cell.h)}
    )
    f = fold.fold
    if fold.horizontal:
        before = ext.bottom <= f.y1 + 1e-6  # this half lies above the fold
        sides = {"top": before, "bottom": not before, "left": True, "right": True}
    else:
        before = ext.right <= f.x1 + 1e-6  # this half lies left of the fold
        sides = {"left": before, "right": not before, "top": True, "bottom": True}
    lines: list[Line] = []
    top, bottom = ext.y - offset, ext.bottom + offset
    left, right = ext.x - offset, ext.right + offset
    for x in xs:
        if sides["top"] and top - MARK_LENGTH > 0:
            lines.append(Line(x, top - MARK_LENGTH, x, top))
        if sides["bottom"] and bottom + MARK_LENGTH < grid.paper.h:
            lines.append(Line(x, bottom, x, bottom + MARK_LENGTH))
    for y in ys:
        if sides["left"] and left - MARK_LENGTH > 0:
            lines.append(Line(left - MARK_LENGTH, y, left, y))
        if sides["right"] and right + MARK_LENGTH < grid.paper.w:
            lines.append(Line(right, y, right + MARK_LENGTH, y))
    return lines
