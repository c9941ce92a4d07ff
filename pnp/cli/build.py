"""`pnp build`."""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ..content.load import Root, open_root
from ..core.errors import ContentError, Interrupted, PnpError, UsageError
from ..core.files import real
from ..core.findings import Report
from ..i18n.words import ngettext, tr
from .common import (
    Duplex,
    OutOpt,
    Paper,
    RootOpt,
    app,
    build_findings,
    err,
    fail,
    fail_with,
    game_names,
    parse_offset,
    progress,
    say,
)

if TYPE_CHECKING:
    from ..build.pipeline import BuildOptions, Outputs
    from ..printing.imposition import Options

GamesToBuild = Annotated[
    list[str] | None,
    typer.Argument(help="Games to build (default: all).", autocompletion=game_names),
]
LangsOpt = Annotated[
    list[str] | None, typer.Option("--lang", help="Language to build (repeatable).")
]
PapersOpt = Annotated[
    list[Paper] | None,
    typer.Option("--paper", help="Paper size: a4 (default), letter or a3; repeatable."),
]
DuplexOpt = Annotated[Duplex, typer.Option("--duplex", help="Flip edge of double-sided printing.")]
FoldOpt = Annotated[bool, typer.Option("--fold", help="Gutter-fold sheets.")]
GutterOpt = Annotated[
    float,
    typer.Option(
        "--fold-gutter",
        help="With --fold: mm between the fronts and the backs across the fold (0: they meet "
        "at the fold, which must then be exact).",
        min=0,
        max=20,
    ),
]
InkOpt = Annotated[
    bool,
    typer.Option("--ink-saver", help="Print card and token backs as a light tint of themselves."),
]
BleedOpt = Annotated[
    float, typer.Option("--bleed", help="Bleed around each card, mm.", min=0, max=10)
]
NoMarksOpt = Annotated[bool, typer.Option("--no-crop-marks", help="Leave out crop marks.")]
OffsetOpt = Annotated[
    str | None,
    typer.Option("--back-offset", help="Shift backs pages by X,Y mm to correct a printer."),
]
PngOpt = Annotated[
    float | None,
    typer.Option("--png", help="Also write every face as a PNG at this DPI.", min=30, max=1200),
]
TtsOpt = Annotated[
    bool,
    typer.Option(
        "--tts",
        help="Also write Tabletop Simulator deck sheets (at most 10x7 cards, sized to the deck) "
        "and saved objects (JSON) that import them as decks.",
    ),
]
TtsMaxOpt = Annotated[
    int,
    typer.Option(
        "--tts-max-px",
        help="Largest side of a TTS sheet in pixels (TTS recommends 4096); larger decks are "
        "drawn at a lower resolution, and the build says so.",
        min=256,
        max=16384,
    ),
]
ContactOpt = Annotated[
    bool,
    typer.Option(
        "--contact-sheet",
        help="Also write, for each deck and token set, a small JPEG of its fronts side by "
        "side (GAME-LANG-contact/), to show what the game holds.",
    ),
]
ForOpt = Annotated[
    str | None,
    typer.Option(
        "--for",
        help="Also write the files a print-on-demand shop takes (GAME-LANG-PROFILE/): "
        "thegamecrafter, drivethrucards, makeplayingcards, or profiles/NAME.yaml of the content "
        "root; its sizes and safe zone are checked first.",
        show_default=False,
    ),
]
TtsUrlOpt = Annotated[
    str | None,
    typer.Option(
        "--tts-url",
        help="With --tts: the web address the TTS folder will be uploaded to; the saved "
        "objects name their images BASE/FILE (else file:/// addresses on this machine).",
        show_default=False,
    ),
]
JobsOpt = Annotated[
    int,
    typer.Option(
        "--jobs",
        "-j",
        help="Build in N processes in parallel (1: one process). Default 0: one per core when "
        "the work is large enough to pay for it (several PDFs of 400 cards or more in all, "
        "PNG faces, TTS sheets), else one.",
        min=0,
        max=64,
    ),
]
MarginOpt = Annotated[
    float,
    typer.Option(
        "--margin",
        help="Border the printer cannot print, mm: no mark, label or scale bar is drawn there "
        "(inkjets about 3, lasers 4-5).",
        min=0,
        max=30,
    ),
]
ProofOpt = Annotated[
    bool, typer.Option("--proof", help="Write a translator's proof: source and LANG side by side.")
]
MinTranslatedOpt = Annotated[
    float | None,
    typer.Option(
        "--min-translated",
        help="Skip each language with less than PERCENT of its printed texts translated "
        "(one line each says so).",
        min=0,
        max=100,
        show_default=False,
    ),
]
ForceOpt = Annotated[
    bool,
    typer.Option("--force", help="Rebuild even when nothing changed, reading every file again."),
]


