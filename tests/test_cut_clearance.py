"""Nothing cut off: no glyph of a face's text lies within 1.5 mm of where the face is cut.

- the geometry of the cut lines (rectangle, circle, hexagon) and of a fitted text's lines;
- the face engine narrowing a text into the safe area, and reporting what it cannot keep clear
  (the fixture pack tests/fixtures/cut-clearance holds the findings and their lines);
- the bundled games, every face in every language, measured on the engine's operations;
- the bundled games built: every glyph printed on a card or token sheet, read from the PDF
  (pdfplumber) with its outline's bounding box taken from the font file, against the cut line
  of the face it lies on.
"""

from __future__ import annotations

import functools
import math
import re
import struct
from pathlib import Path
from typing import Any

import pytest

from pnp.content.load import load_game, open_root
from pnp.content.queries import item_size
from pnp.core.findings import Report
from pnp.core.run import running
from pnp.core.units import mm
from pnp.typeset.faces import FaceEngine, TableOp, TextOp, TrackOp, flatten
from pnp.typeset.faces.clear import keep_clear
from pnp.typeset.faces.cuts import (
    CLEARANCE,
    Cut,
    cut_of,
    text_ink,
    text_rows,
    turned_box,
)
from pnp.typeset.fonts import fontset
from pnp.typeset.text import TextStyle, fit_text

from helpers import FIXTURES, REPO

GAMES = ["austerity", "fabg", "status", "which-side"]
SQRT3 = math.sqrt(3.0)
EPS = 1e-6


# --- the cut lines -----------------------------------------------------------------------------


def test_a_round_cut_is_the_circle_inscribed_in_the_face() -> None:
    cut = Cut("round", 20, 20)
    assert cut.inside(10, 10) == pytest.approx(10)
    assert cut.inside(10, 1) == pytest.approx(1)
    assert cut.inside(10 + 8 / math.sqrt(2), 10 + 8 / math.sqrt(2)) == pytest.approx(2)
    assert cut.inside(0, 0) < 0  # the corner of the face's box is cut off


def test_a_hexagonal_cut_has_its_corners_left_and_right() -> None:
    w = 24.0
    cut = Cut("hex", w, w * SQRT3 / 2)
    h = cut.h
    assert cut.inside(w / 2, h / 2) == pytest.approx(h / 2)  # the apothem
    assert cut.inside(0, h / 2) == pytest.approx(0)  # a corner
    assert cut.inside(w / 2, 0) == pytest.approx(0)  # the flat top
    # the middle of a slanted side, and 1 mm inside it along its normal (30 degrees)
    mx, my = (0 + w / 4) / 2, (h / 2 + 0) / 2
    assert cut.inside(mx, my) == pytest.approx(0, abs=EPS)
    nx, ny = math.cos(math.radians(30)), math.sin(math.radians(30))
    assert cut.inside(mx + nx, my + ny) == pytest.approx(1)
    assert cut.inside(w / 4 - 0.5, 0.2) < 0  # beyond the top left corner's slant


def test_a_rectangular_cut_is_the_trim() -> None:
    cut = Cut("rect", 63, 88)
    assert cut.inside(1.5, 40) == pytest.approx(1.5)
    assert cut.inside(30, 87) == pytest.approx(1)
    assert cut.clearance([(2, 2), (61, 2), (61, 86), (2, 86)]) == pytest.approx(2)


@pytest.mark.parametrize("shape", ["round", "hex", "rect"])
def test_the_clear_band_of_a_row_keeps_its_corners_clear(shape: str) -> None:
    w = 20.0
    cut = Cut(shape, w, w * SQRT3 / 2 if shape == "hex" else w)
    top, bottom = cut.rows(CLEARANCE)
    assert cut.band(top - 0.1, top + 1, CLEARANCE) is None  # starts above the safe area
    for y0 in (top, cut.h / 2 - 1, cut.h / 2 + 1, bottom - 2):
        band = cut.band(y0, y0 + 2, CLEARANCE)
        assert band is not None
        a, b = band
        corners = [(a, y0), (b, y0), (b, y0 + 2), (a, y0 + 2)]
        assert cut.clearance(corners) >= CLEARANCE - EPS  # the band is clear ...
        wider = [(a - 0.05, y0), (b + 0.05, y0), (b + 0.05, y0 + 2), (a - 0.05, y0 + 2)]
        assert cut.clearance(wider) < CLEARANCE  # ... and no wider than that


# --- a fitted text's lines ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def fonts() -> Any:
    return fontset(REPO / "pnp" / "data" / "fonts", "NotoSans", ["DejaVuSans"])


