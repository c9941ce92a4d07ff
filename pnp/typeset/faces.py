"""Faces: what is drawn on one card, token or board face, computed without drawing.

:class:`FaceEngine` resolves a face's layout (``extends`` chains, styles), translates its texts
for a language, fits every text into its box and returns a list of drawing operations. The
render stage executes the operations; validation uses the same engine to report overflowing
texts and missing glyphs per language without producing a PDF.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..content.assets import AssetError, probe_image, resolve
from ..content.model import Board, Card, Element, Face, Game, Layout, Style, Text, resolve_box
from ..content.schema import Context
from ..content.yamlio import parse_text
from ..core.findings import Pos, Report
from ..core.rules import GLYPH, OVERFLOW, REFERENCE, TEMPLATE
from ..core.run import current
from ..core.units import pt
from ..i18n import Translator
from .fonts import FontSet
from .text import Fit, IconSpec, TextStyle, fit_text, parse, runs_fit, smallest_size

BUILTIN_LAYOUTS = Path(__file__).parent.parent / "data" / "layouts.yaml"
TEMPLATE_SECONDS = 0.5
DEFAULT_TEXT = "#000000"
DEFAULT_ACCENT = "#37474f"
MAX_TEMPLATE_CHARS = 2000


@functools.lru_cache(maxsize=1)
def builtin_layouts() -> dict[str, Layout]:
    from ..content.model import Sections
    from ..content.schema import convert
    from ..core.findings import Report

    report = Report()
    loaded = parse_text(BUILTIN_LAYOUTS.read_text("utf-8"), "pnp/data/layouts.yaml", report)
    sections = convert(loaded.data, Sections, loaded.data.pos, Context(report))
    if report.errors:  # pragma: no cover - a bug in the shipped file
        raise RuntimeError(report.format_text())
    return dict(sections.layouts)


@dataclass
class Resolved:
    background: str
    border: Any
    styles: dict[str, Style]
    elements: list[Element]


class LayoutCycle(Exception):
    def __init__(self, chain: list[str], too_long: bool = False) -> None:
        super().__init__(" -> ".join(chain))
        self.chain = chain
        self.too_long = too_long


def layout_table(game: Game) -> dict[str, Layout]:
    return {**builtin_layouts(), **game.layouts}


MAX_EXTENDS = 32


def resolve_layout(layouts: dict[str, Layout], lid: str) -> Resolved:
    chain: list[Layout] = []
    seen: list[str] = []
    seen_set: set[str] = set()
    current: str | None = lid
    while current is not None:
        if current in seen_set:
            raise LayoutCycle([*seen, current])
        if len(seen) >= MAX_EXTENDS:
            raise LayoutCycle([*seen[:3], "...", current], too_long=True)
        seen.append(current)
        seen_set.add(current)
        layout = layouts.get(current)
        if layout is None:
            raise KeyError(current)
        chain.append(layout)
        current = layout.extends
    background = "#ffffff"
    border = None
    styles: dict[str, Style] = {}
    elements: list[Element] = []
    for layout in reversed(chain):  # parent first
        if layout.background is not None:
            background = layout.background
        if layout.border is not None:
            border = layout.border
        styles.update(layout.styles)
        for el in layout.elements:
            slot = next((i for i, e in enumerate(elements) if el.name and e.name == el.name), None)
            if slot is None:
                elements.append(el)
            else:
                elements[slot] = el  # a named element replaces the parent's
    return Resolved(background, border, styles, elements)


def _compiled(env: Any, source: str) -> Any:
    """Compile each distinct template once per run."""
    templates = current().store("typeset.templates", limit=5000)
    template = templates.get(source)
    if template is None:
        template = templates[source] = env.from_string(source)
    return template


def face_layout_id(face: Face, owner: Any, side: str) -> str:
    """The layout drawing a face: its own, else its deck's (or the deck back's), else built-in."""
    from ..content.model import TokenSet

    if face.layout:
        return face.layout
    if side == "back":
        back = getattr(owner, "back", None)
        if back is not None and back.layout:
            return str(back.layout)
        return "back"
    owner_layout = getattr(owner, "layout", None)
    if owner_layout:
        return str(owner_layout)
    if isinstance(face, Board):
        return "board"
    return "token" if isinstance(owner, TokenSet) else "card"


# --- operations --------------------------------------------------------------------------------


@dataclass
class FillOp:
    box: tuple[float, float, float, float]  # mm, from the face's top-left
    color: str
    radius: float = 0.0
    bleed: float = 0.0  # grow by the bleed (backgrounds)


@dataclass
class StrokeOp:
    box: tuple[float, float, float, float]
    color: str
    width: float
    radius: float = 0.0


@dataclass
class ImageOp:
    box: tuple[float, float, float, float]
    path: Path
    bleed: float = 0.0
    width_px: int = 0
    height_px: int = 0
    art_bleed: float = 0.0  # mm of bleed already in the image


@dataclass
class TextOp:
    box: tuple[float, float, float, float]
    fit: Fit
    valign: str
    padding: float
    fallback: bool = False  # printed in the source language for lack of a translation


@dataclass
class TrackOp:
    """A track: a row (or column, counting upwards) of numbered cells."""

    box: tuple[float, float, float, float]
    labels: list[str]
    vertical: bool
    font: str  # face: regular, bold...
    size: float
    color: str
    fill: str | None
    stroke: str


@dataclass
class TableOp:
    """A table drawn inside a box, at the largest font size that fits."""

    box: tuple[float, float, float, float]
    header: list[str]
    rows: list[list[str]]
    size: float
    color: str
    stroke: str


Op = FillOp | StrokeOp | ImageOp | TextOp | TrackOp | TableOp


def cell_text(value: Any, unit: str | None, lang: str, text_of: Any) -> str:
    """A table cell as printed, on a face or on the setup sheet: a text in the build language
    (``text_of``), a number as the language writes it with its unit, 0 as a dash."""
    from babel.numbers import format_decimal

    if isinstance(value, Text):
        return str(text_of(value))
    if isinstance(value, bool):
        value = int(value)
    if isinstance(value, int | float):
        if value == 0:
            return "–"
        text = format_decimal(value, locale=lang)
        return f"{text}\u00a0{unit}" if unit else text
    return str(value)


@dataclass
class TextIssue:
    """A problem with one text of one face in one language."""

    rule: str  # a rule id of pnp.core.rules
    pos: Pos
    message: str
    lang: str = ""
    face: str = ""  # face_id() of the face it is on ("" for the setup sheet)
    structural: bool = False  # validation's structure checks report it too (with suggestions)

    def report_to(self, report: Report, game: str) -> None:
        report.add(self.rule, self.pos, self.message, game=game, lang=self.lang, face=self.face)


def face_id(owner: Any, card: Any, face: Any, side: str) -> str:
    """Which face an issue is on, as the preview names faces: ``owner/card/side``, with no card
    for the one back a deck's cards share."""
    shared = side == "back" and getattr(card, "back", None) is None and face is not card
    return f"{owner.id}/{'' if shared else card.id}/{side}"


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
        self._reported: set[tuple[str, str, str]] = set()
        self.icons = self._icons()
        self._env: Any = None
        self._face = ""  # face_id() of the face being laid out, for its issues

    def _issue(self, rule: str, pos: Pos, message: str, structural: bool = False) -> TextIssue:
        return TextIssue(rule, pos, message, self.lang, self._face, structural)

    @property
    def env(self) -> Any:
        """The template sandbox, made when a template is first rendered (jinja2 is imported
        only by games that use templates)."""
        if self._env is None:
            from .templates import sandbox

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
            return _Group(fill_ops) if len(fill_ops) > 1 else fill_ops[0]  # type: ignore[return-value]
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
            return _Group([*fill_ops, op])  # type: ignore[return-value]
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

        from ..content.expr import ExprError, time_limit

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
            self.issues.append(self._issue(TEMPLATE, el.at("template"), f"template failed: {exc}"))
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
        if fit.overflow is not None:
            key = ("overflow", str(pos), what)
            if key not in self._reported:
                self._reported.add(key)
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
            key = ("glyph", str(pos), chars)
            if key not in self._reported:
                self._reported.add(key)
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
            key = ("token", str(pos), names)
            if key not in self._reported:
                self._reported.add(key)
                self.issues.append(
                    self._issue(
                        REFERENCE,
                        pos,
                        f"[{self.lang}] {{{names}}} is neither an icon nor a value of this face; "
                        "declare it under icons: or values:",
                        structural=True,
                    )
                )


