"""A higher design ceiling (issue 29, item 8), checked on the pages pnp prints: the demo pack
tests/packs/ceiling is built once, and each feature is looked for where its layout puts it
(pdfplumber: fonts, colours, sizes, vector paths, image placements; pypdfium2: the pixels of
opacity, gradients and clipping; pypdf: the transparency the page asks for)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pdfplumber
import pypdfium2
import pytest
import segno
from typer.testing import CliRunner

from pnp.cli import app
from pnp.core.run import running
from pnp.core.units import pt
from pnp.typeset.faces.kinds.ring import OUTWARD, cells

from helpers import make_root

PACK = Path(__file__).parent / "packs" / "ceiling"
DPI = 150


@pytest.fixture(scope="module")
def pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("ceiling")
    root = make_root(tmp, PACK)
    out = tmp / "out"
    args = ["build", "ceiling", "--root", str(root), "--out", str(out), "--lang", "en"]
    with running(fresh=True):
        result = CliRunner().invoke(app, [*args, "--jobs", "1"])
    assert result.exit_code == 0, result.output
    assert "warning" not in result.output and "error" not in result.output, result.output
    return out / "ceiling" / "ceiling-en-a4.pdf"


@pytest.fixture(scope="module")
def pages(pdf: Path) -> Any:
    with pdfplumber.open(pdf) as doc:
        yield doc.pages


@pytest.fixture(scope="module")
def bitmaps(pdf: Path) -> Any:
    doc = pypdfium2.PdfDocument(str(pdf))
    images = [doc[i].render(scale=DPI / 72).to_pil().convert("RGB") for i in range(len(doc))]
    doc.close()
    return images


def _colour(obj: dict[str, Any], key: str = "non_stroking_color") -> tuple[float, ...]:
    value = obj.get(key)
    return tuple(round(v, 2) for v in value) if isinstance(value, tuple | list) else ()


def _hex(value: str) -> tuple[float, ...]:
    return tuple(round(int(value[i : i + 2], 16) / 255, 2) for i in (1, 3, 5))


def _cards(page: Any) -> list[tuple[float, float]]:
    """The top-left corners (points) of the three showcase cards, left to right: found from
    their white panels (box [4, 47, 55, 27], radius 2: a curve)."""
    panels = [
        c for c in page.curves if _colour(c) == (1.0, 1.0, 1.0) and abs(c["width"] - pt(55)) < 0.5
    ]
    assert len(panels) == 3, "three showcase cards with their panels"
    return sorted((c["x0"] - pt(4), c["top"] - pt(47)) for c in panels)


def _pixel(bitmap: Any, x: float, y: float) -> tuple[int, int, int]:
    """The colour at (x, y) points from the page's top-left."""
    return bitmap.getpixel((round(x * DPI / 72), round(y * DPI / 72)))


# --- fonts ---------------------------------------------------------------------------------


def test_a_font_family_per_element_and_per_style(pages: Any) -> None:
    def unshadowed(obj: dict[str, Any]) -> bool:  # the titles' shadows overlap their letters
        return obj["object_type"] != "char" or _colour(obj) != (0.0, 0.0, 0.0) or obj["size"] < 14

    fonts: dict[str, set[str]] = {}
    for word in pages[1].filter(unshadowed).extract_words(extra_attrs=["fontname"]):
        fonts.setdefault(word["text"], set()).add(word["fontname"].split("+")[-1])
    assert fonts["Harvest"] == {"DejaVuSans"}  # the element's own family (pnp's)
    assert fonts["Market"] == {"DejaVuSans"}  # the element's family wins over the style's
    assert fonts["Pay"] == {"DejaVuSerif"}  # the style's family, from the root's fonts/
    assert fonts["Serif:"] == {"DejaVuSerif"}
    assert all(f.startswith("NotoSans") for f in fonts["Gain"])  # the game's print.font
    board = {c["fontname"].split("+")[-1] for c in pages[2].chars if c["text"] in "Ceiling"}
    assert "DejaVuSerif-Bold" in board  # bold: the family's Bold file


# --- text: shadow, spans -------------------------------------------------------------------


