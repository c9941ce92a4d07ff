"""Layout stage: imposition of faces on sheets, as plain data.

Nothing here draws. :func:`plan_document` turns a game and the print options into a list of
:class:`Page` objects: where every card front and back goes (millimetres, origin at the top-left
corner of the page), where the cut marks and outlines are, where the scale bar and the page label
sit. The render stage only follows the plan, and the tests check geometry on the plan as well as
on the PDF.

The modules: :mod:`.geometry` (rectangles, lines, where a back lands), :mod:`.pages` (the plan's
pages, slots, options and distances), :mod:`.grid` (how many faces fit, flat or folded),
:mod:`.marks` (crop marks), :mod:`.furniture` (scale bar and page label), :mod:`.sheets` (fronts
and backs, or gutter-fold sheets), :mod:`.boards` (boards tiled over several pages),
:mod:`.planner` (a whole document) and :mod:`.proof` (translator proofs). Every public name is
available from this package itself.
"""

from __future__ import annotations

from .boards import (
    BOARD_MARGIN,
    BOARD_OVERLAP,
    BoardOverview,
    Tile,
    plan_board_tiles,
    tile_board,
)
from .furniture import place_furniture
from .geometry import Duplex, Line, Rect, mirror, mirror_line
from .grid import FoldGrid, Grid, fit_fold, fit_grid
from .marks import cell_marks, crop_marks, shift_marks
from .packing import TooLarge
from .pages import (
    MARK_LENGTH,
    MARK_OFFSET,
    MIN_MARGIN,
    MIN_MARK,
    SCALE_BAR,
    TOKEN_GAP,
    Furniture,
    Item,
    Options,
    Page,
    PageKind,
    Shape,
    Slot,
)
from .planner import board_overviews, double_sided_pages, number_sheets, plan_document
from .printable import Outside, outside_printable
from .proof import PROOF_SCALE_MAX, plan_proof
from .sheets import impose

__all__ = [
    "BOARD_MARGIN",
    "BOARD_OVERLAP",
    "MARK_LENGTH",
    "MARK_OFFSET",
    "MIN_MARGIN",
    "MIN_MARK",
    "PROOF_SCALE_MAX",
    "SCALE_BAR",
    "TOKEN_GAP",
    "BoardOverview",
    "Duplex",
    "FoldGrid",
    "Furniture",
    "Grid",
    "Item",
    "Line",
    "Options",
    "Outside",
    "Page",
    "PageKind",
    "Rect",
    "Shape",
    "Slot",
    "Tile",
    "TooLarge",
    "board_overviews",
    "cell_marks",
    "crop_marks",
    "double_sided_pages",
    "fit_fold",
    "fit_grid",
    "impose",
    "mirror",
    "mirror_line",
    "number_sheets",
    "outside_printable",
    "place_furniture",
    "plan_board_tiles",
    "plan_document",
    "plan_proof",
    "shift_marks",
    "tile_board",
]
