"""`pnp release`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from ..content.load import open_root, select_games
from ..core.errors import ContentError, Interrupted, PnpError
from ..core.files import real
from ..core.findings import Report
from ..core.rules import Severity
from ..i18n.words import ngettext, tr
from .build import JobsOpt, _progress
from .common import GameArg, OutOpt, RootOpt, app, build_findings, err, fail, fail_with, say

PAPERS = ("a4", "letter")
UrlOpt = Annotated[
    str | None,
    typer.Option(
        "--tts-url",
        help="The web address the TTS folder of each language will be uploaded to: its saved "
        "objects name their images BASE/FILE (else by file name alone, for a player's "
        "Mods/Images folder).",
        show_default=False,
    ),
]


@app.command("release")
def release_cmd(
    game: GameArg,
    tts_url: UrlOpt = None,
    out: OutOpt = None,
    jobs: JobsOpt = 0,
    root: RootOpt = None,
) -> None:
    """One ZIP to publish a print-and-play: output/GAME/GAME-VERSION.zip with the PDFs of
    every language on A4 and Letter, a README in each language, a picture of every face,
    the Tabletop Simulator export, the version and SHA256SUMS. A game with errors is not
    released; the warnings it carries are listed."""
    from ..build.pipeline import BuildOptions, build
    from ..printing import exporters as ex
    from ..printing.tts import base_url

    report = Report()
    try:
        url = base_url(tts_url) if tts_url is not None else None
        r = open_root(root)
        (gid,) = select_games(r, [game])
        opts = BuildOptions(
            papers=PAPERS,
            out_dir=real(out) if out else None,
            exports=(
                ex.PrintPdf(),
                ex.Tts(url=url if url is not None else ""),
                ex.ContactSheet(every=True),
                ex.Release(tts_url=url),
            ),
            jobs=jobs,
            force=True,
        )
        outputs = build(r, [gid], opts, report, progress=_progress())
    except KeyboardInterrupt:
        err("")
        fail(Interrupted(tr("interrupted; nothing was written")))
    except (ContentError, PnpError) as exc:
        fail_with(build_findings(report), exc)
    _say_released(outputs, report, url)


def _say_released(outputs: list[Any], report: Report, url: str | None) -> None:
    """The findings, the ZIP written, the warnings it carries, and where TTS finds images."""
    text = build_findings(report)
    if text:
        err(text)
    zips = sorted(p for o in outputs for p in o.extra if p.suffix == ".zip")
    for path in zips:
        size = path.stat().st_size / 1e6
        say(tr("wrote {path} ({size:.1f} MB)").format(path=_shown(path), size=size))
    warnings = [f for f in report.sorted() if f.severity is Severity.WARNING]
    if warnings:
        rules = ", ".join(sorted({f.rule for f in warnings}))
        say(
            ngettext(
                "the release carries {n} warning ({rules}): listed above",
                "the release carries {n} warnings ({rules}): listed above",
                len(warnings),
            ).format(n=len(warnings), rules=rules)
        )
    if url is None:
        say(
            "  "
            + tr(
                "its Tabletop Simulator files name their images by file name; to share them on "
                "the web, upload the TTS folder and release again with --tts-url"
            )
        )


def _shown(path: Path) -> Path:
    try:
        return path.relative_to(Path.cwd())
    except ValueError:
        return path
