"""Boards larger than the paper: the overview page, then the tiles.

A tile shows its part of the board (the board is drawn once, as a form, and clipped on every
tile), hatched grey strips where the next tiles are glued on, triangles where the neighbour's
edge lands, cut marks at its corners, and in the margin its label with a small map of the
tiles, this one filled in. No word is printed on the board itself: the overview page, before
the tiles, draws the whole board small (from the same form) with the tiles' grid and labels
over it, and says how to assemble them.
"""

from __future__ import annotations

from typing import Protocol

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus.flowables import Flowable

from ...content.model import Board, Face
from ...core.units import Size, mm, pt
from ...typeset.faces import flatten
from ...typeset.layout import Paragraph, draw_line
from ..imposition import BoardOverview, Line, Page, Rect, Slot, Tile
from ..imposition.boards import (
    OVERVIEW_CAPTION,
    OVERVIEW_GAP,
    OVERVIEW_HEADING,
    OVERVIEW_TEXT,
    overview_in,
)
from .faces import FaceDrawing
from .furniture import SheetFurniture
from .marks import draw_marks, draw_outlines
from .pen import Pen

GLUE_FILL = colors.Color(0.5, 0.5, 0.5, alpha=0.25)  # the strip the next tile is glued onto
HATCH = colors.Color(0.3, 0.3, 0.3, alpha=0.55)  # its hatching: no word over the board's art
HATCH_LIGHT = colors.Color(1, 1, 1, alpha=0.6)  # between them, for dark boards
HATCH_STEP = 2.5  # mm between the hatching's lines
TRIANGLE = 2.2  # mm, an alignment triangle's height


