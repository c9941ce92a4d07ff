"""End to end: build FABG in it and en on A4 and Letter, and check the PDFs as a printer would."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest
from pypdf import PdfReader

from pnp.build.pipeline import BuildOptions, build
from pnp.content.load import load_game, open_root
from pnp.core.findings import Report
from pnp.printing.imposition import Options, plan_document

from helpers import REPO

MM = 72 / 25.4
PAPER_PT = {"a4": (595.28, 841.89), "letter": (612.0, 792.0)}


@pytest.fixture(scope="module")
def pdfs(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], Path]:
    out = tmp_path_factory.mktemp("out")
    root = open_root(REPO)
    result = {}
    for paper in ("a4", "letter"):
        report = Report()
        outputs = build(
            root, ["fabg"], BuildOptions(layout=Options(paper=paper), out_dir=out), report
        )
        assert not report.has_errors(), report.format_text()
        for o in outputs:
            result[(o.lang, paper)] = o.path
    return result


@pytest.fixture(scope="module")
def game():
    report = Report()
    g = load_game(open_root(REPO), "fabg", report)
    assert g is not None
    return g


def test_four_pdfs_with_the_contract_names(pdfs: dict[tuple[str, str], Path]) -> None:
    assert set(pdfs) == {("it", "a4"), ("en", "a4"), ("it", "letter"), ("en", "letter")}
    for (lang, paper), path in pdfs.items():
        assert path.name == f"fabg-{lang}-{paper}.pdf"
        assert path.parent.name == "fabg"


def test_page_sizes(pdfs: dict[tuple[str, str], Path]) -> None:
    for (_lang, paper), path in pdfs.items():
        w, h = PAPER_PT[paper]
        for page in PdfReader(path).pages:
            box = sorted((float(page.mediabox.width), float(page.mediabox.height)))
            assert box == pytest.approx(sorted((w, h)), abs=0.05)


def test_titles_in_the_right_language(pdfs: dict[tuple[str, str], Path], game) -> None:
    for (lang, _paper), path in pdfs.items():
        with pdfplumber.open(path) as pdf:
            text = " ".join((p.extract_text() or "") for p in pdf.pages)
        other = "en" if lang == "it" else "it"
        for _deck, card in game.all_cards():
            title = card.title.values[lang]
            assert title.split()[0] in text, f"{card.id}: {title!r} missing from {path.name}"
        # names that differ between the languages appear only in their own language
        assert game.card("scab").title.values[lang] in text
        assert game.card("scab").title.values[other] not in text
        assert game.card("robot").back.title.values[lang].split()[-1] in text


def _mirror_x(
    rect: tuple[float, float, float, float], page_w: float, page_h: float = 0.0
) -> tuple[float, float, float, float]:
    """Long-edge duplex: a portrait sheet turns about its vertical axis (x mirrored), a
    landscape one (a sheet of landscape cards, e.g. the player aids) about its horizontal one."""
    x, y, w, h = rect
    if page_h and page_w > page_h:
        return (x, page_h - y - h, w, h)
    return (page_w - x - w, y, w, h)


def _words_in(page, rect_mm: tuple[float, float, float, float], words_cache) -> str:
    x, y, w, h = (v * MM for v in rect_mm)
    inside = [
        wd["text"]
        for wd in words_cache
        if x <= (wd["x0"] + wd["x1"]) / 2 <= x + w and y <= (wd["top"] + wd["bottom"]) / 2 <= y + h
    ]
    return " ".join(inside)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_backs_print_behind_their_fronts(pdfs, game, paper: str) -> None:
    """The back of the card at row r, column c is at the mirrored position of the next page."""
    plan = plan_document(game, Options(paper=paper))
    path = pdfs[("en", paper)]
    with pdfplumber.open(path) as pdf:
        checked = 0
        for i, page in enumerate(plan):
            if page.kind != "fronts":
                continue
            back_page = plan[i + 1]
            assert back_page.kind == "backs" and back_page.sheet == page.sheet
            assert i % 2 == 0, "a fronts page must be the first side of a sheet"
            front_words = pdf.pages[i].extract_words()
            back_words = pdf.pages[i + 1].extract_words()
            page_w = page.size.w
            for slot in page.slots:
                r = slot.rect
                front_rect = (r.x, r.y, r.w, r.h)
                card = slot.item.card
                front_title = card.title.values["en"]
                assert front_title.split()[0] in _words_in(pdf.pages[i], front_rect, front_words)
                back_face = card.back or slot.item.owner.back
                back_title = back_face.title.values["en"]
                mirrored = _mirror_x(front_rect, page_w, page.size.h)
                found = _words_in(pdf.pages[i + 1], mirrored, back_words)
                assert back_title.split()[0] in found, (
                    f"sheet {page.sheet}: back of {card.id} ({back_title!r}) not at the mirrored "
                    f"position {mirrored}; found {found!r}"
                )
                checked += 1
        assert checked == sum(d.total for d in game.decks.values())


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_crop_marks_outside_every_card(pdfs, game, paper: str) -> None:
    plan = plan_document(game, Options(paper=paper))
    with pdfplumber.open(pdfs[("it", paper)]) as pdf:
        for i, page in enumerate(plan):
            if page.kind != "fronts":
                continue
            cards = [
                tuple(v * MM for v in (s.rect.x, s.rect.y, s.rect.w, s.rect.h)) for s in page.slots
            ]
            marks = [
                ln
                for ln in pdf.pages[i].lines
                if ln["stroking_color"] in ((0,), (0, 0, 0), [0], [0, 0, 0], 0)
                and ln["linewidth"] >= 0.3
            ]
            assert len(marks) >= 2 * (3 + 1) + 2 * (3 + 1), "crop marks missing"
            for ln in marks:
                for x, y, w, h in cards:
                    cx = min(max((ln["x0"] + ln["x1"]) / 2, x), x + w)
                    overlap_x = ln["x1"] > x + 0.01 and ln["x0"] < x + w - 0.01
                    overlap_y = ln["bottom"] > y + 0.01 and ln["top"] < y + h - 0.01
                    assert not (overlap_x and overlap_y), f"mark {ln} over card {x, y, w, h} ({cx})"


def test_every_font_embedded_and_subset(pdfs) -> None:
    for path in pdfs.values():
        reader = PdfReader(path)
        seen = 0
        for page in reader.pages:
            fonts = page["/Resources"].get_object().get("/Font", {})
            for ref in fonts.values():
                font = ref.get_object()
                descendants = font.get("/DescendantFonts")
                target = descendants[0].get_object() if descendants else font
                desc = target.get("/FontDescriptor")
                assert desc is not None, f"{font.get('/BaseFont')} has no descriptor (not embedded)"
                desc = desc.get_object()
                assert any(k in desc for k in ("/FontFile2", "/FontFile3", "/FontFile")), font
                assert "+" in str(font["/BaseFont"]), f"{font['/BaseFont']} is not a subset"
                seen += 1
        assert seen > 0


def test_rouble_sign_and_accents_are_text(pdfs) -> None:
    with pdfplumber.open(pdfs[("it", "a4")]) as pdf:
        text = " ".join((p.extract_text() or "") for p in pdf.pages)
    assert "₽" in text
    assert "Solidarietà" in text


def test_same_input_same_bytes(tmp_path: Path) -> None:
    root = open_root(REPO)
    data = []
    for run in range(2):
        report = Report()
        outs = build(
            root,
            ["fabg"],
            BuildOptions(langs=("en",), out_dir=tmp_path / str(run)),
            report,
        )
        data.append(outs[0].path.read_bytes())
    assert data[0] == data[1]
