"""Drawing a face: its operations (fills, strokes, art, texts, tracks, tables, lines and
polygons) on the canvas, each turned about its box's centre when its element is rotated.

The face engine (:mod:`pnp.typeset.faces`) computes the operations and fits the texts; this
module only follows them. A face is drawn with its bottom-left corner at the origin, clipped to
its shape; on proofs, texts that overflow or fell back to the source language are framed.
"""

from __future__ import annotations

from typing import Any

from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas

from ...core.units import pt
from ...typeset.faces import (
    FillOp,
    ImageOp,
    Op,
    PathOp,
    StrokeOp,
    TableOp,
    TextOp,
    TrackOp,
    build_table,
    flatten,
)
from ...typeset.scripts import is_rtl
from ...typeset.text import PARAGRAPH_GAP
from ..imposition import Slot
from .art import draw_art
from .base import RendererBase
from .pen import Pen, color, shape_path


class FaceDrawing(RendererBase):
    """The renderer's part that draws faces."""

    def _form_key(self, slot: Slot) -> Any:
        item = slot.item
        return (
            self.engine.lang,
            id(item.face),
            item.side,
            slot.rect.w,
            slot.rect.h,
            slot.bleed,
            item.shape,
        )

    def slot(self, pen: Pen, slot: Slot) -> None:
        """The face in a slot: placed from its form when the document uses it more than once;
        a shared back plain with ``--ink-saver`` (its texts and lines, no fills or art)."""
        item = slot.item
        if item.face is None:
            return
        key = self._form_key(slot)
        c = pen.c
        r = slot.rect

        def operations() -> list[Op]:  # computed only when the face is drawn
            assert item.face is not None
            face_ops = self.engine.ops(
                item.face, item.owner, item.card, item.side, r.w, r.h, slot.bleed, plain
            )
            return flatten(face_ops)

        plain = self._plain(slot)
        c.saveState()
        _place(c, pen, slot)
        if self.form_uses.get(key, 0) > 1:
            name = self.forms.get(key)
            if name is None:
                c.restoreState()  # a form is defined outside the page's transformations
                ops = operations()
                name = f"face{len(self.forms)}"
                b = slot.bleed
                c.beginForm(
                    name, lowerx=pt(-b), lowery=pt(-b), upperx=pt(r.w + b), uppery=pt(r.h + b)
                )
                self.draw_face(c, ops, r.w, r.h, item.shape, slot.bleed)
                c.endForm()
                self.forms[key] = name
                c.saveState()
                _place(c, pen, slot)
            c.doForm(name)
        else:
            self.draw_face(c, operations(), r.w, r.h, item.shape, slot.bleed)
        c.restoreState()

    def _plain(self, slot: Slot) -> bool:
        """Whether ``--ink-saver`` prints this face plain: a back shared by a deck or a
        token set (a card's own back is content)."""
        item = slot.item
        own = getattr(item.card, "back", None)
        return self.layout.ink_saver and item.side == "back" and item.face is not own

    def draw_face(
        self, c: Canvas, ops: list[Op], w: float, h: float, shape: str, bleed: float
    ) -> None:
        """Draw a face with its bottom-left corner at the origin (points)."""
        c.saveState()
        if shape != "rect":
            path = shape_path(c, shape, w, h, bleed)
            c.clipPath(path, stroke=0, fill=0)
        for op in ops:
            turn = getattr(op, "rotate", 0.0)
            if turn:
                c.saveState()
                _turn(c, op.box, turn, h)  # type: ignore[union-attr]
            self._draw_op(c, op, h)
            if turn:
                c.restoreState()
        if self.proof_marks:
            self._proof_marks(c, ops, h)
        c.restoreState()

    def _draw_op(self, c: Canvas, op: Op, h: float) -> None:
        """One operation, in the face's coordinates (points, origin at the bottom left)."""
        if isinstance(op, FillOp):
            x, y, bw, bh = op.box
            g = op.bleed
            c.setFillColor(color(op.color))
            rx, ry = pt(x - g), pt(h - y - bh - g)
            if op.radius > 0 and g == 0:
                c.roundRect(rx, ry, pt(bw + 2 * g), pt(bh + 2 * g), pt(op.radius), stroke=0, fill=1)
            else:
                c.rect(rx, ry, pt(bw + 2 * g), pt(bh + 2 * g), stroke=0, fill=1)
        elif isinstance(op, StrokeOp):
            x, y, bw, bh = op.box
            c.setStrokeColor(color(op.color))
            c.setLineWidth(pt(op.width))
            if op.radius > 0:
                c.roundRect(pt(x), pt(h - y - bh), pt(bw), pt(bh), pt(op.radius), stroke=1, fill=0)
            else:
                c.rect(pt(x), pt(h - y - bh), pt(bw), pt(bh), stroke=1, fill=0)
        elif isinstance(op, ImageOp):
            draw_art(c, op, h)
        elif isinstance(op, TextOp):
            draw_text(c, op, h)
        elif isinstance(op, TrackOp):
            self._track(c, op, h)
        elif isinstance(op, TableOp):
            self._table(c, op, h)
        elif isinstance(op, PathOp):
            draw_path(c, op, h)

    def _proof_marks(self, c: Canvas, ops: list[Op], face_h: float) -> None:
        """Proofs: a red frame where text overflows, an orange dashed one where it fell back."""
        for op in ops:
            if not isinstance(op, TextOp) or (op.fit.overflow is None and not op.fallback):
                continue
            x, y, bw, bh = op.box
            rect = (pt(x), pt(face_h - y - bh), pt(bw), pt(bh))
            c.saveState()
            if op.rotate:
                _turn(c, op.box, op.rotate, face_h)
            if op.fit.overflow is not None:
                c.setStrokeColor(colors.HexColor("#d50000"))
                c.setLineWidth(1.2)
                c.setDash()
                c.rect(*rect, stroke=1, fill=0)
                c.setFillColor(colors.HexColor("#d50000"))
                c.setFont(self.fonts.main.font("bold"), 5)
                c.drawString(rect[0] + 1, rect[1] + 1, self.w("overflow"))
            elif op.fallback:
                c.setStrokeColor(colors.HexColor("#ef6c00"))
                c.setLineWidth(0.9)
                c.setDash(2, 1.5)
                c.rect(*rect, stroke=1, fill=0)
                c.setDash()
            c.restoreState()

    def _track(self, c: Canvas, op: TrackOp, face_h: float) -> None:
        """A track: a row of numbered cells, or a column counting upwards."""
        x, y, bw, bh = op.box
        n = max(len(op.labels), 1)
        font = self.fonts.main.font(op.font)
        c.saveState()
        c.setLineWidth(0.6)
        outline = int(op.stroke is not None)
        if op.stroke is not None:
            c.setStrokeColor(color(op.stroke))
        for i, label in enumerate(op.labels):
            if op.vertical:  # the lowest value at the bottom
                ch = bh / n
                cx, cy, cw = x, y + bh - (i + 1) * ch, bw
                cell_h = ch
            else:  # from the right in a language the game mirrors (print.mirror)
                cw = bw / n
                cx, cy, cell_h = x + (n - 1 - i if self._mirrored() else i) * cw, y, bh
            rx, ry = pt(cx), pt(face_h - cy - cell_h)
            if op.fill:
                c.setFillColor(color(op.fill))
                c.rect(rx, ry, pt(cw), pt(cell_h), stroke=outline, fill=1)
            elif outline:
                c.rect(rx, ry, pt(cw), pt(cell_h), stroke=1, fill=0)
            size = min(op.size, pt(min(cw, cell_h)) * 0.6)
            c.setFont(font, size)
            c.setFillColor(color(op.color))
            c.drawCentredString(rx + pt(cw) / 2, ry + pt(cell_h) / 2 - size * 0.35, label)
        c.restoreState()

    def _mirrored(self) -> bool:
        """Whether the game mirrors its layouts' directions in this language (print.mirror)."""
        mirror = self.game.print.mirror
        return self.lang in mirror or ("rtl" in mirror and is_rtl(self.lang))

    def _table(self, c: Canvas, op: TableOp, face_h: float) -> None:
        """A table at the size the engine fitted, from the top of its box."""
        x, y, bw, bh = op.box
        ink, icons = op.color, self.engine.icons
        table = build_table(
            op.header, op.rows, op.size, self.fonts, ink, op.stroke, pt(bw), icons, lang=self.lang
        )
        _w, th = table.wrap(pt(bw), pt(bh))
        table.drawOn(c, pt(x), pt(face_h - y) - th)


