"""Leftovers: tokens of a little-used sheet moved onto the free paper of board tiles.

A board larger than the paper is tiled, and the tiles of its last column and row are smaller
than the page: their pages are half empty. Tokens without backs are cut on their outlines, on
the same card as the board and single-sided like it, so when the last sheets of such tokens
would fit in that free paper, they go there, beside the tiles, and their sheets are saved.
Nothing moves unless a whole sheet does.
"""

from __future__ import annotations

import math

from ...content.model import TokenSet
from .boards import Tile
from .furniture import BAR_AFTER, BAR_BEFORE, CAPTION_EXTRA
from .geometry import Rect
from .pages import MARK_LENGTH, MARK_OFFSET, OUTLINE_CLEAR, TOKEN_GAP, Options, Page, Slot


def onto_tiles(pages: list[Page], opts: Options) -> list[Page]:
    """``pages`` with the last sheets of tokens (those without backs) moved onto the free
    paper of board tiles, as long as each fits there whole."""
    tiles = [p for p in pages if p.kind == "board" and isinstance(p.payload, Tile)]
    if not tiles or opts.fold:
        return pages
    free = {id(p): _free_rects(p, opts) for p in tiles}
    moved: set[int] = set()
    for i in range(len(pages) - 1, -1, -1):
        page = pages[i]
        if not _loose_tokens(pages, i):
            continue
        placed = _place(page.slots, tiles, free, opts)
        if placed is None:
            break
        for tile_page, slot in placed:
            tile_page.slots.append(slot)
        moved.add(id(page))
    return [p for p in pages if id(p) not in moved]


def _loose_tokens(pages: list[Page], i: int) -> bool:
    """Whether page ``i`` is a sheet of tokens without backs (no page of backs follows)."""
    page = pages[i]
    if page.kind != "tokens" or page.side != "front" or not page.slots:
        return False
    backed = i + 1 < len(pages) and pages[i + 1].side == "back"
    return not backed and all(isinstance(s.item.owner, TokenSet) for s in page.slots)


def _free_rects(page: Page, opts: Options) -> list[Rect]:
    """The empty paper of a tile's page, inside the printable margin: right of the tile (its
    marks, label and scale bar), and below them."""
    tile = page.payload
    assert isinstance(tile, Tile)
    reach = MARK_OFFSET + MARK_LENGTH + 2 * OUTLINE_CLEAR  # the marks, and room to cut
    blocked = [page.slots[0].rect.grow(reach)]
    if tile.band is not None:
        blocked.append(tile.band.grow(OUTLINE_CLEAR))
    bar = page.furniture.scale_bar
    if bar is not None:
        box = bar.bbox()
        room = max(page.furniture.scale_text_room, box.w)
        blocked.append(
            Rect(box.x, box.y - BAR_BEFORE, room + CAPTION_EXTRA, BAR_BEFORE + BAR_AFTER)
        )
    m = opts.margin + OUTLINE_CLEAR
    right = max(b.right for b in blocked)
    bottom = max(b.bottom for b in blocked)
    size = page.size
    found = [
        Rect(right, m, size.w - m - right, size.h - 2 * m),
        Rect(m, bottom, size.w - 2 * m, size.h - m - bottom),
    ]
    # where the tokens' trim boxes may go: their bleed stays inside the free paper too
    inner = [r.grow(-opts.bleed) for r in found]
    return [r for r in inner if r.w > 0 and r.h > 0]


def _place(
    slots: list[Slot], tiles: list[Page], free: dict[int, list[Rect]], opts: Options
) -> list[tuple[Page, Slot]] | None:
    """Where each slot of a sheet goes on the tiles' free paper (last tiles first), or None
    when they do not all fit; a rectangle used is used up."""
    placed: list[tuple[Page, Slot]] = []
    taken: dict[int, list[Rect]] = {k: list(v) for k, v in free.items()}
    todo = list(slots)
    for page in reversed(tiles):
        rects = taken[id(page)]
        while todo and rects:
            todo, left = _fill(rects.pop(0), todo, page, placed, opts)
            if left is not None:
                rects.insert(0, left)
        if not todo:
            break
    if todo:
        return None
    for k, v in taken.items():
        free[k] = v
    return placed


def _fill(
    rect: Rect, todo: list[Slot], page: Page, placed: list[tuple[Page, Slot]], opts: Options
) -> tuple[list[Slot], Rect | None]:
    """Put the first slots of ``todo`` of one size in a grid in ``rect``: the slots left,
    and the part of ``rect`` below the rows used (None when nothing is left of it)."""
    size = todo[0].rect
    same = [s for s in todo if (s.rect.w, s.rect.h) == (size.w, size.h)]
    rest = [s for s in todo if (s.rect.w, s.rect.h) != (size.w, size.h)]
    sp = max(TOKEN_GAP, 2 * opts.bleed)
    cols = math.floor((rect.w + sp) / (size.w + sp) + 1e-9)
    rows = math.floor((rect.h + sp) / (size.h + sp) + 1e-9)
    n = min(len(same), max(cols, 0) * max(rows, 0))
    index = len(page.slots) + sum(1 for p, _s in placed if p is page)
    for k in range(n):
        r, c = divmod(k, cols)
        at = Rect(rect.x + c * (size.w + sp), rect.y + r * (size.h + sp), size.w, size.h)
        placed.append((page, Slot(at, same[k].item, same[k].bleed, index + k)))
    used = math.ceil(n / cols) * (size.h + sp) if n else 0.0
    left = (
        Rect(rect.x, rect.y + used, rect.w, rect.h - used) if used and rect.h - used > 0 else None
    )
    return same[n:] + rest, left if n else None
