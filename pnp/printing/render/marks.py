"""Cut marks: crop marks around a grid of faces, and cut lines around round and hexagonal tokens.

Marks are drawn black over a white halo, so that they stay visible on a dark margin.
"""

from __future__ import annotations

from reportlab.lib import colors

from ...core.units import pt
from ..imposition import Line, Page
from .pen import Pen, shape_path

MARK_WIDTH_PT = 0.5  # crop marks: visible after printing (>= 0.3 pt)
HALO_WIDTH_PT = 1.6


def draw_marks(pen: Pen, marks: list[Line]) -> None:
    """Crop marks (lines in millimetres), over their halo."""
    if not marks:
        return
    c = pen.c
    c.saveState()
    c.setLineCap(0)
    c.setStrokeColor(colors.white)  # a halo keeps marks visible on a dark margin
    c.setLineWidth(HALO_WIDTH_PT)
    for m in marks:
        pen.line(m)
    c.setStrokeColor(colors.black)
    c.setLineWidth(MARK_WIDTH_PT)
    for m in marks:
        pen.line(m)
    c.restoreState()


def draw_outlines(pen: Pen, page: Page) -> None:
    """Cut lines around round and hexagonal tokens (on the fronts only)."""
    if page.side != "front":
        return
    c = pen.c
    for slot in page.slots:
        if slot.item.shape in ("round", "hex"):
            r = slot.rect
            c.saveState()
            c.translate(pt(r.x), pt(pen.page.h - r.y - r.h))
            c.setStrokeColor(colors.black)
            c.setLineWidth(MARK_WIDTH_PT)
            c.drawPath(shape_path(c, slot.item.shape, r.w, r.h, 0), stroke=1, fill=0)
            c.restoreState()
        elif slot.item.shape == "square":
            c.setStrokeColor(colors.black)
            c.setLineWidth(MARK_WIDTH_PT)
            c.rect(*pen.rect_pt(slot.rect), stroke=1, fill=0)
