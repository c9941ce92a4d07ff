"""The global options, before the command or after it: ``pnp -q build fabg`` and
``pnp build fabg -q`` are the same command, as are ``pnp --root DIR list`` and
``pnp list --root DIR``.

Before the command they are the app's own options (:func:`pnp.cli.commands._main` calls
:func:`before`). After it, every command takes ``--quiet`` and ``--verbose`` as well:
:func:`everywhere` adds them to the signature of each command once all are registered, so
``pnp build --help`` lists them, and shell completion offers them. ``--root`` is an option of
every command that reads a content root; given before the command, it is that option's value
unless the command line gives one after the command too.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer

from ..core.errors import UsageError
from ..i18n.words import tr
from .common import OUTPUT, Level, fail

QuietOpt = Annotated[
    bool,
    typer.Option(
        "--quiet",
        "-q",
        help="Print only errors and the final line (no warnings, progress or notes).",
    ),
]
VerboseOpt = Annotated[
    bool,
    typer.Option(
        "--verbose",
        "-v",
        help="Also print every info finding (each untranslated text) and how long the steps took.",
    ),
]
# before the command: no envvar here (each command reads PNP_ROOT itself, after this option)
RootBeforeOpt = Annotated[
    Path | None,
    typer.Option(
        "--root",
        help="Content root holding cards/, locales/, fonts/, output/ (default: current folder).",
        show_default=False,
    ),
]


@dataclass
class Before:
    """What the options before the command asked, for the command to apply."""

    root: Path | None = None


BEFORE = Before()


def _excluded() -> None:
    fail(UsageError(tr("--quiet and --verbose exclude each other; choose one")))


def before(quiet: bool, verbose: bool, root: Path | None) -> None:
    """The options before the command: how much the run prints, and the content root."""
    if quiet and verbose:
        _excluded()
    OUTPUT.set(Level.QUIET if quiet else Level.VERBOSE if verbose else Level.NORMAL)
    BEFORE.root = root


def after(quiet: bool, verbose: bool) -> None:
    """``--quiet`` / ``--verbose`` after the command (the clock of --verbose keeps running)."""
    if not (quiet or verbose):
        return
    level = Level.QUIET if quiet else Level.VERBOSE
    if (quiet and verbose) or OUTPUT.level not in (Level.NORMAL, level):
        _excluded()
    OUTPUT.level = level


def _from_command_line(ctx: typer.Context | None, name: str) -> bool:
    source = ctx.get_parameter_source(name) if ctx is not None else None
    return getattr(source, "name", "") == "COMMANDLINE"


def with_globals(command: Callable[..., Any]) -> Callable[..., Any]:
    """``command`` taking the global options after it too (see the module's doc)."""
    signature = inspect.signature(command, eval_str=True)
    takes_root = "root" in signature.parameters
    kw = inspect.Parameter.KEYWORD_ONLY
    extra = [
        inspect.Parameter("quiet", kw, default=False, annotation=QuietOpt),
        inspect.Parameter("verbose", kw, default=False, annotation=VerboseOpt),
        inspect.Parameter("pnp_context", kw, default=None, annotation=typer.Context),
    ]

    @functools.wraps(command)
    def run(
        *args: Any,
        quiet: bool = False,
        verbose: bool = False,
        pnp_context: typer.Context | None = None,
        **kwargs: Any,
    ) -> Any:
        after(quiet, verbose)
        if takes_root and BEFORE.root is not None and not _from_command_line(pnp_context, "root"):
            kwargs["root"] = BEFORE.root
        return command(*args, **kwargs)

    run.__signature__ = signature.replace(  # type: ignore[attr-defined]
        parameters=[*signature.parameters.values(), *extra]
    )
    run.__annotations__ = {**command.__annotations__, **{p.name: p.annotation for p in extra}}
    return run


def everywhere(commands: Iterable[Any]) -> None:
    """Give every registered command (typer's CommandInfo) the global options after it."""
    for info in commands:
        if info.callback is not None and not hasattr(info.callback, "__wrapped__"):
            info.callback = with_globals(info.callback)
