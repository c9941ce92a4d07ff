"""Safe expressions for a game's own invariants, evaluated with simpleeval over plain data.

Expressions see only :class:`Record` objects, lists, numbers and strings built from the game
(never model objects), and a handful of functions. Attribute access works on records only
(``row.players``), names starting with ``_`` are refused, comprehensions, strings and powers
are bounded by simpleeval, and a wall-clock limit stops runaway expressions.

An expression is parsed once (:func:`parse`, kept between runs as a pure function's memo) and
without a time limit: its length is bounded, and a timer that fires inside Python's parser can
leave the interpreter's own state wrong (``SystemError: AST constructor recursion depth
mismatch`` from the next parse). Only evaluation, plain Python code that an exception unwinds
cleanly, is timed.
"""

from __future__ import annotations

import ast
import contextlib
import functools
import math
import re
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, TypeGuard

import simpleeval
from simpleeval import EvalWithCompoundTypes

from ..compat.simpleeval import every_attribute_of, set_limits
from ..core.findings import Pos
from ..core.run import current

TIME_LIMIT_S = 1.0
MAX_EXPR_CHARS = 2000

set_limits(string_length=10_000, power=1_000_000, comprehension_length=100_000)


class Record:
    """Read-only data with both ``r.key`` and ``r['key']`` access (and a source position)."""

    __slots__ = ("_data", "_pos")
    _listlike = False  # a subclass that reads as a list (a table's rows) says so

    def __init__(self, data: dict[str, Any], pos: Pos | None = None) -> None:
        object.__setattr__(self, "_data", data)
        object.__setattr__(self, "_pos", pos)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self._data[name]
        except KeyError:
            raise AttributeError(name) from None

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("records are read-only")

    def __getitem__(self, key: Any) -> Any:
        data = self._data
        if key in data:
            return data[key]
        other = _other_key(key)
        if other is not None and other in data:
            return data[other]
        raise NoEntry(key, list(data))

    def __contains__(self, key: Any) -> bool:
        if key in self._data:
            return True
        other = _other_key(key)
        return other is not None and other in self._data

    def __iter__(self) -> Iterator[Any]:
        return iter(self._data.values())

    def __len__(self) -> int:
        return len(self._data)

    def items(self) -> list[tuple[str, Any]]:
        """The fields and their values (for messages)."""
        return list(self._data.items())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Record) and other._data == self._data

    def __hash__(self) -> int:
        return id(self)

    def __repr__(self) -> str:
        inner = ", ".join(f"{k}={v!r}" for k, v in list(self._data.items())[:6])
        return f"({inner})"

    @property
    def pos(self) -> Pos | None:  # not reachable from expressions (attribute names are data)
        return self._pos

    def data(self) -> dict[str, Any]:
        return self._data


def _other_key(key: Any) -> Any:
    """The same key written the other way: 2 for '2', '2' for 2 (numeric keys work as
    numbers and as strings: ``draw[2]`` and ``draw['2']``)."""
    if isinstance(key, int) and not isinstance(key, bool):
        return str(key)
    if isinstance(key, str) and re.fullmatch(r"-?[0-9]+", key):
        return int(key)
    return None


class NoEntry(KeyError):
    """A record has no entry of that name: the message lists the ones it has."""

    def __init__(self, key: Any, known: list[Any]) -> None:
        super().__init__(key)
        self.key = key
        self.known = known

    def __str__(self) -> str:
        shown = ", ".join(repr(k) for k in self.known[:12])
        more = " ..." if len(self.known) > 12 else ""
        return f"no entry {self.key!r} (entries: {shown or 'none'}{more})"


class ExprError(Exception):
    """An expression that cannot be evaluated: the message says why."""


class _Timeout(Exception):
    pass


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise ExprError when the block runs longer than ``seconds`` (main thread only)."""
    try:
        with _time_limit(seconds):
            yield
    except _Timeout:
        raise ExprError(f"took longer than {seconds:g} s") from None


@contextlib.contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread() or not hasattr(
        signal, "setitimer"
    ):
        yield  # no timer outside the main thread: simpleeval's size limits still apply
        return

    def _raise(_signum: int, _frame: object) -> None:
        raise _Timeout

    old = signal.signal(signal.SIGALRM, _raise)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def is_number(value: Any) -> bool:
    """A number, whole or not (true and false are not numbers)."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def is_whole(value: Any) -> TypeGuard[int]:
    """A whole number (3, not 3.5, not true)."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_text(value: Any) -> bool:
    """A text (a string): an id, a word, a table's text cell."""
    return isinstance(value, str)


