"""The `pnp` command: parses arguments, calls the library, prints results, sets the exit code.

Exit codes: 0 success, 1 content errors or build failure, 2 usage errors. No command prints a
Python traceback for bad input; set PNP_DEBUG=1 to see one for a bug in pnp itself.

The commands live beside this module, one group per module (check, build, designer, i18n,
calibrate);
importing them adds them to the app, in the order of ``pnp --help``.
"""

from __future__ import annotations

import os
import sys
from typing import Annotated

import typer

from .. import __version__
from ..core.errors import Interrupted, PnpError
from ..core.run import running
from ..i18n.words import tr
from .common import app, err

# isort: off
# the commands join the app as their modules are imported, in the order of `pnp --help`
from . import check, audit, build, designer, i18n, calibrate  # noqa: F401

# isort: on


@app.callback(invoke_without_command=True)
def _main(
    ctx: typer.Context,
    version: Annotated[
        bool, typer.Option("--version", help="Print the version and exit.", is_eager=True)
    ] = False,
) -> None:
    if version:
        typer.echo(f"pnp {__version__}")
        raise typer.Exit(0)
    if ctx.invoked_subcommand is None:
        typer.echo(ctx.get_help())
        raise typer.Exit(0)


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
    try:
        with running(fresh=True):  # one command, one run: nothing cached outlives it
            app(prog_name="pnp")
    except PnpError as exc:
        err(f"pnp: {exc}")
        sys.exit(exc.exit_code)
    except KeyboardInterrupt:
        err("pnp: " + tr("interrupted; nothing was written"))
        sys.exit(130)
    except Exception as exc:  # a bug in pnp: say so, briefly
        if os.environ.get("PNP_DEBUG"):
            raise
        err(
            f"pnp: internal error ({type(exc).__name__}: {exc}); this is a bug in pnp, please "
            "report it (set PNP_DEBUG=1 to see the traceback)"
        )
        sys.exit(1)


__all__ = ["app", "invoke", "main"]
