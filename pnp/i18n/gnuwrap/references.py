"""The ``#:`` lines GNU writes for an entry's file references, and how GNU 0.21 reads them."""

from __future__ import annotations

_BLANKS = " \t\n"


def _parse_references(text: str) -> list[tuple[str, int | None]]:
    """File references as GNU gettext 0.21 reads a ``#:`` line: words separated by blanks, each
    ``NAME:LINE`` or ``NAME``; ``NAME : LINE`` and ``NAME: LINE`` also give a line number.
    0.21 knows no quoting: a file name with a space is read as two references."""

    def skip_blanks(i: int) -> int:
        while i < n and text[i] in _BLANKS:
            i += 1
        return i

    def number_at(i: int) -> int:
        """The end of the ASCII digits starting at i, if at least one is there and a blank or
        the end follows them; else -1."""
        j = i
        while j < n and "0" <= text[j] <= "9":
            j += 1
        return j if j > i and (j == n or text[j] in _BLANKS) else -1

    out: list[tuple[str, int | None]] = []
    n = len(text)
    i = skip_blanks(0)
    while i < n:
        start = i
        while i < n and text[i] not in _BLANKS:
            i += 1
        word = text[start:i]
        after = skip_blanks(i)
        if after < n and text[after] == ":":  # NAME : LINE
            digits = skip_blanks(after + 1)
            end = number_at(digits)
            if end >= 0:
                out.append((word, int(text[digits:end])))
                i = skip_blanks(end)
                continue
        if word.endswith(":"):  # NAME: LINE
            end = number_at(after)
            if end >= 0:
                out.append((word[:-1], int(text[after:end])))
                i = skip_blanks(end)
                continue
        digits = len(word) - len(word.rstrip("0123456789"))
        if digits and len(word) - digits > 1 and word[-digits - 1] == ":":  # NAME:LINE
            out.append((word[: -digits - 1], int(word[-digits:])))
        else:
            out.append((word, None))
        i = skip_blanks(i)
    return out


def reference_lines(refs: list[str], width: int = 79) -> list[str]:
    """The `#:` lines GNU writes for these file:line references (as msgcat prints them,
    including how it writes file names with spaces).

    The references are read as msgcat 0.21 reads a ``#:`` line holding them (see
    :func:`_parse_references`): a file name with a space or tab becomes two references, which
    0.21 writes back separated by one space, and possibly on two lines. A repeated reference
    is written once (``./a.py:1`` repeats ``a.py:1``), a leading ``./`` is dropped, and a
    reference goes to a new line when it
    would pass the width, its width counted in UTF-8 bytes, as GNU does."""
    lines: list[str] = []
    line = "#:"
    column = 2
    seen: set[tuple[str, int | None]] = set()
    for name, number in _parse_references(" ".join(refs)):
        while name.startswith("./"):
            name = name[2:]
        # GNU compares references before taking ``./`` away, so a file it writes can still
        # hold one twice; the next reading removes it. Comparing after gives that fixed point.
        if (name, number) in seen:
            continue
        seen.add((name, number))
        shown = name if number is None else f"{name}:{number}"
        size = len(shown.encode("utf-8")) + 1
        if column > 2 and column + size > width:
            lines.append(line)
            line = "#:"
            column = 2
        line += " " + shown
        column += size
    if column > 2:
        lines.append(line)
    return lines