def test_a_title_casts_a_drop_shadow(pages: Any) -> None:
    hs = [c for c in pages[1].chars if c["text"] == "H" and c["size"] == 14]
    white = [c for c in hs if _colour(c) == (1.0, 1.0, 1.0)]
    black = [c for c in hs if _colour(c) == (0.0, 0.0, 0.0)]
    assert len(white) == len(black) == 1
    # drawn first, 0.5 mm right and below
    assert hs.index(black[0]) < hs.index(white[0])
    assert black[0]["x0"] - white[0]["x0"] == pytest.approx(pt(0.5), abs=0.05)
    assert black[0]["top"] - white[0]["top"] == pytest.approx(pt(0.5), abs=0.05)


def test_spans_colour_and_size_words_inside_a_text(pages: Any) -> None:
    chars = pages[1].chars
    three = [c for c in chars if c["text"] == "3" and _colour(c) == _hex("#c62828")]
    gain = next(c for c in chars if c["text"] == "G" and c["fontname"].endswith("NotoSans-Regular"))
    assert len(three) == 1 and three[0]["size"] == pytest.approx(gain["size"] * 1.5)
    ripe = [c for c in chars if c["text"] in "ripe" and _colour(c) == _hex("#2e8b57")]
    assert ripe and all("Italic" in c["fontname"] for c in ripe[:4])  # _ripe_ inside a span
    rare = [c for c in chars if c["text"] in "Rare" and _colour(c) == _hex("#800080")]
    assert len(rare) >= 4
    big = [c for c in chars if c["text"] == "B" and c["size"] == pytest.approx(18)]
    small = [c for c in chars if c["text"] == "s" and c["size"] == pytest.approx(5.4)]
    assert big and small  # size=200% and size=60% of 9 pt


# --- SVG ----------------------------------------------------------------------------------


def test_svg_art_and_icons_are_vector_paths_not_images(pages: Any) -> None:
    page = pages[1]
    _harvest, (mx, my), (nx, ny) = _cards(page)
    brown = _hex("#6d4c41")
    rings = [c for c in page.curves if _colour(c, "stroking_color") == brown]
    # the market card's art: the badge (100 x 100) contained in [4, 14, 55, 30], at the top:
    # 30 mm square, centred; its circle (r 46 of 50) 27.6 mm across
    art = [c for c in rings if c["width"] > pt(20)]
    assert len(art) == 1
    assert art[0]["x0"] == pytest.approx(mx + pt(4 + 12.5 + 1.2), abs=0.5)
    assert art[0]["top"] == pytest.approx(my + pt(14 + 1.2), abs=0.5)
    assert art[0]["width"] == pytest.approx(pt(27.6), abs=0.5)
    # the badge element [49.5, 2.5, 10, 10] on each card
    badges = [c for c in rings if abs(c["width"] - pt(9.2)) < 0.5]
    assert len(badges) == 3
    # nothing raster there: the only images of the market card are none
    assert not [im for im in page.images if mx <= im["x0"] < mx + pt(63)]
    # the SVG icon in the night card's text: its leaf (fill #2e7d32) drawn as a path
    leaves = [c for c in page.curves if _colour(c) == _hex("#2e7d32") and c["width"] < pt(5)]
    assert any(nx < c["x0"] < nx + pt(63) and c["top"] > ny + pt(47) for c in leaves)


# --- images: fit and anchor ----------------------------------------------------------------


def _fits_card(page: Any) -> tuple[float, float]:
    grey = sorted((r for r in page.rects if _colour(r) == _hex("#b0bec5")), key=lambda r: r["x0"])
    return grey[0]["x0"] - pt(4), grey[0]["top"] - pt(16)


def test_images_cover_contain_or_stretch_anchored(pages: Any, bitmaps: Any) -> None:
    page = pages[1]
    fx, fy = _fits_card(page)
    placed = {
        (round((i["x0"] - fx) / pt(1), 1), round((i["top"] - fy) / pt(1), 1)): (
            round(i["width"] / pt(1), 1),
            round(i["height"] / pt(1), 1),
        )
        for i in page.images
    }
    # the landscape is 600 x 300 px; each box is 17 x 30 mm
    assert placed[(4.0, 16.0)] == (60.0, 30.0)  # cover: as high as the box, its left kept
    assert placed[(23.0, 37.5)] == (17.0, 8.5)  # contain: whole, at the bottom of the box
    assert placed[(42.0, 16.0)] == (17.0, 30.0)  # stretch: the box exactly
    # cover is cut to its box: just right of it the card's grey shows, not the picture
    grey = (0xB0, 0xBE, 0xC5)
    right = _pixel(bitmaps[1], fx + pt(22), fy + pt(30))
    assert max(abs(a - b) for a, b in zip(right, (0xEC, 0xEF, 0xF1), strict=True)) < 6
    inside = _pixel(bitmaps[1], fx + pt(20), fy + pt(20))
    assert inside != grey and inside[2] > inside[0]  # sky-blue of the picture
    # the harvest card's art: contained, at the top of [4, 14, 55, 30]
    hx, hy = _cards(page)[0]
    art = [i for i in page.images if abs(i["x0"] - hx - pt(4)) < 0.5 and i["width"] > pt(50)]
    assert art and art[0]["top"] == pytest.approx(hy + pt(14), abs=0.3)
    assert art[0]["height"] == pytest.approx(pt(27.5), abs=0.3)


