"""The facts of a game, and the changes the audit tries on each.

A number (a count of copies, a table cell, any other number) is tried +1, -1 and 0 (each once:
-1 is not tried on 0, nor 0 on 1, so a count never goes below 0); a reference to another id is
swapped for another id of the same kind; a list item that stands for something (a card, a token,
a table row, a line of the box, a scenario's step or board, a tag, a card a step names) is
deleted; a number inside a text, in any language, is tried +1.

Presentation is not audited: layouts, styles, print settings, sizes and positions of elements
are free for the designer to change.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ...content.load import Trees
from ...content.model import Game, valid_language
from ...content.yamlio import YMap, YSeq
from ...core.findings import Pos
from ..numbers import written

# sections and keys whose numbers are presentation, not facts of the game
SKIP_SECTIONS = frozenset({"layouts", "styles", "print", "icons", "setup_sheet", "rules"})
SKIP_KEYS = frozenset(
    {
        "size", "min_size", "box", "x", "y", "w", "h", "width", "height", "radius",
        "gap", "bleed", "art_bleed", "version", "date", "font_size",
        "line_height", "opacity", "rotate", "padding", "leading", "weight", "style",
    }
)  # fmt: skip
COUNT_KEYS = frozenset({"copies", "count"})
REFERENCE_SECTIONS = ("decks", "tokens", "boards", "tables", "tracks", "scenarios")
REFERENCE_KINDS = (*REFERENCE_SECTIONS, "cards")
# lists whose items are things of the game: deleting one is a designer's mistake
DELETABLE = frozenset(
    {
        "cards", "tokens", "rows", "box", "boards", "tags", "card", "deck", "token", "board",
        "remove", "order", "top", "bottom", "outcomes", "total",
    }
)  # fmt: skip
# the changes tried before issue 31 (+1 and swapped ids): the "old kinds" of a score
OLD_OPS = frozenset({"+1", "swap"})


@dataclass
class Mutation:
    """One changed fact: where it is written, what it was and what it became."""

    pos: Pos
    kind: str  # count, cell, number, reference, item (a list item), text (a number in a text)
    key: str  # where in the file, e.g. decks.roles.cards[2].copies
    old: Any
    new: Any
    op: str = "+1"  # +1, -1, 0, swap, delete, text
    caught_by: list[str] = field(default_factory=list)  # rule ids of the new findings
    # the keys and indices that lead to it in its file, as they are (an int key stays an int)
    where: tuple[Any, ...] = ()
    protect: str = ""  # for a survivor: the rule or the reference that would protect it
    span: tuple[int, int] = (0, 0)  # a text's number: where it is in the text

    def as_json(self) -> dict[str, Any]:
        return {
            "path": self.pos.path,
            "line": self.pos.line,
            "column": self.pos.col,
            "kind": self.kind,
            "op": self.op,
            "key": self.key,
            "old": self.old,
            "new": self.new,
            "caught_by": self.caught_by,
            "hint": self.protect,
        }


def mutations(trees: Trees, game: Game | None = None) -> list[Mutation]:
    """Every fact of the game's files, and the changes tried on it (the numbers of its texts
    too, when the loaded ``game`` is given)."""
    ids = _defined_ids(trees)
    found: list[Mutation] = []
    for tree in trees.values():
        if isinstance(tree, YMap):
            for name, value in tree.items():
                if name not in SKIP_SECTIONS and name != "invariants":
                    found.extend(_walk(value, str(name), ids, (name,)))
    read = _read_strings(trees)
    found = [m for m in found if not _idle_tag(m, read)]
    if game is not None:
        found.extend(text_mutations(game))
    return found


def _idle_tag(m: Mutation, read: list[str]) -> bool:
    """A tag deleted that nothing reads (no filter, box line, layout or invariant names it):
    a label without effect, not a fact of the game."""
    if m.op != "delete" or ".tags[" not in m.key or not isinstance(m.old, str):
        return False
    return not any(m.old in text for text in read)


# keys whose strings read tags: filters, box lines, layouts' conditions and templates,
# expressions
_READING = frozenset(
    {"tag", "only", "exclude", "each_pile", "when", "template", "assert", "where", "for_each",
     "draw", "deal", "reveal", "piles"}
)  # fmt: skip


def _read_strings(trees: Trees) -> list[str]:
    """Every string that may name a tag: under the keys that read tags, and in layouts."""
    out: list[str] = []

    def walk(node: Any, reading: bool) -> None:
        if isinstance(node, YMap):
            for k, v in node.items():
                walk(v, reading or str(k) in _READING)
        elif isinstance(node, YSeq):
            for v in node:
                walk(v, reading)
        elif isinstance(node, str) and reading:
            out.append(node)

    for tree in trees.values():
        if isinstance(tree, YMap):
            for name, section in tree.items():
                walk(section, name in ("layouts", "invariants"))
    return out


def _walk(
    node: Any, key: str, ids: dict[str, set[str]], where: tuple[Any, ...]
) -> Iterator[Mutation]:
    children: list[tuple[Any, Pos, str, str, Any]] = []
    if isinstance(node, YMap):
        children = [(v, node.value_pos(k), f"{key}.{k}", str(k), k) for k, v in node.items()]
    elif isinstance(node, YSeq):
        children = [(v, node.item_pos(i), f"{key}[{i}]", "", i) for i, v in enumerate(node)]
    listed = isinstance(node, YSeq) and key.rsplit(".", 1)[-1] in DELETABLE
    for value, vpos, vkey, name, step in children:
        if name in SKIP_KEYS or name == "id":
            continue
        if listed:
            yield Mutation(vpos, "item", vkey, _shown(value), None, "delete", where=(*where, step))
        if isinstance(value, YMap | YSeq):
            yield from _walk(value, vkey, ids, (*where, step))
            continue
        for kind, op, new in _changes(value, name, vkey, ids):
            yield Mutation(vpos, kind, vkey, value, new, op, where=(*where, step))


def _changes(
    value: Any, name: str, key: str, ids: dict[str, set[str]]
) -> list[tuple[str, str, Any]]:
    if isinstance(value, bool):
        return []
    if isinstance(value, int | float):
        kind = "count" if name in COUNT_KEYS else "cell" if ".rows[" in key else "number"
        out = [(kind, "+1", value + 1)]
        if value != 0:
            out.append((kind, "-1", value - 1))
        if value not in (0, 1):
            out.append((kind, "0", type(value)(0)))
        return out
    if isinstance(value, str) and not valid_language(name):  # not a text in some language
        for section in REFERENCE_KINDS:
            same = ids.get(section, set())
            if value in same and len(same) > 1:
                other = sorted(same - {value})
                return [("reference", "swap", other[0])]
    return []


def _shown(value: Any) -> Any:
    """A deleted item as the designer knows it: its id, or its value."""
    if isinstance(value, YMap):
        for k in ("id", "card", "board", "deck", "tokens", "token", "tag", "table"):
            if k in value and isinstance(value[k], str | int | YSeq):
                return f"{k}: {_shown(value[k])}" if k != "id" else value[k]
        first = next(iter(value.items()), None)
        return (
            f"{first[0]}: {first[1]}" if first and not isinstance(first[1], YMap | YSeq) else "{…}"
        )
    if isinstance(value, YSeq):
        return (
            "[" + ", ".join(str(v) for v in list(value)[:6] if not isinstance(v, YMap | YSeq)) + "]"
        )
    return value


def text_mutations(game: Game) -> list[Mutation]:
    """Each whole number written in a text (in each language given inline) tried +1."""
    out: list[Mutation] = []
    for text in game.texts:
        for lang, value in text.values.items():
            if not isinstance(value, str) or not valid_language(lang):
                continue
            for number in written(value):
                if not number.raw.isdigit():
                    continue  # decimals and grouped thousands are left alone
                new = str(int(number.raw) + 1)
                out.append(
                    Mutation(
                        text.at(lang),
                        "text",
                        f"{text.ctx} [{lang}]",
                        number.raw,
                        new,
                        "text",
                        where=("text", lang),
                        span=(number.start, number.end),
                    )
                )
    return out


def _defined_ids(trees: Trees) -> dict[str, set[str]]:
    """The ids each section defines (cards count with their decks), for references."""
    ids: dict[str, set[str]] = {}
    for tree in trees.values():
        if not isinstance(tree, YMap):
            continue
        for section in REFERENCE_SECTIONS:
            entries = tree.get(section)
            if isinstance(entries, YMap):
                ids.setdefault(section, set()).update(str(k) for k in entries)
        decks = tree.get("decks")
        if isinstance(decks, YMap):
            for deck in decks.values():
                cards = deck.get("cards") if isinstance(deck, YMap) else None
                for card in cards if isinstance(cards, YSeq) else []:
                    if isinstance(card, YMap) and isinstance(card.get("id"), str):
                        ids.setdefault("cards", set()).add(card["id"])
    return ids
