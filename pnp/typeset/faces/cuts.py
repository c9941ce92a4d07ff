"""Cut lines: where a face is cut out, and how far inside it its printed glyphs lie.

A face is cut along its rectangle (cards, boards, square tokens), its circle (round tokens) or
its hexagon (hexagonal tokens, corners left and right). Nothing a player reads may lie within
:data:`CLEARANCE` mm of that line: the scissors wander. :class:`Cut` measures how far a point
lies inside the cut line and which stretch of a row of text stays clear of it;
:func:`text_ink` gives where a text's glyphs lie on the face: its lines as wide as they are,
from the font's ascent to its descent, turned as the element is (a track's and a table's
operations say where theirs lie). Lengths are millimetres from the face's top-left corner.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...core.units import mm, pt
from ..text import PARAGRAPH_GAP
from .ops import TextOp
from .shapes import turned

CLEARANCE = 1.5  # mm between any glyph and the cut line
SQRT3 = math.sqrt(3.0)


@dataclass(frozen=True)
class Zone:
    """How far inside the cut line what a player reads must lie, and whose rule that is: the
    home copy's :data:`CLEARANCE` (rule cut-clearance, reported at the text), or a
    print-on-demand shop's safe zone (``shop`` names it; rule safe-zone, reported at the
    layout element, since the fix is in the layout and it is the same on every face)."""

    clearance: float = CLEARANCE
    shop: str = ""  # the profile's name; "" for the home copy
    tolerance: float = 0.0  # mm the shop's cut may wander

    def where(self, reached: float) -> str:
        """What a glyph ``reached`` mm inside the cut line falls into."""
        if reached < self.tolerance:
            return f"{self.shop}'s cut tolerance ({self.tolerance:.3g} mm): it may be cut off"
        return f"{self.shop}'s safe zone ({self.clearance:.3g} mm inside the trim)"


HOME = Zone()

Box = tuple[float, float, float, float]  # x, y, width, height (mm)
Point = tuple[float, float]


@dataclass(frozen=True)
class Cut:
    """A face's cut line: ``rect`` (the trim), ``round`` (the circle inscribed in the face) or
    ``hex`` (the hexagon ``w`` across its corners, ``h`` across its flat top and bottom)."""

    shape: str
    w: float
    h: float

    @property
    def name(self) -> str:
        return {"round": "cut circle", "hex": "cut hexagon"}.get(self.shape, "trim edge")

    def inside(self, x: float, y: float) -> float:
        """How far (mm) the point lies inside the cut line; negative outside it."""
        cx, cy = self.w / 2, self.h / 2
        if self.shape == "round":
            return min(self.w, self.h) / 2 - math.hypot(x - cx, y - cy)
        if self.shape == "hex":
            dx, dy = abs(x - cx), abs(y - cy)
            apothem = self.h / 2
            # the flat top and bottom, and the slanted sides (normals at 30 degrees)
            return apothem - max(dy, dx * SQRT3 / 2 + dy / 2)
        return min(x, self.w - x, y, self.h - y)

    def clearance(self, points: list[Point]) -> float:
        """The least distance inside the cut line of a convex shape given by its corners: the
        cut shapes are convex, so the nearest point of the shape is one of its corners."""
        return min(self.inside(x, y) for x, y in points)

    def rows(self, margin: float) -> tuple[float, float]:
        """The top and bottom of the area ``margin`` mm inside the cut line."""
        if self.shape == "round":
            r = min(self.w, self.h) / 2 - margin
            return self.h / 2 - r, self.h / 2 + r
        if self.shape == "hex":
            a = self.h / 2 - margin
            return self.h / 2 - a, self.h / 2 + a
        return margin, self.h - margin

    def band(self, y0: float, y1: float, margin: float) -> tuple[float, float] | None:
        """From where to where a row of glyphs spanning ``y0``..``y1`` may reach and stay
        ``margin`` mm inside the cut line; None when no part of that row can."""
        top, bottom = self.rows(margin)
        if y0 < top - 1e-9 or y1 > bottom + 1e-9:
            return None
        cx, cy = self.w / 2, self.h / 2
        dy = max(abs(y0 - cy), abs(y1 - cy))
        if self.shape == "round":
            r = min(self.w, self.h) / 2 - margin
            half = math.sqrt(max(r * r - dy * dy, 0.0))
        elif self.shape == "hex":
            corner = (self.h / 2 - margin) * 2 / SQRT3  # the inner hexagon's corner radius
            half = corner - dy / SQRT3
        else:
            return margin, self.w - margin
        return cx - half, cx + half


def cut_of(owner: Any, w: float, h: float) -> Cut:
    """The cut line of a face of ``owner`` (a token set cuts round or hexagonal tokens)."""
    shape = getattr(owner, "shape", "rect")
    return Cut(shape if shape in ("round", "hex") else "rect", w, h)


def box_clear(cut: Cut, box: Box, rotate: float, margin: float) -> bool:
    """Whether the whole box, as turned, lies ``margin`` mm or more inside the cut line."""
    return cut.clearance(_corners(box, rotate)) >= margin - 1e-9


def _corners(box: Box, rotate: float) -> list[Point]:
    x, y, w, h = box
    points = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
    return turned(points, (x + w / 2, y + h / 2), rotate)


IMAGE_REACH = (0.87, 0.19)  # an inline image icon: 1.05 of the size, 0.18 of it below


@functools.lru_cache(maxsize=256)
def _glyphs(font: str) -> Callable[[str], tuple[float, float] | None]:
    from reportlab.pdfbase.pdfmetrics import getFont

    from ...compat.reportlab import glyph_heights

    heights: Callable[[str], tuple[float, float] | None] = glyph_heights(getFont(font))
    return heights


@functools.lru_cache(maxsize=256)
def _extents(font: str) -> tuple[float, float]:
    """The font's ascent and descent as fractions of its size (the descent positive): what a
    glyph whose outline is not known is taken to reach."""
    from reportlab.pdfbase.pdfmetrics import getAscentDescent

    ascent, descent = getAscentDescent(font, 1000.0)
    return max(float(ascent), 750.0) / 1000.0, max(-float(descent), 200.0) / 1000.0


@functools.lru_cache(maxsize=65_536)
def reach(font: str, text: str) -> tuple[float, float]:
    """How far the glyphs of ``text`` in ``font`` reach above and below the baseline, as
    fractions of the size (0, 0 for blank text): their outlines' bounding boxes."""
    heights = _glyphs(font)
    up = down = 0.0
    for char in set(text):
        found = heights(char)
        if found is None:  # not in the font's outlines: its ascent and descent
            a, d = _extents(font)
            found = (a * 1000.0, -d * 1000.0)
        up = max(up, found[0] / 1000.0)
        down = max(down, -found[1] / 1000.0)
    return up, down


