"""One run of pnp, and what it keeps while it works.

A run is one command (``pnp build``, ``pnp validate``...), or one rebuild of ``pnp watch``.
Everything pnp caches about the user's files lives in the run's stores — file digests and
image checks, prefetched reads, fitted texts, paragraph styles, compiled templates, registered
font families, embedded image headers, icon images, what forked workers inherit — and goes with
it: nothing learnt from one run's files survives into the next one in the same process.

What pnp keeps between runs on purpose depends only on pnp itself and on fixed inputs: the
conversion plans of the format's classes, the built-in layouts, pnp's own catalogs, the
line-break tables, the BudouX phrase models, and memos of pure functions (text widths by font
name and size, colours, hyphenation dictionaries, shaped words, a language's direction). Fonts
registered with reportlab stay registered, under names made of their content's digest.
One exception, made by ``pnp watch``: its rebuilds share the fitted texts (:meth:`Run.share`),
keyed by everything a fit depends on, and forgotten when an image or a font changes.

The run also tunes the cycle collector while it lasts (:func:`running`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from .perf import fewer_collections


class Run:
    """The caches of one run, by name."""

    def __init__(self) -> None:
        self._stores: dict[str, dict[Any, Any]] = {}

    def store(self, name: str, limit: int = 0) -> dict[Any, Any]:
        """The run's store ``name`` (empty at first); emptied when it holds more than
        ``limit`` entries (0: no limit), which keeps a huge run's memory bounded."""
        found = self._stores.get(name)
        if found is None:
            found = self._stores[name] = {}
        elif limit and len(found) > limit:
            found.clear()
        return found

    def share(self, name: str, store: dict[Any, Any]) -> None:
        """Use ``store``, kept by the caller past this run, as the store ``name``."""
        self._stores[name] = store


# The run in progress in this process. A module variable, not a context variable: forked
# workers (started from any thread) find the run that started them.
_ACTIVE: Run | None = None


def current() -> Run:
    """The run in progress. Outside of any run: a new one, which keeps nothing past its use."""
    return _ACTIVE if _ACTIVE is not None else Run()


def active() -> Run | None:
    return _ACTIVE


@contextlib.contextmanager
def running(fresh: bool = False) -> Iterator[Run]:
    """Be in a run for the duration of the block: the one in progress, or (with ``fresh``, or
    when there is none) a new one, whose caches go when the block ends. The cycle collector
    runs less often meanwhile."""
    global _ACTIVE
    outer = _ACTIVE
    if outer is not None and not fresh:
        yield outer
        return
    run = _ACTIVE = Run()
    try:
        with fewer_collections():
            yield run
    finally:
        _ACTIVE = outer
