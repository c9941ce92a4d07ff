"""The duplex calibration sheet (`pnp calibrate`), read from its PDF as a player reads the
printed sheet: crosses on the front, and on the back, beside where each cross lands, an X ruler
and a Y ruler that never meet, numbered every millimetre from -5 to 5 with 0 on both, ticks
every half millimetre, and which way + goes written by each; a 100 mm bar and a bank card's
outline check the scale. The geometry expected is worked out here, without pnp's."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pdfplumber
import pytest
from reportlab.pdfbase.pdfmetrics import getFont
from typer.testing import CliRunner

from pnp.core.units import PAPERS, PT_PER_MM, Size
from pnp.printing.imposition import Item, Options
from pnp.printing.imposition.sheets import impose
from pnp.printing.render import render_calibration
from pnp.typeset.fonts import fontset

from helpers import REPO

MARGIN = 5.0  # mm at the paper edge a home printer cannot print
LANGS = ("en", "it", "es", "fr", "de")  # pnp's own catalogs
READS = 5  # the rulers read -5..5 mm
NUMBER = re.compile(r"^-?\d+$")
FONTS = fontset(REPO / "pnp" / "data" / "fonts", "NotoSans", ["DejaVuSans"])
TOL = 0.01  # mm

Box = tuple[float, float, float, float]  # x0, top, x1, bottom in mm
Offset = tuple[float, float]


def mm(points: float) -> float:
    return points / PT_PER_MM


def _sheet(paper: str, duplex: str, offset: Offset = (0.0, 0.0), lang: str = "en") -> Any:
    size = PAPERS[paper].portrait()
    data = render_calibration(FONTS, lang, size, duplex, offset)  # type: ignore[arg-type]
    return pdfplumber.open(io.BytesIO(data))


def _flip(point: tuple[float, float], size: Size, duplex: str) -> tuple[float, float]:
    """Where a point of a portrait front lands on the back: turned over on the long edge it
    changes sides left to right, on the short edge top to bottom."""
    x, y = point
    return (size.w - x, y) if duplex == "long" else (x, size.h - y)


def _lines(page: Any) -> list[Box]:
    return [(mm(o["x0"]), mm(o["top"]), mm(o["x1"]), mm(o["bottom"])) for o in page.lines]


def _crosses(front: Any) -> list[tuple[float, float]]:
    """The front's crosses: a horizontal and a vertical line of one length (20 mm or more)
    that share their middle."""
    lines = _lines(front)
    across = [b for b in lines if abs(b[1] - b[3]) < TOL and b[2] - b[0] >= 20]
    down = [b for b in lines if abs(b[0] - b[2]) < TOL and b[3] - b[1] >= 20]
    found = []
    for h in across:
        for v in down:
            mid = ((h[0] + h[2]) / 2, h[1])
            if abs(v[0] - mid[0]) < TOL and abs((v[1] + v[3]) / 2 - mid[1]) < TOL:
                assert abs((h[2] - h[0]) - (v[3] - v[1])) < TOL
                found.append(mid)
    return found


def _ruler(back: Any, spot: tuple[float, float], axis: str) -> tuple[Box, list[Box]]:
    """The ruler of ``axis`` (x: horizontal, y: vertical) for ``spot``: its 10 mm line, whose
    middle is level with the spot across the axis it measures, and its ticks."""
    lines = _lines(back)
    if axis == "x":
        rulers = [
            b
            for b in lines
            if abs(b[1] - b[3]) < TOL
            and abs(b[2] - b[0] - 2 * READS) < TOL
            and abs((b[0] + b[2]) / 2 - spot[0]) < TOL
            and abs(b[1] - spot[1]) < 15
        ]
        assert len(rulers) == 1, (spot, rulers)
        (r,) = rulers
        ticks = [
            b
            for b in lines
            if abs(b[0] - b[2]) < TOL
            and r[0] - TOL <= b[0] <= r[2] + TOL
            and (abs(b[1] - r[1]) < TOL or abs(b[3] - r[1]) < TOL)
        ]
        return r, ticks
    rulers = [
        b
        for b in lines
        if abs(b[0] - b[2]) < TOL
        and abs(b[3] - b[1] - 2 * READS) < TOL
        and abs((b[1] + b[3]) / 2 - spot[1]) < TOL
        and abs(b[0] - spot[0]) < 15
    ]
    assert len(rulers) == 1, (spot, rulers)
    (r,) = rulers
    ticks = [
        b
        for b in lines
        if abs(b[1] - b[3]) < TOL
        and r[1] - TOL <= b[1] <= r[3] + TOL
        and (abs(b[0] - r[0]) < TOL or abs(b[2] - r[0]) < TOL)
    ]
    return r, ticks


def _runs(chars: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """A page's characters cut into the strings they were drawn as."""
    runs: list[list[dict[str, Any]]] = []
    for ch in chars:
        last = runs[-1][-1] if runs else None
        if last is not None and abs(ch["x0"] - last["x1"]) < 0.01 and ch["top"] == last["top"]:
            runs[-1].append(ch)
        else:
            runs.append([ch])
    return runs


