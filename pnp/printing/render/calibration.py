"""Duplex calibration: a sheet that measures how far a printer shifts the backs.

The front has crosses; the back has rulers centred where each cross lands when the printer is
perfect. Held against a window, the crosses show the shift to give as ``--back-offset``.
"""

from __future__ import annotations

import io

from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas

from ...compat import reportlab as rl
from ...core.units import Size, pt
from ...i18n.words import gettext
from ...typeset.fonts import FontSet
from ..imposition import Duplex, Line, Page, Rect, mirror
from .pen import Pen


def draw_calibration(pen: Pen, page: Page, fonts: FontSet, lang: str, duplex: Duplex) -> None:
    """Duplex calibration: a cross on the front, rulers on the back around its spot."""

    def gettext_(message: str) -> str:
        return gettext(message, lang)

    c = pen.c
    W, H = page.size.w, page.size.h
    cx, cy = W / 2, H / 2
    dx, dy = page.payload if isinstance(page.payload, tuple) else (0.0, 0.0)
    font = fonts.main.font("regular")
    c.setStrokeColor(colors.black)
    if page.side == "front":
        c.setLineWidth(0.5)
        for x, y in ((cx, cy), (30, 30), (W - 30, 30), (30, H - 30), (W - 30, H - 30)):
            pen.line(Line(x - 15, y, x + 15, y))
            pen.line(Line(x, y - 15, x, y + 15))
        c.setFont(font, 9)
        lines = [
            gettext_("Duplex calibration — front"),
            gettext_("Print this sheet double-sided at 100 %, then hold it against a window."),
            gettext_("Looking at the back, read where each cross shows through on its rulers:"),
            gettext_("X on the horizontal ruler, Y on the vertical one (mm, + is right and down)."),
            gettext_("Then build with --back-offset X,Y, e.g. --back-offset 1.5,-0.5."),
        ]
        for i, text in enumerate(lines):
            c.drawCentredString(pen.x(cx), pen.y(60 + i * 5), text)
        return
    # back: rulers centred where each cross lands when the printer is perfect
    c.setLineWidth(0.3)
    for x, y in ((cx, cy), (30, 30), (W - 30, 30), (30, H - 30), (W - 30, H - 30)):
        m = mirror(Rect(x, y, 0, 0), page.size, duplex)
        _rulers(pen, m.x + dx, m.y + dy, font)
    c.setFont(font, 9)
    c.drawCentredString(pen.x(cx), pen.y(60), gettext_("Duplex calibration — back"))


def _rulers(pen: Pen, mx: float, my: float, font: str) -> None:
    """Two rulers of ±10 mm crossing at (mx, my): the horizontal one's ticks point up, with
    their numbers above them; the vertical one's ticks point right, with their numbers on the
    left of the line, so that no number meets the other ruler's ticks or numbers. The one
    corner without ticks (below left) carries the 0 of both."""
    c = pen.c
    c.setFont(font, 5)
    for k in range(-10, 11):
        length = 3.0 if k % 5 == 0 else 1.6
        pen.line(Line(mx + k, my - length, mx + k, my))  # horizontal ruler
        pen.line(Line(mx, my + k, mx + length, my + k))  # vertical ruler
        if k % 5 == 0 and k != 0:
            c.drawCentredString(pen.x(mx + k), pen.y(my - 3.8), f"{k:+d}")
            c.drawRightString(pen.x(mx - 0.8), pen.y(my + k + 0.6), f"{k:+d}")
    c.drawRightString(pen.x(mx - 0.6), pen.y(my + 2.2), "0")


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
