"""Polygons: the corners of a shape (mm or % of the face's sides), filled and outlined."""

from __future__ import annotations

from ....content.model import Element
from ..shapes import Point, length
from .line import Line


class Polygon(Line):
    """A polygon [[x, y], [x, y], [x, y], ...], filled with fill:, outlined with stroke:."""

    key = "points"
    noun = "polygon"
    placed_by = "points"
    shape = "polygon"
    closed = True

    def describe(self, el: Element) -> str:
        return f"filled {self.noun}" if self.fills(el) else self.noun

    def covers(self, el: Element) -> bool:
        return self.fills(el)

    def points(self, el: Element, w: float, h: float) -> list[Point] | None:
        if el.points is None:
            return None
        return [(length(x, w), length(y, h)) for x, y in el.points]
