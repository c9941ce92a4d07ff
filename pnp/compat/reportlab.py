"""reportlab's internals, as pnp uses them. Written for reportlab 4.2 to 5.1 (capped <5.2).

- the canvas's document, content stream and form list, to place an image XObject the canvas
  did not make (:func:`place_xobject`);
- the document's output collector, ``pdfdoc.PDFFile``, replaced while one document is saved
  so that objects go to the file as they are made (:func:`saving_to`);
- the paragraph parser's fragments (:func:`parse_fragments`) and a wrapped paragraph's lines
  (:func:`wrapped_lines`), to measure text without drawing it;
- the flags by which a platypus ``Frame`` spaces a flowable (``_ZEROSIZE``, ``_SPACETRANSFER``),
  copied onto the flowable that stands in for it while the setup sheet is measured
  (:func:`copy_frame_flags`);
- three module globals of ``platypus.paragraph`` that its line breaking calls for every word
  (``stringWidth``, ``getAscentDescent``, ``sameFrag``), replaced while pnp fits texts by a
  memo of the first two and a faster equivalent of the third (:func:`quick_line_breaking`);
- a TrueType font's character map (:func:`font_characters`), its glyphs' bounding boxes
  (``glyf`` via ``loca``'s ``glyphPos``: :func:`glyph_heights`), and its subset assignments
  per document (``TTFont.state[doc].assignments``: :func:`quick_subsets`);
- reportlab's harfbuzz shaping (``ttfonts.shapeFragWord`` and the ``ShapedStr`` it makes, whose
  ``__shapeData__`` hold the advances), to shape the runs pnp lays out itself (:func:`shape`),
  and a text object's content list (``_code``), to mark glyphs with an ``/ActualText``;
- a form XObject's resources (``pdfdoc.PDFFormXObject.format``, ``Canvas._setXObjects``),
  completed with its transparency states and shadings (:func:`complete_forms`); the text
  colour hook ``Canvas._enforceColorSpace``, to draw at an opacity (:func:`colours_at_alpha`,
  :func:`draw_drawing`); paragraph word splitting (``paragraph._getFragWords``), to keep
  inline images with their word (:func:`glue_inline_images`);
- ``rl_config.useA85``: off while pnp makes a PDF (:func:`pdf_settings`), since ASCII85 only
  makes PDFs 25 % larger; reportlab's default is restored afterwards.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator
from typing import Any, BinaryIO

from reportlab import rl_config
from reportlab.pdfbase import pdfdoc

from .harfbuzz import guessed_rtl

WRITTEN_FOR = ("4.2", "5.1")
_LOCK = threading.RLock()  # rl_config and pdfdoc.PDFFile are process-wide: one save at a time


@contextlib.contextmanager
def pdf_settings() -> Iterator[None]:
    """reportlab's settings as pnp makes PDFs (binary streams), for the duration of the block."""
    with _LOCK:
        old, rl_config.useA85 = rl_config.useA85, 0
        try:
            yield
        finally:
            rl_config.useA85 = old


def document(canvas: Any) -> Any:
    """The PDF document a canvas writes into (reportlab's ``PDFDocument``)."""
    return canvas._doc


def place_xobject(canvas: Any, reg: str, name: str, x: float, y: float, w: float, h: float) -> None:
    """Paint the registered XObject ``reg`` (form name ``name``) at (x, y), size (w, h) points."""
    canvas.saveState()
    canvas.translate(x, y)
    canvas.scale(w, h)
    canvas._code.append(f"/{reg} Do")
    canvas.restoreState()
    canvas._formsinuse.append(name)


def register_xobject(canvas: Any, obj: Any) -> None:
    """Tell the canvas's resources about an XObject it did not make itself."""
    canvas._setXObjects(obj)


def format_dictionary(d: Any, doc: Any) -> bytes:
    return bytes(pdfdoc.format(d, doc))


def is_plain(doc: Any) -> bool:
    """True when the document is not encrypted (stream bytes go to the file as they are)."""
    return isinstance(doc.encrypt, pdfdoc.NoEncryption)


