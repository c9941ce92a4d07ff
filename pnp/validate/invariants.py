"""A game's own invariants: safe expressions over its data, each failure a finding."""

from __future__ import annotations

import ast
import re
import string
from typing import Any

from ..content.expr import (
    MAX_DIGITS,
    Evaluator,
    ExprError,
    Record,
    iterate,
    parse,
    parse_for_each,
    shown,
)
from ..content.model import Game, Invariant
from ..content.records import game_data
from ..core.rules import INVARIANT, INVARIANT_EXPR, INVARIANT_MESSAGE, Severity
from .context import CheckContext, check

# wall time of one invariant, all its rows together (each expression also has expr's own limit)
INVARIANT_TIME_S = 2.0
# the widest field a message may format ({players:>3} is fine; {players:300000000} is not)
MAX_FORMAT_WIDTH = 100


# what an attribute of a deck or token set (decks.ID.total) is made of
_DERIVED = {"total": "*/copies", "cards": "*", "ids": "*"}


def _chain(node: ast.AST) -> list[str]:
    """``decks.actions.total`` or ``decks['actions']`` as its names; [] for anything else."""
    names: list[str] = []
    while True:
        if isinstance(node, ast.Attribute):
            names.insert(0, node.attr)
            node = node.value
        elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
            names.insert(0, str(node.slice.value))
            node = node.value
        elif isinstance(node, ast.Name):
            return [node.id, *names]
        else:
            return []


def _needs_of_chain(chain: list[str]) -> list[str]:
    """What the data an expression reads is made of, as logical paths of the content."""
    section, rest = chain[0], chain[1:3]
    if section in ("decks", "tokens"):
        items = "cards" if section == "decks" else "tokens"
        if len(rest) == 2 and rest[1] in _DERIVED:
            return [f"{section}/{rest[0]}/{items}/{_DERIVED[rest[1]]}"]
        return ["/".join([section, *rest[:1]]) if rest else f"{section}/*"]
    if section == "cards":
        field = "/".join(rest[1:]) or "*"
        name = rest[0] if rest else "*"
        return [f"decks/*/cards/{name}/{field}", f"tokens/*/tokens/{name}/{field}"]
    if section in ("tables", "tracks", "scenarios", "boards", "players"):
        return ["/".join([section, *rest]) if section != "boards" else f"boards/{'/'.join(rest)}"]
    return []


def _needs_of_call(node: ast.Call) -> list[str]:
    """count(deck=..., tag=..., card=...): the copies of what it counts."""
    if not (isinstance(node.func, ast.Name) and node.func.id == "count"):
        return []
    named = {k.arg: k.value.value for k in node.keywords if isinstance(k.value, ast.Constant)}
    deck, card = named.get("deck"), named.get("card")
    if isinstance(card, str):
        return [f"decks/*/cards/{card}/copies", f"tokens/*/tokens/{card}/copies"]
    if isinstance(deck, str):
        return [f"decks/{deck}/cards/*/copies", f"tokens/{deck}/tokens/*/copies"]
    return ["decks/*/cards/*/copies", "tokens/*/tokens/*/copies"]


def expr_needs(*exprs: str | None) -> tuple[str, ...]:
    """What the game data that expressions read is made of (``decks.actions.total``: the
    copies of the deck's cards): a finding of theirs is caused by a finding that breaks it."""
    needs: list[str] = []
    for expr in exprs:
        try:
            tree = parse(expr) if expr else None
        except ExprError:
            continue
        for node in ast.walk(tree) if tree is not None else ():
            if isinstance(node, ast.Call):
                needs += _needs_of_call(node)
            chain = _chain(node) if isinstance(node, ast.Attribute | ast.Subscript) else []
            if len(chain) > 1:
                needs += _needs_of_chain(chain)
    return tuple(dict.fromkeys(needs))


def _shown(item: Any) -> str:
    """What a failing row or record is, as the designer wrote it: its id, or its plain
    fields (players=5, boss=2)."""
    if not isinstance(item, Record):
        return shown(item)
    if "id" in item:
        return shown(item["id"])
    plain = [(k, v) for k, v in item.items() if isinstance(v, int | float | str | bool | None)]
    return ", ".join(f"{k}={shown(v)}" for k, v in plain[:6]) or "this row"


class Unfilled(Exception):
    """A message placeholder names nothing the item has: the message says which."""


class _Fields(string.Formatter):
    def format_field(self, value: Any, format_spec: str) -> Any:
        if any(int(n) > MAX_FORMAT_WIDTH for n in re.findall(r"\d+", format_spec)):
            raise Unfilled(f"a field wider than {MAX_FORMAT_WIDTH} characters")
        if isinstance(value, int) and value.bit_length() > MAX_DIGITS * 3:
            return shown(value)  # too long to write: its size
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


def _invariant_needs(inv: Invariant) -> tuple[str, ...]:
    """What the data an invariant reads is made of (see :func:`expr_needs`)."""
    try:
        collection = parse_for_each(inv.for_each)[1] if inv.for_each is not None else None
    except ExprError:
        collection = None
    return expr_needs(collection, inv.where, inv.check_)


def _one(inv: Invariant, ev: Evaluator, game: Game, ctx: CheckContext) -> None:
    """One invariant over all its rows, within the evaluator's budget for it."""
    sev = Severity(inv.severity)
    needs = _invariant_needs(inv)
    if inv.for_each is None:
        items: list[tuple[dict[str, Any], Any]] = [({}, None)]
    else:
        try:
            var, coll = parse_for_each(inv.for_each)
            collection = ev.eval(coll)
            items = [({var: item}, item) for item in iterate(collection)]
        except ExprError as exc:
            ctx.add(
                INVARIANT_EXPR,
                inv.at("for_each"),
                f"invariant {inv.id}: for_each: {exc}",
                needs=needs,
            )
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
            ctx.add(INVARIANT_EXPR, inv.at(field), f"invariant {inv.id}: {exc}", needs=needs)
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
            needs=needs,
        )
