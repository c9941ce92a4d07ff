"""Images: the face's art, or an image file of the game (a template may name one per card),
fitted into the element's box (covering it by default), an SVG drawn as vectors."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ....content.model import Element
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
        return ImageOp(
            box,
            path,
            0.0,
            width,
            height,
            fit=el.fit or "cover",
            anchor=el.anchor or "center",
            vector=eng.drawing(path),
        )
