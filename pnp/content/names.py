"""The name meant: the nearest of the known names to a misspelt one."""

from __future__ import annotations

import difflib


def nearest(word: str, choices: list[str], cutoff: float = 0.6) -> str | None:
    """The known name closest to ``word``, when one is close enough."""
    close = difflib.get_close_matches(word, choices, n=1, cutoff=cutoff)
    return close[0] if close else None


def suggest(word: str, choices: list[str]) -> str:
    """ "did you mean 'x'? " for the nearest name, or nothing."""
    close = nearest(word, choices)
    return f"did you mean {close!r}? " if close else ""


def meant_key(key: str, keys: list[str], number: bool = False) -> tuple[str, str | None]:
    """What an unknown key of a mapping stands for: the hint to give, and the key meant (a
    path, ``values/cost``), if any. A key written in another case is that key; a close one is
    a typo of it; where the mapping takes ``values``, a word given a ``number`` is a value of
    the designer's own (``cost: 3`` is ``values.cost``, not a typo of ``copies``)."""
    lower = {k.lower(): k for k in keys}
    if key.lower() in lower and key not in keys:
        found = lower[key.lower()]
        return f"did you mean {found!r}? ", found
    strict = nearest(key, keys, cutoff=0.75)
    if strict is not None:
        return f"did you mean {strict!r}? ", strict
    if number and "values" in keys and key.isidentifier():
        return (
            f"a value of your own goes under values (a column values.{key}, or "
            f"values: {{{key}: ...}} in YAML); ",
            f"values/{key}",
        )
    close = nearest(key, keys)
    if close:
        return f"did you mean {close!r}? ", close
    if "values" in keys and key.isidentifier():  # a word of the designer's own, for templates
        return f"if it is a value of your own (for a template), name it values.{key}; ", None
    return "", None
