"""Issue 30, item 4: ``pnp release GAME``, one ZIP to publish a print-and-play.

The release of the publishing fixture is unpacked and read as a player would: the PDF of every
language on A4 and Letter (the same bytes as the build's), a README in each language with each
PDF's printing advice and what it holds, page by page, a picture of every face, the Tabletop
Simulator export (its images named so that it loads with them), the version, and SHA256SUMS
that check. Two releases of the same inputs are the same bytes. A game with errors is refused,
with nothing written; the warnings a release carries are said.
"""

from __future__ import annotations

import hashlib
import json
import zipfile
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from typer.testing import CliRunner

from pnp.cli.commands import app

from helpers import FIXTURES, make_root

runner = CliRunner()


def run(*args: str) -> Any:
    return runner.invoke(app, list(args), catch_exceptions=False)


@pytest.fixture(scope="module")
def released(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Any]:
    tmp = tmp_path_factory.mktemp("release")
    root = make_root(tmp, FIXTURES / "publish")
    result = run("release", "pub", "--root", str(root), "--out", str(tmp / "out"), "-j", "1")
    assert result.exit_code == 0, result.stderr
    return root, tmp / "out/pub/pub-2.1.zip", result


def test_the_bundle_holds_what_a_player_needs(
    released: tuple[Path, Path, Any], tmp_path: Path
) -> None:
    _root, path, result = released
    assert "wrote " in result.stdout and "pub-2.1.zip" in result.stdout
    with zipfile.ZipFile(path) as zf:
        names = zf.namelist()
        assert names == sorted(names), "entries in name order"
        for info in zf.infolist():
            assert info.date_time == (2026, 3, 1, 0, 0, 0)  # the content's date
            assert info.create_system == 3 and info.external_attr >> 16 == 0o100644
        zf.extractall(tmp_path)
    top = tmp_path / "pub-2.1"
    assert {p.name for p in top.iterdir()} == {
        "README-en.txt",
        "README-it.txt",
        "SHA256SUMS",
        "VERSION",
        "pub-en-a4.pdf",
        "pub-en-letter.pdf",
        "pub-it-a4.pdf",
        "pub-it-letter.pdf",
        "pub-en-contact.jpg",
        "pub-it-contact.jpg",
        "pub-en-tts",
        "pub-it-tts",
    }
    built = path.parent
    for pdf in top.glob("*.pdf"):  # the very PDFs of the build
        assert pdf.read_bytes() == (built / pdf.name).read_bytes()
    # SHA256SUMS checks every other file
    sums = dict(
        reversed(line.split("  ", 1)) for line in (top / "SHA256SUMS").read_text().splitlines()
    )
    files = {p.relative_to(top).as_posix() for p in top.rglob("*") if p.is_file()}
    assert set(sums) == files - {"SHA256SUMS"}
    for name, digest in sums.items():
        assert hashlib.sha256((top / name).read_bytes()).hexdigest() == digest, name
    assert "version: 2.1" in (top / "VERSION").read_text()
    assert "papers: A4, Letter" in (top / "VERSION").read_text()


def test_each_readme_is_in_its_language(released: tuple[Path, Path, Any], tmp_path: Path) -> None:
    _root, path, _result = released
    with zipfile.ZipFile(path) as zf:
        en = zf.read("pub-2.1/README-en.txt").decode("utf-8")
        it = zf.read("pub-2.1/README-it.txt").decode("utf-8")
    assert en.startswith("Harbour Lights\n") and it.startswith("Luci del porto\n")
    assert "Content pack version 2.1, 2026-03-01" in en
    for text, heading, bring in (
        (en, "How to print", "A six-sided die: not printed: bring your own"),
        (it, "Come stampare", "Un dado a sei facce: non stampato: procuratelo voi"),
    ):
        assert text.count(heading) == 2, "the advice of each paper's PDF"
        assert bring in text
    assert "== pub-en-a4.pdf ==" in en and "== pub-en-letter.pdf ==" in en
    assert "- Print at 100 % (actual size), never “fit to page”." in en
    assert "- 12 voyage cards: pages 3–6" in en  # what the copy holds, with its pages
    assert "laid out for Letter paper (215.9 × 279.4 mm)" in en
    assert "Tabletop Simulator" in it and "pub-it-tts" in it
    assert "sha256sum -c SHA256SUMS" in en


