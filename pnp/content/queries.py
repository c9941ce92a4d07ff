"""Questions asked of a loaded game that more than one stage needs: how large a deck's items
are, which player counts a scenario is for, how many cards a scenario step draws, what a line
of the component list counts."""

from __future__ import annotations

import math

from ..core.english import counted
from ..core.units import CARD_SIZES, Size
from .expr import Evaluator, ExprError
from .model import Board, BoxEntry, Card, Deck, DeckStep, DrawFrom, Game, Scenario, TokenSet


def card_size(game: Game, deck: Deck) -> Size:
    return deck.size or game.print.card_size or CARD_SIZES["poker"]


def token_size(ts: TokenSet) -> Size:
    """The bounding box of a token: a hexagon is measured corner to corner across."""
    if ts.shape == "hex":
        return Size(ts.size, ts.size * math.sqrt(3) / 2)
    return Size(ts.size, ts.size)


def item_size(game: Game, owner: Deck | TokenSet) -> Size:
    return token_size(owner) if isinstance(owner, TokenSet) else card_size(game, owner)


def player_range(game: Game, scenario: Scenario) -> tuple[int, int]:
    seen: set[str] = set()
    current: Scenario | None = scenario
    while current is not None and current.id not in seen:
        if current.players is not None:
            return current.players.min, current.players.max
        seen.add(current.id)
        current = game.scenarios.get(current.extends) if current.extends else None
    if game.meta.players is not None:
        return game.meta.players.min, game.meta.players.max
    return 1, 1


def draw_count(step: DeckStep, players: int) -> int | str:
    """How many cards the step draws with this many players, or an error text."""
    return step_count(step.draw, players)


def step_count(
    value: int | str | DrawFrom | dict[int, int] | None,
    players: int,
    values: dict[str, int] | None = None,
    what: str = "draw",
) -> int | str:
    """A count of a card step (``draw``, ``deal``, ``reveal``, ``piles``) with this many
    players and a difficulty's ``values``, or an error text. None counts 0."""
    if value is None:
        return 0
    if isinstance(value, bool):
        return f"{what} {value!r} is not a whole number"
    if isinstance(value, int):
        return value
    if isinstance(value, DrawFrom):
        if players in value.values:
            return value.values[players]
        return value.problem or (
            f"table {value.table} has no row for {counted(players, 'player')} ({what}: column "
            f"{value.column})"
        )
    if isinstance(value, dict):
        if players not in value:
            given = ", ".join(map(str, value))
            return f"no {what} given for {counted(players, 'player')} (given: {given})"
        return value[players]
    names: dict[str, object] = {**(values or {}), "players": players}
    try:
        got = Evaluator(names, {}).eval(value)
    except ExprError as exc:
        return f"{what} expression {value!r}: {exc}"
    if isinstance(got, bool) or not isinstance(got, int | float) or got != int(got):
        return f"{what} expression {value!r} gives {got!r}, not a whole number"
    return int(got)


def ids_of(value: str | list[str] | None) -> list[str]:
    """A selector's ids: one id or a list of them."""
    if value is None:
        return []
    return [value] if isinstance(value, str) else list(value)


def box_selects(entry: BoxEntry, owner: Deck | TokenSet | Board, card: Card | Board) -> bool:
    """Whether a line of the component list counts ``card`` (a card or token of ``owner``, or
    a board, which is its own owner)."""
    if entry.bring:
        return False
    if isinstance(owner, Board):
        return owner.id in ids_of(entry.board)
    if entry.tag is not None and isinstance(card, Card) and entry.tag in card.tags:
        return True
    if isinstance(owner, Deck):
        return owner.id in ids_of(entry.deck) or card.id in ids_of(entry.card)
    return owner.id in ids_of(entry.tokens) or card.id in ids_of(entry.token)
