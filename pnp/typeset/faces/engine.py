"""The face engine: a face's layout resolved, its texts translated and fitted, as operations.

:class:`FaceEngine` resolves a face's layout (``extends`` chains, styles), translates its texts
for a language, fits every text into its box and returns a list of drawing operations
(:mod:`.ops`). The render stage executes the operations; validation uses the same engine to
report overflowing texts and missing glyphs per language without producing a PDF.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...content.assets import AssetError, probe_image, resolve
from ...content.model import Board, Card, Element, Face, Game
from ...i18n import Translator
from ..fonts import FontSet
from ..markup import IconSpec
from .colours import NONE
from .cuts import HOME, Cut, Zone, cut_of
from .issues import TextIssue, face_id
from .kinds import kind_of
from .kinds.image import low_resolution
from .layouts import Resolved, face_layout_id, layout_table, resolve_layout
from .ops import FillOp, ImageOp, Op, StrokeOp
from .values import (
    DEFAULT_ACCENT,
    DEFAULT_TEXT,
    MAX_TEMPLATE_CHARS,
    TEMPLATE_SECONDS,
    FaceCtx,
    FaceValues,
    palette_of,
    style_family,
)

__all__ = [
    "DEFAULT_ACCENT",
    "DEFAULT_TEXT",
    "MAX_TEMPLATE_CHARS",
    "TEMPLATE_SECONDS",
    "FaceEngine",
]


PLAIN_INK = "#444444"  # a plain face's texts and lines (--ink-saver backs)
PLAIN_INSET = 1.5  # mm from the cut to a plain face's outline


def _outline(owner: Any, w: float, h: float) -> StrokeOp:
    """A plain face's outline, PLAIN_INSET mm inside its cut (a circle on a round token)."""
    i = PLAIN_INSET
    shape = getattr(owner, "shape", "rect")
    radius = w / 2 - i if shape in ("round", "hex") else min(3.0, min(w, h) / 10)
    return StrokeOp((i, i, w - 2 * i, h - 2 * i), PLAIN_INK, 0.2, radius)


