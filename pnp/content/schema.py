"""Typed conversion of positioned YAML into the model's dataclasses, and their JSON Schema.

The model (pnp/content/model/) is written as annotated dataclasses; this module reads their
type hints to check and convert YAML data, collecting every problem as a finding with
file:line:col instead of stopping at the first. The same hints produce the JSON Schema that
editors use, so the loader and the published schema cannot drift apart.

Supported annotations: str, int, float, bool, Literal[...], list[T], dict[K, T], T | None,
unions of a scalar type and a dataclass, Any, nested dataclasses, and classes that implement
``from_yaml``/``json_schema`` (see :class:`Custom`). What the model's modules build on (``fld``,
``Located``, ``Custom``, ``Context``) is in :mod:`.basics`, and importable from here too.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import types
import typing
from collections.abc import Callable
from typing import (
    Annotated,
    Any,
    ClassVar,
    Literal,
    Union,
    get_args,
    get_origin,
    get_type_hints,
)

from ..core.findings import Pos
from .basics import INVALID, NOWHERE, Context, Custom, Located, describe, fld
from .names import meant_key, suggest
from .yamlio import YMap, YSeq


def type_name(tp: Any) -> str:
    origin = get_origin(tp)
    if tp is str:
        return "a text"
    if tp is int:
        return "a whole number"
    if tp is float:
        return "a number"
    if tp is bool:
        return "true or false"
    if origin is Literal:
        return "one of " + ", ".join(repr(a) for a in get_args(tp))
    if origin is list:
        return "a list"
    if origin is dict:
        return "a mapping"
    if is_union(tp):
        return " or ".join(type_name(a) for a in get_args(tp) if a is not type(None))
    if parser_of(tp) is not None:
        return str(getattr(parser_of(tp), "type_label", "a value"))
    if dataclasses.is_dataclass(tp):
        return "a mapping"
    return str(tp)


def is_union(tp: Any) -> bool:
    return get_origin(tp) in (Union, types.UnionType)


def parser_of(tp: Any) -> Any:
    """The Custom parser of ``tp``: the class itself, or the one named in Annotated[...]."""
    if get_origin(tp) is Annotated:
        for meta in tp.__metadata__:
            if isinstance(meta, type) and issubclass(meta, Custom):
                return meta
        return None
    if isinstance(tp, type) and issubclass(tp, Custom):
        return tp
    return None


_HINTS: dict[type, dict[str, Any]] = {}


def hints(cls: type) -> dict[str, Any]:
    if cls not in _HINTS:
        _HINTS[cls] = get_type_hints(cls, include_extras=True)
    return _HINTS[cls]


def public_fields(cls: type) -> list[dataclasses.Field[Any]]:
    return [f for f in dataclasses.fields(cls) if not f.metadata.get("internal")]


def yaml_key(f: dataclasses.Field[Any]) -> str:
    return str(f.metadata.get("key") or f.name)


# A converter turns a YAML value into one annotation's type: (value, annotation, position,
# context) -> the converted value, or INVALID once the problem is reported. Converters that need
# more (a list's item type, a literal's choices) receive it bound in front by functools.partial.
Converter = Callable[[Any, Any, Pos, Context], Any]
_PLANS: dict[Any, Converter] = {}


def convert(value: Any, tp: Any, pos: Pos, ctx: Context) -> Any:
    """Convert ``value`` (read at ``pos``) to ``tp``; report problems and return INVALID."""
    return (_PLANS.get(tp) or _plan(tp))(value, tp, pos, ctx)


def _plan(tp: Any) -> Converter:
    """The converter for ``tp``, worked out once per annotation (typing's introspection is
    slow, and a large game converts hundreds of thousands of values).

    Equal annotations share one converter: ``int | str`` equals ``str | int``, so a union is
    handed the annotation it is converting to and tries its own members in their own order.
    """
    origin = get_origin(tp)
    parser = None if tp is Any or is_union(tp) else parser_of(tp)
    plan: Converter
    if tp is Any:
        plan = _convert_any
    elif is_union(tp):
        plan = _convert_union
    elif parser is not None:
        plan = functools.partial(_convert_custom, parser.from_yaml)
    elif get_origin(tp) is Annotated:  # a mark for the JSON Schema only: convert as the type
        plan = functools.partial(_convert_marked, get_args(tp)[0])
    elif tp in _SCALARS:
        plan = _SCALARS[tp]
    elif origin is Literal:
        plan = functools.partial(_convert_literal, get_args(tp))
    elif origin is list:
        plan = functools.partial(_convert_list, get_args(tp)[0])
    elif origin is dict:
        plan = functools.partial(_convert_dict, *get_args(tp))
    elif dataclasses.is_dataclass(tp) and isinstance(tp, type):
        plan = _convert_dataclass
    else:
        raise TypeError(f"schema: unsupported annotation {tp!r}")  # a bug in the model
    _PLANS[tp] = plan
    return plan


def _convert_any(value: Any, _tp: Any, _pos: Pos, _ctx: Context) -> Any:
    return value


def _convert_marked(inner: Any, value: Any, _tp: Any, pos: Pos, ctx: Context) -> Any:
    return convert(value, inner, pos, ctx)


def _convert_custom(
    from_yaml: Callable[[Any, Pos, Context], Any], value: Any, _tp: Any, pos: Pos, ctx: Context
) -> Any:
    """A type that parses itself (see :class:`Custom`)."""
    return from_yaml(value, pos, ctx)


def _convert_str(value: Any, _tp: Any, pos: Pos, ctx: Context) -> Any:
    if isinstance(value, str):
        return value
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    ctx.error(pos, f"expected a text here, found {describe(value)}")
    return INVALID


def _convert_bool(value: Any, _tp: Any, pos: Pos, ctx: Context) -> Any:
    if isinstance(value, bool):
        return value
    ctx.error(pos, f"expected true or false, found {describe(value)}")
    return INVALID


def _convert_int(value: Any, _tp: Any, pos: Pos, ctx: Context) -> Any:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    ctx.error(pos, f"expected a whole number, found {describe(value)}")
    return INVALID


def _convert_float(value: Any, _tp: Any, pos: Pos, ctx: Context) -> Any:
    if isinstance(value, int | float) and not isinstance(value, bool):
        if not math.isfinite(value):
            ctx.error(pos, "expected a finite number")
            return INVALID
        return float(value)
    ctx.error(pos, f"expected a number, found {describe(value)}")
    return INVALID


_SCALARS: dict[Any, Converter] = {
    str: _convert_str,
    bool: _convert_bool,
    int: _convert_int,
    float: _convert_float,
}


def _convert_literal(choices: tuple[Any, ...], value: Any, _tp: Any, pos: Pos, ctx: Context) -> Any:
    if value in choices and not isinstance(value, bool):
        return value
    names = [str(c) for c in choices]
    ctx.error(
        pos,
        f"{describe(value)} is not allowed here; "
        f"{suggest(str(value), names)}use one of: {', '.join(names)}",
    )
    return INVALID


def _convert_list(item_tp: Any, value: Any, _tp: Any, pos: Pos, ctx: Context) -> Any:
    """A list of ``item_tp``; items that fail are left out (each reported)."""
    if not isinstance(value, YSeq):
        ctx.error(pos, f"expected a list, found {describe(value)}")
        return INVALID
    out = []
    labels: dict[str, int] = {}
    for i, item in enumerate(value):
        ipos = value.item_pos(i)
        label = _item_label(item, i)
        labels[label] = labels.get(label, 0) + 1
        if labels[label] > 1:  # the same deck twice in a list: each text keeps its own place
            label = f"{label}~{labels[label]}"
        ctx.path.append(label)
        try:
            conv = convert(item, item_tp, ipos, ctx)
        finally:
            ctx.path.pop()
        if conv is not INVALID:
            out.append(conv)
    return out


def _convert_dict(key_tp: Any, val_tp: Any, value: Any, _tp: Any, pos: Pos, ctx: Context) -> Any:
    """A mapping; an object without an id takes its key as id (decks: {roles: ...})."""
    if not isinstance(value, YMap):
        ctx.error(pos, f"expected a mapping, found {describe(value)}")
        return INVALID
    result: dict[Any, Any] = {}
    for k, v in value.items():
        kpos = value.key_pos(k)
        key = convert(k, key_tp, kpos, ctx)
        if key is INVALID:
            continue
        ctx.path.append(str(key))
        try:
            conv = convert(v, val_tp, value.value_pos(k), ctx)
        finally:
            ctx.path.pop()
        if conv is INVALID:
            continue
        if isinstance(conv, Located) and hasattr(conv, "id") and not conv.id:
            conv.id = str(key)
            conv.fpos.setdefault("id", kpos)
        result[key] = conv
    return result


def _item_label(item: Any, index: int) -> str:
    """A stable label for a list item: its id, else what it names, else its index."""
    if isinstance(item, YMap):
        ident = item.get("id")
        if isinstance(ident, str | int) and not isinstance(ident, bool):
            return str(ident)
        for key in ("card", "deck", "tokens", "token", "board", "tag", "track", "table"):
            value = item.get(key)
            if isinstance(value, str):
                return f"{key}:{value}"
            if isinstance(value, YSeq) and all(isinstance(v, str) for v in value):
                return f"{key}:{'+'.join(value)}"
    return str(index)


def _convert_union(value: Any, tp: Any, pos: Pos, ctx: Context) -> Any:
    args = [a for a in get_args(tp) if a is not type(None)]
    if value is None:
        if type(None) in get_args(tp):
            return None
        ctx.error(pos, f"a value is required here ({type_name(tp)})")
        return INVALID
    if len(args) == 1:
        return convert(value, args[0], pos, ctx)
    # choose the member by the shape of the value, then convert strictly
    for arg in args:
        if _shape_matches(value, arg):
            return convert(value, arg, pos, ctx)
    ctx.error(pos, f"expected {type_name(tp)}, found {describe(value)}")
    return INVALID


def _shape_matches(value: Any, tp: Any) -> bool:
    origin = get_origin(tp)
    parser = parser_of(tp)
    if parser is not None:
        accepts: Callable[[Any], bool] | None = getattr(parser, "accepts", None)
        return accepts(value) if accepts else True
    if tp is str:
        return isinstance(value, str)
    if tp is bool:
        return isinstance(value, bool)
    if tp in (int, float):
        return isinstance(value, int | float) and not isinstance(value, bool)
    if origin is Literal:
        return value in get_args(tp)
    if origin is list:
        return isinstance(value, YSeq)
    if origin is dict or dataclasses.is_dataclass(tp):
        return isinstance(value, YMap)
    return False


_DATACLASS_PLANS: dict[type, tuple[dict[str, Any], dict[str, Any], list[Any]]] = {}


def _dataclass_plan(
    cls: type,
) -> tuple[dict[str, Any], dict[str, dataclasses.Field[Any]], list[dataclasses.Field[Any]]]:
    """A dataclass's type hints, its fields by YAML key, and its required fields."""
    plan = _DATACLASS_PLANS.get(cls)
    if plan is None:
        fields = public_fields(cls)
        required = [
            f
            for f in fields
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        ]
        plan = _DATACLASS_PLANS[cls] = (hints(cls), {yaml_key(f): f for f in fields}, required)
    return plan


