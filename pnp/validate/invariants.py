"""A game's own invariants: safe expressions over its data, each failure a finding."""

from __future__ import annotations

import re
import string
from typing import Any

from ..content.expr import Evaluator, ExprError, Record, iterate, parse_for_each
from ..content.model import Game, Invariant
from ..content.records import game_data
from ..core.rules import INVARIANT, INVARIANT_EXPR, INVARIANT_MESSAGE, Severity
from .context import CheckContext, check

# wall time of one invariant, all its rows together (each expression also has expr's own limit)
INVARIANT_TIME_S = 2.0
# the widest field a message may format ({players:>3} is fine; {players:300000000} is not)
MAX_FORMAT_WIDTH = 100


def _shown(item: Any) -> str:
    """What a failing row or record is, as the designer wrote it: its id, or its plain
    fields (players=5, boss=2)."""
    if not isinstance(item, Record):
        return str(item)
    if "id" in item:
        return str(item["id"])
    plain = [(k, v) for k, v in item.items() if isinstance(v, int | float | str | bool | None)]
    return ", ".join(f"{k}={v}" for k, v in plain[:6]) or "this row"


class Unfilled(Exception):
    """A message placeholder names nothing the item has: the message says which."""


class _Fields(string.Formatter):
    def format_field(self, value: Any, format_spec: str) -> Any:
        if any(int(n) > MAX_FORMAT_WIDTH for n in re.findall(r"\d+", format_spec)):
            raise Unfilled(f"a field wider than {MAX_FORMAT_WIDTH} characters")
        try:
            return super().format_field(value, format_spec)
        except (ValueError, TypeError) as exc:
            raise Unfilled(f"its format {format_spec!r} does not suit {value!r}: {exc}") from None

    def __init__(self, scope: dict[str, Any]) -> None:
        self.scope = scope

    def get_value(self, key: Any, args: Any, kwargs: Any) -> Any:
        if isinstance(key, int) or key == "":
            raise Unfilled("{} and {0} name nothing: write a field's name, e.g. {players}")
        if key in self.scope:
            return self.scope[key]
        for value in self.scope.values():
            if isinstance(value, Record) and key in value:
                return value[key]
        raise Unfilled(f"{{{key}}} names nothing here: {_offered(self.scope)}")

    def get_field(self, field_name: str, args: Any, kwargs: Any) -> Any:
        parts = field_name.split(".")
        if not all(part.isidentifier() or part.isdigit() for part in parts):
            raise Unfilled(  # no indexing or attribute tricks in messages
                f"{{{field_name}}} is not a field: write names joined by dots, e.g. "
                "{s.start.fp} (a number for a numeric key: {draw.2})"
            )
        first, *rest = parts
        obj = self.get_value(first, args, kwargs)
        for part in rest:
            if not isinstance(obj, Record) or part not in obj:
                fields = [k for k, _v in obj.items()] if isinstance(obj, Record) else []
                has = ", ".join(f"{{{first}.{k}}}" for k in fields[:12]) or "no fields"
                raise Unfilled(f"{{{field_name}}}: {first} has no field {part!r}; it has {has}")
            obj = obj[part]
        return obj, first


def _offered(scope: dict[str, Any]) -> str:
    """The names a message may use for this item: the bound names and their fields."""
    names = list(scope)
    for value in scope.values():
        if isinstance(value, Record):
            names += [k for k, _v in value.items() if isinstance(k, str)]
    listed = ", ".join(f"{{{n}}}" for n in dict.fromkeys(names))
    if not listed:
        return "this invariant has no for_each, so its message can name nothing"
    return f"it may name {listed}"


def _printed_text(inv: Invariant, game: Game) -> str:
    """The message as validate prints it: in English when it has it, else the source
    language's."""
    assert inv.message is not None
    values = inv.message.values
    return values.get("en") or values.get(game.source_language) or ""


def _message(inv: Invariant, scope: dict[str, Any], game: Game) -> str:
    if inv.message is None:
        return f"invariant {inv.id} fails: {inv.check_}"
    text = _printed_text(inv, game)
    try:
        return _Fields(scope).format(text)
    except (Unfilled, KeyError, ValueError, IndexError, AttributeError):
        return text


def _unfilled(inv: Invariant, scope: dict[str, Any], item: Any, ctx: CheckContext) -> bool:
    """Report (once: True) a placeholder of the invariant's message, in any of its languages,
    that cannot be filled for this item."""
    if inv.message is None:
        return False
    for lang, text in inv.message.values.items():
        try:
            _Fields(scope).format(text)
        except Unfilled as exc:
            problem = str(exc)
        except (KeyError, ValueError, IndexError, AttributeError) as exc:
            problem = f"it is not a message with {{names}}: {exc}"
        else:
            continue
        what = f" (for {_shown(item)})" if item is not None else ""
        ctx.add(
            INVARIANT_MESSAGE,
            inv.message.at(lang),
            f"invariant {inv.id}: the {lang} message cannot be filled{what}: {problem}; "
            "write {{ and }} for a brace",
        )
        return True
    return False


@check
def invariants(game: Game, ctx: CheckContext) -> None:
    if not game.invariants:
        return
    names, functions = game_data(game)
    ev = Evaluator(names, functions)
    for inv in game.invariants:
        with ev.budget(INVARIANT_TIME_S):
            _one(inv, ev, game, ctx)


def _one(inv: Invariant, ev: Evaluator, game: Game, ctx: CheckContext) -> None:
    """One invariant over all its rows, within the evaluator's budget for it."""
    sev = Severity(inv.severity)
    if inv.for_each is None:
        items: list[tuple[dict[str, Any], Any]] = [({}, None)]
    else:
        try:
            var, coll = parse_for_each(inv.for_each)
            collection = ev.eval(coll)
            items = [({var: item}, item) for item in iterate(collection)]
        except ExprError as exc:
            ctx.add(INVARIANT_EXPR, inv.at("for_each"), f"invariant {inv.id}: for_each: {exc}")
            return
    message_checked = False
    for scope, item in items:
        try:
            if inv.where is not None and not ev.eval(inv.where, scope):
                continue
            if not message_checked:  # the first item checked: its fields are every item's
                message_checked = True
                _unfilled(inv, scope, item, ctx)
            ok = ev.eval(inv.check_, scope)
        except ExprError as exc:
            field = "where" if inv.where is not None and "where" in str(exc) else "check_"
            ctx.add(INVARIANT_EXPR, inv.at(field), f"invariant {inv.id}: {exc}")
            return  # one report per invariant, not per row
        if ok is True or (ok and not isinstance(ok, bool) and bool(ok)):
            continue
        pos = item.pos if isinstance(item, Record) and item.pos else inv.at("check_")
        detail = f" (for {_shown(item)})" if item is not None else ""
        ctx.report.add(
            INVARIANT,
            pos,
            f"[{inv.id}] {_message(inv, scope, game)}{detail}",
            game=ctx.game_id,
            severity=sev,
        )
