"""Lookup tables and staged cards: every outcome covered once, every stage present once."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable
from typing import Any

from ..content.model import Card, Covers, Game, Outcome, Table, Track, plain
from ..content.records import key_column
from ..content.refs import player_counts
from ..content.schema import suggest
from ..core.findings import Pos
from ..core.rules import COVERAGE, DUPLICATE_ROW, STAGES
from ..typeset.faces.tables import CODE
from .context import CheckContext, check

MAX_RANGE = 100_000  # Covers.check refuses wider ranges


def usable(covers: Covers) -> bool:
    kinds = [
        k for k in ("dice", "range", "combinations", "track") if getattr(covers, k) is not None
    ]
    if len(kinds) != 1:
        return False
    if covers.range is not None:  # the schema refuses ranges it cannot check quickly
        lo_hi = covers.range
        return len(lo_hi) == 2 and lo_hi[0] <= lo_hi[1] and lo_hi[1] - lo_hi[0] <= MAX_RANGE
    return True


def dice_outcomes(dice: str) -> list[int]:
    if dice == "2d6":
        return list(range(2, 13))
    if dice == "d66":
        return [10 * a + b for a in range(1, 7) for b in range(1, 7)]
    if dice == "d100":
        return list(range(1, 101))
    return list(range(1, int(dice[1:]) + 1))


def parse_keys(value: Any, universe: list[int]) -> list[int] | None:
    """The outcomes a key cell names: 5, "5", "11-13", "2, 3" (None when unreadable).

    A range takes the outcomes of ``universe`` between its ends (D66: 11-16 is 11..16, 16-21
    is 16, 21), or every whole number between them when no universe is given.
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return [value]
    if not isinstance(value, str):
        return None
    out: list[int] = []
    for part in re.split(r"\s*,\s*", value.strip()):
        m = re.fullmatch(r"(\d+)\s*(?:-|–|\.\.)\s*(\d+)", part)
        if m:
            lo, hi = int(m.group(1)), int(m.group(2))
            if lo > hi:
                return None
            out.extend(v for v in universe if lo <= v <= hi) if universe else out.extend(
                range(lo, hi + 1)
            )
            if universe and (lo not in universe or hi not in universe):
                out.append(lo if lo not in universe else hi)  # reported as impossible
        elif re.fullmatch(r"\d+", part):
            out.append(int(part))
        else:
            return None
    return out


def combos(spec: Any) -> list[tuple[str, ...]]:
    items = list(spec.of)
    if spec.ordered:
        it: Iterable[tuple[str, ...]] = (
            itertools.product(items, repeat=spec.size)
            if spec.repeat
            else itertools.permutations(items, spec.size)
        )
    else:
        it = (
            itertools.combinations_with_replacement(items, spec.size)
            if spec.repeat
            else itertools.combinations(items, spec.size)
        )
    return [tuple(c) for c in it]


def parse_combo(value: Any, spec: Any) -> tuple[str, ...] | None:
    if isinstance(value, str):
        parts = [p.strip() for p in re.split(r"\s*[+&,/]\s*", value.strip()) if p.strip()]
    elif isinstance(value, list):
        parts = [str(p) for p in value]
    else:
        return None
    if len(parts) != spec.size or any(p not in spec.of for p in parts):
        return None
    if not spec.ordered:
        order = {name: i for i, name in enumerate(spec.of)}
        parts = sorted(parts, key=order.__getitem__)
    return tuple(parts)


def _show(values: list[Any]) -> str:
    shown = [("+".join(v) if isinstance(v, tuple) else str(v)) for v in values[:12]]
    return ", ".join(shown) + (f" and {len(values) - 12} more" if len(values) > 12 else "")


