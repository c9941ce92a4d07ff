"""What a workbook (XLSX, ODS) must pass before python-calamine reads it.

calamine allocates a sheet as one dense block of cells, from the first to the last cell that
holds something, and reserves the capacity that a file's own counts announce. A 400-byte file
naming cell XFD1048576, or announcing four billion shared strings, makes it ask for hundreds of
gigabytes, and a failed allocation in Rust ends the process: no exception to catch. So before
calamine sees a workbook, pnp

- reads every member of the zip archive itself, with a cap on the bytes it may unpack (zip
  bombs), and hands calamine a new archive of exactly those bytes, stored uncompressed (so a
  header that lies about sizes cannot show calamine more than pnp checked);
- scans every part, whatever its name (the workbook's own links say which part is a sheet), for
  the cells that hold something and for the counts the file announces, and refuses a sheet
  whose extent or counts exceed :data:`MAX_CELLS`;
- counts the text a sheet expands to (each shared-string reference as its text, each repeated
  cell or row as its copies, each ``<text:s text:c="N"/>`` as N spaces) and refuses a sheet
  over :data:`MAX_TEXT` characters, before anything is expanded.

What the guard cannot foresee is contained: calamine runs in a child process with a memory and
a time limit (:mod:`.contain`).

The scans are conservative: they may count a cell calamine would skip, never the reverse (a
test compares them with calamine on generated files). They were written against
python-calamine 0.9 (calamine 0.3x); ``pyproject.toml`` caps the version for that reason.
"""

from __future__ import annotations

import io
import re
import zipfile
from array import array
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

MAX_CELLS = 2_000_000  # cells of one sheet, from A1 to its last cell (the YAML node limit)
MAX_UNZIPPED = 64 * 1024 * 1024  # bytes of a workbook once unpacked
MAX_MEMBERS = 10_000
MAX_TEXT = 32_000_000  # characters of one sheet's cells, repeats and shared texts expanded


class GuardError(Exception):
    """The workbook is refused; the message says why and what to do, and where when known
    (row and column, 1-based; 0 when not known)."""

    def __init__(self, message: str, row: int = 0, col: int = 0) -> None:
        super().__init__(message)
        self.row = row
        self.col = col


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
_TAG = re.compile(rb"<[^>]*>")
# words of the XML calamine reads, as UTF-16 would spell them (a part it could decode as such)
_UTF16 = tuple(
    word.encode(codec)
    for word in ("sheetData", "<sst", "table-row", "table-cell", "count=")
    for codec in ("utf-16-le", "utf-16-be")
)


def check_counts(members: dict[str, bytes]) -> None:
    """Counts a file announces (shared strings, styles...) are capacity calamine reserves.
    Every part is read, whatever its name: the workbook's own links name the parts calamine
    opens, so a sheet or a string table may be called anything."""
    for name, content in members.items():
        xml_named = name.lower().endswith((".xml", ".rels"))
        if (xml_named and b"\x00" in content) or content.startswith((b"\xff\xfe", b"\xfe\xff")):
            raise GuardError(f"{name} is not UTF-8 XML (UTF-16?); export the file again")
        if b"\x00" in content and any(word in content for word in _UTF16):
            raise GuardError(f"{name} is not UTF-8 XML (UTF-16?); export the file again")
        for m in _COUNT.finditer(content):
            count = _number([m.group(1) or m.group(2)], 0, b"count")
            if count > MAX_CELLS:
                raise GuardError(
                    f"{name} announces {count:,} items, more than the {MAX_CELLS:,} cells "
                    "pnp reads from a sheet; split the sheet"
                )


_ATTR: dict[bytes, re.Pattern[bytes]] = {
    name: re.compile(rb"(?:^|\s)" + _PREFIX + name + rb"\s*=\s*(?:\"([^\"]*)\"|'([^']*)')")
    for name in (b"r", b"c", b"number-rows-repeated", b"number-columns-repeated")
}


def _attr(attrs: bytes, name: bytes) -> list[bytes]:
    """Every value of attribute ``name`` (with or without a prefix) in a start tag's text."""
    if name not in attrs:
        return []
    return [a or b for a, b in _ATTR[name].findall(attrs)]


def _number(values: list[bytes], default: int, name: bytes, row: int = 0, col: int = 0) -> int:
    """The largest whole number among ``values`` (an absurd one counts as huge); GuardError at
    (row, col) for a value that is not a whole number at all (``-5``, ``x``)."""
    best = default
    for v in values:
        v = v.strip().lstrip(b"+")
        if not v.isdigit():
            shown = v[:20].decode("utf-8", "replace")
            raise GuardError(
                f"{name.decode()}={shown!r} is not a whole number of 0 or more; the file is "
                "damaged: open it in your spreadsheet and save it again",
                row,
                col or (1 if row else 0),
            )
        best = max(best, int(v) if len(v) <= 12 else 10**13)
    return best


