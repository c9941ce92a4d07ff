"""Card lists, tokens and table rows from spreadsheets (issue 18): CSV and TSV written with the
csv module, XLSX with openpyxl, ODS with odfpy, hostile workbooks written byte by byte."""

from __future__ import annotations

import csv
import io
import os
import random
import re
import threading
import time
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pnp.build.pipeline import BuildOptions, build
from pnp.cli import app
from pnp.content.load import load_game, open_root
from pnp.content.sheets import guard
from pnp.core.findings import Report
from pnp.core.run import running
from pnp.designer.watch import Watcher
from pnp.i18n.catalog.pot import template
from pnp.printing.imposition import Options

from helpers import FIXTURES, make_root

runner = CliRunner()
Rows = list[list[Any]]

# the clean fixture's deck, tokens and table, as sheets
CARDS: Rows = [
    ["id", "copies", "title.en", "title.it", "text.en", "text.it"],
    ["alpha", 4, "Alpha", "Alfa", "Gain 2 {coin}.", "Guadagna 2 {coin}."],
    ["beta", 2, "Beta", "Beta", "Pay **1** {coin}.", "Paga **1** {coin}."],
]
TOKENS: Rows = [["id", "copies", "title.en", "title.it"], ["chip", 2, "Chip", "Gettone"]]
DEAL: Rows = [["players", "alpha", "beta"], [2, 1, 1], [3, 2, 1], [4, 2, 2]]


# --- writing sheets ---------------------------------------------------------------------------


def write_csv(path: Path, rows: Rows, delimiter: str = ",") -> None:
    with open(path, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh, delimiter=delimiter).writerows(rows)


def write_xlsx(path: Path, sheets: dict[str, Rows]) -> None:
    import openpyxl

    book = openpyxl.Workbook()
    book.remove(book.active)
    for name, rows in sheets.items():
        sheet = book.create_sheet(name)
        for row in rows:
            sheet.append(row)
    book.save(path)


def write_ods(path: Path, sheets: dict[str, Rows]) -> None:
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.table import Table, TableCell, TableRow
    from odf.text import P

    doc = OpenDocumentSpreadsheet()
    for name, rows in sheets.items():
        table = Table(name=name)
        for row in rows:
            tr = TableRow()
            for value in row:
                if value is None:
                    tr.addElement(TableCell())
                elif isinstance(value, bool):
                    cell = TableCell(valuetype="boolean", booleanvalue=str(value).lower())
                    cell.addElement(P(text=str(value).upper()))
                    tr.addElement(cell)
                elif isinstance(value, int | float):
                    cell = TableCell(valuetype="float", value=value)
                    cell.addElement(P(text=str(value)))
                    tr.addElement(cell)
                else:
                    cell = TableCell(valuetype="string")
                    cell.addElement(P(text=value))
                    tr.addElement(cell)
            table.addElement(tr)
        doc.spreadsheet.addElement(table)
    doc.save(str(path))


def sheet_pack(tmp_path: Path, kind: str) -> Path:
    """The clean fixture with its cards, tokens and table rows in sheets of ``kind``."""
    root = make_root(tmp_path / kind, FIXTURES / "clean")
    game = root / "cards/mini"
    yaml = (game / "decks.yaml").read_text("utf-8")
    if kind in ("csv", "tsv"):
        delimiter = "," if kind == "csv" else "\t"
        for name, rows in (("cards", CARDS), ("tokens", TOKENS), ("deal", DEAL)):
            write_csv(game / f"{name}.{kind}", rows, delimiter)
        refs = {n: f"{n}.{kind}" for n in ("cards", "tokens", "deal")}
    else:
        writer = write_xlsx if kind == "xlsx" else write_ods
        writer(game / f"parts.{kind}", {"Cards": CARDS, "Tokens": TOKENS, "Deal": DEAL})
        refs = {
            n: f"{{file: parts.{kind}, sheet: {s}}}"
            for n, s in (("cards", "Cards"), ("tokens", "Tokens"), ("deal", "Deal"))
        }
    yaml = _replace_block(yaml, "    cards:\n", "tokens:", f"    cards: {refs['cards']}\n")
    yaml = _replace_block(yaml, "    tokens:\n", "tables:", f"    tokens: {refs['tokens']}\n")
    yaml = _replace_block(yaml, "    rows:\n", None, f"    rows: {refs['deal']}\n")
    (game / "decks.yaml").write_text(yaml, "utf-8")
    return root


