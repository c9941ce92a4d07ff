"""Operations: what drawing a face takes, as data (millimetres from the face's top-left), each
able to draw itself.

The face engine computes them (an element kind lays its element out as operations:
:mod:`.kinds`); the render stage gives each a :class:`Surface` and asks it to draw, in order.
An operation also says where it puts ink a mark must not cover (:meth:`Operation.ink`). This
module holds the operations every face may draw (fills, outlines, art, texts); an element kind
with an operation of its own (a track, a table, a line) keeps it in its own module. A filled
text box is a :class:`Group` of its fill and its text, which :func:`flatten` opens.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...core.units import mm, pt
from ..layout import rl_color as color
from ..text import PARAGRAPH_GAP, Fit
from .paint import clip_to, draw_vector, faded, fitted

if TYPE_CHECKING:
    from ..fonts import FontSet
    from ..markup import IconSpec

Box = tuple[float, float, float, float]  # x, y, width, height: mm from the face's top-left
Ink = list[tuple[Box, float]]  # where an operation inks the face, and how much covering it weighs
TEXT_WEIGHT = 10.0  # covering a text (a table, a track) weighs ten times a fill or an image


@dataclass(frozen=True)
class Surface:
    """Where a face's operations are drawn: a reportlab canvas whose origin is the face's
    bottom-left corner (points), and what drawing needs besides the operations."""

    canvas: Any  # reportlab.pdfgen.canvas.Canvas
    face_h: float  # mm: the operations measure y downwards from the face's top
    fonts: FontSet
    icons: dict[str, IconSpec]
    lang: str
    art: Callable[[Any, ImageOp, float], None]  # draws an image (the render stage's embedding)


class Operation:
    """One thing drawn on a face. Every operation draws itself on a :class:`Surface`; those
    with a ``box`` are turned about its centre by ``rotate`` degrees (the render stage turns
    the canvas before asking them to draw)."""

    rotate: float = 0.0
    opacity: float = 1.0  # its element's opacity: 1 draws it opaque (nothing set)

    def draw(self, s: Surface) -> None:
        raise NotImplementedError

    def ink(self) -> Ink:
        """Where it inks the face (mm boxes), with how much covering it weighs: a text, a
        table or a track :data:`TEXT_WEIGHT`, a filled box or an image 1, else nothing."""
        return []

    def parts(self) -> list[Operation]:
        """The operations it is made of, in drawing order: itself, or a group's."""
        return [self]

    def flag(self) -> str | None:
        """What a proof frames about it: "overflow", "error", "fallback" (a text), else None."""
        return None

    def frame_inset(self, w: float, h: float) -> float | None:
        """How far in from the edges of a w x h face an outline around the whole face lies
        (its border), else None."""
        return None


@dataclass
class FillOp(Operation):
    box: Box
    color: str
    radius: float = 0.0
    bleed: float = 0.0  # grow by the bleed (backgrounds)
    rotate: float = 0.0  # degrees clockwise about the box's centre (every op with a box)

    def draw(self, s: Surface) -> None:
        c = s.canvas
        x, y, bw, bh = self.box
        g = self.bleed
        with faded(c, self.opacity):
            c.setFillColor(color(self.color))
            rx, ry = pt(x - g), pt(s.face_h - y - bh - g)
            w, h = pt(bw + 2 * g), pt(bh + 2 * g)
            if self.radius > 0 and g == 0:
                c.roundRect(rx, ry, w, h, pt(self.radius), stroke=0, fill=1)
            else:
                c.rect(rx, ry, w, h, stroke=0, fill=1)

    def ink(self) -> Ink:
        return [(self.box, 1.0)] if self.bleed == 0 else []  # not the face's background


