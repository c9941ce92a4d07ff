"""Model stage: the content format as typed dataclasses.

These classes *are* the format: the loader converts YAML into them through pnp/schema.py, the
JSON Schema published for editors is generated from them, and docs/format.md describes them.
Every object remembers its position (``pos``) and the positions of its fields (``at(name)``).
Lengths are millimetres; coordinates inside a card are measured from its top-left corner.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from dataclasses import dataclass, field
from typing import Annotated, Any, ClassVar, Literal

from babel import Locale, UnknownLocaleError

from ..core.findings import Pos
from ..core.units import CARD_SIZES, PAPERS, Size
from .schema import INVALID, Context, Custom, Located, describe, fld
from .yamlio import YMap, YSeq

SOURCE = ""  # language key of a plain (source-language) string until the game is known


# --- custom scalar types -----------------------------------------------------------------------


class Text(Custom):
    """Multilingual text: a mapping language -> text, or a plain string in the source language."""

    type_label = "a text or a mapping language -> text"

    def __init__(
        self,
        values: dict[str, str],
        pos: Pos,
        lpos: dict[str, Pos] | None = None,
        *,
        plain: bool = False,
        ctx: str = "",
    ) -> None:
        self.values = values
        self.pos = pos
        self.lpos = lpos or {}
        self.plain = plain
        self.ctx = ctx  # stable msgctxt: where in the game this text lives
        self.note = ""  # translator comment
        # a text with plural forms: the value that chooses the form, and per language the
        # forms by CLDR category (zero, one, two, few, many, other); values[lang] is "other"
        self.count: str | None = None
        self.forms: dict[str, dict[str, str]] = {}

    def __repr__(self) -> str:
        return f"Text({self.values!r})"

    def get(self, lang: str) -> str | None:
        return self.values.get(lang)

    def at(self, lang: str) -> Pos:
        return self.lpos.get(lang, self.pos)

    @classmethod
    def from_yaml(cls, value: Any, pos: Pos, ctx: Context) -> Any:
        if isinstance(value, str | int | float) and not isinstance(value, bool):
            text = cls({SOURCE: str(value)}, pos, {SOURCE: pos}, plain=True, ctx=ctx.where)
        elif isinstance(value, YMap) and "count" in value:
            return cls._plural_from_yaml(value, pos, ctx)
        elif isinstance(value, YMap):
            values: dict[str, str] = {}
            lpos: dict[str, Pos] = {}
            for lang, s in value.items():
                vpos = value.value_pos(lang)
                if not isinstance(lang, str):
                    ctx.error(
                        value.key_pos(lang),
                        f"{describe(lang)} is not a language code; write e.g. en: or it:",
                    )
                    continue
                if s is None:
                    continue  # an empty translation slot, e.g. "fr:" left for later
                if not isinstance(s, str | int | float) or isinstance(s, bool):
                    ctx.error(vpos, f"expected the {lang!r} text, found {describe(s)}")
                    continue
                values[lang] = str(s)
                lpos[lang] = vpos
            text = cls(values, pos, lpos, ctx=ctx.where)
        else:
            ctx.error(
                pos, f"expected a text or a mapping language -> text, found {describe(value)}"
            )
            return INVALID
        ctx.texts.append(text)
        return text

    @classmethod
    def _plural_from_yaml(cls, value: YMap, pos: Pos, ctx: Context) -> Any:
        """``{count: n, en: {one: ..., other: ...}, it: {...}}``: a text with plural forms."""
        count = value.get("count")
        if not isinstance(count, str) or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", count):
            ctx.error(
                value.value_pos("count"),
                f"count: expected the name of the value that chooses the plural form (e.g. "
                f"count: n for {{n}}), found {describe(count)}",
            )
            return INVALID
        values: dict[str, str] = {}
        lpos: dict[str, Pos] = {}
        forms: dict[str, dict[str, str]] = {}
        for lang, by_form in value.items():
            if lang == "count":
                continue
            vpos = value.value_pos(lang)
            if not isinstance(lang, str):
                ctx.error(value.key_pos(lang), f"{describe(lang)} is not a language code")
                continue
            if by_form is None:
                continue
            if isinstance(by_form, str | int | float) and not isinstance(by_form, bool):
                by_form = {"other": str(by_form)}  # one text for every form
            elif not isinstance(by_form, YMap):
                ctx.error(
                    vpos,
                    f"expected the {lang!r} forms as a mapping such as {{one: ..., other: ...}}, "
                    f"found {describe(by_form)}",
                )
                continue
            these: dict[str, str] = {}
            for category, text in by_form.items():
                if category not in PLURAL_CATEGORIES:
                    ctx.error(
                        by_form.key_pos(category) if isinstance(by_form, YMap) else vpos,
                        f"{describe(category)} is not a plural category; use "
                        f"{', '.join(PLURAL_CATEGORIES)}",
                    )
                    continue
                if not isinstance(text, str | int | float) or isinstance(text, bool):
                    ctx.error(
                        vpos, f"expected the {lang!r} {category} text, found {describe(text)}"
                    )
                    continue
                these[str(category)] = str(text)
            if "other" not in these:
                ctx.error(vpos, f"the {lang!r} forms need an 'other' form (the general plural)")
                continue
            forms[lang] = these
            values[lang] = these["other"]
            lpos[lang] = vpos
        text = cls(values, pos, lpos, ctx=ctx.where)
        text.count = count
        text.forms = forms
        ctx.texts.append(text)
        return text

    def form(self, lang: str, n: float) -> str | None:
        """The text in ``lang`` for the count ``n`` (CLDR's rule for the language)."""
        forms = self.forms.get(lang)
        if forms is None:
            return self.values.get(lang)
        try:
            category = Locale.parse(lang).plural_form(n)
        except (UnknownLocaleError, ValueError):
            category = "one" if n == 1 else "other"
        return forms.get(category, forms["other"])

    @classmethod
    def json_schema(cls) -> dict[str, Any]:
        forms = {
            "anyOf": [
                {"type": ["string", "number"]},
                {
                    "type": "object",
                    "properties": {c: {"type": ["string", "number"]} for c in PLURAL_CATEGORIES},
                    "required": ["other"],
                    "additionalProperties": False,
                },
            ]
        }
        return {
            "anyOf": [
                {"type": ["string", "number"]},
                {
                    "type": "object",
                    "propertyNames": {"pattern": "^[a-z]{2,3}(_[A-Za-z0-9]{2,8})*$"},
                    "additionalProperties": {"type": ["string", "number", "null"]},
                },
                {
                    "type": "object",
                    "properties": {"count": {"type": "string"}},
                    "required": ["count"],
                    "additionalProperties": forms,
                    "description": "a text with plural forms: count names the value choosing "
                    "the form; each language gives its forms by CLDR category",
                },
            ],
            "description": "a text in the source language, or a mapping language code -> text",
        }


PLURAL_CATEGORIES = ("zero", "one", "two", "few", "many", "other")


class SizeSpec(Custom):
    """A size in mm: a preset name (poker, bridge, mini, tarot, square), [w, h] or {w:, h:}."""

    type_label = "a size (preset name or [width, height] in mm)"

    @classmethod
    def from_yaml(cls, value: Any, pos: Pos, ctx: Context) -> Any:
        if isinstance(value, str):
            preset = value.strip().lower()
            if preset in CARD_SIZES:
                return CARD_SIZES[preset]
            if preset in PAPERS:
                return PAPERS[preset]
            m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*[x×]\s*(\d+(?:\.\d+)?)\s*(mm)?", preset)
            if m:
                return _checked_size(float(m.group(1)), float(m.group(2)), pos, ctx)
            names = ", ".join(CARD_SIZES)
            ctx.error(pos, f"unknown size {value!r}; use a preset ({names}) or [width, height]")
            return INVALID
        if isinstance(value, int | float) and not isinstance(value, bool):
            return _checked_size(float(value), float(value), pos, ctx)
        if isinstance(value, YSeq) and len(value) == 2:
            w, h = value
            if all(isinstance(v, int | float) and not isinstance(v, bool) for v in (w, h)):
                return _checked_size(float(w), float(h), pos, ctx)
        if isinstance(value, YMap) and set(value) == {"w", "h"}:
            w, h = value["w"], value["h"]
            if all(isinstance(v, int | float) and not isinstance(v, bool) for v in (w, h)):
                return _checked_size(float(w), float(h), pos, ctx)
        ctx.error(pos, f"expected a size such as poker or [63, 88], found {describe(value)}")
        return INVALID

    @classmethod
    def json_schema(cls) -> dict[str, Any]:
        return {
            "anyOf": [
                {"enum": list(CARD_SIZES)},
                {"type": "string", "pattern": r"^\d+(\.\d+)?\s*[x×]\s*\d+(\.\d+)?\s*(mm)?$"},
                {"type": "number", "exclusiveMinimum": 0},
                {
                    "type": "array",
                    "items": {"type": "number", "exclusiveMinimum": 0},
                    "minItems": 2,
                    "maxItems": 2,
                },
                {
                    "type": "object",
                    "properties": {"w": {"type": "number"}, "h": {"type": "number"}},
                    "required": ["w", "h"],
                    "additionalProperties": False,
                },
            ],
            "description": "millimetres: a preset name, [width, height] or {w:, h:}",
        }


def _checked_size(w: float, h: float, pos: Pos, ctx: Context) -> Any:
    if not (1 <= w <= 2000 and 1 <= h <= 2000):
        ctx.error(pos, f"a size of {w:g}x{h:g} mm is outside 1..2000 mm")
        return INVALID
    return Size(w, h)


_HEX = re.compile(r"#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})")
NAMED_COLORS = {
    "black": "#000000",
    "white": "#ffffff",
    "red": "#c62828",
    "blue": "#1f4e9c",
    "green": "#2e7d32",
    "yellow": "#f9a825",
    "grey": "#808080",
    "gray": "#808080",
    "orange": "#ef6c00",
    "purple": "#6a1b9a",
    "brown": "#6d4c41",
    "none": "none",
}


class Color(Custom):
    """A colour: #rgb, #rrggbb, one of a few names, or none."""

    type_label = "a colour (#rrggbb)"

    @classmethod
    def from_yaml(cls, value: Any, pos: Pos, ctx: Context) -> Any:
        if isinstance(value, str):
            v = value.strip().lower()
            if _HEX.fullmatch(v):
                if len(v) == 4:
                    v = "#" + "".join(c * 2 for c in v[1:])
                return v
            if v in NAMED_COLORS:
                return NAMED_COLORS[v]
        ctx.error(
            pos,
            f'expected a colour such as "#1f4e9c" or one of {", ".join(NAMED_COLORS)}, '
            f"found {describe(value)} (quote hex colours: # starts a YAML comment)",
        )
        return INVALID

    @classmethod
    def json_schema(cls) -> dict[str, Any]:
        return {
            "anyOf": [
                {"type": "string", "pattern": "^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$"},
                {"enum": list(NAMED_COLORS)},
            ]
        }


class Box(Custom):
    """A rectangle [x, y, width, height] from the top-left corner of the face: each value in mm,
    or a percentage of the face's width (x, width) or height (y, height) such as "10%"."""

    type_label = "[x, y, width, height] in mm or %"

    @classmethod
    def from_yaml(cls, value: Any, pos: Pos, ctx: Context) -> Any:
        if isinstance(value, YSeq) and len(value) == 4:
            parts: list[float | str] = []
            for v in value:
                if isinstance(v, int | float) and not isinstance(v, bool):
                    parts.append(float(v))
                elif isinstance(v, str) and re.fullmatch(r"-?\d+(\.\d+)?%", v.strip()):
                    parts.append(v.strip())
                else:
                    break
            else:
                w, h = parts[2], parts[3]
                if any(_length_value(x) <= 0 for x in (w, h)):
                    ctx.error(pos, "a box needs a positive width and height")
                    return INVALID
                return tuple(parts)
        ctx.error(pos, f"expected a box [x, y, width, height] (mm or %), found {describe(value)}")
        return INVALID

    @classmethod
    def json_schema(cls) -> dict[str, Any]:
        length = {"anyOf": [{"type": "number"}, {"type": "string", "pattern": r"^-?\d+(\.\d+)?%$"}]}
        return {
            "type": "array",
            "items": length,
            "minItems": 4,
            "maxItems": 4,
            "description": '[x, y, width, height] in mm (or "N%" of the face) from the top-left',
        }


def _length_value(v: float | str) -> float:
    return float(v[:-1]) if isinstance(v, str) else v


@functools.lru_cache(maxsize=4096)
def resolve_box(
    box: tuple[float | str, ...], w: float, h: float
) -> tuple[float, float, float, float]:
    """A Box in mm for a face of w x h mm (remembered: every card of a deck asks the same)."""
    out = []
    for i, v in enumerate(box):
        full = w if i in (0, 2) else h
        out.append(float(v[:-1]) * full / 100 if isinstance(v, str) else float(v))
    return out[0], out[1], out[2], out[3]


SizeT = Annotated[Size, SizeSpec]
ColorT = Annotated[str, Color]
BoxT = Annotated[tuple[float | str, ...], Box]


@functools.lru_cache(maxsize=1024)
def valid_language(code: str) -> bool:
    """A real locale code in POSIX form (it, en, pt_BR, no, zh_Hant_TW)."""
    if not re.fullmatch(r"[a-z]{2,3}(_[A-Za-z0-9]{2,8})*", code):
        return False
    try:
        Locale.parse(code)
    except (UnknownLocaleError, ValueError):
        return False
    return True


# --- faces, layouts, cards ---------------------------------------------------------------------


@dataclass
class Face(Located):
    """One printed side of a card, token or board: its texts, art and the layout drawing them."""

    label: ClassVar[str] = "a face"

    layout: str | None = fld(None, doc="layout id drawing this face (default: the deck's)")
    style: str | None = fld(None, doc="style of the layout to use (colours), e.g. blue")
    title: Text | None = fld(None, doc="title text")
    subtitle: Text | None = fld(None, doc="subtitle text")
    text: Text | None = fld(None, doc="body text; markup: **bold**, _italic_, {icon}")
    flavor: Text | None = fld(None, doc="flavour text, printed in italics")
    footer: Text | None = fld(None, doc="small print at the bottom")
    art: str | None = fld(None, doc="image file (PNG or JPEG) relative to the game folder")
    art_bleed: float = fld(
        0.0, doc="mm of bleed the art already has beyond the trim on each side (0: none)"
    )
    fields: dict[str, Text] = fld(
        default_factory=dict, doc="further named texts, used by layout elements (field: name)"
    )
    values: dict[str, int | float | str] = fld(
        default_factory=dict, doc="named numbers or codes, usable in layouts and expressions"
    )

    TEXT_FIELDS: ClassVar[tuple[str, ...]] = ("title", "subtitle", "text", "flavor", "footer")

    def text_field(self, name: str) -> Text | None:
        if name in self.TEXT_FIELDS:
            value = getattr(self, name)
            return value if isinstance(value, Text) else None
        return self.fields.get(name)

    def texts(self) -> list[tuple[str, Text]]:
        out = [(n, t) for n in self.TEXT_FIELDS if (t := getattr(self, n)) is not None]
        out.extend(sorted(self.fields.items()))
        return out


@dataclass
class Card(Face):
    """A card of a deck: its front face, how many copies the box holds, and its own back if any."""

    label: ClassVar[str] = "a card"

    id: str = fld("", doc="unique id of the card in the game (letters, digits, -)")
    copies: int = fld(1, doc="how many copies of this card the box holds")
    back: Face | None = fld(None, doc="the card's own back face (two-sided cards)")
    placeholder: bool = fld(
        False, doc="the rulebook does not publish this card's text: mark it as a placeholder"
    )
    tags: list[str] = fld(default_factory=list, doc="free labels, e.g. first-game, complex")
    note: str = fld("", doc="comment for translators, copied into the PO files")
    stages: int | None = fld(None, doc="this card announces N stage cards (see stage_of)")
    stage_of: str | None = fld(None, doc="id of the card whose stage this card is")
    stage: int | None = fld(None, doc="which stage (1..N) of stage_of this card is")
    outcomes: list[Outcome] = fld(
        default_factory=list,
        doc="results by how many of its stages were won: count 0..stages, e.g. '0-1'",
    )

    def check(self, ctx: Context) -> None:
        if self.copies < 0:
            ctx.error(self.at("copies"), "copies cannot be negative")
        if self.copies > 10_000:
            ctx.error(self.at("copies"), "more than 10,000 copies of one card")


@dataclass
class Outcome(Located):
    """One row of an outcome table over a count: which counts give which result."""

    label: ClassVar[str] = "an outcome"

    count: int | str = fld(doc="a count, or a range '0-1'")
    result: Text | None = fld(None, doc="what happens")


@dataclass
class Deck(Located):
    """A deck of cards of one size, usually with one shared back."""

    label: ClassVar[str] = "a deck"

    id: str = fld("", doc="deck id (the key under decks:)")
    name: Text | None = fld(None, doc="the deck's name as printed on sheets")
    size: SizeT | None = fld(None, doc="card size: poker, bridge, mini, tarot, square, [w, h]")
    layout: str | None = fld(None, doc="default layout of the fronts")
    back: Face | None = fld(None, doc="the back shared by every card without its own back")
    cards: list[Card] = fld(default_factory=list, doc="the cards, in print order")
    tags: list[str] = fld(default_factory=list, doc="free labels")

    @property
    def total(self) -> int:
        return sum(c.copies for c in self.cards)


@dataclass
class TokenSet(Located):
    """Tokens of one shape and size (round, square or hexagonal), single- or double-sided."""

    label: ClassVar[str] = "a token set"

    id: str = fld("", doc="token set id (the key under tokens:)")
    name: Text | None = fld(None, doc="name as printed on sheets")
    shape: Literal["round", "square", "hex"] = fld("round", doc="cut shape")
    size: float = fld(25.0, doc="diameter (round), side (square) or corner-to-corner (hex), mm")
    layout: str | None = fld(None, doc="layout of the fronts (default: a centred title)")
    back: Face | None = fld(None, doc="shared back; omit for single-sided tokens")
    tokens: list[Card] = fld(default_factory=list, doc="the tokens, each with its copies")

    def check(self, ctx: Context) -> None:
        if not 5 <= self.size <= 200:
            ctx.error(self.at("size"), "a token size must lie between 5 and 200 mm")

    @property
    def total(self) -> int:
        return sum(t.copies for t in self.tokens)

    @property
    def cards(self) -> list[Card]:
        return self.tokens


@dataclass
class Border(Located):
    label: ClassVar[str] = "a border"

    width: float = fld(0.5, doc="line width in mm")
    color: ColorT = fld("#000000", doc="line colour")
    radius: float = fld(0.0, doc="corner radius in mm")
    inset: float = fld(0.0, doc="distance from the card edge in mm")


@dataclass
class Style(Located):
    """Colours of a layout variant, selected by a face's style: key."""

    label: ClassVar[str] = "a style"

    background: ColorT | None = fld(None, doc="background colour")
    color: ColorT | None = fld(None, doc="text colour")
    accent: ColorT | None = fld(None, doc="accent colour, used by elements with fill: accent")
    art: str | None = fld(None, doc="background image of this style")


@dataclass
class Element(Located):
    """One thing drawn on a face: a text field, a template, an image or a coloured box."""

    label: ClassVar[str] = "a layout element"

    box: BoxT = fld(doc="[x, y, width, height] in mm from the face's top-left corner")
    name: str | None = fld(
        None, doc="element name: a child layout's element of the same name replaces it"
    )
    field: str | None = fld(
        None, doc="face text to draw: title, subtitle, text, ... or a fields key"
    )
    template: str | None = fld(
        None, doc="text built from face values, e.g. '{{ values.cost }} {coin}' (Jinja2, sandboxed)"
    )
    image: str | None = fld(None, doc="'art' for the face's art, or an image file of the game")
    track: str | None = fld(None, doc="draw this track (tracks:) as a row of numbered cells")
    table: str | None = fld(None, doc="draw this table (tables:) inside the box")
    direction: Literal["horizontal", "vertical"] = fld(
        "horizontal", doc="track direction; vertical tracks count upwards"
    )
    font: Literal["regular", "bold", "italic", "bolditalic"] = fld("regular", doc="font face")
    size: float = fld(9.0, doc="font size in points")
    min_size: float | None = fld(None, doc="smallest size the text may shrink to (default: 70 %)")
    leading: float = fld(1.2, doc="line height as a multiple of the size")
    align: Literal["left", "center", "right", "justify"] = fld("left", doc="horizontal alignment")
    valign: Literal["top", "middle", "bottom"] = fld("top", doc="vertical alignment")
    color: str | None = fld(None, doc="text colour, or 'accent' / 'background' of the style")
    fill: str | None = fld(None, doc="box background: a colour, 'accent' or 'background'")
    stroke: str | None = fld(None, doc="box outline colour")
    stroke_width: float = fld(0.3, doc="outline width in mm")
    radius: float = fld(0.0, doc="corner radius of fill and outline in mm")
    padding: float = fld(0.0, doc="space between the box edge and its text, mm")
    fit: Literal["shrink", "none"] = fld("shrink", doc="shrink the text until it fits")
    hyphenate: bool | None = fld(
        None, doc="hyphenate by language (default: yes for text, flavor and footer, no for titles)"
    )
    when: str | None = fld(None, doc="draw only when this face field is present")

    def check(self, ctx: Context) -> None:
        kinds = [
            k
            for k in ("field", "template", "image", "track", "table")
            if getattr(self, k) is not None
        ]
        if len(kinds) > 1:
            ctx.error(self.pos, f"an element draws one thing; it has {' and '.join(kinds)}")
        if self.min_size is not None and self.min_size > self.size:
            ctx.error(self.at("min_size"), "min_size is larger than size")
        if not 1 <= self.size <= 200:
            ctx.error(self.at("size"), "a font size must lie between 1 and 200 pt")


@dataclass
class Layout(Located):
    """How a face is drawn: background, border and elements; may extend another layout."""

    label: ClassVar[str] = "a layout"

    id: str = fld("", doc="layout id (the key under layouts:)")
    extends: str | None = fld(None, doc="layout whose settings and elements this one inherits")
    background: ColorT | None = fld(None, doc="background colour (default white)")
    border: Border | None = fld(None, doc="a line around the face")
    styles: dict[str, Style] = fld(default_factory=dict, doc="colour variants by style name")
    elements: list[Element] = fld(default_factory=list, doc="drawn in order, after the parent's")


@dataclass
class Icon(Located):
    """An inline icon, written {name} in text: a character of a font, or a small image."""

    label: ClassVar[str] = "an icon"

    glyph: str | None = fld(None, doc="the character(s) drawn for this icon, e.g. ₽")
    image: str | None = fld(None, doc="a PNG or JPEG drawn at the text's size")
    font: Literal["regular", "bold", "italic", "bolditalic"] | None = fld(
        None, doc="font face of the glyph"
    )
    color: ColorT | None = fld(None, doc="colour of the glyph")

    def check(self, ctx: Context) -> None:
        if (self.glyph is None) == (self.image is None):
            ctx.error(self.pos, "an icon needs exactly one of glyph: or image:")


# --- boards ------------------------------------------------------------------------------------


@dataclass
class Board(Face):
    """A board (or player board): one large face, split over pages when larger than the paper."""

    label: ClassVar[str] = "a board"

    id: str = fld("", doc="board id (the key under boards:)")
    name: Text | None = fld(None, doc="name as printed on the assembly map")
    size: SizeT = fld(doc="[width, height] in mm", kw_only=True)
    copies: int = fld(1, doc="how many copies the box holds")
    back: Face | None = fld(None, doc="the other side, for two-sided boards")
    placeholder: bool = fld(False, doc="the rulebook does not publish this board's content")
    tags: list[str] = fld(default_factory=list, doc="free labels")
    note: str = fld("", doc="comment for translators and designers")


# --- tables ------------------------------------------------------------------------------------


@dataclass
class Deal(Located):
    """What a table column takes out of the box: copies of cards, a deck, or tokens."""

    label: ClassVar[str] = "a deal"

    card: str | list[str] | None = fld(None, doc="card id(s) whose copies are dealt")
    deck: str | None = fld(None, doc="deck whose cards are dealt")
    tokens: str | None = fld(None, doc="token set whose tokens are dealt")
    per: Literal["game", "player"] = fld("game", doc="the cell counts per game or per player")


@dataclass
class Column(Located):
    label: ClassVar[str] = "a table column"

    id: str = fld(doc="column id, used by rows written as mappings and by totals")
    title: Text | None = fld(None, doc="column heading")
    deals: Deal | None = fld(None, doc="the box components this column takes")
    unit: str | None = fld(None, doc="unit printed after numbers, e.g. ₽")


@dataclass
class Total(Located):
    """A row constraint: the sum of some columns equals another column or a number."""

    label: ClassVar[str] = "a total"

    of: list[str] = fld(doc="columns to add up")
    equals: str | int = fld(doc="a column id or a number the sum must equal")


class Row(Custom):
    """A table row: a list of cells in column order, or a mapping column -> cell."""

    type_label = "a row (list of cells or mapping column -> cell)"

    def __init__(self, cells: Any, pos: Pos, cpos: Any) -> None:
        self.cells = cells  # list or dict of raw cell values
        self.pos = pos
        self.cpos = cpos  # list or dict of positions

    @classmethod
    def from_yaml(cls, value: Any, pos: Pos, ctx: Context) -> Any:
        if isinstance(value, YSeq):
            return cls(list(value), pos, list(value.ipos))
        if isinstance(value, YMap):
            return cls(dict(value), pos, dict(value.vpos))
        ctx.error(pos, f"expected a row (a list of cells or a mapping), found {describe(value)}")
        return INVALID

    @classmethod
    def json_schema(cls) -> dict[str, Any]:
        return {"anyOf": [{"type": "array"}, {"type": "object"}]}


Dice = Literal["d2", "d3", "d4", "d6", "d8", "d10", "d12", "d20", "2d6", "d66", "d100"]


@dataclass
class Combinations(Located):
    """The keys of a table indexed by combinations, e.g. unordered pairs of cube colours."""

    label: ClassVar[str] = "combinations"

    of: list[str] = fld(doc="the items combined, e.g. [black, white, blue, red, yellow]")
    size: int = fld(2, doc="how many items per combination")
    repeat: bool = fld(False, doc="an item may appear twice (black+black)")
    ordered: bool = fld(False, doc="order matters (black+white differs from white+black)")


@dataclass
class Covers(Located):
    """What the key column of a lookup table must cover exactly once."""

    label: ClassVar[str] = "covers"

    dice: (
        Literal["d2", "d3", "d4", "d6", "d8", "d10", "d12", "d20", "2d6", "d66", "d100"] | None
    ) = fld(None, doc="every outcome of these dice")
    range: list[int] | None = fld(None, doc="every whole number from..to, e.g. [0, 3]")
    combinations: Combinations | None = fld(None, doc="every combination of items")
    key: str | None = fld(None, doc="the key column (default: the first)")

    def check(self, ctx: Context) -> None:
        given = [k for k in ("dice", "range", "combinations") if getattr(self, k) is not None]
        if len(given) != 1:
            ctx.error(self.pos, "covers: needs exactly one of dice, range, combinations")
        if self.range is not None and (len(self.range) != 2 or self.range[0] > self.range[1]):
            ctx.error(self.at("range"), "range is [from, to] with from <= to")
        elif self.range is not None and self.range[1] - self.range[0] > 100_000:
            ctx.error(self.at("range"), "a range of more than 100,000 values")


@dataclass
class Table(Located):
    """A setup, victory or lookup table: columns, rows, and constraints the validator checks."""

    label: ClassVar[str] = "a table"

    id: str = fld("", doc="table id (the key under tables:)")
    title: Text | None = fld(None, doc="heading printed above the table")
    columns: list[Column] = fld(default_factory=list, doc="the columns, the key column first")
    rows: list[Row] = fld(default_factory=list, doc="rows: lists in column order or mappings")
    total: list[Total] = fld(default_factory=list, doc="sums each row must satisfy")
    note: Text | None = fld(None, doc="a note printed under the table")
    sheet: bool = fld(True, doc="print this table on the setup sheet")
    covers: Covers | None = fld(
        None, doc="a dice or lookup table: the outcomes its key column must cover once"
    )

    # filled by check(): rows as mapping column id -> value, and cell positions
    cells: list[dict[str, Any]] = field(
        default_factory=list, repr=False, metadata={"internal": True}
    )
    cell_pos: list[dict[str, Pos]] = field(
        default_factory=list, repr=False, metadata={"internal": True}
    )

    def check(self, ctx: Context) -> None:
        ids = [c.id for c in self.columns]
        for row in self.rows:
            values: dict[str, Any] = {}
            positions: dict[str, Pos] = {}
            if isinstance(row.cells, list):
                if len(row.cells) != len(ids):
                    ctx.error(
                        row.pos,
                        f"this row has {len(row.cells)} cells, the table has {len(ids)} columns "
                        f"({', '.join(ids)})",
                    )
                for cid, v, p in zip(ids, row.cells, row.cpos, strict=False):
                    values[cid] = v
                    positions[cid] = p
            else:
                for k, v in row.cells.items():
                    if k not in ids:
                        ctx.error(
                            row.cpos.get(k, row.pos),
                            f"unknown column {k!r}; columns: {', '.join(ids)}",
                        )
                        continue
                    values[k] = v
                    positions[k] = row.cpos[k]
            for cid, v in list(values.items()):
                if v is None or v == "-":
                    values[cid] = 0  # "-" in a rulebook table means none
                elif isinstance(v, YMap):  # a text in several languages
                    ctx.path.extend(["rows", str(len(self.cells)), cid])
                    try:
                        text = Text.from_yaml(v, positions[cid], ctx)
                    finally:
                        del ctx.path[-3:]
                    values[cid] = text if text is not INVALID else ""
                elif isinstance(v, YSeq):
                    ctx.error(positions[cid], "a cell holds a number or a text, not a list")
                    values[cid] = 0
            self.cells.append(values)
            self.cell_pos.append(positions)

    def column(self, cid: str) -> Column | None:
        return next((c for c in self.columns if c.id == cid), None)


# --- the box (component manifest) -------------------------------------------------------------


@dataclass
class BoxEntry(Located):
    """One line of the component list: how many of something the box holds."""

    label: ClassVar[str] = "a box entry"

    count: int = fld(doc="how many the rulebook says the box holds")
    item: Text | None = fld(None, doc="the line as printed in the component list")
    card: str | list[str] | None = fld(None, doc="card id(s): their copies are counted")
    deck: str | list[str] | None = fld(None, doc="deck id(s): all their cards are counted")
    tokens: str | list[str] | None = fld(None, doc="token set id(s)")
    token: str | list[str] | None = fld(None, doc="single token id(s)")
    board: str | list[str] | None = fld(None, doc="board id(s)")
    tag: str | None = fld(None, doc="count every card and token with this tag")
    unit: Literal["copies", "cards"] = fld(
        "copies", doc="copies: count every copy; cards: count distinct cards"
    )

    SELECTORS: ClassVar[tuple[str, ...]] = ("card", "deck", "tokens", "token", "board", "tag")

    def check(self, ctx: Context) -> None:
        chosen = [s for s in self.SELECTORS if getattr(self, s) is not None]
        if len(chosen) != 1:
            ctx.error(
                self.pos,
                "a box entry counts exactly one kind of thing: give one of "
                + ", ".join(self.SELECTORS)
                + (f" (it has {', '.join(chosen)})" if chosen else ""),
            )
        if self.count < 0:
            ctx.error(self.at("count"), "a count cannot be negative")


# --- rules, invariants -------------------------------------------------------------------------


@dataclass
class RuleSetting(Located):
    """A game's override of a built-in rule's severity, with the reason for it."""

    label: ClassVar[str] = "a rule setting"
    shorthand: ClassVar[str] = "severity"

    severity: Literal["error", "warning", "info", "off"] = fld(doc="the new severity")
    reason: str = fld("", doc="why this game changes the rule (shown in docs and reviews)")


@dataclass
class Invariant(Located):
    """A property the game's data must have, written as a safe expression."""

    label: ClassVar[str] = "an invariant"

    id: str = fld(doc="short id, shown in findings")
    check_: str = fld(key="assert", doc="expression that must be true, e.g. events >= 8")
    for_each: str | None = fld(
        None, doc="iterate: 'row in tables.roles' or 'n in range(2, 5)'; the name is bound"
    )
    where: str | None = fld(None, doc="only check items for which this expression is true")
    message: Text | None = fld(None, doc="what to tell the designer when it fails; {name} values")
    severity: Literal["error", "warning"] = fld("error", doc="severity of a failure")


# --- tracks and scenarios ----------------------------------------------------------------------


@dataclass
class Track(Located):
    """A track on a board (employment, military...): the values a marker can take."""

    label: ClassVar[str] = "a track"

    id: str = fld("", doc="track id (the key under tracks:)")
    name: Text | None = fld(None, doc="name printed on boards and sheets")
    min: int = fld(0, doc="lowest value")
    max: int = fld(doc="highest value", kw_only=True)
    start: int | None = fld(None, doc="usual starting value")
    board: str | None = fld(None, doc="board the track is printed on")

    def check(self, ctx: Context) -> None:
        if self.max < self.min:
            ctx.error(self.at("max"), f"max ({self.max}) is below min ({self.min})")


class CardRef(Custom):
    """A card named in a scenario: 'id', 'id x2' (two copies) or {card: id, copies: 2}."""

    type_label = "a card id, 'id x2' or {card: id, copies: n}"

    def __init__(self, card: str, copies: int, pos: Pos) -> None:
        self.card = card
        self.copies = copies
        self.pos = pos

    def __repr__(self) -> str:
        return f"CardRef({self.card!r} x{self.copies})"

    @classmethod
    def from_yaml(cls, value: Any, pos: Pos, ctx: Context) -> Any:
        if isinstance(value, str):
            m = re.fullmatch(r"\s*(\S+?)(?:\s+[x×](\d+))?\s*", value)
            if m:
                return cls(m.group(1), int(m.group(2) or 1), pos)
        if isinstance(value, YMap) and "card" in value and set(value) <= {"card", "copies"}:
            card, copies = value["card"], value.get("copies", 1)
            if isinstance(card, str) and isinstance(copies, int) and copies >= 1:
                return cls(card, copies, value.value_pos("card"))
        ctx.error(
            pos, f"expected a card id, 'id x2' or {{card: id, copies: 2}}, found {describe(value)}"
        )
        return INVALID

    @classmethod
    def json_schema(cls) -> dict[str, Any]:
        return {
            "anyOf": [
                {"type": "string", "pattern": r"^\S+(\s+[x×]\d+)?$"},
                {
                    "type": "object",
                    "properties": {"card": {"type": "string"}, "copies": {"type": "integer"}},
                    "required": ["card"],
                    "additionalProperties": False,
                },
            ]
        }


@dataclass
class Filter(Located):
    """Selects cards of a deck by tag or by value."""

    label: ClassVar[str] = "a card filter"
    shorthand: ClassVar[str] = "tag"

    tag: str | None = fld(None, doc="cards carrying this tag")
    values: dict[str, int | float | str] = fld(
        default_factory=dict, doc="cards whose values match all of these"
    )


@dataclass
class DeckStep(Located):
    """One step of a scenario's card organisation, applied to one deck."""

    label: ClassVar[str] = "a card organisation step"

    deck: str = fld(doc="the deck this step works on")
    only: Filter | None = fld(None, doc="keep only the cards matching this filter")
    exclude: Filter | None = fld(None, doc="set aside the cards matching this filter")
    remove: list[CardRef] = fld(default_factory=list, doc="take these cards out of the game")
    draw: int | str | dict[int, int] | None = fld(
        None,
        doc="draw this many at random: a number, a mapping players -> number, or an "
        "expression of players",
    )
    order: list[CardRef] = fld(
        default_factory=list, doc="use exactly these cards, in this order (e.g. named plans)"
    )
    top: list[CardRef] = fld(default_factory=list, doc="put these cards on top, in order")
    bottom: list[CardRef] = fld(default_factory=list, doc="put these cards at the bottom")
    shuffle: bool = fld(True, doc="shuffle the deck (before top/bottom are placed)")
    note: Text | None = fld(None, doc="how to do it, printed on the scenario sheet")


@dataclass
class BoardRef(Located):
    """A board or tile a scenario puts on the table, and which side up."""

    label: ClassVar[str] = "a board reference"
    shorthand: ClassVar[str] = "board"

    board: str = fld(doc="board id")
    side: Literal["front", "back", "A", "B"] = fld("front", doc="side up (A = front, B = back)")
    where: Text | None = fld(None, doc="where it goes")


@dataclass
class Scenario(Located):
    """A scenario (or a variant of one): players, set-up, card organisation, victory."""

    label: ClassVar[str] = "a scenario"

    id: str = fld("", doc="scenario id (the key under scenarios:)")
    name: Text | None = fld(None, doc="the scenario's name")
    extends: str | None = fld(None, doc="a variant: the scenario it modifies")
    players: Players | None = fld(None, doc="player counts it allows (default: the game's)")
    difficulty: Text | None = fld(None, doc="difficulty level")
    story: Text | None = fld(None, doc="historical or thematic introduction")
    boards: list[BoardRef] = fld(default_factory=list, doc="boards and tiles on the table")
    start: dict[str, int] = fld(default_factory=dict, doc="starting values of tracks, by id")
    setup: Text | None = fld(None, doc="further set-up instructions")
    cards: list[DeckStep] = fld(default_factory=list, doc="card organisation, in order")
    rules: Text | None = fld(None, doc="special rules")
    victory: Text | None = fld(None, doc="victory conditions")
    defeat: Text | None = fld(None, doc="defeat conditions")


# --- print settings, setup sheet, the game -----------------------------------------------------


@dataclass
class PrintSettings(Located):
    label: ClassVar[str] = "print settings"

    card_size: SizeT | None = fld(None, doc="default card size of every deck (poker)")
    gap: float = fld(0.0, doc="space between cards on a sheet, mm (0: shared cut lines)")
    font: str = fld("NotoSans", doc="font family from fonts/ (files Family-Regular.ttf ...)")
    fallback_fonts: list[str] = fld(
        default_factory=lambda: ["DejaVuSans"], doc="fonts tried for characters the font lacks"
    )
    corner_radius: float = fld(3.0, doc="rounded card corners in the default layouts, mm")

    def check(self, ctx: Context) -> None:
        for name, pos in [(self.font, self.at("font"))] + [
            (f, self.at("fallback_fonts")) for f in self.fallback_fonts
        ]:
            if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}", name):
                ctx.error(
                    pos,
                    f"font family {name!r} must be a plain name such as NotoSans (the files "
                    "NotoSans-Regular.ttf ... in fonts/), not a path",
                )


