"""Several PDFs at once: each in a worker process. A forked worker finds the game the
parent loaded and validated in the run it inherited; a spawned one (macOS, Windows, or
forkserver) loads it again."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..content.load import Root, load_game
from ..content.model import Game
from ..core.errors import BuildError, PnpError
from ..core.findings import Finding, Report
from ..core.run import current, running
from .documents import render_game
from .options import BuildOptions, Output


def render_job(
    root_path: str, game_id: str, lang: str, opts: BuildOptions
) -> tuple[Output | None, list[Finding], str]:
    """A worker process: render one PDF of a game the parent loaded and validated.

    A forked worker finds the game in memory; otherwise (other start methods) it loads the
    game again.
    """
    with running():  # a forked worker is in the run that started it
        return render_one(root_path, game_id, lang, opts)


def render_one(
    root_path: str, game_id: str, lang: str, opts: BuildOptions
) -> tuple[Output | None, list[Finding], str]:
    from ..validate import catalogs_for

    report = Report()
    root = Root(Path(root_path))
    inherited = current().store("build.inherited").get((root_path, game_id))
    if inherited is not None:
        game, catalogs, overrides = inherited
        report.overrides = {game_id: dict(overrides)}
    else:
        loaded = load_game(root, game_id, report)
        if loaded is None:
            return None, report.findings, "the game could not be loaded"
        game = loaded
        catalogs = catalogs_for(root, game, report)
    try:
        catalog = catalogs.for_build(lang, opts.document.shows_errors)
        out = render_game(root, game, lang, opts, report, catalog)
    except PnpError as exc:
        return None, report.findings, str(exc)
    return out, report.findings, ""


def render_parallel(
    root: Root,
    jobs: list[tuple[Game, str, BuildOptions]],
    workers: int,
    report: Report,
    progress: Callable[[str], None] | None,
    catalogs: dict[str, Any],
) -> list[Output]:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    total = len(jobs)
    results: list[Output | None] = [None] * total
    # what the parent leaves to forked workers: (root, game id) -> (game, catalogs, overrides)
    inherited = current().store("build.inherited")
    if multiprocessing.get_start_method() == "fork":  # workers see the parent's memory
        for game, _lang, _one in jobs:
            inherited[(str(root.path), game.id)] = (
                game,
                catalogs[game.id],
                report.overrides.get(game.id, {}),
            )
    try:
        return run_pool(
            ProcessPoolExecutor(max_workers=min(workers, total)),
            root,
            jobs,
            results,
            report,
            progress,
        )
    finally:
        inherited.clear()


def run_pool(
    pool: Any,
    root: Root,
    jobs: list[tuple[Game, str, BuildOptions]],
    results: list[Output | None],
    report: Report,
    progress: Callable[[str], None] | None,
) -> list[Output]:
    total = len(jobs)
    with pool:
        futures = {
            pool.submit(render_job, str(root.path), g.id, lang, one): i
            for i, (g, lang, one) in enumerate(jobs)
        }
        from concurrent.futures import as_completed

        for done, future in enumerate(as_completed(futures), 1):
            i = futures[future]
            out, findings, error = future.result()
            game, lang, one = jobs[i]
            if progress:
                progress(f"[{done}/{total}] {game.id} {lang} {one.layout.paper}")
            report.extend(findings)  # duplicates of load findings are merged by the report
            if error:
                raise BuildError(f"{game.id} {lang}: {error}")
            results[i] = out
    return [r for r in results if r is not None]
