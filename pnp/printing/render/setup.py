"""The setup sheet: the game's title, set-up text, tables, scenarios, how to print, edition.

The sheet is a flow of paragraphs and tables over as many pages as it needs; the planner
reserves them (:meth:`SetupSheet.count_setup_pages` measures on a scratch canvas), and each
setup page draws the next part of the flow.
"""

from __future__ import annotations

import io
from typing import Any

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
from ...typeset.faces.marks import MARK
from ...typeset.layout import Paragraph  # reportlab's, or pnp's layout for shaped/RTL text
from ...typeset.scripts import is_rtl
from ..imposition import Options, Page, plan_document
from .instructions import print_advice
from .pen import Pen
from .scenarios import ScenarioSteps


class SetupSheet(ScenarioSteps):
    """The renderer's part that draws the setup sheet."""

    SETUP_MARGIN = 15.0
    _setup_body: list[Flowable] | None = None  # the sheet up to the advice (setup_flowables)

    def _setup_frame(self, page: Size) -> Frame:
        """The frame the sheet flows into on a page, inside its margins."""
        m = self.SETUP_MARGIN
        return Frame(pt(m), pt(m), pt(page.w - 2 * m), pt(page.h - 2 * m), showBoundary=0)

    def plan_pages(self, layout: Options, guess: int = 1) -> list[Page]:
        """The document's page plan, with as many setup pages as the sheet takes.

        The sheet's printing advice names page numbers of the plan, so: plan with ``guess``
        setup pages, measure the sheet, and plan again while its page count changes (once, in
        practice; not at all when the guess is right, as `pnp watch`'s last count is)."""
        self.layout = layout
        paper = PAPERS[layout.paper].portrait()
        pages = max(1, guess)
        for _ in range(4):
            self.plan = plan_document(self.game, layout, setup_pages=pages)
            counted = self.count_setup_pages(paper)
            if counted == pages:
                break
            pages = counted
        return self.plan

    def count_setup_pages(self, page: Size) -> int:
        """How many pages the setup sheet takes (measured on a scratch canvas: the frames
        wrap each flowable as when drawing, but draw nothing)."""
        flow: list[Flowable] = [_measured(f) for f in self.setup_flowables()]
        scratch = Canvas(io.BytesIO(), pagesize=(pt(page.w), pt(page.h)))
        pages = 0
        while flow and pages < 50:
            before = len(flow)
            self._setup_frame(page).addFromList(flow, scratch)
            scratch.showPage()
            pages += 1
            if len(flow) == before:  # a flowable larger than a page: drop it, report it
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
        flow = self._setup_pending
        before = len(flow)
        self._setup_frame(page.size).addFromList(flow, pen.c)
        if flow and len(flow) == before:
            flow.pop(0)

    def setup_flowables(self) -> list[Flowable]:
        """The whole sheet as a flow of paragraphs and tables, in order: what the game prints
        (made once per renderer: it does not depend on the page plan), then the printing
        advice, which names pages of the plan, the edition and the credits."""
        if self._setup_body is None:
            self._setup_body = self._setup_body_flowables()
        small = self._setup_styles()["small"]
        out = [*self._setup_body, Spacer(1, 10)]
        advice = print_advice(self.w, self.layout, self.plan, self.lang)
        out.append(Paragraph(self.para(advice, "regular", 7.5), small))
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
            "body", fontName=font.font("regular"), fontSize=9.5, leading=12.5, spaceAfter=4
        )
        small = ParagraphStyle(
            "small", parent=body, fontSize=7.5, leading=9.5, textColor=colors.HexColor("#444444")
        )
        return {"h1": h1, "h2": h2, "body": body, "small": small}

    def _setup_body_flowables(self) -> list[Flowable]:
        """The sheet up to the printing advice: title, set-up text, tables, notes, scenarios
        and the assumption mark's note."""
        game = self.game
        t = self.translator.text
        sheet = game.meta.setup_sheet
        styles = self._setup_styles()
        h1, h2, body, small = styles["h1"], styles["h2"], styles["body"], styles["small"]
        out: list[Flowable] = [Paragraph(self.para(t(game.meta.title), "bold", 18), h1)]
        title = t(sheet.title) if sheet and sheet.title else self.w("Setup")
        out.append(Paragraph(self.para(title, "bold", 12), h2))
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
        for scenario in game.scenarios.values():
            out.extend(self.scenario(scenario, h2, body, small))
        if has_assumptions(game):
            mark = self.w(
                "{mark} not given by the rulebook: an assumption of this copy, made so "
                "that the game can be played; where the rulebook says otherwise, follow "
                "the rulebook."
            ).format(mark=MARK)
            out.append(Spacer(1, 6))
            out.append(Paragraph(self.para(mark, "regular", 9.5), body))
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
        out: list[Flowable] = list(_parts(tbl, width, room))
        title = t(table.title) if table.title else ""
        if table.assumption is not None:
            title = f"{title} {MARK}".strip()
        if title:
            heading = Paragraph(self.para(title, "bold", 12), h2)
            out = _with_heading(heading, tbl, width, room)
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
            "td", parent=body, fontSize=9.5, leading=11.5, alignment=1, spaceAfter=0
        )
        header = [
            Paragraph(self.para(t(c.title) if c.title else c.id, "bold", 8.5), head)
            for c in table.columns
        ]
        rows = [header]
        for cells in table.cells:
            rows.append(
                [
                    Paragraph(
                        self.para(self.cell(cells.get(c.id, ""), c.unit), "regular", 9.5), cellst
                    )
                    for c in table.columns
                ]
            )
        widths = self._column_widths(table)
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
                    ("TOPPADDING", (0, 0), (-1, -1), 2),
                    ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
                ]
            )
        )
        return tbl


