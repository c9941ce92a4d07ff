"""Art: an image covering its box, and art extended into the bleed by mirroring its edges."""

from __future__ import annotations

from typing import Any

from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from ...core.run import current
from ...core.units import pt
from ...typeset.faces import ImageOp
from ..pdfimage import draw_image


def draw_art(c: Canvas, op: ImageOp, face_h: float) -> None:
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
