"""Translator comfort: a merge conflict in a catalog is called one; pnp's counts use plural
forms."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from typer.testing import CliRunner

from pnp.cli.commands import app
from pnp.i18n.words import ngettext

from helpers import FIXTURES, make_root

runner = CliRunner()
PO = "locales/it/LC_MESSAGES/mini.po"


def conflicted(tmp_path: Path) -> Path:
    root = make_root(tmp_path, FIXTURES / "po-warning")
    (root / "expected.txt").unlink(missing_ok=True)
    po = root / PO
    text = po.read_text("utf-8").replace(
        'msgstr "Alfa"\n', '<<<<<<< HEAD\nmsgstr "Alfa"\n=======\nmsgstr "Alpha"\n>>>>>>> fr\n'
    )
    po.write_text(text, "utf-8")
    return root


def test_a_git_merge_conflict_is_called_one(tmp_path: Path) -> None:
    root = conflicted(tmp_path)
    if shutil.which("msgfmt"):  # GNU refuses the file too, with three syntax errors
        gnu = subprocess.run(["msgfmt", "-c", "-o", "/dev/null", str(root / PO)], check=False)
        assert gnu.returncode != 0
    result = runner.invoke(app, ["validate", "mini", "--root", str(root)])
    assert result.exit_code == 1
    errors = [ln for ln in result.stdout.splitlines() if " error " in ln]
    assert errors == [
        f"{PO}:18:1: error [po-syntax] a git merge conflict (lines 18-22): git kept both sides "
        "of an edit between its <<<<<<<, ======= and >>>>>>> lines; keep the translation you "
        "want, delete the three marker lines, then run `msgcat` or `pnp i18n update` to check "
        "the file"
    ]
    before = (root / PO).read_bytes()
    update = runner.invoke(app, ["i18n", "update", "mini", "--root", str(root)])
    assert update.exit_code == 1 and "merge conflict" in update.output
    assert (root / PO).read_bytes() == before


def test_counts_take_plural_forms(tmp_path: Path) -> None:
    root = conflicted(tmp_path)
    result = runner.invoke(app, ["validate", "mini", "--root", str(root)])
    assert "mini: 1 error, 0 warnings" in result.output
    assert ngettext("{n} error", "{n} errors", 1, "it").format(n=1) == "1 errore"
    assert ngettext("{n} error", "{n} errors", 3, "it").format(n=3) == "3 errori"
    assert ngettext("{n} warning", "{n} warnings", 1, "fr").format(n=1) == "1 avertissement"
