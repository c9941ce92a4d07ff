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
from dataclasses import dataclass, field, replace
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


def markup_signature(text: str) -> tuple[int, int, int]:
    """How many bold and italic markers and ``[spans]{...}`` a text has (a translation must
    keep them)."""
    bold = text.count("**")
    spans = len(SPAN_RE.findall(text)) if "]{" in text else 0
    if "_" not in text:
        return bold, 0, spans
    return bold, len(_ITALIC_RE.findall(text.replace("**", ""))), spans


def plain_text(text: str, icons: Mapping[str, str]) -> str:
    """A marked-up text as a terminal shows it: no bold or italic marks, a span's text alone,
    each icon as its glyph (``icons``: name -> glyph; an icon without one keeps its name)."""
    if "]{" in text:
        text = SPAN_RE.sub(lambda m: m.group(1), text)
    text = text.replace("**", "")
    if "_" in text:
        text = _ITALIC_RE.sub("", text)
    if "{" in text:
        text = TOKEN_RE.sub(lambda m: icons.get(m.group(1), m.group(0)), text)
    return text


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
    color: str | None = None  # a span's colour (``[text]{color=red}``); None: the text's
    scale: float = 1.0  # a span's size, as a share of the text's (``[text]{size=150%}``)


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
        marks = [False, False]  # bold, italic: they carry on into and out of a span
        start = 0
        for span in SPAN_RE.finditer(para) if "]{" in para else ():
            _runs(para[start : span.start()], icons, values, marks, runs, None, 1.0)
            color, scale, _problems = span_style(span.group(2))
            _runs(span.group(1), icons, values, marks, runs, color, scale)
            start = span.end()
        _runs(para[start:], icons, values, marks, runs, None, 1.0)
        paragraphs.append(_glue_icons(runs))
    return paragraphs


def _runs(
    text: str,
    icons: Mapping[str, IconSpec],
    values: Mapping[str, object],
    marks: list[bool],
    runs: list[Run],
    color: str | None,
    scale: float,
) -> None:
    """The runs of a piece of a paragraph (in a span: in its colour and size)."""
    for piece in _MARK_RE.split(text):
        if not piece:
            continue
        bold, italic = marks
        if piece == "**":
            marks[0] = not bold
        elif piece == "_":
            marks[1] = not italic
        elif piece.startswith("{") and piece.endswith("}"):
            name = piece[1:-1]
            if name in icons:
                runs.append(Run("", bold, italic, icons[name], color, scale))
            elif name in values:
                runs.append(Run(str(values[name]), bold, italic, None, color, scale))
            else:
                runs.append(Run(piece, bold, italic, None, color, scale))
        else:
            runs.append(Run(piece, bold, italic, None, color, scale))


# a span: [text]{color=#c62828 size=150%}; its text may hold **bold**, _italic_ and {icons}
SPAN_RE = re.compile(r"\[([^\[\]\n]*)\]\{((?:[ \t]*[A-Za-z_]+[ \t]*=[ \t]*[^\s{}\[\]]+)+)[ \t]*\}")
_HEX_RE = re.compile(r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})")
SPAN_SIZES = (25.0, 400.0)  # a span's size, in % of its text's


def span_style(attrs: str) -> tuple[str | None, float, list[str]]:
    """A span's colour (``#rrggbb``, None: the text's), size (a share of the text's) and what
    is wrong with its attributes (validation reports it; the rest still applies)."""
    color: str | None = None
    scale = 1.0
    problems: list[str] = []
    for key, value in re.findall(r"([A-Za-z_]+)[ \t]*=[ \t]*([^\s{}\[\]]+)", attrs):
        if key == "color":
            color = _span_colour(value)
            if color is None:
                problems.append(
                    f"color={value} is not a colour: write #rrggbb or a colour name such as red"
                )
        elif key == "size":
            low, high = SPAN_SIZES
            number = value[:-1] if value.endswith("%") else ""
            try:
                percent = float(number) if number else float("nan")
            except ValueError:
                percent = float("nan")
            if value.endswith("%") and low <= percent <= high:
                scale = percent / 100
            else:
                problems.append(
                    f"size={value} is not a size: write a share of the text's size from "
                    f"{low:g}% to {high:g}%, e.g. size=150%"
                )
        else:
            problems.append(f"{key}= is not a span's attribute: write color= or size=")
    return color, scale, problems