def is_list(value: Any) -> bool:
    """A list: a table's rows, a card's tags, a deck's ids, a scenario's steps."""
    return isinstance(value, list | tuple | range) or (
        isinstance(value, Record) and type(value)._listlike
    )


def is_record(value: Any) -> bool:
    """A record with fields: a card, a deck, a row, a track..."""
    return isinstance(value, Record) and not type(value)._listlike


def type_of(value: Any) -> str:
    """What a value is, in the words of docs/format.md: whole number, number, text,
    true/false, list, record or none."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true/false"
    if is_whole(value):
        return "whole number"
    if is_number(value):
        return "number"
    if is_text(value):
        return "text"
    if is_list(value):
        return "list"
    return "record" if is_record(value) else type(value).__name__


TYPE_TESTS: dict[str, Callable[..., Any]] = {
    "is_number": is_number,
    "is_whole": is_whole,
    "is_text": is_text,
    "is_list": is_list,
    "is_record": is_record,
    "type_of": type_of,
}

SAFE_FUNCTIONS: dict[str, Callable[..., Any]] = {
    **TYPE_TESTS,
    "sum": sum,
    "len": len,
    "min": min,
    "max": max,
    "all": all,
    "any": any,
    "abs": abs,
    "round": round,
    "sorted": sorted,
    "set": set,
    "int": int,
    "str": str,
}


def _range(*args: int) -> range:
    r = range(*args)
    if len(r) > 100_000:
        raise ExprError("range() of more than 100,000 numbers")
    return r


class Evaluator:
    def __init__(self, names: dict[str, Any], functions: dict[str, Callable[..., Any]]) -> None:
        self.names = names
        self.functions = {**SAFE_FUNCTIONS, "range": _range, **functions}
        self.deadline: float | None = None  # see budget()
        self.budget_s = 0.0

    @contextlib.contextmanager
    def budget(self, seconds: float) -> Iterator[None]:
        """Every :meth:`eval` inside the block shares ``seconds`` of wall time: a check that
        evaluates one expression per row is bounded as a whole, not per row."""
        self.deadline = time.monotonic() + seconds
        self.budget_s = seconds
        try:
            yield
        finally:
            self.deadline = None

    def eval(self, expr: str, extra: dict[str, Any] | None = None) -> Any:
        """The value of ``expr`` with these names (and ``extra``); ExprError says why not."""
        tree = parse(expr)
        names = {**self.names, **(extra or {})}
        ev = EvalWithCompoundTypes(
            names=names, functions=self.functions, allowed_attrs=_record_attributes()
        )
        limit = TIME_LIMIT_S
        if self.deadline is not None:
            limit = min(limit, self.deadline - time.monotonic())
            if limit <= 0:
                raise ExprError(
                    f"its rows took longer than {self.budget_s:g} s in total; simplify it"
                )
        try:
            with _time_limit(limit):
                return ev.eval(expr, previously_parsed=tree)
        except _Timeout:
            if limit < TIME_LIMIT_S:  # the budget ran out, not this expression's own limit
                raise ExprError(
                    f"its rows took longer than {self.budget_s:g} s in total; simplify it"
                ) from None
            raise ExprError(f"took longer than {TIME_LIMIT_S:g} s; simplify it") from None
        except simpleeval.NameNotDefined as exc:
            known = ", ".join(sorted(names)) or "none"
            raise ExprError(f"unknown name {exc.name!r}; names: {known}") from None
        except simpleeval.FunctionNotDefined as exc:
            raise ExprError(
                f"unknown function {exc.func_name!r}; functions: "
                f"{', '.join(sorted(self.functions))}"
            ) from None
        except ExprError:
            raise
        except Exception as exc:
            explained = _explained(exc)
            if explained is exc:  # not the expression's fault: a bug, with its traceback
                raise
            raise explained from None


def _record_attributes() -> dict[type, Any]:
    """simpleeval's ``allowed_attrs``: any field of a record (of :class:`Record` or of a
    subclass, such as a table's), nothing of anything else."""
    classes = [Record]
    for cls in classes:
        classes.extend(c for c in cls.__subclasses__() if c not in classes)
    return _attributes_of(tuple(classes))


