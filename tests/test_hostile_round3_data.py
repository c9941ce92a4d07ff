"""Hostile input, third round (issue 33), the data classes: workbooks, long setup tables,
template filters, images and the messages about them. One case per defect class, each run on
the code before its fix and seen to fail there. The machinery (pnp in process or in a measured
subprocess, the contract on exit codes and messages) is tests/test_hostile.py's."""

# ruff: noqa: F811 - the fixtures imported from test_hostile are parameters of the tests

from __future__ import annotations

import io
import json
import os
import struct
import subprocess
import sys
import textwrap
import time
import zipfile
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest
from test_hostile import (  # noqa: F401 - fixtures are used by name
    _DRIVER,
    GAME,
    SLACK,
    Measured,
    Result,
    assert_bounded,
    assert_contract,
    pnp,
    put,
    root,
)
from test_sheets import _ods_bytes, _replace_block, _xlsx_bytes

# --- running pnp with the memory of its child processes counted --------------------------------

_PEAK = '"peak_mb": peak_kb / 1024'
assert _PEAK in _DRIVER  # the driver of test_hostile reports its own peak; add its children's
_TREE_DRIVER = _DRIVER.replace(
    _PEAK,
    '"peak_mb": max(peak_kb, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) / 1024',
)


def measured(*args: object, timeout: float = 10.0, prelude: str = "") -> Measured:
    """`pnp ARGS...` in a subprocess under a 3 GB address-space cap: its time, and the peak
    memory of the process and of the children it waited for (a workbook's reader).
    ``prelude``: Python run first (to switch a guard off and show what stands behind it)."""
    env = {k: v for k, v in os.environ.items() if k not in ("PNP_DEBUG", "PNP_ROOT")}
    driver = _TREE_DRIVER.replace("sys.argv = [", prelude + "\nsys.argv = [", 1)
    try:
        proc = subprocess.run(
            [sys.executable, "-c", driver, *(str(a) for a in args)],
            capture_output=True,
            text=True,
            timeout=timeout * SLACK,
            env=env,
        )
    except subprocess.TimeoutExpired:
        return Measured(None, float("nan"))
    err, _, stats = proc.stderr.rpartition("\n@@")
    if not stats:  # the driver died before reporting (killed, crashed, aborted)
        return Measured(Result(proc.returncode, proc.stdout, proc.stderr, timeout), float("nan"))
    data = json.loads(stats)
    return Measured(Result(data["code"], proc.stdout, err, data["seconds"]), data["peak_mb"])


def deck_from(root: Path, name: str, data: bytes) -> None:
    """The clean game's deck read from ``name`` (holding ``data``)."""
    decks = root / GAME / "decks.yaml"
    text = decks.read_text("utf-8")
    decks.write_text(_replace_block(text, "    cards:\n", "tokens:", f"    cards: {name}\n"))
    put(root, f"{GAME}/{name}", data)


def sheet_findings(res: Result, name: str) -> list[dict[str, str]]:
    return [f for f in res.findings() if f["path"] == f"{GAME}/{name}"]


# --- 2. no workbook takes the process down ---------------------------------------------------


