"""The printable area (``--margin``): faces or crop marks a printer could not print are a
``printable-area`` error, found before anything is drawn, at the definition of what they belong
to; nothing is written. Cards never move for the margin."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from pnp.cli import app

from helpers import FIXTURES, make_root

runner = CliRunner()


def build(root: Path, out: Path, *args: str):
    return runner.invoke(
        app, ["build", "mini", "--root", str(root), "--out", str(out), "--lang", "en", *args]
    )


def test_faces_inside_the_margin_are_an_error_and_nothing_is_written(tmp_path: Path) -> None:
    root = make_root(tmp_path, FIXTURES / "clean")
    out = tmp_path / "out"
    # three poker cards across A4 leave 10.5 mm left and right of the grid
    result = build(root, out, "--margin", "11")
    assert result.exit_code == 1, result.output
    text = result.stderr
    assert "cards/mini/decks.yaml:3:5:" in text  # the deck's definition (main:)
    assert "error [printable-area]" in text and "come to 10.5 mm of the paper edge" in text
    assert "--margin is 11 mm" in text
    assert not list(out.rglob("*.pdf"))


def test_crop_marks_without_room_are_an_error_unless_turned_off(tmp_path: Path) -> None:
    root = make_root(tmp_path, FIXTURES / "clean")
    out = tmp_path / "out"
    # 10.5 mm beside the grid: the cards are inside a 10 mm margin, their marks are not
    result = build(root, out, "--margin", "10")
    assert result.exit_code == 1
    assert "leave no room for their crop marks" in result.stderr
    assert not list(out.rglob("*.pdf"))
    result = build(root, out, "--margin", "10", "--no-crop-marks")
    assert result.exit_code == 0, result.stderr
    assert list(out.rglob("*.pdf"))


def test_the_default_and_a_smaller_margin_build(tmp_path: Path) -> None:
    root = make_root(tmp_path, FIXTURES / "clean")
    for margin in ("5", "3", "0"):
        result = build(root, tmp_path / f"out{margin}", "--paper", "letter", "--margin", margin)
        assert result.exit_code == 0, result.stderr
    assert build(root, tmp_path / "x", "--margin", "nan").exit_code == 2
    assert build(root, tmp_path / "x", "--margin", "-1").exit_code == 2
