"""Art with --bleed (issue "Speed in every print mode"): the bleed is the art's mirror image
about each trim edge, drawn from the same image XObject as the trim (the original file's
pixels, once, never decoded), so a bleed build is as lossless and about as large as one
without."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image
from pypdf import PdfReader

from pnp.build import BuildOptions, build
from pnp.content.load import open_root
from pnp.core.findings import Report
from pnp.printing.imposition import Options

from helpers import FIXTURES, make_root

DPI = 200


def _art(path: Path) -> None:
    """Four quadrants of different colours and a diagonal ramp: every edge is distinct."""
    w, h = 630, 880
    im = Image.new("RGB", (w, h))
    px = im.load()
    for y in range(h):
        for x in range(w):
            px[x, y] = (255 * x // w, 255 * y // h, 255 if (x < w // 2) ^ (y < h // 2) else 40)
    im.save(path)


@pytest.fixture(scope="module")
def pdfs(tmp_path_factory: pytest.TempPathFactory) -> dict[float, Path]:
    root = make_root(tmp_path_factory.mktemp("bleed"), FIXTURES / "clean")
    _art(root / "cards" / "mini" / "ramp.png")
    decks = root / "cards" / "mini" / "decks.yaml"
    text = decks.read_text("utf-8").replace("copies: 4\n", "copies: 4\n        art: ramp.png\n", 1)
    text = text.replace("    name: {en: Main deck", "    layout: bare\n    name: {en: Main deck", 1)
    decks.write_text(text + "layouts:\n  bare: {elements: []}\n", "utf-8")
    out = {}
    for bleed in (0.0, 3.0):
        report = Report()
        opts = BuildOptions(
            langs=("en",),
            layout=Options(bleed=bleed),
            out_dir=tmp_path_factory.mktemp(f"out{bleed:g}"),
        )
        outputs = build(open_root(root), ["mini"], opts, report)
        assert not report.has_errors(), report.format_text()
        out[bleed] = outputs[0].path
    return out


def _images(path: Path) -> list[bytes]:
    """The raw streams of every image XObject of a PDF (wherever they are used)."""
    reader = PdfReader(path)
    found = []
    for num in range(1, int(reader.trailer["/Size"])):
        try:
            obj = reader.get_object(num)
        except Exception:  # a free entry
            continue
        if hasattr(obj, "get") and obj.get("/Subtype") == "/Image":
            found.append(obj._data)
    return sorted(set(found))


def test_bleed_embeds_the_same_pixels_once(pdfs: dict[float, Path]) -> None:
    plain, bled = _images(pdfs[0.0]), _images(pdfs[3.0])
    assert bled == plain and len(bled) == 1  # the art, as it is in the build without bleed
    assert pdfs[3.0].stat().st_size < pdfs[0.0].stat().st_size * 1.05


def test_the_bleed_mirrors_the_art_about_the_trim(pdfs: dict[float, Path]) -> None:
    """On the rendered sheet, the 3 mm past each edge of a card's trim are the 3 mm inside it,
    mirrored: compared at points 1 mm and 2 mm on either side of the left and top edges."""
    pdf = pdfium.PdfDocument(str(pdfs[3.0]))
    page_no = next(
        i for i in range(len(pdf)) if "fronts (Main deck)" in pdf[i].get_textpage().get_text_range()
    )
    page = pdf[page_no]
    sheet = PdfReader(pdfs[3.0]).pages[page_no]
    image = page.render(scale=DPI / 72).to_pil().convert("RGB")
    # the TrimBox of a sheet is its grid of cards: the first card's trim starts at its corner
    px = DPI / 72
    x0 = round(float(sheet.trimbox.left) * px)
    y0 = round((float(sheet.mediabox.top) - float(sheet.trimbox.top)) * px)
    scale = DPI / 25.4
    for d in (1.0, 2.0):
        k = round(d * scale)
        mid_y = y0 + round(20 * scale)
        mid_x = x0 + round(20 * scale)
        outside, inside = image.getpixel((x0 - k, mid_y)), image.getpixel((x0 + k - 1, mid_y))
        assert max(abs(a - b) for a, b in zip(outside, inside, strict=True)) <= 12, (
            d,
            outside,
            inside,
        )
        outside, inside = image.getpixel((mid_x, y0 - k)), image.getpixel((mid_x, y0 + k - 1))
        assert max(abs(a - b) for a, b in zip(outside, inside, strict=True)) <= 12, (
            d,
            outside,
            inside,
        )
