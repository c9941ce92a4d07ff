"""Texts: a face's text field (``field:``) or a template (``template:``), fitted into the
element's box over its fill, kept clear of the cut line, its problems reported per language."""

from __future__ import annotations

import unicodedata
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ....content.model import Element, Text
from ....core.rules import GLYPH, OVERFLOW, REFERENCE
from ....core.units import mm, pt
from ...fonts import FontSet
from ...markup import parse
from ...scripts import glyph_advice
from ...text import Fit, TextStyle, fit_text, runs_fit, smallest_size
from ..clear import keep_clear
from ..colours import NONE, read_colour
from ..cuts import box_clear
from ..ops import Box as BoxT
from ..ops import Group, Op, TextOp
from .base import Layouter
from .box import Box, box_ops, grouped

if TYPE_CHECKING:
    from ..values import FaceCtx


class TextKind(Box):
    """A text fitted into its box, over the box's fill and outline."""

    shows_text = True

    def text(self, el: Element, fc: FaceCtx, eng: Layouter) -> tuple[str | None, Text | None]:
        """The text it prints on this face (None: none) and the text that comes from."""
        raise NotImplementedError

    def in_box(self, el: Element, box: BoxT, fc: FaceCtx, eng: Layouter) -> Op | None:
        """The box's fill and outline, and its text fitted (its problems noted), in the
        element's font family, over its shadow."""
        value, source = self.text(el, fc, eng)
        fill_ops = box_ops(el, box, fc, eng)
        if value is None:
            return grouped(fill_ops)
        ts = TextStyle(
            face=el.font,
            size=el.size,
            min_size=el.min_size,
            leading=el.leading,
            align=el.align,
            color=eng.paint(el, "color", fc, fc.palette["text"]) or fc.palette["text"],
            hyphenate=el.hyphenate
            if el.hyphenate is not None
            else el.field not in ("title", "subtitle", None),
            fit=el.fit or "shrink",
        )
        fonts = eng.fonts_for(el, fc)
        inner_w = pt(box[2] - 2 * el.padding)
        inner_h = pt(box[3] - 2 * el.padding)
        # glyphs reach a little past their lines' box: a box this far inside needs no measure
        clear = box_clear(eng.cut, box, el.rotate, eng.zone.clearance + mm(ts.size) * 0.4)
        if eng.quick and clear and _surely_fits(value, ts, fonts, fc, inner_w, inner_h, eng):
            return fill_ops[0] if fill_ops else None  # fits for sure: nothing to report
        fit = fit_text(value, ts, fonts, eng.icons, fc.values, eng.lang, inner_w, inner_h)
        op = TextOp(
            box,
            fit,
            el.valign,
            el.padding,
            fallback=source is not None and eng.translator.is_fallback(source),
            rotate=el.rotate % 360,
            error=source is not None and eng.translator.has_error(source),
        )
        if not clear:
            op = _clear(self, op, value, ts, fonts, fc, source, el, eng)
        _note(op.fit, source, el, eng)
        if el.shadow is not None and not eng.plain:
            op.shadow = _shadow(op, value, ts, fonts, el, fc, eng)
        if fill_ops:
            return Group([*fill_ops, op])  # a filled text box: the fill first, then the text
        return op


def _shadow(
    op: TextOp, text: str, ts: TextStyle, fonts: FontSet, el: Element, fc: FaceCtx, eng: Layouter
) -> tuple[Fit, float, float, float] | None:
    """The text fitted again, at the size and width it prints at, every character in the
    shadow's colour: the same lines, drawn offset under it."""
    shadow = el.shadow
    assert shadow is not None
    ink = read_colour(fc.palette.get(shadow.color, shadow.color))
    if ink is None or ink == NONE:
        return None  # not a colour: reported by validation
    _x, _y, bw, bh = op.box
    style = replace(ts, size=op.fit.size, fit="none", color=ink, ink=ink)
    width, height = pt(bw - 2 * op.padding), pt(bh - 2 * op.padding)
    fit = fit_text(text, style, fonts, eng.icons, fc.values, eng.lang, width, height)
    return fit, shadow.dx, shadow.dy, shadow.opacity


class Field(TextKind):
    """A text of the face (title, text, a fields: key) or a value of the card."""

    key = "field"

    def noun_of(self, el: Element) -> str:
        return f"text field {el.field}"

    def printed_names(self, el: Element) -> set[str]:
        return {str(el.field), *super().printed_names(el)}

    def text(self, el: Element, fc: FaceCtx, eng: Layouter) -> tuple[str | None, Text | None]:
        assert el.field is not None
        source = fc.face.text_field(el.field)
        if source is not None:
            return eng.translator.text(source, fc.values), source
        if el.field in fc.values:
            return str(fc.values[el.field]), None
        return None, None