def has_assumptions(game: Game) -> bool:
    """Whether anything the game prints carries the assumption mark."""
    items: list[Any] = [c for _o, c in game.every_card()]
    items += [*game.boards.values(), *game.tables.values()]
    return any(getattr(item, "assumption", None) is not None for item in items)


TEXT_CELL = 16  # characters: a longer cell is a sentence, its column gets room
FRAME_PADDING = 12.0  # points: a reportlab Frame's default padding, 6 at each side


def _smallest_frame(margin: float) -> tuple[float, float]:
    """The width and height (points) a setup page's frame gives on the smallest paper."""
    papers = [p.portrait() for p in PAPERS.values()]
    width = pt(min(p.w for p in papers) - 2 * margin) - FRAME_PADDING
    return width, pt(min(p.h for p in papers) - 2 * margin) - FRAME_PADDING


def _with_heading(heading: Flowable, tbl: Table, width: float, room: float) -> list[Flowable]:
    """A heading and its table, the table in parts of at most ``room`` points: the heading and
    the first part (the whole table when it fits, else half a page of it) are one block, which
    a setup page's frame places whole or moves whole to the next page."""
    _, below = heading.wrapOn(None, width, room)
    below += max(heading.getSpaceAfter(), tbl.getSpaceBefore())
    if below + tbl.wrapOn(None, width, room)[1] <= room:
        return [_Together([heading, tbl])]
    for first in (room / 2, room):  # its first rows take half a page: they may follow text
        split = tbl.split(width, first - below)
        if len(split) == 2:
            return [_Together([heading, split[0]]), *_parts(split[1], width, room)]
    return [heading, *_parts(tbl, width, room)]  # not even a row fits below the heading


def _parts(tbl: Table, width: float, height: float) -> list[Table]:
    """A table in parts of at most ``height`` points, cut between rows, each part with the
    header row: the setup sheet's frames place whole flowables only. A row taller than that
    stays in its part, which the sheet then reports as too big."""
    parts = []
    while tbl.wrapOn(None, width, height)[1] > height:
        split = tbl.split(width, height)
        if len(split) != 2:
            break
        parts.append(split[0])
        tbl = split[1]
    return [*parts, tbl]


def _measured(flowable: Flowable) -> Flowable:
    """``flowable`` as a frame measures it, not drawn (one that acts on its frame: itself)."""
    return flowable if hasattr(flowable, "frameAction") else _Measured(flowable)


class _Measured(Flowable):
    """A flowable's size and spacing, for counting pages: a frame places it where the
    flowable would go (the same wrap, the same spaces), and drawing it draws nothing."""

    def __init__(self, inner: Flowable) -> None:
        super().__init__()
        self.inner = inner
        for flag in ("_ZEROSIZE", "_SPACETRANSFER"):  # how a frame spaces it
            if hasattr(inner, flag):
                setattr(self, flag, getattr(inner, flag))

    def wrap(self, aW: float, aH: float) -> tuple[float, float]:
        size: tuple[float, float] = self.inner.wrapOn(getattr(self, "canv", None), aW, aH)
        return size

    def getSpaceBefore(self) -> float:
        space: float = self.inner.getSpaceBefore()
        return space

    def getSpaceAfter(self) -> float:
        space: float = self.inner.getSpaceAfter()
        return space

    def drawOn(self, canvas: Any, x: float, y: float, _sW: float = 0) -> None:
        pass


class _Together(Flowable):
    """Flowables drawn as one block, spaced as a frame spaces them: a frame places all of them
    on its page, or moves all of them to the next (reportlab's KeepTogether needs a document
    template to do that; the setup pages fill their frames directly)."""

    def __init__(self, parts: list[Flowable]) -> None:
        super().__init__()
        self.parts = parts
        self._heights: list[float] = []
        self._widths: list[float] = []

    def _gap(self, i: int) -> float:
        """The space between part i - 1 and part i."""
        return float(max(self.parts[i - 1].getSpaceAfter(), self.parts[i].getSpaceBefore()))

    def wrap(self, aW: float, aH: float) -> tuple[float, float]:
        sizes = [part.wrapOn(self.canv, aW, aH) for part in self.parts]
        self._widths = [w for w, _ in sizes]
        self._heights = [h for _, h in sizes]
        self.width = max(w for w, _ in sizes)
        self.height = sum(self._heights) + sum(self._gap(i) for i in range(1, len(self.parts)))
        return self.width, self.height

    def getSpaceBefore(self) -> float:
        return float(self.parts[0].getSpaceBefore())

    def getSpaceAfter(self) -> float:
        return float(self.parts[-1].getSpaceAfter())

    def draw(self) -> None:
        y = self.height
        for i, (part, h) in enumerate(zip(self.parts, self._heights, strict=True)):
            y -= h + (self._gap(i) if i else 0)
            right = getattr(part, "hAlign", "LEFT") == "RIGHT"  # a table read from the right
            part.drawOn(self.canv, self.width - self._widths[i] if right else 0, y)
