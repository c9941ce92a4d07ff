"""`pnp new`: a small working game to start from, in a content root a designer keeps in git;
and the JSON Schema editors use.

The scaffold shows each part of the format once: a deck with a shared back, a two-sided card,
a token, a setup table that deals from the box, an invariant, and a card layout a designer
can keep (a coloured band, an art area with SVG art of its own, the text, a footer) with a
back to match. It validates clean and
builds; every file starts with a `yaml-language-server` line pointing at the schema that
`pnp new` and `pnp schema` write next to the games (cards/pnp-game.schema.json for game.yaml,
cards/pnp-content.schema.json for the other files). Beside cards/, the root gets a README.md
and a .gitignore (output/ is made by builds), unless it has them; fonts/ only when asked:
pnp brings its fonts.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..content.load import ID_RE, Root
from ..content.model import GameFile, Sections, valid_language
from ..content.schema import json_schema
from ..core.errors import UsageError

GAME_SCHEMA = "pnp-game.schema.json"
CONTENT_SCHEMA = "pnp-content.schema.json"

# The example's texts in English and in each language pnp has a catalog for (pnp/i18n/locale;
# tests/test_cli_ux.py checks both lists agree). Another language is left to the designer:
# its texts are empty slots (`pl: `) that validation reports as missing; a source language
# without texts here gets the English ones, and `pnp new` says so.
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
    "fr": {
        "deck": "Actions",
        "back": "Action",
        "run": "Course",
        "run_text": "Déplacez-vous de **2** cases au plus.",
        "trade": "Échange",
        "trade_text": "Payez 1 {coin} : prenez une caisse.",
        "coin_card": "Aubaine",
        "coin_text": "Prenez 2 {coin}.",
        "flip": "Tempête",
        "flip_text": "Tout le monde perd 1 {coin}.",
        "flip_back": "Accalmie",
        "flip_back_text": "Il ne se passe rien. Retournez cette carte au prochain tour.",
        "token": "Caisse",
        "tokens": "Caisses",
        "setup": "Mise en place",
        "deal": "Cartes et caisses distribuées",
        "players": "Joueurs",
        "cards": "Cartes par personne",
        "crates": "Caisses",
        "box_cards": "12 cartes action",
        "box_tokens": "10 caisses",
        "intro": "Distribuez les cartes indiquées dans le tableau, puis mélangez le reste.",
        "check": "à {players} joueurs, la pioche manque de cartes",
    },
    "de": {
        "deck": "Aktionen",
        "back": "Aktion",
        "run": "Rennen",
        "run_text": "Zieh bis zu **2** Felder weit.",
        "trade": "Handel",
        "trade_text": "Zahl 1 {coin}: Nimm eine Kiste.",
        "coin_card": "Glücksfall",
        "coin_text": "Nimm 2 {coin}.",
        "flip": "Sturm",
        "flip_text": "Alle verlieren 1 {coin}.",
        "flip_back": "Flaute",
        "flip_back_text": "Nichts passiert. Dreh diese Karte in der nächsten Runde um.",
        "token": "Kiste",
        "tokens": "Kisten",
        "setup": "Spielaufbau",
        "deal": "Ausgeteilte Karten und Kisten",
        "players": "Spieler",
        "cards": "Karten pro Person",
        "crates": "Kisten",
        "box_cards": "12 Aktionskarten",
        "box_tokens": "10 Kisten",
        "intro": "Teilt die Karten laut Tabelle aus und mischt dann den Rest.",
        "check": "bei {players} Spielern gehen dem Stapel die Karten aus",
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


def sample_words(lang: str) -> dict[str, str] | None:
    """The example's texts in ``lang`` (``pt_BR`` falls back to ``pt``), or None."""
    return WORDS.get(lang) or WORDS.get(lang.split("_")[0])


def _texts(langs: list[str], key: str) -> dict[str, str | None]:
    """One text of the example in each language: None (an empty slot) where pnp has none,
    English for a source language pnp has none in."""
    out: dict[str, str | None] = {}
    for lang in langs:
        words = sample_words(lang) or (WORDS["en"] if lang == langs[0] else None)
        out[lang] = words[key] if words else None
    return out