def _rezip(parts: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in parts.items():
            z.writestr(name, data)
    return out.getvalue()


def _parts(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return {n: z.read(n) for n in z.namelist()}


FAR_CELL = (
    b'<row r="1"><c r="A1"><v>1</v></c></row><row r="1048576"><c r="XFD1048576"><v>2</v></c></row>'
)


def _sheet_part_named_bin() -> bytes:
    """The far-cell workbook whose sheet part is ``sheet1.bin`` (1.4 KB; calamine follows the
    workbook's links, not the name)."""
    parts = _parts(_xlsx_bytes(FAR_CELL))
    parts["xl/worksheets/sheet1.bin"] = parts.pop("xl/worksheets/sheet1.xml")
    for key in ("xl/_rels/workbook.xml.rels", "[Content_Types].xml"):
        parts[key] = parts[key].replace(b"sheet1.xml", b"sheet1.bin")
    return _rezip(parts)


def _shared_strings(length: int, cells: int) -> bytes:
    """One shared text of ``length`` characters, referenced by ``cells`` cells (1000 a row)."""
    row = b"".join(b'<c t="s"><v>0</v></c>' for _ in range(1000))
    rows = b'<row r="1"><c r="A1" t="s"><v>1</v></c></row>' + b"".join(
        b'<row r="%d">' % r + row + b"</row>" for r in range(2, cells // 1000 + 2)
    )
    sst = (
        b'<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="2" '
        b'uniqueCount="2"><si><t>' + b"x" * length + b"</t></si><si><t>id</t></si></sst>"
    )
    parts = _parts(_xlsx_bytes(rows, {"xl/sharedStrings.xml": sst}))
    parts["xl/_rels/workbook.xml.rels"] = parts["xl/_rels/workbook.xml.rels"].replace(
        b"</Relationships>",
        b'<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
        b'relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>',
    )
    return _rezip(parts)


def _ods_cell(text: bytes, attrs: bytes = b"") -> bytes:
    return (
        b"<table:table-cell " + attrs + b' office:value-type="string"><text:p>' + text
        + b"</text:p></table:table-cell>"
    )  # fmt: skip


ID_ROW = b"<table:table-row>" + _ods_cell(b"id") + b"</table:table-row>"
WORKBOOKS: dict[str, tuple[str, Callable[[], bytes], str]] = {
    "sheet part named .bin": ("cards.xlsx", _sheet_part_named_bin, "1,048,576 rows"),
    "repeated space": (
        "cards.ods",
        lambda: _ods_bytes(
            ID_ROW
            + b"<table:table-row>"
            + _ods_cell(b'a<text:s text:c="1000000000"/>b')
            + b"</table:table-row>"
        ),
        "characters of text",
    ),
    "shared text in a million cells": (
        "cards.xlsx",
        lambda: _shared_strings(30_000, 1_000_000),
        "characters of text",
    ),
    "long cell in repeated rows": (
        "cards.ods",
        lambda: _ods_bytes(
            ID_ROW
            + b'<table:table-row table:number-rows-repeated="1000000">'
            + _ods_cell(b"y" * 60_000)
            + b"</table:table-row>"
        ),
        "characters of text",
    ),
    "long cell in repeated columns": (
        "cards.ods",
        lambda: _ods_bytes(
            b"<table:table-row>"
            + _ods_cell(b"y" * 60_000, b'table:number-columns-repeated="1000000"')
            + b"</table:table-row>"
        ),
        "characters of text",
    ),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(WORKBOOKS))
def test_a_workbook_is_a_finding_in_seconds_and_little_memory(root: Path, case: str) -> None:
    name, make, words = WORKBOOKS[case]
    deck_from(root, name, make())
    res = assert_bounded(measured("validate", "--root", root), seconds=8.0, peak_mb=400.0)
    assert res.code == 1
    found = sheet_findings(res, name)
    assert found and found[0]["rule"] == "sheet" and words in found[0]["message"], res.text


_NO_GUARD = textwrap.dedent(
    """
    import pnp.content.sheets.read as _read
    _read.check_counts = _read.check_extents = lambda *args: None
    """
)


@pytest.mark.slow
def test_what_the_guard_misses_is_contained(root: Path) -> None:
    """With the zip and XML checks switched off, the reader itself asks for 512 GB: it does so
    in a child process whose address space is capped, so the file is a finding, not an abort."""
    deck_from(root, "cards.xlsx", _xlsx_bytes(FAR_CELL))
    res = assert_bounded(
        measured("validate", "--root", root, prelude=_NO_GUARD), seconds=8.0, peak_mb=700.0
    )
    found = sheet_findings(res, "cards.xlsx")
    assert found and "MB of memory" in found[0]["message"], res.text
    assert "memory allocation" not in res.text  # the reader's abort message is not shown


def test_a_reader_that_hangs_is_stopped(monkeypatch: pytest.MonkeyPatch) -> None:
    from pnp.content.sheets import contain

    monkeypatch.setattr(contain, "MAX_READ_SECONDS", 0.5)
    started = time.perf_counter()
    with pytest.raises(contain.Contained, match=r"took more than"):
        contain.run_contained(lambda: time.sleep(30), ValueError)
    assert time.perf_counter() - started < 5


def test_a_readers_error_comes_back_with_its_position() -> None:
    from pnp.content.sheets import contain
    from pnp.content.sheets.read import SheetError
    from pnp.core.findings import Pos

    def fail() -> None:
        raise SheetError("bad cell", Pos("x.xlsx", 3, 2), "schema")

    with pytest.raises(SheetError) as caught:
        contain.run_contained(fail, SheetError)
    assert (caught.value.message, caught.value.pos, caught.value.rule) == (
        "bad cell",
        Pos("x.xlsx", 3, 2),
        "schema",
    )
    assert contain.run_contained(lambda: [[1, "a", None, 2.5, True]], SheetError) == [
        [1, "a", None, 2.5, True]
    ]


@pytest.mark.slow
def test_a_million_unknown_columns_are_one_finding(root: Path) -> None:
    header = b"id," + b",".join(b"u%d" % i for i in range(1_000_000))
    deck_from(root, "cards.csv", header + b"\nalpha\n")
    res = assert_bounded(measured("validate", "--root", root), seconds=10.0, peak_mb=400.0)
    unknown = [f for f in res.findings() if f["rule"] == "unknown-key"]
    assert len(unknown) == 1 and "1,000,000 columns" in unknown[0]["message"], res.text[:2000]
    assert (unknown[0]["line"], unknown[0]["col"]) == ("1", "2")
    assert len(res.text) < 10_000


# --- 3. nothing dropped from a print silently; long tables cost time in proportion ----------


def table_pack(root: Path, rows: int, cell: Callable[[int], str] = lambda i: str(i % 7)) -> None:
    """The clean game with a setup-sheet table ``big`` of ``rows`` rows (from a CSV)."""
    body = "".join(f"{i},{cell(i)},{i % 5}\n" for i in range(rows))
    put(root, f"{GAME}/big.csv", "n,x,y\n" + body)
    put(
        root,
        f"{GAME}/big.yaml",
        "tables:\n  big:\n    title: {en: Big, it: Grande}\n    columns:\n"
        + "".join(f"      - {{id: {c}, title: {{en: {c}, it: {c}}}}}\n" for c in "nxy")
        + "    rows: big.csv\n",
    )
    game = root / GAME / "game.yaml"
    game.write_text(game.read_text("utf-8").replace("tables: [deal]", "tables: [deal, big]"))


@pytest.mark.slow
def test_every_row_of_a_long_setup_table_is_printed(root: Path) -> None:
    import pdfplumber

    table_pack(root, 3000)
    res = assert_bounded(
        measured("build", "mini", "--root", root, "--lang", "en", timeout=20.0),
        seconds=20.0,
        peak_mb=400.0,
    )
    assert res.code == 0, res.text
    words: set[str] = set()
    with pdfplumber.open(root / "output/mini/mini-en-a4.pdf") as pdf:
        for page in pdf.pages:
            words.update(w["text"] for w in page.extract_words())
    missing = [n for n in range(7, 3000) if f"{n:,}" not in words]  # 0-6 are in other cells
    assert not missing, f"{len(missing)} rows missing, from {missing[0]}"


@pytest.mark.slow
@pytest.mark.parametrize("command", ["validate", "build"])
def test_a_table_over_the_sheet_limit_is_refused_in_seconds(root: Path, command: str) -> None:
    table_pack(root, 60_000)
    res = assert_bounded(measured(command, "--root", root), seconds=8.0, peak_mb=400.0)
    assert res.code == 1 and (f"{GAME}/big.yaml", 8) in res.at("schema"), res.text
    assert "at most 5,000 rows" in res.text
    assert not (root / "output/mini").exists() or not list((root / "output/mini").glob("*.pdf"))


def test_a_sheet_over_the_page_limit_is_an_error_and_nothing_is_written(
    pnp: Callable[..., Result], root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pnp.printing.render import setup

    monkeypatch.setattr(setup, "MAX_SETUP_PAGES", 3)
    table_pack(root, 400)
    res = pnp("build", "mini", "--root", root, "--lang", "en")
    assert res.code == 1 and "the setup sheet needs more than 3 pages" in res.text, res.text
    assert res.at("schema") == [(f"{GAME}/game.yaml", 12)], res.text
    assert not list(root.rglob("*.pdf"))


def test_setup_table_pagination_wraps_each_row_a_few_times(
    pnp: Callable[..., Result], root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Cutting a table into pages wraps it once, then each part: the rows wrapped grow with
    the table's rows (cutting by repeated splits grew with their square)."""
    from reportlab.platypus import Table

    wrapped = [0]
    real = Table.wrap

    def counting(self: Table, *args: object) -> object:
        wrapped[0] += len(self._cellvalues)
        return real(self, *args)

    monkeypatch.setattr(Table, "wrap", counting)
    table_pack(root, 2000)
    res = pnp("build", "mini", "--root", root, "--lang", "en")
    assert res.code == 0, res.text
    # about 9 per row here (pages counted, then drawn); 49 per row, and growing, by splits
    assert wrapped[0] < 15 * 2000, f"{wrapped[0]:,} rows wrapped for a table of 2,000"


# --- 5. images checked as the PDF reader reads them -------------------------------------------


def _jpeg(size: tuple[int, int] = (120, 90)) -> bytes:
    from PIL import Image

    buf = io.BytesIO()
    Image.effect_noise(size, 80).convert("RGB").save(buf, format="JPEG")
    return buf.getvalue()


def _segment(data: bytes, marker: int) -> tuple[int, int]:
    """Where the first segment with ``marker`` starts and ends in a JPEG."""
    at = data.index(bytes([0xFF, marker]))
    return at, at + 2 + struct.unpack(">H", data[at + 2 : at + 4])[0]


def _two_frames() -> bytes:
    """A JPEG with a second frame header (of other dimensions) before its scan."""
    data = _jpeg()
    start, end = _segment(data, 0xC0)
    sof = bytearray(data[start:end])
    sof[5:9] = struct.pack(">HH", 4000, 3000)  # height, width
    return data[:end] + bytes(sof) + data[end:]


def _lossless() -> bytes:
    """The frame header marked SOF3 (lossless), which PDF's DCTDecode does not read."""
    data = bytearray(_jpeg())
    start, _ = _segment(bytes(data), 0xC0)
    data[start + 1] = 0xC3
    return bytes(data)


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def _adam7(width: int, height: int, pixels: bytes) -> bytes:
    """The scanlines of an interlaced 8-bit RGB image (filter 0), pass after pass."""
    passes = ((0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2))
    out = bytearray()
    for x0, y0, dx, dy in (*passes, (0, 1, 1, 2)):
        for y in range(y0, height, dy):
            row = b"".join(pixels[(y * width + x) * 3 : (y * width + x) * 3 + 3]
                           for x in range(x0, width, dx))  # fmt: skip
            if row:
                out += b"\x00" + row
    return bytes(out)


def _damaged_interlaced_png() -> bytes:
    """An interlaced PNG of noise whose compressed data is damaged past its first 200 KB, with
    the checksums made right again: the start inflates, the whole does not."""
    width = height = 400
    pixels = os.urandom(width * height * 3)
    packed = bytearray(zlib.compress(_adam7(width, height, pixels), 9))
    packed[200_000:200_400] = os.urandom(400)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 1))
        + _chunk(b"IDAT", bytes(packed))
        + _chunk(b"IEND", b"")
    )


IMAGES: dict[str, tuple[str, Callable[[], bytes], str]] = {
    "jpeg with two frame headers": ("jpg", _two_frames, "two frame headers"),
    "lossless jpeg": ("jpg", _lossless, "lossless"),
    "damaged interlaced png": ("png", _damaged_interlaced_png, "cannot be decoded"),
}


def art_pack(root: Path, suffix: str, data: bytes) -> None:
    put(root, f"{GAME}/art/x.{suffix}", data)
    decks = root / GAME / "decks.yaml"
    text = decks.read_text("utf-8")
    decks.write_text(text.replace("copies: 4\n", f"copies: 4\n        art: art/x.{suffix}\n", 1))


@pytest.mark.parametrize("case", sorted(IMAGES))
def test_an_image_no_reader_can_decode_is_a_bad_image_at_its_reference(
    pnp: Callable[..., Result], root: Path, case: str
) -> None:
    suffix, make, words = IMAGES[case]
    art_pack(root, suffix, make())
    for command in ("validate", "build"):
        res = pnp(command, "--root", root)
        assert res.code == 1 and (f"{GAME}/decks.yaml", 8) in res.at("bad-image"), res.text
        assert words in res.text and "check the disk" not in res.text, res.text
    assert not list(root.rglob("*.pdf"))


def test_an_interlaced_png_that_decodes_is_printed(pnp: Callable[..., Result], root: Path) -> None:
    width = height = 64
    pixels = os.urandom(width * height * 3)
    png = (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 1))
        + _chunk(b"IDAT", zlib.compress(_adam7(width, height, pixels)))
        + _chunk(b"IEND", b"")
    )
    art_pack(root, "png", png)
    assert pnp("validate", "--root", root).code == 0
    assert pnp("build", "--root", root, "--lang", "en").code == 0