@dataclass
class FaceEngine(FaceValues):
    game: Game
    game_dir: Path
    lang: str
    translator: Translator
    fonts: FontSet
    issues: list[TextIssue] = field(default_factory=list)
    quick: bool = False  # validation: skip reportlab for texts that surely fit
    cache: bool = True  # keep each face's operations (off for big one-pass builds)
    zone: Zone = HOME  # how far inside the cut line texts must lie: a shop's safe zone

    def __post_init__(self) -> None:
        self.layouts = layout_table(self.game)
        self._resolved: dict[str, Resolved] = {}
        self._cache: dict[tuple[int, float, float, float, str, bool], list[Op]] = {}
        self._reported: set[tuple[str, ...]] = set()
        self.icons = self._icons()
        self._env: Any = None
        self.face_name = ""  # face_id() of the face being laid out, for its issues
        self.plain = False  # laying out a plain face (ops(plain=True))
        self.cut = Cut("rect", 0.0, 0.0)  # the cut line of the face being laid out
        self._font_sets: dict[str, FontSet] = {}  # font families of elements and styles

    def _icons(self) -> dict[str, IconSpec]:
        icons: dict[str, IconSpec] = {}
        for name, icon in self.game.icons.items():
            image = None
            if icon.image:
                try:
                    image = str(resolve(self.game_dir, icon.image, what="icon image"))
                    probe_image(Path(image))
                except AssetError:
                    image = None  # reported by validation; the icon draws nothing
            icons[name] = IconSpec(icon.glyph, image, icon.font, icon.color)
        return icons

    def resolved(self, lid: str) -> Resolved:
        if lid not in self._resolved:
            self._resolved[lid] = resolve_layout(self.layouts, lid)
        return self._resolved[lid]

    def layout_id(self, face: Face, owner: Any, side: str) -> str:
        return face_layout_id(face, owner, side)

    def ops(
        self,
        face: Face,
        owner: Any,
        card: Card | Board,
        side: str,
        w: float,
        h: float,
        bleed: float,
        plain: bool = False,
    ) -> list[Op]:
        """The face's operations; ``plain``: as ``--ink-saver`` prints a shared back, its
        texts and lines in dark grey on the paper, without its fills, art and images, inside
        an outline 1.5 mm from the cut."""
        key = (id(face), w, h, bleed, side, plain)
        if key in self._cache:
            return self._cache[key]
        self.face_name = face_id(owner, card, face, side)
        self.cut = cut_of(owner, w, h)
        from .marks import with_mark  # an assumption's mark, drawn last (marks.py)

        self.plain = plain
        try:
            ops = self._ops(face, owner, card, side, w, h, bleed)
        finally:
            self.plain = False
        ops = with_mark(self, face, owner, card, side, w, h, ops)
        if self.cache:
            self._cache[key] = ops
        return ops

    def _ops(
        self,
        face: Face,
        owner: Any,
        card: Card | Board,
        side: str,
        w: float,
        h: float,
        bleed: float,
    ) -> list[Op]:
        lay = self.resolved(self.layout_id(face, owner, side))
        style_name = face.style or (card.style if side == "back" and face is not card else None)
        palette, art = palette_of(lay, style_name)
        ops: list[Op] = []
        if self.plain:  # ink saver: no background, no art; texts and lines in dark grey
            palette, art = {**palette, "text": PLAIN_INK, "background": NONE}, None
            if lay.border is None:
                r = min(3.0, min(w, h) / 10) if getattr(owner, "shape", "rect") == "rect" else w / 2
                ops.append(
                    StrokeOp(
                        (PLAIN_INSET, PLAIN_INSET, w - 2 * PLAIN_INSET, h - 2 * PLAIN_INSET),
                        PLAIN_INK,
                        0.2,
                        r,
                    )
                )
        background = palette["background"]
        if background and background != NONE:
            ops.append(FillOp((0, 0, w, h), background, 0.0, bleed))
        art = face.art or art if not self.plain else None
        if art and not any(kind_of(e).draws_art(e) for e in lay.elements):
            img = self.image(art)
            if img is not None:
                path, iw, ih = img
                vector = self.drawing(path)
                if vector is None:  # the whole face: art printed too coarse is a finding
                    where = face.at("art") if face.art else face.pos
                    low_resolution(self, "cover", art, where, (w, h), (iw, ih))
                art_op = ImageOp((0, 0, w, h), path, bleed, iw, ih, face.art_bleed, vector=vector)
                ops.append(art_op)
        fc = FaceCtx(face, card, w, h, palette, self._values(face, card))
        fc.family = style_family(lay, style_name)
        fc.words = lay.texts
        for el in lay.elements:
            op = self._element(el, fc)
            if op is not None:
                ops.append(op)
        b = lay.border
        if b is not None and b.width > 0 and b.color != NONE:
            ops.append(
                StrokeOp(
                    (b.inset, b.inset, w - 2 * b.inset, h - 2 * b.inset),
                    PLAIN_INK if self.plain else b.color,
                    b.width,
                    b.radius,
                )
            )
        return ops

    def paint(self, el: Element, attr: str, fc: FaceCtx, default: str | None) -> str | None:
        """An element's colour (:meth:`FaceValues.paint`); on a plain face, dark grey for
        texts and lines, no fill."""
        colour = super().paint(el, attr, fc, default)
        if not self.plain or colour is None:
            return colour
        return None if attr == "fill" else PLAIN_INK

    def _values(self, face: Face, card: Card | Board) -> dict[str, Any]:
        values: dict[str, Any] = {}
        for src in (card, face):
            values.update(src.values)
        return values

    def _element(self, el: Element, fc: FaceCtx) -> Op | None:
        if el.drop or (el.when is not None and not self._present(fc.face, el.when)):
            return None
        return kind_of(el).layout(el, fc, self)

    def _present(self, face: Face, name: str) -> bool:
        if name == "art":
            return bool(face.art)
        return face.text_field(name) is not None or name in face.values