def _string(run: list[dict[str, Any]]) -> str:
    return "".join(c["text"] for c in run)


def _ink(run: list[dict[str, Any]]) -> Box:
    """Where a string's ink lies (mm): from the baseline up a digit's height, not the whole
    em box pdfplumber gives (the font's descent under the baseline is blank for digits)."""
    ch = run[0]
    face = FONTS.main.font("bold" if "Bold" in ch["fontname"] else "regular")
    descent = -getFont(face).face.descent / 1000 * ch["size"]
    base = ch["bottom"] - descent
    return (mm(run[0]["x0"]), mm(base - 0.72 * ch["size"]), mm(run[-1]["x1"]), mm(base))


def _numbers(back: Any) -> list[tuple[int, Box]]:
    runs = [r for r in _runs(back.chars) if NUMBER.match(_string(r))]
    return [(int(_string(r)), _ink(r)) for r in runs]


def _meet(a: Box, b: Box, tol: float = TOL) -> bool:
    return a[0] < b[2] - tol and b[0] < a[2] - tol and a[1] < b[3] - tol and b[1] < a[3] - tol


def _bounds(boxes: list[Box]) -> Box:
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


def _spots(pdf: Any, paper: str, duplex: str, offset: Offset) -> list[tuple]:
    """Where each of the front's five crosses lands on the back, shifted by the offset."""
    size = PAPERS[paper].portrait()
    found = _crosses(pdf.pages[0])
    assert len(found) == 5, found
    return [(x + offset[0], y + offset[1]) for x, y in (_flip(c, size, duplex) for c in found)]


CASES = [
    (paper, duplex, offset)
    for paper in ("a4", "letter")
    for duplex in ("long", "short")
    for offset in ((0.0, 0.0), (2.5, -1.5))
]


@pytest.mark.parametrize(("paper", "duplex", "offset"), CASES)
def test_the_back_rulers_land_where_the_front_crosses_are(
    paper: str, duplex: str, offset: Offset
) -> None:
    """Each cross has an X ruler whose ticks stand every 0.5 mm from -5 to 5 mm around the
    cross's x, and a Y ruler likewise around its y (longer ticks at whole millimetres), each
    beside the cross, not through it."""
    with _sheet(paper, duplex, offset) as pdf:
        back = pdf.pages[1]
        for spot in _spots(pdf, paper, duplex, offset):
            for axis, at in (("x", 0), ("y", 1)):
                line, ticks = _ruler(back, spot, axis)
                across = 1 - at  # the ruler's line lies this far from the spot, across
                assert abs(line[across] - spot[across]) >= 3, (axis, spot, line)
                places = sorted(round((t[at] + t[at + 2]) / 2 - spot[at], 2) for t in ticks)
                assert places == [i / 2 for i in range(-2 * READS, 2 * READS + 1)], places
                length = {round((t[at] + t[at + 2]) / 2 - spot[at], 2): t for t in ticks}
                size = {k: t[across + 2] - t[across] for k, t in length.items()}
                assert min(size[float(k)] for k in range(-READS, READS + 1)) > max(
                    size[k + 0.5] for k in range(-READS, READS)
                )


@pytest.mark.parametrize(("paper", "duplex", "offset"), CASES)
def test_each_ruler_numbers_every_millimetre_and_0(paper: str, duplex: str, offset: Offset) -> None:
    """-5..5 by each ruler, every number on its tick, 0 on both rulers; + to the right and
    downwards, as ``--back-offset`` X and Y go."""
    with _sheet(paper, duplex, offset) as pdf:
        back = pdf.pages[1]
        numbers = _numbers(back)
        for spot in _spots(pdf, paper, duplex, offset):
            for axis, at in (("x", 0), ("y", 1)):
                line, _ticks = _ruler(back, spot, axis)
                near = [(k, b) for k, b in numbers if _meet(b, _grow(line, 9.0))]
                mine = [(k, b) for k, b in near if _beside(b, line, axis)]
                assert sorted(k for k, _b in mine) == list(range(-READS, READS + 1)), (axis, mine)
                for k, b in mine:  # centred on its tick: 0 on the spot, + right and down
                    middle = (b[at] + b[at + 2]) / 2
                    assert abs(middle - (spot[at] + k)) < 0.15, (axis, k, middle, spot)


def _grow(b: Box, d: float) -> Box:
    return (b[0] - d, b[1] - d, b[2] + d, b[3] + d)


