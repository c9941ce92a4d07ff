"""Board tiles: one page of a board larger than the paper.

A tile shows its part of the board (the board is drawn once, as a form, and clipped on every
tile), grey strips where the next tile is glued on, triangles where the neighbour's edge lands,
cut marks at its corners, and a label with a small map of the tiles, this one filled in.
"""

from __future__ import annotations

from reportlab.lib import colors

from ...core.units import pt
from ...typeset.faces import flatten
from ...typeset.layout import draw_line
from ..imposition import Page, Rect, Slot, Tile
from .faces import FaceDrawing
from .furniture import SheetFurniture
from .marks import draw_marks
from .pen import Pen


class BoardTiles(FaceDrawing, SheetFurniture):
    """The renderer's part that draws the tiles of large boards."""

    def board_tile(self, pen: Pen, page: Page) -> None:
        """One page of a tiled board: its part of the board, glue strips, marks, a map."""
        tile = page.payload
        assert isinstance(tile, Tile)
        (slot,) = page.slots
        r = slot.rect
        self._board_part(pen, page, slot, tile)
        c = pen.c
        c.saveState()
        self._glue_strips(pen, tile, r)
        _alignment_marks(pen, tile, r)
        c.restoreState()
        draw_marks(pen, page.marks)
        self._tile_label(pen, page, tile, r)
        self.furniture(pen, page)  # the scale bar, above the tile

    def _board_part(self, pen: Pen, page: Page, slot: Slot, tile: Tile) -> None:
        """The tile's region of the board, from the board drawn once as a form."""
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

    def _glue_strips(self, pen: Pen, tile: Tile, r: Rect) -> None:
        """The strips the next tiles (right, below) are glued onto, marked "glue"."""
        c = pen.c
        ov = tile.overlap
        glue = []
        if tile.col < tile.cols - 1:
            glue.append(Rect(r.right - ov, r.y, ov, r.h))
        if tile.row < tile.rows - 1:
            glue.append(Rect(r.x, r.bottom - ov, r.w, ov))
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

    def _tile_label(self, pen: Pen, page: Page, tile: Tile, r: Rect) -> None:
        """In the bottom margin: which tile this is, how to assemble, and the map of tiles,
        all between the tile and the printable margin."""
        c = pen.c
        board = tile.board
        named = board.name or board.title
        bname = self.translator.text(named) if named else board.id
        side = "" if tile.side == "front" else f" ({self.w('back')})"
        label = self.w("{board}{side}: tile {label} of {total}").format(
            board=bname, side=side, label=tile.label, total=tile.cols * tile.rows
        )
        band_top = r.bottom + 1.0  # below the tile, above the printable margin
        band = page.size.h - tile.printable - band_top
        c.setFont(self.fonts.main.font("bold"), 8)
        at = pen.x(r.x + 3), pen.y(band_top + band / 2 + 1.1)  # the board's name, shaped
        draw_line(c, *at, label, self.fonts, "bold", 8, self.lang)
        cell = min(2.6, (band - 0.4) / tile.rows)
        mx = min(page.size.w, r.right) - 3 - tile.cols * cell
        if tile.col < tile.cols - 1:  # clear of the alignment triangle below the glue strip
            mx = min(mx, r.right - tile.overlap - 2.5 - tile.cols * cell)
        my = band_top + (band - tile.rows * cell) / 2
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
            pen.y(band_top + band / 2 + 0.8),
            self.w("print at 100 %; cut on the marks; glue each tile onto the grey strip"),
        )


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