class Template(TextKind):
    """A text built from the face's data (Jinja2, sandboxed)."""

    key = "template"
    noun = "template"

    def templates(self, el: Element) -> list[str]:
        return [el.template] if el.template else []

    def text(self, el: Element, fc: FaceCtx, eng: Layouter) -> tuple[str | None, Text | None]:
        assert el.template is not None
        return eng.render(el, "template", el.template, fc) or "", None


def _surely_fits(
    text: str, ts: TextStyle, fonts: FontSet, fc: FaceCtx, w: float, h: float, eng: Layouter
) -> bool:
    """Validation needs no exact size, only whether the text fits at some allowed size: at
    its full size, or else at the smallest size shrink-to-fit may choose (the build finds the
    exact size, between the two)."""
    paragraphs = parse(text, eng.icons, fc.values)  # the same runs at every size
    if runs_fit(paragraphs, ts, fonts, w, h):
        return True
    low = smallest_size(ts)
    return low < ts.size and runs_fit(paragraphs, replace(ts, size=low), fonts, w, h)


def _clear(
    kind: TextKind,
    op: TextOp,
    text: str,
    ts: TextStyle,
    fonts: FontSet,
    fc: FaceCtx,
    source: Text | None,
    el: Element,
    eng: Layouter,
) -> TextOp:
    """The text kept clear of the face's cut line (:mod:`..clear`); reported when it cannot
    be, at the text (or, for a template, at its element's box)."""

    def refit(width: float, height: float, size: float | None) -> Fit:
        style = ts if size is None else replace(ts, size=size, fit="none")
        return fit_text(text, style, fonts, eng.icons, fc.values, eng.lang, width, height)

    top, low = op.fit.size, smallest_size(ts)  # quarter points, the largest first
    sizes = [top - k / 4 for k in range(round((top - low) * 4) + 1)]
    op, reached = keep_clear(eng.cut, op, refit, sizes, eng.zone.clearance)
    if reached < eng.zone.clearance - 0.005:
        if source is not None:
            pos, what = eng.translator.position(source), f"text {source.ctx}"
        else:
            named = f" {el.name!r}" if el.name else ""
            pos, what = el.at("box"), f"template of layout element{named}"
        kind.cut_issue(eng, el, pos, what, reached, lang=True)
    return op


def _note(fit: Fit, source: Text | None, el: Element, eng: Layouter) -> None:
    """A text's problems in this language: too long, glyphs no font has, unknown {names}."""
    pos = eng.translator.position(source) if source is not None else el.pos
    what = source.ctx if source is not None else f"template of layout element {el.name or ''}"
    if fit.overflow is not None and eng.first("overflow", str(pos), what):
        direction = (
            "is wider than its box (a word too long to break?)"
            if fit.overflow == "horizontal"
            else "is taller than its box"
        )
        eng.issues.append(
            eng.issue(
                OVERFLOW,
                pos,
                f"[{eng.lang}] the text {what} {direction} even at {fit.size:g} pt; "
                "shorten it or enlarge the layout's box / lower min_size",
            )
        )
    if fit.missing.chars:
        _glyph_issues(eng, pos, what, fit.missing.chars)
    if fit.missing.tokens:
        names = ", ".join(sorted(fit.missing.tokens))
        if eng.first("token", str(pos), names):
            eng.issues.append(
                eng.issue(
                    REFERENCE,
                    pos,
                    f"[{eng.lang}] {{{names}}} is neither an icon nor a value of this face; "
                    "declare it under icons: or values:",
                    structural=True,
                )
            )


def _glyph_issues(eng: Any, pos: Any, what: str, chars: Any) -> None:
    """Characters no font printed: a control character is a leftover to remove, any other
    needs a font."""
    controls = sorted(c for c in chars if unicodedata.category(c) == "Cc")
    if controls and eng.first("control", str(pos), "".join(controls)):
        codes = ", ".join(f"U+{ord(c):04X}" for c in controls)
        many = len(controls) > 1
        eng.issues.append(
            eng.issue(
                GLYPH,
                pos,
                f"[{eng.lang}] the text {what} holds the control character{'s' * many} {codes}, "
                f"which no font prints: remove {'them' if many else 'it'} (a leftover of "
                "copying text?)",
            )
        )
    missing = "".join(sorted(c for c in chars if unicodedata.category(c) != "Cc"))
    if missing and eng.first("glyph", str(pos), missing):
        codes = ", ".join(f"U+{ord(c):04X}" for c in missing)
        issue = eng.issue(
            GLYPH,
            pos,
            f"[{eng.lang}] no bundled font has {missing!r} ({codes}); "
            + glyph_advice(missing, eng.lang),
        )
        issue.chars = missing  # the language's script finding gathers them
        eng.issues.append(issue)


__all__ = ["Field", "Template", "TextKind"]
