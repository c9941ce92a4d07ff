"""Playing set-ups: player ranges, the tracks of the boards, and scenarios with their boards,
start values and card organisation steps."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from ...core.findings import Pos
from ..schema import INVALID, Context, Custom, Located, describe, fld
from ..yamlio import YMap
from .text import Text


@dataclass
class Players(Located):
    label: ClassVar[str] = "a player range"

    min: int = fld(doc="fewest players", bounds=(1, 100))
    max: int = fld(doc="most players", bounds=(1, 100))

    def check(self, ctx: Context) -> None:
        if self.min > self.max:
            ctx.error(self.pos, f"players: min ({self.min}) is above max ({self.max})")


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
    markers: str | list[str] | None = fld(
        None,
        doc="the token sets or tokens that mark it: each of its cells must hold one (track-cell)",
    )

    def check(self, ctx: Context) -> None:
        if self.max < self.min:
            ctx.error(self.at("max"), f"max ({self.max}) is below min ({self.min})")
        elif self.start is not None and not self.min <= self.start <= self.max:
            ctx.error(
                self.at("start"),
                f"start ({self.start}) is outside the track's range {self.min}..{self.max}; "
                "change start, or min/max",
            )


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


class DrawFrom(Custom):
    """``draw: {table: setup, column: events}``: how many to draw for each player count is
    that column's cell in the table's row for the count (found by the table's key column)."""

    type_label = "{table: ID, column: ID}"

    def __init__(self, table: str, column: str, pos: Pos, tpos: Pos, cpos: Pos) -> None:
        self.table = table
        self.column = column
        self.pos = pos
        self.tpos = tpos  # where table: and column: are written
        self.cpos = cpos
        # filled when the game is loaded (pnp.content.refs.link): players -> number, and why
        # some player count has none
        self.values: dict[int, int] = {}
        self.problem = ""

    def __repr__(self) -> str:
        return f"DrawFrom({self.table!r}, {self.column!r})"

    @staticmethod
    def accepts(value: Any) -> bool:
        return isinstance(value, YMap) and ("table" in value or "column" in value)

    @classmethod
    def from_yaml(cls, value: Any, pos: Pos, ctx: Context) -> Any:
        if isinstance(value, YMap):
            extra = [k for k in value if k not in ("table", "column")]
            table, column = value.get("table"), value.get("column")
            if not extra and isinstance(table, str) and isinstance(column, str):
                return cls(table, column, pos, value.value_pos("table"), value.value_pos("column"))
        ctx.error(
            pos,
            "a draw from a table is written {table: ID, column: ID} (the table's key column "
            f"gives the player counts), found {describe(value)}",
        )
        return INVALID

    @classmethod
    def json_schema(cls) -> dict[str, Any]:
        return {
            "type": "object",
            "properties": {"table": {"type": "string"}, "column": {"type": "string"}},
            "required": ["table", "column"],
            "additionalProperties": False,
            "description": "the numbers of a table's column, one per player count",
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
    card: str | None = fld(None, doc="the card (or token) with this id")
    mark: Text | None = fld(
        None,
        doc="how players recognise the cards it picks, printed in the setup steps instead of "
        'the tag and values (e.g. a mark: "{first}")',
    )


# how many cards a step draws, deals, reveals or splits into piles: a number, a mapping from
# player count to number, or an expression of ``players`` and the difficulty's values
Count = int | str | DrawFrom | dict[int, int]  # DrawFrom: {table: ID, column: ID}


@dataclass
class Difficulty(Located):
    """A difficulty level of a scenario: a name, and numbers its card steps use."""

    label: ClassVar[str] = "a difficulty level"

    id: str = fld("", doc="the level's id (the key under difficulties:)")
    name: Text | None = fld(None, doc="the level's name")
    values: dict[str, int] = fld(
        default_factory=dict,
        doc="whole numbers the card steps' expressions use, e.g. {epidemics: 4}",
    )


@dataclass
class DeckStep(Located):
    """One step of a scenario's card organisation, applied to one deck."""

    label: ClassVar[str] = "a card organisation step"

    deck: str = fld(doc="the deck this step works on")
    only: Filter | None = fld(None, doc="keep only the cards matching this filter")
    exclude: Filter | None = fld(None, doc="set aside the cards matching this filter")
    remove: list[CardRef] = fld(default_factory=list, doc="take these cards out of the game")
    draw: Count | None = fld(
        None,
        doc="draw this many at random: a number, a mapping players -> number, an "
        "expression of players, or {table: ID, column: ID} (a table's column by player count)",
    )
    order: list[CardRef] = fld(
        default_factory=list, doc="use exactly these cards, in this order (e.g. named plans)"
    )
    top: list[CardRef] = fld(default_factory=list, doc="put these cards on top, in order")
    bottom: list[CardRef] = fld(default_factory=list, doc="put these cards at the bottom")
    shuffle: bool = fld(True, doc="shuffle the deck (before top/bottom are placed)")
    deal: Count | None = fld(
        None,
        doc="deal this many cards to each player from the top of the deck: a number, a "
        "mapping players -> number, or an expression of players and the difficulty's values",
    )
    rounds: int = fld(
        1,
        doc="deal: again at the start of each of this many rounds, from what is left of the "
        "deck (a drafting game's hands); the deck must hold them all",
        bounds=(1, 1000),
    )
    reveal: Count | None = fld(
        None, doc="turn this many cards face up from the top of the deck (a market row, a display)"
    )
    piles: Count | None = fld(
        None, doc="split the deck into this many piles, as equal as can be, larger piles on top"
    )
    each_pile: Filter | None = fld(
        None,
        doc="shuffle one card matching this filter into each pile, from the cards of the deck "
        "that the step did not take (e.g. the epidemics)",
    )
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
    difficulties: dict[str, Difficulty] = fld(
        default_factory=dict,
        doc="difficulty levels, by id: each gives numbers its card steps use (epidemics: 4)",
    )
    story: Text | None = fld(None, doc="historical or thematic introduction")
    boards: list[BoardRef] = fld(default_factory=list, doc="boards and tiles on the table")
    start: dict[str, int] = fld(default_factory=dict, doc="starting values of tracks, by id")
    setup: Text | None = fld(None, doc="further set-up instructions")
    cards: list[DeckStep] = fld(default_factory=list, doc="card organisation, in order")
    rules: Text | None = fld(None, doc="special rules")
    victory: Text | None = fld(None, doc="victory conditions")
    defeat: Text | None = fld(None, doc="defeat conditions")
