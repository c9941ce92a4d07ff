"""Card lists, token lists and table rows kept in spreadsheets (CSV, TSV, XLSX, ODS).

A content file may name a sheet where it would list items::

    decks:
      actions:
        cards: actions.csv                          # the file, in the game's folder
    tokens:
      coins: {tokens: {file: parts.xlsx, sheet: Coins}}
    tables:
      prices: {columns: [...], rows: prices.ods}

Before a content file is converted, :func:`expand` reads each named sheet (safely: inside the
game's folder, size limits, :mod:`.guard` for workbooks) and puts its rows in place of the
name, as YAML mappings that remember the sheet, row and column of every cell; conversion and
validation then treat them as written in YAML. The file's own YAML tree is not changed (the
audit mutates those trees); what a sheet gave is kept in the run (``content.sheets``) for as
long as the file keeps its size and time.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from ...core.findings import Pos, Report
from ...core.rules import SCHEMA, UNKNOWN_KEY, Severity, Stage
from ...core.run import current
from ..assets import AssetError, resolve
from ..suffixes import REFUSED_SHEET_SUFFIXES, SHEET_KINDS, sheet_suffixes_text
from ..yamlio import YMap, YSeq
from .columns import (
    SHEET_RULE,
    Issue,
    blank_headers,
    field_column,
    numeric_columns,
    parse_header,
    table_column,
)
from .read import MAX_BYTES, SheetError, Source, read_grid
from .rows import items

# where a content file may name a sheet: section, key of the list in each of its entries
LISTS = (("decks", "cards"), ("tokens", "tokens"), ("tables", "rows"))
REF_KEYS = ("file", "sheet")


@dataclass
class Sheets:
    """Reads the sheets a game's content files name."""

    root: Path  # the content root
    game_dir: Path
    report: Report
    game: str
    read: list[str] = field(default_factory=list)  # the sheets read, relative to the root
    _items: str = ""  # the logical path of the items the sheet being read gives

    def expand(self, data: YMap) -> YMap:
        """``data`` (a content file's tree) with every named sheet in place of its name; the
        same object when it names none."""
        out = data
        for section, key in LISTS:
            entries = data.get(section)
            if not isinstance(entries, YMap):
                continue
            changed: YMap | None = None
            for name, entry in entries.items():
                if isinstance(entry, YMap) and _names_sheet(entry.get(key)):
                    changed = changed if changed is not None else _copy(entries)
                    changed[name] = self._entry(section, entry, key, f"{section}/{name}/{key}")
            if changed is not None:
                out = out if out is not data else _copy(data)
                out[section] = changed
        return out

    def _entry(self, section: str, entry: YMap, key: str, items: str) -> YMap:
        """``entry`` with its sheet's items in place of the sheet's name; ``items``: their
        logical path (``decks/actions/cards``), which a sheet that cannot be read breaks."""
        new = _copy(entry)
        vpos = entry.value_pos(key)
        new[key] = YSeq(vpos)  # when the sheet cannot be read (reported)
        self._items = items
        source = self._source(entry[key], vpos)
        if source is None:
            return new
        ids = _column_ids(entry) if section == "tables" else None
        found = self._load(source, section, ids)
        if found is not None:
            rows, columns = found
            new[key] = rows
            if columns is not None and "columns" not in entry:
                new["columns"] = columns
                new.vpos["columns"] = new.kpos["columns"] = vpos
        return new

    # --- the reference --------------------------------------------------------------------

    def _source(self, value: Any, pos: Pos) -> Source | None:
        """The sheet a ``cards: FILE`` or ``cards: {file: FILE, sheet: NAME}`` names (None:
        reported)."""
        file: Any = value
        file_pos = pos
        sheet: str | None = None
        sheet_pos = pos
        if isinstance(value, YMap):
            for k in value:
                if k not in REF_KEYS:
                    self._add(
                        UNKNOWN_KEY,
                        value.key_pos(k),
                        f"unknown key {k!r} in a spreadsheet reference; accepted keys: "
                        f"{', '.join(REF_KEYS)}",
                        meant=None,
                    )
            file, file_pos = value.get("file"), value.value_pos("file")
            raw_sheet, sheet_pos = value.get("sheet"), value.value_pos("sheet")
            if raw_sheet is not None:
                sheet = str(raw_sheet)
        if not isinstance(file, str) or not file.strip():
            self._add(SCHEMA, file_pos, f"file: name the spreadsheet ({sheet_suffixes_text()})")
            return None
        suffix = PurePosixPath(file).suffix.lower()
        kind = SHEET_KINDS.get(suffix)
        if kind is None:
            self._add(
                SHEET_RULE,
                file_pos,
                f"{file!r} is not a spreadsheet pnp reads: "
                + (
                    "save it as .xlsx, .ods or .csv"
                    if suffix in REFUSED_SHEET_SUFFIXES
                    else f"name a {sheet_suffixes_text()} file"
                )
                + " (or list the items here in YAML)",
            )
            return None
        try:
            path = resolve(self.game_dir, file, what="spreadsheet")
        except AssetError as err:
            self._add(err.rule, file_pos, str(err))
            return None
        return Source(path.relative_to(self.root).as_posix(), kind, sheet, sheet_pos)

    # --- reading, remembered for the run --------------------------------------------------

    def _load(
        self, source: Source, section: str, ids: list[str] | None
    ) -> tuple[YSeq, YSeq | None] | None:
        path = self.root / source.rel
        try:
            st = path.stat()
        except OSError as exc:
            self._add(SHEET_RULE, Pos(source.rel), f"cannot read the file: {exc.strerror}")
            return None
        key = (str(path), st.st_size, st.st_mtime_ns, source, section, tuple(ids or ()))
        store = current().store("content.sheets", limit=256)
        found = store.get(key)
        if found is None:
            found = store[key] = _parse(path, st.st_size, source, section, ids)
        rows, columns, issues = found
        for rule, pos, message, severity, meant in issues:
            self._add(rule, pos, message, severity, meant)
        if source.rel not in self.read:
            self.read.append(source.rel)
        return None if rows is None else (rows, columns)

    def _add(
        self,
        rule: str,
        pos: Pos,
        message: str,
        severity: Severity | None = None,
        meant: str | None = "",
    ) -> None:
        """A finding about the sheet the current entry names; it breaks the field ``meant``
        of every item ("": the whole list, None: nothing). Listed with the sheets."""
        subject: tuple[str, ...] = ()
        if meant is not None:
            subject = (f"{self._items}/*/{meant}" if meant else self._items,)
        self.report.add(
            rule,
            pos,
            message,
            game=self.game,
            severity=severity,
            subject=subject,
            stage=int(Stage.SHEETS),
        )


