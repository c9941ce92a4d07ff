"""A sheet's header and rows as the YAML the format expects: a list of mappings that remember
the sheet, row and column of every value.

The header names a field of the item per column, with dots for what YAML nests: ``title`` (a
text in the source language), ``title.it`` (one language of it), ``values.cost``,
``back.text.en``, ``text.en.one`` (a plural form). What a column names is worked out once, from
the model's type hints; each cell then becomes what YAML would hold there: a number where the
field takes one, true/false where it takes a truth value, a list where it takes a list (cells
split at commas), a text elsewhere. The rows then go through the same conversion and checks as
YAML does, so every finding names the cell (``FILE:ROW:COL``).
"""

from __future__ import annotations

import dataclasses
import functools
import re
import types
import typing
from dataclasses import dataclass, field
from typing import Any, Literal, get_args, get_origin

from ...core.findings import Pos
from ...core.rules import SCHEMA, SHEET, UNKNOWN_KEY, YAML_DUPLICATE_KEY, Severity
from ..model.text import Text
from ..names import meant_key
from ..schema import hints, public_fields, yaml_key
from ..yamlio import YSeq

SHEET_RULE = SHEET
# a finding met while reading a sheet: rule, position, message, severity (None: the rule's)
Issue = tuple[str, Pos, str, Severity | None, str | None]


@dataclass(frozen=True)
class Column:
    index: int  # 0-based, in the grid
    name: str  # the header as written
    path: tuple[str, ...]
    kind: Literal["text", "value", "list", "cell"]
    want: Any = None  # the leaf annotation of a value
    text: int = 0  # for a text: how many parts of the path lead to the text field
    takes: frozenset[type] = frozenset()  # the scalar types ``want`` accepts

    def __post_init__(self) -> None:
        if self.want is not None:
            object.__setattr__(self, "takes", frozenset(_members(self.want)))


def letter(index: int) -> str:
    """The spreadsheet name of a 0-based column index (0 -> A, 26 -> AA)."""
    out = ""
    index += 1
    while index:
        index, rem = divmod(index - 1, 26)
        out = chr(65 + rem) + out
    return out


def _is_union(tp: Any) -> bool:
    return get_origin(tp) in (typing.Union, types.UnionType)


def _optional(tp: Any) -> Any:
    if _is_union(tp):
        args = [a for a in get_args(tp) if a is not type(None)]
        if len(args) == 1:
            return args[0]
    return tp


def _is_text(tp: Any) -> bool:
    return tp is Text


@dataclass(frozen=True)
class Unknown:
    """A header naming a key the item does not have: the unknown-key warning, and the field
    meant (``title/en`` for ``titel.en``, ``values/cost`` for ``cost``), if any; worked out
    only when reported (a header may hold a million of them). ``rest``: the parts of the
    header after the key; ``number``: its cells hold numbers."""

    cls: type
    key: str
    rest: tuple[str, ...] = ()
    number: bool = False

    def keys(self) -> list[str]:
        return sorted(yaml_key(f) for f in public_fields(self.cls))

    def label(self) -> str:
        return str(getattr(self.cls, "label", self.cls.__name__.lower()))

    @functools.cached_property
    def _meant(self) -> tuple[str, str | None]:
        """The did-you-mean hint and the key meant (worked out once: message and meant)."""
        return meant_key(self.key, self.keys(), self.number and not self.rest)

    @property
    def message(self) -> str:
        hint = self._meant[0]
        return (
            f"unknown key {self.key!r} in {self.label()}; {hint}accepted keys: "
            f"{', '.join(self.keys())}"
        )

    @property
    def meant(self) -> str:
        return "/".join([self._meant[1] or self.key, *self.rest])


Named = Column | str | Unknown  # what a header cell names: a column, or why it names none
MAX_HEADER_ISSUES = 10  # findings about a header's columns one by one; more are summed up


