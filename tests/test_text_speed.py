"""The shortcuts taken for the speed of text change nothing: reportlab's line breaking with
pnp's memo of widths and its fragment comparison (pnp/compat/reportlab.quick_line_breaking)
breaks every line as reportlab alone does, and a build draws the same bytes with them.
(How fast text is lives in benchmarks/, never in timed tests.)"""

from __future__ import annotations

import hashlib
import random
import threading
from pathlib import Path
from typing import Any

import pytest
from reportlab.lib.rl_accel import sameFrag
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Paragraph
from reportlab.platypus import paragraph as rl_paragraph

from pnp.compat import reportlab as rl
from pnp.core.units import pt
from pnp.typeset.fonts import FontSet, fontset
from pnp.typeset.text import IconSpec, TextStyle, _make_style, to_xml

from helpers import REPO, WORDS, new_run

ICONS = {"coin": IconSpec(glyph="₽"), "hot": IconSpec(glyph="★", color="#c62828")}

# reportlab markup beyond pnp's, so that every kind of fragment meets every other
MARKUP = [
    'a <font color="red">red</font> word',
    'some <span backColor="yellow">marked</span> and <span backColor="#ffff00">more</span> text',
    "up<super>2</super> and down<sub>x</sub>, <u>under</u> <strike>struck</strike>",
    'a <a href="https://example.org">link</a> then <link href="#x">another</link>',
    "<nobr>no break here at all</nobr> then more words to break",
    "first line<br/>second line<br/>",
    '<font name="Courier" size="7">small mono</font> <b>bold</b> <i>italic</i>',
    "soft\xadhyphen\xadated and non\u00a0breaking",
    '<img src="{image}" width="8" height="8"/> an icon, then <font size="12">big</font>',
]


@pytest.fixture(scope="module")
def fonts() -> FontSet:
    return fontset(REPO / "pnp" / "data" / "fonts", "NotoSans", ["DejaVuSans"])


