"""The overview of a board larger than the paper, before its tiles: the whole board drawn small
(from the form its tiles are cut from) with the tiles' grid and labels over it, a legend of the
glue strip, and how to assemble the tiles. It is a page of its own, or a block of the setup
sheet's flow (:class:`OverviewBlock`) when the sheet keeps its number of pages with it.
"""

from __future__ import annotations

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus.flowables import Flowable

from ...content.model import Face
from ...core.units import Size, mm, pt
from ...typeset.layout import Paragraph, draw_line
from ..imposition import BoardOverview, Line, Page, Rect, Tile
from ..imposition.boards import (
    OVERVIEW_CAPTION,
    OVERVIEW_GAP,
    OVERVIEW_HEADING,
    OVERVIEW_TEXT,
    overview_in,
)
from .boards import board_name, glue_strip, glue_strips, side_word
from .context import PageDrawer, RenderContext
from .faces import FaceDrawer
from .pen import Pen


class BoardOverviews:
    """Draws the overviews of tiled boards ("board-overview" pages, and the setup sheet's
    blocks), with the faces' drawer (the board is its form)."""

    def __init__(self, ctx: RenderContext, faces: FaceDrawer) -> None:
        self.ctx = ctx
        self.faces = faces

    def draw(self, pen: Pen, page: Page) -> None:
        """The page before a board's tiles: the board drawn small with its tiles' grid and
        labels, a legend of the glue strip, and how to assemble the tiles."""
        ov = page.payload
        assert isinstance(ov, BoardOverview)
        board = ov.board
        faces: dict[str, Face | None] = {"front": board, "back": board.back}
        for side, rect in ov.drawings:
            if len(ov.drawings) > 1:  # which side this is, above it
                pen.c.setFillColor(colors.black)
                pen.c.setFont(self.ctx.fonts.main.font("bold"), 9)
                at = pen.x(rect.x), pen.y(rect.y - 1.8)
                text = board_name(self.ctx, board) + side_word(self.ctx, side)
                draw_line(pen.c, *at, text, self.ctx.fonts, "bold", 9, self.ctx.lang)
            face = faces[side]
            assert face is not None
            self._overview_board(pen, ov, self.faces.board_form(pen.c, board, face, side), rect)
        self._overview_heading(pen, ov)
        self._overview_text(pen, ov)

    def _overview_board(self, pen: Pen, ov: BoardOverview, form: str, rect: Rect) -> None:
        """One side of the board, scaled into ``rect``, with the seams between the tiles, the
        glue strips and each tile's label in the middle of what shows of it once glued."""
        c = pen.c
        s = ov.scale
        c.saveState()
        p = c.beginPath()
        p.rect(*pen.rect_pt(rect))
        c.clipPath(p, stroke=0, fill=0)
        c.translate(pen.x(rect.x), pen.y(rect.bottom))
        c.scale(s, s)
        c.doForm(form)
        c.restoreState()

        def on_page(r: Rect) -> Rect:
            return Rect(rect.x + r.x * s, rect.y + r.y * s, r.w * s, r.h * s)

        c.saveState()
        for tile in ov.tiles:
            for strip in glue_strips(tile, tile.region):
                glue_strip(pen, on_page(strip))
        seams = _seams(ov)
        c.setLineCap(0)
        for color, width in ((colors.white, 2.2), (colors.black, 1.0)):
            c.setStrokeColor(color)
            c.setLineWidth(width)
            for seam in seams:
                pen.line(Line(*_point(rect, s, seam[:2]), *_point(rect, s, seam[2:])))
        c.setStrokeColor(colors.HexColor("#555555"))
        c.setLineWidth(0.5)
        c.rect(*pen.rect_pt(rect), stroke=1, fill=0)
        for tile in ov.tiles:
            self._overview_label(pen, tile.label, on_page(_visible(ov, tile)))
        c.restoreState()

    def _overview_label(self, pen: Pen, label: str, room: Rect) -> None:
        """A tile's label, large, in a white box in the middle of ``room``."""
        c = pen.c
        width = self.ctx.measure("bold", 1)(label)  # points per point of type size
        size = max(7.0, min(28.0, pt(room.h) * 0.45, pt(room.w) * 0.6 / max(width, 0.1)))
        w, h = mm(width * size) + 3, mm(size) * 0.75 + 3
        box = Rect(room.x + (room.w - w) / 2, room.y + (room.h - h) / 2, w, h)
        c.setFillColor(colors.white)
        c.setStrokeColor(colors.black)
        c.setLineWidth(0.8)
        c.roundRect(*pen.rect_pt(box), pt(1.2), stroke=1, fill=1)
        c.setFillColor(colors.black)
        c.setFont(self.ctx.fonts.main.font("bold"), size)
        baseline = box.bottom - 1.5 - mm(size) * 0.02
        draw_line(
            c,
            pen.x(box.x + 1.5),
            pen.y(baseline),
            label,
            self.ctx.fonts,
            "bold",
            size,
            self.ctx.lang,
        )

    def _overview_heading(self, pen: Pen, ov: BoardOverview) -> None:
        """The heading, and at the end of its line the legend of the glue strip."""
        c = pen.c
        box = ov.heading
        glue = self.ctx.w("glue")
        swatch = Rect(box.right - 12 - mm(self.ctx.measure("regular", 8)(glue)), box.y + 2, 10, 4.5)
        glue_strip(pen, swatch)
        c.setFillColor(colors.black)
        c.setFont(self.ctx.fonts.main.font("regular"), 8)
        at = pen.x(swatch.right + 1.5), pen.y(swatch.bottom - 1)
        draw_line(c, *at, glue, self.ctx.fonts, "regular", 8, self.ctx.lang)
        title = self.ctx.w("How to assemble {board}").format(board=board_name(self.ctx, ov.board))
        room = pt(swatch.x - 4 - box.x)
        size = 14.0
        while size > 8 and self.ctx.measure("bold", size)(title) > room:
            size -= 0.5
        c.setFont(self.ctx.fonts.main.font("bold"), size)
        at = pen.x(box.x), pen.y(box.y + 6.5)
        draw_line(c, *at, title, self.ctx.fonts, "bold", size, self.ctx.lang)

    def _overview_text(self, pen: Pen, ov: BoardOverview) -> None:
        """How to assemble, in the text box: the largest type size (9.5 to 6 pt) that fits."""
        tiles = ov.tiles
        texts = [
            self.ctx.w("Print the tiles at 100 % and cut each one out on its cut marks."),
            self.ctx.w(
                "Glue the tiles in the order of their labels, from {first} to {last}, row by "
                "row: lay each tile over the grey strips of the tiles to its left and above it, "
                "with its edges on the black triangles."
            ).format(first=tiles[0].label, last=tiles[-1].label),
        ]
        if len(ov.drawings) > 1:
            texts.append(
                self.ctx.w(
                    "This board has two sides: assemble each side from its own tiles, then glue "
                    "the two sides back to back."
                )
            )
        box = ov.text
        size = 9.5
        while True:
            style = ParagraphStyle(
                "assembly",
                fontName=self.ctx.fonts.main.font("regular"),
                fontSize=size,
                leading=size * 1.25,
                spaceAfter=size * 0.4,
            )
            paras = [Paragraph(self.ctx.para(t, "regular", size), style) for t in texts]
            heights = [p.wrap(pt(box.w), pt(box.h))[1] for p in paras]
            total = sum(heights) + style.spaceAfter * (len(paras) - 1)
            if total <= pt(box.h) or size <= 6:
                break
            size -= 0.5
        y = pen.y(box.y)
        for para, height in zip(paras, heights, strict=True):
            y -= height
            para.drawOn(pen.c, pen.x(box.x), y)
            y -= style.spaceAfter


