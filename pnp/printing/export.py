"""Faces as images: every distinct face of a game (fronts, own backs, shared backs) as a page
of its own size, and pdfium (pypdfium2) to rasterise pages, so that an image shows exactly what
the printed card shows, text included. The preview draws its faces this way; the PNG and
Tabletop Simulator exports (:mod:`.raster`, :mod:`.tts`) place the same faces many to a page.
"""

from __future__ import annotations

import io
import re
import struct
import zlib
from dataclasses import dataclass

import pypdfium2 as pdfium
from PIL import Image

from ..content.model import Deck, Face, Game, TokenSet
from ..core.units import MM_PER_INCH, Size, px
from .imposition import Item, Page, Rect, Slot


@dataclass
class FacePage:
    name: str  # file stem, e.g. roles-boss-front
    owner: str
    card: str
    side: str
    page: Page  # the face in its slot (with its bleed, when the slot has one), page-sized
    cut: tuple[int, int] | None = None  # pixels cut from the middle of the page's (bleed)


def _stem(*parts: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", "-".join(p for p in parts if p)).strip("-")


def face_pages(game: Game, owners: list[Deck | TokenSet], sizes: dict[str, Size]) -> list[FacePage]:
    """One page per distinct face (fronts and backs), each page exactly the face's size."""
    out: list[FacePage] = []
    seen_backs: set[int] = set()
    for owner in owners:
        size = sizes[owner.id]
        cards = list(owner.cards)
        shape = getattr(owner, "shape", "rect") if isinstance(owner, TokenSet) else "rect"
        for card in cards:
            faces: list[tuple[str, Face]] = [("front", card)]
            back = card.back or owner.back
            if back is not None and (card.back is not None or id(back) not in seen_backs):
                faces.append(("back", back))
                seen_backs.add(id(back))
            for side, face in faces:
                page = Page("fronts", size)
                item = Item(face, owner, card, side, shape)  # type: ignore[arg-type]
                page.slots.append(Slot(Rect(0, 0, size.w, size.h), item))
                shared = side == "back" and card.back is None  # the deck's one back
                cid = "" if shared else card.id
                out.append(FacePage(_stem(owner.id, cid, side), owner.id, cid, side, page))
    return out


def board_pages(game: Game, dpi: float, most: int) -> tuple[list[FacePage], list[str]]:
    """Each side of each board as a page of its own size (``board-ID-front``, ``-back``, of
    owner ``board-ID``), and
    the boards left out: those of more than ``most`` pixels at ``dpi``."""
    out: list[FacePage] = []
    left: list[str] = []
    for board in game.boards.values():
        if px(board.size.w, dpi) * px(board.size.h, dpi) > most:
            left.append(board.id)
            continue
        sides: list[tuple[str, Face]] = [("front", board)]
        if board.back is not None:
            sides.append(("back", board.back))
        for side, face in sides:
            page = Page("fronts", board.size)
            item = Item(face, board, board, side)  # type: ignore[arg-type]
            page.slots.append(Slot(Rect(0, 0, board.size.w, board.size.h), item))
            owner = f"board-{board.id}"  # not a deck's or token set's id
            out.append(FacePage(_stem(owner, side), owner, board.id, side, page))
    return out, left


def rasterise(pdf_bytes: bytes, dpi: float, sizes: list[Size]) -> list[Image.Image]:
    """Each page as an RGB image of exactly round(size / 25.4 x dpi) pixels."""
    doc = pdfium.PdfDocument(pdf_bytes)
    try:
        images = []
        for i in range(len(doc)):
            page = doc[i]
            bitmap = page.render(scale=dpi / 72.0)
            image = bitmap.to_pil().convert("RGB")
            page.close()
            want = expected_size(sizes[i], dpi)
            if image.size != want:  # pdfium rounds the bitmap up: trim the sliver
                image = image.crop((0, 0, *want)) if image.size >= want else image.resize(want)
            images.append(image)
        return images
    finally:
        doc.close()


def png_bytes(image: Image.Image, dpi: float, level: int = 6, strategy: int = -1) -> bytes:
    """``image`` as a PNG recording ``dpi``, by Pillow, which filters each row (the filter
    that predicts it best, chosen row by row); zlib ``level`` 1 is 1.2x (flat colours) to 4x
    (photographic art) faster than 6, for files 8-25 % larger. ``strategy`` zlib.Z_RLE suits
    art: rows filtered from a photograph leave few repeats for zlib to find but runs of small
    numbers, and on the benchmarks' art faces RLE writes files a quarter smaller (232 KB
    against 302 KB a poker card at 300 dpi) 6 % faster (31.5 ms against 33.5 ms; a real
    photograph: 7 % smaller, 20 % faster); flat colours lose by it (text faces 40 % larger).
    -1 is Pillow's own choice (Z_FILTERED for PNG: not zlib's default)."""
    buf = io.BytesIO()
    image.save(
        buf,
        "PNG",
        dpi=(dpi, dpi),
        optimize=False,
        compress_level=level,
        compress_type=strategy,
    )
    return buf.getvalue()


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def unfiltered_png(
    pixels: bytes | bytearray | memoryview,
    size: tuple[int, int],
    dpi: float,
    stride: int = 0,
    offset: int = 0,
    level: int = 1,
) -> bytes:
    """RGB pixels as a PNG recording ``dpi``, every row unfiltered (filter type 0), in one
    IDAT chunk compressed by zlib at ``level``. Row ``y`` is the ``size[0] * 3`` bytes at
    ``offset + y * stride`` of ``pixels`` (``stride`` 0: rows packed), so a face is written
    straight from the page bitmap it was rasterised in.

    Why not Pillow for every image: Pillow tries each of PNG's five filters on every row to
    keep the best, which is most of its time. For a face of text and flat colours (a poker
    card at 300 dpi, 744 x 1039 px) it takes 16-22 ms, where this writer takes 7.5-8 ms
    (zlib 7 ms, gathering the rows 0.5 ms) for a file 5 % smaller (100 KB against 106 KB):
    filtering does not help flat colours, whose runs zlib finds unfiltered. Photographic art
    is the opposite: unfiltered, its PNG is 50 % larger (607 KB against 410 KB) for a writer
    only 1.6x faster, so faces covered by images go to :func:`png_bytes`. The bytes depend
    only on the pixels, ``dpi``, ``level`` and zlib's version, as Pillow's do."""
    width, height = size
    row = width * 3
    stride = stride or row
    view = memoryview(pixels)
    if offset + (height - 1) * stride + row > view.nbytes:
        raise ValueError(f"{view.nbytes} bytes hold no {width} x {height} px at {offset}")
    rows = [view[at : at + row] for at in range(offset, offset + height * stride, stride)]
    raw = b"\0".join([b"", *rows])  # each row after its filter byte, 0: "None"
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit RGB
    per_metre = int(dpi * 1000 / MM_PER_INCH + 0.5)  # rounded as Pillow rounds it
    return b"".join(
        (
            PNG_SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"pHYs", struct.pack(">IIB", per_metre, per_metre, 1)),  # 1: per metre
            _chunk(b"IDAT", zlib.compress(raw, level)),
            _chunk(b"IEND", b""),
        )
    )


def _chunk(kind: bytes, data: bytes) -> bytes:
    crc = zlib.crc32(data, zlib.crc32(kind))
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


def expected_size(size: Size, dpi: float) -> tuple[int, int]:
    return px(size.w, dpi), px(size.h, dpi)