def _replace_block(text: str, start: str, end: str | None, new: str) -> str:
    i = text.index(start)
    j = text.index(end, i) if end else len(text)
    return text[:i] + new + text[j:]


def build_pdfs(root: Path) -> dict[str, bytes]:
    report = Report()
    with running(fresh=True):
        outs = build(open_root(root), ["mini"], BuildOptions(layout=Options(paper="a4")), report)
    assert not report.has_errors(), [f.text() for f in report.sorted()]
    return {o.path.name: o.path.read_bytes() for o in outs}


FOLDED = re.compile(r" \(and \d+ more caused by this: [^()]*\)$")


def validate_lines(root: Path, folds: bool = False) -> list[str]:
    """The lines of ``pnp validate``; without ``folds``, a cause's line without what it adds
    about the findings folded under it (tests/test_causes.py tests that)."""
    result = runner.invoke(app, ["validate", "mini", "--root", str(root)])
    assert "Traceback" not in result.output and "internal error" not in result.output
    lines = result.output.splitlines()
    return lines if folds else [FOLDED.sub("", ln) for ln in lines]


def mini(tmp_path: Path, cards: Rows | None = None, name: str = "cards.csv") -> Path:
    """The clean fixture whose deck's cards come from ``cards.csv`` (``cards`` rows)."""
    root = make_root(tmp_path, FIXTURES / "clean")
    game = root / "cards/mini"
    yaml = (game / "decks.yaml").read_text("utf-8")
    (game / "decks.yaml").write_text(
        _replace_block(yaml, "    cards:\n", "tokens:", f"    cards: {name}\n"), "utf-8"
    )
    if cards is not None:
        write_csv(game / name, cards)
    return root


# --- the same PDF -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def yaml_pdfs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    return build_pdfs(make_root(tmp_path_factory.mktemp("yaml"), FIXTURES / "clean"))


@pytest.mark.parametrize("kind", ["csv", "tsv", "xlsx", "ods"])
def test_a_deck_from_a_sheet_builds_the_same_pdf_as_yaml(
    kind: str, tmp_path: Path, yaml_pdfs: dict[str, bytes]
) -> None:
    root = sheet_pack(tmp_path, kind)
    assert "cards:\n" not in (root / "cards/mini/decks.yaml").read_text()
    pdfs = build_pdfs(root)
    assert sorted(pdfs) == sorted(yaml_pdfs) == ["mini-en-a4.pdf", "mini-it-a4.pdf"]
    for name, data in pdfs.items():
        assert data == yaml_pdfs[name], f"{kind}: {name} differs from the YAML build"


def test_what_a_sheet_gives_is_what_yaml_gives(tmp_path: Path) -> None:
    """Item by item: ids, copies, texts per language, table cells, with the sheet's cells as
    their positions."""
    with running(fresh=True):
        report = Report()
        game = load_game(open_root(sheet_pack(tmp_path, "xlsx")), "mini", report)
    assert game is not None and not report.findings
    cards = game.decks["main"].cards
    assert [(c.id, c.copies, c.title.values if c.title else None) for c in cards] == [
        ("alpha", 4, {"en": "Alpha", "it": "Alfa"}),
        ("beta", 2, {"en": "Beta", "it": "Beta"}),
    ]
    assert isinstance(cards[0].copies, int)
    assert str(cards[1].at("copies")) == "cards/mini/parts.xlsx:3:2"
    assert str(cards[1].text.at("it")) == "cards/mini/parts.xlsx:3:6"  # type: ignore[union-attr]
    assert cards[0].text.ctx == "decks/main/cards/alpha/text"  # type: ignore[union-attr]
    assert game.tokens["chips"].tokens[0].title.values == {"en": "Chip", "it": "Gettone"}  # type: ignore[union-attr]
    deal = game.tables["deal"]
    assert deal.cells == [
        {"players": 2, "alpha": 1, "beta": 1},
        {"players": 3, "alpha": 2, "beta": 1},
        {"players": 4, "alpha": 2, "beta": 2},
    ]
    assert str(deal.cell_pos[2]["beta"]) == "cards/mini/parts.xlsx:4:3"
    assert "cards/mini/parts.xlsx" in game.files


