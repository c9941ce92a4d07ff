"""Boards larger than the paper: the tiles (the overview page before them: :mod:`.overview`).

A tile shows its part of the board (the board is drawn once, as a form, and clipped on every
tile), hatched grey strips where the next tiles are glued on, triangles where the neighbour's
edge lands, cut marks at its corners, and in the margin its label with a small map of the
tiles, this one filled in. No word is printed on the board itself.
"""

from __future__ import annotations

from reportlab.lib import colors

from ...content.model import Board
from ...core.units import mm, pt
from ...typeset.layout import draw_line
from ..imposition import Line, Page, Rect, Slot, Tile
from .context import RenderContext
from .faces import FaceDrawer
from .furniture import SheetFurniture
from .marks import draw_marks, draw_outlines
from .pen import Pen

GLUE_FILL = colors.Color(0.5, 0.5, 0.5, alpha=0.25)  # the strip the next tile is glued onto
HATCH = colors.Color(0.3, 0.3, 0.3, alpha=0.55)  # its hatching: no word over the board's art
HATCH_LIGHT = colors.Color(1, 1, 1, alpha=0.6)  # between them, for dark boards
HATCH_STEP = 2.5  # mm between the hatching's lines
TRIANGLE = 2.2  # mm, an alignment triangle's height


class BoardTiles:
    """Draws the tiles of large boards ("board" pages), with the faces' drawer (the board is
    its form) and the furniture's (the scale bar)."""

    def __init__(self, ctx: RenderContext, faces: FaceDrawer, furniture: SheetFurniture) -> None:
        self.ctx = ctx
        self.faces = faces
        self.furniture = furniture

    def draw(self, pen: Pen, page: Page) -> None:
        """One page of a tiled board: its part of the board, glue strips, marks, a map."""
        tile = page.payload
        assert isinstance(tile, Tile)
        slot, *others = page.slots  # the tile, then tokens moved onto its free paper
        r = slot.rect
        self._board_part(pen, page, slot, tile)
        for token in others:
            self.faces.slot(pen, token)
        draw_outlines(pen, page)
        c = pen.c
        c.saveState()
        for strip in glue_strips(tile, r):
            glue_strip(pen, strip)
        _alignment_marks(pen, tile, r)
        c.restoreState()
        draw_marks(pen, page.marks)
        self._tile_label(pen, tile, r)
        self.furniture.draw(pen, page)  # the scale bar, above the tile

    def _board_part(self, pen: Pen, page: Page, slot: Slot, tile: Tile) -> None:
        """The tile's region of the board, from the board drawn once as a form."""
        item = slot.item
        assert item.face is not None
        name = self.faces.board_form(pen.c, tile.board, item.face, item.side)
        c = pen.c
        r, reg = slot.rect, tile.region
        c.saveState()
        p = c.beginPath()
        p.rect(*pen.rect_pt(r))
        c.clipPath(p, stroke=0, fill=0)
        c.translate(pt(r.x - reg.x), pt(page.size.h - r.y + reg.y - tile.board.size.h))
        c.doForm(name)
        c.restoreState()

    def _tile_label(self, pen: Pen, tile: Tile, r: Rect) -> None:
        """In the margin beside the tile (its label band): which tile this is, the map of the
        tiles, and between them how to assemble when there is room."""
        ctx = self.ctx
        band = tile.band
        assert band is not None
        c = pen.c
        label = ctx.w("{board}{side}: tile {label} of {total}").format(
            board=board_name(ctx, tile.board),
            side=side_word(ctx, tile.side),
            label=tile.label,
            total=tile.cols * tile.rows,
        )
        baseline = band.y + band.h / 2 + 1.1
        c.setFont(ctx.fonts.main.font("bold"), 8)
        c.setFillColor(colors.black)
        draw_line(c, pen.x(band.x + 2), pen.y(baseline), label, ctx.fonts, "bold", 8, ctx.lang)
        label_end = band.x + 2 + mm(ctx.measure("bold", 8)(label))
        cell = min(2.6, (band.h - 0.4) / tile.rows)
        mx = band.right - 2 - tile.cols * cell
        below = band.y >= r.bottom
        if below and tile.col < tile.cols - 1:  # clear of the triangle below the glue strip
            mx = min(mx, r.right - tile.overlap - TRIANGLE / 2 - 1.5 - tile.cols * cell)
        _tile_map(pen, tile, mx, band.y + (band.h - tile.rows * cell) / 2, cell)
        how = ctx.w("print at 100 %; cut on the marks; glue each tile onto the grey strip")
        width = mm(ctx.measure("regular", 6)(how))
        if mx - 1.5 - width >= label_end + 3:  # only where it fits between label and map
            c.setFont(ctx.fonts.main.font("regular"), 6)
            c.setFillColor(colors.black)
            at = pen.x(mx - 1.5 - width), pen.y(baseline - 0.3)
            draw_line(c, *at, how, ctx.fonts, "regular", 6, ctx.lang)


def board_name(ctx: RenderContext, board: Board) -> str:
    """The board's name as printed."""
    named = board.name or board.title
    return ctx.translator.text(named) if named else board.id


def side_word(ctx: RenderContext, side: str) -> str:
    """Nothing for the front, " (back)" for the back."""
    return "" if side == "front" else f" ({ctx.w('back')})"


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


def glue_strip(pen: Pen, g: Rect) -> None:
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
