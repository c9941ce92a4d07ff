"""The game as plain records: what invariants see, and what texts print by reference.

:func:`game_data` builds, from a loaded game, the names an invariant's expression reads
(``decks.events.total``, ``tables.roles``, ``tracks.military.max``...) and its functions. The
same records answer a text's references (``{tracks.military.max}``, :mod:`.refs`), so that a
designer learns one set of names. Records hold plain data only (numbers, strings, lists,
records); texts are in the game's source language.

A table is a :class:`TableRecord`: a list of its rows (``for row in tables.roles``,
``tables.roles[0]``, ``len(tables.roles)``) that also has fields: ``id``, ``key`` (the key
column), ``columns`` (the column definitions), ``rows`` and ``row`` (its rows by key cell:
``tables.setup.row[3].events``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

from ..core.run import current
from .expr import Record
from .model import Card, DeckStep, DrawFrom, Game, Scenario, Table, plain
from .queries import draw_count, player_range


class TableRecord(Record):
    """A table: reads as the list of its rows, and has the fields ``id``, ``title``, ``key``,
    ``columns``, ``rows`` and ``row`` (rows by their key cell)."""

    __slots__ = ()
    _listlike = True

    def _rows(self) -> list[Any]:
        rows: list[Any] = self.data()["rows"]
        return rows

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, int | slice) and not isinstance(key, bool):
            return self._rows()[key]
        return super().__getitem__(key)

    def __iter__(self) -> Iterator[Any]:
        return iter(self._rows())

    def __len__(self) -> int:
        return len(self._rows())

    def __contains__(self, item: Any) -> bool:
        return item in self._rows()

    def __bool__(self) -> bool:
        return bool(self._rows())

    def __add__(self, other: Any) -> list[Any]:
        return self._rows() + list(other)

    def __radd__(self, other: Any) -> list[Any]:
        return list(other) + self._rows()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, TableRecord):
            return other._rows() == self._rows()
        return isinstance(other, list) and other == self._rows()

    def __hash__(self) -> int:
        return id(self)

    def __repr__(self) -> str:
        return f"table {self.data()['id']} ({len(self)} rows)"


RECORD_TYPES: tuple[type, ...] = (Record, TableRecord)
"""The record classes whose fields expressions may read."""


def _card_record(owner_id: str, card: Card) -> Record:
    return Record(
        {
            "id": card.id,
            "copies": card.copies,
            "deck": owner_id,
            "tags": list(card.tags),
            "values": Record(dict(card.values)),
            "stages": card.stages,
            "stage_of": card.stage_of,
            "stage": card.stage,
            "placeholder": card.placeholder,
        },
        card.pos,
    )


def game_data(game: Game) -> tuple[dict[str, Any], dict[str, Callable[..., Any]]]:
    """The names and functions an invariant sees: plain records built from the game (built
    once per game and run; records are read-only)."""
    store = current().store("content.records", limit=64)
    found = store.get(id(game))
    if found is None or found[0] is not game:
        found = store[id(game)] = (game, _build(game))
    names, functions = found[1]
    return dict(names), dict(functions)


def _build(game: Game) -> tuple[dict[str, Any], dict[str, Callable[..., Any]]]:
    cards = {c.id: _card_record(o.id, c) for o, c in game.every_card()}
    players = game.meta.players
    names: dict[str, Any] = {
        "players": Record({"min": players.min, "max": players.max}) if players else None,
        "cards": Record(cards),
        "decks": Record(_deck_records(game)),
        "tokens": Record(_token_records(game)),
        "tables": Record(_table_records(game)),
        "tracks": Record(_track_records(game)),
        "scenarios": Record(_scenario_records(game)),
        "boards": Record(_board_records(game)),
        "True": True,
        "False": False,
        "None": None,
    }

    def count(
        deck: str | None = None,
        tag: str | None = None,
        card: str | None = None,
        value: Any = None,
    ) -> int:
        """Copies of the cards and tokens matching every argument given."""
        total = 0
        for rec in cards.values():
            if deck is not None and rec.deck != deck:
                continue
            if tag is not None and tag not in rec.tags:
                continue
            if card is not None and rec.id != card:
                continue
            if value is not None:
                wanted = value.data() if isinstance(value, Record) else value
                if not isinstance(wanted, dict) or any(
                    rec.values[k] != v if k in rec.values else True for k, v in wanted.items()
                ):
                    continue
            total += rec.copies
        return total

    return names, {"count": count}


def _deck_records(game: Game) -> dict[str, Record]:
    return {
        d.id: Record(
            {
                "id": d.id,
                "total": d.total,
                "cards": len(d.cards),
                "ids": [c.id for c in d.cards],
                "back": Record(dict(d.back.values) if d.back else {}),
            },
            d.pos,
        )
        for d in game.decks.values()
    }


def _token_records(game: Game) -> dict[str, Record]:
    return {
        t.id: Record(
            {"id": t.id, "total": t.total, "cards": len(t.tokens), "ids": [c.id for c in t.tokens]},
            t.pos,
        )
        for t in game.tokens.values()
    }


def key_column(table: Table) -> str | None:
    """The id of a table's key column: ``covers: {key: ...}``, else the first column."""
    if table.covers is not None and table.covers.key:
        return table.covers.key
    return table.columns[0].id if table.columns else None


