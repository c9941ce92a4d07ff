"""The small exception hierarchy of pnp.

Everything a user can cause ends up either as a :class:`~pnp.findings.Finding` collected in a
report, or as one of these exceptions, which the CLI turns into a one-line message and an exit
code. Anything else escaping the library is a bug in pnp.
"""

from __future__ import annotations


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
