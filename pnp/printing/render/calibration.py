"""Duplex calibration: a sheet that measures how far a printer shifts the backs.

The front has five crosses, the instructions, and a check of the scale: a bar of
:data:`BAR` mm to measure with a ruler and the outline of a bank card (ISO/IEC 7810 ID-1).
The back has, for each cross, two rulers beside the spot where the cross lands when the
printer is perfect: the X ruler (horizontal) below or above that spot, the Y ruler (vertical)
beside it, each :data:`GAP` mm away, so nothing is drawn around the spot and the rulers never
meet. They point towards the middle of the page, and so does what is written beside them.

Held against a window, a cross's vertical line meets the X ruler at X and its horizontal line
meets the Y ruler at Y, read in mm with + to the right and down as the back is read: ``pnp
build --back-offset X,Y`` draws the backs mirrored and then shifted by (X, Y), which moves
the rulers' 0 onto the cross. A sheet made with ``--back-offset`` draws its rulers shifted
the same way, so its crosses read 0 when that offset is right, else what to add to it.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass

from babel.numbers import format_decimal
from reportlab.lib import colors
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from ...compat import reportlab as rl
from ...core.units import PT_PER_MM, Size, pt
from ...i18n.words import gettext
from ...typeset.fonts import FontSet
from ..imposition import Duplex, Line, Page, Rect, mirror
from .pen import Pen

RANGE = 5  # the rulers read -RANGE..+RANGE mm: ticks every 0.5 mm, a number every 1 mm
GAP = 7.0  # mm from where a cross lands to each ruler's line: the readings near 0 stay clear
ARM = 16.0  # half a cross's arm: it reaches through the other ruler's ticks at ±RANGE
CORNER = 30.0  # the corner crosses' distance from the paper's edges
MAX_OFFSET = 10.0  # mm: the largest back offset a sheet checks (its rulers stay printable)
HALF_TICK, WHOLE_TICK = 1.2, 2.0  # mm
NUMBER_PT, CAPTION_PT, TEXT_PT, SMALL_PT = 6.0, 9.0, 10.0, 9.0
NARROW = 0.78  # the rulers' numbers, drawn narrower: a number every mm, and room between them
DIGIT = 0.72  # a digit's height in ems (Noto Sans, DejaVu Sans)
BAR = 100.0  # mm: the scale check a ruler measures
CARD = Size(85.6, 53.98)  # ISO/IEC 7810 ID-1: a bank card, the scale check without a ruler
CARD_RADIUS = 3.18

Words = Callable[[str], str]


@dataclass(frozen=True)
class Spot:
    """Where a cross lands on the back (mm), and the side its rulers go: ``ox`` +1 puts the Y
    ruler right of the spot, -1 left; ``oy`` +1 puts the X ruler below, -1 above."""

    x: float
    y: float
    ox: int
    oy: int


def crosses(paper: Size) -> list[tuple[float, float]]:
    """The front's crosses: the centre of the page and one near each corner."""
    w, h = paper.w, paper.h
    far_x, far_y = w - CORNER, h - CORNER
    return [(w / 2, h / 2), (CORNER, CORNER), (far_x, CORNER), (CORNER, far_y), (far_x, far_y)]


def spots(paper: Size, duplex: Duplex, offset: tuple[float, float]) -> list[Spot]:
    """Where each cross lands on the back, shifted by ``offset`` as ``pnp build`` shifts
    backs; its rulers go towards the middle of the page (right of and below the centre)."""
    out = []
    for x, y in crosses(paper):
        m = mirror(Rect(x, y, 0, 0), paper, duplex)
        ox = 1 if m.x <= paper.w / 2 else -1
        oy = 1 if m.y <= paper.h / 2 else -1
        out.append(Spot(m.x + offset[0], m.y + offset[1], ox, oy))
    return out


def check_layout(paper: Size) -> tuple[Line, Rect]:
    """The front's scale check: the bar (its line) and the bank card's outline."""
    top = paper.h / 2 + ARM + 5.0
    bar = Line(paper.w / 2 - BAR / 2, top + 3.5, paper.w / 2 + BAR / 2, top + 3.5)
    card = Rect(paper.w / 2 - CARD.w / 2, top + 18.0, CARD.w, CARD.h)  # two lines above it
    return bar, card