def _span_colour(value: str) -> str | None:
    """A span's colour as the renderer reads it: #rgb, #rrggbb or a colour name."""
    if _HEX_RE.fullmatch(value):
        v = value.lower()
        return v if len(v) == 7 else "#" + "".join(c * 2 for c in v[1:])
    from reportlab.lib import colors

    found = getattr(colors, value.lower(), None)
    if isinstance(found, colors.Color) and value.lower().isalpha() and found.alpha == 1:
        return "#" + found.hexval()[2:].lower()
    return None


def span_problems(text: str) -> list[str]:
    """What is wrong with the spans of a text (their attributes), for validation."""
    if "]{" not in text:
        return []
    return [p for m in SPAN_RE.finditer(text) for p in span_style(m.group(2))[2]]


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
        runs[i - 1] = replace(prev, text=word + "\u00a0")
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
    """True when a paragraph of ``runs`` in ``lang`` needs pnp's layout (shaping, the
    bidirectional algorithm, an SVG icon) rather than reportlab's Paragraph."""
    if is_rtl(lang):
        return True
    return any(
        needs_layout(r.text) or (r.icon and (needs_layout(r.icon.glyph or "") or is_vector(r.icon)))
        for r in runs
    )


def is_vector(icon: IconSpec) -> bool:
    """Whether an icon is an SVG, drawn as vectors by pnp's layout (reportlab's paragraphs
    draw raster images only)."""
    return bool(icon.image and icon.image.lower().endswith(".svg"))


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
    xml = _xml(_groups(runs, fonts, base_face, size, missing), fonts.main.font(base_face), size)
    if not laid_out(runs, lang):
        return xml
    laid = LaidText(xml)
    laid.runs, laid.fonts, laid.face, laid.size, laid.lang = runs, fonts, base_face, size, lang
    return laid


def paint_of(color: str, scale: float) -> str:
    """What a group or piece is painted with: its colour ("" for the text's), and after an
    ``@`` its size as a share of the text's when a span changes it."""
    return color if scale == 1.0 else f"{color}@{scale:g}"


def split_paint(paint: str) -> tuple[str, float]:
    """The colour and the size share of a :func:`paint_of`."""
    if "@" not in paint:
        return paint, 1.0
    color, scale = paint.split("@", 1)
    return color, float(scale)


def _xml(groups: list[tuple[str, str, str]], plain_font: str, size: float) -> str:
    """XML for :func:`_groups`; text in ``plain_font``, the style's own, needs no <font>."""
    out: list[str] = []
    for font, paint, text in groups:
        if not font:  # raw markup (images, breaks)
            out.append(text)
        elif font == plain_font and not paint:
            out.append(escape(text))
        else:
            color, scale = split_paint(paint)
            attr = f' color="{color}"' if color else ""
            if scale != 1.0:
                attr += f' size="{size * scale:.2f}"'
            out.append(f'<font name="{font}"{attr}>{escape(text)}</font>')
    return "".join(out)


def _groups(
    runs: list[Run],
    fonts: FontSet,
    base_face: str,
    size: float,
    missing: Missing | None,
) -> list[tuple[str, str, str]]:
    """(font name, paint, text) for a list of runs, or ("", "", markup) for an image or a line
    break; a paint is a colour, and a span's size (:func:`paint_of`). Neighbouring characters
    with the same font and paint share one group: fewer fragments make reportlab faster and
    keep its line widths exact."""
    segments: list[tuple[str, str, str]] = []
    base_bold = base_face in ("bold", "bolditalic")
    base_italic = base_face in ("italic", "bolditalic")
    for run in runs:
        face = face_of(run.bold != base_bold, run.italic != base_italic)
        if run.icon is not None:
            icon = run.icon
            if icon.image:
                s = size * 1.05 * run.scale
                segments.append(
                    (
                        "",
                        "",
                        f'<img src="{_attr(icon.image)}" width="{s:.2f}" height="{s:.2f}" '
                        f'valign="{-0.18 * s:.2f}"/>',
                    )
                )
                continue
            paint = paint_of(icon.color or run.color or "", run.scale)
            font_segments(icon.glyph or "", fonts, icon.face or face, missing, paint, segments)
            continue
        if run.text.startswith("{") and run.text.endswith("}") and missing is not None:
            missing.tokens.add(run.text[1:-1])
        paint = paint_of(run.color or "", run.scale)
        font_segments(run.text, fonts, face, missing, paint, segments)
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
    plain = plain and all(font and "@" not in paint for font, paint, _t in groups)
    if plain and groups:
        frags = [
            _prototype(style, "" if font == plain_font and not color else font, color).clone(
                text=part
            )
            for font, color, part in groups
        ]
        return Paragraph(text, style, frags=frags)
    paragraph = Paragraph(_xml(groups, plain_font, size) or "&nbsp;", style)
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