@dataclass
class StrokeOp(Operation):
    box: Box
    color: str
    width: float
    radius: float = 0.0
    rotate: float = 0.0

    def draw(self, s: Surface) -> None:
        c = s.canvas
        x, y, bw, bh = self.box
        with faded(c, self.opacity):
            c.setStrokeColor(color(self.color))
            c.setLineWidth(pt(self.width))
            bottom = s.face_h - y - bh
            if self.radius > 0:
                c.roundRect(pt(x), pt(bottom), pt(bw), pt(bh), pt(self.radius), stroke=1, fill=0)
            else:
                c.rect(pt(x), pt(bottom), pt(bw), pt(bh), stroke=1, fill=0)

    def frame_inset(self, w: float, h: float) -> float | None:
        if self.box[2] > w * 0.8 and self.box[3] > h * 0.8:
            return self.box[0] + self.width / 2
        return None


@dataclass
class ImageOp(Operation):
    box: Box
    path: Path
    bleed: float = 0.0
    width_px: int = 0
    height_px: int = 0
    art_bleed: float = 0.0  # mm of bleed already in the image
    rotate: float = 0.0
    fit: str = "cover"  # cover (cropped to the box), contain or stretch
    anchor: str = "center"  # the part cover keeps, or where contain places the image
    vector: Any = None  # an SVG's drawing (reportlab Drawing): drawn as paths
    radius: float = 0.0  # mm: the box's corners rounded, the picture clipped to them

    def draw(self, s: Surface) -> None:
        """The image as its element fits it: covering the box, centred and cropped (the art
        of the face, extended into the bleed, as the render stage embeds it), or anchored,
        contained, stretched; an SVG as vector paths. With a radius, clipped to the box's
        rounded corners."""
        c = s.canvas
        with faded(c, self.opacity):
            plain = self.fit == "cover" and self.anchor == "center"
            g = self.bleed
            x, y, bw, bh = self.box
            box = (x - g, y - g, bw + 2 * g, bh + 2 * g)
            if self.vector is None and plain:
                if self.radius <= 0:
                    s.art(c, self, s.face_h)
                    return
                c.saveState()
                clip_to(c, box, s.face_h, self.radius)
                s.art(c, self, s.face_h)
                c.restoreState()
                return
            c.saveState()
            clip_to(c, box, s.face_h, self.radius)
            if self.vector is not None:
                size = (float(self.vector.width), float(self.vector.height))
                draw_vector(c, self.vector, fitted(box, *size, self.fit, self.anchor), s.face_h)
            else:
                rect = fitted(box, self.width_px, self.height_px, self.fit, self.anchor)
                # the render stage covers the rect it is given: given one of the image's
                # own shape (or, stretched, pixels of the box's), cover is an exact fit
                px = (round(rect[2] * 1000), round(rect[3] * 1000))
                shape = px if self.fit == "stretch" else (self.width_px, self.height_px)
                exact = replace(self, box=rect, bleed=0.0, art_bleed=0.0, fit="cover")
                exact.width_px, exact.height_px = shape
                s.art(c, exact, s.face_h)
            c.restoreState()

    def ink(self) -> Ink:
        return [(self.box, 1.0)] if self.bleed == 0 else []


