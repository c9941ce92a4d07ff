"""Raster exports: every card face as a PNG, and Tabletop Simulator deck sheets.

The faces are rendered by the same renderer into a PDF with one face per page, then rasterised
with pdfium (pypdfium2), so a PNG shows exactly what the printed card shows, text included.
TTS deck sheets are grids of at most 10 x 7 faces (the last slot stays free, as TTS expects),
with the shared back as one image or, for two-sided cards, a sheet of backs in the same order.
"""

from __future__ import annotations

import io
import json
import re
from dataclasses import dataclass

import pypdfium2 as pdfium
from PIL import Image

from ..content.model import Deck, Face, Game, TokenSet
from ..core.units import Size, px
from .imposition import Item, Page, Rect, Slot

TTS_COLS, TTS_ROWS = 10, 7
TTS_MAX = TTS_COLS * TTS_ROWS - 1  # the last slot is the deck's "hidden" card in TTS


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


def png_bytes(image: Image.Image, dpi: float) -> bytes:
    buf = io.BytesIO()
    image.save(buf, "PNG", dpi=(dpi, dpi), optimize=False)
    return buf.getvalue()


def tts_sheets(
    game: Game, faces: dict[str, Image.Image], stems: list[FacePage], dpi: float
) -> dict[str, bytes]:
    """Deck sheets per deck: fronts (every copy), backs, and a JSON note for importing."""
    files: dict[str, bytes] = {}
    by_key = {(f.owner, f.card, f.side): f.name for f in stems}
    for deck in game.decks.values():
        fronts: list[Image.Image] = []
        backs: list[Image.Image] = []
        unique_backs = any(c.back is not None for c in deck.cards)
        for card in deck.cards:
            front = faces[by_key[(deck.id, card.id, "front")]]
            back_name = None
            if unique_backs:
                key = (deck.id, card.id, "back") if card.back else (deck.id, "", "back")
                back_name = by_key.get(key)
            for _ in range(card.copies):
                fronts.append(front)
                if unique_backs and back_name:
                    backs.append(faces[back_name])
        if not fronts:
            continue
        chunks = [fronts[i : i + TTS_MAX] for i in range(0, len(fronts), TTS_MAX)]
        info = []
        for n, chunk in enumerate(chunks, 1):
            name = f"{deck.id}-faces-{n}.png"
            files[name] = png_bytes(_grid(chunk), dpi)
            entry = {"faces": name, "cards": len(chunk), "columns": TTS_COLS, "rows": TTS_ROWS}
            if unique_backs:
                bname = f"{deck.id}-backs-{n}.png"
                files[bname] = png_bytes(_grid(backs[(n - 1) * TTS_MAX : n * TTS_MAX]), dpi)
                entry["backs"] = bname
                entry["unique_backs"] = True
            info.append(entry)
        if not unique_backs and deck.back is not None:
            back_name = by_key.get((deck.id, "", "back"))
            if back_name:
                files[f"{deck.id}-back.png"] = png_bytes(faces[back_name], dpi)
                for entry in info:
                    entry["back"] = f"{deck.id}-back.png"
        files[f"{deck.id}.json"] = (json.dumps(info, indent=2) + "\n").encode()
    return files


def _grid(images: list[Image.Image]) -> Image.Image:
    w, h = images[0].size
    sheet = Image.new("RGB", (w * TTS_COLS, h * TTS_ROWS), "white")
    for i, im in enumerate(images):
        r, c = divmod(i, TTS_COLS)
        sheet.paste(im.resize((w, h)) if im.size != (w, h) else im, (c * w, r * h))
    return sheet


def expected_size(size: Size, dpi: float) -> tuple[int, int]:
    return px(size.w, dpi), px(size.h, dpi)
