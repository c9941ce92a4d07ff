"""Build: validate, plan, render every requested PDF in memory, then write them all atomically.

Nothing is written when validation finds an error. Each file is written to a temporary file in
the output folder and renamed over the old one, so an interrupted or failed build leaves the
previous PDF untouched and concurrent builds never mix their bytes.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from ..content.assets import facts_of, settle
from ..content.load import Root, select_games
from ..content.model import Game
from ..core.errors import ContentError
from ..core.files import write_atomic
from ..core.findings import Report
from ..core.perf import available_cpus
from ..core.run import running
from ..i18n.catalog import Translations
from ..printing.exporters import GameJob, Made
from .documents import discard, render_game
from .failures import Outputs, Verdict, drop_unbuilt, game_errors
from .keep import Keep
from .options import BuildOptions, Job, Output, game_folder, languages_for
from .printed import printed_texts
from .stamps import (
    Inputs,
    all_up_to_date,
    code_digest,
    facts_path,
    stamp_of,
    stamp_path,
)
from .threshold import below_threshold
from .workers import render_parallel


def build(
    root: Root,
    names: list[str] | None,
    opts: BuildOptions,
    report: Report,
    progress: Callable[[str], None] | None = None,
    validated: dict[str, Game] | None = None,
    keep: Keep | None = None,
) -> Outputs:
    """Validate and build; raises ContentError (nothing written) when validation fails.

    ``validated``: games the caller has just validated into ``report`` (pnp watch), so they
    are not validated twice; ``keep``: what pnp watch remembers of its last rebuild, so that
    the PDFs an edit cannot have changed are kept as they are.
    """
    for gid in select_games(root, names):  # a link or a special file in the way: refused
        game_folder(root, opts.out_dir, gid)  # before any work
    with running():
        return _build(root, names, opts, report, progress, validated, keep)


def _build(
    root: Root,
    names: list[str] | None,
    opts: BuildOptions,
    report: Report,
    progress: Callable[[str], None] | None,
    validated: dict[str, Game] | None,
    keep: Keep | None = None,
) -> Outputs:
    from ..validate import catalogs_for, validate

    game_ids = select_games(root, names)
    # --jobs 0 (auto): images are read on every core when there are enough bytes (prefetch)
    inputs = Inputs.start(root, game_ids, replace(opts, jobs=opts.jobs or available_cpus()))
    try:
        if validated is None and not opts.force:
            skipped = all_up_to_date(root, game_ids, opts, inputs.digest_of)
            if skipped is not None:
                return Outputs(skipped)
        # texts are fitted (and overflow reported) while rendering: once, not twice
        games = validated if validated is not None else validate(root, game_ids, report, [])
    finally:
        settle()
    for gid in game_ids:
        inputs.digest_of(gid)
    if game_errors(report) or len(games) != len(game_ids):
        raise ContentError("validation found errors; nothing was written")
    for gid in game_ids:  # what the formats asked cannot make of a game (a shop's sizes)
        for exporter in opts.exports:
            exporter.check(root, games[gid], report)
    if game_errors(report):
        raise ContentError("the game cannot be made in the formats asked; nothing was written")
    outputs = Outputs()
    catalogs = {gid: catalogs_for(root, games[gid], report) for gid in game_ids}
    jobs = _jobs(root, [games[gid] for gid in game_ids], opts)
    verdict = _verdict(root, games, jobs, opts, report, catalogs, outputs)
    jobs = [job for job in jobs if not verdict.stops(job[0].id, job[1])]
    opts = replace(opts, jobs=processes(opts, jobs))
    if keep is not None:
        jobs, kept = keep.split(jobs, {gid: inputs.parts(gid) for gid in game_ids}, report)
        outputs.extend(kept)
    try:
        _render_all(root, jobs, opts, report, progress, catalogs, outputs, keep)
        _after_render(report, outputs, verdict, opts)
        _game_files(games, outputs, opts, root, report)
        _commit(root, outputs, opts, inputs)
    except BaseException:
        _discard(outputs)  # nothing half-done stays behind
        raise
    if keep is not None:
        keep.committed()
    outputs.failed = list(verdict.failed.values())
    return outputs


def _verdict(
    root: Root,
    games: dict[str, Game],
    jobs: list[Job],
    opts: BuildOptions,
    report: Report,
    catalogs: dict[str, Translations],
    outputs: Outputs,
) -> Verdict:
    """Which languages are not built: those with errors of their own (a proof is still made,
    its errors marked), and those under --min-translated; the errors of languages this build
    does not make leave the report, one line each saying they exist."""
    verdict = Verdict()
    marked = opts.document.shows_errors
    for gid, game in games.items():
        langs = list(dict.fromkeys(lang for g, lang, _o in jobs if g.id == gid))
        outputs.notes.extend(drop_unbuilt(report, gid, set(langs)))
        verdict.judge(report, gid, langs, marked)
        if opts.min_translated is not None:
            outputs.notes.extend(below_threshold(root, game, langs, catalogs[gid], opts, verdict))
    if verdict.failed and opts.game_exporters:  # a release holds every language or none
        raise ContentError("a language of the game has errors; nothing was written")
    if verdict.failed and not [j for j in jobs if not verdict.stops(j[0].id, j[1])]:
        lines = [failed.line() for failed in verdict.failed.values()]
        raise ContentError("\n".join([*lines, "nothing was written"]))
    return verdict


def _after_render(report: Report, outputs: Outputs, verdict: Verdict, opts: BuildOptions) -> None:
    """Errors found while rendering: those of one language drop its PDFs, others stop all."""
    if game_errors(report):
        raise ContentError("the build found errors; nothing was written")
    marked = opts.document.shows_errors
    for gid in dict.fromkeys(o.game for o in outputs):
        verdict.judge(report, gid, [o.lang for o in outputs if o.game == gid], marked)
    dropped = [o for o in outputs if verdict.stops(o.game, o.lang)]
    _discard(dropped)
    outputs[:] = [o for o in outputs if o not in dropped]
    if dropped and not outputs:
        lines = [failed.line() for failed in verdict.failed.values()]
        raise ContentError("\n".join([*lines, "nothing was written"]))
    if dropped and opts.game_exporters:
        raise ContentError("a language of the game has errors; nothing was written")


def _discard(outputs: list[Output]) -> None:
    for out in outputs:
        if not out.skipped:
            with contextlib.suppress(OSError):
                out.staged.unlink()
            discard(out.extra.values())


CARDS_PER_PROCESS = 400  # --jobs 0: fewer cards over all the PDFs render in one process


def _jobs(root: Root, games: list[Game], opts: BuildOptions) -> list[Job]:
    """One job per game, language and paper, in that order; what does not depend on the paper
    (faces, print-on-demand files) is made with the first paper only."""
    jobs: list[Job] = []
    papers = opts.papers or (opts.layout.paper,)
    for game in games:
        for lang in languages_for(root, game, opts.langs):
            for n, paper in enumerate(dict.fromkeys(papers)):
                exports = tuple(e for e in opts.exports if n == 0 or e.per_paper)
                layout = replace(opts.layout, paper=paper)
                jobs.append((game, lang, replace(opts, layout=layout, papers=(), exports=exports)))
    return jobs


def _game_files(
    games: dict[str, Game], outputs: list[Output], opts: BuildOptions, root: Root, report: Report
) -> None:
    """The files of the game exporters (a release bundle), from every job of each game; they
    are staged with the game's first PDF and put in place with it."""
    if not opts.game_exporters:
        return
    for gid, game in games.items():
        mine = [o for o in outputs if o.game == gid and not o.skipped]
        if not mine:
            continue
        made = [Made(o.lang, o.paper, o.path, o.staged, o.extra, o.parts) for o in mine]
        job = GameJob(game, mine[0].path.parent, report, made)
        for exporter in opts.game_exporters:
            files = exporter.game_files(job)
            mine[0].extra.update(files.staged)
            mine[0].notes.extend(files.notes)


