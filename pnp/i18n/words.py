"""pnp's own words: what pnp itself prints on the sheets, and what it says in the terminal.

Sheet words are registered in :data:`SHEET_WORDS` with where they are printed. They join every
game's template under the context ``pnp`` (:data:`CONTEXT`), so a translator finds every word of
their sheets in the one catalog of the game they translate; pnp's own catalogs,
``pnp/i18n/locale/<lang>/LC_MESSAGES/pnp.po``, hold pnp's translations of them (and of the
terminal messages), used when a game's catalog has none and to fill a new catalog.

A build for language L prints a sheet word from L's game catalog, else from pnp's catalog for
L, else in English, and reports that fallback like any other. Terminal messages follow the
user's locale (LC_ALL, LC_MESSAGES, LANG).

Maintainers: ``python -m pnp.i18n`` refreshes ``pnp.pot`` from the code and merges it
into every ``pnp.po`` (:mod:`.maintain`).
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass
from pathlib import Path

from .plural import PluralError, PluralForms, parse_plural_forms
from .po import Catalog

LOCALE_DIR = Path(__file__).parent / "locale"
CONTEXT = "pnp"  # msgctxt of pnp's sheet words in a game's catalog
SOURCE_LANGUAGE = "en"


@dataclass(frozen=True)
class Word:
    """A word pnp prints on a sheet; ``plural`` when it has plural forms."""

    msgid: str
    where: str  # a note for translators: where it is printed
    feature: str = "sheets"  # sheets, tokens, boards, setup, scenarios, proof
    plural: str | None = None


_W = Word
SHEET_WORDS: tuple[Word, ...] = (
    # page labels, on every sheet
    _W("sheet {n} of {total}", "page label: the sheet number and the number of sheets"),
    _W("fronts", "page label: a sheet of card fronts"),
    _W("backs", "page label: a sheet of card backs"),
    _W("fold here", "gutter-fold sheets: the fold line, and the page label"),
    _W("print at 100 %: this bar measures {length} mm", "caption of the scale bar on each sheet"),
    _W(
        "This side is left blank on purpose (duplex printing).",
        "on a page that has nothing on its back",
    ),
    _W("tokens", "page label: a sheet of tokens", "tokens"),
    _W("token backs", "page label: the backs of a token sheet", "tokens"),
    # board tiles
    _W("board", "page label: a sheet of a board split over several pages", "boards"),
    _W("back", "board tile label: the board's back side, in parentheses", "boards"),
    _W(
        "{board}{side}: tile {label} of {total}",
        "board tile label: {side} is empty or ' (back)'; {label} is A1, B2…",
        "boards",
    ),
    _W(
        "print at 100 %; cut on the marks; glue each tile onto the grey strip",
        "board tile instructions, beside the assembly map",
        "boards",
    ),
    _W(
        "glue",
        "board overview: the legend of the hatched grey strip where the next tile is glued",
        "boards",
    ),
    _W("How to assemble {board}", "board overview: the heading; {board} is its name", "boards"),
    _W(
        "Print the tiles at 100 % and cut each one out on its cut marks.",
        "board overview: how to assemble a board printed on several pages, first step",
        "boards",
    ),
    _W(
        "Glue the tiles in the order of their labels, from {first} to {last}, row by row: lay "
        "each tile over the grey strips of the tiles to its left and above it, with its edges "
        "on the black triangles.",
        "board overview: how to assemble, second step; {first} and {last} are tile labels "
        "such as A1 and B2",
        "boards",
    ),
    _W(
        "This board has two sides: assemble each side from its own tiles, then glue the two "
        "sides back to back.",
        "board overview: of a board with two sides, each tiled",
        "boards",
    ),
    # the setup sheet
    _W("Setup", "setup sheet: heading when the game gives none", "setup"),
    # the setup sheet's printing advice: each build prints the sentences of its options
    _W("How to print", "first page: heading of the boxed printing note", "setup"),
    _W("Print at 100 % (actual size), never “fit to page”.", "first page: how to print", "setup"),
    _W(
        "This copy is laid out for {paper} paper ({size} mm); nothing is printed within "
        "{margin} mm of its edges.",
        "first page: how to print; {paper} is A4 or Letter, {size} like 210 × 297",
        "setup",
    ),
    _W("Letter", "first page: the name of the US Letter paper size", "setup"),
    _W(
        "Cards, tokens and boards are best on thin card (160–220 g/m²) if your printer takes "
        "it, or on paper glued onto card.",
        "first page: how to print, the card stock",
        "setup",
    ),
    _W(
        "Cut cards and boards on the crop marks, tokens on their outlines.",
        "first page: how to print, how to cut",
        "setup",
    ),
    _W(
        "Backs shared by a deck are printed plain, without their colours and art, to save ink.",
        "first page: how to print (pnp build --ink-saver)",
        "setup",
    ),
    _W("What this copy holds", "first page: heading of the component list", "setup"),
    _W(
        "page {pages}",
        "first page, component list: where a component is printed; the form follows how many "
        "pages {pages} lists",
        "setup",
        plural="pages {pages}",
    ),
    _W(
        "not printed: bring your own",
        "first page, component list: a component the players bring (coins, dice)",
        "setup",
    ),
    _W(
        "not printed in this copy",
        "first page, component list: a box line that nothing printed matches",
        "setup",
    ),
    _W(
        "The scale bar beside the cards, tokens and board tiles measures {length} mm when the "
        "scale is right.",
        "setup sheet: how to print; {length} is 50",
        "setup",
    ),
    _W(
        "Print pages {first}–{last} double-sided, flipping on the long edge.",
        "setup sheet: how to print (pnp build --duplex long, the default)",
        "setup",
    ),
    _W(
        "Print pages {first}–{last} double-sided, flipping on the short edge.",
        "setup sheet: how to print (pnp build --duplex short)",
        "setup",
    ),
    _W(
        "Print pages {first}–{last} single-sided: they are cut or glued, so their backs stay "
        "blank.",
        "setup sheet: how to print, after the double-sided pages (tiles, faces without backs)",
        "setup",
    ),
    _W(
        "Print page {n} single-sided: it is cut or glued, so its back stays blank.",
        "setup sheet: how to print, after the double-sided pages, when one page is left",
        "setup",
    ),
    _W(
        "Print single-sided: no sheet has a back.",
        "setup sheet: how to print, when nothing has a back",
        "setup",
    ),
    _W(
        "Print single-sided. Each page of backs follows its page of fronts and is mirrored for "
        "gluing: turn it over from left to right, like the page of a book, lay it behind its "
        "fronts with the crop marks lined up, and glue.",
        "setup sheet: how to print (pnp build --duplex none)",
        "setup",
    ),
    _W(
        "Print single-sided. Fold each sheet on the dashed line with the faces outwards, glue the "
        "two halves together, then cut.",
        "setup sheet: how to print (pnp build --fold)",
        "setup",
    ),
    _W(
        "Cards have {bleed} mm of bleed: cut on the crop marks, not on the edge of the colour.",
        "setup sheet: how to print (pnp build --bleed)",
        "setup",
    ),
    _W(
        "Backs are shifted by {x} mm across and {y} mm down to match your printer (--back-offset).",
        "setup sheet: how to print (pnp build --back-offset X,Y)",
        "setup",
    ),
    _W(
        "{mark} not given by the rulebook: an assumption of this copy, made so that the game can "
        "be played; where the rulebook says otherwise, follow the rulebook.",
        "setup sheet: explains the mark ({mark} is †) printed on cards, tokens, boards and "
        "table titles that the rulebook does not give",
        "setup",
    ),
    _W(
        "Placeholder: the rulebook does not publish the text of a card or board with this mark; "
        "what it says stands in for it so that the counts hold. Where you have the published "
        "card, use it.",
        "setup sheet: explains the mark (a white ? on a dark square) printed on placeholder "
        "cards and boards",
        "setup",
    ),
    _W(
        "Content pack version {version}",
        "setup sheet: the edition of the content; a date may follow",
        "setup",
    ),
    # scenarios, on the setup sheet
    _W(
        "variant of {base}",
        "scenario: beside its player counts, the scenario a variant changes",
        "scenarios",
    ),
    _W(
        "{lo}-{hi} player",
        "scenario: the player counts it is for; the form follows {hi}",
        "scenarios",
        plural="{lo}-{hi} players",
    ),
    _W(
        "{n} player",
        "scenario: the one player count it is for",
        "scenarios",
        plural="{n} players",
    ),
    _W("Place {board}", "scenario set-up step", "scenarios"),
    _W("Place {board}, side {side} up", "scenario set-up step; {side} is A or B", "scenarios"),
    _W("Set {track} to {value}", "scenario set-up step: a track's starting space", "scenarios"),
    _W(
        "Starting values: {tracks}",
        "scenario set-up step: the starting spaces of several tracks, like 'Boss Force 1, "
        "Insalubrity 2'",
        "scenarios",
    ),
    _W(
        "Other steps: as in {base}.",
        "scenario: the last step of a variant, which lists only what it changes",
        "scenarios",
    ),
    _W("Special rules", "scenario: heading", "scenarios"),
    _W(
        "as in {scenario}",
        "scenario: a rule, victory or defeat printed in full for an earlier scenario",
        "scenarios",
    ),
    _W("Victory", "scenario: heading", "scenarios"),
    _W("Defeat", "scenario: heading", "scenarios"),
    _W("keep only the cards marked {mark}", "scenario deck step", "scenarios"),
    _W("set aside the cards marked {mark}", "scenario deck step", "scenarios"),
    _W("remove {cards}", "scenario deck step", "scenarios"),
    _W("use, in this order: {cards}", "scenario deck step", "scenarios"),
    _W("shuffle", "scenario deck step", "scenarios"),
    _W("draw {n} at random", "scenario deck step", "scenarios"),
    _W(
        "draw at random by players ({per})",
        "scenario deck step; {per} lists 'players: cards'",
        "scenarios",
    ),
    _W(
        "draw at random ({per})",
        "scenario deck step; {per} lists 'difficulty: cards' or 'difficulty: 2 players 4, ...'",
        "scenarios",
    ),
    _W("deal {n} to each player", "scenario deck step: a hand of {n} cards each", "scenarios"),
    _W(
        "deal to each player ({per})",
        "scenario deck step; {per} lists '2 players: 4' or 'difficulty: 4'",
        "scenarios",
    ),
    _W("turn {n} face up", "scenario deck step: a row of {n} cards face up", "scenarios"),
    _W(
        "turn face up ({per})",
        "scenario deck step; {per} lists '2 players: 4' or 'difficulty: 4'",
        "scenarios",
    ),
    _W(
        "again at the start of each of the {n} round",
        "scenario deck step, after 'deal N to each player': hands dealt again each round",
        "scenarios",
        plural="again at the start of each of the {n} rounds",
    ),
    _W(
        "split into {n} pile",
        "scenario deck step: the deck split into {n} piles",
        "scenarios",
        plural="split into {n} piles",
    ),
    _W(
        "split into piles ({per})",
        "scenario deck step; {per} lists '2 players: 4' or 'difficulty: 4'",
        "scenarios",
    ),
    _W(
        "shuffle one card marked {mark} into each pile",
        "scenario deck step, after splitting into piles",
        "scenarios",
    ),
    _W("put on top: {cards}", "scenario deck step", "scenarios"),
    _W("put at the bottom: {cards}", "scenario deck step", "scenarios"),
    # the README of a release bundle (pnp release)
    _W(
        "Tabletop Simulator: copy the .json files of {folder} into your “Saves/Saved Objects” "
        "folder; they load their images from {url}.",
        "release README: the Tabletop Simulator export, its images on the web ({url})",
        "release",
    ),
    _W(
        "Tabletop Simulator: copy the .jpg files of {folder} into your “Mods/Images” folder and "
        "its .json files into “Saves/Saved Objects”.",
        "release README: the Tabletop Simulator export, its images on the player's computer",
        "release",
    ),
    _W(
        "{file}: a picture of every card, token and board of this copy.",
        "release README: the contact sheet, for a game page",
        "release",
    ),
    _W(
        "SHA256SUMS lists a checksum for every file of this bundle (check them with: sha256sum "
        "-c SHA256SUMS).",
        "release README: the checksums file",
        "release",
    ),
    # the translator's proof (pnp build --proof)
    _W(
        "Proof: left the source text, right the translation; red frame: does not fit (cut "
        "off at its box), red dashes: the catalog entry has an error, orange dashes: not "
        "translated yet.",
        "translator's proof (--proof): the legend",
        "proof",
    ),
    _W("overflow", "translator's proof (--proof): on a text that does not fit", "proof"),
    _W(
        "error in the catalog",
        "translator's proof (--proof): on a text whose catalog entry msgfmt refuses; the "
        "source text is printed instead",
        "proof",
    ),
)
WORDS_BY_ID = {w.msgid: w for w in SHEET_WORDS}


# --- pnp's own catalogs -----------------------------------------------------------------------


@dataclass
class Builtin:
    """pnp's translations into one language (complete entries only)."""

    lang: str
    forms: dict[str, list[str]]  # msgid -> its forms
    plural: PluralForms | None

    def get(self, msgid: str) -> list[str] | None:
        return self.forms.get(msgid)