class HeldStreams:
    """Stream contents kept out of reportlab's bytes: a placeholder stands in for each, and the
    output collector writes the pieces in its place. One per document being saved."""

    def __init__(self) -> None:
        self.marker = b"\x00pnp-held-stream-" + os.urandom(8).hex().encode() + b"-"
        self.held: dict[bytes, tuple[list[bytes | memoryview], int]] = {}
        self.count = 0

    def hold(self, pieces: list[bytes | memoryview], length: int) -> bytes:
        self.count += 1
        token = self.marker + b"%010d\x00" % self.count
        self.held[token] = (pieces, length)
        return token


def held_streams(doc: Any) -> HeldStreams | None:
    """The placeholders of the document being saved by :func:`saving_to`, if it is."""
    collector = getattr(doc, "__accum__", None)
    held = getattr(collector, "pnp_held", None)
    return held if isinstance(held, HeldStreams) else None


def _collector(sink: BinaryIO, held: HeldStreams) -> type:
    """A ``PDFFile`` that writes each object to ``sink`` as soon as it is added, the held
    pieces in place of their placeholders. A class per save: no state outlives the save."""

    class StreamingFile(pdfdoc.PDFFile):
        pnp_held = held

        def __init__(self, pdfVersion: Any = pdfdoc.PDF_VERSION_DEFAULT) -> None:
            self.strings: list[bytes] = []
            self.offset = 0
            self.write = sink.write
            self.add(
                pdfdoc.pdfdocEnc(f"%PDF-{pdfVersion[0]}.{pdfVersion[1]}")
                + b"\n%\223\214\213\236 ReportLab Generated PDF document (opensource)\n"
            )

        def add(self, s: Any) -> int:
            data: bytes = pdfdoc.pdfdocEnc(s)
            start = self.offset
            at = data.find(held.marker) if held.held else -1
            if at < 0:
                self.write(data)
                self.offset = start + len(data)
                return start
            end = at + len(held.marker) + 11
            pieces, length = held.held.pop(data[at:end])
            self.write(data[:at])
            for piece in pieces:
                self.write(piece)
            self.write(data[end:])
            self.offset = start + len(data) - (end - at) + length
            return start

        def format(self, document: Any) -> bytes:
            return b""

    return StreamingFile


def saving_to(canvas: Any, sink: BinaryIO) -> None:
    """``canvas.save()``, the PDF going to ``sink`` object by object instead of via memory."""
    held = HeldStreams()
    with _LOCK:
        original = pdfdoc.PDFFile
        pdfdoc.PDFFile = _collector(sink, held)
        try:
            canvas._filename = sink
            canvas.save()
        finally:
            pdfdoc.PDFFile = original


def parse_fragments(xml: str, style: Any) -> list[Any]:
    """The fragments reportlab's paragraph parser makes of ``xml`` in ``style``."""
    from reportlab.platypus.paraparser import ParaParser

    _style, frags, _bullet = ParaParser().parse(xml, style)
    return list(frags)


_BREAKING_LOCK = threading.Lock()
_breaking_users = 0  # blocks inside quick_line_breaking, in every thread
_breaking_originals: tuple[Any, Any, Any] | None = None


@contextlib.contextmanager
def quick_line_breaking(memo: dict[Any, Any]) -> Iterator[None]:
    """For the duration of the block, reportlab's line breaking takes text widths and font
    heights from ``memo`` (filled as it goes) instead of asking the font every time, and
    compares fragments without raising exceptions.

    ``Paragraph.breakLines`` measures every word of every line, the width of a space once per
    word, a word's pieces for each hyphenation it tries, and the font's ascent and descent per
    word: the same few thousand strings again and again. A width depends only on the text, the
    font's name and the size (pnp registers fonts under names made of their content), so the
    answers are the same numbers. For each word it also asks ``sameFrag`` whether the word
    continues the fragment before it; the compiled one looks up attributes a fragment usually
    lacks, an AttributeError raised and cleared each time (6 us a call), where
    :func:`same_fragment` reads the fragments' dictionaries. The lines are the same.

    Blocks may nest and run in several threads; the memo of the outermost block serves them
    all, and reportlab's own functions are back when the last one ends.
    """
    from reportlab.platypus import paragraph

    global _breaking_users, _breaking_originals
    with _BREAKING_LOCK:
        if _breaking_users == 0:
            _breaking_originals = (
                paragraph.stringWidth,
                paragraph.getAscentDescent,
                paragraph.sameFrag,
            )
            widths, heights = _remembering(memo, *_breaking_originals[:2])
            paragraph.stringWidth, paragraph.getAscentDescent = widths, heights
            paragraph.sameFrag = same_fragment
        _breaking_users += 1
    try:
        yield
    finally:
        with _BREAKING_LOCK:
            _breaking_users -= 1
            if _breaking_users == 0 and _breaking_originals is not None:
                (
                    paragraph.stringWidth,
                    paragraph.getAscentDescent,
                    paragraph.sameFrag,
                ) = _breaking_originals
                _breaking_originals = None