def test_an_image_damaged_after_validation_is_named_by_the_build(tmp_path: Path) -> None:
    from pnp.core.errors import BuildError
    from pnp.printing.pdfimage import LazyImage

    path = tmp_path / "x.png"
    path.write_bytes(_damaged_interlaced_png())
    with pytest.raises(BuildError, match=r"the image x\.png cannot be decoded"):
        LazyImage("x", path).format(None)


def test_an_oversized_image_is_measured_against_pnps_limit(
    pnp: Callable[..., Result], root: Path
) -> None:
    huge = (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", struct.pack(">IIBBBBB", 20_000, 20_000, 8, 2, 0, 0, 0))
        + _chunk(b"IDAT", zlib.compress(b""))
        + _chunk(b"IEND", b"")
    )
    art_pack(root, "png", huge)
    res = pnp("validate", "--root", root)
    assert res.code == 1 and (f"{GAME}/decks.yaml", 8) in res.at("bad-image"), res.text
    assert "400,000,000 pixels, over the 60,000,000-pixel limit" in res.text, res.text
    assert "DOS attack" not in res.text and "89478485" not in res.text


# --- 4. template filters bounded before they allocate --------------------------------------------

FILTER_BOMBS = {
    "join": ("{{ range(10000)|join('😀' * 10000)|length }}", "the filter join"),
    "indent": ("{{ ('x\\n' * 5000)|indent('y' * 10000)|length }}", "the filter indent"),
    "string": ("{{ (['x' * 10000] * 10000)|string|length }}", "the filter string"),
    "tojson": ("{{ (['😀' * 10000] * 10000)|tojson|length }}", "the filter tojson"),
    "wordwrap": (
        "{{ ('a ' * 5000)|wordwrap(1, wrapstring='z' * 10000)|length }}",
        "the filter wordwrap",
    ),
    "replace": ("{{ ('x' * 10000)|replace('x', 'y' * 10000)|length }}", "the filter replace"),
    "escape": ("{{ (['<' * 10000] * 10000)|e|length }}", "the filter e"),
    "sum": ("{{ ([['x'] * 10000] * 10000)|sum(start=[])|length }}", "the filter sum"),
    "translate": (
        "{{ ('x' * 10000).translate({120: 'y' * 10000})|length }}",
        "the method translate",
    ),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(FILTER_BOMBS))
