"""`pnp new`: a small working game to start from, and the JSON Schema editors use.

The scaffold shows each part of the format once: a deck with a shared back, a two-sided card,
a token, a setup table that deals from the box, and an invariant. It validates clean and
builds; every file starts with a `yaml-language-server` line pointing at the schema that
`pnp new` and `pnp schema` write next to the games (cards/pnp-game.schema.json for game.yaml,
cards/pnp-content.schema.json for the other files).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..content.load import ID_RE, Root
from ..content.model import GameFile, Sections, valid_language
from ..content.schema import json_schema
from ..core.errors import UsageError

GAME_SCHEMA = "pnp-game.schema.json"
CONTENT_SCHEMA = "pnp-content.schema.json"

# Sample texts per language; other languages get the English text to translate.
WORDS: dict[str, dict[str, str]] = {
    "en": {
        "deck": "Actions",
        "back": "Action",
        "run": "Run",
        "run_text": "Move up to **2** spaces.",
        "trade": "Trade",
        "trade_text": "Pay 1 {coin}: take a crate.",
        "coin_card": "Windfall",
        "coin_text": "Take 2 {coin}.",
        "flip": "Storm",
        "flip_text": "Everybody loses 1 {coin}.",
        "flip_back": "Calm",
        "flip_back_text": "Nothing happens. Turn this card over next round.",
        "token": "Crate",
        "tokens": "Crates",
        "setup": "Setup",
        "deal": "Cards and crates dealt",
        "players": "Players",
        "cards": "Cards each",
        "crates": "Crates",
        "box_cards": "12 action cards",
        "box_tokens": "10 crates",
        "intro": "Deal the cards from the table, then shuffle the rest.",
        "check": "with {players} players the deck runs out of cards",
    },
    "it": {
        "deck": "Azioni",
        "back": "Azione",
        "run": "Corri",
        "run_text": "Muoviti fino a **2** spazi.",
        "trade": "Scambio",
        "trade_text": "Paga 1 {coin}: prendi una cassa.",
        "coin_card": "Fortuna",
        "coin_text": "Prendi 2 {coin}.",
        "flip": "Tempesta",
        "flip_text": "Tutti perdono 1 {coin}.",
        "flip_back": "Calma",
        "flip_back_text": "Non succede nulla. Gira questa carta al prossimo turno.",
        "token": "Cassa",
        "tokens": "Casse",
        "setup": "Preparazione",
        "deal": "Carte e casse distribuite",
        "players": "Giocatori",
        "cards": "Carte a testa",
        "crates": "Casse",
        "box_cards": "12 carte azione",
        "box_tokens": "10 casse",
        "intro": "Distribuite le carte della tabella, poi mescolate le altre.",
        "check": "con {players} giocatori il mazzo finisce le carte",
    },
    "es": {
        "deck": "Acciones",
        "back": "Acción",
        "run": "Corre",
        "run_text": "Muévete hasta **2** casillas.",
        "trade": "Trueque",
        "trade_text": "Paga 1 {coin}: toma una caja.",
        "coin_card": "Fortuna",
        "coin_text": "Toma 2 {coin}.",
        "flip": "Tormenta",
        "flip_text": "Todos pierden 1 {coin}.",
        "flip_back": "Calma",
        "flip_back_text": "No pasa nada. Dale la vuelta a esta carta en la próxima ronda.",
        "token": "Caja",
        "tokens": "Cajas",
        "setup": "Preparación",
        "deal": "Cartas y cajas repartidas",
        "players": "Jugadores",
        "cards": "Cartas por cabeza",
        "crates": "Cajas",
        "box_cards": "12 cartas de acción",
        "box_tokens": "10 cajas",
        "intro": "Reparte las cartas de la tabla y baraja el resto.",
        "check": "con {players} jugadores el mazo se queda sin cartas",
    },
}


def write_schemas(root: Root) -> list[Path]:
    root.cards.mkdir(parents=True, exist_ok=True)
    out = []
    for name, tp, title in (
        (GAME_SCHEMA, GameFile, "pnp game.yaml"),
        (CONTENT_SCHEMA, Sections, "pnp content file"),
    ):
        path = root.cards / name
        data = json.dumps(json_schema(tp, title), indent=2, ensure_ascii=False) + "\n"
        if not path.is_file() or path.read_text("utf-8") != data:
            path.write_text(data, "utf-8")
        out.append(path)
    return out


def _texts(langs: list[str], key: str) -> dict[str, str]:
    return {lang: WORDS.get(lang, WORDS["en"])[key] for lang in langs}


def _yaml_text(values: dict[str, str]) -> str:
    return (
        "{"
        + ", ".join(f"{k}: {json.dumps(v, ensure_ascii=False)}" for k, v in values.items())
        + "}"
    )


def new_game(root: Root, game: str, langs: list[str]) -> Path:
    """Write the scaffold game ``game`` in ``langs`` to cards/<game>/ (and the JSON Schemas next
    to the games); the languages default to English."""
    _check_game_id(game)
    langs = _languages(langs)
    folder = root.game_dir(game)
    if folder.exists():
        raise UsageError(f"{root.rel(folder)} already exists; choose another name")
    write_schemas(root)
    files = _game_files(game, langs)
    folder.mkdir(parents=True)
    for name, text in files.items():
        (folder / name).write_text(text, "utf-8")
    return folder


def _check_game_id(game: str) -> None:
    if not ID_RE.fullmatch(game):
        raise UsageError(
            f"game id {game!r}: use lower-case letters, digits, - and _ (e.g. my-game)"
        )


def _languages(langs: list[str]) -> list[str]:
    """The languages asked for, each once (English when none is), every one a locale code."""
    langs = list(dict.fromkeys(langs or ["en"]))
    for lang in langs:
        if not valid_language(lang):
            raise UsageError(f"--lang {lang!r} is not a locale code (examples: en, it, es, pt_BR)")
    return langs


def _game_files(game: str, langs: list[str]) -> dict[str, str]:
    """The scaffold's files by name, each starting with the line that names its schema."""

    def t(key: str) -> str:
        return _yaml_text(_texts(langs, key))

    head_game = f"# yaml-language-server: $schema=../{GAME_SCHEMA}\n"
    head = f"# yaml-language-server: $schema=../{CONTENT_SCHEMA}\n"
    return {
        "game.yaml": head_game + _game_yaml(game, langs, t),
        "decks.yaml": head + _decks_yaml(t),
        "tokens.yaml": head + _tokens_yaml(t),
        "tables.yaml": head + _tables_yaml(t),
    }


