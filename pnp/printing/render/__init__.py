"""Render stage: follow a page plan and draw it with reportlab, into bytes.

Only this package touches the reportlab canvas. :class:`Pen` converts the plan's millimetres
(origin top-left) into PDF points (origin bottom-left); nothing else does. Faces that repeat (a
deck's shared back, the copies of a card) are drawn once into a Form XObject and placed many
times, so a deck of 1,000 cards carries one copy of its back.

Each kind of page is drawn by a small drawer, given the pen of the page and the document's
immutable :class:`RenderContext`; a drawer that needs what one PDF uses up owns it (the faces'
forms, the setup sheet's flow). The modules: :mod:`.pen` (millimetres to points, colours,
shapes), :mod:`.context` (what every drawer reads, and what a drawer is), :mod:`.faces` and
:mod:`.art` (a face's operations, art and its bleed, forms), :mod:`.marks` (crop marks and token
outlines), :mod:`.furniture` (page label, scale bar, fold line, blank pages), :mod:`.sheet`
(sheets of faces), :mod:`.boards` and :mod:`.overview` (tiles of large boards, their overview),
:mod:`.proof` (translator proofs), :mod:`.frontmatter`, :mod:`.instructions`, :mod:`.tables`,
:mod:`.scenarios`, :mod:`.flow` and :mod:`.setup` (the setup sheet), :mod:`.document` (the
:class:`Renderer`: the plan, and each page sent to its drawer) and :mod:`.calibration` (the
duplex calibration sheet). Every public name is available from this package itself.
"""

from __future__ import annotations

from .art import draw_art
from .calibration import draw_calibration, render_calibration
from .context import PageDrawer, RenderContext
from .document import Renderer
from .furniture import PAGE_KIND_WORDS, fit_label
from .instructions import print_advice
from .marks import HALO_WIDTH_PT, MARK_WIDTH_PT, draw_marks, draw_outlines
from .pen import Pen, color, shape_path

__all__ = [
    "HALO_WIDTH_PT",
    "MARK_WIDTH_PT",
    "PAGE_KIND_WORDS",
    "PageDrawer",
    "Pen",
    "RenderContext",
    "Renderer",
    "color",
    "draw_art",
    "draw_calibration",
    "draw_marks",
    "draw_outlines",
    "fit_label",
    "print_advice",
    "render_calibration",
    "shape_path",
]
