"""The new layout keys (issue 29, item 8) said wrong are findings at the file:line:col of the
value, saying what to do; SVG files are read as untrusted XML, with the same kind of limits
as raster images (size, what they may refer to, how much they expand)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from pnp.content.svgfiles import MAX_SVG_ELEMENTS, SvgRefused, check_svg
from pnp.core.rules import BAD_IMAGE, FONT, SCHEMA, TRACK_CELL

from helpers import make_root, run_validate

GAME = """\
title: Broken
source_language: en
languages: [en]
tracks:
  short: {min: 1, max: 3, board: main}
boards:
  main: {size: [100, 100], layout: board}
decks:
  d:
    layout: bad
    cards:
      - id: a
        title: A
        text: "Gain [3]{colour=red} coins"
        art: art/outside.svg
      - id: b
        title: B
        art: art/bomb.svg
"""
LAYOUTS = """\
layouts:
  bad:
    elements:
      - {box: [2, 2, 40, 10], field: title, fit: contain}
      - {box: [2, 14, 40, 10], field: text, anchor: top}
      - {box: [2, 26, 40, 10], fill: red, gradient: {colors: ["#ffffff", "#000000"]}}
      - {box: [2, 38, 40, 10], image: art, shadow: {opacity: 0.5}}
      - {box: [2, 50, 40, 10], fill: "#ffffff", opacity: 1.5}
      - {box: [2, 62, 40, 10], field: title, font_family: Nowhere}
      - {box: [2, 74, 20, 10], field: title, font_family: "../fonts/x"}
      - {box: [30, 74, 20, 10], gradient: {colors: ["#ffffff", blu]}}
      - {box: [44, 2, 18, 18], qr: "QR_TEXT"}
      - {box: [44, 30, 18, 18], image: art, fit: stretch, anchor: left}
  board:
    elements:
      - {box: [5, 5, 90, 90], track: short, direction: around}
      - {box: [5, 5, 90, 20], field: title, numbers: outward}
