"""The print engine, checked on the PDFs: sizes, duplex alignment, bleed boxes, boards, text."""

from __future__ import annotations

import shutil
from pathlib import Path

import pdfplumber
import pytest
from PIL import Image
from pypdf import PdfReader

from pnp.build.pipeline import BuildOptions, build
from pnp.content.load import load_game, open_root
from pnp.core.findings import Report
from pnp.core.units import CARD_SIZES, PT_PER_MM, pt
from pnp.printing.imposition import BOARD_OVERLAP, Options, plan_document
from pnp.typeset.fonts import fontset
from pnp.typeset.text import TextStyle, fit_text

from helpers import REPO, exports

PACK = Path(__file__).parent / "packs" / "boards"


def mm(points: float) -> float:
    return points / PT_PER_MM


@pytest.fixture(scope="module")
def board_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("boards")
    shutil.copytree(PACK / "cards", root / "cards")
    shutil.copytree(REPO / "pnp" / "data" / "fonts", root / "fonts")
    return root


def _build(root: Path, games: list[str], out: Path, **layout) -> dict[str, Path]:
    report = Report()
    opts = BuildOptions(langs=("en",), layout=Options(**layout), out_dir=out)
    outputs = build(open_root(root), games, opts, report)
    assert not report.has_errors(), report.format_text()
    return {o.game: o.path for o in outputs}


def _title_centres(page, title: str) -> list[tuple[float, float]]:
    """Centres (mm, from top-left) of the lines that start a title on a PDF page (a title
    set on one line is centred as a whole, not by its first word)."""
    word = title.split()[0]
    words = page.extract_words()
    out = []
    for w in words:
        if w["text"] != word:
            continue
        line = [v for v in words if abs(v["top"] - w["top"]) < 0.5 and v["x0"] >= w["x0"] - 0.1]
        line = [v for v in line if v["x0"] - w["x1"] < 60]  # the same card's line
        right = max(v["x1"] for v in line if v["x0"] < w["x1"] + 12 or v is w)
        out.append((mm((w["x0"] + right) / 2), mm((w["top"] + w["bottom"]) / 2)))
    return out


@pytest.mark.parametrize("duplex", ["long", "short"])
@pytest.mark.parametrize("offset", [(0.0, 0.0), (1.5, -0.8)])
def test_backs_land_behind_fronts(tmp_path: Path, duplex: str, offset: tuple[float, float]) -> None:
    """FABG robots: 'Robot' on the front, 'Expropriated' on its back, for every slot."""
    game = load_game(open_root(REPO), "fabg", Report())
    opts = Options(duplex=duplex, back_offset=offset)  # type: ignore[arg-type]
    path = _build(REPO, ["fabg"], tmp_path, duplex=duplex, back_offset=offset)["fabg"]
    plan = plan_document(game, opts)
    dx, dy = offset
    checked = 0
    with pdfplumber.open(path) as pdf:
        for i, page in enumerate(plan):
            if page.kind != "fronts":
                continue
            W, H = page.size.w, page.size.h
            for slot in page.slots:
                card = slot.item.card
                if card.id != "robot":
                    continue
                r = slot.rect
                cx, cy = r.x + r.w / 2, r.y + r.h / 2
                # where the back's centre must be, computed independently of pnp.printing.imposition
                bx, by = (W - cx, cy) if duplex == "long" else (cx, H - cy)
                bx, by = bx + dx, by + dy
                fronts = _title_centres(pdf.pages[i], "Robot")
                backs = _title_centres(pdf.pages[i + 1], "Expropriated")
                assert any(abs(x - cx) < 0.5 and r.y < y < r.bottom for x, y in fronts)
                assert any(
                    abs(x - bx) < 0.5 and abs(y - (by - cy + r.y + 20)) < 25 for x, y in backs
                ), f"back of slot {slot.index} not centred at x={bx:.1f}: {backs}"
                checked += 1
    assert checked == 10


