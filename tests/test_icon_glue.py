"""Icons of every kind stay with the number or word before them, in every language (issue 29,
item 7): "Werte 1 {apple}" never breaks between "1" and the apple, whether the icon is a
glyph or an image, whether reportlab's Paragraph or pnp's own layout (right to left, shaped
scripts) breaks the line. Checked on the built PDF: each icon lies on the line of the
character written just before it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pdfplumber
import pytest
from PIL import Image
from typer.testing import CliRunner

from pnp.cli import app
from pnp.core.run import running
from pnp.typeset.fonts import BUNDLED_FONTS, fontset
from pnp.typeset.markup import parse
from pnp.typeset.text import IconSpec, TextStyle, fit_text

from helpers import lower_overflow, make_root

GAME = """\
title: Icons
source_language: de
languages: [de, en, ar]
icons:
  apple: {image: apple.png}
  coin: {glyph: "₽"}
decks:
  d:
    layout: narrow
    size: [40, 150]
    cards:
      - id: a
        text: {de: "Werte 1 {apple}", en: "Worth 1 {apple}", ar: "قيمة 1 {apple}"}
      - id: b
        text: {de: "Gewinn {coin}", en: "Gain {coin}", ar: "ربح {coin}"}
      - id: c
        text: {de: "Werte **1** {apple}", en: "Worth **1** {apple}", ar: "قيمة **1** {apple}"}
layouts:
  narrow:
    elements:
"""
# one text box per width, from a box too narrow for the word and its icon to a wide one
WIDTHS = [6 + 1.5 * k for k in range(16)]


@pytest.fixture(scope="module")
def pdfs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    tmp = tmp_path_factory.mktemp("glue")
    root = make_root(tmp)
    folder = root / "cards" / "icons"
    folder.mkdir(parents=True)
    Image.new("RGB", (64, 64), "#c62828").save(folder / "apple.png")
    rows = [
        f"      - {{box: [2, {3 + 9 * k:.1f}, {w:.1f}, 8.5], field: text, size: 9, fit: none}}"
        for k, w in enumerate(WIDTHS)
    ]
    (folder / "game.yaml").write_text(GAME + "\n".join(rows) + "\n", "utf-8")
    lower_overflow(root, "icons")  # the narrowest boxes clip a word on purpose
    out = tmp / "out"
    with running(fresh=True):
        result = CliRunner().invoke(
            app, ["build", "icons", "--root", str(root), "--out", str(out), "--jobs", "1"]
        )
    assert result.exit_code == 0, result.output
    return {p.name.split("-")[1]: p for p in out.rglob("*.pdf")}


def _lines(page: Any) -> list[float]:
    return sorted({round(c["bottom"], 1) for c in page.chars if c["text"].strip()})


@pytest.mark.parametrize("lang", ["de", "en", "ar"])
def test_an_image_icon_stays_on_the_line_of_the_number_before_it(
    pdfs: dict[str, Path], lang: str
) -> None:
    with pdfplumber.open(pdfs[lang]) as doc:
        for page in doc.pages:
            images = [im for im in page.images if im["width"] < 20]  # the icons, not the art
            ones = [c for c in page.chars if c["text"] == "1"]
            if not images or not ones:
                continue
            for im in images:
                # the "1" written before this apple: the nearest "1" above its bottom
                near = min(ones, key=lambda c: abs(c["bottom"] - im["bottom"]) + 0.01 * c["x0"])
                assert abs(near["bottom"] - im["bottom"]) < 5, (
                    f"[{lang}] an apple at y={im['bottom']:.1f} lies on another line than "
                    f"the 1 before it (y={near['bottom']:.1f})"
                )
            break
        else:
            pytest.fail("no page with the icons")


@pytest.mark.parametrize("lang", ["de", "en", "ar"])
def test_a_glyph_icon_stays_with_the_word_before_it(pdfs: dict[str, Path], lang: str) -> None:
    """Each ₽ has a letter of "Gewinn" ("Gain", "ربح") beside it on its line (in another
    font a line's characters sit a few points apart: Arabic's descent is deeper)."""
    with pdfplumber.open(pdfs[lang]) as doc:
        coins = [(c, p) for p in doc.pages for c in p.chars if c["text"] == "₽"]
        assert len(coins) >= len(WIDTHS)
        for coin, page in coins:
            beside = [
                c
                for c in page.chars
                if abs(c["bottom"] - coin["bottom"]) < 5
                and min(abs(c["x0"] - coin["x1"]), abs(coin["x0"] - c["x1"])) < 4
                and c["text"].isalpha()
            ]
            assert beside, f"[{lang}] a ₽ alone on its line at y={coin['bottom']:.1f}"


def test_a_row_of_icons_may_still_break_between_icons() -> None:
    runs = parse("x {a} {a} {a}", {"a": IconSpec(glyph="*")}, {})[0]
    assert runs[0].text == "x\u00a0"  # x keeps its first icon
    assert [r.text for r in runs[1:]] == ["", " ", "", " ", ""]  # between icons: spaces


def test_validation_and_drawing_break_alike() -> None:
    """The quick check validation uses (no reportlab) sees the same unbreakable word."""
    apple = Path(__file__).parent / "packs" / "boards" / "cards" / "bigboard" / "art" / "moon.png"
    icons = {"apple": IconSpec(image=str(apple))}
    fonts = fontset(BUNDLED_FONTS, "NotoSans", ["DejaVuSans"])
    style = TextStyle(size=10, fit="none")
    for width in range(20, 60):
        fit = fit_text("Werte 1 {apple}", style, fonts, icons, {}, "de", width, 200)
        para = fit.paragraphs[0]
        lines = para.blPara.lines
        last = lines[-1]
        words = getattr(last, "words", None) or []
        texts = [getattr(w, "text", "") for w in words]
        assert any("1" in t for t in texts) or len(lines) == 1, (width, texts)