def _remembering(memo: dict[Any, Any], widths: Any, heights: Any) -> tuple[Any, Any]:
    """``stringWidth`` and ``getAscentDescent`` with the same signatures, answering from
    ``memo``: widths under 4-tuples, heights under 2-tuples."""

    def string_width(text: Any, font_name: str, size: float, encoding: str = "utf8") -> Any:
        key = (text, font_name, size, encoding)
        try:
            return memo[key]
        except KeyError:
            found = memo[key] = widths(text, font_name, size, encoding)
            return found

    def ascent_descent(font_name: str, size: Any = None) -> Any:
        key = (font_name, size)
        try:
            return memo[key]
        except KeyError:
            found = memo[key] = heights(font_name, size)
            return found

    return string_width, ascent_descent


# what reportlab's sameFrag compares, and the attributes that make a fragment unique
_FRAG_STYLE = ("fontName", "fontSize", "textColor", "rise", "us_lines", "link", "backColor", "nobr")
_ABSENT = object()


def same_fragment(f: Any, g: Any) -> int:
    """reportlab's ``sameFrag``: 1 when fragments ``f`` and ``g`` (attribute bags) draw in the
    same style, 0 when they do not or either is an image, a callback or a line break. An
    attribute one has and the other lacks differs, even when it is None; values compare as
    ``!=`` does, the same object being equal to itself."""
    try:
        fd = f.__dict__
        gd = g.__dict__
    except AttributeError:  # not attribute bags: reportlab's own answer
        from reportlab.lib.rl_accel import sameFrag

        return int(sameFrag(f, g))
    if "cbDefn" in fd or "lineBreak" in fd or "cbDefn" in gd or "lineBreak" in gd:
        return 0
    for name in _FRAG_STYLE:
        a = fd.get(name, _ABSENT)
        b = gd.get(name, _ABSENT)
        if a is not b and (a is _ABSENT or b is _ABSENT or a != b):
            return 0
    return 1


_FRAME_FLAGS = ("_ZEROSIZE", "_SPACETRANSFER")  # a flowable that takes no room; passes its space on


def copy_frame_flags(inner: Any, outer: Any) -> None:
    """Give ``outer`` the flags by which a platypus Frame spaces ``inner``: a flowable standing
    in for another is spaced as that one."""
    for flag in _FRAME_FLAGS:
        if hasattr(inner, flag):
            setattr(outer, flag, getattr(inner, flag))


def row_heights(table: Any) -> list[float]:
    """The height of each row of a platypus Table after ``wrap`` (points)."""
    return [float(h) for h in table._rowHeights]


def wrapped_lines(paragraph: Any) -> list[Any] | None:
    """The lines of a paragraph after ``wrap`` (tuples or line objects), or None."""
    lines = getattr(paragraph, "blPara", None)
    return None if lines is None else list(lines.lines)


def font_characters(font: Any) -> frozenset[int]:
    """The code points a registered TrueType font has glyphs for."""
    return frozenset(font.face.charToGlyph.keys())


def glyph_heights(font: Any) -> Any:
    """How far a TrueType font's glyphs reach above and below the baseline, in thousandths of
    its size: a function of a character giving (top, bottom), (0, 0) for a blank glyph, None
    for a character the font lacks or a font that is not TrueType."""
    import struct

    face = getattr(font, "face", None)
    try:
        data = face._ttf_data  # type: ignore[union-attr]
        base, _length = face.get_table_pos("glyf")  # type: ignore[union-attr]
        positions = face.glyphPos  # type: ignore[union-attr]
        scale = 1000.0 / face.unitsPerEm  # type: ignore[union-attr]
        cmap = face.charToGlyph  # type: ignore[union-attr]
    except (AttributeError, KeyError, TypeError):
        return lambda char: None

    def heights(char: str) -> tuple[float, float] | None:
        gid = cmap.get(ord(char))
        if gid is None or gid + 1 >= len(positions):
            return None
        start = positions[gid]
        if positions[gid + 1] == start:
            return 0.0, 0.0  # no outline: a space
        _n, _x0, y_min, _x1, y_max = struct.unpack(">hhhhh", data[base + start : base + start + 10])
        return y_max * scale, y_min * scale

    return heights


