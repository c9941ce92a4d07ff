"""Paragraphs in every script: letters shaped, lines laid out right to left where they read so.

reportlab's Paragraph lays out left-to-right text whose letters stand alone. A paragraph that
has letters that join or reorder (Arabic, Devanagari, Thai...), right-to-left letters, or that
prints in a right-to-left language, is laid out here instead:

1. each character in a font that has it (the game's fonts, then pnp's script fonts), as for
   every text (:func:`pnp.typeset.markup.font_segments`);
2. each character's embedding level by the Unicode bidirectional algorithm
   (:mod:`pnp.compat.bidi`), the paragraph's base direction being its language's (CLDR);
3. pieces: the runs of one font, colour and level inside a word, each shaped by harfbuzz
   through reportlab (:func:`pnp.compat.reportlab.shape`): its glyphs in visual order, with
   their advances. Shaped widths do not depend on the size, so a paragraph is shaped once and
   laid out at every size shrink-to-fit tries;
4. lines broken at spaces, greedily; in Thai, Chinese and Japanese also between the phrases
   BudouX finds, and inside a phrase longer than a line between Thai clusters or CJK
   characters (:func:`pnp.typeset.scripts.break_opportunities`); no hyphenation;
5. each line's pieces put in visual order (UAX #9, rule L2) and aligned to the start of the
   line for the language (the right, right to left: a layout's ``left`` is the start, its
   ``right`` the end). A paragraph keeps the language's direction unless it is all in the
   other one (a text left in the source language). Glyphs that stand for several characters
   (conjuncts) carry an ``/ActualText``, so that copying and searching the PDF find them.

:func:`Paragraph` stands in for reportlab's: it lays out a :class:`~.markup.LaidText` here and
hands anything else to reportlab. :func:`draw_line` and :func:`line_width` do the same for one
line drawn on a canvas (sheet labels).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from unicodedata import bidirectional

from reportlab.lib.enums import TA_CENTER, TA_JUSTIFY, TA_LEFT, TA_RIGHT
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Paragraph as _RLParagraph
from reportlab.platypus.flowables import Flowable

from ..compat.bidi import embedding_levels, mirrored
from ..compat.reportlab import (
    begin_actual_text,
    complete_forms,
    draw_drawing,
    end_actual_text,
    shape,
)
from ..core.run import current
from .fonts import FontSet
from .markup import (
    LaidText,
    Missing,
    Run,
    face_of,
    font_segments,
    laid_out,
    paint_of,
    split_paint,
)
from .scripts import break_opportunities, has_rtl, is_rtl

TEXT, SPACE, IMAGE, BREAK = range(4)
_PRIVATE_RE = re.compile("[\ue000-\uf8ff]")
ZWSP = "\u200b"
ICON_SCALE = 1.05  # an image icon's side, as a fraction of the size (as in markup)
Segment = tuple[str, str, str]  # (font, colour, text); ("", "img", path); ("", "br", "")


@functools.lru_cache(maxsize=1024)
def rl_color(value: str) -> object:
    """A reportlab colour object: given a string, reportlab converts it on every draw."""
    from reportlab.lib import colors

    return colors.HexColor(value) if value.startswith("#") else colors.toColor(value)


@dataclass(frozen=True, slots=True)
class Piece:
    """A run of one font, colour and level inside a word, shaped; a space; an image; a break."""

    kind: int
    font: str  # reportlab font name ("" for an image or a break)
    color: str  # "" for the paragraph's colour
    text: str  # what is drawn: glyphs in visual order (an image: its path)
    logical: str  # the characters it stands for, in logical order
    width: float  # at 1 pt
    level: int
    soft: bool = False  # a line may break before it, inside a word


def segments(
    runs: list[Run], fonts: FontSet, base_face: str, missing: Missing | None
) -> tuple[Segment, ...]:
    """The runs as (font, colour, text) segments, each character in a font that has it."""
    out: list[tuple[str, str, str]] = []
    base_bold = base_face in ("bold", "bolditalic")
    base_italic = base_face in ("italic", "bolditalic")
    for run in runs:
        face = face_of(run.bold != base_bold, run.italic != base_italic)
        if run.icon is not None:
            if run.icon.image:
                out.append(("", "img", run.icon.image))
            else:
                paint = paint_of(run.icon.color or run.color or "", run.scale)
                font_segments(
                    run.icon.glyph or "", fonts, run.icon.face or face, missing, paint, out
                )
            continue
        if run.text.startswith("{") and run.text.endswith("}") and missing is not None:
            missing.tokens.add(run.text[1:-1])
        font_segments(run.text, fonts, face, missing, paint_of(run.color or "", run.scale), out)
    merged: list[Segment] = []
    for font, color, text in out:
        if not font and text == "<br/>":
            merged.append(("", "br", ""))
        elif font and merged and merged[-1][0] == font and merged[-1][1] == color:
            merged[-1] = (font, color, merged[-1][2] + text)
        else:
            merged.append((font, color, text))
    return tuple(merged)


@functools.lru_cache(maxsize=65_536)
def _shaped(text: str, font: str, rtl: bool) -> tuple[str, float]:
    """A word shaped in a font (named by its content's digest): a pure function, kept
    between runs as text widths are."""
    drawn, width, _ok = shape(text, font, rtl, mirrored)
    return drawn, width


def base_rtl(text: str, rtl: bool) -> bool:
    """A paragraph's base direction (True: right to left), in a language that reads right to
    left (``rtl``) or not: the language's, unless the paragraph is in the other direction only
    (a text left in the source language, an English sentence in an Arabic game: its full stop
    stays at its end), or has no letters at all (then the language's)."""
    if rtl:
        return has_rtl(text) or not any(bidirectional(c) == "L" for c in text)
    return has_rtl(text) and not any(bidirectional(c) == "L" for c in text)


def prepare(segs: tuple[Segment, ...], rtl: bool) -> tuple[Piece, ...]:
    """A paragraph's segments as pieces in logical order, shaped (``rtl``: whether its
    language reads right to left); kept for the run, for every size shrink-to-fit tries."""
    prepared = current().store("typeset.prepared", limit=4096)
    found = prepared.get((segs, rtl))
    if found is None:
        found = prepared[(segs, rtl)] = _prepare(segs, rtl)
    return found


def _prepare(segs: tuple[Segment, ...], rtl: bool) -> tuple[Piece, ...]:
    chars: list[str] = []
    owner: list[int] = []
    for k, (_font, kind, text) in enumerate(segs):
        if not _font and kind == "img":
            chars.append("\ufffc")
            owner.append(k)
        elif not _font and kind == "br":
            chars.append("\u2028")
            owner.append(k)
        else:
            chars.extend(text)
            owner.extend([k] * len(text))
    logical = "".join(chars)
    base = base_rtl(logical, rtl)
    levels = embedding_levels(logical, base) if base or has_rtl(logical) else (0,) * len(logical)
    joints, soft = break_opportunities(logical)
    return tuple(_pieces(segs, logical, owner, levels, joints, soft))


def _pieces(
    segs: tuple[Segment, ...],
    logical: str,
    owner: list[int],
    levels: tuple[int, ...],
    joints: frozenset[int],
    soft: frozenset[int],
) -> list[Piece]:
    """Pieces: ``joints`` are breaks between words without a space (a zero-width space
    piece), ``soft`` breaks inside a word, used only in a word longer than a line."""
    out: list[Piece] = []
    start = 0
    n = len(logical)
    while start < n:
        font, kind, text = segs[owner[start]]
        ch, level = logical[start], levels[start]
        if start in joints or ch == ZWSP:
            out.append(Piece(SPACE, font, kind, "", "", 0.0, level))
        if not font:
            if kind == "img":
                out.append(Piece(IMAGE, "", "", text, "\ufffc", ICON_SCALE, level, start in soft))
            else:
                out.append(Piece(BREAK, "", "", "", "\n", 0.0, level))
            start += 1
            continue
        scale = split_paint(kind)[1]
        if ch in " \t" or ch == ZWSP:
            if ch != ZWSP:
                width = _shaped(" ", font, False)[1] * scale
                out.append(Piece(SPACE, font, kind, " ", " ", width, level))
            start += 1
            continue
        end = start + 1
        while (
            end < n
            and owner[end] == owner[start]
            and levels[end] == level
            and logical[end] not in " \t\u200b"
            and end not in soft
            and end not in joints
        ):
            end += 1
        piece = logical[start:end]
        drawn, width = _shaped(piece, font, level % 2 == 1)
        out.append(Piece(TEXT, font, kind, drawn, piece, width * scale, level, start in soft))
        start = end
    return out


# --- lines ------------------------------------------------------------------------------------


@dataclass
class Line:
    """One line: its pieces in logical order (no space at either end), its natural width
    (points), whether a line break ends it, and the index of its first piece."""

    pieces: list[Piece]
    width: float
    hard: bool
    first: int


@dataclass
class Lines:
    lines: list[Line] = field(default_factory=list)
    widest: float = 0.0  # the widest piece of a word that could not be broken, when too wide


def break_lines(pieces: tuple[Piece, ...], size: float, width: float) -> Lines:
    """Greedy line breaking: a word goes on the line when it fits, else on the next; a word
    wider than a line is cut between its pieces where it may break (Thai clusters, a
    zero-width space), filling lines."""
    out = Lines()
    cur: list[Piece] = []
    cur_w, first, spaces = 0.0, 0, 0.0  # spaces: the width of those before the next word
    i, n = 0, len(pieces)
    while i < n:
        p = pieces[i]
        if p.kind == BREAK:
            out.lines.append(Line(cur, cur_w, True, first))
            cur, cur_w, first, spaces = [], 0.0, i + 1, 0.0
            i += 1
            continue
        if p.kind == SPACE:
            spaces += p.width * size if cur else 0.0
            i += 1
            continue
        j = i
        while j < n and pieces[j].kind in (TEXT, IMAGE):
            j += 1
        for a, b in _chunks(pieces, i, j, size, width, cur_w + spaces if cur else 0.0):
            cw = sum(q.width for q in pieces[a:b]) * size
            if cur and cur_w + spaces + cw > width + 1e-6:
                out.lines.append(Line(cur, cur_w, False, first))
                cur, cur_w = [], 0.0
            if not cur:
                first, spaces = a, 0.0
            elif spaces:
                cur.extend(_spaces_before(pieces, a))
            if cw > width + 1e-6:
                out.widest = max(out.widest, cw)
            cur.extend(pieces[a:b])
            cur_w += spaces + cw
            spaces = 0.0
        i = j
    if cur or not out.lines:
        out.lines.append(Line(cur, cur_w, False, first))
    return out


def _spaces_before(pieces: tuple[Piece, ...], at: int) -> list[Piece]:
    """The spaces just before piece ``at``, in order."""
    k = at
    while k > 0 and pieces[k - 1].kind == SPACE:
        k -= 1
    return list(pieces[k:at])


def _chunks(
    pieces: tuple[Piece, ...], i: int, j: int, size: float, width: float, used: float
) -> list[tuple[int, int]]:
    """The word ``pieces[i:j]`` whole when it fits a line; else cut where it may break, as
    the rest of the current line (``used`` points taken) and the next lines allow."""
    total = sum(p.width for p in pieces[i:j]) * size
    if total <= width + 1e-6 or not any(p.soft for p in pieces[i + 1 : j]):
        return [(i, j)]
    parts: list[tuple[int, int]] = []
    room = width - used if used else width
    a, cur_w = i, 0.0
    for k in range(i, j):
        w = pieces[k].width * size
        if k > a and pieces[k].soft and cur_w + w > room + 1e-6:
            parts.append((a, k))
            a, cur_w, room = k, 0.0, width
        cur_w += w
    parts.append((a, j))
    return parts


def visual(pieces: list[Piece]) -> list[Piece]:
    """A line's pieces in the order they are drawn, left to right (UAX #9, rule L2)."""
    levels = [p.level for p in pieces]
    if not levels or max(levels) == 0:
        return pieces
    order = list(range(len(pieces)))
    for k in range(max(levels), (min(levels) | 1) - 1, -1):
        i = 0
        while i < len(order):
            if levels[order[i]] >= k:
                j = i
                while j < len(order) and levels[order[j]] >= k:
                    j += 1
                order[i:j] = order[i:j][::-1]
                i = j
            else:
                i += 1
    return [pieces[i] for i in order]


def placed(
    line: Line, size: float, width: float, align: int, rtl: bool, last: bool
) -> list[tuple[float, Piece]]:
    """Where each piece of a line goes: (x from the paragraph's left, piece), left to right.
    ``align`` is reportlab's alignment, read as start and end: right to left, the start of a
    line (``left``) is its right end. A justified line's spaces share what the line lacks,
    but for the last line and a line before a line break, set at the start."""
    pieces = visual(line.pieces)
    extra = width - line.width
    stretch = 0.0
    spaces = sum(1 for p in pieces if p.kind == SPACE)
    if align == TA_CENTER:
        start = extra / 2
    elif align == TA_JUSTIFY and not last and not line.hard and spaces and extra > 0:
        start, stretch = 0.0, extra / spaces
    else:
        start = extra if (align == TA_RIGHT) != rtl else 0.0
    out = []
    x = start
    for p in pieces:
        out.append((x, p))
        x += p.width * size + (stretch if p.kind == SPACE else 0.0)
    return out


# --- drawing ----------------------------------------------------------------------------------


def draw_lines(
    canvas: Any,
    rows: list[tuple[float, list[tuple[float, Piece]]]],
    size: float,
    color: Any,
) -> None:
    """Draw laid-out lines: (baseline y, placed pieces). A piece whose glyphs stand for no
    one character (Indic conjuncts, ligatures: reportlab gives them private-use codes) is
    drawn with an ``/ActualText`` of its characters, so that copying or searching the PDF
    finds them; right-to-left lines need none (readers put visual order back in logical
    order themselves, and an ``/ActualText`` there only confuses PDFium)."""
    canvas.saveState()
    tx = canvas.beginText()
    font: tuple[str, float] = ("", 1.0)
    ink = None
    images = []
    for y, row in rows:
        for x, p in row:
            if p.kind == IMAGE:
                images.append((x, y, p.text))
            elif p.kind == TEXT or (p.kind == SPACE and p.text):  # spaces too: for copying
                paint, scale = split_paint(p.color)
                want = rl_color(paint) if paint else color
                if want is not ink:
                    tx.setFillColor(want)
                    ink = want
                if (p.font, scale) != font:
                    tx.setFont(p.font, size * scale)
                    font = (p.font, scale)
                tx.setTextOrigin(x, y)
                marked = _PRIVATE_RE.search(p.text) is not None
                if marked:  # glyphs that stand for no one character: say which ones
                    begin_actual_text(tx, p.logical)
                tx.textOut(p.text)
                if marked:
                    end_actual_text(tx)
    canvas.drawText(tx)
    s = size * ICON_SCALE
    for x, y, path in images:
        if path.lower().endswith(".svg"):
            _vector_icon(canvas, path, x, y - 0.18 * s, s)
        else:
            canvas.drawImage(path, x, y - 0.18 * s, s, s, mask="auto")
    canvas.restoreState()


def _vector_icon(canvas: Any, path: str, x: float, y: float, side: float) -> None:
    """An SVG icon as vector paths, its whole shape inside the icon's square (points)."""
    from ..content.assets import AssetError, svg_drawing

    if "drawImage" in vars(canvas):
        return  # a text's shadow is being drawn (ops.TextOp): icons cast none
    try:
        drawing = svg_drawing(Path(path))
    except (AssetError, OSError):
        return  # reported by validation: the icon draws nothing
    complete_forms()  # an SVG may hold gradients and transparency
    w, h = float(drawing.width) or 1.0, float(drawing.height) or 1.0
    scale = side / max(w, h)
    canvas.saveState()
    canvas.translate(x + (side - w * scale) / 2, y + (side - h * scale) / 2)
    canvas.scale(scale, scale)
    draw_drawing(canvas, drawing)  # at the text's opacity
    canvas.restoreState()


class ShapedParagraph(Flowable):
    """A paragraph laid out by pnp: a flowable like reportlab's Paragraph (wrap, split, draw)."""

    def __init__(self, pieces: tuple[Piece, ...], style: ParagraphStyle, rtl: bool) -> None:
        super().__init__()
        self.pieces = pieces
        self.style = style
        self.rtl = rtl
        self.width = 0.0
        self.height = 0.0
        self.widest = 0.0  # the widest unbreakable word, when wider than the width
        self._laid: tuple[float, Lines] | None = None

    def _lines(self, width: float) -> Lines:
        if self._laid is None or abs(self._laid[0] - width) > 1e-9:
            self._laid = (width, break_lines(self.pieces, self.style.fontSize, width))
        return self._laid[1]

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        lines = self._lines(availWidth)
        self.width = availWidth
        self.widest = lines.widest
        self.height = sum(self.style.leading * _tallest(line) for line in lines.lines)
        return availWidth, self.height

    def minWidth(self) -> float:
        size = self.style.fontSize
        words, cur = [0.0], 0.0
        for p in self.pieces:
            if p.kind in (SPACE, BREAK) or p.soft:
                words.append(cur)
                cur = 0.0
            if p.kind in (TEXT, IMAGE):
                cur += p.width * size
        return max([*words, cur])

    def split(self, availWidth: float, availHeight: float) -> list[Flowable]:
        lines = self._lines(availWidth).lines
        fit = int((availHeight + 1e-6) // self.style.leading) if self.style.leading > 0 else 0
        if fit >= len(lines):
            return [self]
        if fit < 1:
            return []
        cut = lines[fit].first
        return [
            ShapedParagraph(self.pieces[:cut], self.style, self.rtl),
            ShapedParagraph(self.pieces[cut:], self.style, self.rtl),
        ]

    def draw(self) -> None:
        style = self.style
        size = style.fontSize
        laid = self._lines(self.width).lines
        rows = []
        top = self.height
        for i, line in enumerate(laid):
            tallest = _tallest(line)
            y = top - size * tallest
            top -= style.leading * tallest
            row = placed(line, size, self.width, style.alignment, self.rtl, i == len(laid) - 1)
            rows.append((y, row))
        draw_lines(self.canv, rows, size, style.textColor)


def _tallest(line: Line) -> float:
    """How many times the text's size its largest span is on this line (at least 1)."""
    return max([1.0, *(split_paint(p.color)[1] for p in line.pieces if "@" in p.color)])


def shaped_paragraph(
    runs: list[Run],
    fonts: FontSet,
    base_face: str,
    missing: Missing | None,
    style: ParagraphStyle,
    lang: str,
) -> ShapedParagraph:
    """A paragraph of runs laid out by pnp, in ``style`` (size, leading, alignment, colour)."""
    rtl = is_rtl(lang)
    return ShapedParagraph(prepare(segments(runs, fonts, base_face, missing), rtl), style, rtl)


def Paragraph(text: str, style: ParagraphStyle, *args: Any, **kwargs: Any) -> Flowable:
    """reportlab's Paragraph, or pnp's layout for a :class:`~.markup.LaidText` (what
    :func:`~.markup.to_xml` gives for a text that needs it)."""
    if isinstance(text, LaidText):
        return shaped_paragraph(text.runs, text.fonts, text.face, None, style, text.lang)
    return _RLParagraph(text, style, *args, **kwargs)


# --- one line on a canvas ---------------------------------------------------------------------


def _one_line(text: str, fonts: FontSet, face: str, size: float, lang: str) -> Line | None:
    """``text`` as one laid-out line, or None when reportlab's drawString prints it right."""
    if text.isascii() and not is_rtl(lang):
        return None  # the usual case, first
    runs = [Run(text)]
    if not laid_out(runs, lang) and fonts.main.covers(face, text):
        return None
    pieces = prepare(segments(runs, fonts, face, None), is_rtl(lang))
    pieces = tuple(p for p in pieces if p.kind != BREAK)
    return Line(list(pieces), sum(p.width for p in pieces) * size, False, 0)


def line_width(text: str, fonts: FontSet, face: str, size: float, lang: str = "") -> float:
    """The width (points) of ``text`` drawn by :func:`draw_line`."""
    line = _one_line(text, fonts, face, size, lang)
    if line is None:
        from reportlab.pdfbase.pdfmetrics import stringWidth

        return float(stringWidth(text, fonts.main.font(face), size))
    return line.width


def draw_line(
    canvas: Any,
    x: float,
    y: float,
    text: str,
    fonts: FontSet,
    face: str,
    size: float,
    lang: str,
    color: str = "#000000",
) -> None:
    """``text`` on one line, from ``x`` on the baseline ``y``: with the canvas's own font and
    fill colour when reportlab prints it right, else in the game's fonts at ``size`` and in
    ``color``, shaped and in visual order."""
    line = _one_line(text, fonts, face, size, lang)
    if line is None:
        canvas.drawString(x, y, text)
        return
    row = [(x + dx, p) for dx, p in placed(line, size, line.width, TA_LEFT, False, True)]
    draw_lines(canvas, [(y, row)], size, rl_color(color))
