"""Every rule pnp reports, in one place: its id, default severity and one-line summary.

Importing this module registers them all, without importing the checks that use them, so a
worker process started fresh (spawn, forkserver) knows every rule id. docs/rules.md documents
each one and a test checks that both lists agree. A game can change a rule's severity
(``rules:`` in game.yaml).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import IntEnum, StrEnum


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"
    OFF = "off"


class Stage(IntEnum):
    """Where a rule's findings sit in the chain of causes: findings are listed stage by stage,
    so that what makes other findings happen comes first (see :data:`RULE_STAGES`)."""

    FILES = 0  # a file that cannot be read or parsed
    SHEETS = 1  # a spreadsheet, its sheets and its header row
    SCHEMA = 2  # a value of the wrong type, an unknown or missing key
    REFERENCES = 3  # a name or a file that does not exist
    RULES = 4  # every other rule, run on what could be read


@dataclass(frozen=True, slots=True)
class Rule:
    id: str
    severity: Severity
    summary: str
    stage: Stage = Stage.RULES


RULES: dict[str, Rule] = {}


def rule(rule_id: str, severity: Severity, summary: str) -> str:
    """Register a rule id and return it."""
    RULES[rule_id] = Rule(rule_id, severity, summary)
    return rule_id


def stage_of(rule_id: str) -> Stage:
    found = RULES.get(rule_id)
    return found.stage if found is not None else Stage.RULES


# loading and reading files
YAML_SYNTAX = rule("yaml-syntax", Severity.ERROR, "a file is not valid YAML")
YAML_DUPLICATE_KEY = rule("duplicate-key", Severity.ERROR, "a mapping has the same key twice")
YAML_LIMIT = rule(
    "yaml-limit", Severity.ERROR, "a file is too large, too deep or expands too many aliases"
)
FILE_ENCODING = rule("file-encoding", Severity.ERROR, "a file is not UTF-8 text")
SHEET = rule("sheet", Severity.ERROR, "a spreadsheet of cards, tokens or rows cannot be read")
SCHEMA = rule("schema", Severity.ERROR, "a value has the wrong type or a required key is missing")
UNQUOTED_COLOUR = rule(
    "unquoted-colour",
    Severity.ERROR,
    "a colour written #rrggbb without quotes: YAML reads it as a comment, the value as empty",
)
UNKNOWN_KEY = rule("unknown-key", Severity.WARNING, "a key the format does not know (a typo?)")
LANGUAGE_CODE = rule("language-code", Severity.ERROR, "a language code is not a real locale")
FALLBACK = rule(
    "fallback", Severity.INFO, "a text is printed in the source language for lack of a translation"
)
TEMPLATE = rule("template", Severity.ERROR, "a layout template cannot be rendered")
PATH_OUTSIDE = rule(
    "unsafe-path", Severity.ERROR, "a path leads outside the game's folder or fonts/"
)

# loading a game
DUPLICATE_ID = rule("duplicate-id", Severity.ERROR, "two things of the same kind share an id")
RULE_REASON = rule(
    "rule-reason", Severity.WARNING, "a game changes a rule's severity without saying why"
)
TEXT_LANGUAGE = rule(
    "text-language", Severity.WARNING, "a text is given in a language the game does not declare"
)

# structure: references, layouts, files
REFERENCE = rule("reference", Severity.ERROR, "a reference names something that does not exist")
LAYOUT_CYCLE = rule("layout-cycle", Severity.ERROR, "layouts extend each other in a circle")
ELEMENT_OUTSIDE = rule(
    "element-outside",
    Severity.WARNING,
    "a layout element's box reaches past its face: the part outside is clipped",
)
UNPRINTED_TEXT = rule(
    "unprinted-text",
    Severity.WARNING,
    "a face sets a text that its layout prints nowhere: it appears on no sheet",
)
UNREAD_VALUE = rule(
    "unread-value",
    Severity.WARNING,
    "a face sets a value that nothing prints or reads: a misspelt key, or a leftover",
)
IGNORED_STYLE = rule(
    "ignored-style",
    Severity.WARNING,
    "a face's style gives a colour that its layout draws nowhere: it has no effect",
)
ELEMENT_HIDES_TEXT = rule(
    "element-hides-text", Severity.WARNING, "an image or filled shape is drawn over a text box"
)
ELEMENT_OVERLAP = rule(
    "element-overlap",
    Severity.WARNING,
    "two tracks or tables are drawn over each other: their numbers print on top of each other",
)
CUT_CLEARANCE = rule(
    "cut-clearance",
    Severity.WARNING,
    "a text, track or table prints within 1.5 mm of its face's cut line (trim, circle, hexagon)",
)
SAFE_ZONE = rule(
    "safe-zone",
    Severity.ERROR,
    "pnp validate --for: a text, track or table lies outside a print-on-demand shop's safe zone",
)
POD_SIZE = rule(
    "pod-size",
    Severity.ERROR,
    "pnp validate --for: a deck's card size is none the print-on-demand shop prints",
)
POD_PRODUCT = rule(
    "pod-product",
    Severity.INFO,
    "pnp validate --for: a token set or board the print-on-demand shop has no product for",
)
PROFILE = rule("profile", Severity.ERROR, "a print-on-demand profile file is not valid")
TRACK_CELL = rule(
    "track-cell",
    Severity.WARNING,
    "a track's cells are smaller than a marker (print.min_track_cell, 8 mm by default)",
)
MISSING_FILE = rule("missing-file", Severity.ERROR, "an image or font file does not exist")
ART_RESOLUTION = rule(
    "art-resolution",
    Severity.WARNING,
    "an image prints below 150 dpi at its printed size: it looks blurred or blocky",
)
BAD_IMAGE = rule("bad-image", Severity.ERROR, "an image is not a usable PNG or JPEG")

# the box: component counts, setup tables
BOX_COUNT = rule(
    "box-count", Severity.ERROR, "the component list's count differs from the cards defined"
)
BOX_OVERLAP = rule(
    "box-overlap",
    Severity.WARNING,
    "two lines of the component list count the same components, not as a breakdown",
)
BOX_UNLISTED = rule(
    "box-unlisted",
    Severity.WARNING,
    "a deck, token set or board that no line of the component list counts",
)
SETUP_EXCEEDS = rule(
    "setup-exceeds-box", Severity.ERROR, "a setup table deals more than the box holds"
)
ROW_TOTAL = rule("row-total", Severity.ERROR, "a table row does not add up to its total")
CELL_TYPE = rule("table-cell", Severity.ERROR, "a table cell that must be a number is not one")

# tables and staged cards
COVERAGE = rule(
    "table-coverage",
    Severity.ERROR,
    "a dice, lookup or outcome table has a gap, an overlap or an impossible key",
)
TABLE_CARDS = rule(
    "table-cards",
    Severity.ERROR,
    "a table that lists cards says other copies or values than the cards themselves",
)
DUPLICATE_ROW = rule(
    "duplicate-row",
    Severity.ERROR,
    "a table read by its key has two rows for one key, or a table has the same row twice",
)
STAGES = rule("stages", Severity.ERROR, "a staged card does not have exactly its stage cards")

# scenarios
SCENARIO_DECK = rule(
    "scenario-deck",
    Severity.ERROR,
    "a scenario's card organisation cannot be done with the cards the box holds",
)
SCENARIO_START = rule(
    "scenario-start", Severity.ERROR, "a scenario's starting value lies outside its track"
)
SETUP_DEAL = rule(
    "setup-deal",
    Severity.ERROR,
    "a scenario's set-up cannot be dealt for some player count or difficulty: a hand larger "
    "than the deck, cards to reveal that are not there, a split into 0 piles or into empty ones",
)
SCENARIO_PLAYERS = rule(
    "scenario-players", Severity.ERROR, "a scenario allows player counts the game does not"
)
PLAYER_RANGE = rule(
    "player-range",
    Severity.ERROR,
    "a players table, scenario draw or per-player component disagrees with the game's players",
)

# numbers written twice
TEXT_NUMBER = rule(
    "text-number",
    Severity.WARNING,
    "a text naming a track writes a space the track does not have, or one short of its end",
)
DRAW_TABLE = rule(
    "draw-table",
    Severity.WARNING,
    "a scenario draws from a deck other numbers than the table that deals it, for some counts",
)

# invariants a game declares
INVARIANT = rule("invariant", Severity.ERROR, "a rule the game declares for its data fails")
INVARIANT_EXPR = rule(
    "invariant-expression", Severity.ERROR, "an invariant's expression cannot be evaluated"
)
INVARIANT_MESSAGE = rule(
    "invariant-message",
    Severity.WARNING,
    "a placeholder of an invariant's message names nothing the checked item has",
)

# texts in every language
MISSING_TEXT = rule(
    "missing-text", Severity.WARNING, "a text has no version in a language the game declares"
)
PLACEHOLDER = rule(
    "placeholder", Severity.WARNING, "a card whose text the rulebook does not publish"
)
ASSUMPTION = rule(
    "assumption",
    Severity.INFO,
    "a card, token, board or table the rulebook does not give: this copy's marked assumption",
)
TOKENS_KEPT = rule(
    "translation-tokens", Severity.ERROR, "a translation dropped or added a {placeholder}"
)
MARKUP_KEPT = rule(
    "translation-markup",
    Severity.WARNING,
    "a translation changed bold/italic marks or its paragraph breaks",
)
TRANSLATION_NUMBERS = rule(
    "translation-numbers",
    Severity.WARNING,
    "a translation has other numbers than its source text (35 coins in one, 36 in the other)",
)
TRANSLATION_SENTENCES = rule(
    "translation-sentences",
    Severity.WARNING,
    "a translation has more or fewer sentences than its source text (one dropped or added)",
)
TRANSLATION_DICE = rule(
    "translation-dice",
    Severity.ERROR,
    "a translation dropped, added or changed a dice notation (2D6, D66, d10) of its source",
)
OVERFLOW = rule("text-overflow", Severity.ERROR, "a text does not fit its box in a language")
GLYPH = rule("missing-glyph", Severity.ERROR, "no bundled font has a character of a text")
SCRIPT = rule(
    "script",
    Severity.ERROR,
    "a language's texts use a script no font covers, or one this installation cannot shape or "
    "lay out right to left",
)
FONT = rule("font", Severity.ERROR, "a font of the game cannot be loaded")
PRINTABLE = rule(
    "printable-area",
    Severity.ERROR,
    "faces or their crop marks reach into the margin the printer cannot print (--margin)",
)

# translation catalogs
PO_SYNTAX = rule(
    "po-syntax",
    Severity.ERROR,
    "a translation catalog (PO file) cannot be read, or GNU gettext (msgfmt -c) rejects it",
)
PO_WARNING = rule(
    "po-warning", Severity.WARNING, "GNU gettext (msgfmt -c) warns about a translation catalog"
)
PLURAL_FORMS = rule(
    "plural-forms",
    Severity.WARNING,
    "a catalog's Plural-Forms is not its language's: counted texts would take the wrong form",
)
UNTRANSLATABLE = rule(
    "untranslatable-text",
    Severity.WARNING,
    "a layout template or a card filter prints words or codes that no translation reaches",
)
INCONSISTENT_TERM = rule(
    "inconsistent-term",
    Severity.WARNING,
    "one source term is translated two ways in a catalog, or not as its glossary says",
)
PO_CONFLICT = rule(
    "translation-conflict",
    Severity.WARNING,
    "a text's inline YAML translation and its PO translation disagree",
)

# the stage of each rule that is not a plain rule (Stage.RULES): what reads files first
RULE_STAGES: dict[Stage, tuple[str, ...]] = {
    Stage.FILES: (
        YAML_SYNTAX,
        YAML_DUPLICATE_KEY,
        YAML_LIMIT,
        FILE_ENCODING,
        PATH_OUTSIDE,
        PO_SYNTAX,
        UNQUOTED_COLOUR,  # YAML read a comment where a value was meant
    ),
    Stage.SHEETS: (SHEET,),
    Stage.SCHEMA: (SCHEMA, UNKNOWN_KEY, LANGUAGE_CODE, DUPLICATE_ID, RULE_REASON),
    # a text in a language is a reference to the language game.yaml declares
    Stage.REFERENCES: (REFERENCE, LAYOUT_CYCLE, MISSING_FILE, BAD_IMAGE, FONT, TEXT_LANGUAGE),
}
for _stage, _ids in RULE_STAGES.items():
    for _id in _ids:
        RULES[_id] = replace(RULES[_id], stage=_stage)
