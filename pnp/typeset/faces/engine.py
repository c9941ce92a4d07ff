"""The face engine: a face's layout resolved, its texts translated and fitted, as operations.

:class:`FaceEngine` resolves a face's layout (``extends`` chains, styles), translates its texts
for a language, fits every text into its box and returns a list of drawing operations
(:mod:`.ops`). The render stage executes the operations; validation uses the same engine to
report overflowing texts and missing glyphs per language without producing a PDF.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ...content.assets import AssetError, probe_image, resolve
from ...content.model import Board, Card, Element, Face, Game, Text
from ...core.rules import CUT_CLEARANCE, GLYPH, OVERFLOW, REFERENCE, SCHEMA
from ...core.units import mm, pt
from ...i18n import Translator
from ..fonts import FontSet
from ..markup import IconSpec, parse
from ..scripts import glyph_advice
from ..text import Fit, TextStyle, fit_text, runs_fit, smallest_size
from .clear import keep_clear
from .colours import NONE, is_template
from .cuts import CLEARANCE, Cut, box_clear, cut_of, past_face, table_ink, track_ink
from .issues import TextIssue, face_id
from .layouts import Resolved, face_layout_id, layout_table, resolve_layout
from .ops import FillOp, Group, ImageOp, Op, PathOp, StrokeOp, TableOp, TextOp, TrackOp
from .shapes import drawn_points, element_box
from .tables import cell_text, table_fit_size, table_height
from .values import (
    DEFAULT_ACCENT,
    DEFAULT_TEXT,
    MAX_TEMPLATE_CHARS,
    TEMPLATE_SECONDS,
    FaceCtx,
    FaceValues,
    palette_of,
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

    def __post_init__(self) -> None:
        self.layouts = layout_table(self.game)
        self._resolved: dict[str, Resolved] = {}
        self._cache: dict[tuple[int, float, float, float, str, bool], list[Op]] = {}
        self._reported: set[tuple[str, ...]] = set()
        self.icons = self._icons()
        self._env: Any = None
        self._face = ""  # face_id() of the face being laid out, for its issues
        self._plain = False  # laying out a plain face (ops(plain=True))
        self._cut = Cut("rect", 0.0, 0.0)  # the cut line of the face being laid out

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
        self._face = face_id(owner, card, face, side)
        self._cut = cut_of(owner, w, h)
        from .marks import with_mark  # an assumption's mark, drawn last (marks.py)

        self._plain = plain
        try:
            ops = self._ops(face, owner, card, side, w, h, bleed)
        finally:
            self._plain = False
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
        if self._plain:  # ink saver: no background, no art; texts and lines in dark grey
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
        art = face.art or art if not self._plain else None
        if art and not any(e.image == "art" for e in lay.elements):
            img = self._image(art)
            if img is not None:
                ops.append(ImageOp((0, 0, w, h), img[0], bleed, img[1], img[2], face.art_bleed))
        fc = FaceCtx(face, card, w, h, palette, self._values(face, card))
        for el in lay.elements:
            op = self._element(el, fc)
            if op is not None:
                ops.append(op)
        b = lay.border
        if b is not None and b.width > 0 and b.color != NONE:
            ops.append(
                StrokeOp(
                    (b.inset, b.inset, w - 2 * b.inset, h - 2 * b.inset),
                    PLAIN_INK if self._plain else b.color,
                    b.width,
                    b.radius,
                )
            )
        return ops

    def _paint(self, el: Element, attr: str, fc: FaceCtx, default: str | None) -> str | None:
        """An element's colour (:meth:`FaceValues._paint`); on a plain face, dark grey for
        texts and lines, no fill."""
        colour = super()._paint(el, attr, fc, default)
        if not self._plain or colour is None:
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
        if el.line is not None or el.points is not None:
            return self._path(el, fc)
        box = element_box(el, fc.w, fc.h)
        if box is None:
            return None  # no usable box: reported by the schema
        op: Op | None
        if el.track is not None:
            op = self._track(el, box, fc)
        elif el.table is not None:
            op = self._table(el, box, fc)
        elif el.image is not None:
            op = None if self._plain else self._image_element(el, box, fc)
        else:
            op = self._box(el, box, fc, *self._text_of(el, fc))
        if op is not None and el.rotate % 360:
            for one in op.ops if isinstance(op, Group) else [op]:
                one.rotate = el.rotate % 360  # type: ignore[union-attr]
        return op

    def _text_of(self, el: Element, fc: FaceCtx) -> tuple[str | None, Text | None]:
        """The text an element prints on this face (None: none) and the text it comes from."""
        if el.field is not None:
            source = fc.face.text_field(el.field)
            if source is not None:
                return self.translator.text(source, fc.values), source
            if el.field in fc.values:
                return str(fc.values[el.field]), None
            return None, None
        if el.template is not None:
            return self._render(el, "template", el.template, fc) or "", None
        return None, None

    def _path(self, el: Element, fc: FaceCtx) -> Op | None:
        """A line, or a polygon filled and outlined, turned as the element says."""
        points = drawn_points(el, fc.w, fc.h)
        if points is None:
            return None
        closed = el.points is not None
        fill = self._paint(el, "fill", fc, None) if closed else None
        if el.stroke is not None:
            stroke = self._paint(el, "stroke", fc, None)
        elif closed and el.fill is not None:
            stroke = None  # a filled polygon: no outline unless asked
        else:
            stroke = fc.palette["text"]  # a line, or a polygon given neither: the text colour
        if fill is None and stroke is None:
            return None
        return PathOp(tuple(points), closed, fill, stroke, el.stroke_width)

    def _image_element(
        self, el: Element, box: tuple[float, float, float, float], fc: FaceCtx
    ) -> Op | None:
        """An image element: the face's art, a file, or a file a template names for the card
        (checked here, for each card, as validation checks a written path)."""
        assert el.image is not None
        rel: str | None = el.image
        templated = is_template(el.image)
        if templated:
            rel = self._render(el, "image", el.image, fc)
            rel = rel.strip() if rel is not None else None
        if rel == "art":
            rel = fc.face.art
        if not rel:
            return None
        img = self._image(rel, el if templated else None, fc)
        return ImageOp(box, img[0], 0.0, img[1], img[2]) if img else None

    def _box(
        self,
        el: Element,
        box: tuple[float, float, float, float],
        fc: FaceCtx,
        text_value: str | None,
        source: Text | None,
    ) -> Op | None:
        """A box's fill and stroke, and its text fitted (its problems noted)."""
        fill_ops: list[Op] = []
        if el.fill and (fill := self._paint(el, "fill", fc, None)):
            fill_ops.append(FillOp(box, fill, el.radius))
        if el.stroke and (stroke := self._paint(el, "stroke", fc, None)):
            fill_ops.append(StrokeOp(box, stroke, el.stroke_width, el.radius))
        if text_value is None:
            if not fill_ops:
                return None
            return Group(fill_ops) if len(fill_ops) > 1 else fill_ops[0]  # type: ignore[return-value]
        ts = TextStyle(
            face=el.font,
            size=el.size,
            min_size=el.min_size,
            leading=el.leading,
            align=el.align,
            color=self._paint(el, "color", fc, fc.palette["text"]) or fc.palette["text"],
            hyphenate=el.hyphenate
            if el.hyphenate is not None
            else el.field not in ("title", "subtitle", None),
            fit=el.fit,
        )
        inner_w = pt(box[2] - 2 * el.padding)
        inner_h = pt(box[3] - 2 * el.padding)
        # glyphs reach a little past their lines' box: a box this far inside needs no measure
        clear = box_clear(self._cut, box, el.rotate, CLEARANCE + mm(ts.size) * 0.4)
        if self.quick and clear and self._surely_fits(text_value, ts, fc.values, inner_w, inner_h):
            return fill_ops[0] if fill_ops else None  # fits for sure: nothing to report
        fit = fit_text(
            text_value, ts, self.fonts, self.icons, fc.values, self.lang, inner_w, inner_h
        )
        op = TextOp(
            box,
            fit,
            el.valign,
            el.padding,
            fallback=source is not None and self.translator.is_fallback(source),
            rotate=el.rotate % 360,
        )
        if not clear:
            op = self._clear(op, text_value, ts, fc, source, el)
        self._note(op.fit, source, el, fc.face)
        if fill_ops:
            # a filled text box: draw the fill first, then the text
            return Group([*fill_ops, op])  # type: ignore[return-value]
        return op

    def _clear(
        self, op: TextOp, text: str, ts: TextStyle, fc: FaceCtx, source: Text | None, el: Element
    ) -> TextOp:
        """The text kept clear of the face's cut line (:mod:`.clear`); reported when it cannot
        be, at the text (or, for a template, at its element's box)."""

        def refit(width: float, height: float, size: float | None) -> Fit:
            style = ts if size is None else replace(ts, size=size, fit="none")
            return fit_text(
                text, style, self.fonts, self.icons, fc.values, self.lang, width, height
            )

        top, low = op.fit.size, smallest_size(ts)  # quarter points, the largest first
        sizes = [top - k / 4 for k in range(round((top - low) * 4) + 1)]
        op, reached = keep_clear(self._cut, op, refit, sizes)
        if reached < CLEARANCE - 0.005:
            if source is not None:
                pos, what = self.translator.position(source), f"text {source.ctx}"
            else:
                named = f" {el.name!r}" if el.name else ""
                pos, what = el.at("box"), f"template of layout element{named}"
            self._cut_issue(pos, what, reached, el, lang=True)
        return op

    def _cut_issue(self, pos: Any, what: str, reached: float, el: Element, lang: bool) -> None:
        cut = self._cut
        if past_face(el, cut) or not self._first("cut", str(pos), what):
            return  # an element reaching past its face is reported as element-outside
        element = f"element {el.name!r}" if el.name else "element"
        fix = (
            f"shorten it, lower the min_size of its layout's {element}, or move that box inward"
            if lang
            else f"move or shrink the box of its layout's {element} so that it ends 1.5 mm inside"
        )
        near = f"prints {reached:.2f} mm from"
        if reached < 0:
            near = f"reaches {-reached:.2f} mm past"
        head = f"[{self.lang}] " if lang else ""
        message = (
            f"{head}the {what} {near} the {cut.name} of its {cut.w:.3g} x {cut.h:.3g} mm face "
            f"({self._face}): nothing a player reads may lie within {CLEARANCE:g} mm of where "
            f"the face is cut; {fix}"
        )
        self.issues.append(self._issue(CUT_CLEARANCE, pos, message, lang=lang))

    def _ink_clear(self, el: Element, op: TrackOp | TableOp, what: str) -> None:
        """A track's numbers or a table's texts kept clear of the cut line, else reported."""
        if box_clear(self._cut, op.box, el.rotate, CLEARANCE):
            return
        ink = track_ink(op, self.fonts.main.font) if isinstance(op, TrackOp) else table_ink(op)
        reached = min((self._cut.clearance(points) for points in ink), default=float("inf"))
        if reached < CLEARANCE - 0.005:
            self._cut_issue(el.at("box"), what, reached, el, lang=False)

    def _track(self, el: Element, box: tuple[float, float, float, float], fc: FaceCtx) -> Op | None:
        assert el.track is not None
        track = self.game.tracks.get(el.track)
        if track is None:
            return None  # reported by validation
        labels = [str(v) for v in range(track.min, track.max + 1)]
        text = fc.palette["text"]
        op = TrackOp(
            box,
            labels,
            el.direction == "vertical",
            el.font,
            el.size,
            self._paint(el, "color", fc, text) or text,
            self._paint(el, "fill", fc, None),
            self._paint(el, "stroke", fc, text),
            rotate=el.rotate % 360,
        )
        self._ink_clear(el, op, f"numbers of track {track.id}")
        return op

    def _table(self, el: Element, box: tuple[float, float, float, float], fc: FaceCtx) -> Op | None:
        assert el.table is not None
        table = self.game.tables.get(el.table)
        if table is None:
            return None
        t = self.translator.text
        header = [t(c.title) if c.title else c.id for c in table.columns]
        rows = [
            [cell_text(cells.get(col.id, ""), col.unit, self.lang, t) for col in table.columns]
            for cells in table.cells
        ]
        low = el.min_size or el.size * 0.6
        fonts, icons, lang = self.fonts, self.icons, self.lang
        size = table_fit_size(header, rows, box, el.size, low, fonts, icons, lang)
        if size is None and table_height(header, rows, low, fonts, pt(box[2]), icons, lang) is None:
            if self._first("table", str(el.at("box"))):
                self.issues.append(
                    self._issue(
                        SCHEMA,
                        el.at("box"),
                        f"table {table.id} cannot be drawn in a box {box[2]:.3g} mm wide: its "
                        f"{len(header)} columns are narrower than their margins; widen the box",
                        lang=False,
                    )
                )
            return None
        if size is None:
            self.issues.append(
                self._issue(
                    OVERFLOW,
                    el.at("table"),
                    f"[{self.lang}] table {table.id} does not fit its box even at "
                    f"{el.min_size or el.size * 0.6:g} pt; enlarge the box",
                )
            )
            size = el.min_size or el.size * 0.6
        text = fc.palette["text"]
        op = TableOp(
            box,
            header,
            rows,
            size,
            self._paint(el, "color", fc, text) or text,
            self._paint(el, "stroke", fc, "#666666"),
            rotate=el.rotate % 360,
        )
        self._ink_clear(el, op, f"texts of table {table.id}")
        return op

    def _present(self, face: Face, name: str) -> bool:
        if name == "art":
            return bool(face.art)
        return face.text_field(name) is not None or name in face.values

    def _surely_fits(
        self, text: str, ts: TextStyle, values: Mapping[str, object], w: float, h: float
    ) -> bool:
        """Validation needs no exact size, only whether the text fits at some allowed size:
        at its full size, or else at the smallest size shrink-to-fit may choose (the build
        finds the exact size, between the two)."""
        paragraphs = parse(text, self.icons, values)  # the same runs at every size
        if runs_fit(paragraphs, ts, self.fonts, w, h):
            return True
        low = smallest_size(ts)
        return low < ts.size and runs_fit(paragraphs, replace(ts, size=low), self.fonts, w, h)

    def _note(self, fit: Fit, source: Text | None, el: Element, face: Face) -> None:
        pos = self.translator.position(source) if source is not None else el.pos
        what = source.ctx if source is not None else f"template of layout element {el.name or ''}"
        if fit.overflow is not None and self._first("overflow", str(pos), what):
            direction = (
                "is wider than its box (a word too long to break?)"
                if fit.overflow == "horizontal"
                else "is taller than its box"
            )
            self.issues.append(
                self._issue(
                    OVERFLOW,
                    pos,
                    f"[{self.lang}] the text {what} {direction} even at {fit.size:g} pt; "
                    "shorten it or enlarge the layout's box / lower min_size",
                )
            )
        if fit.missing.chars:
            chars = "".join(sorted(fit.missing.chars))
            if self._first("glyph", str(pos), chars):
                codes = ", ".join(f"U+{ord(c):04X}" for c in sorted(fit.missing.chars))
                self.issues.append(
                    self._issue(
                        GLYPH,
                        pos,
                        f"[{self.lang}] no bundled font has {chars!r} ({codes}); "
                        + glyph_advice(chars, self.lang),
                    )
                )
        if fit.missing.tokens:
            names = ", ".join(sorted(fit.missing.tokens))
            if self._first("token", str(pos), names):
                self.issues.append(
                    self._issue(
                        REFERENCE,
                        pos,
                        f"[{self.lang}] {{{names}}} is neither an icon nor a value of this face; "
                        "declare it under icons: or values:",
                        structural=True,
                    )
                )
