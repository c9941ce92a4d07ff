"""What would protect a fact the audit found unprotected: a built-in rule the game can give what
it needs, a reference (write the number once), or the game's own invariant."""

from __future__ import annotations

import re

from ...content.model import DrawFrom, Game, Table
from ...content.records import key_column
from ...content.refs import player_counts
from ..cardtables import listed
from .facts import Mutation

# what protects each kind of fact, when nothing more precise is known
HINTS = {
    "count": "box-count — a line of the component list (box:) that counts it",
    "cell": "row-total / table-coverage — a table total (total: ... equals:), a covers: range, "
    "or an invariant on the table",
    "number": "invariant — one relating it to the numbers it depends on (`pnp docs rules`)",
    "reference": "invariant — a rule that names what must be there (nothing built-in can say "
    "which of two ids a line means)",
    "item": "invariant — one on the list (no built-in rule needs this item)",
    "text": "reference — print the number from the data it repeats, and give the text in every "
    "language (translation-numbers)",
}

_CARD_COPIES = re.compile(r"^(decks|tokens)\.([^.]+)\.(cards|tokens)\[\d+\]\.copies$")
_CARD_ITEM = re.compile(r"^(decks|tokens)\.([^.]+)\.(cards|tokens)\[\d+\]$")
_ROW_CELL = re.compile(r"^tables\.([^.]+)\.rows\[(\d+)\](?:\[(\d+)\]|\.([^.\[]+))$")
_ROW = re.compile(r"^tables\.([^.]+)\.rows\[\d+\]$")
_TRACK = re.compile(r"^tracks\.([^.]+)\.(min|max|start)$")
_STEP_COUNT = re.compile(r"^scenarios\.([^.]+)\.cards\[\d+\]\.(draw|deal|reveal|piles)")
_STEP_AT = re.compile(r"^scenarios\.([^.]+)\.cards\[(\d+)\]\.(?:draw|deal|reveal)(?:\.\d+)?$")
_VALUE = re.compile(r"\.values\.([^.\[]+)$")
_CARD_VALUE = re.compile(r"^(decks|tokens)\.([^.]+)\.(?:cards|tokens)\[(\d+)\]\.values\.([^.\[]+)$")
_START = re.compile(r"^scenarios\.[^.]+\.start\.[^.\[]+$")
_DIFFICULTY = re.compile(r"^scenarios\.[^.]+\.difficulties\.[^.]+\.values\.[^.\[]+$")

# the advice for a number nothing else in the game holds (see :func:`written_once`)
WRITTEN_ONCE = (
    "written once — nothing else in the game holds this number, so no rule can tell a wrong "
    "value from the right one: only a second source (a table that lists it: table-cards; a "
    "text that writes it) or an invariant of the game's own could"
)


def protect(m: Mutation, game: Game | None) -> str:
    """The rule or reference that would catch ``m``, as advice."""
    if game is not None:
        if written_once(m, game):
            return WRITTEN_ONCE
        for advice in (_counted(m, game), _tabled(m, game), _tracked(m), _stepped(m), _valued(m)):
            if advice:
                return advice
        if m.kind == "text":
            return _texted(m, game)
    return HINTS[m.kind]


def _counted(m: Mutation, game: Game) -> str:
    found = _CARD_COPIES.match(m.key) or _CARD_ITEM.match(m.key)
    if found is None:
        return ""
    owner = found.group(2)
    counted = any(
        owner in _ids(e.deck) or owner in _ids(e.tokens) or e.tag is not None for e in game.meta.box
    )
    if not counted:
        kind = "deck" if found.group(1) == "decks" else "tokens"
        return f"box-count — a box: line {{{kind}: {owner}, count: N}} (no line counts {owner})"
    return "box-count — a box: line for each card whose copies the rulebook gives"


def _keys_advice(table: Table) -> str:
    """What makes a table's rows complete: a covers: range for keys that are numbers, labels on
    a key column of words (each label needs its row)."""
    key = key_column(table) or (table.columns[0].id if table.columns else "")
    cells = [row.get(key) for row in table.cells]
    if all(isinstance(c, int) or (isinstance(c, str) and player_counts(c)) for c in cells):
        return f"table-coverage — covers: {{range: [first, last]}} on table {table.id}"
    return (
        f"table-coverage — labels: on column {key} of table {table.id}, one for each key (a "
        "label no row uses is a missing row)"
    )


def _tabled(m: Mutation, game: Game) -> str:
    row = _ROW.match(m.key)
    if row is not None:
        table = game.tables.get(row.group(1))
        if table is not None and table.covers is None:
            return _keys_advice(table)
        return HINTS["item"]
    cell = _ROW_CELL.match(m.key)
    if cell is None:
        return ""
    if m.kind == "reference":
        return HINTS["reference"]  # a code swapped for another: no number to take from a table
    table = game.tables.get(cell.group(1))
    if table is None or not table.columns:
        return HINTS["cell"]
    index = cell.group(3)
    column = (
        table.columns[int(index)] if index is not None and int(index) < len(table.columns) else None
    )
    cid = column.id if column is not None else cell.group(4) or ""
    if cid == table.columns[0].id and table.covers is None:
        return _keys_advice(table)
    col = table.column(cid)
    if col is not None and col.deals is not None and not table.total and _sums_to_players(table):
        return f"row-total — total: [{{of: [...], equals: players}}] on table {table.id}"
    if col is not None and (col.deals is not None or _drawn_by(game, table.id, cid)):
        return (
            f"invariant — one relating column {cid} of table {table.id} to the player count "
            "(the game's own rule, such as one more than the players: pnp cannot guess it)"
        )
    return (
        f"reference — take the scenario's or the text's number from table {table.id}, column "
        f"{cid} (one number, one place), or an invariant on the column"
    )


