"""``pnp audit``: which facts of a game no rule protects (mutation testing of a content pack).

Each fact of the game's files (a number, a count of copies, a table cell, a reference to another
id, a list item, a number inside a text) is changed in memory, one change at a time
(:mod:`.facts`); the game is validated again (without fitting texts, and without reading any
file: :mod:`.runner`), and the change is *caught* when validation reports an error or a warning
it did not report before. What survives is a fact a designer can change by mistake without any
rule noticing; for each, :mod:`.protect` says what would protect it.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...content.load import Root, load_game, read_trees
from ...core.findings import Report
from ...core.run import running
from ...i18n.catalog import read_translations
from .facts import OLD_OPS, SKIP_KEYS, SKIP_SECTIONS, Mutation, mutations
from .protect import HINTS, protect
from .runner import Runner, apply, locate

__all__ = [
    "HINTS",
    "OLD_OPS",
    "SKIP_KEYS",
    "SKIP_SECTIONS",
    "Audit",
    "Mutation",
    "apply",
    "audit_game",
    "locate",
    "mutations",
]


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
        return _score(self.mutations)

    @property
    def old_score(self) -> float:
        """The score over the changes the audit tried before issue 31 (+1, swapped ids)."""
        return _score([m for m in self.mutations if m.op in OLD_OPS])


def _score(tried: list[Mutation]) -> float:
    return 100.0 * sum(1 for m in tried if m.caught_by) / len(tried) if tried else 100.0


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
        runner = Runner(root, game_id, trees, catalogs)
        muts = mutations(trees, runner.game)
        results = _run_all(runner, muts, jobs, progress)
    for m, rules in zip(muts, results, strict=True):
        m.caught_by = rules
        if not rules:
            m.protect = protect(m, game)
    return Audit(game_id, muts, time.perf_counter() - started)


_SHARED: dict[str, Any] = {}  # what forked workers inherit


def _work(indices: list[int]) -> list[list[str]]:
    runner: Runner = _SHARED["runner"]
    muts: list[Mutation] = _SHARED["muts"]
    return [runner.run(muts[i]) for i in indices]


def _run_all(
    runner: Runner,
    muts: list[Mutation],
    jobs: int,
    progress: Callable[[int, int], None] | None,
) -> list[list[str]]:
    jobs = jobs or (os.cpu_count() or 1)
    chunk = 20
    batches = [list(range(i, min(i + chunk, len(muts)))) for i in range(0, len(muts), chunk)]
    results: list[list[str]] = []
    if jobs > 1 and len(batches) > 1 and "fork" in multiprocessing.get_all_start_methods():
        _SHARED.update(runner=runner, muts=muts)
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
        results.extend(runner.run(muts[i]) for i in batch)
        if progress:
            progress(len(results), len(muts))
    return results