def check_coverage(
    ctx: CheckContext,
    covers: Covers,
    keys: list[tuple[Any, Pos]],
    where: str,
    gap_pos: Pos,
    track: Track | None = None,
) -> None:
    """Each outcome of ``covers`` has one row (``track``: the track ``covers.track`` names)."""
    seen: dict[Any, Pos] = {}
    if covers.combinations is not None:
        spec = covers.combinations
        universe: list[Any] = list(combos(spec))
        for value, pos in keys:
            combo = parse_combo(value, spec)
            if combo is None:
                ctx.add(
                    COVERAGE,
                    pos,
                    f"{where}: {value!r} is not a combination of {spec.size} of "
                    f"{', '.join(spec.of)}; write e.g. {'+'.join(spec.of[: spec.size])}",
                )
                continue
            _seen(ctx, seen, combo, pos, where)
    else:
        universe, label = _outcomes(covers, track)
        for value, pos in keys:
            outcomes = parse_keys(value, universe if covers.dice == "d66" else [])
            if outcomes is None:
                ctx.add(
                    COVERAGE,
                    pos,
                    f"{where}: key {value!r} is not an outcome or a range of {label} "
                    "(write 5, '11-13' or '2, 3')",
                )
                continue
            bad = [o for o in outcomes if o not in universe]
            if bad:
                ctx.add(
                    COVERAGE,
                    pos,
                    f"{where}: {_show(bad)} cannot come up with {label}; fix the key",
                )
            for o in outcomes:
                if o in universe:
                    _seen(ctx, seen, o, pos, where)
    missing = [u for u in universe if u not in seen]
    if missing:
        pos, advice = _gap_place(missing[0], seen, gap_pos, covers.combinations is None)
        ctx.add(
            COVERAGE,
            pos,
            f"{where}: no row for {_show(missing)}; every outcome needs exactly one row{advice}",
        )


def _outcomes(covers: Covers, track: Track | None) -> tuple[list[Any], str]:
    """What a table of ``covers`` (dice, a track's spaces, a range) must have a row for, and
    how a message names it."""
    if covers.dice is not None:
        return dice_outcomes(covers.dice), str(covers.dice)
    if track is not None:
        label = f"the spaces of track {track.id}, {track.min}..{track.max}"
        return list(range(track.min, track.max + 1)), label
    assert covers.range is not None
    lo, hi = covers.range[0], covers.range[-1]
    return list(range(lo, hi + 1)), f"{lo}..{hi}"


def _gap_place(first: Any, seen: dict[Any, Pos], gap_pos: Pos, ordered: bool) -> tuple[Pos, str]:
    """Where the first missing outcome's row belongs: before the row of the next outcome, or
    after the last row (combinations have no order: at covers:)."""
    if not ordered or not seen:
        return gap_pos, ""
    later = [(o, p) for o, p in seen.items() if o > first]
    if later:
        return min(later, key=lambda op: op[0])[1], f" (add {first!r} before this row)"
    return max(seen.items(), key=lambda op: op[0])[1], f" (add {first!r} after this row)"


def _seen(ctx: CheckContext, seen: dict[Any, Pos], key: Any, pos: Pos, where: str) -> None:
    if key in seen:
        shown = "+".join(key) if isinstance(key, tuple) else str(key)
        ctx.add(
            COVERAGE,
            pos,
            f"{where}: {shown} is already covered at line {seen[key].line}; "
            "each outcome belongs to one row",
        )
    else:
        seen[key] = pos


@check
def lookup_tables(game: Game, ctx: CheckContext) -> None:
    for table in game.tables.values():
        covers = table.covers
        if covers is None or not table.columns or not usable(covers):
            continue  # a malformed covers: is reported by the schema check
        key = covers.key or table.columns[0].id
        if table.column(key) is None:
            ctx.add(
                "reference",
                covers.at("key"),
                f"table {table.id}: covers.key {key!r} is not a column; "
                f"{suggest(key, [c.id for c in table.columns])}"
                f"columns: {', '.join(c.id for c in table.columns)}",
            )
            continue
        track = None
        if covers.track is not None:
            track = game.tracks.get(covers.track)
            if track is None:
                ctx.add(
                    "reference",
                    covers.at("track"),
                    f"table {table.id}: covers.track {covers.track!r} is not a track; "
                    f"{suggest(covers.track, sorted(game.tracks))}"
                    f"tracks: {', '.join(sorted(game.tracks)) or '(none)'}",
                    needs=(f"tracks/{covers.track}",),
                )
                continue
            if track.max - track.min > MAX_RANGE:
                continue
        keys = _table_keys(table, key)
        check_coverage(ctx, covers, keys, f"table {table.id}", covers.pos, track)


