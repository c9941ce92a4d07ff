"""pnp's own messages choose their plural form by the count they show (issue 32, item 6): no
``tr("... {n} cards")`` that prints "1 cards", and English and Italian read singular for one."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pnp.cli import app
from pnp.core.english import counted, said_players
from pnp.i18n.words import SHEET_WORDS, ngettext

from helpers import REPO

runner = CliRunner()
PACKAGE = REPO / "pnp"

# a placeholder that holds how many of something there are
COUNTS = [
    "n",
    "count",
    "pages",
    "sheets",
    "errors",
    "warnings",
    "players",
    "total",
    "tried",
    "once",
    "survived",
    "added",
    "changed",
    "obsolete",
    "deals",
    "piles",
]
COUNT = re.compile(r"\{(" + "|".join(COUNTS) + r")(?:[!:][^}]*)?\}")
SINGULAR_ONLY = ("tr", "gettext_")  # a text with one form; ngettext has two

# messages whose count placeholder is no quantity a word agrees with, each with its reason
ALLOWED = {
    "player {n}: {cards}": "{n} numbers the player (the nth), it counts nothing",
    "hand of player {n}": "{n} numbers the player (the nth)",
    "pile {n}": "{n} numbers the pile (the nth)",
    "wrote {path} ({pages}, {sheets})": "composed: {pages} and {sheets} are ngettext phrases",
    "{games}: {errors}, {warnings}": "composed: {errors} and {warnings} are ngettext phrases",
}
ALLOWED_WORDS = {
    "sheet {n} of {total}": "a page label: {n} numbers the sheet, {total} ends a range",
    "Print page {n} single-sided: it is cut or glued, so its back stays blank.": "{n} numbers "
    "the page",
    "{board}{side}: tile {label} of {total}": "a tile label: {total} ends a range (A1 of 4)",
    "draw {n} at random": "a scenario deck step: {n} stands alone, no word agrees with it",
    "deal {n} to each player": "a scenario deck step: {n} stands alone, no word agrees with it",
    "turn {n} face up": "a scenario deck step: {n} stands alone, no word agrees with it",
}


def singular_only_counts(source: str, filename: str = "<test>") -> list[tuple[int, str]]:
    """The ``tr``/``gettext_`` literals in ``source`` that show a count: (line, message)."""
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
        first = node.args[0]
        if name not in SINGULAR_ONLY or not isinstance(first, ast.Constant):
            continue
        if isinstance(first.value, str) and COUNT.search(first.value):
            found.append((node.lineno, first.value))
    return sorted(found)


def test_the_scan_finds_a_count_without_plural_forms() -> None:
    source = (
        'say(tr("deck: {n} cards").format(n=1))\n'
        'say(ngettext("{n} card", "{n} cards", 1))\n'
        'say(tr("player {n}: {cards}"))\n'
        'say(gettext_("{pages:d} pages", "it"))\n'
    )
    found = [m for _line, m in singular_only_counts(source)]
    assert found == ["deck: {n} cards", "player {n}: {cards}", "{pages:d} pages"]


def test_every_message_with_a_count_has_plural_forms() -> None:
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(REPO)
        for line, message in singular_only_counts(path.read_text("utf-8"), str(rel)):
            if message not in ALLOWED:
                offenders.append(f"{rel}:{line}: {message!r}: use ngettext")
    assert offenders == [], "\n".join(offenders)
    words = [w.msgid for w in SHEET_WORDS if w.plural is None and COUNT.search(w.msgid)]
    assert [w for w in words if w not in ALLOWED_WORDS] == []


def test_the_allow_list_holds_only_messages_that_exist() -> None:
    """An allowed message that left the code is dropped from the list, not kept as a loophole."""
    found = {
        m for p in PACKAGE.rglob("*.py") for _line, m in singular_only_counts(p.read_text("utf-8"))
    }
    assert set(ALLOWED) <= found
    assert set(ALLOWED_WORDS) <= {w.msgid for w in SHEET_WORDS}


def test_ngettext_gives_each_language_its_form(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LC_ALL", "en_US.UTF-8")
    assert ngettext("{n} page", "{n} pages", 1).format(n=1) == "1 page"
    assert ngettext("{n} page", "{n} pages", 0).format(n=0) == "0 pages"
    assert ngettext("{n} page", "{n} pages", 1, "it") == "{n} pagina"
    assert ngettext("{n} page", "{n} pages", 2, "it") == "{n} pagine"
    assert ngettext("{n} page", "{n} pages", 0, "fr") == "{n} page"  # French: 0 is singular
    assert ngettext("{n} page", "{n} pages", 0, "it") == "{n} pagine"


SOLO = {
    "game.yaml": """\
