"""The setup sheet: the game's title, how to print and what this copy holds, set-up text,
tables, scenarios, edition.

The sheet is a flow of paragraphs and tables over as many pages as it needs; the planner
reserves them (:meth:`SetupSheet.count_setup_pages` measures on a scratch canvas), and each
setup page draws the next part of the flow.
"""

from __future__ import annotations

import io
from typing import Any, cast

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Frame, Spacer, Table, TableStyle
from reportlab.platypus.flowables import Flowable

from ...content.model import Game
from ...content.model import Table as TableModel
from ...core.rules import OVERFLOW
from ...core.units import PAPERS, Size, pt
from ...typeset.faces import TextIssue, cell_text
from ...typeset.faces.marks import MARK, PLACEHOLDER, PLACEHOLDER_COLOR
from ...typeset.headers import header_xml
from ...typeset.layout import (
    Paragraph,  # reportlab's, or pnp's layout for shaped/RTL text
)
from ...typeset.scripts import is_rtl
from ..imposition import Options, Page, board_overviews, plan_document
from .boards import DrawsOverview, OverviewBlock
from .flow import COLUMN_GAP, Columns, bare_table, measured, parts, splits, with_heading
from .frontmatter import FrontMatter
from .pen import Pen
from .scenarios import ScenarioSteps


