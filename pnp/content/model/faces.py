"""What gets printed: faces, cards and their outcome tables, decks, token sets, boards, and the
layouts (elements, styles, borders) and inline icons that draw them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Literal

from ...core.findings import Pos
from ..schema import INVALID, Context, Custom, Located, describe, fld
from ..yamlio import YSeq
from .text import Text
from .types import (
    MAX_LENGTH,
    BoxT,
    ColorT,
    FillColourT,
    Length,
    SheetSource,
    SizeT,
    TextColourT,
    length_schema,
    read_lengths,
)


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
    copies: int = fld(1, doc="how many copies of this card the box holds", bounds=(0, 10_000))
    back: Face | None = fld(None, doc="the card's own back face (two-sided cards)")
    placeholder: bool = fld(
        False, doc="the rulebook does not publish this card's text: mark it as a placeholder"
    )
    assumption: str | None = fld(
        None, doc="this copy's own choice where the rulebook is silent: why, or what it says"
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
    cards: Annotated[list[Card], SheetSource] = fld(
        default_factory=list,
        doc="the cards, in print order, or a spreadsheet (file or {file:, sheet:})",
    )
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
    size: float = fld(
        25.0,
        doc="diameter (round), side (square) or corner-to-corner (hex), mm",
        bounds=(5, 200),
        unit="mm",
    )
    layout: str | None = fld(None, doc="layout of the fronts (default: a centred title)")
    back: Face | None = fld(None, doc="shared back; omit for single-sided tokens")
    tokens: Annotated[list[Card], SheetSource] = fld(
        default_factory=list, doc="the tokens, each with its copies, or a spreadsheet"
    )

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
    direction: Literal["horizontal", "vertical"] = fld(
        "horizontal", doc="track direction; vertical tracks count upwards"
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
        0.0, doc="corner radius of fill and outline in mm", bounds=(0, MAX_LENGTH), unit="mm"
    )
    padding: float = fld(
        0.0, doc="space between the box edge and its text, mm", bounds=(0, 500), unit="mm"
    )
    fit: Literal["shrink", "none"] = fld("shrink", doc="shrink the text until it fits")
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
        if self.color == "none":
            ctx.error(
                self.at("color"), "an icon's glyph needs a colour; remove color: for the text's own"
            )


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
    assumption: str | None = fld(
        None, doc="this copy's own choice where the rulebook is silent: why, or what it says"
    )
    tags: list[str] = fld(default_factory=list, doc="free labels")
    note: str = fld("", doc="comment for translators and designers")
