"""Layouts: the built-in ones, a game's own, and a layout resolved along its ``extends`` chain.

A layout draws a face: its background, border, styles and elements. :func:`resolve_layout`
follows ``extends`` from the parent down (a named element replaces the parent's element of the
same name, ``drop: true`` removes it; a game's layout extending its own id extends the built-in
one it replaces); :func:`face_layout_id` says which layout draws a face.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...content.model import Board, Element, Face, Game, Layout, Style, Text
from ...content.schema import Context
from ...content.yamlio import parse_text

BUILTIN_LAYOUTS = Path(__file__).parent.parent.parent / "data" / "layouts.yaml"


@functools.lru_cache(maxsize=1)
def builtin_layouts() -> dict[str, Layout]:
    from ...content.model import Sections
    from ...content.schema import convert
    from ...core.findings import Report

    report = Report()
    loaded = parse_text(BUILTIN_LAYOUTS.read_text("utf-8"), "pnp/data/layouts.yaml", report)
    sections = convert(loaded.data, Sections, loaded.data.pos, Context(report))
    if report.errors:  # pragma: no cover - a bug in the shipped file
        raise RuntimeError(report.format_text())
    return dict(sections.layouts)


@dataclass
class Resolved:
    background: str
    border: Any
    styles: dict[str, Style]
    elements: list[Element]
    unmatched: list[Element] = field(default_factory=list)  # drop: naming no parent element
    texts: dict[str, Text] = field(default_factory=dict)  # the chain's words (a child's win)


class LayoutCycle(Exception):
    def __init__(self, chain: list[str], too_long: bool = False) -> None:
        super().__init__(" -> ".join(chain))
        self.chain = chain
        self.too_long = too_long


def layout_table(game: Game) -> dict[str, Layout]:
    return {**builtin_layouts(), **game.layouts}


MAX_EXTENDS = 32


def parent_of(layouts: dict[str, Layout], lid: str, layout: Layout) -> Layout | None:
    """The layout ``layout`` (listed as ``lid``) extends. A game's layout that extends its own
    id extends the built-in layout it replaces: a game's ``back`` with ``extends: back``
    changes the built-in back. Raises KeyError when the parent does not exist."""
    parent = layout.extends
    if parent is None:
        return None
    builtin = builtin_layouts().get(parent)
    if parent == lid and builtin is not None and builtin is not layout:
        return builtin
    return layouts[parent]


def resolve_layout(layouts: dict[str, Layout], lid: str) -> Resolved:
    chain: list[Layout] = []
    seen: list[str] = []
    seen_set: set[int] = set()
    current = lid
    layout: Layout | None = layouts[lid]
    while layout is not None:
        if id(layout) in seen_set:
            raise LayoutCycle([*seen, current])
        if len(seen) >= MAX_EXTENDS:
            raise LayoutCycle([*seen[:3], "...", current], too_long=True)
        seen.append(current)
        seen_set.add(id(layout))
        chain.append(layout)
        parent = parent_of(layouts, current, layout)
        current = layout.extends or ""
        layout = parent
    return _merged(chain)


def _merged(chain: list[Layout]) -> Resolved:
    """A layout chain (the child first) as one layout: the child's settings win, a named
    element replaces the parent's element of the same name, ``drop: true`` removes it."""
    out = Resolved("#ffffff", None, {}, [])
    elements = out.elements
    for layout in reversed(chain):  # parent first
        if layout.background is not None:
            out.background = layout.background
        if layout.border is not None:
            out.border = layout.border
        out.styles.update(layout.styles)
        out.texts.update(layout.texts)
        for el in layout.elements:
            slot = next((i for i, e in enumerate(elements) if el.name and e.name == el.name), None)
            if el.drop:
                if slot is None:
                    out.unmatched.append(el)
                else:
                    del elements[slot]
            elif slot is None:
                elements.append(el)
            else:
                elements[slot] = el  # a named element replaces the parent's
    return out


def face_layout_id(face: Face, owner: Any, side: str) -> str:
    """The layout drawing a face: its own, else its deck's (or the deck back's), else built-in."""
    from ...content.model import TokenSet

    if face.layout:
        return face.layout
    if side == "back":
        back = getattr(owner, "back", None)
        if back is not None and back.layout:
            return str(back.layout)
        return "back"
    owner_layout = getattr(owner, "layout", None)
    if owner_layout:
        return str(owner_layout)
    if isinstance(face, Board):
        return "board"
    return "token" if isinstance(owner, TokenSet) else "card"
