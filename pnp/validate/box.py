"""The box: the component list against what is defined, and setup tables against the box."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..content.model import Board, BoxEntry, Card, Deck, Game, TokenSet, plain
from ..content.queries import ids_of
from ..content.schema import suggest
from ..core.rules import BOX_COUNT, CELL_TYPE, ROW_TOTAL, SETUP_EXCEEDS
from .context import CheckContext, check, needs_copies, needs_thing
from .numbers import first_number


def count_entry(game: Game, entry: BoxEntry) -> tuple[int, list[str]]:
    """How many of what an entry selects are defined, and the names that do not exist."""
    distinct = entry.unit == "cards"
    unknown: list[str] = []
    total = 0
    for kind, names, defined in _selections(game, entry):
        for name in names:
            thing = defined.get(name)
            if thing is None:
                hint = suggest(name, sorted(defined)).rstrip("; ").rstrip("? ")
                unknown.append(f"{kind} {name!r}" + (f" ({hint}?)" if hint else ""))
            else:
                total += _amount(thing, distinct)
    if entry.tag is not None:
        total += sum(_amount(c, distinct) for _o, c in game.every_card() if entry.tag in c.tags)
    return total, unknown


def _selections(game: Game, entry: BoxEntry) -> list[tuple[str, list[str], Mapping[str, Any]]]:
    """The ids an entry names, kind by kind, each with the things of that kind by id."""
    return [
        ("card", ids_of(entry.card), {c.id: c for _d, c in game.all_cards()}),
        ("deck", ids_of(entry.deck), game.decks),
        ("token set", ids_of(entry.tokens), game.tokens),
        ("token", ids_of(entry.token), {t.id: t for _s, t in game.all_tokens()}),
        ("board", ids_of(entry.board), game.boards),
    ]


def entry_needs(game: Game, entry: BoxEntry) -> tuple[str, ...]:
    """What a line's count needs: the things it selects, each with its copies (a card or deck
    dropped or given a bad copies: causes the count to differ)."""
    needs: list[str] = []
    for kind, names, _defined in _selections(game, entry):
        for name in names:
            if kind in ("deck", "token set"):
                needs += needs_copies("decks" if kind == "deck" else "tokens", name)
            elif kind in ("card", "token"):
                needs += [f"{n}/copies" for n in needs_thing(kind, name)]
            else:
                needs += [f"boards/{name}/copies", f"boards/{name}"]
    if entry.tag is not None:
        needs += ["decks/*/cards/*/copies", "tokens/*/tokens/*/copies"]
    return tuple(needs)


def _amount(thing: Card | Board | Deck | TokenSet, distinct: bool) -> int:
    """What one thing adds to a count: its distinct cards, or every copy."""
    if isinstance(thing, Deck | TokenSet):
        return len(thing.cards) if distinct else thing.total
    return 1 if distinct else thing.copies


@check
def box_texts(game: Game, ctx: CheckContext) -> None:
    """A line of the component list that opens with a number says its count: "17 Event
    cards" counts 17, in every language (a number is written once, and agrees). A count that
    disagrees with the cards it selects is reported once, by :func:`box_counts`."""
    for entry in game.meta.box:
        if entry.item is None:
            continue
        if not entry.bring:
            total, unknown = count_entry(game, entry)
            if unknown or total != entry.count:
                continue  # the count is wrong against the cards: box_counts says so
        for lang, text in entry.item.values.items():
            said = first_number(text)
            if said is not None and said != str(entry.count):
                ctx.add(
                    BOX_COUNT,
                    entry.at("count"),
                    f"the component list's line says {said} ({lang}: {text!r}) but its "
                    f"count is {entry.count}: make them agree",
                )
                break


@check
def box_counts(game: Game, ctx: CheckContext) -> None:
    for entry in game.meta.box:
        if entry.bring:  # not printed: nothing to count
            continue
        total, unknown = count_entry(game, entry)
        selector = (
            next(s for s in BoxEntry.SELECTORS if getattr(entry, s) is not None)
            if any(getattr(entry, s) is not None for s in BoxEntry.SELECTORS)
            else None
        )
        if unknown:
            ctx.add(
                "reference",
                entry.at(selector) if selector else entry.pos,
                f"the component list names {', '.join(unknown)}, which is not defined; "
                "define it or fix the id",
                needs=entry_needs(game, entry),
            )
            continue
        if total != entry.count:
            what = "distinct cards" if entry.unit == "cards" else "copies"
            ctx.add(
                BOX_COUNT,
                entry.at("count"),
                f"the component list says {entry.count}, but {total} {what} are defined "
                f"({selector}: {_describe(getattr(entry, selector or 'card'))}"
                f"{_contents(game, entry)}); fix the count or the copies of the cards",
                needs=entry_needs(game, entry),
            )


def _contents(game: Game, entry: BoxEntry, shown: int = 8) -> str:
    """Which cards make up the count, with their copies and where each is defined, so the
    designer finds the one that changed: ': alpha x5 at decks.yaml:7:17, ...'."""
    if entry.unit == "cards":
        return ""
    cards: list[Card] = []
    for _kind, names, defined in _selections(game, entry):
        for name in names:
            thing = defined.get(name)
            cards.extend(thing.cards if isinstance(thing, Deck | TokenSet) else [])
            if isinstance(thing, Card):
                cards.append(thing)
    if entry.tag is not None:
        cards.extend(c for _o, c in game.every_card() if entry.tag in c.tags)
    if not cards or len(cards) > shown:
        return ""
    parts = [
        f"{c.id} x{c.copies} at {c.at('copies') if c.given('copies') else c.pos}" for c in cards
    ]
    return ": " + ", ".join(parts)


def _describe(value: Any) -> str:
    return ", ".join(value) if isinstance(value, list) else str(value)


def deal_needs(deal: Any) -> tuple[str, ...]:
    """What a dealing column's count of the box needs: the copies of what it deals."""
    if deal.card is not None:
        return tuple(f"{n}/copies" for c in ids_of(deal.card) for n in needs_thing("card", c))
    if deal.deck is not None:
        return needs_copies("decks", deal.deck)
    if deal.tokens is not None:
        return needs_copies("tokens", deal.tokens)
    return ()


