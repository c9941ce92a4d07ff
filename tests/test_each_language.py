"""Each language on its own: an error of one language (its catalog, a script no font prints)
stops that language's PDFs only; the others are built, the command exits 1 and names the
language and the cause once. A proof is still made, its errors marked; a language without a
font for its script is one finding, not one per text; --min-translated skips languages."""

from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader
from typer.testing import CliRunner

from pnp.cli.commands import app
from pnp.i18n.catalog import read_catalog
from pnp.i18n.po import dumps
from pnp.i18n.words import gettext

from helpers import FIXTURES, make_root

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args), catch_exceptions=False)


def fill(root: Path, lang: str, texts: dict[str, str], game: str = "mini") -> Path:
    """Start a catalog and fill the given entries (by msgctxt)."""
    assert run("i18n", "init", game, lang, "--root", str(root)).exit_code == 0
    path = root / "locales" / lang / "LC_MESSAGES" / f"{game}.po"
    cat = read_catalog(path, path.name)
    for e in cat.entries:
        if e.msgctxt in texts:
            e.msgstr = [texts[e.msgctxt]]
    path.write_text(dumps(cat), "utf-8")
    return path


@pytest.fixture
def broken_fr(tmp_path: Path) -> Path:
    """The mini game with an unfinished French catalog whose one translation says {coins}."""
    root = make_root(tmp_path, FIXTURES / "clean")
    fill(root, "fr", {"decks/main/cards/alpha/text": "Gagnez 2 {coins}."})
    return root


def pdfs(root: Path) -> list[str]:
    out = root / "output" / "mini"
    return sorted(p.name for p in out.glob("*.pdf")) if out.is_dir() else []


def test_a_broken_catalog_does_not_stop_other_languages(broken_fr: Path) -> None:
    root = str(broken_fr)
    result = run("build", "mini", "--lang", "it", "--root", root)
    assert result.exit_code == 0, result.stderr
    assert pdfs(broken_fr) == ["mini-it-a4.pdf"]
    # the French error is not this build's: one line says it exists
    assert "error [po-syntax]" not in result.stderr
    assert result.stderr.count("mini fr: not built here") == 1
    result = run("build", "--root", root)  # every declared language (en, it): fr is not one
    assert result.exit_code == 0, result.stderr
    assert pdfs(broken_fr) == ["mini-en-a4.pdf", "mini-it-a4.pdf"]


def test_the_failing_language_is_named_once_and_others_are_written(broken_fr: Path) -> None:
    root = str(broken_fr)
    result = run("build", "mini", "--lang", "en", "--lang", "fr", "--lang", "it", "--root", root)
    assert result.exit_code == 1
    assert pdfs(broken_fr) == ["mini-en-a4.pdf", "mini-it-a4.pdf"]
    lines = [ln for ln in result.stderr.splitlines() if "mini fr: not built" in ln]
    assert len(lines) == 1, result.stderr
    assert "fabg" not in lines[0] and "mini.po:" in lines[0] and "{coin}" in lines[0]
    assert result.stderr.count("error [po-syntax]") == 1
    assert "wrote" in result.stdout and "nothing was written" not in result.stderr


def test_only_the_failing_language_asked_writes_nothing(broken_fr: Path) -> None:
    result = run("build", "mini", "--lang", "fr", "--root", str(broken_fr))
    assert result.exit_code == 1
    assert "mini fr: not built" in result.stderr and "nothing was written" in result.stderr
    assert pdfs(broken_fr) == []


def test_a_proof_marks_the_catalog_errors(broken_fr: Path) -> None:
    result = run("build", "mini", "--lang", "fr", "--proof", "--root", str(broken_fr))
    assert result.exit_code == 1  # the error is still an error
    assert "proof written with its errors marked" in result.stderr
    proof = broken_fr / "output/mini/mini-fr-proof.pdf"
    text = "".join(page.extract_text() for page in PdfReader(proof).pages)
    # marked in French, the proof's language, as pnp's own catalog words it
    assert gettext("error in the catalog", "fr") in text
    assert gettext("error in the catalog", "fr") != "error in the catalog"
    assert "Gain 2" in text  # the refused entry prints its source text


def test_a_script_without_font_is_one_finding_and_stops_only_its_language(
    tmp_path: Path,
) -> None:
    root = make_root(tmp_path, FIXTURES / "clean")
    japanese = {
        "decks/main/cards/alpha/title": "アルファ",
        "decks/main/cards/alpha/text": "{coin}を2枚得る。",
        "decks/main/cards/beta/title": "ベータ",
        "decks/main/cards/beta/text": "**1** {coin}を払う。",
        "tokens/chips/tokens/chip/title": "チップ",
    }
    fill(root, "ja", japanese)
    result = run("validate", "mini", "--root", str(root))
    ja = [ln for ln in result.stdout.splitlines() if "[ja]" in ln and " error " in ln]
    assert len(ja) == 1 and "[script]" in ja[0], result.stdout
    result = run("build", "mini", "--lang", "it", "--lang", "ja", "--root", str(root))
    assert result.exit_code == 1
    assert pdfs(root) == ["mini-it-a4.pdf"]
    assert result.stderr.count("mini ja: not built") == 1
    assert "missing-glyph" not in result.stderr


def test_min_translated_skips_languages_below_it(tmp_path: Path) -> None:
    root = make_root(tmp_path, FIXTURES / "clean")
    fill(root, "fr", {"decks/main/cards/alpha/title": "Alpha"})
    args = ("build", "mini", "--lang", "fr", "--lang", "it", "--root", str(root))
    result = run(*args, "--min-translated", "80")
    assert result.exit_code == 0, result.stderr
    assert pdfs(root) == ["mini-it-a4.pdf"]
    skipped = [ln for ln in result.stderr.splitlines() if "skipped" in ln]
    assert len(skipped) == 1 and "mini fr" in skipped[0] and "--min-translated 80" in skipped[0]
    result = run(*args, "--min-translated", "0")
    assert result.exit_code == 0 and pdfs(root) == ["mini-fr-a4.pdf", "mini-it-a4.pdf"]