def _convert_dataclass(value: Any, cls: type, pos: Pos, ctx: Context) -> Any:
    shorthand: str | None = getattr(cls, "shorthand", None)
    if not isinstance(value, YMap):
        if shorthand and value is not None and not isinstance(value, YSeq):
            wrapped = YMap(pos)
            wrapped[shorthand] = value
            wrapped.kpos[shorthand] = pos
            wrapped.vpos[shorthand] = pos
            value = wrapped
        else:
            ctx.error(pos, f"expected a mapping of {_cls_label(cls)}, found {describe(value)}")
            return INVALID
    kwargs, fpos = _fields(value, cls, ctx)
    required = _dataclass_plan(cls)[2]
    if any(f.name not in kwargs for f in required):
        missing = [yaml_key(f) for f in required if f.name not in kwargs and f.name not in fpos]
        if missing:
            ctx.error(
                value.pos,
                f"{_cls_label(cls)} needs {', '.join(repr(m) for m in missing)}; add "
                + ("it" if len(missing) == 1 else "them"),
                needs=tuple(f"{ctx.where}/{m}" for m in missing),
            )
        return INVALID  # a required field is missing, or had a bad value (already reported)
    obj = cls(**kwargs)
    if isinstance(obj, Located):
        obj.pos = value.pos
        obj.fpos = fpos
        obj.path = ctx.where
    for hook in ctx.hooks:
        hook(obj, ctx)
    check: Callable[[Context], None] | None = getattr(obj, "check", None)
    if check is not None:
        check(ctx)
    return obj


