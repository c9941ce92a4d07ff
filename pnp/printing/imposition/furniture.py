"""Sheet furniture: where the scale bar and the page label go, in margins free of crop marks.

Both stay inside the printable area: between the grid (with its bleed, plus FURNITURE_GAP) and
the printer's margin. The scale bar goes in the deepest margin that has room for it, the label
in the opposite one, or another side, or beside the bar.

Around its line, the scale bar takes BAR_BEFORE mm (its ticks, towards the top or the left)
and BAR_AFTER mm (its caption, towards the bottom or the right); a label takes LABEL_BEFORE
mm above its baseline (or left of it, when it reads upwards) and LABEL_AFTER below.
"""

from __future__ import annotations

import itertools

from ...core.units import Size
from .geometry import Line, Rect
from .pages import MIN_MARGIN, SCALE_BAR, Furniture

FURNITURE_GAP = 1.0  # mm between the cards' bleed and anything of the furniture
BAR_BEFORE, BAR_AFTER = 1.8, 3.0  # ticks; caption of 6 pt set 2.4 mm from the bar
LABEL_BEFORE, LABEL_AFTER = 2.0, 0.7  # 6 pt text: accents above the baseline, descenders below
BAR_SPAN = SCALE_BAR + 4  # along the margin: the bar and 2 mm either side
CAPTION_EXTRA = 25.0  # mm the bar's caption may run past the bar's end
LABEL_SPAN = 30.0  # the shortest room worth a label
OPPOSITE = {"bottom": "top", "top": "bottom", "left": "right", "right": "left"}


def bands(page: Size, grid_box: Rect, margin: float) -> dict[str, tuple[float, float]]:
    """Each margin's printable band across its depth: (near the paper edge, near the grid),
    as page coordinates (y for top/bottom, x for left/right)."""
    g = FURNITURE_GAP
    return {
        "top": (margin, grid_box.y - g),
        "bottom": (page.h - margin, grid_box.bottom + g),
        "left": (margin, grid_box.x - g),
        "right": (page.w - margin, grid_box.right + g),
    }


def _depth(band: tuple[float, float]) -> float:
    return abs(band[1] - band[0])


DEEP_BAND = 12.0  # mm: in a margin deeper than this, the furniture keeps close to the faces


def _line_in(
    band: tuple[float, float], before: float, after: float, reach: float = 0.0
) -> float | None:
    """Where a line goes in a band (near the paper edge, near the faces) so that ``before``
    mm above (left of) it and ``after`` mm below (right of) it stay inside: centred, or, in
    a deep band, near the faces just past the ``reach`` of their crop marks (a sheet little
    used keeps its label and scale bar by its faces); None when the band is too thin."""
    lo, hi = sorted(band)
    if hi - lo < before + after - 1e-9:
        return None
    if hi - lo > DEEP_BAND + reach:
        near = band[1]
        return near - reach - after if near > band[0] else near + reach + before
    return lo + before + (hi - lo - before - after) / 2


def _reach(grid_box: Rect, marks: list[Line], side: str) -> float:
    """How far the crop marks in the margin on ``side`` reach from the faces (0: none)."""
    far = 0.0
    for m in marks:
        b = m.bbox()
        if side == "top" and b.bottom <= grid_box.y + 1e-6:
            far = max(far, grid_box.y - b.y)
        elif side == "bottom" and b.y >= grid_box.bottom - 1e-6:
            far = max(far, b.bottom - grid_box.bottom)
        elif side == "left" and b.right <= grid_box.x + 1e-6:
            far = max(far, grid_box.x - b.x)
        elif side == "right" and b.x >= grid_box.right - 1e-6:
            far = max(far, b.right - grid_box.right)
    return far


def place_furniture(
    page: Size, grid_box: Rect, marks: list[Line], margin: float = MIN_MARGIN
) -> Furniture:
    """Put the scale bar in the deepest margin with room for it, and the label opposite."""
    fur = Furniture()
    sides = bands(page, grid_box, margin)
    order = sorted(("bottom", "left", "top", "right"), key=lambda s: -_depth(sides[s]))
    bar_side = next((s for s in order if place_bar(fur, page, grid_box, marks, margin, s)), None)
    _place_label(fur, page, grid_box, marks, margin, sides, bar_side)
    return fur


