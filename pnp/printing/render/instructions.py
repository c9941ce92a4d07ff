"""Printing instructions for the setup sheet, written from the options of the build and its page
plan, in the build language: which pages to print double-sided and on which edge, how to glue
or fold instead, the bleed, the back offset, and where the scale bar is."""

from __future__ import annotations

from collections.abc import Callable

from babel.numbers import format_decimal

from ..imposition import SCALE_BAR, Options, Page, double_sided_pages

Word = Callable[[str], str]

# the sentences, as pnp's sheet words (pnp.i18n.words): each build prints those of its options
ALWAYS = "How to print: at 100 % (actual size), never “fit to page”."
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
    ALWAYS,
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


def print_advice(word: Word, layout: Options, pages: list[Page], lang: str) -> str:
    """How to print this build, for the setup sheet; ``word`` gives pnp's sheet words in the
    build language, ``pages`` is the document's plan."""

    def number(value: float) -> str:
        return format_decimal(value, locale=lang)

    sentences = [word(ALWAYS), _how(word, layout, pages)]
    if layout.bleed > 0:
        sentences.append(word(BLEED).format(bleed=number(layout.bleed)))
    x, y = layout.back_offset
    if (x, y) != (0.0, 0.0) and not layout.fold:
        sentences.append(word(OFFSET).format(x=number(x), y=number(y)))
    sentences.append(word(SCALE).format(length=number(SCALE_BAR)))
    return " ".join(s for s in sentences if s)


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