@functools.cache
def _by_key(cls: type) -> dict[str, dataclasses.Field[Any]]:
    """The fields of a dataclass by their YAML key (worked out once per class)."""
    return {yaml_key(f): f for f in public_fields(cls)}


def field_column(
    cls: type, index: int, name: str, path: tuple[str, ...], number: bool = False
) -> Named:
    """What column ``name`` of a sheet of ``cls`` items holds, an unknown key, or why it
    cannot be read; ``number``: its cells hold numbers (an unknown name is then a value)."""
    tp: Any = cls
    for depth, part in enumerate(path):
        tp = _optional(tp)
        if _is_text(tp):
            if len(path) - depth > 2:
                return f"column {name!r}: a text takes a language (and a plural form) after it"
            return Column(index, name, path, "text", text=depth)
        if dataclasses.is_dataclass(tp) and isinstance(tp, type):
            found = _by_key(tp).get(part)
            if found is None:
                return Unknown(tp, part, path[depth + 1 :], number and depth == 0)
            tp = hints(tp)[found.name]
        elif get_origin(tp) is dict:
            tp = get_args(tp)[1]
        else:
            parent = ".".join(path[:depth])
            return f"column {name!r}: {parent} is a single value; name the column {parent}"
    return _leaf(index, name, path, _optional(tp))


def _leaf(index: int, name: str, path: tuple[str, ...], tp: Any) -> Column | str:
    if _is_text(tp):
        return Column(index, name, path, "text", text=len(path))
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        fields = ", ".join(f"{name}.{yaml_key(f)}" for f in public_fields(tp)[:3])
        return f"column {name!r} names a group of fields; give each its column ({fields}...)"
    if get_origin(tp) is dict:
        return f"column {name!r} names a mapping; give each entry its column: {name}.NAME"
    if get_origin(tp) is list:
        item = _optional(get_args(tp)[0])
        if dataclasses.is_dataclass(item) or get_origin(item) in (list, dict):
            return (
                f"column {name!r}: a list of {getattr(item, 'label', 'mappings')} cannot be "
                "written in a cell; keep this field in YAML"
            )
        return Column(index, name, path, "list", want=item)
    return Column(index, name, path, "value", want=tp)


def table_column(
    ids: list[str] | None,
) -> typing.Callable[[int, str, tuple[str, ...]], Named]:
    """How a table sheet's header names its columns: a column id (of ``ids``, when the YAML
    lists the columns), with a language after a dot for a text in several languages."""

    def name_column(index: int, name: str, path: tuple[str, ...]) -> Named:
        if ids is not None and path[0] not in ids:
            return f"unknown column {path[0]!r}; columns: {', '.join(ids)}"
        if len(path) == 1:
            return Column(index, name, path, "cell")
        if len(path) == 2:
            return Column(index, name, path, "text", text=1)
        return (
            f"column {name!r}: write a column id, with a language after a dot (e.g. {path[0]}.en)"
        )

    return name_column


def numeric_columns(grid: list[list[Any]], first: int) -> set[int]:
    """The columns below row ``first`` (0-based header) whose cells all read as numbers."""
    seen: dict[int, bool] = {}
    for row in grid[first + 1 :]:
        for i, cell in enumerate(row):
            if cell is not None and cell != "":
                number = isinstance(as_number(cell), int | float) and not isinstance(cell, bool)
                seen[i] = seen.get(i, True) and number
    return {i for i, number in seen.items() if number}


def _members(tp: Any) -> set[Any]:
    if get_origin(tp) is Literal:
        return {type(a) for a in get_args(tp)}
    args = get_args(tp) if _is_union(tp) else ()
    return set().union(*(_members(a) for a in args)) if args else {tp}


_INT = re.compile(r"[-+]?[0-9]{1,30}")
_FLOAT = re.compile(r"[-+]?([0-9]+\.[0-9]*|\.[0-9]+|[0-9]+)([eE][-+]?[0-9]{1,3})?")


