"""Drawing a face: its operations on the canvas, each turned about its box's centre when its
element is rotated, placed once as a form when the document prints the face more than once
(:class:`Forms`: the forms of one PDF, the state :class:`FaceDrawer` owns).

The face engine (:mod:`pnp.typeset.faces`) computes the operations and fits the texts; each
operation draws itself on a :class:`~pnp.typeset.faces.Surface` (the canvas, the fonts, and
this module's way of embedding art); this module only places faces. A face is drawn with its
bottom-left corner at the origin, clipped to its shape; on proofs, texts that overflow or fell
back to the source language are framed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from reportlab.lib import colors
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from ...content.model import Board, Face
from ...core.units import pt
from ...typeset.faces import Op, Surface, flatten
from ..imposition import Options, Page, Slot
from .art import draw_art
from .context import RenderContext
from .pen import Pen, shape_path


def form_key(ctx: RenderContext, slot: Slot) -> Any:
    """What makes two slots print the same form: the face, its side, size, bleed and shape."""
    item = slot.item
    return (
        ctx.engine.lang,
        id(item.face),
        item.side,
        slot.rect.w,
        slot.rect.h,
        slot.bleed,
        item.shape,
    )


def plain(slot: Slot, layout: Options) -> bool:
    """Whether ``--ink-saver`` prints this face plain: a back shared by a deck or a token set
    (a card's own back is content)."""
    item = slot.item
    own = getattr(item.card, "back", None)
    return layout.ink_saver and item.side == "back" and item.face is not own


@dataclass
class Forms:
    """What one PDF uses up: the Form XObject of each face drawn once (named ``face0``,
    ``face1``... in the order they are made), and how many times the document places each."""

    names: dict[Any, str] = field(default_factory=dict)
    uses: dict[Any, int] = field(default_factory=dict)

    @classmethod
    def counted(cls, ctx: RenderContext, pages: list[Page]) -> Forms:
        """No form yet, and the uses of each face on ``pages``."""
        forms = cls()
        for page in pages:
            for slot in page.slots:
                key = form_key(ctx, slot)
                forms.uses[key] = forms.uses.get(key, 0) + 1
        return forms

    def next_name(self) -> str:
        """The name of the next form made."""
        return f"face{len(self.names)}"


class FaceDrawer:
    """Draws faces: in their slots (from a form when the document places the face more than
    once), into the forms of boards, and at any size for the proofs."""

    def __init__(self, ctx: RenderContext, forms: Forms) -> None:
        self.ctx = ctx
        self.forms = forms  # this drawer's state: the document's forms

    def slot(self, pen: Pen, slot: Slot) -> None:
        """The face in a slot: placed from its form when the document uses it more than once;
        a shared back plain with ``--ink-saver`` (its texts and lines, no fills or art)."""
        item = slot.item
        if item.face is None:
            return
        key = form_key(self.ctx, slot)
        c = pen.c
        r = slot.rect

        def operations() -> list[Op]:  # computed only when the face is drawn
            assert item.face is not None
            face_ops = self.ctx.engine.ops(
                item.face, item.owner, item.card, item.side, r.w, r.h, slot.bleed, bare
            )
            return flatten(face_ops)

        bare = plain(slot, self.ctx.layout)
        c.saveState()
        _place(c, pen, slot)
        if self.forms.uses.get(key, 0) > 1:
            name = self.forms.names.get(key)
            if name is None:
                c.restoreState()  # a form is defined outside the page's transformations
                ops = operations()
                name = self.forms.next_name()
                b = slot.bleed
                c.beginForm(
                    name, lowerx=pt(-b), lowery=pt(-b), upperx=pt(r.w + b), uppery=pt(r.h + b)
                )
                self.draw_face(c, ops, r.w, r.h, item.shape, slot.bleed)
                c.endForm()
                self.forms.names[key] = name
                c.saveState()
                _place(c, pen, slot)
            c.doForm(name)
        else:
            self.draw_face(c, operations(), r.w, r.h, item.shape, slot.bleed)
        c.restoreState()

    def board_form(self, c: Canvas, board: Board, face: Face, side: str) -> str:
        """The name of the Form XObject of one side of a board at full size, drawn once."""
        W, H = board.size.w, board.size.h
        key = (id(face), side, W, H, 0.0, "board")
        name = self.forms.names.get(key)
        if name is None:
            ops = flatten(self.ctx.engine.ops(face, board, board, side, W, H, 0.0))
            name = self.forms.next_name()
            c.beginForm(name, lowerx=0, lowery=0, upperx=pt(W), uppery=pt(H))
            self.draw_face(c, ops, W, H, "rect", 0.0)
            c.endForm()
            self.forms.names[key] = name
        return name

    def draw_face(
        self,
        c: Canvas,
        ops: list[Op],
        w: float,
        h: float,
        shape: str,
        bleed: float,
        proof_marks: bool = False,
    ) -> None:
        """Draw a face with its bottom-left corner at the origin (points): each operation
        draws itself, turned about its box's centre when its element is rotated;
        ``proof_marks``: frame the texts that overflow or fell back (the proofs)."""
        ctx = self.ctx
        c.saveState()
        if shape != "rect":
            path = shape_path(c, shape, w, h, bleed)
            c.clipPath(path, stroke=0, fill=0)
        surface = Surface(c, h, ctx.fonts, ctx.engine.icons, ctx.lang, draw_art)
        for op in ops:
            turn = op.rotate
            clip = proof_marks and op.flag() == "overflow"  # a proof keeps it in its box
            if turn or clip:
                c.saveState()
            if turn:
                _turn(c, op.box, turn, h)  # type: ignore[attr-defined]
            if clip:
                x, y, bw, bh = op.box  # type: ignore[attr-defined]
                path = c.beginPath()
                path.rect(pt(x), pt(h - y - bh), pt(bw), pt(bh))
                c.clipPath(path, stroke=0, fill=0)
            op.draw(surface)
            if turn or clip:
                c.restoreState()
        if proof_marks:
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
            if flag in ("overflow", "error"):  # red: a frame cut off, dashes a refused entry
                c.setStrokeColor(colors.HexColor("#d50000"))
                c.setLineWidth(1.2)
                if flag == "error":
                    c.setDash(3, 1.5)
                else:
                    c.setDash()
                c.rect(*rect, stroke=1, fill=0)
                c.setDash()
                bold = self.ctx.fonts.main.font("bold")
                if flag == "overflow":
                    word = self.ctx.w("overflow")
                else:
                    word = self.ctx.w("error in the catalog")
                c.setFillColor(colors.white)  # readable over the text it marks
                c.rect(rect[0] + 0.6, rect[1] + 0.6, stringWidth(word, bold, 5) + 0.8, 5.6, 0, 1)
                c.setFillColor(colors.HexColor("#d50000"))
                c.setFont(bold, 5)
                c.drawString(rect[0] + 1, rect[1] + 1.4, word)
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
