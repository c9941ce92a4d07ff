"""The pen: the canvas in millimetres, colours, and the outline of a face's shape.

:class:`Pen` converts the plan's millimetres (origin top-left) into PDF points (origin
bottom-left); nothing else does.
"""

from __future__ import annotations

import math
from typing import Any

from reportlab.pdfgen.canvas import Canvas

from ...core.units import Size, pt
from ...typeset.text import _rl_color as color  # one memo of colours for typesetting and drawing
from ..imposition import Line, Rect

__all__ = ["Pen", "color", "shape_path"]


class Pen:
    """The canvas in millimetres, origin at the top-left corner of the page."""

    def __init__(self, canvas: Canvas, page: Size) -> None:
        self.c = canvas
        self.page = page

    def x(self, x: float) -> float:
        return pt(x)

    def y(self, y: float) -> float:
        return pt(self.page.h - y)

    def rect_pt(self, r: Rect) -> tuple[float, float, float, float]:
        return pt(r.x), pt(self.page.h - r.y - r.h), pt(r.w), pt(r.h)

    def line(self, line: Line) -> None:
        self.c.line(self.x(line.x1), self.y(line.y1), self.x(line.x2), self.y(line.y2))

    def text(self, x: float, y: float, text: str, vertical: bool = False) -> None:
        """A line of text starting at (x, y) in the current font; ``vertical``: read from
        the bottom up."""
        c = self.c
        if vertical:
            c.saveState()
            c.translate(self.x(x), self.y(y))
            c.rotate(90)
            c.drawString(0, 0, text)
            c.restoreState()
        else:
            c.drawString(self.x(x), self.y(y), text)


def shape_path(c: Canvas, shape: str, w: float, h: float, grow: float) -> Any:
    """The outline of a face of ``shape`` (round, hex, else a rectangle), grown by ``grow`` mm,
    with the face's bottom-left corner at the origin."""
    p = c.beginPath()
    if shape == "round":
        p.circle(pt(w / 2), pt(h / 2), pt(min(w, h) / 2 + grow))
    elif shape == "hex":
        cx, cy, rad = w / 2, h / 2, w / 2 + grow
        pts = [
            (cx + rad * math.cos(math.radians(a)), cy + rad * math.sin(math.radians(a)))
            for a in range(0, 360, 60)
        ]
        p.moveTo(pt(pts[0][0]), pt(pts[0][1]))
        for px_, py_ in pts[1:]:
            p.lineTo(pt(px_), pt(py_))
        p.close()
    else:
        p.rect(pt(-grow), pt(-grow), pt(w + 2 * grow), pt(h + 2 * grow))
    return p