def test_card_sizes_exact_and_boxes(tmp_path: Path) -> None:
    game = load_game(open_root(REPO), "fabg", Report())
    plan = plan_document(game, Options(bleed=3.0))
    first = next(i for i, p in enumerate(plan) if p.kind == "fronts")
    grid = plan[first]
    path = _build(REPO, ["fabg"], tmp_path, bleed=3.0)["fabg"]
    reader = PdfReader(path)
    with pdfplumber.open(path) as pdf:
        page = pdf.pages[first]
        sizes = [(mm(r["width"]), mm(r["height"])) for r in page.rects]
    cards = [s for s in sizes if abs(s[0] - 69) < 0.5]  # 63 + 2 x 3 mm bleed
    assert len(cards) == len(grid.slots) >= 8, sizes
    for w, h in cards:
        assert w == pytest.approx(69.0, abs=0.1) and h == pytest.approx(94.0, abs=0.1)
    for slot in grid.slots:
        assert (slot.rect.w, slot.rect.h) == (63.0, 88.0)
    trim = reader.pages[first].trimbox
    bleed = reader.pages[first].bleedbox
    ext = grid.trim
    assert ext is not None
    assert mm(float(trim.left)) == pytest.approx(ext.x, abs=0.05)
    assert mm(float(trim.width)) == pytest.approx(ext.w, abs=0.05)
    assert mm(float(trim.height)) == pytest.approx(ext.h, abs=0.05)
    assert mm(float(bleed.left)) == pytest.approx(ext.x - 3, abs=0.05)
    assert mm(float(bleed.top)) == pytest.approx(mm(float(trim.top)) + 3, abs=0.05)
    cols = round((ext.w + 6) / 69)
    assert ext.w == pytest.approx(cols * 63 + (cols - 1) * 6)  # cards 2 x 3 mm apart


def test_board_tiles_cover_the_board(board_root: Path, tmp_path: Path) -> None:
    game = load_game(open_root(board_root), "bigboard", Report())
    plan = plan_document(game, Options(paper="a4"))
    tiles = [p.payload for p in plan if p.kind == "board"]
    board = game.boards["main"]
    assert tiles and all(t.board is board for t in tiles)
    cols, rows = tiles[0].cols, tiles[0].rows
    assert len(tiles) == cols * rows > 1
    # every millimetre of the board is on some tile; neighbours share exactly the overlap
    for x in range(0, int(board.size.w) + 1, 5):
        for y in range(0, int(board.size.h) + 1, 5):
            assert any(t.region.contains(x, y) for t in tiles), (x, y)
    by_pos = {(t.row, t.col): t.region for t in tiles}
    for (r, c), region in by_pos.items():
        if (r, c + 1) in by_pos:
            assert region.right - by_pos[(r, c + 1)].x == pytest.approx(BOARD_OVERLAP)
        if (r + 1, c) in by_pos:
            assert region.bottom - by_pos[(r + 1, c)].y == pytest.approx(BOARD_OVERLAP)
    assert max(t.region.right for t in tiles) == pytest.approx(board.size.w)
    assert max(t.region.bottom for t in tiles) == pytest.approx(board.size.h)
    # small tiles fit the paper: imposed like cards, backs mirrored
    for small in ("tile-a", "tile-b"):  # they may share a sheet with cards and tokens
        assert any(p.kind == "backs" and small in p.group.split(", ") for p in plan)
    path = _build(board_root, ["bigboard"], tmp_path)["bigboard"]
    with pdfplumber.open(path) as pdf:
        text = " ".join(p.extract_text() or "" for p in pdf.pages)
    assert "tile A1 of" in text and "glue" in text
    # the art went in as it was: the JPEG as DCT data, the PNGs with their own predictors
    raw = path.read_bytes()
    assert raw.count(b"/DCTDecode") == 1 and raw.count(b"/Predictor 15") == 2


def test_gutter_fold_mirrors_across_the_fold(tmp_path: Path) -> None:
    game = load_game(open_root(REPO), "fabg", Report())
    plan = plan_document(game, Options(fold=True))
    folds = [p for p in plan if p.kind == "fold"]
    assert folds and all(p.fold is not None for p in folds)
    for page in folds:
        f = page.fold
        fronts = [s for s in page.slots if s.item.side == "front"]
        backs = {s.index: s for s in page.slots if s.item.side == "back"}
        for s in fronts:
            b = backs[s.index].rect
            if f.x1 == f.x2:  # vertical fold: mirrored in x about the fold
                assert s.rect.x + s.rect.w / 2 + b.x + b.w / 2 == pytest.approx(2 * f.x1)
                assert s.rect.y == pytest.approx(b.y)
            else:
                assert s.rect.y + s.rect.h / 2 + b.y + b.h / 2 == pytest.approx(2 * f.y1)
    # single-sided: no blank pages
    assert not [p for p in plan if p.kind == "blank"]


