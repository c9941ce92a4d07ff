"""``pnp audit``: which facts of a game no rule protects (mutation testing of a content pack).

Each fact of the game's files (a number, a count of copies, a table cell, a reference to
another id) is changed in memory, one at a time, in the parsed YAML trees; the game is converted
and validated again (without fitting texts, and without reading any file), and the change is
*caught* when validation reports an error or a warning it did not report before. What survives
is a fact a designer can change by mistake without any rule noticing.

Presentation is not audited: layouts, styles, print settings, sizes and positions of elements
are free for the designer to change.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..content.load import Root, Trees, load_game, read_trees
from ..content.model import valid_language
from ..content.yamlio import YMap, YSeq
from ..core.findings import Pos, Report
from ..core.rules import Severity
from ..core.run import running
from ..i18n.catalog import Translations, read_translations

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

HINTS = {
    "count": "a component count in game.yaml (box-count) or an invariant on the total",
    "cell": "a table total (total: ... equals:), a covers: range, or an invariant on the table",
    "number": "an invariant (`pnp docs rules`: invariant) relating it to the numbers it depends on",
    "reference": "a scenario or setup rule that names what must be there, or an invariant",
}


@dataclass
class Mutation:
    """One changed fact: where it is written, what it was and what it became."""

    pos: Pos
    kind: str  # count, cell, number, reference
    key: str  # where in the file, e.g. decks.roles.cards[2].copies
    old: Any
    new: Any
    caught_by: list[str] = field(default_factory=list)  # rule ids of the new findings
    # the keys and indices that lead to it in its file, as they are (an int key stays an int)
    where: tuple[Any, ...] = ()

    def as_json(self) -> dict[str, Any]:
        return {
            "path": self.pos.path,
            "line": self.pos.line,
            "column": self.pos.col,
            "kind": self.kind,
            "key": self.key,
            "old": self.old,
            "new": self.new,
            "caught_by": self.caught_by,
            "hint": HINTS[self.kind],
        }


@dataclass
class Audit:
    game: str
    mutations: list[Mutation]
    seconds: float

    @property
    def caught(self) -> list[Mutation]:
        return [m for m in self.mutations if m.caught_by]

    @property
    def survivors(self) -> list[Mutation]:
        return [m for m in self.mutations if not m.caught_by]

    @property
    def score(self) -> float:
        """Caught over tried, in per cent (100 when nothing could be tried)."""
        tried = len(self.mutations)
        return 100.0 * len(self.caught) / tried if tried else 100.0


# --- the facts of a game -----------------------------------------------------------------------


def mutations(trees: Trees) -> list[Mutation]:
    """Every fact of the game's files, and the change tried on it."""
    ids = _defined_ids(trees)
    found: list[Mutation] = []
    for tree in trees.values():
        if isinstance(tree, YMap):
            for name, value in tree.items():
                if name not in SKIP_SECTIONS:
                    found.extend(_walk(value, str(name), ids, (name,)))
    return found


def _walk(
    node: Any, key: str, ids: dict[str, set[str]], where: tuple[Any, ...]
) -> Iterator[Mutation]:
    children: list[tuple[Any, Pos, str, str, Any]] = []
    if isinstance(node, YMap):
        children = [(v, node.value_pos(k), f"{key}.{k}", str(k), k) for k, v in node.items()]
    elif isinstance(node, YSeq):
        children = [(v, node.item_pos(i), f"{key}[{i}]", "", i) for i, v in enumerate(node)]
    for value, vpos, vkey, name, step in children:
        if name in SKIP_KEYS or name == "id":
            continue
        if isinstance(value, YMap | YSeq):
            yield from _walk(value, vkey, ids, (*where, step))
            continue
        change = _change(value, name, vkey, ids)
        if change is not None:
            kind, new = change
            yield Mutation(vpos, kind, vkey, value, new, where=(*where, step))


