"""Geometry of a sheet: rectangles and lines in millimetres, and where a back lands.

Coordinates are millimetres from the top-left corner of the page. :func:`mirror` puts a back
behind its front once the sheet is flipped on its long or short edge.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ...core.units import Size

Duplex = Literal["long", "short", "none"]


@dataclass(frozen=True, slots=True)
class Rect:
    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def bottom(self) -> float:
        return self.y + self.h

    def grow(self, d: float) -> Rect:
        return Rect(self.x - d, self.y - d, self.w + 2 * d, self.h + 2 * d)

    def shift(self, dx: float, dy: float) -> Rect:
        return Rect(self.x + dx, self.y + dy, self.w, self.h)

    def overlaps(self, other: Rect, eps: float = 1e-6) -> bool:
        return (
            self.x < other.right - eps
            and other.x < self.right - eps
            and self.y < other.bottom - eps
            and other.y < self.bottom - eps
        )

    def contains(self, x: float, y: float, eps: float = 1e-6) -> bool:
        return self.x - eps <= x <= self.right + eps and self.y - eps <= y <= self.bottom + eps


@dataclass(frozen=True, slots=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float

    def bbox(self) -> Rect:
        return Rect(
            min(self.x1, self.x2),
            min(self.y1, self.y2),
            abs(self.x2 - self.x1),
            abs(self.y2 - self.y1),
        )


def mirror(rect: Rect, page: Size, duplex: Duplex) -> Rect:
    """Where the back of ``rect`` goes so that it lands behind the front after the flip.

    Long-edge binding turns a portrait sheet around its vertical axis (mirror x) and a landscape
    sheet around its horizontal axis (mirror y); short-edge binding does the opposite. Without
    duplex the player turns the sheet of backs over like the page of a book, from left to
    right, and glues it behind its fronts: mirror x.
    """
    portrait = page.h >= page.w
    flip_x = duplex == "none" or (duplex == "long") == portrait
    if flip_x:
        return Rect(page.w - rect.x - rect.w, rect.y, rect.w, rect.h)
    return Rect(rect.x, page.h - rect.y - rect.h, rect.w, rect.h)


def mirror_line(line: Line, page: Size, duplex: Duplex) -> Line:
    a = mirror(Rect(line.x1, line.y1, 0, 0), page, duplex)
    b = mirror(Rect(line.x2, line.y2, 0, 0), page, duplex)
    return Line(a.x, a.y, b.x, b.y)
