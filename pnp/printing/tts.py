"""Tabletop Simulator decks: sheets within TTS's limits, and a saved object that imports them.

TTS reads a custom deck from a sheet image cut into a grid of at most 10 columns by 7 rows.
With ``BackIsHidden`` false, TTS shows the sheet's last cell to the other players in place of
a card held in a hand; pnp sets it true, so a card in a hand shows its back, as a real card
does, and every one of the 70 cells can hold a card. A sheet holds each distinct face once:
the copies of a card are several cards with the same ``CardID`` in the deck.

A sheet is sized to its deck: the grid whose longer side is shortest (so the cards keep the most
pixels within the size limit), with no empty row or column; a deck of more than 70 distinct
cards is spread evenly over several sheets. TTS recommends sheets of at most 4096 px a side;
a sheet that would be larger at the asked resolution is drawn at a lower one, and the plan says
so (``scaled``) for the terminal to report.

Sheets are JPEG (quality 95, colour at full resolution), which TTS reads as it reads PNG: on a
screen texture the loss cannot be seen, a JPEG is written 5-12 times faster than a PNG (so the
sheets add little to a build that also writes every face as a lossless PNG), and a sheet of
art is a third of its PNG's size for players to download (a sheet of flat text cards is about
twice its PNG's).
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote, urlsplit

from ..content.model import Card, Deck
from ..core.errors import UsageError
from ..core.units import MM_PER_INCH, Size, px

if TYPE_CHECKING:  # pdfium is loaded when faces are drawn
    from .export import FacePage

TTS_COLS, TTS_ROWS = 10, 7
TTS_CARDS = TTS_COLS * TTS_ROWS  # BackIsHidden: the last cell holds a card too
TTS_MAX_PX = 4096  # TTS's recommended largest side of a deck sheet
TTS_DPI = 300.0  # the resolution asked of sheets when --png does not ask one
POKER_MM = (63.5, 88.9)  # the size of TTS's own card (2.5 x 3.5 in), scale 1
GREY = {"r": 0.713235259, "g": 0.713235259, "b": 0.713235259}  # TTS's default tint


@dataclass(frozen=True)
class Sheet:
    """One image of the export: a grid of faces, each cell ``cell`` px, row-major."""

    file: str  # e.g. roles-faces-1.jpg
    cols: int
    rows: int
    cell: tuple[int, int]
    dpi: float  # the resolution the cells have (lower than asked when scaled)
    cells: tuple[str | None, ...]  # the face (a FacePage name) in each cell; None: blank
    folder: str = "tts"  # the exporter whose folder it goes to (printing.exporters)

    @property
    def size(self) -> tuple[int, int]:
        return self.cols * self.cell[0], self.rows * self.cell[1]


@dataclass
class DeckSheets:
    """A deck's sheets and where each of its cards is on them."""

    deck: Deck
    fronts: list[Sheet] = field(default_factory=list)
    backs: list[Sheet] = field(default_factory=list)  # unique backs: same grids as fronts
    back: Sheet | None = None  # the shared back, one image
    keys: list[int] = field(default_factory=list)  # the CustomDeck number of each sheet
    where: dict[str, tuple[int, int]] = field(default_factory=dict)  # card id -> (key, cell)
    scaled: bool = False  # drawn below the asked resolution to keep within the size limit

    @property
    def sheets(self) -> list[Sheet]:
        return [*self.fronts, *self.backs, *([self.back] if self.back else [])]


def grid(n: int, size: Size) -> tuple[int, int]:
    """Columns and rows for ``n`` faces (1..70) of ``size``: the grid within 10 x 7 whose
    longer side is shortest, then the one with fewer empty cells; never an empty row or column."""
    if not 1 <= n <= TTS_CARDS:
        raise ValueError(f"a sheet holds 1 to {TTS_CARDS} cards, not {n}")
    best: tuple[float, int, int, int] | None = None
    for rows in range(1, TTS_ROWS + 1):
        cols = math.ceil(n / rows)
        empty = cols * rows - n
        if cols > TTS_COLS or empty >= cols:  # too wide, or a whole row left empty
            continue
        key = (round(max(cols * size.w, rows * size.h), 6), empty, cols, rows)
        if best is None or key < best:
            best = key
    assert best is not None  # rows = 7 always fits 70 cards
    return best[2], best[3]


