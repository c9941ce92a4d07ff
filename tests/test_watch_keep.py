"""`pnp watch` keeps the PDFs an edit cannot have changed: what each language prints is digested
(pnp.build.keep), an English edit leaves the Italian PDF as it was, and anything that may
change a language's print (its own texts, the source it falls back to, counts, files, the PDF
touched on disk) renders it again."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from pnp.build.keep import printed_digests
from pnp.build.pipeline import BuildOptions, build
from pnp.content.load import open_root
from pnp.core.findings import Report
from pnp.core.run import running
from pnp.designer.watch import Watcher
from pnp.validate import validate

from helpers import FIXTURES, lower_overflow, make_root

REPO = Path(__file__).resolve().parent.parent


def _digests(root: Path) -> dict[str, str]:
    with running(fresh=True):
        report = Report()
        game = validate(open_root(root), ["mini"], report, fit_languages=[])["mini"]
        return printed_digests(game, ["en", "it"], [])


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text("utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), "utf-8")


def test_each_language_digest_follows_what_it_prints(tmp_path: Path) -> None:
    root = make_root(tmp_path, FIXTURES / "clean")
    decks = root / "cards/mini/decks.yaml"
    first = _digests(root)
    assert first == _digests(root)  # a second load digests the same
    assert first["en"] != first["it"]

    _edit(decks, '"Gain 2 {coin}."', '"Gain 3 {coin}."')  # English only, same length
    en_edit = _digests(root)
    assert en_edit["en"] != first["en"] and en_edit["it"] == first["it"]

    _edit(decks, '"Guadagna 2 {coin}."', '"Guadagna 3 {coin}."')  # Italian only
    it_edit = _digests(root)
    assert it_edit["it"] != en_edit["it"] and it_edit["en"] == en_edit["en"]

    _edit(decks, "copies: 4", "copies: 5")  # a count prints in every language
    counted = _digests(root)
    assert counted["en"] != it_edit["en"] and counted["it"] != it_edit["it"]

    # a text with no Italian value prints the English one in Italian: both follow it
    _edit(decks, "title: {en: Beta, it: Beta}", "title: {en: Beta}")
    source_only = _digests(root)
    _edit(decks, "title: {en: Beta}", "title: {en: Zeta}")
    renamed = _digests(root)
    assert renamed["en"] != source_only["en"] and renamed["it"] != source_only["it"]


def test_a_line_moved_changes_every_language(tmp_path: Path) -> None:
    """Findings name lines: a PDF kept after its texts moved would report stale positions."""
    root = make_root(tmp_path, FIXTURES / "clean")
    first = _digests(root)
    _edit(root / "cards/mini/decks.yaml", "decks:\n", "# a comment line\ndecks:\n")
    moved = _digests(root)
    assert moved["en"] != first["en"] and moved["it"] != first["it"]


def test_an_image_or_a_font_changes_every_language(tmp_path: Path) -> None:
    root = make_root(tmp_path, FIXTURES / "clean")
    with running(fresh=True):
        game = validate(open_root(root), ["mini"], Report(), fit_languages=[])["mini"]
        art = root / "cards/mini/art.png"
        a = printed_digests(game, ["en", "it"], [(art, b"one")])
        b = printed_digests(game, ["en", "it"], [(art, b"two")])
        yaml_only = printed_digests(game, ["en", "it"], [(root / "x.yaml", b"two")])
    assert a["en"] != b["en"] and a["it"] != b["it"]
    assert yaml_only == printed_digests_of_nothing(root)  # the model stands for its YAML


def printed_digests_of_nothing(root: Path) -> dict[str, str]:
    with running(fresh=True):
        game = validate(open_root(root), ["mini"], Report(), fit_languages=[])["mini"]
        return printed_digests(game, ["en", "it"], [])


def _stat(path: Path) -> tuple[int, int]:
    st = path.stat()
    return st.st_size, st.st_mtime_ns


def test_watch_keeps_the_pdf_an_edit_cannot_change(tmp_path: Path) -> None:
    root_dir = tmp_path / "root"
    shutil.copytree(REPO / "cards" / "fabg", root_dir / "cards" / "fabg")
    out = tmp_path / "out"
    said: list[str] = []
    watcher = Watcher(open_root(root_dir), "fabg", (), "a4", echo=said.append, out=out)
    assert watcher.cycle()[0]
    en, it = out / "fabg/fabg-en-a4.pdf", out / "fabg/fabg-it-a4.pdf"
    it_before, en_before = _stat(it), en.read_bytes()

    _edit(root_dir / "cards/fabg/decks.yaml", "Start with 10 {coin}", "Start with 12 {coin}")
    said.clear()
    assert watcher.cycle()[0]
    assert _stat(it) == it_before  # not written again
    assert en.read_bytes() != en_before
    assert any("unchanged by this edit: fabg-it-a4.pdf" in m for m in said), said

    fresh = tmp_path / "fresh"  # what is on disk is what a fresh build writes
    build(open_root(root_dir), ["fabg"], BuildOptions(out_dir=fresh, force=True), Report())
    for pdf in (en, it):
        assert pdf.read_bytes() == (fresh / "fabg" / pdf.name).read_bytes(), pdf.name

    it.unlink()  # gone: written again, though nothing changed
    assert watcher.cycle()[0] and it.read_bytes() == (fresh / "fabg" / it.name).read_bytes()
    os.utime(it, ns=(1, 1))  # touched by another hand: written again
    assert watcher.cycle()[0] and it.stat().st_mtime_ns != 1


def test_a_kept_pdf_still_reports_what_its_rendering_found(tmp_path: Path) -> None:
    """An Italian text too long for its card: its overflow is found while rendering; after an
    English edit the Italian PDF is kept, and the overflow is still reported (the game lowers
    it to a warning, so that the Italian PDF is built)."""
    root = make_root(tmp_path, FIXTURES / "clean")
    lower_overflow(root, "mini")
    decks = root / "cards/mini/decks.yaml"
    _edit(decks, '"Paga **1** {coin}."', '"Paga **1** {coin}. ' + "Poi passa il turno. " * 80 + '"')
    said: list[str] = []
    watcher = Watcher(open_root(root), "mini", (), "a4", echo=said.append)
    assert watcher.cycle()[0]
    overflow = [m for m in said if "[text-overflow]" in m]
    assert overflow and all("decks.yaml" in m for m in overflow)

    _edit(decks, '"Gain 2 {coin}."', '"Gain 3 {coin}."')
    said.clear()
    assert watcher.cycle()[0]
    assert any("unchanged by this edit: mini-it-a4.pdf" in m for m in said), said
    assert [m for m in said if "[text-overflow]" in m] == overflow
    page = (root / "output/mini/preview/index.html").read_text("utf-8")
    assert "text-overflow" in page


def test_a_setup_sheet_that_grows_and_shrinks_under_watch(tmp_path: Path) -> None:
    """The watcher starts counting a setup sheet's pages from its last count: a sheet that
    grows to three pages and back still gives the PDFs a fresh build gives."""
    root = make_root(tmp_path, FIXTURES / "clean")
    game_yaml = root / "cards/mini/game.yaml"
    short = game_yaml.read_text("utf-8")
    notes = "Keep the box tidy and shuffle every deck before play. " * 400
    long = short.replace(
        "  title: {en: Setup, it: Preparazione}\n",
        f"  title: {{en: Setup, it: Preparazione}}\n  notes: {{en: '{notes}', it: '{notes}'}}\n",
    )
    assert long != short
    watcher = Watcher(open_root(root), "mini", (), "a4", echo=lambda _m: None)
    pages = []
    for text in (short, long, short, long):
        game_yaml.write_text(text, "utf-8")
        assert watcher.cycle()[0]
        fresh = tmp_path / f"fresh-{len(pages)}"
        outputs = build(
            open_root(root), ["mini"], BuildOptions(out_dir=fresh, force=True), Report()
        )
        for out in outputs:
            kept = root / "output/mini" / out.path.name
            assert kept.read_bytes() == out.path.read_bytes(), (len(pages), out.path.name)
        pages.append(sorted(o.pages for o in outputs))
    assert pages[0] == pages[2] and pages[1] == pages[3] and pages[1] > pages[0]
