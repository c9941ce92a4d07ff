"""What a home copy holds: each line of the game's component list with the pages that print
it, the lines the players bring, and what is printed but on no line (a player aid, say).

The first page of every PDF lists them (:mod:`pnp.printing.render.frontmatter`), so that a
player knows what to cut from which pages and what to find at home. Every face of the plan is
on some line, and every line names the pages that print it or says that it is not printed.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...content.model import Board, BoxEntry, Card, Deck, Game, TokenSet
from ...content.queries import box_selects
from .pages import Page

Owner = Deck | TokenSet | Board


@dataclass(frozen=True)
class Component:
    """One line of the list: a line of the game's box, or something printed on none."""

    entry: BoxEntry | None  # the box line, or None for what no line counts
    owner: Owner | None  # what no box line counts: its deck, token set or board
    pages: tuple[int, ...]  # the 1-based pages that print it (fronts, backs, tiles)
    copies: int  # how many of it this PDF prints (distinct copies of faces)

    @property
    def bring(self) -> bool:
        return self.entry is not None and self.entry.bring


def components(game: Game, pages: list[Page]) -> list[Component]:
    """The component list of ``game`` against the page plan: its box lines in order, then
    whatever the plan prints that no line counts, by deck, token set or board."""
    printed = _printed(pages)
    found: list[Component] = []
    counted: set[tuple[int, int, int]] = set()
    for entry in game.meta.box:
        keys = [k for k, (owner, card, _pp) in printed.items() if box_selects(entry, owner, card)]
        counted.update(keys)
        pages_of = sorted({n for k in keys for n in printed[k][2]})
        found.append(Component(entry, None, tuple(pages_of), len(keys)))
    rest: dict[int, tuple[Owner, set[int], int]] = {}
    for key, (owner, _card, on) in printed.items():
        if key in counted:
            continue
        seen: set[int] = set()
        _o, seen, copies = rest.get(id(owner), (owner, seen, 0))
        rest[id(owner)] = (owner, seen | on, copies + 1)
    for owner, on, copies in rest.values():
        found.append(Component(None, owner, tuple(sorted(on)), copies))
    return found


Printed = dict[tuple[int, int, int], tuple[Owner, Card | Board, set[int]]]


def _printed(pages: list[Page]) -> Printed:
    """Every copy of a card, token or board the plan prints, in the order first printed: its
    owner, its card and the pages it is on (its front, back and tiles)."""
    printed: Printed = {}
    for n, page in enumerate(pages, 1):
        for slot in page.slots:
            item = slot.item
            if item.face is None and item.side == "back":
                continue  # the empty back of a single-sided face: not printed there
            key = (id(item.owner), id(item.card), item.copy)
            owner, card, where = printed.get(key, (item.owner, item.card, set()))
            where.add(n)
            printed[key] = (owner, card, where)
    return printed


def page_ranges(numbers: tuple[int, ...] | list[int]) -> list[tuple[int, int]]:
    """Page numbers as ranges of consecutive pages: 3, 4, 5, 9 -> (3, 5), (9, 9)."""
    ranges: list[tuple[int, int]] = []
    for n in sorted(set(numbers)):
        if ranges and n == ranges[-1][1] + 1:
            ranges[-1] = (ranges[-1][0], n)
        else:
            ranges.append((n, n))
    return ranges