@dataclass
class SetupSheet(Located):
    label: ClassVar[str] = "a setup sheet"

    title: Text | None = fld(None, doc="heading of the sheet")
    intro: Text | None = fld(None, doc="text printed before the tables")
    tables: list[str] = fld(default_factory=list, doc="tables to print, in order (default all)")
    notes: Text | None = fld(None, doc="text printed after the tables")


@dataclass
class Players(Located):
    label: ClassVar[str] = "a player range"

    min: int = fld(doc="fewest players")
    max: int = fld(doc="most players")

    def check(self, ctx: Context) -> None:
        if not 1 <= self.min <= self.max <= 100:
            ctx.error(self.pos, "players needs 1 <= min <= max <= 100")


@dataclass
class Sections(Located):
    """What any YAML file of a game may hold (game.yaml holds the game's identity as well)."""

    label: ClassVar[str] = "a content file"

    decks: dict[str, Deck] = fld(default_factory=dict, doc="decks of cards, by id")
    tokens: dict[str, TokenSet] = fld(default_factory=dict, doc="token sets, by id")
    boards: dict[str, Board] = fld(default_factory=dict, doc="boards, by id")
    tables: dict[str, Table] = fld(default_factory=dict, doc="setup and lookup tables, by id")
    layouts: dict[str, Layout] = fld(default_factory=dict, doc="face layouts, by id")
    icons: dict[str, Icon] = fld(default_factory=dict, doc="inline icons, written {name}")
    tracks: dict[str, Track] = fld(default_factory=dict, doc="tracks of the boards, by id")
    scenarios: dict[str, Scenario] = fld(default_factory=dict, doc="scenarios and variants")
    invariants: list[Invariant] = fld(default_factory=list, doc="the game's own rules")


