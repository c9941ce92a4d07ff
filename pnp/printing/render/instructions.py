"""Printing instructions for the first page, written from the options of the build and its page
plan, in the build language: 100 %, which pages to print double-sided and on which edge, how to
glue or fold instead, the paper and card the sheets are made for, how to cut, the bleed, the
back offset, and the scale bar that checks the scale."""

from __future__ import annotations

from collections.abc import Callable

from babel.numbers import format_decimal

from ...core.units import PAPERS
from ..imposition import SCALE_BAR, Options, Page, double_sided_pages

Word = Callable[[str], str]

# the sentences, as pnp's sheet words (pnp.i18n.words): each build prints those of its options
HEADING = "How to print"
ALWAYS = "Print at 100 % (actual size), never “fit to page”."
PAPER = (
    "This copy is laid out for {paper} paper ({size} mm); nothing is printed within "
    "{margin} mm of its edges."
)
STOCK = (
    "Cards, tokens and boards are best on thin card (160–220 g/m²) if your printer takes "
    "it, or on paper glued onto card."
)
CUT = "Cut cards and boards on the crop marks, tokens on their outlines."
INK = "Backs shared by a deck are printed plain, without their colours and art, to save ink."
PAPER_NAMES = {"letter": "Letter"}  # sheet words; other papers print their id in capitals
SCALE = (
    "The scale bar beside the cards, tokens and board tiles measures {length} mm when the "
    "scale is right."
)
DUPLEX = {
    "long": "Print pages {first}–{last} double-sided, flipping on the long edge.",
    "short": "Print pages {first}–{last} double-sided, flipping on the short edge.",
}
SINGLE_REST = (
    "Print pages {first}–{last} single-sided: they are cut or glued, so their backs stay blank."
)
SINGLE_ONE = "Print page {n} single-sided: it is cut or glued, so its back stays blank."
SINGLE_ALL = "Print single-sided: no sheet has a back."
GLUE = (
    "Print single-sided. Each page of backs follows its page of fronts and is mirrored for "
    "gluing: turn it over from left to right, like the page of a book, lay it behind its fronts "
    "with the crop marks lined up, and glue."
)
FOLD = (
    "Print single-sided. Fold each sheet on the dashed line with the faces outwards, glue the "
    "two halves together, then cut."
)
BLEED = "Cards have {bleed} mm of bleed: cut on the crop marks, not on the edge of the colour."
OFFSET = "Backs are shifted by {x} mm across and {y} mm down to match your printer (--back-offset)."
MESSAGES = (
    HEADING,
    ALWAYS,
    PAPER,
    STOCK,
    CUT,
    INK,
    *PAPER_NAMES.values(),
    SCALE,
    *DUPLEX.values(),
    SINGLE_REST,
    SINGLE_ONE,
    SINGLE_ALL,
    GLUE,
    FOLD,
    BLEED,
    OFFSET,
)


def print_advice(word: Word, layout: Options, pages: list[Page], lang: str) -> list[str]:
    """How to print this build, sentence by sentence, for the box on the first page; ``word``
    gives pnp's sheet words in the build language, ``pages`` is the document's plan."""

    def number(value: float) -> str:
        return format_decimal(value, locale=lang)

    sentences = [word(ALWAYS), _how(word, layout, pages)]
    paper = PAPERS[layout.paper]
    name = word(PAPER_NAMES[layout.paper]) if layout.paper in PAPER_NAMES else layout.paper.upper()
    size = f"{number(round(paper.w, 1))} × {number(round(paper.h, 1))}"
    sentences.append(word(PAPER).format(paper=name, size=size, margin=number(layout.margin)))
    if any(p.slots for p in pages):
        sentences += [word(STOCK), word(CUT)]
    if layout.ink_saver and any(p.side == "back" and p.slots for p in pages):
        sentences.append(word(INK))
    if layout.bleed > 0:
        sentences.append(word(BLEED).format(bleed=number(layout.bleed)))
    x, y = layout.back_offset
    if (x, y) != (0.0, 0.0) and not layout.fold:
        sentences.append(word(OFFSET).format(x=number(x), y=number(y)))
    sentences.append(word(SCALE).format(length=number(SCALE_BAR)))
    return [s for s in sentences if s]


def _how(word: Word, layout: Options, pages: list[Page]) -> str:
    """Double-sided (which pages, which edge), glued or folded."""
    if layout.fold:  # what is too large to fold is printed as fronts and backs, to glue
        backs = any(p.side == "back" for p in pages)
        return word(FOLD) + (" " + word(GLUE) if backs else "")
    if layout.duplex == "none":
        return word(GLUE)
    last = double_sided_pages(pages, layout)
    if last == 0:
        return word(SINGLE_ALL)
    text = word(DUPLEX[layout.duplex]).format(first=1, last=last)
    if last == len(pages) - 1:
        text += " " + word(SINGLE_ONE).format(n=len(pages))
    elif last < len(pages):
        text += " " + word(SINGLE_REST).format(first=last + 1, last=len(pages))
    return text