# --- findings at FILE:ROW:COL -------------------------------------------------------------------


def test_wrong_cells_are_findings_at_their_cell(tmp_path: Path) -> None:
    rows = [
        ["id", "copies", "title.en", "title.it", "layout", "colour"],
        ["alpha", "three", "Alpha", "Alfa", None, None],
        ["beta", 2, "Beta", None, "nosuch", None],
    ]
    root = mini(tmp_path, rows)
    out = validate_lines(root)
    assert (
        "cards/mini/cards.csv:2:2: error [schema] expected a whole number, found the text 'three'"
    ) in out
    assert (
        "cards/mini/cards.csv:1:6: warning [unknown-key] unknown key 'colour' in a card; "
        "if it is a value of your own (for a template), name it values.colour; accepted keys: "
        "art, "
    ) in "\n".join(out)
    missing = [ln for ln in out if "[missing-text]" in ln and "cards/beta" in ln]
    assert missing == [
        "cards/mini/cards.csv:3:4: warning [missing-text] decks/main/cards/beta/title: no it "
        "text (has en); the build falls back to en: add it here or in the PO catalog"
    ]
    layout = [ln for ln in out if "nosuch" in ln]
    assert layout and layout[0].startswith("cards/mini/cards.csv:3:5: error [reference] ")


def test_an_unknown_column_is_the_finding_yaml_gives(tmp_path: Path) -> None:
    root = mini(tmp_path / "sheet", [["id", "colour"], ["alpha", "red"], ["beta", "blue"]])
    sheet = [ln for ln in validate_lines(root) if "[unknown-key]" in ln]
    yroot = make_root(tmp_path / "yaml", FIXTURES / "clean")
    decks = yroot / "cards/mini/decks.yaml"
    decks.write_text(decks.read_text().replace("copies: 4", "copies: 4\n        colour: red"))
    yaml = [ln for ln in validate_lines(yroot) if "[unknown-key]" in ln]
    assert len(sheet) == 1 and len(yaml) == 1  # once, at the header cell, not once a row
    assert sheet[0].split(": ", 1)[0] == "cards/mini/cards.csv:1:2"
    assert sheet[0].split(": ", 1)[1] == yaml[0].split(": ", 1)[1]


def test_a_wrong_cell_in_a_workbook_names_its_row_and_column(tmp_path: Path) -> None:
    root = mini(tmp_path, name="cards.xlsx")
    rows: Rows = [
        [None, None, None],  # data may start below an empty row
        ["id", "copies", "title.en"],
        ["alpha", 4, "Alpha"],
        ["beta", "lots", "Beta"],
    ]
    write_xlsx(root / "cards/mini/cards.xlsx", {"Sheet": rows})
    out = validate_lines(root)
    assert (
        "cards/mini/cards.xlsx:4:2: error [schema] expected a whole number, found the text 'lots'"
    ) in out


def test_a_bad_reference_in_a_cell_is_reported_at_the_cell(tmp_path: Path) -> None:
    root = mini(tmp_path, [["id", "copies", "title.en", "title.it", "stage_of", "stage"]])
    write_csv(
        root / "cards/mini/cards.csv",
        [
            ["id", "copies", "title.en", "title.it", "stage_of", "stage"],
            ["alpha", 4, "Alpha", "Alfa", None, None],
            ["beta", 2, "Beta", "Beta", "gamma", 1],
        ],
    )
    out = validate_lines(root)
    found = [ln for ln in out if "'gamma'" in ln]
    assert found and found[0].startswith("cards/mini/cards.csv:3:5: error "), out


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        (
            ["id", "title", "title.en"],
            "cards/mini/cards.csv:1:3: error [schema] columns 'title' (column B) and 'title.en' "
            "both give title: a text is one column title in the source language, or one column "
            "per language (title.en, title.it...); rename one of them",
        ),
        (
            ["id", "title.en", "title.en"],
            "cards/mini/cards.csv:1:3: error [duplicate-key] column 'title.en' appears twice "
            "(first in column B); keep one of them",
        ),
        (
            ["id", "values"],
            "cards/mini/cards.csv:1:2: error [schema] column 'values' names a mapping; give each "
            "entry its column: values.NAME",
        ),
        (
            ["id", "copies.en"],
            "cards/mini/cards.csv:1:2: error [schema] column 'copies.en': copies is a single "
            "value; name the column copies",
        ),
        (
            ["id", "outcomes"],
            "cards/mini/cards.csv:1:2: error [schema] column 'outcomes': a list of an outcome "
            "cannot be written in a cell; keep this field in YAML",
        ),
    ],
)
def test_header_problems(tmp_path: Path, header: list[str], expected: str) -> None:
    root = mini(tmp_path, [header, ["alpha", *(["x"] * (len(header) - 1))]])
    assert expected in validate_lines(root)


