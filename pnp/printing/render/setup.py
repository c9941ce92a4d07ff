"""The setup sheet: the game's title, how to print and what this copy holds, set-up text,
tables, scenarios, edition.

The sheet is a flow of paragraphs and tables over as many pages as it needs
(:class:`SetupSheet` makes it, and plans the document around it: the planner reserves its
pages, :meth:`SetupSheet.count_pages` measures on a scratch canvas), and each setup page draws
the next part of the flow (:class:`SetupPages`, whose state is what is left of it:
:class:`SetupFlow`).
"""

from __future__ import annotations

import io
from dataclasses import dataclass, replace
from typing import Any

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Frame, Spacer
from reportlab.platypus.flowables import Flowable

from ...content.model import Game
from ...core.rules import OVERFLOW, SCHEMA
from ...core.units import PAPERS, Size, pt
from ...typeset.faces import TextIssue
from ...typeset.faces.marks import MARK, PLACEHOLDER, PLACEHOLDER_COLOR
from ...typeset.layout import Paragraph  # reportlab's, or pnp's layout for shaped/RTL text
from ...typeset.scripts import is_rtl
from ..imposition import Page, board_overviews, plan_document
from .context import PageDrawer, RenderContext
from .flow import (
    COLUMN_GAP,
    SETUP_MARGIN,
    Columns,
    bare_table,
    measured,
    smallest_frame,
    splits,
)
from .frontmatter import FrontMatter
from .overview import OverviewBlock
from .pen import Pen
from .scenarios import ScenarioSteps
from .tables import SetupTables

MAX_SETUP_PAGES = 200  # pages of one setup sheet; a longer one is an error, never cut short


@dataclass
class SetupFlow:
    """What is left of the setup sheet's flow, and whether it runs in two columns by now."""

    pending: list[Flowable]
    rtl: bool  # columns read from the right
    columns: bool = False

    def fill_page(self, page: Size, canvas: Any) -> None:
        """Take from the front of the flow what fits on one page, and draw it: in one frame,
        or, from a :class:`Columns` mark on, in two columns (for the rest of the sheet)."""
        flow = self.pending
        frames = self._column_frames(page) if self.columns else [_frame(page)]
        while flow and frames:
            head = flow[0]
            if isinstance(head, Columns):
                flow.pop(0)
                if not self.columns:
                    self.columns = True
                    frames = self._column_frames(page, frames[0]._y)
                continue
            if frames[0].add(head, canvas, trySplit=0):
                flow.pop(0)
                continue
            if splits(head):  # a paragraph goes on in the next column: no gap at the bottom
                parts = frames[0].split(head, canvas)
                if len(parts) == 2 and frames[0].add(parts[0], canvas, trySplit=0):
                    flow[0] = parts[1]
            frames.pop(0)

    def _column_frames(self, page: Size, top: float | None = None) -> list[Frame]:
        """Two columns from ``top`` (points from the bottom; the top margin by default) to
        the bottom margin, in reading order (the right one first, right to left)."""
        m = SETUP_MARGIN
        top = pt(page.h - m) if top is None else top
        width = (pt(page.w - 2 * m) - pt(COLUMN_GAP)) / 2
        frames = [
            Frame(pt(m) + i * (width + pt(COLUMN_GAP)), pt(m), width, top - pt(m), topPadding=0)
            for i in range(2)
        ]
        return frames[::-1] if self.rtl else frames


def _frame(page: Size) -> Frame:
    """The frame the sheet flows into on a page, inside its margins."""
    m = SETUP_MARGIN
    return Frame(pt(m), pt(m), pt(page.w - 2 * m), pt(page.h - 2 * m), showBoundary=0)


class SetupPages:
    """Draws setup pages: each takes as much of the sheet's flow as it holds. Its state, what
    is left of the flow, is made at the document's first setup page."""

    def __init__(self, ctx: RenderContext, sheet: SetupSheet, overviews: PageDrawer) -> None:
        self.ctx = ctx
        self.sheet = sheet
        self.overviews = overviews  # draws the boards' overviews the sheet holds
        self.flow: SetupFlow | None = None

    def draw(self, pen: Pen, page: Page) -> None:
        """One page of the setup sheet: as much of the flow as the page holds."""
        if self.flow is None:
            flowables = self.sheet.flowables(self.ctx, self.overviews)
            self.flow = SetupFlow(flowables, is_rtl(self.ctx.lang))
        flow = self.flow.pending
        before = (len(flow), flow[0]) if flow else None
        self.flow.fill_page(page.size, pen.c)
        if flow and (len(flow), flow[0]) == before:
            flow.pop(0)