def _text_chars(xml: bytes) -> int:
    """At most how many characters the text of ``xml`` holds (its bytes outside tags),
    worked out a megabyte at a time (re.sub over a whole part would hold every piece)."""
    total = start = 0
    while start < len(xml):
        end = xml.find(b">", start + (1 << 20)) + 1 or len(xml)
        total += len(_TAG.sub(b"", xml[start:end]))
        start = end
    return total


# --- XLSX: <row r="N">, <c r="B3" t="s">, shared strings --------------------------------------

_XLSX_TAG = re.compile(rb"<" + _PREFIX + rb"(row|c)(?=[\s/>])" + _ATTRS + rb">")
_REF = re.compile(rb"\$?([A-Za-z]{1,4})\$?([0-9]{1,12})")
_SST = re.compile(rb"<" + _PREFIX + rb"sst(?=[\s/>])")
_SI = re.compile(rb"<" + _PREFIX + rb"si(?=[\s/>])" + _ATTRS + rb">")
_SHARED_CELL = re.compile(  # <c r="A1" t="s"><v>12</v>: a reference to shared text 12
    rb"<" + _PREFIX + rb"c\s[^>]*?(?<=\s)" + _PREFIX + rb"t\s*=\s*[\"']s[\"'][^>]*>\s*<"
    + _PREFIX + rb"v(?:\s[^>]*)?>\s*([0-9]{1,12})\s*<"
)  # fmt: skip


def _column_number(letters: bytes) -> int:
    n = 0
    for ch in letters.upper():
        n = n * 26 + ch - 64
    return n


def shared_lengths(members: dict[str, bytes]) -> array[int]:
    """Characters of each shared string (at most), index by index, over every part that holds
    a string table (calamine reads the one the workbook links, which may have any name)."""
    out: array[int] = array("q")
    for content in members.values():
        if _SST.search(content) is None:
            continue
        starts = [m.end() for m in _SI.finditer(content) if not m.group(1).rstrip().endswith(b"/")]
        if len(starts) > MAX_CELLS:
            raise GuardError(
                f"the workbook holds more than {MAX_CELLS:,} shared texts, more than the cells "
                "pnp reads from a sheet; split the sheet"
            )
        bounds = [*starts[1:], len(content)]
        for i, (a, b) in enumerate(zip(starts, bounds, strict=True)):
            size = _text_chars(content[a:b])
            if i < len(out):
                out[i] = max(out[i], size)
            else:
                out.append(size)
    return out


def xlsx_scan(xml: bytes, shared: array[int] | None = None) -> tuple[int, int, int]:
    """(rows, columns, characters) of a worksheet: from A1 to the last cell that holds
    something, and at most how many characters of text its cells hold once each shared-string
    reference is replaced by its text."""
    row = col = rows = cols = 0
    text = _text_chars(xml)
    if shared:
        for index, times in Counter(_SHARED_CELL.findall(xml)).items():
            text += times * shared[int(index)] if int(index) < len(shared) else 0
    columns: dict[bytes, int] = {}  # letters -> number, worked out once each
    for m in _XLSX_TAG.finditer(xml):
        kind, attrs = m.group(1), m.group(2)
        refs = _attr(attrs, b"r")
        if kind == b"row":
            row = _number(refs, row + 1, b"r", row + 1) if refs else row + 1
            col = 0
            continue
        at_row = row
        col += 1
        for ref in refs:
            found = _REF.fullmatch(ref.strip())
            if found is None:  # not a plain reference (an entity?): count it as far away
                return 10**13, 10**13, text
            letters, digits = found.groups()
            number = columns.get(letters) or columns.setdefault(letters, _column_number(letters))
            col = max(col, number)
            at_row = max(at_row, int(digits))
        if not attrs.rstrip().endswith(b"/"):  # <c r="B3" s="1"/> holds nothing: left out
            rows = max(rows, at_row)
            cols = max(cols, col)
    return rows, cols, text


def xlsx_extent(xml: bytes) -> tuple[int, int]:
    """(rows, columns) from A1 to the last cell of a worksheet that holds something."""
    rows, cols, _ = xlsx_scan(xml)
    return rows, cols


# --- ODS: <table:table>, <table:table-row>, <table:table-cell> with repeats -----------------

