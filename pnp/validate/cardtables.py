"""A table that lists cards says what their cards say, and lists them all (rule ``table-cards``).

A table one of whose columns names a card in every row (by id, or by its title in the source
language), all of one deck or token set, repeats facts of those cards: a column ``copies`` (or
``count``) is each card's copies, and a column named like a value every one of those cards has
(``rank``) is that value. Where the table and the card disagree, one of them is wrong.
"""

from __future__ import annotations

from typing import Any

from ..content.model import Card, Deck, Game, Table, Text, TokenSet, plain
from ..core.rules import TABLE_CARDS
from .box import row_name
from .context import CheckContext, check

COPIES = ("copies", "count")
# a table that lists this many cards of a deck, and misses at most a quarter as many, is taken
# for a list of the whole deck
MIN_LISTED = 4


@check
def card_tables(game: Game, ctx: CheckContext) -> None:
    owners = game.owners()
    for table in game.tables.values():
        if len(table.cells) < 2 or len(table.columns) < 2:
            continue
        for col in table.columns:
            named = _named(game, table, col.id, owners)
            if named is not None:
                _compare(game, table, col.id, named, ctx)
                _missing(game, table, named, owners, ctx)
                break


def listed(game: Game) -> list[tuple[Table, set[str]]]:
    """Each table that lists cards (the one ``table-cards`` compares), with the ids of the
    cards it lists."""
    owners = game.owners()
    out: list[tuple[Table, set[str]]] = []
    for table in game.tables.values():
        if len(table.cells) < 2 or len(table.columns) < 2:
            continue
        for col in table.columns:
            named = _named(game, table, col.id, owners)
            if named is not None:
                out.append((table, {c.id for c in named}))
                break
    return out


def _named(game: Game, table: Table, cid: str, owners: list[Deck | TokenSet]) -> list[Card] | None:
    """The card each row names in column ``cid``, all of one deck; None when some row names
    none (or the cards are of several decks)."""
    src = game.source_language
    for owner in owners:
        by_name: dict[str, Card] = {}
        for card in owner.cards:
            by_name.setdefault(card.id, card)
            if card.title is not None:
                by_name.setdefault(str(plain(card.title, src)), card)
        found = [by_name.get(_said(cells.get(cid), src)) for cells in table.cells]
        if all(c is not None for c in found):
            return [c for c in found if c is not None]
    return None


def _said(value: Any, src: str) -> str:
    if isinstance(value, Text):
        return str(plain(value, src))
    return str(value) if isinstance(value, str) else "\x00"


def _compare(game: Game, table: Table, cid: str, cards: list[Card], ctx: CheckContext) -> None:
    for other in table.columns:
        if other.id == cid:
            continue
        if other.id in COPIES:
            field = "copies"
        elif all(other.id in c.values for c in cards):
            field = other.id
        else:
            continue
        for r, card in enumerate(cards):
            want = card.copies if field == "copies" else card.values[field]
            got = table.cells[r].get(other.id)
            if _same(got, want):
                continue
            ctx.add(
                TABLE_CARDS,
                table.cell_pos[r].get(other.id, table.pos),
                f"table {table.id}, row {row_name(game, table, r)}: the table says {field} "
                f"{got!r}, card {card.id} says {want!r} (at {card.pos}): make them agree",
            )


def _missing(
    game: Game, table: Table, named: list[Card], owners: list[Deck | TokenSet], ctx: CheckContext
) -> None:
    """A table listing nearly every card of a deck lists them all: a row or two short is a
    row deleted, or overwritten by a copy of another."""
    ids = {c.id for c in named}
    owner = next((o for o in owners if any(c.id in ids for c in o.cards)), None)
    if owner is None:
        return
    left = [c for c in owner.cards if c.id not in ids]
    if not left or len(ids) < MIN_LISTED or len(left) > len(ids) // 4:
        return
    names = ", ".join(
        f"{plain(c.title, game.source_language) if c.title else c.id} ({c.id})" for c in left
    )
    ctx.add(
        TABLE_CARDS,
        table.at("rows") if table.given("rows") else table.pos,
        f"table {table.id} lists {len(ids)} of the {len(owner.cards)} cards of {owner.id}, "
        f"but not {names}: add the missing rows",
    )


def _same(got: Any, want: Any) -> bool:
    if isinstance(got, Text):
        got = next(iter(got.values.values()), "")
    if isinstance(got, int | float) and isinstance(want, int | float):
        return bool(got == want)
    return str(got).strip() == str(want).strip()
