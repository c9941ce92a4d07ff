"""The `pnp` command: parses arguments, calls the library, prints results, sets the exit code.

Exit codes: 0 success, 1 content errors or build failure, 2 usage errors. No command prints a
Python traceback for bad input; set PNP_DEBUG=1 to see one for a bug in pnp itself.

The commands live beside this module, one group per module (check, audit, build, new,
release, designer, i18n, calibrate, docs); importing them adds them to the app, in the order of
``pnp --help``. The options before the command (``--quiet``, ``--verbose``, ``--root``,
``--version``, shell completion) are here; every command also takes ``--quiet`` and
``--verbose`` after it (:mod:`.options`).
"""

from __future__ import annotations

import itertools
import os
import sys
from typing import Annotated

import typer

from .. import __version__
from ..compat.typer import registered_commands, take_shell_from_arguments
from ..core.errors import Interrupted, PnpError, os_problem
from ..core.run import running
from ..i18n.words import tr
from .common import OUTPUT, app, err
from .options import QuietOpt, RootBeforeOpt, VerboseOpt, before, everywhere

# isort: off
# the commands join the app as their modules are imported, in the order of `pnp --help`
from . import check, audit, build, release, new, designer, i18n, calibrate, docs  # noqa: F401

# isort: on


@app.callback(invoke_without_command=True)
def _main(
    ctx: typer.Context,
    quiet: QuietOpt = False,
    verbose: VerboseOpt = False,
    root: RootBeforeOpt = None,
    version: Annotated[
        bool, typer.Option("--version", help="Print the version and exit.", is_eager=True)
    ] = False,
) -> None:
    """The options before the command (the app's help is in common.py); after the command,
    options.everywhere gives every command the same."""
    if version:
        typer.echo(f"pnp {__version__}")
        raise typer.Exit(0)
    before(quiet, verbose, root)
    if ctx.invoked_subcommand is None:
        typer.echo(ctx.get_help())
        raise typer.Exit(0)
    command = ctx.invoked_subcommand

    def timing() -> None:  # --verbose before or after the command
        if OUTPUT.verbose:
            err(tr("pnp {command}: {seconds} s").format(command=command, seconds=OUTPUT.elapsed()))

    ctx.call_on_close(timing)


# every command takes the global options after it too: `pnp build -q`
everywhere(registered_commands(app))


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
