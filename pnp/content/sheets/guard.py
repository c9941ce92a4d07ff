"""What a workbook (XLSX, ODS) must pass before python-calamine reads it.

calamine allocates a sheet as one dense block of cells, from the first to the last cell that
holds something, and reserves the capacity that a file's own counts announce. A 400-byte file
naming cell XFD1048576, or announcing four billion shared strings, makes it ask for hundreds of
gigabytes, and a failed allocation in Rust ends the process: no exception to catch. So before
calamine sees a workbook, pnp

- reads every member of the zip archive itself, with a cap on the bytes it may unpack (zip
  bombs), and hands calamine a new archive of exactly those bytes, stored uncompressed (so a
  header that lies about sizes cannot show calamine more than pnp checked);
- scans the XML for the cells that hold something and for the counts the file announces, and
  refuses a sheet whose extent or counts exceed :data:`MAX_CELLS`.

The scans are conservative: they may count a cell calamine would skip, never the reverse (a
test compares them with calamine on generated files). They were written against
python-calamine 0.9 (calamine 0.3x); ``pyproject.toml`` caps the version for that reason.
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Iterator

MAX_CELLS = 2_000_000  # cells of one sheet, from A1 to its last cell (the YAML node limit)
MAX_UNZIPPED = 64 * 1024 * 1024  # bytes of a workbook once unpacked
MAX_MEMBERS = 10_000


class GuardError(Exception):
    """The workbook is refused; the message says why and what to do."""


def repack(data: bytes, kind: str) -> tuple[bytes, dict[str, bytes]]:
    """The workbook as a new uncompressed zip of the bytes pnp read, and its members by name;
    GuardError when it is not a usable zip archive or unpacks to too much."""
    if data.startswith(b"\xd0\xcf\x11\xe0"):  # an OLE compound file, not a zip archive
        raise GuardError(
            f"this file is password-protected, or in the old Excel format (.xls); save it as "
            f"{kind} without a password"
        )
    if not data.startswith(b"PK\x03\x04"):
        raise GuardError(
            f"this is not an {kind} file (an {kind} file is a zip archive); export it again "
            f"from your spreadsheet as {kind}"
        )
    try:
        members = _unpack(data)
    except GuardError:
        raise
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError) as exc:
        raise GuardError(f"the {kind} file is damaged ({exc}); export it again") from exc
    except (ValueError, EOFError, OSError, RuntimeError, KeyError) as exc:
        raise GuardError(f"the {kind} file cannot be unpacked ({exc}); export it again") from exc
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as z:
        for name, content in members.items():
            z.writestr(zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0)), content)
    return out.getvalue(), members


def _unpack(data: bytes) -> dict[str, bytes]:
    members: dict[str, bytes] = {}
    total = 0
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        infos = z.infolist()
        if len(infos) > MAX_MEMBERS:
            raise GuardError(f"the archive holds {len(infos):,} files; a workbook holds a few")
        if sum(i.file_size for i in infos) > MAX_UNZIPPED:
            raise GuardError(_too_big())
        for info in infos:
            if info.flag_bits & 0x1:
                raise GuardError("the file is password-protected; save it without a password")
            if info.filename in members:
                raise GuardError(f"the archive holds {info.filename!r} twice; export it again")
            chunks = []
            with z.open(info) as fh:  # checks the CRC, stops at the size the header gives
                for chunk in iter(lambda fh=fh: fh.read(1 << 20), b""):  # type: ignore[misc]
                    total += len(chunk)
                    if total > MAX_UNZIPPED:
                        raise GuardError(_too_big())
                    chunks.append(chunk)
            members[info.filename] = b"".join(chunks)
    return members


def _too_big() -> str:
    return (
        f"the file unpacks to more than {MAX_UNZIPPED // (1024 * 1024)} MB (a zip bomb?); "
        "a card list is far smaller: split it"
    )


# --- what the XML announces -------------------------------------------------------------------

_PREFIX = rb"(?:[\w.-]+:)?"
_ATTRS = rb"((?:[^>\"']+|\"[^\"]*\"|'[^']*')*)"  # a '>' inside quotes does not end the tag
_COUNT = re.compile(
    rb"[\s<]" + _PREFIX + rb"\w*count\s*=\s*(?:\"([^\"]*)\"|'([^']*)')", re.IGNORECASE
)


def check_counts(members: dict[str, bytes]) -> None:
    """Counts a file announces (shared strings, styles...) are capacity calamine reserves."""
    for name, content in members.items():
        if not name.lower().endswith((".xml", ".rels")):
            continue
        if b"\x00" in content or content.startswith((b"\xff\xfe", b"\xfe\xff")):
            raise GuardError(f"{name} is not UTF-8 XML (UTF-16?); export the file again")
        for m in _COUNT.finditer(content):
            count = _number([m.group(1) or m.group(2)], 0)
            if count > MAX_CELLS:
                raise GuardError(
                    f"{name} announces {count:,} items, more than the {MAX_CELLS:,} cells "
                    "pnp reads from a sheet; split the sheet"
                )


_ATTR: dict[bytes, re.Pattern[bytes]] = {
    name: re.compile(rb"(?:^|\s)" + _PREFIX + name + rb"\s*=\s*(?:\"([^\"]*)\"|'([^']*)')")
    for name in (b"r", b"number-rows-repeated", b"number-columns-repeated")
}


def _attr(attrs: bytes, name: bytes) -> list[bytes]:
    """Every value of attribute ``name`` (with or without a prefix) in a start tag's text."""
    if name not in attrs:
        return []
    return [a or b for a, b in _ATTR[name].findall(attrs)]


