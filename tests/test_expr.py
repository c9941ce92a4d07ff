"""The invariant sandbox: plain data in, no escape, bounded time and size."""

from __future__ import annotations

import time

import pytest

from pnp.content.expr import Evaluator, ExprError, Record


@pytest.fixture
def ev() -> Evaluator:
    rows = [Record({"players": p, "events": e}) for p, e in ((2, 8), (3, 10))]
    return Evaluator({"tables": Record({"setup": rows}), "n": 3}, {})


def test_records_read_by_attribute_and_item(ev: Evaluator) -> None:
    assert ev.eval("tables.setup[0].players + tables['setup'][1]['events']") == 12
    assert ev.eval("sum(r.events for r in tables.setup)") == 18
    assert ev.eval("[r.players for r in tables.setup if r.events > 8]") == [3]


@pytest.mark.parametrize(
    "expr",
    [
        "__import__('os').system('true')",
        "tables.__class__",
        "tables._data",
        "(1).__class__.__bases__",
        "'{0.__class__}'.format(1)",
        "open('/etc/passwd').read()",
        "9 ** 9 ** 9",
        "'x' * 10**9",
        "n.real",
        "undefined_name",
        "tables.setup[5]",
        "1 +",
    ],
)
def test_hostile_or_broken_expressions_are_findings(ev: Evaluator, expr: str) -> None:
    with pytest.raises(ExprError):
        ev.eval(expr)


def test_runaway_expressions_stop_quickly(ev: Evaluator) -> None:
    start = time.perf_counter()
    for expr in (
        "[[x for x in range(100000)] for y in range(100000)]",
        "sum(x * y for x in range(100000) for y in range(100000))",
        "max(range(10**12))",
    ):
        with pytest.raises(ExprError):
            ev.eval(expr)
    assert time.perf_counter() - start < 5
