"""Scenarios: what they name exists, their decks can be built, their start values are legal."""

from __future__ import annotations

from ..content.model import Game, Scenario
from ..content.queries import player_range
from ..content.schema import suggest
from ..core.english import said_players
from ..core.rules import SCENARIO_DECK, SCENARIO_PLAYERS, SCENARIO_START
from .context import CheckContext, check
from .deal.check import check_card_steps


def _span(lo: int, hi: int) -> str:
    """A player range as said: '2-4 players', '1 player'."""
    return said_players(f"{lo}" if lo == hi else f"{lo}-{hi}", lo == hi == 1)


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
                    f"scenario {scenario.id} allows {_span(lo, hi)}, but the game plays "
                    f"{_span(gp.min, gp.max)}: narrow the scenario's players:, or widen the "
                    "game's",
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
        check_card_steps(game, scenario, ctx)


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
