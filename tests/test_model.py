"""The model: typed conversion with positions, suggestions for typos, multilingual text."""

from __future__ import annotations

from pnp.content.model import Card, Deck, GameFile, Text, valid_language
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
