"""Translator proofs: each face in the source language beside its translation, problems marked.

Faces are fitted at their real size and shown smaller; on the translation, a red frame marks a
text that does not fit, orange dashes one not translated yet.
"""

from __future__ import annotations

from reportlab.lib import colors

from ...content.queries import item_size
from ...core.units import pt
from ...typeset.faces import flatten
from ..imposition import Page
from .faces import FaceDrawing
from .pen import Pen


class ProofPages(FaceDrawing):
    """The renderer's part that draws proof pages."""

    def proof_page(self, pen: Pen, page: Page) -> None:
        """Translator proof: source and target faces side by side, problems marked."""
        assert self.source_engine is not None
        c = pen.c
        target = self.engine
        for slot in page.slots:
            item = slot.item
            r = slot.rect
            label = f"{item.owner.id} / {getattr(item.card, 'id', '')} · {item.side}"
            c.setFont(self.fonts.main.font("regular"), 7)
            c.setFillColor(colors.black)
            if slot.index % 2 == 0:  # the source column: the label above the pair
                c.drawString(pen.x(r.x), pen.y(r.y - 1.5), label)
                lang = self.source_engine.lang
            else:
                lang = target.lang
            c.setFont(self.fonts.main.font("bold"), 7)
            c.drawRightString(pen.x(r.right), pen.y(r.y - 1.5), lang)
            engine = self.source_engine if slot.index % 2 == 0 else target
            self.proof_marks = slot.index % 2 == 1
            real = item_size(self.game, item.owner)  # type: ignore[arg-type]
            try:
                assert item.face is not None
                ops = flatten(
                    engine.ops(item.face, item.owner, item.card, item.side, real.w, real.h, 0.0)
                )
                c.saveState()
                c.translate(pt(r.x), pt(pen.page.h - r.y - r.h))
                c.scale(r.w / real.w, r.h / real.h)  # fitted at real size, shown smaller
                self.draw_face(c, ops, real.w, real.h, item.shape, 0.0)
                c.restoreState()
            finally:
                self.proof_marks = False
            c.setStrokeColor(colors.HexColor("#999999"))
            c.setLineWidth(0.3)
            c.rect(*pen.rect_pt(r), stroke=1, fill=0)
        c.setFont(self.fonts.main.font("regular"), 7)
        c.setFillColor(colors.black)
        legend = self.w(
            "Proof: left the source text, right the translation; red frame: does not fit, "
            "orange dashes: not translated yet."
        )
        c.drawString(pen.x(12), pen.y(page.size.h - 6), legend)
