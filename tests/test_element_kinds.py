"""Element kinds: one class per kind in pnp/typeset/faces/kinds/, registered in one table.

- the table, the format (``Element`` and its JSON Schema) and docs/format.md name the same kinds;
- outside the kinds, no module of typeset, printing or validate asks which kind an element is
  (no isinstance over operations, no test of an element's kind key);
- a kind put in the table is what laying out, validating and drawing a face use: a test kind
  swapped in for the track changes all three.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, ClassVar

import pytest
from typer.testing import CliRunner

from pnp.cli import app
from pnp.content.model import Element, GameFile
from pnp.content.schema import json_schema
from pnp.core.rules import TRACK_CELL
from pnp.typeset.faces import kinds
from pnp.typeset.faces.kinds import KINDS, Placed, kind_of
from pnp.typeset.faces.kinds.track import Track
from pnp.typeset.faces.ops import FillOp, Operation, Surface

from helpers import REPO, make_root, run_validate

KEYS = [k.key for k in KINDS]
DOC = (REPO / "docs" / "format.md").read_text("utf-8")


def _section(title: str) -> str:
    start = DOC.index(title)
    end = DOC.index("\n#", start + len(title))
    return DOC[start:end]


def test_the_table_and_the_format_name_the_same_kinds() -> None:
    assert None not in KEYS and len(set(KEYS)) == len(KEYS)
    assert set(KEYS) == set(Element.KINDS)
    fields = Element.__dataclass_fields__
    properties = json_schema(GameFile, "pnp game")["$defs"]["Element"]["properties"]
    for key in KEYS:
        assert key is not None
        assert fields[key].metadata.get("doc"), f"Element.{key} has no doc"
        assert key in properties, f"the JSON Schema of an element has no {key}"


def test_docs_format_describe_every_kind() -> None:
    elements = _section("### Elements")
    draws = _section("#### What an element draws")
    for key in KEYS:
        assert f"| `{key}` |" in elements, f"docs/format.md's element table has no row {key}"
        assert f"`{key}`" in elements.split("|")[0], f"'draws exactly one of' misses {key}"
        assert f"- **`{key}:`**" in draws, f"'What an element draws' does not explain {key}:"
    assert "**none of these**" in draws  # the plain box


def test_each_kind_is_one_class_in_its_own_module() -> None:
    modules = {type(k).__module__ for k in KINDS}
    assert len(modules) >= len(KINDS) - 2  # field and template share text.py, line/polygon a path
    for kind in KINDS:
        assert type(kind).__doc__, f"{type(kind).__name__} says nothing of what it draws"
        assert type(kind).in_box is not kinds.ElementKind.in_box or (
            type(kind).layout is not kinds.ElementKind.layout
        ), f"{type(kind).__name__} lays nothing out"


ASKS_KIND = re.compile(
    r"\b(el|e|element)\.(" + "|".join(str(k) for k in KEYS) + r")\b"
    r"|isinstance\([^)]*\b(FillOp|StrokeOp|ImageOp|TextOp|TrackOp|TableOp|PathOp|Group)\b"
)


def test_nothing_outside_the_kinds_asks_which_kind_an_element_is() -> None:
    found = []
    for package in ("typeset", "printing", "validate"):
        for path in sorted((REPO / "pnp" / package).rglob("*.py")):
            if "kinds" in path.parts:
                continue
            for n, line in enumerate(path.read_text("utf-8").splitlines(), 1):
                if ASKS_KIND.search(line):
                    found.append(f"{path.relative_to(REPO)}:{n}: {line.strip()}")
    assert not found, "ask the element's kind (kind_of) instead:\n" + "\n".join(found)


def test_the_kind_of_an_element_is_the_key_it_sets() -> None:
    assert kind_of(Element(track="score")).key == "track"
    assert kind_of(Element(points=((0, 0), (1, 0), (0, 1)))).key == "points"
    assert kind_of(Element(box=(0, 0, 5, 5), fill="red")) is kinds.BOX
    assert kind_of(Element(box=(0, 0, 5, 5), fill="red")).describe(Element(fill="red")) == (
        "filled box"
    )


GAME = """\
title: {en: Kinds}
source_language: en
languages: [en]
"""
BOARD = """\
boards:
  main:
    size: [200, 100]
    layout: board-main
tracks:
  score: {min: 0, max: 5, board: main}
layouts:
  board-main:
    elements:
      - {name: score, box: [10, 10, 120, 20], track: score}
"""


@pytest.fixture
def game_root(tmp_path: Path) -> Path:
    root = make_root(tmp_path)
    folder = root / "cards" / "kinds"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(GAME, "utf-8")
    (folder / "board.yaml").write_text(BOARD, "utf-8")
    return root


class Stamp(Track):
    """A test kind in the track's place: one filled square, drawn by its own operation."""

    drawn: ClassVar[list[Any]] = []

    def describe(self, el: Element) -> str:
        return "stamp"

    def in_box(self, el: Element, box: Any, fc: Any, eng: Any) -> Operation | None:
        return StampOp(box)

    def face_findings(self, p: Placed) -> Any:
        yield TRACK_CELL, f"{p.named} is a stamp on {p.what}"


class StampOp(FillOp):
    def __init__(self, box: Any) -> None:
        super().__init__(box, "#123456")

    def draw(self, s: Surface) -> None:
        Stamp.drawn.append(self.box)
        super().draw(s)


def test_a_kind_in_the_table_is_what_layout_validation_and_drawing_use(
    game_root: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    swapped = tuple(Stamp() if k.key == "track" else k for k in KINDS)
    monkeypatch.setattr(kinds, "KINDS", swapped)
    Stamp.drawn.clear()
    report = run_validate(game_root)
    messages = [f.message for f in report.sorted() if f.rule == TRACK_CELL]
    assert messages == ["element 'score' (stamp) of layout 'board-main' is a stamp on board 'main'"]

    out = tmp_path / "out"
    args = ["build", "kinds", "--root", str(game_root), "--out", str(out), "--jobs", "1"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert Stamp.drawn == [(10.0, 10.0, 120.0, 20.0)]  # the board's page
    [pdf] = out.rglob("*.pdf")
    import pdfplumber

    stamp = tuple(round(v / 255, 3) for v in (0x12, 0x34, 0x56))
    with pdfplumber.open(pdf) as doc:
        colours = [r.get("non_stroking_color") for p in doc.pages for r in p.rects]
    assert stamp in [tuple(round(v, 3) for v in c) for c in colours if c and len(c) == 3]
