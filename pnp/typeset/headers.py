"""Table headers in narrow columns: broken between words, a word too wide hyphenated by the
language's rules (with a hyphen), or the header set a little smaller; never cut mid-word
without a hyphen.

reportlab cuts a word wider than its column wherever the column ends ("Injure|d"). A header
goes through :func:`header_lines` first: it fills lines word by word; a word wider than the
column is set up to 15 % smaller, else hyphenated at the points pyphen gives for the language
(:func:`pnp.typeset.text.hyphenation_language`), down to the smallest size; a word that still
does not fit is cut where it must, with a hyphen, in scripts that hyphenate (never in Arabic,
Hebrew, Indic or Thai script, which pnp breaks between words only). Every line it gives fits
the column, so reportlab breaks no line further. :func:`header_xml` is the paragraph XML of a
header cell, on faces (:mod:`pnp.typeset.faces.tables`) and on the setup sheet alike.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

from .fonts import FontSet
from .markup import TOKEN_RE, IconSpec, parse, to_xml
from .scripts import needs_layout
from .text import _hyphenator, hyphenation_language

HYPHEN = "-"
SHRINK = 0.85  # a header is first set down to this share of its size, unbroken
SMALLEST = 0.7  # then hyphenated, down to this share
STEP = 0.25  # points
SLACK = 0.5  # points kept free on each line: reportlab's measure may differ by a hair


def header_xml(
    text: str,
    width: float,
    fonts: FontSet,
    icons: Mapping[str, IconSpec],
    lang: str,
    size: float,
    face: str = "bold",
) -> str:
    """reportlab paragraph XML of a table header ``width`` points wide (inside the cell's
    padding): the lines of :func:`header_lines` in the game's fonts, inside a
    ``<font size>`` when set smaller than ``size``."""
    lines, used = header_lines(text, width, fonts, face, size, lang)
    runs = [r for p in parse("\n".join(lines), icons, {}) for r in p]
    xml = to_xml(runs, fonts, face, used, lang=lang)
    if used < size - 1e-9 and not hasattr(xml, "runs"):  # pnp's own layout sets its size
        return f'<font size="{used:g}">{xml}</font>'
    return xml


def header_lines(
    text: str, width: float, fonts: FontSet, face: str, size: float, lang: str
) -> tuple[list[str], float]:
    """The lines of a header ``width`` points wide and the size they are set at: at ``size``
    when every word fits; else as large as 85 % of it with no word broken; else hyphenated
    (a hyphen ending the line) as large as 70 % of it, each word broken once if it can be,
    else as often as it needs; else at 70 %, a word too long cut with a hyphen where it must
    be."""
    width = max(width - SLACK, 1.0)
    sizes = [size - k * STEP for k in range(int(size * (1 - SMALLEST) / STEP) + 1)]
    for breaks in (0, 1, 99):  # hyphens a word may take: none, one, as many as it needs
        for s in sizes:
            if not breaks and s < size * SHRINK - 1e-9:
                break
            lines = _lay_out(text, width, fonts, face, s, lang, breaks, force=False)
            if lines is not None:
                return lines, s
    low = sizes[-1]
    lines = _lay_out(text, width, fonts, face, low, lang, 99, force=True)
    return (lines if lines is not None else text.split("\n")), low


def _lay_out(
    text: str,
    width: float,
    fonts: FontSet,
    face: str,
    size: float,
    lang: str,
    breaks: int,
    force: bool,
) -> list[str] | None:
    """Greedy lines of ``text`` (its own line breaks kept); None when a word does not fit and
    may not be broken ``breaks`` times at most (or cannot be, without ``force``)."""
    space = _width(" ", fonts, face, size)
    out: list[str] = []
    for given in text.split("\n"):
        line, used = "", 0.0
        for word in given.split():
            w = _width(word, fonts, face, size)
            if line and used + space + w <= width:
                line, used = f"{line} {word}", used + space + w
                continue
            if w <= width:
                if line:
                    out.append(line)
                line, used = word, w
                continue
            pieces = _pieces(word, width, fonts, face, size, lang, force) if breaks else None
            if pieces is None or len(pieces) > breaks + 1:
                return None
            if line:
                out.append(line)
            out.extend(pieces[:-1])
            line, used = pieces[-1], _width(pieces[-1], fonts, face, size)
        out.append(line)
    return out


def _pieces(
    word: str, width: float, fonts: FontSet, face: str, size: float, lang: str, force: bool
) -> list[str] | None:
    """A word too wide for a line, in pieces that fit, each but the last ending in a hyphen:
    cut where the language hyphenates it, or (``force``) after the last letter that fits;
    None when it cannot be."""
    if TOKEN_RE.fullmatch(word) or needs_layout(word):
        return None  # an icon, or a script pnp never hyphenates
    dictionary = hyphenation_language(lang)
    pieces: list[str] = []
    rest = word
    while _width(rest, fonts, face, size) > width:
        cut = _best_cut(rest, width, fonts, face, size, dictionary)
        if cut is None and force:
            cut = _forced_cut(rest, width, fonts, face, size)
        if cut is None:
            return None
        pieces.append(rest[:cut] + HYPHEN)
        rest = rest[cut:]
    return [*pieces, rest]


def _best_cut(
    word: str, width: float, fonts: FontSet, face: str, size: float, dictionary: str
) -> int | None:
    """Where to hyphenate ``word`` so that its first part and a hyphen fit: the longest such
    part among the language's hyphenation points."""
    if not dictionary:
        return None
    for left, _right in _hyphenator(dictionary)(word):
        if _width(left + HYPHEN, fonts, face, size) <= width:
            return len(left)
    return None


def _forced_cut(word: str, width: float, fonts: FontSet, face: str, size: float) -> int | None:
    """After the last letter (at least two on each side) that fits with a hyphen."""
    for cut in range(len(word) - 2, 1, -1):
        if _width(word[:cut] + HYPHEN, fonts, face, size) <= width:
            return cut
    return None


def _width(text: str, fonts: FontSet, face: str, size: float) -> float:
    """The width of ``text`` in points, each character in the font that prints it (the game's
    font, else a fallback font), an {icon} as wide as an image icon."""
    total = 0.0
    for i, chunk in enumerate(_chunks(text)):
        if i % 2:
            total += size * 1.05  # an {icon}
            continue
        for char in chunk:
            font = fonts.main.font(face)
            if not fonts.main.covers(face, char):
                font = next((f.font(face) for f in fonts.fallbacks if f.covers(face, char)), font)
            total += _char_width(char, font) * size
    return total


def _chunks(text: str) -> list[str]:
    """``text`` split into plain text and {tokens}, alternately (plain first)."""
    out: list[str] = []
    last = 0
    for m in TOKEN_RE.finditer(text):
        out += [text[last : m.start()], m.group(0)]
        last = m.end()
    return [*out, text[last:]]


@functools.lru_cache(maxsize=65_536)
def _char_width(char: str, font: str) -> float:
    """The width of a character at 1 point in a registered font."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    return float(stringWidth(char, font, 1.0))
