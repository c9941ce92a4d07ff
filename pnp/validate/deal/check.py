"""Rules ``scenario-deck`` and ``setup-deal``: every scenario dealt for every player count and
difficulty it allows; each step that cannot be done is one finding, for the setting where the
most cards are missing (the others it fails with are named)."""

from __future__ import annotations

from ...content.model import CardRef, DeckStep, Difficulty, Game, Scenario
from ...content.schema import suggest
from ..context import CheckContext
from . import counts, deal, settings
from .engine import Problem

# the fields of a card step that name cards
NAMING = ("remove", "order", "top", "bottom")


def check_card_steps(game: Game, scenario: Scenario, ctx: CheckContext) -> None:
    """The scenario's card steps: what they name exists, and they can be dealt."""
    where = {c.id: owner.id for owner, c in game.every_card()}
    for step in scenario.cards:
        if _deck_known(game, scenario, step, ctx):
            for field_name in NAMING:
                for ref in getattr(step, field_name):
                    _ref_in_deck(ctx, scenario, ref, step.deck, where)
    if not scenario.cards:
        return
    worst: dict[tuple[str, str, int, int, str], Problem] = {}
    also: dict[tuple[str, str, int, int, str], list[tuple[int, str]]] = {}
    alike: dict[tuple[object, ...], list[tuple[int, str]]] = {}
    first: dict[tuple[object, ...], tuple[int, Difficulty | None]] = {}
    for players, difficulty in settings(game, scenario):
        said = counts(scenario, players, difficulty)
        first.setdefault(said, (players, difficulty))
        alike.setdefault(said, []).append((players, difficulty.id if difficulty else ""))
    cards = {c.id: c for _o, c in game.every_card()}
    for said, (players, difficulty) in first.items():
        for problem in deal(game, scenario, players, difficulty, cards=cards).problems:
            key = (problem.rule, problem.pos.path, problem.pos.line, problem.pos.col, problem.what)
            known = worst.get(key)
            if known is None or problem.short > known.short:
                worst[key] = problem
            if problem.setting is not None:  # the settings dealt alike fail alike
                also.setdefault(key, []).extend(alike[said])
    for key, problem in worst.items():
        others = [s for s in also.get(key, []) if s != problem.setting]
        message = problem.message + (f" (it fails {_said(others)} too)" if others else "")
        ctx.add(problem.rule, problem.pos, message)


def _said(settings_found: list[tuple[int, str]]) -> str:
    """Settings as a message says them: "with 3 and 4 players at difficulty easy"."""
    by_level: dict[str, list[int]] = {}
    for players, level in settings_found:
        by_level.setdefault(level, []).append(players)
    parts = []
    for level, numbers in by_level.items():
        shown = [str(n) for n in sorted(set(numbers))]
        joined = shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]
        plural = "s" if shown != ["1"] else ""
        parts.append(f"with {joined} player{plural}" + (f" at difficulty {level}" if level else ""))
    return "; ".join(parts)


def _deck_known(game: Game, scenario: Scenario, step: DeckStep, ctx: CheckContext) -> bool:
    if step.deck in game.decks or step.deck in game.tokens:
        return True
    known = sorted([*game.decks, *game.tokens])
    ctx.add(
        "reference",
        step.at("deck"),
        f"scenario {scenario.id}: no deck {step.deck!r}; "
        f"{suggest(step.deck, known)}decks: {', '.join(sorted(game.decks))}",
    )
    return False


def _ref_in_deck(
    ctx: CheckContext, scenario: Scenario, ref: CardRef, deck: str, where: dict[str, str]
) -> None:
    home = where.get(ref.card)
    if home == deck:
        return
    if home is None:
        mine = [c for c, d in where.items() if d == deck]
        ctx.add(
            "reference",
            ref.pos,
            f"scenario {scenario.id}: no card {ref.card!r}; {suggest(ref.card, mine)}"
            f"cards of {deck}: {', '.join(sorted(mine)[:10])}",
        )
    else:
        ctx.add(
            "reference",
            ref.pos,
            f"scenario {scenario.id}: card {ref.card!r} is in deck {home!r}, not in {deck!r}",
        )