def _op(
    text: str,
    box: tuple[float, float, float, float],
    fonts: Any,
    valign: str = "middle",
    **style: Any,
) -> TextOp:
    from pnp.core.units import pt

    ts = TextStyle(**style)
    with running():
        fit = fit_text(text, ts, fonts, {}, {}, "en", pt(box[2]), pt(box[3]))
    return TextOp(box, fit, valign, 0.0)


def test_a_line_is_measured_as_wide_and_as_tall_as_its_glyphs(fonts: Any) -> None:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    op = _op("Hxg", (0, 0, 40, 10), fonts, size=10, align="center")
    (row,) = text_rows(op)
    width = mm(stringWidth("Hxg", fonts.main.font("regular"), 10))
    assert row.right - row.left == pytest.approx(width)
    assert (row.left + row.right) / 2 == pytest.approx(20)  # centred
    # H reaches 0.714 em above the baseline and g 0.24 below it (Noto Sans)
    assert row.bottom - row.top == pytest.approx(mm(10 * (0.714 + 0.24)), abs=0.02)


def test_lines_of_a_paragraph_follow_its_alignment(fonts: Any) -> None:
    text = "a short line and then a much longer line of words that wraps"
    op = _op(text, (5, 5, 30, 40), fonts, size=9, align="right")
    rows = text_rows(op)
    assert len(rows) > 1
    assert all(r.right == pytest.approx(35, abs=0.2) for r in rows)  # flush right
    assert all(r.left >= 5 - 0.2 for r in rows)
    tops = [r.top for r in rows]
    assert tops == sorted(tops)


def test_an_overflowing_text_is_measured_as_printed_clipped_to_its_box(fonts: Any) -> None:
    """A word wider than its box is printed clipped to the box (TextOp.draw): the part past
    the box is no ink, so a box 2 mm inside the trim keeps it clear of the cut."""
    cut = Cut("rect", 63, 88)
    box = (53.0, 12.0, 8.0, 30.0)  # ends 2 mm inside the right trim edge
    op = _op("Unbreakablewordhere", box, fonts, valign="top", size=10, min_size=10)
    assert op.fit.overflow is not None
    assert max(row.right for row in text_rows(op)) > 63  # laid out past the trim...
    ink = text_ink(op)
    assert max(x for points in ink for x, _y in points) == pytest.approx(61)  # ...printed to 61
    assert min(cut.clearance(p) for p in ink) == pytest.approx(2)
    fitting = _op("Fits", (53.0, 12.0, 8.0, 30.0), fonts, valign="top", size=10)
    assert fitting.fit.overflow is None
    assert text_ink(fitting) == [turned_box(r.box(), fitting.box, 0) for r in text_rows(fitting)]


# --- keeping a text clear ----------------------------------------------------------------------


def test_a_title_across_a_round_token_is_narrowed_into_the_safe_area(fonts: Any) -> None:
    from pnp.core.units import pt

    cut = Cut("round", 20, 20)
    ts = TextStyle(face="bold", size=9, min_size=4, align="center")
    box = (1.0, 12.5, 18.0, 4.5)  # low on the circle, where it narrows
    with running():

        def refit(w: float, h: float, size: float | None) -> Any:
            style = ts if size is None else TextStyle(**{**ts.__dict__, "size": size})
            return fit_text("Chip name", style, fonts, {}, {}, "en", w, h)

        first = TextOp(box, refit(pt(box[2]), pt(box[3]), None), "middle", 0.0)
        assert min(cut.clearance(p) for p in text_ink(first)) < CLEARANCE
        sizes = [9 - k / 4 for k in range(21)]
        kept, reached = keep_clear(cut, first, refit, sizes)
    assert reached >= CLEARANCE
    assert min(cut.clearance(p) for p in text_ink(kept)) >= CLEARANCE - EPS
    assert kept.fit.overflow is None
    assert kept.box[2] < box[2]


def test_a_turned_text_is_measured_not_moved(fonts: Any) -> None:
    cut = Cut("rect", 63, 88)
    op = _op("Side note", (-22, 40, 50, 6), fonts, valign="top", size=8)
    op.rotate = 270.0
    kept, reached = keep_clear(cut, op, lambda w, h, s: op.fit, [8.0])
    assert kept is op and reached < CLEARANCE


