"""The invariant sandbox: plain data in, no escape, bounded time and size."""

from __future__ import annotations

import ast
import signal
import time
from typing import Any

import pytest

from pnp.content import expr as expr_module
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


def _spy_parse(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, float]]:
    """Each ``ast.parse`` from now on: its text, and the time left on the alarm as it ran."""
    seen: list[tuple[str, float]] = []
    real = ast.parse

    def spy(source: Any, *args: Any, **kwargs: Any) -> Any:
        seen.append((str(source), signal.getitimer(signal.ITIMER_REAL)[0]))
        return real(source, *args, **kwargs)

    monkeypatch.setattr(ast, "parse", spy)
    return seen


def test_an_expression_is_parsed_once_and_not_against_the_clock(
    ev: Evaluator, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No alarm can fire inside Python's parser (it left the interpreter's recursion counter
    wrong: SystemError from the next parse); the same text is parsed once for every row."""
    seen = _spy_parse(monkeypatch)
    expr_text = f"n * row + {time.monotonic_ns()}"  # a text no test parsed before
    with ev.budget(5.0):
        values = [ev.eval(expr_text, {"row": row}) for row in range(50)]
    assert values == [3 * row + int(expr_text.rsplit(" ", 1)[1]) for row in range(50)]
    assert seen == [(expr_text, 0.0)]


def test_after_an_interrupted_evaluation_the_next_parse_and_evaluation_work(
    ev: Evaluator, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(expr_module, "TIME_LIMIT_S", 0.02)
    seen = _spy_parse(monkeypatch)
    runaway = "sum(x * y for x in range(100000) for y in range(100000))"
    for k in range(20):
        with pytest.raises(ExprError, match=r"took longer than 0\.02 s"):
            ev.eval(runaway)
        fresh = f"sum(r.players for r in tables.setup) + {k} * n"  # parsed after the alarm
        assert ev.eval(fresh) == 5 + 3 * k
    assert len(seen) >= 20 and all(left == 0.0 for _text, left in seen)  # runaway: maybe cached
    assert signal.getitimer(signal.ITIMER_REAL)[0] == 0.0  # no alarm left behind
    assert ast.parse("[" * 90 + "]" * 90) is not None  # the parser's own state is sound


def test_parse_errors_are_findings_before_any_evaluation() -> None:
    for text, message in (
        ("1 +", "syntax error"),
        ("", "empty"),
        ("x" * (expr_module.MAX_EXPR_CHARS + 1), "longer than"),
        ("a\x00b", "syntax error"),
    ):
        with pytest.raises(ExprError, match=message):
            expr_module.parse(text)