def _beside(number: Box, line: Box, axis: str) -> bool:
    """A number belongs to a ruler when it lies within the ruler's span, beside its line."""
    if axis == "x":
        return line[0] - 1 <= (number[0] + number[2]) / 2 <= line[2] + 1
    return line[1] - 1 <= (number[1] + number[3]) / 2 <= line[3] + 1 and not (
        number[0] < line[0] < number[2]
    )


@pytest.mark.parametrize(("paper", "duplex", "offset"), CASES)
def test_the_readings_around_0_are_clear(paper: str, duplex: str, offset: Offset) -> None:
    """Nothing on the back within 3 mm of where a cross lands; the X and Y rulers (lines,
    ticks and numbers) never meet; no number touches another or a tick."""
    with _sheet(paper, duplex, offset) as pdf:
        back = pdf.pages[1]
        numbers = _numbers(back)
        lines = _lines(back)
        for spot in _spots(pdf, paper, duplex, offset):
            clear = (spot[0] - 3, spot[1] - 3, spot[0] + 3, spot[1] + 3)
            assert not [b for b in lines if _meet(b, clear, 0.0)], spot
            assert not [c for c in back.chars if _meet(_char(c), clear, 0.0)], spot
            groups = []
            for axis in ("x", "y"):
                line, ticks = _ruler(back, spot, axis)
                mine = [b for _k, b in numbers if _meet(b, _grow(line, 9.0))]
                mine = [b for b in mine if _beside(b, line, axis)]
                groups.append(_bounds([line, *ticks, *mine]))
            assert not _meet(groups[0], groups[1], 0.0), (spot, groups)
        for i, (k, a) in enumerate(numbers):
            for j, b in numbers[i + 1 :]:
                assert not _meet(a, b), f"{k} meets {j} on the back"
            for line in lines:
                assert not _meet(a, line, -0.05), f"{k} touches a tick"


def _char(c: dict[str, Any]) -> Box:
    return (mm(c["x0"]), mm(c["top"]), mm(c["x1"]), mm(c["bottom"]))


def test_each_ruler_says_which_way_plus_goes() -> None:
    with _sheet("a4", "long", lang="en") as pdf:
        back = pdf.pages[1]
        runs = [(_string(r), _bounds([_char(c) for c in r])) for r in _runs(back.chars)]
        for spot in _spots(pdf, "a4", "long", (0.0, 0.0)):
            for axis, caption in (("x", "X: + is right"), ("y", "Y: + is down")):
                line, _ticks = _ruler(back, spot, axis)
                by = [b for text, b in runs if text == caption and _meet(b, _grow(line, 8.0))]
                assert len(by) == 1, (axis, spot)  # beside its ruler


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_the_rulers_read_the_offset_pnp_build_applies(duplex: str) -> None:
    """``pnp build --back-offset X,Y`` puts a card's back where the calibration sheet made
    with the same offset puts its rulers' 0: cards whose fronts sit on the crosses get their
    backs on the rulers' 0."""
    offset = (2.5, -1.5)
    paper = PAPERS["a4"].portrait()
    front = Item(None, None, None, "front")  # type: ignore[arg-type]
    back = Item(None, None, None, "back")  # type: ignore[arg-type]
    opts = Options(duplex=duplex, back_offset=offset)  # type: ignore[arg-type]
    kinds = ("fronts", "backs")
    pages = impose(paper, Size(63, 88), 0.0, [(front, back)] * 9, opts, "g", kinds, 0.0)  # type: ignore[arg-type]
    fronts, backs = pages[0].slots, pages[1].slots

    def middle(r: Any) -> tuple[float, float]:
        return (r.x + r.w / 2, r.y + r.h / 2)

    # the build's map from a front to its back, from two cards in different rows and columns
    (f1, b1), (f2, b2) = (
        (middle(fronts[i].rect), middle(backs[i].rect)) for i in (0, len(fronts) - 1)
    )
    sx, sy = (b2[0] - b1[0]) / (f2[0] - f1[0]), (b2[1] - b1[1]) / (f2[1] - f1[1])

    def build(p: tuple[float, float]) -> tuple[float, float]:
        return (b1[0] + sx * (p[0] - f1[0]), b1[1] + sy * (p[1] - f1[1]))

    for f, b in zip(fronts, backs, strict=True):  # it is one map for every card
        (x, y), (u, v) = build(middle(f.rect)), middle(b.rect)
        assert abs(x - u) < TOL and abs(y - v) < TOL
    with _sheet("a4", duplex, offset) as pdf:
        for cross in _crosses(pdf.pages[0]):
            spot = build(cross)
            for axis in ("x", "y"):
                _ruler(pdf.pages[1], spot, axis)  # one ruler, centred on where the back goes


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_scale_check_measures_100_mm_and_a_bank_card(paper: str) -> None:
    with _sheet(paper, "long") as pdf:
        front = pdf.pages[0]
        bars = [b for b in _lines(front) if abs(b[1] - b[3]) < TOL and abs(b[2] - b[0] - 100) < TOL]
        assert len(bars) == 1, bars
        (bar,) = bars
        ends = [
            b
            for b in _lines(front)
            if abs(b[0] - b[2]) < TOL and min(abs(b[0] - bar[0]), abs(b[0] - bar[2])) < TOL
        ]
        assert len(ends) == 2  # a tick at each end, where the ruler is laid
        cards = [
            c
            for c in front.curves
            if abs(mm(c["x1"] - c["x0"]) - 85.6) < TOL
            and abs(mm(c["bottom"] - c["top"]) - 53.98) < TOL
        ]
        assert len(cards) == 1  # ISO/IEC 7810 ID-1
        text = " ".join(front.extract_text().split())
        assert "it must be 100 mm long" in text
        assert "A bank card (85.6 × 53.98 mm) fits exactly" in text
        assert "print again at 100 % (actual size), with “fit to page” turned off" in text


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_sheet_stays_inside_the_printable_area_in_body_type(paper: str) -> None:
    """Nothing within 5 mm of the paper's edge, in every language pnp speaks, with the largest
    offsets it checks; every word in 9 pt or more (the rulers' numbers aside)."""
    for lang in LANGS:
        for duplex in ("long", "short"):
            for offset in ((3.0, -3.0), (10.0, 10.0), (-10.0, -10.0)):
                with _sheet(paper, duplex, offset, lang) as pdf:
                    for page in pdf.pages:
                        assert not _near_edge(page), (lang, duplex, offset, _near_edge(page)[:5])
                        numbers = {id(c) for r in _runs(page.chars) for c in r if _is_number(r)}
                        small = [
                            c["text"]
                            for c in page.chars
                            if c["size"] < 8.99 and id(c) not in numbers
                        ]
                        assert not small, (lang, small[:10])