def _para_reach(para: Any) -> tuple[float, float]:
    """How far a paragraph's glyphs and icons reach above and below its baselines."""
    from ..layout import IMAGE, ShapedParagraph

    parts: list[tuple[str, str, bool]]
    if isinstance(para, ShapedParagraph):
        parts = [(p.font, p.logical, p.kind == IMAGE) for p in para.pieces]
    else:
        parts = [
            (getattr(f, "fontName", ""), getattr(f, "text", ""), bool(getattr(f, "cbDefn", None)))
            for f in getattr(para, "frags", [])
        ]
    up = down = 0.0
    for font, text, image in parts:
        if image:
            u, d = IMAGE_REACH
        elif font and text:
            u, d = reach(font, text)
        else:
            continue
        up, down = max(up, u), max(down, d)
    return up, down


@dataclass(frozen=True)
class Row:
    """One printed line of a text: from ``left`` to ``right`` and ``top`` to ``bottom``
    (mm on the face, the element not yet turned)."""

    left: float
    right: float
    top: float
    bottom: float

    def box(self) -> Box:
        return self.left, self.top, self.right - self.left, self.bottom - self.top


def text_rows(op: TextOp) -> list[Row]:
    """Where the lines of a fitted text lie in its box, as :meth:`TextOp.draw` places them:
    its vertical alignment, each line's width and alignment."""
    x, y, bw, bh = op.box
    fit = op.fit
    inner_w, inner_h = bw - 2 * op.padding, bh - 2 * op.padding
    free = inner_h - mm(fit.height)
    shift = {"middle": free / 2, "bottom": free}.get(op.valign, 0.0)
    top = y + op.padding + shift  # of the text block
    left = x + op.padding
    rows: list[Row] = []
    if fit.line is not None:
        text, font, _ink = fit.line
        from reportlab.pdfbase.pdfmetrics import stringWidth

        width = mm(stringWidth(text, font, fit.size))
        start = {"center": (inner_w - width) / 2, "right": inner_w - width}.get(fit.align, 0.0)
        up, down = reach(font, text)
        base = top + mm(fit.size)
        rows.append(
            Row(
                left + start,
                left + start + width,
                base - mm(up * fit.size),
                base + mm(down * fit.size),
            )
        )
        return rows
    cursor = top
    for i, para in enumerate(fit.paragraphs):
        if i:
            cursor += mm(fit.size * PARAGRAPH_GAP)
        lead = mm(para.style.leading)
        up, down = (mm(v * fit.size) for v in _para_reach(para))
        for n, (start, end) in enumerate(_spans(para, pt(inner_w))):
            if end - start > 1e-6 and up + down > 0:
                base = cursor + mm(fit.size) + n * lead
                rows.append(Row(left + mm(start), left + mm(end), base - up, base + down))
        cursor += mm(para.height)
    return rows