def test_the_fixture_pack_keeps_what_it_can(fonts: Any) -> None:
    """The fixture pack's round chip with a long title, and its card title 0.5 mm from the trim,
    are narrowed into the safe area (no finding there: test_rules checks the findings)."""
    root = open_root(FIXTURES / "cut-clearance")
    with running():
        game = load_game(root, "mini", Report())
        assert game is not None
        for lang in game.languages:
            engine = _engine(game, root, lang, fonts)
            chips = game.tokens["chips"]
            chip = chips.tokens[0]
            deck = game.decks["main"]
            card = deck.cards[0]
            for owner, face, w, h in ((chips, chip, 20, 20), (deck, card, 63, 88)):
                cut = cut_of(owner, w, h)
                ops = flatten(engine.ops(face, owner, face, "front", w, h, 0.0))
                texts = [op for op in ops if isinstance(op, TextOp) and not op.rotate]
                worst = min(cut.clearance(p) for op in texts for p in text_ink(op))
                assert worst >= CLEARANCE - EPS, (lang, owner.id)


# --- the bundled games, from the engine's operations -------------------------------------------


def _engine(game: Any, root: Any, lang: str, fonts: Any) -> FaceEngine:
    from pnp.i18n import Translator

    return FaceEngine(game, root.game_dir(game.id), lang, Translator(game, lang), fonts)


def _faces(game: Any) -> list[tuple[Any, Any, Any, str, float, float]]:
    out = []
    for owner in game.owners():
        size = item_size(game, owner)
        for card in owner.cards:
            back = card.back if card.back is not None else owner.back
            out.append((card, owner, card, "front", size.w, size.h))
            if back is not None:
                out.append((back, owner, card, "back", size.w, size.h))
    for board in game.boards.values():
        out.append((board, board, board, "front", board.size.w, board.size.h))
        if board.back is not None:
            out.append((board.back, board, board, "back", board.size.w, board.size.h))
    return out


def nearest_glyphs(game_id: str) -> list[tuple[float, str]]:
    """The least clearance of each printed text, track and table of every face of a bundled
    game in each of its languages, as the engine lays them out (the nearest first)."""
    from pnp.i18n import Translator
    from pnp.i18n.catalog import read_translations

    root = open_root(REPO)
    found: list[tuple[float, str]] = []
    with running():
        report = Report()
        game = load_game(root, game_id, report)
        assert game is not None
        catalogs = read_translations(root, game, report)
        fonts = fontset(root.fonts, game.print.font, game.print.fallback_fonts)
        for lang in game.languages:
            tr = Translator(game, lang, catalogs.get(lang))
            engine = FaceEngine(game, root.game_dir(game_id), lang, tr, fonts)
            for face, owner, card, side, w, h in _faces(game):
                cut = cut_of(owner, w, h)
                for op in flatten(engine.ops(face, owner, card, side, w, h, 0.0)):
                    if isinstance(op, TextOp):
                        ink = text_ink(op)
                    elif isinstance(op, TrackOp):
                        ink = op.numbers(fonts.main.font(op.font))
                    elif isinstance(op, TableOp):
                        ink = op.texts()
                    else:
                        continue
                    for points in ink:
                        where = f"{lang} {owner.id}/{card.id}/{side} {type(op).__name__}"
                        found.append((cut.clearance(points), where))
    return sorted(found)


@pytest.mark.parametrize("game", GAMES)
def test_every_bundled_face_keeps_its_texts_clear_of_the_cut(game: str) -> None:
    found = nearest_glyphs(game)
    near = [f"{c:.2f} mm: {where}" for c, where in found if c < CLEARANCE - 0.005]
    assert not near, "\n".join(near[:20])


def test_the_bundled_games_have_no_cut_or_track_finding() -> None:
    from pnp.content.load import select_games
    from pnp.validate import validate

    report = Report()
    root = open_root(REPO)
    validate(root, select_games(root, GAMES), report)
    found = [f.text() for f in report.sorted() if f.rule in ("cut-clearance", "track-cell")]
    assert not found, "\n".join(found)


# --- the bundled games, built: glyphs read from the PDF ----------------------------------------


FONT_FILES = REPO / "pnp" / "data" / "fonts"


@functools.cache
def _outlines(stem: str) -> Any:
    """A bundled font's glyph bounding boxes by character (thousandths of the size), read from
    its glyf table: (x_min, y_min, x_max, y_max), None for a blank glyph."""
    from reportlab.pdfbase.ttfonts import TTFontFile

    face = TTFontFile(str(FONT_FILES / f"{stem}.ttf"))
    data = Path(FONT_FILES / f"{stem}.ttf").read_bytes()
    base = face.table["glyf"]["offset"]
    scale = 1000.0 / face.unitsPerEm

    def box(char: str) -> tuple[float, float, float, float] | None:
        gid = face.charToGlyph.get(ord(char))
        if gid is None:
            return (0.0, -300.0, 1000.0, 1100.0)  # unknown: a generous box
        start, end = face.glyphPos[gid], face.glyphPos[gid + 1]
        if start == end:
            return None
        _n, x0, y0, x1, y1 = struct.unpack(">hhhhh", data[base + start : base + start + 10])
        return x0 * scale, y0 * scale, x1 * scale, y1 * scale

    return box