def available(game: Game, deal: Any) -> tuple[int, str]:
    """How many of what a column deals the box holds."""
    cards = {c.id: c for _d, c in game.all_cards()}
    if deal.card is not None:
        ids = ids_of(deal.card)
        if any(c not in cards for c in ids):
            return -1, ""  # an unknown card: reported by the reference check
        return sum(cards[c].copies for c in ids), f"copies of {_describe(deal.card)}"
    if deal.deck is not None and deal.deck in game.decks:
        return game.decks[deal.deck].total, f"cards in deck {deal.deck}"
    if deal.tokens is not None and deal.tokens in game.tokens:
        return game.tokens[deal.tokens].total, f"tokens in {deal.tokens}"
    return -1, ""


@check
def setup_tables(game: Game, ctx: CheckContext) -> None:
    for table in game.tables.values():
        for r, cells in enumerate(table.cells):
            positions = table.cell_pos[r]
            for col in table.columns:
                if col.deals is None or col.id not in cells:
                    continue
                value = cells[col.id]
                pos = positions.get(col.id, table.pos)
                if not isinstance(value, int) or isinstance(value, bool):
                    ctx.add(CELL_TYPE, pos, f"column {col.id!r} deals components: write a number")
                    continue
                have, what = available(game, col.deals)
                if have < 0:
                    continue  # unknown reference, reported elsewhere
                need = _need(col, value, cells)
                if need > have:
                    key = row_name(game, table, r)
                    ctx.add(
                        SETUP_EXCEEDS,
                        pos,
                        f"row {key}: {col.id} needs {need}, but the box holds {have} {what}; "
                        "fix the table or add copies",
                        needs=deal_needs(col.deals),
                    )
            _pools(game, table, r, ctx)
            for total in table.total:
                if any(c not in cells for c in total.of):
                    continue  # a short row or an unknown column: reported already
                parts = [cells.get(c) for c in total.of]
                if any(not isinstance(p, int) or isinstance(p, bool) for p in parts):
                    bad = [
                        c for c, p in zip(total.of, parts, strict=True) if not isinstance(p, int)
                    ]
                    ctx.add(
                        CELL_TYPE,
                        positions.get(bad[0], table.pos) if bad else table.pos,
                        f"the total adds up {', '.join(total.of)}: {bad[0] if bad else ''} must "
                        "be a number",
                    )
                    continue
                target = cells.get(total.equals) if isinstance(total.equals, str) else total.equals
                if not isinstance(target, int):
                    continue
                got = sum(p for p in parts if isinstance(p, int))
                if got != target:
                    key = row_name(game, table, r)
                    first = next((positions[c] for c in total.of if c in positions), table.pos)
                    ctx.add(
                        ROW_TOTAL,
                        first,
                        f"row {key}: {' + '.join(total.of)} = {got}, but it must equal "
                        f"{total.equals} = {target}; fix one of the cells",
                    )


def _need(col: Any, value: int, cells: dict[str, Any]) -> int:
    """What a dealing cell takes from the box: its number, times the row's players when the
    column deals per player."""
    players = cells.get("players")
    if col.deals.per == "player" and isinstance(players, int):
        return value * players
    return value


def _pool_of(game: Game, deal: Any) -> tuple[str, str] | None:
    """What a dealing column takes from: a deck (also for cards of one deck), or a token set."""
    if deal.deck is not None:
        return ("deck", deal.deck)
    if deal.card is not None:
        owners = {d.id for d, c in game.all_cards() if c.id in ids_of(deal.card)}
        return ("deck", owners.pop()) if len(owners) == 1 else None
    if deal.tokens is not None:
        return ("tokens", deal.tokens)
    return None


def _pools(game: Game, table: Any, r: int, ctx: CheckContext) -> None:
    """Columns of one row that deal from the same deck (or token set) together need no more
    than it holds, even when each alone fits."""
    cells, positions = table.cells[r], table.cell_pos[r]
    pools: dict[tuple[str, str], list[tuple[str, int]]] = {}
    for col in table.columns:
        value = cells.get(col.id)
        if col.deals is None or not isinstance(value, int) or isinstance(value, bool):
            continue
        need = _need(col, value, cells)
        pool = _pool_of(game, col.deals)
        if pool is not None:
            pools.setdefault(pool, []).append((col.id, need))
    for (kind, name), parts in pools.items():
        thing = game.decks.get(name) if kind == "deck" else game.tokens.get(name)
        if len(parts) < 2 or thing is None:
            continue
        have, need = thing.total, sum(n for _c, n in parts)
        if need > have and all(n <= have for _c, n in parts):
            key = row_name(game, table, r)
            what = "deck" if kind == "deck" else "token set"
            ctx.add(
                SETUP_EXCEEDS,
                positions.get(parts[-1][0], table.pos),
                f"row {key}: {' + '.join(c for c, _n in parts)} take {need} from {what} "
                f"{name}, which holds {have}; fix the table or add copies",
                needs=needs_copies("decks" if kind == "deck" else "tokens", name),
            )


def row_name(game: Game, table: Any, r: int) -> str:
    """A row as the designer wrote its first cell (a translated cell in the source
    language), for messages; its number when the table has no columns."""
    if not table.columns:
        return str(r + 1)
    return str(plain(table.cells[r].get(table.columns[0].id), game.source_language))