def _fields(value: YMap, cls: type, ctx: Context) -> tuple[dict[str, Any], dict[str, Pos]]:
    """The fields of a mapping converted (each problem reported), and where each was given.
    A problem inside a required field drops the object too: it says so (``ctx.dropping``)."""
    th, by_key, required = _dataclass_plan(cls)
    kwargs: dict[str, Any] = {}
    fpos: dict[str, Pos] = {}
    owner, outer = ctx.where, ctx.dropping
    removed: dict[str, str] = getattr(cls, "removed", {})
    for k, v in value.items():
        f = by_key.get(k) if isinstance(k, str) else None
        if f is None and k in removed:  # a key the format dropped: what to write instead
            ctx.warn_unknown(value.key_pos(k), removed[k])
            continue
        if f is None:
            keys = sorted(by_key)
            hint, meant = meant_key(str(k), keys, isinstance(v, int | float))
            ctx.warn_unknown(
                value.key_pos(k),
                f"unknown key {k!r} in {_cls_label(cls)}; {hint}accepted keys: {', '.join(keys)}",
                str(k) if meant is None or ("/" not in meant and meant in value) else meant,
            )
            continue
        vpos = value.value_pos(k)
        ctx.path.append(k)
        ctx.dropping = owner if f in required else None
        try:
            conv = convert(v, th[f.name], vpos, ctx)
        finally:
            ctx.path.pop()
            ctx.dropping = outer
        fpos[f.name] = vpos
        if conv is not INVALID:
            kwargs[f.name] = conv
            if "bounds" in f.metadata:
                _within(k, conv, f.metadata, vpos, ctx)
    return kwargs, fpos


