"""The custom scalar types of the format: sizes, colours and boxes on a face (with the helper
that turns a box into millimetres), and the check of a language code."""

from __future__ import annotations

import functools
import re
from typing import Annotated, Any, ClassVar

from babel import Locale, UnknownLocaleError

from ...core.findings import Pos
from ...core.units import CARD_SIZES, PAPERS, Size
from ..schema import INVALID, Context, Custom, describe
from ..suffixes import sheet_file_pattern
from ..yamlio import YMap, YSeq


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