def as_number(value: Any) -> Any:
    """A text that reads as a number (as YAML reads ``3`` or ``2.5``) as that number."""
    if isinstance(value, str):
        if _INT.fullmatch(value):
            return int(value)
        if _FLOAT.fullmatch(value):
            number = float(value)
            return int(number) if number.is_integer() and abs(number) < 2**53 else number
    return value


def cell_value(value: Any, column: Column, pos: Pos, typed: bool) -> Any:
    """A non-empty cell as the YAML value its column's field takes. ``typed``: the cell comes
    from a workbook, which tells numbers from texts (a CSV cell is read as YAML reads a plain
    value); a text cell is then a number only where the field takes no text."""
    if column.kind == "text":
        return ("TRUE" if value else "FALSE") if isinstance(value, bool) else value
    if column.kind == "cell":
        return value if typed else as_number(value)
    if column.kind == "list":
        parts = value.split(",") if isinstance(value, str) else [value]
        seq = YSeq(pos)
        for part in parts:
            part = part.strip() if isinstance(part, str) else part
            item = cell_value(part, _item(column), pos, typed)
            if item not in ("", None):
                seq.append(item)
                seq.ipos.append(pos)
        return seq
    kinds = column.takes
    if bool in kinds and isinstance(value, str) and value.lower() in ("true", "false"):
        return value.lower() == "true"
    if kinds & {int, float} and not (typed and str in kinds):
        return as_number(value)
    if isinstance(value, bool) and bool not in kinds:
        return "TRUE" if value else "FALSE"
    return value


def _item(column: Column) -> Column:
    return Column(column.index, column.name, column.path, "value", want=column.want)


# --- the header ---------------------------------------------------------------------------------


@dataclass
class Header:
    """What each column of a sheet holds, and what is wrong with the header."""

    row: int  # the header's row number (1-based)
    columns: list[Column] = field(default_factory=list)
    issues: list[Issue] = field(default_factory=list)


def parse_header(
    cells: list[Any],
    row: int,
    rel: str,
    name_column: typing.Callable[[int, str, tuple[str, ...]], Named],
) -> Header:
    """The header row ``cells`` (row number ``row``) read with ``name_column``: a column, or
    the message of the problem with its name. Past :data:`MAX_HEADER_ISSUES` problems of one
    kind, the rest are one finding with their count."""
    header = Header(row)
    seen = _Seen()
    unknown = _Tally[tuple[Pos, str, Unknown]]()
    problems = _Tally[Issue]()
    for i, raw in enumerate(cells):
        if raw is None:
            continue
        name = str(raw).strip()
        pos = Pos(rel, row, i + 1)
        if name.startswith("#"):
            continue  # a column of notes
        path = tuple(p.strip() for p in name.split("."))
        if not all(path):
            problems.add(
                (SCHEMA, pos, f"column {name!r} has an empty part; write e.g. title.en", None, None)
            )
            continue
        found = name_column(i, name, path)
        if isinstance(found, Unknown):
            unknown.add((pos, name, found))
            continue
        if isinstance(found, str):
            problems.add((SCHEMA, pos, found, None, None))
            continue
        clash = place(seen.clash(found), pos)
        if clash is not None:
            problems.add(clash)
            continue
        seen.add(found)
        header.columns.append(found)
    header.issues = _unknown_issues(unknown) + _capped(problems, "columns of this header")
    return header


T = typing.TypeVar("T")


class _Tally(typing.Generic[T]):
    """The first MAX_HEADER_ISSUES + 1 items added, and how many were."""

    def __init__(self) -> None:
        self.items: list[T] = []
        self.count = 0

    def add(self, item: T) -> None:
        self.count += 1
        if len(self.items) <= MAX_HEADER_ISSUES:
            self.items.append(item)


