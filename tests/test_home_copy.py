"""Issue 27: the home copy a player holds, measured on the bundled games' PDFs.

- page 1 opens with a boxed "How to print" note in body-size type, in the game's language;
- page 1 lists the components: each box line with the pages that print it (checked against
  the faces on those pages), what the players bring, and what is printed on no line;
- decks and token sets share sheets: the four games on A4 take at most 60 sheets, and no
  sheet is less than a quarter used but the last of its kind;
- placeholders carry their own mark, explained on the setup sheet;
- --ink-saver prints shared backs plain (their ink measured), --fold keeps a gutter.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections import defaultdict
from pathlib import Path
from typing import Any

import pdfplumber
import pypdfium2 as pdfium
import pytest
from typer.testing import CliRunner

from pnp.content.load import open_root
from pnp.content.model import Board, TokenSet
from pnp.core.findings import Report
from pnp.i18n import Translator
from pnp.i18n.words import gettext
from pnp.printing.imposition import Options, Page, plan_document
from pnp.printing.imposition.contents import components, page_ranges

from helpers import REPO

GAMES = ["austerity", "fabg", "status", "which-side"]
SHEET_TARGET = 60  # the four games on A4 (74 before issue 27)
PT_PER_MM = 72 / 25.4


def _build(out: Path, *args: str) -> tuple[dict[tuple[str, str], Path], dict[str, list[Any]], str]:
    """``pnp build`` as a player runs it: the PDFs by (game, language), the page plans pnp
    rendered by language and game, and what the terminal said."""
    from pnp.cli.commands import app
    from pnp.printing.render import Renderer

    plans: dict[str, list[Any]] = {}
    real = Renderer.render

    def render(renderer: Any, pages: Any, *rest: Any, **kw: Any) -> Any:
        plans[f"{renderer.game.id}-{renderer.lang}"] = list(pages)
        return real(renderer, pages, *rest, **kw)

    argv = ["build", "--root", str(REPO), "--out", str(out), "--force", "-j", "1", *args]
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(Renderer, "render", render)
        result = CliRunner().invoke(app, argv, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    pdfs = {(p.parent.name, p.stem.split("-")[-2]): p for p in out.glob("*/*.pdf")}
    return pdfs, plans, result.output


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return _build(tmp_path_factory.mktemp("home"))


@functools.cache
def _game(gid: str) -> Any:
    from pnp.validate import validate

    return validate(open_root(REPO), [gid], Report(), [])[gid]


# --- 1. how to print, first --------------------------------------------------------------------


def test_page_one_opens_with_a_boxed_printing_note_in_body_type(built: Any) -> None:
    pdfs, _plans, _out = built
    assert len(pdfs) == 8
    for (gid, lang), path in sorted(pdfs.items()):
        heading = gettext("How to print", lang)
        first = gettext("Print at 100 % (actual size), never “fit to page”.", lang)
        with pdfplumber.open(path) as pdf:
            page = pdf.pages[0]
            text = " ".join((page.extract_text() or "").split())
            assert heading in text and first.split()[0] in text, (gid, lang)
            words = page.extract_words(extra_attrs=["size"])
            top = next(w for w in words if w["text"] == heading.split()[0])
            # the heading sits in a frame drawn around it: thick lines above and below it
            thick = [e for e in page.lines + page.rects if e.get("linewidth", 0) >= 1.4]
            above = [e for e in thick if e["top"] < top["top"] and e["x0"] < top["x0"]]
            below = [e for e in thick if e["top"] > top["bottom"] and e["x0"] < top["x0"]]
            assert above and below, f"{gid} {lang}: no frame around the printing note"
            frame_top, frame_bottom = max(e["top"] for e in above), min(e["top"] for e in below)
            inside = [w for w in words if frame_top <= w["top"] <= frame_bottom]
            assert len(inside) > 20 and min(w["size"] for w in inside) >= 9.0, (gid, lang)
            # it comes before anything else the sheet says but the title
            assert frame_top < 40 * PT_PER_MM, (gid, lang, frame_top)


def test_the_note_says_which_pages_are_double_sided(built: Any) -> None:
    pdfs, plans, _out = built
    for (gid, lang), path in pdfs.items():
        with pdfplumber.open(path) as pdf:
            text = " ".join((pdf.pages[0].extract_text() or "").split())
        backs = [n for n, p in enumerate(plans[f"{gid}-{lang}"], 1) if p.side == "back"]
        if not backs:  # Austerity: nothing has a back
            assert gettext("Print single-sided: no sheet has a back.", lang) in text
            continue
        assert f"1–{max(backs)}" in text, (gid, lang, backs)


# --- 2. what this copy holds -----------------------------------------------------------------


def _page_one_text(path: Path) -> str:
    """Page 1's words in the order they are drawn (a table cell's lines together, not the
    two columns' lines interleaved), joined across line breaks and hyphenated words."""
    pdf = pdfium.PdfDocument(str(path))
    text = " ".join(pdf[0].get_textpage().get_text_range().split())
    return re.sub(r"(?<=\w)[-\u00ad] (?=\w)", "", text)


