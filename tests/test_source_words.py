"""Every printed word translatable: with every entry of a German catalog filled (each word
marked), a bundled game's German PDF prints no word that came from elsewhere (a layout
template, a tag, a filter), and the old ways of printing one are findings."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.core.rules import Severity
from pnp.validate.untranslatable import template_problems

from helpers import REPO, run_validate
from source_words import mark, measure

GAMES = sorted(p.name for p in (REPO / "cards").iterdir() if p.is_dir())


def test_mark_keeps_markup_and_placeholders() -> None:
    assert mark("Gain **2** {coin} per {n}.") == "ßniaG **2** {coin} ßrep {n}."
    assert mark("{{ game_title }} and [3]{color=#c62828}") == (
        "{{ game_title }} ßdna [3]{color=#c62828}"
    )


@pytest.mark.parametrize("game", GAMES)
def test_a_fully_translated_german_pdf_prints_no_source_word(game: str, tmp_path: Path) -> None:
    entries, left = measure(tmp_path, game, "de")
    assert entries > 100
    assert not left, left.most_common(20)  # not one word from elsewhere


def test_bundled_games_have_no_untranslatable_text() -> None:
    report = run_validate(REPO)
    found = [f.text() for f in report.sorted() if f.rule == "untranslatable-text"]
    assert found == []
    assert all(f.severity is not Severity.ERROR for f in report.findings)


@pytest.mark.parametrize(
    ("source", "found"),
    [
        ("{% if lang == 'es' %}Etapa{% else %}Stage{% endif %}", 3),  # lang, Etapa, Stage
        ("{{ texts.stage }} {coin} {{ values.n }} ×{{ values.k }}", 0),
        ("{{ names[k] }}{% for k in ['america', 'asia'] %}{% endfor %}", 0),  # codes, not words
        ("{{ values.get('duration', '') }}{{ '{' ~ t ~ '}' }}", 0),
        ("{{ 'Europe' if x else 'Europa' }}", 2),
        ("{% set n = {'a': 'Africa'} %}{{ n.a }}", 1),
        ("{{ tags }}", 1),
        ("{% if %}", 0),  # a template error is rule template's
    ],
)
def test_template_problems(source: str, found: int) -> None:
    assert len(template_problems(source)) == found