def _render_all(
    root: Root,
    jobs: list[Job],
    opts: BuildOptions,
    report: Report,
    progress: Callable[[str], None] | None,
    catalogs: dict[str, Any],
    outputs: list[Output],
    keep: Keep | None = None,
) -> None:
    """Render every job into ``outputs`` (staged files), in worker processes with --jobs;
    ``keep`` is told what each job rendered in this process found."""
    total = len(jobs)
    if opts.jobs > 1 and total > 1:  # the workers share the processes left for PNG faces
        share = [(g, lang, replace(one, jobs=max(1, opts.jobs // total))) for g, lang, one in jobs]
        outputs.extend(render_parallel(root, share, opts.jobs, report, progress, catalogs))
        return
    for i, (game, lang, paper) in enumerate(jobs, 1):
        one = replace(paper, jobs=opts.jobs)  # PNG faces and TTS sheets: every process
        step = f"[{i}/{total}] {game.id} {lang} {one.layout.paper}"
        if progress:
            progress(step)
        catalog = catalogs[game.id].for_build(lang, paper.document.shows_errors)
        faces = _faces_progress(progress, step) if progress else None
        before = len(report.findings)
        guess = keep.guess((game, lang, paper)) if keep is not None else 1
        outputs.append(render_game(root, game, lang, one, report, catalog, faces, guess))
        if keep is not None:
            keep.rendered((game, lang, paper), outputs[-1], report.findings[before:])


def processes(opts: BuildOptions, jobs: list[Job]) -> int:
    """How many processes render: ``--jobs N`` as asked; by default (0), one per core when
    there is enough to share (several PDFs of CARDS_PER_PROCESS cards or more in all, or PNG
    faces and TTS sheets, which the rasteriser shares out by pixels), else this process alone:
    starting a worker costs more than a small game's PDFs take."""
    if opts.jobs:
        return opts.jobs
    if any(e.many_cores for e in opts.exports):
        return available_cpus()
    cards = sum(len(o.cards) for g, _l, _o in jobs for o in g.owners()) + sum(
        len(g.boards) for g, _l, _o in jobs
    )
    return available_cpus() if len(jobs) > 1 and cards >= CARDS_PER_PROCESS else 1


def _faces_progress(progress: Callable[[str], None], step: str) -> Callable[[int, int], None]:
    """The PNG and TTS faces done, after the step they belong to ("STEP: 12/80 faces")."""
    return lambda done, total: progress(f"{step}: {done}/{total} faces")


def _commit(root: Root, outputs: list[Output], opts: BuildOptions, inputs: Inputs) -> None:
    """Everything is ready: put the files in place, with their stamps and the kept facts."""
    for out in outputs:
        if out.skipped:  # kept by pnp watch: unchanged, and its stamp with it
            continue
        os.replace(out.staged, out.path)
        for final, staged in sorted(out.extra.items()):  # PNG and TTS files, staged beside
            os.replace(staged, final)
        stamp = stamp_of(inputs.digest_of(out.game), out.lang, out.path.name, opts)
        write_atomic(stamp_path(out.path), stamp.encode())
    for gid in dict.fromkeys(out.game for out in outputs):
        facts = facts_of(inputs.files[gid], root.path, inputs.started_ns, code_digest())
        write_atomic(facts_path(root, gid, opts), facts)


__all__ = ["BuildOptions", "Output", "build", "languages_for", "printed_texts", "render_game"]
