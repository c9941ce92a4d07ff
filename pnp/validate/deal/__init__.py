"""The set-up simulator: a scenario's set-up dealt from the box, as its card steps and the
setup tables say, for any player count, difficulty and seed (``pnp setup``); what cannot be
dealt is a finding (rules ``scenario-deck`` and ``setup-deal``, :mod:`.check`); how large each
pile is and how likely each kind of card is in it (:mod:`.odds`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ...content.model import Card, Difficulty, Game, Scenario, plain
from ...content.queries import ids_of, player_range, step_count
from .engine import Dealer, Dealt, Problem, Zone

__all__ = [
    "Dealt",
    "Problem",
    "TableDeal",
    "Zone",
    "deal",
    "settings",
    "table_deals",
]


def counts(scenario: Scenario, players: int, difficulty: Difficulty | None) -> tuple[object, ...]:
    """What a setting makes of the scenario's counts: two settings alike deal alike (the
    player count matters too when a step deals to each player)."""
    values = dict(difficulty.values) if difficulty else {}
    said: list[object] = [players] if any(s.deal is not None for s in scenario.cards) else []
    for step in scenario.cards:
        for name in ("draw", "deal", "reveal", "piles"):
            value = getattr(step, name)
            if value is not None:
                said.append(step_count(value, players, values, name))
    return tuple(said)


def settings(game: Game, scenario: Scenario) -> list[tuple[int, Difficulty | None]]:
    """Every player count the scenario allows, with each of its difficulties (or none)."""
    lo, hi = player_range(game, scenario)
    levels: list[Difficulty | None] = list(scenario.difficulties.values()) or [None]
    return [(p, d) for d in levels for p in range(lo, hi + 1)]


def deal(
    game: Game,
    scenario: Scenario,
    players: int,
    difficulty: Difficulty | None = None,
    seed: int = 0,
    sample: int = 0,
    cards: dict[str, Card] | None = None,
) -> Dealt:
    """One set-up of ``scenario``: the same seed deals the same cards (``sample``: the
    further deals that :mod:`.odds` counts, each seeded from the seed)."""
    level = difficulty.id if difficulty is not None else ""
    rng = random.Random(f"{game.id}/{scenario.id}/{level}/{players}/{seed}/{sample}")
    return Dealer(game, scenario, players, difficulty, rng, cards).run()


@dataclass
class TableDeal:
    """What one cell of a setup table takes out of the box for this player count."""

    table: str
    row: int  # the row's index
    key: str  # the row as its first cell names it
    column: str
    count: int  # how many, for the whole game (a per-player cell times the players)
    cards: list[str]  # the card ids it names, or []
    source: str  # the deck or token set it takes from ("" when it names cards)
    each: int = 0  # a per-player column: how many for each player


def table_deals(
    game: Game, players: int, built: set[str] | frozenset[str] = frozenset()
) -> list[TableDeal]:
    """What the setup tables deal for ``players``: a table with a ``players`` column, its row
    for that count (none: the table is not for it); another table, every row. Decks in
    ``built`` (a scenario builds them with its card steps) are left out: the table says the
    same thing as the steps."""
    out: list[TableDeal] = []
    for table in game.tables.values():
        dealing = [c for c in table.columns if c.deals is not None]
        if not dealing:
            continue
        keyed = table.column("players") is not None
        for r, cells in enumerate(table.cells):
            if keyed and cells.get("players") != players:
                continue
            key = str(plain(cells.get(table.columns[0].id), game.source_language))
            for col in dealing:
                assert col.deals is not None
                n = cells.get(col.id)
                if not isinstance(n, int) or isinstance(n, bool) or n <= 0:
                    continue
                each = n if col.deals.per == "player" else 0
                source = col.deals.deck or col.deals.tokens or ""
                if source in built:
                    continue
                cards = ids_of(col.deals.card)
                out.append(
                    TableDeal(table.id, r, key, col.id, each * players or n, cards, source, each)
                )
    return out
