"""Sheet furniture: where the scale bar and the page label go, in margins free of crop marks."""

from __future__ import annotations

import itertools

from ...core.units import Size
from .geometry import Line, Rect
from .pages import MIN_MARGIN, SCALE_BAR, Furniture


def place_furniture(page: Size, grid_box: Rect, marks: list[Line]) -> Furniture:
    """Put the scale bar in the deepest margin, between crop marks, and the label opposite."""
    margins = {
        "bottom": page.h - grid_box.bottom,
        "top": grid_box.y,
        "left": grid_box.x,
        "right": page.w - grid_box.right,
    }
    bar_side = max(("bottom", "left", "top", "right"), key=lambda s: margins[s])
    label_side = {"bottom": "top", "top": "bottom", "left": "right", "right": "left"}[bar_side]
    if margins[label_side] < 4.0:  # too thin for text: share the bar's margin
        label_side = bar_side
    fur = Furniture()
    bar_span = _free_span(page, grid_box, marks, bar_side, SCALE_BAR + 4)
    depth = margins[bar_side]
    if bar_span is not None:
        a, b = bar_span
        fur.scale_text_room = b - a - 4
        if bar_side in ("bottom", "top"):
            y = grid_box.bottom + depth * 0.45 if bar_side == "bottom" else depth * 0.55
            fur.scale_bar = Line(a + 2, y, a + 2 + SCALE_BAR, y)
        else:  # vertical, read from the bottom up: the bar starts at the span's lower end
            x = depth * 0.55 if bar_side == "left" else grid_box.right + depth * 0.45
            fur.scale_bar = Line(x, b - 2 - SCALE_BAR, x, b - 2)
            fur.scale_vertical = True
    label_span = _free_span(page, grid_box, marks, label_side, 30.0, avoid=fur.scale_bar)
    ldepth = margins[label_side]
    if label_span is not None:
        a, b = label_span
        if label_side in ("bottom", "top"):
            base = grid_box.bottom + ldepth * 0.62 if label_side == "bottom" else ldepth * 0.62
            if label_side == bar_side and fur.scale_bar is not None:
                base = fur.scale_bar.y1 + 3.2  # under the bar
            fur.label_at = (a + 2, base)
        else:
            x = ldepth * 0.62 if label_side == "left" else grid_box.right + ldepth * 0.5
            if label_side == bar_side and fur.scale_bar is not None:
                x = fur.scale_bar.x1 + 3.2
            fur.label_at = (x, b - 2)
            fur.label_vertical = True
        fur.label_width = b - a - 4
    return fur


def _free_span(
    page: Size,
    grid_box: Rect,
    marks: list[Line],
    side: str,
    need: float,
    avoid: Line | None = None,
) -> tuple[float, float] | None:
    """The widest stretch along a margin not crossed by a crop mark."""
    horizontal = side in ("bottom", "top")
    length = page.w if horizontal else page.h
    cuts = [MIN_MARGIN, length - MIN_MARGIN]
    for m in marks:
        box = m.bbox()
        in_margin = (
            (side == "top" and box.bottom <= grid_box.y + 1e-6)
            or (side == "bottom" and box.y >= grid_box.bottom - 1e-6)
            or (side == "left" and box.right <= grid_box.x + 1e-6)
            or (side == "right" and box.x >= grid_box.right - 1e-6)
        )
        if in_margin:
            cuts.extend([box.x - 1, box.right + 1] if horizontal else [box.y - 1, box.bottom + 1])
    if avoid is not None:
        box = avoid.bbox()
        cuts.extend([box.x - 2, box.right + 2] if horizontal else [box.y - 2, box.bottom + 2])
    cuts.sort()
    best: tuple[float, float] | None = None
    for a, b in itertools.pairwise(cuts):
        a, b = max(a, MIN_MARGIN), min(b, length - MIN_MARGIN)
        if b - a >= need and (best is None or b - a > best[1] - best[0]):
            best = (a, b)
    return best
