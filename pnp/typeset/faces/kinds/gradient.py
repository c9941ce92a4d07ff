"""Linear gradients: an element's ``gradient:`` filling its box or polygon in place of
``fill:``, shared by the kinds that fill (a box, a text's box, a polygon)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ....compat.reportlab import complete_forms
from ....content.model import Element
from ....core.units import pt
from ...layout import rl_color as color
from ..colours import NONE, read_colour
from ..ops import Box, Ink, Operation, Surface
from ..paint import clip_to, faded, gradient_line
from ..shapes import Point

if TYPE_CHECKING:
    from ..values import FaceCtx


@dataclass
class GradientOp(Operation):
    """A box (its corners rounded) or a polygon filled with a linear gradient."""

    box: Box  # the box, or a polygon's extent
    colors: tuple[str, ...]
    angle: float
    radius: float = 0.0
    points: tuple[Point, ...] | None = None  # a polygon's corners, turned as drawn
    rotate: float = 0.0

    def draw(self, s: Surface) -> None:
        c = s.canvas
        complete_forms()  # a face drawn more than once is a form: it must list its shading
        with faded(c, self.opacity):
            c.saveState()
            if self.points is None:
                clip_to(c, self.box, s.face_h, self.radius)
            else:
                p = c.beginPath()
                (x0, y0), *rest = self.points
                p.moveTo(pt(x0), pt(s.face_h - y0))
                for x, y in rest:
                    p.lineTo(pt(x), pt(s.face_h - y))
                p.close()
                c.clipPath(p, stroke=0, fill=0)
            (ax, ay), (bx, by) = gradient_line(self.box, self.angle)
            c.linearGradient(
                pt(ax),
                pt(s.face_h - ay),
                pt(bx),
                pt(s.face_h - by),
                [color(v) for v in self.colors],
                extend=True,
            )
            c.restoreState()

    def ink(self) -> Ink:
        return [(self.box, 1.0)]


def gradient_op(
    el: Element, box: Box, fc: FaceCtx, points: tuple[Point, ...] | None = None, plain: bool = False
) -> GradientOp | None:
    """The element's gradient over ``box`` (or the polygon ``points``), its colours read as
    the renderer reads colours (the style's names too); None without a gradient, on a plain
    face, or with fewer than two colours that are colours (validation reports the others)."""
    if el.gradient is None or plain:
        return None
    stops = [read_colour(fc.palette.get(v, v)) for v in el.gradient.colors]
    colors = tuple(c for c in stops if c is not None and c != NONE)
    if len(colors) < 2:
        return None
    return GradientOp(box, colors, el.gradient.angle, el.radius if points is None else 0.0, points)