@dataclass
class _Group:
    ops: list[Op]


def flatten(ops: list[Any]) -> list[Op]:
    out: list[Op] = []
    for op in ops:
        if isinstance(op, _Group):
            out.extend(op.ops)
        else:
            out.append(op)
    return out


def build_table(
    header: list[str],
    rows: list[list[str]],
    size: float,
    fonts: FontSet,
    color: str = "#000000",
    stroke: str = "#666666",
    width: float | None = None,
    icons: dict[str, Any] | None = None,
) -> Any:
    """A reportlab Table of paragraphs (text wraps within columns, markup and icons work)."""
    from reportlab.lib import colors
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import Paragraph, Table, TableStyle

    from .text import parse, to_xml

    st = ParagraphStyle(
        "cell",
        fontName=fonts.main.font("regular"),
        fontSize=size,
        leading=size * 1.15,
        textColor=color,
    )
    hd = ParagraphStyle("head", parent=st, fontName=fonts.main.font("bold"))

    def cell(text: str, head: bool) -> Any:
        runs = [r for para in parse(text, icons or {}, {}) for r in para]
        xml = to_xml(runs, fonts, "bold" if head else "regular", size)
        return Paragraph(xml or "&nbsp;", hd if head else st)

    data = [[cell(h, True) for h in header]] + [[cell(v, False) for v in r] for r in rows]
    ncols = max(len(header), 1)
    table = Table(data, colWidths=[width / ncols] * ncols if width else None, repeatRows=0)
    table.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), fonts.main.font("regular"), size),
                ("GRID", (0, 0), (-1, -1), 0.3, colors.HexColor(stroke)),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ("TOPPADDING", (0, 0), (-1, -1), size * 0.15),
                ("BOTTOMPADDING", (0, 0), (-1, -1), size * 0.25),
                ("LEFTPADDING", (0, 0), (-1, -1), size * 0.3),
                ("RIGHTPADDING", (0, 0), (-1, -1), size * 0.3),
            ]
        )
    )
    return table


def table_fit_size(
    header: list[str],
    rows: list[list[str]],
    box: tuple[float, float, float, float],
    size: float,
    min_size: float,
    fonts: FontSet,
    icons: dict[str, Any] | None = None,
) -> float | None:
    """The largest size (0.5 pt steps) at which the table fits the box, or None."""
    width, height = pt(box[2]), pt(box[3])
    current = size
    while current >= min_size - 1e-9:
        table = build_table(header, rows, current, fonts, width=width, icons=icons)
        _w, h = table.wrap(width, height)
        if h <= height + 0.5:
            return current
        current -= 0.5
    return None
