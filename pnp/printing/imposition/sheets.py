"""Sheets of faces: a run of items imposed as fronts and their mirrored backs, or folded.

:func:`impose` puts items of one size on as many sheets as they need: with ``--fold`` and backs
to print, gutter-fold sheets (fronts and backs on one side of the paper, across the fold
line); otherwise a page of fronts followed by a page of their backs, mirrored for the duplex
flip and shifted by the back offset.
"""

from __future__ import annotations

from dataclasses import replace

from ...core.units import Size
from .furniture import place_furniture
from .geometry import Line, Rect
from .grid import FoldGrid, folds
from .marks import cell_marks
from .packing import Run, pack
from .pages import Item, Options, Page, PageKind, Slot


def impose(
    paper: Size,
    size: Size,
    gap: float,
    items: list[tuple[Item, Item | None]],
    opts: Options,
    group: str,
    kinds: tuple[PageKind, PageKind],
    bleed: float,
) -> list[Page]:
    """Items of one size on as many sheets as they need: gutter-fold sheets when folding and
    there are backs to print (if the fold arrangement fits), else pages of fronts, each
    followed by the page of their backs (:func:`~.packing.pack`)."""
    has_backs = any(b is not None for _f, b in items)
    marked = kinds[0] == "fronts"  # cards get crop marks; tokens their outlines
    if opts.fold and has_backs:
        found = folds(paper, size, gap, bleed, opts.fold_gutter)
        for fold in found:  # the fullest arrangement that has room for the scale bar
            pages = _fold_pages(fold, items, opts, group, bleed, marked)
            if pages[0].furniture.scale_bar is not None:
                return pages
        if found:
            return _fold_pages(found[0], items, opts, group, bleed, marked)
        # too large to fold: fronts and backs on pages of their own, mirrored for gluing
        opts = replace(opts, duplex="none")
    spacing = max(gap, 2 * bleed)
    return pack(paper, [Run(size, spacing, items, group, kinds, marked)], opts, bleed)


def _fold_pages(
    fold: FoldGrid,
    items: list[tuple[Item, Item | None]],
    opts: Options,
    group: str,
    bleed: float,
    marked: bool,
) -> list[Page]:
    grid = fold.grid
    pages = []
    front_ext = grid.extent()
    last = fold.back_rect(grid.count - 1)
    first = fold.back_rect(0)
    back_ext = Rect(
        min(first.x, last.x),
        min(first.y, last.y),
        abs(last.x - first.x) + last.w,
        abs(last.y - first.y) + last.h,
    )
    both = Rect(
        min(front_ext.x, back_ext.x),
        min(front_ext.y, back_ext.y),
        max(front_ext.right, back_ext.right) - min(front_ext.x, back_ext.x),
        max(front_ext.bottom, back_ext.bottom) - min(front_ext.y, back_ext.y),
    )
    for start in range(0, len(items), grid.count):
        chunk = items[start : start + grid.count]
        ids = (getattr(f.owner, "id", None) for f, _b in chunk)
        owners = ", ".join(dict.fromkeys(i for i in ids if i))  # what the page prints
        page = Page("fold", grid.paper, group=owners or group)
        page.fold = _along(fold.fold, both.grow(bleed + 1.0))
        page.trim = both
        page.bleed = bleed
        for i, (f, b) in enumerate(chunk):
            page.slots.append(Slot(grid.rect(i), f, bleed, i))
            back = b or Item(None, f.owner, f.card, "back", f.shape)
            # folded across a horizontal line, a back would read upside down: turn it
            page.slots.append(Slot(fold.back_rect(i), back, bleed, i, turned=fold.horizontal))
        if opts.crop_marks and marked:
            page.marks = _fold_marks(page, fold, bleed, opts.margin)
        page.furniture = place_furniture(grid.paper, both.grow(bleed), page.marks, opts.margin)
        pages.append(page)
    return pages


def _fold_marks(page: Page, fold: FoldGrid, bleed: float, margin: float) -> list[Line]:
    """The crop marks of a gutter-fold page: each half's cards marked inside the printable
    area on its side of the fold (the gutter is too narrow for marks: the fold side's lines
    keep the mark at their other end); none for an empty place."""
    f, size = fold.fold, page.size
    inner = Rect(margin, margin, size.w - 2 * margin, size.h - 2 * margin)
    if fold.horizontal:
        halves = [
            Rect(inner.x, inner.y, inner.w, f.y1 - inner.y),
            Rect(inner.x, f.y1, inner.w, inner.bottom - f.y1),
        ]
    else:
        halves = [
            Rect(inner.x, inner.y, f.x1 - inner.x, inner.h),
            Rect(f.x1, inner.y, inner.right - f.x1, inner.h),
        ]
    marks: list[Line] = []
    for half in halves:
        cells = [s.rect for s in page.slots if s.item.face is not None and _within(s.rect, half)]
        marks.extend(cell_marks(cells, bleed, half)[0])
    return marks


def _within(r: Rect, area: Rect) -> bool:
    cx, cy = r.x + r.w / 2, r.y + r.h / 2
    return area.contains(cx, cy)


def _along(line: Line, span: Rect) -> Line:
    """The fold line across the cards only (plus a millimetre): it stays clear of the crop
    marks in the margins, and the page label says "fold here"."""
    if line.y1 == line.y2:
        return Line(span.x, line.y1, span.right, line.y2)
    return Line(line.x1, span.y, line.x2, span.bottom)