# --- opacity and gradients -----------------------------------------------------------------


def test_opacity_lets_what_is_under_show_through(pdf: Path, pages: Any, bitmaps: Any) -> None:
    from pypdf import PdfReader

    states = PdfReader(str(pdf)).pages[1]["/Resources"]["/ExtGState"]
    alphas = {round(float(s.get_object().get("/ca", 1)), 2) for s in states.values()}
    assert {0.85, 0.8, 0.7, 0.5} <= alphas  # panel, footer, shadow, faded picture
    hx, hy = _cards(pages[1])[0]
    r, _g, b = _pixel(bitmaps[1], hx + pt(30), hy + pt(72.5))  # the panel, below the text
    assert 200 < r < 250 and b > r  # white at 85 % over blue-violet: light, and bluish
    # the faded picture on the fit card (contained in [4, 50, 55, 34]: 55 x 27.5 mm from
    # 53.25 mm down): its red sun, centred 8.25 mm in, at half strength over the light card
    fx, fy = _fits_card(pages[1])
    sun = _pixel(bitmaps[1], fx + pt(4 + 8.25), fy + pt(53.25 + 8.25))
    half = [(a + b) / 2 for a, b in zip((0xE5, 0x39, 0x35), (0xEC, 0xEF, 0xF1), strict=True)]
    assert max(abs(a - b) for a, b in zip(sun, half, strict=True)) < 12, (sun, half)


def test_gradients_fill_boxes_and_polygons(pages: Any, bitmaps: Any) -> None:
    hx, hy = _cards(pages[1])[0]
    top = _pixel(bitmaps[1], hx + pt(2), hy + pt(1))
    bottom = _pixel(bitmaps[1], hx + pt(2), hy + pt(87))
    middle = _pixel(bitmaps[1], hx + pt(2), hy + pt(44))
    assert max(abs(a - b) for a, b in zip(top, (0x1F, 0x4E, 0x9C), strict=True)) < 12
    assert max(abs(a - b) for a, b in zip(bottom, (0x4A, 0x14, 0x8C), strict=True)) < 12
    assert top[0] < middle[0] < bottom[0] and top[1] > middle[1] > bottom[1]
    # the polygon on the fit card: accent at its top, yellow at its bottom, no outline
    fx, fy = _fits_card(pages[1])
    apex = _pixel(bitmaps[1], fx + pt(31.5), fy + pt(56))
    base = _pixel(bitmaps[1], fx + pt(31.5), fy + pt(79))
    assert apex[0] < 0x70 and base[0] > 0xE0 and base[1] > 0xD0 and base[2] < 0x80


# --- QR codes ------------------------------------------------------------------------------


def test_a_qr_code_is_drawn_as_vector_squares_that_read_back(pages: Any) -> None:
    page = pages[1]
    hx, hy = _cards(page)[0]
    x0, y0 = hx + pt(46), hy + pt(75.5)
    dark = [
        r
        for r in page.rects
        if _colour(r) == (0.0, 0.0, 0.0) and x0 <= r["x0"] < x0 + pt(12) and y0 <= r["top"]
    ]
    want = segno.make("https://example.org/ceiling/en/rules", error="m", boost_error=False)
    n = len(want.matrix)
    module = pt(12) / (n + 4)  # a quiet zone of 2 modules each side
    got = [[0] * n for _ in range(n)]
    for r in dark:
        row = round((r["top"] - y0) / module) - 2
        first = round((r["x0"] - x0) / module) - 2
        for k in range(round(r["width"] / module)):
            got[row][first + k] = 1
    assert got == [list(row) for row in want.matrix]


# --- a track around a board ----------------------------------------------------------------