def quick_subsets(font: Any) -> None:
    """Let a registered TrueType font split text into its subsets' bytes without a Python
    loop over the characters, when it can.

    reportlab draws TrueType text in subsets of 256 glyphs, numbered per document as
    characters are first used; ``TTFont.splitString`` maps each character of every string
    drawn to its subset and code, one at a time. Once every character of a string has a code
    in the first subset (after the first lines of a document, nearly every string), the
    answer is the string translated to those codes, in one piece: that is what this gives,
    and anything else (a character not placed yet, or placed in another subset) goes to
    reportlab's own loop, which places it. The bytes are the same."""
    if not hasattr(font, "state") or "splitString" in vars(font):
        return  # not a TrueType font, or already done
    original = font.splitString
    # (a document's state, how many characters it had placed, their codes, these characters)
    # for the last document; replaced whole, so that threads drawing two documents each see
    # one consistent entry
    last: list[tuple[Any, int, dict[int, int], frozenset[str]]] = [(None, -1, {}, frozenset())]

    def split_string(text: Any, doc: Any, encoding: str = "utf-8") -> Any:
        state = font.state.get(doc)
        if state is not None and isinstance(text, str):
            if not text:
                return []  # what the loop gives (each line ends with an empty string drawn)
            entry = last[0]
            if entry[0] is not state or entry[1] != len(state.assignments):
                entry = last[0] = (state, len(state.assignments), *_first_subset(state))
            if entry[3].issuperset(text):
                return [(0, text.translate(entry[2]).encode("latin-1"))]
        return original(text, doc, encoding)

    font.splitString = split_string


def _first_subset(state: Any) -> tuple[dict[int, int], frozenset[str]]:
    """The codes a font's state for a document gave the characters it placed in the first
    subset (a no-break space is drawn as the space), and these characters."""
    table = {c: n for c, n in state.assignments.items() if n < 256}
    if 32 in table:
        table[0xA0] = table[32]
    return table, frozenset(map(chr, table))


@contextlib.contextmanager
def colours_at_alpha(canvas: Any, opacity: float) -> Iterator[None]:
    """Everything drawn in the block takes ``opacity`` (times its colour's own alpha).

    reportlab sets the fill and stroke alpha from every colour it is given (an opaque colour
    puts the alpha back to 1), on the canvas and in every text object a paragraph makes: an
    alpha set before drawing would last only until the next colour. Its colour space hook
    (``canvas._enforceColorSpace``, which text objects copy when they are made) sees every
    colour first; in the block it gives each one the opacity."""
    from reportlab.lib.colors import CMYKColor, Color, toColor

    before = canvas._enforceColorSpace

    def at_alpha(colour: Any) -> Any:
        if before is not None:
            colour = before(colour)
        if isinstance(colour, str):
            colour = toColor(colour)
        elif isinstance(colour, tuple | list):
            colour = CMYKColor(*colour) if len(colour) == 4 else Color(*colour)
        own = colour.alpha if getattr(colour, "alpha", None) is not None else 1.0
        return colour.clone(alpha=own * opacity)

    at_alpha.opacity = getattr(before, "opacity", 1.0) * opacity  # type: ignore[attr-defined]
    at_alpha.before = before  # type: ignore[attr-defined]
    canvas._enforceColorSpace = at_alpha
    try:
        yield
    finally:
        canvas._enforceColorSpace = before


def draw_drawing(canvas: Any, drawing: Any) -> None:
    """A Drawing (an SVG read by svglib) at the opacity of the :func:`colours_at_alpha` block
    it is in. ``renderPDF`` sets each shape's alpha (its ``fillOpacity``) after its colour,
    undoing the colour hook's opacity: while it draws, the opacity scales every alpha set."""
    from reportlab.graphics import renderPDF

    hook = canvas._enforceColorSpace
    opacity = getattr(hook, "opacity", 1.0)
    if opacity >= 1:
        renderPDF.draw(drawing, canvas, 0, 0)
        return
    fill, stroke = canvas.setFillAlpha, canvas.setStrokeAlpha
    canvas._enforceColorSpace = hook.before
    canvas.setFillAlpha = lambda a: fill(a * opacity)
    canvas.setStrokeAlpha = lambda a: stroke(a * opacity)
    try:
        renderPDF.draw(drawing, canvas, 0, 0)
    finally:
        del canvas.setFillAlpha, canvas.setStrokeAlpha
        canvas._enforceColorSpace = hook