def _is_number(run: list[dict[str, Any]]) -> bool:
    return bool(NUMBER.match(_string(run))) and run[0]["size"] < 8.99


def _near_edge(page: Any, margin: float = MARGIN) -> list[tuple[str, str, float, float]]:
    m, w, h = margin * PT_PER_MM, page.width, page.height
    bad = []
    for kind in ("chars", "lines", "rects", "curves"):
        for o in getattr(page, kind):
            if o["x0"] < m - 0.01 or o["top"] < m - 0.01 or o["x1"] > w - m + 0.01:
                bad.append((kind, o.get("text", ""), mm(o["x0"]), mm(o["top"])))
            elif o["bottom"] > h - m + 0.01:
                bad.append((kind, o.get("text", ""), mm(o["x0"]), mm(o["bottom"])))
    return bad


def test_calibrate_writes_the_sheet_and_refuses_an_offset_it_cannot_check(tmp_path: Path) -> None:
    from pnp.cli.commands import app

    args = ["calibrate", "--paper", "a4", "--duplex", "short", "--out", str(tmp_path)]
    result = CliRunner().invoke(app, [*args, "--root", str(REPO), "--back-offset", "1,-0.5"])
    assert result.exit_code == 0, result.output
    with pdfplumber.open(tmp_path / "calibration-a4-short.pdf") as pdf:
        text = " ".join(pdf.pages[0].extract_text().split())
        assert "flipping on the short edge" in text
        assert "--back-offset 1,-0.5: if the crosses read 0" in text
    result = CliRunner().invoke(app, [*args, "--root", str(REPO), "--back-offset", "10.5,0"])
    assert result.exit_code == 2 and "within ±10 mm" in result.output


@pytest.mark.parametrize(("paper", "duplex", "offset"), CASES)
def test_the_back_writes_where_the_front_shows_no_words(
    paper: str, duplex: str, offset: Offset
) -> None:
    """Held against the window, the back's words lie clear of the front's, which show through
    mirrored: its heading lies behind the bank card's empty outline."""
    size = PAPERS[paper].portrait()
    with _sheet(paper, duplex, offset) as pdf:
        front, back = pdf.pages

        def flipped(box: Box) -> Box:
            (x0, y0), (x1, y1) = _flip(box[:2], size, duplex), _flip(box[2:], size, duplex)
            return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))

        shown = [flipped(_char(c)) for c in front.chars if c["text"].strip()]
        for c in back.chars:
            if c["text"].strip():
                assert not [b for b in shown if _meet(_char(c), b)], c["text"]
        (card,) = [flipped(_char(c)) for c in front.curves]
        heading = [r for r in _runs(back.chars) if _string(r).startswith("Duplex")]
        assert heading and all(_meet(_bounds([_char(c) for c in r]), card) for r in heading)
        inside = _bounds([_char(c) for c in heading[0]])
        assert card[0] <= inside[0] and inside[2] <= card[2]
        assert card[1] <= inside[1] and inside[3] <= card[3]
