"""What the commands share: the app, the options they have in common, how they print."""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from ..content.load import load_game, select_games
from ..core.errors import ContentError, PnpError, UsageError
from ..core.findings import Report
from ..core.rules import Severity
from ..i18n.words import tr

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
GameArg = Annotated[str, typer.Argument(help="The game.")]
GamesArg = Annotated[list[str] | None, typer.Argument(help="Games (default: all).")]


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


FormatOpt = Annotated[Format, typer.Option("--format", help="Output format.")]
PaperOpt = Annotated[Paper, typer.Option("--paper", help="Paper size.")]
OutOpt = Annotated[Path | None, typer.Option("--out", help="Output folder (default: ROOT/output).")]


def err(message: str) -> None:
    typer.echo(message, err=True)


def fail(exc: PnpError) -> NoReturn:
    err(f"pnp: {exc}")
    raise typer.Exit(exc.exit_code)


def fail_with(report_text: str, exc: PnpError) -> NoReturn:
    """Print the findings that led to ``exc``, then fail with it."""
    if report_text:
        err(report_text)
    fail(exc)


def progress() -> Callable[[str], None]:
    """Progress on stderr: one updating line on a terminal, plain lines otherwise."""
    tty = sys.stderr.isatty()

    def show(step: str) -> None:
        if tty:
            sys.stderr.write("\r\x1b[K" + tr("building {step}").format(step=step))
            sys.stderr.flush()
        else:
            sys.stderr.write(tr("building {step}").format(step=step) + "\n")

    return show


FALLBACKS_SHOWN = 8


def build_findings(report: Report) -> str:
    """A build's findings; of the texts that fell back, the first few per game and language
    (``pnp i18n status`` lists every one)."""
    lines: list[str] = []
    hidden: dict[tuple[str, str], int] = {}
    for f in report.sorted():
        if f.rule == "fallback":
            group = (f.game, f.lang)
            hidden[group] = hidden.get(group, 0) + 1
            if hidden[group] > FALLBACKS_SHOWN:
                continue
        lines.append(f.text())
    for (game, lang), n in sorted(hidden.items()):
        if n > FALLBACKS_SHOWN:
            lines.append(
                tr(
                    "... {n} more texts of {game} printed untranslated in {lang}; "
                    "`pnp i18n status {game}` lists each"
                ).format(n=n - FALLBACKS_SHOWN, game=game, lang=lang)
            )
    return "\n".join(lines)


def summary(report: Report, games: list[str]) -> str:
    errors = len([f for f in report.sorted() if f.severity is Severity.ERROR])
    warnings = len([f for f in report.sorted() if f.severity is Severity.WARNING])
    return tr("{games}: {errors} error(s), {warnings} warning(s)").format(
        games=", ".join(games), errors=errors, warnings=warnings
    )


def parse_offset(value: str | None) -> tuple[float, float]:
    if not value:
        return (0.0, 0.0)
    try:
        parts = [float(v) for v in value.replace(";", ",").split(",")]
    except ValueError as exc:
        raise UsageError(f"--back-offset {value!r}: write X,Y in millimetres, e.g. 0.5,-1") from exc
    if len(parts) != 2 or any(not math.isfinite(p) or abs(p) > 20 for p in parts):
        raise UsageError(f"--back-offset {value!r}: two numbers within ±20 mm, e.g. 0.5,-1")
    return parts[0], parts[1]


def one_game(r: Any, name: str, report: Report) -> Any:
    """The game ``name``, loaded; ContentError (its findings printed) when it has errors."""
    (gid,) = select_games(r, [name])
    game = load_game(r, gid, report)
    if game is None or report.has_errors(gid):
        text = report.format_text()
        if text:
            err(text)
        raise ContentError(f"{gid} has errors; fix them first (`pnp validate {gid}`)")
    return game
