"""The page plan: pages, the faces in their slots, and the print options that shape them.

A :class:`Page` is plain data: its slots (a face and its trim box), crop marks, fold line and
furniture (scale bar, page label), its sheet number and side. The distances every part of
the imposition keeps (margins, crop marks, gaps) are here too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from ...content.model import Board, Card, Deck, Face, TokenSet
from ...core.units import Size
from .geometry import Duplex, Line, Rect

Shape = Literal["rect", "round", "square", "hex"]

MIN_MARGIN = 5.0  # mm kept free at the paper edge: home printers print no closer (default)
MARK_OFFSET = 1.5  # mm between a card's trim (or bleed) edge and its crop mark
MARK_LENGTH = 6.0  # mm, longest crop mark
MIN_MARK = 3.0  # mm, shortest crop mark (visible, and long enough to lay a ruler on): grids
#                 keep this much room inside the margin, or take fewer rows or columns
TOKEN_GAP = 3.0  # mm between tokens (each is cut on its own)
OUTLINE_CLEAR = 1.0  # mm between faces cut on their outlines (tokens) and the margin or marks
SCALE_BAR = 50.0  # mm
FOLD_GUTTER = 4.0  # mm between fronts and backs across a gutter fold: a fold a little off
#                    does not show at the cards' edges, which are cut on their marks


@dataclass(frozen=True)
class Item:
    """A face to draw in a slot, and what it belongs to."""

    face: Face | None  # None: an empty back (single-sided item in a duplex pair)
    owner: Deck | TokenSet | Board
    card: Card | Board
    side: Literal["front", "back"]
    shape: Shape = "rect"
    copy: int = 0


@dataclass
class Slot:
    rect: Rect  # the trim box of the face on the page
    item: Item
    bleed: float = 0.0
    index: int = 0  # position in the grid (row-major), same on fronts and backs
    turned: bool = False  # drawn upside down (the backs of a horizontal gutter fold)


PageKind = Literal[
    "fronts",
    "backs",
    "tokens",
    "token-backs",
    "setup",
    "blank",
    "board",
    "board-overview",
    "fold",
    "calibration",
    "proof",
]


@dataclass
class Furniture:
    """Where the scale bar and the label of a page go (mm, page coordinates)."""

    scale_bar: Line | None = None  # the bar itself, SCALE_BAR mm long
    scale_vertical: bool = False
    label_at: tuple[float, float] = (0.0, 0.0)  # baseline start of the page label
    label_vertical: bool = False
    label_width: float = 0.0  # room for the label, mm
    scale_text_room: float = 0.0  # room for the text along the scale bar, mm


@dataclass
class Page:
    kind: PageKind
    size: Size
    slots: list[Slot] = field(default_factory=list)
    marks: list[Line] = field(default_factory=list)  # crop marks
    fold: Line | None = None
    furniture: Furniture = field(default_factory=Furniture)
    group: str = ""  # what this page prints (deck or token set names), for the label
    sheet: int = 0  # 1-based physical sheet number in the document
    side: Literal["front", "back"] = "front"
    trim: Rect | None = None  # trim box: the grid of cards, without bleed
    bleed: float = 0.0
    short_marks: int = 0  # ends of cut lines with no room for a crop mark (printable check)
    payload: object = None  # setup sheet: the game; board tile: tile info


@dataclass(frozen=True)
class Options:
    paper: str = "a4"
    duplex: Duplex = "long"
    fold: bool = False
    bleed: float = 0.0
    crop_marks: bool = True
    back_offset: tuple[float, float] = (0.0, 0.0)
    gap: float | None = None  # None: the game's print.gap
    margin: float = MIN_MARGIN  # mm at the paper edge the printer cannot print: nothing drawn
    fold_gutter: float = FOLD_GUTTER  # --fold: mm between the fronts and the backs
    ink_saver: bool = False  # backs drawn as a light tint of themselves
