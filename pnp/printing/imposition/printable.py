"""The printable area: what of a page plan reaches into the margin a printer cannot print.

Grids keep the default margin (5 mm) and room for their crop marks; a larger ``--margin`` does
not move the cards (their registration front to back must not change), so a plan can put a
card, its bleed or its crop marks where that printer cannot print. :func:`outside_printable`
finds them before anything is drawn.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...content.model import Board, Deck, TokenSet
from .geometry import Rect
from .pages import Page


@dataclass(frozen=True)
class Outside:
    """An owner whose faces (or their crop marks) reach into the margin on some page."""

    owner: Deck | TokenSet | Board
    page: int  # 1-based
    distance: float  # mm from the paper edge to the nearest face, bleed included
    what: str  # "faces" or "crop marks"


def outside_printable(pages: list[Page], margin: float, marks: bool = True) -> list[Outside]:
    """One entry per owner (its first page) whose faces come closer than ``margin`` to the
    paper edge, or, when crop marks are wanted, whose sheet of fronts has no room inside the
    printable area for a mark of at least MIN_MARK mm at each end of every cut line."""
    found: dict[str, Outside] = {}
    for n, page in enumerate(pages, 1):
        short = marks and page.short_marks > 0
        for slot in page.slots:
            owner = slot.item.owner
            if owner.id in found:
                continue
            d = _edge_distance(slot.rect.grow(slot.bleed), page.size.w, page.size.h)
            if d < margin - 1e-6:
                found[owner.id] = Outside(owner, n, d, "faces")
            elif short:
                found[owner.id] = Outside(owner, n, d, "crop marks")
    return list(found.values())


def _edge_distance(r: Rect, w: float, h: float) -> float:
    return min(r.x, r.y, w - r.right, h - r.bottom)
