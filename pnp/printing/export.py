"""Faces as images: every distinct face of a game (fronts, own backs, shared backs) as a page
of its own size, and pdfium (pypdfium2) to rasterise pages, so that an image shows exactly what
the printed card shows, text included. The preview draws its faces this way; the PNG and
Tabletop Simulator exports (:mod:`.raster`, :mod:`.tts`) place the same faces many to a page.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass

import pypdfium2 as pdfium
from PIL import Image

from ..content.model import Deck, Face, Game, TokenSet
from ..core.units import Size, px
from .imposition import Item, Page, Rect, Slot


@dataclass
class FacePage:
    name: str  # file stem, e.g. roles-boss-front
    owner: str
    card: str
    side: str
    page: Page


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


def png_bytes(image: Image.Image, dpi: float, level: int = 6) -> bytes:
    """``image`` as a PNG recording ``dpi``; zlib ``level`` 1 is 1.2x (flat colours) to 4x
    (photographic art) faster than 6, for files 8-25 % larger."""
    buf = io.BytesIO()
    image.save(buf, "PNG", dpi=(dpi, dpi), optimize=False, compress_level=level)
    return buf.getvalue()


def expected_size(size: Size, dpi: float) -> tuple[int, int]:
    return px(size.w, dpi), px(size.h, dpi)
