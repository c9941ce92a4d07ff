"""Staged files: an output is written to a temporary file beside its final name, and the
build renames it into place once every job has succeeded (or removes it when one failed)."""

from __future__ import annotations

import contextlib
import glob
import os
import re
import stat
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


# what stage() names its temporary files: "." NAME "." and mkstemp's random letters ".tmp"
STAGED_RE = re.compile(r"\.(?P<name>.+)\.[A-Za-z0-9_]{8}\.tmp")


def remove_stale_in(folder: Path) -> None:
    """Staged files left in ``folder`` by a build killed long ago."""
    if os.path.isdir(folder) and not os.path.islink(folder):
        _remove_old(p for p in folder.glob(".*.tmp") if STAGED_RE.fullmatch(p.name))


def remove_stale(path: Path) -> None:
    """Temporary files left by a build that was killed long ago (not by one running now)."""
    if not os.path.islink(path.parent):
        olds = path.parent.glob(f".{glob.escape(path.name)}.*.tmp")
        _remove_old(p for p in olds if STAGED_RE.fullmatch(p.name))


def _remove_old(paths: Iterable[Path]) -> None:
    """Those of ``paths`` that are regular files (named as pnp names its staged files) older
    than STALE_SECONDS: a link or a special file of that name is not pnp's, and stays."""
    now = time.time()
    for old in paths:
        with contextlib.suppress(OSError):
            st = os.lstat(old)
            if stat.S_ISREG(st.st_mode) and now - st.st_mtime > STALE_SECONDS:
                old.unlink()
