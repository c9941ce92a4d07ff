"""The box: the component list against what is defined, and setup tables against the box."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..content.model import Board, BoxEntry, Card, Deck, Game, TokenSet, plain
from ..content.queries import box_selects, ids_of
from ..content.refs import fill
from ..content.schema import suggest
from ..core.rules import (
    BOX_COUNT,
    BOX_OVERLAP,
    BOX_UNLISTED,
    CELL_TYPE,
    ROW_TOTAL,
    SETUP_EXCEEDS,
)
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
        for lang, written in entry.item.values.items():
            text = fill(game, written, lang, entry.item.scope)  # "{count} cards": its count
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


def _selected(game: Game) -> list[tuple[BoxEntry, frozenset[str]]]:
    """Each printed line of the component list with what it counts (``owner/id`` of each
    card, token and board)."""
    things: list[tuple[Deck | TokenSet | Board, Card | Board]] = [
        *game.every_card(),
        *((b, b) for b in game.boards.values()),
    ]
    return [
        (e, frozenset(f"{o.id}/{c.id}" for o, c in things if box_selects(e, o, c)))
        for e in game.meta.box
        if not e.bring and sum(getattr(e, k) is not None for k in BoxEntry.SELECTORS) == 1
    ]  # a line naming two kinds of things is a schema error, and counts nothing here


@check
def box_overlaps(game: Game, ctx: CheckContext) -> None:
    """Two lines of the component list count the same components only when one is a
    breakdown of the other, and the lines breaking a line down add up to it (box-overlap)."""
    lines = [(e, s) for e, s in _selected(game) if s]
    done: set[int] = set()
    for i, (entry, chosen) in enumerate(lines):
        for other, theirs in lines[:i]:
            common = chosen & theirs
            # the same components, or some of them, and neither line inside the other
            if common and not (chosen < theirs or theirs < chosen) and i not in done:
                done.add(i)
                _overlap(ctx, entry, other, common)
        inside = [s for e, s in lines if s < chosen]
        parts = [s for s in inside if not any(s < t for t in inside)]
        if parts and frozenset().union(*parts) != chosen and i not in done:
            done.add(i)
            left = sorted(chosen - frozenset().union(*parts))
            ctx.add(
                BOX_OVERLAP,
                entry.at("count"),
                f"the component list breaks this line down into {len(parts)} line(s) that do "
                f"not add up to it: {_few(left)} is counted here and by none of them; count "
                "it on a line of its own too, or check which thing each line names",
            )


@check
def box_unlisted(game: Game, ctx: CheckContext) -> None:
    """Every card, token and board is counted by some line of the component list, once the
    game has one (box-unlisted): a deck no line counts is a line deleted, or a deck added
    without its line. What the rulebook's list leaves out says so (``in_box: false``)."""
    box = [e for e in game.meta.box if not e.bring]
    if not box or any(count_entry(game, e)[1] for e in box):
        return  # no list, or a line naming what does not exist: that reference comes first
    owners: list[Deck | TokenSet | Board] = [*game.owners(), *game.boards.values()]
    for owner in owners:
        if not owner.in_box:
            continue
        items: list[Card | Board] = [owner] if isinstance(owner, Board) else list(owner.cards)
        left = [c for c in items if not any(box_selects(e, owner, c) for e in box)]
        if not left:
            continue
        copies = sum(c.copies for c in left)
        kind = {Deck: "deck", TokenSet: "token set", Board: "board"}[type(owner)]
        key = {Deck: "deck", TokenSet: "tokens", Board: "board"}[type(owner)]
        part = (
            ""
            if len(left) == len(items)
            else f" {copies} of its {sum(c.copies for c in items)} copies"
            f" ({_few([f'/{c.id}' for c in left])})"
        )
        whole = len(left) == len(items)
        at = owner.pos if whole or isinstance(owner, Board) else left[0].pos
        ctx.add(
            BOX_UNLISTED,
            at,
            f"{kind} {owner.id}:{part or ' its ' + str(copies) + ' copies'} are counted by "
            "no line of the component list (box:); add the line that counts them "
            f"({{{key}: {owner.id}, count: N}}, or a line per kind), or write in_box: false "
            f"on the {kind} if the rulebook's list leaves it out (a player aid of this copy's "
            "own)",
        )


def _overlap(ctx: CheckContext, entry: BoxEntry, other: BoxEntry, common: frozenset[str]) -> None:
    ctx.add(
        BOX_OVERLAP,
        entry.at("count"),
        f"this line of the component list counts {_few(sorted(common))}, which the line at "
        f"{other.at('count')} counts too, and neither line is a breakdown of the other: each "
        "component is counted on one line (or on a line and the lines that break it down); "
        "check which thing each line names",
    )


def _few(names: list[str], shown: int = 4) -> str:
    listed = ", ".join(n.split("/", 1)[1] for n in names[:shown])
    return listed + (f" and {len(names) - shown} more" if len(names) > shown else "")


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
    """Columns of one row that deal the same cards (Copper to each player, and the Copper left
    in the supply), or from the same deck or token set, together need no more than the box
    holds, even when each alone fits."""
    cells, positions = table.cells[r], table.cell_pos[r]
    pools: dict[tuple[str, str], list[tuple[str, int]]] = {}
    for col in table.columns:
        value = cells.get(col.id)
        if col.deals is None or not isinstance(value, int) or isinstance(value, bool):
            continue
        need = _need(col, value, cells)
        if col.deals.card is not None:
            pools.setdefault(("card", "+".join(sorted(ids_of(col.deals.card)))), []).append(
                (col.id, need)
            )
        pool = _pool_of(game, col.deals)
        if pool is not None:
            pools.setdefault(pool, []).append((col.id, need))
    said: set[str] = set()
    for (kind, name), parts in pools.items():
        have, what, needs = _pool_holds(game, kind, name)
        if len(parts) < 2 or have < 0 or parts[-1][0] in said:
            continue
        need = sum(n for _c, n in parts)
        if need > have and all(n <= have for _c, n in parts):
            said.add(parts[-1][0])
            ctx.add(
                SETUP_EXCEEDS,
                positions.get(parts[-1][0], table.pos),
                f"row {row_name(game, table, r)}: {' + '.join(c for c, _n in parts)} take "
                f"{need} {what}, but the box holds {have}; fix the table or add copies",
                needs=needs,
            )


def _pool_holds(game: Game, kind: str, name: str) -> tuple[int, str, tuple[str, ...]]:
    """How many a pool of the box holds, what it is, and what that count needs (-1: none)."""
    if kind == "card":
        ids = name.split("+")
        cards = {c.id: c for _d, c in game.all_cards()}
        if any(c not in cards for c in ids):
            return -1, "", ()
        needs = tuple(f"{n}/copies" for c in ids for n in needs_thing("card", c))
        return sum(cards[c].copies for c in ids), f"copies of {_describe(ids)}", needs
    thing = game.decks.get(name) if kind == "deck" else game.tokens.get(name)
    if thing is None:
        return -1, "", ()
    what = f"from deck {name}" if kind == "deck" else f"from token set {name}"
    return thing.total, what, needs_copies("decks" if kind == "deck" else "tokens", name)


def row_name(game: Game, table: Any, r: int) -> str:
    """A row as the designer wrote its first cell (a translated cell in the source
    language), for messages; its number when the table has no columns."""
    if not table.columns:
        return str(r + 1)
    return str(plain(table.cells[r].get(table.columns[0].id), game.source_language))
