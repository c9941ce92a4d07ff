"""Sheet furniture: the page label, the scale bar, the fold line and the blank page's note.

Where each goes is decided by the imposition (:mod:`pnp.printing.imposition.furniture`); this
module draws them (:class:`SheetFurniture`, :func:`fold_line`, :class:`BlankPage`), in the
build language, shortening a label that does not fit its room.
"""

from __future__ import annotations

from collections.abc import Callable

from reportlab.lib import colors
from reportlab.pdfbase.pdfmetrics import stringWidth

from ...core.units import pt
from ...typeset.layout import draw_line, line_width
from ...typeset.scripts import is_rtl
from ...typeset.text import normalise_spaces
from ..imposition import MIN_MARGIN, SCALE_BAR, Furniture, Line, Page
from .context import RenderContext
from .pen import Pen

LABEL_SIZE = 6.0  # points: the page label's type size

# the page label's word for each kind of page (pnp.i18n.words.SHEET_WORDS)
PAGE_KIND_WORDS = {
    "fronts": "fronts",
    "backs": "backs",
    "tokens": "tokens",
    "token-backs": "token backs",
    "board": "board",
    "fold": "fold here",
}


class SheetFurniture:
    """Draws what a sheet carries besides its faces: the scale bar and the page label. Its
    words are drawn in the game's fonts, shaped and in visual order
    (:func:`pnp.typeset.layout.draw_line`): a deck's name or the game's title in Arabic keeps
    its letters."""

    def __init__(self, ctx: RenderContext) -> None:
        self.ctx = ctx

    def draw(self, pen: Pen, page: Page) -> None:
        """The scale bar and the page label, where the plan put them."""
        c = pen.c
        fur = page.furniture
        font = self.ctx.fonts.main.font("regular")
        c.saveState()
        c.setFillColor(colors.black)
        c.setStrokeColor(colors.black)
        if fur.scale_bar is not None:
            self._scale_bar(pen, fur, fur.scale_bar, font)
        if fur.label_width > 0:
            c.setFont(font, 6)
            room = pt(fur.label_width)
            text = fit_label(self.label(page), font, 6, room, self.ctx.measure("regular", 6))
            at, vertical = fur.label_at, fur.label_vertical
            sheet_text(self.ctx, pen, at, text, "regular", 6, vertical=vertical, room=room)
        c.restoreState()

    def label(self, page: Page) -> str:
        """The page label: sheet n of total, what the page prints, the game and the language,
        in the room the plan gives it: the longest of :func:`label_forms` that fits, or, when
        none does, a deck name or the end cut with '…' (:func:`last_resort`)."""
        ctx = self.ctx
        word = PAGE_KIND_WORDS.get(page.kind)
        kind = ctx.w(word) if word is not None else page.kind
        sheet = ctx.w("sheet {n} of {total}").format(n=page.sheet, total=ctx.total_sheets)
        short = f"{page.sheet}/{ctx.total_sheets}"
        names = []
        game = ctx.game
        for gid in filter(None, page.group.split(", ")):
            owner = game.decks.get(gid) or game.tokens.get(gid) or game.boards.get(gid)
            name = getattr(owner, "name", None) or getattr(owner, "title", None)
            names.append(ctx.translator.text(name) if name is not None else gid)
        forms = label_forms(sheet, short, kind, names, ctx.title, ctx.lang)
        room = pt(page.furniture.label_width)
        if room <= 0:  # no room on the page: the full label (what it would say)
            return forms[0]
        font = ctx.fonts.main.font("regular")
        width = ctx.measure("regular", LABEL_SIZE)
        for text in forms:
            if width(text) <= room:
                return text
        return last_resort(short, kind, names, ctx.lang, font, room, width)

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
        text = self.ctx.w("print at 100 %: this bar measures {length} mm").format(
            length=f"{SCALE_BAR:g}"
        )
        width = self.ctx.measure("regular", 6)
        text = fit_label(normalise_spaces(text), font, 6, pt(fur.scale_text_room), width)
        c.setFont(font, 6)
        if fur.scale_vertical:
            sheet_text(self.ctx, pen, (bar.x1 + 2.4, bar.y2), text, "regular", 6, vertical=True)
        else:
            sheet_text(self.ctx, pen, (bar.x1, bar.y1 + 2.4), text, "regular", 6)


