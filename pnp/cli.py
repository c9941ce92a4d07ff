"""The `pnp` command: parses arguments, calls the library, prints results, sets the exit code.

Exit codes: 0 success, 1 content errors or build failure, 2 usage errors. No command prints a
Python traceback for bad input; set PNP_DEBUG=1 to see one for a bug in pnp itself.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Literal, NoReturn

import typer

from . import __version__
from .build import BuildOptions, build
from .errors import ContentError, PnpError, UsageError
from .findings import Report, Severity
from .layout import Options
from .load import discover, load_game, open_root, select_games
from .validate import validate

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="pnp: multilingual YAML board-game content to validated, printable PDFs.",
    context_settings={"help_option_names": ["-h", "--help"]},
    pretty_exceptions_enable=False,
)

RootOpt = Annotated[
    Path | None,
    typer.Option(
        "--root",
        help="Content root holding cards/, locales/, fonts/, output/ (default: current folder).",
        envvar="PNP_ROOT",
        show_default=False,
    ),
]


class Format(StrEnum):
    text = "text"
    json = "json"


class Paper(StrEnum):
    a4 = "a4"
    letter = "letter"
    a3 = "a3"


class Duplex(StrEnum):
    long = "long"
    short = "short"
    none = "none"


def _err(message: str) -> None:
    typer.echo(message, err=True)


def _fail(exc: PnpError) -> NoReturn:
    _err(f"pnp: {exc}")
    raise typer.Exit(exc.exit_code)


def _progress() -> Callable[[str], None]:
    """Progress on stderr: one updating line on a terminal, plain lines otherwise."""
    tty = sys.stderr.isatty()

    def show(step: str) -> None:
        if tty:
            sys.stderr.write(f"\r\x1b[Kbuilding {step}")
            sys.stderr.flush()
        else:
            sys.stderr.write(f"building {step}\n")

    return show


def _summary(report: Report, games: list[str]) -> str:
    errors = len([f for f in report.sorted() if f.severity is Severity.ERROR])
    warnings = len([f for f in report.sorted() if f.severity is Severity.WARNING])
    return f"{', '.join(games)}: {errors} error(s), {warnings} warning(s)"


@app.callback()
def _main(
    version: Annotated[
        bool, typer.Option("--version", help="Print the version and exit.", is_eager=True)
    ] = False,
) -> None:
    if version:
        typer.echo(f"pnp {__version__}")
        raise typer.Exit(0)


@app.command("list")
def list_games(root: RootOpt = None) -> None:
    """List the games under cards/ with their languages."""
    try:
        r = open_root(root)
        ids = discover(r)
    except PnpError as exc:
        _fail(exc)
    if not ids:
        _err(f"no games under {r.cards} (create one with `pnp new GAME`)")
        return
    for gid in ids:
        report = Report()
        game = load_game(r, gid, report)
        if game is None:
            typer.echo(f"{gid}\t(unreadable: run `pnp validate {gid}`)")
            continue
        from .i18n import Translator

        title = Translator(game, game.source_language).text(game.meta.title)
        typer.echo(f"{gid}\t{', '.join(game.languages)}\t{title}")


@app.command("validate")
def validate_cmd(
    games: Annotated[
        list[str] | None, typer.Argument(help="Games to check (default: all).")
    ] = None,
    fmt: Annotated[Format, typer.Option("--format", help="Output format.")] = Format.text,
    strict: Annotated[bool, typer.Option("--strict", help="Warnings fail too.")] = False,
    root: RootOpt = None,
) -> None:
    """Check games and report every finding as PATH:LINE:COL: severity [rule] message."""
    report = Report()
    try:
        r = open_root(root)
        ids = select_games(r, games)
        validate(r, ids, report)
    except PnpError as exc:
        _fail(exc)
    if fmt is Format.json:
        typer.echo(report.format_json())
    else:
        text = report.format_text()
        if text:
            typer.echo(text)
        _err(_summary(report, ids))
    failed = report.has_errors() or (strict and bool(report.warnings))
    raise typer.Exit(1 if failed else 0)


def _parse_offset(value: str | None) -> tuple[float, float]:
    if not value:
        return (0.0, 0.0)
    try:
        parts = [float(v) for v in value.replace(";", ",").split(",")]
    except ValueError as exc:
        raise UsageError(f"--back-offset {value!r}: write X,Y in millimetres, e.g. 0.5,-1") from exc
    if len(parts) != 2 or any(abs(p) > 20 for p in parts):
        raise UsageError(f"--back-offset {value!r}: two numbers within ±20 mm, e.g. 0.5,-1")
    return parts[0], parts[1]


@app.command("build")
def build_cmd(
    games: Annotated[
        list[str] | None, typer.Argument(help="Games to build (default: all).")
    ] = None,
    lang: Annotated[
        list[str] | None, typer.Option("--lang", help="Language to build (repeatable).")
    ] = None,
    paper: Annotated[
        list[Paper] | None,
        typer.Option("--paper", help="Paper size: a4 (default), letter or a3; repeatable."),
    ] = None,
    duplex: Annotated[
        Duplex, typer.Option("--duplex", help="Flip edge of double-sided printing.")
    ] = Duplex.long,
    fold: Annotated[bool, typer.Option("--fold", help="Gutter-fold sheets.")] = False,
    bleed: Annotated[
        float, typer.Option("--bleed", help="Bleed around each card, mm.", min=0, max=10)
    ] = 0.0,
    no_crop_marks: Annotated[
        bool, typer.Option("--no-crop-marks", help="Leave out crop marks.")
    ] = False,
    back_offset: Annotated[
        str | None,
        typer.Option("--back-offset", help="Shift backs pages by X,Y mm to correct a printer."),
    ] = None,
    out: Annotated[
        Path | None, typer.Option("--out", help="Output folder (default: ROOT/output).")
    ] = None,
    png: Annotated[
        float | None,
        typer.Option("--png", help="Also write every face as a PNG at this DPI.", min=30, max=1200),
    ] = None,
    tts: Annotated[
        bool, typer.Option("--tts", help="Also write Tabletop Simulator deck sheets (10x7).")
    ] = False,
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", help="Build in N processes in parallel.", min=1, max=64)
    ] = 1,
    root: RootOpt = None,
) -> None:
    """Build PDFs: output/GAME/GAME-LANG-PAPER.pdf for every game and language asked."""
    report = Report()
    try:
        r = open_root(root)
        opts = BuildOptions(
            langs=tuple(lang or ()),
            papers=tuple(p.value for p in (paper or [Paper.a4])),
            layout=Options(
                duplex=duplex.value,
                fold=fold,
                bleed=bleed,
                crop_marks=not no_crop_marks,
                back_offset=_parse_offset(back_offset),
            ),
            out_dir=out.resolve() if out else None,
            png_dpi=png,
            tts=tts,
            jobs=jobs,
        )
        outputs = build(r, games, opts, report, progress=_progress())
    except ContentError as exc:
        text = report.format_text()
        if text:
            _err(text)
        _fail(exc)
    except PnpError as exc:
        text = report.format_text()
        if text:
            _err(text)
        _fail(exc)
    if sys.stderr.isatty():
        sys.stderr.write("\r\x1b[K")
    text = report.format_text()
    if text:
        _err(text)
    for o in outputs:
        try:
            shown = o.path.relative_to(Path.cwd())
        except ValueError:
            shown = o.path
        typer.echo(f"wrote {shown} ({o.pages} pages, {o.sheets} sheets)")
        if o.extra:
            folders = sorted({p.parent.name for p in o.extra})
            typer.echo(f"  and {len(o.extra)} image files in {', '.join(folders)}")


@app.command("calibrate")
def calibrate_cmd(
    paper: Annotated[Paper, typer.Option("--paper", help="Paper size.")] = Paper.a4,
    duplex: Annotated[
        Duplex, typer.Option("--duplex", help="Flip edge you print with (long or short).")
    ] = Duplex.long,
    back_offset: Annotated[
        str | None,
        typer.Option("--back-offset", help="Check an offset: the crosses should then read 0."),
    ] = None,
    lang: Annotated[str, typer.Option("--lang", help="Language of the instructions.")] = "en",
    out: Annotated[
        Path | None, typer.Option("--out", help="Output folder (default: ROOT/output).")
    ] = None,
    root: RootOpt = None,
) -> None:
    """Write a duplex calibration sheet: print it double-sided, read the back offset."""
    from .build import write_atomic
    from .fonts import fontset
    from .render import render_calibration
    from .units import PAPERS

    try:
        r = open_root(root)
        if duplex is Duplex.none:
            raise UsageError("calibration is for double-sided printing: --duplex long or short")
        fonts = fontset(r.fonts, "NotoSans", ["DejaVuSans"])
        edge: Literal["long", "short"] = "long" if duplex is Duplex.long else "short"
        data = render_calibration(
            fonts, lang, PAPERS[paper.value].portrait(), edge, _parse_offset(back_offset)
        )
        target = (
            out.resolve() if out else r.output
        ) / f"calibration-{paper.value}-{duplex.value}.pdf"
        write_atomic(target, data)
    except PnpError as exc:
        _fail(exc)
    typer.echo(f"wrote {target}: print it double-sided ({duplex.value} edge) at 100 %")


def main() -> None:
    """Console entry point: no traceback reaches the user for anything but a bug in pnp."""
    try:
        app(prog_name="pnp")
    except PnpError as exc:
        _err(f"pnp: {exc}")
        sys.exit(exc.exit_code)
    except KeyboardInterrupt:
        _err("pnp: interrupted; nothing was written")
        sys.exit(130)
    except Exception as exc:  # a bug in pnp: say so, briefly
        if os.environ.get("PNP_DEBUG"):
            raise
        _err(
            f"pnp: internal error ({type(exc).__name__}: {exc}); this is a bug in pnp, please "
            "report it (set PNP_DEBUG=1 to see the traceback)"
        )
        sys.exit(1)


if __name__ == "__main__":  # pragma: no cover
    main()
