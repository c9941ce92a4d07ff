"""The paths taken for speed give the same outputs: `--jobs` by default (0, auto) renders in one
process per core only when the work pays for it, and the PDFs do not depend on it.
(How fast each path is lives in benchmarks/, never in timed tests.)"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from pnp.build import pipeline
from pnp.build.options import BuildOptions
from pnp.content.load import open_root
from pnp.core.findings import Report
from pnp.printing.imposition import Options

from helpers import REPO, exports, new_run


def _jobs(opts: BuildOptions) -> list[pipeline.Job]:
    from pnp.validate import validate

    root = open_root(REPO)
    games = validate(root, ["fabg"], Report())
    return pipeline._jobs(root, [games["fabg"]], opts)


def test_auto_jobs_keep_a_small_game_in_one_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pipeline, "available_cpus", lambda: 4)
    opts = BuildOptions()
    assert opts.jobs == 0  # the default is auto
    jobs = _jobs(opts)
    cards = sum(len(o.cards) for g, _l, _o in jobs for o in g.owners())
    assert 0 < cards < pipeline.CARDS_PER_PROCESS
    assert pipeline.processes(opts, jobs) == 1
    # asked for: as asked; PNG faces and TTS sheets: every core (the rasteriser decides)
    assert pipeline.processes(replace(opts, jobs=3), jobs) == 3
    assert pipeline.processes(replace(opts, jobs=1), jobs) == 1
    assert pipeline.processes(replace(opts, exports=exports(50.0)), jobs) == 4
    assert pipeline.processes(replace(opts, exports=exports(tts=True)), jobs) == 4
    # enough cards over several PDFs: one process per core
    monkeypatch.setattr(pipeline, "CARDS_PER_PROCESS", cards)
    assert pipeline.processes(opts, jobs) == 4
    assert pipeline.processes(opts, jobs[:1]) == 1  # one PDF: nothing to share


def _build(out: Path, opts: BuildOptions) -> dict[str, str]:
    new_run()
    report = Report()
    outputs = pipeline.build(
        open_root(REPO), ["fabg"], replace(opts, out_dir=out, force=True), report
    )
    assert not report.has_errors(), report.format_text()
    return {o.path.name: hashlib.sha256(o.path.read_bytes()).hexdigest() for o in outputs}


@pytest.mark.skipif(not hasattr(os, "fork"), reason="workers are forked here")
def test_auto_jobs_give_the_pdfs_of_one_process(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """With the threshold lowered so that auto takes two processes for FABG's two languages,
    the PDFs are those of --jobs 1, byte for byte."""
    opts = BuildOptions(layout=Options(paper="a4"))
    one = _build(tmp_path / "one", replace(opts, jobs=1))
    monkeypatch.setattr(pipeline, "available_cpus", lambda: 2)
    monkeypatch.setattr(pipeline, "CARDS_PER_PROCESS", 1)
    seen: list[int] = []
    real = pipeline.render_parallel

    def spy(*args: object, **kwargs: object) -> object:
        seen.append(int(args[2]))  # type: ignore[call-overload]
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(pipeline, "render_parallel", spy)
    auto = _build(tmp_path / "auto", opts)
    assert seen == [2]  # auto did render in two processes
    assert auto == one
    assert len(one) == 2


def test_the_build_pipeline_imports_no_renderer_before_it_renders() -> None:
    """An unchanged rebuild is skipped before anything is drawn: loading the pipeline must not
    load reportlab, the typesetter or the renderer (0.18 s of start-up, which a skipped
    rebuild of text-1000 paid when pnp.build.keep imported the typesetter)."""
    code = (
        "import sys, pnp.build.pipeline\n"
        "heavy = [m for m in sys.modules if m.startswith(('reportlab', 'pnp.typeset', "
        "'pnp.printing.render'))]\n"
        "print(heavy)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout
