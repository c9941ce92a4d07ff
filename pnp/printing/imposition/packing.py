"""Packing: runs of faces of different sizes sharing sheets, in bands of one size each.

A run is what used to fill sheets on its own: the decks of one card size, the token sets of
one shape and size, the boards that fit the paper. When a run ends part way down a sheet, the
next runs of the same back handling (both with backs, or both without) fill it with bands
below, in the sheet's orientation: a deck of one card no longer costs a sheet and its back.
Bands are stacked from the top with room for their crop marks between them; the stack is centred on
the page and each band across it, so a sheet filled by one run is the centred grid it always
was. Backs are each front's slot mirrored for the duplex flip, band by band.
"""

from __future__ import annotations

import functools
import itertools
import math
from dataclasses import dataclass, replace
from typing import Any

from ...core.units import Size
from .furniture import place_furniture
from .geometry import Line, Rect, mirror, mirror_line
from .grid import Grid, edge_room, fit_count, flush, grids, place
from .marks import BAND_MARK, band_marks, shift_marks
from .pages import (
    MARK_OFFSET,
    MIN_MARGIN,
    OUTLINE_CLEAR,
    TOKEN_GAP,
    Item,
    Options,
    Page,
    PageKind,
    Slot,
)

Pair = tuple[Item, Item | None]


class TooLarge(ValueError):
    """The faces of ``run`` do not fit on the paper (with its margin, crop marks and bleed)."""

    def __init__(self, run: Run, paper: str) -> None:
        super().__init__(f"a {run.size} item does not fit on {paper}")
        self.run, self.paper = run, paper


@dataclass(frozen=True)
class Run:
    """Faces of one size imposed together, in order."""

    size: Size
    spacing: float  # mm between neighbours (the game's gap, or twice the bleed)
    items: list[Pair]
    group: str  # the ids of what it prints, for the page label
    kinds: tuple[PageKind, PageKind]  # the kind of its pages of fronts and of backs
    marked: bool  # crop marks (cards, boards); tokens are cut on their outlines

    @functools.cached_property
    def has_backs(self) -> bool:
        return any(b is not None for _f, b in self.items)


@dataclass(frozen=True)
class Band:
    """Some of a run's faces on one sheet: a grid of the rows they need."""

    run: Run
    grid: Grid  # its rows are the rows used; placed (x0, y0) when the sheet is laid out
    items: list[Pair]

    @property
    def height(self) -> float:
        g = self.grid
        return g.rows * g.cell.h + (g.rows - 1) * (g.pitch_y - g.cell.h)


def band_gap(upper: Band, lower: Band, bleed: float) -> float:
    """Room between two bands: their crop marks (BAND_MARK each, from MARK_OFFSET outside
    the bleed, half a millimetre apart at the middle); one band's marks and OUTLINE_CLEAR mm before
    the other's outlines; or the token gap between outlines."""
    marks = bleed + MARK_OFFSET + BAND_MARK
    if upper.run.marked and lower.run.marked:
        return 2 * (marks + 0.5)
    if upper.run.marked or lower.run.marked:
        return marks + OUTLINE_CLEAR + bleed
    return max(TOKEN_GAP, 2 * bleed)


def stack_edges(bands: list[Band], bleed: float) -> tuple[float, float]:
    """The room above the first band and below the last at the default margin: crop marks
    of MIN_MARK mm beside a band of cards, OUTLINE_CLEAR mm beside a band of tokens."""
    return edge_room(bleed, bands[0].run.marked), edge_room(bleed, bands[-1].run.marked)


def stack_room(bands: list[Band], bleed: float, reserve: float) -> float:
    """The tallest a stack may be: marks below its last band, and above its first band
    when there is room for them, else that band against the top margin (:func:`flush`)."""
    page = bands[0].grid.paper
    top = flush(bleed, reserve) if bands[0].run.marked else edge_room(bleed, False)
    return page.h - top - stack_edges(bands, bleed)[1]


def reserve_of(opts: Options) -> float:
    """The room a grid against a margin keeps for the backs' offset."""
    return max(abs(opts.back_offset[0]), abs(opts.back_offset[1]))


def pack(paper: Size, runs: list[Run], opts: Options, bleed: float) -> list[Page]:
    """The pages of fronts (each followed by its page of backs, when it has any) of ``runs``:
    those with backs first, then those without, each in the order given. A run goes on in a
    band below the first sheet of its stream that has room for a row of it (first fit), else
    on a new sheet. Sheets laid out alike (a long deck's) are laid out once."""
    pages: list[Page] = []
    seen: dict[Any, Any] = {}  # a sheet's layout by its signature (:func:`_signature`)
    reserve = reserve_of(opts)
    for stream in ([r for r in runs if r.has_backs], [r for r in runs if not r.has_backs]):
        sheets: list[list[Band]] = []
        open_: list[list[Band]] = []  # the sheets a row of the smallest faces may still fit
        smallest = min((r.size.h for r in stream), default=0.0)
        for run in stream:
            rest = run.items
            while rest:
                band = next(
                    (b for sh in open_ if (b := _below(sh, run, rest, bleed, opts, seen))), None
                )
                sheet = next((sh for sh in open_ if band is not None and sh[-1] is band), None)
                if band is None:
                    band = _first(paper, run, rest, bleed, opts, seen)
                    sheet = [band]
                    sheets.append(sheet)
                    open_.append(sheet)
                assert sheet is not None
                free = stack_room(sheet, bleed, reserve) - _stack_height(sheet, bleed)
                if free < smallest:
                    open_.remove(sheet)
                rest = rest[len(band.items) :]
        for sheet in sheets:
            pages.extend(_pages(sheet, opts, bleed, seen))
    return pages


