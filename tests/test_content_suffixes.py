"""One table of content-file suffixes (pnp/content/suffixes.py): every sheet suffix in it is read
by a reader, and the sheet reader, the JSON Schema and pnp watch's digests all use it."""

from __future__ import annotations

import ast
import csv
import io
import re
import zipfile
from pathlib import Path
from typing import Any

import pytest

from pnp.build import keep
from pnp.content import sheets, suffixes
from pnp.content.load import load_game, open_root
from pnp.content.model.types import SheetSource
from pnp.core.findings import Report
from pnp.core.run import running

from helpers import FIXTURES, REPO, make_root

ROWS: list[list[Any]] = [
    ["id", "copies", "title.en", "title.it"],
    ["alpha", 4, "Alpha", "Alfa"],
    ["beta", 2, "Beta", "Beta"],
]
XLSM_TYPE = b"application/vnd.ms-excel.sheet.macroEnabled.main+xml"
XLSX_TYPE = b"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"


def _delimited(delimiter: str) -> bytes:
    out = io.StringIO(newline="")
    csv.writer(out, delimiter=delimiter).writerows(ROWS)
    return out.getvalue().encode("utf-8")


def _xlsx() -> bytes:
    import openpyxl

    book = openpyxl.Workbook()
    for row in ROWS:
        book.active.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _xlsm() -> bytes:
    """An XLSX workbook declared macro-enabled, as Excel saves a .xlsm."""
    out = io.BytesIO()
    with (
        zipfile.ZipFile(io.BytesIO(_xlsx())) as src,
        zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst,
    ):
        for info in src.infolist():
            data = src.read(info)
            if info.filename == "[Content_Types].xml":
                assert XLSX_TYPE in data
                data = data.replace(XLSX_TYPE, XLSM_TYPE)
            dst.writestr(info, data)
    return out.getvalue()


def _ods() -> bytes:
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.table import Table, TableCell, TableRow
    from odf.text import P

    doc = OpenDocumentSpreadsheet()
    table = Table(name="Cards")
    for row in ROWS:
        tr = TableRow()
        for value in row:
            if isinstance(value, int):
                cell = TableCell(valuetype="float", value=value)
            else:
                cell = TableCell(valuetype="string")
            cell.addElement(P(text=str(value)))
            tr.addElement(cell)
        table.addElement(tr)
    doc.spreadsheet.addElement(table)
    out = io.BytesIO()
    doc.write(out)
    return out.getvalue()


WRITERS = {
    "CSV": lambda: _delimited(","),
    "TSV": lambda: _delimited("\t"),
    "XLSX": _xlsx,
    "ODS": _ods,
}


def _load(tmp_path: Path, name: str, data: bytes) -> tuple[Any, Report]:
    """The clean fixture with its deck's cards in ``name``: (the game, the report)."""
    root = make_root(tmp_path, FIXTURES / "clean")
    game = root / "cards/mini"
    decks = game / "decks.yaml"
    text = decks.read_text("utf-8")
    start = text.index("    cards:\n")
    text = text[:start] + f"    cards: {name}\n" + text[text.index("tokens:", start) :]
    decks.write_text(text, "utf-8")
    (game / name).write_bytes(data)
    report = Report()
    with running(fresh=True):
        loaded = load_game(open_root(root), "mini", report)
    return loaded, report


@pytest.mark.parametrize("suffix", sorted(suffixes.SHEET_KINDS))
def test_every_sheet_suffix_is_read(suffix: str, tmp_path: Path) -> None:
    kind = suffixes.SHEET_KINDS[suffix]
    data = _xlsm() if suffix == ".xlsm" else WRITERS[kind]()
    for name in (f"cards{suffix}", f"CARDS{suffix.upper()}"):
        game, report = _load(tmp_path / name, name, data)
        assert not report.findings, [f.text() for f in report.sorted()]
        assert game is not None
        cards = game.decks["main"].cards
        assert [(c.id, c.copies, c.title.values) for c in cards] == [
            ("alpha", 4, {"en": "Alpha", "it": "Alfa"}),
            ("beta", 2, {"en": "Beta", "it": "Beta"}),
        ]
        assert str(cards[1].at("copies")) == f"cards/mini/{name}:3:2"


@pytest.mark.parametrize("name", ["cards.xls", "cards.xlsb", "cards.numbers", "cards.txt"])
def test_other_suffixes_are_refused_with_what_to_do(name: str, tmp_path: Path) -> None:
    _, report = _load(tmp_path, name, _delimited(","))
    messages = [f.text() for f in report.sorted() if f.rule == "sheet"]
    assert len(messages) == 1, messages
    if name.endswith(suffixes.REFUSED_SHEET_SUFFIXES):
        assert "save it as .xlsx, .ods or .csv" in messages[0]
    else:
        assert "name a .csv, .tsv, .tab, .xlsx, .xlsm or .ods file" in messages[0]


def test_the_table_is_the_one_the_three_places_use() -> None:
    assert sheets.SHEET_KINDS is suffixes.SHEET_KINDS  # the reader
    assert keep.CONTENT_SUFFIXES is suffixes.CONTENT_SUFFIXES  # pnp watch's digests
    pattern = SheetSource.schema["anyOf"][0]["pattern"]  # the JSON Schema
    assert pattern == suffixes.sheet_file_pattern()
    assert {".yaml", ".yml", *suffixes.SHEET_KINDS} == suffixes.CONTENT_SUFFIXES
    # every suffix, in lower or upper case, and nothing else
    for suffix in suffixes.SHEET_KINDS:
        assert re.search(pattern, f"cards{suffix}") and re.search(pattern, f"c{suffix.upper()}")
    for other in ("cards.xls", "cards.xlsb", "cards.yaml", "cards.csv.bak", "cards_csv"):
        assert not re.search(pattern, other)
    # a sheet's file is held by the model, so pnp watch does not digest it whole
    files = [(Path(f"cards/mini/cards{s}"), b"x") for s in suffixes.CONTENT_SUFFIXES]
    assert keep.others_digest(files) == keep.others_digest([])


def test_no_other_list_of_sheet_suffixes() -> None:
    """No module but suffixes.py writes a sheet suffix as a string of its own."""
    wanted = {*suffixes.SHEET_KINDS, *suffixes.REFUSED_SHEET_SUFFIXES}
    found = []
    for path in sorted((REPO / "pnp").rglob("*.py")):
        if path.name == "suffixes.py" and path.parent.name == "content":
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Constant) and str(node.value).lower() in wanted:
                found.append(f"{path.relative_to(REPO)}:{node.lineno}: {node.value!r}")
    assert not found, found


def test_the_docs_name_every_suffix() -> None:
    """docs/spreadsheets.md's "Files" names each suffix, as `.tab` or as **CSV** for .csv."""
    text = (REPO / "docs/spreadsheets.md").read_text("utf-8")
    files = text[text.index("## Files") :]
    files = files[: files.index("\n## ", 1)]
    missing = [
        s
        for s in suffixes.SHEET_KINDS
        if f"`{s}`" not in files and f"**{s[1:].upper()}**" not in files
    ]
    assert missing == []