_FORMS_COMPLETE = False  # form XObjects given all their resources, for the process


def complete_forms() -> None:
    """From now on, a form XObject (a face drawn more than once: ``canvas.beginForm``) lists
    the transparency states and shadings its content uses among its resources, as a page
    does. reportlab gives a form only fonts and XObjects (``pdfdoc.PDFFormXObject.format``),
    so an opacity, a gradient or an SVG's shading inside a form would name resources the
    form does not have (viewers then draw it opaque, or not at all). The canvas hands a form
    its shadings where it hands it its XObjects (``Canvas._setXObjects``); a form that uses
    neither is written as before. Installed once, before the first such drawing."""
    global _FORMS_COMPLETE
    from reportlab.pdfbase import pdfdoc
    from reportlab.pdfgen.canvas import Canvas

    with _BREAKING_LOCK:
        if _FORMS_COMPLETE:
            return
        set_xobjects = Canvas._setXObjects
        form_format = pdfdoc.PDFFormXObject.format

        def with_shadings(canvas: Any, thing: Any) -> None:
            set_xobjects(canvas, thing)
            if isinstance(thing, pdfdoc.PDFFormXObject):
                thing._shadingUsed = dict(canvas._shadingUsed)

        def format_form(form: Any, document: Any) -> Any:
            shadings = getattr(form, "_shadingUsed", None)
            states = getattr(form, "ExtGState", None)
            if not form.Resources and (shadings or states):
                resources = pdfdoc.PDFResourceDictionary()
                resources.basicFonts()
                resources.allProcs() if form.hasImages else resources.basicProcs()
                if form.XObjects:
                    resources.XObject = form.XObjects
                if states:
                    resources.ExtGState = states
                resources.setShading(shadings or {})
                resources.setColorSpace(getattr(form, "_colorsUsed", None) or {})
                form.Resources = resources
            return form_format(form, document)

        Canvas._setXObjects = with_shadings
        pdfdoc.PDFFormXObject.format = format_form
        _FORMS_COMPLETE = True


_GLUED = False  # reportlab's word splitting wrapped once, for the rest of the process


def glue_inline_images() -> None:
    """From now on, an inline image (``<img>``) with no space between it and the text before
    or after it is part of that word for reportlab's line breaking, as a glyph would be.

    reportlab's ``paragraph._getFragWords`` makes every inline image a word of its own, so a
    line may break between "1" and the icon that follows it with no space; pnp's markup puts
    a no-break space (or nothing) there precisely so that it cannot. The wrapper joins such
    neighbours into one word (their widths added, their fragments in order) and changes
    nothing else: words separated by a space, and paragraphs without images, are left as
    reportlab makes them. Installed once, for the process: a paragraph may be wrapped again
    when it is drawn, and must break as it was measured."""
    global _GLUED
    from reportlab.platypus import paragraph

    with _BREAKING_LOCK:
        if _GLUED:
            return
        original = paragraph._getFragWords
        spaced = paragraph._HSFrag

        def frag_words(frags: Any, maxWidth: Any = None) -> Any:
            words = original(frags, maxWidth)
            if not any(_is_image_word(w) for w in words):
                return words
            return _glued(words, spaced)

        paragraph._getFragWords = frag_words
        _GLUED = True


def _is_image_word(word: Any) -> bool:
    return type(word) is list and len(word) == 2 and hasattr(word[1][0], "cbDefn")


def _glued(words: list[Any], spaced: Any) -> list[Any]:
    """``words`` with each inline image joined to a word it touches (no space between): the
    word before it when that word has no space after it, the word after it when that word is
    not the empty one reportlab makes for a space."""
    out: list[Any] = []
    for word in words:
        prev: Any = out[-1] if out else None
        joinable = prev is not None and type(prev) in (list, spaced)
        if joinable and _is_image_word(word) and type(prev) is list:
            out[-1] = list([prev[0] + word[0], *prev[1:], *word[1:]])
        elif joinable and type(word) in (list, spaced) and _ends_in_image(prev):
            if type(word) is spaced and len(word) == 2 and word[1][1] == "":
                out.append(word)  # the space after the image: a break may come here
            else:
                out[-1] = type(word)([prev[0] + word[0], *prev[1:], *word[1:]])
        else:
            out.append(word)
    return out


