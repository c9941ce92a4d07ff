"""The document: a page plan drawn into one PDF, page by page.

:class:`Renderer` is every part of the renderer together (faces, sheet furniture, board tiles,
proofs, the setup sheet). It sends each page to the part that draws its kind, and draws the
faces that repeat (a deck's shared back, the copies of a card) once into a Form XObject placed
many times, so a deck of 1,000 cards carries one copy of its back.
"""

from __future__ import annotations

import io
from typing import BinaryIO

from reportlab.pdfgen.canvas import Canvas

from ...compat import reportlab as rl
from ...core.units import Size, pt
from ..imposition import Page
from ..pdfimage import save_streaming
from .boards import BoardTiles
from .furniture import SheetFurniture
from .marks import draw_marks, draw_outlines
from .pen import Pen
from .proof import ProofPages
from .setup import SetupSheet


class Renderer(SetupSheet, ProofPages, BoardTiles, SheetFurniture):
    """Draws a game's page plan in one language (the fields are :class:`~.base.RendererBase`'s)."""

    def render(self, pages: list[Page], sink: BinaryIO | None = None) -> bytes:
        """Draw the pages; the PDF goes to ``sink`` as it is written (then b"" is returned),
        or is returned as bytes."""
        with rl.pdf_settings():
            return self._render(pages, sink)

    def _render(self, pages: list[Page], sink: BinaryIO | None) -> bytes:
        memory = io.BytesIO()
        buf: BinaryIO = sink if sink is not None else memory
        # what one PDF uses up: its Form XObjects and the setup sheet's flow of paragraphs
        self.forms = {}
        self.form_uses = {}
        self._setup_pending = None
        first = pages[0].size if pages else Size(210, 297)
        canvas = Canvas(
            buf,
            pagesize=(pt(first.w), pt(first.h)),
            invariant=1,
            pageCompression=1,
            lang=self.lang.replace("_", "-"),
            initialFontName=self.fonts.main.font("regular"),
            initialFontSize=9,
        )
        canvas.setTitle(f"{self.title} ({self.lang})")
        canvas.setAuthor("pnp")
        canvas.setCreator("pnp")
        canvas.setSubject(self.game.id)
        self.total_sheets = max((p.sheet for p in pages), default=0)
        self._count_form_uses(pages)
        for page in pages:
            self.page(canvas, page)
            canvas.showPage()
        save_streaming(canvas, buf)
        return b"" if sink is not None else memory.getvalue()

    def _count_form_uses(self, pages: list[Page]) -> None:
        for page in pages:
            for slot in page.slots:
                key = self._form_key(slot)
                self.form_uses[key] = self.form_uses.get(key, 0) + 1

    def page(self, canvas: Canvas, page: Page) -> None:
        """One page: its size and trim box, then what its kind draws."""
        canvas.setPageSize((pt(page.size.w), pt(page.size.h)))
        pen = Pen(canvas, page.size)
        if page.trim is not None:
            tx, ty, tw, th = pen.rect_pt(page.trim)
            canvas.setTrimBox((tx, ty, tx + tw, ty + th))
            bx, by, bw, bh = pen.rect_pt(page.trim.grow(page.bleed))
            canvas.setBleedBox((bx, by, bx + bw, by + bh))
        else:  # the canvas keeps a page's boxes for the next pages: a page without trim has none
            canvas.setTrimBox(None)
            canvas.setBleedBox(None)
        if page.kind == "setup":
            self.setup_sheet(pen, page)
        elif page.kind == "blank":
            self.blank(pen, page)
        elif page.kind == "board":
            self.board_tile(pen, page)
        elif page.kind == "board-overview":
            self.board_overview(pen, page)
        elif page.kind == "proof":
            self.proof_page(pen, page)
        else:
            for slot in page.slots:
                self.slot(pen, slot)
            draw_outlines(pen, page)
            draw_marks(pen, page.marks)
            if page.fold is not None:
                self.fold_line(pen, page)
            self.furniture(pen, page)
