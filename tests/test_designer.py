"""The designer's loop: pnp new, the schema, watch cycles and the preview page."""

from __future__ import annotations

import re
import shutil
import subprocess
import threading
import time
from pathlib import Path

from typer.testing import CliRunner

from pnp.cli.commands import app
from pnp.content.load import open_root
from pnp.designer.watch import Watcher

from helpers import FIXTURES, make_root, needs_tool

runner = CliRunner()
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def run(*args: str):
    return runner.invoke(app, list(args), catch_exceptions=False)


def test_new_game_validates_and_builds(tmp_path: Path) -> None:
    root = make_root(tmp_path)
    result = run("new", "space-race", "--lang", "it", "--lang", "en", "--root", str(root))
    assert result.exit_code == 0, result.stderr
    folder = root / "cards" / "space-race"
    files = sorted(p.name for p in folder.iterdir())
    assert files == ["art", "decks.yaml", "game.yaml", "layouts.yaml", "tables.yaml", "tokens.yaml"]
    for f in folder.glob("*.yaml"):
        first = f.read_text("utf-8").splitlines()[0]
        assert first.startswith("# yaml-language-server: $schema=../pnp-")
        schema = (folder / first.split("$schema=")[1]).resolve()
        assert schema.is_file()
    check = run("validate", "space-race", "--strict", "--root", str(root))
    assert check.exit_code == 0, check.stdout + check.stderr
    build = run("build", "space-race", "--root", str(root))
    assert build.exit_code == 0
    assert (root / "output/space-race/space-race-it-a4.pdf").is_file()
    text = (folder / "decks.yaml").read_text("utf-8")
    assert "back:" in text and "id: storm" in text  # shared back and a two-sided card
    assert "invariants:" in (folder / "tables.yaml").read_text("utf-8")


def test_new_refuses_bad_names_and_existing_games(tmp_path: Path) -> None:
    root = make_root(tmp_path)
    assert run("new", "Bad Name", "--root", str(root)).exit_code == 2
    assert run("new", "ok", "--lang", "xx", "--root", str(root)).exit_code == 2
    assert run("new", "ok", "--root", str(root)).exit_code == 0
    again = run("new", "ok", "--root", str(root))
    assert again.exit_code == 2 and "already exists" in again.stderr


def test_watch_cycle_rebuilds_what_changed(tmp_path: Path) -> None:
    root = make_root(tmp_path, FIXTURES / "clean")
    messages: list[str] = []
    watcher = Watcher(open_root(root), "mini", (), "a4", echo=messages.append)
    built, _seconds = watcher.cycle()
    assert built
    index = root / "output/mini/preview/index.html"
    stamp = (root / "output/mini/preview/stamp.js").read_text()
    first = index.read_text("utf-8")
    decks = root / "cards/mini/decks.yaml"

    def save_soon(text: str) -> threading.Thread:
        def save() -> None:
            time.sleep(0.3)
            decks.write_text(text, "utf-8")

        thread = threading.Thread(target=save)
        thread.start()
        return thread

    saver = save_soon(decks.read_text("utf-8").replace("{en: Alpha, it: Alfa}", "{en: Alef}", 1))
    started = time.perf_counter()
    assert watcher.wait(timeout_ms=10_000) == [decks]  # told by the operating system
    assert time.perf_counter() - started < 5
    saver.join()
    built, _seconds = watcher.cycle()
    assert built
    assert (root / "output/mini/preview/stamp.js").read_text() != stamp
    assert index.read_text("utf-8") != first
    # an error: reported, nothing rebuilt, the old PDF stays
    pdf = root / "output/mini/mini-en-a4.pdf"
    before = pdf.read_bytes()
    decks.write_text(decks.read_text("utf-8").replace("copies: 4", "copies: lots"))
    built, _seconds = watcher.cycle()
    assert not built and pdf.read_bytes() == before
    assert any("[schema]" in m for m in messages)


def test_watch_looks_at_the_game_its_fonts_and_catalogs_only(tmp_path: Path) -> None:
    root = open_root(make_root(tmp_path, FIXTURES / "clean"))
    watcher = Watcher(root, "mini", (), "a4")
    assert watcher.relevant(root.path / "cards/mini/decks.yaml")
    assert watcher.relevant(root.path / "cards/mini/art/a.png")
    assert watcher.relevant(root.fonts / "NotoSans-Regular.ttf")
    assert watcher.relevant(root.locales / "fr/LC_MESSAGES/mini.po")
    assert not watcher.relevant(root.locales / "fr/LC_MESSAGES/other.po")
    assert not watcher.relevant(root.path / "cards/other/game.yaml")
    assert not watcher.relevant(root.output / "mini/mini-en-a4.pdf")  # its own outputs
    assert not watcher.relevant(root.path / "cards/mini/.decks.yaml.swp")
    # nothing changes: the wait ends at its timeout, empty
    assert watcher.wait(timeout_ms=300) == []


