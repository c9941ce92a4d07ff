"""The player range: every players table, scenario draw and per-player component agrees with
the game's ``players:`` (rule ``player-range``).

- a table keyed by player counts (its key column is ``players``) has no row outside the
  game's range, and, unless ``covers: {range: ...}`` says which counts it is for, a row for
  every count of the range; a ``covers:`` range lies within the game's;
- a scenario's draw by player count (``draw: {2: 12, 3: 16}``) names only counts the
  scenario allows (a missing one is ``scenario-deck``'s);
- a line of the component list with ``per_player: N`` holds N for each of the most players,
  and a table column that deals the same components to each player (``deals: {tokens: ID,
  per: player}``) gives no player more than N.
"""

from __future__ import annotations

from ..content.expr import is_whole
from ..content.model import BoxEntry, Game, Players, Scenario, Table
from ..content.queries import ids_of, player_range
from ..content.records import key_column
from ..content.refs import player_counts
from ..core.english import counted, said_players
from ..core.rules import PLAYER_RANGE
from .context import CheckContext, check


def _span(counts: list[int]) -> str:
    """Counts as the designer reads them: 2-4, or 2, 5."""
    if not counts:
        return "none"
    if counts == list(range(counts[0], counts[-1] + 1)) and len(counts) > 2:
        return f"{counts[0]}-{counts[-1]}"
    return ", ".join(map(str, counts))


@check
def player_ranges(game: Game, ctx: CheckContext) -> None:
    players = game.meta.players
    if players is None:
        return
    for table in game.tables.values():
        if key_column(table) == "players":
            _players_table(table, players, ctx)
    for scenario in game.scenarios.values():
        _scenario_draws(game, scenario, ctx)
    _sets_beyond(game, players, ctx)
    for entry in game.meta.box:
        if entry.per_player is None or entry.bring:
            continue
        _per_player_cells(game, entry, players, ctx)
        _colour_sets(game, entry, ctx)
        need = entry.per_player * players.max
        if entry.count < need:
            ctx.add(
                PLAYER_RANGE,
                entry.at("count"),
                f"this line holds {entry.count}, {entry.per_player} per player (per_player), "
                f"but the game plays up to {counted(players.max, 'player')}, who need {need}: add "
                "copies (and raise the count), or lower players: max",
            )


