"""Reading and writing files safely. Reads: regular files only (a FIFO would block, a device
would be read forever), no symbolic link as the last component, and the size limit checked
before a byte is read. Writes: through a temporary file in the same folder, then a rename, so
that an interrupted write never leaves half a file; a new file gets the user's usual mode.
Output folders are real folders: created one by one under a base pnp trusts (the content root,
or the folder of ``--out``), never a symbolic link or a special file (:func:`out_folder`), so a
pack shipped with an ``output/`` folder cannot make pnp write or delete outside it."""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

from .errors import BuildError, os_problem


def stage(path: Path, write: Callable[[BinaryIO], object]) -> Path:
    """A temporary file beside ``path`` (in its folder, so that a rename moves it into place)
    holding what ``write`` wrote to it, synced to disk; removed again when anything fails.
    The operating system's refusals (a full disk, a read-only folder) become a BuildError
    naming the path and what to do."""
    try:
        if os.path.islink(path.parent):  # a link out of an output folder is never followed
            raise BuildError(_linked(path.parent))
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise BuildError(f"cannot write into {path.parent}: {os_problem(exc, path=False)}") from exc
    staged = Path(tmp)
    default_mode(staged)
    try:
        with os.fdopen(fd, "wb") as fh:
            write(fh)
            fh.flush()
            os.fsync(fh.fileno())
    except BaseException as exc:
        with contextlib.suppress(OSError):
            staged.unlink()
        if isinstance(exc, OSError) and not isinstance(exc, ReadRefused):
            raise BuildError(f"cannot write {path}: {os_problem(exc, path=False)}") from exc
        raise
    return staged


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder and a rename."""
    staged = stage(path, lambda fh: fh.write(data))
    try:
        os.replace(staged, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            staged.unlink()
        raise BuildError(f"cannot write {path}: {os_problem(exc, path=False)}") from exc


def out_folder(base: Path, *parts: str, create: bool = True) -> Path:
    """``base`` / ``parts``, each part a real folder in the one before it: made when missing
    (with ``create``; without, a missing part ends the check, as nothing below it exists yet),
    refused with a :class:`BuildError` when it is a symbolic link (even a dangling one) or not
    a folder. ``base`` itself is trusted (the content root, or ``--out`` as the user gave it)."""
    folder = base
    if create and parts:
        try:  # the base is the user's: made as asked, links and all
            base.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise BuildError(f"cannot make the folder {base}: {os_problem(exc, False)}") from exc
    for part in parts:
        folder = folder / part
        try:
            st = os.lstat(folder)
        except FileNotFoundError:
            if not create:
                return base.joinpath(*parts)
            try:
                os.mkdir(folder)  # never follows: a link in its place is EEXIST
                st = os.lstat(folder)
            except OSError as exc:
                raise BuildError(
                    f"cannot make the folder {folder}: {os_problem(exc, False)}"
                ) from exc
        except OSError as exc:
            raise BuildError(f"cannot use the folder {folder}: {os_problem(exc, False)}") from exc
        if stat.S_ISLNK(st.st_mode):
            raise BuildError(_linked(folder))
        if not stat.S_ISDIR(st.st_mode):
            raise BuildError(
                f"{folder} is not a folder (a file, pipe or device is in its place); "
                "remove it, and pnp makes the folder"
            )
    return folder


def _linked(folder: Path) -> str:
    return (
        f"{folder} is a symbolic link; pnp writes only into real folders, never through a "
        "link (a pack may ship one that points elsewhere): remove it, and pnp makes the folder"
    )


def is_regular(path: Path) -> bool:
    """Whether ``path`` is a regular file itself (not a link to one, not a pipe or device)."""
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


def remove_written(path: Path) -> None:
    """Remove ``path``, a file pnp wrote, if it still is a regular file (a link or anything
    else put in its place is left alone)."""
    if is_regular(path):
        with contextlib.suppress(OSError):
            path.unlink()


def default_mode(path: Path) -> None:
    """mkstemp makes files private (0600); outputs get the user's usual mode (umask)."""
    umask = os.umask(0)
    os.umask(umask)
    with contextlib.suppress(OSError):
        os.chmod(path, 0o666 & ~umask)


class ReadRefused(OSError):
    """A file pnp will not read, with the reason in words for the user (no path). An OSError,
    so that code handling unreadable files handles these too (``strerror`` is the reason)."""

    def __init__(self, reason: str) -> None:
        super().__init__(errno.EINVAL, reason)

    def __str__(self) -> str:
        return str(self.strerror)


def open_regular(path: Path, what: str = "file", inside: Path | None = None) -> BinaryIO:
    """``path`` opened for reading if it is a regular file and not a symbolic link, and, with
    ``inside``, if it really lies in that folder (a folder on its way that is a symbolic link
    out of it is refused like a linked file): opened without blocking (a FIFO does not hang
    the open) and checked on the open descriptor. :class:`ReadRefused` says why not."""
    if os.path.islink(path):  # not even opened; O_NOFOLLOW below covers a late swap
        raise ReadRefused("symbolic links are not read; copy the file in instead")
    if inside is not None and not _within(path, inside):
        raise ReadRefused(
            "it lies outside the content root: a folder on its way is a symbolic link out of "
            "it; copy the folder in instead"
        )
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise ReadRefused(f"cannot read it ({exc.strerror})") from exc
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ReadRefused(
                f"not a regular file (a pipe, device or folder?); a {what} must be a plain file"
            )
    except BaseException:
        os.close(fd)
        raise
    return os.fdopen(fd, "rb")


def _within(path: Path, folder: Path) -> bool:
    real, base = os.path.realpath(path), os.path.realpath(folder)
    return real == base or real.startswith(base.rstrip(os.sep) + os.sep)


def real(path: Path) -> Path:
    """``path`` with its symbolic links resolved as far as they resolve: a loop (a link to
    itself, a folder linking to its parent) ends the resolution where it starts, instead of
    raising as ``Path.resolve`` does (RuntimeError before Python 3.13, OSError after)."""
    return Path(os.path.realpath(path))


def root_of(path: Path, rel: str) -> Path:
    """The folder ``rel`` (a path relative to it, with / separators) is relative to."""
    parts = [p for p in rel.split("/") if p]
    return path.parents[len(parts) - 1] if parts else path


def read_limited(path: Path, limit: int, what: str = "file", inside: Path | None = None) -> bytes:
    """The bytes of ``path``, a regular file (see :func:`open_regular`) of at most ``limit``
    bytes, checked before reading and read to ``limit`` + 1 bytes at most (a file that grows
    while being read is still refused). :class:`ReadRefused` says why not."""
    with open_regular(path, what, inside) as fh:
        try:
            size = os.fstat(fh.fileno()).st_size
            if size > limit:
                raise ReadRefused(
                    f"{size:,} bytes, over the {_size(limit)} a {what} may have; make it smaller"
                )
            data = fh.read(limit + 1)
        except ReadRefused:
            raise
        except OSError as exc:
            raise ReadRefused(f"cannot read it ({exc.strerror})") from exc
    if len(data) > limit:
        raise ReadRefused(f"over the {_size(limit)} a {what} may have; make it smaller")
    return data


def _size(limit: int) -> str:
    mb = limit / (1024 * 1024)
    return f"{mb:g} MB" if mb >= 1 else f"{limit:,} bytes"