def draw_calibration(pen: Pen, page: Page, fonts: FontSet, lang: str, duplex: Duplex) -> None:
    """Duplex calibration: crosses and the scale check on the front, rulers on the back."""

    def gettext_(message: str) -> str:
        return gettext(message, lang)

    offset = page.payload if isinstance(page.payload, tuple) else (0.0, 0.0)
    c = pen.c
    c.setStrokeColor(colors.black)
    c.setFillColor(colors.black)
    if page.side == "front":
        _front(pen, fonts, gettext_, lang, duplex, offset)
        return
    font, bold = fonts.main.font("regular"), fonts.main.font("bold")
    x_caption, y_caption = gettext_("X: + is right"), gettext_("Y: + is down")
    c.setLineWidth(0.3)
    for spot in spots(pen.page, duplex, offset):
        _x_ruler(pen, spot, font, bold)
        _y_ruler(pen, spot, font, bold)
        _captions(pen, spot, bold, x_caption, y_caption)
    # the back's words go behind the card's empty outline, clear of the front's words
    _, card = check_layout(pen.page)
    box = mirror(Rect(card.x + 4.0, card.y + 4.0, card.w - 8.0, card.h - 8.0), pen.page, duplex)
    y = _lines(pen, bold, 11.0, [gettext_("Duplex calibration — back")], box.x, box.y, box.w)
    texts = [
        gettext_("X on the horizontal ruler, Y on the vertical one (mm, + is right and down)."),
        gettext_("Then build with --back-offset X,Y, e.g. --back-offset 1.5,-0.5."),
    ]
    texts += _offset_note(gettext_, offset)
    _lines(pen, font, SMALL_PT, texts, box.x, y + 1.0, box.w, gap=1.2)


def _offset_note(gettext_: Words, offset: tuple[float, float]) -> list[str]:
    if offset == (0.0, 0.0):
        return []
    note = gettext_(
        "This sheet is shifted by --back-offset {offset}: if the crosses read 0, that offset is "
        "right; otherwise add what they read to it."
    )
    return [note.format(offset=f"{offset[0]:g},{offset[1]:g}")]


def _front(
    pen: Pen,
    fonts: FontSet,
    gettext_: Words,
    lang: str,
    duplex: Duplex,
    offset: tuple[float, float],
) -> None:
    """The crosses, the steps to follow, and the scale check."""
    c = pen.c
    W, H = pen.page.w, pen.page.h
    c.setLineWidth(0.5)
    for x, y in crosses(pen.page):
        pen.line(Line(x - ARM, y, x + ARM, y))
        pen.line(Line(x, y - ARM, x, y + ARM))
    if duplex == "short":
        first = gettext_(
            "Print this sheet double-sided, flipping on the short edge, at 100 % (actual size)."
        )
    else:
        first = gettext_(
            "Print this sheet double-sided, flipping on the long edge, at 100 % (actual size)."
        )
    steps = [
        first,
        gettext_(
            "Check the scale below. Then hold the sheet against a window, the back towards you."
        ),
        gettext_("Looking at the back, read where each cross shows through on its rulers:"),
        gettext_("X on the horizontal ruler, Y on the vertical one (mm, + is right and down)."),
        gettext_("Then build with --back-offset X,Y, e.g. --back-offset 1.5,-0.5."),
        gettext_(
            "Read the centre cross. If the corner crosses read more than 0.5 mm apart from it, "
            "the printer also turns or scales the back, which no offset can correct."
        ),
        *_offset_note(gettext_, offset),
    ]
    width = min(W - 40.0, 150.0)
    left, top, bottom = (W - width) / 2, CORNER + ARM + 4.0, H / 2 - ARM - 5.0
    _steps(pen, fonts, gettext_("Duplex calibration — front"), steps, (left, top, width, bottom))
    _scale_check(pen, fonts, gettext_, lang)


def _steps(
    pen: Pen, fonts: FontSet, title: str, steps: list[str], box: tuple[float, float, float, float]
) -> None:
    """A title and numbered steps in ``box`` (left, top, width, bottom), in the largest type
    from TEXT_PT down to 9 pt that fits (else 9 pt, running on)."""
    left, top, width, bottom = box
    regular, heavy = _font(fonts, "regular"), _font(fonts, "bold")
    y = _lines(pen, heavy, 13.0, [title], left, top, width)
    for size in (TEXT_PT, 9.5, 9.0):
        indent = stringWidth("8. ", regular, size) / PT_PER_MM
        height = sum(
            len(simpleSplit(s, regular, size, pt(width - indent))) * size * 1.3 / PT_PER_MM
            + size * 0.5 / PT_PER_MM
            for s in steps
        )
        if y + 1.5 + height <= bottom:
            break
    y += 1.5
    for i, text in enumerate(steps, 1):
        pen.c.setFont(regular, size)
        pen.c.drawString(pen.x(left), pen.y(_baseline(y, size)), f"{i}.")
        y = _lines(pen, regular, size, [text], left + indent, y, width - indent)
        y += size * 0.5 / PT_PER_MM


