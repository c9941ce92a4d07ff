"""Text fitting: the largest size at which a text fits its box, and a quick check that it does.

The text is card markup (:mod:`pnp.typeset.markup`: bold, italic, inline icons, font
fallback); hyphenation follows the build language. Fitting is a pure function of the text, the
box and the fonts, so that validation can report overflow per language without rendering, and
rendering draws exactly what was measured. The markup names are available here too.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

import pyphen
from reportlab.lib.enums import TA_CENTER, TA_JUSTIFY, TA_LEFT, TA_RIGHT
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Paragraph
from reportlab.platypus.flowables import Flowable

from ..compat.reportlab import quick_line_breaking, wrapped_lines
from ..core.run import current
from .fonts import Family, FontSet
from .layout import ShapedParagraph, shaped_paragraph
from .layout import rl_color as _rl_color
from .markup import (
    TOKEN_RE,
    IconSpec,
    Missing,
    Run,
    escape,
    face_of,
    laid_out,
    make_paragraph,
    markup_signature,
    normalise_spaces,
    parse,
    to_xml,
    tokens,
)
from .scripts import needs_layout

__all__ = [
    "ALIGN",
    "FIT_CACHE_SIZE",
    "PARAGRAPH_GAP",
    "TOKEN_RE",
    "Fit",
    "IconSpec",
    "Missing",
    "Run",
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

ALIGN = {"left": TA_LEFT, "center": TA_CENTER, "right": TA_RIGHT, "justify": TA_JUSTIFY}
PARAGRAPH_GAP = 0.35  # blank-line paragraph spacing, as a fraction of the font size


# languages whose print shows no hyphen where a word breaks, though pyphen has a dictionary
# for them (Thai's splits syllables for word processors): their lines break between words
NO_HYPHEN = frozenset({"th"})


@functools.lru_cache(maxsize=64)
def hyphenation_language(lang: str) -> str:
    """The pyphen dictionary for a locale code, or '' when there is none. Right-to-left
    languages, the Indic and Thai scripts have none (pnp's layout breaks their lines between
    words, :mod:`pnp.typeset.layout`)."""
    if lang.replace("-", "_").split("_")[0] in NO_HYPHEN:
        return ""
    try:
        found = pyphen.language_fallback(lang.replace("-", "_"))
    except Exception:  # pragma: no cover - pyphen raises plain errors on odd input
        found = None
    return found or ""


@dataclass(frozen=True)
class TextStyle:
    face: str = "regular"
    size: float = 9.0
    min_size: float | None = None
    leading: float = 1.2
    align: str = "left"
    color: str = "#000000"
    hyphenate: bool = True
    fit: str = "shrink"
    ink: str | None = None  # every character in this colour (a shadow), whatever its markup


@dataclass
class Fit:
    """The outcome of fitting a text into a box."""

    size: float
    paragraphs: list[Flowable]  # reportlab Paragraphs, or pnp's ShapedParagraphs
    height: float  # points
    overflow: str | None  # None, "vertical" or "horizontal"
    missing: Missing
    widest: float = 0.0  # points
    line: tuple[str, str, str] | None = None  # one plain line: (text, font name, colour)
    align: str = "left"


@functools.lru_cache(maxsize=200_000)
def _width(text: str, font: str, size: float) -> float:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    return float(stringWidth(text, font, size))


def smallest_size(ts: TextStyle) -> float:
    """The smallest size shrink-to-fit may use: ``min_size``, else 70 % (quarter points)."""
    if ts.fit == "none":
        return ts.size
    return ts.min_size or round(ts.size * 0.7 * 4) / 4


def quick_fits(
    text: str,
    ts: TextStyle,
    fonts: FontSet,
    icons: Mapping[str, IconSpec],
    values: Mapping[str, object],
    width: float,
    height: float,
) -> bool:
    """True when the text surely fits at its full size: greedy line breaking on word widths.

    Hyphenation can only make lines shorter, so a text that fits without it fits with it. Any
    doubt (a word wider than the box, a character the main font lacks, an unknown {token}, a
    tight fit) returns False and the caller measures with reportlab instead.
    """
    return runs_fit(parse(text, icons, values), ts, fonts, width, height)


class _Widths(dict[str, float]):
    """Widths of words in one font at one size, each measured once."""

    def __init__(self, font: str, size: float) -> None:
        super().__init__()
        self.font = font
        self.size = size

    def __missing__(self, word: str) -> float:
        from reportlab.pdfbase.pdfmetrics import stringWidth

        width = self[word] = float(stringWidth(word, self.font, self.size))
        return width


_WIDTHS: dict[tuple[str, float], _Widths] = {}


def _widths(font: str, size: float) -> _Widths:
    table = _WIDTHS.get((font, size))
    if table is None or len(table) > 100_000:
        if len(_WIDTHS) > 64:
            _WIDTHS.clear()
        table = _WIDTHS[(font, size)] = _Widths(font, size)
    return table


def runs_fit(
    paragraphs: list[list[Run]], ts: TextStyle, fonts: FontSet, width: float, height: float
) -> bool:
    """:func:`quick_fits` for a text already parsed (the runs do not depend on the size)."""
    size = ts.size
    leading = size * ts.leading
    total = 0.0
    main = fonts.main
    space = _width(" ", main.font(ts.face), size)
    # (bold, italic) of a run -> its face, and the widths of words in its font
    styles: dict[tuple[bool, bool], tuple[str, _Widths]] = {}
    for p_index, runs in enumerate(paragraphs):
        if any(run.scale != 1.0 for run in runs):
            return False  # a span of another size: measured exactly
        broken = _break_lines(runs, ts, main, styles, space, width)
        if broken is None:
            return False
        lines, line, word = broken
        if word:  # the paragraph's last word
            if line and line + space + word > width:
                lines += 1
            elif word > width:
                return False
        total += lines * leading + (size * PARAGRAPH_GAP if p_index else 0.0)
    return total <= height - 1.0  # a point of margin against rounding


def _break_lines(
    runs: list[Run],
    ts: TextStyle,
    main: Family,
    styles: dict[tuple[bool, bool], tuple[str, _Widths]],
    space: float,
    width: float,
) -> tuple[int, float, float] | None:
    """Greedy line breaking of one paragraph on word widths: its lines, the last one's width
    and the width of the word still to place (a word may span runs). None on any doubt: a
    character or icon the main font lacks, an unknown {token}, a line break, a word too wide."""
    size = ts.size
    lines = 1
    line = 0.0
    word = 0.0
    for run in runs:
        style = styles.get((run.bold, run.italic))
        if style is None:  # the first run in this style: its face, the widths in its font
            base_bold = ts.face in ("bold", "bolditalic")
            base_italic = ts.face in ("italic", "bolditalic")
            face = face_of(run.bold != base_bold, run.italic != base_italic)
            style = styles[(run.bold, run.italic)] = (face, _widths(main.font(face), size))
        face, widths = style
        if run.icon is not None:
            if run.icon.image:
                word += size * 1.05
                continue
            glyph = run.icon.glyph or ""
            gface = run.icon.face or face
            if not main.covers(gface, glyph):
                return None
            word += _width(glyph, main.font(gface), size)
            continue
        piece = run.text
        if _doubtful(piece, face, main):
            return None
        parts = piece.split(" ")
        first = parts[0]
        if first:
            word += widths[first]
            if word > width:
                return None  # too long for a line: hyphenation or overflow decides
        for part in parts[1:]:  # a space ends the word before each of these
            if word:
                if line and line + space + word > width:
                    lines += 1
                    line = word
                else:
                    line = line + space + word if line else word
            if part:
                word = widths[part]
                if word > width:
                    return None
            else:
                word = 0.0
    return lines, line, word


def _doubtful(piece: str, face: str, main: Family) -> bool:
    """A piece of text greedy breaking cannot measure: an unknown {token}, a line break, a
    script that needs shaping or right-to-left layout, a character the main font lacks."""
    return (
        (piece.startswith("{") and piece.endswith("}"))
        or "\n" in piece
        or needs_layout(piece)
        or (not main.covers(face, piece) and not main.covers(face, piece.replace(" ", "")))
    )


def _single_line(
    paragraphs: list[list[Run]],
    ts: TextStyle,
    fonts: FontSet,
    width: float,
    height: float,
    lang: str = "",
) -> Fit | None:
    """The fast path: a plain one-line text that fits at its full size needs no Paragraph."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    if len(paragraphs) != 1 or len(paragraphs[0]) != 1 or ts.align == "justify":
        return None
    if laid_out(paragraphs[0], lang):
        return None  # shaped, or right to left: pnp's layout
    run = paragraphs[0][0]
    text = run.text
    if run.icon is not None or run.bold or run.italic or not text or "\n" in text:
        return None
    if run.color is not None or run.scale != 1.0:
        return None  # a span: its colour or size
    if text.startswith("{") and text.endswith("}"):
        return None  # an unknown {token}: let the full path report it
    if not fonts.main.covers(ts.face, text):
        return None
    font = fonts.main.font(ts.face)
    line_w = stringWidth(text, font, ts.size)
    leading = ts.size * ts.leading
    if line_w > width or leading > height + 0.5:
        return None
    return Fit(ts.size, [], leading, None, Missing(), 0.0, (text, font, ts.color), ts.align)


