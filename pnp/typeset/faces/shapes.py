"""Geometry of a face in mm: an element's box, points turned by ``rotate:``, polygons clipped.

The engine draws what these functions compute and validation's geometry rules measure the same
outlines (:func:`.kinds.outline`), so a rotated, drawn or polygonal element is checked where it
is printed. Rotation is clockwise on the printed face (y grows downwards), about the centre of
the element's box, or of the extent of its line or polygon.
"""

from __future__ import annotations

import math
from typing import Any

from ...content.model import resolve_box

Point = tuple[float, float]
Box = tuple[float, float, float, float]


def length(value: float | str, full: float) -> float:
    """A length as written (mm, or "N%" of ``full``) in mm."""
    return float(value[:-1]) * full / 100 if isinstance(value, str) else float(value)


def element_box(el: Any, w: float, h: float) -> Box | None:
    """An element's box in mm on a face of w x h mm, or None when it has no usable box (a line,
    a polygon, or a box the schema refused)."""
    box = el.box
    if not isinstance(box, tuple) or len(box) != 4:
        return None
    try:
        return resolve_box(box, w, h)
    except (TypeError, ValueError):
        return None


def centre(points: list[Point]) -> Point:
    """The centre of the extent of ``points``: what a line or polygon turns about."""
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2


def box_corners(box: Box) -> list[Point]:
    x, y, bw, bh = box
    return [(x, y), (x + bw, y), (x + bw, y + bh), (x, y + bh)]


def turned(points: list[Point], about: Point, degrees: float) -> list[Point]:
    """``points`` turned clockwise on the face (y downwards) by ``degrees`` about ``about``."""
    if not degrees % 360:
        return list(points)
    a = math.radians(degrees)
    cos, sin = math.cos(a), math.sin(a)
    cx, cy = about
    return [
        (cx + (x - cx) * cos - (y - cy) * sin, cy + (x - cx) * sin + (y - cy) * cos)
        for x, y in points
    ]


def extent(points: list[Point]) -> Box:
    """The upright box around ``points``: x, y, width, height."""
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)


def clip(subject: list[Point], window: list[Point]) -> list[Point]:
    """The part of polygon ``subject`` inside the convex polygon ``window``
    (Sutherland-Hodgman); empty when they do not meet."""
    out = list(subject)
    n = len(window)
    orientation = _signed_area(window)
    for i in range(n):
        if not out:
            break
        a, b = window[i], window[(i + 1) % n]
        inputs, out = out, []
        for j, p in enumerate(inputs):
            q = inputs[(j + 1) % len(inputs)]
            p_in = _side(a, b, p) * orientation >= 0
            q_in = _side(a, b, q) * orientation >= 0
            if p_in:
                out.append(p)
            if p_in != q_in:
                out.append(_crossing(a, b, p, q))
    return out


def _side(a: Point, b: Point, p: Point) -> float:
    return (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])


def _signed_area(points: list[Point]) -> float:
    n = len(points)
    return sum(
        points[i][0] * points[(i + 1) % n][1] - points[(i + 1) % n][0] * points[i][1]
        for i in range(n)
    )


def _crossing(a: Point, b: Point, p: Point, q: Point) -> Point:
    """Where segment p-q crosses the line through a and b."""
    sp, sq = _side(a, b, p), _side(a, b, q)
    t = sp / (sp - sq) if sp != sq else 0.0
    return p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t


def spans(points: list[Point], frame: list[Point]) -> tuple[float, float]:
    """How far ``points`` reach along the two sides of the rectangle ``frame`` (its corners in
    order): for an upright frame, their width and height."""
    (x0, y0), (x1, y1), _, (x3, y3) = frame
    ux, uy = x1 - x0, y1 - y0
    vx, vy = x3 - x0, y3 - y0
    lu, lv = math.hypot(ux, uy) or 1.0, math.hypot(vx, vy) or 1.0
    us = [((px - x0) * ux + (py - y0) * uy) / lu for px, py in points]
    vs = [((px - x0) * vx + (py - y0) * vy) / lv for px, py in points]
    return max(us) - min(us), max(vs) - min(vs)
