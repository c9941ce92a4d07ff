"""Scenarios: what they name exists, their decks can be built, their start values are legal."""

from __future__ import annotations

from collections import Counter

from ..content.model import Card, CardRef, DeckStep, Filter, Game, Scenario
from ..content.queries import draw_count, player_range
from ..content.schema import suggest
from ..core.rules import SCENARIO_DECK, SCENARIO_PLAYERS, SCENARIO_START
from .context import CheckContext, check


def _matches(card: Card, flt: Filter) -> bool:
    if flt.tag is not None and flt.tag not in card.tags:
        return False
    return all(card.values.get(k) == v for k, v in flt.values.items())


@check
def scenarios(game: Game, ctx: CheckContext) -> None:
    for scenario in game.scenarios.values():
        _check_extends(game, scenario, ctx)
        lo, hi = player_range(game, scenario)
        if scenario.players is not None and game.meta.players is not None:
            gp = game.meta.players
            if scenario.players.min < gp.min or scenario.players.max > gp.max:
                ctx.add(
                    SCENARIO_PLAYERS,
                    scenario.at("players"),
                    f"scenario {scenario.id} allows {lo}-{hi} players, the game {gp.min}-{gp.max}",
                )
        for ref in scenario.boards:
            board = game.boards.get(ref.board)
            if board is None:
                ctx.add(
                    "reference",
                    ref.at("board"),
                    f"scenario {scenario.id} names board {ref.board!r}, which does not exist; "
                    f"{suggest(ref.board, sorted(game.boards))}known boards: "
                    f"{', '.join(sorted(game.boards)) or 'none'}",
                )
            elif ref.side in ("back", "B") and board.back is None:
                ctx.add(
                    SCENARIO_DECK,
                    ref.at("side"),
                    f"scenario {scenario.id} puts board {ref.board} with side {ref.side} up, "
                    "but the board has no back: add back: to it",
                )
        for track_id, value in scenario.start.items():
            track = game.tracks.get(track_id)
            pos = scenario.at("start")
            if track is None:
                ctx.add(
                    "reference",
                    pos,
                    f"scenario {scenario.id} starts track {track_id!r}, which does not exist; "
                    f"{suggest(track_id, sorted(game.tracks))}known tracks: "
                    f"{', '.join(sorted(game.tracks)) or 'none'}",
                )
            elif not track.min <= value <= track.max:
                ctx.add(
                    SCENARIO_START,
                    pos,
                    f"scenario {scenario.id} starts {track_id} at {value}, outside its range "
                    f"{track.min}..{track.max}",
                )
        _check_cards(game, scenario, (lo, hi), ctx)


def _check_extends(game: Game, scenario: Scenario, ctx: CheckContext) -> None:
    if scenario.extends is None:
        return
    chain = [scenario.id]
    current: str | None = scenario.extends
    while current is not None:
        parent = game.scenarios.get(current)
        if parent is None:
            ctx.add(
                "reference",
                scenario.at("extends"),
                f"scenario {scenario.id} extends {current!r}, which does not exist; "
                f"{suggest(current, sorted(game.scenarios))}".rstrip("; "),
            )
            return
        if current in chain:
            ctx.add(
                "reference",
                scenario.at("extends"),
                f"scenario {scenario.id} extends itself through {' -> '.join([*chain, current])}",
            )
            return
        chain.append(current)
        current = parent.extends


# the fields of a card organisation step that name cards, and what each does to them
_VERBS = {"remove": "remove", "order": "use", "top": "put on top", "bottom": "put at the bottom"}


def _check_cards(
    game: Game, scenario: Scenario, players: tuple[int, int], ctx: CheckContext
) -> None:
    """Follow the scenario's card organisation step by step, each deck's pool shrinking as
    cards are set aside, named or drawn; report what cannot be done."""
    where = {c.id: owner.id for owner, c in game.every_card()}
    pools: dict[str, Counter[str]] = {}
    cards_by_id = {c.id: c for _o, c in game.every_card()}
    for step in scenario.cards:
        deck = game.decks.get(step.deck) or game.tokens.get(step.deck)
        if deck is None:
            ctx.add(
                "reference",
                step.at("deck"),
                f"scenario {scenario.id}: no deck {step.deck!r}; "
                f"{suggest(step.deck, sorted(game.decks))}decks: {', '.join(sorted(game.decks))}",
            )
            continue
        pool = pools.setdefault(deck.id, Counter({c.id: c.copies for c in deck.cards}))
        if not _refs_in_deck(ctx, scenario, step, deck.id, where):
            continue
        acts = step.draw is not None or any(getattr(step, f) for f in _VERBS)
        selection = _filtered(ctx, scenario, step, deck.id, pool, cards_by_id)
        if step.only is not None and not selection:
            continue  # reported: nothing to draw from
        if not acts:  # a filter alone sets cards aside for the whole game
            pools[deck.id] = selection
            continue
        _take_named(ctx, scenario, step, deck.id, selection, pool)
        if step.draw is not None:
            _check_draw(ctx, scenario, step, deck.id, players, selection, pool)


