"""Render stage: follow a page plan and draw it with reportlab, into bytes.

Only this module touches the reportlab canvas. :class:`Pen` converts the plan's millimetres
(origin top-left) into PDF points (origin bottom-left); nothing else does. Faces that repeat (a
deck's shared back, the copies of a card) are drawn once into a Form XObject and placed many
times, so a deck of 1,000 cards carries one copy of its back.
"""

from __future__ import annotations

import functools
import io
import math
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Frame, Paragraph, Spacer, Table, TableStyle
from reportlab.platypus.flowables import Flowable

from ..compat import reportlab as rl
from ..content.model import Game
from ..content.model import Table as TableModel
from ..content.queries import draw_count, item_size, player_range
from ..core.run import current
from ..core.units import Size, pt
from ..i18n import Translator
from ..i18n.words import gettext
from ..typeset.faces import (
    FaceEngine,
    FillOp,
    ImageOp,
    Op,
    StrokeOp,
    TableOp,
    TextOp,
    TrackOp,
    build_table,
    cell_text,
    flatten,
)
from ..typeset.fonts import FontSet
from ..typeset.text import PARAGRAPH_GAP, normalise_spaces
from .imposition import SCALE_BAR as SCALE_BAR_MM
from .imposition import Duplex, Line, Page, Rect, Slot
from .pdfimage import draw_image, save_streaming

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


@functools.lru_cache(maxsize=4096)
def _color(value: str) -> colors.Color:
    return colors.HexColor(value) if value.startswith("#") else colors.toColor(value)


# the page label's word for each kind of page (pnp.i18n.words.SHEET_WORDS)
PAGE_KIND_WORDS = {
    "fronts": "fronts",
    "backs": "backs",
    "tokens": "tokens",
    "token-backs": "token backs",
    "board": "board",
    "fold": "fold here",
}


