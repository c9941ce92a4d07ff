"""A git merge conflict in a catalog: the lines git writes around the two sides of a conflict
(``<<<<<<< ours``, ``=======``, ``>>>>>>> theirs``) make a PO file unreadable. They are
reported as what they are, once per conflict at its first line, before anything the parser
says about them."""

from __future__ import annotations

import re

from ..pocheck import PoProblem

_MARKER = re.compile(rb"^(<{7}|={7}|>{7})(?: |\r?$)", re.M)


def conflict_problems(data: bytes) -> list[PoProblem]:
    """One error per merge conflict in ``data`` (none when it holds no conflict markers)."""
    if b"<<<<<<<" not in data and b">>>>>>>" not in data:
        return []
    out: list[PoProblem] = []
    start = 0
    for m in _MARKER.finditer(data):
        line = data.count(b"\n", 0, m.start()) + 1
        kind = m.group(1)[:1]
        if kind == b"<":
            start = line
        elif kind == b">":
            first = start or line
            out.append(
                PoProblem(
                    first,
                    1,
                    f"a git merge conflict (lines {first}-{line}): git kept both sides of an edit "
                    "between its <<<<<<<, ======= and >>>>>>> lines; keep the translation you "
                    "want, delete the three marker lines, then run `msgcat` or `pnp i18n "
                    "update` to check the file",
                    "error",
                )
            )
            start = 0
    if start:  # a conflict whose end was cut off
        out.append(
            PoProblem(
                start,
                1,
                "a git merge conflict starts here (<<<<<<<) and never ends: finish resolving "
                "it, deleting the marker lines",
                "error",
            )
        )
    return out


def with_conflicts(data: bytes, problems: list[PoProblem]) -> list[PoProblem]:
    """``problems`` of a catalog, its merge conflicts first and the parser's errors on their
    marker lines left out (they say the same thing less clearly)."""
    conflicts = conflict_problems(data)
    if not conflicts:
        return problems
    markers = {data.count(b"\n", 0, m.start()) + 1 for m in _MARKER.finditer(data)}
    # the line before a conflict too: an entry whose msgstr git put inside the conflict
    markers |= {c.line - 1 for c in conflicts}
    rest = [p for p in problems if p.line not in markers]
    return conflicts + rest