def _inked(paragraphs: list[list[Run]], ink: str) -> list[list[Run]]:
    """The runs with every colour (a glyph icon's, a span's) made ``ink``: sizes, fonts and
    so line breaks unchanged."""
    out = []
    for runs in paragraphs:
        inked = []
        for run in runs:
            icon = run.icon
            if icon is not None and icon.glyph is not None:
                icon = replace(icon, color=ink)
            inked.append(replace(run, icon=icon, color=ink if run.color else None))
        out.append(inked)
    return out


def _make_style(
    ts: TextStyle, fonts: FontSet, size: float, lang: str, tall: bool = False
) -> ParagraphStyle:
    """The paragraph style of a text at ``size``; ``tall``: a span is larger than the text,
    and the lines it is on grow to hold it."""
    key = (ts, size, lang, fonts.main.font(ts.face), tall)
    styles = current().store("typeset.styles", limit=10_000)
    style = styles.get(key)
    if style is None:
        style = styles[key] = _new_style(ts, fonts, size, lang)
        if tall:
            style.autoLeading = "max"
    return style


@functools.lru_cache(maxsize=64)
def _hyphenator(dictionary: str) -> Callable[[str], tuple[tuple[str, str], ...]]:
    """A word's hyphenation points, remembered: reportlab would otherwise load the dictionary
    for every paragraph and split the same words again on every card."""
    iterate = pyphen.Pyphen(lang=dictionary).iterate

    @functools.lru_cache(maxsize=65_536)
    def pairs(word: str) -> tuple[tuple[str, str], ...]:
        return tuple(iterate(word))

    return pairs


