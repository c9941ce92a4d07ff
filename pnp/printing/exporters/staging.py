"""Staged files: an output is written to a temporary file beside its final name, and the
build renames it into place once every job has succeeded (or removes it when one failed)."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, cast

from ...core.files import stage
from ...core.perf import EarlyWriteback

if TYPE_CHECKING:
    from ..imposition import Page
    from ..render import Renderer

STALE_SECONDS = 3600  # a staged file this old was left by a build killed long ago


def render_staged(renderer: Renderer, pages: list[Page], path: Path) -> Path:
    """Render into a temporary file beside ``path`` (renamed into place by the build)."""
    remove_stale(path)

    def produce(fh: BinaryIO) -> None:
        writer = EarlyWriteback(fh)  # the disk starts writing while the PDF is produced
        try:
            renderer.render(pages, sink=cast(BinaryIO, writer))
        finally:
            writer.stop()  # stage() flushes and syncs the rest

    return stage(path, produce)


def stage_file(path: Path, data: bytes) -> Path:
    """``data`` in a temporary file beside ``path`` (renamed into place by the build)."""
    return stage(path, lambda fh: fh.write(data))


def discard(staged: Iterable[Path]) -> None:
    """Remove staged files, and their folders if nothing else is in them."""
    folders = set()
    for path in staged:
        with contextlib.suppress(OSError):
            path.unlink()
        folders.add(path.parent)
    for folder in folders:
        with contextlib.suppress(OSError):
            folder.rmdir()  # only when empty


def remove_stale_in(folder: Path) -> None:
    """Staged files left in ``folder`` by a build killed long ago."""
    now = time.time()
    for old in folder.glob(".*.tmp") if folder.is_dir() else ():
        with contextlib.suppress(OSError):
            if now - old.stat().st_mtime > STALE_SECONDS:
                old.unlink()


def remove_stale(path: Path) -> None:
    """Temporary files left by a build that was killed long ago (not by one running now)."""
    now = time.time()
    for old in path.parent.glob(f".{path.name}.*.tmp"):
        with contextlib.suppress(OSError):
            if now - old.stat().st_mtime > STALE_SECONDS:
                old.unlink()
