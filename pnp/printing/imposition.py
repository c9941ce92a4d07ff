"""Layout stage: imposition of faces on sheets, as plain data.

Nothing here draws. :func:`plan_document` turns a game and the print options into a list of
:class:`Page` objects: where every card front and back goes (millimetres, origin at the top-left
corner of the page), where the cut marks and outlines are, where the scale bar and the page label
sit. The render stage only follows the plan, and the tests check geometry on the plan as well as
on the PDF.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Literal

from ..content.model import Board, Card, Deck, Face, Game, TokenSet
from ..content.queries import card_size, item_size, token_size
from ..core.units import PAPERS, Size

Duplex = Literal["long", "short", "none"]
Shape = Literal["rect", "round", "square", "hex"]

MIN_MARGIN = 5.0  # mm kept free at the paper edge (printers rarely print closer)
MARK_OFFSET = 1.5  # mm between a card's trim (or bleed) edge and its crop mark
MARK_LENGTH = 6.0  # mm, longest crop mark
TOKEN_GAP = 3.0  # mm between tokens (each is cut on its own)
SCALE_BAR = 50.0  # mm


@dataclass(frozen=True, slots=True)
class Rect:
    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def bottom(self) -> float:
        return self.y + self.h

    def grow(self, d: float) -> Rect:
        return Rect(self.x - d, self.y - d, self.w + 2 * d, self.h + 2 * d)

    def shift(self, dx: float, dy: float) -> Rect:
        return Rect(self.x + dx, self.y + dy, self.w, self.h)

    def overlaps(self, other: Rect, eps: float = 1e-6) -> bool:
        return (
            self.x < other.right - eps
            and other.x < self.right - eps
            and self.y < other.bottom - eps
            and other.y < self.bottom - eps
        )

    def contains(self, x: float, y: float, eps: float = 1e-6) -> bool:
        return self.x - eps <= x <= self.right + eps and self.y - eps <= y <= self.bottom + eps


@dataclass(frozen=True, slots=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float

    def bbox(self) -> Rect:
        return Rect(
            min(self.x1, self.x2),
            min(self.y1, self.y2),
            abs(self.x2 - self.x1),
            abs(self.y2 - self.y1),
        )


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


PageKind = Literal[
    "fronts",
    "backs",
    "tokens",
    "token-backs",
    "setup",
    "blank",
    "board",
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


@dataclass(frozen=True)
class Grid:
    paper: Size  # oriented
    cell: Size  # the item's trim size
    cols: int
    rows: int
    pitch_x: float  # distance between the left edges of two neighbours
    pitch_y: float
    x0: float  # top-left of the first trim box
    y0: float

    @property
    def count(self) -> int:
        return self.cols * self.rows

    def rect(self, index: int) -> Rect:
        r, c = divmod(index, self.cols)
        return Rect(
            self.x0 + c * self.pitch_x, self.y0 + r * self.pitch_y, self.cell.w, self.cell.h
        )

    def extent(self) -> Rect:
        last = self.rect(self.count - 1)
        return Rect(self.x0, self.y0, last.right - self.x0, last.bottom - self.y0)

    def x_edges(self) -> list[float]:
        edges = {
            round(self.x0 + c * self.pitch_x + d, 4)
            for c in range(self.cols)
            for d in (0, self.cell.w)
        }
        return sorted(edges)

    def y_edges(self) -> list[float]:
        edges = {
            round(self.y0 + r * self.pitch_y + d, 4)
            for r in range(self.rows)
            for d in (0, self.cell.h)
        }
        return sorted(edges)


def fit_grid(
    paper: Size, cell: Size, gap: float, bleed: float, margin: float = MIN_MARGIN
) -> Grid | None:
    """The grid holding the most cells on ``paper`` (either orientation), centred."""
    best: Grid | None = None
    spacing = max(gap, 2 * bleed)
    mark_room = MARK_OFFSET + 2.0 if bleed == 0 else bleed + MARK_OFFSET + 2.0
    edge = max(margin, mark_room)
    for orient in (paper.portrait(), paper.landscape()):
        cols = math.floor((orient.w - 2 * edge + spacing) / (cell.w + spacing) + 1e-9)
        rows = math.floor((orient.h - 2 * edge + spacing) / (cell.h + spacing) + 1e-9)
        if cols < 1 or rows < 1:
            continue
        gw = cols * cell.w + (cols - 1) * spacing
        gh = rows * cell.h + (rows - 1) * spacing
        grid = Grid(
            orient,
            cell,
            cols,
            rows,
            cell.w + spacing,
            cell.h + spacing,
            (orient.w - gw) / 2,
            (orient.h - gh) / 2,
        )
        if best is None or grid.count > best.count:
            best = grid
    return best


def mirror(rect: Rect, page: Size, duplex: Duplex) -> Rect:
    """Where the back of ``rect`` goes so that it lands behind the front after the flip.

    Long-edge binding turns a portrait sheet around its vertical axis (mirror x) and a landscape
    sheet around its horizontal axis (mirror y); short-edge binding does the opposite.
    """
    if duplex == "none":
        return rect
    portrait = page.h >= page.w
    flip_x = (duplex == "long") == portrait
    if flip_x:
        return Rect(page.w - rect.x - rect.w, rect.y, rect.w, rect.h)
    return Rect(rect.x, page.h - rect.y - rect.h, rect.w, rect.h)


def mirror_line(line: Line, page: Size, duplex: Duplex) -> Line:
    a = mirror(Rect(line.x1, line.y1, 0, 0), page, duplex)
    b = mirror(Rect(line.x2, line.y2, 0, 0), page, duplex)
    return Line(a.x, a.y, b.x, b.y)


def crop_marks(grid: Grid, bleed: float) -> list[Line]:
    """Short lines in the margins, continuing every cut line, never over a card or its bleed."""
    ext = grid.extent().grow(bleed)
    offset = bleed + MARK_OFFSET
    top_room = ext.y - offset
    side_room = ext.x - offset
    lines: list[Line] = []
    vlen = min(MARK_LENGTH, max(top_room - 0.5, 0))
    hlen = min(MARK_LENGTH, max(side_room - 0.5, 0))
    y_top = grid.y0 - offset
    y_bot = grid.extent().bottom + offset
    x_left = grid.x0 - offset
    x_right = grid.extent().right + offset
    if vlen > 0.5:
        for x in grid.x_edges():
            lines.append(Line(x, y_top - vlen, x, y_top))
            lines.append(Line(x, y_bot, x, y_bot + vlen))
    if hlen > 0.5:
        for y in grid.y_edges():
            lines.append(Line(x_left - hlen, y, x_left, y))
            lines.append(Line(x_right, y, x_right + hlen, y))
    return lines


def place_furniture(page: Size, grid_box: Rect, marks: list[Line]) -> Furniture:
    """Put the scale bar in the deepest margin, between crop marks, and the label opposite."""
    margins = {
        "bottom": page.h - grid_box.bottom,
        "top": grid_box.y,
        "left": grid_box.x,
        "right": page.w - grid_box.right,
    }
    bar_side = max(("bottom", "left", "top", "right"), key=lambda s: margins[s])
    label_side = {"bottom": "top", "top": "bottom", "left": "right", "right": "left"}[bar_side]
    if margins[label_side] < 4.0:  # too thin for text: share the bar's margin
        label_side = bar_side
    fur = Furniture()
    bar_span = _free_span(page, grid_box, marks, bar_side, SCALE_BAR + 4)
    depth = margins[bar_side]
    if bar_span is not None:
        a, b = bar_span
        fur.scale_text_room = b - a - 4
        if bar_side in ("bottom", "top"):
            y = grid_box.bottom + depth * 0.45 if bar_side == "bottom" else depth * 0.55
            fur.scale_bar = Line(a + 2, y, a + 2 + SCALE_BAR, y)
        else:  # vertical, read from the bottom up: the bar starts at the span's lower end
            x = depth * 0.55 if bar_side == "left" else grid_box.right + depth * 0.45
            fur.scale_bar = Line(x, b - 2 - SCALE_BAR, x, b - 2)
            fur.scale_vertical = True
    label_span = _free_span(page, grid_box, marks, label_side, 30.0, avoid=fur.scale_bar)
    ldepth = margins[label_side]
    if label_span is not None:
        a, b = label_span
        if label_side in ("bottom", "top"):
            base = grid_box.bottom + ldepth * 0.62 if label_side == "bottom" else ldepth * 0.62
            if label_side == bar_side and fur.scale_bar is not None:
                base = fur.scale_bar.y1 + 3.2  # under the bar
            fur.label_at = (a + 2, base)
        else:
            x = ldepth * 0.62 if label_side == "left" else grid_box.right + ldepth * 0.5
            if label_side == bar_side and fur.scale_bar is not None:
                x = fur.scale_bar.x1 + 3.2
            fur.label_at = (x, b - 2)
            fur.label_vertical = True
        fur.label_width = b - a - 4
    return fur


def _free_span(
    page: Size,
    grid_box: Rect,
    marks: list[Line],
    side: str,
    need: float,
    avoid: Line | None = None,
) -> tuple[float, float] | None:
    """The widest stretch along a margin not crossed by a crop mark."""
    horizontal = side in ("bottom", "top")
    length = page.w if horizontal else page.h
    cuts = [MIN_MARGIN, length - MIN_MARGIN]
    for m in marks:
        box = m.bbox()
        in_margin = (
            (side == "top" and box.bottom <= grid_box.y + 1e-6)
            or (side == "bottom" and box.y >= grid_box.bottom - 1e-6)
            or (side == "left" and box.right <= grid_box.x + 1e-6)
            or (side == "right" and box.x >= grid_box.right - 1e-6)
        )
        if in_margin:
            cuts.extend([box.x - 1, box.right + 1] if horizontal else [box.y - 1, box.bottom + 1])
    if avoid is not None:
        box = avoid.bbox()
        cuts.extend([box.x - 2, box.right + 2] if horizontal else [box.y - 2, box.bottom + 2])
    cuts.sort()
    best: tuple[float, float] | None = None
    for a, b in itertools.pairwise(cuts):
        a, b = max(a, MIN_MARGIN), min(b, length - MIN_MARGIN)
        if b - a >= need and (best is None or b - a > best[1] - best[0]):
            best = (a, b)
    return best


# --- planning a whole document -----------------------------------------------------------------


def _deck_items(deck: Deck) -> Iterator[tuple[Item, Item | None]]:
    for card in deck.cards:
        back_face = card.back or deck.back
        for copy in range(card.copies):
            front = Item(card, deck, card, "front", copy=copy)
            back = Item(back_face, deck, card, "back", copy=copy) if back_face else None
            yield front, back


def _board_items(board: Board) -> Iterator[tuple[Item, Item | None]]:
    for copy in range(board.copies):
        front = Item(board, board, board, "front", copy=copy)
        back = Item(board.back, board, board, "back", copy=copy) if board.back else None
        yield front, back


def _token_items(ts: TokenSet) -> Iterator[tuple[Item, Item | None]]:
    shape: Shape = ts.shape
    for token in ts.tokens:
        back_face = token.back or ts.back
        for copy in range(token.copies):
            front = Item(token, ts, token, "front", shape, copy)
            back = Item(back_face, ts, token, "back", shape, copy) if back_face else None
            yield front, back


def _sheet_pages(
    grid: Grid,
    items: list[tuple[Item, Item | None]],
    opts: Options,
    group: str,
    kinds: tuple[PageKind, PageKind],
    bleed: float,
) -> list[Page]:
    pages: list[Page] = []
    marks = crop_marks(grid, bleed) if opts.crop_marks and kinds[0] == "fronts" else []
    extent = grid.extent()
    fur = place_furniture(grid.paper, extent.grow(bleed), marks)
    dx, dy = opts.back_offset
    for start in range(0, len(items), grid.count):
        chunk = items[start : start + grid.count]
        front = Page(kinds[0], grid.paper, marks=list(marks), furniture=fur, group=group)
        front.trim = extent
        front.bleed = bleed
        for i, (f, _b) in enumerate(chunk):
            front.slots.append(Slot(grid.rect(i), f, bleed, i))
        pages.append(front)
        if not any(b is not None for _f, b in chunk):
            continue
        back = Page(kinds[1], grid.paper, group=group, side="back")
        back.bleed = bleed
        back.trim = mirror(extent, grid.paper, opts.duplex).shift(dx, dy)
        back.marks = [
            Line(m.x1 + dx, m.y1 + dy, m.x2 + dx, m.y2 + dy)
            for m in (mirror_line(m, grid.paper, opts.duplex) for m in marks)
        ]
        back.furniture = place_furniture(grid.paper, back.trim.grow(bleed), back.marks)
        for i, (f, b) in enumerate(chunk):
            rect = mirror(grid.rect(i), grid.paper, opts.duplex).shift(dx, dy)
            back.slots.append(
                Slot(rect, b or Item(None, f.owner, f.card, "back", f.shape), bleed, i)
            )
        pages.append(back)
    return pages


def plan_document(game: Game, opts: Options, setup_pages: int = 1) -> list[Page]:
    """Every page of one game's PDF in print order: setup sheet, cards, boards, tokens."""
    paper = PAPERS[opts.paper]
    gap = game.print.gap if opts.gap is None else opts.gap
    pages: list[Page] = [
        Page("setup", paper.portrait(), payload=(game, i)) for i in range(setup_pages)
    ]
    # decks of the same card size share sheets, in the order they are defined
    runs: list[tuple[Size, list[Deck]]] = []
    for deck in game.decks.values():
        if not deck.cards:
            continue
        size = card_size(game, deck)
        if runs and runs[-1][0] == size:
            runs[-1][1].append(deck)
        else:
            runs.append((size, [deck]))
    for size, decks in runs:
        items = [pair for deck in decks for pair in _deck_items(deck)]
        group = ", ".join(d.id for d in decks)
        pages.extend(_impose(paper, size, gap, items, opts, group, ("fronts", "backs"), opts.bleed))
    # boards that fit the paper are imposed like cards; larger ones are tiled
    board_runs: list[tuple[Size, list[Board]]] = []
    for board in game.boards.values():
        if fit_grid(paper, board.size, gap, opts.bleed) is None:
            pages.extend(plan_board_tiles(board, paper, opts))
            continue
        if board_runs and board_runs[-1][0] == board.size:
            board_runs[-1][1].append(board)
        else:
            board_runs.append((board.size, [board]))
    for size, boards in board_runs:
        items = [pair for b in boards for pair in _board_items(b)]
        group = ", ".join(b.id for b in boards)
        pages.extend(_impose(paper, size, gap, items, opts, group, ("fronts", "backs"), opts.bleed))
    # token sets of the same shape and size share sheets too
    token_runs: list[tuple[tuple[str, float], list[TokenSet]]] = []
    for ts in game.tokens.values():
        if not ts.tokens:
            continue
        key = (ts.shape, ts.size)
        if token_runs and token_runs[-1][0] == key:
            token_runs[-1][1].append(ts)
        else:
            token_runs.append((key, [ts]))
    for (_shape, _tsize), sets in token_runs:
        items = [pair for ts in sets for pair in _token_items(ts)]
        group = ", ".join(ts.id for ts in sets)
        pages.extend(
            _impose(
                paper,
                token_size(sets[0]),
                TOKEN_GAP,
                items,
                opts,
                group,
                ("tokens", "token-backs"),
                0.0,
            )
        )
    return number_sheets(pages, opts)