class SetupSheet:
    """The setup sheet's flow for one game in one language, and the page plan around it. What
    the game prints is made once (it does not depend on the page plan) and kept."""

    def __init__(self) -> None:
        self._body: list[Flowable] | None = None  # the sheet after its front matter
        self._too_long = False  # reported that the sheet needs more than MAX_SETUP_PAGES

    def plan(self, ctx: RenderContext, guess: int = 1) -> RenderContext:
        """``ctx`` with the document's page plan for its print options, with as many setup
        pages as the sheet takes.

        The sheet's printing advice names page numbers of the plan, so: plan with ``guess``
        setup pages, measure the sheet, and plan again while its page count changes (once, in
        practice; not at all when the guess is right, as `pnp watch`'s last count is). The
        overview of a tiled board goes on the sheet when the sheet keeps its number of pages
        with it, else on a page of its own."""
        paper = PAPERS[ctx.layout.paper].portrait()
        overviews = tuple(board_overviews(ctx.game, ctx.layout))
        ctx = replace(ctx, sheet_overviews=overviews)
        ctx, pages = self._converge(ctx, max(1, guess), inline=bool(overviews))
        if overviews and pages > self.count_pages(replace(ctx, sheet_overviews=()), paper):
            ctx, _ = self._converge(replace(ctx, sheet_overviews=()), pages, inline=False)
        return ctx

    def _converge(self, ctx: RenderContext, pages: int, inline: bool) -> tuple[RenderContext, int]:
        """Plan and count the setup pages until the count holds; the plan and the count."""
        paper = PAPERS[ctx.layout.paper].portrait()
        for _ in range(4):
            plan = plan_document(ctx.game, ctx.layout, setup_pages=pages, overviews=not inline)
            ctx = replace(ctx, plan=tuple(plan))
            counted = self.count_pages(ctx, paper)
            if counted == pages:
                break
            pages = counted
        return ctx, pages

    def count_pages(self, ctx: RenderContext, page: Size) -> int:
        """How many pages the setup sheet takes (measured on a scratch canvas: the frames
        wrap each flowable as when drawing, but draw nothing; no overview is drawn)."""
        flowables = self.flowables(ctx, _NOT_DRAWN)
        flow = SetupFlow([measured(f) for f in flowables], is_rtl(ctx.lang))
        scratch = Canvas(io.BytesIO(), pagesize=(pt(page.w), pt(page.h)))
        pages = 0
        while flow.pending and pages < MAX_SETUP_PAGES:
            before = (len(flow.pending), flow.pending[0])
            flow.fill_page(page, scratch)
            scratch.showPage()
            pages += 1
            if flow.pending and (len(flow.pending), flow.pending[0]) == before:
                flow.pending.pop(0)  # larger than a page: dropped, and reported
                _too_big(ctx)
        if flow.pending and not self._too_long:  # an error: the build writes nothing
            self._too_long = True
            _too_long(ctx)
        return max(pages, 1)

    def flowables(self, ctx: RenderContext, overviews: PageDrawer) -> list[Flowable]:
        """The whole sheet as a flow of paragraphs and tables, in order: the title, how to
        print and what this copy holds (they name pages of the plan), what the game prints,
        the boards' overviews the plan put on the sheet (``overviews`` draws them), the
        edition and the credits."""
        if self._body is None:
            self._body = _body(ctx)
        styles = setup_styles(ctx)
        small = styles["small"]
        title = ctx.translator.text(ctx.game.meta.title)
        width, _room = smallest_frame()
        out: list[Flowable] = [Paragraph(ctx.para(title, "bold", 18), styles["h1"])]
        out.extend(FrontMatter(ctx).flowables(width, styles))
        out.extend(self._body)
        for overview in ctx.sheet_overviews:  # before the tiles, without a page of its own
            out.extend([Spacer(1, 6), OverviewBlock(overviews, overview)])
        out.append(Spacer(1, 10))
        out.append(Paragraph(ctx.para(edition(ctx), "regular", 7.5), small))
        if ctx.game.meta.credits:
            out.extend(ctx.paragraphs(ctx.translator.text(ctx.game.meta.credits), small))
        return out


class _NotDrawn:
    """The overviews' drawer while the sheet is measured: measured flowables draw nothing."""

    def draw(self, pen: Pen, page: Page) -> None:
        raise AssertionError("a measured setup sheet draws nothing")


_NOT_DRAWN = _NotDrawn()


def _too_big(ctx: RenderContext) -> None:
    """Report a flowable larger than a page (it is left out of the sheet)."""
    ctx.engine.issues.append(
        TextIssue(
            OVERFLOW,
            ctx.game.meta.at("setup_sheet"),
            f"[{ctx.lang}] a table or text of the setup sheet is larger than a page; split it",
            ctx.lang,
        )
    )


def _too_long(ctx: RenderContext) -> None:
    """Report a sheet longer than MAX_SETUP_PAGES (an error: nothing is printed cut short)."""
    ctx.engine.issues.append(
        TextIssue(
            SCHEMA,
            ctx.game.meta.at("setup_sheet"),
            f"[{ctx.lang}] the setup sheet needs more than {MAX_SETUP_PAGES} pages; print "
            "fewer or shorter tables on it (sheet: false keeps a table off the sheet)",
            ctx.lang,
        )
    )


