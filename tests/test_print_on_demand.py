"""Issue 30, items 1 and 2: print-on-demand profiles (``pnp build GAME --for PROFILE``,
``pnp validate GAME --for PROFILE``).

A game of our own (tests/fixtures/publish: US poker cards with art to the edge, a deck with a
back for each card, round 1 in tokens, an 8 x 8 in board) exported for each bundled profile:
every file's pixel size and name against the profile, the bleed drawn from the art (never
white), fronts and backs paired as the shop wants them, a PDF of one face a page with its trim
and bleed boxes where the shop takes PDFs. A safe-zone violation planted in a layout is
reported at the layout element's line, per face and language; a size the shop cannot print
is an error naming the sizes it can; a profile is data a content root can copy and change.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium
import pytest
from PIL import Image
from pypdf import PdfReader
from typer.testing import CliRunner

from pnp.build.pipeline import BuildOptions, build
from pnp.cli.commands import app
from pnp.content.load import open_root
from pnp.content.profiles import available, read_profile
from pnp.core.findings import Report
from pnp.printing.exporters import PrintOnDemand, PrintPdf

from helpers import FIXTURES, make_root

runner = CliRunner()
PROFILES = ["thegamecrafter", "drivethrucards", "makeplayingcards"]


def run(*args: str) -> Any:
    return runner.invoke(app, list(args), catch_exceptions=False)


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_root(tmp_path_factory.mktemp("pub"), FIXTURES / "publish")


def _build(root: Path, name: str, out: Path, lang: str = "en") -> tuple[Any, Path, Report]:
    report = Report()
    profile = read_profile(open_root(root), name, report)
    assert profile is not None, [f.text() for f in report.findings]
    opts = BuildOptions(
        langs=(lang,),
        out_dir=out,
        exports=(PrintPdf(), PrintOnDemand(profile=profile)),
        jobs=1,
        force=True,
    )
    (made,) = build(open_root(root), ["pub"], opts, report)
    return made, out / "pub" / f"pub-{lang}-{name}", report


def _files(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


def _image(path: Path) -> Image.Image:
    with Image.open(path) as im:
        assert im.info["dpi"] == pytest.approx((300, 300), abs=0.01)
        return im.convert("RGB")


def _white(im: Image.Image, band: int) -> int:
    """Near-white pixels in the outer ``band`` pixels of an image (its bleed and beyond)."""
    w, h = im.size
    count = 0
    for x, y in ((x, y) for y in range(h) for x in range(0, w, 3)):
        if band <= x < w - band and band <= y < h - band:
            continue
        r, g, b = im.getpixel((x, y))  # type: ignore[misc]
        count += r > 235 and g > 235 and b > 235
    return count


def test_the_bundled_profiles() -> None:
    assert set(PROFILES) <= set(available(None))
    for name in PROFILES:
        report = Report()
        profile = read_profile(None, name, report)
        assert profile is not None and not report.findings, name
        for product in profile.products:  # every image holds its trim with some bleed
            bx, by = product.bleed
            assert 2.5 <= bx <= 4 and 2.5 <= by <= 4, (name, product.id, product.bleed)


def test_the_game_crafter(root: Path, tmp_path: Path) -> None:
    made, folder, _report = _build(root, "thegamecrafter", tmp_path)
    assert _files(folder) == [
        "captains/001-ada-back.png",
        "captains/001-ada.png",
        "captains/002-bo-back.png",
        "captains/002-bo.png",
        "captains/003-cy-back.png",
        "captains/003-cy.png",
        "harbour/001-harbour.png",
        "lanterns/001-lit.png",
        "lanterns/002-dim.png",
        "lanterns/back.png",
        "manifest.csv",
        "voyages/001-north.png",
        "voyages/002-south.png",
        "voyages/003-storm.png",
        "voyages/004-calm.png",
        "voyages/back.png",
    ]
    sizes = {"captains": (825, 1125), "voyages": (825, 1125), "lanterns": (375, 375)}
    sizes["harbour"] = (2475, 2475)  # Square Board, 8 x 8 in
    for path in folder.rglob("*.png"):
        assert _image(path).size == sizes[path.parent.name], path
    # the bleed comes from the art: no white at the edges of an art face, a back, the board
    for face in ("voyages/001-north.png", "voyages/back.png", "harbour/001-harbour.png"):
        assert _white(_image(folder / face), 38) == 0, face
    rows = list(csv.DictReader(io.StringIO((folder / "manifest.csv").read_text())))
    assert {r["card"]: (r["front"], r["back"], r["copies"]) for r in rows}["north"] == (
        "voyages/001-north.png",
        "voyages/back.png",
        "3",
    )
    assert rows[4]["back"] == "captains/001-ada-back.png"  # a card's own back, paired
    assert set(made.extra) == {folder / f for f in _files(folder)}


def test_drivethrucards_takes_a_pdf_a_deck(root: Path, tmp_path: Path) -> None:
    made, folder, report = _build(root, "drivethrucards", tmp_path)
    assert _files(folder) == ["captains.pdf", "manifest.csv", "voyages.pdf"]
    voyages = PdfReader(folder / "voyages.pdf")
    assert len(voyages.pages) == 24  # 12 cards, each copy a back then a front
    for page in voyages.pages:
        assert [round(float(v) / 72 * 300, 2) for v in page.mediabox[2:]] == [825, 1125]
        assert [float(v) for v in page.trimbox] == pytest.approx([9, 9, 189, 261])  # 1/8 in
        assert [float(v) for v in page.bleedbox] == pytest.approx([0, 0, 198, 270])
    doc = pdfium.PdfDocument(str(folder / "voyages.pdf"))
    pages = [doc[i].render(scale=30 / 72).to_pil().convert("RGB") for i in range(4)]
    assert pages[0].tobytes() == pages[2].tobytes(), "pages 1 and 3: the shared back"
    assert pages[1].tobytes() != pages[0].tobytes()
    assert _white(pages[0], 2) == 0  # the back's bleed from its art
    doc.close()
    assert len(PdfReader(folder / "captains.pdf").pages) == 6
    rows = list(csv.DictReader(io.StringIO((folder / "manifest.csv").read_text())))
    assert (rows[1]["front"], rows[1]["back"]) == ("voyages.pdf p. 8", "voyages.pdf p. 7")
    # what the shop cannot print is named in one line each, and not silently skipped
    lines = [f for f in report.findings if f.rule == "pod-product"]
    assert sorted(f.message.split(" (")[0] for f in lines) == [
        "board harbour",
        "round token set lanterns",
    ]
    assert any("CMYK" in n for n in made.notes)  # what pnp does not do is said


def test_makeplayingcards_lays_a_near_size_out_again(root: Path, tmp_path: Path) -> None:
    made, folder, _report = _build(root, "makeplayingcards", tmp_path)
    assert "voyages/fronts/001-north.png" in _files(folder)
    assert "voyages/backs/back.png" in _files(folder)
    assert "captains/backs/003-cy.png" in _files(folder)
    for path in folder.rglob("*.png"):
        assert _image(path).size == (815, 1110), path  # 63 x 88 mm + 3 mm a side
    assert any("printed as Poker Size Card (63 x 88 mm)" in n for n in made.notes)
    assert any("assumed" in n for n in made.notes), "its numbers are marked as assumptions"


def _plant(root: Path) -> Path:
    """A layout whose reversed title (for the player across the table) lies 2.3 mm from the
    bottom edge: clear of the home copy's 1.5 mm, inside a shop's 1/8 in safe zone."""
    (root / "cards/pub/layouts.yaml").write_text(
        "layouts:\n"
        "  voyage:\n"
        "    extends: card\n"
        "    elements:\n"
        "      - {name: reversed, box: [8, 83.6, 47.5, 3.6], field: title, size: 7,\n"
        "         min_size: 7, align: center, valign: middle, rotate: 180}\n",
        "utf-8",
    )
    decks = root / "cards/pub/decks.yaml"
    decks.write_text(decks.read_text().replace("  voyages:\n", "  voyages:\n    layout: voyage\n"))
    return root


def test_a_safe_zone_violation_is_reported_at_its_element(tmp_path: Path) -> None:
    root = _plant(make_root(tmp_path, FIXTURES / "publish"))
    home = run("validate", "pub", "--root", str(root))
    assert home.exit_code == 0 and "cut-clearance" not in home.stdout
    shop = run("validate", "pub", "--for", "thegamecrafter", "--root", str(root))
    assert shop.exit_code == 1
    lines = [ln for ln in shop.stdout.splitlines() if "[safe-zone]" in ln]
    assert lines and all(ln.startswith("cards/pub/layouts.yaml:5:") for ln in lines)
    assert all("The Game Crafter's safe zone (3.17 mm inside the trim)" in ln for ln in lines)
    # per face and language: each voyage front in English and Italian
    for lang in ("en", "it"):
        for card in ("north", "south", "storm", "calm"):
            assert sum(f"[{lang}] " in ln and f"(voyages/{card}/front)" in ln for ln in lines) == 1
    # a build for the shop stops there, and writes nothing
    out = tmp_path / "out"
    built = run("build", "pub", "--for", "thegamecrafter", "--out", str(out), "--root", str(root))
    assert built.exit_code == 1 and not out.exists()
    # MakePlayingCards cuts at 63 x 88 mm: the faces laid out at that size come nearer still
    mpc = run("validate", "pub", "--for", "makeplayingcards", "--root", str(root))
    assert "of its 63 x 88 mm face (voyages/north/front), inside MakePlayingCards's" in mpc.stdout


def test_what_the_cut_tolerance_says() -> None:
    from pnp.typeset.faces.cuts import Zone

    zone = Zone(3.175, "Shop", 1.5875)
    assert zone.where(1.0) == "Shop's cut tolerance (1.59 mm): it may be cut off"
    assert zone.where(2.0) == "Shop's safe zone (3.17 mm inside the trim)"


def test_a_size_the_shop_cannot_print(tmp_path: Path) -> None:
    root = make_root(tmp_path, FIXTURES / "publish")
    decks = root / "cards/pub/decks.yaml"
    decks.write_text(
        decks.read_text().replace("  captains:\n", "  captains:\n    size: [95, 60]\n")
    )
    result = run("validate", "pub", "--for", "drivethrucards", "--root", str(root))
    assert result.exit_code == 1
    (line,) = [ln for ln in result.stdout.splitlines() if "[pod-size]" in ln]
    assert line.startswith("cards/pub/decks.yaml:29:11: error [pod-size] deck captains:")
    assert "Poker Card (63.5 x 88.9 mm), Tarot Card (69.85 x 120.65 mm)" in line


def test_a_profile_copied_into_the_content_root_is_used(tmp_path: Path) -> None:
    root = make_root(tmp_path, FIXTURES / "publish")
    bundled = Path(__file__).parent.parent / "pnp/data/profiles/thegamecrafter.yaml"
    (root / "profiles").mkdir()
    own = bundled.read_text().replace('front: "{n:03}-{card}"', 'front: "{product}-{card}"')
    (root / "profiles/thegamecrafter.yaml").write_text(own)
    (root / "profiles/mine.yaml").write_text(own.replace("name: The Game Crafter", "name: Mine"))
    assert {"mine", "thegamecrafter"} <= set(available(open_root(root)))
    _made, folder, _report = _build(root, "mine", tmp_path / "out")
    assert "voyages/poker-deck-north.png" in _files(folder)


def test_a_broken_profile_is_reported_at_its_lines(tmp_path: Path) -> None:
    root = make_root(tmp_path, FIXTURES / "publish")
    (root / "profiles").mkdir()
    (root / "profiles/broken.yaml").write_text(
        "name: Broken\n"
        "dpi: 300\n"
        "safe: 3 cm\n"
        "files: {front: '{card.__class__}', images: gif}\n"
        "products:\n"
        "  poker: {kind: card, trim: 2.5x3.5in, image: [825]}\n"
        "  tiny: {kind: card, trim: 2.5x3.5in, image: [700, 1000]}\n"
    )
    out = tmp_path / "out"
    result = run("build", "pub", "--for", "broken", "--out", str(out), "--root", str(root))
    assert result.exit_code == 1 and not out.exists()
    found = [
        ln.split(": error [profile] ")[0] for ln in result.stderr.splitlines() if "[profile]" in ln
    ]
    assert found == [
        "profiles/broken.yaml:3:7",  # safe: not a length
        "profiles/broken.yaml:4:16",  # files: front reads an attribute
        "profiles/broken.yaml:4:44",  # files: images gif
        "profiles/broken.yaml:6:47",  # image: [825]
        "profiles/broken.yaml:7:46",  # image smaller than the trim
    ], result.stderr


def test_an_unknown_profile_is_a_usage_error(root: Path) -> None:
    result = run("build", "pub", "--for", "nowhere", "--root", str(root))
    assert result.exit_code == 2
    assert "drivethrucards, makeplayingcards, thegamecrafter" in result.stderr
    result = run("validate", "pub", "--for", "../x", "--root", str(root))
    assert result.exit_code == 2


def test_a_failed_export_leaves_nothing(root: Path, tmp_path: Path, monkeypatch: Any) -> None:
    from pnp.printing import raster

    def broken(*args: Any, **kw: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(raster, "run", broken)
    with pytest.raises(OSError):
        _build(root, "thegamecrafter", tmp_path)
    assert not [p for p in tmp_path.rglob("*") if p.is_file()]


def test_the_home_copy_is_unchanged_by_a_shop(root: Path, tmp_path: Path) -> None:
    report = Report()
    plain = BuildOptions(langs=("en",), out_dir=tmp_path / "a", jobs=1, force=True)
    (a,) = build(open_root(root), ["pub"], plain, report)
    b, _folder, _report = _build(root, "thegamecrafter", tmp_path / "b")
    assert a.path.read_bytes() == b.path.read_bytes()