def test_cells_become_what_yaml_would_hold(tmp_path: Path) -> None:
    """Numbers where a field takes numbers, true/false for a truth value, lists split at
    commas, texts kept as written; notes columns and empty rows are skipped."""
    rows = [
        ["id", "copies", "title", "values.cost", "values.code", "placeholder", "tags", "# notes"],
        ["alpha", 4.0, 2024, 3.0, "B7", True, "first-game, cheap", "a note"],
        [None, None, None, None, None, None, None, "only a note"],
        ["beta", 2, "Beta", 2.5, "007", False, None, None],
    ]
    root = mini(tmp_path, name="cards.xlsx")
    game = root / "cards/mini"
    write_xlsx(game / "cards.xlsx", {"Sheet": rows})
    with running(fresh=True):
        report = Report()
        loaded = load_game(open_root(root), "mini", report)
    assert loaded is not None
    alpha, beta = loaded.decks["main"].cards
    assert alpha.copies == 4 and isinstance(alpha.copies, int)
    assert alpha.title is not None and alpha.title.values == {"en": "2024"}
    assert alpha.values == {"cost": 3, "code": "B7"} and isinstance(alpha.values["cost"], int)
    assert alpha.placeholder is True and beta.placeholder is False
    assert alpha.tags == ["first-game", "cheap"]
    assert beta.values["code"] == "007"  # a text cell stays a text
    # the same from CSV, where every cell is a text
    write_csv(game / "cards.csv", [[str(v) if v is not None else "" for v in r] for r in rows])
    decks = game / "decks.yaml"
    decks.write_text(decks.read_text().replace("cards.xlsx", "cards.csv"))
    with running(fresh=True):
        loaded = load_game(open_root(root), "mini", Report())
    assert loaded is not None
    alpha, beta = loaded.decks["main"].cards
    assert alpha.copies == 4 and alpha.values["cost"] == 3 and alpha.placeholder is True
    assert beta.values["code"] == 7  # as YAML reads code: 007


def test_a_column_without_a_header_is_a_warning(tmp_path: Path) -> None:
    root = mini(tmp_path, [["id", "copies", None], ["alpha", 4, None], ["beta", 2, "stray"]])
    assert (
        "cards/mini/cards.csv:3:3: warning [sheet] column C has values but no header, so pnp "
        "does not read them; name it in row 1 (e.g. text.en), or start its header with # to "
        "mark it as notes"
    ) in validate_lines(root)


def test_a_table_sheet_may_name_its_columns(tmp_path: Path) -> None:
    root = make_root(tmp_path, FIXTURES / "clean")
    game = root / "cards/mini"
    (game / "prices.yaml").write_text(
        "tables:\n  prices:\n    title: {en: Prices, it: Prezzi}\n    sheet: false\n"
        "    rows: prices.tsv\n"
    )
    write_csv(
        game / "prices.tsv",
        [["item.en", "item.it", "cost"], ["Bread", "Pane", "2"], ["Wine", "Vino", "5"]],
        "\t",
    )
    with running(fresh=True):
        report = Report()
        loaded = load_game(open_root(root), "mini", report)
    assert loaded is not None and not report.errors
    table = loaded.tables["prices"]
    assert [c.id for c in table.columns] == ["item", "cost"]
    assert [row["cost"] for row in table.cells] == [2, 5]
    assert table.cells[1]["item"].values == {"en": "Wine", "it": "Vino"}
    # a column the YAML does not list
    (game / "decks.yaml").write_text(
        (game / "decks.yaml").read_text().replace("    rows:\n", "    rows: deal.csv\n    old:\n")
    )
    write_csv(game / "deal.csv", [["players", "alpha", "beta", "gamma"], [2, 1, 1, 0]])
    assert (
        "cards/mini/deal.csv:1:4: error [schema] unknown column 'gamma'; columns: players, "
        "alpha, beta"
    ) in validate_lines(root)


