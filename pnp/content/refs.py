"""References: a text prints a number of the game's data, so that it is written once.

A reference is written in braces like an icon, with dots: ``{tracks.military.max}``,
``{decks.events.total}``, ``{tables.setup.3.events}`` (a table's row by its key cell, then a
column), ``{scenarios.standard.start.status}``. Its names are the fields invariants read
(:mod:`.records`), and it must give a number. It is resolved when a text is printed, in every
language (:func:`fill`, called by the translator), and checked by validation (an unknown one
is a ``reference`` finding with a suggestion). A text may also name a value of its own, given
by what it belongs to (its *scope*): a line of the component list writes ``{count}`` for its
count, a scenario step's note ``{draw}``, ``{deal}``, ``{reveal}`` or ``{piles}`` when the
step gives one number.

:func:`link` finishes a loaded game: the scopes of its texts, and the numbers of scenario draws
taken from a table column (``draw: {table: setup, column: events}``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from .expr import Record
from .model import DrawFrom, Game, Text
from .records import TableRecord, game_data, key_column, key_name
from .schema import suggest

# a {token} with a dot: a reference (the text markup reads the same braces as a token)
REF_RE = re.compile(r"\{([A-Za-z_][A-Za-z0-9_-]*\.[A-Za-z0-9_.-]*)\}")
_LOCAL_RE = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")

# the names a reference starts with, and what one of their entries is called
ROOTS = {
    "players": "",
    "cards": "card",
    "decks": "deck",
    "tokens": "token set",
    "tables": "table",
    "tracks": "track",
    "boards": "board",
    "scenarios": "scenario",
}

SCOPE_NAMES = {"box": ("count", "per_player")}
"""The values a text names for itself, by what it belongs to: a box line's ``{count}``."""


class RefError(Exception):
    """A reference that names nothing, or something that is not a number: the message says
    what is there instead."""


def paths(text: str) -> list[str]:
    """The references of a text, in order (``decks.events.total``...)."""
    return REF_RE.findall(text) if "." in text and "{" in text else []


def lookup(game: Game, path: str) -> int | float:
    """The number a reference prints; RefError says why there is none."""
    parts = path.split(".")
    head = parts[0]
    if head not in ROOTS:
        hint = suggest(head, list(ROOTS))
        raise RefError(
            f"starts with {head!r}, which is no name of the game's data; {hint}a reference "
            f"starts with one of {', '.join(ROOTS)} (e.g. {{tracks.ID.max}})"
        )
    if "" in parts:
        raise RefError("has an empty part (two dots, or a dot at an end)")
    names, _functions = game_data(game)
    value: Any = names[head]
    if value is None:
        raise RefError("reads players, but game.yaml gives no players: {min: ..., max: ...}")
    for i, part in enumerate(parts[1:], 1):
        value = _step(value, part, parts[:i], ROOTS[head] if i == 1 else "")
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise RefError(
            f"gives {_what(value)}, not a number: a reference prints a number of the data "
            f"({_fields_hint(value, parts)})"
        )
    return value


def _step(value: Any, part: str, before: list[str], kind: str) -> Any:
    """The entry ``part`` of ``value`` (reached by ``before``)."""
    where = ".".join(before)
    if isinstance(value, TableRecord):
        rows = value["row"]
        if part in rows:
            return rows[part]
        if part in value and part != "row":
            return value[part]
        keys = [str(k) for k, _r in rows.items()]
        hint = suggest(part, keys)
        raise RefError(
            f"names row {part!r} of table {value['id']}, whose key column "
            f"({value['key']}) has no such cell; {hint}its rows: {_listed(keys)}"
        )
    if isinstance(value, Record):
        if part in value:
            return value[part]
        keys = [str(k) for k, _v in value.items()]
        hint = suggest(part, keys)
        what = f"names no {kind} {part!r}" if kind else f"names {part!r}, which {where} lacks"
        plural = f"{kind}s" if kind else "its entries"
        raise RefError(f"{what}; {hint}{plural}: {_listed(keys)}")
    if isinstance(value, list) and part.isdigit() and int(part) < len(value):
        return value[int(part)]
    if isinstance(value, list):
        raise RefError(
            f"names item {part!r} of {where}, a list of {len(value)}: name an item by its "
            "place, 0 first"
        )
    raise RefError(f"names {part!r} of {where}, which is {_what(value)}")


def _listed(keys: list[str], shown: int = 12) -> str:
    return ", ".join(keys[:shown]) + (" ..." if len(keys) > shown else "") or "none"


def _what(value: Any) -> str:
    if value is None:
        return "nothing (no value)"
    if isinstance(value, str):
        return f"the text {value!r}"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, list | TableRecord):
        return "a list"
    return "a record"


