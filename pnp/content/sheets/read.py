"""Spreadsheet files into grids of cells: CSV and TSV with the standard csv module, XLSX and
ODS with python-calamine (after :mod:`.guard`).

A grid is a list of rows, each a list of cells, row 1 first, column 1 first: the numbers a
spreadsheet shows are the list indices plus one. A cell is None (empty), a str, an int, a float
or a bool; calamine's whole-number floats (3.0) are ints, its dates ISO texts.
"""

from __future__ import annotations

import csv
import datetime
import io
from dataclasses import dataclass
from typing import Any

from ...core.findings import Pos
from ...core.rules import FILE_ENCODING
from ..yamlio import MAX_FILE_BYTES, MAX_SCALAR_CHARS, EncodingProblem, utf8_text
from . import contain
from .guard import MAX_CELLS, GuardError, check_counts, check_extents, repack

Grid = list[list[Any]]
MAX_BYTES = MAX_FILE_BYTES  # a sheet file, as read from disk (16 MB, as for YAML)


class SheetError(Exception):
    """A sheet cannot be read: where (the sheet file, or the YAML naming it) and why."""

    def __init__(self, message: str, pos: Pos | None = None, rule: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.pos = pos  # None: the file itself
        self.rule = rule  # "": the sheet rule


@dataclass(frozen=True)
class Source:
    """A sheet named by content: the file (relative to the root) and the sheet in it."""

    rel: str
    kind: str  # CSV, TSV, XLSX, ODS
    sheet: str | None
    sheet_pos: Pos  # where the YAML names the sheet (or the file)


def read_grid(data: bytes, src: Source) -> Grid:
    """The cells of ``data``, a file of kind ``src.kind``; SheetError when it cannot be read."""
    if src.kind in ("CSV", "TSV"):
        if src.sheet is not None:
            raise SheetError(
                f"a {src.kind} file has a single sheet; remove sheet: {src.sheet!r}",
                src.sheet_pos,
                "schema",
            )
        return _read_delimited(data, src)
    return _read_workbook(data, src)


# --- CSV and TSV ----------------------------------------------------------------------------


def _read_delimited(data: bytes, src: Source) -> Grid:
    text = _decode(data, src.rel)
    first = text.split("\n", 1)[0]
    delimiter = "\t" if src.kind == "TSV" else ";" if ";" in first and "," not in first else ","
    grid: Grid = []
    cells = 0
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    try:
        for row in reader:
            cells += len(row)
            if cells > MAX_CELLS:
                raise SheetError(
                    f"the file has more than {MAX_CELLS:,} cells, more than pnp reads from a "
                    "sheet; split it",
                    Pos(src.rel, len(grid) + 1, 1),
                )
            grid.append([_cell(v, src.rel, len(grid) + 1, i + 1) for i, v in enumerate(row)])
    except csv.Error as exc:
        if "field limit" in str(exc):  # the csv module stops at 131,072 characters a cell
            raise SheetError(
                f"a cell of this row is longer than {MAX_SCALAR_CHARS:,} characters, the most "
                "pnp reads in a cell; shorten it",
                Pos(src.rel, len(grid) + 1, 1),
            ) from exc
        raise SheetError(
            f"this {src.kind} row cannot be read ({exc}); check its quotes",
            Pos(src.rel, len(grid) + 1, 1),
        ) from exc
    return grid


def _decode(data: bytes, rel: str) -> str:
    try:
        return utf8_text(data)
    except EncodingProblem as bad:
        message = (
            f"byte 0x{bad.byte:02x} is not UTF-8; save the file as UTF-8 (in most "
            "spreadsheets: Save as > CSV, character set Unicode (UTF-8))"
            if bad.byte is not None
            else "the file contains NUL characters: is it a binary file or UTF-16? save it as "
            "UTF-8 CSV"
        )
        raise SheetError(message, Pos(rel, bad.line, bad.col), FILE_ENCODING) from bad


# --- XLSX and ODS ---------------------------------------------------------------------------


def _read_workbook(data: bytes, src: Source) -> Grid:
    """The cells of a workbook, read in a child process with a memory and time limit
    (:mod:`.contain`) where the platform can fork, else here behind the guard alone."""
    import python_calamine  # noqa: F401 - imported before the fork, not in each child

    if not contain.available():
        return _read_workbook_here(data, src)
    try:
        grid: Grid = contain.run_contained(lambda: _read_workbook_here(data, src), SheetError)
    except contain.Contained as exc:
        raise SheetError(f"the {src.kind} file cannot be read: {exc}") from exc
    return grid


def _read_workbook_here(data: bytes, src: Source) -> Grid:
    try:
        clean, members = repack(data, src.kind)
        check_counts(members)
        check_extents(members, src.kind)
    except GuardError as exc:
        pos = Pos(src.rel, exc.row, exc.col) if exc.row else None
        raise SheetError(str(exc), pos) from exc
    import python_calamine

    try:
        with python_calamine.CalamineWorkbook.from_filelike(io.BytesIO(clean)) as book:
            names = list(book.sheet_names)
            name = _sheet_name(names, src)
            rows = book.get_sheet_by_name(name).to_python(skip_empty_area=False)
    except SheetError:
        raise
    except MemoryError:
        raise
    except Exception as exc:  # calamine's errors: damaged XML, a missing part, not a workbook
        reason = " ".join(str(exc).split())[:200] or type(exc).__name__
        raise SheetError(
            f"the {src.kind} file cannot be read ({reason}); open it in your spreadsheet and "
            f"save it again as {src.kind}"
        ) from exc
    if sum(len(r) for r in rows) > MAX_CELLS:  # pragma: no cover - guard.check_extents first
        raise SheetError(f"the sheet has more than {MAX_CELLS:,} cells; split it")
    return [
        [_cell(v, src.rel, r + 1, c + 1) for c, v in enumerate(row)] for r, row in enumerate(rows)
    ]


def _sheet_name(names: list[str], src: Source) -> str:
    if not names:
        raise SheetError(f"the {src.kind} file has no sheet")
    if src.sheet is None:
        return names[0]
    if src.sheet in names:
        return src.sheet
    from ..schema import suggest

    raise SheetError(
        f"{src.rel.rsplit('/', 1)[-1]} has no sheet {src.sheet!r}; "
        f"{suggest(src.sheet, names)}its sheets: {', '.join(names)}",
        src.sheet_pos,
    )


def _cell(value: Any, rel: str, row: int, col: int) -> Any:
    """A cell as pnp reads it: None when empty, whole floats as ints, dates as ISO text."""
    if isinstance(value, str):
        value = value.strip()
        if len(value) > MAX_SCALAR_CHARS:
            raise SheetError(
                f"a cell of {len(value):,} characters (limit {MAX_SCALAR_CHARS:,})",
                Pos(rel, row, col),
            )
        return value or None
    if isinstance(value, bool):
        return value
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 2**53:
            return int(value)
        return value
    if isinstance(value, int):
        return value
    if isinstance(value, datetime.datetime) and value.time() == datetime.time():
        return value.date().isoformat()  # a date typed in a cell
    if isinstance(value, datetime.datetime | datetime.date | datetime.time):
        return value.isoformat()
    if value is None:
        return None
    return str(value)