def _seams(ov: BoardOverview) -> list[tuple[float, float, float, float]]:
    """Where the tiles meet once glued (board mm): each later tile's left and top edge."""
    w, h = ov.board.size.w, ov.board.size.h
    xs = sorted({t.region.x for t in ov.tiles if t.col > 0})
    ys = sorted({t.region.y for t in ov.tiles if t.row > 0})
    return [(x, 0.0, x, h) for x in xs] + [(0.0, y, w, y) for y in ys]


def _point(rect: Rect, s: float, xy: tuple[float, float]) -> tuple[float, float]:
    return rect.x + xy[0] * s, rect.y + xy[1] * s


def _visible(ov: BoardOverview, tile: Tile) -> Rect:
    """What shows of a tile once the board is glued (board mm): up to the next tiles' edges."""
    reg = tile.region
    right = min((t.region.x for t in ov.tiles if t.col == tile.col + 1), default=reg.right)
    bottom = min((t.region.y for t in ov.tiles if t.row == tile.row + 1), default=reg.bottom)
    return Rect(reg.x, reg.y, right - reg.x, bottom - reg.y)


OVERVIEW_BLOCK = 150.0  # mm: the most an overview takes when the setup sheet draws it


class OverviewBlock(Flowable):
    """A board's overview drawn in the setup sheet's flow, as the overview page would draw
    it, in the width of the frame: when it fits on the sheet's last page, the board's tiles
    need no page of their own before them."""

    def __init__(self, drawer: PageDrawer, overview: BoardOverview) -> None:
        super().__init__()
        self.drawer = drawer  # what draws overview pages (BoardOverviews)
        self.overview = overview

    def wrap(self, aW: float, aH: float) -> tuple[float, float]:
        self.width, self.height = aW, pt(self._height(mm(aW)))
        return self.width, self.height

    def _height(self, width: float) -> float:
        """As tall as the board drawn the frame's width needs, with its heading and text."""
        board = self.overview.board
        sides = len(self.overview.drawings)
        drawing = width * board.size.h / board.size.w
        extra = OVERVIEW_HEADING + OVERVIEW_TEXT + OVERVIEW_GAP
        if sides > 1:
            extra += OVERVIEW_GAP + sides * OVERVIEW_CAPTION
        return min(OVERVIEW_BLOCK, extra + sides * drawing)

    def draw(self) -> None:
        area = Size(mm(self.width), mm(self.height))
        ov = self.overview
        laid = overview_in(ov.board, list(ov.tiles), area)
        page = Page("board-overview", area, group=ov.board.id, payload=laid)
        self.drawer.draw(Pen(self.canv, area), page)
