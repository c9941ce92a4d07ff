"""Every layout value that validation accepts builds; every value that would break the build is
a finding with a position (issue 18).

The property test writes a small game whose layout has random elements: boxes (mm and %,
outside the face, empty), rotations, colours (hex, names, palette names, none, misspellings,
what reportlab reads but pnp does not), templates giving colours and image paths per card
(good, missing, unsafe, not an image, failing), lines and polygons. For each, `validate`
either reports an error finding with a position, or the build writes the PDF without an
internal error. Never validate-clean-then-build-fails.

The other tests look at the PDF: rotated text is really rotated (pdfplumber's character
matrices), a line and a polygon are drawn where declared (the content stream), the built-in
elements can be moved and dropped, and ``extends: back`` in a layout named back is no cycle.

Examples are derandomized so the suite is repeatable; LAYOUT_EXPLORE=1 runs many more.
"""

from __future__ import annotations

import json
import math
import os
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

from pnp.build import BuildOptions, build
from pnp.content.load import open_root
from pnp.core.errors import ContentError
from pnp.core.findings import Report, Severity

from helpers import make_root, run_validate

EXPLORE = bool(os.environ.get("LAYOUT_EXPLORE"))

GAME = """\
title: {en: Values, it: Valori}
source_language: en
languages: [en, it]
players: {min: 2, max: 4}
box:
  - {item: {en: 3 cards, it: 3 carte}, deck: main, count: 3}
"""
EXTRAS = """\
tracks:
  score: {min: 0, max: 5}
tables:
  deal:
    title: {en: Dealt, it: Date}
    columns:
      - {id: players, title: {en: Players, it: Giocatori}}
      - {id: n, title: {en: Cards, it: Carte}}
    rows:
      - [2, 1]
      - [3, 2]
"""

# the image files of the game: art/ok.png and art/other.jpg are images, art/fake.png is not
GOOD_PICS = ["art/ok.png", "art/other.jpg"]
BAD_PICS = ["art/fake.png", "art/missing.png", "../outside.png", "/etc/passwd"]
GOOD_COLOURS = ["#1f4e9c", "#ABC", "#fff", "tomato", "Navy", "white", " red ", "fidblue"]
BAD_COLOURS = ["blu", "#12", "#abcdefg", "rgb(1,2,3)", "0xff0000", "0.5", "red,green", "", "#"]
BAD_COLOURS += ["transparent", "Color(1,0,0)"]
PALETTE = ["accent", "background", "text"]
GOOD_TEMPLATES = [
    "{{ values.c }}",
    "{% if lang == 'it' %}{{ values.c }}{% else %}navy{% endif %}",  # differs by language
    "{{ 'acc' ~ 'ent' }}",  # a template giving a palette name
]
BAD_TEMPLATES = ["{{ values.nothing }}", "{{ values.c + }}", "{{ id }}"]


def _mostly(good: st.SearchStrategy[Any], bad: st.SearchStrategy[Any]) -> Any:
    """Good values twelve times as often as bad ones: about half the examples build."""
    return st.sampled_from([True] * 12 + [False]).flatmap(lambda ok: good if ok else bad)


def _lengths() -> st.SearchStrategy[Any]:
    mm = st.one_of(
        st.integers(-30, 120),
        st.floats(-30, 120, allow_nan=False, allow_infinity=False).map(lambda v: round(v, 2)),
    )
    percent = st.integers(-20, 130).map(lambda v: f"{v}%")
    return st.one_of(mm, percent)


def _box() -> st.SearchStrategy[Any]:
    size = _mostly(
        st.one_of(st.integers(1, 90), st.sampled_from(["50%", "100%", "3.5%"])),
        st.sampled_from([0, -5, "0%", "-10%"]),
    )
    return st.tuples(_lengths(), _lengths(), size, size).map(list)


def _colour(none: bool = True) -> Any:
    good = GOOD_COLOURS + PALETTE + (["none"] if none else [])
    return _mostly(
        st.sampled_from(good + GOOD_TEMPLATES), st.sampled_from(BAD_COLOURS + BAD_TEMPLATES)
    )