def _sets_beyond(game: Game, players: Players, ctx: CheckContext) -> None:
    """Two or more lines of the component list, each holding whole sets for the same number
    of players (``per_player``), and that number above the game's most: the range is short."""
    lines = [e for e in game.meta.box if e.per_player and not e.bring]
    sets = {e.count // e.per_player for e in lines if e.per_player}
    whole = all(e.per_player and e.count % e.per_player == 0 for e in lines)
    if len(lines) < 2 or not whole or len(sets) != 1 or (n := sets.pop()) <= players.max:
        return
    ctx.add(
        PLAYER_RANGE,
        players.at("max"),
        f"the component list holds {len(lines)} kinds of component for exactly {n} players "
        f"(per_player), but the game plays {players.min}-{players.max}: raise players: max to "
        f"{n}, or correct the counts",
    )


def _colour_sets(game: Game, entry: BoxEntry, ctx: CheckContext) -> None:
    """A token set counted ``per_player`` that holds one kind of token for each player (a
    colour each) holds ``per_player`` of each kind: 6 red and 4 blue settlements add up to 5
    each, but the blue player lacks one."""
    sets = [game.tokens[t] for t in ids_of(entry.tokens) if t in game.tokens]
    kinds = [t for s in sets for t in s.tokens]
    n = entry.per_player
    if not n or not kinds or entry.count != n * len(kinds):
        return  # not one kind per player
    odd = [t for t in kinds if t.copies != n]
    if odd and len(odd) < len(kinds):
        listed = ", ".join(f"{t.id} ({t.copies})" for t in odd)
        ctx.add(
            PLAYER_RANGE,
            odd[0].at("copies") if odd[0].given("copies") else odd[0].pos,
            f"{listed}: the component list gives each player {n} (per_player at "
            f"{entry.at('per_player')}) of a set with one kind for each of "
            f"{counted(len(kinds), 'player')}: give each kind {n} copies",
        )


def _selected(entry: BoxEntry) -> set[tuple[str, str]]:
    """What a line of the component list counts, as (kind, id) pairs."""
    out: set[tuple[str, str]] = set()
    for kind in ("deck", "tokens", "card"):
        out |= {(kind, one) for one in ids_of(getattr(entry, kind))}
    return out


def _per_player_cells(game: Game, entry: BoxEntry, players: Players, ctx: CheckContext) -> None:
    """The table columns that deal to each player what the line counts give no player more,
    together, than the line's ``per_player``, in any row of the game's range (7 followers to
    play and 1 on the score track: 8 of one's set)."""
    counted_here = _selected(entry)
    n = entry.per_player
    if n is None:
        return
    for table in game.tables.values():
        key = key_column(table)
        columns = [
            col.id
            for col in table.columns
            if col.deals is not None
            and col.deals.per == "player"
            and counted_here
            & (
                {("deck", col.deals.deck), ("tokens", col.deals.tokens)}
                | {("card", c) for c in ids_of(col.deals.card)}
            )
        ]
        for cells, positions in zip(table.cells, table.cell_pos, strict=True):
            given = [(c, v) for c in columns if is_whole(v := cells.get(c))]
            total = sum(v for _c, v in given)
            if total <= n:
                continue  # at set-up a player may take part of their set (2 of 5 houses)
            counts = player_counts(cells.get(key)) if key == "players" else []
            if counts and not any(players.min <= p <= players.max for p in counts):
                continue  # a row outside the range: reported as such
            said = " + ".join(f"{v} ({c})" for c, v in given)
            ctx.add(
                PLAYER_RANGE,
                positions.get(given[-1][0], table.pos),
                f"table {table.id} gives each player {said}"
                + (f" = {total}" if len(given) > 1 else "")
                + f", more than the {n} the component list gives each player (per_player at "
                f"{entry.at('per_player')}): make them agree",
            )
            return


def _players_table(table: Table, players: Players, ctx: CheckContext) -> None:
    """Rows within the game's range, and every count of it covered (or said otherwise)."""
    lo, hi = players.min, players.max
    said = range(0)  # the counts a covers: range beyond the game's already reports
    if table.covers is not None and table.covers.range is not None:
        a, b = table.covers.range[0], table.covers.range[-1]
        if a < lo or b > hi:
            said = range(a, b + 1)
            ctx.add(
                PLAYER_RANGE,
                table.covers.at("range"),
                f"table {table.id} covers {a}-{b} players, but the game plays {lo}-{hi}: "
                "narrow covers: range to the counts the game allows",
            )
    covered: set[int] = set()
    for cells, positions in zip(table.cells, table.cell_pos, strict=True):
        counts = player_counts(cells.get("players"))
        covered.update(counts)
        outside = [n for n in counts if not lo <= n <= hi and n not in said]
        if outside:
            ctx.add(
                PLAYER_RANGE,
                positions.get("players", table.pos),
                f"table {table.id} has a row for {said_players(_span(outside), outside == [1])}, "
                f"but the game plays {lo}-{hi} (game.yaml, "
                "players:): remove the row, or widen the game's range",
            )
    if table.covers is not None:
        return  # the counts it is for: table-coverage checks each has its row
    inside = sorted(n for n in covered if lo <= n <= hi)
    missing = [n for n in range(lo, hi + 1) if n not in covered]
    if missing and inside:
        ctx.add(
            PLAYER_RANGE,
            table.at("rows") if table.given("rows") else table.pos,
            f"table {table.id} has no row for {said_players(_span(missing), missing == [1])}, "
            f"and the game plays {lo}-{hi}: add the rows, or say which counts it is for with "
            "covers: "
            f"{{range: [{inside[0]}, {inside[-1]}]}}",
        )


def _scenario_draws(game: Game, scenario: Scenario, ctx: CheckContext) -> None:
    """A draw by player count names only counts the scenario allows."""
    lo, hi = player_range(game, scenario)
    for step in scenario.cards:
        if not isinstance(step.draw, dict):
            continue
        extra = sorted(n for n in step.draw if not lo <= n <= hi)
        if extra:
            ctx.add(
                PLAYER_RANGE,
                step.at("draw"),
                f"scenario {scenario.id} draws from {step.deck} for "
                f"{said_players(_span(extra), extra == [1])}, "
                f"but it is for {lo}-{hi}: remove those counts, or widen its players:",
            )