class BoardTiles(FaceDrawing, SheetFurniture):
    """The renderer's part that draws the tiles of large boards and their overview."""

    def board_tile(self, pen: Pen, page: Page) -> None:
        """One page of a tiled board: its part of the board, glue strips, marks, a map."""
        tile = page.payload
        assert isinstance(tile, Tile)
        slot, *others = page.slots  # the tile, then tokens moved onto its free paper
        r = slot.rect
        self._board_part(pen, page, slot, tile)
        for token in others:
            self.slot(pen, token)
        draw_outlines(pen, page)
        c = pen.c
        c.saveState()
        for strip in glue_strips(tile, r):
            _glue_strip(pen, strip)
        _alignment_marks(pen, tile, r)
        c.restoreState()
        draw_marks(pen, page.marks)
        self._tile_label(pen, tile, r)
        self.furniture(pen, page)  # the scale bar, above the tile

    def _board_form(self, c: Canvas, board: Board, face: Face, side: str) -> str:
        """The name of the Form XObject of one side of a board at full size, drawn once."""
        W, H = board.size.w, board.size.h
        key = (id(face), side, W, H, 0.0, "board")
        name = self.forms.get(key)
        if name is None:
            ops = flatten(self.engine.ops(face, board, board, side, W, H, 0.0))
            name = f"face{len(self.forms)}"
            c.beginForm(name, lowerx=0, lowery=0, upperx=pt(W), uppery=pt(H))
            self.draw_face(c, ops, W, H, "rect", 0.0)
            c.endForm()
            self.forms[key] = name
        return name

    def _board_part(self, pen: Pen, page: Page, slot: Slot, tile: Tile) -> None:
        """The tile's region of the board, from the board drawn once as a form."""
        item = slot.item
        assert item.face is not None
        name = self._board_form(pen.c, tile.board, item.face, item.side)
        c = pen.c
        r, reg = slot.rect, tile.region
        c.saveState()
        p = c.beginPath()
        p.rect(*pen.rect_pt(r))
        c.clipPath(p, stroke=0, fill=0)
        c.translate(pt(r.x - reg.x), pt(page.size.h - r.y + reg.y - tile.board.size.h))
        c.doForm(name)
        c.restoreState()

    def _board_name(self, board: Board) -> str:
        """The board's name as printed."""
        named = board.name or board.title
        return self.translator.text(named) if named else board.id

    def _side_word(self, side: str) -> str:
        """Nothing for the front, " (back)" for the back."""
        return "" if side == "front" else f" ({self.w('back')})"

    def _tile_label(self, pen: Pen, tile: Tile, r: Rect) -> None:
        """In the margin beside the tile (its label band): which tile this is, the map of the
        tiles, and between them how to assemble when there is room."""
        band = tile.band
        assert band is not None
        c = pen.c
        label = self.w("{board}{side}: tile {label} of {total}").format(
            board=self._board_name(tile.board),
            side=self._side_word(tile.side),
            label=tile.label,
            total=tile.cols * tile.rows,
        )
        baseline = band.y + band.h / 2 + 1.1
        c.setFont(self.fonts.main.font("bold"), 8)
        c.setFillColor(colors.black)
        draw_line(c, pen.x(band.x + 2), pen.y(baseline), label, self.fonts, "bold", 8, self.lang)
        label_end = band.x + 2 + mm(self._width("bold", 8)(label))
        cell = min(2.6, (band.h - 0.4) / tile.rows)
        mx = band.right - 2 - tile.cols * cell
        below = band.y >= r.bottom
        if below and tile.col < tile.cols - 1:  # clear of the triangle below the glue strip
            mx = min(mx, r.right - tile.overlap - TRIANGLE / 2 - 1.5 - tile.cols * cell)
        _tile_map(pen, tile, mx, band.y + (band.h - tile.rows * cell) / 2, cell)
        how = self.w("print at 100 %; cut on the marks; glue each tile onto the grey strip")
        width = mm(self._width("regular", 6)(how))
        if mx - 1.5 - width >= label_end + 3:  # only where it fits between label and map
            c.setFont(self.fonts.main.font("regular"), 6)
            c.setFillColor(colors.black)
            at = pen.x(mx - 1.5 - width), pen.y(baseline - 0.3)
            draw_line(c, *at, how, self.fonts, "regular", 6, self.lang)

    # --- the overview ---------------------------------------------------------------------------

    def board_overview(self, pen: Pen, page: Page) -> None:
        """The page before a board's tiles: the board drawn small with its tiles' grid and
        labels, a legend of the glue strip, and how to assemble the tiles."""
        ov = page.payload
        assert isinstance(ov, BoardOverview)
        board = ov.board
        faces: dict[str, Face | None] = {"front": board, "back": board.back}
        for side, rect in ov.drawings:
            if len(ov.drawings) > 1:  # which side this is, above it
                pen.c.setFillColor(colors.black)
                pen.c.setFont(self.fonts.main.font("bold"), 9)
                at = pen.x(rect.x), pen.y(rect.y - 1.8)
                text = self._board_name(board) + self._side_word(side)
                draw_line(pen.c, *at, text, self.fonts, "bold", 9, self.lang)
            face = faces[side]
            assert face is not None
            self._overview_board(pen, ov, self._board_form(pen.c, board, face, side), rect)
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
                _glue_strip(pen, on_page(strip))
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
        width = self._width("bold", 1)(label)  # points per point of type size
        size = max(7.0, min(28.0, pt(room.h) * 0.45, pt(room.w) * 0.6 / max(width, 0.1)))
        w, h = mm(width * size) + 3, mm(size) * 0.75 + 3
        box = Rect(room.x + (room.w - w) / 2, room.y + (room.h - h) / 2, w, h)
        c.setFillColor(colors.white)
        c.setStrokeColor(colors.black)
        c.setLineWidth(0.8)
        c.roundRect(*pen.rect_pt(box), pt(1.2), stroke=1, fill=1)
        c.setFillColor(colors.black)
        c.setFont(self.fonts.main.font("bold"), size)
        baseline = box.bottom - 1.5 - mm(size) * 0.02
        draw_line(
            c, pen.x(box.x + 1.5), pen.y(baseline), label, self.fonts, "bold", size, self.lang
        )

    def _overview_heading(self, pen: Pen, ov: BoardOverview) -> None:
        """The heading, and at the end of its line the legend of the glue strip."""
        c = pen.c
        box = ov.heading
        glue = self.w("glue")
        swatch = Rect(box.right - 12 - mm(self._width("regular", 8)(glue)), box.y + 2, 10, 4.5)
        _glue_strip(pen, swatch)
        c.setFillColor(colors.black)
        c.setFont(self.fonts.main.font("regular"), 8)
        at = pen.x(swatch.right + 1.5), pen.y(swatch.bottom - 1)
        draw_line(c, *at, glue, self.fonts, "regular", 8, self.lang)
        title = self.w("How to assemble {board}").format(board=self._board_name(ov.board))
        room = pt(swatch.x - 4 - box.x)
        size = 14.0
        while size > 8 and self._width("bold", size)(title) > room:
            size -= 0.5
        c.setFont(self.fonts.main.font("bold"), size)
        at = pen.x(box.x), pen.y(box.y + 6.5)
        draw_line(c, *at, title, self.fonts, "bold", size, self.lang)

    def _overview_text(self, pen: Pen, ov: BoardOverview) -> None:
        """How to assemble, in the text box: the largest type size (9.5 to 6 pt) that fits."""
        tiles = ov.tiles
        texts = [
            self.w("Print the tiles at 100 % and cut each one out on its cut marks."),
            self.w(
                "Glue the tiles in the order of their labels, from {first} to {last}, row by "
                "row: lay each tile over the grey strips of the tiles to its left and above it, "
                "with its edges on the black triangles."
            ).format(first=tiles[0].label, last=tiles[-1].label),
        ]
        if len(ov.drawings) > 1:
            texts.append(
                self.w(
                    "This board has two sides: assemble each side from its own tiles, then glue "
                    "the two sides back to back."
                )
            )
        box = ov.text
        size = 9.5
        while True:
            style = ParagraphStyle(
                "assembly",
                fontName=self.fonts.main.font("regular"),
                fontSize=size,
                leading=size * 1.25,
                spaceAfter=size * 0.4,
            )
            paras = [Paragraph(self.para(t, "regular", size), style) for t in texts]
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


