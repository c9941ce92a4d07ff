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


@dataclass
class Filter(Located):
    """Selects cards of a deck by tag or by value."""

    label: ClassVar[str] = "a card filter"
    shorthand: ClassVar[str] = "tag"

    tag: str | None = fld(None, doc="cards carrying this tag")
    values: dict[str, int | float | str] = fld(
        default_factory=dict, doc="cards whose values match all of these"
    )
    mark: Text | None = fld(
        None,
        doc="how players recognise the cards it picks, printed in the setup steps instead of "
        'the tag and values (e.g. a mark: "{first}")',
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