def test_a_track_runs_around_the_board_its_numbers_facing_out(pages: Any) -> None:
    page = pages[2]
    brown = _hex("#6d4c41")
    cell_rects = [r for r in page.rects if _colour(r, "stroking_color") == brown]
    assert len(cell_rects) == 30  # 0..29, each a cell
    bx = min(r["x0"] for r in cell_rects) - pt(6)
    by = min(r["top"] for r in cell_rects) - pt(6)
    expected = cells((6.0, 6.0, 188.0, 138.0), 30, 2 * (188 + 138) / 34)
    for value, cell in enumerate(expected):
        x, y, w, h = cell.box
        inside = [
            c
            for c in page.chars
            if bx + pt(x) <= (c["x0"] + c["x1"]) / 2 <= bx + pt(x + w)
            and by + pt(y) <= (c["top"] + c["bottom"]) / 2 <= by + pt(y + h)
        ]
        assert "".join(c["text"] for c in inside) == str(value), (value, cell.side)
        a, b = inside[0]["matrix"][:2]
        turned = (-math.degrees(math.atan2(b, a))) % 360  # clockwise, as the face is seen
        assert turned == pytest.approx(OUTWARD[cell.side], abs=0.5), (value, cell.side)


# --- the card pnp new makes ----------------------------------------------------------------


def test_pnp_new_draws_a_card_a_designer_could_keep(tmp_path: Path) -> None:
    """The example's cards have a band with the title, an art area with SVG art (vector
    paths), the text and a footer; its backs a gradient, an emblem and a faded frame, drawn
    right although each face is a form printed several times."""
    root = tmp_path / "root"
    runner = CliRunner()
    assert runner.invoke(app, ["new", "g", "--root", str(root)]).exit_code == 0
    out = tmp_path / "out"
    args = ["build", "g", "--root", str(root), "--out", str(out), "--jobs", "1"]
    assert runner.invoke(app, args).exit_code == 0
    pdf = out / "g" / "g-en-a4.pdf"
    with pdfplumber.open(pdf) as doc:
        fronts = next(p for p in doc.pages if "fronts" in (p.extract_text() or ""))
        backs = next(p for p in doc.pages if "backs" in (p.extract_text() or ""))
        white = fronts.filter(lambda o: o["object_type"] != "char" or _colour(o) == (1, 1, 1))
        titles = [w for w in white.extract_words() if w["text"] == "Run"]  # not its shadow
        sky = [c for c in fronts.curves + fronts.rects if _colour(c) == _hex("#3f6b4f")]
        assert titles and len(sky) >= 9  # the art's hills, as paths, on every card
        assert not fronts.images  # nothing raster: the art is the SVG
        front_index, back_index = fronts.page_number - 1, backs.page_number - 1
    raster = pypdfium2.PdfDocument(str(pdf))
    front = raster[front_index].render(scale=DPI / 72).to_pil().convert("RGB")
    back = raster[back_index].render(scale=DPI / 72).to_pil().convert("RGB")
    raster.close()
    x, top = titles[0]["x0"] - pt(5), titles[0]["top"]
    band = _pixel(front, x + pt(1), top - pt(1))
    assert band[2] > band[0] + 30  # the band in the style's blue accent, from its gradient
    art_area = _pixel(front, x + pt(30), top + pt(25))
    assert art_area != (255, 255, 255)  # the art fills its area
    # a back: dark blue, lighter at its top-left than at its bottom-right (gradient at 45°)
    corner, far = _pixel(back, x + pt(2), top), _pixel(back, x + pt(60), top + pt(80))
    assert sum(corner) > sum(far) + 30


