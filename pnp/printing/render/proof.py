"""Translator proofs: each face in the source language beside its translation, problems marked.

Faces are fitted at their real size and shown smaller; on the translation, a red frame marks a
text that does not fit, orange dashes one not translated yet.
"""

from __future__ import annotations

from reportlab.lib import colors
from reportlab.lib.utils import simpleSplit

from ...content.queries import item_size
from ...core.units import pt
from ...typeset.faces import flatten
from ..imposition import Page
from .context import RenderContext
from .faces import FaceDrawer
from .pen import Pen

LEGEND_LEADING = 3.0  # mm between the legend's lines


class ProofPages:
    """Draws proof pages, with the faces' drawer: the source faces in the source language's
    engine, the translations in the document's, marked."""

    def __init__(self, ctx: RenderContext, faces: FaceDrawer) -> None:
        self.ctx = ctx
        self.faces = faces

    def draw(self, pen: Pen, page: Page) -> None:
        """Translator proof: source and target faces side by side, problems marked."""
        ctx = self.ctx
        source = ctx.source_engine
        assert source is not None
        c = pen.c
        target = ctx.engine
        for slot in page.slots:
            item = slot.item
            r = slot.rect
            label = f"{item.owner.id} / {getattr(item.card, 'id', '')} · {item.side}"
            c.setFont(ctx.fonts.main.font("regular"), 7)
            c.setFillColor(colors.black)
            if slot.index % 2 == 0:  # the source column: the label above the pair
                c.drawString(pen.x(r.x), pen.y(r.y - 1.5), label)
                lang = source.lang
            else:
                lang = target.lang
            c.setFont(ctx.fonts.main.font("bold"), 7)
            c.drawRightString(pen.x(r.right), pen.y(r.y - 1.5), lang)
            engine = source if slot.index % 2 == 0 else target
            real = item_size(ctx.game, item.owner)  # type: ignore[arg-type]
            assert item.face is not None
            ops = flatten(
                engine.ops(item.face, item.owner, item.card, item.side, real.w, real.h, 0.0)
            )
            c.saveState()
            c.translate(pt(r.x), pt(pen.page.h - r.y - r.h))
            c.scale(r.w / real.w, r.h / real.h)  # fitted at real size, shown smaller
            marked = slot.index % 2 == 1  # the translation
            self.faces.draw_face(c, ops, real.w, real.h, item.shape, 0.0, proof_marks=marked)
            c.restoreState()
            c.setStrokeColor(colors.HexColor("#999999"))
            c.setLineWidth(0.3)
            c.rect(*pen.rect_pt(r), stroke=1, fill=0)
        regular = ctx.fonts.main.font("regular")
        c.setFont(regular, 7)
        c.setFillColor(colors.black)
        legend = ctx.w(
            "Proof: left the source text, right the translation; red frame: does not fit (cut "
            "off at its box), red dashes: the catalog entry has an error, orange dashes: not "
            "translated yet."
        )
        lines = simpleSplit(legend, regular, 7, pt(page.size.w - 24))  # within the page
        for i, line in enumerate(lines):
            c.drawString(
                pen.x(12), pen.y(page.size.h - 6 - LEGEND_LEADING * (len(lines) - 1 - i)), line
            )
