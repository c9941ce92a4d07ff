"""The document: a page plan drawn into one PDF, page by page.

:class:`Renderer` is what callers use: it plans the pages around the setup sheet and renders
them. For every PDF it makes the drawers anew (:func:`page_drawers`: a table from page kind to
drawer, each drawer given the pen of its page and the document's :class:`~.context.RenderContext`),
with what one PDF uses up: the faces' Form XObjects (a face that repeats, a deck's shared back or
the copies of a card, is drawn once into a form placed many times, so a deck of 1,000 cards
carries one copy of its back) and the setup sheet's flow.
"""

from __future__ import annotations

import io
from dataclasses import replace
from typing import BinaryIO

from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus.flowables import Flowable

from ...compat import reportlab as rl
from ...content.model import Game
from ...core.units import Size, pt
from ...i18n import Translator
from ...typeset.faces import FaceEngine
from ...typeset.fonts import FontSet
from ..imposition import Options, Page
from ..pdfimage import save_streaming
from .boards import BoardTiles
from .context import PageDrawer, RenderContext
from .faces import FaceDrawer, Forms
from .furniture import BlankPage, SheetFurniture
from .overview import BoardOverviews
from .pen import Pen
from .proof import ProofPages
from .setup import SetupPages, SetupSheet
from .sheet import SheetPage

SHEET_KINDS = ("fronts", "backs", "tokens", "token-backs", "fold")  # sheets of faces


def page_drawers(ctx: RenderContext, forms: Forms, sheet: SetupSheet) -> dict[str, PageDrawer]:
    """What draws each kind of page of one PDF (a kind not listed is drawn as a sheet of
    faces): drawers that share the document's forms through one :class:`~.faces.FaceDrawer`."""
    faces = FaceDrawer(ctx, forms)
    furniture = SheetFurniture(ctx)
    overviews = BoardOverviews(ctx, faces)
    sheets = SheetPage(faces, furniture)
    return {
        "setup": SetupPages(ctx, sheet, overviews),
        "blank": BlankPage(ctx),
        "board": BoardTiles(ctx, faces, furniture),
        "board-overview": overviews,
        "proof": ProofPages(ctx, faces),
        **dict.fromkeys(SHEET_KINDS, sheets),
    }


class Renderer:
    """Draws a game's page plan in one language: the facade of the drawers."""

    def __init__(
        self,
        game: Game,
        lang: str,
        engine: FaceEngine,
        fonts: FontSet,
        translator: Translator,
        title: str,
        *,
        layout: Options | None = None,
        source_engine: FaceEngine | None = None,
    ) -> None:
        """``layout``: the build's print options until :meth:`plan_pages` is given some;
        ``source_engine``: for proofs, the engine of the source language."""
        self._context = RenderContext(
            game,
            lang,
            engine,
            fonts,
            translator,
            title,
            layout=layout if layout is not None else Options(),
            source_engine=source_engine,
        )
        self._sheet = SetupSheet()  # the setup sheet's flow, made once per renderer

    @property
    def context(self) -> RenderContext:
        """What the drawers read: the game and language, the print options, the last plan."""
        return self._context

    @property
    def game(self) -> Game:
        return self._context.game

    @property
    def lang(self) -> str:
        return self._context.lang

    @property
    def engine(self) -> FaceEngine:
        return self._context.engine

    @property
    def fonts(self) -> FontSet:
        return self._context.fonts

    @property
    def translator(self) -> Translator:
        return self._context.translator

    @property
    def title(self) -> str:
        return self._context.title

    def with_source(self, source_engine: FaceEngine) -> Renderer:
        """A renderer of the same game and language that draws proofs against
        ``source_engine`` (the source language's)."""
        ctx = self._context
        return Renderer(
            ctx.game,
            ctx.lang,
            ctx.engine,
            ctx.fonts,
            ctx.translator,
            ctx.title,
            layout=ctx.layout,
            source_engine=source_engine,
        )

    def plan_pages(self, layout: Options, guess: int = 1) -> list[Page]:
        """The document's page plan for ``layout``, with as many setup pages as the sheet
        takes (:meth:`~.setup.SetupSheet.plan`); ``guess``: where counting them starts."""
        self._context = self._sheet.plan(replace(self._context, layout=layout), guess)
        return list(self._context.plan)

    def count_setup_pages(self, page: Size) -> int:
        """How many pages of size ``page`` the setup sheet takes with the last plan."""
        return self._sheet.count_pages(self._context, page)

    def setup_flowables(self) -> list[Flowable]:
        """The whole setup sheet as a flow of paragraphs and tables, with the last plan."""
        ctx = self._context
        return self._sheet.flowables(ctx, BoardOverviews(ctx, FaceDrawer(ctx, Forms())))

    def label(self, page: Page) -> str:
        """The page label of ``page`` (:meth:`~.furniture.SheetFurniture.label`)."""
        return SheetFurniture(self._context).label(page)

    def render(self, pages: list[Page], sink: BinaryIO | None = None) -> bytes:
        """Draw the pages; the PDF goes to ``sink`` as it is written (then b"" is returned),
        or is returned as bytes."""
        with rl.pdf_settings():
            return self._render(pages, sink)

    def _render(self, pages: list[Page], sink: BinaryIO | None) -> bytes:
        memory = io.BytesIO()
        buf: BinaryIO = sink if sink is not None else memory
        ctx = replace(self._context, total_sheets=max((p.sheet for p in pages), default=0))
        first = pages[0].size if pages else Size(210, 297)
        canvas = Canvas(
            buf,
            pagesize=(pt(first.w), pt(first.h)),
            invariant=1,
            pageCompression=1,
            lang=ctx.lang.replace("_", "-"),
            initialFontName=ctx.fonts.main.font("regular"),
            initialFontSize=9,
        )
        canvas.setTitle(f"{ctx.title} ({ctx.lang})")
        canvas.setAuthor("pnp")
        canvas.setCreator("pnp")
        canvas.setSubject(ctx.game.id)
        # what one PDF uses up: its Form XObjects and the setup sheet's flow, in its drawers
        drawers = page_drawers(ctx, Forms.counted(ctx, pages), self._sheet)
        sheets = drawers[SHEET_KINDS[0]]
        for page in pages:
            drawers.get(page.kind, sheets).draw(start_page(canvas, page), page)
            canvas.showPage()
        save_streaming(canvas, buf)
        return b"" if sink is not None else memory.getvalue()


def start_page(canvas: Canvas, page: Page) -> Pen:
    """A page's size and trim box; the pen that draws on it."""
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
    return pen