def setup_styles(ctx: RenderContext) -> dict[str, ParagraphStyle]:
    """The sheet's paragraph styles: h1, h2, body and small."""
    font = ctx.fonts.main
    h1 = ParagraphStyle("h1", fontName=font.font("bold"), fontSize=18, leading=22, spaceAfter=4)
    h2 = ParagraphStyle(
        "h2", fontName=font.font("bold"), fontSize=12, leading=15, spaceBefore=8, spaceAfter=4
    )
    body = ParagraphStyle(
        "body", fontName=font.font("regular"), fontSize=9, leading=11.5, spaceAfter=3
    )
    small = ParagraphStyle(
        "small", parent=body, fontSize=7.5, leading=9.5, textColor=colors.HexColor("#444444")
    )
    return {"h1": h1, "h2": h2, "body": body, "small": small}


def _body(ctx: RenderContext) -> list[Flowable]:
    """The sheet after its front matter: set-up text, tables, notes, scenarios and the
    notes on the marks of assumptions and placeholders."""
    game = ctx.game
    t = ctx.translator.text
    sheet = game.meta.setup_sheet
    styles = setup_styles(ctx)
    h2, body, small = styles["h2"], styles["body"], styles["small"]
    title = t(sheet.title) if sheet and sheet.title else ctx.w("Setup")
    out: list[Flowable] = [Paragraph(ctx.para(title, "bold", 12), h2)]
    if sheet and sheet.intro:
        out.extend(ctx.paragraphs(t(sheet.intro), body))
    table_ids = (
        sheet.tables
        if sheet and sheet.tables
        else [tid for tid, tb in game.tables.items() if tb.sheet]
    )
    tables = SetupTables(ctx)
    for tid in table_ids:
        table = game.tables.get(tid)
        if table is None:
            continue
        out.extend(tables.table(table, h2, body, small))
    if sheet and sheet.notes:
        out.append(Spacer(1, 6))
        out.extend(ctx.paragraphs(t(sheet.notes), body))
    if game.scenarios:  # checklists read well in columns, and take half the pages
        out.append(Columns())
    steps = ScenarioSteps(ctx)
    for scenario in game.scenarios.values():
        out.extend(steps.scenario(scenario, h2, body, small))
    if has_assumptions(game):
        mark = ctx.w(
            "{mark} not given by the rulebook: an assumption of this copy, made so "
            "that the game can be played; where the rulebook says otherwise, follow "
            "the rulebook."
        ).format(mark=MARK)
        out.append(Spacer(1, 6))
        out.append(Paragraph(ctx.para(mark, "regular", 9), body))
    if has_placeholders(game):
        note = ctx.w(PLACEHOLDER_NOTE)
        out.append(Spacer(1, 4))
        out.append(badge_note(Paragraph(ctx.para(note, "regular", 9), body), ctx))
    return out


def edition(ctx: RenderContext) -> str:
    """'Content pack version 1, 25 November 2026', dates and numbers by locale."""
    import datetime

    from babel.dates import format_date

    meta = ctx.game.meta
    text = ctx.w("Content pack version {version}").format(version=meta.version)
    if meta.date:
        day = datetime.date.fromisoformat(meta.date)
        text += " · " + format_date(day, format="long", locale=ctx.lang)
    return text


PLACEHOLDER_NOTE = (
    "Placeholder: the rulebook does not publish the text of a card or board with this mark; "
    "what it says stands in for it so that the counts hold. Where you have the published "
    "card, use it."
)


def has_placeholders(game: Game) -> bool:
    """Whether anything the game prints carries the placeholder mark."""
    items: list[Any] = [c for _o, c in game.every_card()] + list(game.boards.values())
    return any(getattr(item, "placeholder", False) for item in items)


def badge_note(note: Flowable, ctx: RenderContext) -> Flowable:
    """A note beside the placeholder mark drawn as on the faces (the right of it, right to
    left)."""
    side = pt(4.0)
    badge = _Badge(side, ctx.fonts.main.font("bold"))
    font = ctx.fonts.main.font("regular")
    return bare_table([[badge, note]], [side + 6, None], font, rtl=is_rtl(ctx.lang))


class _Badge(Flowable):
    """The placeholder mark of the faces (typeset.faces.marks), for the sheet's note."""

    def __init__(self, side: float, font: str) -> None:
        super().__init__()
        self.side, self.font = side, font

    def wrap(self, aW: float, aH: float) -> tuple[float, float]:
        return self.side, self.side

    def draw(self) -> None:
        c, s = self.canv, self.side
        c.saveState()
        c.setFillColor(colors.HexColor(PLACEHOLDER_COLOR))
        c.roundRect(0, 0, s, s, s * 0.22, stroke=0, fill=1)
        c.setFillColor(colors.white)
        c.setFont(self.font, s * 0.7)
        c.drawCentredString(s / 2, s * 0.24, PLACEHOLDER)
        c.restoreState()


def has_assumptions(game: Game) -> bool:
    """Whether anything the game prints carries the assumption mark."""
    items: list[Any] = [c for _o, c in game.every_card()]
    items += [*game.boards.values(), *game.tables.values()]
    return any(getattr(item, "assumption", None) is not None for item in items)
