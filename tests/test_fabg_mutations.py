"""Issue 4's proof: every count of FABG's setup tables and component list is checked.

Each number is changed by one, in a copy of the pack; validation must then fail with a finding
on that very line.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pnp.content.load import open_root
from pnp.content.yamlio import YMap, YSeq, load_file
from pnp.core.findings import Report
from pnp.core.rules import Severity
from pnp.validate import load_all, texts, validate
from pnp.validate.context import CHECKS

from helpers import REPO


def _numbers(path: Path, rel: str) -> list[tuple[int, int, int]]:
    """(line, col, value) of every count in table rows and box entries of a file."""
    loaded = load_file(path, rel, Report())
    data = loaded.data
    found: list[tuple[int, int, int]] = []
    for table in (data.get("tables") or {}).values():
        for row in table.get("rows", []):
            cells = row if isinstance(row, YSeq) else []
            for i, v in enumerate(cells):
                if isinstance(v, int) and not isinstance(v, bool):
                    p = cells.item_pos(i)
                    found.append((p.line, p.col, v))
    for entry in data.get("box") or []:
        if isinstance(entry, YMap) and isinstance(entry.get("count"), int):
            p = entry.value_pos("count")
            found.append((p.line, p.col, entry["count"]))
    return found


def _mutations() -> list[tuple[str, int, int, int]]:
    out = []
    for rel in ("cards/fabg/tables.yaml", "cards/fabg/game.yaml"):
        for line, col, value in _numbers(REPO / rel, rel):
            out.append((rel, line, col, value))
    return out


MUTATIONS = _mutations()


@pytest.fixture(scope="module")
def pack(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("fabg")
    shutil.copytree(REPO / "cards" / "fabg", root / "cards" / "fabg")
    shutil.copytree(REPO / "pnp" / "data" / "fonts", root / "fonts")
    return root


def test_there_are_counts_to_mutate() -> None:
    assert len(MUTATIONS) >= 60


@pytest.mark.slow
@pytest.mark.parametrize("delta", [1, -1])
def test_every_count_is_guarded(pack: Path, delta: int, monkeypatch: pytest.MonkeyPatch) -> None:
    load_all()
    # text fitting is irrelevant to counts and the slowest check: leave it out here
    monkeypatch.setattr(
        "pnp.validate.context.CHECKS", [c for c in CHECKS if c is not texts.fitting]
    )
    monkeypatch.setattr("pnp.validate.CHECKS", [c for c in CHECKS if c is not texts.fitting])
    escaped = []
    for rel, line, col, value in MUTATIONS:
        if value + delta < 0:
            continue
        file = pack / rel
        original = file.read_text("utf-8")
        lines = original.splitlines(keepends=True)
        text = lines[line - 1]
        digits = len(str(value))
        assert text[col - 1 : col - 1 + digits] == str(value), (rel, line, col, text)
        lines[line - 1] = text[: col - 1] + str(value + delta) + text[col - 1 + digits :]
        file.write_text("".join(lines), "utf-8")
        try:
            report = Report()
            validate(open_root(pack), ["fabg"], report)
            hits = [
                f
                for f in report.findings
                if f.severity is Severity.ERROR and f.pos.path == rel and f.pos.line == line
            ]
            if not hits:
                escaped.append(f"{rel}:{line}:{col} {value} -> {value + delta}")
        finally:
            file.write_text(original, "utf-8")
    assert not escaped, "mutations nobody noticed:\n" + "\n".join(escaped)
