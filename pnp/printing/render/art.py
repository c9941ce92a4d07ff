"""Art: an image covering its box, and art extended into the bleed by mirroring its edges."""

from __future__ import annotations

from reportlab.pdfgen.canvas import Canvas

from ...core.units import pt
from ...typeset.faces import ImageOp
from ..pdfimage import draw_image


def draw_art(c: Canvas, op: ImageOp, face_h: float) -> None:
    """Art covering its box (centred, cropped); with bleed, extended past the trim.

    Art that carries its own bleed (art_bleed) is placed so that its trim lines up; art
    without enough bleed is extended by mirroring its edges.
    """
    x, y, bw, bh = op.box
    g = op.bleed
    if g > 0 and op.art_bleed < g:
        _mirrored(c, op, face_h)
        return
    c.saveState()
    p = c.beginPath()
    p.rect(pt(x - g), pt(face_h - y - bh - g), pt(bw + 2 * g), pt(bh + 2 * g))
    c.clipPath(p, stroke=0, fill=0)
    _place(c, op, face_h)
    c.restoreState()


def _place(c: Canvas, op: ImageOp, face_h: float) -> None:
    """The image covering the trim and its own bleed (art_bleed), centred, unclipped."""
    x, y, bw, bh = op.box
    a = op.art_bleed
    tx, ty, tw, th = x - a, y - a, bw + 2 * a, bh + 2 * a  # the image's own extent
    iw, ih = max(op.width_px, 1), max(op.height_px, 1)
    scale = max(tw / iw, th / ih)  # cover, centred
    dw, dh = iw * scale, ih * scale
    dx, dy = tx + (tw - dw) / 2, ty + (th - dh) / 2
    draw_image(c, op.path, pt(dx), pt(face_h - dy - dh), pt(dw), pt(dh))


# how far (points) a mirrored strip reaches under the trim: no hairline where they meet
_SEAM = 0.25


def _mirrored(c: Canvas, op: ImageOp, face_h: float) -> None:
    """The art in the trim, and in the bleed its mirror image about each edge (and about
    both at the corners): the same image drawn nine times, each clipped to its part. Nothing
    is decoded or made: the PDF holds the original pixels once, losslessly, streamed like
    any art (the trim shows exactly what it shows without bleed)."""
    x, y, bw, bh = op.box
    g = pt(op.bleed)
    x0, x1 = pt(x), pt(x + bw)
    y0, y1 = pt(face_h - y - bh), pt(face_h - y)  # bottom and top of the trim, in points
    columns = ((-1, x0 - g, x0 + _SEAM), (1, x1 - _SEAM, x1 + g))
    rows = ((-1, y0 - g, y0 + _SEAM), (1, y1 - _SEAM, y1 + g))
    parts = [(sx, lo, hi, 0, y0, y1) for sx, lo, hi in columns]
    parts += [(0, x0, x1, sy, lo, hi) for sy, lo, hi in rows]
    parts += [(sx, xl, xh, sy, yl, yh) for sx, xl, xh in columns for sy, yl, yh in rows]
    for sx, xl, xh, sy, yl, yh in parts:
        c.saveState()
        p = c.beginPath()
        p.rect(xl, yl, xh - xl, yh - yl)
        c.clipPath(p, stroke=0, fill=0)
        mx = 0.0 if sx == 0 else 2 * (x0 if sx < 0 else x1)  # reflect about that edge
        my = 0.0 if sy == 0 else 2 * (y0 if sy < 0 else y1)
        c.transform(-1 if sx else 1, 0, 0, -1 if sy else 1, mx, my)
        _place(c, op, face_h)
        c.restoreState()
    c.saveState()
    p = c.beginPath()
    p.rect(x0, y0, x1 - x0, y1 - y0)
    c.clipPath(p, stroke=0, fill=0)
    _place(c, op, face_h)
    c.restoreState()