@pytest.fixture(scope="module")
def image(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from PIL import Image

    path = tmp_path_factory.mktemp("icon") / "icon.png"
    Image.new("RGB", (4, 4), (200, 30, 30)).save(path)
    return path


def _texts(seed: int, count: int, extra: list[str]) -> list[str]:
    rng = random.Random(seed)
    return [
        " ".join(rng.choice(WORDS + extra) for _ in range(rng.randint(1, 45))) for _ in range(count)
    ]


def _xml_paragraphs(
    fonts: FontSet, image: Path, lang: str, size: float
) -> list[tuple[str, ParagraphStyle]]:
    """reportlab XML for pnp's markup in every face and reportlab's own markup, with the style
    pnp makes (remembered hyphenation) and plain reportlab styles."""
    from pnp.typeset.markup import Missing, parse

    markup = [m.replace("{image}", str(image)) for m in MARKUP]
    out: list[tuple[str, ParagraphStyle]] = []
    for face in ("regular", "bold", "italic"):
        style = _make_style(TextStyle(face=face, size=size, align="justify"), fonts, size, lang)
        for text in _texts(len(out) + 3, 25, ["A&B", "“quoted”", "{hot}", "Ωμέγα"]):
            for runs in parse(text, ICONS, {}):
                out.append((to_xml(runs, fonts, face, size, Missing()) or "&nbsp;", style))
    plain = ParagraphStyle("plain", fontName="Helvetica", fontSize=size, hyphenationLang=lang)
    for i, text in enumerate(_texts(17, 30, markup)):
        out.append((text, plain if i % 2 else replace_style(plain)))
    return out


def replace_style(style: ParagraphStyle) -> ParagraphStyle:
    return ParagraphStyle("other", parent=style, spaceShrinkage=0.05, embeddedHyphenation=1)


def _broken(xml: str, style: ParagraphStyle, width: float) -> tuple[Any, ...]:
    """Everything breaking a paragraph into lines decides: its size, and each line's space
    left over and its words in their fragments' styles."""
    para = Paragraph(xml, style)
    size = para.wrap(width, 1e6)
    lines = []
    for line in para.blPara.lines:
        if isinstance(line, tuple):
            lines.append((line[0], [str(w) for w in line[1]]))
        else:
            words = [(w.text, w.fontName, w.fontSize, str(w.textColor)) for w in line.words]
            lines.append((line.extraSpace, line.ascent, line.descent, words))
    return size, para.blPara.kind, lines


@pytest.mark.parametrize("lang", ["en", "it", "de"])
def test_quick_line_breaking_breaks_lines_as_reportlab_does(
    fonts: FontSet, image: Path, lang: str
) -> None:
    paragraphs = _xml_paragraphs(fonts, image, lang, 8.5)
    memo: dict[Any, Any] = {}
    for width in (pt(22), pt(45)):
        theirs = [_broken(xml, style, width) for xml, style in paragraphs]
        with rl.quick_line_breaking(memo):
            assert rl_paragraph.sameFrag is rl.same_fragment  # in force
            ours = [_broken(xml, style, width) for xml, style in paragraphs]
        for (xml, _style), a, b in zip(paragraphs, theirs, ours, strict=True):
            assert a == b, xml
    assert len(memo) > 100  # reportlab looked its widths up through the memo
    assert rl_paragraph.sameFrag is sameFrag  # and has its own functions back


class Slotted:
    """Something that is not an attribute bag, with no ``__dict__``."""

    __slots__ = ("fontName",)

    def __init__(self, font: str) -> None:
        self.fontName = font


def test_same_fragment_answers_as_reportlab(fonts: FontSet, image: Path) -> None:
    frags: list[Any] = []
    for xml, style in _xml_paragraphs(fonts, image, "en", 9):
        para = Paragraph(xml, style)
        frags.extend(para.frags)
        para.wrap(pt(30), 1e6)
        for line in para.blPara.lines:
            frags.extend(getattr(line, "words", ()))
    base = frags[0]
    # an attribute present as None is not an absent one; a line break or an image never joins
    frags += [base.clone(backColor=None), base.clone(nobr=False), base.clone(lineBreak=True)]
    frags += [base.clone(link=[]), base.clone(textColor=None), base.clone(cbDefn=object())]
    rng = random.Random(1)
    pairs = [(f, f.clone()) for f in frags] + [(f, f) for f in frags]
    pairs += [(Slotted("Helvetica"), Slotted("Helvetica")), (Slotted("A"), Slotted("B"))]
    pairs += [(rng.choice(frags), rng.choice(frags)) for _ in range(20_000)]
    same = 0
    for f, g in pairs:
        assert rl.same_fragment(f, g) == sameFrag(f, g), (vars(f), vars(g))
        same += rl.same_fragment(f, g)
    assert 0.05 * len(pairs) < same < 0.95 * len(pairs)  # both answers were exercised


def test_quick_line_breaking_nests_and_runs_in_threads() -> None:
    originals = (rl_paragraph.stringWidth, rl_paragraph.getAscentDescent, rl_paragraph.sameFrag)
    style = ParagraphStyle("s", fontName="Helvetica", fontSize=10)
    expected = _broken("a few words that wrap over several lines", style, 40)
    seen: list[tuple[Any, ...]] = []
    errors: list[BaseException] = []

    def work() -> None:
        try:
            for _ in range(30):
                with rl.quick_line_breaking({}):
                    seen.append(_broken("a few words that wrap over several lines", style, 40))
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    with rl.quick_line_breaking({}):
        with rl.quick_line_breaking({}):
            assert rl_paragraph.sameFrag is rl.same_fragment
        assert rl_paragraph.sameFrag is rl.same_fragment  # the outer block still holds
        threads = [threading.Thread(target=work) for _ in range(4)]
        for t in threads:
            t.start()
    for t in threads:
        t.join()
    assert not errors and len(seen) == 120 and all(s == expected for s in seen)
    now = (rl_paragraph.stringWidth, rl_paragraph.getAscentDescent, rl_paragraph.sameFrag)
    assert now == originals


class Document:
    """Stands for a PDF document: fonts keep their state per document, by weak reference."""


def _fresh_font(name: str, path: Path) -> Any:
    from reportlab.pdfbase.ttfonts import TTFont

    return TTFont(name, str(path))


def test_quick_subsets_split_text_as_reportlab_does() -> None:
    """The same strings through a font split by pnp and by reportlab alone, each on its own
    document: the same pieces, and the same characters placed in the same subsets."""
    from reportlab.pdfbase.ttfonts import TTFont

    path = REPO / "pnp" / "data" / "fonts" / "DejaVuSans.ttf"  # many glyphs: several subsets
    ours, theirs = _fresh_font("pnp-quick", path), _fresh_font("pnp-plain", path)
    rl.quick_subsets(ours)
    assert "splitString" in vars(ours) and "splitString" not in vars(theirs)
    rl.quick_subsets(ours)  # twice: nothing more
    doc_ours, doc_theirs = Document(), Document()
    rng = random.Random(2)
    letters = "abcdefghij klmnopqrstuvwxyz ABC 0123 ,.;:!?\u00a0\u00a0éèàüß"
    wide = [chr(c) for c in range(0x100, 0x600) if c % 3 == 0]  # beyond the first subset
    strings: list[str] = ["", "\u00a0", "a\u00a0b", "\uffff\U0001f600 not in the font"]
    for i in range(3000):
        pool = letters if i % 10 else letters + "".join(wide)
        strings.append("".join(rng.choice(pool) for _ in range(rng.randint(0, 40))))
    strings.append(type("Word", (str,), {})("a str subclass, as hyphenated pieces are"))
    fast = 0
    original = TTFont.splitString
    for text in strings:
        got = ours.splitString(text, doc_ours)
        want = theirs.splitString(text, doc_theirs)
        assert got == want, text
        fast += original(ours, text, doc_ours) == got  # placed already: the same again
    a, b = ours.state[doc_ours], theirs.state[doc_theirs]
    assert a.assignments == b.assignments and a.subsets == b.subsets and len(a.subsets) >= 2
    assert fast == len(strings)


def test_drawing_takes_the_quick_subsets(fonts: FontSet, monkeypatch: pytest.MonkeyPatch) -> None:
    """pnp's fonts are registered with the quick split, and drawing text goes through it."""
    import io

    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen.canvas import Canvas

    loops = 0
    original = TTFont.splitString

    def counting(self: Any, text: Any, doc: Any, encoding: str = "utf-8") -> Any:
        nonlocal loops
        loops += 1
        return original(self, text, doc, encoding)

    font = pdfmetrics.getFont(fonts.main.font("regular"))
    assert "splitString" in vars(font)  # registered by pnp: quick
    monkeypatch.delattr(font, "splitString")  # again, over a counted loop (put back after)
    monkeypatch.setattr(TTFont, "splitString", counting)
    rl.quick_subsets(font)
    canvas = Canvas(io.BytesIO())
    canvas.setFont(font.fontName, 9)
    for i in range(200):
        canvas.drawString(10, 10 + i, "the same few letters, again and again")
    assert 0 < loops < 5  # the first string places its letters; the others are translated


def _pdf_digests(out: Path, game: str) -> dict[str, str]:
    from pnp.build import pipeline
    from pnp.build.options import BuildOptions
    from pnp.content.load import open_root
    from pnp.core.findings import Report

    new_run()
    report = Report()
    outputs = pipeline.build(
        open_root(REPO), [game], BuildOptions(out_dir=out, force=True, jobs=1), report
    )
    assert not report.has_errors(), report.format_text()
    return {o.path.name: hashlib.sha256(o.path.read_bytes()).hexdigest() for o in outputs}


def test_a_build_draws_the_same_bytes_without_the_shortcuts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import contextlib

    from reportlab.pdfbase import pdfmetrics

    import pnp.typeset.text as text_module

    quick = _pdf_digests(tmp_path / "quick", "fabg")
    monkeypatch.setattr(text_module, "quick_line_breaking", lambda memo: contextlib.nullcontext())
    split = 0
    for name in pdfmetrics.getRegisteredFontNames():
        font = pdfmetrics.getFont(name)
        if "splitString" in vars(font):  # pnp's fonts: back to reportlab's own split
            monkeypatch.delattr(font, "splitString")
            split += 1
    plain = _pdf_digests(tmp_path / "plain", "fabg")
    assert split >= 4 and quick and quick == plain