def test_an_images_radius_rounds_its_corners(tmp_path: Path) -> None:
    """radius: on an image clips its picture to the box's rounded corners: a PNG covering its
    box (drawn as the face's art is), a PNG contained, an SVG; without radius the corner is
    picture."""
    from PIL import Image

    from helpers import FIXTURES

    root = make_root(tmp_path, FIXTURES / "clean")
    game = root / "cards" / "mini"
    (game / "art").mkdir()
    (game / "art" / "red.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
        '<rect width="10" height="10" fill="#ff0000"/></svg>',
        "utf-8",
    )
    Image.new("RGB", (400, 400), (255, 0, 0)).save(game / "art" / "red.png")
    decks = (
        (game / "decks.yaml")
        .read_text("utf-8")
        .replace(
            'text: {en: "Gain 2 {coin}.", it: "Guadagna 2 {coin}."}',
            "layout: rounded",
        )
    )
    decks += (
        "layouts:\n  rounded:\n    elements:\n"
        "      - {box: [5, 5, 20, 20], image: art/red.png, radius: 5}\n"
        "      - {box: [35, 5, 20, 20], image: art/red.svg, radius: 5}\n"
        "      - {box: [5, 35, 20, 20], image: art/red.png, fit: contain, radius: 5}\n"
        "      - {box: [35, 35, 20, 20], image: art/red.png}\n"
    )
    (game / "decks.yaml").write_text(decks, "utf-8")
    out = tmp_path / "out"
    args = ["build", "mini", "--lang", "en", "--png", "100", "--root", str(root), "--out", str(out)]
    with running(fresh=True):
        result = CliRunner().invoke(app, [*args, "--jobs", "1"])
    assert result.exit_code == 0, result.output
    face = Image.open(out / "mini/mini-en-png/main-alpha-front.png").convert("RGB")
    px = face.width / 63  # pixels per mm

    def red(x: float, y: float) -> bool:
        r, g, b = face.getpixel((round(x * px), round(y * px)))
        return r > 200 and g < 60 and b < 60

    for x, y in ((5, 5), (35, 5), (5, 35)):  # each box's top-left, its corner rounded
        assert red(x + 10, y + 10), (x, y)  # the picture is there...
        assert red(x + 10, y + 0.8) and red(x + 0.8, y + 10), (x, y)  # ...to its edges...
        for cx, cy in ((0.8, 0.8), (19.2, 0.8), (0.8, 19.2), (19.2, 19.2)):
            assert not red(x + cx, y + cy), (x, y, cx, cy)  # ...but not in its corners
    assert red(35.8, 35.8) and red(54.2, 54.2)  # no radius: square corners


def test_an_svg_image_and_an_svg_icon_take_their_elements_opacity(tmp_path: Path) -> None:
    """renderPDF sets each SVG shape's own alpha (its fill-opacity, 1) after its colour: the
    element's opacity must still apply, to an SVG image as to an SVG icon in a faded text."""
    from PIL import Image

    from helpers import FIXTURES

    root = make_root(tmp_path, FIXTURES / "clean")
    game = root / "cards" / "mini"
    (game / "art").mkdir()
    square = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
    (game / "art" / "red.svg").write_text(
        f'{square}<rect width="10" height="10" fill="#ff0000"/></svg>', "utf-8"
    )
    meta = (game / "game.yaml").read_text("utf-8")
    meta = meta.replace("icons:\n", "icons:\n  red: {image: art/red.svg}\n")
    (game / "game.yaml").write_text(meta, "utf-8")
    decks = (
        (game / "decks.yaml")
        .read_text("utf-8")
        .replace(
            'text: {en: "Gain 2 {coin}.", it: "Guadagna 2 {coin}."}',
            'layout: faded\n        text: {en: "{red}", it: "{red}"}',
        )
    )
    decks += (
        "layouts:\n  faded:\n    elements:\n"
        "      - {box: [5, 5, 20, 20], image: art/red.svg, opacity: 0.5}\n"
        "      - {box: [30, 5, 28, 28], field: text, size: 60, opacity: 0.5}\n"
        "      - {box: [5, 40, 20, 20], image: art/red.svg}\n"
    )
    (game / "decks.yaml").write_text(decks, "utf-8")
    out = tmp_path / "out"
    args = ["build", "mini", "--lang", "en", "--png", "100", "--root", str(root), "--out", str(out)]
    with running(fresh=True):
        result = CliRunner().invoke(app, [*args, "--jobs", "1"])
    assert result.exit_code == 0, result.output
    face = Image.open(out / "mini/mini-en-png/main-alpha-front.png").convert("RGB")
    px = face.width / 63  # pixels per mm

    def at(x: float, y: float) -> tuple[int, int, int]:
        return face.getpixel((round(x * px), round(y * px)))

    opaque, image = at(15, 50), at(15, 15)
    assert opaque[0] > 240 and opaque[1] < 15  # full red without opacity
    assert image[0] > 240 and 110 < image[1] < 145 and 110 < image[2] < 145  # red at half
    icon = [at(x / 4, y / 4) for x in range(120, 232) for y in range(20, 132)]
    reds = [p for p in icon if p[0] > 240 and p[1] < 200]
    assert reds and all(110 < p[1] < 145 for p in reds), sorted(set(reds))[:5]  # half too