def _first(
    paper: Size, run: Run, rest: list[Pair], bleed: float, opts: Options, seen: dict[Any, Any]
) -> Band:
    """The band that starts a sheet: of the grids with room for the scale bar, the one that
    places the most of ``rest`` (portrait first, then the fullest)."""
    found = grids(paper, run.size, run.spacing, bleed, run.marked, reserve_of(opts))
    if not found:
        raise TooLarge(run, opts.paper)
    best: Band | None = None
    for grid in found:
        band = _band(grid, run, rest)
        if not _furnished([band], opts, bleed, seen):
            continue
        if best is None or len(band.items) > len(best.items):
            best = band
    return best or _band(found[0], run, rest)


def _band(grid: Grid, run: Run, rest: list[Pair], rows: int | None = None) -> Band:
    """As much of ``rest`` as ``rows`` rows of ``grid`` hold (all its rows by default)."""
    rows = grid.rows if rows is None else rows
    n = min(len(rest), grid.cols * rows)
    used = math.ceil(n / grid.cols)
    return Band(run, replace(grid, rows=used), rest[:n])


def _below(
    sheet: list[Band],
    run: Run,
    rest: list[Pair],
    bleed: float,
    opts: Options,
    seen: dict[Any, Any],
) -> Band | None:
    """A band of ``run`` added under the bands of ``sheet``, in its orientation, if one row
    fits and the sheet keeps room for its scale bar; None otherwise."""
    if run.has_backs != sheet[0].run.has_backs:
        return None
    page = sheet[0].grid.paper
    w, h, sp = run.size.w, run.size.h, run.spacing
    reserve = reserve_of(opts)
    cols = fit_count(page.w, w, sp, bleed, run.marked, reserve)
    probe = Band(run, Grid(page, run.size, 1, 1, w + sp, h + sp, 0, 0), rest[:1])
    used = _stack_height(sheet, bleed) + band_gap(sheet[-1], probe, bleed)
    room = stack_room([*sheet, probe], bleed, reserve)
    rows = math.floor((room - used + sp) / (h + sp) + 1e-9)
    if cols < 1 or rows < 1:
        return None
    grid = Grid(page, run.size, cols, rows, w + sp, h + sp, 0.0, 0.0)
    for r in range(min(rows, math.ceil(len(rest) / cols)), 0, -1):
        band = _band(grid, run, rest, r)
        if _furnished([*sheet, band], opts, bleed, seen):
            sheet.append(band)
            return band
    return None


def _stack_height(bands: list[Band], bleed: float) -> float:
    gaps = sum(band_gap(a, b, bleed) for a, b in itertools.pairwise(bands))
    return sum(b.height for b in bands) + gaps


def _placed(bands: list[Band], bleed: float, reserve: float, margin: float) -> list[Band]:
    """The bands at their places: the stack centred on the page between the room its first
    and last bands need (at the top when it fills less than half of it; against the top
    margin when that room is not there), each band across it (or against the left margin,
    likewise)."""
    page = bands[0].grid.paper
    top, bottom = stack_edges(bands, bleed)
    height = _stack_height(bands, bleed)
    if height <= (page.h - top - bottom) / 2:  # a sheet little used: its faces at the top,
        y = top + max(0.0, margin - MIN_MARGIN)  # inside the printer's margin (--margin)
    elif height <= page.h - top - bottom + 1e-9:
        y = top + (page.h - top - bottom - height) / 2
    else:
        y = page.h - stack_room(bands, bleed, reserve) - bottom
    out = []
    for i, band in enumerate(bands):
        if i:
            y += band_gap(bands[i - 1], band, bleed)
        g = band.grid
        width = g.cols * g.cell.w + (g.cols - 1) * (g.pitch_x - g.cell.w)
        x0 = place(page.w, width, bleed, band.run.marked, reserve)
        out.append(replace(band, grid=replace(g, x0=x0, y0=y)))
        y += band.height
    return out


def _limits(bands: list[Band], i: int, opts: Options, bleed: float) -> tuple[float, float]:
    """How far up and down the crop marks of band ``i`` may reach: the printable margin at
    the top and bottom of the stack; inside it, half-way to a band of cards, or OUTLINE_CLEAR mm
    before the faces of a band of tokens."""
    page = bands[i].grid.paper
    top, bottom = opts.margin, page.h - opts.margin
    if i:
        above = bands[i - 1]
        edge = above.grid.y0 + above.height + bleed
        top = edge + (
            band_gap(above, bands[i], bleed) / 2 - bleed + 0.25
            if above.run.marked
            else OUTLINE_CLEAR
        )
    if i + 1 < len(bands):
        below = bands[i + 1]
        edge = below.grid.y0 - bleed
        bottom = edge - (
            band_gap(bands[i], below, bleed) / 2 - bleed + 0.25
            if below.run.marked
            else OUTLINE_CLEAR
        )
    return top, bottom


