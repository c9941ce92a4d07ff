"""How large each pile, hand and row of a set-up is, and how likely each kind of card is in it.

A kind is a tag of the deck's cards, or a card with several copies (or any card of a deck of
few cards). The chance is exact where the group's law is known (:mod:`.law`: hypergeometric),
else counted over many deals, each with its own seed drawn from the first: the same seed gives
the same numbers.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from ...content.model import Card, Difficulty, Game, Scenario
from . import deal
from .engine import Zone

SHOWN = ("hand", "row", "pile")
MAX_KINDS = 8
DEALS = 2000


@dataclass
class Chance:
    """How likely a kind of card is in a group, and how many of it it holds on average."""

    kind: str  # "tag:NAME" or "card:ID"
    chance: float
    expected: float


@dataclass
class ZoneOdds:
    zone: Zone  # the group, as the first deal laid it out
    sizes: tuple[int, int]  # its fewest and most cards over the deals
    exact: bool
    chances: list[Chance] = field(default_factory=list)


def kinds(game: Game, owner: str) -> list[tuple[str, Callable[[str], bool]]]:
    """The kinds of card of a deck or token set worth a chance: its tags, its cards with
    several copies, every card of a deck of few; two kinds of the same cards count once."""
    thing = game.decks.get(owner) or game.tokens.get(owner)
    cards: list[Card] = list(thing.cards) if thing is not None else []
    found: list[tuple[str, frozenset[str]]] = []
    for tag in sorted({t for c in cards for t in c.tags}):
        found.append((f"tag:{tag}", frozenset(c.id for c in cards if tag in c.tags)))
    few = len(cards) <= MAX_KINDS
    for c in sorted(cards, key=lambda c: -c.copies):
        if c.copies > 1 or few:
            found.append((f"card:{c.id}", frozenset([c.id])))
    seen: set[frozenset[str]] = set()
    out: list[tuple[str, Callable[[str], bool]]] = []
    for name, ids in found:
        if ids in seen or len(out) >= MAX_KINDS:
            continue
        seen.add(ids)
        out.append((name, ids.__contains__))
    return out


def odds(
    game: Game,
    scenario: Scenario,
    players: int,
    difficulty: Difficulty | None = None,
    seed: int = 0,
    deals: int = DEALS,
) -> list[ZoneOdds]:
    """Every hand, row and pile of the set-up dealt with ``seed``, with its chances."""
    first = deal(game, scenario, players, difficulty, seed)
    zones = [z for z in first.zones if z.kind in SHOWN]
    out = [ZoneOdds(z, (len(z.cards), len(z.cards)), z.law is not None) for z in zones]
    kinds_of = {z.owner: kinds(game, z.owner) for z in zones}
    if not all(z.exact for z in out):
        _sampled(game, scenario, players, difficulty, seed, deals, out, kinds_of)
    for zo in out:
        law = zo.zone.law
        if law is not None:
            zo.chances = [
                Chance(k, law.chance(f), law.expected(f)) for k, f in kinds_of[zo.zone.owner]
            ]
    return out


def _sampled(
    game: Game,
    scenario: Scenario,
    players: int,
    difficulty: Difficulty | None,
    seed: int,
    deals: int,
    out: list[ZoneOdds],
    kinds_of: dict[str, list[tuple[str, Callable[[str], bool]]]],
) -> None:
    """Chances of the groups without a law, counted over ``deals`` deals."""
    wanted = {zo.zone.key: zo for zo in out if not zo.exact}
    present: dict[tuple[int, str, str, int], Counter[str]] = {k: Counter() for k in wanted}
    held: dict[tuple[int, str, str, int], Counter[str]] = {k: Counter() for k in wanted}
    sizes: dict[tuple[int, str, str, int], list[int]] = {k: [] for k in wanted}
    for i in range(deals):
        dealt = deal(game, scenario, players, difficulty, seed, sample=i + 1)
        for zone in dealt.zones:
            if zone.key not in wanted:
                continue
            sizes[zone.key].append(len(zone.cards))
            for name, kind in kinds_of[zone.owner]:
                n = sum(1 for c in zone.cards if kind(c))
                held[zone.key][name] += n
                present[zone.key][name] += n > 0
    for key, zo in wanted.items():
        got = sizes[key] or [0]
        zo.sizes = (min(got), max(got))
        zo.chances = [
            Chance(name, present[key][name] / deals, held[key][name] / deals)
            for name, _kind in kinds_of[zo.zone.owner]
        ]