def _rotation() -> st.SearchStrategy[float]:
    return st.one_of(
        st.sampled_from([0, 90, 180, 270, -90, 360, 45]),
        st.floats(-720, 720, allow_nan=False, allow_infinity=False).map(lambda v: round(v, 3)),
    )


def _point() -> st.SearchStrategy[list[Any]]:
    return st.tuples(_lengths(), _lengths()).map(list)


@st.composite
def _element(draw: Any) -> dict[str, Any]:
    kinds = ["text", "template", "fill", "image", "line", "polygon", "track", "table"]
    kind = draw(st.sampled_from(kinds))
    el: dict[str, Any] = {}
    if kind == "line":
        el["line"] = draw(st.tuples(_lengths(), _lengths(), _lengths(), _lengths()).map(list))
    elif kind == "polygon":
        el["points"] = draw(_mostly(st.lists(_point(), min_size=3, max_size=6), st.just([])))
    else:
        el["box"] = draw(_box())
    if kind == "text":
        el["field"] = draw(st.sampled_from(["title", "text", "missing"]))
    elif kind == "template":
        el["template"] = draw(st.sampled_from(["{{ values.c }}", "{{ id }} {{ lang }}", "x"]))
    elif kind in ("track", "table"):
        el[kind] = "score" if kind == "track" else "deal"
    elif kind == "image":
        templated = st.just("{{ values.pic }}")
        el["image"] = draw(
            _mostly(st.sampled_from(["art", "art/ok.png"]) | templated, st.just("art/no.png"))
        )
    for key in ("fill", "stroke", "color"):
        if draw(st.booleans()) and not (key == "fill" and kind == "line"):
            el[key] = draw(_colour(none=key != "color"))
    if draw(st.booleans()):
        el["rotate"] = draw(_rotation())
    if draw(st.booleans()):
        el["stroke_width"] = draw(_mostly(st.sampled_from([0, 0.3, 2]), st.just(-1)))
    if kind in ("text", "template", "track", "table") and draw(st.booleans()):
        el["size"] = draw(_mostly(st.sampled_from([1, 9, 40]), st.just(0.5)))
    return el


@st.composite
def _pack(draw: Any) -> dict[str, Any]:
    style = _mostly(st.sampled_from([None, "#c62828", "dark", "tomato"]), st.just("blu"))
    pic = _mostly(st.sampled_from(GOOD_PICS), st.sampled_from(BAD_PICS))
    return {
        "elements": draw(st.lists(_element(), min_size=1, max_size=4)),
        "background": draw(st.sampled_from([None, "#eeeeee", "none"])),
        "accent": draw(st.sampled_from([None, "#2e7d32", "none"])),
        "styles": [draw(style) for _ in "ab"],
        "values": [{"c": draw(_colour()), "pic": draw(pic)} for _ in range(3)],
    }


def _write(root: Path, pack: dict[str, Any]) -> None:
    """The game of one example: one layout, three cards with their values and styles."""
    from PIL import Image

    folder = root / "cards" / "g"
    (folder / "art").mkdir(parents=True, exist_ok=True)
    Image.new("RGB", (8, 8), (200, 30, 30)).save(folder / "art" / "ok.png")
    Image.new("RGB", (8, 8), (30, 30, 200)).save(folder / "art" / "other.jpg")
    (folder / "art" / "fake.png").write_text("not an image", "utf-8")
    (root / "cards" / "outside.png").write_bytes((folder / "art" / "ok.png").read_bytes())
    (folder / "game.yaml").write_text(GAME, "utf-8")
    lines = ["layouts:", "  lay:"]
    if pack["background"]:
        lines.append(f"    background: {json.dumps(pack['background'])}")
    style = {"accent": pack["accent"]} if pack["accent"] else {}
    lines.append(f"    styles: {json.dumps({'default': style, 'dark': style})}")
    lines.append("    elements:")
    lines += [f"      - {json.dumps(el)}" for el in pack["elements"]]
    lines += ["decks:", "  main:", "    layout: lay", "    back: {title: {en: Back}}", "    cards:"]
    styles = [*pack["styles"], None]
    for i, values in enumerate(pack["values"]):
        card = {
            "id": f"c{i}",
            "title": {"en": f"Card {i}", "it": f"Carta {i}"},
            "text": {"en": "Some words.", "it": "Parole."},
            "values": values,
            "art": "art/ok.png" if i else None,
            "style": styles[i],
        }
        lines.append(f"      - {json.dumps({k: v for k, v in card.items() if v is not None})}")
    (folder / "decks.yaml").write_text("\n".join(lines) + "\n" + EXTRAS, "utf-8")


