"""Translator comfort: a merge conflict in a catalog is called one; pnp's counts use plural
forms."""

from __future__ import annotations

import json
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


PL = "locales/pl/LC_MESSAGES/mini.po"


def term_findings(root: Path) -> list[str]:
    result = runner.invoke(app, ["validate", "mini", "--root", str(root)])
    return [ln for ln in result.stdout.splitlines() if "[inconsistent-term]" in ln]


def test_a_glossary_settles_a_term(tmp_path: Path) -> None:
    root = make_root(tmp_path, FIXTURES / "inconsistent-term")
    (root / "expected.txt").unlink(missing_ok=True)
    before = term_findings(root)
    assert any(ln.startswith(f"{PL}:89:1: ") and "two ways" in ln for ln in before)
    po = root / PL
    # the translator decides: Alpha is "Pierwsza", everywhere
    text = po.read_text("utf-8").replace("# glossary: Alpha\n", "# glossary: Alpha = Pierwsza\n")
    po.write_text(text, "utf-8")
    after = term_findings(root)
    card_title, card_text = f"{PL}:54:1: ", f"{PL}:59:1: "
    assert [ln.split("warning")[0] for ln in after if "'Alpha'" in ln] == [card_title, card_text]
    (title,) = [ln for ln in after if ln.startswith(card_title)]
    assert "'Alfa' here, but the glossary (line 5) says 'Pierwsza'" in title
    assert not any(ln.startswith(f"{PL}:89:1: ") for ln in after)  # the column agrees now
    assert not any(ln.startswith(f"{PL}:5:1: ") for ln in after)  # the line reads now
    # update keeps the glossary where it is, and it still settles the term
    assert runner.invoke(app, ["i18n", "update", "mini", "--root", str(root)]).exit_code == 0
    assert "# glossary: Alpha = Pierwsza\n# glossary: Coin = Moneta" not in po.read_text()
    assert "# glossary: Coin = Moneta\n# glossary: Alpha = Pierwsza\nmsgid" in po.read_text()
    assert any("glossary (line 5) says 'Pierwsza'" in ln for ln in term_findings(root))


def test_inflected_terms_pass_and_names_keep_their_case(tmp_path: Path) -> None:
    from pnp.validate.terms import _holds

    assert _holds("Weź monetę, potem pokaż swoją Betę.", "Moneta")
    assert _holds("Zdobądź 2 monety. Odrzuć Alfę.", "Alfa")
    assert _holds("Il Robot di Nascita", "robot")
    assert not _holds("Weź żeton.", "Moneta")
    root = make_root(tmp_path, FIXTURES / "inconsistent-term")
    po = root / PL
    # "Coin" is in the glossary: found as "coin" too; "Beta" is a name: "beta" is not it
    text = po.read_text("utf-8").replace(
        'msgid "Take a Coin, then show your Beta."\nmsgstr "Weź monetę',
        'msgid "Take a coin, then show your beta."\nmsgstr "Weź żeton',
    )
    po.write_text(text, "utf-8")
    (line,) = [ln for ln in term_findings(root) if ln.startswith(f"{PL}:69:1: ")]
    assert "'Coin' (the glossary 'Moneta' at line 4)" in line and "'Beta'" not in line


def test_status_puts_a_catalog_error_first_and_never_counts_it_done(tmp_path: Path) -> None:
    root = make_root(tmp_path, FIXTURES / "po-syntax")
    result = runner.invoke(app, ["i18n", "status", "mini", "--root", str(root)])
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0].startswith(
        "locales/fr/LC_MESSAGES/mini.po:12:8: error [po-syntax] [fr] this string is not closed"
    )
    assert lines[1].startswith("game ")
    (fr,) = [ln for ln in lines if ln.startswith("mini ") and " fr " in ln]
    assert "%" not in fr and "catalog unreadable" in fr  # no count: nothing of it was read
    assert "pnp i18n update" not in result.stdout  # its texts are not listed one by one
    data = runner.invoke(app, ["i18n", "status", "mini", "--format", "json", "--root", str(root)])
    (row,) = [r for r in json.loads(data.stdout) if r["lang"] == "fr"]
    assert row["percent"] is None and row["translated"] is None and not row["readable"]


def test_status_lists_the_missing_entries(tmp_path: Path) -> None:
    root = make_root(tmp_path, FIXTURES / "inconsistent-term")
    po = root / PL
    text = po.read_text("utf-8").replace(
        'msgid "Take a Coin, then show your Beta."\nmsgstr "Weź monetę, potem pokaż swoją kartę."',
        'msgid "Take a Coin, then show your Beta."\nmsgstr ""',
    )
    po.write_text(text, "utf-8")
    assert runner.invoke(app, ["i18n", "update", "mini", "--root", str(root)]).exit_code == 0
    result = runner.invoke(app, ["i18n", "status", "mini", "--root", str(root)])
    lines = result.stdout.splitlines()
    (row,) = [ln for ln in lines if ln.startswith("mini ") and " pl " in ln]
    missing = int(row.split()[5])
    listed = [ln for ln in lines if "[pl] not translated: " in ln]
    # the card's text first (the file's order), with its context, source text and msgstr line
    line = po.read_text("utf-8").splitlines().index('msgid "Take a Coin, then show your Beta."')
    assert listed[0] == (
        f"{PL}:{line + 2}:1: [pl] not translated: decks/main/cards/beta/text "
        "“Take a Coin, then show your Beta.”"
    )
    assert len(listed) == 12 < missing  # shortened, and says so
    more = f"  ... and {missing - 12} more (missing) in mini pl; `pnp -v i18n status mini`"
    assert any(ln.startswith(more) for ln in lines)
    every = runner.invoke(app, ["-v", "i18n", "status", "mini", "--root", str(root)])
    assert len([ln for ln in every.stdout.splitlines() if "not translated: " in ln]) == missing
