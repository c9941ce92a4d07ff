"""Writing files safely: through a temporary file in the same folder, then a rename, so that
an interrupted write never leaves half a file; a new file gets the user's usual mode."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from .errors import BuildError


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder and a rename."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise BuildError(f"cannot write into {path.parent}: {exc.strerror}") from exc
    default_mode(Path(tmp))
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise BuildError(f"cannot write {path}: {exc.strerror}") from exc
        raise


def default_mode(path: Path) -> None:
    """mkstemp makes files private (0600); outputs get the user's usual mode (umask)."""
    umask = os.umask(0)
    os.umask(umask)
    with contextlib.suppress(OSError):
        os.chmod(path, 0o666 & ~umask)
