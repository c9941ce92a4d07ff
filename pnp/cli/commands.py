"""The `pnp` command: parses arguments, calls the library, prints results, sets the exit code.

Exit codes: 0 success, 1 content errors or build failure, 2 usage errors. No command prints a
Python traceback for bad input; set PNP_DEBUG=1 to see one for a bug in pnp itself.

The commands live beside this module, one group per module (check, audit, build, new,
designer, i18n, calibrate); importing them adds them to the app, in the order of
``pnp --help``. The options before the command (``--quiet``, ``--verbose``, ``--version``, shell
completion) are here.
"""

from __future__ import annotations

import itertools
import os
import sys
from typing import Annotated

import typer

from .. import __version__
from ..compat.typer import take_shell_from_arguments
from ..core.errors import Interrupted, PnpError, UsageError, os_problem
from ..core.run import running
from ..i18n.words import tr
from .common import OUTPUT, Level, app, err, fail

# isort: off
# the commands join the app as their modules are imported, in the order of `pnp --help`
from . import check, audit, setup, build, release, new, designer, i18n, calibrate  # noqa: F401

# isort: on

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


@app.callback(invoke_without_command=True)
def _main(
    ctx: typer.Context,
    quiet: QuietOpt = False,
    verbose: VerboseOpt = False,
    version: Annotated[
        bool, typer.Option("--version", help="Print the version and exit.", is_eager=True)
    ] = False,
) -> None:
    """The options before the command (the app's help is in common.py)."""
    if version:
        typer.echo(f"pnp {__version__}")
        raise typer.Exit(0)
    if quiet and verbose:
        fail(UsageError(tr("--quiet and --verbose exclude each other; choose one")))
    OUTPUT.set(Level.QUIET if quiet else Level.VERBOSE if verbose else Level.NORMAL)
    if ctx.invoked_subcommand is None:
        typer.echo(ctx.get_help())
        raise typer.Exit(0)
    if verbose:
        command = ctx.invoked_subcommand

        def timing() -> None:
            err(tr("pnp {command}: {seconds} s").format(command=command, seconds=OUTPUT.elapsed()))

        ctx.call_on_close(timing)


def _interrupt(_signum: int, _frame: object) -> None:
    # typer turns KeyboardInterrupt into a silent exit; a PnpError reaches our handlers
    raise Interrupted(tr("interrupted; nothing was written"))


def main() -> None:
    """The `pnp` command: :func:`invoke`, then leave without tearing down the heap.

    After a large build, freeing every cached paragraph one object at a time takes a
    noticeable part of a second; the operating system takes the memory back at once. Output
    is flushed first, and nothing pnp writes depends on exit handlers (files are renamed into
    place before this point).
    """
    code = 0
    try:
        invoke()
    except SystemExit as exc:
        if isinstance(exc.code, str):
            err(exc.code)
            code = 1
        else:
            code = exc.code or 0
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):  # a closed pipe (``pnp list | head``): nothing more to say
        pass
    os._exit(code)


def invoke() -> None:
    """Run the command line in this process (tests call this; it raises SystemExit).

    No traceback reaches the user for anything but a bug in pnp.
    """
    import signal

    signal.signal(signal.SIGINT, _interrupt)
    _completion_shell(sys.argv[1:])
    try:
        with running(fresh=True):  # one command, one run: nothing cached outlives it
            app(prog_name="pnp")
    except PnpError as exc:
        err(f"pnp: {exc}")
        sys.exit(exc.exit_code)
    except KeyboardInterrupt:
        err("pnp: " + tr("interrupted; nothing was written"))
        sys.exit(130)
    except OSError as exc:  # the machine's state (a full disk, a read-only folder), not a bug
        if os.environ.get("PNP_DEBUG"):
            raise
        err(f"pnp: {os_problem(exc)}")
        sys.exit(1)
    except Exception as exc:  # a bug in pnp: say so, briefly
        if os.environ.get("PNP_DEBUG"):
            raise
        err(
            f"pnp: internal error ({type(exc).__name__}: {exc}); this is a bug in pnp, please "
            "report it (set PNP_DEBUG=1 to see the traceback)"
        )
        sys.exit(1)


SHELLS = ("bash", "zsh", "fish", "powershell", "pwsh")


def _completion_shell(args: list[str]) -> None:
    """`pnp --show-completion zsh`, `pnp --install-completion bash`: a shell named.

    Typer's completion options find the shell by themselves, and take its name instead only
    when that detection is off (a switch of typer's own tests, :mod:`pnp.compat.typer`): off,
    then, when a name follows.
    """
    for option, value in itertools.pairwise(args):
        if option in ("--show-completion", "--install-completion") and value in SHELLS:
            take_shell_from_arguments()


__all__ = ["app", "invoke", "main"]
