"""The custom scalar types of the format: sizes, colours, lengths and boxes on a face (with the
helper that turns a box into millimetres), and the check of a language code. Each checks what
it reads and publishes the same as its JSON Schema (tests/test_one_truth.py compares them)."""

from __future__ import annotations

import functools
import math
import re
from typing import Annotated, Any, ClassVar

from babel import Locale, UnknownLocaleError

from ...core.findings import Pos
from ...core.units import CARD_SIZES, MM_PER_INCH, PAPERS, Size, inches
from ..schema import INVALID, Context, Custom, describe, suggest
from ..suffixes import sheet_file_pattern
from ..yamlio import YMap, YSeq

SIZE_PRESETS: dict[str, Size] = {**CARD_SIZES, **PAPERS}  # card sizes, and papers for boards
SIZE_LIMITS = (1.0, 2000.0)  # mm, each side
# the same in inches, to the hundredth inside them: 0.04 to 78.74 in
INCH_LIMITS = (
    math.ceil(SIZE_LIMITS[0] / MM_PER_INCH * 100) / 100,
    math.floor(SIZE_LIMITS[1] / MM_PER_INCH * 100) / 100,
)
_NUMBER = r"[0-9]+(?:\.[0-9]+)?"
# "60x90", "60 x 90 mm", "2.5x3.5in": millimetres unless the unit says inches
_SIZE_TEXT = re.compile(rf"({_NUMBER}) *[xX×] *({_NUMBER}) *(mm|in)?")
# the JSON Schema's patterns say the limits too: a number from 1 to 2000 as written in "60x90",
# and from 0.04 to 78.74 as written in "2.5x3.5in" (tests/test_one_truth.py checks them)
_IN_SIZE_LIMITS = r"0*(?:[1-9][0-9]{0,2}|1[0-9]{3})(?:\.[0-9]+)?|0*2000(?:\.0+)?"
_IN_INCH_LIMITS = (
    r"0*(?:0\.(?:0[4-9]|[1-9])[0-9]*|(?:[1-9]|[1-6][0-9]|7[0-7])(?:\.[0-9]+)?"
    r"|78(?:\.(?:[0-6][0-9]*|7(?:[0-3][0-9]*|40*)?))?)"
)


def _hint(value: str, names: list[str]) -> str:
    """'did you mean ...? ' for a word of the format written in another case or misspelt."""
    if value.lower() in names:
        return f"write it in lower case, {value.lower()!r}; "
    return suggest(value, names)


class SizeSpec(Custom):
    """A size in mm: a preset name (poker, poker-us, bridge, ...; a4, letter, a3), [w, h],
    {w:, h:}, "WxH" (mm), "WxHin" (inches) or one number for a square."""

    type_label = "a size (preset name or [width, height] in mm)"

    @classmethod
    def from_yaml(cls, value: Any, pos: Pos, ctx: Context) -> Any:
        if isinstance(value, str):
            if value in SIZE_PRESETS:
                return SIZE_PRESETS[value]
            m = _SIZE_TEXT.fullmatch(value)
            if m:
                w, h = float(m.group(1)), float(m.group(2))
                if m.group(3) == "in":
                    return _checked_inches(w, h, pos, ctx)
                return _checked_size(w, h, pos, ctx)
            names = list(SIZE_PRESETS)
            ctx.error(
                pos,
                f"unknown size {value!r}; {_hint(value, names)}use a preset "
                f'({", ".join(names)}), [width, height] or "WxH" in mm ("WxHin" in inches)',
            )
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
        if isinstance(value, YSeq) and any(isinstance(v, str) for v in value):
            ctx.error(
                pos,
                f"[{', '.join(map(str, value))}] is not a size: write [width, height] as numbers "
                "of millimetres, without a unit (42 cm is 420), e.g. [420, 297]",
            )
            return INVALID
        ctx.error(pos, f"expected a size such as poker or [63, 88], found {describe(value)}")
        return INVALID

    @classmethod
    def json_schema(cls) -> dict[str, Any]:
        low, high = SIZE_LIMITS
        side = {"type": "number", "minimum": low, "maximum": high}
        return {
            "anyOf": [
                {"enum": list(SIZE_PRESETS)},
                {
                    "type": "string",
                    "pattern": rf"^({_IN_SIZE_LIMITS}) *[xX×] *({_IN_SIZE_LIMITS}) *(mm)?$",
                },
                {
                    "type": "string",
                    "pattern": rf"^({_IN_INCH_LIMITS}) *[xX×] *({_IN_INCH_LIMITS}) *in$",
                },
                side,
                {"type": "array", "items": side, "minItems": 2, "maxItems": 2},
                {
                    "type": "object",
                    "properties": {"w": side, "h": side},
                    "required": ["w", "h"],
                    "additionalProperties": False,
                },
            ],
            "description": 'millimetres: a preset name, [width, height], {w:, h:} or "WxH"; '
            'inches: "WxHin"',
        }


