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
# a finding met while reading a sheet: rule, position, message, severity (None: the rule's),
# and the field of every item it breaks ("title/en"; "": the whole list; None: none)
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
    meant (``title/en`` for ``titel.en``, ``values/cost`` for ``cost``), if any."""

    message: str
    meant: str | None = None


def unknown_key(cls: type, key: str, rest: tuple[str, ...] = (), number: bool = False) -> Unknown:
    """The warning YAML gives for an unknown key of ``cls`` (pnp.content.schema); ``rest``:
    the parts of the header after the key; ``number``: its cells hold numbers."""
    keys = sorted(yaml_key(f) for f in public_fields(cls))
    label = getattr(cls, "label", cls.__name__.lower())
    hint, meant = meant_key(key, keys, number and not rest)
    message = f"unknown key {key!r} in {label}; {hint}accepted keys: {', '.join(keys)}"
    return Unknown(message, "/".join([meant or key, *rest]))


def field_column(
    cls: type, index: int, name: str, path: tuple[str, ...], number: bool = False
) -> Column | Unknown | str:
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
            by_key = {yaml_key(f): f for f in public_fields(tp)}
            found = by_key.get(part)
            if found is None:
                return unknown_key(tp, part, path[depth + 1 :], number and depth == 0)
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
) -> typing.Callable[[int, str, tuple[str, ...]], Column | Unknown | str]:
    """How a table sheet's header names its columns: a column id (of ``ids``, when the YAML
    lists the columns), with a language after a dot for a text in several languages."""

    def name_column(index: int, name: str, path: tuple[str, ...]) -> Column | str:
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
    name_column: typing.Callable[[int, str, tuple[str, ...]], Column | Unknown | str],
) -> Header:
    """The header row ``cells`` (row number ``row``) read with ``name_column``: a column, or
    the message of the problem with its name."""
    header = Header(row)
    seen: dict[tuple[str, ...], Column] = {}
    for i, raw in enumerate(cells):
        if raw is None:
            continue
        name = str(raw).strip()
        pos = Pos(rel, row, i + 1)
        if name.startswith("#"):
            continue  # a column of notes
        path = tuple(p.strip() for p in name.split("."))
        if not all(path):
            header.issues.append(
                (SCHEMA, pos, f"column {name!r} has an empty part; write e.g. title.en", None, None)
            )
            continue
        found = name_column(i, name, path)
        if isinstance(found, Unknown):
            header.issues.append((UNKNOWN_KEY, pos, found.message, None, found.meant))
            continue
        if isinstance(found, str):
            header.issues.append((SCHEMA, pos, found, None, None))
            continue
        clash = place(_clash(found, seen), pos)
        if clash is not None:
            header.issues.append(clash)
            continue
        seen[found.path] = found
        header.columns.append(found)
    return header


def _clash(column: Column, seen: dict[tuple[str, ...], Column]) -> Issue | None:
    pos = Pos("", 0, 0)
    for path, other in seen.items():
        where = f"column {letter(other.index)}"
        if path == column.path:
            return (
                YAML_DUPLICATE_KEY,
                pos,
                f"column {column.name!r} appears twice (first in {where}); keep one of them",
                None,
                None,
            )
        short, long_ = sorted((path, column.path), key=len)
        if long_[: len(short)] == short:
            text = ".".join(short)
            return (
                SCHEMA,
                pos,
                f"columns {other.name!r} ({where}) and {column.name!r} both give {text}: "
                f"a text is one column {text} in the source language, or one column per "
                f"language ({text}.en, {text}.it...); rename one of them",
                None,
                "/".join(short),
            )
    return None


def place(issue: Issue | None, pos: Pos) -> Issue | None:
    return None if issue is None else (issue[0], pos, issue[2], issue[3], issue[4])


def blank_headers(grid: list[list[Any]], header: Header, rel: str) -> list[Issue]:
    """Columns that hold values below a header cell that names nothing."""
    named = {c.index for c in header.columns}
    cells = grid[header.row - 1]
    out: list[Issue] = []
    width = max((len(r) for r in grid[header.row :]), default=0)
    for i in range(width):
        if i in named or (i < len(cells) and cells[i] is not None):
            continue
        for r, row in enumerate(grid[header.row :], header.row + 1):
            if i < len(row) and row[i] is not None:
                out.append(
                    (
                        SHEET_RULE,
                        Pos(rel, r, i + 1),
                        f"column {letter(i)} has values but no header, so pnp does not read "
                        f"them; name it in row {header.row} (e.g. text.en), or start its header "
                        "with # to mark it as notes",
                        Severity.WARNING,
                        None,
                    )
                )
                break
    return out
