"""A workbook is read in a child process with a memory and a time limit.

python-calamine is Rust: when an allocation fails it aborts the process (no exception to
catch), and some of its allocations grow with what a file announces rather than with its size.
:mod:`.guard` refuses what it can foresee, with a precise message; this module contains the
rest. The reader runs in a forked child whose address space may grow by at most
:data:`MAX_READ_BYTES` over what the parent had mapped, killed after :data:`MAX_READ_SECONDS`;
the child sends back plain cells (``marshal``: None, str, int, float, bool) or the reader's
:class:`SheetError`, and anything else (an abort, a kill, a limit) becomes a ``sheet`` finding
at the file. The parent's memory holds only the cells it receives.

Forking copies nothing up front (pages are shared until written), so a small workbook costs a
few milliseconds more. Where ``os.fork`` does not exist (Windows), the workbook is read in the
process, behind the guard alone (docs/security.md says so).
"""

from __future__ import annotations

import marshal
import os
import select
import signal
import warnings
from collections.abc import Callable
from typing import Any

from ...core.findings import Pos

MAX_READ_BYTES = 512 * 1024 * 1024  # address space the reader may add to the parent's
MAX_READ_SECONDS = 20.0
MAX_REPLY_BYTES = 256 * 1024 * 1024  # what the child may send back (marshal of the cells)
_CHUNK = 1 << 20


class Contained(Exception):
    """The reader did not finish within its limits; the message says which."""


def available() -> bool:
    return hasattr(os, "fork") and hasattr(os, "pipe")


def run_contained(read: Callable[[], Any], error: type[Exception]) -> Any:
    """``read()`` (which returns plain data for ``marshal``) in a child process with limits.
    An ``error`` raised by ``read`` (a SheetError: message, pos, rule) is raised here again;
    Contained when the child dies, runs out of memory or time."""
    rfd, wfd = os.pipe()
    with warnings.catch_warnings():  # Python 3.12+ warns when threads exist; the child
        warnings.simplefilter("ignore", DeprecationWarning)  # only reads and exits
        pid = os.fork()
    if pid == 0:  # pragma: no cover - the child (coverage does not follow a fork)
        os.close(rfd)
        _child(read, error, wfd)
    os.close(wfd)
    try:
        reply = _receive(rfd, pid)
    finally:
        os.close(rfd)
        _reap(pid)
    return _answer(reply, error)


def _child(read: Callable[[], Any], error: type[Exception], wfd: int) -> None:  # pragma: no cover
    code = 0
    try:
        _quiet()
        _limit()
        try:
            out: tuple[Any, ...] = ("ok", read())
        except MemoryError:
            out = ("memory",)
        except error as exc:
            pos = getattr(exc, "pos", None)
            out = ("error", str(getattr(exc, "message", exc)), tuple(pos) if pos else None,
                   str(getattr(exc, "rule", "")))  # fmt: skip
        data = marshal.dumps(out)
        view = memoryview(data)
        while view:
            view = view[os.write(wfd, view[:_CHUNK]) :]
    except BaseException:  # the child must never return into the code of the parent
        code = 3
    finally:
        os._exit(code)


def _quiet() -> None:  # pragma: no cover - in the child
    """The Rust reader prints its abort message and backtrace on stderr: not to the user."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    os.close(devnull)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    signal.signal(signal.SIGALRM, signal.SIG_DFL)
    signal.setitimer(signal.ITIMER_REAL, MAX_READ_SECONDS + 1)  # a second net: the parent kills


def _limit() -> None:  # pragma: no cover - in the child
    try:
        import resource
    except ImportError:
        return
    mapped = _mapped_bytes()
    if mapped is None:
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    want = mapped + MAX_READ_BYTES
    if hard != resource.RLIM_INFINITY:
        want = min(want, hard)
    if soft == resource.RLIM_INFINITY or want < soft:
        resource.setrlimit(resource.RLIMIT_AS, (want, hard))


def _mapped_bytes() -> int | None:  # pragma: no cover - in the child
    """The address space this process has mapped (Linux); None where it cannot be read."""
    try:
        with open("/proc/self/statm", "rb") as fh:
            return int(fh.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


def _receive(rfd: int, pid: int) -> bytes | None:
    """What the child wrote before it ended; None when it exceeded the time or reply limit."""
    import time

    deadline = time.monotonic() + MAX_READ_SECONDS
    chunks: list[bytes] = []
    size = 0
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        ready, _, _ = select.select([rfd], [], [], left)
        if not ready:
            return None
        chunk = os.read(rfd, _CHUNK)
        if not chunk:
            return b"".join(chunks)
        size += len(chunk)
        if size > MAX_REPLY_BYTES:
            return None
        chunks.append(chunk)


def _reap(pid: int) -> None:
    """The child ended: killed if it still runs (time out, Ctrl-C), then waited for."""
    try:
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done == 0:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
    except ChildProcessError:
        pass


def _answer(reply: bytes | None, error: type[Exception]) -> Any:
    if reply is None:
        raise Contained(
            f"reading it took more than {MAX_READ_SECONDS:.0f} s; a card list reads in a "
            "fraction of a second: open it in your spreadsheet, delete what is not the list, "
            "and save it again"
        )
    try:
        out: tuple[Any, ...] = marshal.loads(reply) if reply else ("memory",)
    except (ValueError, EOFError, TypeError):
        out = ("memory",)
    if out[0] == "ok":
        return out[1]
    if out[0] == "error":
        message, pos, rule = out[1], out[2], out[3]
        raise error(message, Pos(*pos) if pos else None, rule)
    raise Contained(
        f"reading it needs more than {MAX_READ_BYTES // (1024 * 1024)} MB of memory (the file "
        "expands into far more cells or text than it holds); open it in your spreadsheet, "
        "delete what is not the list, and save it again"
    )
