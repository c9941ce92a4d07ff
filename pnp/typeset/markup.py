"""Markup: card text as runs of bold, italic and icons, and runs as what reportlab draws.

Markup, the same in every language:
  ``**bold**``, ``_italic_``, ``{name}`` (an icon declared under ``icons:``, or a value of the
  face), a line break for a new line and a blank line for a new paragraph.

:func:`parse` splits a text into paragraphs of :class:`Run`; :func:`to_xml` and
:func:`make_paragraph` turn runs into reportlab paragraph XML or a Paragraph, each character in
a font that has it (the game's fallback fonts), noting characters no font has in
:class:`Missing`. Fitting text into boxes is :mod:`pnp.typeset.text`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Paragraph

from ..compat.reportlab import glue_inline_images, parse_fragments, share_images
from ..core.run import current
from .fonts import FontSet
from .scripts import is_rtl, needs_layout

TOKEN_RE = re.compile(r"\{([A-Za-z_][A-Za-z0-9_.-]*)\}")
# every mark starts with *, _ or {: the lookahead in front lets the regex engine skip other
# characters quickly (splitting a card's text took 14 us without it, 2.5 us with it)
_MARK_RE = re.compile(
    r"(?=[*_{])(\*\*|(?<![\w])_(?=\S)|(?<=\S)_(?![\w])|\{[A-Za-z_][A-Za-z0-9_.-]*\})"
)
_NUM_UNIT_RE = re.compile(r"(\d)[ \t]+(?=(\{[A-Za-z_][A-Za-z0-9_.-]*\}|[₽€$£¥%‰]|mm\b|cm\b))")
_ITALIC_RE = re.compile(r"(?<![\w])_(?=\S)|(?<=\S)_(?![\w])")


def escape(text: str) -> str:
    """``&``, ``<`` and ``>`` as XML entities (xml.sax.saxutils' escape would import urllib
    and http: 25 ms on every command)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _attr(text: str) -> str:
    return escape(text).replace('"', "&quot;")


def normalise_spaces(text: str) -> str:
    """Make number+unit pairs unbreakable and narrow/figure spaces non-breaking."""
    text = text.replace("\u202f", "\u00a0").replace("\u2007", "\u00a0")
    return _NUM_UNIT_RE.sub("\\1\u00a0", text)


def tokens(text: str) -> list[str]:
    """The {name} tokens of a text, in order (icons and values)."""
    return TOKEN_RE.findall(text)


def markup_signature(text: str) -> tuple[int, int]:
    """How many bold and italic markers a text has (a translation must keep them)."""
    bold = text.count("**")
    if "_" not in text:
        return bold, 0
    return bold, len(_ITALIC_RE.findall(text.replace("**", "")))


@dataclass(frozen=True)
class IconSpec:
    glyph: str | None = None
    image: str | None = None  # absolute path, already checked to be inside the game
    face: str | None = None
    color: str | None = None


@dataclass(slots=True)
class Run:
    text: str
    bold: bool = False
    italic: bool = False
    icon: IconSpec | None = None


@dataclass
class Missing:
    """Characters no font covers, and {tokens} that are neither icon nor value."""

    chars: set[str] = field(default_factory=set)
    tokens: set[str] = field(default_factory=set)


def parse(
    text: str, icons: Mapping[str, IconSpec], values: Mapping[str, object]
) -> list[list[Run]]:
    """Split marked-up text into paragraphs of runs."""
    paragraphs: list[list[Run]] = []
    for para in re.split(r"\n[ \t]*\n", normalise_spaces(text.strip())):
        runs: list[Run] = []
        bold = italic = False
        for piece in _MARK_RE.split(para):
            if not piece:
                continue
            if piece == "**":
                bold = not bold
            elif piece == "_":
                italic = not italic
            elif piece.startswith("{") and piece.endswith("}"):
                name = piece[1:-1]
                if name in icons:
                    runs.append(Run("", bold, italic, icons[name]))
                elif name in values:
                    runs.append(Run(str(values[name]), bold, italic))
                else:
                    runs.append(Run(piece, bold, italic))
            else:
                runs.append(Run(piece, bold, italic))
        paragraphs.append(_glue_icons(runs))
    return paragraphs


