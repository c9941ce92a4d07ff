"""One number, one place: texts print the game's data by reference, in every language; the
references are checked, kept by translations and told to translators (issue 31, item 1)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.content.load import load_game, open_root
from pnp.content.model import Game
from pnp.content.refs import RefError, fill, lookup, number_text, player_counts
from pnp.core.findings import Report
from pnp.i18n import Translator
from pnp.i18n.catalog.pot import template

from helpers import FIXTURES, REPO, make_root, run_validate


@pytest.fixture(scope="module")
def status() -> Game:
    game = load_game(open_root(REPO), "status", Report())
    assert game is not None
    return game


@pytest.mark.parametrize(
    ("path", "value"),
    [
        ("tracks.military.max", 20),
        ("tracks.military.length", 20),
        ("tracks.status.start", 1),
        ("decks.events.total", 40),
        ("tokens.officials.total", 16),
        ("cards.priority.copies", 1),
        ("players.max", 4),
        ("tables.setup.3.events", 16),
        ("tables.military-start.1.space", 5),
        ("scenarios.standard.start.status", 1),
        ("scenarios.standard.cards.0.draws.4", 20),
        ("boards.main.width", 460),
    ],
)
def test_a_reference_names_a_number_of_the_data(status: Game, path: str, value: int) -> None:
    assert lookup(status, path) == value


@pytest.mark.parametrize(
    ("path", "said"),
    [
        ("tracks.militar.max", "names no track 'militar'; did you mean 'military'?"),
        ("tables.setup.5.events", "names row '5' of table setup"),
        ("decks.events.name", "names 'name', which decks.events lacks"),
        ("decks.events", "gives a record, not a number"),
        ("track.military.max", "did you mean 'tracks'?"),
        ("tables.setup.2.evnts", "did you mean 'events'?"),
        ("tracks..max", "empty part"),
    ],
)
def test_a_wrong_reference_says_what_is_there(status: Game, path: str, said: str) -> None:
    with pytest.raises(RefError, match=None) as caught:
        lookup(status, path)
    assert said in str(caught.value)


def test_texts_are_filled_in_every_language(status: Game) -> None:
    text = "Space {tracks.military.start} to {tracks.military.max}; {tracks.nope.max} stays."
    assert fill(status, text, "it") == "Space 5 to 20; {tracks.nope.max} stays."
    assert fill(status, "{count} cards", "en", {"count": 12}) == "12 cards"
    assert fill(status, "{coin} and {count}", "en") == "{coin} and {count}"
    assert number_text(1.5, "it") == "1,5" and number_text(1.5, "en") == "1.5"
    assert number_text(1200, "de") == "1200"
    assert player_counts("2-4") == [2, 3, 4] and player_counts("2, 5") == [2, 5]


def _pack(tmp_path: Path) -> Path:
    root = make_root(tmp_path, FIXTURES / "reference-text")
    game = root / "cards" / "mini" / "game.yaml"
    text = game.read_text("utf-8")
    for wrong, right in (
        ("{cuont}", "{count}"),
        ("mian", "main"),
        ("tables.deal.5.alpha", "tables.deal.4.alpha"),
        ("aplha", "alpha"),
        ("{decks.main.name}", "{decks.main.total}"),
    ):
        text = text.replace(wrong, right)
    text = text.replace("  # expect: reference, translation-tokens", "")
    game.write_text(text.replace("# expect: reference", "").replace("# expect: scenario-deck", ""))
    return root


def test_the_translator_prints_references_and_a_box_lines_count(tmp_path: Path) -> None:
    root = _pack(tmp_path)
    assert not run_validate(root).errors
    game = load_game(open_root(root), "mini", Report())
    assert game is not None
    it = Translator(game, "it")
    assert it.text(game.meta.box[0].item) == "6 carte"
    assert it.text(game.meta.setup_sheet.intro).startswith("Mescolate le 6 carte; 2 Alfa")
    step = game.scenarios["standard"].cards[0]
    assert step.draw is not None and getattr(step.draw, "values", None) == {2: 1, 3: 2, 4: 2}


def test_translators_see_references_and_keep_them(tmp_path: Path) -> None:
    root = _pack(tmp_path)
    game = load_game(open_root(root), "mini", Report())
    assert game is not None
    entries = {e.msgctxt: e for e in template(game).entries}
    intro = entries["setup_sheet/intro"]
    assert "{decks.main.total} (prints 6)" in " ".join(intro.extracted)
    assert intro.flags.formats.get("python-brace") == "yes"
    assert "{count} (prints 6)" in " ".join(entries["box/deck:main/item"].extracted)
    po = root / "locales" / "fr" / "LC_MESSAGES" / "mini.po"
    po.parent.mkdir(parents=True)
    po.write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: fr\\n"\n\n'
        'msgctxt "setup_sheet/notes"\nmsgid "The deck has {decks.main.total} cards."\n'
        'msgstr "Le paquet a 6 cartes."\n',
        "utf-8",
    )
    text = (root / "cards" / "mini" / "game.yaml").read_text("utf-8")
    (root / "cards" / "mini" / "game.yaml").write_text(
        text.replace("languages: [en, it]", "languages: [en, it, fr]"), "utf-8"
    )
    found = [f for f in run_validate(root).sorted() if f.rule == "translation-tokens"]
    assert [f.pos.path for f in found] == ["locales/fr/LC_MESSAGES/mini.po"]
    assert "drops {decks.main.total}" in found[0].message


def test_a_layouts_own_words_name_what_their_template_fills(tmp_path: Path) -> None:
    """A layout's texts: are printed by its templates, which fill their {names}: {stage} there
    is no reference to the game's data (Which Side's 'Stage {stage} of {stages}')."""
    root = make_root(tmp_path, FIXTURES / "clean")
    layouts = root / "cards" / "mini" / "layouts.yaml"
    layouts.write_text(
        "layouts:\n"
        "  staged:\n"
        "    extends: card\n"
        "    texts:\n"
        '      stage: {en: "Stage {stage} of {stages}", it: "Fase {stage} di {stages}"}\n'
        "    elements:\n"
        "      - {name: stage, box: [5, 70, 50, 8],\n"
        '         template: "{{ texts.stage.format(stage=1, stages=2) }}"}\n',
        "utf-8",
    )
    report = run_validate(root)
    assert not [f for f in report.sorted() if f.rule == "reference"], report.format_text()