def _refs_in_deck(
    ctx: CheckContext, scenario: Scenario, step: DeckStep, deck: str, where: dict[str, str]
) -> bool:
    """Whether every card the step names is in its deck (each one that is not is reported)."""
    ok = True
    for field_name in _VERBS:
        for ref in getattr(step, field_name):
            if not _ref_in_deck(ctx, scenario, ref, deck, where):
                ok = False
    return ok


def _filtered(
    ctx: CheckContext,
    scenario: Scenario,
    step: DeckStep,
    deck: str,
    pool: Counter[str],
    cards_by_id: dict[str, Card],
) -> Counter[str]:
    """The cards of the pool that the step's only: and exclude: leave; an only: that leaves
    nothing is reported."""
    selection = Counter(pool)
    for flt, keep in ((step.only, True), (step.exclude, False)):
        if flt is None:
            continue
        selection = Counter(
            {cid: n for cid, n in selection.items() if _matches(cards_by_id[cid], flt) == keep}
        )
        if keep and not selection:
            ctx.add(
                SCENARIO_DECK,
                step.at("only"),
                f"scenario {scenario.id}: no card of {deck} left matches {_describe(flt)}",
            )
            break
    return selection


def _take_named(
    ctx: CheckContext,
    scenario: Scenario,
    step: DeckStep,
    deck: str,
    selection: Counter[str],
    pool: Counter[str],
) -> None:
    """Take the cards the step names out of the selection and the pool; report those with too
    few copies left."""
    for field_name, verb in _VERBS.items():
        for ref in getattr(step, field_name):
            have = selection.get(ref.card, 0)
            if ref.copies > have:
                ctx.add(
                    SCENARIO_DECK,
                    ref.pos,
                    f"scenario {scenario.id}: {verb} {ref.card} x{ref.copies}, but "
                    f"{have} {'copy is' if have == 1 else 'copies are'} left in {deck}",
                )
                continue
            selection[ref.card] -= ref.copies
            pool[ref.card] -= ref.copies


def _check_draw(
    ctx: CheckContext,
    scenario: Scenario,
    step: DeckStep,
    deck: str,
    players: tuple[int, int],
    selection: Counter[str],
    pool: Counter[str],
) -> None:
    """The step's draw: enough cards for every player count, and the largest draw taken out of
    the pool for later steps."""
    left = sum(n for n in selection.values() if n > 0)
    worst = _worst_draw(ctx, scenario, step, players, left)
    if worst is not None:
        p, n = worst
        ctx.add(
            SCENARIO_DECK,
            step.at("draw"),
            f"scenario {scenario.id}: with {p} players it draws {n} from {deck}, "
            f"but only {left} matching cards are left",
        )
    else:
        # the largest draw leaves the pool for later steps
        counts = [draw_count(step, p) for p in range(players[0], players[1] + 1)]
        biggest = max((c for c in counts if isinstance(c, int)), default=0)
        _take_any(pool, selection, biggest)


def _worst_draw(
    ctx: CheckContext, scenario: Scenario, step: DeckStep, players: tuple[int, int], left: int
) -> tuple[int, int] | None:
    """The player count whose draw exceeds the ``left`` cards by the most, with its draw; an
    unreadable or negative draw is reported."""
    worst: tuple[int, int] | None = None
    for p in range(players[0], players[1] + 1):
        n = draw_count(step, p)
        if isinstance(n, str):
            ctx.add(SCENARIO_DECK, step.at("draw"), f"scenario {scenario.id}: {n}")
            return None
        if n < 0:
            ctx.add(SCENARIO_DECK, step.at("draw"), f"scenario {scenario.id}: draw {n}?")
            break
        if n > left and (worst is None or n > worst[1]):
            worst = (p, n)
    return worst


def _take_any(pool: Counter[str], selection: Counter[str], n: int) -> None:
    for cid in sorted(selection):
        if n <= 0:
            break
        take = min(selection[cid], n)
        pool[cid] -= take
        n -= take


def _describe(flt: Filter) -> str:
    parts = []
    if flt.tag:
        parts.append(f"tag {flt.tag!r}")
    parts.extend(f"{k} = {v!r}" for k, v in flt.values.items())
    return " and ".join(parts) or "the filter"


def _ref_in_deck(
    ctx: CheckContext, scenario: Scenario, ref: CardRef, deck: str, where: dict[str, str]
) -> bool:
    home = where.get(ref.card)
    if home == deck:
        return True
    if home is None:
        ctx.add(
            "reference",
            ref.pos,
            f"scenario {scenario.id}: no card {ref.card!r}; "
            f"{suggest(ref.card, [c for c, d in where.items() if d == deck])}"
            f"cards of {deck}: {', '.join(sorted(c for c, d in where.items() if d == deck)[:10])}",
        )
    else:
        ctx.add(
            "reference",
            ref.pos,
            f"scenario {scenario.id}: card {ref.card!r} is in deck {home!r}, not in {deck!r}",
        )
    return False
