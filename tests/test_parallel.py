"""Work split over forked processes gives the same answers as one process."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pnp.checks import texts
from pnp.findings import Report
from pnp.load import open_root, select_games
from pnp.perf import fork_parts
from pnp.validate import validate

from helpers import FIXTURES, REPO, make_root


def _pid_and_square(k: int) -> tuple[int, int]:
    return os.getpid(), k * k


def test_fork_parts_runs_parts_in_other_processes_in_order() -> None:
    results = fork_parts(_pid_and_square, 3)
    assert [sq for _pid, sq in results] == [0, 1, 4]
    pids = [pid for pid, _sq in results]
    assert pids[0] == os.getpid()
    assert os.getpid() not in pids[1:]  # parts 1 and 2 ran in forked workers


def _fails_in_a_worker(k: int) -> int:
    if k == 1:
        raise ValueError("part 1 failed")
    return k


def test_fork_parts_passes_a_worker_error_on() -> None:
    with pytest.raises(ValueError, match="part 1 failed"):
        fork_parts(_fails_in_a_worker, 2)


def _findings(root: Path, jobs: int) -> list[str]:
    report = Report()
    r = open_root(root)
    validate(r, select_games(r, None), report, jobs=jobs)
    return [f.text() for f in report.sorted()]


@pytest.mark.parametrize("source", ["repo", "text-overflow", "missing-glyph", "translation-tokens"])
def test_parallel_fitting_reports_what_one_process_reports(
    source: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = REPO if source == "repo" else make_root(tmp_path, FIXTURES / source)
    serial = _findings(root, jobs=1)
    split: list[int] = []
    real = texts.fork_parts

    def spy(task, parts):  # type: ignore[no-untyped-def]
        split.append(parts)
        return real(task, parts)

    monkeypatch.setattr(texts, "FACES_PER_PROCESS", 1)  # split even a tiny game
    monkeypatch.setattr(texts, "fork_parts", spy)
    parallel = _findings(root, jobs=3)
    assert split and all(p == 3 for p in split)
    assert parallel == serial
    if source != "repo":
        assert serial  # the fixture's findings are there, found by the workers too