def _settings(n: int) -> Any:
    return settings(
        max_examples=n * 20 if EXPLORE else n,
        deadline=None,
        derandomize=not EXPLORE,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )


def _one(*elements: dict[str, Any], c: str = "navy", **pack: Any) -> dict[str, Any]:
    """An example written by hand: these elements, every card's value c."""
    values = [{"c": c, "pic": "art/ok.png"} for _ in range(3)]
    base = {"background": None, "accent": None, "styles": [None, None], "values": values}
    return {**base, **pack, "elements": list(elements)}


@pytest.mark.slow
@_settings(100)
@given(pack=_pack())
# each of these stopped a build that validation had passed (an internal error), before
@example(pack=_one({"box": [0, 0, 30, 10], "field": "title", "color": " red "}))
@example(pack=_one({"box": [0, 0, 30, 10], "fill": "0.5"}))
@example(pack=_one({"box": [0, 0, 30, 10], "fill": "red,green"}))
@example(pack=_one({"box": [0, 0, 60, 30], "table": "deal", "stroke": "red"}))
@example(
    pack=_one({"box": [0, 0, 30, 10], "field": "title", "color": "background"}, background="none")
)
@example(pack=_one({"box": [0, 0, 30, 10], "fill": "accent"}, accent="none"))
@example(pack=_one({"box": [0, 0, 30, 10], "fill": "{{ values.c }}"}, c="blu"))
@example(pack=_one({"box": [0, 0, 30, 10], "field": "title", "color": "{{ values.c }}"}, c="none"))
def test_every_layout_value_validation_accepts_builds(tmp_path_factory: Any, pack: Any) -> None:
    root = make_root(tmp_path_factory.mktemp("values"))
    _write(root, pack)
    report = run_validate(root)
    errors = [f for f in report.sorted() if f.severity is Severity.ERROR]
    if errors:
        for f in errors:  # a finding the designer can act on: file:line:col
            assert f.pos.path and f.pos.line > 0 and f.pos.col > 0, f.text()
        event("validate: " + ", ".join(sorted({f.rule for f in errors})))
        return
    event("built")
    out = root / "out"
    built = Report()
    try:
        outputs = build(open_root(root), ["g"], BuildOptions(out_dir=out, force=True), built)
    except ContentError:  # validation was clean: the build may not fail
        pytest.fail("validate was clean but the build failed:\n" + built.format_text())
    assert not built.has_errors(), built.format_text()
    pdfs = sorted(p.name for p in (out / "g").glob("*.pdf"))
    assert pdfs == ["g-en-a4.pdf", "g-it-a4.pdf"], pdfs
    assert all(o.path.read_bytes().startswith(b"%PDF-") for o in outputs)


# --- the PDF: rotation, lines, polygons -------------------------------------------------------


def _game(tmp_path: Path, layouts: str, cards: str = "", art: bool = False) -> Path:
    tmp_path.mkdir(parents=True, exist_ok=True)
    root = make_root(tmp_path)
    folder = root / "cards" / "g"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(GAME.replace(", it]", "]").split("box:")[0], "utf-8")
    if art:
        from PIL import Image

        (folder / "art").mkdir()
        Image.new("RGB", (8, 8), (200, 30, 30)).save(folder / "art" / "ok.png")
    cards = cards or (
        "      - {id: a, title: {en: Rotated}, text: {en: Words.}, values: {c: navy}}\n"
    )
    deck = "decks:\n  main:\n    layout: lay\n    back: {title: {en: Back}}\n    cards:\n"
    (folder / "decks.yaml").write_text(layouts + deck + cards, "utf-8")
    return root


