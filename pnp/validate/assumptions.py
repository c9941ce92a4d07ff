"""Assumptions: what a pack prints where its rulebook is silent, listed so nobody takes it for
the rulebook's word.

A card, token, board or table with ``assumption: "..."`` is reported at that key with its
reason (rule ``assumption``, info by default); the print marks each one (pnp/typeset/faces/
marks.py) and the setup sheet explains the mark.
"""

from __future__ import annotations

from ..content.model import Game
from ..core.findings import Pos
from ..core.rules import ASSUMPTION
from ..typeset.faces.marks import MARK
from .context import CheckContext, check


def _message(what: str, reason: str, printed: str) -> str:
    reason = " ".join(reason.split())
    if not reason:
        return (
            f"{what} is marked as an assumption but gives no reason: write what the rulebook "
            f"says instead, or why the copy needs it (it prints with {MARK} {printed})"
        )
    return f"{what} is this copy's assumption, not the rulebook's ({MARK} {printed}): {reason}"


@check
def assumptions(game: Game, ctx: CheckContext) -> None:
    found: list[tuple[Pos, str]] = []
    for board in game.boards.values():
        if board.assumption is not None:
            found.append(
                (board.at("assumption"), _message(f"board {board.id}", board.assumption, "on it"))
            )
    for owner, card in game.every_card():
        if card.assumption is not None:
            what = f"{owner.id}/{card.id}"
            found.append((card.at("assumption"), _message(what, card.assumption, "on its front")))
    for table in game.tables.values():
        if table.assumption is not None:
            where = "after its title" if table.sheet else "on the faces that draw it"
            found.append(
                (table.at("assumption"), _message(f"table {table.id}", table.assumption, where))
            )
    for pos, message in found:
        ctx.add(ASSUMPTION, pos, message)
