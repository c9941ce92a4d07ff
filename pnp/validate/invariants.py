"""A game's own invariants: safe expressions over its data, each failure a finding."""

from __future__ import annotations

import ast
import re
import string
from typing import Any

from ..content.expr import Evaluator, ExprError, Record, iterate, parse, parse_for_each
from ..content.model import Card, Game, Invariant, plain
from ..core.rules import INVARIANT, INVARIANT_EXPR, Severity
from .context import CheckContext, check

# wall time of one invariant, all its rows together (each expression also has expr's own limit)
INVARIANT_TIME_S = 2.0
# the widest field a message may format ({players:>3} is fine; {players:300000000} is not)
MAX_FORMAT_WIDTH = 100


def _card_record(owner_id: str, card: Card) -> Record:
    return Record(
        {
            "id": card.id,
            "copies": card.copies,
            "deck": owner_id,
            "tags": list(card.tags),
            "values": Record(dict(card.values)),
            "stages": card.stages,
            "stage_of": card.stage_of,
            "stage": card.stage,
            "placeholder": card.placeholder,
        },
        card.pos,
    )


def game_data(game: Game) -> tuple[dict[str, Any], dict[str, Any]]:
    """The names and functions an invariant sees: plain records built from the game."""
    cards = {c.id: _card_record(o.id, c) for o, c in game.every_card()}
    players = game.meta.players
    names: dict[str, Any] = {
        "players": Record({"min": players.min, "max": players.max}) if players else None,
        "cards": Record(cards),
        "decks": Record(_deck_records(game)),
        "tokens": Record(_token_records(game)),
        "tables": Record(_table_records(game)),
        "tracks": Record(_track_records(game)),
        "scenarios": Record(_scenario_records(game)),
        "boards": Record(_board_records(game)),
        "True": True,
        "False": False,
        "None": None,
    }

    def count(
        deck: str | None = None,
        tag: str | None = None,
        card: str | None = None,
        value: Any = None,
    ) -> int:
        """Copies of the cards and tokens matching every argument given."""
        total = 0
        for rec in cards.values():
            if deck is not None and rec.deck != deck:
                continue
            if tag is not None and tag not in rec.tags:
                continue
            if card is not None and rec.id != card:
                continue
            if value is not None:
                wanted = value.data() if isinstance(value, Record) else value
                if not isinstance(wanted, dict) or any(
                    rec.values[k] != v if k in rec.values else True for k, v in wanted.items()
                ):
                    continue
            total += rec.copies
        return total

    return names, {"count": count}


def _deck_records(game: Game) -> dict[str, Record]:
    return {
        d.id: Record(
            {
                "id": d.id,
                "total": d.total,
                "cards": len(d.cards),
                "ids": [c.id for c in d.cards],
                "back": Record(dict(d.back.values) if d.back else {}),
            },
            d.pos,
        )
        for d in game.decks.values()
    }


def _token_records(game: Game) -> dict[str, Record]:
    return {
        t.id: Record(
            {"id": t.id, "total": t.total, "cards": len(t.tokens), "ids": [c.id for c in t.tokens]},
            t.pos,
        )
        for t in game.tokens.values()
    }


def _table_records(game: Game) -> dict[str, list[Record]]:
    """Each table as its rows, a row positioned at its key cell; texts in the source language."""
    src = game.source_language
    return {
        t.id: [
            Record(
                {k: plain(v, src) for k, v in cells.items()},
                positions.get(t.columns[0].id) if t.columns else t.pos,
            )
            for cells, positions in zip(t.cells, t.cell_pos, strict=True)
        ]
        for t in game.tables.values()
    }


def _track_records(game: Game) -> dict[str, Record]:
    return {
        t.id: Record(
            {"id": t.id, "min": t.min, "max": t.max, "start": t.start, "board": t.board}, t.pos
        )
        for t in game.tracks.values()
    }


def _refs(refs: list[Any]) -> list[Record]:
    return [Record({"card": r.card, "copies": r.copies}, r.pos) for r in refs]


def _filter(f: Any) -> Record | None:
    return Record({"tag": f.tag, "values": Record(dict(f.values))}, f.pos) if f else None


def _step_record(step: Any) -> Record:
    """One card organisation step of a scenario, as its fields."""
    draw = step.draw
    if isinstance(draw, dict):
        draw = Record({str(k): v for k, v in draw.items()})
    return Record(
        {
            "deck": step.deck,
            "only": _filter(step.only),
            "exclude": _filter(step.exclude),
            "remove": _refs(step.remove),
            "draw": draw,
            "order": _refs(step.order),
            "top": _refs(step.top),
            "bottom": _refs(step.bottom),
            "shuffle": step.shuffle,
        },
        step.pos,
    )


def _scenario_records(game: Game) -> dict[str, Record]:
    return {
        s.id: Record(
            {
                "id": s.id,
                "start": Record(dict(s.start)),
                "players": Record({"min": s.players.min, "max": s.players.max})
                if s.players
                else None,
                "extends": s.extends,
                "difficulty": plain(s.difficulty, game.source_language),
                "boards": [Record({"board": b.board, "side": b.side}, b.pos) for b in s.boards],
                "cards": [_step_record(step) for step in s.cards],
            },
            s.pos,
        )
        for s in game.scenarios.values()
    }


def _board_records(game: Game) -> dict[str, Record]:
    return {
        b.id: Record({"id": b.id, "copies": b.copies, "width": b.size.w, "height": b.size.h}, b.pos)
        for b in game.boards.values()
    }


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
        return str(item)
    if "id" in item:
        return str(item["id"])
    plain = [(k, v) for k, v in item.items() if isinstance(v, int | float | str | bool | None)]
    return ", ".join(f"{k}={v}" for k, v in plain[:6]) or "this row"


class _Fields(string.Formatter):
    def format_field(self, value: Any, format_spec: str) -> Any:
        if any(int(n) > MAX_FORMAT_WIDTH for n in re.findall(r"\d+", format_spec)):
            raise ValueError(f"a field wider than {MAX_FORMAT_WIDTH} characters")
        return super().format_field(value, format_spec)

    def __init__(self, scope: dict[str, Any]) -> None:
        self.scope = scope

    def get_value(self, key: Any, args: Any, kwargs: Any) -> Any:
        if isinstance(key, int):
            raise KeyError(key)
        if key in self.scope:
            return self.scope[key]
        for value in self.scope.values():
            if isinstance(value, Record) and key in value:
                return value[key]
        raise KeyError(key)

    def get_field(self, field_name: str, args: Any, kwargs: Any) -> Any:
        if not all(part.isidentifier() for part in field_name.split(".")):
            raise KeyError(field_name)  # no indexing or attribute tricks in messages
        first, *rest = field_name.split(".")
        obj = self.get_value(first, args, kwargs)
        for part in rest:
            if not isinstance(obj, Record):
                raise KeyError(part)
            obj = obj[part]
        return obj, first


def _message(inv: Invariant, scope: dict[str, Any], game: Game) -> str:
    if inv.message is None:
        return f"invariant {inv.id} fails: {inv.check_}"
    text = inv.message.values.get("en") or inv.message.values.get(game.source_language) or ""
    try:
        return _Fields(scope).format(text)
    except (KeyError, ValueError, IndexError, AttributeError):
        return text


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
    for scope, item in items:
        try:
            if inv.where is not None and not ev.eval(inv.where, scope):
                continue
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
