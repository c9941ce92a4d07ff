"""The marks of what the rulebook does not give: a dagger for an assumption, a "?" badge for a
placeholder, each in a free corner of the face.

A card, token or board with ``assumption:`` (or a face that draws a table with one) is this
copy's own choice where the rulebook is silent. Its front gets :data:`MARK` on a small white
disc, in a corner where no text, table, track, image or filled box of the face is drawn,
inside the card's border and rounded corners (inside the inscribed square of a round or
hexagonal token). A card or board with ``placeholder: true`` (its text is not published)
gets :data:`PLACEHOLDER` white on a dark rounded square, in another free corner. The setup
sheet explains each mark once.
"""

from __future__ import annotations

from typing import Any, Protocol

from ...content.model import Board, Card, Face, Game
from ...core.units import mm, pt
from ..fonts import FontSet
from ..markup import IconSpec
from ..text import TextStyle, fit_text
from .kinds import kind_of
from .layouts import Resolved
from .ops import TEXT_WEIGHT, FillOp, Op, StrokeOp, TextOp


class FaceEngine(Protocol):
    """What of the face engine (engine.py, which calls this module) the mark needs."""

    game: Game
    lang: str
    fonts: FontSet
    icons: dict[str, IconSpec]

    def resolved(self, lid: str) -> Resolved: ...

    def layout_id(self, face: Face, owner: Any, side: str) -> str: ...


MARK = "†"  # U+2020 DAGGER: in Noto Sans and DejaVu Sans, the fonts pnp bundles
MARK_COLOR = "#333333"
MARK_DISC = "#ffffff"  # drawn on a small white disc
MARK_PT = 8.0  # its size on cards and boards; smaller faces scale it down
PLACEHOLDER = "?"  # the placeholder mark: white on a dark rounded square
PLACEHOLDER_COLOR = "#222222"
PLACEHOLDER_PT = 9.0
EDGE_MM = 2.2  # its least distance from a rectangular face's edges (clear of rounded corners)

Box = tuple[float, float, float, float]


def assumed(engine: FaceEngine, face: Face, owner: Any, card: Card | Board, side: str) -> bool:
    """Whether this face carries the mark: the front of an assumed card, token or board, or a
    face drawing a table that is an assumption."""
    if side != "front" or face is not card:
        return False
    if getattr(card, "assumption", None) is not None:
        return True
    layout = engine.resolved(engine.layout_id(face, owner, side))
    return any(kind_of(el).assumed(el, engine.game) for el in layout.elements)


def with_mark(
    engine: FaceEngine,
    face: Face,
    owner: Any,
    card: Card | Board,
    side: str,
    w: float,
    h: float,
    ops: list[Op],
) -> list[Op]:
    """``ops`` with the assumption mark and the placeholder mark drawn last, each in a free
    corner, when the face carries them."""
    shape = getattr(owner, "shape", "rect")
    if assumed(engine, face, owner, card, side):
        size = min(MARK_PT, pt(min(w, h)) * 0.16)
        ts = TextStyle(face="bold", size=size, align="center", color=MARK_COLOR, hyphenate=False)
        side_mm = mm(size) * 1.25
        fit = _fit(engine, MARK, ts, side_mm)
        box = free_corner(ops, w, h, side_mm, shape)
        disc = FillOp(box, MARK_DISC, box[2] / 2)  # legible on dark colours and art alike
        ops = [*ops, disc, TextOp(box, fit, "middle", 0.0)]
    if side == "front" and face is card and getattr(card, "placeholder", False):
        ops = [*ops, *placeholder_badge(engine, ops, w, h, shape)]
    return ops


def placeholder_badge(
    engine: FaceEngine, ops: list[Op], w: float, h: float, shape: str
) -> list[Op]:
    """The placeholder mark: a white :data:`PLACEHOLDER` on a dark rounded square with a white
    rim, in a free corner (another than the dagger's): unlike the dagger's disc, it says
    that the rulebook does not publish this face's text."""
    largest = min(PLACEHOLDER_PT, pt(min(w, h)) * 0.2)
    for size in (largest, largest * 0.8, largest * 0.65):  # smaller where no corner is free
        side_mm = mm(size) * 1.45
        box = free_corner(ops, w, h, side_mm, shape)
        if not _covers_text(box, ops):
            break
    ts = TextStyle(face="bold", size=size, align="center", color="#ffffff", hyphenate=False)
    fit = _fit(engine, PLACEHOLDER, ts, side_mm)
    radius = side_mm * 0.22
    return [
        FillOp(box, PLACEHOLDER_COLOR, radius),
        StrokeOp(box, "#ffffff", 0.35, radius),
        TextOp(box, fit, "middle", 0.0),
    ]


def _covers_text(box: Box, ops: list[Op]) -> bool:
    """Whether ``box`` lies over a text, a table or a track the face draws."""
    return any(k >= TEXT_WEIGHT and _area(box, b) > 0 for op in ops for b, k in op.ink())


def _fit(engine: FaceEngine, text: str, ts: TextStyle, side_mm: float) -> Any:
    return fit_text(text, ts, engine.fonts, engine.icons, {}, engine.lang, pt(side_mm), pt(side_mm))


def free_corner(ops: list[Op], w: float, h: float, side: float, shape: str = "rect") -> Box:
    """The first corner (top right, top left, bottom right, bottom left) whose ``side`` mm
    square touches nothing drawn; else the one touching the least, where covering text (a
    table, a track) weighs ten times as much as covering a filled box or an image."""
    inset = _edge(ops, w, h) if shape in ("rect", "square") else min(w, h) * 0.15 + 0.5
    x0, x1 = inset, w - inset - side
    y0, y1 = inset, h - inset - side
    corners = [(x1, y0), (x0, y0), (x1, y1), (x0, y1)]
    taken = [(b, k) for op in ops for b, k in op.ink() if b[2] < w - 0.1 or b[3] < h - 0.1]

    def overlap(corner: tuple[float, float]) -> float:
        x, y = corner
        return sum(_area((x, y, side, side), b) * k for b, k in taken)

    best = min(corners, key=lambda c: (overlap(c) > 0, overlap(c), corners.index(c)))
    return (best[0], best[1], side, side)


def _edge(ops: list[Op], w: float, h: float) -> float:
    """How far from the edges the mark stays: clear of the rounded corners and of a border
    drawn around the face."""
    edge = EDGE_MM
    for op in ops:
        inset = op.frame_inset(w, h)
        if inset is not None:
            edge = max(edge, inset + 0.8)
    return edge


def _area(a: Box, b: Box) -> float:
    dx = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    dy = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    return dx * dy if dx > 0 and dy > 0 else 0.0
