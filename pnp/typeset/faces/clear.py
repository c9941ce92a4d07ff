"""Texts kept clear of the cut line: a text box narrowed to the face's safe area, and fitted
again, until its glyphs lie :data:`~.cuts.CLEARANCE` mm inside the cut line.

A text is fitted into its layout box first. When a line of it reaches nearer the cut line than
the clearance, the box is narrowed to the stretch of that line's row that stays clear (the
chord of a round token at the line's height, the width of a hexagon there, the trim less the
clearance) or, for a line above or below the safe area, shortened from that side; the text is
fitted again (its lines break anew, its size shrinks within the element's limits) and measured
again, a few times at most. What cannot be kept clear is left as the layout draws it, and the
face engine reports it (rule ``cut-clearance``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace

from ..text import Fit
from .cuts import CLEARANCE, Box, Cut, text_ink, text_rows
from .ops import TextOp

TRIES = 6  # fittings at most at one size: each narrows the box further
LIMIT = CLEARANCE - 1e-9
SMALLEST = 1.0  # mm: a box narrowed below this is given up
# mm kept free beside a narrowed line: shrink-to-fit lets a line overhang its box by half a
# point (0.18 mm)
GUARD = 0.2


def clearance(cut: Cut, op: TextOp) -> float:
    """How far inside the cut line the text's nearest glyph lies (mm; inf: no glyph)."""
    return min((cut.clearance(points) for points in text_ink(op)), default=float("inf"))


Refit = Callable[[float, float, float | None], Fit]  # (width pt, height pt, size or None)


def keep_clear(
    cut: Cut, op: TextOp, refit: Refit, sizes: list[float], clear: float = CLEARANCE
) -> tuple[TextOp, float]:
    """``op`` with its box narrowed into the safe area and its text fitted again by ``refit``
    at the largest of ``sizes`` (largest first) that keeps it clear, when its glyphs come
    nearer the cut line than the clearance; and the clearance reached (at a smaller size, a
    text's lines are thinner, where a round token is wider). A text turned by ``rotate:`` is
    only measured. When no size keeps it clear, the box that comes nearest without
    overflowing (where the layout's box did not) is taken. ``clear``: how far inside the cut
    line the glyphs must lie (a print-on-demand shop's safe zone, else :data:`CLEARANCE`)."""
    limit = clear - 1e-9
    best, worst = op, clearance(cut, op)
    if worst >= limit or op.rotate % 360 or not sizes:
        return best, worst
    tried: dict[int, tuple[TextOp, float]] = {}

    def attempt(i: int) -> float:
        if i not in tried:
            start = _refitted(op, op.box, refit, sizes[i])
            tried[i] = _narrowing(cut, start, refit, sizes[i], clear)
        return tried[i][1]

    lo, hi = 0, len(sizes)  # the first size that keeps clear is in [lo, hi]; hi: none does
    while lo < hi:  # smaller sizes keep clear more easily: bisection
        mid = (lo + hi) // 2
        if attempt(mid) >= limit:
            hi = mid
        else:
            lo = mid + 1
    if lo < len(sizes):
        return tried[lo]
    if attempt(len(sizes) - 1) > worst:  # the smallest size comes nearest
        found, reached = tried[len(sizes) - 1]
        if found.fit.overflow is None or op.fit.overflow is not None:
            best, worst = found, reached
    return best, worst


def _refitted(op: TextOp, box: Box, refit: Refit, size: float | None) -> TextOp:
    from ...core.units import pt

    pad = op.padding
    return replace(op, box=box, fit=refit(pt(box[2] - 2 * pad), pt(box[3] - 2 * pad), size))


def _narrowing(
    cut: Cut, op: TextOp, refit: Refit, size: float | None, clear: float = CLEARANCE
) -> tuple[TextOp, float]:
    """The text in ever narrower boxes until it keeps clear (or no box is left), fitted at
    ``size`` (None: at the size that fits); the box that keeps clearest without overflowing."""
    best, worst = op, clearance(cut, op) if op.fit.overflow is None else -math.inf
    current = op
    for _ in range(TRIES):
        box = narrowed(cut, current, clear)
        if box is None or _same(box, current.box):
            break
        current = _refitted(current, box, refit, size)
        if current.fit.overflow is not None:
            break  # narrower still overflows too
        reached = clearance(cut, current)
        if reached > worst:
            best, worst = current, reached
        if worst >= clear - 1e-9:
            break
    return best, worst


def narrowed(cut: Cut, op: TextOp, clear: float = CLEARANCE) -> Box | None:
    """The text's box made smaller so that the lines that come too near the cut line fit in
    the safe area at their rows; None when nothing usable is left."""
    x, y, w, h = op.box
    pad = op.padding
    left, right, top, bottom = x + pad, x + w - pad, y + pad, y + h - pad
    first, last = cut.rows(clear)
    for row in text_rows(op):
        corners = [(row.left, row.top), (row.right, row.top), (row.right, row.bottom)]
        corners.append((row.left, row.bottom))
        if cut.clearance(corners) >= clear - 1e-9:
            continue
        band = cut.band(row.top, row.bottom, clear)
        if band is not None:
            left, right = max(left, band[0] + GUARD), min(right, band[1] - GUARD)
            continue
        if row.top < first:  # above the safe area: the box starts lower
            top += first - row.top + 0.05
        if row.bottom > last:  # below it: the box ends higher
            bottom -= row.bottom - last + 0.05
    if right - left < SMALLEST or bottom - top < SMALLEST:
        return None
    return left - pad, top - pad, right - left + 2 * pad, bottom - top + 2 * pad


def _same(a: Box, b: Box) -> bool:
    return all(abs(p - q) < 1e-4 for p, q in zip(a, b, strict=True))