def _new_style(ts: TextStyle, fonts: FontSet, size: float, lang: str) -> ParagraphStyle:
    dictionary = hyphenation_language(lang) if ts.hyphenate else ""
    hyph: object = _hyphenator(dictionary) if dictionary else ""
    return ParagraphStyle(
        "pnp",
        fontName=fonts.main.font(ts.face),
        fontSize=size,
        leading=size * ts.leading,
        alignment=ALIGN.get(ts.align, TA_LEFT),
        textColor=_rl_color(ts.color),
        hyphenationLang=hyph,
        embeddedHyphenation=1,
        hyphenationMinWordLength=8,
        splitLongWords=0,
        uriWasteReduce=0,
        allowWidows=1,
        allowOrphans=1,
    )


def _measure(
    paragraphs: list[list[Run]],
    fonts: FontSet,
    ts: TextStyle,
    size: float,
    lang: str,
    width: float,
    missing: Missing,
) -> tuple[list[Paragraph], float, float]:
    tall = any(r.scale > 1.0 for runs in paragraphs for r in runs)
    style = _make_style(ts, fonts, size, lang, tall)
    paras: list[Flowable] = []
    total = 0.0
    widest = 0.0
    for i, runs in enumerate(paragraphs):
        para: Flowable
        if laid_out(runs, lang):
            para = shaped_paragraph(runs, fonts, ts.face, missing, style, lang)
        else:
            para = make_paragraph(runs, fonts, ts.face, size, missing, style)
        _w, h = para.wrap(width, 1e6)
        paras.append(para)
        total += h + (size * PARAGRAPH_GAP if i else 0.0)
        widest = max(widest, _widest_line(para, width))
    return paras, total, widest


def _widest_line(para: Flowable, width: float) -> float:
    """The widest line made of a single unbreakable word (0 when every line breaks fine).

    reportlab may let a line of several words overhang by a fraction of a point after
    hyphenating; only a word that cannot be broken is a real horizontal overflow.
    """
    if isinstance(para, ShapedParagraph):
        return para.widest
    lines = wrapped_lines(para)
    if lines is None:
        return 0.0
    worst = 0.0
    for line in lines:
        tupled = isinstance(line, tuple)
        extra = line[0] if tupled else getattr(line, "extraSpace", 0.0)
        if extra >= 0:
            continue  # the usual line: it fits (its words are not looked at)
        if tupled:
            words = [str(w) for w in line[1]]
        else:
            words = [str(getattr(w, "text", "")) for w in getattr(line, "words", [])]
        pieces = [p for p in re.split(r"[ \t\n]+", " ".join(words)) if p]
        if len(pieces) <= 1:
            worst = max(worst, width - extra)
    return worst