title: {en: Solo, it: Solo}
source_language: en
languages: [en, it]
players: {min: 1, max: 1}
box:
  - {item: {en: 1 card, it: 1 carta}, deck: main, count: 1}
""",
    "decks.yaml": """\
decks:
  main:
    name: {en: Main deck, it: Mazzo}
    back: {title: {en: Solo, it: Solo}}
    cards:
      - {id: alpha, copies: 1, title: {en: Alpha, it: Alfa}, text: {en: Win., it: Vinci.}}
scenarios:
  only:
    name: {en: The only game, it: La sola partita}
    cards:
      - {deck: main, shuffle: true}
""",
}


def _root(tmp_path: Path, gid: str, files: dict[str, str]) -> Path:
    folder = tmp_path / "cards" / gid
    folder.mkdir(parents=True)
    for name, text in files.items():
        (folder / name).write_text(text, "utf-8")
    return tmp_path


@pytest.mark.parametrize(
    ("locale", "lang", "said"),
    [
        ("en_US.UTF-8", "en", ["1 player", "deck, face down: 1 card"]),
        ("it_IT.UTF-8", "it", ["1 giocatore", "mazzo, coperto: 1 carta"]),
    ],
)
def test_setup_of_a_one_card_deck_for_one_player(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, locale: str, lang: str, said: list[str]
) -> None:
    monkeypatch.setenv("LC_ALL", locale)
    root = _root(tmp_path, "solo", SOLO)
    args = ["setup", "solo", "--players", "1", "--lang", lang, "--root", str(root)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    for text in said:
        assert text in result.stdout, result.stdout
    assert not re.search(r"\b1 (players|cards|giocatori|carte)\b", result.stdout), result.stdout


EMPTY = {
    "game.yaml": """\
title: {en: Empty, it: Vuoto}
source_language: en
languages: [en, it]
players: {min: 1, max: 1}
"""
}


@pytest.mark.parametrize(
    ("locale", "said"),
    [("en_US.UTF-8", "(1 page, 1 sheet)"), ("it_IT.UTF-8", "(1 pagina, 1 foglio)")],
)
def test_build_of_a_one_page_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, locale: str, said: str
) -> None:
    """A game with nothing to print but its setup sheet: one page, on one sheet."""
    monkeypatch.setenv("LC_ALL", locale)
    root = _root(tmp_path, "empty", EMPTY)
    out = tmp_path / "out"
    args = ["build", "empty", "--lang", "en", "--root", str(root), "--out", str(out)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert (out / "empty" / "empty-en-a4.pdf").is_file()
    assert said in result.stdout, result.stdout


def test_findings_count_their_nouns_in_english() -> None:
    """Findings are written in English: a count of one takes the singular there too."""
    assert counted(1, "card") == "1 card" and counted(0, "card") == "0 cards"
    assert counted(3, "copy", "copies") == "3 copies"
    assert said_players("1", only_one=True) == "1 player"
    assert said_players("1, 5", only_one=False) == "1, 5 players"


def test_a_table_missing_one_count_says_player(tmp_path: Path) -> None:
    files = {
        "game.yaml": SOLO["game.yaml"].replace("{min: 1, max: 1}", "{min: 1, max: 2}"),
        "tables.yaml": """\
tables:
  deal:
    title: {en: Cards dealt}
    columns:
      - {id: players, title: {en: Players}}
      - {id: alpha, title: {en: Alpha}}
    rows:
      - [2, 1]
""",
        "decks.yaml": SOLO["decks.yaml"],
    }
    root = _root(tmp_path, "solo", files)
    result = runner.invoke(app, ["validate", "solo", "--root", str(root)])
    said = [ln for ln in result.stdout.splitlines() if "[player-range]" in ln]
    assert said and "has no row for 1 player," in said[0], result.stdout
