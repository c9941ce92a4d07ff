"""Every script a translator brings: Arabic, Persian and Hindi shaped as harfbuzz shapes them,
Hebrew and Arabic laid out right to left with numbers and Latin names left to right, lines
aligned to the right, tables read from the right, page labels that keep their names, Thai
broken between words, and a finding for a script that cannot be printed.

Checked on the PDFs themselves: the glyphs drawn and where (pdfplumber), the text a reader
copies (PDFium, through pypdfium2), against harfbuzz (uharfbuzz) and the Unicode bidirectional
algorithm as python-bidi implements it (pnp's own levels: pnp/compat/uax9.py).
"""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
import unicodedata
from pathlib import Path
from typing import Any

import pdfplumber
import pypdfium2 as pdfium
import pytest
import rtl_sample
import uharfbuzz as hb
from bidi import get_display
from reportlab.lib.enums import TA_LEFT
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph as RLParagraph

from pnp.compat import bidi as compat_bidi
from pnp.core.run import running
from pnp.typeset.fonts import BUNDLED_FONTS, FontSet, fontset
from pnp.typeset.layout import (
    Paragraph,
    ShapedParagraph,
    break_lines,
    draw_line,
    prepare,
    segments,
    visual,
)
from pnp.typeset.markup import parse, to_xml
from pnp.typeset.scripts import break_opportunities, glyph_advice, is_rtl, thai_breaks
from pnp.typeset.text import TextStyle, fit_text, hyphenation_language

from helpers import make_root, run_validate

WIDTH = 250.0  # points: the box every sample paragraph is laid out in
LEFT, TOP = 50.0, 560.0


@pytest.fixture(scope="module")
def fonts() -> Any:
    with running():
        yield fontset(BUNDLED_FONTS, "NotoSans", ["DejaVuSans"])


def _pdf(fonts: FontSet, texts: list[tuple[str, str]], size: float = 12.0) -> tuple[bytes, list]:
    """Each (language, text) as a paragraph WIDTH points wide, one under the other; returns the
    PDF and each paragraph's (top, bottom) in pdfplumber's coordinates."""
    out = io.BytesIO()
    c = Canvas(out, pagesize=(400, 600))
    y = TOP
    boxes = []
    for lang, text in texts:
        style = ParagraphStyle(
            "t",
            fontName=fonts.main.font("regular"),
            fontSize=size,
            leading=size * 1.3,
            alignment=TA_LEFT,
        )
        runs = parse(text, {}, {})[0]
        para = Paragraph(to_xml(runs, fonts, "regular", size, lang=lang), style)
        _w, h = para.wrapOn(c, WIDTH, 1000)
        para.drawOn(c, LEFT, y - h)
        boxes.append((600 - y, 600 - y + h))
        y -= h + 20
    c.save()
    return out.getvalue(), boxes


def _chars(pdf: bytes, box: tuple[float, float]) -> list[dict[str, Any]]:
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        chars = [c for c in doc.pages[0].chars if box[0] - 1 <= c["top"] <= box[1] + 1]
    return [c for c in chars if c["text"].strip()]