def sheet_text(
    ctx: RenderContext,
    pen: Pen,
    at: tuple[float, float],
    text: str,
    face: str,
    size: float,
    **how: object,
) -> None:
    """A line of the sheet's text at ``at`` (mm), in the colour ``how["color"]``;
    ``how["vertical"]``: read from the bottom up; ``how["room"]`` (points): right to left, the
    text ends at the end of that room instead of starting at ``at``."""
    c = pen.c
    vertical = bool(how.get("vertical", False))
    room = float(how.get("room", 0.0))  # type: ignore[arg-type]
    color = str(how.get("color", "#000000"))
    shift = max(room - line_width(text, ctx.fonts, face, size, ctx.lang), 0.0)
    shift = shift if room and is_rtl(ctx.lang) else 0.0
    x, y = at
    if vertical:
        c.saveState()
        c.translate(pen.x(x), pen.y(y))
        c.rotate(90)
        draw_line(c, shift, 0, text, ctx.fonts, face, size, ctx.lang, color)
        c.restoreState()
    else:
        draw_line(c, pen.x(x) + shift, pen.y(y), text, ctx.fonts, face, size, ctx.lang, color)


def fold_line(pen: Pen, page: Page) -> None:
    """The gutter fold: a dashed line across the cards (the page label says "fold here";
    the line stops short of the crop marks in the margins)."""
    assert page.fold is not None
    c = pen.c
    c.saveState()
    c.setStrokeColor(colors.HexColor("#555555"))
    c.setLineWidth(0.6)
    c.setDash(4, 3)
    pen.line(page.fold)
    c.restoreState()


class BlankPage:
    """Draws the back of a sheet that has none ("blank" pages)."""

    def __init__(self, ctx: RenderContext) -> None:
        self.ctx = ctx

    def draw(self, pen: Pen, page: Page) -> None:
        """A note that the page is blank on purpose, 8 mm above the bottom edge, set smaller
        (then cut) when it is wider than the printable area."""
        ctx = self.ctx
        c = pen.c
        font = ctx.fonts.main.font("italic")
        text = ctx.w("This side is left blank on purpose (duplex printing).")
        room = pt(page.size.w - 2 * MIN_MARGIN)
        size = 7.0
        while size > 5 and ctx.measure("italic", size)(text) > room:
            size -= 0.5
        c.setFont(font, size)
        c.setFillColor(colors.grey)
        width = ctx.measure("italic", size)
        text = fit_label(text, font, size, room, width)
        x = pt(page.size.w / 2) - width(text) / 2
        draw_line(c, x, pt(8), text, ctx.fonts, "italic", size, ctx.lang, "#808080")


def label_forms(
    sheet: str, short: str, kind: str, names: list[str], title: str, lang: str
) -> list[str]:
    """A page label's forms, from the longest to the shortest: in full ("sheet 2 of 9 ·
    fronts (Deck A, Deck B) · Title · it"), the sheet as n/total ("2/9 · fronts (Deck A,
    Deck B) · Title · it"), without the game's title, then with fewer names and how many
    more ("2/9 · fronts (Deck A +1) · it"). The sheet, what it prints and the language stay."""

    def group(shown: list[str], more: int) -> str:
        inner = ", ".join(shown) + (f" +{more}" if more else "")
        return f" ({inner})" if inner else ""

    every = group(names, 0)
    forms = [
        f"{sheet} · {kind}{every} · {title} · {lang}",
        f"{short} · {kind}{every} · {title} · {lang}",
    ]
    for k in range(len(names), 0, -1):
        forms.append(f"{short} · {kind}{group(names[:k], len(names) - k)} · {lang}")
    if not names:
        forms.append(f"{short} · {kind} · {lang}")
    return forms


def last_resort(
    short: str,
    kind: str,
    names: list[str],
    lang: str,
    font: str,
    room: float,
    measure: Callable[[str], float] | None = None,
) -> str:
    """A label for a room too small for every form of :func:`label_forms`: the first name cut
    with '…' while three of its letters are left, else no names; cut at the end if needed.
    ``measure``: a text's width in points (default: in ``font`` at LABEL_SIZE)."""
    if names:
        more = f" +{len(names) - 1}" if len(names) > 1 else ""
        width = measure or (lambda t: stringWidth(t, font, LABEL_SIZE))
        rest = width(f"{short} · {kind} ({more}) · {lang}")
        name = fit_label(names[0], font, LABEL_SIZE, room - rest, measure)
        if len(name.rstrip("…").strip()) >= 3:
            return f"{short} · {kind} ({name}{more}) · {lang}"
    return fit_label(f"{short} · {kind} · {lang}", font, LABEL_SIZE, room, measure)


def fit_label(
    text: str,
    font: str,
    size: float,
    width: float,
    measure: Callable[[str], float] | None = None,
) -> str:
    """The text, shortened with an ellipsis when it is wider than ``width`` points;
    ``measure``: a text's width in points (default: in ``font`` at ``size``)."""
    wide = measure or (lambda t: stringWidth(t, font, size))
    if wide(text) <= width:
        return text
    while text and wide(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"