Parsed = tuple[YSeq | None, YSeq | None, list[Issue]]


def _parse(path: Path, size: int, source: Source, section: str, ids: list[str] | None) -> Parsed:
    """A sheet's rows (and, for a table without columns in YAML, its columns), and what was
    wrong; rows None when the file cannot be read at all."""
    rel = source.rel
    if size > MAX_BYTES:
        message = (
            f"the file is {size / 1e6:.1f} MB; pnp reads sheets up to "
            f"{MAX_BYTES // (1024 * 1024)} MB: split it"
        )
        return None, None, [(SHEET_RULE, Pos(rel), message, None, "")]
    try:
        data = _read_regular(path)
        grid = read_grid(data, source)
    except OSError as exc:
        message = f"cannot read the file: {exc.strerror}"
        return None, None, [(SHEET_RULE, Pos(rel), message, None, "")]
    except SheetError as exc:
        return None, None, [(exc.rule or SHEET_RULE, exc.pos or Pos(rel), exc.message, None, "")]
    first = next((i for i, row in enumerate(grid) if any(c is not None for c in row)), None)
    if first is None:
        message = "the sheet is empty; its first row names the fields, e.g. id, copies, title.en"
        issue = (SHEET_RULE, Pos(rel, 1, 1), message, Severity.WARNING, "")
        return YSeq(Pos(rel, 1, 1)), None, [issue]
    if section == "tables":
        header = parse_header(grid[first], first + 1, rel, table_column(ids))
    else:
        from ..model import Card

        numbers = numeric_columns(grid, first)

        def name_column(index: int, name: str, path: tuple[str, ...]) -> Any:
            return field_column(Card, index, name, path, index in numbers)

        header = parse_header(grid[first], first + 1, rel, name_column)
    issues = header.issues + blank_headers(grid, header, rel)
    rows = items(grid, header, rel, Pos(rel, first + 2, 1), source.kind in ("XLSX", "ODS"))
    if not rows and section != "tables" and any(any(r) for r in grid[first + 1 :]):
        issues = _emptied(issues, header.row, "deck" if section == "decks" else "token set")
    columns = _columns(header, rel) if section == "tables" and ids is None else None
    return rows, columns, issues


def _emptied(issues: list[Issue], row: int, what: str) -> list[Issue]:
    """A sheet whose rows have values only in columns pnp cannot read gives no item at all:
    the header's problems are errors then, saying so."""
    out: list[Issue] = []
    said = False  # the first header problem says the list is empty; the others are errors too
    for rule, pos, message, severity, meant in issues:
        if rule in (UNKNOWN_KEY, SCHEMA) and pos.line == row:
            if not said:
                message = (
                    f"the {what} is empty: no column pnp reads has a value in any row; rename "
                    f"the header cells (id, copies, title.en...): {message}"
                )
                said = True
            severity, meant = Severity.ERROR, ""  # it breaks the whole list
        out.append((rule, pos, message, severity, meant))
    return out


def _read_regular(path: Path) -> bytes:
    """The bytes of a regular file (not a FIFO or device put in its place since it was
    resolved), at most MAX_BYTES; SheetError otherwise."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    with os.fdopen(fd, "rb") as fh:
        if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
            raise SheetError("this is not a regular file; put the spreadsheet itself here")
        data = fh.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise SheetError(f"the file is over {MAX_BYTES // (1024 * 1024)} MB; split it")
    return data


def _columns(header: Any, rel: str) -> YSeq:
    """A table's columns named by its sheet's header, in order (each id once)."""
    seq = YSeq(Pos(rel, header.row, 1))
    for column in header.columns:
        cid = column.path[0]
        if any(c.get("id") == cid for c in seq):
            continue
        pos = Pos(rel, header.row, column.index + 1)
        entry = YMap(pos)
        entry["id"] = cid
        entry.kpos["id"] = entry.vpos["id"] = pos
        seq.append(entry)
        seq.ipos.append(pos)
    return seq


def _names_sheet(value: Any) -> bool:
    return isinstance(value, str) or (isinstance(value, YMap) and any(k in value for k in REF_KEYS))


def _column_ids(entry: YMap) -> list[str] | None:
    columns = entry.get("columns")
    if not isinstance(columns, YSeq):
        return None
    return [str(c["id"]) for c in columns if isinstance(c, YMap) and c.get("id") is not None]


def _copy(m: YMap) -> YMap:
    out = YMap(m.pos)
    out.update(m)
    out.kpos = dict(m.kpos)
    out.vpos = dict(m.vpos)
    return out