"""
OUTSIDE = """<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"
  viewBox="0 0 10 10"><use xlink:href="../secret.svg#x"/></svg>"""
BOMB = """<?xml version="1.0"?>
<!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><desc>&b;</desc></svg>"""


@pytest.fixture
def report(tmp_path: Path) -> list[tuple[str, int, int, str, str]]:
    root = make_root(tmp_path)
    folder = root / "cards" / "broken"
    (folder / "art").mkdir(parents=True)
    (folder / "game.yaml").write_text(GAME, "utf-8")
    (folder / "layouts.yaml").write_text(LAYOUTS.replace("QR_TEXT", "x" * 3000), "utf-8")
    (folder / "art" / "outside.svg").write_text(OUTSIDE, "utf-8")
    (folder / "art" / "bomb.svg").write_text(BOMB, "utf-8")
    return [
        (Path(f.pos.path).name, f.pos.line, f.pos.col, f.rule, f.message)
        for f in run_validate(root).sorted()
    ]


Report = list[tuple[str, int, int, str, str]]


def _at(report: Report, line: int, rule: str, file: str = "layouts.yaml") -> str:
    """The message of the ``rule`` finding at ``file``:``line`` (lines of LAYOUTS: the
    first element is line 4)."""
    found = [m for f, n, _c, r, m in report if (f, n, r) == (file, line, rule)]
    assert found, f"no {rule} at {file}:{line}: {report}"
    return found[0]


def test_values_a_kind_cannot_use_are_errors_that_say_what_to_do(report: Report) -> None:
    assert "a text takes fit: shrink or none" in _at(report, 4, SCHEMA)
    assert "anchor: places an image" in _at(report, 5, SCHEMA)
    assert "keep one of them" in _at(report, 6, SCHEMA)  # gradient and fill
    assert "shadow: is drawn under a text" in _at(report, 7, SCHEMA)
    assert "opacity must be between 0 and 1" in _at(report, 8, SCHEMA)
    assert "nothing to place" in _at(report, 13, SCHEMA)  # stretch and anchor
    assert "add direction: around" in _at(report, 17, SCHEMA)  # numbers without around
    col = next(c for f, n, c, r, _m in report if (f, n, r) == ("layouts.yaml", 4, SCHEMA))
    assert col == LAYOUTS.splitlines()[3].index("fit:") + 1 + len("fit: ")  # the value


def test_font_families_that_cannot_be_loaded(report: Report) -> None:
    assert "'Nowhere' not found" in _at(report, 9, FONT)
    assert "must be a plain name such as NotoSans" in _at(report, 10, SCHEMA)


def test_colours_spans_and_qr_codes(report: Report) -> None:
    assert "did you mean 'blue'" in _at(report, 11, SCHEMA)
    assert "holds at most 2000 characters" in _at(report, 12, SCHEMA)
    span = _at(report, 14, SCHEMA, "game.yaml")
    assert "colour= is not a span's attribute: write color= or size=" in span


def test_a_track_around_needs_its_corners(report: Report) -> None:
    assert "its four corners alone need 4" in _at(report, 16, TRACK_CELL)


def test_svg_art_is_checked_where_it_is_named(report: Report) -> None:
    outside = _at(report, 15, BAD_IMAGE, "game.yaml")
    assert "may only refer to its own parts" in outside and "../secret.svg" in outside
    assert "declares XML entities" in _at(report, 18, BAD_IMAGE, "game.yaml")


# --- SVG as untrusted input ---------------------------------------------------------------

SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">{}</svg>'


@pytest.mark.parametrize(
    ("body", "refused"),
    [
        ('<image href="photo.png" width="5" height="5"/>', "raster <image>"),
        ('<image href="data:image/png;base64,AAAA" width="5" height="5"/>', "raster <image>"),
        ("<text>Hi</text>", "convert its text to paths"),
        ('<use href="other.svg#a"/>', "may only refer to its own parts"),
        ('<use href="http://example.org/x.svg#a"/>', "may only refer to its own parts"),
        ("<style>@import url(http://example.org/a.css);</style>", "imports a style sheet"),
        ('<rect fill="url(http://example.org/p)" width="1" height="1"/>', "own parts"),
        ('<rect style="fill: url(file:///etc/passwd)" width="1" height="1"/>', "own parts"),
        ('<g id="a"><use href="#a"/></g>', "refers to itself"),
    ],
)
def test_an_svg_that_reaches_outside_itself_is_refused(body: str, refused: str) -> None:
    with pytest.raises(SvgRefused, match=refused.replace("(", r"\(").replace("<", "<")):
        check_svg(SVG.format(body).encode(), "x.svg")


def test_external_entities_and_dtds_are_never_fetched(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP SECRET")
    xxe = (
        f'<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file://{secret}">]>'
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><desc>&x;</desc></svg>'
    )
    with pytest.raises(SvgRefused, match="entities"):
        check_svg(xxe.encode(), "x.svg")
    dtd = (
        '<?xml version="1.0"?><!DOCTYPE svg SYSTEM "http://example.invalid/svg.dtd">'
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"/>'
    )
    assert check_svg(dtd.encode(), "x.svg").width == 1  # a DTD named, never loaded


def test_use_copies_are_counted_before_anything_is_drawn() -> None:
    levels = ['<rect id="l0" width="1" height="1"/>']
    for k in range(1, 12):  # each level uses the one below ten times: 10**11 copies
        uses = "".join(f'<use href="#l{k - 1}"/>' for _ in range(10))
        levels.append(f'<g id="l{k}">{uses}</g>')
    started = time.monotonic()
    with pytest.raises(SvgRefused, match=f"more than {MAX_SVG_ELEMENTS:,} elements"):
        check_svg(SVG.format("<defs>" + "".join(levels) + "</defs>").encode(), "x.svg")
    assert time.monotonic() - started < 1.0


def test_sizes_and_files_are_bounded() -> None:
    with pytest.raises(SvgRefused, match="gives no size"):
        check_svg(b'<svg xmlns="http://www.w3.org/2000/svg"/>', "x.svg")
    with pytest.raises(SvgRefused, match="at most"):
        check_svg(b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1e9 1"/>', "x.svg")
    with pytest.raises(SvgRefused, match="MB limit"):
        check_svg(b"<svg" + b" " * (9 * 2**20) + b"/>", "x.svg")
    with pytest.raises(SvgRefused, match="not well-formed"):
        check_svg(b'<svg xmlns="http://www.w3.org/2000/svg"><g></svg>', "x.svg")
    deep = "<g>" * 150 + "</g>" * 150
    with pytest.raises(SvgRefused, match="deep"):
        check_svg(SVG.format(deep).encode(), "x.svg")
