"""Damaged workbooks and images (issue 33): each example damages a valid XLSX, ODS, JPEG or PNG
(bytes flipped in a part, a repeat or reference made huge or negative, a part renamed, the file
cut short, a frame marker changed) and checks the contract of the reader that takes it:

- a workbook gives plain cells or a SheetError (a finding), never another exception, an abort
  or a hang, in seconds (the reader runs in a child process with limits);
- an image validation accepts is one Pillow opens with the size validation read, and one the
  PDF writer decodes when it decodes it (interlaced PNGs, transparency).

Examples are derandomized (repeatable); DAMAGED_EXAMPLES raises their number.
"""

from __future__ import annotations

import io
import os
import random
import re
import struct
import time
import zipfile
import zlib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_hostile_round3_data import _adam7, _chunk, _ods_cell
from test_sheets import _ods_bytes, _xlsx_bytes

from pnp.content.assets import AssetError, probe_image
from pnp.content.sheets.contain import MAX_READ_SECONDS
from pnp.content.sheets.read import SheetError, Source, read_grid
from pnp.core.findings import Pos
from pnp.core.run import running

EXAMPLES = int(os.environ.get("DAMAGED_EXAMPLES", "20"))
SLOW = settings(
    max_examples=EXAMPLES,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

# --- workbooks --------------------------------------------------------------------------------

XLSX_ROWS = (
    b'<row r="1"><c r="A1" t="inlineStr"><is><t>id</t></is></c><c r="B1" t="inlineStr"><is>'
    b'<t>copies</t></is></c></row><row r="2"><c r="A2" t="inlineStr"><is><t>alpha</t></is></c>'
    b'<c r="B2"><v>4</v></c></row><row r="3"><c r="A3" t="s"><v>0</v></c><c r="B3"><v>2</v></c>'
    b"</row>"
)
SST = (
    b'<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="1" '
    b'uniqueCount="1"><si><t>beta</t></si></sst>'
)
ODS_ROWS = (
    b'<table:table-row>' + _ods_cell(b"id") + _ods_cell(b"copies") + b"</table:table-row>"
    b'<table:table-row table:number-rows-repeated="2">' + _ods_cell(b"alpha")
    + b'<table:table-cell table:number-columns-repeated="1" office:value-type="float" '
    b'office:value="4"><text:p>4<text:s text:c="2"/></text:p></table:table-cell>'
    b"</table:table-row>"
)  # fmt: skip
NUMBERS = st.sampled_from([b"-5", b"0", b"1", b"99999", b"1048576", b"4000000000", b"x", b"1e9"])


def _members(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return {n: z.read(n) for n in z.namelist()}


def _zip(parts: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name, body in parts.items():
            z.writestr(name, body)
    return out.getvalue()


@st.composite
def damaged_workbooks(draw: st.DrawFn) -> tuple[str, bytes]:
    kind = draw(st.sampled_from(["XLSX", "ODS"]))
    data = _xlsx_bytes(XLSX_ROWS, {"xl/sharedStrings.xml": SST}) if kind == "XLSX" else (
        _ods_bytes(ODS_ROWS)
    )  # fmt: skip
    parts = _members(data)
    name = draw(st.sampled_from(sorted(parts)))
    how = draw(st.sampled_from(["number", "flip", "rename", "truncate", "cut part", "repeat"]))
    body = parts[name]
    if how == "number":  # every number in one part's attributes becomes another
        value = draw(NUMBERS)
        parts[name] = re.sub(rb'="[0-9]+"', b'="' + value + b'"', body)
    elif how == "flip":
        at = draw(st.integers(0, max(len(body) - 1, 0)))
        parts[name] = body[:at] + bytes([draw(st.integers(0, 255))]) + body[at + 1 :]
    elif how == "rename":
        parts[name.rsplit(".", 1)[0] + ".bin"] = parts.pop(name)
    elif how == "cut part":
        parts[name] = body[: draw(st.integers(0, len(body)))]
    elif how == "repeat":  # a cell's text copied many times over
        times = draw(st.sampled_from([10, 1000, 100_000]))
        parts[name] = body.replace(b"alpha", b"alpha" * times, 1)
    out = _zip(parts)
    if how == "truncate":
        out = out[: draw(st.integers(0, len(out)))]
    return kind, out


@pytest.mark.slow
@SLOW
@given(case=damaged_workbooks())
def test_a_damaged_workbook_is_cells_or_a_finding(case: tuple[str, bytes]) -> None:
    kind, data = case
    src = Source(f"cards.{kind.lower()}", kind, None, Pos("decks.yaml", 1, 1))
    started = time.perf_counter()
    with running(fresh=True):
        try:
            grid = read_grid(data, src)
        except SheetError as exc:
            assert exc.message and "Traceback" not in exc.message
        else:
            plain = (str, int, float, bool, type(None))
            assert all(isinstance(c, plain) for row in grid for c in row)
    assert time.perf_counter() - started < MAX_READ_SECONDS + 5


# --- images -----------------------------------------------------------------------------------


def _jpeg() -> bytes:
    """A 120 x 90 JPEG of noise, the same each time (hypothesis replays examples)."""
    from PIL import Image

    noise = random.Random(1).randbytes(120 * 90 * 3)
    buf = io.BytesIO()
    Image.frombytes("RGB", (120, 90), noise).save(buf, format="JPEG")
    return buf.getvalue()


def _png(kind: str) -> bytes:
    """A 48 x 48 PNG of noise: RGB, interlaced RGB, or RGB with alpha (the last two are the
    ones the PDF writer decodes)."""
    width = height = 48
    channels = 4 if kind == "png-alpha" else 3
    pixels = random.Random(kind).randbytes(width * height * channels)  # the same each time
    if kind == "png-interlaced":
        raw = _adam7(width, height, pixels)
    else:
        row = width * channels
        raw = b"".join(b"\x00" + pixels[y * row : (y + 1) * row] for y in range(height))
    ctype = 6 if kind == "png-alpha" else 2
    ihdr = struct.pack(">IIBBBBB", width, height, 8, ctype, 0, 0, int(kind == "png-interlaced"))
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", ihdr)
        + _chunk(b"IDAT", zlib.compress(raw))
        + _chunk(b"IEND", b"")
    )


@st.composite
def damaged_images(draw: st.DrawFn) -> tuple[str, bytes]:
    kind = draw(st.sampled_from(["jpg", "png-interlaced", "png-alpha", "png"]))
    data = _jpeg() if kind == "jpg" else _png(kind)
    how = draw(st.sampled_from(["flip", "truncate", "marker", "none"]))
    if how == "flip":
        at = draw(st.integers(0, len(data) - 1))
        data = data[:at] + bytes([draw(st.integers(0, 255))]) + data[at + 1 :]
    elif how == "truncate":
        data = data[: draw(st.integers(0, len(data)))]
    elif how == "marker" and kind == "jpg":  # the frame marker made another SOFn
        at = data.index(b"\xff\xc0")
        data = data[: at + 1] + bytes([draw(st.integers(0xC0, 0xCF))]) + data[at + 2 :]
    return ("jpg" if kind == "jpg" else "png"), data


@pytest.mark.slow
@SLOW
@given(case=damaged_images())
def test_an_accepted_image_is_one_the_readers_decode(
    tmp_path_factory: pytest.TempPathFactory, case: tuple[str, bytes]
) -> None:
    from PIL import Image

    suffix, data = case
    path = Path(tmp_path_factory.mktemp("img")) / f"x.{suffix}"
    path.write_bytes(data)
    with running(fresh=True):
        try:
            info = probe_image(path)
        except AssetError as exc:
            assert exc.rule == "bad-image" and str(exc)
            return
    with Image.open(path) as im:
        assert im.size == (info.width, info.height)
        decoded_by_writer = im.format == "PNG" and (
            im.info.get("interlace") or im.mode in ("RGBA", "LA") or "transparency" in im.info
        )
        if decoded_by_writer:
            im.load()  # the PDF writer decodes it: it must decode
        if im.format == "JPEG":  # one frame header, of a kind PDF readers decode
            frames = [m for m in re.finditer(rb"\xff[\xc0-\xcf]", data) if m.group()[1] not in (
                0xC4, 0xC8, 0xCC)]  # fmt: skip
            assert frames and frames[0].group()[1] in (0xC0, 0xC1, 0xC2)