def _yaml_text(values: Mapping[str, str | None]) -> str:
    """A flow mapping language -> text; a language without a text gets an empty slot (the
    space after the colon makes it one: `{pl:}` would be a key "pl:")."""
    parts = [
        f"{k}: {json.dumps(v, ensure_ascii=False)}" if v is not None else f"{k}: "
        for k, v in values.items()
    ]
    return "{" + ", ".join(parts) + "}"


@dataclass
class NewGame:
    """What `pnp new` made, and what it left for the designer."""

    folder: Path
    langs: list[str]
    made: list[Path] = field(default_factory=list)  # README.md, .gitignore, fonts/README.md
    extended: list[Path] = field(default_factory=list)  # a .gitignore output/ was added to

    @property
    def untranslated(self) -> list[str]:
        """The languages pnp has no example texts in (the source first, if it is one)."""
        return [lang for lang in self.langs if sample_words(lang) is None]

    @property
    def english_source(self) -> bool:
        """True when the source language's texts are pnp's English ones, to replace."""
        return sample_words(self.langs[0]) is None


def new_game(root: Root, game: str, langs: list[str], own_fonts: bool = False) -> NewGame:
    """Write the scaffold game ``game`` in ``langs`` to cards/<game>/, the JSON Schemas next to
    the games, and what a content root kept in git needs (README.md, .gitignore; fonts/ with
    ``own_fonts``) where the root lacks them. The languages default to English."""
    _check_game_id(game)
    langs = _languages(langs)
    folder = root.game_dir(game)
    if folder.exists():
        raise UsageError(f"{root.rel(folder)} already exists; choose another name")
    write_schemas(root)
    files = _game_files(game, langs)
    folder.mkdir(parents=True)
    for name, text in files.items():
        (folder / name).parent.mkdir(exist_ok=True)
        (folder / name).write_text(text, "utf-8")
    made = NewGame(folder, langs)
    _root_files(root, game, own_fonts, made)
    return made


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

    note = _translation_note(game, langs)
    head_game = f"# yaml-language-server: $schema=../{GAME_SCHEMA}\n" + note
    head = f"# yaml-language-server: $schema=../{CONTENT_SCHEMA}\n" + note
    return {
        "game.yaml": head_game + _game_yaml(game, langs, t),
        "decks.yaml": head + _decks_yaml(t),
        "layouts.yaml": head + LAYOUTS_YAML,
        "tokens.yaml": head + _tokens_yaml(t),
        "tables.yaml": head + _tables_yaml(t),
        **ART,
    }


def _translation_note(game: str, langs: list[str]) -> str:
    """Comment lines on the texts pnp could not give in some language."""
    lines = []
    if sample_words(langs[0]) is None:
        lines += [
            f"# pnp has no {langs[0]} example texts: the {langs[0]} texts below are English;",
            f"# write them in {langs[0]}.",
        ]
    empty = [lang for lang in langs[1:] if sample_words(lang) is None]
    if empty:
        slots = ", ".join(f"`{lang}: `" for lang in empty)
        lines += [
            f"# pnp has no {', '.join(empty)} example texts: the empty {slots} slots are yours",
            f"# to fill (or translate in a PO catalog: `pnp i18n init {game} {empty[0]}`).",
        ]
    return "".join(line + "\n" for line in lines)


