"""The game as a whole: print settings, the setup sheet, rule settings and invariants, the
sections a content file may hold, game.yaml, and the assembled :class:`Game`."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import ClassVar, Literal

from ..schema import Context, Located, fld
from .faces import Board, Card, Deck, Icon, Layout, TokenSet
from .scenarios import Players, Scenario, Track
from .tables import BoxEntry, Table
from .text import Text
from .types import FamilyT, SizeT

# --- the game's own rules ----------------------------------------------------------------------


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


# --- print settings, setup sheet, the files of a game ------------------------------------------


@dataclass
class PrintSettings(Located):
    label: ClassVar[str] = "print settings"
    # keys the format no longer has, and what to write instead
    removed: ClassVar[dict[str, str]] = {
        "corner_radius": "print.corner_radius is no longer read: pnp's sheets are cut straight "
        "along their crop marks (round the corners with a corner punch after cutting), and a "
        "card's printed frame is rounded by its layout's border: {radius: 3}; remove it",
    }

    card_size: SizeT | None = fld(None, doc="default card size of every deck (poker)")
    gap: float = fld(0.0, doc="space between cards on a sheet, mm (0: shared cut lines)")
    font: FamilyT = fld("NotoSans", doc="font family from fonts/ (files Family-Regular.ttf ...)")
    fallback_fonts: list[FamilyT] = fld(
        default_factory=lambda: ["DejaVuSans"], doc="fonts tried for characters the font lacks"
    )
    min_track_cell: float = fld(
        8.0,
        doc="the smallest track cell a marker fits in, mm: a track drawn with narrower or "
        "shorter cells is a finding (track-cell)",
        bounds=(0, 100),
        unit="mm",
    )
    mirror: list[str] = fld(
        default_factory=list,
        doc="languages whose print mirrors the layouts' directions (a horizontal track counts "
        "from the right); 'rtl': every right-to-left language",
    )


@dataclass
class SetupSheet(Located):
    label: ClassVar[str] = "a setup sheet"

    title: Text | None = fld(None, doc="heading of the sheet")
    intro: Text | None = fld(None, doc="text printed before the tables")
    tables: list[str] = fld(default_factory=list, doc="tables to print, in order (default all)")
    notes: Text | None = fld(None, doc="text printed after the tables")


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
