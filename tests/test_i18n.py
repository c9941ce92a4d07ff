"""Translations for contributors: the PO round trip, builds in a new language, pnp's own words."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from pypdf import PdfReader
from typer.testing import CliRunner

from pnp.i18n.catalog import read_catalog
from pnp.cli import app
from pnp.i18n.words import LOCALE_DIR, extract_template, gettext

from helpers import FIXTURES, REPO, make_root

runner = CliRunner()
MSGFMT = shutil.which("msgfmt")


def run(*args: str):
    return runner.invoke(app, list(args), catch_exceptions=False)


def po(root: Path, game: str, lang: str):
    path = root / "locales" / lang / "LC_MESSAGES" / f"{game}.po"
    return read_catalog(path, path.name, lang)


def entry(catalog, ctx: str):
    return next(m for m in catalog if m.context == ctx)


def msgfmt_ok(path: Path) -> None:
    if MSGFMT is None:
        pytest.skip("GNU gettext (msgfmt) is not installed")
    proc = subprocess.run(
        [MSGFMT, "-c", "-o", "/dev/null", str(path)], capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr


def test_round_trip_never_loses_a_translation(tmp_path: Path) -> None:
    root = make_root(tmp_path, FIXTURES / "clean")
    assert run("i18n", "extract", "mini", "--root", str(root)).exit_code == 0
    pot = root / "locales" / "mini.pot"
    assert pot.is_file()
    before = pot.read_bytes()
    assert "unchanged" in run("i18n", "extract", "mini", "--root", str(root)).stdout
    assert pot.read_bytes() == before  # only the date would change: not rewritten
    assert run("i18n", "init", "mini", "fr", "--root", str(root)).exit_code == 0
    path = root / "locales/fr/LC_MESSAGES/mini.po"
    msgfmt_ok(path)
    cat = po(root, "mini", "fr")
    assert cat.plural_forms == "nplurals=2; plural=(n > 1);"
    alpha = entry(cat, "decks/main/cards/alpha/title")
    assert alpha.id == "Alpha" and alpha.locations == [("cards/mini/decks.yaml", 8)]
    # a translator edits the file by hand, with a comment
    text = path.read_text("utf-8")
    text = text.replace(
        'msgctxt "decks/main/cards/alpha/title"\nmsgid "Alpha"\nmsgstr ""',
        '# Alice: "Alpha" reste tel quel en français\n'
        'msgctxt "decks/main/cards/alpha/title"\nmsgid "Alpha"\nmsgstr "Alpha (fr)"',
    )
    text = text.replace(
        'msgctxt "decks/main/cards/beta/text"\nmsgid "Pay **1** {coin}."\nmsgstr ""',
        'msgctxt "decks/main/cards/beta/text"\nmsgid "Pay **1** {coin}."\n'
        'msgstr "Payez **1** {coin}."',
    )
    path.write_text(text, "utf-8")
    # the source changes: a text is reworded, a card is deleted
    decks = root / "cards/mini/decks.yaml"
    src = decks.read_text("utf-8").replace(
        "title: {en: Alpha, it: Alfa}", "title: {en: Alpha One, it: Alfa}", 1
    )
    start = src.index("      - id: beta")
    end = src.index("tokens:")
    decks.write_text(src[:start] + src[end:], "utf-8")
    game = root / "cards/mini/game.yaml"
    game.write_text(game.read_text("utf-8").replace("deck: main, count: 6", "deck: main, count: 4"))
    tables = decks.read_text("utf-8")
    assert "beta" not in tables.split("tables:")[0]
    result = run("i18n", "update", "mini", "--root", str(root))
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "1 changed (fuzzy)" in result.stdout and "obsolete" in result.stdout
    msgfmt_ok(path)
    cat = po(root, "mini", "fr")
    alpha = entry(cat, "decks/main/cards/alpha/title")
    assert alpha.id == "Alpha One" and alpha.string == "Alpha (fr)" and alpha.fuzzy
    assert alpha.previous_id == ["Alpha"]
    assert '#| msgid "Alpha"' in path.read_text("utf-8")
    # a second update keeps the previous source and the fuzzy flag
    run("i18n", "update", "mini", "--root", str(root))
    again = entry(po(root, "mini", "fr"), "decks/main/cards/alpha/title")
    assert again.previous_id == ["Alpha"] and again.fuzzy and again.string == "Alpha (fr)"
    assert any("Alice" in c for c in alpha.user_comments)
    obsolete = [m for m in cat.obsolete.values() if m.context == "decks/main/cards/beta/text"]
    assert obsolete and obsolete[0].string == "Payez **1** {coin}."
    # status counts: 1 fuzzy, nothing translated and current, the rest missing
    status = run("i18n", "status", "mini", "--format", "json", "--root", str(root))
    rows = {r["lang"]: r for r in json.loads(status.stdout)}
    fr = rows["fr"]
    assert fr["fuzzy"] == 1 and fr["translated"] == 0
    assert fr["total"] == fr["translated"] + fr["fuzzy"] + fr["missing"]
    assert rows["en"]["source"] and rows["en"]["percent"] == 100.0


def test_update_refuses_a_broken_catalog(tmp_path: Path) -> None:
    root = make_root(tmp_path, FIXTURES / "clean")
    run("i18n", "init", "mini", "de", "--root", str(root))
    path = root / "locales/de/LC_MESSAGES/mini.po"
    broken = path.read_text("utf-8")[:-40]  # a half-saved file
    path.write_text(broken, "utf-8")
    result = run("i18n", "update", "mini", "--root", str(root))
    assert result.exit_code == 1
    assert "mini.po:" in result.stderr and "nothing was changed" in result.stderr
    assert path.read_text("utf-8") == broken
    check = run("validate", "mini", "--root", str(root))
    assert check.exit_code == 1 and "[po-syntax]" in check.stdout


def test_init_checks_the_language(tmp_path: Path) -> None:
    root = make_root(tmp_path, FIXTURES / "clean")
    result = run("i18n", "init", "mini", "klingon", "--root", str(root))
    assert result.exit_code == 2 and "not a locale code" in result.stderr
    run("i18n", "init", "mini", "pt_BR", "--root", str(root))
    assert po(root, "mini", "pt_BR").locale.territory == "BR"
    again = run("i18n", "init", "mini", "pt_BR", "--root", str(root))
    assert again.exit_code == 2 and "update" in again.stderr


def test_french_fabg_from_a_new_catalog(tmp_path: Path) -> None:
    root = tmp_path / "root"
    shutil.copytree(REPO / "cards", root / "cards", ignore=shutil.ignore_patterns("*.pdf"))
    shutil.copytree(REPO / "fonts", root / "fonts")
    assert run("i18n", "init", "fabg", "fr", "--root", str(root)).exit_code == 0
    path = root / "locales/fr/LC_MESSAGES/fabg.po"
    text = path.read_text("utf-8")
    text = text.replace(
        'msgctxt "decks/events/cards/birth/title"\nmsgid "Nascita"\nmsgstr ""',
        'msgctxt "decks/events/cards/birth/title"\nmsgid "Nascita"\nmsgstr "Naissance"',
    ).replace(
        'msgctxt "decks/roles/cards/boss/text"\nmsgid',
        'msgctxt "decks/roles/cards/boss/text"\nmsgid',
    )
    path.write_text(text, "utf-8")
    result = run("build", "fabg", "--lang", "fr", "--root", str(root))
    assert result.exit_code == 0, result.stderr
    assert "[fallback] [fr]" in result.stderr
    pdf = root / "output/fabg/fabg-fr-a4.pdf"
    words = " ".join(p.extract_text() or "" for p in PdfReader(pdf).pages)
    assert "Naissance" in words and "Nascita" not in words.replace("Nascita di", "")
    # the proof shows both languages side by side
    proof = run("build", "fabg", "--lang", "fr", "--proof", "--root", str(root))
    assert proof.exit_code == 0, proof.stderr
    text = " ".join(
        p.extract_text() or "" for p in PdfReader(root / "output/fabg/fabg-fr-proof.pdf").pages
    )
    assert "Naissance" in text and "Nascita" in text


def test_overflow_in_a_translation_points_at_the_po_line(tmp_path: Path) -> None:
    root = make_root(tmp_path, FIXTURES / "clean")
    run("i18n", "init", "mini", "de", "--root", str(root))
    path = root / "locales/de/LC_MESSAGES/mini.po"
    long = "Sehr " * 400
    text = path.read_text("utf-8").replace(
        'msgctxt "decks/main/cards/alpha/text"\nmsgid "Gain 2 {coin}."\nmsgstr ""',
        f'msgctxt "decks/main/cards/alpha/text"\nmsgid "Gain 2 {{coin}}."\nmsgstr "{long}{{coin}}"',
    )
    path.write_text(text, "utf-8")
    result = run("validate", "mini", "--format", "json", "--root", str(root))
    findings = json.loads(result.stdout)
    over = [f for f in findings if f["rule"] == "text-overflow"]
    assert over and over[0]["path"] == "locales/de/LC_MESSAGES/mini.po" and over[0]["line"] > 1
    status = json.loads(
        run("i18n", "status", "mini", "--format", "json", "--root", str(root)).stdout
    )
    assert next(r for r in status if r["lang"] == "de")["overflow"] >= 1


def test_pnp_words_are_translated() -> None:
    template = extract_template()
    ids = [m.id for m in template if m.id]
    assert len(ids) > 40
    for lang in ("it", "es"):
        with (LOCALE_DIR / lang / "LC_MESSAGES" / "pnp.po").open("rb") as fh:
            cat = read_po(fh, locale=lang)
        done = {m.id for m in cat if m.id and m.string and not m.fuzzy}
        missing = [i for i in ids if i not in done]
        assert not missing, f"{lang}: untranslated {missing[:5]}"
        msgfmt_ok(LOCALE_DIR / lang / "LC_MESSAGES" / "pnp.po")
    assert gettext("fronts", "it") == "fronti" and gettext("fronts", "es") == "frentes"
    assert gettext("fronts", "en") == "fronts"


def test_terminal_follows_the_locale(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = make_root(tmp_path, FIXTURES / "clean")
    monkeypatch.setenv("LANG", "es_ES.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    result = run("validate", "mini", "--root", str(root))
    assert "0 error(es), 0 aviso(s)" in result.stderr
