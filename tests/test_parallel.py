"""Work split over forked processes gives the same answers as one process; files are read
once and written to disk on the way."""

from __future__ import annotations

import hashlib
import os
import time
from pathlib import Path

import pytest
from PIL import Image

from pnp.content import assets
from pnp.content.load import open_root, select_games
from pnp.core import perf
from pnp.core.findings import Report
from pnp.core.perf import fork_parts
from pnp.core.run import current
from pnp.validate import texts, validate

from helpers import FIXTURES, REPO, files_read, lower_overflow, make_root, new_run


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
    real = texts.fork_parts_later

    def spy(task, parts):  # type: ignore[no-untyped-def]
        split.append(parts)
        return real(task, parts)

    monkeypatch.setattr(texts, "FACES_PER_PROCESS", 1)  # split even a tiny game
    monkeypatch.setattr(texts, "fork_parts_later", spy)
    parallel = _findings(root, jobs=3)
    assert split and all(p == 3 for p in split)
    assert parallel == serial
    if source != "repo":
        assert serial  # the fixture's findings are there, found by the workers too


def _images(folder: Path) -> list[Path]:
    """Good PNG and JPEG files, a truncated PNG, a text file named .png and a YAML file."""
    folder.mkdir()
    paths = []
    for i in range(6):
        path = folder / f"art{i}.{'png' if i % 2 else 'jpg'}"
        Image.new("RGB", (40 + i, 30), (i * 40, 10, 200)).save(path)
        paths.append(path)
    good = (folder / "art1.png").read_bytes()
    (folder / "cut.png").write_bytes(good[: len(good) // 2])
    (folder / "notes.png").write_text("not an image")
    (folder / "deck.yaml").write_text("cards: []\n")
    return [*paths, folder / "cut.png", folder / "notes.png", folder / "deck.yaml"]


def _outcome(path: Path) -> str:
    try:
        info = assets.probe_image(path)
    except assets.AssetError as err:
        return f"{err.rule}: {err}"
    return f"{info.format} {info.width}x{info.height} {info.mode}"


@pytest.mark.parametrize("wait", [True, False])
def test_prefetch_in_parts_finds_what_probing_one_by_one_finds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, wait: bool
) -> None:
    paths = _images(tmp_path / "game")
    new_run()
    one_by_one = [_outcome(p) for p in paths]
    digests = [assets.file_digest(p) for p in paths]
    assert digests == [hashlib.sha256(p.read_bytes()).hexdigest() for p in paths]
    assert any(o.startswith("bad-image: cut.png is damaged") for o in one_by_one)
    assert any(o.startswith("bad-image: notes.png is not a PNG, JPEG or SVG") for o in one_by_one)

    new_run()
    monkeypatch.setattr(assets, "PARALLEL_BYTES", 0)  # split even these small files
    split: list[int] = []
    real = perf.fork_parts_later

    def spy(task, parts):  # type: ignore[no-untyped-def]
        split.append(parts)
        return real(task, parts)

    monkeypatch.setattr(perf, "fork_parts_later", spy)
    read_here = files_read(monkeypatch, fresh=False)
    assets.prefetch(paths, 2, wait=wait)
    assert split == [2]
    if not wait:  # part 0 waits until someone asks; the other part is read meanwhile
        pending = current().store("content.prefetch")
        assert pending.get("pending") is not None and not read_here
        assert _outcome(paths[0]) == one_by_one[0]  # asking settles the prefetch
        assert pending.get("pending") is None
    assert 0 < len(read_here) < len(paths)  # this process read its part only

    def unread(path: Path, probe: bool) -> None:
        raise AssertionError(f"{path.name} read again")

    monkeypatch.setattr(assets, "_examine", unread)  # everything comes from the prefetch now
    assert [_outcome(p) for p in paths[:-1]] == one_by_one[:-1]
    assert [assets.file_digest(p) for p in paths] == digests


def test_a_changed_file_is_read_again(tmp_path: Path) -> None:
    path = tmp_path / "art.png"
    Image.new("RGB", (10, 10)).save(path)
    first = assets.file_digest(path)
    assert assets.probe_image(path).width == 10
    Image.new("RGB", (20, 10)).save(path)
    os.utime(path, ns=(1, 1))  # even with an older time: the size and time changed
    assert assets.probe_image(path).width == 20
    assert assets.file_digest(path) != first


def test_early_writeback_writes_everything_and_syncs_on_the_way(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    synced: list[int] = []
    real = getattr(os, "fdatasync", os.fsync)
    monkeypatch.setattr(os, "fdatasync", lambda fd: synced.append(fd) or real(fd), raising=False)
    monkeypatch.setattr(os, "fsync", lambda fd: synced.append(fd) or real(fd))
    chunks = [bytes([i]) * 1000 for i in range(50)]
    with open(tmp_path / "out.bin", "wb") as fh:
        writer = perf.EarlyWriteback(fh, step=10_000)
        for chunk in chunks:
            writer.write(chunk)
        deadline = time.monotonic() + 5
        while not synced and time.monotonic() < deadline:
            time.sleep(0.01)  # the background thread syncs while the file is still open
        assert synced
        writer.close()
        writer.stop()  # twice: harmless
    assert (tmp_path / "out.bin").read_bytes() == b"".join(chunks)
    assert len(synced) >= 2  # at least one sync on the way, and the last one


def test_early_writeback_stops_its_thread_when_rendering_fails(tmp_path: Path) -> None:
    with open(tmp_path / "out.bin", "wb") as fh:
        writer = perf.EarlyWriteback(fh, step=10)
        writer.write(b"x" * 100)
        thread = writer._thread
        assert thread is not None and thread.is_alive()
        writer.stop()
        assert not thread.is_alive()


def _aged(paths: list[Path], seconds: int = 60) -> None:
    past = time.time_ns() - seconds * 10**9
    for path in paths:
        os.utime(path, ns=(past, past))


def test_kept_facts_serve_unchanged_files_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = _images(tmp_path / "game")
    _aged(paths[:-1])  # deck.yaml keeps its fresh time: too recent to be kept
    new_run()
    fresh = [_outcome(p) for p in paths]
    digests = [assets.file_digest(p) for p in paths]
    kept = assets.facts_of(paths, tmp_path, time.time_ns(), "code-1")

    new_run()  # as in the next build's process
    assert assets.remember_facts(kept, paths, tmp_path, "code-2") == 0  # another pnp
    assert assets.remember_facts(b"{not json", paths, tmp_path, "code-1") == 0
    assert assets.remember_facts(b'{"version": 1, "files": 3}', paths, tmp_path, "code-1") == 0
    Image.new("RGB", (99, 30)).save(paths[0])  # changed since: read again
    assert assets.remember_facts(kept, paths, tmp_path, "code-1") == len(paths) - 2

    read = files_read(monkeypatch, fresh=False)
    again = [_outcome(p) for p in paths]
    assert again[1:] == fresh[1:]  # damaged and foreign files too, from the kept facts
    assert again[0].endswith("99x30 RGB")
    assert [assets.file_digest(p) for p in paths[1:]] == digests[1:]
    assert sorted(read) == sorted([paths[0].name, paths[-1].name])


@pytest.mark.parametrize("method", ["fork", "forkserver", "spawn"])
def test_build_jobs_with_every_way_of_starting_processes(method: str, tmp_path: Path) -> None:
    """`pnp build -j 2` with workers forked, served or spawned fresh (macOS and Windows spawn;
    Python 3.14 makes forkserver Linux's default): the same PDFs as one process."""
    import subprocess
    import sys

    root = make_root(tmp_path, FIXTURES / "text-overflow")  # workers report a text-overflow
    lower_overflow(root, "mini")  # a warning here, so that every PDF is built
    script = (
        "import multiprocessing, sys\n"
        f"multiprocessing.set_start_method({method!r})\n"
        "from pnp.cli import main\n"
        "main()\n"
    )

    def build(out: str, *jobs: str) -> dict[str, str]:
        proc = subprocess.run(
            [sys.executable, "-c", script, "build", *jobs, "--force", "--root", str(root),
             "--out", str(tmp_path / out), "--paper", "a4", "--paper", "letter"],
            capture_output=True, text=True, timeout=300, check=False,
        )  # fmt: skip
        assert proc.returncode == 0, proc.stderr[-2000:]
        assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr
        assert "[text-overflow]" in proc.stderr
        pdfs = sorted((tmp_path / out).rglob("*.pdf"))
        assert len(pdfs) == 4
        return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in pdfs}

    assert build("parallel", "-j", "2") == build("serial", "-j", "1")
