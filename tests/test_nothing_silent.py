"""Nothing silent (issue 29 item 5): what pnp would otherwise ignore or print wrong without a
word is a finding, and an overflowing text stays inside its box. The rules' fixture packs
(tests/fixtures/unquoted-colour, ignored-style, art-resolution) show where each fires; here,
what they say and what the page shows."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image
from typer.testing import CliRunner

from pnp.cli import app
from pnp.content.yamlio import parse_text
from pnp.core.findings import Report
from pnp.core.rules import Severity
from pnp.typeset.faces.kinds.image import MIN_DPI, printed_dpi

from helpers import FIXTURES, make_root, run_validate

# --- unquoted-colour ------------------------------------------------------------------------


def test_an_unquoted_colour_is_an_error_that_says_to_quote_it() -> None:
    report = Report()
    text = (
        "layouts:\n  a:\n    elements:\n      - fill: #ff0000\n        colors:\n          - #0f0\n"
    )
    data = parse_text(text, "cards/g/l.yaml", report, "g").data
    assert data["layouts"]["a"]["elements"][0]["fill"] is None  # what YAML reads
    found = [(str(f.pos), f.message) for f in report.findings]
    assert found == [
        (
            "cards/g/l.yaml:4:15",
            "fill: #ff0000 is read by YAML as a comment, so the value is empty; quote the "
            'colour: fill: "#ff0000"',
        ),
        (
            "cards/g/l.yaml:6:13",
            "- #0f0 is read by YAML as a comment, so the value is empty; quote the colour: "
            '- "#0f0"',
        ),
    ]
    assert all(f.rule == "unquoted-colour" and f.severity is Severity.ERROR for f in report)


def test_a_comment_or_a_quoted_colour_is_not_one() -> None:
    report = Report()
    text = 'a:\n  fill: "#ff0000"\n  stroke:  # none here\n  note: # 12 apples\n  x: ~\n'
    parse_text(text, "cards/g/l.yaml", report, "g")
    assert not report.findings


def test_an_unquoted_colour_in_a_flow_mapping_says_to_quote_it() -> None:
    report = Report()
    parse_text("a:\n  b: {fill: #ff0000, radius: 2}\n  c: 1\n", "cards/g/l.yaml", report, "g")
    (f,) = report.findings
    assert f.rule == "yaml-syntax"
    assert 'a colour starting with # must be quoted (fill: "#ff0000")' in f.message


# --- art-resolution -------------------------------------------------------------------------


def test_the_printed_dpi_follows_the_fit() -> None:
    box, pixels = (50.8, 25.4), (300, 300)  # 2 x 1 inches
    assert printed_dpi("cover", box, pixels) == pytest.approx(150)  # the width counts
    assert printed_dpi("contain", box, pixels) == pytest.approx(300)  # the height counts
    assert printed_dpi("stretch", box, pixels) == pytest.approx(150)
    assert MIN_DPI == 150


def test_low_resolution_art_names_its_dpi_and_the_pixels_needed(tmp_path: Path) -> None:
    report = run_validate(make_root(tmp_path, FIXTURES / "art-resolution"))
    (f,) = [f for f in report.sorted() if f.rule == "art-resolution"]
    assert f.severity is Severity.WARNING
    assert f.message == (
        "'art/small.png' prints at 16 dpi (40 x 56 px in 63 x 88 mm, fit cover): below 150 dpi "
        "it looks blurred; use an image of at least 373 x 520 px, or an SVG"
    )


# --- ignored-style --------------------------------------------------------------------------


def test_a_token_coloured_by_its_style_with_the_token_layout_is_a_finding(
    tmp_path: Path,
) -> None:
    report = run_validate(make_root(tmp_path, FIXTURES / "ignored-style"))
    messages = [f.message for f in report.sorted() if f.rule == "ignored-style"]
    assert any(
        m.startswith("style: '#c62828' gives the accent colour, but layout 'token' draws nothing")
        for m in messages
    ), messages


@pytest.mark.parametrize(
    ("style", "fix"),
    [
        ("green", 'styles: {green: {background: "green"}} (style: green then names that style)'),
        ("#c62828", 'styles: {mine: {background: "#c62828"}} and style: mine'),
    ],
)
def test_ignored_style_suggests_a_style_named_after_what_was_written(
    tmp_path: Path, style: str, fix: str
) -> None:
    root = make_root(tmp_path, FIXTURES / "ignored-style")
    decks = root / "cards/mini/decks.yaml"
    decks.write_text(
        decks.read_text("utf-8").replace('style: "#c62828"', f'style: "{style}"'), "utf-8"
    )
    messages = [f.message for f in run_validate(root).sorted() if f.rule == "ignored-style"]
    colour = [m for m in messages if m.startswith(f"style: {style!r} gives the accent colour")]
    assert len(colour) == 1, messages
    assert colour[0].endswith(fix), colour[0]
    assert "red" not in colour[0]


# --- text-overflow: clipped to its box --------------------------------------------------------

LONG = (
    "Gain 2 {coin}. Then every other player gains one coin less than you, and the bank pays "
    "the rest to the player on your left, who keeps it until the end of the round."
)


def _overflowing(tmp_path: Path, lowered: bool) -> Path:
    """The clean pack with alpha's English text too long for a tight box (Italian fits);
    ``lowered``: the game lowers text-overflow to a warning."""
    root = make_root(tmp_path, FIXTURES / "clean")
    decks = root / "cards/mini/decks.yaml"
    text = decks.read_text("utf-8").replace(
        '        text: {en: "Gain 2 {coin}.", it: "Guadagna 2 {coin}."}',
        f'        layout: tight\n        text: {{en: "{LONG}", it: "Guadagna 2 {{coin}}."}}',
    )
    text += (
        "layouts:\n  tight:\n    extends: card\n    elements:\n"
        "      - {name: text, box: [8, 20, 47, 8], field: text, size: 8.5, min_size: 8}\n"
    )
    decks.write_text(text, "utf-8")
    if lowered:
        game = root / "cards/mini/game.yaml"
        game.write_text(
            game.read_text("utf-8")
            + "rules:\n  text-overflow: {severity: warning, reason: clipped is fine here}\n",
            "utf-8",
        )
    return root


def test_an_overflowing_text_is_an_error_that_stops_only_its_language(tmp_path: Path) -> None:
    root = _overflowing(tmp_path, lowered=False)
    out = tmp_path / "out"
    res = CliRunner().invoke(app, ["build", "mini", "--root", str(root), "--out", str(out)])
    assert res.exit_code == 1, res.output
    assert "error [text-overflow] [en]" in res.output, res.output
    assert not (out / "mini/mini-en-a4.pdf").exists()  # English stops...
    assert (out / "mini/mini-it-a4.pdf").is_file()  # ...Italian, which fits, is built
    proof = CliRunner().invoke(
        app, ["build", "mini", "--lang", "en", "--proof", "--root", str(root), "--out", str(out)]
    )
    assert (out / "mini/mini-en-proof.pdf").is_file(), proof.output  # the proof still shows it


def test_an_overflowing_text_never_prints_outside_its_box(tmp_path: Path) -> None:
    root = _overflowing(tmp_path, lowered=True)
    out = tmp_path / "out"
    res = CliRunner().invoke(
        app,
        ["build", "mini", "--lang", "en", "--png", "100", "--root", str(root), "--out", str(out)],
    )
    assert res.exit_code == 0, res.output
    assert "warning [text-overflow]" in res.output  # lowered by the game, still reported
    face = Image.open(out / "mini/mini-en-png/main-alpha-front.png").convert("L")
    px = face.width / 63  # pixels per mm (the PNG is the card, 63 x 88 mm)

    def dark(x0: float, y0: float, x1: float, y1: float) -> int:
        box = (round(x0 * px), round(y0 * px), round(x1 * px), round(y1 * px))
        return sum(face.crop(box).histogram()[:128])

    assert dark(9, 20.5, 54, 27.5) > 50  # the text is printed in its box...
    assert dark(9, 29, 54, 80) == 0  # ...and nothing of it below the box


# --- print.corner_radius: removed from the format -------------------------------------------


def test_corner_radius_is_no_longer_in_the_format_and_says_what_to_do(tmp_path: Path) -> None:
    from pnp.content.model import PrintSettings

    assert "corner_radius" not in PrintSettings.__dataclass_fields__
    root = make_root(tmp_path, FIXTURES / "clean")
    game = root / "cards/mini/game.yaml"
    game.write_text(game.read_text("utf-8") + "print: {corner_radius: 3}\n", "utf-8")
    (f,) = [f for f in run_validate(root).sorted() if f.rule == "unknown-key"]
    assert f.severity is Severity.WARNING and (f.pos.line, f.pos.col) == (14, 9)
    assert f.message.startswith("print.corner_radius is no longer read: pnp's sheets are cut")
    assert "border: {radius: 3}" in f.message
