"""Colours of layout elements as the renderer reads them, and the values that are templates.

An element's ``color``, ``fill`` and ``stroke`` (and a face's ``style`` when it is a colour) are
read here, once for validation and drawing alike: ``#rrggbb``, ``#rgb`` (each digit doubled,
as in CSS), a CSS colour name in any case, or ``none``. Anything else is no colour: validation
reports it, and the engine never hands it to reportlab.
"""

from __future__ import annotations

import functools
import re

from ...core.run import current

PALETTE = ("background", "accent", "text")  # a style's colours, by name
NONE = "none"  # fill / stroke: draw no fill or no outline

_HEX6 = re.compile(r"#[0-9a-f]{6}")
_HEX3 = re.compile(r"#[0-9a-f]{3}")


def is_template(value: str) -> bool:
    """Whether a layout value is a Jinja2 template, rendered for each card."""
    return "{{" in value or "{%" in value


@functools.lru_cache(maxsize=1)
def colour_names() -> frozenset[str]:
    """The colour names reportlab knows (the CSS names and a few of its own), lower case;
    not ``transparent``, which would print nothing (``none`` says that)."""
    from reportlab.lib import colors

    return frozenset(
        name
        for name, value in vars(colors).items()
        if isinstance(value, colors.Color)
        and name.islower()
        and name.isalpha()
        and value.alpha == 1
    )


def read_colour(value: str) -> str | None:
    """``value`` as the colour the renderer draws (``#rrggbb``, a lower-case colour name, or
    ``none``), or None when it is no colour (remembered for the run: every card asks)."""
    known = current().store("typeset.colours", limit=10_000)
    if value not in known:
        known[value] = _read(value)
    return known[value]


def _read(value: str) -> str | None:
    v = value.strip().lower()
    if _HEX6.fullmatch(v):
        return v
    if _HEX3.fullmatch(v):
        return "#" + "".join(c * 2 for c in v[1:])
    if v == NONE or v in colour_names():
        return v
    return None
