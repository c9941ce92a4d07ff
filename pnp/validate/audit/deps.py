"""Which of a game's data an invariant reads, so the audit evaluates again only the invariants
whose data a change touched.

An invariant sees plain records (:func:`..invariants.game_data`): ``cards``, ``decks``,
``tables``... Its expressions name them; ``tables.roles`` or ``tables['events-2-4']`` reads one
entry, any other use of ``tables`` (iterating it, ``tables[row.name]``) reads them all, and the
function ``count`` reads every card. A change touches the entries whose records differ from the
unchanged game's; an invariant none of whose entries were touched gives what it gave before
(an expression reads nothing else, and the same data give the same result).
"""

from __future__ import annotations

import ast
from typing import Any

from ...content.expr import Record
from ...content.model import Invariant
from ...content.records import TableRecord

SECTIONS = frozenset(
    {"players", "cards", "decks", "tokens", "tables", "tracks", "scenarios", "boards"}
)
ALL = "*"  # every entry of a section

Touched = set[tuple[str, str]]  # (section, entry id or ALL)


def reads(inv: Invariant) -> Touched | None:
    """The entries an invariant's expressions read; None when they cannot be parsed (the
    invariant is then always evaluated)."""
    out: Touched = set()
    for source in (inv.check_, inv.where, _collection(inv)):
        found = _read(source) if source else set()
        if found is None:
            return None
        out |= found
    return out


def local(inv: Invariant) -> tuple[str, str | None] | None:
    """For an invariant that checks each item of one section (``c in cards``, ``row in
    tables.roles``) with expressions that read only the item: that section and entry. Such an
    invariant, evaluated on the changed items alone, gives what it gives on all of them."""
    coll = _collection(inv)
    if not coll:
        return None
    try:
        tree = ast.parse(coll.strip(), mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    for source in (inv.check_, inv.where):
        found = _read(source) if source else set()
        if found is None or found:
            return None
    if isinstance(tree, ast.Name) and tree.id in SECTIONS:
        return tree.id, None
    picked = _picked(tree)
    return picked


def _picked(tree: ast.AST) -> tuple[str, str | None] | None:
    if isinstance(tree, ast.Attribute) and isinstance(tree.value, ast.Name):
        return (tree.value.id, tree.attr) if tree.value.id in SECTIONS else None
    if (
        isinstance(tree, ast.Subscript)
        and isinstance(tree.value, ast.Name)
        and tree.value.id in SECTIONS
        and isinstance(tree.slice, ast.Constant)
        and isinstance(tree.slice.value, str)
    ):
        return tree.value.id, tree.slice.value
    return None


def _collection(inv: Invariant) -> str:
    """The collection of ``for_each: "name in collection"``, or ""."""
    if not inv.for_each or " in " not in inv.for_each:
        return ""
    return inv.for_each.split(" in ", 1)[1]


def _read(source: str) -> Touched | None:
    try:
        tree = ast.parse(source.strip(), mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    return _names(tree)


def _names(tree: ast.AST) -> Touched:
    parents: dict[int, ast.AST] = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[id(child)] = node
    out: Touched = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Name):
            continue
        if node.id == "count":
            out.add(("cards", ALL))
        if node.id not in SECTIONS:
            continue
        parent = parents.get(id(node))
        entry = ALL
        if isinstance(parent, ast.Attribute) and parent.value is node:
            entry = parent.attr
        elif (
            isinstance(parent, ast.Subscript)
            and parent.value is node
            and isinstance(parent.slice, ast.Constant)
            and isinstance(parent.slice.value, str)
        ):
            entry = parent.slice.value
        out.add((node.id, entry))
    return out


def touched(before: dict[str, Any], after: dict[str, Any]) -> Touched:
    """The entries whose records differ between two games' data."""
    out: Touched = set()
    for section in SECTIONS:
        old, new = before.get(section), after.get(section)
        if isinstance(old, Record) and isinstance(new, Record) and section != "players":
            a, b = old.data(), new.data()
            for key in a.keys() | b.keys():
                if key not in a or key not in b or _differs(a[key], b[key]):
                    out.add((section, str(key)))
        elif old != new:
            out.add((section, ALL))
    return out


def _differs(old: Any, new: Any) -> bool:
    """Whether two entries' records differ; a table by all its fields (its columns too), not
    only by the rows it reads as."""
    if isinstance(old, TableRecord) and isinstance(new, TableRecord):
        return bool(old.data() != new.data())
    return bool(old != new)


def affected(read: Touched | None, changed: Touched) -> bool:
    """Whether an invariant that reads ``read`` may give another result after ``changed``."""
    if read is None:
        return True
    sections = {s for s, _e in changed}
    for section, entry in read:
        if section not in sections:
            continue
        if entry == ALL or (section, entry) in changed or (section, ALL) in changed:
            return True
    return False