# --- reading safely -------------------------------------------------------------------------------


def _xlsx_bytes(sheet_xml: bytes, extra: dict[str, bytes] | None = None) -> bytes:
    ns = b'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
    rel = b"http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    parts = {
        "[Content_Types].xml": b'<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats'
        b'.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd'
        b'.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType='
        b'"application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.'
        b'openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/'
        b'worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.'
        b'spreadsheetml.worksheet+xml"/></Types>',
        "_rels/.rels": b'<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats'
        b'.org/package/2006/relationships"><Relationship Id="rId1" Type="' + rel + b"/officeDocu"
        b'ment" Target="xl/workbook.xml"/></Relationships>',
        "xl/workbook.xml": b'<?xml version="1.0"?><workbook ' + ns + b' xmlns:r="' + rel + b'">'
        b'<sheets><sheet name="Cards" sheetId="1" r:id="rId1"/></sheets></workbook>',
        "xl/_rels/workbook.xml.rels": b'<?xml version="1.0"?><Relationships xmlns="http://schemas'
        b'.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="'
        + rel
        + b'/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
        "xl/worksheets/sheet1.xml": b'<?xml version="1.0"?><worksheet '
        + ns
        + b"><sheetData>"
        + sheet_xml
        + b"</sheetData></worksheet>",
        **(extra or {}),
    }
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in parts.items():
            z.writestr(name, data)
    return out.getvalue()


def _ods_bytes(table_xml: bytes) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(zipfile.ZipInfo("mimetype"), "application/vnd.oasis.opendocument.spreadsheet")
        z.writestr(
            "META-INF/manifest.xml",
            '<?xml version="1.0"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:'
            'opendocument:xmlns:manifest:1.0" manifest:version="1.2"><manifest:file-entry '
            'manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.'
            'spreadsheet"/><manifest:file-entry manifest:full-path="content.xml" '
            'manifest:media-type="text/xml"/></manifest:manifest>',
        )
        z.writestr(
            "content.xml",
            b'<?xml version="1.0"?><office:document-content xmlns:office="urn:oasis:names:tc:'
            b'opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:'
            b'table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:'
            b'version="1.2"><office:body><office:spreadsheet><table:table table:name="Cards">'
            + table_xml
            + b"</table:table></office:spreadsheet></office:body></office:document-content>",
        )
    return out.getvalue()


def _zip_bomb() -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("xl/worksheets/sheet1.xml", b"<a>" + b" " * (200 * 1024 * 1024) + b"</a>")
    return out.getvalue()


