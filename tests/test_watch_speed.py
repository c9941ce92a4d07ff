"""`pnp watch`'s quicker rebuild gives what a fresh build gives: the same PDF bytes, and the
preview's setup sheet taken from the PDF just built looks exactly as the sheet drawn alone."""

from __future__ import annotations

import shutil
from pathlib import Path

from pnp.build.pipeline import BuildOptions, build
from pnp.content.load import open_root
from pnp.core.findings import Report
from pnp.designer.preview import build_preview
from pnp.designer.watch import Watcher
from pnp.printing.imposition import Options
from pnp.validate import validate

REPO = Path(__file__).resolve().parent.parent
EDIT = ("Start with 10 {coin}", "Start with 12 {coin}")


def _fabg_copy(tmp: Path) -> Path:
    root = tmp / "root"
    shutil.copytree(REPO / "cards" / "fabg", root / "cards" / "fabg")
    return root


def _setup_pngs(out: Path) -> list[str]:
    return sorted(p.relative_to(out).as_posix() for p in out.glob("fabg/preview/*/setup-*.png"))


def test_a_rebuild_after_an_edit_writes_what_a_fresh_build_writes(tmp_path: Path) -> None:
    root_dir = _fabg_copy(tmp_path)
    root = open_root(root_dir)
    watched = tmp_path / "watched"
    watcher = Watcher(root, "fabg", (), "a4", echo=lambda _m: None, out=watched)
    assert watcher.cycle()[0]
    before = (watched / "fabg" / "fabg-en-a4.pdf").read_bytes()
    decks = root_dir / "cards" / "fabg" / "decks.yaml"
    text = decks.read_text("utf-8")
    assert EDIT[0] in text
    decks.write_text(text.replace(*EDIT, 1), "utf-8")
    assert watcher.cycle()[0]  # the watcher's second run: its renderers' memos start again

    fresh = tmp_path / "fresh"
    report = Report()
    outputs = build(open_root(root_dir), ["fabg"], BuildOptions(out_dir=fresh, force=True), report)
    assert {o.lang for o in outputs} == {"it", "en"}
    for out in outputs:
        rebuilt = watched / "fabg" / out.path.name
        assert rebuilt.read_bytes() == out.path.read_bytes(), out.path.name
    assert (watched / "fabg" / "fabg-en-a4.pdf").read_bytes() != before  # the edit is in it

    # the preview drawn alone (no build in its run) shows the same setup pages, pixel for pixel
    alone = tmp_path / "alone"
    report = Report()
    games = validate(open_root(root_dir), ["fabg"], report)
    build_preview(open_root(root_dir), games["fabg"], report, out=alone)
    shown = _setup_pngs(watched)
    assert shown and shown == _setup_pngs(alone)  # named by a digest of their pixels


def test_the_preview_draws_its_own_sheet_for_other_paper(tmp_path: Path) -> None:
    """Watching on letter paper: the preview's sheet is still the A4 one (Options()), as
    `pnp preview` draws it, not the letter pages of the PDF just built."""
    root_dir = _fabg_copy(tmp_path)
    root = open_root(root_dir)
    assert Options().paper == "a4"
    letter, a4 = tmp_path / "letter", tmp_path / "a4"
    for paper, out in (("letter", letter), ("a4", a4)):
        assert Watcher(root, "fabg", (), paper, echo=lambda _m: None, out=out).cycle()[0]
    assert _setup_pngs(letter) == _setup_pngs(a4)
