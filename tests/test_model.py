"""The model: typed conversion with positions, suggestions for typos, multilingual text."""

from __future__ import annotations

import ast
import dataclasses
import importlib
import pkgutil
import typing
from pathlib import Path

import pnp.content.model as model
from pnp.content.model import Card, Deck, GameFile, Outcome, Text, Total, valid_language
from pnp.content.schema import INVALID, Context, convert, json_schema
from pnp.content.yamlio import parse_text
from pnp.core.findings import Report
from pnp.core.units import CARD_SIZES


def load(src: str, tp):
    report = Report()
    data = parse_text(src, "f.yaml", report).data
    ctx = Context(report)
    return convert(data, tp, data.pos, ctx), report, ctx


def test_card_fields_and_positions() -> None:
    card, report, _ = load("id: boss\ncopies: 2\ntitle: {it: Padrona, en: Boss}\n", Card)
    assert not report.findings
    assert card.copies == 2 and card.at("copies").line == 2
    assert card.title.values == {"it": "Padrona", "en": "Boss"}
    assert card.title.at("en").line == 3


def test_unknown_key_suggests_the_nearest() -> None:
    _, report, _ = load("id: x\ntitel: X\n", Card)
    (f,) = report.findings
    assert f.rule == "unknown-key" and f.pos.line == 2
    assert "did you mean 'title'" in f.message and "accepted keys" in f.message


def test_wrong_types_are_errors_at_the_value() -> None:
    _card, report, _ = load("id: x\ncopies: many\n", Card)
    (f,) = report.findings
    assert f.rule == "schema" and (f.pos.line, f.pos.col) == (2, 9)
    assert "whole number" in f.message


def test_plain_string_is_source_language_text() -> None:
    card, _report, ctx = load("id: x\ntitle: Ciao\n", Card)
    assert card.title.plain and card.title.values == {"": "Ciao"}
    assert ctx.texts == [card.title]


def test_deck_sizes_and_ids_from_keys() -> None:
    deck, report, _ = load("size: tarot\ncards: [{id: a}]\n", Deck)
    assert deck.size == CARD_SIZES["tarot"]
    deck, report, _ = load("size: [50, 70]\n", Deck)
    assert (deck.size.w, deck.size.h) == (50, 70)
    deck, report, _ = load("size: huge\n", Deck)
    assert report.findings[0].rule == "schema" and "poker" in report.findings[0].message


def test_missing_required_key() -> None:
    obj, report, _ = load("title: X\nlanguages: [it]\n", GameFile)
    assert obj is INVALID
    assert "source_language" in report.findings[0].message


def test_language_codes() -> None:
    for good in ("it", "en", "es", "pt_BR", "no", "zh_Hant"):
        assert valid_language(good), good
    for bad in ("xx", "english", "EN", "it-IT", ""):
        assert not valid_language(bad), bad


def test_json_schema_names_every_field() -> None:
    schema = json_schema(GameFile, "pnp game")
    props = schema["$defs"]["GameFile"]["properties"]
    assert {"title", "languages", "decks", "box", "tables"} <= set(props)
    card = schema["$defs"]["Card"]["properties"]
    assert "copies" in card and card["copies"]["type"] == "integer"
    assert isinstance(Text.json_schema(), dict)


def test_the_model_package_exports_every_public_name() -> None:
    """What each part of the format defines is importable from pnp.content.model itself."""
    for info in pkgutil.iter_modules(model.__path__):
        module = importlib.import_module(f"{model.__name__}.{info.name}")
        tree = ast.parse(Path(str(module.__file__)).read_text("utf-8"))
        defined = [n.name for n in tree.body if isinstance(n, ast.ClassDef | ast.FunctionDef)]
        defined += [
            t.id
            for n in tree.body
            if isinstance(n, ast.Assign)
            for t in n.targets
            if isinstance(t, ast.Name)
        ]
        for name in (n for n in defined if not n.startswith("_")):
            assert name in model.__all__, f"{info.name}.{name} is not re-exported"
            assert getattr(model, name) is getattr(module, name)


def test_every_model_annotation_resolves() -> None:
    """The loader reads type hints: every name an annotation mentions resolves, and ClassVars
    (label, shorthand...) stay out of the fields."""
    for name in model.__all__:
        cls = getattr(model, name)
        if isinstance(cls, type) and dataclasses.is_dataclass(cls):
            hints = typing.get_type_hints(cls, include_extras=True)
            fields = {f.name for f in dataclasses.fields(cls)}
            assert fields <= set(hints), name
            assert not fields & {"label", "shorthand", "SELECTORS", "TEXT_FIELDS"}, name


def test_equal_unions_try_their_own_members_in_order() -> None:
    """int | str and str | int are equal annotations: each still names its members its way."""
    for _ in range(2):
        _, report, _ = load("count: [1]\n", Outcome)
        assert "expected a whole number or a text" in report.findings[0].message
        _, report, _ = load("of: [a]\nequals: [1]\n", Total)
        assert "expected a text or a whole number" in report.findings[0].message