def _change(value: Any, name: str, key: str, ids: dict[str, set[str]]) -> tuple[str, Any] | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        kind = "count" if name in COUNT_KEYS else "cell" if ".rows[" in key else "number"
        return kind, value + 1
    if isinstance(value, str) and not valid_language(name):  # not a text in some language
        for section in REFERENCE_KINDS:
            same = ids.get(section, set())
            if value in same and len(same) > 1:
                other = sorted(same - {value})
                return "reference", other[0]
    return None


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


# --- running it --------------------------------------------------------------------------------


def _findings(root: Root, game_id: str, trees: Trees, catalogs: Translations) -> set[tuple]:
    """The errors and warnings of validating the game made from ``trees``."""
    from . import validate_game

    report = Report()
    game = load_game(root, game_id, report, trees)
    if game is not None:
        validate_game(root, game, report, fit_languages=[], jobs=1, catalogs=catalogs)
    keep = (Severity.ERROR, Severity.WARNING)
    return {
        (f.rule, f.pos.path, f.pos.line, f.pos.col, f.message)
        for f in report.findings
        if f.severity in keep
    }


def _locate(trees: Trees, m: Mutation) -> tuple[Any, Any]:
    """The container holding the mutated value, and its key or index (as they are in the
    file's data: a mapping's integer key stays an integer, a key may hold dots)."""
    node: Any = trees[m.pos.path]
    for step in m.where[:-1]:
        node = node[step]
    return node, m.where[-1]


def _try(
    root: Root, game_id: str, trees: Trees, catalogs: Translations, base: set, m: Mutation
) -> list[str]:
    holder, at = _locate(trees, m)
    holder[at] = m.new
    try:
        new = _findings(root, game_id, trees, catalogs) - base
    finally:
        holder[at] = m.old
    return sorted({rule for rule, *_rest in new})


_SHARED: dict[str, Any] = {}  # what forked workers inherit


def _work(indices: list[int]) -> list[list[str]]:
    s = _SHARED
    return [
        _try(s["root"], s["game"], s["trees"], s["catalogs"], s["base"], s["muts"][i])
        for i in indices
    ]


def audit_game(
    root: Root,
    game_id: str,
    report: Report,
    jobs: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> Audit | None:
    """Mutate every fact of the game once and validate; None when the game cannot be read."""
    started = time.perf_counter()
    with running():
        trees = read_trees(root, game_id, report)
        game = load_game(root, game_id, report, trees)
        if game is None:
            return None
        catalogs = read_translations(root, game, Report())
        base = _findings(root, game_id, trees, catalogs)
        muts = mutations(trees)
        results = _run_all(root, game_id, trees, catalogs, base, muts, jobs, progress)
    for m, rules in zip(muts, results, strict=True):
        m.caught_by = rules
    return Audit(game_id, muts, time.perf_counter() - started)


def _run_all(
    root: Root,
    game_id: str,
    trees: Trees,
    catalogs: Translations,
    base: set,
    muts: list[Mutation],
    jobs: int,
    progress: Callable[[int, int], None] | None,
) -> list[list[str]]:
    jobs = jobs or (os.cpu_count() or 1)
    chunk = 25
    batches = [list(range(i, min(i + chunk, len(muts)))) for i in range(0, len(muts), chunk)]
    results: list[list[str]] = []
    if jobs > 1 and len(batches) > 1 and "fork" in multiprocessing.get_all_start_methods():
        _SHARED.update(
            root=root, game=game_id, trees=trees, catalogs=catalogs, base=base, muts=muts
        )
        try:
            with multiprocessing.get_context("fork").Pool(min(jobs, len(batches))) as pool:
                for part in pool.imap(_work, batches):
                    results.extend(part)
                    if progress:
                        progress(len(results), len(muts))
        finally:
            _SHARED.clear()
        return results
    for batch in batches:
        results.extend(_try(root, game_id, trees, catalogs, base, muts[i]) for i in batch)
        if progress:
            progress(len(results), len(muts))
    return results
