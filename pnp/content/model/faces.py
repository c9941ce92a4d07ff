"""What gets printed: faces, cards and their outcome tables, decks, token sets, boards, and the
layouts (elements, styles, borders) and inline icons that draw them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, ClassVar, Literal

from ..schema import Context, Located, fld
from .elements import Element
from .text import Text
from .types import ColorT, FamilyT, SheetSource, SizeT


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
    art: str | None = fld(None, doc="image file (PNG, JPEG or SVG) relative to the game folder")
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
    size: SizeT | None = fld(None, doc="card size: a preset (poker, poker-us, ...) or [w, h]")
    layout: str | None = fld(None, doc="default layout of the fronts")
    back: Face | None = fld(None, doc="the back shared by every card without its own back")
    cards: Annotated[list[Card], SheetSource] = fld(
        default_factory=list,
        doc="the cards, in print order, or a spreadsheet (file or {file:, sheet:})",
    )
    tags: list[str] = fld(default_factory=list, doc="free labels")
    in_box: bool = fld(
        True,
        doc="false: the rulebook's component list leaves it out (a player aid of this "
        "copy's own), so no box: line need count it (rule box-unlisted)",
    )

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
    in_box: bool = fld(
        True,
        doc="false: the rulebook's component list leaves it out (a player aid of this "
        "copy's own), so no box: line need count it (rule box-unlisted)",
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
    font_family: FamilyT | None = fld(
        None,
        doc="the font family of this style's texts, for elements that name none (default: "
        "print.font)",
    )


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
    texts: dict[str, Text] = fld(
        default_factory=dict,
        doc="the layout's own words, translatable: texts.name in a template (a child's win)",
    )


@dataclass
class Icon(Located):
    """An inline icon, written {name} in text: a character of a font, or a small image."""

    label: ClassVar[str] = "an icon"

    glyph: str | None = fld(None, doc="the character(s) drawn for this icon, e.g. ₽")
    image: str | None = fld(None, doc="a PNG, JPEG or SVG drawn at the text's size")
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
    in_box: bool = fld(
        True,
        doc="false: the rulebook's component list leaves it out (a player aid of this "
        "copy's own), so no box: line need count it (rule box-unlisted)",
    )
    assumption: str | None = fld(
        None, doc="this copy's own choice where the rulebook is silent: why, or what it says"
    )
    tags: list[str] = fld(default_factory=list, doc="free labels")
    note: str = fld("", doc="comment for translators and designers")