def _marks(bands: list[Band], opts: Options, bleed: float) -> tuple[list[Line], int]:
    """Every band's crop marks (cards and boards; not tokens), and how many ends of cut lines
    have no room for one."""
    marks: list[Line] = []
    short = 0
    if not opts.crop_marks:
        return marks, short
    for i, band in enumerate(bands):
        if not band.run.marked:
            continue
        top, bottom = _limits(bands, i, opts, bleed)
        found, missing = band_marks(band.grid, len(band.items), bleed, opts.margin, top, bottom)
        marks.extend(found)
        short += missing
    return marks, short


def _extent(bands: list[Band]) -> Rect:
    """The box around every face of the sheet (without bleed)."""
    rects = [b.grid.rect(i) for b in bands for i in range(len(b.items))]
    x0, y0 = min(r.x for r in rects), min(r.y for r in rects)
    return Rect(x0, y0, max(r.right for r in rects) - x0, max(r.bottom for r in rects) - y0)


def _signature(bands: list[Band]) -> tuple[Any, ...]:
    """What a sheet's layout depends on: its bands' runs, grids and numbers of faces."""
    return tuple((id(b.run), b.grid, len(b.items)) for b in bands)


def _layout(bands: list[Band], opts: Options, bleed: float, seen: dict[Any, Any]) -> Any:
    """A sheet laid out: its bands placed, marks, cut lines without a mark, extent and
    furniture; the same for every sheet of the same signature."""
    key = _signature(bands)
    if key not in seen:
        placed = _placed(bands, bleed, reserve_of(opts), opts.margin)
        marks, short = _marks(placed, opts, bleed)
        extent = _extent(placed)
        page = placed[0].grid.paper
        fur = place_furniture(page, extent.grow(bleed), marks, opts.margin)
        seen[key] = ([b.grid for b in placed], marks, short, extent, fur)
    return seen[key]


def _furnished(bands: list[Band], opts: Options, bleed: float, seen: dict[Any, Any]) -> bool:
    """Whether the laid-out sheet has room for its scale bar."""
    return bool(_layout(bands, opts, bleed, seen)[4].scale_bar is not None)


def _pages(sheet: list[Band], opts: Options, bleed: float, seen: dict[Any, Any]) -> list[Page]:
    """A laid-out sheet as its page of fronts and, when a face has a back, its page of backs."""
    grids_, marks, short, extent, fur = _layout(sheet, opts, bleed, seen)
    bands = [replace(b, grid=g) for b, g in zip(sheet, grids_, strict=True)]
    page_size = bands[0].grid.paper
    # what the page prints, not every deck of its runs
    owners = (getattr(f.owner, "id", None) for b in bands for f, _b in b.items)
    group = ", ".join(dict.fromkeys(o for o in owners if o)) or bands[0].run.group
    kinds = bands[0].run.kinds
    front = Page(kinds[0], page_size, marks=list(marks), group=group, furniture=fur)
    front.trim, front.bleed, front.short_marks = extent, bleed, short
    index = 0
    for band in bands:
        for i, (f, _b) in enumerate(band.items):
            front.slots.append(Slot(band.grid.rect(i), f, bleed, index))
            index += 1
    if not any(b is not None for band in bands for _f, b in band.items):
        return [front]
    return [front, _backs(front, bands, opts, bleed, seen)]


def _backs(
    front: Page, bands: list[Band], opts: Options, bleed: float, seen: dict[Any, Any]
) -> Page:
    """The page of backs: each back where its front lands once the sheet is flipped (or
    turned over for gluing), shifted by the back offset."""
    size = front.size
    dx, dy = opts.back_offset
    back = Page(bands[0].run.kinds[1], size, group=front.group, side="back")
    back.bleed = bleed
    assert front.trim is not None
    back.trim = mirror(front.trim, size, opts.duplex).shift(dx, dy)
    key = ("backs", _signature(bands))
    if key not in seen:
        mirrored = [mirror_line(m, size, opts.duplex) for m in front.marks]
        marks = shift_marks(mirrored, dx, dy, size, opts.margin)
        seen[key] = (marks, place_furniture(size, back.trim.grow(bleed), marks, opts.margin))
    marks, back.furniture = seen[key]
    back.marks = list(marks)
    pairs = [pair for band in bands for pair in band.items]
    for slot, (f, b) in zip(front.slots, pairs, strict=True):
        rect = mirror(slot.rect, size, opts.duplex).shift(dx, dy)
        item = b or Item(None, f.owner, f.card, "back", f.shape)
        back.slots.append(Slot(rect, item, bleed, slot.index))
    return back
