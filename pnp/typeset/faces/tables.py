"""Tables: a table cell as printed, and a table as reportlab draws it, at the size that fits.

Face tables (a layout's ``table`` element) and the setup sheet's tables format their cells
alike (:func:`cell_text`).
"""

from __future__ import annotations

import re
from typing import Any

from ...content.model import Text
from ...core.units import pt
from ..fonts import FontSet

CODE = re.compile(r"[^\W_][\w-]*")  # a code in a cell: black, private-enterprise


def cell_text(
    value: Any,
    unit: str | None,
    lang: str,
    text_of: Any,
    labels: dict[str, Text] | None = None,
) -> str:
    """A table cell as printed, on a face or on the setup sheet: a text in the build language
    (``text_of``), a number as the language writes it with its unit, 0 as a dash; a code
    its column labels (``black+red``) as its labels in the build language."""
    from babel.numbers import format_decimal

    if isinstance(value, Text):
        return str(text_of(value))
    if labels and isinstance(value, str):
        return CODE.sub(
            lambda m: str(text_of(labels[m.group(0)])) if m.group(0) in labels else m.group(0),
            value,
        )
    if isinstance(value, bool):
        value = int(value)
    if isinstance(value, int | float):
        if value == 0:
            return "–"
        text = format_decimal(value, locale=lang)
        return f"{text}\u00a0{unit}" if unit else text
    return str(value)


def build_table(
    header: list[str],
    rows: list[list[str]],
    size: float,
    fonts: FontSet,
    color: str = "#000000",
    stroke: str | None = "#666666",
    width: float | None = None,
    icons: dict[str, Any] | None = None,
    lang: str = "",
) -> Any:
    """A reportlab Table of paragraphs (text wraps within columns, markup and icons work);
    ``stroke`` None: no grid. Colours are read as the faces read them. In a right-to-left
    ``lang``, the columns read from the right (the first one is drawn rightmost)."""
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import Table, TableStyle

    from ..scripts import is_rtl
    from ..text import _rl_color

    st = ParagraphStyle(
        "cell",
        fontName=fonts.main.font("regular"),
        fontSize=size,
        leading=size * 1.15,
        textColor=_rl_color(color),
    )
    hd = ParagraphStyle("head", parent=st, fontName=fonts.main.font("bold"))
    ncols = max(len(header), 1)
    inner = width / ncols - 2 * size * 0.3 if width else None  # a column within its padding
    cells = _Cells(fonts, icons or {}, lang, size, inner, st, hd)
    data = [[cells(h, True) for h in header]] + [[cells(v, False) for v in r] for r in rows]
    if is_rtl(lang):
        data = [row[::-1] for row in data]
    table = Table(data, colWidths=[width / ncols] * ncols if width else None, repeatRows=0)
    grid = [("GRID", (0, 0), (-1, -1), 0.3, _rl_color(stroke))] if stroke is not None else []
    table.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), fonts.main.font("regular"), size),
                *grid,
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ("TOPPADDING", (0, 0), (-1, -1), size * 0.15),
                ("BOTTOMPADDING", (0, 0), (-1, -1), size * 0.25),
                ("LEFTPADDING", (0, 0), (-1, -1), size * 0.3),
                ("RIGHTPADDING", (0, 0), (-1, -1), size * 0.3),
            ]
        )
    )
    return table


class _Cells:
    """Paragraphs of a table's cells; a word too wide for its column, in a header or a cell, is
    hyphenated or set smaller (:mod:`pnp.typeset.headers`), never cut mid-word."""

    def __init__(
        self,
        fonts: FontSet,
        icons: dict[str, Any],
        lang: str,
        size: float,
        inner: float | None,
        style: Any,
        head: Any,
    ) -> None:
        self.fonts, self.icons, self.lang, self.size = fonts, icons, lang, size
        self.inner, self.style, self.head = inner, style, head

    def __call__(self, text: str, head: bool) -> Any:
        from ..headers import header_xml
        from ..layout import Paragraph
        from ..markup import parse, to_xml

        if self.inner is not None and self.inner > 0:  # a word too wide is hyphenated
            face = "bold" if head else "regular"
            xml = header_xml(text, self.inner, self.fonts, self.icons, self.lang, self.size, face)
        else:
            runs = [r for para in parse(text, self.icons, {}) for r in para]
            face = "bold" if head else "regular"
            xml = to_xml(runs, self.fonts, face, self.size, lang=self.lang)
        return Paragraph(xml or "&nbsp;", self.head if head else self.style)


def table_fit_size(
    header: list[str],
    rows: list[list[str]],
    box: tuple[float, float, float, float],
    size: float,
    min_size: float,
    fonts: FontSet,
    icons: dict[str, Any] | None = None,
    lang: str = "",
) -> float | None:
    """The largest size (0.5 pt steps) at which the table fits the box, or None. A table
    grows with its size, so the sizes that fit are the smallest ones: found by bisection
    (a handful of layouts, not one per step), among the sizes at which its rows can fit at
    all (each row is at least a line: leading 1.15 and padding 0.4 of the size)."""
    width, height = pt(box[2]), pt(box[3])
    per_size = (len(rows) + 1) * 1.5
    steps = []
    current = size
    while current >= min_size - 1e-9:
        if current * per_size <= height + 0.5:
            steps.append(current)
        current -= 0.5

    def fits(i: int) -> bool:
        h = table_height(header, rows, steps[i], fonts, width, icons, lang)
        return h is not None and h <= height + 0.5

    lo, hi = 0, len(steps)  # the first step that fits lies in [lo, hi]; hi: none does
    while lo < hi:
        mid = (lo + hi) // 2
        if fits(mid):
            hi = mid
        else:
            lo = mid + 1
    return steps[lo] if lo < len(steps) else None


def table_height(
    header: list[str],
    rows: list[list[str]],
    size: float,
    fonts: FontSet,
    width: float,
    icons: dict[str, Any] | None = None,
    lang: str = "",
) -> float | None:
    """The height (points) of the table laid out ``width`` points wide at ``size`` (in
    ``lang``: its headers hyphenate by it); None when its columns are too narrow to be laid
    out at all (narrower than their padding)."""
    table = build_table(header, rows, size, fonts, width=width, icons=icons, lang=lang)
    try:
        _w, h = table.wrap(width, 1e6)
    except ValueError:  # reportlab: a cell given a negative width
        return None
    return float(h)