def _sums_to_players(table: Table) -> bool:
    """Whether the columns that deal add up to the player count in every row (one card each,
    as a roles table deals): a row total would hold them."""
    dealing = [c.id for c in table.columns if c.deals is not None and c.deals.per == "game"]
    if not dealing or key_column(table) != "players":
        return False
    for row in table.cells:
        cells = [row.get(c) for c in dealing]
        if not all(isinstance(c, int) for c in cells) or row.get("players") != sum(
            c for c in cells if isinstance(c, int)
        ):
            return False
    return True


def _drawn_by(game: Game, table_id: str, cid: str) -> bool:
    """Whether a scenario step takes a count from this column (``draw: {table:, column:}``)."""
    return any(
        isinstance(got, DrawFrom) and got.table == table_id and got.column == cid
        for sc in game.scenarios.values()
        for step in sc.cards
        for got in (step.draw, step.deal, step.reveal, step.piles)
    )


def _tracked(m: Mutation) -> str:
    found = _TRACK.match(m.key)
    if found is None:
        return ""
    return (
        f"scenario-start / track-cell — a scenario's start: on track {found.group(1)}, the track "
        "drawn on a board, or a text that prints its end by reference"
    )


def _stepped(m: Mutation) -> str:
    found = _STEP_COUNT.match(m.key)
    if found is None:
        return ""
    return (
        f"reference — take the {found.group(2)} of scenario {found.group(1)} from the setup "
        "table's column, so the table and the step cannot disagree"
    )


def _valued(m: Mutation) -> str:
    found = _VALUE.search(m.key)
    if found is None:
        return ""
    return (
        f"reference — print the value {{{found.group(1)}}} in the card's text (what a card "
        "prints is its value), or an invariant on the values"
    )


def _texted(m: Mutation, game: Game) -> str:
    lang = m.where[-1] if m.where else ""
    others = [x for x in game.languages if x != lang]
    if not others:
        return "reference — print the number from the data it repeats"
    return (
        "reference — print the number from the data it repeats (translation-numbers compares "
        f"it with the {', '.join(others)} text only where that text has it)"
    )


def _ids(value: str | list[str] | None) -> list[str]:
    if value is None:
        return []
    return [value] if isinstance(value, str) else list(value)


def written_once(m: Mutation, game: Game) -> bool:
    """Whether ``m`` changed a number that nothing else in the game holds or reads: a card's
    value that no table column, step filter or invariant names; a difficulty's value (its
    steps read it, and the dealt set-up already bounds it); a scenario's start on a track; a
    step's draw, deal or reveal from a deck no table deals; a
    track's min, max or start when no table covers the track; a cell
    of a table column that deals nothing, totals nothing, keys nothing and that no step draws
    by. A designer can mistype it and no check can know: the audit says so instead of
    suggesting a rule."""
    if m.kind not in ("number", "cell") or game.invariants:
        return False
    if _DIFFICULTY.match(m.key) or _START.match(m.key):
        return True
    track = _TRACK.match(m.key)
    if track is not None:
        return _track_alone(game, track.group(1))
    value = _CARD_VALUE.match(m.key)
    if value is not None:
        section, owner_id, index, name = value.groups()
        return _value_alone(game, section, owner_id, index, name)
    step = _STEP_AT.match(m.key)
    if step is not None:
        return _step_alone(game, step.group(1), int(step.group(2)))
    cell = _ROW_CELL.match(m.key)
    return cell is not None and _cell_alone(game, cell)


def _step_alone(game: Game, scenario_id: str, index: int) -> bool:
    """A step's draw, deal or reveal for a deck no table deals: nothing else holds it (a note
    that wrote it would have caught the change: text-number)."""
    scenario = game.scenarios.get(scenario_id)
    if scenario is None or index >= len(scenario.cards):
        return False
    deck = scenario.cards[index].deck
    homes = {c.id: d.id for d, c in game.all_cards()}
    for table in game.tables.values():
        for col in table.columns:
            deal = col.deals
            if deal is not None and (
                deck in (deal.deck, deal.tokens)
                or any(homes.get(c) == deck for c in _ids(deal.card))
            ):
                return False
    return True


def _track_alone(game: Game, track_id: str) -> bool:
    """A track no table reads: a board that draws it draws it from these very numbers, and a
    text that names its end is text-number's, so nothing else holds them."""
    found = game.tracks.get(track_id)
    return found is not None and not any(
        t.covers is not None and t.covers.track == found.id for t in game.tables.values()
    )


def _value_alone(game: Game, section: str, owner_id: str, index: str, name: str) -> bool:
    """A card's value that no table of cards lists and no step filters by."""
    owner = (game.decks if section == "decks" else game.tokens).get(owner_id)
    if owner is None or int(index) >= len(owner.cards):
        return False
    card = owner.cards[int(index)].id
    filters = [
        f.values
        for sc in game.scenarios.values()
        for step in sc.cards
        for f in (step.only, step.exclude)
        if f is not None and f.values
    ]
    named = any(
        card in cards and table.column(name) is not None for table, cards in listed(game)
    ) or any(name in values for values in filters)
    return not named


def _cell_alone(game: Game, cell: re.Match[str]) -> bool:
    """A cell of a column that deals, totals and keys nothing, and that no step draws by."""
    table = game.tables.get(cell.group(1))
    if table is None:
        return False
    index = cell.group(3)
    if index is not None and int(index) >= len(table.columns):
        return False
    cid = table.columns[int(index)].id if index is not None else (cell.group(4) or "")
    column = table.column(cid)
    if column is None or column.deals is not None or cid == key_column(table):
        return False
    if any(cid in total.of or cid == total.equals for total in table.total):
        return False
    return not _drawn_by(game, table.id, cid)
