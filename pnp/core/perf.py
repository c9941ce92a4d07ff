"""Process-wide settings that make large runs faster."""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import os
import threading
from collections.abc import Callable, Iterator
from typing import Any, BinaryIO, TypeVar

T = TypeVar("T")


@contextlib.contextmanager
def fewer_collections() -> Iterator[None]:
    """Run the cycle collector less often for the duration of a validation or a build.

    A 10,000-card game is a few million live objects (the model and its positions), and fitting
    its texts makes millions of short-lived ones (paragraph fragments); with Python's default
    thresholds, the collector's passes over everything alive took a fifth of a large build.
    The threshold is restored afterwards (``pnp watch`` runs many builds in one process).
    """
    old = gc.get_threshold()
    gc.set_threshold(max(old[0], 100_000), max(old[1], 50), max(old[2], 50))
    try:
        yield
    finally:
        gc.set_threshold(*old)


@contextlib.contextmanager
def collections_paused() -> Iterator[None]:
    """No cycle collection while loading: everything a load makes is kept (the model), so the
    collector's passes over it find nothing (a tenth of loading a 10,000-card game). Garbage
    without cycles is still freed at once; the collector is back on afterwards."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def available_cpus() -> int:
    """The processor cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):  # pragma: no cover - platforms without affinity
        return os.cpu_count() or 1


_TASK: Callable[[int], Any] | None = None  # what forked workers run (they inherit it)


def _run_part(k: int) -> Any:
    assert _TASK is not None
    return _TASK(k)


def fork_parts(task: Callable[[int], T], parts: int) -> list[T]:
    """``[task(0), ..., task(parts - 1)]``, part 0 in this process and the others at the same
    time in forked processes, which see this process's memory (the loaded game) without it
    being pickled. Only the results travel back. Where fork is not available, or a worker
    cannot be started, every part runs here, one after another."""
    return fork_parts_later(task, parts)()


def fork_parts_later(task: Callable[[int], T], parts: int) -> Callable[[], list[T]]:
    """:func:`fork_parts` in two steps: parts 1 and up start now in forked processes, and this
    process is free to do other work; the function returned runs part 0 here and gathers the
    results, in order."""
    global _TASK

    def serial() -> list[T]:
        return [task(k) for k in range(parts)]

    if parts <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        return serial
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    _TASK = task
    try:
        pool = ProcessPoolExecutor(parts - 1, mp_context=multiprocessing.get_context("fork"))
        futures = [pool.submit(_run_part, k) for k in range(1, parts)]  # forks the workers now
    except OSError:
        return serial
    finally:
        _TASK = None

    def gather() -> list[T]:
        with pool:
            first = task(0)
            try:
                return [first, *(f.result() for f in futures)]
            except (OSError, BrokenProcessPool):
                return [first, *(task(k) for k in range(1, parts))]

    return gather


class EarlyWriteback:
    """A file writer that has the operating system start writing to disk while the file is
    still being produced, so that the final ``fsync`` waits for little.

    A PDF of art is hundreds of megabytes; left to the end, its ``fsync`` is pure waiting (and
    two parallel jobs queue on the disk with theirs). Every ``step`` bytes, a background thread
    syncs what has been written so far; :meth:`close` syncs the rest.
    """

    def __init__(self, fh: BinaryIO, step: int = 32 * 1024 * 1024) -> None:
        self._fh = fh
        self._fd = fh.fileno()
        self._step = step
        self._next = step
        self._written = 0
        self._wake = threading.Event()
        self._done = False
        self._thread: threading.Thread | None = None

    def write(self, data: bytes) -> int:
        n = self._fh.write(data)
        self._written += len(data)
        if self._written >= self._next:
            self._next = self._written + self._step
            self._fh.flush()  # what the thread syncs must be in the kernel's hands
            if self._thread is None:
                self._thread = threading.Thread(target=self._sync_loop, daemon=True)
                self._thread.start()
            self._wake.set()
        return n

    def flush(self) -> None:
        self._fh.flush()

    def _sync_loop(self) -> None:
        sync = getattr(os, "fdatasync", os.fsync)
        while True:
            self._wake.wait()
            self._wake.clear()
            if self._done:
                return
            try:
                sync(self._fd)
            except OSError:
                return  # the final fsync reports it

    def stop(self) -> None:
        """End the background syncs (at once if one is not running); safe to call twice."""
        if self._thread is not None:
            self._done = True
            self._wake.set()
            self._thread.join()
            self._thread = None

    def close(self) -> None:
        """Write and sync everything (OSError when the disk refuses)."""
        self._fh.flush()
        self.stop()
        os.fsync(self._fd)