_TRAILING_SPACE_RE = re.compile(r"[ \t]+$")


def _glue_icons(runs: list[Run]) -> list[Run]:
    """An icon stays with the number or word before it: the spaces between them become one
    no-break space, in every language and for every kind of icon (a row of icons may still
    break between icons)."""
    for i, run in enumerate(runs):
        if run.icon is None or i == 0:
            continue
        prev = runs[i - 1]
        if prev.icon is not None or not _TRAILING_SPACE_RE.search(prev.text):
            continue
        word = prev.text.rstrip(" \t")
        if not word and (i < 2 or runs[i - 2].icon is not None or not runs[i - 2].text):
            continue  # nothing but spaces (or an icon) before them: nothing to stay with
        if word.endswith("\n") or (not word and runs[i - 2].text.endswith((" ", "\t", "\n"))):
            continue  # a line starts with the icon
        runs[i - 1] = Run(word + "\u00a0", prev.bold, prev.italic)
    return runs


def face_of(bold: bool, italic: bool) -> str:
    """The face a run is set in: regular, bold, italic or bolditalic."""
    return {(False, False): "regular", (True, False): "bold", (False, True): "italic"}.get(
        (bold, italic), "bolditalic"
    )


class LaidText(str):
    """Paragraph XML of a text that reportlab's Paragraph cannot lay out (a script that needs
    shaping, a right-to-left text or language), with what :func:`pnp.typeset.layout.Paragraph`
    lays it out from instead: the runs, fonts, base face, size and language."""

    runs: list[Run]
    fonts: FontSet
    face: str
    size: float
    lang: str


def laid_out(runs: list[Run], lang: str) -> bool:
    """True when a paragraph of ``runs`` in ``lang`` needs pnp's layout (shaping or the
    bidirectional algorithm) rather than reportlab's Paragraph."""
    if is_rtl(lang):
        return True
    return any(needs_layout(r.text) or (r.icon and needs_layout(r.icon.glyph or "")) for r in runs)


def to_xml(
    runs: list[Run],
    fonts: FontSet,
    base_face: str,
    size: float,
    missing: Missing | None = None,
    lang: str = "",
) -> str:
    """reportlab paragraph XML for a list of runs, each character in a font that has it; a
    :class:`LaidText` when the runs need pnp's layout (``lang``: the language they print in)."""
    xml = _xml(_groups(runs, fonts, base_face, size, missing), fonts.main.font(base_face))
    if not laid_out(runs, lang):
        return xml
    laid = LaidText(xml)
    laid.runs, laid.fonts, laid.face, laid.size, laid.lang = runs, fonts, base_face, size, lang
    return laid


def _xml(groups: list[tuple[str, str, str]], plain_font: str) -> str:
    """XML for :func:`_groups`; text in ``plain_font``, the style's own, needs no <font>."""
    out: list[str] = []
    for font, color, text in groups:
        if not font:  # raw markup (images, breaks)
            out.append(text)
        elif font == plain_font and not color:
            out.append(escape(text))
        else:
            attr = f' color="{color}"' if color else ""
            out.append(f'<font name="{font}"{attr}>{escape(text)}</font>')
    return "".join(out)