class SetupSheet(FrontMatter, ScenarioSteps):
    """The renderer's part that draws the setup sheet."""

    SETUP_MARGIN = 10.0  # mm: wider than the printable margin, narrow enough for a dense sheet
    _setup_body: list[Flowable] | None = None  # the sheet up to the advice (setup_flowables)

    def _setup_frame(self, page: Size) -> Frame:
        """The frame the sheet flows into on a page, inside its margins."""
        m = self.SETUP_MARGIN
        return Frame(pt(m), pt(m), pt(page.w - 2 * m), pt(page.h - 2 * m), showBoundary=0)

    def _column_frames(self, page: Size, top: float | None = None) -> list[Frame]:
        """Two columns from ``top`` (points from the bottom; the top margin by default) to
        the bottom margin, in reading order (the right one first, right to left)."""
        m = self.SETUP_MARGIN
        top = pt(page.h - m) if top is None else top
        width = (pt(page.w - 2 * m) - pt(COLUMN_GAP)) / 2
        frames = [
            Frame(pt(m) + i * (width + pt(COLUMN_GAP)), pt(m), width, top - pt(m), topPadding=0)
            for i in range(2)
        ]
        return frames[::-1] if is_rtl(self.lang) else frames

    def _fill_page(self, page: Size, flow: list[Flowable], canvas: Any) -> None:
        """Take from the front of ``flow`` what fits on one page, and draw it: in one frame,
        or, from a :class:`Columns` mark on, in two columns (for the rest of the sheet)."""
        frames = self._column_frames(page) if self._setup_columns else [self._setup_frame(page)]
        while flow and frames:
            head = flow[0]
            if isinstance(head, Columns):
                flow.pop(0)
                if not self._setup_columns:
                    self._setup_columns = True
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

    def plan_pages(self, layout: Options, guess: int = 1) -> list[Page]:
        """The document's page plan, with as many setup pages as the sheet takes.

        The sheet's printing advice names page numbers of the plan, so: plan with ``guess``
        setup pages, measure the sheet, and plan again while its page count changes (once, in
        practice; not at all when the guess is right, as `pnp watch`'s last count is). The
        overview of a tiled board goes on the sheet when the sheet keeps its number of pages
        with it, else on a page of its own."""
        self.layout = layout
        paper = PAPERS[layout.paper].portrait()
        overviews = board_overviews(self.game, layout)
        self._setup_overviews = overviews
        pages = self._converge(layout, max(1, guess), inline=bool(overviews))
        if overviews and pages > self._setup_pages_without(layout, pages, paper):
            self._setup_overviews = []
            self._converge(layout, pages, inline=False)
        return self.plan

    def _converge(self, layout: Options, pages: int, inline: bool) -> int:
        """Plan and count the setup pages until the count holds; the count."""
        paper = PAPERS[layout.paper].portrait()
        for _ in range(4):
            self.plan = plan_document(self.game, layout, setup_pages=pages, overviews=not inline)
            counted = self.count_setup_pages(paper)
            if counted == pages:
                break
            pages = counted
        return pages

    def _setup_pages_without(self, layout: Options, guess: int, paper: Size) -> int:
        """How many pages the sheet takes without the overviews (the plan is kept)."""
        kept, overviews = self.plan, self._setup_overviews
        self._setup_overviews = []
        counted = self.count_setup_pages(paper)
        self.plan, self._setup_overviews = kept, overviews
        return counted

    def count_setup_pages(self, page: Size) -> int:
        """How many pages the setup sheet takes (measured on a scratch canvas: the frames
        wrap each flowable as when drawing, but draw nothing)."""
        flow: list[Flowable] = [measured(f) for f in self.setup_flowables()]
        scratch = Canvas(io.BytesIO(), pagesize=(pt(page.w), pt(page.h)))
        pages = 0
        self._setup_columns = False
        while flow and pages < 50:
            before = (len(flow), flow[0])
            self._fill_page(page, flow, scratch)
            scratch.showPage()
            pages += 1
            if flow and (len(flow), flow[0]) == before:  # larger than a page: drop, report it
                flow.pop(0)
                self._setup_too_big()
        return max(pages, 1)

    def _setup_too_big(self) -> None:
        """Report a flowable larger than a page (it is left out of the sheet)."""
        self.engine.issues.append(
            TextIssue(
                OVERFLOW,
                self.game.meta.at("setup_sheet"),
                f"[{self.lang}] a table or text of the setup sheet is larger than a page; split it",
                self.lang,
            )
        )

    def setup_sheet(self, pen: Pen, page: Page) -> None:
        """One page of the setup sheet: as much of the flow as the page holds."""
        if self._setup_pending is None:
            self._setup_pending = self.setup_flowables()
            self._setup_columns = False
        flow = self._setup_pending
        before = (len(flow), flow[0]) if flow else None
        self._fill_page(page.size, flow, pen.c)
        if flow and (len(flow), flow[0]) == before:
            flow.pop(0)

    def setup_flowables(self) -> list[Flowable]:
        """The whole sheet as a flow of paragraphs and tables, in order: the title, how to
        print and what this copy holds (they name pages of the plan), what the game prints
        (made once per renderer: it does not depend on the page plan), the edition and the
        credits."""
        if self._setup_body is None:
            self._setup_body = self._setup_body_flowables()
        styles = self._setup_styles()
        small = styles["small"]
        title = self.translator.text(self.game.meta.title)
        width, _room = _smallest_frame(self.SETUP_MARGIN)
        out: list[Flowable] = [Paragraph(self.para(title, "bold", 18), styles["h1"])]
        out.extend(self.front_matter(width, styles))
        out.extend(self._setup_body)
        for overview in self._setup_overviews:  # before the tiles, without a page of its own
            drawer = cast(DrawsOverview, self)  # the renderer: this part with BoardTiles
            out.extend([Spacer(1, 6), OverviewBlock(drawer, overview)])
        out.append(Spacer(1, 10))
        out.append(Paragraph(self.para(self.edition(), "regular", 7.5), small))
        if self.game.meta.credits:
            out.extend(self.paragraphs(self.translator.text(self.game.meta.credits), small))
        return out

    def _setup_styles(self) -> dict[str, ParagraphStyle]:
        """The sheet's paragraph styles: h1, h2, body and small."""
        font = self.fonts.main
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

    def _setup_body_flowables(self) -> list[Flowable]:
        """The sheet after its front matter: set-up text, tables, notes, scenarios and the
        notes on the marks of assumptions and placeholders."""
        game = self.game
        t = self.translator.text
        sheet = game.meta.setup_sheet
        styles = self._setup_styles()
        h2, body, small = styles["h2"], styles["body"], styles["small"]
        title = t(sheet.title) if sheet and sheet.title else self.w("Setup")
        out: list[Flowable] = [Paragraph(self.para(title, "bold", 12), h2)]
        if sheet and sheet.intro:
            out.extend(self.paragraphs(t(sheet.intro), body))
        table_ids = (
            sheet.tables
            if sheet and sheet.tables
            else [tid for tid, tb in game.tables.items() if tb.sheet]
        )
        for tid in table_ids:
            table = game.tables.get(tid)
            if table is None:
                continue
            out.extend(self.table(table, h2, body, small))
        if sheet and sheet.notes:
            out.append(Spacer(1, 6))
            out.extend(self.paragraphs(t(sheet.notes), body))
        if game.scenarios:  # checklists read well in columns, and take half the pages
            out.append(Columns())
        self._said = {}
        for scenario in game.scenarios.values():
            out.extend(self.scenario(scenario, h2, body, small))
        if has_assumptions(game):
            mark = self.w(
                "{mark} not given by the rulebook: an assumption of this copy, made so "
                "that the game can be played; where the rulebook says otherwise, follow "
                "the rulebook."
            ).format(mark=MARK)
            out.append(Spacer(1, 6))
            out.append(Paragraph(self.para(mark, "regular", 9), body))
        if has_placeholders(game):
            note = self.w(PLACEHOLDER_NOTE)
            out.append(Spacer(1, 4))
            out.append(badge_note(Paragraph(self.para(note, "regular", 9), body), self))
        return out

    def edition(self) -> str:
        """'Content pack version 1, 25 November 2026', dates and numbers by locale."""
        import datetime

        from babel.dates import format_date

        meta = self.game.meta
        text = self.w("Content pack version {version}").format(version=meta.version)
        if meta.date:
            day = datetime.date.fromisoformat(meta.date)
            text += " · " + format_date(day, format="long", locale=self.lang)
        return text

    def cell(self, value: Any, unit: str | None) -> str:
        """A table cell as printed (the same format as on faces)."""
        return cell_text(value, unit, self.lang, self.translator.text)

    def table(
        self, table: TableModel, h2: ParagraphStyle, body: ParagraphStyle, small: ParagraphStyle
    ) -> list[Flowable]:
        """A game table: its title, a header row, its rows and its note. The title goes to the
        page its table starts on, never alone at the bottom of a page; a table taller than a
        page goes on over the next ones, its header row repeated."""
        t = self.translator.text
        tbl = self._table_grid(table, body)
        width, room = _smallest_frame(self.SETUP_MARGIN)
        out: list[Flowable] = list(parts(tbl, width, room))
        title = t(table.title) if table.title else ""
        if table.assumption is not None:
            title = f"{title} {MARK}".strip()
        if title:
            heading = Paragraph(self.para(title, "bold", 12), h2)
            out = with_heading(heading, tbl, width, room)
        if table.note:
            out.extend(self.paragraphs(t(table.note), small))
        return out

    def _column_widths(self, table: TableModel) -> list[float]:
        """Columns of at most 34 mm, in 180 mm; a column of sentences (a cell of more than
        TEXT_CELL characters) takes the width the others leave, up to 110 mm."""
        avail = pt(180)
        ncols = max(len(table.columns), 1)
        base = min(avail / ncols, pt(34))
        longest = [
            max((len(self.cell(cells.get(c.id, ""), c.unit)) for cells in table.cells), default=0)
            for c in table.columns
        ]
        wide = [i for i, n in enumerate(longest) if n > TEXT_CELL]
        if not wide or base * ncols >= avail:
            return [base] * ncols
        each = min((avail - base * (ncols - len(wide))) / len(wide), pt(110))
        return [each if i in wide else base for i in range(ncols)]

    def _table_grid(self, table: TableModel, body: ParagraphStyle) -> Table:
        """The table itself: a header row of column titles, then its rows."""
        t = self.translator.text
        font = self.fonts.main
        head = ParagraphStyle(
            "th", parent=body, fontName=font.font("bold"), fontSize=8.5, leading=10.5, alignment=1
        )
        cellst = ParagraphStyle(
            "td", parent=body, fontSize=9, leading=10.5, alignment=1, spaceAfter=0
        )
        widths = self._column_widths(table)
        header = [  # a word wider than its column is hyphenated, never cut mid-word
            Paragraph(
                header_xml(
                    t(c.title) if c.title else c.id,
                    width - CELL_PADDING,
                    self.fonts,
                    self.engine.icons,
                    self.lang,
                    8.5,
                ),
                head,
            )
            for c, width in zip(table.columns, widths, strict=True)
        ]
        rows = [header]
        for cells in table.cells:
            rows.append(
                [
                    Paragraph(
                        self.para(self.cell(cells.get(c.id, ""), c.unit), "regular", 9), cellst
                    )
                    for c in table.columns
                ]
            )
        rtl = is_rtl(self.lang)  # right to left, a table reads from the right: columns swap
        first = -1 if rtl else 0  # the column of row headings
        if rtl:
            rows, widths = [row[::-1] for row in rows], widths[::-1]
        tbl = Table(rows, colWidths=widths, repeatRows=1, hAlign="RIGHT" if rtl else "LEFT")
        tbl.setStyle(
            TableStyle(
                [
                    ("FONT", (0, 0), (-1, -1), font.font("regular"), 9),
                    ("GRID", (0, 0), (-1, -1), 0.4, colors.HexColor("#888888")),
                    ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e6e6e6")),
                    ("BACKGROUND", (first, 1), (first, -1), colors.HexColor("#f3f3f3")),
                    ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                    ("TOPPADDING", (0, 0), (-1, -1), 1.5),
                    ("BOTTOMPADDING", (0, 0), (-1, -1), 2.5),
                ]
            )
        )
        return tbl