def test_every_box_line_is_listed_with_the_pages_that_print_it(built: Any) -> None:
    """Each line of the box on page 1 with its pages; those pages hold the line's faces, and
    every face printed is on some line."""
    pdfs, plans, _out = built
    for gid in GAMES:
        game = _game(gid)
        lang = game.source_language
        pages = plans[f"{gid}-{lang}"]
        text = _page_one_text(pdfs[gid, lang])
        found = components(game, pages)
        entries = [c for c in found if c.entry is not None]
        assert len(entries) == len(game.meta.box)
        for comp in found:
            if comp.entry is not None and comp.entry.item is not None:
                line = Translator(game, lang).text(comp.entry.item)
                assert " ".join(line.split())[:30] in text, (gid, line)
            if comp.bring:
                assert not comp.pages
                continue
            assert comp.pages, (gid, comp)
            where = ", ".join(f"{a}" if a == b else f"{a}–{b}" for a, b in page_ranges(comp.pages))
            assert where in text, (gid, where)
            for n in comp.pages:
                assert pages[n - 1].slots, (gid, n)
        printed = {
            id(s.item.owner)
            for p in pages
            for s in p.slots
            if s.item.face is not None and p.side == "front"
        }
        listed = {id(c.owner) for c in found if c.owner is not None}
        for comp in entries:
            listed |= {
                id(s.item.owner) for n in comp.pages for s in pages[n - 1].slots if s.item.face
            }
        assert printed <= listed, gid


def test_what_the_players_bring_is_said_in_their_language(built: Any) -> None:
    pdfs, _plans, _out = built
    for gid in ("fabg", "austerity", "which-side"):
        game = _game(gid)
        bring = [e for e in game.meta.box if e.bring]
        assert bring, f"{gid}: the rulebook asks for something not in the box"
        for lang in game.languages:
            text = _page_one_text(pdfs[gid, lang])
            assert gettext("not printed: bring your own", lang) in text, (gid, lang)


def test_a_bring_line_names_nothing_printed(tmp_path: Path) -> None:
    from helpers import FIXTURES, make_root, run_validate

    root = make_root(tmp_path, FIXTURES / "clean")
    game = root / "cards" / "mini" / "game.yaml"
    text = game.read_text("utf-8")
    bad = "box:\n  - {item: {en: Dice, it: Dadi}, bring: true, deck: d, count: 2}\n"
    game.write_text(re.sub(r"box:\n", bad, text, count=1), "utf-8")
    report = run_validate(root)
    found = [f for f in report.findings if "bring" in f.message]
    assert found and found[0].severity.name == "ERROR", report.format_text()
    assert found[0].pos.line > 0


# --- 3. fewer sheets --------------------------------------------------------------------------


def test_the_four_games_take_at_most_sixty_sheets_on_a4(built: Any) -> None:
    _pdfs, _plans, out = built
    sheets = defaultdict(set)
    for m in re.finditer(r"wrote \S+/([\w-]+)-(\w+)-a4\.pdf \((\d+) pages, (\d+) sheets\)", out):
        sheets[m.group(1)].add(int(m.group(4)))
    assert set(sheets) == set(GAMES), out
    per_game = {g: max(s) for g, s in sheets.items()}
    assert sum(per_game.values()) <= SHEET_TARGET, per_game


