"""Issue 30, item 5: Tabletop Simulator for other players.

``--tts-url BASE`` names every image ``BASE/<file>`` (files named so that a plain upload of the
folder works); each card's Nickname and Description are its title and text in the export's
language; tokens are custom tiles (round, hexagonal or square, each with its own images) in a
bag per token set and boards custom boards, in the same saved object as the decks
(``GAME.table.json``); ``--png`` writes the boards too. The saved object is read as JSON and
its fields checked against TTS's documented ones; every CardID is checked against the sheet
cell that holds it, and every image URL against the file it names.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
from PIL import Image, ImageChops
from typer.testing import CliRunner

from pnp.build.pipeline import BuildOptions, build
from pnp.cli.commands import app
from pnp.content.load import open_root
from pnp.core.findings import Report
from pnp.core.units import px
from pnp.printing.exporters import Png, PrintPdf, Tts

from helpers import FIXTURES, make_root

BASE = "https://example.org/games/pub tts"  # a space: the names are quoted in the URLs
runner = CliRunner()


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """The Italian export of the publishing fixture, with PNG faces at 50 dpi."""
    tmp = tmp_path_factory.mktemp("tts")
    root = make_root(tmp, FIXTURES / "publish")
    url = BASE.replace(" ", "%20")
    opts = BuildOptions(
        langs=("it",),
        out_dir=tmp / "out",
        exports=(PrintPdf(), Png(dpi=50), Tts(dpi=50, url=url)),
        jobs=1,
    )
    build(open_root(root), ["pub"], opts, Report())
    folder = tmp / "out/pub/pub-it-tts"
    table = json.loads((folder / "pub.table.json").read_text("utf-8"))
    return folder, table


def _file(folder: Path, url: str) -> Path:
    """The file of the folder a URL names (the folder uploaded to BASE)."""
    prefix = BASE.replace(" ", "%20") + "/"
    assert url.startswith(prefix), url
    path = folder / unquote(url[len(prefix) :])
    assert path.is_file(), url
    return path


def _image(path: Path) -> Image.Image:
    with Image.open(path) as im:
        return im.convert("RGB")


def _near(a: Image.Image, b: Image.Image) -> bool:
    """The same picture but for JPEG's loss."""
    diff = ImageChops.difference(a, b).convert("L")
    return sum(diff.histogram()[48:]) <= a.width * a.height // 500


def test_every_url_names_a_file_of_the_folder(made: tuple[Path, dict[str, Any]]) -> None:
    folder, table = made
    urls: list[str] = []

    def walk(obj: Any) -> None:
        if isinstance(obj, dict):
            for key, value in obj.items():
                if key in ("FaceURL", "BackURL", "ImageURL", "ImageSecondaryURL") and value:
                    urls.append(value)
                walk(value)
        elif isinstance(obj, list):
            for value in obj:
                walk(value)

    walk(table)
    assert len(urls) > 10
    named = {_file(folder, u).name for u in urls}
    images = {p.name for p in folder.glob("*.jpg")}
    assert named == images, "every image is used, and a plain upload of the folder serves all"
    for name in ("pub.decks.json", "voyages.json", "captains.json"):
        assert "file://" not in (folder / name).read_text("utf-8")


