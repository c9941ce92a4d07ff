"""Layout elements: one thing drawn on a face (a text field, a template, an image, a track, a
table, a line, a polygon, a QR code, a coloured box), with the attributes several kinds share
(colours, opacity, gradients, shadows, how an image fits its box, a font family)."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Literal

from ...core.findings import Pos
from ..schema import INVALID, Context, Custom, Located, describe, fld
from ..yamlio import YSeq
from .types import (
    MAX_LENGTH,
    BoxT,
    FamilyName,
    FamilyT,
    FillColourT,
    Length,
    PaintColourT,
    TextColourT,
    length_schema,
    read_lengths,
)

_MAX_POINTS = 1000  # corners of one polygon


class LineSpec(Custom):
    """A straight line [x1, y1, x2, y2] from the face's top-left corner: mm, or "N%" of the
    face's width (x) or height (y)."""

    type_label = "a line [x1, y1, x2, y2] in mm or %"

    @classmethod
    def from_yaml(cls, value: Any, pos: Pos, ctx: Context) -> Any:
        if not isinstance(value, YSeq) or len(value) != 4:
            ctx.error(pos, f"expected a line [x1, y1, x2, y2] (mm or %), found {describe(value)}")
            return INVALID
        return read_lengths(value, pos, ctx, "a line [x1, y1, x2, y2] (mm or %)")

    @classmethod
    def json_schema(cls) -> dict[str, Any]:
        return {
            "type": "array",
            "items": length_schema(),
            "minItems": 4,
            "maxItems": 4,
            "description": '[x1, y1, x2, y2] in mm (or "N%" of the face) from the top-left',
        }


class PointsSpec(Custom):
    """The corners of a polygon, [[x, y], [x, y], [x, y], ...]: at least three."""

    type_label = "a list of points [[x, y], ...] in mm or %"

    @classmethod
    def from_yaml(cls, value: Any, pos: Pos, ctx: Context) -> Any:
        label = "a list of at least 3 points [[x, y], [x, y], [x, y]] (mm or %)"
        if not isinstance(value, YSeq) or not 3 <= len(value) <= _MAX_POINTS:
            ctx.error(pos, f"expected {label}, at most {_MAX_POINTS}; found {describe(value)}")
            return INVALID
        points = []
        for i, item in enumerate(value):
            where = value.item_pos(i)
            if not isinstance(item, YSeq) or len(item) != 2:
                ctx.error(where, f"expected a point [x, y] (mm or %), found {describe(item)}")
                return INVALID
            point = read_lengths(item, where, ctx, "a point [x, y] (mm or %)")
            if point is INVALID:
                return INVALID
            points.append(point)
        return tuple(points)

    @classmethod
    def json_schema(cls) -> dict[str, Any]:
        point = {"type": "array", "items": length_schema(), "minItems": 2, "maxItems": 2}
        return {
            "type": "array",
            "items": point,
            "minItems": 3,
            "maxItems": _MAX_POINTS,
            "description": '[[x, y], ...] in mm (or "N%" of the face) from the top-left',
        }


_LineT = Annotated[tuple[Length, ...], LineSpec]
_PointsT = Annotated[tuple[tuple[Length, ...], ...], PointsSpec]


Anchor = Literal[
    "center",
    "top",
    "bottom",
    "left",
    "right",
    "top-left",
    "top-right",
    "bottom-left",
    "bottom-right",
]
FAMILY_RE = re.compile(FamilyName.PATTERN)  # a font family's name, as the loader reads it
_MAX_STOPS = 16


@dataclass
class Gradient(Located):
    """A linear gradient: colours spread evenly from one side of the box (or polygon) to the
    other, in the direction ``angle``."""

    label: ClassVar[str] = "a gradient"

    colors: list[PaintColourT] = fld(
        doc="two or more colours, in order: '#rrggbb', a colour name, or the style's "
        "background, accent or text",
    )
    angle: float = fld(
        90.0,
        doc="the direction it runs, degrees clockwise from left-to-right: 0 left to right, "
        "90 top to bottom",
    )

    def check(self, ctx: Context) -> None:
        if not 2 <= len(self.colors) <= _MAX_STOPS:
            ctx.error(
                self.at("colors"),
                f"a gradient needs 2 to {_MAX_STOPS} colours, from the first to the last; "
                f"it has {len(self.colors)}",
            )
        if not math.isfinite(self.angle):
            ctx.error(self.at("angle"), "a gradient's angle is a number of degrees, e.g. 90")


@dataclass
class Shadow(Located):
    """A drop shadow: the element's text drawn once more, offset and in the shadow's colour,
    under the text."""

    label: ClassVar[str] = "a shadow"

    color: PaintColourT = fld(
        "#000000", doc="the shadow's colour (a colour, or the style's text, ...)"
    )
    dx: float = fld(
        0.3,
        doc="how far right of the text it falls, mm (negative: left)",
        bounds=(-20, 20),
        unit="mm",
    )
    dy: float = fld(
        0.3,
        doc="how far below the text it falls, mm (negative: above)",
        bounds=(-20, 20),
        unit="mm",
    )
    opacity: float = fld(0.5, doc="0 (invisible) to 1 (opaque)", bounds=(0, 1))