def _dump_dom(page: Path) -> str:
    assert CHROMIUM
    proc = subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            f"--user-data-dir={page.parent / '.chrome'}",
            "--virtual-time-budget=4000",
            "--dump-dom",
            page.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    return proc.stdout


@needs_tool(CHROMIUM is None, "needs Debian's chromium (installed by .ci/run)")
def test_preview_in_headless_chromium(tmp_path: Path) -> None:
    root = make_root(tmp_path, FIXTURES / "clean")
    decks = root / "cards/mini/decks.yaml"
    long = "very " * 300
    decks.write_text(
        decks.read_text("utf-8").replace(
            'text: {en: "Gain 2 {coin}."', f'text: {{en: "{long}{{coin}}."'
        ),
        "utf-8",
    )
    result = run("preview", "mini", "--root", str(root))
    assert result.exit_code == 1, result.stderr  # the overflow is an error; the page is written
    page = root / "output/mini/preview/index.html"
    dom = _dump_dom(page)
    body = re.search(r"<body[^>]*>", dom)
    assert body, dom[:500]
    attrs = dict(re.findall(r'data-(\w+)="([^"]*)"', body.group(0)))
    images = dom.count("<img ")
    assert attrs.get("errors") == "0" and attrs.get("broken") == "0"
    assert int(attrs["loaded"]) == images > 0
    # every face of the game is on the page, in both languages
    for face in ("main-alpha-front", "main-beta-front", "main-back", "chips-chip-front"):
        section = re.search(rf'<section class="face" id="{face}".*?</section>', dom, re.S)
        assert section, f"{face} missing"
        assert section.group(0).count("<img ") == 2
    # the overflow finding sits next to its card, which is marked as having an error
    alpha = re.search(r'<section class="face" id="main-alpha-front".*?</section>', dom, re.S)
    assert alpha and "text-overflow" in alpha.group(0)
    assert 'data-errors="1"' in alpha.group(0)


def test_a_new_root_needs_no_fonts_of_its_own(tmp_path: Path) -> None:
    """pnp brings its fonts: `pnp new --root NEW` (a folder that does not exist yet) gives a
    game that validates and builds with no fonts/ in the root."""
    from typer.testing import CliRunner

    from pnp.cli import app
    from pnp.typeset.fonts import BUNDLED_FONTS

    runner = CliRunner()
    root = tmp_path / "new-root"
    assert runner.invoke(app, ["new", "solo", "--root", str(root)]).exit_code == 0
    assert not (root / "fonts").exists()
    assert runner.invoke(app, ["validate", "solo", "--root", str(root)]).exit_code == 0
    built = runner.invoke(app, ["build", "solo", "--root", str(root)])
    assert built.exit_code == 0, built.stderr
    assert list((root / "output" / "solo").glob("*.pdf"))
    assert (BUNDLED_FONTS / "NotoSans-Regular.ttf").is_file()
    assert (BUNDLED_FONTS / "OFL.txt").is_file()  # the licence travels with the fonts


def test_watch_says_which_language_was_not_built(tmp_path: Path) -> None:
    """A catalog error stops its language only, and watch says so in one line, as build does."""
    from pnp.i18n.catalog import read_catalog
    from pnp.i18n.po import dumps

    root = make_root(tmp_path, FIXTURES / "clean")
    assert run("i18n", "init", "mini", "fr", "--root", str(root)).exit_code == 0
    po = root / "locales/fr/LC_MESSAGES/mini.po"
    cat = read_catalog(po, po.name)
    for entry in cat.entries:
        if entry.msgctxt == "decks/main/cards/alpha/text":
            entry.msgstr = ["Gagnez 2 {coins}."]  # a placeholder misspelt
    po.write_text(dumps(cat), "utf-8")
    messages: list[str] = []
    watcher = Watcher(open_root(root), "mini", ("it", "fr"), "a4", echo=messages.append)
    built, _seconds = watcher.cycle()
    assert built and (root / "output/mini/mini-it-a4.pdf").is_file()
    assert not (root / "output/mini/mini-fr-a4.pdf").exists()
    lines = [m for m in messages if "mini fr: not built" in m]
    assert len(lines) == 1 and "{coin}" in lines[0] and "mini.po:57:1" in lines[0], messages
    # only French asked: nothing is built, and the line still says why
    messages.clear()
    watcher = Watcher(open_root(root), "mini", ("fr",), "a4", echo=messages.append)
    built, _seconds = watcher.cycle()
    assert not built
    assert len([m for m in messages if "mini fr: not built" in m]) == 1, messages
    # a language the watch does not build: one line says its catalog has an error
    messages.clear()
    watcher = Watcher(open_root(root), "mini", ("it",), "a4", echo=messages.append)
    built, _seconds = watcher.cycle()
    assert built
    assert [m for m in messages if "mini fr: not built here" in m], messages
