"""Process-wide settings that make large runs faster."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


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