@functools.cache
def _attributes_of(classes: tuple[type, ...]) -> dict[type, Any]:
    """The attributes of these classes (a memo of pnp's own classes: kept between runs)."""
    return every_attribute_of(*classes)


def parse(expr: str) -> ast.AST:
    """``expr``'s syntax tree, as simpleeval evaluates it; ExprError when it has none. Not
    timed (see the module's docstring): the length is checked first."""
    if len(expr) > MAX_EXPR_CHARS:
        raise ExprError(f"expression longer than {MAX_EXPR_CHARS} characters")
    try:
        return _parsed(expr)
    except SyntaxError as exc:
        raise ExprError(f"syntax error: {exc.msg}") from None
    except simpleeval.InvalidExpression as exc:
        raise ExprError(_first_line(str(exc))) from None
    except ValueError as exc:  # a NUL character
        raise ExprError(f"syntax error: {_first_line(str(exc))}") from None
    except (RecursionError, MemoryError):
        raise ExprError("the expression is too large to evaluate") from None


def _parsed(expr: str) -> ast.AST:
    """The tree of ``expr``, parsed once per run (simpleeval reads a tree, never changes it):
    the run owns the memo, so nothing of a game's content stays in the process."""
    trees = current().store("content.expr", limit=5000)
    tree: ast.AST | None = trees.get(expr)
    if tree is None:
        tree = trees[expr] = EvalWithCompoundTypes.parse(expr)
    return tree


def _explained(exc: Exception) -> Exception:
    """An exception raised while evaluating, as the ExprError a finding reports (or itself
    when it is not the expression's fault)."""
    if isinstance(exc, simpleeval.AttributeDoesNotExist):
        return ExprError(f"no field {exc.attr!r} here")
    if isinstance(exc, simpleeval.InvalidExpression):
        return ExprError(_first_line(str(exc)))
    if isinstance(exc, NoEntry):
        return ExprError(str(exc))
    if isinstance(exc, KeyError | IndexError):
        return ExprError(f"no entry {exc.args[0]!r}" if exc.args else "missing entry")
    if isinstance(exc, ValueError) and "integer string conversion" in str(exc):
        return ExprError(
            f"a number of more than {MAX_DIGITS:,} digits cannot be written as text or read "
            "from text (str(), int() of a string); keep the numbers smaller"
        )
    if isinstance(exc, TypeError | ValueError | ArithmeticError | AttributeError):
        return ExprError(f"{type(exc).__name__}: {_first_line(str(exc))}")
    if isinstance(exc, RecursionError | MemoryError):
        return ExprError("the expression is too large to evaluate")
    return exc


# the most digits Python writes an integer with (sys.set_int_max_str_digits; 0: no limit)
MAX_DIGITS = sys.get_int_max_str_digits() or 4300


def shown(value: Any) -> str:
    """``value`` as text for a finding; an integer too long for Python to write (over
    MAX_DIGITS digits) as its size, and anything holding one as such (never a ValueError)."""
    if isinstance(value, int) and value.bit_length() > MAX_DIGITS * 3:  # 3.32 bits a digit
        digits = int(value.bit_length() * math.log10(2)) + 1
        if digits > MAX_DIGITS - 2:
            sign = "-" if value < 0 else ""
            return f"{sign}a number of about {digits:,} digits"
    try:
        return str(value)
    except ValueError:  # a list or record holding such a number
        return f"a value holding a number of more than {MAX_DIGITS:,} digits"


def _first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else "invalid expression"


FOR_EACH_RE = re.compile(r"^\s*([A-Za-z][A-Za-z0-9_]*)\s+in\s+(.+?)\s*$", re.S)


def parse_for_each(text: str) -> tuple[str, str]:
    m = FOR_EACH_RE.match(text)
    if not m:
        raise ExprError("for_each is written 'name in collection', e.g. 'row in tables.roles'")
    return m.group(1), m.group(2)


def iterate(collection: Any) -> list[Any]:
    if isinstance(collection, Record):
        return list(collection)
    if isinstance(collection, dict):
        return list(collection.values())
    if isinstance(collection, list | tuple | range | set):
        return list(collection)
    raise ExprError(f"for_each needs a list or a mapping, not {type(collection).__name__}")