def _game_yaml(game: str, langs: list[str], t: Callable[[str], str]) -> str:
    """game.yaml: the title, languages, box contents, an icon and the setup sheet."""
    return f"""# {game}: made by `pnp new`. The format: `pnp docs format` (--open: in a browser).
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
  # font: NotoSans         # a family in fonts/, else one pnp brings (NotoSans, DejaVuSans)

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
    layout: action           # layouts.yaml: how the fronts are drawn
    back:                    # one back for the whole deck, drawn once in the PDF
      layout: action-back
      title: {t("back")}
    cards:
      - id: run
        copies: 5
        title: {t("run")}
        text: {t("run_text")}
        art: art/scene.svg   # your own picture here: PNG, JPEG or SVG
      - id: trade
        copies: 4
        title: {t("trade")}
        text: {t("trade_text")}
        art: art/scene.svg
      - id: windfall
        copies: 2
        style: gold          # a style of the layout: its colours
        title: {t("coin_card")}
        text: {t("coin_text")}
        art: art/scene.svg
      - id: storm            # a two-sided card: its own back replaces the deck's
        style: storm
        title: {t("flip")}
        text: {t("flip_text")}
        back:
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


# The layout of the example's cards: a band in the style's accent colour with the title, an
# art area (the card's art, cropped to fill it; a plain panel when a card has none), the
# text, the game's name at the foot; the back in the same colours, with an emblem. Words
# appear nowhere in it: it is the same in every language.
LAYOUTS_YAML = """layouts:
  action:
    styles:
      default: {accent: "#2f5d8a"}
      gold: {accent: "#a66d00"}
      storm: {accent: "#5e35b1"}
    elements:
      - {name: band, box: [0, 0, "100%", 17], gradient: {colors: [accent, "#1c2733"]}}
      - {name: title, box: [5, 3.5, 53, 10], field: title, font: bold, size: 14, min_size: 9,
         color: "#ffffff", valign: middle, shadow: {opacity: 0.35}}
      - {name: art-area, box: [5, 20, 53, 30], fill: "#e6ebf0", radius: 2}
      - {name: art, box: [5, 20, 53, 30], image: art, fit: cover, when: art}
      - {name: text, box: [7, 53, 49, 23], field: text, size: 10, min_size: 7}
      - {name: rule, line: [7, 78.5, 56, 78.5], stroke: accent, stroke_width: 0.4}
      - {name: footer, box: [7, 79.5, 49, 5], template: "{{ game_title }}", size: 6.5,
         color: "#607d8b"}
  action-back:
    extends: action
    elements:
      - {name: band, box: [0, 0, "100%", "100%"],
         gradient: {colors: [accent, "#1c2733"], angle: 45}}
      - {name: title, box: [5, 60, 53, 12], field: title, font: bold, size: 16,
         color: "#ffffff", align: center, valign: middle, shadow: {opacity: 0.35}}
      - {name: art-area, box: [4, 4, 55, 80], stroke: "#ffffff", stroke_width: 0.5, radius: 3,
         opacity: 0.5}
      - {name: art, box: [19, 20, 25, 25], image: art/emblem.svg, fit: contain}
      - {name: text, box: [7, 72, 49, 10], field: text, size: 8, min_size: 6, color: "#ffffff",
         align: center}
      - {name: rule, drop: true}
      - {name: footer, drop: true}
"""

ART = {
    "art/scene.svg": """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 530 300">
  <!-- made by `pnp new`: replace it with your art (PNG, JPEG or SVG) -->
  <defs>
    <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#9fc5e8"/><stop offset="1" stop-color="#e6f0f8"/>
    </linearGradient>
  </defs>
  <rect width="530" height="300" fill="url(#sky)"/>
  <circle cx="410" cy="80" r="38" fill="#f6c343"/>
  <path d="M0 220 L120 130 L210 200 L320 110 L530 240 L530 300 L0 300 Z" fill="#5b7f95"/>
  <path d="M0 260 C120 220 260 280 530 235 L530 300 L0 300 Z" fill="#3f6b4f"/>
</svg>
""",
    "art/emblem.svg": """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">
  <!-- made by `pnp new`: the emblem on the card backs -->
  <circle cx="50" cy="50" r="44" fill="none" stroke="#ffffff" stroke-width="5"/>
  <path d="M50 18 L60 42 L86 42 L65 58 L73 84 L50 68 L27 84 L35 58 L14 42 L40 42 Z"
        fill="#ffffff"/>
