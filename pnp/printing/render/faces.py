"""Drawing a face: its operations on the canvas, each turned about its box's centre when its
element is rotated, placed once as a form when the document prints the face more than once.

The face engine (:mod:`pnp.typeset.faces`) computes the operations and fits the texts; each
operation draws itself on a :class:`~pnp.typeset.faces.Surface` (the canvas, the fonts, and
this module's way of embedding art); this module only places faces. A face is drawn with its
bottom-left corner at the origin, clipped to its shape; on proofs, texts that overflow or fell
back to the source language are framed.
"""

from __future__ import annotations

from typing import Any

from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas

from ...core.units import pt
from ...typeset.faces import Op, Surface, flatten
from ..imposition import Slot
from .art import draw_art
from .base import RendererBase
from .pen import Pen, shape_path


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
        """Draw a face with its bottom-left corner at the origin (points): each operation
        draws itself, turned about its box's centre when its element is rotated."""
        c.saveState()
        if shape != "rect":
            path = shape_path(c, shape, w, h, bleed)
            c.clipPath(path, stroke=0, fill=0)
        surface = Surface(c, h, self.fonts, self.engine.icons, self.lang, draw_art)
        for op in ops:
            turn = op.rotate
            if turn:
                c.saveState()
                _turn(c, op.box, turn, h)  # type: ignore[attr-defined]
            op.draw(surface)
            if turn:
                c.restoreState()
        if self.proof_marks:
            self._proof_marks(c, ops, h)
        c.restoreState()

    def _proof_marks(self, c: Canvas, ops: list[Op], face_h: float) -> None:
        """Proofs: a red frame where text overflows, an orange dashed one where it fell back."""
        for op in ops:
            flag = op.flag()
            if flag is None:
                continue
            x, y, bw, bh = op.box  # type: ignore[attr-defined]
            rect = (pt(x), pt(face_h - y - bh), pt(bw), pt(bh))
            c.saveState()
            if op.rotate:
                _turn(c, op.box, op.rotate, face_h)  # type: ignore[attr-defined]
            if flag == "overflow":
                c.setStrokeColor(colors.HexColor("#d50000"))
                c.setLineWidth(1.2)
                c.setDash()
                c.rect(*rect, stroke=1, fill=0)
                c.setFillColor(colors.HexColor("#d50000"))
                c.setFont(self.fonts.main.font("bold"), 5)
                c.drawString(rect[0] + 1, rect[1] + 1, self.w("overflow"))
            else:
                c.setStrokeColor(colors.HexColor("#ef6c00"))
                c.setLineWidth(0.9)
                c.setDash(2, 1.5)
                c.rect(*rect, stroke=1, fill=0)
                c.setDash()
            c.restoreState()


def _turn(c: Canvas, box: tuple[float, float, float, float], degrees: float, face_h: float) -> None:
    """Turn the canvas clockwise (as the face is seen) by ``degrees`` about a box's centre."""
    x, y, bw, bh = box
    cx, cy = pt(x + bw / 2), pt(face_h - y - bh / 2)
    c.translate(cx, cy)
    c.rotate(-degrees)  # the PDF's y axis points up: clockwise is negative
    c.translate(-cx, -cy)


def _place(c: Canvas, pen: Pen, slot: Slot) -> None:
    """Move the origin to the slot's lower-left corner (its upper-right, turned half a turn,
    for a face drawn upside down)."""
    r = slot.rect
    if slot.turned:
        c.translate(pt(r.x + r.w), pt(pen.page.h - r.y))
        c.rotate(180)
    else:
        c.translate(pt(r.x), pt(pen.page.h - r.y - r.h))