def _checked_size(w: float, h: float, pos: Pos, ctx: Context) -> Any:
    low, high = SIZE_LIMITS
    if not (low <= w <= high and low <= h <= high):
        ctx.error(pos, f"a size of {w:g}x{h:g} mm is outside {low:g}..{high:g} mm")
        return INVALID
    return Size(w, h)


def _checked_inches(w: float, h: float, pos: Pos, ctx: Context) -> Any:
    low, high = INCH_LIMITS
    if not (low <= w <= high and low <= h <= high):
        ctx.error(pos, f"a size of {w:g}x{h:g} in is outside {low:g}..{high:g} in")
        return INVALID
    return inches(w, h)


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
            if _HEX.fullmatch(value):
                v = value.lower()
                return "#" + "".join(c * 2 for c in v[1:]) if len(v) == 4 else v
            if value in NAMED_COLORS:
                return NAMED_COLORS[value]
        hint = _hint(value, list(NAMED_COLORS)) if isinstance(value, str) else ""
        ctx.error(
            pos,
            f'expected a colour such as "#1f4e9c" or one of {", ".join(NAMED_COLORS)}, '
            f"found {describe(value)}; {hint}(quote hex colours: # starts a YAML comment)",
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


class FamilyName(Custom):
    """A font family, by its plain name (NotoSans: the files NotoSans-Regular.ttf ... in
    fonts/ or among pnp's own), never a path."""

    type_label = "a font family name"
    PATTERN: ClassVar[str] = r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}"

    @classmethod
    def from_yaml(cls, value: Any, pos: Pos, ctx: Context) -> Any:
        if isinstance(value, str) and re.fullmatch(cls.PATTERN, value):
            return value
        ctx.error(
            pos,
            f"font family {value!r} must be a plain name such as NotoSans (the files "
            "NotoSans-Regular.ttf ... in fonts/), not a path",
        )
        return INVALID

    @classmethod
    def json_schema(cls) -> dict[str, Any]:
        return {"type": "string", "pattern": f"^{cls.PATTERN}$"}


# --- the colours of layout elements -------------------------------------------------------------

PALETTE = ("background", "accent", "text")  # a style's colours, as elements name them


@functools.cache
def css_colour_names() -> tuple[str, ...]:
    """The colour names an element may use: reportlab's (the CSS names and a few of its own),
    as pnp.typeset.faces reads them (tests/test_one_truth.py checks they are the same)."""
    from reportlab.lib import colors

    return tuple(
        sorted(
            name
            for name, value in vars(colors).items()
            if isinstance(value, colors.Color)
            and name.islower()
            and name.isalpha()
            and value.alpha == 1
        )
    )


def _any_case(word: str) -> str:
    return "".join(f"[{c}{c.upper()}]" if c.isalpha() else re.escape(c) for c in word)


class TextColour(Custom):
    """An element's ``color``: "#rrggbb", "#rgb", a colour name (any case, as CSS reads it),
    a colour of the face's style (background, accent, text) or a template rendered per card.
    Read when the game is validated (rule schema) and drawn, where the renderer reads it."""

    type_label = "a colour"
    none: ClassVar[bool] = False  # fill: and stroke: may be none (nothing drawn)
    templates: ClassVar[bool] = True  # a gradient's and a shadow's colours are no templates
    schema_def: ClassVar[bool] = True  # one definition in the JSON Schema, for every use

    @classmethod
    def from_yaml(cls, value: Any, pos: Pos, ctx: Context) -> Any:
        if isinstance(value, str | int | float) and not isinstance(value, bool):
            return str(value)  # what it names is checked with the game (validate.structure)
        ctx.error(pos, f'expected a colour such as "#1f4e9c", found {describe(value)}')
        return INVALID

    @classmethod
    def json_schema(cls) -> dict[str, Any]:
        names = [*css_colour_names(), *(["none"] if cls.none else [])]
        written = "|".join(_any_case(n) for n in names)
        return {
            "anyOf": [
                {"enum": [*PALETTE, *names]},
                {
                    "type": "string",
                    "pattern": rf"^\s*(#[0-9a-fA-F]{{3}}|#[0-9a-fA-F]{{6}}|{written})\s*$",
                },
                *([{"type": "string", "pattern": r"\{\{|\{%"}] if cls.templates else []),
            ],
            "description": 'a colour ("#rrggbb", a CSS name), '
            + ("none, " if cls.none else "")
            + "a colour of the style (background, accent, text)"
            + (" or a template" if cls.templates else ""),
        }


class FillColour(TextColour):
    """An element's ``fill`` or ``stroke``: as ``color``, or ``none`` for no fill or outline."""

    none = True