def fit(size: Size, cols: int, rows: int, dpi: float, max_px: int) -> tuple[tuple[int, int], float]:
    """The cell of a ``cols`` x ``rows`` sheet at ``dpi``, or at the lower resolution that keeps
    the sheet within ``max_px`` a side; and that resolution. A face drawn at the resolution
    returned is exactly the cell."""
    cell = (px(size.w, dpi), px(size.h, dpi))
    most = (max_px // cols, max_px // rows)
    if cell[0] <= most[0] and cell[1] <= most[1]:
        return cell, dpi
    eff = min(most[0] * MM_PER_INCH / size.w, most[1] * MM_PER_INCH / size.h)
    return (px(size.w, eff), px(size.h, eff)), eff


def _chunks(items: list[Card], most: int) -> list[list[Card]]:
    """``items`` over as few sheets as hold them, as evenly as possible."""
    count = math.ceil(len(items) / most)
    per = math.ceil(len(items) / count)
    return [items[i : i + per] for i in range(0, len(items), per)]


def plan_decks(
    decks: list[Deck],
    faces: list[FacePage],
    sizes: dict[str, Size],
    dpi: float,
    max_px: int = TTS_MAX_PX,
) -> list[DeckSheets]:
    """The sheets of every deck with cards in the box, numbered 1, 2, ... across the game."""
    by_key = {(f.owner, f.card, f.side): f.name for f in faces}
    out: list[DeckSheets] = []
    key = 0
    for deck in decks:
        cards = [c for c in deck.cards if c.copies > 0]
        if not cards:
            continue
        size = sizes[deck.id]
        plan = DeckSheets(deck)
        unique = any(c.back is not None for c in cards)
        shared = by_key.get((deck.id, "", "back"))
        chunks = _chunks(cards, TTS_CARDS)
        for n, chunk in enumerate(chunks, 1):
            cols, rows = grid(len(chunk), size)
            cell, eff = fit(size, cols, rows, dpi, max_px)
            plan.scaled = plan.scaled or eff < dpi
            blank = (None,) * (cols * rows - len(chunk))
            fronts = tuple(by_key[(deck.id, c.id, "front")] for c in chunk) + blank
            plan.fronts.append(Sheet(f"{deck.id}-faces-{n}.jpg", cols, rows, cell, eff, fronts))
            if unique:
                backs = tuple(by_key.get((deck.id, c.id, "back"), shared) for c in chunk)
                sheet = Sheet(f"{deck.id}-backs-{n}.jpg", cols, rows, cell, eff, backs + blank)
                plan.backs.append(sheet)
            key += 1
            plan.keys.append(key)
            for i, card in enumerate(chunk):
                plan.where[card.id] = (key, i)
        if not unique:
            one, eff = fit(size, 1, 1, dpi, max_px)
            plan.scaled = plan.scaled or eff < dpi
            plan.back = Sheet(f"{deck.id}-back.jpg", 1, 1, one, eff, (shared,))
        out.append(plan)
    return out


# --- where the images are -----------------------------------------------------------------------
def base_url(url: str) -> str:
    """``--tts-url``: the web address the folder of sheets will be uploaded to (http or
    https, with a host; no query or fragment), without its last slash. UsageError otherwise."""
    from ..i18n.words import tr

    parts = urlsplit(url.strip())
    if (
        parts.scheme not in ("http", "https")
        or not parts.netloc
        or parts.query
        or parts.fragment
        or any(c.isspace() or ord(c) < 32 for c in url.strip())
    ):
        raise UsageError(
            tr(
                "--tts-url {url!r}: give the web address of the folder the images will be "
                "uploaded to, like https://example.org/my-game/tts"
            ).format(url=url)
        )
    return url.strip().rstrip("/")


def address(folder: Path, file: str, url: str | None) -> str:
    """Where a saved object finds ``file``: ``URL/file`` when the folder is uploaded to
    ``url``; the bare name for ``url`` "" (a release that does not know it yet); else the
    file on this machine (file:///)."""
    if url is None:
        return (folder / file).as_uri()
    if not url:
        return file
    return f"{url}/{quote(file)}"


# --- the saved object -------------------------------------------------------------------------
def _guid(*parts: str) -> str:
    """Six hex digits, as TTS writes them; from the names, so a build is byte-stable."""
    return hashlib.sha1("/".join(parts).encode()).hexdigest()[:6]


def _transform(x: float, size: Size, face_down: bool) -> dict[str, float]:
    w, h = sorted((size.w, size.h))  # a landscape card is a portrait card turned (SidewaysCard)
    return {
        "posX": x,
        "posY": 1.0,
        "posZ": 0.0,
        "rotX": 0.0,
        "rotY": 180.0,
        "rotZ": 180.0 if face_down else 0.0,
        "scaleX": round(w / POKER_MM[0], 4),
        "scaleY": 1.0,
        "scaleZ": round(h / POKER_MM[1], 4),
    }


def _object(
    name: str, guid: str, nickname: str, transform: dict[str, float], description: str = ""
) -> dict[str, object]:
    return {
        "GUID": guid,
        "Name": name,
        "Transform": transform,
        "Nickname": nickname,
        "Description": description,
        "GMNotes": "",
        "ColorDiffuse": dict(GREY),
        "Locked": False,
        "Grid": True,
        "Snap": True,
        "IgnoreFoW": False,
        "Autoraise": True,
        "Sticky": True,
        "Tooltip": True,
        "GridProjection": False,
        "HideWhenFaceDown": True,
        "Hands": name == "Card",
    }


def _custom_deck(
    plan: DeckSheets, folder: Path, url: str | None = None
) -> dict[str, dict[str, object]]:
    entries: dict[str, dict[str, object]] = {}
    for i, (key, front) in enumerate(zip(plan.keys, plan.fronts, strict=True)):
        back = plan.backs[i] if plan.backs else plan.back
        assert back is not None
        entries[str(key)] = {
            "FaceURL": address(folder, front.file, url),
            "BackURL": address(folder, back.file, url),
            "NumWidth": front.cols,
            "NumHeight": front.rows,
            "BackIsHidden": True,
            "UniqueBack": bool(plan.backs),
            "Type": 0,  # rounded rectangle
        }
    return entries


Words = Callable[[Card], str]


@dataclass(frozen=True)
class Names:
    """What a saved object calls things, in the export's language: a card's Nickname (its
    title) and Description (its text), a deck's name; and where its images are (``url``:
    see :func:`address`)."""

    title: Words
    name: Callable[[Deck], str]
    describe: Words | None = None
    url: str | None = None


def deck_object(
    plan: DeckSheets, folder: Path, size: Size, names: Names, x: float
) -> dict[str, object]:
    """The deck as TTS saves it: a Deck holding one Card per copy (a lone card is a Card)."""
    custom = _custom_deck(plan, folder, names.url)
    title = names.title
    sideways = size.w > size.h
    cards: list[dict[str, object]] = []
    ids: list[int] = []
    for card in plan.deck.cards:
        if card.id not in plan.where:
            continue
        key, cell = plan.where[card.id]
        cid = key * 100 + cell
        for copy in range(card.copies):
            obj = _object(
                "Card",
                _guid(plan.deck.id, card.id, str(copy)),
                title(card),
                _transform(0, size, True),
                names.describe(card) if names.describe else "",
            )
            obj.update(CardID=cid, SidewaysCard=sideways, CustomDeck={str(key): custom[str(key)]})
            obj["Memo"] = card.id  # for scripts: the card's id in the game's YAML
            cards.append(obj)
            ids.append(cid)
    if len(cards) == 1:
        lone = cards[0]
        lone["Transform"] = _transform(x, size, True)
        return lone
    deck = _object("Deck", _guid(plan.deck.id), names.name(plan.deck), _transform(x, size, True))
    deck.update(SidewaysCard=sideways, DeckIDs=ids, CustomDeck=custom, ContainedObjects=cards)
    return deck


def saved_object(objects: list[dict[str, object]]) -> bytes:
    """A TTS saved object (the JSON of a file in "Saves/Saved Objects") holding ``objects``."""
    save = {
        "SaveName": "",
        "Date": "",
        "VersionNumber": "",
        "GameMode": "",
        "GameType": "",
        "GameComplexity": "",
        "Tags": [],
        "Gravity": 0.5,
        "PlayArea": 0.5,
        "Table": "",
        "Sky": "",
        "Note": "",
        "TabStates": {},
        "LuaScript": "",
        "LuaScriptState": "",
        "XmlUI": "",
        "ObjectStates": objects,
    }
    return (json.dumps(save, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def plain(text: str, values: Mapping[str, object] | None = None) -> str:
    """A card's title or text as TTS shows it: without pnp's markup, a {value} of the card
    written out, an {icon} by its name."""
    text = re.sub(r"\*\*|__|(?<!\w)_(?=\S)|(?<=\S)_(?!\w)", "", text)
    given = values or {}

    def value(m: re.Match[str]) -> str:
        name = m.group(1)
        return str(given[name]) if name in given else name

    return re.sub(r"\{([a-z0-9_-]+)\}", value, text).strip()


def saved_objects(
    game_id: str,
    decks: list[DeckSheets],
    folder: Path,
    sizes: dict[str, Size],
    names: Names,
    table: list[dict[str, object]] | None = None,
) -> dict[str, bytes]:
    """A saved object per deck (``DECK.json``), one with every deck side by side
    (``GAME.decks.json``; deck ids have no dots, so the names cannot clash), and one with the
    whole table, the decks and ``table``'s tokens and boards (``GAME.table.json``)."""
    files: dict[str, bytes] = {}
    every: list[dict[str, object]] = []
    for i, plan in enumerate(decks):
        deck = plan.deck
        size = sizes[deck.id]
        files[f"{deck.id}.json"] = saved_object([deck_object(plan, folder, size, names, 0.0)])
        every.append(deck_object(plan, folder, size, names, i * SPACING))
    if every:
        files[f"{game_id}.decks.json"] = saved_object(every)
    if every or table:
        files[f"{game_id}.table.json"] = saved_object([*every, *(table or [])])
    return files


SPACING = 4.0  # TTS units between two decks of the game's saved object