def test_a_filter_is_refused_before_it_builds_its_result(root: Path, name: str) -> None:
    source, words = FILTER_BOMBS[name]
    put(
        root,
        f"{GAME}/layouts.yaml",
        "layouts:\n  card:\n    elements:\n      - {box: [5, 70, 50, 8], template: "
        + json.dumps(source, ensure_ascii=False)
        + "}\n",
    )
    res = assert_bounded(measured("validate", "--root", root), seconds=3.0, peak_mb=150)
    found = [f for f in res.findings() if f["rule"] == "template"]
    assert res.code == 1 and found, res.text
    assert words in found[0]["message"] and "at most 100,000" in found[0]["message"], res.text


def test_templates_within_the_limits_still_render() -> None:
    from pnp.typeset.templates import sandbox

    env = sandbox()
    cases = {
        "{{ ['a', 'b', 'c']|join(', ') }}": "a, b, c",
        "{{ 'one\\ntwo'|indent(2, first=true) }}": "  one\n  two",
        "{{ 'ab'|center(6) }}": "  ab  ",
        "{{ ('x' * 100)|replace('x', 'yy')|length }}": "200",
        "{{ 'a b c'|wordwrap(1) }}": "a\nb\nc",
        "{{ [1, 2]|tojson }}": "[1, 2]",
        "{{ [[1], [2]]|sum(start=[]) }}": "[1, 2]",
        "{{ range(3)|map('string')|join('-') }}": "0-1-2",
    }
    for source, expected in cases.items():
        assert env.from_string(source).render() == expected, source


