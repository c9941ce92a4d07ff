"""Faces: what is drawn on one card, token or board face, computed without drawing.

:class:`FaceEngine` resolves a face's layout (``extends`` chains, styles), translates its texts
for a language, fits every text into its box and returns a list of drawing operations. The
render stage executes the operations; validation uses the same engine to report overflowing
texts and missing glyphs per language without producing a PDF.

The modules: :mod:`.layouts` (built-in layouts, ``extends`` chains, which layout draws a face),
:mod:`.kinds` (the element kinds, one module each, and their table), :mod:`.ops` (the
drawing operations, each drawing itself), :mod:`.shapes` (boxes and points turned, polygons
clipped), :mod:`.colours` (the colours the renderer reads), :mod:`.values` (a face's palette,
its templates rendered per card, its image files), :mod:`.tables` (table cells and tables that
fit their box), :mod:`.cuts` (where a face is cut, and how far inside it its glyphs lie),
:mod:`.clear` (texts narrowed to stay clear of the cut), :mod:`.issues` (text problems per face
and language) and :mod:`.engine` (the engine).
Every public name is available from this package itself.
"""

from __future__ import annotations

from .colours import NONE, PALETTE, colour_names, is_template, read_colour
from .engine import (
    DEFAULT_ACCENT,
    DEFAULT_TEXT,
    MAX_TEMPLATE_CHARS,
    TEMPLATE_SECONDS,
    FaceEngine,
)
from .issues import TextIssue, face_id
from .kinds import KINDS, ElementKind, PathOp, Placed, TableOp, TrackOp, kind_of, outline
from .layouts import (
    BUILTIN_LAYOUTS,
    MAX_EXTENDS,
    LayoutCycle,
    Resolved,
    builtin_layouts,
    face_layout_id,
    layout_table,
    parent_of,
    resolve_layout,
)
from .ops import FillOp, Group, ImageOp, Op, Operation, StrokeOp, Surface, TextOp, flatten
from .shapes import clip, element_box, extent, spans
from .tables import build_table, cell_text, table_fit_size, table_height

__all__ = [
    "BUILTIN_LAYOUTS",
    "DEFAULT_ACCENT",
    "DEFAULT_TEXT",
    "KINDS",
    "MAX_EXTENDS",
    "MAX_TEMPLATE_CHARS",
    "NONE",
    "PALETTE",
    "TEMPLATE_SECONDS",
    "ElementKind",
    "FaceEngine",
    "FillOp",
    "Group",
    "ImageOp",
    "LayoutCycle",
    "Op",
    "Operation",
    "PathOp",
    "Placed",
    "Resolved",
    "StrokeOp",
    "Surface",
    "TableOp",
    "TextIssue",
    "TextOp",
    "TrackOp",
    "build_table",
    "builtin_layouts",
    "cell_text",
    "clip",
    "colour_names",
    "element_box",
    "extent",
    "face_id",
    "face_layout_id",
    "flatten",
    "is_template",
    "kind_of",
    "layout_table",
    "outline",
    "parent_of",
    "read_colour",
    "resolve_layout",
    "spans",
    "table_fit_size",
    "table_height",
]
