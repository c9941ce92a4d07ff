"""What operations paint with besides plain colours: opacity, linear gradients, an image fitted
into its box (cover, contain, stretch, anchored), SVG drawn as vectors.

Everything here draws on the canvas of a :class:`~.ops.Surface` in points, from millimetres
measured down from the face's top (as every operation does); nothing here changes a canvas
when the element asks for nothing new (an opacity of 1 sets no transparency), so faces that use
none of it print as they always did.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator
from typing import Any

from ...compat.reportlab import colours_at_alpha, complete_forms, draw_drawing
from ...core.units import pt

Point = tuple[float, float]
Box = tuple[float, float, float, float]  # x, y, width, height: mm from the face's top-left

# where an anchored image sits in its box: the share of the free room left of it and above it
ANCHORS = {
    "center": (0.5, 0.5),
    "top": (0.5, 0.0),
    "bottom": (0.5, 1.0),
    "left": (0.0, 0.5),
    "right": (1.0, 0.5),
    "top-left": (0.0, 0.0),
    "top-right": (1.0, 0.0),
    "bottom-left": (0.0, 1.0),
    "bottom-right": (1.0, 1.0),
}


@contextlib.contextmanager
def faded(canvas: Any, opacity: float) -> Iterator[None]:
    """Draw the block at ``opacity`` (fills, outlines, text and images alike); at 1, the
    canvas is left as it is."""
    if opacity >= 1:
        yield
        return
    complete_forms()
    canvas.saveState()
    canvas.setFillAlpha(opacity)  # images and shadings take the alpha set last
    canvas.setStrokeAlpha(opacity)
    try:
        with colours_at_alpha(canvas, opacity):  # colours would set it back to 1
            yield
    finally:
        canvas.restoreState()


def fitted(box: Box, width: float, height: float, fit: str, anchor: str) -> Box:
    """Where an image of ``width`` x ``height`` (any unit) is drawn for a box: the box itself
    (stretch), or the image's own shape scaled to cover the box (cover: cropped to it) or to
    lie inside it (contain), placed by ``anchor``."""
    x, y, bw, bh = box
    if fit == "stretch" or width <= 0 or height <= 0:
        return box
    scale = max(bw / width, bh / height) if fit == "cover" else min(bw / width, bh / height)
    dw, dh = width * scale, height * scale
    fx, fy = ANCHORS.get(anchor, (0.5, 0.5))
    return (x + (bw - dw) * fx, y + (bh - dh) * fy, dw, dh)


def clip_to(canvas: Any, box: Box, face_h: float, radius: float = 0.0) -> None:
    """Clip what follows to ``box`` (mm from the face's top-left), its corners rounded."""
    x, y, bw, bh = box
    p = canvas.beginPath()
    if radius > 0:
        p.roundRect(pt(x), pt(face_h - y - bh), pt(bw), pt(bh), pt(radius))
    else:
        p.rect(pt(x), pt(face_h - y - bh), pt(bw), pt(bh))
    canvas.clipPath(p, stroke=0, fill=0)


def draw_vector(canvas: Any, drawing: Any, rect: Box, face_h: float) -> None:
    """An SVG's drawing scaled into ``rect`` (mm), as vector paths."""
    complete_forms()  # an SVG may hold gradients and transparency
    x, y, w, h = rect
    dw, dh = float(drawing.width) or 1.0, float(drawing.height) or 1.0
    canvas.saveState()
    canvas.translate(pt(x), pt(face_h - y - h))
    canvas.scale(pt(w) / dw, pt(h) / dh)
    draw_drawing(canvas, drawing)  # at the opacity of the block it is in (faded)
    canvas.restoreState()


def gradient_line(box: Box, angle: float) -> tuple[Point, Point]:
    """The start and end (mm) of a gradient across ``box`` at ``angle`` degrees clockwise from
    left-to-right: through the box's centre, as long as the box reaches in that direction, so
    the first colour is at one corner or side and the last at the opposite one."""
    x, y, w, h = box
    a = math.radians(angle)
    dx, dy = math.cos(a), math.sin(a)
    half = (abs(w * dx) + abs(h * dy)) / 2
    cx, cy = x + w / 2, y + h / 2
    return (cx - dx * half, cy - dy * half), (cx + dx * half, cy + dy * half)