@dataclass
class Element(Located):
    """One thing drawn on a face: a text field, a template, an image, a coloured box, a line
    or a polygon."""

    label: ClassVar[str] = "a layout element"

    KINDS: ClassVar[tuple[str, ...]] = (
        "field",
        "template",
        "image",
        "track",
        "table",
        "line",
        "points",
        "qr",
    )

    box: BoxT | None = fld(
        None,
        doc="[x, y, width, height] in mm from the face's top-left corner (not for lines "
        "and polygons)",
    )
    name: str | None = fld(
        None, doc="element name: a child layout's element of the same name replaces it"
    )
    drop: bool = fld(
        False, doc="with name: remove the parent layout's element of that name (nothing else)"
    )
    field: str | None = fld(
        None, doc="face text to draw: title, subtitle, text, ... or a fields key"
    )
    template: str | None = fld(
        None, doc="text built from face values, e.g. '{{ values.cost }} {coin}' (Jinja2, sandboxed)"
    )
    image: str | None = fld(
        None,
        doc="'art' for the face's art, or an image file of the game; may be a template, "
        "e.g. '{{ values.pic }}'",
    )
    track: str | None = fld(None, doc="draw this track (tracks:) as a row of numbered cells")
    table: str | None = fld(None, doc="draw this table (tables:) inside the box")
    line: _LineT | None = fld(
        None, doc="a straight line [x1, y1, x2, y2] (mm or %), drawn with stroke: and stroke_width:"
    )
    points: _PointsT | None = fld(
        None,
        doc="a polygon's corners [[x, y], ...] (mm or %), filled with fill:, outlined with stroke:",
    )
    rotate: float = fld(
        0.0,
        doc="degrees clockwise about the centre of the box (of a line or polygon: of its "
        "extent); text turns with its box",
    )
    direction: Literal["horizontal", "vertical", "around"] = fld(
        "horizontal",
        doc="track direction; vertical tracks count upwards; around runs clockwise along the "
        "box's edge from its top-left corner",
    )
    font: Literal["regular", "bold", "italic", "bolditalic"] = fld("regular", doc="font face")
    size: float = fld(9.0, doc="font size in points", bounds=(1, 200), unit="pt")
    min_size: float | None = fld(
        None,
        doc="smallest size the text may shrink to (default: 70 %)",
        bounds=(1, 200),
        unit="pt",
    )
    leading: float = fld(1.2, doc="line height as a multiple of the size", bounds=(0.5, 5))
    align: Literal["left", "center", "right", "justify"] = fld("left", doc="horizontal alignment")
    valign: Literal["top", "middle", "bottom"] = fld("top", doc="vertical alignment")
    color: TextColourT | None = fld(
        None,
        doc="text colour: a colour, 'accent' / 'background' / 'text' of the style, or a template",
    )
    fill: FillColourT | None = fld(
        None, doc="box or polygon background: a colour, 'accent', 'background', none, or a template"
    )
    stroke: FillColourT | None = fld(None, doc="outline or line colour, as fill:")
    stroke_width: float = fld(0.3, doc="outline or line width in mm", bounds=(0, 50), unit="mm")
    radius: float = fld(
        0.0,
        doc="corner radius in mm: of a fill, outline, gradient or image",
        bounds=(0, MAX_LENGTH),
        unit="mm",
    )
    padding: float = fld(
        0.0, doc="space between the box edge and its text, mm", bounds=(0, 500), unit="mm"
    )
    fit: Literal["shrink", "none", "cover", "contain", "stretch"] | None = fld(
        None,
        doc="a text: shrink (to min_size) or none; an image: cover (fill the box, cropped), "
        "contain (whole, inside the box) or stretch (fill the box, distorted)",
    )
    anchor: Anchor | None = fld(
        None,
        doc="an image: the part kept by cover, or where contain places it: center, top, "
        "bottom, left, right, top-left, top-right, bottom-left, bottom-right",
    )
    font_family: FamilyT | None = fld(
        None,
        doc="the font family of this element's text (a track's numbers), from the content "
        "root's fonts/ or pnp's own, e.g. DejaVuSans (default: the style's, else print.font)",
    )
    opacity: float | None = fld(
        None,
        doc="0 (invisible) to 1 (opaque): the element's fill, outline, image or text",
        bounds=(0, 1),
    )
    gradient: Gradient | None = fld(
        None, doc="a linear gradient filling the box or polygon (instead of fill:)"
    )
    shadow: Shadow | None = fld(None, doc="a drop shadow under the element's text")
    qr: str | None = fld(
        None,
        doc="draw a QR code of this text (a web address, e.g. the rules), in the box; may be "
        "a template, e.g. 'https://example.org/{{ lang }}/rules'",
    )
    qr_level: Literal["L", "M", "Q", "H"] = fld(
        "M", doc="QR error correction: L 7 %, M 15 %, Q 25 %, H 30 % of the code may be damaged"
    )
    numbers: Literal["upright", "outward"] = fld(
        "upright",
        doc="a track around its box: numbers upright, or turned to face outwards, each side "
        "readable from its own edge of the board",
    )
    depth: float | None = fld(
        None,
        doc="a track around its box: how far its cells reach in from the box's edge, mm "
        "(default: about square cells)",
        bounds=(0, 500),
        unit="mm",
        above=True,
    )
    hyphenate: bool | None = fld(
        None, doc="hyphenate by language (default: yes for text, flavor and footer, no for titles)"
    )
    when: str | None = fld(None, doc="draw only when this face field is present")

    def check(self, ctx: Context) -> None:
        kinds = [k for k in self.KINDS if getattr(self, k) is not None]
        if len(kinds) > 1:
            ctx.error(self.pos, f"an element draws one thing; it has {' and '.join(kinds)}")
        if self.drop:
            self._check_drop(ctx)
            return
        self._check_shape(ctx)
        if self.min_size is not None and self.min_size > self.size:
            ctx.error(self.at("min_size"), "min_size is larger than size")
        self._check_fit(ctx)
        self._check_paint(ctx)
        self._check_around(ctx)

    def _draws(self) -> str:
        """What a message calls what it draws: 'a text', 'an image', 'a track'..."""
        kind = next((k for k in self.KINDS if getattr(self, k) is not None), None)
        return {
            None: "a box",
            "field": "a text",
            "template": "a text",
            "image": "an image",
            "points": "a polygon",
            "qr": "a QR code",
        }.get(kind, f"a {kind}")

    def _check_fit(self, ctx: Context) -> None:
        """fit: shrink / none for a text, cover / contain / stretch (and anchor:) for an
        image."""
        images = ("cover", "contain", "stretch")
        if self.fit in images and self.image is None:
            ctx.error(
                self.at("fit"),
                f"fit: {self.fit} says how an image fills its box, but this element draws "
                f"{self._draws()}: a text takes fit: shrink or none; remove it, or add image:",
            )
        elif self.fit in ("shrink", "none") and self.image is not None:
            ctx.error(
                self.at("fit"),
                f"fit: {self.fit} is for a text; an image takes fit: cover (fills the box, "
                "cropped), contain (whole, inside the box) or stretch",
            )
        if self.anchor is not None and self.image is None:
            ctx.error(
                self.at("anchor"),
                f"anchor: places an image in its box, but this element draws {self._draws()}; "
                "remove it",
            )
        elif self.anchor is not None and self.fit == "stretch":
            ctx.error(
                self.at("anchor"),
                "fit: stretch fills the whole box, so anchor: has nothing to place; "
                "remove it, or use fit: contain or cover",
            )

    def _check_paint(self, ctx: Context) -> None:
        """A gradient and a shadow: where they can be drawn (opacity's bounds, a font family's
        name: read with their values)."""
        if self.gradient is not None and (self.fill is not None or self.line is not None):
            what = "fill:" if self.fill is not None else "a line (it has no fill)"
            ctx.error(
                self.at("gradient"),
                f"a gradient fills the box in place of fill:; this element has {what}: "
                "keep one of them",
            )
        if self.shadow is not None and self.field is None and self.template is None:
            ctx.error(
                self.at("shadow"),
                f"shadow: is drawn under a text, but this element draws {self._draws()}; "
                "remove it, or put it on the element of the text",
            )

    def _check_around(self, ctx: Context) -> None:
        """numbers: and depth: belong to a track around its box."""
        around = self.direction == "around"
        if around and self.track is None:
            ctx.error(
                self.at("direction"),
                f"direction: around runs a track around its box, but this element draws "
                f"{self._draws()}; add track:, or remove direction:",
            )
        for name in ("numbers", "depth"):
            if self.given(name) and not around:
                ctx.error(
                    self.at(name),
                    f"{name}: is for a track drawn around its box (direction: around); "
                    "remove it, or add direction: around",
                )

    def _check_drop(self, ctx: Context) -> None:
        if not self.name:
            ctx.error(self.at("drop"), "drop: true needs the name: of the element to remove")
        others = sorted(set(self.fpos) - {"name", "drop"})
        if others:
            ctx.error(
                self.at(others[0]),
                f"an element with drop: true removes the parent's element {self.name!r}; it "
                f"draws nothing, so {', '.join(others)} has no use: remove it, or drop: true",
            )

    def _check_shape(self, ctx: Context) -> None:
        """Where the element is drawn: a box, or the points of a line or polygon."""
        shaped = self.line is not None or self.points is not None
        if shaped and self.box is not None:
            what = "line" if self.line is not None else "points"
            ctx.error(
                self.at("box"),
                f"a {'line' if what == 'line' else 'polygon'} is placed by its {what}: alone; "
                "remove box:",
            )
        elif not shaped and self.box is None and "box" not in self.fpos:
            ctx.error(self.pos, "a layout element needs 'box' (or line: / points:); add it")
        if self.line is not None and self.fill is not None:
            ctx.error(self.at("fill"), "a line has no fill: give its colour with stroke:")