def _fields_hint(value: Any, parts: list[str]) -> str:
    if isinstance(value, Record) and not isinstance(value, TableRecord):
        numbers = [k for k, v in value.items() if isinstance(v, int | float)]
        numbers = [k for k in numbers if not isinstance(value[k], bool)]
        if numbers:
            return "add one of " + ", ".join(f".{k}" for k in numbers[:8])
    return "see docs/format.md, References"


def number_text(value: int | float, lang: str) -> str:
    """A number as a text prints it: a whole number in plain digits (``1200``, as designers
    write them), a decimal in the language's way (``1,5`` in Italian)."""
    if isinstance(value, int) or float(value).is_integer():
        return str(int(value))
    from babel.numbers import format_decimal

    try:
        return str(format_decimal(value, format="0.###", locale=lang or "en"))
    except (ValueError, LookupError):
        return f"{value:g}"


def fill(game: Game, text: str, lang: str, scope: Mapping[str, Any] | None = None) -> str:
    """``text`` with its references (and the names of its scope) replaced by their numbers;
    what cannot be resolved stays as written (validation reports it)."""
    if "{" not in text:
        return text
    if scope:
        text = _LOCAL_RE.sub(lambda m: _local(m, scope, lang), text)
    if "." not in text:
        return text
    return REF_RE.sub(lambda m: _resolved(game, m, lang), text)


def _local(m: re.Match[str], scope: Mapping[str, Any], lang: str) -> str:
    value = scope.get(m.group(1))
    if isinstance(value, int | float) and not isinstance(value, bool):
        return number_text(value, lang)
    return m.group(0)


def _resolved(game: Game, m: re.Match[str], lang: str) -> str:
    try:
        return number_text(lookup(game, m.group(1)), lang)
    except RefError:
        return m.group(0)


def count_value(game: Game, text: Text, values: Mapping[str, Any] | None) -> Any:
    """The value that chooses a plural text's form: a value given (a face's), a name of the
    text's scope (a box line's ``count``), or a reference (``decks.events.total``)."""
    name = text.count
    if not name:
        return None
    if values is not None and name in values:
        return values[name]
    if name in text.scope:
        return text.scope[name]
    if "." in name:
        try:
            return lookup(game, name)
        except RefError:
            return None
    return None


# --- a loaded game, linked --------------------------------------------------------------------


def link(game: Game) -> None:
    """What a game's texts and steps take from the rest of it: a box line's ``{count}`` (and
    ``{per_player}``), the numbers of a draw from a table column."""
    for entry in game.meta.box:
        if entry.item is not None:
            entry.item.scope = {"count": entry.count}
            if entry.per_player is not None:
                entry.item.scope["per_player"] = entry.per_player
    for scenario in game.scenarios.values():
        for step in scenario.cards:
            if step.note is not None:
                step.note.scope = {}
            for name in ("draw", "deal", "reveal", "piles"):
                value = getattr(step, name)
                if isinstance(value, DrawFrom):
                    _draws_from(game, value, name)
                elif step.note is not None and isinstance(value, int):
                    step.note.scope[name] = value  # "The {reveal} face-up cards…"


def _draws_from(game: Game, draw: DrawFrom, name: str = "draw") -> None:
    """Fill ``draw.values`` (players -> number) from its table's column, or say why not (again
    from scratch: the audit links a game once more after each change to it)."""
    draw.values.clear()
    draw.problem = ""
    table = game.tables.get(draw.table)
    if table is None:
        known = sorted(game.tables)
        draw.problem = (
            f"{name}: no table {draw.table!r}; {suggest(draw.table, known)}tables: {_listed(known)}"
        )
        return
    if table.column(draw.column) is None:
        known = [c.id for c in table.columns]
        draw.problem = (
            f"{name}: table {draw.table} has no column {draw.column!r}; "
            f"{suggest(draw.column, known)}columns: {_listed(known)}"
        )
        return
    key = key_column(table) or ""
    for cells in table.cells:
        counts = player_counts(cells.get(key))
        cell = cells.get(draw.column)
        for n in counts:
            if isinstance(cell, int) and not isinstance(cell, bool):
                draw.values.setdefault(n, cell)
            elif n not in draw.values:
                draw.problem = (
                    f"draw: table {draw.table}, row {key_name(cells.get(key))}, column "
                    f"{draw.column} holds {cell!r}, not a whole number"
                )


def player_counts(cell: Any) -> list[int]:
    """The player counts a key cell names: ``3``, ``"3"``, ``"2-4"`` or ``"2, 3"``."""
    if isinstance(cell, int) and not isinstance(cell, bool):
        return [cell]
    if not isinstance(cell, str):
        return []
    out: list[int] = []
    for part in cell.split(","):
        m = re.fullmatch(r"\s*(\d+)\s*(?:[-–]\s*(\d+)\s*)?", part)
        if m is None:
            return []
        lo, hi = int(m.group(1)), int(m.group(2) or m.group(1))
        if hi - lo > 1000:
            return []
        out.extend(range(lo, hi + 1))
    return out