_ODS_TAG = re.compile(
    rb"<" + _PREFIX + rb"(table|table-row|table-cell|covered-table-cell)(?=[\s/>])" + _ATTRS
    + rb">"
)  # fmt: skip
_ODS_CELL_END = re.compile(rb"</" + _PREFIX + rb"(?:covered-)?table-cell\s*>")
_SPACES = re.compile(rb"<" + _PREFIX + rb"s(?=[\s/>])" + _ATTRS + rb">")  # <text:s text:c="N"/>


def _ods_cell_text(xml: bytes, start: int, end: int) -> int:
    """At most how many characters the cell whose content is xml[start:end] holds, with each
    ``<text:s text:c="N"/>`` counted as the N spaces it stands for."""
    part = xml[start:end]
    spaces = sum(_number(_attr(m.group(1), b"c"), 1, b"c") for m in _SPACES.finditer(part))
    return _text_chars(part) + spaces


@dataclass
class _OdsTable:
    name: str
    rows: int = 0  # from A1 to the last row that holds something
    cols: int = 0
    text: int = 0  # characters once repeats are expanded (at most)


def ods_scan(xml: bytes) -> Iterator[_OdsTable]:
    """Each table of an ODS content.xml: its extent from A1 to the last repeated cell that
    holds something, and the characters its cells hold once every repeat is expanded."""
    table: _OdsTable | None = None
    row = col = 0
    row_repeat = 1
    row_used = False
    for m in _ODS_TAG.finditer(xml):
        kind, attrs = m.group(1), m.group(2)
        empty = attrs.rstrip().endswith(b"/")
        if kind == b"table":
            if table is not None:
                if row_used:
                    table.rows = max(table.rows, row + row_repeat)
                yield table
            name = re.search(rb"name\s*=\s*\"([^\"]*)\"", attrs)
            table = _OdsTable(name.group(1).decode("utf-8", "replace") if name else "")
            row = col = row_repeat = 0
            row_used = False
            continue
        if table is None:
            continue
        if kind == b"table-row":
            if row_used:
                table.rows = max(table.rows, row + row_repeat)
            row += row_repeat
            row_used = False
            row_repeat = _number(
                _attr(attrs, b"number-rows-repeated"), 1, b"number-rows-repeated", row + 1
            )
            col = 0
            continue
        repeat = _number(
            _attr(attrs, b"number-columns-repeated"), 1, b"number-columns-repeated", row + 1,
            col + 1,
        )  # fmt: skip
        if not empty or b"value" in attrs:  # a value, or a text inside the cell
            table.cols = max(table.cols, col + repeat)
            row_used = True
        if not empty:
            end = _ODS_CELL_END.search(xml, m.end())
            chars = _ods_cell_text(xml, m.end(), end.start() if end else len(xml))
            chars += len(attrs) if b"string-value" in attrs else 0  # a text in an attribute
            table.text += chars * repeat * max(row_repeat, 1)
        col += repeat
    if table is not None:
        if row_used:
            table.rows = max(table.rows, row + row_repeat)
        yield table


def ods_extents(xml: bytes) -> Iterator[tuple[int, int]]:
    """(rows, columns) of each table of an ODS content.xml, from A1 to the last repeated cell
    that holds something."""
    for table in ods_scan(xml):
        yield table.rows, table.cols


def check_extents(members: dict[str, bytes], kind: str) -> None:
    """Refuse a workbook with a sheet whose cells, A1 to the last one used, exceed MAX_CELLS,
    or whose text, once shared strings and repeats are expanded, exceeds MAX_TEXT. Every part
    is scanned, whatever its name."""
    shared = shared_lengths(members) if kind == "XLSX" else None
    for name, content in members.items():
        sheets: list[tuple[str, int, int, int]] = []
        if kind == "XLSX" and b"sheetData" in content:
            sheets.append((f"stored as {name}", *xlsx_scan(content, shared)))
        elif kind == "ODS" and b"table" in content:
            sheets.extend((repr(t.name), t.rows, t.cols, t.text) for t in ods_scan(content))
        for sheet, rows, cols, text in sheets:
            if rows * cols > MAX_CELLS:
                raise GuardError(
                    f"a sheet spans {rows:,} rows and {cols:,} columns, more than the "
                    f"{MAX_CELLS:,} cells pnp reads (is something typed far below or to the "
                    "right of the data?); delete the stray cells or split the sheet"
                )
            if text > MAX_TEXT:
                raise GuardError(
                    f"the sheet {sheet} holds more than {MAX_TEXT:,} characters of text once "
                    "its repeated cells, repeated spaces and shared texts are written out "
                    f"(about {text:,}); a card list is far shorter: delete the stray cells or "
                    "split the sheet"
                )