@dataclass
class TextOp(Operation):
    box: Box
    fit: Fit
    valign: str
    padding: float
    fallback: bool = False  # printed in the source language for lack of a translation
    rotate: float = 0.0
    error: bool = False  # its catalog entry has an error (a proof of a damaged catalog)
    shadow: tuple[Fit, float, float, float] | None = None  # fitted in its colour, dx, dy, alpha

    def draw(self, s: Surface) -> None:
        """The fitted text in its box (its shadow first, offset and faded). A text that does
        not fit (reported: text-overflow) is clipped to its box: it never prints over the
        rest of the face or past the cut. A text that fits is drawn as it always was."""
        c = s.canvas
        if self.fit.overflow is None:
            self._draw(s)
            return
        c.saveState()
        try:
            clip_to(c, self.box, s.face_h)
            self._draw(s)
        finally:
            c.restoreState()

    def _draw(self, s: Surface) -> None:
        c = s.canvas
        with faded(c, self.opacity):
            if self.shadow is not None:
                fit, dx, dy, alpha = self.shadow
                c.saveState()
                c.translate(pt(dx), -pt(dy))
                c.drawImage = _no_image  # image icons cast no shadow
                try:
                    with faded(c, alpha):
                        self._draw_fit(s, fit)
                finally:
                    del c.drawImage
                c.restoreState()
            self._draw_fit(s, self.fit)

    def _draw_fit(self, s: Surface, fit: Fit) -> None:
        """A fitted text in the box: one plain line drawn directly, else its paragraphs."""
        c = s.canvas
        x, y, bw, bh = self.box
        inner_top = y + self.padding
        free = pt(bh - 2 * self.padding) - fit.height
        top_pt = pt(s.face_h - inner_top)
        if self.valign == "middle":
            top_pt -= free / 2
        elif self.valign == "bottom":
            top_pt -= free
        width = pt(bw - 2 * self.padding)
        if fit.line is not None:  # one plain line: no Paragraph needed
            text, font, ink = fit.line
            c.setFont(font, fit.size)
            c.setFillColor(color(ink))
            left = pt(x + self.padding)
            baseline = top_pt - fit.size
            if fit.align == "center":
                c.drawCentredString(left + width / 2, baseline, text)
            elif fit.align == "right":
                c.drawRightString(left + width, baseline, text)
            else:
                c.drawString(left, baseline, text)
            return
        cursor = top_pt
        for i, para in enumerate(fit.paragraphs):
            if i:
                cursor -= fit.size * PARAGRAPH_GAP
            if abs(getattr(para, "width", -1.0) - width) > 1e-6:
                para.wrap(width, 1e6)  # measured at another width: wrap again
            ph = para.height
            para.drawOn(c, pt(x + self.padding), cursor - ph)
            cursor -= ph

    def ink(self) -> Ink:
        return [(self.lines_box(), TEXT_WEIGHT)]

    def lines_box(self) -> Box:
        """The part of the box its fitted lines fill (alignment and vertical alignment)."""
        x, y, bw, bh = self.box
        pad = self.padding
        inner_w, inner_h = bw - 2 * pad, bh - 2 * pad
        tw = min(self._line_width() or inner_w, inner_w)
        th = min(mm(self.fit.height), inner_h)
        left = {"center": (inner_w - tw) / 2, "right": inner_w - tw}.get(self.fit.align, 0.0)
        top = {"middle": (inner_h - th) / 2, "bottom": inner_h - th}.get(self.valign, 0.0)
        return (x + pad + left, y + pad + top, tw, th)

    def _line_width(self) -> float:
        """The width of a one-line text (mm); 0 for paragraphs, which may fill their box."""
        if self.fit.line is None:
            return 0.0
        from reportlab.pdfbase.pdfmetrics import stringWidth

        text, font, _ink = self.fit.line
        return mm(stringWidth(text, font, self.fit.size))

    def flag(self) -> str | None:
        if self.fit.overflow is not None:
            return "overflow"
        if self.error:
            return "error"
        return "fallback" if self.fallback else None


@dataclass
class Group(Operation):
    """Operations that belong together: a filled text box's fill and its text."""

    ops: list[Operation]

    def draw(self, s: Surface) -> None:
        for op in self.ops:
            op.draw(s)

    def ink(self) -> Ink:
        return [b for op in self.ops for b in op.ink()]

    def parts(self) -> list[Operation]:
        return list(self.ops)


Op = Operation  # the name the engine and the render stage use


def _no_image(*args: Any, **kwargs: Any) -> None:
    """What draws an image while a text's shadow is drawn: nothing."""


def flatten(ops: list[Operation]) -> list[Operation]:
    """The operations with every group opened, in drawing order."""
    return [part for op in ops for part in op.parts()]