def test_the_picture_and_the_tts_export(released: tuple[Path, Path, Any], tmp_path: Path) -> None:
    _root, path, result = released
    with zipfile.ZipFile(path) as zf:
        zf.extractall(tmp_path)
    top = tmp_path / "pub-2.1"
    with Image.open(top / "pub-en-contact.jpg") as im:
        assert im.format == "JPEG" and im.width > 500 and im.height > 500
    tts = top / "pub-en-tts"
    table = json.loads((tts / "pub.table.json").read_text("utf-8"))
    kinds = sorted(o["Name"] for o in table["ObjectStates"])
    assert kinds == ["Bag", "Custom_Board", "Deck", "Deck"]
    text = (tts / "pub.table.json").read_text("utf-8")
    assert "file://" not in text, "no path of the machine that made it"
    for image in json.loads(text)["ObjectStates"][0]["CustomDeck"].values():
        assert (tts / image["FaceURL"]).is_file() and (tts / image["BackURL"]).is_file()
    assert "--tts-url" in result.stdout  # the publisher is told how to put them online


def test_a_release_is_byte_stable(released: tuple[Path, Path, Any], tmp_path: Path) -> None:
    root, first, _result = released
    again = run("release", "pub", "--root", str(root), "--out", str(tmp_path / "o"), "-j", "1")
    assert again.exit_code == 0, again.stderr
    assert (tmp_path / "o/pub/pub-2.1.zip").read_bytes() == first.read_bytes()


def test_images_on_the_web(tmp_path: Path) -> None:
    root = make_root(tmp_path, FIXTURES / "publish")
    out = tmp_path / "out"
    url = "https://example.org/pub"
    result = run("release", "pub", "--tts-url", url, "--root", str(root), "--out", str(out))
    assert result.exit_code == 0, result.stderr
    with zipfile.ZipFile(out / "pub/pub-2.1.zip") as zf:
        deck = json.loads(zf.read("pub-2.1/pub-it-tts/voyages.json"))
        readme = zf.read("pub-2.1/README-it.txt").decode("utf-8")
    entry = next(iter(deck["ObjectStates"][0]["CustomDeck"].values()))
    assert entry["FaceURL"] == f"{url}/voyages-faces-1.jpg"
    assert f"{url}/" in readme


def test_a_game_with_errors_is_not_released(tmp_path: Path) -> None:
    root = make_root(tmp_path, FIXTURES / "publish")
    game = root / "cards/pub/game.yaml"
    game.write_text(
        game.read_text().replace("deck: voyages, count: 12", "deck: voyages, count: 13")
    )
    out = tmp_path / "out"
    result = run("release", "pub", "--root", str(root), "--out", str(out))
    assert result.exit_code == 1
    assert "error [box-count]" in result.stderr
    assert not out.exists()


def test_the_warnings_it_carries_are_said(tmp_path: Path) -> None:
    root = make_root(tmp_path, FIXTURES / "publish")
    decks = root / "cards/pub/decks.yaml"
    decks.write_text(
        decks.read_text().replace(
            "      - id: calm\n", "      - id: calm\n        placeholder: true\n"
        )
    )
    out = tmp_path / "out"
    result = run("release", "pub", "--root", str(root), "--out", str(out), "-j", "1")
    assert result.exit_code == 0, result.stderr
    assert "warning [placeholder]" in result.stderr
    assert "the release carries 1 warning (placeholder)" in result.stdout
    assert (out / "pub/pub-2.1.zip").is_file()


def test_usage_errors(tmp_path: Path) -> None:
    root = make_root(tmp_path, FIXTURES / "publish")
    assert run("release", "nowhere", "--root", str(root)).exit_code == 2
    bad = run("release", "pub", "--tts-url", "nope", "--root", str(root))
    assert bad.exit_code == 2 and not (root / "output").exists()