@app.command("build")
def build_cmd(
    games: GamesToBuild = None,
    lang: LangsOpt = None,
    paper: PapersOpt = None,
    duplex: DuplexOpt = Duplex.long,
    fold: FoldOpt = False,
    fold_gutter: GutterOpt = 4.0,  # imposition.FOLD_GUTTER (tests check they agree)
    ink_saver: InkOpt = False,
    bleed: BleedOpt = 0.0,
    no_crop_marks: NoMarksOpt = False,
    back_offset: OffsetOpt = None,
    margin: MarginOpt = 5.0,  # imposition.MIN_MARGIN (tests check they agree)
    out: OutOpt = None,
    png: PngOpt = None,
    tts: TtsOpt = False,
    tts_max_px: TtsMaxOpt = 4096,  # printing.tts.TTS_MAX_PX
    contact_sheet: ContactOpt = False,
    profile: ForOpt = None,
    tts_url: TtsUrlOpt = None,
    jobs: JobsOpt = 0,
    proof: ProofOpt = False,
    force: ForceOpt = False,
    min_translated: MinTranslatedOpt = None,
    root: RootOpt = None,
) -> None:
    """Build PDFs: output/GAME/GAME-LANG-PAPER.pdf for every game and language asked."""
    from ..build.pipeline import BuildOptions, build

    report = Report()
    try:
        _finite(
            bleed=bleed,
            png=png,
            margin=margin,
            fold_gutter=fold_gutter,
            min_translated=min_translated,
        )
        r = open_root(root)
        layout = _layout(duplex, fold, bleed, no_crop_marks, back_offset, margin, fold_gutter)
        layout = replace(layout, ink_saver=ink_saver)
        opts: BuildOptions = BuildOptions(
            langs=tuple(lang or ()),
            papers=tuple(p.value for p in (paper or [Paper.a4])),
            layout=layout,
            out_dir=real(out) if out else None,
            exports=_exporters(png, tts, tts_max_px, proof, contact_sheet, tts_url)
            + _shop(r, profile, report),
            jobs=jobs,
            force=force,
            min_translated=min_translated,
        )
        outputs = build(r, games, opts, report, progress=_progress())
    except KeyboardInterrupt:
        err("")
        fail(Interrupted(tr("interrupted; nothing was written")))
    except (ContentError, PnpError) as exc:
        fail_with(build_findings(report), exc)
    _say_written(outputs, report)


def _layout(
    duplex: Duplex,
    fold: bool,
    bleed: float,
    no_crop_marks: bool,
    back_offset: str | None,
    margin: float,
    fold_gutter: float,
) -> Options:
    """The imposition options the command line asks for."""
    from ..printing.imposition import Options

    return Options(
        duplex=duplex.value,
        fold=fold,
        bleed=bleed,
        crop_marks=not no_crop_marks,
        back_offset=parse_offset(back_offset),
        margin=margin,
        fold_gutter=fold_gutter,
    )


def _exporters(
    png: float | None,
    tts: bool,
    tts_max_px: int,
    proof: bool,
    contact: bool,
    tts_url: str | None = None,
) -> tuple[Any, ...]:
    """The output formats the options ask for (printing.exporters): the print PDF or a
    translator's proof, and PNG faces, TTS sheets (at --png's resolution when asked, their
    images at --tts-url) and contact sheets."""
    from ..printing import exporters as ex
    from ..printing.tts import base_url

    found: list[Any] = [ex.Proof() if proof else ex.PrintPdf()]
    if png is not None:
        found.append(ex.Png(dpi=png))
    if tts_url is not None and not tts:
        raise UsageError(tr("--tts-url needs --tts"))
    if tts:
        url = base_url(tts_url) if tts_url is not None else None
        found.append(ex.Tts(dpi=png or ex.Tts.dpi, max_px=tts_max_px, url=url))
    if contact:
        found.append(ex.ContactSheet())
    return tuple(found)


def _shop(root: Root, name: str | None, report: Report) -> tuple[Any, ...]:
    """The print-on-demand exporter of ``--for NAME`` (ContentError when its file has errors:
    they are findings at their lines)."""
    if name is None:
        return ()
    from ..content.profiles import read_profile
    from ..printing.exporters import PrintOnDemand

    found = read_profile(root, name, report)
    if found is None:
        raise ContentError(f"the profile {name} has errors; nothing was written")
    return (PrintOnDemand(profile=found),)


def _finite(**numbers: float | None) -> None:
    """Refuse NaN and infinity, which typer's ranges let through."""
    for name, number in numbers.items():
        if number is not None and not math.isfinite(number):
            option = "--" + name.replace("_", "-")
            raise UsageError(f"{option} {number}: give a number")


def _progress() -> Callable[[str], None]:
    """Progress on stderr; off a terminal, one line a PDF, not one for each PNG face."""
    show = progress()
    if sys.stderr.isatty():
        return show
    shown: set[str] = set()

    def once(step: str) -> None:
        job = step.split(": ", 1)[0]  # "[1/2] fabg en a4: 12/80 faces"
        if job not in shown:
            shown.add(job)
            show(job)

    return once


def _say_written(outputs: Outputs, report: Report) -> None:
    """The findings, then what was written (and what to know about it)."""
    if sys.stderr.isatty():
        sys.stderr.write("\r\x1b[K")
    text = build_findings(report)
    if text:
        err(text)
    for o in outputs:
        try:
            shown = o.path.relative_to(Path.cwd())
        except ValueError:
            shown = o.path
        if o.skipped:
            say(tr("up to date: {path} (nothing changed; --force rebuilds)").format(path=shown))
            continue
        say(
            tr("wrote {path} ({pages}, {sheets})").format(
                path=shown,
                pages=ngettext("{n} page", "{n} pages", o.pages).format(n=o.pages),
                sheets=ngettext("{n} sheet", "{n} sheets", o.sheets).format(n=o.sheets),
            )
        )
        if o.extra:
            folders = sorted({_top(p, o.path.parent) for p in o.extra})
            say(
                "  "
                + ngettext(
                    "and {n} image file in {folders}",
                    "and {n} image files in {folders}",
                    len(o.extra),
                ).format(n=len(o.extra), folders=", ".join(folders))
            )
        for note in o.notes:
            say("  " + note)
    for note in outputs.notes:
        err(note)
    failed = outputs.failed
    for one in failed:
        err(f"pnp: {one.line()}")
    if failed:
        raise typer.Exit(1)


def _top(path: Path, under: Path) -> str:
    """The folder of ``under`` that ``path`` is in (or the file itself, directly in it)."""
    try:
        return path.relative_to(under).parts[0]
    except (ValueError, IndexError):
        return path.parent.name