_ICON_KEY_RE = re.compile(r"\{([A-Za-z_][A-Za-z0-9_-]*)\}")


def key_name(value: Any) -> str:
    """A key cell as a reference names its row: its text (a number as written, ``3``), an
    icon alone (``{black}``) by the icon's name (``black``)."""
    text = str(value)
    icon = _ICON_KEY_RE.fullmatch(text.strip())
    return icon.group(1) if icon else text.strip()


def _table_record(game: Game, t: Table) -> TableRecord:
    """A table: its rows (each positioned at its key cell), its columns and its rows by key."""
    src = game.source_language
    key = key_column(t)
    rows = [
        Record({k: plain(v, src) for k, v in cells.items()}, positions.get(key) if key else t.pos)
        for cells, positions in zip(t.cells, t.cell_pos, strict=True)
    ]
    by_key: dict[str, Record] = {}
    for row in rows:
        if key is not None and key in row:
            by_key.setdefault(key_name(row[key]), row)
    columns = [
        Record(
            {
                "id": c.id,
                "title": plain(c.title, src) if c.title is not None else None,
                "unit": c.unit,
                "deals": Record(
                    {
                        "card": [c.deals.card] if isinstance(c.deals.card, str)
                        else list(c.deals.card or []),
                        "deck": c.deals.deck,
                        "tokens": c.deals.tokens,
                        "per": c.deals.per,
                    },
                    c.deals.pos,
                )
                if c.deals is not None
                else None,
            },
            c.pos,
        )
        for c in t.columns
    ]  # fmt: skip
    return TableRecord(
        {
            "id": t.id,
            "title": plain(t.title, src) if t.title is not None else None,
            "key": key,
            "columns": columns,
            "rows": rows,
            "row": Record(by_key),
        },
        t.pos,
    )


def _table_records(game: Game) -> dict[str, TableRecord]:
    """Each table as its rows, a row positioned at its key cell; texts in the source language."""
    return {t.id: _table_record(game, t) for t in game.tables.values()}


def _track_records(game: Game) -> dict[str, Record]:
    return {
        t.id: Record(
            {
                "id": t.id,
                "min": t.min,
                "max": t.max,
                "start": t.start,
                "length": t.max - t.min + 1,
                "board": t.board,
            },
            t.pos,
        )
        for t in game.tracks.values()
    }


def _refs(refs: list[Any]) -> list[Record]:
    return [Record({"card": r.card, "copies": r.copies}, r.pos) for r in refs]


def _filter(f: Any) -> Record | None:
    if not f:
        return None
    return Record({"tag": f.tag, "values": Record(dict(f.values)), "card": f.card}, f.pos)


def _count(value: Any) -> Any:
    """A step's count as written: a number, an expression's text, players -> number, or the
    table and column it takes its numbers from."""
    if isinstance(value, DrawFrom):
        return Record({"table": value.table, "column": value.column}, value.pos)
    return Record({str(k): v for k, v in value.items()}) if isinstance(value, dict) else value


def _step_record(step: DeckStep, players: tuple[int, int]) -> Record:
    """One card organisation step of a scenario, as its fields; ``draws``: how many it
    draws for each player count the scenario allows (the form ``draw:`` takes aside)."""
    draws: dict[str, Any] = {}
    if step.draw is not None:
        for n in range(players[0], players[1] + 1):
            got = draw_count(step, n)
            if isinstance(got, int):
                draws[str(n)] = got
    return Record(
        {
            "deck": step.deck,
            "only": _filter(step.only),
            "exclude": _filter(step.exclude),
            "remove": _refs(step.remove),
            "draw": _count(step.draw),
            "draws": Record(draws),
            "order": _refs(step.order),
            "top": _refs(step.top),
            "bottom": _refs(step.bottom),
            "shuffle": step.shuffle,
            "deal": _count(step.deal),
            "reveal": _count(step.reveal),
            "piles": _count(step.piles),
            "each_pile": _filter(step.each_pile),
        },
        step.pos,
    )


def _scenario_record(game: Game, s: Scenario) -> Record:
    src = game.source_language
    lo, hi = player_range(game, s)
    return Record(
        {
            "id": s.id,
            "start": Record(dict(s.start)),
            "players": Record({"min": s.players.min, "max": s.players.max}) if s.players else None,
            "counts": list(range(lo, hi + 1)),
            "extends": s.extends,
            "difficulty": plain(s.difficulty, src),
            "boards": [Record({"board": b.board, "side": b.side}, b.pos) for b in s.boards],
            "cards": [_step_record(step, (lo, hi)) for step in s.cards],
            "difficulties": Record(
                {d.id: Record(dict(d.values), d.pos) for d in s.difficulties.values()}
            ),
        },
        s.pos,
    )


def _scenario_records(game: Game) -> dict[str, Record]:
    return {s.id: _scenario_record(game, s) for s in game.scenarios.values()}


def _board_records(game: Game) -> dict[str, Record]:
    return {
        b.id: Record({"id": b.id, "copies": b.copies, "width": b.size.w, "height": b.size.h}, b.pos)
        for b in game.boards.values()
    }