@dataclass
class Renderer:
    game: Game
    lang: str
    engine: FaceEngine
    fonts: FontSet
    translator: Translator
    title: str
    total_sheets: int = 0
    _duplex: Duplex = "long"
    proof_marks: bool = False
    forms: dict[Any, str] = field(default_factory=dict)
    form_uses: dict[Any, int] = field(default_factory=dict)
    _setup_pending: list[Flowable] | None = None

    def w(self, message: str, n: int | None = None) -> str:
        """One of pnp's own sheet words in the build language (pnp.i18n.words)."""
        return self.translator.word(message, n)

    # --- document ------------------------------------------------------------------------------
    def render(self, pages: list[Page], sink: BinaryIO | None = None) -> bytes:
        """Draw the pages; the PDF goes to ``sink`` as it is written (then b"" is returned),
        or is returned as bytes."""
        with rl.pdf_settings():
            return self._render(pages, sink)

    def _render(self, pages: list[Page], sink: BinaryIO | None) -> bytes:
        memory = io.BytesIO()
        buf: BinaryIO = sink if sink is not None else memory
        # what one PDF uses up: its Form XObjects and the setup sheet's flow of paragraphs
        self.forms = {}
        self.form_uses = {}
        self._setup_pending = None
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
        save_streaming(canvas, buf)
        return b"" if sink is not None else memory.getvalue()

    def _count_form_uses(self, pages: list[Page]) -> None:
        for page in pages:
            for slot in page.slots:
                key = self._form_key(slot)
                self.form_uses[key] = self.form_uses.get(key, 0) + 1

    def _form_key(self, slot: Slot) -> Any:
        item = slot.item
        return (
            self.engine.lang,
            id(item.face),
            item.side,
            slot.rect.w,
            slot.rect.h,
            slot.bleed,
            item.shape,
        )

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
        elif page.kind == "board":
            self.board_tile(pen, page)
        elif page.kind == "proof":
            self.proof_page(pen, page)
        else:
            for slot in page.slots:
                self.slot(pen, slot)
            self.outlines(pen, page)
            self.marks(pen, page.marks)
            if page.fold is not None:
                self.fold_line(pen, page)
            self.furniture(pen, page)

    # --- slots and faces -----------------------------------------------------------------------
    def slot(self, pen: Pen, slot: Slot) -> None:
        item = slot.item
        if item.face is None:
            return
        key = self._form_key(slot)
        c = pen.c
        r = slot.rect

        def operations() -> list[Op]:  # computed only when the face is drawn
            assert item.face is not None
            face_ops = self.engine.ops(
                item.face, item.owner, item.card, item.side, r.w, r.h, slot.bleed
            )
            return flatten(face_ops)

        if self.form_uses.get(key, 0) > 1:
            name = self.forms.get(key)
            if name is None:
                ops = operations()
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
            self.draw_face(c, operations(), r.w, r.h, item.shape, slot.bleed)
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
            elif isinstance(op, TrackOp):
                self._track(c, op, h)
            elif isinstance(op, TableOp):
                self._table(c, op, h)
        if self.proof_marks:
            self._proof_marks(c, ops, h)
        c.restoreState()

    def _proof_marks(self, c: Canvas, ops: list[Op], face_h: float) -> None:
        """Proofs: a red frame where text overflows, an orange dashed one where it fell back."""
        for op in ops:
            if not isinstance(op, TextOp):
                continue
            x, y, bw, bh = op.box
            rect = (pt(x), pt(face_h - y - bh), pt(bw), pt(bh))
            if op.fit.overflow is not None:
                c.setStrokeColor(colors.HexColor("#d50000"))
                c.setLineWidth(1.2)
                c.setDash()
                c.rect(*rect, stroke=1, fill=0)
                c.setFillColor(colors.HexColor("#d50000"))
                c.setFont(self.fonts.main.font("bold"), 5)
                c.drawString(rect[0] + 1, rect[1] + 1, self.w("overflow"))
            elif op.fallback:
                c.setStrokeColor(colors.HexColor("#ef6c00"))
                c.setLineWidth(0.9)
                c.setDash(2, 1.5)
                c.rect(*rect, stroke=1, fill=0)
                c.setDash()

    def _track(self, c: Canvas, op: TrackOp, face_h: float) -> None:
        x, y, bw, bh = op.box
        n = max(len(op.labels), 1)
        font = self.fonts.main.font(op.font)
        c.saveState()
        c.setLineWidth(0.6)
        c.setStrokeColor(_color(op.stroke))
        for i, label in enumerate(op.labels):
            if op.vertical:  # the lowest value at the bottom
                ch = bh / n
                cx, cy, cw = x, y + bh - (i + 1) * ch, bw
                cell_h = ch
            else:
                cw = bw / n
                cx, cy, cell_h = x + i * cw, y, bh
            rx, ry = pt(cx), pt(face_h - cy - cell_h)
            if op.fill:
                c.setFillColor(_color(op.fill))
                c.rect(rx, ry, pt(cw), pt(cell_h), stroke=1, fill=1)
            else:
                c.rect(rx, ry, pt(cw), pt(cell_h), stroke=1, fill=0)
            size = min(op.size, pt(min(cw, cell_h)) * 0.6)
            c.setFont(font, size)
            c.setFillColor(_color(op.color))
            c.drawCentredString(rx + pt(cw) / 2, ry + pt(cell_h) / 2 - size * 0.35, label)
        c.restoreState()

    def _table(self, c: Canvas, op: TableOp, face_h: float) -> None:
        x, y, bw, bh = op.box
        table = build_table(
            op.header, op.rows, op.size, self.fonts, op.color, op.stroke, pt(bw), self.engine.icons
        )
        _w, th = table.wrap(pt(bw), pt(bh))
        table.drawOn(c, pt(x), pt(face_h - y) - th)

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
        """Art covering its box (centred, cropped); with bleed, extended past the trim.

        Art that carries its own bleed (art_bleed) is placed so that its trim lines up; art
        without enough bleed is cropped to the trim and extended by mirroring its edges.
        """
        x, y, bw, bh = op.box
        g = op.bleed
        bx, by, bw2, bh2 = x - g, y - g, bw + 2 * g, bh + 2 * g
        c.saveState()
        p = c.beginPath()
        p.rect(pt(bx), pt(face_h - by - bh2), pt(bw2), pt(bh2))
        c.clipPath(p, stroke=0, fill=0)
        if g > 0 and op.art_bleed < g:
            image = mirrored_bleed(op.path, bw, bh, g)
            c.drawImage(image, pt(bx), pt(face_h - by - bh2), pt(bw2), pt(bh2))
            c.restoreState()
            return
        a = op.art_bleed
        tx, ty, tw, th = x - a, y - a, bw + 2 * a, bh + 2 * a  # the image's own extent
        iw, ih = max(op.width_px, 1), max(op.height_px, 1)
        scale = max(tw / iw, th / ih)  # cover, centred
        dw, dh = iw * scale, ih * scale
        dx, dy = tx + (tw - dw) / 2, ty + (th - dh) / 2
        draw_image(c, op.path, pt(dx), pt(face_h - dy - dh), pt(dw), pt(dh))
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
        if fit.line is not None:  # one plain line: no Paragraph needed
            text, font, color = fit.line
            c.setFont(font, fit.size)
            c.setFillColor(_color(color))
            left = pt(x + op.padding)
            baseline = cursor - fit.size
            if fit.align == "center":
                c.drawCentredString(left + width / 2, baseline, text)
            elif fit.align == "right":
                c.drawRightString(left + width, baseline, text)
            else:
                c.drawString(left, baseline, text)
            return
        for i, para in enumerate(fit.paragraphs):
            if i:
                cursor -= fit.size * PARAGRAPH_GAP
            if abs(getattr(para, "width", -1.0) - width) > 1e-6:
                para.wrap(width, 1e6)  # measured at another width: wrap again
            ph = para.height
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

    source_engine: FaceEngine | None = None

    def proof_page(self, pen: Pen, page: Page) -> None:
        """Translator proof: source and target faces side by side, problems marked."""
        assert self.source_engine is not None
        c = pen.c
        target = self.engine
        for slot in page.slots:
            item = slot.item
            r = slot.rect
            label = f"{item.owner.id} / {getattr(item.card, 'id', '')} · {item.side}"
            c.setFont(self.fonts.main.font("regular"), 7)
            c.setFillColor(colors.black)
            if slot.index % 2 == 0:  # the source column: the label above the pair
                c.drawString(pen.x(r.x), pen.y(r.y - 1.5), label)
                lang = self.source_engine.lang
            else:
                lang = target.lang
            c.setFont(self.fonts.main.font("bold"), 7)
            c.drawRightString(pen.x(r.right), pen.y(r.y - 1.5), lang)
            engine = self.source_engine if slot.index % 2 == 0 else target
            self.proof_marks = slot.index % 2 == 1
            real = item_size(self.game, item.owner)  # type: ignore[arg-type]
            try:
                assert item.face is not None
                ops = flatten(
                    engine.ops(item.face, item.owner, item.card, item.side, real.w, real.h, 0.0)
                )
                c.saveState()
                c.translate(pt(r.x), pt(pen.page.h - r.y - r.h))
                c.scale(r.w / real.w, r.h / real.h)  # fitted at real size, shown smaller
                self.draw_face(c, ops, real.w, real.h, item.shape, 0.0)
                c.restoreState()
            finally:
                self.proof_marks = False
            c.setStrokeColor(colors.HexColor("#999999"))
            c.setLineWidth(0.3)
            c.rect(*pen.rect_pt(r), stroke=1, fill=0)
        c.setFont(self.fonts.main.font("regular"), 7)
        c.setFillColor(colors.black)
        legend = self.w(
            "Proof: left the source text, right the translation; red frame: does not fit, "
            "orange dashes: not translated yet."
        )
        c.drawString(pen.x(12), pen.y(page.size.h - 6), legend)

    def fold_line(self, pen: Pen, page: Page) -> None:
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
            c.drawString(pen.x(2), pen.y(f.y1 - 1), label)
        else:
            c.saveState()
            c.translate(pen.x(f.x1 - 1), pen.y(page.size.h - 2))
            c.rotate(90)
            c.drawString(0, 0, label)
            c.restoreState()
        c.restoreState()

    def board_tile(self, pen: Pen, page: Page) -> None:
        """One page of a tiled board: its part of the board, glue strips, marks, a map."""
        from .imposition import BOARD_MARGIN, Tile

        tile = page.payload
        assert isinstance(tile, Tile)
        (slot,) = page.slots
        item = slot.item
        board = tile.board
        c = pen.c
        W, H = board.size.w, board.size.h
        key = (id(item.face), item.side, W, H, 0.0, "board")
        name = self.forms.get(key)
        if name is None:
            assert item.face is not None
            ops = flatten(self.engine.ops(item.face, board, board, item.side, W, H, 0.0))
            name = f"face{len(self.forms)}"
            c.beginForm(name, lowerx=0, lowery=0, upperx=pt(W), uppery=pt(H))
            self.draw_face(c, ops, W, H, "rect", 0.0)
            c.endForm()
            self.forms[key] = name
        r, reg = slot.rect, tile.region
        c.saveState()
        p = c.beginPath()
        p.rect(*pen.rect_pt(r))
        c.clipPath(p, stroke=0, fill=0)
        c.translate(pt(r.x - reg.x), pt(page.size.h - r.y + reg.y - H))
        c.doForm(name)
        c.restoreState()
        ov = tile.overlap
        glue = []
        if tile.col < tile.cols - 1:
            glue.append(Rect(r.right - ov, r.y, ov, r.h))
        if tile.row < tile.rows - 1:
            glue.append(Rect(r.x, r.bottom - ov, r.w, ov))
        c.saveState()
        for g in glue:  # the strip the next tile is glued onto
            c.setFillColor(colors.Color(0.5, 0.5, 0.5, alpha=0.25))
            c.rect(*pen.rect_pt(g), stroke=0, fill=1)
            c.setFillColor(colors.HexColor("#333333"))
            c.setFont(self.fonts.main.font("bold"), 7)
            text = self.w("glue")
            if g.w < g.h:
                c.saveState()
                c.translate(pen.x(g.x + g.w / 2 + 1), pen.y(g.y + g.h / 2))
                c.rotate(90)
                c.drawCentredString(0, 0, text)
                c.restoreState()
            else:
                c.drawCentredString(pen.x(g.x + g.w / 2), pen.y(g.y + g.h / 2 + 1), text)
        # alignment marks: where the neighbour's edge lands (triangles in the margins)
        c.setFillColor(colors.black)
        if tile.col < tile.cols - 1:
            x = r.right - ov
            for y, d in ((r.y - 0.5, -1), (r.bottom + 0.5, 1)):
                self._triangle(pen, x, y, d, vertical=True)
        if tile.row < tile.rows - 1:
            y = r.bottom - ov
            for x, d in ((r.x - 0.5, -1), (r.right + 0.5, 1)):
                self._triangle(pen, x, y, d, vertical=False)
        c.restoreState()
        # cut marks at the tile's corners
        marks = []
        for x in (r.x, r.right):
            marks.append(Line(x, r.y - 1.5 - 5, x, r.y - 1.5))
            marks.append(Line(x, r.bottom + 1.5, x, r.bottom + 1.5 + 5))
        for y in (r.y, r.bottom):
            marks.append(Line(r.x - 1.5 - 5, y, r.x - 1.5, y))
            marks.append(Line(r.right + 1.5, y, r.right + 1.5 + 5, y))
        self.marks(pen, [m for m in marks if min(m.x1, m.x2) > 0 and max(m.y1, m.y2) < page.size.h])
        # label and assembly map in the bottom margin
        font = self.fonts.main.font("bold")
        bname = (
            self.translator.text(board.name or board.title)
            if (board.name or board.title)
            else board.id
        )
        back_word = self.w("back")
        side = "" if tile.side == "front" else f" ({back_word})"
        c.setFont(font, 9)
        label = self.w("{board}{side}: tile {label} of {total}").format(
            board=bname, side=side, label=tile.label, total=tile.cols * tile.rows
        )
        c.drawString(pen.x(r.x + 3), pen.y(page.size.h - BOARD_MARGIN / 2 + 1), label)
        cell = 2.6
        mx = page.size.w - BOARD_MARGIN - 3 - tile.cols * cell
        my = page.size.h - BOARD_MARGIN / 2 - tile.rows * cell / 2 - 1
        c.setLineWidth(0.4)
        for rr in range(tile.rows):
            for cc in range(tile.cols):
                here = (rr, cc) == (tile.row, tile.col)
                c.setFillColor(colors.black if here else colors.white)
                c.rect(
                    *pen.rect_pt(Rect(mx + cc * cell, my + rr * cell, cell, cell)), stroke=1, fill=1
                )
        c.setFont(self.fonts.main.font("regular"), 6)
        c.setFillColor(colors.black)
        c.drawRightString(
            pen.x(mx - 1.5),
            pen.y(my + tile.rows * cell / 2 + 1),
            self.w("print at 100 %; cut on the marks; glue each tile onto the grey strip"),
        )

    def _triangle(self, pen: Pen, x: float, y: float, d: int, vertical: bool) -> None:
        c = pen.c
        p = c.beginPath()
        size = 2.2
        if vertical:  # pointing at the page edge of the cut
            p.moveTo(pen.x(x), pen.y(y))
            p.lineTo(pen.x(x - size / 2), pen.y(y + d * size))
            p.lineTo(pen.x(x + size / 2), pen.y(y + d * size))
        else:
            p.moveTo(pen.x(x), pen.y(y))
            p.lineTo(pen.x(x + d * size), pen.y(y - size / 2))
            p.lineTo(pen.x(x + d * size), pen.y(y + size / 2))
        p.close()
        c.drawPath(p, stroke=0, fill=1)

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
    SETUP_MARGIN = 15.0

    def _setup_frame(self, page: Size) -> Frame:
        m = self.SETUP_MARGIN
        return Frame(pt(m), pt(m), pt(page.w - 2 * m), pt(page.h - 2 * m), showBoundary=0)

    def count_setup_pages(self, page: Size) -> int:
        """How many pages the setup sheet takes (measured on a scratch canvas)."""
        flow = self.setup_flowables()
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
        from ..core.rules import OVERFLOW
        from ..typeset.faces import TextIssue

        self.engine.issues.append(
            TextIssue(
                OVERFLOW,
                self.game.meta.at("setup_sheet"),
                f"[{self.lang}] a table or text of the setup sheet is larger than a page; split it",
                self.lang,
            )
        )

    def setup_sheet(self, pen: Pen, page: Page) -> None:
        if self._setup_pending is None:
            self._setup_pending = self.setup_flowables()
        flow = self._setup_pending
        before = len(flow)
        self._setup_frame(page.size).addFromList(flow, pen.c)
        if flow and len(flow) == before:
            flow.pop(0)

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
        for scenario in game.scenarios.values():
            out.extend(self.scenario(scenario, h2, body, small))
        out.append(Spacer(1, 10))
        out.append(Paragraph(self.para(self.print_advice(), "regular", 7.5), small))
        out.append(Paragraph(self.para(self.edition(), "regular", 7.5), small))
        if game.meta.credits:
            out.extend(self.paragraphs(t(game.meta.credits), small))
        return out

    def scenario(
        self, sc: Any, h2: ParagraphStyle, body: ParagraphStyle, small: ParagraphStyle
    ) -> list[Flowable]:
        """A scenario's set-up as a checklist: what to take out of the box, in order."""
        t = self.translator.text
        game = self.game
        out: list[Flowable] = [Spacer(1, 8)]
        name = t(sc.name) if sc.name else sc.id
        if sc.extends and sc.extends in game.scenarios:
            parent = game.scenarios[sc.extends]
            base = t(parent.name) if parent.name else parent.id
            name = self.w("{name} (variant of {base})").format(name=name, base=base)
        out.append(Paragraph(self.para(name, "bold", 12), h2))
        lo, hi = player_range(game, sc)
        if lo != hi:
            facts = [self.w("{lo}-{hi} player", hi).format(lo=lo, hi=hi)]
        else:
            facts = [self.w("{n} player", lo).format(n=lo)]
        if sc.difficulty:
            facts.append(t(sc.difficulty))
        out.append(Paragraph(self.para(" · ".join(facts), "italic", 9), body))
        if sc.story:
            out.extend(self.paragraphs(t(sc.story), small))
        steps: list[str] = []
        for ref in sc.boards:
            board = game.boards.get(ref.board)
            bname = (
                t(board.name or board.title) if board and (board.name or board.title) else ref.board
            )
            side = {"front": "A", "back": "B"}.get(ref.side, ref.side)
            where = f" — {t(ref.where)}" if ref.where else ""
            if board is not None and board.back is None:
                place = self.w("Place {board}").format(board=bname)
            else:
                place = self.w("Place {board}, side {side} up").format(board=bname, side=side)
            steps.append(place + where)
        for track_id, value in sc.start.items():
            track = game.tracks.get(track_id)
            tname = t(track.name) if track and track.name else track_id
            steps.append(self.w("Set {track} to {value}").format(track=tname, value=value))
        if sc.setup:
            steps.append(t(sc.setup))
        for step in sc.cards:
            steps.append(self.deck_step(step, lo, hi))
        for i, text in enumerate(steps, 1):
            out.append(Paragraph(self.para(f"{i}. {text}", "regular", 9.5), body))
        for label, text in (
            (self.w("Special rules"), sc.rules),
            (self.w("Victory"), sc.victory),
            (self.w("Defeat"), sc.defeat),
        ):
            if text:
                out.extend(self.paragraphs(f"**{label}:** {t(text)}", body))
        return out

    def deck_step(self, step: Any, lo: int, hi: int) -> str:
        t = self.translator.text
        game = self.game
        deck = game.decks.get(step.deck) or game.tokens.get(step.deck)
        dname = t(deck.name) if deck is not None and deck.name else step.deck

        def names(refs: list[Any]) -> str:
            out = []
            for ref in refs:
                card = game.card(ref.card)
                label = t(card.title) if card is not None and card.title else ref.card
                out.append(f"{label} ×{ref.copies}" if ref.copies > 1 else label)
            return ", ".join(out)

        parts = []
        if step.only is not None:
            parts.append(
                self.w("keep only the cards marked {mark}").format(mark=self._filter(step.only))
            )
        if step.exclude is not None:
            parts.append(
                self.w("set aside the cards marked {mark}").format(mark=self._filter(step.exclude))
            )
        if step.remove:
            parts.append(self.w("remove {cards}").format(cards=names(step.remove)))
        if step.order:
            parts.append(self.w("use, in this order: {cards}").format(cards=names(step.order)))
        if step.shuffle and not step.order:
            parts.append(self.w("shuffle"))
        if step.draw is not None:
            counts = {p: draw_count(step, p) for p in range(lo, hi + 1)}
            values = set(counts.values())
            if len(values) == 1:
                parts.append(self.w("draw {n} at random").format(n=values.pop()))
            else:
                per = ", ".join(f"{p}: {n}" for p, n in counts.items())
                parts.append(self.w("draw at random by players ({per})").format(per=per))
        if step.top:
            parts.append(self.w("put on top: {cards}").format(cards=names(step.top)))
        if step.bottom:
            parts.append(self.w("put at the bottom: {cards}").format(cards=names(step.bottom)))
        text = f"**{dname}:** " + "; ".join(parts)
        if step.note:
            text += f" — {t(step.note)}"
        return text

    def _filter(self, flt: Any) -> str:
        parts = [f"“{flt.tag}”"] if flt.tag else []
        parts.extend(f"{k} = {v}" for k, v in flt.values.items())
        return ", ".join(parts)

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

    def print_advice(self) -> str:
        return self.w(
            "How to print: at 100 % (actual size), never “fit to page”. Check the scale bar "
            "on any sheet measures 50 mm. Card sheets are followed by their backs: print "
            "double-sided, flipping on the long edge, or print single-sided and glue."
        )

    def para(self, text: str, face: str, size: float) -> str:
        from ..typeset.text import parse, to_xml

        runs = [r for p in parse(text, self.engine.icons, {}) for r in p]
        return to_xml(runs, self.fonts, face, size)

    def paragraphs(self, text: str, style: ParagraphStyle) -> list[Flowable]:
        from ..typeset.text import parse, to_xml

        out: list[Flowable] = []
        for runs in parse(text, self.engine.icons, {}):
            out.append(Paragraph(to_xml(runs, self.fonts, "regular", style.fontSize), style))
        return out

    def cell(self, value: Any, unit: str | None) -> str:
        return cell_text(value, unit, self.lang, self.translator.text)

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