def place_bar(
    fur: Furniture, page: Size, grid_box: Rect, marks: list[Line], margin: float, side: str
) -> bool:
    """Put the scale bar in the margin on ``side`` of ``grid_box``, if it has room."""
    reach = _reach(grid_box, marks, side)
    at = _line_in(bands(page, grid_box, margin)[side], BAR_BEFORE, BAR_AFTER, reach)
    across = (at - BAR_BEFORE, at + BAR_AFTER) if at is not None else None
    span = _free_span(page, grid_box, marks, side, BAR_SPAN, margin, across=across)
    if at is None or span is None:
        return False
    a, b = span
    fur.scale_text_room = min(b - a - 4, SCALE_BAR + CAPTION_EXTRA)
    if side in ("bottom", "top"):
        fur.scale_bar = Line(a + 2, at, a + 2 + SCALE_BAR, at)
    else:  # vertical, read from the bottom up: the bar starts at the span's lower end
        fur.scale_bar = Line(at, b - 2 - SCALE_BAR, at, b - 2)
        fur.scale_vertical = True
    return True


def _place_label(
    fur: Furniture,
    page: Size,
    grid_box: Rect,
    marks: list[Line],
    margin: float,
    sides: dict[str, tuple[float, float]],
    bar_side: str | None,
) -> None:
    """The label: opposite the bar, else on another side, else beside the bar."""
    first = OPPOSITE[bar_side] if bar_side else "top"
    candidates = [first, *(s for s in ("top", "bottom", "left", "right") if s != first)]
    for side in candidates:
        at = _line_in(sides[side], LABEL_BEFORE, LABEL_AFTER, _reach(grid_box, marks, side))
        if at is None:
            continue
        avoid = _caption_line(fur) if side == bar_side else None
        if side == bar_side and fur.scale_bar is not None:
            # on the bar's line: the label's text and the bar's caption share it
            at = fur.scale_bar.x1 if fur.scale_vertical else fur.scale_bar.y1
            at += BAR_AFTER - LABEL_AFTER
        across = (at - LABEL_BEFORE, at + LABEL_AFTER)
        span = _free_span(page, grid_box, marks, side, LABEL_SPAN, margin, avoid, across)
        if span is None:
            continue
        a, b = span
        if side in ("bottom", "top"):
            fur.label_at = (a + 2, at)
        else:
            fur.label_at = (at, b - 2)
            fur.label_vertical = True
        fur.label_width = b - a - 4
        return


def _free_span(
    page: Size,
    grid_box: Rect,
    marks: list[Line],
    side: str,
    need: float,
    margin: float,
    avoid: Line | None = None,
    across: tuple[float, float] | None = None,
) -> tuple[float, float] | None:
    """The widest stretch along a margin, inside the printable area, crossed by no crop mark
    (and away from ``avoid``, the scale bar and its caption). ``across``: what the item
    takes across the margin (y for a top or bottom one); marks outside it do not cross it."""
    horizontal = side in ("bottom", "top")
    length = page.w if horizontal else page.h
    cuts = [margin, length - margin]
    for m in marks:
        box = m.bbox()
        if across is not None:
            lo, hi = (box.y, box.bottom) if horizontal else (box.x, box.right)
            if hi < across[0] - 0.5 or lo > across[1] + 0.5:
                continue  # beyond the item: it does not cross it
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
        a, b = max(a, margin), min(b, length - margin)
        if b - a >= need and (best is None or b - a > best[1] - best[0]):
            best = (a, b)
    return best


def _caption_line(fur: Furniture) -> Line | None:
    """The bar and the room of its caption, which starts where the bar starts."""
    bar, room = fur.scale_bar, fur.scale_text_room
    if bar is None:
        return None
    if fur.scale_vertical:  # read upwards from its lower end
        return Line(bar.x1, bar.y2 - max(room, SCALE_BAR), bar.x1, bar.y2)
    return Line(bar.x1, bar.y1, bar.x1 + max(room, SCALE_BAR), bar.y1)