def _within(key: str, value: Any, meta: Any, pos: Pos, ctx: Context) -> None:
    """A number outside its field's bounds (``fld(bounds=...)``) is an error (kept as
    written, as the model's other checks keep what they report)."""
    low, high = meta["bounds"]
    above = meta.get("above", False)
    if not isinstance(value, int | float) or (
        (low is None or value > low or (value == low and not above))
        and (high is None or value <= high)
    ):
        return
    unit = f" {meta['unit']}" if meta["unit"] else ""
    if high is None:
        what = f"{'above' if above else 'at least'} {low:g}{unit}"
    elif low is None:
        what = f"at most {high:g}{unit}"
    elif above:
        what = f"above {low:g} and at most {high:g}{unit}"
    else:
        what = f"between {low:g} and {high:g}{unit}"
    ctx.error(pos, f"{key} must be {what}; it is {value:g}")


def _cls_label(cls: type) -> str:
    return str(getattr(cls, "label", cls.__name__.lower()))


# --- JSON Schema -------------------------------------------------------------------------------


class SchemaBuilder:
    def __init__(self) -> None:
        self.defs: dict[str, Any] = {}

    def of(self, tp: Any) -> dict[str, Any]:
        origin = get_origin(tp)
        if tp is Any:
            return {}
        if is_union(tp):
            args = get_args(tp)
            members = [self.of(a) for a in args if a is not type(None)]
            if type(None) in args:
                members.append({"type": "null"})
            return members[0] if len(members) == 1 else {"anyOf": members}
        parser = parser_of(tp)
        if parser is not None:
            return self.custom(parser)
        if origin is Annotated:  # a mark: its ``schema`` is one more form the value may take
            marks = [m.schema for m in tp.__metadata__ if hasattr(m, "schema")]
            return {"anyOf": [self.of(get_args(tp)[0]), *marks]}
        if tp is str:
            return {"type": ["string", "number"]}
        if tp is int:
            return {"type": "integer"}
        if tp is float:
            return {"type": "number"}
        if tp is bool:
            return {"type": "boolean"}
        if origin is Literal:
            return {"enum": list(get_args(tp))}
        if origin is list:
            return {"type": "array", "items": self.of(get_args(tp)[0])}
        if origin is dict:
            key_tp, val_tp = get_args(tp)
            out: dict[str, Any] = {"type": "object", "additionalProperties": self.of(val_tp)}
            if key_tp is int:
                out["propertyNames"] = {"pattern": "^-?[0-9]+$"}
            return out
        if dataclasses.is_dataclass(tp) and isinstance(tp, type):
            name = tp.__name__
            if name not in self.defs:
                self.defs[name] = {}  # placeholder against recursion
                self.defs[name] = self.dataclass_schema(tp)
            return {"$ref": f"#/$defs/{name}"}
        raise TypeError(f"schema: unsupported annotation {tp!r}")

    def custom(self, parser: Any) -> dict[str, Any]:
        """A type that writes its own schema; written once, in $defs, when it asks to be
        (``schema_def``: a long schema used by several keys)."""
        if not getattr(parser, "schema_def", False):
            return dict(parser.json_schema())
        self.defs.setdefault(parser.__name__, parser.json_schema())
        return {"$ref": f"#/$defs/{parser.__name__}"}

    def dataclass_schema(self, cls: type) -> dict[str, Any]:
        th = hints(cls)
        props: dict[str, Any] = {}
        required = []
        for f in public_fields(cls):
            sch = dict(self.of(th[f.name]))
            doc = f.metadata.get("doc")
            if doc:
                sch = (
                    {**sch, "description": doc}
                    if "$ref" not in sch
                    else {
                        "allOf": [sch],
                        "description": doc,
                    }
                )
            if "bounds" in f.metadata:  # written once, in the model: fld(bounds=...)
                low, high = f.metadata["bounds"]
                least = "exclusiveMinimum" if f.metadata.get("above") else "minimum"
                sch.update({least: low} if low is not None else {})
                sch.update({"maximum": high} if high is not None else {})
            props[yaml_key(f)] = sch
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                required.append(yaml_key(f))
        out: dict[str, Any] = {
            "type": "object",
            "properties": props,
            "additionalProperties": False,
        }
        if cls.__doc__:
            out["description"] = " ".join(cls.__doc__.split())
        if required:
            out["required"] = required
        shorthand = getattr(cls, "shorthand", None)
        if shorthand:
            return {"anyOf": [out, props[shorthand]]}
        return out


def json_schema(root: Any, title: str) -> dict[str, Any]:
    builder = SchemaBuilder()
    top = builder.of(root)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": title,
        **top,
        "$defs": builder.defs,
    }


# re-exported for model modules
__all__ = [
    "INVALID",
    "NOWHERE",
    "ClassVar",
    "Context",
    "Custom",
    "Located",
    "convert",
    "describe",
    "fld",
    "json_schema",
    "typing",
]
