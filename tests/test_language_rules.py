"""Language rules: a Plural-Forms that msgfmt accepts but that is not the language's is a
warning naming the formula to write; a regional code falls back to its language (en_GB to en)
before the game's source language."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from pypdf import PdfReader
from typer.testing import CliRunner

from pnp.cli.commands import app
from pnp.i18n.catalog import read_catalog
from pnp.i18n.plural import parse_plural_forms, plural_forms_for
from pnp.i18n.plural_language import plural_mismatch
from pnp.i18n.po import dumps

from helpers import FIXTURES, make_root

runner = CliRunner()

HEADER = """msgid ""
msgstr ""
"Project-Id-Version: mini 1\\n"
"Last-Translator: A <a@example.org>\\n"
"Language-Team: team\\n"
"Language: {lang}\\n"
"MIME-Version: 1.0\\n"
"Content-Type: text/plain; charset=UTF-8\\n"
"Content-Transfer-Encoding: 8bit\\n"
"Plural-Forms: {plural}\\n"

msgctxt "decks/main/cards/alpha/title"
msgid "Alpha"
msgstr "Alpha"
"""
PL_GNU = plural_forms_for("pl")
# babel 2.19's CLDR formula for Polish: spelt differently from GNU's, the same forms
PL_CLDR = (
    "nplurals=3; plural=n == 1 ? 0 : n % 10 >= 2 && n % 10 <= 4 && (n % 100 < 12 || "
    "n % 100 > 14) ? 1 : 2;"
)


def run(*args: str):
    return runner.invoke(app, list(args), catch_exceptions=False)


def warnings_of(root: Path, lang: str, plural: str) -> list[str]:
    po = root / "locales" / lang / "LC_MESSAGES" / "mini.po"
    po.parent.mkdir(parents=True, exist_ok=True)
    po.write_text(HEADER.format(lang=lang, plural=plural), "utf-8")
    if shutil.which("msgfmt"):  # GNU accepts every one of these: only pnp tells
        subprocess.run(["msgfmt", "-c", "-o", "/dev/null", str(po)], check=True)
    result = run("validate", "mini", "--root", str(root))
    return [ln for ln in result.stdout.splitlines() if "[plural-forms]" in ln]


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return make_root(tmp_path, FIXTURES / "clean")


def test_polish_with_two_forms_is_a_warning_naming_the_formula(root: Path) -> None:
    found = warnings_of(root, "pl", "nplurals=2; plural=(n != 1);")
    assert len(found) == 1, found
    line = found[0]
    assert line.startswith("locales/pl/LC_MESSAGES/mini.po:10:1: warning [plural-forms] [pl]")
    assert "nplurals=2" in line and "Polish (pl) has 3 plural forms" in line
    assert f'"Plural-Forms: {PL_GNU}\\n"' in line


def test_same_count_wrong_numbers_names_the_first_number(root: Path) -> None:
    found = warnings_of(root, "pl", "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=3 ? 1 : 2);")
    assert len(found) == 1 and "gives n = 4 form 2, and Polish (pl) gives it form 1" in found[0]


@pytest.mark.parametrize(
    ("lang", "plural"),
    [
        ("pl", PL_GNU),
        ("pl", PL_CLDR),  # CLDR's rule, however it is spelt
        ("pl_PL", PL_GNU),  # a region: its language's rule
        ("fr", "nplurals=2; plural=(n > 1);"),
        ("fr", "nplurals=3; plural=(n == 0 || n == 1) ? 0 : n != 0 && n % 1000000 == 0 ? 1 : 2;"),
        ("ar", plural_forms_for("ar")),
        ("ja", "nplurals=1; plural=0;"),
        ("tlh", "nplurals=2; plural=(n != 1);"),  # no table knows it: not checked
    ],
)
def test_the_language_s_own_rule_passes(root: Path, lang: str, plural: str) -> None:
    assert warnings_of(root, lang, plural) == []


@pytest.mark.parametrize(
    ("lang", "plural", "expected"),
    [
        ("pl_PL", "nplurals=2; plural=(n != 1);", "nplurals=2"),
        ("fr", "nplurals=2; plural=(n != 1);", "gives n = 0 form 1"),
        ("ja", "nplurals=2; plural=(n != 1);", "Japanese (ja) has 1 plural forms"),
        ("de", "nplurals=2; plural=(n > 1);", "gives n = 0 form 0"),
    ],
)
def test_plural_mismatch(lang: str, plural: str, expected: str) -> None:
    message = plural_mismatch(lang, parse_plural_forms(plural))
    assert message is not None and expected in message


def fill(root: Path, lang: str, texts: dict[str, str]) -> None:
    assert run("i18n", "init", "mini", lang, "--root", str(root)).exit_code == 0
    path = root / "locales" / lang / "LC_MESSAGES" / "mini.po"
    cat = read_catalog(path, path.name)
    for e in cat.entries:
        if e.msgctxt in texts:
            e.msgstr = [texts[e.msgctxt]]
    path.write_text(dumps(cat), "utf-8")


def pdf_text(root: Path, lang: str) -> str:
    pdf = root / "output" / "mini" / f"mini-{lang}-a4.pdf"
    return "".join(page.extract_text() for page in PdfReader(pdf).pages)


def test_a_region_takes_its_language_s_inline_text_before_the_source(root: Path) -> None:
    # mini's source is English; its Italian is inline in the YAML
    result = run("build", "mini", "--lang", "it_CH", "--root", str(root))
    assert result.exit_code == 0, result.stderr
    text = pdf_text(root, "it_CH")
    assert "Preparazione" in text and "Setup" not in text
    assert "[fallback]" not in result.stdout + result.stderr


def test_a_region_takes_its_language_s_catalog_then_its_own(root: Path) -> None:
    fill(root, "fr", {"decks/main/cards/alpha/text": "Gagnez 2 {coin}."})
    result = run("build", "mini", "--lang", "fr_CA", "--root", str(root))  # no fr_CA catalog
    assert result.exit_code == 0, result.stderr
    assert "Gagnez 2" in pdf_text(root, "fr_CA")
    fill(root, "fr_CA", {"decks/main/cards/beta/title": "Bêta du Québec"})
    result = run("build", "mini", "--lang", "fr_CA", "--root", str(root))
    assert result.exit_code == 0, result.stderr
    text = pdf_text(root, "fr_CA")
    assert "Bêta du Québec" in text and "Gagnez 2" in text  # its own, then fr's
    out = result.stdout + result.stderr
    assert "alpha/text" not in out  # printed in fr: not a fallback