def _build(root: Path) -> Path:
    report = Report()
    assert not [f for f in run_validate(root).sorted() if f.severity is Severity.ERROR]
    (out,) = build(
        open_root(root),
        ["g"],
        BuildOptions(out_dir=root / "out", force=True, langs=("en",)),
        report,
    )
    return out.path


def _front_chars(pdf: Path, text: str) -> list[dict[str, Any]]:
    """The characters of the first word ``text`` on the fronts page."""
    import pdfplumber

    with pdfplumber.open(pdf) as doc:
        for page in doc.pages:
            chars = page.chars
            joined = "".join(c["text"] for c in chars)
            at = joined.find(text)
            if at >= 0:
                return chars[at : at + len(text)]
    raise AssertionError(f"{text!r} is in no page of {pdf}")


@pytest.mark.parametrize("degrees", [90, 180, 270, 30])
def test_rotated_text_is_drawn_rotated(tmp_path: Path, degrees: int) -> None:
    """Clockwise as the card is seen: the characters' text matrix turns by -degrees (PDF y
    points up), and the title's centre stays the box's centre."""
    layouts = (
        "layouts:\n  lay:\n    elements:\n"
        f"      - {{name: t, box: [10, 30, 43, 10], field: title, size: 10, align: center,\n"
        f"         valign: middle, rotate: {degrees}}}\n"
    )
    pdf = _build(_game(tmp_path, layouts))
    chars = _front_chars(pdf, "Rotated")
    a, b = chars[0]["matrix"][:2]
    turned = (math.degrees(math.atan2(b, a)) + degrees + 180) % 360 - 180
    assert turned == pytest.approx(0, abs=1e-4)
    upright = _build(
        _game(tmp_path / "upright", layouts.replace(f"rotate: {degrees}", "rotate: 0"))
    )
    flat = _front_chars(upright, "Rotated")

    def centre(cs: list[dict[str, Any]]) -> tuple[float, float]:
        xs = [v for c in cs for v in (c["x0"], c["x1"])]
        ys = [v for c in cs for v in (c["top"], c["bottom"])]
        return (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2

    # the word turns about the box's centre, so its centre stays put: within 5 pt (the line's
    # box, which is centred, is not its glyphs' box: 2 pt apart, twice that after a half
    # turn); about any other point it would move by tens of points (the box is 43 x 10 mm)
    (x, y), (fx, fy) = centre(chars), centre(flat)
    assert x == pytest.approx(fx, abs=5) and y == pytest.approx(fy, abs=5)


def _content(pdf: Path) -> str:
    """The content streams of every page of a PDF and of the forms they draw (faces used more
    than once are forms)."""
    import pypdf

    out: list[str] = []
    seen: set[int] = set()

    def forms(resources: Any) -> None:
        xobjects = resources.get("/XObject") if resources else None
        for ref in (xobjects or {}).values():
            obj = ref.get_object()
            if obj.get("/Subtype") == "/Form" and id(obj) not in seen:
                seen.add(id(obj))
                out.append(obj.get_data().decode("latin-1"))
                forms(obj.get("/Resources"))

    for page in pypdf.PdfReader(pdf).pages:
        contents = page.get_contents()
        if contents is not None:
            out.append(contents.get_data().decode("latin-1"))
        forms(page.get("/Resources"))
    return "\n".join(out)


def test_a_rotated_element_turns_the_canvas_about_its_box_centre(tmp_path: Path) -> None:
    layouts = (
        "layouts:\n  lay:\n    elements:\n"
        "      - {box: [10, 20, 40, 10], fill: '#123456', rotate: 90}\n"
    )
    text = _content(_build(_game(tmp_path, layouts)))
    # the box's centre in the face's own points: 30 mm from the left, 25 mm from the top
    cx, cy = 30 * 72 / 25.4, (88 - 25) * 72 / 25.4
    num = r"([-\d.]+)"
    turn = re.search(
        rf"{num} {num} {num} {num} {num} {num} cm\s+\.070588 \.203922 \.337255 rg", text
    )
    assert turn, "the fill of #123456 is not drawn right after a transformation"
    a, b, c, d, e, f = map(float, turn.groups())
    assert (a, b, c, d) == pytest.approx((0, -1, 1, 0))  # a quarter turn, clockwise on paper
    # the centre is the fixed point of the transformation
    assert (a * cx + c * cy + e, b * cx + d * cy + f) == pytest.approx((cx, cy), abs=0.01)


def _drawn_segments(text: str) -> list[tuple[float, ...]]:
    """Every 'x y m x y l' pair of the content stream."""
    num = r"([-\d.]+)"
    pattern = rf"{num} {num} m\s+{num} {num} l"
    return [tuple(map(float, m)) for m in re.findall(pattern, text)]


def test_a_line_is_drawn_where_declared(tmp_path: Path) -> None:
    layouts = (
        "layouts:\n  lay:\n    elements:\n"
        "      - {line: [5, 10, 58, '50%'], stroke: '#ff0000', stroke_width: 0.8}\n"
    )
    text = _content(_build(_game(tmp_path, layouts)))
    k = 72 / 25.4
    want = (5 * k, (88 - 10) * k, 58 * k, (88 - 44) * k)
    assert any(
        all(abs(a - b) < 0.01 for a, b in zip(seg, want, strict=True))
        for seg in _drawn_segments(text)
    ), "the line is not in the content stream"
    assert f"{0.8 * k:.5g}"[:4] in text  # its width in points
    assert "1 0 0 RG" in text  # red stroke


def test_a_polygon_is_filled_and_outlined_at_its_points(tmp_path: Path) -> None:
    layouts = (
        "layouts:\n  lay:\n    elements:\n"
        "      - {points: [[10, 10], [50, 10], [30, 40]], fill: '{{ values.c }}',\n"
        "         stroke: black, rotate: 180}\n"
    )
    text = _content(_build(_game(tmp_path, layouts)))
    k = 72 / 25.4
    # turned half a turn about the centre of its extent (30, 25): (10, 10) -> (50, 40)
    num = r"([-\d.]+)"
    path = re.search(rf"{num} {num} m\s+{num} {num} l\s+{num} {num} l\s+h\s+B", text)
    assert path, "no closed, filled and stroked path"
    got = list(map(float, path.groups()))
    want = [50 * k, (88 - 40) * k, 10 * k, (88 - 40) * k, 30 * k, (88 - 10) * k]
    assert got == pytest.approx(want, abs=0.01)
    assert "0 0 .501961 rg" in text  # navy, from the card's values


def test_built_in_elements_can_be_moved_and_dropped(tmp_path: Path) -> None:
    """extends: card with the title moved (an element of the same name) and the band and
    footer dropped."""
    layouts = (
        "layouts:\n  lay:\n    extends: card\n    elements:\n"
        "      - {name: band, drop: true}\n"
        "      - {name: footer, drop: true}\n"
        "      - {name: title, box: [5, 70, 53, 10], field: title, size: 12}\n"
    )
    cards = "      - {id: a, title: {en: Rotated}, text: {en: Words.}, footer: {en: Small}}\n"
    root = _game(tmp_path, layouts, cards)
    from pnp.content.load import load_game
    from pnp.typeset.faces import layout_table, resolve_layout

    game = load_game(open_root(root), "g", Report())
    assert game is not None
    names = [e.name for e in resolve_layout(layout_table(game), "lay").elements]
    assert names == ["title", "subtitle", "text", "flavor"]
    (top,) = {c["top"] for c in _front_chars(_build(root), "Rotated")[:1]}
    assert top * 25.4 / 72 > 60  # the title is low on the card now, not in the band


def test_a_drop_naming_nothing_is_a_finding(tmp_path: Path) -> None:
    layouts = (
        "layouts:\n  lay:\n    extends: card\n    elements:\n      - {name: titel, drop: true}\n"
    )
    root = _game(tmp_path, layouts)
    (found,) = [f for f in run_validate(root).sorted() if f.rule == "reference"]
    assert (found.pos.line, found.pos.col) == (5, 16)
    assert "did you mean 'title'?" in found.message


def test_a_layout_named_back_extends_the_built_in_back(tmp_path: Path) -> None:
    """The natural way to change the built-in back: no layout-cycle, the built-in's elements
    inherited, the new one added."""
    layouts = (
        "layouts:\n  lay:\n    extends: card\n"
        "  back:\n    extends: back\n    elements:\n"
        "      - {name: subtitle, drop: true}\n"
        "      - {name: mark, box: [25, 10, 13, 13], fill: '#ffd54f', radius: 6.5}\n"
    )
    root = _game(tmp_path, layouts)
    report = run_validate(root)
    assert not [f for f in report.sorted() if f.severity is Severity.ERROR], report.format_text()
    from pnp.content.load import load_game
    from pnp.typeset.faces import layout_table, resolve_layout

    game = load_game(open_root(root), "g", Report())
    assert game is not None
    resolved = resolve_layout(layout_table(game), "back")
    assert [e.name for e in resolved.elements] == ["title", "mark"]
    assert resolved.background == "#37474f"  # the built-in back's
    assert "1 .835294 .309804 rg" in _content(_build(root))  # the new element is drawn


def test_a_style_may_be_a_colour(tmp_path: Path) -> None:
    """style: "#ff00ff" is the default style with that accent: the built-in card's band."""
    cards = (
        "      - {id: a, title: {en: Rotated}, style: '#ff00ff'}\n"
        "      - {id: b, title: {en: Other}, style: purpel}\n"
    )
    root = _game(tmp_path, "layouts:\n  lay:\n    extends: card\n", cards)
    (found,) = [f for f in run_validate(root).sorted() if f.severity is Severity.ERROR]
    assert found.rule == "reference" and "did you mean 'purple'?" in found.message
    assert "or give a colour" in found.message
    folder = root / "cards" / "g" / "decks.yaml"
    folder.write_text(folder.read_text("utf-8").replace("purpel", "purple"), "utf-8")
    text = _content(_build(root))
    assert "1 0 1 rg" in text  # the band of card a
    assert ".501961 0 .501961 rg" in text  # purple: a CSS name


def test_templated_colour_and_image_findings_name_the_card(tmp_path: Path) -> None:
    layouts = (
        "layouts:\n  lay:\n    elements:\n"
        "      - {box: [0, 0, 63, 10], fill: '{{ values.c }}'}\n"
        "      - {box: [0, 20, 20, 20], image: '{{ values.pic }}'}\n"
    )
    cards = (
        "      - {id: fine, values: {c: navy, pic: art/ok.png}}\n"
        "      - {id: wrong, values: {c: blu, pic: art/none.png}}\n"
        "      - {id: escapes, values: {c: '#fff', pic: ../../x.png}}\n"
    )
    root = _game(tmp_path, layouts, cards, art=True)
    found = {
        (f.rule, f.pos.line, f.pos.col): f.message
        for f in run_validate(root).sorted()
        if f.severity is Severity.ERROR
    }
    assert sorted(found) == [("missing-file", 5, 39), ("schema", 4, 37), ("unsafe-path", 5, 39)]
    colour = found[("schema", 4, 37)]
    assert "gives 'blu' for card 'wrong'" in colour and "did you mean 'blue'?" in colour
    assert "for card 'wrong'" in found[("missing-file", 5, 39)]
    assert "for card 'escapes'" in found[("unsafe-path", 5, 39)]


def test_colours_are_read_as_written_for_the_web() -> None:
    """#rgb doubles each digit as CSS does (reportlab alone reads "#abc" as #000abc); names in
    any case; none; nothing reportlab would evaluate or turn into something else."""
    from pnp.typeset.faces import read_colour

    assert read_colour("#ABC") == "#aabbcc"
    assert read_colour(" Tomato ") == "tomato"
    assert read_colour("#1F4E9C") == "#1f4e9c"
    assert read_colour("NONE") == "none"
    for wrong in ("blu", "#12", "#1234", "0xff0000", "rgb(1,2,3)", "0.5", "red,green", ""):
        assert read_colour(wrong) is None, wrong
    assert read_colour("transparent") is None  # prints nothing: none says so


def test_a_short_hex_colour_prints_as_css_reads_it(tmp_path: Path) -> None:
    layouts = "layouts:\n  lay:\n    elements:\n      - {box: [5, 5, 20, 20], fill: '#abc'}\n"
    text = _content(_build(_game(tmp_path, layouts)))
    assert ".666667 .733333 .8 rg" in text  # #aabbcc, not #000abc
