"""Shared test helpers: the repository root, fixture content roots, running validation, and
what a test does when a tool it compares pnp with is missing."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path
from typing import Any, NoReturn

import pytest

from pnp.content.load import open_root, select_games
from pnp.core.findings import Report
from pnp.validate import validate

REPO = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
# words for generated card texts: short and long ones (hyphenated), accents, marks, icons
WORDS = [
    "a",
    "to",
    "in",
    "of",
    "the",
    "card",
    "deck",
    "robot",
    "worker",
    "factory",
    "engine",
    "market",
    "build",
    "gain",
    "lose",
    "pay",
    "draw",
    "neighbourhood",
    "infrastructure",
    "internationalisation",
    "counterbalancing",
    "photosynthesis",
    "precipitevolissimevolmente",
    "città",
    "perché",
    "più",
    "**bold**",
    "_italic_",
    "3",
    "{coin}",
    "12",
    "{coin}",
]
EXPECT_RE = re.compile(r"#\s*expect:\s*([a-z0-9, @-]+)")
FOLDED_RE = re.compile(r"#\s*folded:\s*([a-z0-9, @-]+)")


def in_ci() -> bool:
    """Whether this is CI (CI=true, set by CI services and by .ci/run)."""
    return os.environ.get("CI") == "true"


def missing_tool(reason: str) -> NoReturn:
    """A tool a test compares pnp with (GNU gettext, Chromium, libpng) is missing: skip the
    test, or under CI=true fail it, since .ci/run installs the tool and a skip there would pass
    without the oracle ever running."""
    if in_ci():
        pytest.fail(f"{reason}; CI=true: failed instead of skipped", pytrace=False)
    pytest.skip(reason)


def needs_tool(missing: bool, reason: str) -> pytest.MarkDecorator:
    """Decorates a test that needs a tool: when ``missing``, missing_tool(reason) before it
    runs (tests/conftest.py). The skipif of tests that must not be skipped in CI."""
    return pytest.mark.needs_tool(missing=missing, reason=reason)


def make_root(tmp: Path, source: Path | None = None) -> Path:
    """A content root in ``tmp``: a copy of ``source`` (cards/, locales/) plus the real fonts/."""
    root = tmp / "root"
    if source is not None:
        shutil.copytree(source, root)
    else:
        root.mkdir()
    if not (root / "fonts").exists():
        shutil.copytree(REPO / "pnp" / "data" / "fonts", root / "fonts")
    return root


def run_validate(root: Path, games: list[str] | None = None) -> Report:
    report = Report()
    r = open_root(root)
    validate(r, select_games(r, games), report)
    return report


def expectations(root: Path, folded: bool = False) -> set[tuple[str, int, str]]:
    """(path, line, rule) for every ``# expect: rule`` comment in the YAML files of a root:
    the findings shown; with ``folded``, for every ``# folded: rule`` comment: the findings
    folded under the finding that caused them. A file that cannot carry a comment (a CSV, a
    broken PO file) has its lines in the root's expected.txt: ``PATH:LINE rule``, followed by
    ``folded`` for a folded one."""
    out: set[tuple[str, int, str]] = set()
    pattern = FOLDED_RE if folded else EXPECT_RE
    for f in sorted((root / "cards").rglob("*.y*ml")):
        rel = f.relative_to(root).as_posix()
        for n, line in enumerate(f.read_text("utf-8", errors="replace").splitlines(), 1):
            m = pattern.search(line)
            if m:
                for rule in m.group(1).split(","):
                    rule = rule.strip()
                    if rule:
                        out.add((rel, n, rule))
    expected = root / "expected.txt"
    if expected.is_file():  # for files that cannot carry a comment (PO syntax errors...)
        for line in expected.read_text("utf-8").splitlines():
            if line.strip() and not line.startswith("#"):
                where, rule, *mark = line.split()
                if (mark == ["folded"]) == folded:
                    path, lineno = where.rsplit(":", 1)
                    out.add((path, int(lineno), rule))
    return out


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file below ``folder`` (hidden ones too) with its bytes."""
    if not folder.exists():
        return {}
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def new_run() -> None:
    """Go on in a new run of pnp, as a new process would: nothing cached so far is known."""
    from pnp.core import run

    run._ACTIVE = run.Run()  # the test's own run is put back when the test ends


def files_read(monkeypatch: pytest.MonkeyPatch, fresh: bool = True) -> list[str]:
    """The names of the files pnp reads from now on (its digests and image checks), in order.
    ``fresh``: forget what this process read before, as a new process would."""
    from pnp.content import assets

    if fresh:
        new_run()
    read: list[str] = []
    real = assets._examine

    def examine(path: Path, probe: bool):  # type: ignore[no-untyped-def]
        read.append(path.name)
        return real(path, probe)

    monkeypatch.setattr(assets, "_examine", examine)
    return read


def exports(
    png_dpi: float | None = None, tts: bool = False, tts_max_px: int = 4096, proof: bool = False
) -> tuple[Any, ...]:
    """The exporters a build with these options makes (as `pnp build` composes them)."""
    from pnp.printing.exporters import Png, PrintPdf, Proof, Tts

    found: list[Any] = [Proof() if proof else PrintPdf()]
    if png_dpi is not None:
        found.append(Png(dpi=png_dpi))
    if tts:
        found.append(Tts(dpi=png_dpi or 300.0, max_px=tts_max_px))
    return tuple(found)


def lower_overflow(root: Path, game: str) -> None:
    """Lower rule text-overflow (an error by default) to a warning in ``game``'s game.yaml, for a
    test about something else that needs a text that does not fit and its PDFs built."""
    path = root / "cards" / game / "game.yaml"
    text = path.read_text("utf-8")
    assert "\nrules:" not in text, "the game already has rules: change them there"
    reason = "a test's text overflows on purpose"
    path.write_text(
        text + f"rules:\n  text-overflow: {{severity: warning, reason: {reason}}}\n", "utf-8"
    )
