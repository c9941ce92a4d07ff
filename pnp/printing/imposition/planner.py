"""The planner: every page of one game's PDF, in print order, as plain data.

Setup sheet pages first, then the cards (decks of one card size share sheets), boards that
fit the paper (imposed like cards) and tokens (sets of one shape and size share sheets), runs
of different sizes sharing a sheet where they fit (:mod:`.packing`), then the tiles of boards
larger than the paper; in duplex, blank pages keep every back on its front's sheet.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TypeVar

from ...content.model import Board, Deck, Game, TokenSet
from ...content.queries import card_size, token_size
from ...core.units import PAPERS, Size
from .boards import BoardOverview, plan_board_tiles
from .grid import fit_grid
from .leftovers import onto_tiles
from .packing import Run, pack
from .pages import TOKEN_GAP, Item, Options, Page, PageKind, Shape
from .sheets import impose


def plan_document(
    game: Game, opts: Options, setup_pages: int = 1, overviews: bool = True
) -> list[Page]:
    """Every page of one game's PDF in print order: setup sheet, then the sheets of cards,
    boards that fit the paper and tokens (sharing sheets where they fit), then the tiles of
    boards larger than the paper, each board's after its overview page (``overviews``; the
    setup sheet may draw them instead: :func:`board_overviews`)."""
    paper = PAPERS[opts.paper]
    gap = game.print.gap if opts.gap is None else opts.gap
    pages: list[Page] = [
        Page("setup", paper.portrait(), payload=(game, i)) for i in range(setup_pages)
    ]
    runs = [*_card_runs(game, gap, opts), *_board_runs(game, paper, gap, opts)]
    runs.extend(_token_runs(game, opts))
    if opts.fold:  # gutter-fold sheets hold one run each
        for r in runs:
            pages.extend(
                impose(paper, r.size, r.spacing, r.items, opts, r.group, r.kinds, opts.bleed)
            )
    else:
        pages.extend(pack(paper, runs, opts, opts.bleed))
    for board in game.boards.values():
        if fit_grid(paper, board.size, gap, opts.bleed) is None:
            tiles = plan_board_tiles(board, paper, opts)
            pages.extend(p for p in tiles if overviews or p.kind != "board-overview")
    return number_sheets(onto_tiles(pages, opts), opts)


def board_overviews(game: Game, opts: Options) -> list[BoardOverview]:
    """The overview of each board printed in tiles, as its overview page would show it."""
    paper = PAPERS[opts.paper]
    gap = game.print.gap if opts.gap is None else opts.gap
    found = []
    for board in game.boards.values():
        if fit_grid(paper, board.size, gap, opts.bleed) is None:
            first = plan_board_tiles(board, paper, opts)[0]
            if isinstance(first.payload, BoardOverview):
                found.append(first.payload)
    return found


T = TypeVar("T")
K = TypeVar("K")


def _runs(things: list[T], key: Callable[[T], K]) -> list[tuple[K, list[T]]]:
    """Neighbours with the same key together (they share sheets), in their order."""
    runs: list[tuple[K, list[T]]] = []
    for thing in things:
        k = key(thing)
        if runs and runs[-1][0] == k:
            runs[-1][1].append(thing)
        else:
            runs.append((k, [thing]))
    return runs


CARD_KINDS: tuple[PageKind, PageKind] = ("fronts", "backs")
TOKEN_KINDS: tuple[PageKind, PageKind] = ("tokens", "token-backs")


def _card_runs(game: Game, gap: float, opts: Options) -> list[Run]:
    """Decks of the same card size, in the order they are defined."""
    runs: list[Run] = []
    decks = [deck for deck in game.decks.values() if deck.cards]
    spacing = max(gap, 2 * opts.bleed)
    for size, run in _runs(decks, lambda deck: card_size(game, deck)):
        items = [pair for deck in run for pair in _deck_items(deck)]
        group = ", ".join(d.id for d in run)
        runs.append(Run(size, spacing, items, group, CARD_KINDS, True))
    return runs


def _board_runs(game: Game, paper: Size, gap: float, opts: Options) -> list[Run]:
    """Boards that fit the paper, imposed like cards (those of one size together); larger
    ones are tiled (:func:`plan_board_tiles`)."""
    fitting = [b for b in game.boards.values() if fit_grid(paper, b.size, gap, opts.bleed)]
    spacing = max(gap, 2 * opts.bleed)
    runs: list[Run] = []
    for size, run in _runs(fitting, lambda board: board.size):
        items = [pair for b in run for pair in _board_items(b)]
        group = ", ".join(b.id for b in run)
        runs.append(Run(size, spacing, items, group, CARD_KINDS, True))
    return runs


def _token_runs(game: Game, opts: Options) -> list[Run]:
    """Token sets of the same shape and size, in the order they are defined."""
    runs: list[Run] = []
    sets = [ts for ts in game.tokens.values() if ts.tokens]
    spacing = max(TOKEN_GAP, 2 * opts.bleed)
    for _key, run in _runs(sets, lambda ts: (ts.shape, ts.size)):
        items = [pair for ts in run for pair in _token_items(ts)]
        group = ", ".join(ts.id for ts in run)
        runs.append(Run(token_size(run[0]), spacing, items, group, TOKEN_KINDS, False))
    return runs


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


def number_sheets(pages: list[Page], opts: Options) -> list[Page]:
    """Sheet numbers, and in duplex an order that wastes no paper.

    Single-sided printing: every page is a sheet. Duplex: the setup sheet first (double-sided,
    a blank page after it when it has an odd number of pages), then every page of fronts with
    its page of backs (one sheet each), then the pages that must keep a blank back because they
    are cut or glued (one-sided board tiles, faces without backs): the setup sheet tells the
    player to print those single-sided.
    """
    if opts.duplex == "none" or opts.fold:  # single-sided: every page is its own sheet
        for i, p in enumerate(pages, 1):
            p.sheet = i
        return pages
    setup = [p for p in pages if p.kind == "setup"]
    pairs: list[Page] = []
    singles: list[Page] = []
    rest = [p for p in pages if p.kind != "setup"]
    i = 0
    while i < len(rest):
        if i + 1 < len(rest) and rest[i + 1].side == "back":
            pairs.extend(rest[i : i + 2])
            i += 2
        else:
            singles.append(rest[i])
            i += 1
    out = list(setup)
    if pairs and len(out) % 2 == 1:  # the first page of fronts starts a sheet
        out.append(Page("blank", out[-1].size, side="back"))
    out.extend(pairs)
    for n, p in enumerate(out):
        p.sheet = n // 2 + 1
    sheet = (len(out) + 1) // 2
    for n, p in enumerate(singles, sheet + 1):
        p.sheet = n
    return out + singles


def double_sided_pages(pages: list[Page], opts: Options) -> int:
    """How many pages, from the first, are printed double-sided (0: none)."""
    if opts.duplex == "none" or opts.fold:
        return 0
    backs = [n for n, p in enumerate(pages, 1) if p.side == "back"]
    return max(backs, default=0)