def _stem(fontname: str) -> str:
    """The bundled font a PDF font name stands for: AAAAAA+NotoSans-Bold (the subset's tag,
    then the font's name, maybe with pnp's digest of the file)."""
    return re.sub(r"-[0-9a-f]{8}$", "", fontname.split("+", 1)[-1])


def glyph_corners(char: dict[str, Any], page_h: float) -> list[tuple[float, float]] | None:
    """The corners (mm, from the page's top-left) of the bounding box of a printed glyph's
    outline, through the text matrix it was drawn with; None for a blank glyph."""
    box = _outlines(_stem(char["fontname"]))(char["text"])
    if box is None:
        return None
    a, b, c, d, e, f = char["matrix"]
    # pdfminer's size is the glyph box's height on the page: the font size times the matrix's
    # vertical scale (the faces on sheets are upright or turned half a turn)
    scale = char["size"] / max(math.hypot(c, d), 1e-9) / 1000.0
    out = []
    for gx, gy in ((box[0], box[1]), (box[2], box[1]), (box[2], box[3]), (box[0], box[3])):
        x, y = gx * scale, gy * scale
        px, py = a * x + c * y + e, b * x + d * y + f
        out.append((mm(px), mm(page_h - py)))
    return out


@functools.cache
def built(game: str, tmp: Path) -> dict[str, tuple[Path, list[Any]]]:
    """Every language of a bundled game built (A4, duplex): each PDF with pnp's page plan."""
    from typer.testing import CliRunner

    from pnp.cli.commands import app
    from pnp.printing.render import Renderer

    out = tmp / game
    args = ["build", game, "--root", str(REPO), "--out", str(out), "--force", "-j", "1"]
    rendered: dict[str, list[Any]] = {}
    real = Renderer.render

    def render(renderer: Any, pages: Any, *rest: Any, **kw: Any) -> Any:
        rendered[renderer.lang] = list(pages)
        return real(renderer, pages, *rest, **kw)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(Renderer, "render", render)
        result = CliRunner().invoke(app, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return {lang: (out / game / f"{game}-{lang}-a4.pdf", pages) for lang, pages in rendered.items()}


def printed_clearances(pdf: Path, pages: list[Any]) -> list[tuple[float, str]]:
    """For every glyph printed on a card or token face: how far inside its face's cut line
    it lies, from the PDF (the faces' places and shapes from pnp's page plan)."""
    import pdfplumber

    found: list[tuple[float, str]] = []
    with pdfplumber.open(pdf) as doc:
        assert len(doc.pages) == len(pages)
        for number, (page, plan) in enumerate(zip(doc.pages, pages, strict=True), 1):
            slots = [s for s in plan.slots if s.item.face is not None] if plan.slots else []
            if plan.kind not in ("fronts", "backs", "tokens", "token-backs", "fold") or not slots:
                continue
            for char in page.chars:
                corners = glyph_corners(char, float(page.height))
                if corners is None:
                    continue
                cx = sum(p[0] for p in corners) / 4
                cy = sum(p[1] for p in corners) / 4
                for slot in slots:
                    r = slot.rect
                    if r.x <= cx <= r.x + r.w and r.y <= cy <= r.y + r.h:
                        shape = slot.item.shape if slot.item.shape in ("round", "hex") else "rect"
                        cut = Cut(shape, r.w, r.h)
                        local = [(x - r.x, y - r.y) for x, y in corners]
                        item = slot.item
                        where = f"page {number} {item.owner.id}/{item.card.id} {char['text']!r}"
                        found.append((cut.clearance(local), where))
                        break
    return sorted(found)


@pytest.mark.parametrize(  # FABG in the fast loop (-m "not slow"), every game in a full run
    "game", [pytest.param(g, marks=() if g == "fabg" else pytest.mark.slow) for g in GAMES]
)
def test_no_printed_glyph_lies_near_a_cut_line(game: str, tmp_path_factory: Any) -> None:
    tmp = tmp_path_factory.mktemp("cuts")
    near = []
    measured = 0
    for lang, (pdf, pages) in built(game, tmp).items():
        found = printed_clearances(pdf, pages)
        measured += len(found)
        near += [f"{lang} {c:.2f} mm: {where}" for c, where in found if c < CLEARANCE - 0.01]
    assert measured > 0
    assert not near, f"{len(near)} glyphs nearer than {CLEARANCE} mm:\n" + "\n".join(near[:20])