PLACEHOLDER_NOTE = (
    "Placeholder: the rulebook does not publish the text of a card or board with this mark; "
    "what it says stands in for it so that the counts hold. Where you have the published "
    "card, use it."
)


def has_placeholders(game: Game) -> bool:
    """Whether anything the game prints carries the placeholder mark."""
    items: list[Any] = [c for _o, c in game.every_card()] + list(game.boards.values())
    return any(getattr(item, "placeholder", False) for item in items)


def badge_note(note: Flowable, renderer: Any) -> Flowable:
    """A note beside the placeholder mark drawn as on the faces (the right of it, right to
    left)."""
    side = pt(4.0)
    badge = _Badge(side, renderer.fonts.main.font("bold"))
    font = renderer.fonts.main.font("regular")
    return bare_table([[badge, note]], [side + 6, None], font, rtl=is_rtl(renderer.lang))


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


TEXT_CELL = 16  # characters: a longer cell is a sentence, its column gets room
CELL_PADDING = 12.0  # points: a reportlab table cell's default padding, 6 at each side
FRAME_PADDING = 12.0  # points: a reportlab Frame's default padding, 6 at each side


def _smallest_frame(margin: float) -> tuple[float, float]:
    """The width and height (points) a setup page's frame gives on the smallest paper."""
    papers = [p.portrait() for p in PAPERS.values()]
    width = pt(min(p.w for p in papers) - 2 * margin) - FRAME_PADDING
    return width, pt(min(p.h for p in papers) - 2 * margin) - FRAME_PADDING