@check
def duplicate_rows(game: Game, ctx: CheckContext) -> None:
    """A table read by its key (numbers: player counts, levels, results) has one row per key;
    any table, never the same row twice (duplicate-row). A table with covers: is
    table-coverage's; a table keyed by words may list a word on several rows (Austerity's
    cuts: an Institution with each of its pairs)."""
    for table in game.tables.values():
        key = key_column(table)
        if key is None or table.covers is not None:
            continue
        seen: dict[int, Pos] = {}
        rows: dict[str, Pos] = {}
        for cells, positions in zip(table.cells, table.cell_pos, strict=True):
            pos = positions.get(key, table.pos)
            whole = repr(sorted((k, str(plain(v, game.source_language))) for k, v in cells.items()))
            if whole in rows:
                ctx.add(
                    DUPLICATE_ROW,
                    pos,
                    f"table {table.id}: this row repeats the row at line {rows[whole].line}, cell "
                    "for cell: remove one",
                )
                continue
            rows[whole] = pos
            for n in player_counts(cells.get(key)):
                if n in seen:
                    ctx.add(
                        DUPLICATE_ROW,
                        pos,
                        f"table {table.id}: key {n} already has its row at line {seen[n].line} "
                        f"(column {key}): a table read by its key has one row per key; merge the "
                        "rows, or fix the key",
                    )
                    break
                seen[n] = pos


@check
def key_labels(game: Game, ctx: CheckContext) -> None:
    """A key column whose ``labels:`` name its keys has a row for each (table-coverage): a
    label no row uses is a row missing, or one overwritten by a copy of another."""
    for table in game.tables.values():
        key = key_column(table)
        col = table.column(key) if key is not None else None
        if col is None or not col.labels or table.covers is not None:
            continue
        used = {c for cells in table.cells for c in CODE.findall(str(cells.get(col.id, "")))}
        missing = [code for code in col.labels if code not in used]
        if missing and used & set(col.labels):
            ctx.add(
                COVERAGE,
                col.at("labels"),
                f"table {table.id}: column {col.id} has labels for {', '.join(missing)}, but no "
                "row for it: add the row (or fix a row's key), or drop the label",
            )


def _table_keys(table: Table, key: str) -> list[tuple[Any, Pos]]:
    out = []
    for cells, positions in zip(table.cells, table.cell_pos, strict=True):
        if key in cells:
            out.append((cells[key], positions.get(key, table.pos)))
    return out


@check
def staged_cards(game: Game, ctx: CheckContext) -> None:
    cards = {c.id: c for _o, c in game.every_card()}
    stage_cards: dict[str, list[Card]] = {}
    for _o, card in game.every_card():
        if card.stage_of is None:
            if card.stage is not None:
                ctx.add(STAGES, card.at("stage"), f"{card.id} has stage: but no stage_of:")
            continue
        parent = cards.get(card.stage_of)
        if parent is None:
            from ..content.schema import suggest

            ctx.add(
                "reference",
                card.at("stage_of"),
                f"{card.id} is a stage of {card.stage_of!r}, which does not exist; "
                f"{suggest(card.stage_of, sorted(cards))}".rstrip("; "),
            )
            continue
        if parent.stages is None:
            ctx.add(
                STAGES,
                card.at("stage_of"),
                f"{card.id} is a stage of {parent.id}, which announces no stages: add "
                f"stages: N to {parent.id}",
            )
            continue
        stage_cards.setdefault(parent.id, []).append(card)
    for _o, card in game.every_card():
        if card.stages is None:
            continue
        if card.stages < 1:
            ctx.add(STAGES, card.at("stages"), "stages must be 1 or more")
            continue
        found = stage_cards.get(card.id, [])
        copies = sum(c.copies for c in found)
        numbers = sorted(c.stage for c in found for _ in range(c.copies) if c.stage is not None)
        want = list(range(1, card.stages + 1))
        if copies != card.stages or numbers != want:
            got = ", ".join(f"{c.id} (stage {c.stage}, x{c.copies})" for c in found) or "none"
            ctx.add(
                STAGES,
                card.at("stages"),
                f"{card.id} announces {card.stages} stages (1..{card.stages}, one card each) but "
                f"its stage cards are: {got}",
            )
        if card.outcomes:
            keys = [(o.count, o.at("count")) for o in card.outcomes]
            covers = Covers(range=[0, card.stages])
            check_coverage(ctx, covers, keys, f"outcomes of {card.id}", card.at("outcomes"))
    for _o, card in game.every_card():
        if card.outcomes and card.stages is None:
            ctx.add(
                STAGES,
                card.at("outcomes"),
                f"{card.id} has outcomes: but no stages: to count them against",
            )


__all__ = ["Outcome"]