@functools.lru_cache(maxsize=32)  # shared on purpose: files of the installed package
def builtin(lang: str) -> Builtin | None:
    """pnp's own catalog for ``lang`` (``pt_BR`` falls back to ``pt``), or None."""
    from .po import parse
    from .pocheck import scan_po

    for code in dict.fromkeys((lang, lang.split("_")[0])):
        path = LOCALE_DIR / code / "LC_MESSAGES" / "pnp.po"
        if not path.is_file():
            continue
        scan = scan_po(path.read_bytes())
        if scan.errors or scan.text is None:
            return None  # a broken file in the package: tests keep this from shipping
        catalog = parse(scan.text, scan.charset)
        return Builtin(code, _complete(catalog), scan.plural)
    return None


def _complete(catalog: Catalog) -> dict[str, list[str]]:
    return {e.msgid: list(e.msgstr) for e in catalog.entries if e.complete}


def plural_index(plural: PluralForms | None, lang: str, n: int) -> int:
    """Which plural form ``n`` takes: by the catalog's rule, else by the language's usual one."""
    if plural is None:
        from .plural import plural_forms_for

        try:
            plural = parse_plural_forms(plural_forms_for(lang))
        except PluralError:
            return 0 if n == 1 else 1
    return plural.index(n)


def gettext(message: str, lang: str) -> str:
    """``message`` in ``lang`` from pnp's own catalog, else as written (English)."""
    cat = builtin(lang) if lang != SOURCE_LANGUAGE else None
    forms = cat.get(message) if cat else None
    return forms[0] if forms else message


def terminal_language() -> str:
    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = os.environ.get(var, "")
        if value and value not in ("C", "POSIX") and not value.startswith("C."):
            return value.split(".")[0].split(":")[0]
    return "en"


def tr(message: str) -> str:
    """A terminal message in the user's language."""
    return gettext(message, terminal_language())


def ngettext(singular: str, plural: str, n: int, lang: str | None = None) -> str:
    """A terminal message with a number, in the form the user's language gives ``n`` (English:
    ``singular`` for 1, else ``plural``); format ``{n}`` yourself."""
    lang = lang or terminal_language()
    cat = builtin(lang) if lang.split("_")[0] != SOURCE_LANGUAGE else None
    forms = cat.get(singular) if cat else None
    if forms and len(forms) > 1:
        i = plural_index(cat.plural if cat else None, lang, n)
        if 0 <= i < len(forms):
            return forms[i]
    return singular if n == 1 else plural
