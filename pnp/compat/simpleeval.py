"""simpleeval's global settings, as pnp uses them. Written for simpleeval 1.0 (capped <1.1).

- three module globals that bound what an expression may build, read by simpleeval while it
  evaluates (its README: "change the ``simpleeval.MAX_POWER`` module level value"): the
  longest string or sequence (``MAX_STRING_LENGTH``), the highest exponent (``MAX_POWER``) and
  the most items a comprehension makes (``MAX_COMPREHENSION_LENGTH``). They are process-wide:
  :func:`set_limits` sets them, once, for pnp's invariants;
- ``allowed_attrs`` (documented as a mapping of types to sets of attribute names) given, for
  one type, an object that contains every name (:func:`every_attribute_of`): simpleeval only
  asks ``name in allowed``. The names themselves are then the type's business (pnp's
  records refuse names starting with ``_``; simpleeval refuses them anyway).

Everything else pnp uses of simpleeval is its documented API: ``EvalWithCompoundTypes``, its
``parse`` and ``eval(expr, previously_parsed=...)``, and its exceptions.
"""

from __future__ import annotations

from typing import Any

import simpleeval

WRITTEN_FOR = ("1.0", "1.0")


def set_limits(*, string_length: int, power: int, comprehension_length: int) -> None:
    """simpleeval's bounds, for every evaluation in this process."""
    simpleeval.MAX_STRING_LENGTH = string_length
    simpleeval.MAX_POWER = power
    simpleeval.MAX_COMPREHENSION_LENGTH = comprehension_length


class _EveryName:
    def __contains__(self, _name: object) -> bool:
        return True


def every_attribute_of(*classes: type) -> dict[type, Any]:
    """``allowed_attrs`` that let expressions read any attribute of these classes (simpleeval
    looks the exact type up), and no attribute of anything else."""
    return {cls: _EveryName() for cls in classes}