def _ends_in_image(word: Any) -> bool:
    return type(word) is list and len(word) > 1 and hasattr(word[-1][0], "cbDefn")


def share_images(paragraph: Any, readers: dict[Any, Any]) -> None:
    """The inline images (``<img>``) of a parsed Paragraph drawn from one ImageReader per
    file: reportlab's parser makes a reader for every occurrence (``frag.cbDefn.image``), and
    each keeps its decoded pixels once drawn, for as long as the paragraph lives."""
    for frag in getattr(paragraph, "frags", ()):
        defn = getattr(frag, "cbDefn", None)
        if defn is None or getattr(defn, "kind", None) != "img":
            continue
        shared = readers.get(defn.src)
        if shared is None:
            readers[defn.src] = defn.image
        else:
            defn.image = shared


# --- shaping: reportlab's harfbuzz support (its ``shaping`` extra, uharfbuzz) ----------------
# ``reportlab.pdfbase.ttfonts.shapeFragWord`` shapes one string in one font (the direction and
# script guessed from its letters) into a ``ShapedStr``: the glyphs in visual order, as
# characters of the font (reportlab gives glyphs without a character one in the private use
# area), each with harfbuzz's advance and offsets, which the text object draws with ``TJ``.


SHAPING_FEATURES = {"kern": True, "liga": True}  # besides the ones harfbuzz always applies


def shaping_available() -> bool:
    """True when reportlab can shape text (uharfbuzz is installed)."""
    from reportlab.pdfbase import ttfonts

    return getattr(ttfonts, "uharfbuzz", None) is not None


def shape(text: str, font_name: str, rtl: bool, mirror: Any = None) -> tuple[str, float, bool]:
    """``text`` (one font, one direction, no line break) shaped by harfbuzz through reportlab:
    what to draw (its glyphs in visual order), its width at 1 pt, and whether it was shaped.
    ``rtl``: the direction the bidirectional algorithm gave it; where harfbuzz would guess the
    other one (brackets in a right-to-left run, Arabic digits in a left-to-right one), the
    text is handed over reversed and mirrored (``mirror``: one character's mirror image), which
    is what shaping it in its own direction draws. Without uharfbuzz, the text reversed and
    mirrored when right to left, unshaped."""
    from reportlab.lib.abag import ABag
    from reportlab.pdfbase.pdfmetrics import getFont, stringWidth
    from reportlab.pdfbase.ttfonts import ShapedStr, shapeFragWord

    def flipped(t: str) -> str:
        return "".join(mirror(c) if mirror else c for c in reversed(t))

    if not shaping_available() or not getattr(getFont(font_name), "shapable", False):
        drawn = flipped(text) if rtl else text
        return drawn, float(stringWidth(drawn, font_name, 1.0)), False
    given = flipped(text) if guessed_rtl(text) != rtl else text
    # what ``shapeStr`` does, with harfbuzz's default features: reportlab's add ``dlig``,
    # discretionary ligatures a reader does not expect (Noto Sans Hebrew joins ו and י)
    word = [stringWidth(given, font_name, 10.0), (ABag(fontName=font_name, fontSize=10.0), given)]
    shaped = shapeFragWord(word, features=SHAPING_FEATURES)[1][1]
    if isinstance(shaped, ShapedStr):
        return shaped, sum(sd.x_advance for sd in shaped.__shapeData__) / 1000.0, True
    return given, float(stringWidth(given, font_name, 1.0)), True


def begin_actual_text(text_object: Any, text: str) -> None:
    """Open a span whose ``/ActualText`` is ``text`` (what copying the glyphs drawn until
    :func:`end_actual_text` gives: a line's text in logical order)."""
    data = ("\ufeff" + text).encode("utf-16-be").hex().upper()
    text_object._code.append(f"/Span <</ActualText <{data}>>> BDC")


def end_actual_text(text_object: Any) -> None:
    text_object._code.append("EMC")
