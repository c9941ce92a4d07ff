"""The rows of a sheet under its header, as YAML mappings with the position of every cell."""

from __future__ import annotations

from typing import Any

from ...core.findings import Pos
from ..yamlio import YMap, YSeq
from .columns import Column, Header, cell_value


def items(grid: list[list[Any]], header: Header, rel: str, pos: Pos, typed: bool) -> YSeq:
    """One mapping per row below the header that has a value in a column pnp reads (rows with
    nothing, or only notes, are skipped); each remembers its row (column 1) and cells.
    ``typed``: the grid comes from a workbook (see :func:`.columns.cell_value`)."""
    seq = YSeq(pos)
    groups = _text_groups(header.columns)
    for index in range(header.row, len(grid)):
        item = _item(grid[index], header, rel, index + 1, groups, typed)
        if item is not None:
            seq.append(item)
            seq.ipos.append(item.pos)
    return seq


def _item(
    row: list[Any],
    header: Header,
    rel: str,
    number: int,
    groups: dict[tuple[str, ...], dict[str, list[Column]]],
    typed: bool,
) -> YMap | None:
    item = YMap(Pos(rel, number, 1))
    for column in header.columns:
        raw = row[column.index] if column.index < len(row) else None
        if raw is None:
            continue
        cpos = Pos(rel, number, column.index + 1)
        value = cell_value(raw, column, cpos, typed)
        if isinstance(value, YSeq) and not value:
            continue
        _put(item, column.path, value, cpos, Pos(rel, header.row, column.index + 1))
    if not item:
        return None
    for prefix, languages in groups.items():
        _point_at_missing(item, prefix, languages, row, rel, number)
    return item


def _put(item: YMap, path: tuple[str, ...], value: Any, pos: Pos, header: Pos) -> None:
    node = item
    for part in path[:-1]:
        child = node.get(part)
        if not isinstance(child, YMap):  # the header allows no value and mapping at one place
            child = node[part] = YMap(pos)
            node.kpos[part] = header
            node.vpos[part] = pos
        node = child
    node[path[-1]] = value
    node.kpos[path[-1]] = header
    node.vpos[path[-1]] = pos


def _text_groups(columns: list[Column]) -> dict[tuple[str, ...], dict[str, list[Column]]]:
    """The columns of each text written per language: text path -> language -> columns."""
    groups: dict[tuple[str, ...], dict[str, list[Column]]] = {}
    for c in columns:
        if c.kind == "text" and len(c.path) > c.text and c.path[c.text] != "count":
            by_lang = groups.setdefault(c.path[: c.text], {})
            by_lang.setdefault(c.path[c.text], []).append(c)
    return groups


def _point_at_missing(
    item: YMap,
    prefix: tuple[str, ...],
    languages: dict[str, list[Column]],
    row: list[Any],
    rel: str,
    number: int,
) -> None:
    """A text with a language cell left empty is placed at that cell: a missing translation
    is reported where it is to be written."""
    holder: Any = item
    for part in prefix[:-1]:
        holder = holder.get(part) if isinstance(holder, YMap) else None
    if not isinstance(holder, YMap) or prefix[-1] not in holder:
        return
    for columns in languages.values():
        if all(c.index >= len(row) or row[c.index] is None for c in columns):
            holder.vpos[prefix[-1]] = Pos(rel, number, columns[0].index + 1)
            return