@dataclass
class GameFile(Sections):
    """game.yaml: the game's identity, languages, players, box contents and print settings."""

    label: ClassVar[str] = "game.yaml"

    def check(self, ctx: Context) -> None:
        if self.date is not None:
            import datetime

            try:
                datetime.date.fromisoformat(self.date)
            except ValueError:
                ctx.error(self.at("date"), f"date {self.date!r} is not a date: write YYYY-MM-DD")

    title: Text = fld(doc="the game's title", kw_only=True)
    source_language: str = fld(doc="language of plain (non-mapping) texts, e.g. it", kw_only=True)
    languages: list[str] = fld(doc="languages the game ships, e.g. [it, en]", kw_only=True)
    players: Players | None = fld(None, doc="player range")
    credits: Text | None = fld(None, doc="designers, artists, licence")
    version: str = fld("1", doc="version of the content pack")
    date: str | None = fld(None, doc="release date of this version, YYYY-MM-DD")
    box: list[BoxEntry] = fld(default_factory=list, doc="component list: what the box holds")
    print: PrintSettings | None = fld(None, doc="print settings")
    setup_sheet: SetupSheet | None = fld(None, doc="the printed setup sheet")
    rules: dict[str, RuleSetting] = fld(
        default_factory=dict, doc="severity overrides of built-in rules, by rule id"
    )


