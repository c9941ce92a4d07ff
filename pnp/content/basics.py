"""What the model's classes and the loader (:mod:`.schema`) share: fields with their
documentation and bounds (:func:`fld`), objects that know where they were read
(:class:`Located`), values that parse themselves (:class:`Custom`), the context of a conversion
that collects its findings, and the marker of a value that failed (:data:`INVALID`)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from ..core.findings import Pos
from .convert_context import Context
from .yamlio import YMap, YSeq

NOWHERE = Pos("", 0, 0)


Bounds = tuple[float | None, float | None]


def fld(
    default: Any = dataclasses.MISSING,
    *,
    doc: str = "",
    key: str = "",
    bounds: Bounds | None = None,
    unit: str = "",
    above: bool = False,
    **kw: Any,
) -> Any:
    """A model field with documentation (shown in the JSON Schema) and an optional YAML key.
    ``bounds``: (lowest, highest) a number may be (None: no limit that way), in ``unit``;
    ``above``: the lowest itself is not allowed (a number above it is). The loader reports a
    number outside them, and the JSON Schema says them (minimum or exclusiveMinimum, maximum):
    they are written once, here."""
    meta: dict[str, Any] = {"doc": doc}
    if key:
        meta["key"] = key
    if bounds is not None:
        meta["bounds"] = bounds
        meta["unit"] = unit
        meta["above"] = above
    if default is dataclasses.MISSING and "default_factory" not in kw:
        return field(metadata=meta, **kw)
    if isinstance(default, list | dict | set):
        raise TypeError("use default_factory for mutable defaults")
    if default is dataclasses.MISSING:
        return field(metadata=meta, **kw)
    return field(default=default, metadata=meta, **kw)


@dataclass
class Located:
    """Base of model objects read from YAML: they know where they and their fields came from."""

    pos: Pos = field(
        default=NOWHERE, repr=False, compare=False, kw_only=True, metadata={"internal": True}
    )
    fpos: dict[str, Pos] = field(
        default_factory=dict, repr=False, compare=False, kw_only=True, metadata={"internal": True}
    )
    path: str = field(
        default="", repr=False, compare=False, kw_only=True, metadata={"internal": True}
    )

    def at(self, name: str) -> Pos:
        """Position of a field's value (the object's own position when it was not written)."""
        return self.fpos.get(name, self.pos)

    def given(self, name: str) -> bool:
        return name in self.fpos


class Custom:
    """Protocol for types that parse themselves (sizes, colours, multilingual text...)."""

    @classmethod
    def from_yaml(cls, value: Any, pos: Pos, ctx: Context) -> Any:  # pragma: no cover
        raise NotImplementedError

    @classmethod
    def json_schema(cls) -> dict[str, Any]:  # pragma: no cover
        raise NotImplementedError


class _Invalid:
    """Marker for a value that failed conversion (already reported)."""

    def __repr__(self) -> str:
        return "INVALID"


INVALID: Any = _Invalid()


def describe(value: Any) -> str:
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, int | float):
        return f"the number {value:g}" if isinstance(value, float) else f"the number {value}"
    if isinstance(value, str):
        short = value if len(value) <= 30 else value[:27] + "..."
        return f"the text {short!r}"
    if isinstance(value, YSeq | list):
        return "a list"
    if isinstance(value, YMap | dict):
        return "a mapping"
    return type(value).__name__