class PaintColour(TextColour):
    """A gradient's colour or a shadow's: as ``color``, but no template (validate.structure
    reads them as they are written)."""

    templates = False


# --- lengths on a face: boxes, lines, the corners of polygons ---------------------------------

MAX_LENGTH = 10_000.0  # mm from a face's corner (a board is at most 2000 mm)
MAX_PERCENT = 500.0  # % of a face's side: as far as MAX_LENGTH on a board of 2000 mm
Length = float | str  # mm, or "N%" of the face's width (x) or height (y)
_PERCENT = re.compile(r"-?[0-9]+(?:\.[0-9]+)?%")
# the JSON Schema's pattern says the limit too: a percentage from 0 to 500
_IN_PERCENT_LIMIT = r"0*(?:[0-9]{1,2}|[1-4][0-9]{2})(?:\.[0-9]+)?|0*500(?:\.0+)?"


def _length(value: Any) -> Length | None:
    """A length as written: a number of mm, or a percentage such as "10%"; None for anything
    else."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    if isinstance(value, str) and _PERCENT.fullmatch(value):
        return value
    return None


def _mm_like(value: Length) -> float:
    """How far a length reaches, in mm (a percentage of the largest face, 2000 mm)."""
    return float(value[:-1]) * 20 if isinstance(value, str) else value


def read_lengths(
    value: Any, pos: Pos, ctx: Context, label: str, positive: tuple[int, ...] = ()
) -> tuple[Length, ...] | Any:
    """The lengths of a YAML list (a box, a line, a point), checked: each a length within
    MAX_LENGTH (MAX_PERCENT), those at the indexes ``positive`` above 0; else INVALID."""
    parts = [_length(v) for v in value] if isinstance(value, YSeq) else [None]
    found = [p for p in parts if p is not None]
    if len(found) != len(parts):
        ctx.error(pos, f"expected {label}, found {describe(value)}")
        return INVALID
    if not all(math.isfinite(_mm_like(p)) and abs(_mm_like(p)) <= MAX_LENGTH for p in found):
        ctx.error(
            pos, f"a coordinate lies beyond {MAX_LENGTH:g} mm (or {MAX_PERCENT:g} %) of the face"
        )
        return INVALID
    if any(_mm_like(found[i]) <= 0 for i in positive):
        ctx.error(pos, "a box needs a positive width and height")
        return INVALID
    return tuple(found)


def length_schema(positive: bool = False) -> dict[str, Any]:
    """A length in the JSON Schema, with the limits :func:`read_lengths` applies."""
    if positive:
        number = {"type": "number", "exclusiveMinimum": 0, "maximum": MAX_LENGTH}
        percent = rf"^(?=[0-9.]*[1-9])({_IN_PERCENT_LIMIT})%$"
    else:
        number = {"type": "number", "minimum": -MAX_LENGTH, "maximum": MAX_LENGTH}
        percent = rf"^-?({_IN_PERCENT_LIMIT})%$"
    return {"anyOf": [number, {"type": "string", "pattern": percent}]}


class Box(Custom):
    """A rectangle [x, y, width, height] from the top-left corner of the face: each value in mm,
    or a percentage of the face's width (x, width) or height (y, height) such as "10%"."""

    type_label = "[x, y, width, height] in mm or %"

    @classmethod
    def from_yaml(cls, value: Any, pos: Pos, ctx: Context) -> Any:
        label = "a box [x, y, width, height] (mm or %)"
        if not isinstance(value, YSeq) or len(value) != 4:
            ctx.error(pos, f"expected {label}, found {describe(value)}")
            return INVALID
        return read_lengths(value, pos, ctx, label, positive=(2, 3))

    @classmethod
    def json_schema(cls) -> dict[str, Any]:
        corner, side = length_schema(), length_schema(positive=True)
        return {
            "type": "array",
            "prefixItems": [corner, corner, side, side],
            "items": False,
            "minItems": 4,
            "description": '[x, y, width, height] in mm (or "N%" of the face) from the top-left',
        }


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
FamilyT = Annotated[str, FamilyName]
TextColourT = Annotated[str, TextColour]
FillColourT = Annotated[str, FillColour]
PaintColourT = Annotated[str, PaintColour]
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


class SheetSource:
    """``Annotated[list[T], SheetSource]``: the list may instead name a spreadsheet, whose rows
    pnp/content/sheets reads in its place before conversion; this marks the JSON Schema."""

    schema: ClassVar[dict[str, Any]] = {
        "anyOf": [
            {"type": "string", "pattern": sheet_file_pattern()},
            {
                "type": "object",
                "properties": {"file": {"type": "string"}, "sheet": {"type": "string"}},
                "required": ["file"],
                "additionalProperties": False,
            },
        ],
        "description": "a spreadsheet in the game's folder, one row an item "
        "(`pnp docs spreadsheets`)",
    }
