"""The game's tables on the setup sheet: a title kept with its table, a header row of column
titles (hyphenated, never cut mid-word), its rows, its note; a table taller than a page goes on
over the next ones, its header row repeated. Cells print as on the faces (``cell_text``)."""

from __future__ import annotations

from functools import partial
from typing import Any

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Table, TableStyle
from reportlab.platypus.flowables import Flowable

from ...content.model import Table as TableModel
from ...core.units import pt
from ...typeset.faces import cell_text
from ...typeset.faces.marks import MARK
from ...typeset.headers import header_xml
from ...typeset.layout import Paragraph  # reportlab's, or pnp's layout for shaped/RTL text
from ...typeset.scripts import is_rtl
from .context import RenderContext
from .flow import Rows, parts, smallest_frame, with_heading

TEXT_CELL = 16  # characters: a longer cell is a sentence, its column gets room
CELL_PADDING = 12.0  # points: a reportlab table cell's default padding, 6 at each side


class SetupTables:
    """Lays out the game's tables for the setup sheet."""

    def __init__(self, ctx: RenderContext) -> None:
        self.ctx = ctx

    def cell(self, value: Any, unit: str | None, labels: dict[str, Any] | None = None) -> str:
        """A table cell as printed (the same format as on faces)."""
        return cell_text(value, unit, self.ctx.lang, self.ctx.translator.text, labels)

    def table(
        self, table: TableModel, h2: ParagraphStyle, body: ParagraphStyle, small: ParagraphStyle
    ) -> list[Flowable]:
        """A game table: its title, a header row, its rows and its note. The title goes to the
        page its table starts on, never alone at the bottom of a page; a table taller than a
        page goes on over the next ones, its header row repeated."""
        t = self.ctx.translator.text
        rows = self.grid(table, body)
        width, room = smallest_frame()
        out: list[Flowable] = list(parts(rows, width, room))
        title = t(table.title) if table.title else ""
        if table.assumption is not None:
            title = f"{title} {MARK}".strip()
        if title:
            heading = Paragraph(self.ctx.para(title, "bold", 12), h2)
            out = with_heading(heading, rows, width, room)
        if table.note:
            out.extend(self.ctx.paragraphs(t(table.note), small))
        return out

    def column_widths(self, table: TableModel) -> list[float]:
        """Columns of at most 34 mm, in 180 mm; a column of sentences (a cell of more than
        TEXT_CELL characters) takes the width the others leave, up to 110 mm."""
        avail = pt(180)
        ncols = max(len(table.columns), 1)
        base = min(avail / ncols, pt(34))
        longest = [
            max(
                (len(self.cell(cells.get(c.id, ""), c.unit, c.labels)) for cells in table.cells),
                default=0,
            )
            for c in table.columns
        ]
        wide = [i for i, n in enumerate(longest) if n > TEXT_CELL]
        if not wide or base * ncols >= avail:
            return [base] * ncols
        each = min((avail - base * (ncols - len(wide))) / len(wide), pt(110))
        return [each if i in wide else base for i in range(ncols)]

    def grid(self, table: TableModel, body: ParagraphStyle) -> Rows:
        """The table itself: a header row of column titles, then its rows."""
        t = self.ctx.translator.text
        font = self.ctx.fonts.main
        head = ParagraphStyle(
            "th", parent=body, fontName=font.font("bold"), fontSize=8.5, leading=10.5, alignment=1
        )
        cellst = ParagraphStyle(
            "td", parent=body, fontSize=9, leading=10.5, alignment=1, spaceAfter=0
        )
        widths = self.column_widths(table)
        header = [  # a word wider than its column is hyphenated, never cut mid-word
            Paragraph(
                header_xml(
                    t(c.title) if c.title else c.id,
                    width - CELL_PADDING,
                    self.ctx.fonts,
                    self.ctx.engine.icons,
                    self.ctx.lang,
                    8.5,
                ),
                head,
            )
            for c, width in zip(table.columns, widths, strict=True)
        ]
        body_rows = [  # so is a word of a cell ("Entwicklungskarte" in a narrow column)
            [
                Paragraph(
                    header_xml(
                        self.cell(cells.get(c.id, ""), c.unit, c.labels),
                        width - CELL_PADDING,
                        self.ctx.fonts,
                        self.ctx.engine.icons,
                        self.ctx.lang,
                        9,
                        face="regular",
                    ),
                    cellst,
                )
                for c, width in zip(table.columns, widths, strict=True)
            ]
            for cells in table.cells
        ]
        rtl = is_rtl(self.ctx.lang)  # right to left, a table reads from the right: columns swap
        if rtl:
            header, body_rows, widths = header[::-1], [r[::-1] for r in body_rows], widths[::-1]
        return Rows(header, body_rows, partial(_table, widths, rtl, font.font("regular")))


def _table(widths: list[float], rtl: bool, font: str, rows: list[list[Any]]) -> Table:
    """A table of the setup sheet: ``rows``, the header row first, in the sheet's style."""
    first = -1 if rtl else 0  # the column of row headings
    tbl = Table(rows, colWidths=widths, repeatRows=1, hAlign="RIGHT" if rtl else "LEFT")
    tbl.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), font, 9),
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