def _lines(chars: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """Characters grouped by baseline, top to bottom, each line left to right."""
    rows: dict[int, list[dict[str, Any]]] = {}
    for ch in chars:
        rows.setdefault(round(ch["bottom"]), []).append(ch)
    return [sorted(rows[k], key=lambda c: c["x0"]) for k in sorted(rows)]


def _harfbuzz(text: str, font_file: str) -> list[str]:
    """The glyphs harfbuzz gives for ``text`` (its script's direction), as glyph names."""
    blob = hb.Blob.from_file_path(str(BUNDLED_FONTS / font_file))
    font = hb.Font(hb.Face(blob))
    buf = hb.Buffer()
    buf.add_str(text)
    buf.guess_segment_properties()
    hb.shape(font, buf, {"kern": True, "liga": True})
    return [font.get_glyph_name(g.codepoint) or str(g.codepoint) for g in buf.glyph_infos]


def _glyph_names(chars: list[dict[str, Any]], font_file: str) -> list[str]:
    """The glyphs drawn (left to right), as the font names them: through the character the
    PDF's ToUnicode gives each and the font's own character map."""
    blob = hb.Blob.from_file_path(str(BUNDLED_FONTS / font_file))
    font = hb.Font(hb.Face(blob))
    names = []
    for ch in chars:
        gid = font.get_nominal_glyph(ord(ch["text"]))
        names.append(font.get_glyph_name(gid) if gid else f"U+{ord(ch['text']):04X}")
    return names


# --- the direction of a language, and levels as python-bidi gives them ----------------------


@pytest.mark.parametrize("lang", ["ar", "he", "fa", "ur", "ps", "yi", "ar_EG", "fa-IR"])
def test_right_to_left_languages_come_from_cldr(lang: str) -> None:
    assert is_rtl(lang)


@pytest.mark.parametrize("lang", ["en", "it", "hi", "th", "ja", "xx-nowhere", ""])
def test_other_languages_read_left_to_right(lang: str) -> None:
    assert not is_rtl(lang)


MIXED = [
    ("he", "שלום John Smith, יש לך 3 מטבעות (כסף)."),
    ("he", "ב-12.5% מהקלפים"),
    ("ar", "اسحب ٣ بطاقات (من الكومة)."),
    ("ar", "مرحبا 123 كتاب."),
    ("fa", "این یک متن فارسی است با عدد ۱۲۳ و 45."),
    ("en", "He said שלום עולם to me."),
    ("en", "Draw [1-3] cards."),
]


@pytest.mark.parametrize(("lang", "text"), MIXED)
def test_visual_order_is_the_unicode_bidi_algorithms(fonts: FontSet, lang: str, text: str) -> None:
    """One line, in the order the Rust crate behind python-bidi gives (it does not mirror
    brackets; pnp does, so each piece is compared as logical characters)."""
    pieces = prepare(segments(parse(text, {}, {})[0], fonts, "regular", None), is_rtl(lang))
    line = break_lines(pieces, 10.0, 1e9).lines[0]
    drawn = "".join(p.logical[::-1] if p.level % 2 else p.logical for p in visual(line.pieces))
    assert drawn == get_display(text, base_dir="R" if is_rtl(lang) else "L")


def test_levels_match_the_pure_python_algorithm_without_brackets() -> None:
    """pnp's own levels (compat/uax9.py); where no bracket pair decides (rule N0),
    python-bidi's pure-Python algorithm, a second implementation, gives the same."""
    text = "שלום John, יש לך 3 מטבעות, ב-12.5% ו-٣٤ نقطة"
    assert list(compat_bidi.embedding_levels(text, True)) == compat_bidi._python_levels(text, True)
    assert list(compat_bidi.embedding_levels(text, False)) == compat_bidi._python_levels(
        text, False
    )


# --- shaping, direction and alignment in the PDF ---------------------------------------------


def test_arabic_letters_are_joined_as_harfbuzz_joins_them(fonts: FontSet) -> None:
    word = "بطاقات"
    pdf, boxes = _pdf(fonts, [("ar", word)])
    chars = _chars(pdf, boxes[0])
    drawn = _glyph_names(chars, "NotoSansArabic-Regular.ttf")
    assert drawn == _harfbuzz(word, "NotoSansArabic-Regular.ttf")
    isolated = _glyph_names([{"text": c} for c in reversed(word)], "NotoSansArabic-Regular.ttf")
    assert drawn != isolated, "the letters are drawn in their isolated forms"
    # what a reader copies: the word, in logical order
    assert unicodedata.normalize("NFKC", "".join(c["text"] for c in chars[::-1])) == word


def test_persian_is_shaped_with_its_digits_left_to_right(fonts: FontSet) -> None:
    text = "این متن ۱۲۳ است"
    pdf, boxes = _pdf(fonts, [("fa", text)])
    chars = sorted(_chars(pdf, boxes[0]), key=lambda c: c["x0"])
    digits = [c["text"] for c in chars if c["text"] in "۱۲۳"]
    assert digits == list("۱۲۳"), "the number reads left to right"
    letters = [c for c in chars if c["text"] not in "۱۲۳"]
    words = ["است", "متن", "این"]  # left to right: the words read from the right
    font = "NotoSansArabic-Regular.ttf"
    assert _glyph_names(letters, font) == [g for w in words for g in _harfbuzz(w, font)]
    at = [c["text"] for c in chars].index("۱")
    assert len(_harfbuzz("است", font)) == at, "the number stands between است and متن"


def test_hindi_conjuncts_are_shaped_and_copy_as_written(fonts: FontSet) -> None:
    text = "हिंदी क्षत्रिय"
    pdf, _boxes = _pdf(fonts, [("hi", text)])
    glyphs = _harfbuzz("क्षत्रिय", "NotoSansDevanagari-Regular.ttf")
    assert len(glyphs) < len("क्षत्रिय"), "harfbuzz forms conjuncts"
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        drawn = [c for c in doc.pages[0].chars if c["text"].strip()]
    assert len(drawn) == len(_harfbuzz("हिंदी", "NotoSansDevanagari-Regular.ttf")) + len(glyphs)
    page = pdfium.PdfDocument(pdf)[0]
    copied = page.get_textpage().get_text_range()
    assert "हिंदी" in copied and "क्षत्रिय" in copied


def test_hebrew_reads_from_the_right_with_numbers_and_names_left_to_right(
    fonts: FontSet,
) -> None:
    text = "השחקנית John Smith מקבלת 42 מטבעות."
    pdf, boxes = _pdf(fonts, [("he", text)])
    (line,) = _lines(_chars(pdf, boxes[0]))
    shown = "".join(c["text"] for c in line)  # left to right, as drawn
    assert shown == ".תועבטמ42תלבקמJohnSmithתינקחשה"
    # aligned to the right of its box
    assert abs(max(c["x1"] for c in line) - (LEFT + WIDTH)) < 0.5
    assert min(c["x0"] for c in line) > LEFT + 10
    copied = pdfium.PdfDocument(pdf)[0].get_textpage().get_text_range()
    assert "השחקנית" in copied and "מטבעות" in copied and "42" in copied


def test_every_line_of_a_right_to_left_paragraph_is_aligned_right(fonts: FontSet) -> None:
    text = "קלפי התפקיד מחולקים הפוכים לפי הטבלה; שתי הבוסיות חושפות את תפקידן מיד " * 3
    pdf, boxes = _pdf(fonts, [("he", text.strip())])
    lines = _lines(_chars(pdf, boxes[0]))
    assert len(lines) >= 3
    for line in lines:
        assert abs(line[-1]["x1"] - (LEFT + WIDTH)) < 0.5
    assert min(line[0]["x0"] for line in lines[:-1]) < LEFT + 40  # full lines reach the left


def test_a_latin_text_keeps_reportlab_and_the_left(fonts: FontSet) -> None:
    runs = parse("Draw 3 cards.", {}, {})[0]
    style = ParagraphStyle("t", fontName=fonts.main.font("regular"))
    assert isinstance(Paragraph(to_xml(runs, fonts, "regular", 10, lang="en"), style), RLParagraph)
    assert isinstance(
        Paragraph(to_xml(runs, fonts, "regular", 10, lang="he"), style), ShapedParagraph
    )


def test_a_text_in_the_source_language_keeps_its_direction_in_a_hebrew_build(
    fonts: FontSet,
) -> None:
    """A fallback text (Italian in a Hebrew PDF) is laid out left to right, aligned right."""
    pdf, boxes = _pdf(fonts, [("he", "Paga 2 monete.")])
    (line,) = _lines(_chars(pdf, boxes[0]))
    assert "".join(c["text"] for c in line) == "Paga2monete."
    assert abs(line[-1]["x1"] - (LEFT + WIDTH)) < 0.5


def test_a_long_right_to_left_paragraph_splits_between_lines(fonts: FontSet) -> None:
    """The setup sheet flows paragraphs over pages: a part takes the lines that fit."""
    text = "קלפי התפקיד מחולקים הפוכים לפי הטבלה; שתי הבוסיות חושפות את תפקידן מיד. " * 6
    style = ParagraphStyle("t", fontName=fonts.main.font("regular"), fontSize=10, leading=13)
    runs = parse(text, {}, {})[0]
    para = Paragraph(to_xml(runs, fonts, "regular", 10, lang="he"), style)
    _w, height = para.wrap(200, 1000)
    lines = [ln.pieces for ln in para._lines(200).lines]
    first, rest = para.split(200, 13 * 3 + 5)
    assert first.wrap(200, 1000)[1] == 39 and rest.wrap(200, 1000)[1] == height - 39
    assert [ln.pieces for ln in first._lines(200).lines + rest._lines(200).lines] == lines
    assert para.split(200, 5) == [] and para.split(200, 1000) == [para]


def test_fitting_measures_shaped_text(fonts: FontSet) -> None:
    """Shrink-to-fit sees the shaped widths: a long Arabic text shrinks into its box."""
    ts = TextStyle(size=12, min_size=6)
    text = "اسحب ثلاث بطاقات من الكومة ثم ادفع اثنتي عشرة عملة إلى البنك. " * 4
    with running():
        fit = fit_text(text, ts, fonts, {}, {}, "ar", 150, 80)
    assert fit.overflow is None and fit.size < 12
    assert all(isinstance(p, ShapedParagraph) for p in fit.paragraphs)
    assert fit.height <= 80 + 0.5


def test_a_label_line_is_drawn_shaped_and_right_to_left(fonts: FontSet) -> None:
    out = io.BytesIO()
    c = Canvas(out, pagesize=(400, 100))
    draw_line(c, 20, 50, "2/2 · fronts (بطاقات الحدث) · ar", fonts, "regular", 8, "ar")
    c.save()
    with pdfplumber.open(io.BytesIO(out.getvalue())) as doc:
        chars = sorted(doc.pages[0].chars, key=lambda ch: ch["x0"])
    shown = "".join(ch["text"] for ch in chars)
    assert shown.startswith("ar · (") and shown.endswith("2/2")  # read from the right
    arabic = unicodedata.normalize("NFKC", "".join(ch["text"] for ch in chars[::-1]))
    assert "بطاقات" in arabic and "الحدث" in arabic


# --- line breaking per script ----------------------------------------------------------------


def test_thai_breaks_between_words_not_inside_clusters(fonts: FontSet) -> None:
    text = "ภาษาไทยไม่มีการเว้นวรรคระหว่างคำแต่ต้องตัดบรรทัดให้ถูกต้องเมื่อข้อความยาวเกินไป"
    words, _inside = break_opportunities(text)
    assert words, "BudouX finds the phrases"
    pieces = prepare(segments(parse(text, {}, {})[0], fonts, "regular", None), False)
    lines = break_lines(pieces, 12.0, 120.0).lines
    assert len(lines) > 2
    starts = []
    at = 0
    for line in lines:
        starts.append(at)
        at += sum(len(p.logical) for p in line.pieces)
    assert all(s in words for s in starts[1:]), "each line starts a phrase"
    for i in thai_breaks("กันสั่งเรียนจันทร์"):
        assert "กันสั่งเรียนจันทร์"[i - 1 : i + 1] not in ("กั", "ัน", "ั่", "่ง", "รี", "ีย", "ร์")


@pytest.mark.parametrize("lang", ["ar", "he", "fa", "hi", "th", "ja", "zh"])
def test_no_hyphenation_where_the_language_has_none(lang: str) -> None:
    assert hyphenation_language(lang) == ""


def test_a_phrase_longer_than_a_line_breaks_between_thai_clusters(fonts: FontSet) -> None:
    text = "กรุงเทพมหานครอมรรัตนโกสินทร์มหินทรายุธยามหาดิลกภพ"
    pieces = prepare(segments(parse(text, {}, {})[0], fonts, "regular", None), False)
    laid = break_lines(pieces, 12.0, 60.0)
    assert len(laid.lines) > 1 and laid.widest == 0.0
    for line in laid.lines:
        assert line.width <= 60.0 + 1e-6
        first = line.pieces[0].logical[0]
        assert unicodedata.category(first) != "Mn", "no line starts with a mark"


# --- a script that cannot be printed is a finding --------------------------------------------


def test_glyph_advice_names_a_font_for_the_script() -> None:
    assert "Noto Sans JP as fonts/NotoSansJP-Regular.ttf" in glyph_advice("漢字", "ja")
    assert "Noto Sans SC" in glyph_advice("漢字", "zh")
    assert "Noto Sans TC" in glyph_advice("漢字", "zh_Hant")
    assert "Noto Sans KR" in glyph_advice("한국", "ko")
    assert "Noto Sans Bengali" in glyph_advice("বাংলা", "bn")


def test_arabic_without_shaping_is_a_finding(tmp_path: Path, monkeypatch: Any) -> None:
    import pnp.validate.scripts as checks

    monkeypatch.setattr(checks, "shaping_available", lambda: False)
    root = make_root(tmp_path, Path(__file__).parent / "fixtures" / "clean")
    decks = root / "cards" / "mini" / "decks.yaml"
    text = decks.read_text("utf-8").replace("{en: Chip, it: Gettone}", "{en: Chip, it: قطعة}")
    decks.write_text(text, "utf-8")
    found = [f for f in run_validate(root).sorted() if f.rule == "script"]
    assert len(found) == 1, [f.text() for f in found]
    line = next(n for n, ln in enumerate(text.splitlines(), 1) if "قطعة" in ln)
    assert (found[0].pos.path, found[0].pos.line) == ("cards/mini/decks.yaml", line)
    assert found[0].pos.col > 1 and "shaped" in found[0].message and "[it]" in found[0].message


# --- the FABG setup sheet and cards in Arabic and Hebrew -------------------------------------


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """The sample built as a user builds it: ``pnp build fabg --lang ar --lang he``."""
    root = rtl_sample.make_root(tmp_path_factory.mktemp("rtl"))
    out = root / "out"
    command = ["build", "fabg", "--lang", "ar", "--lang", "he", "--root", str(root)]
    done = subprocess.run(
        [sys.executable, "-m", "pnp", "-q", *command, "--out", str(out)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return {lang: (out / "fabg" / f"fabg-{lang}-a4.pdf").read_bytes() for lang in ("ar", "he")}


def test_the_sample_validates_without_errors(tmp_path: Path) -> None:
    root = rtl_sample.make_root(tmp_path)
    errors = [f for f in run_validate(root).sorted() if f.severity.value == "error"]
    assert not errors, [f.text() for f in errors]


@pytest.mark.parametrize(("lang", "texts"), [("ar", rtl_sample.ARABIC), ("he", rtl_sample.HEBREW)])
def test_the_setup_sheet_reads_from_the_right(
    sample: dict[str, bytes], lang: str, texts: dict[str, str]
) -> None:
    copied = pdfium.PdfDocument(sample[lang])[0].get_textpage().get_text_range()
    assert texts["title"] in copied and texts["setup_sheet/title"] in copied
    with pdfplumber.open(io.BytesIO(sample[lang])) as doc:
        page = doc.pages[0]
        right = max(ch["x1"] for ch in page.chars)
        title = [ch for ch in page.chars if ch["size"] > 15]
        assert abs(max(ch["x1"] for ch in title) - right) < 1.0, "the title starts at the right"
        table = page.find_tables()[0]
        x0, top, x1, bottom = table.rows[0].cells[-1]
        header = table.extract()[0]
    # the roles table's first column (players) is its rightmost, the last (a fallback) leftmost
    assert (header[0] or "").replace("\n", " ") == "Posti Lavoro Pubblico"
    first = pdfium.PdfDocument(sample[lang])[0]
    height = float(first.get_height())
    heading = first.get_textpage().get_text_bounded(x0, height - bottom, x1, height - top)
    assert heading.strip() == texts["tables/roles/columns/players/title"]


@pytest.mark.parametrize(("lang", "texts"), [("ar", rtl_sample.ARABIC), ("he", rtl_sample.HEBREW)])
def test_the_page_label_keeps_the_deck_name(
    sample: dict[str, bytes], lang: str, texts: dict[str, str]
) -> None:
    pdf = pdfium.PdfDocument(sample[lang])
    pages = [pdf[i].get_textpage().get_text_range() for i in range(len(pdf))]
    labels = [line for text in pages for line in text.splitlines() if "fronts" in line]
    assert labels, "no page label found"
    assert any(texts["decks/roles/name"] in line for line in labels), labels
    assert not any("()" in line for line in labels), "a label lost a name"


def test_the_boss_card_title_is_shaped_as_harfbuzz_shapes_it(sample: dict[str, bytes]) -> None:
    title = rtl_sample.ARABIC["decks/roles/cards/boss/title"]
    font = "NotoSansArabic-Bold.ttf"
    want = _harfbuzz(title, font)
    titles = []  # every word set large in Arabic bold, as the font's glyph names
    with pdfplumber.open(io.BytesIO(sample["ar"])) as doc:
        for page in doc.pages[1:]:  # the cards, after the setup sheet
            big = [ch for ch in page.chars if ch["size"] > 12 and "Arabic-Bold" in ch["fontname"]]
            for line in _lines(big):
                word = [line[0]]
                for ch in [*line[1:], None]:
                    if ch is None or ch["x0"] - word[-1]["x1"] > 5:  # the next card's title
                        titles.append(_glyph_names(word, font))
                        word = []
                    if ch is not None:
                        word.append(ch)
    assert titles.count(want) == 2, "two Boss cards, their titles shaped as harfbuzz shapes them"


# --- a game may mirror its layouts' directions per language ----------------------------------


def _track_rows(pdf: Path) -> list[list[str]]:
    """Rows of the numbers 1 to 10 on a page (as a track prints them), left to right."""
    rows = []
    with pdfplumber.open(pdf) as doc:
        for page in doc.pages:
            for line in _lines([w | {"text": w["text"]} for w in page.extract_words()]):
                numbers = [w["text"] for w in line if w["text"].isdigit()]
                if sorted(numbers, key=int) == [str(n) for n in range(1, 11)]:
                    rows.append(numbers)
    return rows


@pytest.mark.slow
def test_print_mirror_draws_tracks_from_the_right(tmp_path: Path) -> None:
    """``print.mirror: [en]``: which-side's tracks count from the right in English."""
    pdfs = {}
    for name, mirror in (("plain", ""), ("mirrored", "  mirror: [en]\n")):
        root = tmp_path / name
        shutil.copytree(rtl_sample.REPO / "cards" / "which-side", root / "cards" / "which-side")
        game = root / "cards" / "which-side" / "game.yaml"
        fonts = "  fallback_fonts: [DejaVuSans]\n"
        game.write_text(game.read_text("utf-8").replace(fonts, fonts + mirror, 1), "utf-8")
        command = ["build", "which-side", "--lang", "en", "--root", str(root)]
        done = subprocess.run(
            [sys.executable, "-m", "pnp", "-q", *command, "--out", str(root / "out")],
            capture_output=True,
        )
        assert done.returncode == 0, done.stderr
        pdfs[name] = _track_rows(root / "out" / "which-side" / "which-side-en-a4.pdf")
    ascending = [str(n) for n in range(1, 11)]
    assert ascending in pdfs["plain"] and ascending[::-1] not in pdfs["plain"]
    assert ascending[::-1] in pdfs["mirrored"] and ascending not in pdfs["mirrored"]
