"""Translator proofs: pages of face pairs, the source beside the translation."""

from __future__ import annotations

from ...content.model import Game, TokenSet
from ...content.queries import item_size
from ...core.units import Size
from .geometry import Rect
from .pages import Item, Page, Slot

PROOF_SCALE_MAX = 1.0


def plan_proof(game: Game, paper: Size) -> list[Page]:
    """Pages of face pairs (source | translation), one pair per row, for translators."""
    page_size = paper.portrait()
    margin, label, gap = 12.0, 5.0, 8.0
    pages: list[Page] = []
    pairs: list[tuple[Item, Size]] = []
    for owner in game.owners():
        size = item_size(game, owner)
        shape = owner.shape if isinstance(owner, TokenSet) else "rect"
        seen_back = False
        for card in owner.cards:
            pairs.append((Item(card, owner, card, "front", shape), size))
            back = card.back or owner.back
            if back is not None and (card.back is not None or not seen_back):
                pairs.append((Item(back, owner, card, "back", shape), size))
                seen_back = seen_back or card.back is None
    current: Page | None = None
    y = margin
    for item, size in pairs:
        avail_h = page_size.h - 2 * margin
        three_rows = (avail_h / 3 - label - 4) / size.h  # three pairs a page if legible
        scale = min(1.0, (page_size.w - 2 * margin - gap) / (2 * size.w), max(0.8, three_rows))
        w, h = size.w * scale, size.h * scale
        if current is None or y + label + h > page_size.h - margin:
            current = Page("proof", page_size, group="proof")
            pages.append(current)
            y = margin
        x0 = (page_size.w - 2 * w - gap) / 2
        n = len(current.slots)
        current.slots.append(Slot(Rect(x0, y + label, w, h), item, 0.0, n))
        current.slots.append(Slot(Rect(x0 + w + gap, y + label, w, h), item, 0.0, n + 1))
        y += label + h + 4
    for i, p in enumerate(pages, 1):
        p.sheet = i
    return pages