def test_shared_back_is_drawn_once(tmp_path: Path) -> None:
    root = tmp_path / "root"
    shutil.copytree(REPO / "pnp" / "data" / "fonts", root / "fonts")
    game = root / "cards" / "big"
    game.mkdir(parents=True)
    (game / "game.yaml").write_text(
        "title: Big\nsource_language: en\nlanguages: [en]\n"
        "box: [{deck: d, count: 1000}]\n"
        "decks:\n  d:\n    back: {title: Shared back, text: 'The same back on every card.'}\n"
        "    cards:\n" + "".join(f"      - {{id: c{i}, title: Card {i}}}\n" for i in range(1000))
    )
    path = _build(root, ["big"], tmp_path / "out")["big"]
    reader = PdfReader(path)
    forms: set[int] = set()
    back_pages = 0
    for page in reader.pages:
        xobjects = page["/Resources"].get_object().get("/XObject", {})
        for ref in xobjects.values():
            forms.add(ref.idnum)
        text = page.extract_text() or ""
        if "Shared back" in text:
            back_pages += 1
    assert back_pages == 112  # 1000 cards, 9 per sheet
    assert len(forms) <= 2, f"{len(forms)} distinct forms for one shared back"


def test_fit_text_hyphenates_german_and_keeps_accents() -> None:
    fonts = fontset(REPO / "pnp" / "data" / "fonts", "NotoSans", ["DejaVuSans"])
    word = "Donaudampfschifffahrtsgesellschaftskapitänsmütze"
    ts = TextStyle(size=10, min_size=8)
    de = fit_text(word, ts, fonts, {}, {}, "de", pt(40), pt(30))
    assert de.overflow is None and len(de.paragraphs[0].blPara.lines) > 1
    no_dictionary = fit_text(word, ts, fonts, {}, {}, "ja", pt(40), pt(30))
    assert no_dictionary.overflow == "horizontal"  # no way to break it: reported
    it = fit_text(
        "Perché la città è già lì: caffè, virtù, più.", ts, fonts, {}, {}, "it", pt(40), pt(30)
    )
    assert it.overflow is None and not it.missing.chars
    tall = fit_text("parola " * 200, ts, fonts, {}, {}, "it", pt(40), pt(30))
    assert tall.overflow == "vertical" and tall.size == 8


def test_png_and_tts_exports(tmp_path: Path) -> None:
    report = Report()
    opts = BuildOptions(langs=("en",), out_dir=tmp_path, exports=exports(300, tts=True))
    (out,) = build(open_root(REPO), ["fabg"], opts, report)
    pngs = {p.name: p for p in out.extra if p.parent.name == "fabg-en-png"}
    robot = Image.open(pngs["robots-robot-front.png"])  # out.extra: written file -> staged
    w, h = CARD_SIZES["poker"].w, CARD_SIZES["poker"].h
    assert robot.size == (round(w / 25.4 * 300), round(h / 25.4 * 300))
    sheet = next(p for p in out.extra if p.name == "roles-faces-1.jpg")  # JPEG: test_tts
    grid = Image.open(sheet)
    assert grid.size == (robot.size[0] * 3, robot.size[1] * 2)  # 5 distinct roles (test_tts)
    assert (tmp_path / "fabg" / "fabg-en-tts" / "roles-back.jpg").is_file()


def test_calibration_sheet(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from pnp.cli.commands import app

    result = CliRunner().invoke(
        app, ["calibrate", "--paper", "letter", "--out", str(tmp_path), "--root", str(REPO)]
    )
    assert result.exit_code == 0, result.stdout
    reader = PdfReader(tmp_path / "calibration-letter-long.pdf")
    assert len(reader.pages) == 2
    assert "back-offset" in (reader.pages[0].extract_text() or "")


def test_render_names_stay_importable_from_the_package() -> None:
    """Every name the render module defined before it became a package; faces repeat one
    colour memo with the typesetter's."""
    import pnp.printing.render as render
    from pnp.typeset.text import _rl_color

    names = [
        "HALO_WIDTH_PT",
        "MARK_WIDTH_PT",
        "PAGE_KIND_WORDS",
        "Pen",
        "Renderer",
        "draw_calibration",
        "render_calibration",
    ]
    for name in names:
        assert name in render.__all__ and hasattr(render, name), name
    assert render.color is _rl_color
    renderer_api = ("plan_pages", "render", "count_setup_pages", "setup_flowables", "label")
    assert all(callable(getattr(render.Renderer, name)) for name in renderer_api)
