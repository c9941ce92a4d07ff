"""The lines GNU writes for a field, ``keyword "value"``: the value cut into portions after each
newline, each portion's lines, and ``keyword ""`` first when the value needs more than one line
from its start."""

from __future__ import annotations

from collections.abc import Iterable

from .portion import Portion, escape

_INFINITE = 1 << 62  # the width of a no-wrap field: only newlines end its lines


def _portions(value: str) -> list[str]:
    """The value cut after each newline."""
    parts = value.split("\n")
    out = [part + "\n" for part in parts[:-1]]
    if parts[-1]:
        out.append(parts[-1])
    return out


def field_lines(
    keyword: str,
    value: str,
    prefix: str = "",
    *,
    wrap: bool = True,
    width: int = 79,
    keep: Iterable[tuple[int, int]] = (),
) -> list[str]:
    """The lines (no trailing newline) GNU writes for `keyword "value"`.

    keyword: "msgctxt", "msgid", "msgid_plural", "msgstr", "msgstr[0]", ...
    prefix: "" for active entries, "#~ " for obsolete ones, "#| " for previous fields
    (#| msgid ...), "#~| " for previous fields of obsolete entries.
    wrap=False is the `no-wrap` flag: lines are split only after embedded newlines.
    width: the page width (msgcat's ``--width``, 79 by default).
    keep: spans ``(start, end)`` of `value` that must stay on one line, the format directives
    GNU finds in an entry flagged ``*-format`` (a line may still start at ``start``)."""
    if not value:
        return [f'{prefix}{keyword} ""']
    # Columns count from the first character after the opening quote of a continuation line;
    # the width keeps room for the closing quote.
    text_width = (width if wrap else _INFINITE) - 1 - (len(prefix) + 1)
    portions = _portions(value)
    kept = _kept_positions(portions, keep) if keep else None
    lines: list[str] = []
    first = True
    for number, portion in enumerate(portions):
        part = Portion(portion, kept[number] if kept else frozenset())
        startcol = len(keyword) + 1  # after `keyword "`
        if first and (
            len(portions) > 1 or startcol > text_width or part.has_break(startcol, text_width)
        ):
            lines.append(f'{prefix}{keyword} ""')
            first = False
        breaks = part.breaks(startcol if first else 0, text_width)
        text = part.escaped
        for a, b in zip([0, *breaks], [*breaks, len(text)], strict=True):
            if first:
                lines.append(f'{prefix}{keyword} "{text[a:b]}"')
                first = False
            else:
                lines.append(f'{prefix}"{text[a:b]}"')
    return lines


def _kept_positions(portions: list[str], keep: Iterable[tuple[int, int]]) -> list[frozenset[int]]:
    """For each portion, the positions in its escaped text where a line may not break because
    they are inside one of the `keep` spans of the value (after its first character)."""
    inside: set[int] = set()
    for start, end in keep:
        inside.update(range(start + 1, end))
    out = []
    offset = 0
    for portion in portions:
        positions = set()
        column = 0
        for i, char in enumerate(portion):
            if offset + i in inside:
                positions.add(column)
            column += len(escape(char))
        out.append(frozenset(positions))
        offset += len(portion)
    return out