def _font(fonts: FontSet, face: str) -> str:
    return fonts.main.font(face)


def _lines(
    pen: Pen,
    font: str,
    size: float,
    texts: list[str],
    left: float,
    top: float,
    width: float,
    centred: bool = False,
    gap: float = 0.0,
) -> float:
    """Paragraphs wrapped to ``width`` mm from ``top`` (mm, the first line's top), ``gap`` mm
    apart; the y below the last line."""
    c = pen.c
    c.setFont(font, size)
    leading = size * 1.3 / PT_PER_MM  # as _baseline has it
    y = top
    for n, text in enumerate(texts):
        y += gap if n else 0.0
        for line in simpleSplit(text, font, size, pt(width)):
            base = _baseline(y, size)
            y += leading
            if centred:
                c.drawCentredString(pen.x(left + width / 2), pen.y(base), line)
            else:
                c.drawString(pen.x(left), pen.y(base), line)
    return y


def _baseline(top: float, size: float) -> float:
    """The baseline of a line of ``size`` pt whose box (1.3 times its size) starts at ``top``."""
    return top + size * (1.3 - 0.15 - 0.22) / PT_PER_MM


def _scale_check(pen: Pen, fonts: FontSet, gettext_: Words, lang: str) -> None:
    """A bar of BAR mm to measure, a bank card's outline to lay a card on, and what to do
    when they do not measure right."""
    c = pen.c
    regular, bold = _font(fonts, "regular"), _font(fonts, "bold")
    bar, card = check_layout(pen.page)
    c.setLineWidth(0.8)
    pen.line(bar)
    c.setLineWidth(0.4)
    c.setFont(regular, SMALL_PT)
    for i in range(11):
        x = bar.x1 + BAR * i / 10
        pen.line(Line(x, bar.y1, x, bar.y1 + (3.0 if i in (0, 5, 10) else 1.5)))
        if i in (0, 5, 10):
            c.drawCentredString(pen.x(x), pen.y(bar.y1 - 1.0), f"{BAR * i / 10:g}")
    after = stringWidth(f"{BAR:g}", regular, SMALL_PT) / 2 / PT_PER_MM + 1.0
    c.drawString(pen.x(bar.x2 + after), pen.y(bar.y1 - 1.0), "mm")
    measure = gettext_("Measure this bar with a ruler: it must be {length} mm long.")
    fits = gettext_("A bank card ({width} × {height} mm) fits exactly inside the outline below.")
    texts = [
        measure.format(length=f"{BAR:g}"),
        fits.format(width=_decimal(CARD.w, lang), height=_decimal(CARD.h, lang)),
    ]
    _lines(pen, bold, SMALL_PT, texts, 20.0, bar.y1 + 4.5, pen.page.w - 40.0, centred=True)
    c.setLineWidth(0.6)
    c.roundRect(*pen.rect_pt(card), pt(CARD_RADIUS), stroke=1, fill=0)
    wrong = gettext_(
        "If they do not measure right, the printer changed the scale: print again at 100 % "
        "(actual size), with “fit to page” turned off."
    )
    _lines(pen, regular, SMALL_PT, [wrong], card.x, card.bottom + 2.0, card.w, centred=True)


def _decimal(value: float, lang: str) -> str:
    return format_decimal(value, locale=lang)


def _number_height() -> float:
    return NUMBER_PT * DIGIT / PT_PER_MM


def _x_ruler(pen: Pen, s: Spot, font: str, bold: str) -> None:
    """The horizontal ruler, GAP mm below (or above) the spot: ticks away from it, the even
    millimetres' numbers in the row next to the ticks, the odd ones in the row beyond."""
    line = s.y + s.oy * GAP
    pen.line(Line(s.x - RANGE, line, s.x + RANGE, line))
    for i in range(-2 * RANGE, 2 * RANGE + 1):
        length = WHOLE_TICK if i % 2 == 0 else HALF_TICK
        pen.line(Line(s.x + i / 2, line, s.x + i / 2, line + s.oy * length))
    digit = _number_height()
    for k in range(-RANGE, RANGE + 1):
        near = WHOLE_TICK + 0.6 + (k % 2) * (digit + 0.6)  # from the line to the number
        base = line + near + digit if s.oy > 0 else line - near
        _number(pen, s.x + k, base, k, bold if k == 0 else font, 0)