def draw_calibration(pen: Pen, page: Page, fonts: FontSet, lang: str, duplex: Duplex) -> None:
    def gettext_(message: str) -> str:
        return gettext(message, lang)

    """Duplex calibration: a cross on the front, rulers on the back around its spot."""
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
    from .imposition import mirror

    c.setLineWidth(0.3)
    c.setFont(font, 5)
    for x, y in ((cx, cy), (30, 30), (W - 30, 30), (30, H - 30), (W - 30, H - 30)):
        m = mirror(Rect(x, y, 0, 0), page.size, duplex)
        mx, my = m.x + dx, m.y + dy
        for k in range(-10, 11):
            length = 3.0 if k % 5 == 0 else 1.6
            pen.line(Line(mx + k, my - length, mx + k, my))  # horizontal ruler
            pen.line(Line(mx, my + k, mx + length, my + k))  # vertical ruler
            if k % 5 == 0:
                c.drawCentredString(pen.x(mx + k), pen.y(my - 3.8), f"{k:+d}")
                c.drawString(pen.x(mx + 3.6), pen.y(my + k + 0.8), f"{k:+d}")
    c.setFont(font, 9)
    c.drawCentredString(pen.x(cx), pen.y(60), gettext_("Duplex calibration — back"))


def render_calibration(
    fonts: FontSet, lang: str, paper: Size, duplex: Duplex, offset: tuple[float, float]
) -> bytes:
    """A two-page duplex calibration sheet (front crosses, back rulers)."""
    with rl.pdf_settings():
        return _calibration_pdf(fonts, lang, paper, duplex, offset)


