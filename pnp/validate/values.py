"""A face's values are read by something (rule ``unread-value``).

A card, token or board sets numbers and codes under ``values:`` for its layout (or its
back's, which is drawn with the card's values) to print (``field:``, a ``template:``,
``when:``), for its texts (``{cost}``), for references
(``{cards.boss.values.cost}``), for the tables that list cards (their column ids), for the
filters of scenario steps and for invariants. A key that none of them names is printed
nowhere and checked by nothing: most often a misspelt key (``rubby: 7`` beside the layout's
``ruby``), which silently drops the number from the card.
"""

from __future__ import annotations

import re

from ..content.model import Game
from ..content.refs import paths
from ..content.schema import suggest
from ..core.rules import UNREAD_VALUE
from ..typeset.faces import face_layout_id, layout_table
from ..typeset.text import tokens
from .context import CheckContext, check
from .structure import faces, printed_fields

_NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")


def _read_elsewhere(game: Game) -> set[str]:
    """The value names the rest of the game reads: texts' ``{name}`` and references'
    ``values.NAME``, table columns, step filters, plural choosers and invariants."""
    names: set[str] = set()
    for text in game.texts:
        for value in [*text.values.values(), *(f for v in text.forms.values() for f in v.values())]:
            if not isinstance(value, str) or "{" not in value:
                continue
            names.update(t for t in tokens(value) if "." not in t)
            names.update(p.rsplit(".", 1)[-1] for p in paths(value) if ".values." in p)
        if text.count:
            names.add(text.count.rsplit(".", 1)[-1])
    for tbl in game.tables.values():
        names.update(c.id for c in tbl.columns)
    for scenario in game.scenarios.values():
        for step in scenario.cards:
            for flt in (step.only, step.exclude, step.each_pile):
                if flt is not None:
                    names.update(flt.values)
    for inv in game.invariants:
        for source in (inv.check_, inv.for_each, inv.where):
            names.update(_NAME_RE.findall(source or ""))
    return names


def _reads(table: dict, by_layout: dict[str, set[str] | None], lid: str) -> set[str] | None:
    """What a layout reads, worked out once per layout."""
    if lid not in by_layout:
        by_layout[lid] = printed_fields(table, lid, conditions=True)
    return by_layout[lid]


@check
def unread_values(game: Game, ctx: CheckContext) -> None:
    """A value of a face that nothing prints or reads (``unread-value``)."""
    if not any(face.values for face, _side, _owner in faces(game)):
        return
    table = layout_table(game)
    by_layout: dict[str, set[str] | None] = {}
    elsewhere = _read_elsewhere(game)
    said: set[tuple[str, str]] = set()  # a key reported once per layout
    for face, side, owner in faces(game):
        if not face.values:
            continue
        lid = face_layout_id(face, owner, side)
        printed = _reads(table, by_layout, lid)
        if printed is None:
            continue
        if side == "front":  # a card's back is drawn with the card's values too
            back = getattr(face, "back", None) or getattr(owner, "back", None)
            if back is not None:
                printed = printed | (
                    _reads(table, by_layout, face_layout_id(back, owner, "back")) or set()
                )
        for key in face.values:
            if key in printed or key in elsewhere or (lid, key) in said:
                continue
            said.add((lid, key))
            hint = suggest(key, sorted(printed | elsewhere))
            ctx.add(
                UNREAD_VALUE,
                face.at("values"),
                f"{getattr(face, 'id', '')}: value {key!r} is read by nothing: layout {lid!r} "
                f"prints no {key!r} (field:, template:, when:), no text names {{{key}}} and no "
                f"table, step filter or invariant uses it; {hint}correct the key, or remove "
                "the value",
            )
