"""Text fitting: the quick check validation relies on never says "fits" wrongly, and the
remembered hyphenation breaks lines exactly as reportlab's own does."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from reportlab.platypus import Paragraph

from pnp.core.units import pt
from pnp.typeset.fonts import FontSet, fontset
from pnp.typeset.text import (
    IconSpec,
    TextStyle,
    _make_style,
    fit_text,
    quick_fits,
    smallest_size,
    to_xml,
)

from helpers import REPO, WORDS

ICONS = {"coin": IconSpec(glyph="₽")}


@pytest.fixture(scope="module")
def fonts() -> FontSet:
    return fontset(REPO / "pnp" / "data" / "fonts", "NotoSans", ["DejaVuSans"])


def _texts(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    texts = []
    for _ in range(count):
        paragraphs = [
            " ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 40)))
            for _ in range(rng.randint(1, 3))
        ]
        texts.append("\n\n".join(paragraphs))
    return texts


@pytest.mark.parametrize("lang", ["en", "it"])
def test_quick_check_never_claims_a_fit_reportlab_denies(fonts: FontSet, lang: str) -> None:
    ts = TextStyle(size=8.5, min_size=6.0, leading=1.2)
    said_yes = said_no = 0
    for text in _texts(7, 160):
        for w_mm, h_mm in ((50, 40), (40, 25), (55, 60)):
            w, h = pt(w_mm), pt(h_mm)
            fit = fit_text(text, ts, fonts, ICONS, {}, lang, w, h)
            if quick_fits(text, ts, fonts, ICONS, {}, w, h):
                said_yes += 1  # sure at full size: reportlab agrees, at full size
                assert fit.overflow is None and fit.size == ts.size, text
            else:
                said_no += 1
            low = replace(ts, size=smallest_size(ts))
            if quick_fits(text, low, fonts, ICONS, {}, w, h):
                assert fit.overflow is None, text  # sure at the smallest size: no overflow
    assert said_yes > 100 and said_no > 100  # both answers were exercised


def test_quick_check_defers_what_it_cannot_know(fonts: FontSet) -> None:
    ts = TextStyle(size=9)
    wide = pt(200)
    assert quick_fits("plain words", ts, fonts, ICONS, {}, wide, pt(50))
    assert not quick_fits("an {unknown} token", ts, fonts, ICONS, {}, wide, pt(50))
    assert not quick_fits("漢字", ts, fonts, ICONS, {}, wide, pt(50))  # not in the main font
    long_word = "Donaudampfschifffahrtsgesellschaft"
    assert not quick_fits(long_word, ts, fonts, ICONS, {}, pt(30), pt(50))
    assert not quick_fits("word " * 400, ts, fonts, ICONS, {}, wide, pt(50))


def test_smallest_size() -> None:
    assert smallest_size(TextStyle(size=10, min_size=7)) == 7
    assert smallest_size(TextStyle(size=10)) == 7.0  # 70 %, in quarter points
    assert smallest_size(TextStyle(size=9)) == 6.25
    assert smallest_size(TextStyle(size=10, min_size=7, fit="none")) == 10


@pytest.mark.parametrize("lang", ["en", "it", "de"])
def test_remembered_hyphenation_breaks_lines_like_reportlab(fonts: FontSet, lang: str) -> None:
    from pnp.typeset.text import hyphenation_language, parse

    ts = TextStyle(size=8.5)
    ours = _make_style(ts, fonts, 8.5, lang)
    assert callable(ours.hyphenationLang)  # the memoised hyphenator, not a language name
    theirs = replace_style(ours, hyphenation_language(lang))
    for text in _texts(11, 40):
        for runs in parse(text, ICONS, {}):
            xml = to_xml(runs, fonts, "regular", 8.5)
            a, b = Paragraph(xml, ours), Paragraph(xml, theirs)
            assert a.wrap(pt(45), 1e6) == b.wrap(pt(45), 1e6)
            assert _lines(a) == _lines(b)


def replace_style(style: object, lang: str) -> object:
    from reportlab.lib.styles import ParagraphStyle

    assert isinstance(style, ParagraphStyle)
    return ParagraphStyle("reportlab", parent=style, hyphenationLang=lang)


def _lines(para: Paragraph) -> list[str]:
    out = []
    for line in para.blPara.lines:
        if isinstance(line, tuple):
            out.append(" ".join(str(w) for w in line[1]))
        else:
            out.append(" ".join(str(getattr(w, "text", "")) for w in line.words))
    return out


def test_shrink_finds_the_largest_size_that_fits_in_few_attempts(
    fonts: FontSet, monkeypatch: pytest.MonkeyPatch
) -> None:
    import pnp.typeset.text as text_module

    ts = TextStyle(size=9.0, min_size=6.0, leading=1.2)
    calls: list[float] = []
    real = text_module._measure

    def counting(*args: object) -> object:
        calls.append(args[3])  # type: ignore[arg-type]
        return real(*args)  # type: ignore[arg-type]

    shrunk = 0
    attempts: list[int] = []
    for text in _texts(11, 60):
        w, h = pt(50), pt(35)
        # every quarter point from the largest down, measured one by one
        largest = None
        for q in range(36, 23, -1):
            one = fit_text(
                text, replace(ts, size=q / 4, min_size=q / 4), fonts, ICONS, {}, "en", w, h
            )
            if one.overflow is None:
                largest = q / 4
                break
        calls.clear()  # outside of a run, nothing fitted before is remembered
        monkeypatch.setattr(text_module, "_measure", counting)
        fit = fit_text(text, ts, fonts, ICONS, {}, "en", w, h)
        monkeypatch.setattr(text_module, "_measure", real)
        if largest is None:
            assert fit.overflow is not None, text
            continue
        assert fit.overflow is None and fit.size == largest, text
        if largest < ts.size:
            shrunk += 1
            attempts.append(len(calls))
    assert shrunk >= 10  # the search was exercised
    # a shrunk text needs at least 3 attempts (the full size, the answer, a quarter point
    # more; 2 when that is the full size); halving 13 sizes takes 5 or 6
    assert sum(attempts) / len(attempts) <= 3.5, attempts


@pytest.mark.parametrize("lang", ["en", "it"])
def test_direct_fragments_equal_what_reportlab_parses(
    fonts: FontSet, lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import pnp.typeset.markup as markup_module

    direct_used = 0

    def counting(text: str, style: object, frags: object = None) -> Paragraph:
        nonlocal direct_used
        direct_used += frags is not None
        return Paragraph(text, style, frags=frags)

    monkeypatch.setattr(markup_module, "Paragraph", counting)

    icons = {
        "coin": IconSpec(glyph="₽"),
        "hot": IconSpec(glyph="★", color="#c62828"),
        "bolt": IconSpec(glyph="⚡", face="bold", color="red"),
    }
    extra = ["A&B", "<tag>", "x\u00a0y", "Ωμέγα", "{hot}", "{bolt}", "“quoted”", "a&amp;b"]
    rng = random.Random(5)
    texts = [
        " ".join(rng.choice(WORDS + extra) for _ in range(rng.randint(1, 30))) for _ in range(150)
    ]
    ts = TextStyle(size=8.5, leading=1.2)
    style = _make_style(ts, fonts, 8.5, lang)
    for text in texts:
        for runs in markup_module.parse(text, icons, {}):
            m1, m2 = markup_module.Missing(), markup_module.Missing()
            direct = markup_module.make_paragraph(runs, fonts, ts.face, 8.5, m1, style)
            xml = to_xml(runs, fonts, ts.face, 8.5, m2)
            parsed = Paragraph(xml or "&nbsp;", style)
            assert m1 == m2
            assert [vars(f) for f in direct.frags] == [vars(f) for f in parsed.frags], text
            direct.wrap(pt(50), 1e6)
            parsed.wrap(pt(50), 1e6)
            assert _lines(direct) == _lines(parsed), text
    assert direct_used > 50  # the parser was skipped that often


def test_marks_split_like_the_plain_pattern() -> None:
    """The mark regex has a lookahead in front for speed; it must split exactly as the
    pattern without it (every mark starts with *, _ or {)."""
    import re

    from pnp.typeset.markup import _MARK_RE

    plain = re.compile(r"(\*\*|(?<![\w])_(?=\S)|(?<=\S)_(?![\w])|\{[A-Za-z_][A-Za-z0-9_.-]*\})")
    pieces = ["**", "_", "{coin}", "{a_b}", "{_x.y-z}", "snake_case", "a", " ", "*", "{", "}"]
    pieces += ["_a_", "__", "x_", "_x", "3", "₽", "\n", "é", "{1}", "**_", "_**"]
    rng = random.Random(3)
    texts = ["", "_", "**", "{coin}", "**bold** and _italic_ {coin} snake_case {a_b}"]
    texts += ["".join(rng.choice(pieces) for _ in range(rng.randint(1, 12))) for _ in range(3000)]
    for text in texts:
        assert _MARK_RE.split(text) == plain.split(text), text


def test_typeset_names_stay_importable() -> None:
    """Every name faces.py and text.py defined before faces became a package and the markup
    moved to pnp.typeset.markup."""
    import pnp.typeset.faces as faces
    import pnp.typeset.text as text

    face_names = [
        "BUILTIN_LAYOUTS",
        "DEFAULT_ACCENT",
        "DEFAULT_TEXT",
        "FaceEngine",
        "FillOp",
        "ImageOp",
        "LayoutCycle",
        "MAX_EXTENDS",
        "MAX_TEMPLATE_CHARS",
        "Op",
        "Resolved",
        "StrokeOp",
        "TEMPLATE_SECONDS",
        "TableOp",
        "TextIssue",
        "TextOp",
        "TrackOp",
        "build_table",
        "builtin_layouts",
        "cell_text",
        "face_id",
        "face_layout_id",
        "flatten",
        "layout_table",
        "resolve_layout",
        "table_fit_size",
    ]
    text_names = [
        "ALIGN",
        "FIT_CACHE_SIZE",
        "Fit",
        "IconSpec",
        "Missing",
        "PARAGRAPH_GAP",
        "Run",
        "TOKEN_RE",
        "TextStyle",
        "escape",
        "fit_text",
        "hyphenation_language",
        "markup_signature",
        "normalise_spaces",
        "parse",
        "quick_fits",
        "runs_fit",
        "smallest_size",
        "to_xml",
        "tokens",
    ]
    for module, names in ((faces, face_names), (text, text_names)):
        for name in names:
            assert name in module.__all__ and hasattr(module, name), (module.__name__, name)
    assert faces.BUILTIN_LAYOUTS.is_file()
