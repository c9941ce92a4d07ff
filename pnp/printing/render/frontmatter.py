"""The first page's front matter: a boxed "How to print" note, then what this copy holds.

A player reads the first page on screen before pressing Print, so it says first how to print
this PDF (in body-size type, in the game's language, following the build's options), then
lists the components: each line of the game's box with the pages that print it, what the
players must bring, and anything printed that the box does not list.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Spacer, Table, TableStyle
from reportlab.platypus.flowables import Flowable

from ...typeset.layout import Paragraph  # reportlab's, or pnp's layout for shaped/RTL text
from ...typeset.scripts import is_rtl
from ..imposition.contents import Component, components, page_ranges
from .context import RenderContext
from .flow import bare_table
from .instructions import HEADING, print_advice

BOX_BORDER = 1.5  # points: the printing note's frame, visible at a glance
BULLET = "•"
CONTENTS = "What this copy holds"
PAGES = ("page {pages}", "pages {pages}")
BRING = "not printed: bring your own"
NOT_PRINTED = "not printed in this copy"
MESSAGES = (CONTENTS, PAGES[0], BRING, NOT_PRINTED)  # sheet words, for the tests


class FrontMatter:
    """Writes the top of the first page, from the print options and the page plan."""

    def __init__(self, ctx: RenderContext) -> None:
        self.ctx = ctx

    def flowables(self, width: float, styles: dict[str, ParagraphStyle]) -> list[Flowable]:
        """The printing note and the component list, ``width`` points wide."""
        return [
            self._print_box(width, styles["body"]),
            Spacer(1, 4),
            *self._contents(width, styles),
        ]

    def _print_box(self, width: float, body: ParagraphStyle) -> Flowable:
        """How to print, in a frame: a heading, then one bullet a sentence."""
        ctx = self.ctx
        bold = ctx.fonts.main.font("bold")
        head = ParagraphStyle("box-h", parent=body, fontName=bold, fontSize=12, leading=15)
        text = ParagraphStyle("box-p", parent=body, fontSize=9.5, leading=12, spaceAfter=1)
        pad = 6.0
        inner = width - 2 * pad
        sentences = print_advice(ctx.w, ctx.layout, list(ctx.plan), ctx.lang)
        rows: list[list[object]] = [[Paragraph(ctx.para(ctx.w(HEADING), "bold", 12), head)]]
        rows.append([self._bullets(sentences, inner, text)])
        box = Table(rows, colWidths=[width], hAlign="RIGHT" if is_rtl(ctx.lang) else "LEFT")
        box.setStyle(
            TableStyle(
                [
                    ("FONT", (0, 0), (-1, -1), ctx.fonts.main.font("regular"), 9),
                    ("BOX", (0, 0), (-1, -1), BOX_BORDER, colors.black),
                    ("LEFTPADDING", (0, 0), (-1, -1), pad),
                    ("RIGHTPADDING", (0, 0), (-1, -1), pad),
                    ("TOPPADDING", (0, 0), (-1, 0), pad - 1),
                    ("BOTTOMPADDING", (0, -1), (-1, -1), pad - 1),
                    ("TOPPADDING", (0, 1), (-1, -1), 0),
                    ("BOTTOMPADDING", (0, 0), (-1, 0), 0),
                ]
            )
        )
        return box

    def _bullets(self, sentences: list[str], width: float, style: ParagraphStyle) -> Table:
        """Sentences as a bulleted list with hanging lines (the bullet on the reading side)."""
        mark = 10.0
        size = style.fontSize
        bullet = self.ctx.para(BULLET, "bold", size)
        rows = [
            [Paragraph(bullet, style), Paragraph(self.ctx.para(s, "regular", size), style)]
            for s in sentences
        ]
        font = self.ctx.fonts.main.font("regular")
        return bare_table(rows, [mark, width - mark], font, bottom=1.5, rtl=is_rtl(self.ctx.lang))

    def _contents(self, width: float, styles: dict[str, ParagraphStyle]) -> list[Flowable]:
        """What this copy holds: a line for each component with its pages, in two columns
        (read down the first, then the second)."""
        ctx = self.ctx
        found = components(ctx.game, list(ctx.plan))
        if not found:
            return []
        half = _balanced(self._component_text(c) for c in found)
        gap = 12.0
        col = (width - gap) / 2
        parts = [part for part in (found[:half], found[half:]) if part]
        columns = [self._contents_table(part, col, styles["body"]) for part in parts]
        font = ctx.fonts.main.font("regular")
        outer = bare_table([columns], [col + gap / 2] * len(columns), font, rtl=is_rtl(ctx.lang))
        heading = Paragraph(ctx.para(ctx.w(CONTENTS), "bold", 12), styles["h2"])
        return [heading, outer]

    def _contents_table(self, found: list[Component], width: float, body: ParagraphStyle) -> Table:
        """Components, one a row: its text, then its pages (the other way round, right to
        left)."""
        cell = ParagraphStyle("contents", parent=body, fontSize=9, leading=11, spaceAfter=0)
        where_w = min(width * 0.32, 80.0)
        rows = [
            [
                Paragraph(self.ctx.para(self._component_text(c), "regular", 9), cell),
                Paragraph(self.ctx.para(self._component_pages(c), "regular", 9), cell),
            ]
            for c in found
        ]
        widths = [width - where_w, where_w]
        if is_rtl(self.ctx.lang):
            rows, widths = [r[::-1] for r in rows], widths[::-1]
        table = Table(rows, colWidths=widths)
        table.setStyle(
            TableStyle(
                [
                    ("FONT", (0, 0), (-1, -1), self.ctx.fonts.main.font("regular"), 9),
                    ("VALIGN", (0, 0), (-1, -1), "TOP"),
                    ("LINEBELOW", (0, 0), (-1, -1), 0.3, colors.HexColor("#999999")),
                    ("LEFTPADDING", (0, 0), (-1, -1), 2),
                    ("RIGHTPADDING", (0, 0), (-1, -1), 2),
                    ("TOPPADDING", (0, 0), (-1, -1), 1.5),
                    ("BOTTOMPADDING", (0, 0), (-1, -1), 2.5),
                ]
            )
        )
        return table

    def _component_text(self, c: Component) -> str:
        """The line as the box gives it, or the name and number of what no line counts."""
        t = self.ctx.translator.text
        if c.entry is not None:
            if c.entry.item is not None:
                return t(c.entry.item)
            return f"{c.entry.count} × {_selector_ids(c.entry)}"
        owner = c.owner
        name = getattr(owner, "name", None) or getattr(owner, "title", None)
        label = t(name) if name is not None else getattr(owner, "id", "")
        return f"{label} ({c.copies})"

    def _component_pages(self, c: Component) -> str:
        """Where it is printed ("pages 3–8, 12"), or that the players bring it."""
        if c.bring:
            return f"_{self.ctx.w(BRING)}_"
        if not c.pages:
            return f"_{self.ctx.w(NOT_PRINTED)}_"
        ranges = page_ranges(c.pages)
        text = ", ".join(f"{a}" if a == b else f"{a}–{b}" for a, b in ranges)
        many = len(c.pages) > 1
        return self.ctx.w(PAGES[0], 2 if many else 1).format(pages=text)


def _selector_ids(entry: object) -> str:
    """The ids a box line names, for a line without its own text."""
    for name in ("card", "deck", "tokens", "token", "board", "tag"):
        value = getattr(entry, name, None)
        if value:
            return ", ".join(value) if isinstance(value, list) else str(value)
    return ""


def _balanced(texts: Iterable[str], chars: int = 38) -> int:
    """Where to cut a list of lines into two columns of about the same height: each line
    weighs the rows its text takes at about ``chars`` characters a row."""
    weights = [max(1, math.ceil(len(t) / chars)) for t in texts]
    total, run = sum(weights), 0
    for i, w in enumerate(weights):
        if run + w / 2 >= total / 2:
            return max(i, 1) if len(weights) > 1 else 1
        run += w
    return len(weights)
