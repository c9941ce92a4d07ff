"""The shape of the code: the pipeline's import contracts.

- import-linter's contracts (pyproject.toml): each layer of the pipeline imports only the layers
  below it (core < content < i18n < typeset < validate < printing < build < designer < cli),
  and no package has an import cycle between its modules.
"""

from __future__ import annotations

import subprocess
import sys

from helpers import REPO


def test_import_contracts_are_kept() -> None:
    run = "import sys, importlinter.cli as c; sys.exit(c.lint_imports_command())"
    proc = subprocess.run(
        [sys.executable, "-c", run, "--no-cache"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "0 broken" in proc.stdout
