"""Invariants are easier to write: numeric keys work as numbers, type tests, tables' columns
and rows by key, every step's draws per player count, and a message placeholder that cannot be
filled is a finding (issue 31, item 7)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.content.expr import Evaluator, ExprError, Record
from pnp.content.load import load_game, open_root
from pnp.content.records import game_data
from pnp.core.findings import Report

from helpers import FIXTURES, REPO, make_root, run_validate


@pytest.fixture(scope="module")
def status() -> Evaluator:
    game = load_game(open_root(REPO), "status", Report())
    assert game is not None
    names, functions = game_data(game)
    return Evaluator(names, functions)


def test_numeric_keys_work_as_numbers_and_strings() -> None:
    draws = Record({"2": 12, "3": 16})
    ev = Evaluator({"d": draws, "r": Record({2: "two"})}, {})
    assert ev.eval("d[2] + d['3']") == 28
    assert ev.eval("r['2'] == r[2] == 'two'")
    assert ev.eval("2 in d and '3' in d and 4 not in d")
    with pytest.raises(ExprError, match=r"no entry 4 \(entries: '2', '3'\)"):
        ev.eval("d[4]")


@pytest.mark.parametrize(
    ("expr", "want"),
    [
        ("is_number(3) and is_number(2.5) and not is_number(True) and not is_number('3')", True),
        ("is_whole(3) and not is_whole(3.5) and not is_whole(False)", True),
        ("is_text('a') and not is_text(1)", True),
        ("is_list([1]) and is_list(tables.setup) and not is_list(tables.setup[0])", True),
        ("is_record(tables.setup[0]) and is_record(decks.events) and not is_record([])", True),
        ("[type_of(x) for x in [1, 1.5, 'a', True, None, [], tables.setup, decks]]",
         ["whole number", "number", "text", "true/false", "none", "list", "list", "record"]),
    ],
)  # fmt: skip
def test_type_tests(status: Evaluator, expr: str, want: object) -> None:
    assert status.eval(expr) == want


def test_a_table_reads_as_its_rows_and_has_fields(status: Evaluator) -> None:
    assert status.eval("len(tables.setup)") == 3
    assert status.eval("tables.setup[0].events + tables.setup[-1].events") == 32
    assert status.eval("[r.players for r in tables.setup]") == [2, 3, 4]
    assert status.eval("len(tables.setup + tables['military-start'])") == 7
    assert status.eval("tables.setup.key") == "players"
    assert status.eval("[c.id for c in tables.setup.columns]") == ["players", "events", "draws"]
    assert status.eval("tables.setup.columns[1].deals.deck") == "events"
    assert status.eval("tables.setup.row[3].events == tables.setup.row['3'].events == 16")
    assert status.eval("tables.setup.rows[2] == tables.setup[2]")


def test_every_step_says_what_it_draws_per_player_count(status: Evaluator) -> None:
    assert status.eval("scenarios.standard.counts") == [2, 3, 4]
    assert status.eval("scenarios.standard.cards[0].draws[4]") == 20
    assert status.eval(
        "all(s.cards[0].draws[n] == tables.setup.row[n].events "
        "for s in scenarios for n in s.counts)"
    )
    assert status.eval("tracks.military.length") == 20


def test_a_message_placeholder_that_cannot_be_filled_is_a_finding(tmp_path: Path) -> None:
    root = make_root(tmp_path, FIXTURES / "clean")
    rules = root / "cards" / "mini" / "rules.yaml"
    rules.write_text(
        "invariants:\n"
        "  - id: holds\n"
        '    for_each: "row in tables.deal"\n'
        '    assert: "row.alpha >= 1"\n'
        '    message: {en: "with {players} players: {row.bogus}"}\n'
        "  - id: literal-braces\n"
        '    assert: "True"\n'
        '    message: {en: "prints {{coin}} as written"}\n',
        "utf-8",
    )
    found = [f for f in run_validate(root).sorted() if f.rule == "invariant-message"]
    assert len(found) == 1, [f.text() for f in found]
    assert found[0].pos.line == 5
    assert "row has no field 'bogus'" in found[0].message
    assert "{row.players}" in found[0].message  # what the row offers
