"""`pnp i18n status` counts a catalog as `msgfmt --statistics` does: translated, fuzzy and
untranslated entries, for catalogs with fuzzy entries (with and without a translation),
plural entries with a later form empty or the first form empty, obsolete entries, and for a
catalog whose target is English, the language pnp's own words are written in."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import polib
import pytest
from typer.testing import CliRunner

from pnp.cli.commands import app

from gettext_tools import need_gettext
from helpers import FIXTURES, REPO, make_root

runner = CliRunner()
PAY = '        text: {en: "Pay **1** {coin}.", it: "Paga **1** {coin}."}\n'
# a plural text printing no number: its msgstr[1] may be left empty
PLURAL = "        subtitle: {count: copies, en: {one: Card, other: Cards}}\n"
COUNT = re.compile(r"(\d+) (translated|fuzzy|untranslated)")


def msgfmt_counts(path: Path) -> dict[str, int]:
    msgfmt = shutil.which("msgfmt")
    assert msgfmt is not None
    proc = subprocess.run(
        [msgfmt, "--statistics", "-o", "/dev/null", str(path)],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    counts = {"translated": 0, "fuzzy": 0, "untranslated": 0}
    for n, kind in COUNT.findall(proc.stderr):
        counts[kind] = int(n)
    return counts


def pnp_counts(root: Path, game: str) -> dict[str, dict[str, int]]:
    result = runner.invoke(app, ["i18n", "status", game, "--format", "json", "--root", str(root)])
    rows = json.loads(result.stdout)
    return {
        row["lang"]: {
            "translated": row["translated"],
            "fuzzy": row["fuzzy"],
            "untranslated": row["missing"],
        }
        for row in rows
        if row["catalog"]
    }


def touch(po: polib.POFile, every: int, change: str) -> None:
    """Change every ``every``-th entry of ``po`` as ``change`` says."""
    for i, entry in enumerate(po):
        if i % every:
            continue
        if change == "fill" and not entry.translated():
            if entry.msgid_plural:
                forms = len(entry.msgstr_plural)
                entry.msgstr_plural = {i: entry.msgid_plural for i in range(forms)}
            else:
                entry.msgstr = entry.msgid
        elif change == "empty":
            if entry.msgid_plural:
                entry.msgstr_plural = dict.fromkeys(entry.msgstr_plural, "")
            else:
                entry.msgstr = ""
        elif change == "fuzzy" and "fuzzy" not in entry.flags:
            entry.flags.append("fuzzy")


def plural_forms(po: polib.POFile, variant: str) -> None:
    """The plural entries: the second form empty, the first empty, or fuzzy with the first
    form only."""
    plurals = [e for e in po if e.msgid_plural]
    assert plurals
    for entry in plurals:
        forms = {i: entry.msgid_plural for i in range(len(entry.msgstr_plural))}
        if variant == "second-empty" and "{" not in entry.msgid_plural:
            forms[1] = ""  # msgfmt -c accepts it: no placeholder to keep
        elif variant == "first-empty":
            forms[0] = ""
        else:
            forms = {i: "" if i else entry.msgid for i in forms}
            entry.flags.append("fuzzy")
        entry.msgstr_plural = forms


@pytest.mark.parametrize(
    ("game", "lang", "variant"),
    [
        ("mini", "fr", "second-empty"),
        ("fabg", "en", "first-empty"),
        ("fabg", "fr", "first-empty"),
        ("which-side", "en", "fuzzy-first"),
        ("status", "pl", "second-empty"),
        ("austerity", "de", "fuzzy-first"),
    ],
)
def test_status_counts_as_msgfmt_does(game: str, lang: str, variant: str, tmp_path: Path) -> None:
    need_gettext()
    if game == "mini":
        root = make_root(tmp_path, FIXTURES / "clean")
        decks = root / "cards/mini/decks.yaml"
        decks.write_text(decks.read_text("utf-8").replace(PAY, PAY + PLURAL), "utf-8")
    else:
        root = make_root(tmp_path)
        shutil.copytree(REPO / "cards" / game, root / "cards" / game)
    assert runner.invoke(app, ["i18n", "init", game, lang, "--root", str(root)]).exit_code == 0
    path = root / "locales" / lang / "LC_MESSAGES" / f"{game}.po"
    assert msgfmt_counts(path) == pnp_counts(root, game)[lang]  # as init writes it
    po = polib.pofile(str(path), wrapwidth=79)
    touch(po, 3, "fill")
    touch(po, 7, "empty")
    touch(po, 5, "fuzzy")  # some with a translation, some without
    plural_forms(po, variant)
    po.append(polib.POEntry(msgctxt="gone/title", msgid="Gone", msgstr="Weg", obsolete=True))
    po.append(polib.POEntry(msgctxt="gone/text", msgid="Gone too", msgstr="", obsolete=True))
    po.save()
    assert runner.invoke(app, ["i18n", "update", game, "--root", str(root)]).exit_code == 0
    after = polib.pofile(str(path))
    assert after.obsolete_entries()  # the translated one (the empty one is dropped, as GNU does)
    plurals = [e for e in after if e.msgid_plural]
    shape = {
        "second-empty": lambda e: e.msgstr_plural[0] and not e.msgstr_plural[1],
        "first-empty": lambda e: not e.msgstr_plural[0] and e.msgstr_plural[1],
        "fuzzy-first": lambda e: e.fuzzy and e.msgstr_plural[0] and not e.msgstr_plural[1],
    }[variant]
    assert any(shape(e) for e in plurals)  # the case tested is in the catalog
    counts = msgfmt_counts(path)
    assert counts["fuzzy"] > 0 and counts["untranslated"] > 0 and counts["translated"] > 0
    assert pnp_counts(root, game)[lang] == counts