</svg>
""",
}


# --- the content root around the games ----------------------------------------------------

README_NAMES = ("README.md", "README", "README.txt", "README.rst")
IGNORED_OUTPUT = {"output", "output/", "/output", "/output/", "output/*", "/output/*"}


def _root_files(root: Root, game: str, own_fonts: bool, made: NewGame) -> None:
    """README.md and .gitignore where the root has none (an existing .gitignore gets output/
    if it lacks it); fonts/ with a README when the designer wants fonts of their own."""
    if not any((root.path / name).exists() for name in README_NAMES):
        readme = root.path / "README.md"
        readme.write_text(_root_readme(game), "utf-8")
        made.made.append(readme)
    ignore = root.path / ".gitignore"
    if not ignore.exists():
        ignore.write_text(GITIGNORE, "utf-8")
        made.made.append(ignore)
    else:
        text = ignore.read_text("utf-8", errors="replace")
        if not IGNORED_OUTPUT & {line.strip() for line in text.splitlines()}:
            sep = "" if not text or text.endswith("\n") else "\n"
            with ignore.open("a", encoding="utf-8") as f:
                f.write(sep + GITIGNORE)
            made.extended.append(ignore)
    fonts_readme = root.fonts / "README.md"
    if own_fonts and not fonts_readme.exists():
        root.fonts.mkdir(exist_ok=True)
        fonts_readme.write_text(FONTS_README, "utf-8")
        made.made.append(fonts_readme)


GITIGNORE = """# made by `pnp build`, `pnp preview` and `pnp watch` (with the build stamps)
output/
"""


def _root_readme(game: str) -> str:
    return f"""# Print-and-play games made with pnp

Each folder of `cards/` is a game, written in YAML: `cards/{game}/game.yaml` declares it, the
other files add its decks, tokens and tables. `cards/pnp-*.schema.json` let an editor complete
and check the YAML (`pnp schema` writes them again after an update of pnp). pnp is installed
with `pip install pnp-press`.

pnp's documentation comes with it: `pnp docs` lists the topics, `pnp docs format` prints the
format of these files (every key, with examples), `pnp docs format --open` shows it in a
browser; `pnp docs rules` (what `pnp validate` checks), `pnp docs spreadsheets` (card lists in
CSV, XLSX or ODS), `pnp docs translating`, `pnp docs printing` (print-on-demand shops, a
release). `pnp --help` and `pnp COMMAND --help` list the commands and their options.

Run these in this folder (or add `--root` and its path):

- `pnp validate`: every finding, as `PATH:LINE:COL: severity [rule] message`
- `pnp build`: `output/GAME/GAME-LANG-a4.pdf` for every game and language
  (`pnp build {game} --lang en --paper letter` for one language, on Letter paper)
- `pnp preview {game}`: `output/{game}/preview/index.html`, every face in every language
- `pnp watch {game}`: the PDFs and the preview made again at every save

Translate, with standard gettext catalogs (Poedit, Weblate or a text editor):

- `pnp i18n init {game} fr`: `locales/fr/LC_MESSAGES/{game}.po`, to translate
- `pnp i18n update {game}`: after the texts change, merges them into every catalog
- `pnp i18n status`: per language, what is translated, fuzzy or missing

`output/` is made by the builds and left out of git (`.gitignore`). pnp brings its fonts
(Noto Sans, DejaVu Sans); fonts of your own go in `fonts/` (`pnp new GAME --own-fonts`).
"""


FONTS_README = """# Fonts of your own

A game names its font family in `game.yaml` (`print: font: MyFamily`, and
`fallback_fonts:` for characters it lacks). pnp looks for the family here first, then among
its own fonts (NotoSans, DejaVuSans). Name the files `MyFamily-Regular.ttf` (or
`MyFamily.ttf`), `MyFamily-Bold.ttf`, `MyFamily-Italic.ttf` and `MyFamily-BoldItalic.ttf`,
and keep each font's licence beside it: the PDFs embed the fonts.
"""


def schema_data() -> dict[str, Any]:
    return {
        GAME_SCHEMA: json_schema(GameFile, "pnp game.yaml"),
        CONTENT_SCHEMA: json_schema(Sections, "pnp content file"),
    }