def test_cards_carry_their_title_and_text(made: tuple[Path, dict[str, Any]]) -> None:
    folder, table = made
    decks = {o["Nickname"]: o for o in table["ObjectStates"] if o["Name"] == "Deck"}
    assert set(decks) == {"Viaggi", "Capitani"}  # the Italian names
    cards = {c["Memo"]: c for c in decks["Viaggi"]["ContainedObjects"]}
    assert cards["north"]["Nickname"] == "Vento del nord"
    assert cards["north"]["Description"] == "Muovi di 2 spazi e prendi 1 coin."
    assert cards["calm"]["Description"] == "Non succede nulla."
    png = folder.with_name("pub-it-png")
    ids = {"Viaggi": "voyages", "Capitani": "captains"}
    for name, deck in decks.items():
        for card in deck["ContainedObjects"]:  # each CardID is the cell that shows the card
            key = str(card["CardID"] // 100)
            entry = deck["CustomDeck"][key]
            sheet = _image(_file(folder, entry["FaceURL"]))
            cols, rows = entry["NumWidth"], entry["NumHeight"]
            w, h = sheet.width // cols, sheet.height // rows
            r, c = divmod(card["CardID"] % 100, cols)
            cell = sheet.crop((c * w, r * h, (c + 1) * w, (r + 1) * h))
            face = _image(png / f"{ids[name]}-{card['Memo']}-front.png")
            assert _near(cell, face), card["Memo"]


def test_tokens_are_tiles_in_a_bag(made: tuple[Path, dict[str, Any]]) -> None:
    folder, table = made
    (bag,) = [o for o in table["ObjectStates"] if o["Name"] == "Bag"]
    assert bag["Nickname"] == "Lanterne"
    tiles = bag["ContainedObjects"]
    assert sorted(t["Memo"] for t in tiles) == ["dim", "dim", "lit", "lit"]
    png = folder.with_name("pub-it-png")
    for tile in tiles:
        assert tile["Name"] == "Custom_Tile"
        image = tile["CustomImage"]
        assert set(image) == {
            "ImageURL",
            "ImageSecondaryURL",
            "ImageScalar",
            "WidthScale",
            "CustomTile",
        }
        assert image["CustomTile"]["Type"] == 2  # a circle
        assert image["CustomTile"]["Stackable"] is True
        front = _image(_file(folder, image["ImageURL"]))
        assert _near(front, _image(png / f"lanterns-{tile['Memo']}-front.png"))
        back = _image(_file(folder, image["ImageSecondaryURL"]))
        assert _near(back, _image(png / "lanterns-back.png"))
    assert {t["Nickname"] for t in tiles} == {"Accesa", "Fioca"}


def test_boards_are_custom_boards_and_pngs(made: tuple[Path, dict[str, Any]]) -> None:
    folder, table = made
    (board,) = [o for o in table["ObjectStates"] if o["Name"] == "Custom_Board"]
    assert board["Nickname"] == "Il porto" and board["Memo"] == "harbour"
    image = _image(_file(folder, board["CustomImage"]["ImageURL"]))
    png = folder.with_name("pub-it-png") / "board-harbour-front.png"
    face = _image(png)
    assert face.size == (px(203.2, 50), px(203.2, 50))  # --png writes the board too
    assert _near(image, face)


def test_the_decks_file_and_each_deck_stay_as_they_were(made: tuple[Path, Any]) -> None:
    folder, table = made
    decks = json.loads((folder / "pub.decks.json").read_text("utf-8"))["ObjectStates"]
    assert [o["GUID"] for o in decks] == [
        o["GUID"] for o in table["ObjectStates"] if o["Name"] == "Deck"
    ]
    for name in ("voyages", "captains"):
        (alone,) = json.loads((folder / f"{name}.json").read_text("utf-8"))["ObjectStates"]
        assert alone["Name"] == "Deck"


def test_the_url_option(tmp_path: Path) -> None:
    root = make_root(tmp_path, FIXTURES / "publish")
    common = ["build", "pub", "--lang", "en", "--root", str(root), "--out", str(tmp_path / "o")]
    alone = runner.invoke(app, [*common, "--tts-url", "https://example.org/x"])
    assert alone.exit_code == 2 and "--tts-url needs --tts" in alone.stderr
    for bad in ("ftp://example.org/x", "example.org/x", "https://example.org/x?y=1", "https:// a"):
        result = runner.invoke(app, [*common, "--tts", "--tts-url", bad])
        assert result.exit_code == 2, bad
        assert "--tts-url" in result.stderr
    assert not (tmp_path / "o").exists()
    good = runner.invoke(app, [*common, "--tts", "--tts-url", "https://example.org/x/"])
    assert good.exit_code == 0, good.stderr
    saved = (tmp_path / "o/pub/pub-en-tts/voyages.json").read_text("utf-8")
    assert '"FaceURL": "https://example.org/x/voyages-faces-1.jpg"' in saved
