"""The small exception hierarchy of pnp.

Everything a user can cause ends up either as a :class:`~pnp.findings.Finding` collected in a
report, or as one of these exceptions, which the CLI turns into a one-line message and an exit
code. Anything else escaping the library is a bug in pnp.
"""

from __future__ import annotations

import contextvars
import errno


class PnpError(Exception):
    """Base of every error pnp raises on purpose. ``exit_code`` is what the CLI returns."""

    exit_code = 1


class UsageError(PnpError):
    """The command line asked for something that cannot be done (unknown game, bad option)."""

    exit_code = 2


class ContentError(PnpError):
    """Content could not be processed; the findings say why (they are already reported)."""


class BuildError(PnpError):
    """A build failed after validation (font unusable, output folder not writable...)."""


class Interrupted(PnpError):
    """Ctrl-C: staged files are removed, finished outputs are untouched."""

    exit_code = 130


# What to do about the operating system's refusals that are the user's to fix
_ADVICE = {
    errno.ENOSPC: "free some space on that disk, or write elsewhere with --out",
    errno.EDQUOT: "your disk quota is used up: free some space, or write elsewhere with --out",
    errno.EROFS: "that folder is on a read-only disk: write elsewhere with --out",
    errno.EACCES: "you may not write there: change its permissions, or use --out",
    errno.EPERM: "you may not write there: change its permissions, or use --out",
    errno.EMFILE: "too many files are open: close some programs and try again",
    errno.ENAMETOOLONG: "the name is too long for the file system: use a shorter folder",
    errno.EIO: "the disk reports an input/output error: check the disk",
}


# The same, for the commands that write where they must (`pnp new`, `pnp i18n`): no --out
_ADVICE_IN_PLACE = {
    errno.ENOSPC: "free some space on that disk",
    errno.EDQUOT: "your disk quota is used up: free some space",
    errno.EROFS: "that folder is on a read-only disk: copy the content root to a writable one",
    errno.EACCES: "you may not write there: change its permissions",
    errno.EPERM: "you may not write there: change its permissions",
}
# Whether the command running has --out (set by the CLI for each command)
HAS_OUT: contextvars.ContextVar[bool] = contextvars.ContextVar("pnp_has_out", default=True)


def os_problem(exc: OSError, path: bool = True) -> str:
    """An operating-system error as one line for the user: what failed, on which path, and
    what to do (a full disk or a read-only folder is the user's to fix, not a bug in pnp;
    ``--out`` is advised only to a command that has it, see HAS_OUT).
    ``path``: False when the caller names the file itself."""
    what = exc.strerror or type(exc).__name__
    advice = _ADVICE.get(exc.errno or 0, "check the disk and the folder's permissions")
    if not HAS_OUT.get():
        advice = _ADVICE_IN_PLACE.get(exc.errno or 0, advice)
    if not path:
        return f"{what}; {advice}"
    where = f" ({exc.filename})" if exc.filename else ""
    return f"cannot read or write a file{where}: {what}; {advice}"