def test_a_template_out_of_memory_says_so() -> None:
    from pnp.typeset.faces.values import _template_problem

    assert _template_problem(MemoryError(), "alpha", {}, {}) == (
        "template failed for alpha: it needs more memory than there is"
    )


# --- 9. messages that say what happened, where ------------------------------------------------


def test_control_characters_are_not_a_missing_font(pnp: Callable[..., Result], root: Path) -> None:
    decks = root / GAME / "decks.yaml"
    text = decks.read_text("utf-8")
    decks.write_text(text.replace("{en: Alpha, it: Alfa}", '{en: "Al\\apha\\x1b", it: Alfa}', 1))
    res = pnp("validate", "--root", root)
    assert res.code == 1 and (f"{GAME}/decks.yaml", 8) in res.at("missing-glyph"), res.text
    assert "control characters U+0007, U+001B" in res.text and "add a font" not in res.text


def test_a_csv_cell_too_long_is_said_to_be_too_long(pnp: Callable[..., Result], root: Path) -> None:
    deck_from(root, "cards.csv", b"id,title.en\nalpha," + b"x" * 200_000 + b"\n")
    res = pnp("validate", "--root", root)
    assert (f"{GAME}/cards.csv", 2) in res.at("sheet"), res.text
    assert "longer than 100,000 characters" in res.text and "quotes" not in res.text


def test_a_negative_repeat_is_named_at_its_row(pnp: Callable[..., Result], root: Path) -> None:
    row = b'<table:table-row table:number-rows-repeated="-5">' + _ods_cell(b"id")
    deck_from(root, "cards.ods", _ods_bytes(ID_ROW + row + b"</table:table-row>"))
    res = pnp("validate", "--root", root)
    assert (f"{GAME}/cards.ods", 2) in res.at("sheet"), res.text
    assert "number-rows-repeated='-5' is not a whole number" in res.text
    assert "10,000,000,000" not in res.text