def _impose(
    paper: Size,
    size: Size,
    gap: float,
    items: list[tuple[Item, Item | None]],
    opts: Options,
    group: str,
    kinds: tuple[PageKind, PageKind],
    bleed: float,
) -> list[Page]:
    has_backs = any(b is not None for _f, b in items)
    if opts.fold and has_backs:
        fold = fit_fold(paper, size, gap, bleed)
        if fold is not None:
            return _fold_pages(fold, items, opts, group, bleed)
    grid = fit_grid(paper, size, gap, bleed)
    if grid is None:
        raise ValueError(f"a {size} item does not fit on {opts.paper}")
    return _sheet_pages(grid, items, opts, group, kinds, bleed)


# --- gutter fold ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class FoldGrid:
    """Fronts on one half of the sheet, backs mirrored on the other, across the fold line."""

    grid: Grid  # the fronts
    fold: Line
    horizontal: bool  # the fold line runs horizontally (fronts above it)

    def back_rect(self, index: int) -> Rect:
        r = self.grid.rect(index)
        if self.horizontal:
            f = self.fold.y1
            return Rect(r.x, 2 * f - r.y - r.h, r.w, r.h)
        f = self.fold.x1
        return Rect(2 * f - r.x - r.w, r.y, r.w, r.h)


def fit_fold(paper: Size, cell: Size, gap: float, bleed: float) -> FoldGrid | None:
    """The gutter-fold arrangement holding the most cards: the fold halves the long side."""
    best: FoldGrid | None = None
    spacing = max(gap, 2 * bleed)
    edge = max(MIN_MARGIN, bleed + MARK_OFFSET + 2.0)
    for page in (paper.portrait(), paper.landscape()):
        horizontal = page.h >= page.w  # fold across the long side
        half = Size(page.w, page.h / 2) if horizontal else Size(page.w / 2, page.h)
        # cards touch the fold (plus their bleed), the outer edge keeps its margin
        inner = bleed
        avail_w = half.w - 2 * edge if horizontal else half.w - edge - inner
        avail_h = half.h - edge - inner if horizontal else half.h - 2 * edge
        cols = math.floor((avail_w + spacing) / (cell.w + spacing) + 1e-9)
        rows = math.floor((avail_h + spacing) / (cell.h + spacing) + 1e-9)
        if cols < 1 or rows < 1:
            continue
        gw = cols * cell.w + (cols - 1) * spacing
        gh = rows * cell.h + (rows - 1) * spacing
        if horizontal:
            x0, y0 = (page.w - gw) / 2, page.h / 2 - inner - gh
            fold = Line(0, page.h / 2, page.w, page.h / 2)
        else:
            x0, y0 = page.w / 2 - inner - gw, (page.h - gh) / 2
            fold = Line(page.w / 2, 0, page.w / 2, page.h)
        grid = Grid(page, cell, cols, rows, cell.w + spacing, cell.h + spacing, x0, y0)
        candidate = FoldGrid(grid, fold, horizontal)
        if best is None or grid.count > best.grid.count:
            best = candidate
    return best


