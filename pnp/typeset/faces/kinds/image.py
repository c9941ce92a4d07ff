"""Images: the face's art, or an image file of the game (a template may name one per card),
fitted into the element's box (covering it by default), an SVG drawn as vectors."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ....content.model import Element
from ....core.findings import Pos
from ....core.rules import ART_RESOLUTION
from ..colours import is_template
from ..ops import Box, ImageOp, Op
from .base import ElementKind, Layouter

if TYPE_CHECKING:
    from ..values import FaceCtx


class Image(ElementKind):
    """The face's art (image: art) or an image file of the game (PNG, JPEG or SVG), fitted
    into the box: cover, contain or stretch, anchored."""

    key = "image"
    noun = "image"

    def describe(self, el: Element) -> str:
        return "image of the face's art" if el.image == "art" else f"image {el.image}"

    def covers(self, el: Element) -> bool:
        return True

    def files(self, el: Element) -> list[str]:
        """A written file (a template's: the engine checks each card's)."""
        image = el.image
        return [image] if image and image != "art" and not is_template(image) else []

    def templates(self, el: Element) -> list[str]:
        return [el.image] if el.image and is_template(el.image) else []

    def draws_art(self, el: Element) -> bool:
        return el.image == "art"

    def in_box(self, el: Element, box: Box, fc: FaceCtx, eng: Layouter) -> Op | None:
        """The face's art, a file, or a file a template names for the card (checked here,
        for each card, as validation checks a written path); none on a plain face."""
        if eng.plain:
            return None
        assert el.image is not None
        rel: str | None = el.image
        templated = is_template(el.image)
        if templated:
            rel = eng.render(el, "image", el.image, fc)
            rel = rel.strip() if rel is not None else None
        if rel == "art":
            rel = fc.face.art
        if not rel:
            return None
        img = eng.image(rel, el if templated else None, fc)
        if img is None:
            return None
        path, width, height = img
        vector = eng.drawing(path)
        if vector is None:
            where = fc.face.at("art") if el.image == "art" else el.at("image")
            fit = el.fit or "cover"
            low_resolution(eng, fit, rel, where, (box[2], box[3]), (width, height))
        return ImageOp(
            box,
            path,
            0.0,
            width,
            height,
            fit=el.fit or "cover",
            anchor=el.anchor or "center",
            vector=vector,
            radius=el.radius,
        )


MIN_DPI = 150  # below this, printed art looks blurred or blocky


def printed_dpi(fit: str, box: tuple[float, float], pixels: tuple[int, int]) -> float:
    """The pixels per inch an image of ``pixels`` prints at in a box of ``box`` mm, fitted as
    ``fit`` says: cover scales it to fill the box (the tighter side sets the resolution),
    contain to fit inside it, stretch each side on its own (the lower of the two)."""
    (bw, bh), (iw, ih) = box, pixels
    across, down = 25.4 * iw / max(bw, 1e-6), 25.4 * ih / max(bh, 1e-6)
    return max(across, down) if fit == "contain" else min(across, down)


def low_resolution(
    eng: Layouter,
    fit: str,
    rel: str,
    where: Pos,
    box: tuple[float, float],
    pixels: tuple[int, int],
) -> None:
    """A raster image printed below MIN_DPI in a box of ``box`` mm: a warning at ``where``
    naming its dpi and the pixels it needs, once per image, box and place."""
    dpi = printed_dpi(fit, box, pixels)
    if dpi >= MIN_DPI or not eng.first("art-resolution", rel, str(where), f"{box}"):
        return
    need = (math.ceil(box[0] / 25.4 * MIN_DPI), math.ceil(box[1] / 25.4 * MIN_DPI))
    eng.issues.append(
        eng.issue(
            ART_RESOLUTION,
            where,
            f"{rel!r} prints at {dpi:.0f} dpi ({pixels[0]} x {pixels[1]} px in "
            f"{box[0]:g} x {box[1]:g} mm, fit {fit}): below {MIN_DPI} dpi it looks blurred; "
            f"use an image of at least {need[0]} x {need[1]} px, or an SVG",
            lang=False,
        )
    )