def _calibration_pdf(
    fonts: FontSet, lang: str, paper: Size, duplex: Duplex, offset: tuple[float, float]
) -> bytes:
    from .imposition import Page

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


def mirrored_bleed(path: Any, w: float, h: float, bleed: float) -> ImageReader:
    """The art cropped to the trim's shape and extended by ``bleed`` mm of mirrored edges."""
    from PIL import Image, ImageOps

    key = (str(path), w, h, bleed)
    bled = current().store("printing.bled-art")
    if key in bled:
        return bled[key]
    with Image.open(path) as src:
        im = src.convert("RGBA" if "A" in src.getbands() else "RGB")
    # crop to the trim's aspect ratio, centred (what the card shows without bleed)
    iw, ih = im.size
    target = w / h
    if iw / ih > target:
        nw = round(ih * target)
        im = im.crop(((iw - nw) // 2, 0, (iw - nw) // 2 + nw, ih))
    else:
        nh = round(iw / target)
        im = im.crop((0, (ih - nh) // 2, iw, (ih - nh) // 2 + nh))
    iw, ih = im.size
    bx = max(1, round(bleed * iw / w))
    by = max(1, round(bleed * ih / h))
    bx, by = min(bx, iw), min(by, ih)
    out = Image.new(im.mode, (iw + 2 * bx, ih + 2 * by))
    out.paste(im, (bx, by))
    left = ImageOps.mirror(im.crop((0, 0, bx, ih)))
    right = ImageOps.mirror(im.crop((iw - bx, 0, iw, ih)))
    out.paste(left, (0, by))
    out.paste(right, (bx + iw, by))
    top = ImageOps.flip(out.crop((0, by, iw + 2 * bx, 2 * by)))
    bottom = ImageOps.flip(out.crop((0, by + ih - by, iw + 2 * bx, by + ih)))
    out.paste(top, (0, 0))
    out.paste(bottom, (0, by + ih))
    reader = ImageReader(out)
    bled[key] = reader
    return reader
