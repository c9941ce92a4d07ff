"""What the sheets print besides the faces, measured from the PDFs: the setup sheet's table
headings, the page labels and the blank backs (the calibration sheet: test_calibration.py)."""

from __future__ import annotations

import dataclasses
import io
import re
from pathlib import Path
from typing import Any

import pdfplumber
import pytest
from pypdf import PdfReader
from reportlab.pdfbase.pdfmetrics import stringWidth

from pnp.build.pipeline import BuildOptions, build
from pnp.content.load import load_game, open_root
from pnp.core.findings import Report
from pnp.core.units import PAPERS, PT_PER_MM, Size, pt
from pnp.i18n import Translator
from pnp.printing.imposition import Options, Page, plan_document
from pnp.printing.render import Renderer
from pnp.printing.render.furniture import SheetFurniture
from pnp.typeset.faces import FaceEngine
from pnp.typeset.fonts import fontset

from helpers import FIXTURES, REPO, make_root

MARGIN = 5.0  # mm at the paper edge a home printer cannot print
LANGS = ("en", "it", "es", "fr", "de")  # pnp's own catalogs


def mm(points: float) -> float:
    return points / PT_PER_MM


def _runs(chars: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """A page's characters in drawing order, cut into the strings they were drawn as."""
    runs: list[list[dict[str, Any]]] = []
    for ch in chars:
        last = runs[-1][-1] if runs else None
        if last is not None and abs(ch["x0"] - last["x1"]) < 0.01 and ch["top"] == last["top"]:
            runs[-1].append(ch)
        else:
            runs.append([ch])
    return runs


def _text(run: list[dict[str, Any]]) -> str:
    return "".join(ch["text"] for ch in run)


def _overlap(a: dict[str, Any], b: dict[str, Any], tol: float = 0.01) -> bool:
    return (
        a["x0"] < b["x1"] - tol
        and b["x0"] < a["x1"] - tol
        and a["top"] < b["bottom"] - tol
        and b["top"] < a["bottom"] - tol
    )


def _near_edge(page: Any, margin: float = MARGIN) -> list[tuple[str, str, float, float]]:
    """Whatever is drawn closer than ``margin`` mm to the paper edge."""
    m, w, h = pt(margin), page.width, page.height
    bad = []
    for kind in ("chars", "lines", "rects", "curves"):
        for o in getattr(page, kind):
            if o["x0"] < m - 0.01 or o["top"] < m - 0.01 or o["x1"] > w - m + 0.01:
                bad.append((kind, o.get("text", ""), mm(o["x0"]), mm(o["top"])))
            elif o["bottom"] > h - m + 0.01:
                bad.append((kind, o.get("text", ""), mm(o["x0"]), mm(o["bottom"])))
    return bad


# --- the setup sheet: a table's heading stays with its table ---------------------------------


def _mini_with_intro(tmp: Path, paragraphs: int) -> Path:
    """The mini game with a set-up text of ``paragraphs`` one-line paragraphs."""
    root = make_root(tmp, FIXTURES / "clean")
    text = "\n\n".join(
        f"Filler paragraph number {i}, one line of set-up text." for i in range(paragraphs)
    )
    body = text.replace("\n", "\n      ")
    intro = f"  intro:\n    en: |-\n      {body}\n    it: |-\n      {body}\n"
    game = root / "cards" / "mini" / "game.yaml"
    game.write_text(
        game.read_text("utf-8").replace("setup_sheet:\n", "setup_sheet:\n" + intro), "utf-8"
    )
    return root


def _build(
    root: Path,
    game: str,
    out: Path,
    langs: tuple[str, ...] = ("en",),
    report: Report | None = None,
    **layout: Any,
) -> list[Path]:
    report = report if report is not None else Report()
    opts = BuildOptions(langs=langs, layout=Options(**layout), out_dir=out)
    outputs = build(open_root(root), [game], opts, report)
    assert not report.has_errors(), report.format_text()
    return [o.path for o in outputs]


def test_table_heading_keeps_with_its_table(tmp_path: Path) -> None:
    """Set-up texts of growing length push the table 'Cards dealt' down the first page and
    then onto the next: its heading goes with it, never alone at the bottom of a page."""
    moved = 0
    for n in range(27, 36):
        root = _mini_with_intro(tmp_path / f"n{n}", n)
        (path,) = _build(root, "mini", tmp_path / f"out{n}")
        with pdfplumber.open(path) as pdf:
            pages = [page.extract_words() for page in pdf.pages[:4]]
        heading = [i for i, words in enumerate(pages) if "dealt" in [w["text"] for w in words]]
        first_row = [i for i, words in enumerate(pages) if "Players" in [w["text"] for w in words]]
        assert len(heading) == len(first_row) == 1, (n, heading, first_row)
        assert heading == first_row, f"{n} paragraphs: heading on page {heading}, table {first_row}"
        moved += heading[0] > 0
    assert 0 < moved < 9  # the table was on the first page, and then it was not


def test_table_longer_than_a_page_goes_on_with_its_header_row(tmp_path: Path) -> None:
    """80 rows: the heading with the first rows, the rest on the next pages, each page with
    the header row; every row printed once (it used to be left out, with a warning)."""
    root = make_root(tmp_path, FIXTURES / "clean")
    decks = root / "cards" / "mini" / "decks.yaml"
    text = decks.read_text("utf-8")
    players = "      - {id: players, title: {en: Players, it: Giocatori}}\n"
    assert players in text
    # the row number first: the table is read by it, one row per key (duplicate-row)
    text = text.replace(players, "      - {id: row, title: {en: Row, it: Riga}}\n" + players)
    text = text.replace("    total:\n      - {of: [alpha, beta], equals: players}\n", "")
    rows = "".join(f"      - [{1000 + i}, {2 + i % 3}, 1, 1]\n" for i in range(80))
    text = text.replace("      - [2, 1, 1]\n      - [3, 2, 1]\n      - [4, 2, 2]\n", rows)
    decks.write_text(text, "utf-8")
    report = Report()
    (path,) = _build(root, "mini", tmp_path / "out", report=report)
    assert "setup sheet is larger than a page" not in report.format_text()
    printed: list[int] = []
    with pdfplumber.open(path) as pdf:
        for i, page in enumerate(pdf.pages[:6]):
            words = [w["text"].replace(",", "") for w in page.extract_words()]
            numbers = [int(w) for w in words if w.isdigit() and int(w) >= 1000]
            if numbers:
                assert "Row" in words, f"page {i + 1}: rows without the header row"
                assert ("dealt" in words) == (1000 in numbers), f"page {i + 1}: heading"
            printed += numbers
    assert printed == list(range(1000, 1080))


# --- page labels ------------------------------------------------------------------------------


def _renderer(game_id: str, lang: str, root: Path = REPO) -> Renderer:
    r = open_root(root)
    game = load_game(r, game_id, Report())
    fonts = fontset(r.fonts, game.print.font, game.print.fallback_fonts)
    translator = Translator(game, lang)
    engine = FaceEngine(game, r.game_dir(game.id), lang, translator, fonts, quick=True)
    return Renderer(game, lang, engine, fonts, translator, translator.text(game.meta.title))


def _labels(path: Path) -> list[str]:
    """The page labels of a PDF: its lines of 6 pt text with a ' · ' in them."""
    out = []
    with pdfplumber.open(path) as pdf:
        for page in pdf.pages:
            lines: dict[tuple[str, float], list[dict[str, Any]]] = {}
            for ch in page.chars:
                size = ch["size"] if ch["upright"] else ch["x1"] - ch["x0"]
                if abs(size - 6) < 0.05:
                    key = (
                        ("h", round(ch["bottom"], 1))
                        if ch["upright"]
                        else ("v", round(ch["x0"], 1))
                    )
                    lines.setdefault(key, []).append(ch)
            for (kind, _), chars in lines.items():
                chars.sort(key=lambda c: c["x0"] if kind == "h" else -c["top"])
                text = _text(chars)
                if "·" in text:
                    out.append(text)
    return out


@pytest.mark.parametrize("lang", ["en", "es"])
def test_page_labels_fit_without_being_cut(tmp_path: Path, lang: str) -> None:
    """Which Side's decks have long names: its labels are shortened, not cut."""
    (path,) = _build(REPO, "which-side", tmp_path, langs=(lang,))
    labels = _labels(path)
    assert len(labels) > 20
    cut = [label for label in labels if "…" in label]
    assert not cut, f"{len(cut)} of {len(labels)} labels cut, e.g. {cut[:3]}"
    assert all(re.search(r"\b\d+/\d+\b|\d+ \w+ \d+", label) for label in labels), labels


def test_page_label_keeps_the_most_useful_words() -> None:
    """The label is the longest form that fits its room: the full one when there is room,
    then the sheet as n/total, without the game's title, with fewer deck names; it never
    exceeds its room and is cut with '…' only when even the shortest form does not fit."""
    renderer = _renderer("which-side", "en")
    plan = plan_document(renderer.game, Options())
    total = max(p.sheet for p in plan)
    furniture = SheetFurniture(dataclasses.replace(renderer.context, total_sheets=total))
    font = renderer.fonts.main.font("regular")
    pages = [p for p in plan if p.furniture.label_width > 0]
    for page in pages:
        full = furniture.label(
            dataclasses.replace(page, furniture=dataclasses.replace(page.furniture, label_width=0))
        )
        assert full.startswith(f"sheet {page.sheet} of {total} · ")
        for width in (400.0, 120.0, 80.0, 57.0, 40.0, 30.0, 20.0, 8.0):
            fur = dataclasses.replace(page.furniture, label_width=width)
            text = furniture.label(dataclasses.replace(page, furniture=fur))
            assert stringWidth(text, font, 6) <= pt(width) + 1e-6, (width, text)
            if stringWidth(full, font, 6) <= pt(width):
                assert text == full
            elif width >= 30:  # the shortest room the plan gives a label is 26 mm
                assert text.startswith(f"{page.sheet}/{total} · "), text
                assert text.endswith(" · en"), text
                assert "…" not in text or width < 57, (width, text)  # 57: an A4 sheet's room


# --- blank pages --------------------------------------------------------------------------


def test_blank_pages_carry_no_page_boxes() -> None:
    """reportlab keeps a page's TrimBox and BleedBox for the pages after it: a blank back
    after a card sheet must not inherit them, while card sheets keep theirs."""
    renderer = _renderer("fabg", "en")
    plan = plan_document(renderer.game, Options(bleed=3.0))
    cards = [p for p in plan if p.trim is not None][:2]
    assert len(cards) == 2
    pages = [cards[0], Page("blank", cards[0].size), cards[1], Page("blank", cards[1].size)]
    reader = PdfReader(io.BytesIO(renderer.render(pages)))
    for page, planned in zip(reader.pages, pages, strict=True):
        boxes = {"/TrimBox", "/BleedBox"} & set(page.keys())
        if planned.kind == "blank":
            assert not boxes, f"a blank page carries {sorted(boxes)}"
        else:
            assert boxes == {"/TrimBox", "/BleedBox"}
            assert float(page.trimbox.left) == pytest.approx(pt(planned.trim.x), abs=0.01)  # type: ignore[union-attr]


@pytest.mark.parametrize("lang", LANGS)
def test_blank_page_note_fits_inside_the_margin(lang: str) -> None:
    renderer = _renderer("fabg", lang)
    pages = [Page("blank", PAPERS[paper].portrait()) for paper in ("a4", "letter")]
    with pdfplumber.open(io.BytesIO(renderer.render(pages))) as pdf:
        for page in pdf.pages:
            assert page.chars
            assert not _near_edge(page), _near_edge(page)[:3]


def test_blank_page_note_of_any_length_stays_inside_the_margin(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A game's catalog may translate the note at any length: it is set smaller, then cut."""
    renderer = _renderer("fabg", "en")
    for words in (16, 60):
        note = " ".join(["Diese Seite bleibt absichtlich leer"] * (words // 4))
        monkeypatch.setattr(renderer.translator, "word", lambda msgid, n=None, note=note: note)
        with pdfplumber.open(io.BytesIO(renderer.render([Page("blank", Size(210, 297))]))) as pdf:
            page = pdf.pages[0]
            assert page.chars
            assert not _near_edge(page), _near_edge(page)[:3]
