"""What the setup tables deal, laid out as a player would (``pnp setup`` for a game whose
tables, not a scenario's steps, say what to deal).

The cells of one table row are dealt together: cards a row names one per player (FABG's roles:
2 Boss, 1 Prolet, ... summing to the players) are shuffled and dealt one to each player; a
per-player cell deals that many cards to each player from its deck; any other cell that takes
from a deck draws that many cards at random into a face-down deck, the rest back in the box.
What the box cannot give is said in the zone (``short``), never raised.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from ...content.model import Game
from . import TableDeal
from .law import Law
from .odds import Chance, kinds


@dataclass
class TableZone:
    """Cards one table row lays out: a hand, a face-down deck, or what goes back in the box."""

    kind: str  # hand, deck, box
    table: str
    key: str  # the row as its first cell names it
    owner: str  # the deck the cards come from ("" for cards named from several decks)
    cards: list[str] = field(default_factory=list)
    index: int = 0  # the player of a hand (from 1)
    short: int = 0  # how many the box lacks
    law: Law | None = None  # what it may hold (a hand or deck dealt at random)


def _copies(game: Game, owner: str) -> list[str]:
    deck = game.decks.get(owner)
    return [c.id for c in deck.cards for _ in range(c.copies)] if deck is not None else []


def _owner_of(game: Game, cid: str) -> str:
    return next((d.id for d, c in game.all_cards() if c.id == cid), "")


def _in_box(game: Game) -> dict[str, int]:
    box: dict[str, int] = defaultdict(int)
    for _d, c in game.all_cards():
        box[c.id] += c.copies
    return box


def lay_out(game: Game, deals: list[TableDeal], players: int, seed: int) -> list[TableZone]:
    """The zones the table cells in ``deals`` lay out for ``players`` (the same seed deals the
    same cards)."""
    rng = random.Random(f"{game.id}/tables/{players}/{seed}")
    rows: dict[tuple[str, int], list[TableDeal]] = defaultdict(list)
    for d in deals:
        rows[(d.table, d.row)].append(d)
    zones: list[TableZone] = []
    box = _in_box(game)
    for cells in rows.values():
        named = [d for d in cells if d.cards and not d.each]
        if named and sum(d.count for d in named) == players:
            zones.extend(_roles(game, named, players, rng, box))
            cells = [d for d in cells if d not in named]
        for d in cells:
            if d.source in game.decks and d.each:
                zones.extend(_hands(game, d, players, rng))
            elif d.source in game.decks:
                zones.extend(_drawn(game, d, rng))
    return zones


def _roles(
    game: Game, named: list[TableDeal], players: int, rng: random.Random, box: dict[str, int]
) -> list[TableZone]:
    """One card to each player from the cards a row names, shuffled."""
    cards: list[str] = []
    short = 0
    for d in named:
        cid = d.cards[0]
        have = box.get(cid, 0)
        short += max(0, d.count - have)
        cards.extend([cid] * min(d.count, have))
    rng.shuffle(cards)
    first = named[0]
    owners = {_owner_of(game, d.cards[0]) for d in named}
    owner = owners.pop() if len(owners) == 1 else ""
    law = Law.sample(1, Counter(cards))
    zones = [
        TableZone("hand", first.table, first.key, owner, [cid], index=i + 1, law=law)
        for i, cid in enumerate(cards)
    ]
    if short:
        zones.append(TableZone("hand", first.table, first.key, owner, [], players, short))
    return zones


def _hands(game: Game, d: TableDeal, players: int, rng: random.Random) -> list[TableZone]:
    pool = _copies(game, d.source)
    law = Law.sample(min(d.each, len(pool) // max(players, 1)), Counter(pool))
    rng.shuffle(pool)
    zones = []
    for i in range(players):
        hand, pool = pool[: d.each], pool[d.each :]
        short = d.each - len(hand)
        zones.append(TableZone("hand", d.table, d.key, d.source, hand, i + 1, short, law))
    zones.append(TableZone("deck", d.table, d.key, d.source, pool))
    return zones


def _drawn(game: Game, d: TableDeal, rng: random.Random) -> list[TableZone]:
    pool = _copies(game, d.source)
    law = Law.sample(min(d.count, len(pool)), Counter(pool))
    rng.shuffle(pool)
    drawn, rest = pool[: d.count], pool[d.count :]
    short = d.count - len(drawn)
    zones = [TableZone("deck", d.table, d.key, d.source, drawn, short=short, law=law)]
    if rest:
        zones.append(TableZone("box", d.table, d.key, d.source, sorted(rest)))
    return zones


def chances(game: Game, zone: TableZone) -> list[Chance]:
    """The chance of each kind of card in a zone dealt at random (exact: hypergeometric)."""
    if zone.law is None:
        return []
    law = zone.law
    return [Chance(k, law.chance(f), law.expected(f)) for k, f in kinds(game, zone.owner)]
