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
from ...content.model import Board, Card, Element, Face, Game, Text, resolve_box
from ...core.findings import Pos
from ...core.rules import GLYPH, OVERFLOW, REFERENCE, TEMPLATE
from ...core.run import current
from ...core.units import pt
from ...i18n import Translator
from ..fonts import FontSet
from ..markup import IconSpec, parse
from ..text import Fit, TextStyle, fit_text, runs_fit, smallest_size
from .issues import TextIssue, face_id
from .layouts import Resolved, face_layout_id, layout_table, resolve_layout
from .ops import FillOp, Group, ImageOp, Op, StrokeOp, TableOp, TextOp, TrackOp
from .tables import cell_text, table_fit_size

TEMPLATE_SECONDS = 0.5
DEFAULT_TEXT = "#000000"
DEFAULT_ACCENT = "#37474f"
MAX_TEMPLATE_CHARS = 2000


def _compiled(env: Any, source: str) -> Any:
    """Compile each distinct template once per run."""
    templates = current().store("typeset.templates", limit=5000)
    template = templates.get(source)
    if template is None:
        template = templates[source] = env.from_string(source)
    return template


@dataclass
class FaceEngine:
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
        self._cache: dict[tuple[int, float, float, float, str], list[Op]] = {}
        self._reported: set[tuple[str, ...]] = set()
        self.icons = self._icons()
        self._env: Any = None
        self._face = ""  # face_id() of the face being laid out, for its issues

    def _first(self, *key: str) -> bool:
        """True the first time a problem is seen: each is reported once per engine, not once
        per card that shows it."""
        if key in self._reported:
            return False
        self._reported.add(key)
        return True

    def _issue(self, rule: str, pos: Pos, message: str, structural: bool = False) -> TextIssue:
        return TextIssue(rule, pos, message, self.lang, self._face, structural)

    @property
    def env(self) -> Any:
        """The template sandbox, made when a template is first rendered (jinja2 is imported
        only by games that use templates)."""
        if self._env is None:
            from ..templates import sandbox

            self._env = sandbox()
        return self._env

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
    ) -> list[Op]:
        key = (id(face), w, h, bleed, side)
        if key in self._cache:
            return self._cache[key]
        self._face = face_id(owner, card, face, side)
        ops = self._ops(face, owner, card, side, w, h, bleed)
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
        style = lay.styles.get(style_name or "default") or lay.styles.get("default")
        background = (style.background if style and style.background else None) or lay.background
        text_color = (style.color if style and style.color else None) or DEFAULT_TEXT
        accent = (style.accent if style and style.accent else None) or DEFAULT_ACCENT
        palette = {"background": background, "accent": accent, "text": text_color}
        ops: list[Op] = []
        if background and background != "none":
            ops.append(FillOp((0, 0, w, h), background, 0.0, bleed))
        art = face.art or (style.art if style else None)
        if art and not any(e.image == "art" for e in lay.elements):
            img = self._image(art)
            if img is not None:
                ops.append(ImageOp((0, 0, w, h), img[0], bleed, img[1], img[2], face.art_bleed))
        values = self._values(face, card)
        for el in lay.elements:
            op = self._element(el, face, card, w, h, palette, values)
            if op is not None:
                ops.append(op)
        if lay.border is not None and lay.border.width > 0:
            b = lay.border
            ops.append(
                StrokeOp(
                    (b.inset, b.inset, w - 2 * b.inset, h - 2 * b.inset),
                    palette.get(b.color, b.color) if b.color in palette else b.color,
                    b.width,
                    b.radius,
                )
            )
        return ops

    def _values(self, face: Face, card: Card | Board) -> dict[str, Any]:
        values: dict[str, Any] = {}
        for src in (card, face):
            values.update(src.values)
        return values

    def _image(self, rel: str) -> tuple[Path, int, int] | None:
        try:
            path = resolve(self.game_dir, rel, what="image")
            info = probe_image(path)
        except AssetError:
            return None  # validation reports it
        return path, info.width, info.height

    def _color(self, value: str | None, palette: dict[str, str], default: str) -> str:
        if value is None:
            return default
        return palette.get(value, value)

    def _element(
        self,
        el: Element,
        face: Face,
        card: Card | Board,
        w: float,
        h: float,
        palette: dict[str, str],
        values: dict[str, Any],
    ) -> Op | None:
        if el.when is not None and not self._present(face, el.when):
            return None
        box = resolve_box(el.box, w, h)
        if el.track is not None:
            return self._track(el, box, palette)
        if el.table is not None:
            return self._table(el, box, palette)
        if el.image is not None:
            rel = face.art if el.image == "art" else el.image
            if not rel:
                return None
            img = self._image(rel)
            return ImageOp(box, img[0], 0.0, img[1], img[2]) if img else None
        text_value: str | None = None
        source: Text | None = None
        if el.field is not None:
            source = face.text_field(el.field)
            if source is None:
                if el.field in values:
                    text_value = str(values[el.field])
                elif not (el.fill or el.stroke):
                    return None
            else:
                text_value = self.translator.text(source, values)
        elif el.template is not None:
            text_value = self._template(el, face, card, values)
        return self._box(el, box, palette, values, text_value, source, face)

    def _box(
        self,
        el: Element,
        box: tuple[float, float, float, float],
        palette: dict[str, str],
        values: dict[str, Any],
        text_value: str | None,
        source: Text | None,
        face: Face,
    ) -> Op | None:
        """A box's fill and stroke, and its text fitted (its problems noted)."""
        fill_ops: list[Op] = []
        if el.fill:
            fill_ops.append(FillOp(box, self._color(el.fill, palette, "#ffffff"), el.radius))
        if el.stroke:
            fill_ops.append(
                StrokeOp(
                    box, self._color(el.stroke, palette, "#000000"), el.stroke_width, el.radius
                )
            )
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
            color=self._color(el.color, palette, palette["text"]),
            hyphenate=el.hyphenate
            if el.hyphenate is not None
            else el.field not in ("title", "subtitle", None),
            fit=el.fit,
        )
        inner_w = pt(box[2] - 2 * el.padding)
        inner_h = pt(box[3] - 2 * el.padding)
        if self.quick and self._surely_fits(text_value, ts, values, inner_w, inner_h):
            return fill_ops[0] if fill_ops else None  # fits for sure: nothing to report
        fit = fit_text(text_value, ts, self.fonts, self.icons, values, self.lang, inner_w, inner_h)
        self._note(fit, source, el, face)
        op = TextOp(
            box,
            fit,
            el.valign,
            el.padding,
            fallback=source is not None and self.translator.is_fallback(source),
        )
        if fill_ops:
            # a filled text box: draw the fill first, then the text
            return Group([*fill_ops, op])  # type: ignore[return-value]
        return op

    def _track(
        self, el: Element, box: tuple[float, float, float, float], palette: dict[str, str]
    ) -> Op | None:
        assert el.track is not None
        track = self.game.tracks.get(el.track)
        if track is None:
            return None  # reported by validation
        labels = [str(v) for v in range(track.min, track.max + 1)]
        return TrackOp(
            box,
            labels,
            el.direction == "vertical",
            el.font,
            el.size,
            self._color(el.color, palette, palette["text"]),
            self._color(el.fill, palette, "#ffffff") if el.fill else None,
            self._color(el.stroke, palette, palette["text"]) if el.stroke else palette["text"],
        )

    def _table(
        self, el: Element, box: tuple[float, float, float, float], palette: dict[str, str]
    ) -> Op | None:
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
        size = table_fit_size(
            header, rows, box, el.size, el.min_size or el.size * 0.6, self.fonts, self.icons
        )
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
        return TableOp(
            box,
            header,
            rows,
            size,
            self._color(el.color, palette, palette["text"]),
            self._color(el.stroke, palette, "#666666") if el.stroke else "#666666",
        )

    def _present(self, face: Face, name: str) -> bool:
        if name == "art":
            return bool(face.art)
        return face.text_field(name) is not None or name in face.values

    def _template(self, el: Element, face: Face, card: Card | Board, values: dict[str, Any]) -> str:
        assert el.template is not None
        ctx = {
            "values": values,
            "id": getattr(card, "id", ""),
            "copies": getattr(card, "copies", 1),
            "tags": list(getattr(card, "tags", [])),
            "lang": self.lang,
            "game_title": self.translator.text(self.game.meta.title),
        }
        for name, text in face.texts():
            ctx[name] = self.translator.text(text, values)
        from jinja2 import TemplateError

        from ...content.expr import ExprError, time_limit

        try:
            if len(el.template) > MAX_TEMPLATE_CHARS:
                raise ValueError(f"a template of more than {MAX_TEMPLATE_CHARS} characters")
            with time_limit(TEMPLATE_SECONDS):
                out = _compiled(self.env, el.template).render(ctx)
        except (
            TemplateError,
            ArithmeticError,
            ValueError,
            TypeError,
            ExprError,
            RecursionError,
            MemoryError,
        ) as exc:
            if self._first(TEMPLATE, str(el.at("template")), str(exc)):  # named: the first card
                card_id = getattr(card, "id", "") or self._face
                message = _template_problem(exc, card_id, ctx, values)
                self.issues.append(self._issue(TEMPLATE, el.at("template"), message))
            return ""
        return out[:MAX_TEMPLATE_CHARS]

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
                        f"[{self.lang}] no bundled font has {chars!r} ({codes}); add a font "
                        "that has it to fonts/ and list it under print.fallback_fonts",
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


def _template_problem(
    exc: Exception, card: str, ctx: dict[str, Any], values: dict[str, Any]
) -> str:
    """What went wrong, for which card, and the name meant when one is misspelt."""
    import re

    from ...content.schema import suggest

    text = f"template failed for {card}: {exc}"
    missing = re.search(r"has no attribute '([^']+)'|'([^']+)' is undefined", str(exc))
    if missing:
        name = missing.group(1) or missing.group(2)
        known = sorted(values) if missing.group(1) else sorted(ctx)
        hint = suggest(name, known)
        listing = ", ".join(known[:12]) or "none"
        text += f"; {hint}it has: {listing}"
    return text
