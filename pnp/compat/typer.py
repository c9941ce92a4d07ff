"""typer's internals, as pnp uses them. Written for typer 0.12 to 0.28 (capped <0.29).

- ``_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION``, the environment switch typer's own tests
  use: its completion options (``--show-completion``, ``--install-completion``) find the shell
  by themselves and take the shell's name from the command line only when that detection is
  off (:func:`take_shell_from_arguments`).
- ``Typer.registered_commands`` and ``registered_groups``, the commands an app holds before
  it first runs (:func:`registered_commands`): pnp gives each the global options after it.
"""

from __future__ import annotations

import os
from typing import Any

WRITTEN_FOR = ("0.12", "0.28")
SHELL_DETECTION_SWITCH = "_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION"


def take_shell_from_arguments() -> None:
    """Make typer's completion options use the shell named after them (for this process and
    the ones it starts)."""
    os.environ[SHELL_DETECTION_SWITCH] = "1"


def registered_commands(app: Any) -> list[Any]:
    """Every command of ``app`` and of the apps added to it (typer's ``CommandInfo``, whose
    ``callback`` may be replaced until the app first runs)."""
    found = list(app.registered_commands)
    for group in app.registered_groups:
        if group.typer_instance is not None:
            found.extend(registered_commands(group.typer_instance))
    return found