def _turn(c: Canvas, box: tuple[float, float, float, float], degrees: float, face_h: float) -> None:
    """Turn the canvas clockwise (as the face is seen) by ``degrees`` about a box's centre."""
    x, y, bw, bh = box
    cx, cy = pt(x + bw / 2), pt(face_h - y - bh / 2)
    c.translate(cx, cy)
    c.rotate(-degrees)  # the PDF's y axis points up: clockwise is negative
    c.translate(-cx, -cy)


def draw_path(c: Canvas, op: PathOp, face_h: float) -> None:
    """A line, or a polygon filled and outlined (butt ends, mitred corners)."""
    p = c.beginPath()
    (x0, y0), *rest = op.points
    p.moveTo(pt(x0), pt(face_h - y0))
    for x, y in rest:
        p.lineTo(pt(x), pt(face_h - y))
    if op.closed:
        p.close()
    if op.fill is not None:
        c.setFillColor(color(op.fill))
    if op.stroke is not None:
        c.setStrokeColor(color(op.stroke))
        c.setLineWidth(pt(op.width))
    c.drawPath(p, stroke=int(op.stroke is not None), fill=int(op.fill is not None))


def draw_text(c: Canvas, op: TextOp, face_h: float) -> None:
    """A fitted text in its box: one plain line drawn directly, else its paragraphs."""
    x, y, bw, bh = op.box
    fit = op.fit
    inner_top = y + op.padding
    inner_h = bh - 2 * op.padding
    free = pt(inner_h) - fit.height
    if op.valign == "middle":
        top_pt = pt(face_h - inner_top) - free / 2
    elif op.valign == "bottom":
        top_pt = pt(face_h - inner_top) - free
    else:
        top_pt = pt(face_h - inner_top)
    cursor = top_pt
    width = pt(bw - 2 * op.padding)
    if fit.line is not None:  # one plain line: no Paragraph needed
        text, font, ink = fit.line
        c.setFont(font, fit.size)
        c.setFillColor(color(ink))
        left = pt(x + op.padding)
        baseline = cursor - fit.size
        if fit.align == "center":
            c.drawCentredString(left + width / 2, baseline, text)
        elif fit.align == "right":
            c.drawRightString(left + width, baseline, text)
        else:
            c.drawString(left, baseline, text)
        return
    for i, para in enumerate(fit.paragraphs):
        if i:
            cursor -= fit.size * PARAGRAPH_GAP
        if abs(getattr(para, "width", -1.0) - width) > 1e-6:
            para.wrap(width, 1e6)  # measured at another width: wrap again
        ph = para.height
        para.drawOn(c, pt(x + op.padding), cursor - ph)
        cursor -= ph


def _place(c: Canvas, pen: Pen, slot: Slot) -> None:
    """Move the origin to the slot's lower-left corner (its upper-right, turned half a turn,
    for a face drawn upside down)."""
    r = slot.rect
    if slot.turned:
        c.translate(pt(r.x + r.w), pt(pen.page.h - r.y))
        c.rotate(180)
    else:
        c.translate(pt(r.x), pt(pen.page.h - r.y - r.h))