def _used(page: Page) -> float:
    area = sum(s.rect.w * s.rect.h for s in page.slots if s.item.face is not None)
    return area / ((page.size.w - 10) * (page.size.h - 10))


def test_no_sheet_is_less_than_a_quarter_used_but_the_last_of_its_kind(built: Any) -> None:
    _pdfs, plans, _out = built
    for name, pages in plans.items():
        faces = [p for p in pages if p.side == "front" and p.kind not in ("setup", "blank")]
        last = {}
        for p in faces:
            last[p.kind] = p
        for p in faces:
            if p.kind == "board-overview" or last[p.kind] is p:
                continue
            assert _used(p) >= 0.25, (name, p.kind, p.group, round(_used(p), 2))


def test_decks_and_tokens_of_different_sizes_share_sheets(built: Any) -> None:
    _pdfs, plans, _out = built
    shared = [
        p
        for pages in plans.values()
        for p in pages
        if len({(s.rect.w, s.rect.h) for s in p.slots if s.item.face}) > 1
    ]
    assert shared
    for p in shared:  # bands of faces never overlap, bleed included
        rects = [s.rect.grow(s.bleed) for s in p.slots]
        for i, a in enumerate(rects):
            assert not any(a.overlaps(b) for b in rects[i + 1 :]), p.group


def test_a_setup_sheet_as_long_as_its_content(built: Any) -> None:
    """Which Side's setup sheet was 9 pages: its scenarios are now checklists in two columns."""
    _pdfs, plans, _out = built
    setup = [p for p in plans["which-side-en"] if p.kind == "setup"]
    assert len(setup) <= 5, len(setup)


@pytest.mark.parametrize("duplex", ["long", "short", "none"])
def test_backs_land_behind_their_fronts_on_shared_sheets(duplex: str) -> None:
    """Every slot of a shared sheet, whatever band it is in, has its back where the flip
    (or the glue) puts it; the back offset moves them all alike."""
    from pnp.printing.imposition import mirror

    game = _game("status")
    for offset in ((0.0, 0.0), (0.5, -1.0)):
        opts = Options(duplex=duplex, back_offset=offset)  # type: ignore[arg-type]
        pages = plan_document(game, opts)
        pairs = [(f, b) for f, b in itertools.pairwise(pages) if b.side == "back"]
        mixed = [(f, b) for f, b in pairs if len({s.rect.w for s in f.slots}) > 1]
        assert mixed
        for front, back in pairs:
            by_index = {s.index: s for s in back.slots}
            for s in front.slots:
                want = mirror(s.rect, front.size, duplex).shift(*offset)  # type: ignore[arg-type]
                got = by_index[s.index].rect
                assert abs(got.x - want.x) < 1e-9 and abs(got.y - want.y) < 1e-9


# --- 5. placeholders ----------------------------------------------------------------------------


def test_a_placeholder_face_carries_its_mark_and_the_sheet_explains_it(built: Any) -> None:
    pdfs, plans, _out = built
    from pnp.printing.render.setup import PLACEHOLDER_NOTE

    path = pdfs["fabg", "en"]
    pages = plans["fabg-en"]
    dentist = next(
        n
        for n, p in enumerate(pages, 1)
        for s in p.slots
        if p.side == "front" and getattr(s.item.card, "id", "") == "dentist"
    )
    with pdfplumber.open(path) as pdf:
        words = pdf.pages[dentist - 1].extract_words()
        setup_text = " ".join(
            " ".join((pdf.pages[i].extract_text() or "").split())
            for i, p in enumerate(pages)
            if p.kind == "setup"
        )
    slot = next(s for s in pages[dentist - 1].slots if getattr(s.item.card, "id", "") == "dentist")
    r = slot.rect
    marks = [
        w
        for w in words
        if w["text"] == "?"
        and r.x * PT_PER_MM <= w["x0"] <= r.right * PT_PER_MM
        and r.y * PT_PER_MM <= w["top"] <= r.bottom * PT_PER_MM
    ]
    assert marks, "no placeholder mark on the Dentist card"
    assert PLACEHOLDER_NOTE.split(":")[0] in setup_text


# --- 7. ink saver, fold gutter -----------------------------------------------------------------


