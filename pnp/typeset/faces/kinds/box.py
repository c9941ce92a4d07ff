"""The plain box: an element that draws nothing but its box's fill and outline."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ....content.model import Element
from ..ops import Box as BoxT
from ..ops import FillOp, Group, Op, StrokeOp
from .base import ElementKind, Layouter
from .gradient import gradient_op

if TYPE_CHECKING:
    from ..values import FaceCtx


def box_ops(el: Element, box: BoxT, fc: FaceCtx, eng: Layouter) -> list[Op]:
    """A box's fill (or gradient) and outline, as the element paints them on this face."""
    out: list[Op] = []
    gradient = gradient_op(el, box, fc, plain=eng.plain)
    if gradient is not None:
        out.append(gradient)
    elif el.fill and (fill := eng.paint(el, "fill", fc, None)):
        out.append(FillOp(box, fill, el.radius))
    if el.stroke and (stroke := eng.paint(el, "stroke", fc, None)):
        out.append(StrokeOp(box, stroke, el.stroke_width, el.radius))
    return out


def grouped(ops: list[Op]) -> Op | None:
    """Nothing, one operation, or a group drawn together."""
    if not ops:
        return None
    return Group(ops) if len(ops) > 1 else ops[0]


class Box(ElementKind):
    """A coloured box (fill:, stroke:, radius:), for panels and frames behind texts."""

    def in_box(self, el: Element, box: BoxT, fc: FaceCtx, eng: Layouter) -> Op | None:
        return grouped(box_ops(el, box, fc, eng))