def glue_strips(tile: Tile, r: Rect) -> list[Rect]:
    """The strips of tile ``tile`` drawn at ``r`` that its neighbours to the right and below
    are glued onto."""
    ov = tile.overlap
    out = []
    if tile.col < tile.cols - 1:
        out.append(Rect(r.right - ov, r.y, ov, r.h))
    if tile.row < tile.rows - 1:
        out.append(Rect(r.x, r.bottom - ov, r.w, ov))
    return out


def _glue_strip(pen: Pen, g: Rect) -> None:
    """A glue strip: translucent grey (the board shows through, to line the next tile up)
    and hatched, so that it is told from the board's own grey."""
    c = pen.c
    c.saveState()
    c.setFillColor(GLUE_FILL)
    c.rect(*pen.rect_pt(g), stroke=0, fill=1)
    p = c.beginPath()
    p.rect(*pen.rect_pt(g))
    c.clipPath(p, stroke=0, fill=0)
    c.setLineWidth(0.4)
    for color, start in ((HATCH, 0.0), (HATCH_LIGHT, HATCH_STEP / 2)):  # seen on dark boards too
        c.setStrokeColor(color)
        k = start - g.h
        while k < g.w:
            pen.line(Line(g.x + k, g.bottom, g.x + k + g.h, g.y))
            k += HATCH_STEP
    c.restoreState()


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


def _tile_map(pen: Pen, tile: Tile, x: float, y: float, cell: float) -> None:
    """The map of the tiles, this one filled in, its top-left corner at (x, y)."""
    c = pen.c
    c.setLineWidth(0.4)
    c.setStrokeColor(colors.black)
    for rr in range(tile.rows):
        for cc in range(tile.cols):
            here = (rr, cc) == (tile.row, tile.col)
            c.setFillColor(colors.black if here else colors.white)
            c.rect(*pen.rect_pt(Rect(x + cc * cell, y + rr * cell, cell, cell)), stroke=1, fill=1)


def _alignment_marks(pen: Pen, tile: Tile, r: Rect) -> None:
    """Where the neighbour's edge lands: triangles in the margins, at both ends of it."""
    pen.c.setFillColor(colors.black)
    ov = tile.overlap
    if tile.col < tile.cols - 1:
        x = r.right - ov
        for y, d in ((r.y - 0.5, -1), (r.bottom + 0.5, 1)):
            _triangle(pen, x, y, d, vertical=True)
    if tile.row < tile.rows - 1:
        y = r.bottom - ov
        for x, d in ((r.x - 0.5, -1), (r.right + 0.5, 1)):
            _triangle(pen, x, y, d, vertical=False)


def _triangle(pen: Pen, x: float, y: float, d: int, vertical: bool) -> None:
    """An alignment triangle at (x, y), pointing at the page edge of the cut."""
    c = pen.c
    p = c.beginPath()
    size = TRIANGLE
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


OVERVIEW_BLOCK = 150.0  # mm: the most an overview takes when the setup sheet draws it


class DrawsOverview(Protocol):
    """What draws an overview: the renderer (:class:`BoardTiles` is its part that does)."""

    def board_overview(self, pen: Pen, page: Page) -> None: ...


class OverviewBlock(Flowable):
    """A board's overview drawn in the setup sheet's flow, as the overview page would draw
    it, in the width of the frame: when it fits on the sheet's last page, the board's tiles
    need no page of their own before them."""

    def __init__(self, tiles: DrawsOverview, overview: BoardOverview) -> None:
        super().__init__()
        self.tiles = tiles
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
        self.tiles.board_overview(Pen(self.canv, area), page)
