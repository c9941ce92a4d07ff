"""Model stage: the content format as typed dataclasses.

These classes *are* the format: the loader converts YAML into them through pnp/content/schema.py,
the JSON Schema published for editors is generated from them, and docs/format.md describes them.
Every object remembers its position (``pos``) and the positions of its fields (``at(name)``).
Lengths are millimetres; coordinates inside a card are measured from its top-left corner.

The format is split by part: ``text`` (multilingual text and plural forms), ``types`` (sizes,
colours, boxes, language codes), ``faces`` (faces, cards, decks, tokens, boards, layouts, icons),
``elements`` (the elements of layouts),
``tables`` (tables and the box's component list), ``scenarios`` (player ranges, tracks,
scenarios) and ``game`` (print settings, rules, the sections of a file, game.yaml, the Game).
Every public name is available from this package itself.
"""

from __future__ import annotations

from .elements import FAMILY_RE, Anchor, Element, Gradient, LineSpec, PointsSpec, Shadow
from .faces import (
    Board,
    Border,
    Card,
    Deck,
    Face,
    Icon,
    Layout,
    Outcome,
    Style,
    TokenSet,
)
from .game import (
    SECTION_NAMES,
    Game,
    GameFile,
    Invariant,
    PrintSettings,
    RuleSetting,
    Sections,
    SetupSheet,
)
from .scenarios import BoardRef, CardRef, DeckStep, DrawFrom, Filter, Players, Scenario, Track
from .tables import (
    BoxEntry,
    Column,
    Combinations,
    Covers,
    Deal,
    Dice,
    Row,
    Table,
    Total,
)
from .text import PLURAL_CATEGORIES, SOURCE, Text, plain
from .types import (
    NAMED_COLORS,
    Box,
    BoxT,
    Color,
    ColorT,
    SheetSource,
    SizeSpec,
    SizeT,
    resolve_box,
    valid_language,
)

__all__ = [
    "FAMILY_RE",
    "NAMED_COLORS",
    "PLURAL_CATEGORIES",
    "SECTION_NAMES",
    "SOURCE",
    "Anchor",
    "Board",
    "BoardRef",
    "Border",
    "Box",
    "BoxEntry",
    "BoxT",
    "Card",
    "CardRef",
    "Color",
    "ColorT",
    "Column",
    "Combinations",
    "Covers",
    "Deal",
    "Deck",
    "DeckStep",
    "Dice",
    "DrawFrom",
    "Element",
    "Face",
    "Filter",
    "Game",
    "GameFile",
    "Gradient",
    "Icon",
    "Invariant",
    "Layout",
    "LineSpec",
    "Outcome",
    "Players",
    "PointsSpec",
    "PrintSettings",
    "Row",
    "RuleSetting",
    "Scenario",
    "Sections",
    "SetupSheet",
    "Shadow",
    "SheetSource",
    "SizeSpec",
    "SizeT",
    "Style",
    "Table",
    "Text",
    "TokenSet",
    "Total",
    "Track",
    "plain",
    "resolve_box",
    "valid_language",
]
