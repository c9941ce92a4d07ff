"""`pnp audit` has a budget (issue 33, item 8): --max-seconds with a default, progress with an
estimate, a partial score labelled as such; Ctrl-C leaves no worker and no changed file.

No assertion here depends on how fast the machine is: a budget of a millisecond ends any audit
after its first batch, and the interrupted audit is given a budget it cannot reach.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from typer.testing import CliRunner

from pnp.cli import app
from pnp.cli.audit import DEFAULT_BUDGET, progress_line
from pnp.content.load import open_root
from pnp.core.findings import Report
from pnp.validate.audit import audit_game

from helpers import FIXTURES, REPO, make_root

runner = CliRunner()


def _numbers_pack(tmp_path: Path, rows: int) -> Path:
    """The mini game plus a table of ``rows`` x 4 numbers (2,500 rows: 10,000 numbers)."""
    root = make_root(tmp_path, FIXTURES / "clean")
    lines = [
        "tables:",
        "  numbers:",
        "    title: {en: Numbers, it: Numeri}",
        "    sheet: false",
        "    columns:",
        *[f"      - {{id: c{c}, title: {{en: C{c}, it: C{c}}}}}" for c in range(4)],
        "    rows:",
        *[f"      - [{r + 1}, {r * 3 + 7}, {r % 11 + 2}, {r * 5 + 1}]" for r in range(rows)],
    ]
    (root / "cards/mini/numbers.yaml").write_text("\n".join(lines) + "\n", "utf-8")
    return root


def _digests(root: Path) -> dict[str, str]:
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def test_a_tiny_budget_gives_a_partial_score_labelled_as_such(tmp_path: Path) -> None:
    root = _numbers_pack(tmp_path, 2500)
    args = ["audit", "mini", "--root", str(root), "-j", "1", "--max-seconds", "0.001"]
    result = runner.invoke(app, [*args, "--format", "json"])
    assert result.exit_code == 0, result.output
    said = json.loads(result.stdout)
    assert said["partial"] is True and said["max_seconds"] == 0.001
    assert 1 <= said["tried"] < said["total"] and said["total"] >= 30_000  # 10,000 numbers
    assert "PARTIAL" in result.stderr and "--max-seconds" in result.stderr
    assert "audit mini: 0/" in result.stderr  # progress starts at once, with the count
    text = runner.invoke(app, args)
    assert text.exit_code == 0 and "partial score" in text.stdout  # the score is the result
    # the survivors listed are only those tried
    assert text.stdout.count(" -> ") <= said["tried"]


def test_the_budget_is_shared_by_parallel_workers(tmp_path: Path) -> None:
    root = _numbers_pack(tmp_path, 600)
    partial = audit_game(open_root(root), "mini", Report(), jobs=2, max_seconds=0.001)
    assert partial is not None and partial.partial
    assert 1 <= len(partial.mutations) < partial.total


def test_a_whole_audit_is_not_partial_and_a_sample_is_fair() -> None:
    whole = audit_game(open_root(FIXTURES / "clean"), "mini", Report(), jobs=1, max_seconds=None)
    assert whole is not None and not whole.partial and whole.total == len(whole.mutations)
    # the order of trying is shuffled, the same for the same game: a partial run is a sample
    # from every file, not the first file's facts
    again = audit_game(open_root(FIXTURES / "clean"), "mini", Report(), jobs=1, max_seconds=None)
    assert again is not None
    assert [(m.key, m.op, m.caught_by) for m in again.mutations] == [
        (m.key, m.op, m.caught_by) for m in whole.mutations
    ]


def test_progress_says_how_long_is_left_and_when_the_budget_stops_it() -> None:
    assert progress_line("g", 0, 400, 0.0, 300) == "audit g: 0/400 changes"
    assert progress_line("g", 100, 400, 5.0, 300) == "audit g: 100/400 changes, about 15 s left"
    late = progress_line("g", 100, 10_000, 20.0, 60)
    assert "about 1980 s left" in late and "--max-seconds 60 stops it at about 300" in late
    assert DEFAULT_BUDGET > 60  # the bundled games finish well inside the default


def test_bad_budgets_are_usage_errors() -> None:
    for bad in ("0", "-1", "nan", "lots"):
        result = runner.invoke(app, ["audit", "mini", "--root", str(FIXTURES / "clean"),
                                     "--max-seconds", bad])  # fmt: skip
        assert result.exit_code == 2, (bad, result.output)


def _children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (read from /proc)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            found.add(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def test_ctrl_c_leaves_no_worker_and_no_changed_file(tmp_path: Path) -> None:
    if not Path("/proc/self/stat").exists():
        import pytest

        pytest.skip("needs /proc to see the workers")
    root = _numbers_pack(tmp_path, 1500)
    before = _digests(root)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    cmd = [sys.executable, "-m", "pnp", "audit", "mini", "--root", str(root), "-j", "2",
           "--max-seconds", "3600"]  # fmt: skip
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        workers: set[int] = set()
        waited = time.monotonic()
        while len(workers) < 2 and proc.poll() is None and time.monotonic() - waited < 120:
            time.sleep(0.05)
            workers = _children(proc.pid)
        assert len(workers) == 2, "the audit never started its two workers"
        time.sleep(0.3)  # let them take a change each
        proc.send_signal(signal.SIGINT)
        _out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, err
    assert b"interrupted" in err and b"Traceback" not in err
    assert not [pid for pid in workers if _alive(pid)]
    assert _digests(root) == before