def _groups(
    runs: list[Run],
    fonts: FontSet,
    base_face: str,
    size: float,
    missing: Missing | None,
) -> list[tuple[str, str, str]]:
    """(font name, colour, text) for a list of runs, or ("", "", markup) for an image or a line
    break. Neighbouring characters with the same font and colour share one group: fewer
    fragments make reportlab faster and keep its line widths exact."""
    segments: list[tuple[str, str, str]] = []
    base_bold = base_face in ("bold", "bolditalic")
    base_italic = base_face in ("italic", "bolditalic")
    for run in runs:
        face = face_of(run.bold != base_bold, run.italic != base_italic)
        if run.icon is not None:
            icon = run.icon
            if icon.image:
                s = size * 1.05
                segments.append(
                    (
                        "",
                        "",
                        f'<img src="{_attr(icon.image)}" width="{s:.2f}" height="{s:.2f}" '
                        f'valign="{-0.18 * s:.2f}"/>',
                    )
                )
                continue
            color = icon.color or ""
            font_segments(icon.glyph or "", fonts, icon.face or face, missing, color, segments)
            continue
        if run.text.startswith("{") and run.text.endswith("}") and missing is not None:
            missing.tokens.add(run.text[1:-1])
        font_segments(run.text, fonts, face, missing, "", segments)
    groups: list[tuple[str, str, str]] = []
    for font, color, text in segments:
        if font and groups and groups[-1][0] == font and groups[-1][1] == color:
            groups[-1] = (font, color, groups[-1][2] + text)
        else:
            groups.append((font, color, text))
    return groups


def make_paragraph(
    runs: list[Run],
    fonts: FontSet,
    base_face: str,
    size: float,
    missing: Missing,
    style: ParagraphStyle,
) -> Paragraph:
    """A reportlab Paragraph for a list of runs. Plain text in fonts and colours (the usual
    case) gets its fragments directly, cloned from ones reportlab's parser made once per
    style, font and colour, instead of XML that reportlab would parse again for every card;
    anything else (images, line breaks, spaces at either end, characters the parser splits
    fragments at: ``& < >``) goes through the parser."""
    groups = _groups(runs, fonts, base_face, size, missing)
    text = "".join(t for _f, _c, t in groups)
    plain = text == text.strip() and "&" not in text and "<" not in text and ">" not in text
    plain_font = fonts.main.font(base_face)
    if plain and groups and all(font for font, _c, _t in groups):
        frags = [
            _prototype(style, "" if font == plain_font and not color else font, color).clone(
                text=part
            )
            for font, color, part in groups
        ]
        return Paragraph(text, style, frags=frags)
    paragraph = Paragraph(_xml(groups, plain_font) or "&nbsp;", style)
    if "<img " in text:  # icons drawn from one decoded image each per run, not one per text
        share_images(paragraph, current().store("typeset.icon-readers", limit=256))
        glue_inline_images()  # an image icon breaks as a glyph would: not from its word
    return paragraph


def _prototype(style: ParagraphStyle, font: str, color: str) -> Any:
    """The fragment reportlab's parser makes for text in ``font`` and ``color`` (the style's
    own font when ``font`` is empty), made once per style."""
    key = (id(style), font, color)
    prototypes = current().store("typeset.prototypes", limit=10_000)
    found = prototypes.get(key)
    if found is not None and found[0] is style:
        return found[1]
    attr = f' color="{color}"' if color else ""
    xml = f'<font name="{font}"{attr}>x</font>' if font else "x"
    frags = parse_fragments(xml, style)
    prototypes[key] = (style, frags[0])
    return frags[0]


def font_segments(
    text: str,
    fonts: FontSet,
    face: str,
    missing: Missing | None,
    color: str,
    segments: list[tuple[str, str, str]],
) -> None:
    main = fonts.main.font(face)
    if "\n" not in text and fonts.main.covers(face, text):  # the usual case: one font
        segments.append((main, color, text))
        return
    for ch in text:
        if ch == "\n":
            segments.append(("", "", "<br/>"))
            continue
        fam = fonts.covering(face, ch) if ch not in " \t\u00a0\u200b" else fonts.main
        if fam is None:
            if missing is not None:
                missing.chars.add(ch)
            fam = fonts.main  # draws the font's "missing" box; reported as a finding
        segments.append((fam.font(face), color, ch))
