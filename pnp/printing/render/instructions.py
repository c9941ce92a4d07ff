"""Printing instructions: how to print the sheets, in the build language."""

from __future__ import annotations

from collections.abc import Callable


def print_advice(word: Callable[[str], str]) -> str:
    """How to print, for the setup sheet; ``word`` gives pnp's sheet words in the build
    language."""
    return word(
        "How to print: at 100 % (actual size), never “fit to page”. Check the scale bar "
        "on any sheet measures 50 mm. Card sheets are followed by their backs: print "
        "double-sided, flipping on the long edge, or print single-sided and glue."
    )
