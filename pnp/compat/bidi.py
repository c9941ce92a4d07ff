"""python-bidi's internals, as pnp uses them. Written for python-bidi 0.5 to 0.6 (capped <0.7).

pnp needs the Unicode bidirectional algorithm's resolved embedding levels (UAX #9, rules
X1-I2), not a reordered string: it breaks a paragraph into lines first and reorders each line
itself (rules L1-L2). python-bidi's public API only returns reordered strings, so:

- :func:`embedding_levels` reads the levels from the Rust implementation's debug output
  (``get_display_inner(text, base, True)`` prints the crate's ``BidiInfo``, whose ``levels``
  hold one level per UTF-8 byte); the Rust crate implements the current algorithm, bracket
  pairs (N0) included;
- should that output ever change shape, the levels come from the pure-Python implementation
  that python-bidi still ships (``bidi.algorithm``: rules X1-I2 as module functions), which
  lacks only the bracket-pair rule;
- :func:`mirrored` is python-bidi's table of mirrored characters (``bidi.mirror.MIRRORED``).
"""

from __future__ import annotations

import re

WRITTEN_FOR = ("0.5", "0.6")

try:  # pragma: no branch - python-bidi is a dependency; a broken install must not crash pnp
    from bidi import algorithm as _algorithm
    from bidi.bidi import get_display_inner as _rust_display
    from bidi.mirror import MIRRORED as _MIRRORED

    AVAILABLE = True
except ImportError:  # pragma: no cover - reported as a finding by pnp.validate.scripts
    AVAILABLE = False
    _MIRRORED = {}

_LEVEL_RE = re.compile(r"Level\(\s*(\d+),?\s*\)")


def mirrored(ch: str) -> str:
    """The mirror image of a character set right to left (``(`` for ``)``), else itself."""
    return str(_MIRRORED.get(ch, ch))


def embedding_levels(text: str, rtl: bool) -> tuple[int, ...]:
    """The resolved embedding level of each character of one paragraph, its base direction
    given (``rtl``); all 0 (or 1) when python-bidi is missing."""
    if not AVAILABLE:
        return (1 if rtl else 0,) * len(text)
    levels = _rust_levels(text, rtl)
    if levels is None:
        levels = _python_levels(text, rtl)
    return tuple(levels)


def _rust_levels(text: str, rtl: bool) -> list[int] | None:
    """Levels from the Rust implementation's ``BidiInfo`` (per byte), per character."""
    try:
        info = str(_rust_display(text, "R" if rtl else "L", True))
    except Exception:  # pragma: no cover - a changed signature: use the Python levels
        return None
    start = info.rfind("\n    levels: [")
    end = info.find("\n    ],", start)
    if start < 0 or end < 0:
        return None
    per_byte = [int(m) for m in _LEVEL_RE.findall(info, start, end)]
    if len(per_byte) != len(text.encode("utf-8")):
        return None
    levels = []
    at = 0
    for ch in text:
        levels.append(per_byte[at])
        at += len(ch.encode("utf-8"))
    return levels


def _python_levels(text: str, rtl: bool) -> list[int]:
    """Levels from python-bidi's pure-Python implementation (rules X1-I2, without N0)."""
    a = _algorithm
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