# --- the assembled game ------------------------------------------------------------------------


@dataclass
class Game:
    """A whole game after loading: game.yaml plus every section of every other file."""

    id: str
    folder: str  # relative to the content root, e.g. cards/fabg
    meta: GameFile
    decks: dict[str, Deck] = field(default_factory=dict)
    tokens: dict[str, TokenSet] = field(default_factory=dict)
    boards: dict[str, Board] = field(default_factory=dict)
    tables: dict[str, Table] = field(default_factory=dict)
    layouts: dict[str, Layout] = field(default_factory=dict)
    icons: dict[str, Icon] = field(default_factory=dict)
    tracks: dict[str, Track] = field(default_factory=dict)
    scenarios: dict[str, Scenario] = field(default_factory=dict)
    invariants: list[Invariant] = field(default_factory=list)
    texts: list[Text] = field(default_factory=list)
    files: list[str] = field(default_factory=list)

    @property
    def source_language(self) -> str:
        return self.meta.source_language

    @property
    def languages(self) -> list[str]:
        return self.meta.languages

    @property
    def print(self) -> PrintSettings:
        return self.meta.print or PrintSettings()

    def all_cards(self) -> list[tuple[Deck, Card]]:
        return [(d, c) for d in self.decks.values() for c in d.cards]

    def all_tokens(self) -> list[tuple[TokenSet, Card]]:
        return [(s, t) for s in self.tokens.values() for t in s.tokens]

    def owners(self) -> list[Deck | TokenSet]:
        """Decks and token sets, in definition order."""
        return [*self.decks.values(), *self.tokens.values()]

    def every_card(self) -> list[tuple[Deck | TokenSet, Card]]:
        """Every card and token with its deck or token set."""
        return [(o, c) for o in self.owners() for c in o.cards]

    def card(self, cid: str) -> Card | None:
        for _d, c in self.all_cards():
            if c.id == cid:
                return c
        return None


SECTION_NAMES = [f.name for f in dataclasses.fields(Sections) if not f.metadata.get("internal")]