def _unknown_issues(unknown: _Tally[tuple[Pos, str, Unknown]]) -> list[Issue]:
    if unknown.count <= MAX_HEADER_ISSUES:
        return [
            (UNKNOWN_KEY, pos, found.message, None, found.meant) for pos, _, found in unknown.items
        ]
    pos, _, first = unknown.items[0]
    shown = ", ".join(f"{name!r} ({letter(p.col - 1)}{p.line})" for p, name, _ in unknown.items[:5])
    message = (
        f"{unknown.count:,} columns name no key of {first.label()}, so pnp does not read them: "
        f"{shown}...; accepted keys: {', '.join(first.keys())} (start a header with # to mark "
        "a column of notes)"
    )
    return [(UNKNOWN_KEY, pos, message, None, None)]


def _capped(tally: _Tally[Issue], what: str) -> list[Issue]:
    """The first MAX_HEADER_ISSUES issues, and one more that counts the rest."""
    issues = tally.items
    if tally.count <= MAX_HEADER_ISSUES:
        return issues
    rest = issues[MAX_HEADER_ISSUES:]
    pos = rest[0][1]
    message = (
        f"{tally.count - MAX_HEADER_ISSUES:,} more {what} have problems like the ones above "
        f"(the next at column {letter(pos.col - 1)}); fix those first"
    )
    return [*issues[:MAX_HEADER_ISSUES], (rest[0][0], pos, message, rest[0][3], None)]


class _Seen:
    """The columns read so far, by path and by every part of a path (a clash is found in
    as many steps as a path has parts, whatever the header's width)."""

    def __init__(self) -> None:
        self.paths: dict[tuple[str, ...], Column] = {}
        self.under: dict[tuple[str, ...], Column] = {}  # a proper prefix -> a column below it

    def add(self, column: Column) -> None:
        self.paths[column.path] = column
        for n in range(1, len(column.path)):
            self.under.setdefault(column.path[:n], column)

    def clash(self, column: Column) -> Issue | None:
        pos = Pos("", 0, 0)
        same = self.paths.get(column.path)
        if same is not None:
            return (
                YAML_DUPLICATE_KEY,
                pos,
                f"column {column.name!r} appears twice (first in column {letter(same.index)});"
                " keep one of them",
                None,
                None,
            )
        other = self.under.get(column.path)
        if other is None:
            other = next(
                (self.paths[p] for n in range(1, len(column.path)) if (p := column.path[:n])
                 in self.paths),
                None,
            )  # fmt: skip
        if other is None:
            return None
        text = ".".join(other.path if len(other.path) < len(column.path) else column.path)
        return (
            SCHEMA,
            pos,
            f"columns {other.name!r} (column {letter(other.index)}) and {column.name!r} both "
            f"give {text}: a text is one column {text} in the source language, or one column "
            f"per language ({text}.en, {text}.it...); rename one of them",
            None,
            text.replace(".", "/"),
        )


def place(issue: Issue | None, pos: Pos) -> Issue | None:
    return None if issue is None else (issue[0], pos, issue[2], issue[3], issue[4])


def blank_headers(grid: list[list[Any]], header: Header, rel: str) -> list[Issue]:
    """Columns that hold values below a header cell that names nothing (one pass over the
    cells, whatever the sheet's shape)."""
    named = {c.index for c in header.columns}
    cells = grid[header.row - 1]
    first: dict[int, int] = {}  # column index -> the first row with a value there
    for r, row in enumerate(grid[header.row :], header.row + 1):
        for i, value in enumerate(row):
            if (
                value is None
                or i in first
                or i in named
                or (i < len(cells) and cells[i] is not None)
            ):
                continue
            first[i] = r
    out = _Tally[Issue]()
    for i, r in sorted(first.items()):
        out.add(
            (
                SHEET_RULE,
                Pos(rel, r, i + 1),
                f"column {letter(i)} has values but no header, so pnp does not read them; name "
                f"it in row {header.row} (e.g. text.en), or start its header with # to mark it "
                "as notes",
                Severity.WARNING,
                None,
            )
        )
    return _capped(out, "columns without a header")
