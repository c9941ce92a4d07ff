"""Counted nouns in pnp's findings, which are written in English: "1 card", "3 cards"."""

from __future__ import annotations


def counted(n: int, one: str, other: str | None = None) -> str:
    """``n`` and the noun in the form ``n`` takes: ``one`` for 1, else ``other`` (``one`` + s)."""
    return f"{n} {one if n == 1 else (other or one + 's')}"


def said_players(counts: str, only_one: bool) -> str:
    """Player counts said in words (``2-4 players``; ``1 player`` when ``only_one``)."""
    return f"{counts} player" + ("" if only_one else "s")