def _game_yaml(game: str, langs: list[str], t: Callable[[str], str]) -> str:
    """game.yaml: the title, languages, box contents, an icon and the setup sheet."""
    return f"""# {game}: made by `pnp new`. The format is in docs/format.md of pnp.
title: {_yaml_text({lang: game.replace("-", " ").title() for lang in langs})}
source_language: {langs[0]}
languages: [{", ".join(langs)}]
players: {{min: 2, max: 4}}
version: "0.1"

# what the box holds: pnp checks each count against the cards defined
box:
  - {{item: {t("box_cards")}, deck: actions, count: 12}}
  - {{item: {t("box_tokens")}, tokens: crates, count: 10}}

print:
  card_size: poker

icons:
  coin: {{glyph: "₽"}}      # write {{coin}} in any text

setup_sheet:
  title: {t("setup")}
  intro: {t("intro")}
  tables: [deal]
"""


def _decks_yaml(t: Callable[[str], str]) -> str:
    """A deck with a shared back and a two-sided card."""
    return f"""decks:
  actions:
    name: {t("deck")}
    back:                    # one back for the whole deck, drawn once in the PDF
      title: {t("back")}
    cards:
      - id: run
        copies: 5
        title: {t("run")}
        text: {t("run_text")}
      - id: trade
        copies: 4
        title: {t("trade")}
        text: {t("trade_text")}
      - id: windfall
        copies: 2
        title: {t("coin_card")}
        text: {t("coin_text")}
      - id: storm            # a two-sided card: its own back replaces the deck's
        title: {t("flip")}
        text: {t("flip_text")}
        back:
          layout: card         # the built-in back prints only a title; this one, the text too
          title: {t("flip_back")}
          text: {t("flip_back_text")}
"""


def _tokens_yaml(t: Callable[[str], str]) -> str:
    """A set of square tokens."""
    return f"""tokens:
  crates:
    name: {t("tokens")}
    shape: square
    size: 20
    tokens:
      - id: crate
        copies: 10
        title: {t("token")}
"""


def _tables_yaml(t: Callable[[str], str]) -> str:
    """A setup table that deals from the box, and an invariant over it."""
    return f"""tables:
  deal:
    title: {t("deal")}
    covers: {{range: [2, 4]}}   # one row for each player count
    columns:
      - {{id: players, title: {t("players")}}}
      - {{id: cards, title: {t("cards")}}}
      - {{id: crates, title: {t("crates")}, deals: {{tokens: crates, per: player}}}}
    rows:
      - [2, 3, 2]
      - [3, 3, 2]
      - [4, 2, 2]

# the game's own rule, checked by `pnp validate`: the deal never empties the deck
invariants:
  - id: deck-lasts
    for_each: "row in tables.deal"
    assert: "row.cards * row.players < decks.actions.total"
    message: {t("check")}
"""


def schema_data() -> dict[str, Any]:
    return {
        GAME_SCHEMA: json_schema(GameFile, "pnp game.yaml"),
        CONTENT_SCHEMA: json_schema(Sections, "pnp content file"),
    }