def _number(values: list[bytes], default: int) -> int:
    """The largest whole number among ``values`` (an absurd one counts as huge)."""
    best = default
    for v in values:
        v = v.strip().lstrip(b"+")
        best = max(best, int(v) if v.isdigit() and len(v) <= 12 else 10**13)
    return best


# --- XLSX: <row r="N"> and <c r="B3"> ---------------------------------------------------------

_XLSX_TAG = re.compile(rb"<" + _PREFIX + rb"(row|c)(?=[\s/>])" + _ATTRS + rb">")
_REF = re.compile(rb"\$?([A-Za-z]{1,4})\$?([0-9]{1,12})")


def _column_number(letters: bytes) -> int:
    n = 0
    for ch in letters.upper():
        n = n * 26 + ch - 64
    return n


def xlsx_extent(xml: bytes) -> tuple[int, int]:
    """(rows, columns) from A1 to the last cell of a worksheet that holds something."""
    row = col = rows = cols = 0
    columns: dict[bytes, int] = {}  # letters -> number, worked out once each
    for kind, attrs in _XLSX_TAG.findall(xml):
        refs = _attr(attrs, b"r")
        if kind == b"row":
            row = _number(refs, row + 1) if refs else row + 1
            col = 0
            continue
        at_row = row
        col += 1
        for ref in refs:
            found = _REF.fullmatch(ref.strip())
            if found is None:  # not a plain reference (an entity?): count it as far away
                return 10**13, 10**13
            letters, digits = found.groups()
            number = columns.get(letters) or columns.setdefault(letters, _column_number(letters))
            col = max(col, number)
            at_row = max(at_row, int(digits))
        if not attrs.rstrip().endswith(b"/"):  # <c r="B3" s="1"/> holds nothing: left out
            rows = max(rows, at_row)
            cols = max(cols, col)
    return rows, cols


# --- ODS: <table:table>, <table:table-row>, <table:table-cell> with repeats -----------------

_ODS_TAG = re.compile(
    rb"<" + _PREFIX + rb"(table|table-row|table-cell|covered-table-cell)(?=[\s/>])" + _ATTRS
    + rb">"
)  # fmt: skip


def ods_extents(xml: bytes) -> Iterator[tuple[int, int]]:
    """(rows, columns) of each table of an ODS content.xml, from A1 to the last repeated cell
    that holds something."""
    rows = cols = row = col = 0
    row_repeat = 1
    row_used = False

    def end_row() -> None:
        nonlocal rows, row, row_used
        if row_used:
            rows = max(rows, row + row_repeat)
        row += row_repeat
        row_used = False

    started = False
    for m in _ODS_TAG.finditer(xml):
        kind, attrs = m.group(1), m.group(2)
        empty = attrs.rstrip().endswith(b"/")
        if kind == b"table":
            if started:
                end_row()
                yield rows, cols
            rows = cols = row = col = 0
            row_repeat, row_used, started = 0, False, True
        elif kind == b"table-row":
            end_row()
            row_repeat = _number(_attr(attrs, b"number-rows-repeated"), 1)
            col = 0
        else:
            repeat = _number(_attr(attrs, b"number-columns-repeated"), 1)
            if not empty or b"value" in attrs:  # a value, or a text inside the cell
                cols = max(cols, col + repeat)
                row_used = True
            col += repeat
    if started:
        end_row()
        yield rows, cols


def check_extents(members: dict[str, bytes], kind: str) -> None:
    """Refuse a workbook with a sheet whose cells, A1 to the last one used, exceed MAX_CELLS."""
    for name, content in members.items():
        low = name.lower()
        if kind == "XLSX" and low.endswith(".xml") and b"sheetData" in content:
            extents: Iterator[tuple[int, int]] = iter([xlsx_extent(content)])
        elif kind == "ODS" and low == "content.xml":
            extents = ods_extents(content)
        else:
            continue
        for rows, cols in extents:
            if rows * cols > MAX_CELLS:
                raise GuardError(
                    f"a sheet spans {rows:,} rows and {cols:,} columns, more than the "
                    f"{MAX_CELLS:,} cells pnp reads (is something typed far below or to the "
                    "right of the data?); delete the stray cells or split the sheet"
                )