FIT_CACHE_SIZE = 4096  # enough for a rebuild loop on a game; bounded for 10,000-card decks
METRICS_MEMO_SIZE = 100_000  # widths of words by font and size: about 200 bytes each
FITS = "typeset.fits"  # the run's store of fitted texts


def fit_text(
    text: str,
    ts: TextStyle,
    fonts: FontSet,
    icons: Mapping[str, IconSpec],
    values: Mapping[str, object],
    lang: str,
    width: float,
    height: float,
) -> Fit:
    """Find the largest size (min_size..size, 0.25 pt steps) at which the text fits the box.

    Results are kept for the run (:mod:`pnp.core.run`): validation and the build of the same
    text share one measurement.
    """
    try:
        key: tuple[object, ...] | None = (
            text,
            ts,
            tuple(fonts.main.faces.values()),
            tuple(tuple(f.faces.values()) for f in fonts.fallbacks),
            tuple(sorted(icons.items())),
            tuple(sorted(values.items())),
            lang,
            round(width, 3),
            round(height, 3),
        )
        hash(key)
    except TypeError:
        key = None
    fits = current().store(FITS, limit=FIT_CACHE_SIZE - 1)
    if key is not None and key in fits:
        return fits[key]
    fit = _fit_text(text, ts, fonts, icons, values, lang, width, height)
    if key is not None:
        fits[key] = fit
    return fit


def _fit_text(
    text: str,
    ts: TextStyle,
    fonts: FontSet,
    icons: Mapping[str, IconSpec],
    values: Mapping[str, object],
    lang: str,
    width: float,
    height: float,
) -> Fit:
    paragraphs = parse(text, icons, values)
    if ts.ink is not None:
        paragraphs = _inked(paragraphs, ts.ink)
    simple = _single_line(paragraphs, ts, fonts, width, height, lang)
    if simple is not None:
        return simple
    with quick_line_breaking(current().store("typeset.metrics", limit=METRICS_MEMO_SIZE)):
        return _shrink(paragraphs, ts, fonts, lang, width, height)


def _shrink(
    paragraphs: list[list[Run]],
    ts: TextStyle,
    fonts: FontSet,
    lang: str,
    width: float,
    height: float,
) -> Fit:
    """The largest quarter-point size from ``ts.size`` down to the smallest allowed at which
    the paragraphs fit (or the smallest, overflowing)."""
    top = ts.size
    bottom = smallest_size(ts)
    tolerance = 0.5  # points: reportlab may overhang a line by a fraction of a point

    def attempt(size: float) -> Fit:
        missing = Missing()
        paras, h, widest = _measure(paragraphs, fonts, ts, size, lang, width, missing)
        overflow = None
        if widest > width + tolerance:
            overflow = "horizontal"
        elif h > height + tolerance:
            overflow = "vertical"
        return Fit(size, paras, h, overflow, missing, widest)

    best = attempt(top)
    if best.overflow is None or bottom >= top:
        return best
    # quarter points: ``lo`` is the largest size known to fit (none yet: one below the
    # smallest), ``hi`` the smallest known not to
    bottom_q = round(bottom * 4)
    lo, lo_fit = bottom_q - 1, None
    hi, hi_fit = round(top * 4), best
    aims = 3  # then halving steps: a bound on attempts whatever the heights do
    while hi - lo > 1:
        cand = (lo + hi) // 2
        if aims and hi_fit.overflow == "vertical" and hi_fit.height > 0:
            # aim where the height meets the box: between the two measured heights, or, with
            # one, as if the height grew with the square of the size; on the side that fits
            if lo_fit is not None and lo_fit.height < hi_fit.height:
                share = (height - lo_fit.height) / (hi_fit.height - lo_fit.height)
                q = lo + share * (hi - lo)
            else:
                q = hi * (height / hi_fit.height) ** 0.5
            cand = min(max(math.floor(q), lo + 1), hi - 1)
            aims -= 1
        trial = attempt(cand / 4)
        if trial.overflow is None:
            lo, lo_fit = cand, trial
        elif cand == bottom_q:
            return trial  # even the smallest size overflows
        else:
            hi, hi_fit = cand, trial
    return lo_fit if lo_fit is not None else attempt(bottom)