def _fold_pages(
    fold: FoldGrid,
    items: list[tuple[Item, Item | None]],
    opts: Options,
    group: str,
    bleed: float,
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
    marks: list[Line] = []
    if opts.crop_marks:
        for ext in (front_ext, back_ext):
            marks.extend(_outer_marks(grid, ext, fold, bleed))
    both = Rect(
        min(front_ext.x, back_ext.x),
        min(front_ext.y, back_ext.y),
        max(front_ext.right, back_ext.right) - min(front_ext.x, back_ext.x),
        max(front_ext.bottom, back_ext.bottom) - min(front_ext.y, back_ext.y),
    )
    fur = place_furniture(grid.paper, both.grow(bleed), marks)
    for start in range(0, len(items), grid.count):
        chunk = items[start : start + grid.count]
        page = Page("fold", grid.paper, marks=list(marks), furniture=fur, group=group)
        page.fold = fold.fold
        page.trim = both
        page.bleed = bleed
        for i, (f, b) in enumerate(chunk):
            page.slots.append(Slot(grid.rect(i), f, bleed, i))
            back = b or Item(None, f.owner, f.card, "back", f.shape)
            page.slots.append(Slot(fold.back_rect(i), back, bleed, i))
        pages.append(page)
    return pages


def _outer_marks(grid: Grid, ext: Rect, fold: FoldGrid, bleed: float) -> list[Line]:
    """Crop marks around one half, on the three sides away from the fold."""
    offset = bleed + MARK_OFFSET
    xs = sorted(
        {round(ext.x + c * grid.pitch_x + d, 4) for c in range(grid.cols) for d in (0, grid.cell.w)}
    )
    ys = sorted(
        {round(ext.y + r * grid.pitch_y + d, 4) for r in range(grid.rows) for d in (0, grid.cell.h)}
    )
    f = fold.fold
    if fold.horizontal:
        before = ext.bottom <= f.y1 + 1e-6  # this half lies above the fold
        sides = {"top": before, "bottom": not before, "left": True, "right": True}
    else:
        before = ext.right <= f.x1 + 1e-6  # this half lies left of the fold
        sides = {"left": before, "right": not before, "top": True, "bottom": True}
    lines: list[Line] = []
    top, bottom = ext.y - offset, ext.bottom + offset
    left, right = ext.x - offset, ext.right + offset
    for x in xs:
        if sides["top"] and top - MARK_LENGTH > 0:
            lines.append(Line(x, top - MARK_LENGTH, x, top))
        if sides["bottom"] and bottom + MARK_LENGTH < grid.paper.h:
            lines.append(Line(x, bottom, x, bottom + MARK_LENGTH))
    for y in ys:
        if sides["left"] and left - MARK_LENGTH > 0:
            lines.append(Line(left - MARK_LENGTH, y, left, y))
        if sides["right"] and right + MARK_LENGTH < grid.paper.w:
            lines.append(Line(right, y, right + MARK_LENGTH, y))
    return lines


# --- boards larger than the paper -----------------------------------------------------------

BOARD_MARGIN = 10.0  # mm around a tile: marks, labels, the assembly map
BOARD_OVERLAP = 10.0  # mm each tile repeats of its neighbour: the glue margin


@dataclass(frozen=True)
class Tile:
    """One page of a tiled board: which part of the board it shows and where."""

    board: Board
    side: Literal["front", "back"]
    col: int
    row: int
    cols: int
    rows: int
    region: Rect  # in board millimetres
    overlap: float

    @property
    def label(self) -> str:
        return f"{chr(ord('A') + self.row)}{self.col + 1}"


def tile_board(
    board_size: Size, paper: Size, overlap: float = BOARD_OVERLAP
) -> tuple[Size, int, int]:
    """The paper orientation and the columns x rows that tile a board with the fewest pages."""
    best: tuple[Size, int, int] | None = None
    for page in (paper.portrait(), paper.landscape()):
        aw, ah = page.w - 2 * BOARD_MARGIN, page.h - 2 * BOARD_MARGIN
        cols = max(1, math.ceil((board_size.w - overlap) / (aw - overlap) - 1e-9))
        rows = max(1, math.ceil((board_size.h - overlap) / (ah - overlap) - 1e-9))
        if best is None or cols * rows < best[1] * best[2]:
            best = (page, cols, rows)
    assert best is not None
    return best


def plan_board_tiles(board: Board, paper: Size, opts: Options) -> list[Page]:
    page_size, cols, rows = tile_board(board.size, paper)
    aw, ah = page_size.w - 2 * BOARD_MARGIN, page_size.h - 2 * BOARD_MARGIN
    step_x, step_y = aw - BOARD_OVERLAP, ah - BOARD_OVERLAP
    pages: list[Page] = []
    sides: list[tuple[Literal["front", "back"], Face]] = [("front", board)]
    if board.back is not None:
        sides.append(("back", board.back))
    for copy in range(board.copies):
        for side, face in sides:
            for r in range(rows):
                for c in range(cols):
                    x0, y0 = c * step_x, r * step_y
                    region = Rect(x0, y0, min(aw, board.size.w - x0), min(ah, board.size.h - y0))
                    tile = Tile(board, side, c, r, cols, rows, region, BOARD_OVERLAP)
                    rect = Rect(BOARD_MARGIN, BOARD_MARGIN, region.w, region.h)
                    item = Item(face, board, board, side, copy=copy)
                    page = Page("board", page_size, group=board.id, payload=tile)
                    page.slots.append(Slot(rect, item))
                    page.trim = rect
                    pages.append(page)
    return pages


def number_sheets(pages: list[Page], opts: Options) -> list[Page]:
    """Insert blank pages so that in duplex every back is printed on its front's sheet."""
    if opts.duplex == "none" or opts.fold:  # single-sided: every page is its own sheet
        for i, p in enumerate(pages, 1):
            p.sheet = i
        return pages
    out: list[Page] = []
    for page in pages:
        if page.side == "front" and len(out) % 2 == 1:
            out.append(Page("blank", out[-1].size, side="back"))  # a front starts a sheet
        out.append(page)
    for i, p in enumerate(out):
        p.sheet = i // 2 + 1
    return out


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
