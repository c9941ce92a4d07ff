"""python-bidi, as pnp uses it. Written for python-bidi 0.5 to 0.6 (capped <0.7).

pnp needs the Unicode bidirectional algorithm's resolved embedding levels (UAX #9, rules
X1-I2), not a reordered string: it breaks a paragraph into lines first and reorders each line
itself (rules L1-L2). python-bidi's public API only returns reordered strings, so:

- :func:`embedding_levels` are pnp's own implementation of the algorithm (:mod:`.uax9`, bracket
  pairs included), which python-bidi plays no part in;
- :func:`mirrored` is python-bidi's table of mirrored characters (``bidi.mirror.MIRRORED``, a
  module its public API does not name): the one internal pnp prints with. Without it
  (``AVAILABLE`` false: a broken install, reported by pnp.validate.scripts, and a failing
  test in tests/test_compat.py), brackets set right to left are not mirrored;
- :func:`_python_levels`, python-bidi's pure-Python algorithm (``bidi.algorithm``: rules
  X1-I2 as module functions, without the bracket-pair rule), is a second opinion for the
  tests only (tests/test_scripts.py); nothing printed comes from it.
"""

from __future__ import annotations

from . import uax9

WRITTEN_FOR = ("0.5", "0.6")

try:  # pragma: no branch - python-bidi is a dependency; a broken install must not crash pnp
    from bidi.mirror import MIRRORED as _MIRRORED

    AVAILABLE = True
except ImportError:  # pragma: no cover - reported as a finding by pnp.validate.scripts
    AVAILABLE = False
    _MIRRORED = {}


def mirrored(ch: str) -> str:
    """The mirror image of a character set right to left (``(`` for ``)``), else itself."""
    return str(_MIRRORED.get(ch, ch))


def embedding_levels(text: str, rtl: bool) -> tuple[int, ...]:
    """The resolved embedding level of each character of one paragraph, its base direction
    given (``rtl``): UAX #9's rules X1-I2, without the line rules (L1-L4)."""
    return tuple(uax9.resolve(text, 1 if rtl else 0))


def _python_levels(text: str, rtl: bool) -> list[int]:
    """Levels from python-bidi's pure-Python implementation (rules X1-I2, without N0), for the
    tests to compare with."""
    from bidi import algorithm as a

    storage = a.get_empty_storage()
    storage["base_level"] = 1 if rtl else 0
    storage["base_dir"] = "R" if rtl else "L"
    a.get_embedding_levels(text, storage)
    a.explicit_embed_and_overrides(storage)
    a.resolve_weak_types(storage)
    a.resolve_neutral_types(storage, False)
    a.resolve_implicit_levels(storage, False)
    levels = [int(c["level"]) for c in storage["chars"]]
    return levels if len(levels) == len(text) else [1 if rtl else 0] * len(text)
