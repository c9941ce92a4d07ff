"""Sheet furniture: the page label, the scale bar, the fold line and the blank page's note.

Where each goes is decided by the imposition (:mod:`pnp.printing.imposition.furniture`); this
module draws them, in the build language, shortening a label that does not fit its room.
"""

from __future__ import annotations

from reportlab.lib import colors

from ...core.units import pt
from ...typeset.text import normalise_spaces
from ..imposition import SCALE_BAR, Furniture, Line, Page
from .base import RendererBase
from .pen import Pen

# the page label's word for each kind of page (pnp.i18n.words.SHEET_WORDS)
PAGE_KIND_WORDS = {
    "fronts": "fronts",
    "backs": "backs",
    "tokens": "tokens",
    "token-backs": "token backs",
    "board": "board",
    "fold": "fold here",
}


class SheetFurniture(RendererBase):
    """The renderer's part that draws what a sheet carries besides its faces."""

    def label(self, page: Page) -> str:
        """The page label: sheet n of total, what the page prints, the game and language."""
        word = PAGE_KIND_WORDS.get(page.kind)
        kind = self.w(word) if word is not None else page.kind
        sheet = self.w("sheet {n} of {total}").format(n=page.sheet, total=self.total_sheets)
        names = []
        for gid in filter(None, page.group.split(", ")):
            owner = (
                self.game.decks.get(gid) or self.game.tokens.get(gid) or self.game.boards.get(gid)
            )
            name = getattr(owner, "name", None) or getattr(owner, "title", None)
            names.append(self.translator.text(name) if name is not None else gid)
        group = f" ({', '.join(names)})" if names else ""
        return f"{sheet} · {kind}{group} · {self.title} · {self.lang}"

    def furniture(self, pen: Pen, page: Page) -> None:
        """The scale bar and the page label, where the plan put them."""
        c = pen.c
        fur = page.furniture
        font = self.fonts.main.font("regular")
        c.saveState()
        c.setFillColor(colors.black)
        c.setStrokeColor(colors.black)
        if fur.scale_bar is not None:
            self._scale_bar(pen, fur, fur.scale_bar, font)
        if fur.label_width > 0:
            c.setFont(font, 6)
            text = fit_label(self.label(page), font, 6, pt(fur.label_width))
            lx, ly = fur.label_at
            pen.text(lx, ly, text, fur.label_vertical)
        c.restoreState()

    def _scale_bar(self, pen: Pen, fur: Furniture, bar: Line, font: str) -> None:
        """A bar of SCALE_BAR mm with five ticks, and what it should measure."""
        c = pen.c
        c.setLineWidth(0.8)
        pen.line(bar)
        ticks = 5
        for i in range(ticks + 1):
            f = i / ticks
            x = bar.x1 + (bar.x2 - bar.x1) * f
            y = bar.y1 + (bar.y2 - bar.y1) * f
            tick = 1.6 if i in (0, ticks) else 1.0
            if fur.scale_vertical:
                pen.line(Line(x, y, x - tick, y))
            else:
                pen.line(Line(x, y, x, y - tick))
        text = self.w("print at 100 %: this bar measures {length} mm").format(
            length=f"{SCALE_BAR:g}"
        )
        text = fit_label(normalise_spaces(text), font, 6, pt(fur.scale_text_room))
        c.setFont(font, 6)
        if fur.scale_vertical:
            pen.text(bar.x1 + 2.4, bar.y2, text, vertical=True)
        else:
            pen.text(bar.x1, bar.y1 + 2.4, text)

    def fold_line(self, pen: Pen, page: Page) -> None:
        """The gutter fold: a dashed line, and "fold here" along it."""
        assert page.fold is not None
        c = pen.c
        c.saveState()
        c.setStrokeColor(colors.HexColor("#555555"))
        c.setLineWidth(0.6)
        c.setDash(4, 3)
        pen.line(page.fold)
        c.setDash()
        c.setFont(self.fonts.main.font("italic"), 6.5)
        c.setFillColor(colors.HexColor("#555555"))
        f = page.fold
        label = self.w("fold here")
        if f.y1 == f.y2:
            pen.text(2, f.y1 - 1, label)
        else:
            pen.text(f.x1 - 1, page.size.h - 2, label, vertical=True)
        c.restoreState()

    def blank(self, pen: Pen, page: Page) -> None:
        """The back of a sheet that has none: a note that it is blank on purpose."""
        c = pen.c
        c.setFont(self.fonts.main.font("italic"), 7)
        c.setFillColor(colors.grey)
        c.drawCentredString(
            pt(page.size.w / 2),
            pt(8),
            self.w("This side is left blank on purpose (duplex printing)."),
        )


def fit_label(text: str, font: str, size: float, width: float) -> str:
    """The text, shortened with an ellipsis when it is wider than ``width`` points."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    if stringWidth(text, font, size) <= width:
        return text
    while text and stringWidth(text + "…", font, size) > width:
        text = text[:-1]
    return text.rstrip() + "…"
