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
import random
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...content.load import Root, load_game, read_trees
from ...core.findings import Report
from ...core.run import running
from ...i18n.catalog import read_translations
from .facts import OLD_OPS, SKIP_KEYS, SKIP_SECTIONS, Mutation, mutations
from .protect import HINTS, WRITTEN_ONCE, protect
from .runner import Runner, apply, locate

__all__ = [
    "HINTS",
    "OLD_OPS",
    "SKIP_KEYS",
    "SKIP_SECTIONS",
    "WRITTEN_ONCE",
    "Audit",
    "Mutation",
    "Progress",
    "apply",
    "audit_game",
    "locate",
    "mutations",
]


@dataclass
class Audit:
    game: str
    mutations: list[Mutation]  # the changes tried
    seconds: float
    total: int = 0  # the changes there were to try (more than tried: the budget ran out)
    budget: float | None = None  # the --max-seconds it ran under

    @property
    def partial(self) -> bool:
        """Whether the budget ran out before every change was tried."""
        return self.total > len(self.mutations)

    @property
    def caught(self) -> list[Mutation]:
        return [m for m in self.mutations if m.caught_by]

    @property
    def survivors(self) -> list[Mutation]:
        return [m for m in self.mutations if not m.caught_by]

    @property
    def written_once(self) -> int:
        """How many survivors changed a number nothing else in the game holds."""
        return sum(1 for m in self.survivors if m.protect == WRITTEN_ONCE)

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


Progress = Callable[[int, int, float], None]  # changes tried, changes in all, seconds so far


def audit_game(
    root: Root,
    game_id: str,
    report: Report,
    jobs: int = 0,
    progress: Progress | None = None,
    max_seconds: float | None = None,
) -> Audit | None:
    """Mutate every fact of the game once and validate; None when the game cannot be read.

    With ``max_seconds``, the changes are tried in a shuffled order (the same for the same
    game) until the budget runs out: what was tried is a fair sample, and the result says it
    is partial. At least one batch is always tried."""
    started = time.perf_counter()
    deadline = started + max_seconds if max_seconds is not None else None
    with running():
        trees = read_trees(root, game_id, report)
        game = load_game(root, game_id, report, trees)
        if game is None:
            return None
        catalogs = read_translations(root, game, Report())
        runner = Runner(root, game_id, trees, catalogs)
        muts = mutations(trees, runner.game)
        order = list(range(len(muts)))
        random.Random(f"audit/{game_id}").shuffle(order)
        clock = _Clock(started, deadline, progress)
        results = _run_all(runner, [muts[i] for i in order], jobs, clock)
    tried: list[Mutation] = []
    for i, rules in sorted(zip(order, results, strict=False)):
        m = muts[i]
        m.caught_by = rules
        if not rules:
            m.protect = protect(m, game)
        tried.append(m)
    return Audit(game_id, tried, time.perf_counter() - started, len(muts), max_seconds)


@dataclass
class _Clock:
    """When the audit started, when its budget runs out, and whom to tell how far it is."""

    started: float
    deadline: float | None
    progress: Progress | None

    def out(self) -> bool:
        return self.deadline is not None and time.perf_counter() >= self.deadline

    def tell(self, done: int, total: int) -> None:
        if self.progress is not None:
            self.progress(done, total, time.perf_counter() - self.started)


_SHARED: dict[str, Any] = {}  # what forked workers inherit


def _quiet_worker() -> None:
    # Ctrl-C reaches the whole process group: the parent alone answers it (it ends the pool)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _work(indices: list[int]) -> list[list[str]]:
    """A batch of changes, up to the budget (the monotonic clock is the machine's)."""
    runner: Runner = _SHARED["runner"]
    muts: list[Mutation] = _SHARED["muts"]
    deadline: float | None = _SHARED["deadline"]
    out: list[list[str]] = []
    for i in indices:
        if out and deadline is not None and time.perf_counter() >= deadline:
            break
        out.append(runner.run(muts[i]))
    return out


def _run_all(runner: Runner, muts: list[Mutation], jobs: int, clock: _Clock) -> list[list[str]]:
    """The rules catching each change, in order, for as many changes as the budget allows."""
    jobs = jobs or (os.cpu_count() or 1)
    chunk = 10
    batches = [list(range(i, min(i + chunk, len(muts)))) for i in range(0, len(muts), chunk)]
    results: list[list[str]] = []
    clock.tell(0, len(muts))
    if jobs > 1 and len(batches) > 1 and "fork" in multiprocessing.get_all_start_methods():
        _SHARED.update(runner=runner, muts=muts, deadline=clock.deadline)
        try:
            ctx = multiprocessing.get_context("fork")
            with ctx.Pool(min(jobs, len(batches)), initializer=_quiet_worker) as pool:
                for batch, part in zip(batches, pool.imap(_work, batches), strict=False):
                    results.extend(part)
                    clock.tell(len(results), len(muts))
                    if len(part) < len(batch) or clock.out():
                        break  # leaving the block ends the workers (terminate)
        finally:
            _SHARED.clear()
        return results
    for m in muts:
        if results and clock.out():
            break
        results.append(runner.run(m))
        if len(results) % chunk == 0:
            clock.tell(len(results), len(muts))
    return results
