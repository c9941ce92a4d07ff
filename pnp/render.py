"""Render stage: follow a page plan and draw it with reportlab, into bytes.

Only this module touches the reportlab canvas. :class:`Pen` converts the plan's millimetres
(origin top-left) into PDF points (origin bottom-left); nothing else does. Faces that repeat (a
deck's shared back, the copies of a card) are drawn once into a Form XObject and placed many
times, so a deck of 1,000 cards carries one copy of its back.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass, field
from typing import Any

from babel.numbers import format_decimal
from reportlab import rl_config
from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Frame, Paragraph, Spacer, Table, TableStyle
from reportlab.platypus.flowables import Flowable

from .faces import FaceEngine, FillOp, ImageOp, Op, StrokeOp, TextOp, flatten
from .fonts import FontSet
from .i18n import Translator
from .layout import SCALE_BAR as SCALE_BAR_MM
from .layout import Line, Page, Rect, Slot
from .model import Game
from .model import Table as TableModel
from .text import PARAGRAPH_GAP, IconSpec, TextStyle, fit_text, normalise_spaces
from .units import Size, pt
from .words import gettext

rl_config.useA85 = 0  # binary streams: ASCII85 only makes PDFs 25 % larger

MARK_WIDTH_PT = 0.5  # crop marks: visible after printing (>= 0.3 pt)
HALO_WIDTH_PT = 1.6


class Pen:
    """The canvas in millimetres, origin at the top-left corner of the page."""

    def __init__(self, canvas: Canvas, page: Size) -> None:
        self.c = canvas
        self.page = page

    def x(self, x: float) -> float:
        return pt(x)

    def y(self, y: float) -> float:
        return pt(self.page.h - y)

    def rect_pt(self, r: Rect) -> tuple[float, float, float, float]:
        return pt(r.x), pt(self.page.h - r.y - r.h), pt(r.w), pt(r.h)

    def line(self, line: Line) -> None:
        self.c.line(self.x(line.x1), self.y(line.y1), self.x(line.x2), self.y(line.y2))


def _color(value: str) -> colors.Color:
    return colors.HexColor(value) if value.startswith("#") else colors.toColor(value)


@dataclass
class Renderer:
    game: Game
    lang: str
    engine: FaceEngine
    fonts: FontSet
    translator: Translator
    title: str
    total_sheets: int = 0
    forms: dict[Any, str] = field(default_factory=dict)
    form_uses: dict[Any, int] = field(default_factory=dict)

    def w(self, message: str) -> str:
        return gettext(message, self.lang)

    # --- document ------------------------------------------------------------------------------
    def render(self, pages: list[Page]) -> bytes:
        buf = io.BytesIO()
        first = pages[0].size if pages else Size(210, 297)
        canvas = Canvas(
            buf,
            pagesize=(pt(first.w), pt(first.h)),
            invariant=1,
            pageCompression=1,
            lang=self.lang.replace("_", "-"),
            initialFontName=self.fonts.main.font("regular"),
            initialFontSize=9,
        )
        canvas.setTitle(f"{self.title} ({self.lang})")
        canvas.setAuthor("pnp")
        canvas.setCreator("pnp")
        canvas.setSubject(self.game.id)
        self.total_sheets = max((p.sheet for p in pages), default=0)
        self._count_form_uses(pages)
        for page in pages:
            self.page(canvas, page)
            canvas.showPage()
        canvas.save()
        return buf.getvalue()

    def _count_form_uses(self, pages: list[Page]) -> None:
        for page in pages:
            for slot in page.slots:
                key = self._form_key(slot)
                self.form_uses[key] = self.form_uses.get(key, 0) + 1

    def _form_key(self, slot: Slot) -> Any:
        item = slot.item
        return (id(item.face), item.side, slot.rect.w, slot.rect.h, slot.bleed, item.shape)

    def page(self, canvas: Canvas, page: Page) -> None:
        canvas.setPageSize((pt(page.size.w), pt(page.size.h)))
        pen = Pen(canvas, page.size)
        if page.trim is not None:
            tx, ty, tw, th = pen.rect_pt(page.trim)
            canvas.setTrimBox((tx, ty, tx + tw, ty + th))
            bx, by, bw, bh = pen.rect_pt(page.trim.grow(page.bleed))
            canvas.setBleedBox((bx, by, bx + bw, by + bh))
        if page.kind == "setup":
            self.setup_sheet(pen, page)
        elif page.kind == "blank":
            self.blank(pen, page)
        else:
            for slot in page.slots:
                self.slot(pen, slot)
            self.outlines(pen, page)
            self.marks(pen, page.marks)
            self.furniture(pen, page)

    # --- slots and faces -----------------------------------------------------------------------
    def slot(self, pen: Pen, slot: Slot) -> None:
        item = slot.item
        if item.face is None:
            return
        key = self._form_key(slot)
        c = pen.c
        r = slot.rect
        ops = flatten(
            self.engine.ops(item.face, item.owner, item.card, item.side, r.w, r.h, slot.bleed)
        )
        if self.form_uses.get(key, 0) > 1:
            name = self.forms.get(key)
            if name is None:
                name = f"face{len(self.forms)}"
                b = slot.bleed
                c.beginForm(
                    name, lowerx=pt(-b), lowery=pt(-b), upperx=pt(r.w + b), uppery=pt(r.h + b)
                )
                self.draw_face(c, ops, r.w, r.h, item.shape, slot.bleed)
                c.endForm()
                self.forms[key] = name
            c.saveState()
            c.translate(pt(r.x), pt(pen.page.h - r.y - r.h))
            c.doForm(name)
            c.restoreState()
        else:
            c.saveState()
            c.translate(pt(r.x), pt(pen.page.h - r.y - r.h))
            self.draw_face(c, ops, r.w, r.h, item.shape, slot.bleed)
            c.restoreState()

    def draw_face(
        self, c: Canvas, ops: list[Op], w: float, h: float, shape: str, bleed: float
    ) -> None:
        """Draw a face with its bottom-left corner at the origin (points)."""
        c.saveState()
        if shape != "rect":
            path = self._shape_path(c, shape, w, h, bleed)
            c.clipPath(path, stroke=0, fill=0)
        for op in ops:
            if isinstance(op, FillOp):
                x, y, bw, bh = op.box
                g = op.bleed
                c.setFillColor(_color(op.color))
                rx, ry = pt(x - g), pt(h - y - bh - g)
                if op.radius > 0 and g == 0:
                    c.roundRect(
                        rx, ry, pt(bw + 2 * g), pt(bh + 2 * g), pt(op.radius), stroke=0, fill=1
                    )
                else:
                    c.rect(rx, ry, pt(bw + 2 * g), pt(bh + 2 * g), stroke=0, fill=1)
            elif isinstance(op, StrokeOp):
                x, y, bw, bh = op.box
                c.setStrokeColor(_color(op.color))
                c.setLineWidth(pt(op.width))
                if op.radius > 0:
                    c.roundRect(
                        pt(x), pt(h - y - bh), pt(bw), pt(bh), pt(op.radius), stroke=1, fill=0
                    )
                else:
                    c.rect(pt(x), pt(h - y - bh), pt(bw), pt(bh), stroke=1, fill=0)
            elif isinstance(op, ImageOp):
                self._image(c, op, h)
            elif isinstance(op, TextOp):
                self._text(c, op, h)
        c.restoreState()

    def _shape_path(self, c: Canvas, shape: str, w: float, h: float, grow: float) -> Any:
        p = c.beginPath()
        if shape == "round":
            p.circle(pt(w / 2), pt(h / 2), pt(min(w, h) / 2 + grow))
        elif shape == "hex":
            cx, cy, rad = w / 2, h / 2, w / 2 + grow
            pts = [
                (cx + rad * math.cos(math.radians(a)), cy + rad * math.sin(math.radians(a)))
                for a in range(0, 360, 60)
            ]
            p.moveTo(pt(pts[0][0]), pt(pts[0][1]))
            for px_, py_ in pts[1:]:
                p.lineTo(pt(px_), pt(py_))
            p.close()
        else:
            p.rect(pt(-grow), pt(-grow), pt(w + 2 * grow), pt(h + 2 * grow))
        return p

    def _image(self, c: Canvas, op: ImageOp, face_h: float) -> None:
        x, y, bw, bh = op.box
        g = op.bleed
        bx, by, bw2, bh2 = x - g, y - g, bw + 2 * g, bh + 2 * g
        iw, ih = max(op.width_px, 1), max(op.height_px, 1)
        scale = max(bw2 / iw, bh2 / ih)  # cover the box, centred, clipped
        dw, dh = iw * scale, ih * scale
        dx, dy = bx + (bw2 - dw) / 2, by + (bh2 - dh) / 2
        c.saveState()
        p = c.beginPath()
        p.rect(pt(bx), pt(face_h - by - bh2), pt(bw2), pt(bh2))
        c.clipPath(p, stroke=0, fill=0)
        c.drawImage(
            ImageReader(str(op.path)), pt(dx), pt(face_h - dy - dh), pt(dw), pt(dh), mask="auto"
        )
        c.restoreState()

    def _text(self, c: Canvas, op: TextOp, face_h: float) -> None:
        x, y, bw, bh = op.box
        fit = op.fit
        inner_top = y + op.padding
        inner_h = bh - 2 * op.padding
        free = pt(inner_h) - fit.height
        if op.valign == "middle":
            top_pt = pt(face_h - inner_top) - free / 2
        elif op.valign == "bottom":
            top_pt = pt(face_h - inner_top) - free
        else:
            top_pt = pt(face_h - inner_top)
        cursor = top_pt
        width = pt(bw - 2 * op.padding)
        for i, para in enumerate(fit.paragraphs):
            if i:
                cursor -= fit.size * PARAGRAPH_GAP
            _w, ph = para.wrap(width, 1e6)
            para.drawOn(c, pt(x + op.padding), cursor - ph)
            cursor -= ph

    # --- sheet furniture -----------------------------------------------------------------------
    def outlines(self, pen: Pen, page: Page) -> None:
        """Cut lines around round and hexagonal tokens (on the fronts only)."""
        if page.side != "front":
            return
        c = pen.c
        for slot in page.slots:
            if slot.item.shape in ("round", "hex"):
                r = slot.rect
                c.saveState()
                c.translate(pt(r.x), pt(pen.page.h - r.y - r.h))
                c.setStrokeColor(colors.black)
                c.setLineWidth(MARK_WIDTH_PT)
                c.drawPath(self._shape_path(c, slot.item.shape, r.w, r.h, 0), stroke=1, fill=0)
                c.restoreState()
            elif slot.item.shape == "square":
                c.setStrokeColor(colors.black)
                c.setLineWidth(MARK_WIDTH_PT)
                c.rect(*pen.rect_pt(slot.rect), stroke=1, fill=0)

    def marks(self, pen: Pen, marks: list[Line]) -> None:
        if not marks:
            return
        c = pen.c
        c.saveState()
        c.setLineCap(0)
        c.setStrokeColor(colors.white)  # a halo keeps marks visible on a dark margin
        c.setLineWidth(HALO_WIDTH_PT)
        for m in marks:
            pen.line(m)
        c.setStrokeColor(colors.black)
        c.setLineWidth(MARK_WIDTH_PT)
        for m in marks:
            pen.line(m)
        c.restoreState()

    def label(self, page: Page) -> str:
        kind = {
            "fronts": self.w("fronts"),
            "backs": self.w("backs"),
            "tokens": self.w("tokens"),
            "token-backs": self.w("token backs"),
            "board": self.w("board"),
            "fold": self.w("fold here"),
            "calibration": self.w("calibration"),
        }.get(page.kind, page.kind)
        sheet = self.w("sheet {n} of {total}").format(n=page.sheet, total=self.total_sheets)
        names = []
        for gid in filter(None, page.group.split(", ")):
            owner = self.game.decks.get(gid) or self.game.tokens.get(gid)
            name = getattr(owner, "name", None)
            names.append(self.translator.text(name) if name is not None else gid)
        group = f" ({', '.join(names)})" if names else ""
        return f"{sheet} · {kind}{group} · {self.title} · {self.lang}"

    def furniture(self, pen: Pen, page: Page) -> None:
        c = pen.c
        fur = page.furniture
        font = self.fonts.main.font("regular")
        c.saveState()
        c.setFillColor(colors.black)
        c.setStrokeColor(colors.black)
        if fur.scale_bar is not None:
            bar = fur.scale_bar
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
                length=f"{SCALE_BAR_MM:g}"
            )
            text = self._fit_label(normalise_spaces(text), font, 6, pt(fur.scale_text_room))
            c.setFont(font, 6)
            if fur.scale_vertical:
                c.saveState()
                c.translate(pen.x(bar.x1 + 2.4), pen.y(bar.y2))
                c.rotate(90)
                c.drawString(0, 0, text)
                c.restoreState()
            else:
                c.drawString(pen.x(bar.x1), pen.y(bar.y1 + 2.4), text)
        if fur.label_width > 0:
            c.setFont(font, 6)
            text = self._fit_label(self.label(page), font, 6, pt(fur.label_width))
            lx, ly = fur.label_at
            if fur.label_vertical:
                c.saveState()
                c.translate(pen.x(lx), pen.y(ly))
                c.rotate(90)
                c.drawString(0, 0, text)
                c.restoreState()
            else:
                c.drawString(pen.x(lx), pen.y(ly), text)
        c.restoreState()

    @staticmethod
    def _fit_label(text: str, font: str, size: float, width: float) -> str:
        from reportlab.pdfbase.pdfmetrics import stringWidth

        if stringWidth(text, font, size) <= width:
            return text
        while text and stringWidth(text + "…", font, size) > width:
            text = text[:-1]
        return text.rstrip() + "…"

    def blank(self, pen: Pen, page: Page) -> None:
        c = pen.c
        c.setFont(self.fonts.main.font("italic"), 7)
        c.setFillColor(colors.grey)
        c.drawCentredString(
            pt(page.size.w / 2),
            pt(8),
            self.w("This side is left blank on purpose (duplex printing)."),
        )

    # --- setup sheet -----------------------------------------------------------------------------
    def setup_sheet(self, pen: Pen, page: Page) -> None:
        flow = self.setup_flowables()
        margin = 15.0
        frame = Frame(
            pt(margin),
            pt(margin),
            pt(page.size.w - 2 * margin),
            pt(page.size.h - 2 * margin),
            showBoundary=0,
        )
        frame.addFromList(flow, pen.c)
        if flow:
            # what does not fit is dropped from this page: report it through the engine
            from .faces import TextIssue

            self.engine.issues.append(
                TextIssue(
                    "setup-overflow",
                    self.game.meta.at("setup_sheet"),
                    f"[{self.lang}] the setup sheet does not fit on one page; shorten its texts "
                    "or split its tables",
                )
            )

    def setup_flowables(self) -> list[Flowable]:
        game = self.game
        t = self.translator.text
        font = self.fonts.main
        sheet = game.meta.setup_sheet
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
        out.append(Spacer(1, 10))
        out.append(Paragraph(self.para(self.print_advice(), "regular", 7.5), small))
        if game.meta.credits:
            out.extend(self.paragraphs(t(game.meta.credits), small))
        return out

    def print_advice(self) -> str:
        return self.w(
            "How to print: 100 % scale (actual size), never “fit to page”. Check the scale bar "
            "on any sheet measures 50 mm. Card sheets are followed by their backs: print "
            "double-sided, flipping on the long edge, or print single-sided and glue."
        )

    def para(self, text: str, face: str, size: float) -> str:
        from .text import parse, to_xml

        runs = [r for p in parse(text, self.engine.icons, {}) for r in p]
        return to_xml(runs, self.fonts, face, size)

    def paragraphs(self, text: str, style: ParagraphStyle) -> list[Flowable]:
        from .text import parse, to_xml

        out: list[Flowable] = []
        for runs in parse(text, self.engine.icons, {}):
            out.append(Paragraph(to_xml(runs, self.fonts, "regular", style.fontSize), style))
        return out

    def cell(self, value: Any, unit: str | None) -> str:
        if isinstance(value, bool):
            value = int(value)
        if isinstance(value, int | float):
            text = format_decimal(value, locale=self.lang)
            if value == 0:
                text = "–"
            elif unit:
                text = f"{text}\u00a0{unit}"
            return text
        return str(value)

    def table(
        self, table: TableModel, h2: ParagraphStyle, body: ParagraphStyle, small: ParagraphStyle
    ) -> list[Flowable]:
        t = self.translator.text
        font = self.fonts.main
        head = ParagraphStyle(
            "th", parent=body, fontName=font.font("bold"), fontSize=8.5, leading=10.5, alignment=1
        )
        cellst = ParagraphStyle(
            "td", parent=body, fontSize=9.5, leading=11.5, alignment=1, spaceAfter=0
        )
        out: list[Flowable] = []
        if table.title:
            out.append(Paragraph(self.para(t(table.title), "bold", 12), h2))
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
        avail = pt(180)
        ncols = max(len(table.columns), 1)
        col_w = min(avail / ncols, pt(34))
        tbl = Table(rows, colWidths=[col_w] * ncols, repeatRows=1, hAlign="LEFT")
        tbl.setStyle(
            TableStyle(
                [
                    ("FONT", (0, 0), (-1, -1), font.font("regular"), 9),
                    ("GRID", (0, 0), (-1, -1), 0.4, colors.HexColor("#888888")),
                    ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e6e6e6")),
                    ("BACKGROUND", (0, 1), (0, -1), colors.HexColor("#f3f3f3")),
                    ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                    ("TOPPADDING", (0, 0), (-1, -1), 2),
                    ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
                ]
            )
        )
        out.append(tbl)
        if table.note:
            out.extend(self.paragraphs(t(table.note), small))
        return out


def measure_text(
    text: str, fonts: FontSet, icons: dict[str, IconSpec], lang: str, size: float, width_mm: float
) -> float:
    """Height in points of a text set in a box of the given width (used by tests)."""
    ts = TextStyle(size=size, fit="none")
    return fit_text(text, ts, fonts, icons, {}, lang, pt(width_mm), 1e6).height