def _y_ruler(pen: Pen, s: Spot, font: str, bold: str) -> None:
    """The vertical ruler, GAP mm right (or left) of the spot: ticks away from it, the even
    millimetres' numbers in the column next to the ticks, the odd ones in the column beyond."""
    line = s.x + s.ox * GAP
    pen.line(Line(line, s.y - RANGE, line, s.y + RANGE))
    for i in range(-2 * RANGE, 2 * RANGE + 1):
        length = WHOLE_TICK if i % 2 == 0 else HALF_TICK
        pen.line(Line(line, s.y + i / 2, line + s.ox * length, s.y + i / 2))
    digit = _number_height()
    ks = range(-RANGE, RANGE + 1)
    even, odd = (max(_number_width(k, font) for k in ks if k % 2 == r) for r in (0, 1))
    near = line + s.ox * (WHOLE_TICK + 0.6)  # numbers right-aligned, units under units
    ends = (near + even, near + even + 0.6 + odd) if s.ox > 0 else (near, near - even - 0.6)
    for k in ks:
        _number(pen, ends[k % 2], s.y + k + digit / 2, k, bold if k == 0 else font, -1)


def _number_width(k: int, font: str) -> float:
    return stringWidth(f"{k:d}", font, NUMBER_PT) * NARROW / PT_PER_MM


def _number(pen: Pen, x: float, y: float, k: int, font: str, align: int) -> None:
    """A ruler's number ``k`` on the baseline ``y``: starting at ``x`` (``align`` 1), ending
    there (-1) or centred on it (0)."""
    c = pen.c
    width = _number_width(k, font)
    left = x if align > 0 else x - width if align < 0 else x - width / 2
    c.saveState()
    c.translate(pen.x(left), pen.y(y))
    c.scale(NARROW, 1.0)
    c.setFont(font, NUMBER_PT)
    c.drawString(0, 0, f"{k:d}")
    c.restoreState()


def _captions(pen: Pen, s: Spot, bold: str, x_caption: str, y_caption: str) -> None:
    """Which way + goes, beside each ruler on the side towards the middle of the page: the X
    ruler's past its end, level with its numbers; the Y ruler's past its end, away from the
    X ruler."""
    c = pen.c
    c.setFont(bold, CAPTION_PT)
    cap = CAPTION_PT * DIGIT / PT_PER_MM
    digit = _number_height()
    numbers = GAP + WHOLE_TICK + 0.6 + digit + 0.3  # the middle of the X ruler's numbers
    at = [
        (s.x + s.ox * (RANGE + 2.5), s.y + s.oy * numbers + cap / 2, x_caption),
        (s.x + s.ox * GAP, s.y - s.oy * (RANGE + 1.8) + (cap if s.oy < 0 else 0.0), y_caption),
    ]
    for x, y, text in at:
        if s.ox > 0:
            c.drawString(pen.x(x), pen.y(y), text)
        else:
            c.drawRightString(pen.x(x), pen.y(y), text)


def render_calibration(
    fonts: FontSet, lang: str, paper: Size, duplex: Duplex, offset: tuple[float, float]
) -> bytes:
    """A two-page duplex calibration sheet (front crosses, back rulers)."""
    with rl.pdf_settings():
        return _calibration_pdf(fonts, lang, paper, duplex, offset)


def _calibration_pdf(
    fonts: FontSet, lang: str, paper: Size, duplex: Duplex, offset: tuple[float, float]
) -> bytes:
    buf = io.BytesIO()
    canvas = Canvas(
        buf,
        pagesize=(pt(paper.w), pt(paper.h)),
        invariant=1,
        pageCompression=1,
        initialFontName=fonts.main.font("regular"),
    )
    canvas.setTitle(f"pnp duplex calibration ({duplex} edge)")
    canvas.setCreator("pnp")
    for side in ("front", "back"):
        page = Page("calibration", paper, side=side, payload=offset)
        draw_calibration(Pen(canvas, paper), page, fonts, lang, duplex)
        canvas.showPage()
    canvas.save()
    return buf.getvalue()