def _spans(para: Any, width: float) -> list[tuple[float, float]]:
    """Each line of a wrapped paragraph: where its glyphs start and end (points from the
    paragraph's left), by its alignment."""
    from reportlab.lib.enums import TA_CENTER, TA_JUSTIFY, TA_RIGHT

    from ...compat.reportlab import wrapped_lines
    from ..layout import ShapedParagraph

    if abs(getattr(para, "width", -1.0) - width) > 1e-6:
        para.wrap(width, 1e6)  # as the render stage does
    align = para.style.alignment
    if isinstance(para, ShapedParagraph):
        laid = para._lines(width).lines
        rtl = para.rtl
        extras = [(width - ln.width, ln.hard) for ln in laid]
    else:
        lines = wrapped_lines(para)
        if lines is None:  # not broken into lines: as wide as the box, every line
            count = max(1, round(para.height / para.style.leading))
            return [(0.0, width)] * count
        rtl = False
        extras = [(ln[0] if isinstance(ln, tuple) else ln.extraSpace, False) for ln in lines]
    out = []
    last = len(extras) - 1
    for i, (extra, hard) in enumerate(extras):
        if align == TA_CENTER:
            start = extra / 2
        elif align == TA_JUSTIFY and i < last and not hard and extra > 0:
            out.append((0.0, width))
            continue
        else:
            start = extra if (align == TA_RIGHT) != rtl else 0.0
        out.append((start, start + width - extra))
    return out


def text_ink(op: TextOp) -> list[list[Point]]:
    """The corners of each printed line of a text, as turned on the face. A text that does
    not fit is printed clipped to its box (:meth:`TextOp.draw`): only the part of a line
    inside the box is ink."""
    boxes = [row.box() for row in text_rows(op)]
    if op.fit.overflow is not None:
        boxes = [b for b in (_within(row, op.box) for row in boxes) if b is not None]
    return [turned_box(box, op.box, op.rotate) for box in boxes]


def _within(box: Box, clip: Box) -> Box | None:
    """The part of ``box`` inside ``clip``; None when they do not overlap."""
    left, top = max(box[0], clip[0]), max(box[1], clip[1])
    right = min(box[0] + box[2], clip[0] + clip[2])
    bottom = min(box[1] + box[3], clip[1] + clip[3])
    if right <= left or bottom <= top:
        return None
    return left, top, right - left, bottom - top


def turned_box(box: Box, about: Box, rotate: float) -> list[Point]:
    """The corners of ``box`` turned by ``rotate`` about the centre of ``about``."""
    x, y, w, h = box
    ax, ay, aw, ah = about
    points = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
    return turned(points, (ax + aw / 2, ay + ah / 2), rotate)