def _lying_zip() -> bytes:
    """A member whose headers say 100 bytes and whose data unpacks to 80 MB."""
    big = io.BytesIO()
    with zipfile.ZipFile(big, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("xl/worksheets/sheet1.xml", b"<x>" + b"<row/>" * (80 * 1024 * 1024 // 6))
    return _shrink_sizes(big.getvalue())


def _shrink_sizes(data: bytes) -> bytes:
    out = bytearray(data)
    for sig, offset in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
        i = out.find(sig)
        out[i + offset : i + offset + 4] = (100).to_bytes(4, "little")
    return bytes(out)


CELL = b'<table:table-cell office:value-type="string"><text:p>x</text:p></table:table-cell>'
HOSTILE: dict[str, tuple[str, Callable[[], bytes], str]] = {
    "binary": ("cards.xlsx", lambda: b"\x00" + os.urandom(4096), "is not an XLSX file"),
    "encrypted": ("cards.xlsx", lambda: b"\xd0\xcf\x11\xe0" + bytes(600), "password-protected"),
    "text named xlsx": ("cards.xlsx", lambda: b"id,copies\nalpha,4\n", "is not an XLSX file"),
    "truncated": ("cards.xlsx", lambda: _xlsx_bytes(b"")[:300], "damaged"),
    "zip bomb": ("cards.xlsx", _zip_bomb, "zip bomb"),
    "lying sizes": ("cards.xlsx", _lying_zip, "damaged"),
    "far cell": (
        "cards.xlsx",
        lambda: _xlsx_bytes(
            b'<row r="1"><c r="A1"><v>1</v></c></row><row r="1048576">'
            b'<c r="XFD1048576"><v>2</v></c></row>'
        ),
        "1,048,576 rows and 16,384 columns",
    ),
    "far row, no cell reference": (
        "cards.xlsx",
        lambda: _xlsx_bytes(
            b'<row r="1"><c r="XFD1"><v>1</v></c></row><row r="1048576"><c><v>1</v></c></row>'
        ),
        "1,048,576 rows",
    ),
    "shared strings announced": (
        "cards.xlsx",
        lambda: _xlsx_bytes(
            b'<row r="1"><c r="A1"><v>1</v></c></row>',
            {
                "xl/sharedStrings.xml": b'<sst xmlns="http://schemas.openxmlformats.org/'
                b'spreadsheetml/2006/main" count="1" uniqueCount="4000000000"><si><t>x</t>'
                b"</si></sst>"
            },
        ),
        "announces 4,000,000,000 items",
    ),
    "repeated cells": (
        "cards.ods",
        lambda: _ods_bytes(
            b'<table:table-row table:number-rows-repeated="60000">'
            + CELL
            + b'<table:table-cell table:number-columns-repeated="1600" office:value-type="float"'
            b' office:value="1"/></table:table-row>'
        ),
        "60,000 rows and 1,601 columns",
    ),
    "not UTF-8": ("cards.csv", lambda: "id,title\nalpha,Caffè\n".encode("latin-1"), "0xe8"),
    "UTF-16": ("cards.csv", lambda: "id,title\nalpha,x\n".encode("utf-16"), "not UTF-8"),
    "huge": ("cards.csv", lambda: b"id\n" + b"a,\n" * 1_100_000, "more than 2,000,000 cells"),
    "long cell": (
        "cards.csv",
        lambda: b"id,title\nalpha," + b"x" * 200_000 + b"\n",
        "field larger",
    ),
    "unclosed quote": ("cards.csv", lambda: b'id,title\nalpha,"Alpha\n', "cannot be read"),
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_hostile_sheets_are_findings(tmp_path: Path, case: str) -> None:
    name, make, words = HOSTILE[case]
    root = mini(tmp_path, name=name)
    (root / "cards/mini" / name).write_bytes(make())
    started = time.perf_counter()
    result = runner.invoke(app, ["validate", "mini", "--root", str(root)])
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output and "internal error" not in result.output
    found = [ln for ln in result.output.splitlines() if ln.startswith(f"cards/mini/{name}")]
    assert found and words in found[0], result.output
    assert time.perf_counter() - started < 20


def test_file_level_problems(tmp_path: Path) -> None:
    root = mini(tmp_path, name="cards.xlsx")
    game = root / "cards/mini"
    decks = game / "decks.yaml"
    write_xlsx(game / "cards.xlsx", {"Actions": CARDS, "Events": CARDS[:1]})
    decks.write_text(decks.read_text().replace("cards.xlsx", "{file: cards.xlsx, sheet: Actoins}"))
    out = validate_lines(root)
    assert (
        "cards/mini/decks.yaml:5:38: error [sheet] cards.xlsx has no sheet 'Actoins'; did you "
        "mean 'Actions'? its sheets: Actions, Events"
    ) in out
    decks.write_text(decks.read_text().replace("Actoins", "Actions"))
    assert not [ln for ln in validate_lines(root) if " error " in ln]
    for ref, words in [
        ("missing.csv", "[missing-file] spreadsheet 'missing.csv' does not exist"),
        ("../../outside.csv", "[unsafe-path] spreadsheet path '../../outside.csv' leaves"),
        ("old.xls", "[sheet] 'old.xls' is not a spreadsheet pnp reads: save it as .xlsx"),
        ("{file: cards.csv, sheet: One}", "[schema] a CSV file has a single sheet"),
        ("{file: cards.csv, page: 2}", "[unknown-key] unknown key 'page' in a spreadsheet"),
    ]:
        write_csv(game / "cards.csv", CARDS)
        decks.write_text(
            _replace_block(decks.read_text(), "    cards: ", "tokens:", f"    cards: {ref}\n")
        )
        out = validate_lines(root)
        assert any(ln.startswith("cards/mini/decks.yaml:5:") and words in ln for ln in out), out


def test_an_empty_or_oversized_file(tmp_path: Path) -> None:
    root = mini(tmp_path, [])
    out = validate_lines(root)
    folds = validate_lines(root, folds=True)
    # a warning, an error here: the empty deck makes the box's count and references fail,
    # which are folded under it
    assert (
        "cards/mini/cards.csv:1:1: error [sheet] the sheet is empty; its first row names the "
        "fields, e.g. id, copies, title.en"
    ) in out
    assert any("(and 3 more caused by this: " in ln for ln in folds), folds
    with open(root / "cards/mini/cards.csv", "wb") as fh:
        fh.truncate(17 * 1024 * 1024)
    out = validate_lines(root)
    assert (
        "cards/mini/cards.csv: error [sheet] the file is 17.8 MB; pnp reads sheets up to 16 MB: "
        "split it"
    ) in out


def test_a_symbolic_link_out_of_the_game_is_refused(tmp_path: Path) -> None:
    root = mini(tmp_path)
    secret = tmp_path / "secret.csv"
    write_csv(secret, CARDS)
    (root / "cards/mini/cards.csv").symlink_to(secret)
    out = validate_lines(root)
    assert any("[unsafe-path]" in ln and "outside the game's folder" in ln for ln in out), out


def test_the_guard_counts_at_least_what_calamine_reads() -> None:
    """On generated sheets (cell references or none, repeats, empty cells), the extent the
    guard finds is never smaller than the one calamine allocates."""
    import python_calamine

    rng = random.Random(18)
    for _ in range(150):
        kind = rng.choice(["xlsx", "ods"])
        if kind == "xlsx":
            xml, data = _random_xlsx(rng)
            rows, cols = guard.xlsx_extent(xml)
        else:
            xml, data = _random_ods(rng)
            rows, cols = max(guard.ods_extents(xml), default=(0, 0))
        with python_calamine.CalamineWorkbook.from_filelike(io.BytesIO(data)) as book:
            sheet = book.get_sheet_by_index(0)
            end = sheet.end
        if end is not None:
            assert rows >= end[0] + 1 and cols >= end[1] + 1, (kind, xml, end)


def _random_xlsx(rng: random.Random) -> tuple[bytes, bytes]:
    parts = []
    row = 0
    for _ in range(rng.randint(1, 6)):
        row += rng.randint(1, 4)
        ref = rng.random() < 0.7
        cells = []
        col = 0
        for _ in range(rng.randint(0, 5)):
            col += rng.randint(1, 3)
            name = guard_letter(col) + str(row)
            r = f' r="{name}"' if rng.random() < 0.7 else ""
            cells.append(f"<c{r}/>" if rng.random() < 0.2 else f"<c{r}><v>1</v></c>")
        attr = f' r="{row}"' if ref else ""
        parts.append(f"<row{attr}>{''.join(cells)}</row>")
    xml = "".join(parts).encode()
    data = _xlsx_bytes(xml)
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return z.read("xl/worksheets/sheet1.xml"), data


def _random_ods(rng: random.Random) -> tuple[bytes, bytes]:
    parts = []
    for _ in range(rng.randint(1, 5)):
        rep = rng.choice([1, 1, 2, 5])
        cells = []
        for _ in range(rng.randint(0, 4)):
            crep = rng.choice([1, 1, 3])
            attr = f' table:number-columns-repeated="{crep}"' if crep > 1 else ""
            cells.append(f"<table:table-cell{attr}/>" if rng.random() < 0.4 else CELL.decode())
        attr = f' table:number-rows-repeated="{rep}"' if rep > 1 else ""
        parts.append(f"<table:table-row{attr}>{''.join(cells)}</table:table-row>")
    data = _ods_bytes("".join(parts).encode())
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return z.read("content.xml"), data


def guard_letter(col: int) -> str:
    from pnp.content.sheets.columns import letter

    return letter(col - 1)


# --- translators, watch, stamps, speed ----------------------------------------------------------


def test_po_templates_reference_sheet_rows(tmp_path: Path) -> None:
    root = sheet_pack(tmp_path, "csv")
    with running(fresh=True):
        game = load_game(open_root(root), "mini", Report())
    assert game is not None
    refs = {e.msgctxt: e.references for e in template(game).entries}
    assert refs["decks/main/cards/beta/text"] == ["cards/mini/cards.csv:3"]
    assert refs["tokens/chips/tokens/chip/title"] == ["cards/mini/tokens.csv:2"]
    result = runner.invoke(app, ["i18n", "extract", "mini", "--root", str(root)])
    assert result.exit_code == 0, result.output
    pot = (root / "locales/mini.pot").read_text("utf-8")
    assert '#: cards/mini/cards.csv:2\nmsgctxt "decks/main/cards/alpha/title"' in pot


def test_watch_rebuilds_when_the_sheet_is_saved(tmp_path: Path) -> None:
    root = sheet_pack(tmp_path, "csv")
    messages: list[str] = []
    watcher = Watcher(open_root(root), "mini", ("en",), "a4", echo=messages.append)
    built, _ = watcher.cycle()
    assert built, messages
    pdf = root / "output/mini/mini-en-a4.pdf"
    before = pdf.read_bytes()
    sheet = root / "cards/mini/cards.csv"
    changed = [row[:] for row in CARDS]
    changed[1][2] = "Aleph"

    def save() -> None:
        time.sleep(0.3)
        write_csv(sheet, changed)

    saver = threading.Thread(target=save)
    saver.start()
    assert watcher.wait(timeout_ms=10_000) == [sheet]
    saver.join()
    built, _ = watcher.cycle()
    assert built, messages
    assert pdf.read_bytes() != before
    # a wrong cell: reported at the cell, nothing rebuilt
    changed[2][1] = "two"
    write_csv(sheet, changed)
    after = pdf.read_bytes()
    built, _ = watcher.cycle()
    assert not built and pdf.read_bytes() == after
    assert any("cards/mini/cards.csv:3:2: error [schema]" in m for m in messages)


def test_an_edited_sheet_is_built_again(tmp_path: Path) -> None:
    root = sheet_pack(tmp_path, "ods")
    opts = BuildOptions(layout=Options(paper="a4"), langs=("en",))

    def once() -> list[bool]:
        with running(fresh=True):
            return [o.skipped for o in build(open_root(root), ["mini"], opts, Report())]

    assert once() == [False]
    assert once() == [True]  # nothing changed: skipped
    write_ods(
        root / "cards/mini/parts.ods",
        {
            "Cards": [CARDS[0], ["alpha", 4, "Aleph", "Alfa", "x", "y"], CARDS[2]],
            "Tokens": TOKENS,
            "Deal": DEAL,
        },
    )
    assert once() == [False]


def test_a_sheet_is_read_once_a_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pnp.content import sheets

    root = open_root(sheet_pack(tmp_path, "csv"))
    reads: list[str] = []
    real = sheets.read_grid

    def counting(data: bytes, src: Any) -> Any:
        reads.append(src.rel)
        return real(data, src)

    monkeypatch.setattr(sheets, "read_grid", counting)
    with running(fresh=True):
        for _ in range(3):
            assert load_game(root, "mini", Report()) is not None
    assert sorted(reads) == ["cards/mini/cards.csv", "cards/mini/deal.csv", "cards/mini/tokens.csv"]


def test_the_audit_runs_over_a_game_with_sheets(tmp_path: Path) -> None:
    from pnp.validate.audit import audit_game

    result = audit_game(open_root(sheet_pack(tmp_path, "csv")), "mini", Report(), jobs=1)
    assert result is not None and result.mutations


def test_a_thousand_rows_load_fast(tmp_path: Path) -> None:
    rows: Rows = [["id", "copies", "title.en", "title.it", "text.en", "text.it", "values.cost"]]
    rows += [
        [
            f"c{i}",
            1 + i % 3,
            f"Card {i}",
            f"Carta {i}",
            f"Gain {i} {{coin}}.",
            f"Guadagna {i}.",
            i % 7,
        ]
        for i in range(1000)
    ]
    root = mini(tmp_path, rows)
    best = float("inf")
    for _ in range(3):
        with running(fresh=True):
            started = time.perf_counter()
            game = load_game(open_root(root), "mini", Report())
            best = min(best, time.perf_counter() - started)
    assert game is not None and len(game.decks["main"].cards) == 1000
    print(f"\nloading a game with a 1,000-row CSV: {best * 1000:.0f} ms")
    assert best < 2.0