def _ink(path: Path, numbers: list[int]) -> float:
    pdf = pdfium.PdfDocument(str(path))
    total = 0.0
    for n in numbers:
        image = pdf[n - 1].render(scale=20 / 72).to_pil().convert("L")
        data = image.tobytes()
        total += sum(255 - v for v in data) / 255 / len(data)
    return total / len(numbers)


def test_ink_saver_prints_shared_backs_plain(tmp_path: Path) -> None:
    plain_pdfs, plain_plans, _ = _build(tmp_path / "a", "which-side", "--lang", "en")
    saver_pdfs, saver_plans, _ = _build(tmp_path / "b", "which-side", "--lang", "en", "--ink-saver")
    backs = [n for n, p in enumerate(plain_plans["which-side-en"], 1) if p.kind == "backs"]
    assert [p.kind for p in plain_plans["which-side-en"]] == [
        p.kind for p in saver_plans["which-side-en"]
    ]
    before = _ink(plain_pdfs["which-side", "en"], backs)
    after = _ink(saver_pdfs["which-side", "en"], backs)
    assert after < before / 3, (before, after)


def test_ink_saver_keeps_a_cards_own_back(tmp_path: Path) -> None:
    """FABG's robots have two faces of their own: the back is content, printed whole."""
    _pdfs, plans, _ = _build(tmp_path / "a", "fabg", "--lang", "en", "--ink-saver")
    from pnp.printing.render.faces import plain

    pages = plans["fabg-en"]
    own = [
        s
        for p in pages
        if p.side == "back"
        for s in p.slots
        if s.item.face is not None and s.item.face is getattr(s.item.card, "back", None)
    ]
    shared = [
        s
        for p in pages
        if p.side == "back"
        for s in p.slots
        if s.item.face is not None and s.item.face is not getattr(s.item.card, "back", None)
    ]
    assert own and shared
    layout = Options(ink_saver=True)
    assert not any(plain(s, layout) for s in own)
    assert all(plain(s, layout) for s in shared)


@pytest.mark.parametrize("gutter", [0.0, 4.0, 7.5])
def test_fold_keeps_its_gutter(gutter: float) -> None:
    game = _game("fabg")
    pages = plan_document(game, Options(fold=True, fold_gutter=gutter))
    folds = [p for p in pages if p.kind == "fold"]
    assert folds
    for page in folds:
        assert page.fold is not None
        f = page.fold
        near: list[float] = []
        far: list[float] = []
        for s in page.slots:
            r = s.rect
            if f.y1 == f.y2:  # a horizontal fold: fronts above it, backs below
                before, gap = r.bottom <= f.y1 + 1e-9, min(abs(f.y1 - r.bottom), abs(r.y - f.y1))
            else:
                before, gap = r.right <= f.x1 + 1e-9, min(abs(f.x1 - r.right), abs(r.x - f.x1))
            (near if before else far).append(gap)
        # the cards nearest the fold, on either side, are half the gutter from it
        assert min(near) == pytest.approx(gutter / 2) and min(far) == pytest.approx(gutter / 2)


def test_the_gutter_default_is_the_cli_default() -> None:
    import inspect

    from pnp.cli.build import build_cmd
    from pnp.printing.imposition.pages import FOLD_GUTTER

    assert inspect.signature(build_cmd).parameters["fold_gutter"].default == FOLD_GUTTER
    assert Options().fold_gutter == FOLD_GUTTER > 0


def test_token_sheets_fill_the_free_paper_of_board_tiles(built: Any) -> None:
    """Austerity's and Status's last tokens ride on their boards' last tiles, outside the tile
    and its marks, label and scale bar, inside the printable area."""
    _pdfs, plans, _out = built
    for name in ("austerity-en", "status-en"):
        tiles = [p for p in plans[name] if p.kind == "board"]
        riders = [(p, s) for p in tiles for s in p.slots[1:]]
        assert riders, name
        for page, s in riders:
            assert isinstance(s.item.owner, TokenSet)
            tile = page.slots[0].rect
            assert not s.rect.grow(s.bleed).overlaps(tile.grow(7.5)), name
            assert s.rect.x >= 5 and s.rect.y >= 5
            assert s.rect.right <= page.size.w - 5 and s.rect.bottom <= page.size.h - 5
            assert not isinstance(s.item.owner, Board)
