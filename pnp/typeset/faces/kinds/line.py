"""Lines: a straight line between two points of the face (mm or % of its sides), drawn with
the element's stroke; and the path operation lines and polygons share."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ....content.model import Element
from ....core.units import pt
from ...layout import rl_color as color
from ..ops import Group, Op, Operation, Surface
from ..paint import faded
from ..shapes import Point, centre, extent, length, turned
from .base import ElementKind, Layouter
from .base import faded as faded_op
from .gradient import gradient_op

if TYPE_CHECKING:
    from ..values import FaceCtx


@dataclass
class PathOp(Operation):
    """A line (two points) or a polygon (closed), its points already turned as drawn."""

    points: tuple[tuple[float, float], ...]  # mm, from the face's top-left
    closed: bool
    fill: str | None
    stroke: str | None
    width: float  # of the stroke, mm

    def draw(self, s: Surface) -> None:
        """A line, or a polygon filled and outlined (butt ends, mitred corners)."""
        c = s.canvas
        p = c.beginPath()
        (x0, y0), *rest = self.points
        p.moveTo(pt(x0), pt(s.face_h - y0))
        for x, y in rest:
            p.lineTo(pt(x), pt(s.face_h - y))
        if self.closed:
            p.close()
        with faded(c, self.opacity):
            if self.fill is not None:
                c.setFillColor(color(self.fill))
            if self.stroke is not None:
                c.setStrokeColor(color(self.stroke))
                c.setLineWidth(pt(self.width))
            c.drawPath(p, stroke=int(self.stroke is not None), fill=int(self.fill is not None))


class Line(ElementKind):
    """A straight line [x1, y1, x2, y2]."""

    key = "line"
    noun = "line"
    placed_by = "line"
    shape = "line"
    closed = False

    def describe(self, el: Element) -> str:
        return self.noun  # a line has no fill

    def covers(self, el: Element) -> bool:
        return False  # a line hides nothing

    def points(self, el: Element, w: float, h: float) -> list[Point] | None:
        if el.line is None:
            return None
        x1, y1, x2, y2 = el.line
        return [(length(x1, w), length(y1, h)), (length(x2, w), length(y2, h))]

    def layout(self, el: Element, fc: FaceCtx, eng: Layouter) -> Op | None:
        """The path, turned as the element says (about the centre of its extent): a line in
        its stroke (the text colour by default); a polygon filled, and outlined when asked
        (or, given neither, in the text colour)."""
        try:
            points = self.points(el, fc.w, fc.h)
        except (TypeError, ValueError):
            return None
        if points is None:
            return None
        points = turned(points, centre(points), el.rotate)
        fill = eng.paint(el, "fill", fc, None) if self.closed else None
        if el.stroke is not None:
            stroke = eng.paint(el, "stroke", fc, None)
        elif self.closed and (el.fill is not None or el.gradient is not None):
            stroke = None  # a filled polygon: no outline unless asked
        else:
            stroke = fc.palette["text"]
        gradient = gradient_op(el, extent(points), fc, tuple(points), eng.plain or not self.closed)
        if gradient is not None:
            fill = None
        if fill is None and stroke is None:
            return faded_op(gradient, el)
        path = PathOp(tuple(points), self.closed, fill, stroke, el.stroke_width)
        return faded_op(Group([gradient, path]) if gradient is not None else path, el)
