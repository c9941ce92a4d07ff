"""A track around its box (``direction: around``): one numbered cell per value, clockwise
along the box's edge from its top-left corner (a score track around a board), the numbers
upright or each turned to face outwards, readable from its own edge of the board.

The four corners are cells; the other cells share out each side's length, as many on a side
as its length allows (the longer sides take more), all ``depth`` mm deep (by default about
as deep as they are long). A language the game mirrors counts the other way round, from the
top-right corner.
"""

from __future__ import annotations

from dataclasses import dataclass

from ....core.units import mm, pt
from ...layout import rl_color as color
from ..ops import TEXT_WEIGHT, Box, Ink, Operation, Surface
from ..paint import faded
from ..shapes import Point, box_corners, turned

# the side a cell lies on, and how far (degrees clockwise) a number turns there to face out
OUTWARD = {"top": 180.0, "right": 270.0, "bottom": 0.0, "left": 90.0}
MIN_CELLS = 4  # the corners


@dataclass(frozen=True)
class Cell:
    box: Box
    side: str  # top, right, bottom or left: the edge of the box it lies along


def default_depth(box: Box, n: int) -> float:
    """A depth that makes the cells about square: the cells' total length along the edge,
    2 (w + h) - 8 d, shared by n - 4 cells between the corners, each d long."""
    _x, _y, w, h = box
    return min(2 * (w + h) / (n + 4), min(w, h) / 3)


def _share(count: int, lengths: list[float]) -> list[int]:
    """``count`` cells shared among sides of ``lengths`` (largest remainders)."""
    total = sum(lengths) or 1.0
    exact = [count * length / total for length in lengths]
    shares = [int(e) for e in exact]
    order = sorted(range(len(lengths)), key=lambda i: (shares[i] - exact[i], i))
    for i in order[: count - sum(shares)]:
        shares[i] += 1
    return shares


def cells(box: Box, n: int, depth: float, mirrored: bool = False) -> list[Cell]:
    """The ``n`` cells of a track around ``box``, in the order of its values: clockwise from
    the top-left corner (mirrored: counter-clockwise from the top-right corner)."""
    x, y, w, h = box
    d = max(min(depth, w / 2, h / 2), 0.01)
    if n < MIN_CELLS:
        return []
    top, right, bottom, left = _share(n - 4, [w - 2 * d, h - 2 * d, w - 2 * d, h - 2 * d])
    out = [Cell((x, y, d, d), "top")]
    out += _run(x + d, y, w - 2 * d, d, top, "top", along_x=True)
    out.append(Cell((x + w - d, y, d, d), "right"))
    out += _run(x + w - d, y + d, d, h - 2 * d, right, "right", along_x=False)
    out.append(Cell((x + w - d, y + h - d, d, d), "bottom"))
    out += _run(x + d, y + h - d, w - 2 * d, d, bottom, "bottom", along_x=True)[::-1]
    out.append(Cell((x, y + h - d, d, d), "left"))
    out += _run(x, y + d, d, h - 2 * d, left, "left", along_x=False)[::-1]
    if mirrored:
        swap = {"left": "right", "right": "left"}
        out = [Cell((2 * x + w - c.box[0] - c.box[2], *c.box[1:]), swap.get(c.side, c.side))
               for c in out]  # fmt: skip
    return out


def _run(x: float, y: float, w: float, h: float, k: int, side: str, along_x: bool) -> list[Cell]:
    """``k`` cells sharing the strip (x, y, w, h) along its length, left to right or top to
    bottom."""
    if k <= 0:
        return []
    step = (w if along_x else h) / k
    return [
        Cell((x + i * step, y, step, h) if along_x else (x, y + i * step, w, step), side)
        for i in range(k)
    ]


def turn_of(cell: Cell, numbers: str) -> float:
    """How far (degrees clockwise) a cell's number turns: 0 upright, else to face out."""
    return OUTWARD[cell.side] if numbers == "outward" else 0.0


@dataclass
class RingOp(Operation):
    """A track around its box: numbered cells along its edge."""

    box: Box
    labels: list[str]
    depth: float
    numbers: str  # upright or outward
    font: str  # the reportlab font name of its numbers
    size: float
    color: str
    fill: str | None
    stroke: str | None  # None: cells without outlines
    rotate: float = 0.0
    mirrored: bool = False

    def cells(self) -> list[Cell]:
        return cells(self.box, len(self.labels), self.depth, self.mirrored)

    def number_size(self, cell: Cell) -> float:
        return min(self.size, pt(min(cell.box[2], cell.box[3])) * 0.6)

    def draw(self, s: Surface) -> None:
        c = s.canvas
        with faded(c, self.opacity):
            c.saveState()
            c.setLineWidth(0.6)
            outline = int(self.stroke is not None)
            if self.stroke is not None:
                c.setStrokeColor(color(self.stroke))
            for cell, label in zip(self.cells(), self.labels, strict=False):
                x, y, w, h = cell.box
                rx, ry = pt(x), pt(s.face_h - y - h)
                if self.fill:
                    c.setFillColor(color(self.fill))
                    c.rect(rx, ry, pt(w), pt(h), stroke=outline, fill=1)
                elif outline:
                    c.rect(rx, ry, pt(w), pt(h), stroke=1, fill=0)
                size = self.number_size(cell)
                c.saveState()
                c.translate(rx + pt(w) / 2, ry + pt(h) / 2)
                c.rotate(-turn_of(cell, self.numbers))
                c.setFont(self.font, size)
                c.setFillColor(color(self.color))
                c.drawCentredString(0, -size * 0.35, label)
                c.restoreState()
            c.restoreState()

    def ink(self) -> Ink:
        return [(cell.box, TEXT_WEIGHT) for cell in self.cells()]

    def numbers_at(self) -> list[list[Point]]:
        """The corners of each number, as turned in its cell and with the element."""
        from reportlab.pdfbase.pdfmetrics import stringWidth

        from ..cuts import reach

        x, y, w, h = self.box
        about = (x + w / 2, y + h / 2)
        out = []
        for cell, label in zip(self.cells(), self.labels, strict=False):
            cx, cy = cell.box[0] + cell.box[2] / 2, cell.box[1] + cell.box[3] / 2
            size = self.number_size(cell)
            width = mm(stringWidth(label, self.font, size))
            up, down = reach(self.font, label)
            baseline = cy + mm(size * 0.35)
            box = (cx - width / 2, baseline - mm(up * size), width, mm((up + down) * size))
            corners = turned(box_corners(box), (cx, cy), turn_of(cell, self.numbers))
            out.append(turned(corners, about, self.rotate))
        return out
