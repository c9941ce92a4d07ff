"""What the commands share: the app, the options they have in common, how they print.

How much a command prints is set once for the run by ``pnp --quiet`` / ``pnp --verbose``
(:data:`OUTPUT`) and applied here, where findings, progress and summaries are printed: quiet
shows errors and the final line only; verbose shows every finding (every fallback too, not the
first few) and how long each step took.
"""

from __future__ import annotations

import math
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import IntEnum, StrEnum
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from ..content.load import discover, load_game, open_root, select_games
from ..core.causes import Group, Words, format_groups
from ..core.errors import ContentError, PnpError, UsageError
from ..core.findings import Report, terminal_safe
from ..core.rules import Severity
from ..i18n.words import ngettext, tr

app = typer.Typer(
    # `pnp --install-completion`, `pnp --show-completion [SHELL]` (see commands.invoke)
    add_completion=True,
    # help texts are printed as written: rich markup would eat "[rule]" of the finding format
    # (and loading rich costs every `--help` a tenth of a second)
    rich_markup_mode=None,
    no_args_is_help=True,
    help="pnp: multilingual YAML board-game content to validated, printable PDFs.\n\n"
    "Findings are printed one a line as PATH:LINE:COL: severity [rule] message. Exit codes: "
    "0 success, 1 content errors or a failed build (nothing is written), 2 usage errors. "
    "--quiet, --verbose and --root go before the command or after it: pnp -q build GAME, "
    "pnp build GAME -q. The documentation: pnp docs (the topics), pnp docs format (the "
    "content format), pnp docs TOPIC --open (in your browser).",
    context_settings={"help_option_names": ["-h", "--help"]},
    pretty_exceptions_enable=False,
)


class Level(IntEnum):
    QUIET = 0
    NORMAL = 1
    VERBOSE = 2


@dataclass
class Output:
    """How much this run prints, and since when it runs (for --verbose's timings)."""

    level: Level = Level.NORMAL
    started: float = field(default_factory=time.perf_counter)

    def set(self, level: Level) -> None:
        self.level = level
        self.started = time.perf_counter()

    @property
    def quiet(self) -> bool:
        return self.level is Level.QUIET

    @property
    def verbose(self) -> bool:
        return self.level is Level.VERBOSE

    def elapsed(self) -> str:
        return f"{time.perf_counter() - self.started:.2f}"


OUTPUT = Output()


def game_names(ctx: typer.Context, incomplete: str) -> list[str]:
    """Shell completion of a game argument: the games of --root, after the command or before
    it (or PNP_ROOT, or here)."""
    root = None
    here: Any = ctx
    while here is not None and root is None:
        root = here.params.get("root")
        here = here.parent
    try:
        names = discover(open_root(root or os.environ.get("PNP_ROOT")))
    except PnpError:
        return []
    return [name for name in names if name.startswith(incomplete)]


RootOpt = Annotated[
    Path | None,
    typer.Option(
        "--root",
        help="Content root holding cards/, locales/, fonts/, output/ (default: current folder).",
        envvar="PNP_ROOT",
        show_default=False,
    ),
]
GameArg = Annotated[str, typer.Argument(help="The game.", autocompletion=game_names)]
GamesArg = Annotated[
    list[str] | None, typer.Argument(help="Games (default: all).", autocompletion=game_names)
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


FormatOpt = Annotated[Format, typer.Option("--format", help="Output format.")]
PaperOpt = Annotated[Paper, typer.Option("--paper", help="Paper size.")]
OutOpt = Annotated[Path | None, typer.Option("--out", help="Output folder (default: ROOT/output).")]


def say(message: str) -> None:
    """A message on stdout, escaped as :func:`err` escapes (pnp's own line breaks kept: a
    value from content that could hold one is escaped by the caller with
    :func:`terminal_safe`)."""
    typer.echo(terminal_safe(message, keep_newlines=True))


def err(message: str) -> None:
    """A message on stderr; what content put in it cannot drive the terminal (see
    :func:`terminal_safe`); pnp's own line breaks are kept."""
    typer.echo(terminal_safe(message, keep_newlines=True), err=True)


def fail(exc: PnpError) -> NoReturn:
    err(f"pnp: {exc}")
    raise typer.Exit(exc.exit_code)


def fail_with(report_text: str, exc: PnpError) -> NoReturn:
    """Print the findings that led to ``exc``, then fail with it."""
    if report_text:
        err(report_text)
    fail(exc)


def progress() -> Callable[[str], None]:
    """Progress on stderr: one updating line on a terminal, plain lines otherwise; none with
    --quiet; with --verbose, a line per step with the seconds since the command started."""
    tty = sys.stderr.isatty() and OUTPUT.level is Level.NORMAL

    def show(step: str) -> None:
        if OUTPUT.quiet:
            return
        step = terminal_safe(step)
        if OUTPUT.verbose:
            sys.stderr.write(f"[{OUTPUT.elapsed()} s] " + tr("building {step}").format(step=step))
            sys.stderr.write("\n")
        elif tty:
            sys.stderr.write("\r\x1b[K" + tr("building {step}").format(step=step))
            sys.stderr.flush()
        else:
            sys.stderr.write(tr("building {step}").format(step=step) + "\n")

    return show


def shown(report: Report) -> list[Group]:
    """The findings this run prints, each cause with what it caused folded under it: errors
    only with --quiet."""
    groups = report.groups()
    if OUTPUT.quiet:
        return [g for g in groups if g.root.severity is Severity.ERROR]
    return groups


# what a finding's line says of the findings folded under it (pnp's own words)
FOLD_WORDS = Words(
    folded=lambda n, rules: ngettext(
        " (and {n} more caused by this: {rules}; pnp -v lists them)",
        " (and {n} more caused by this: {rules}; pnp -v lists them)",
        n,
    ).format(n=n, rules=rules),
    caused=lambda where: tr(" (caused by {where})").format(where=where),
)


def findings_text(report: Report) -> str:
    """The findings this run prints, one a line: PATH:LINE:COL: severity [rule] message; the
    findings a cause caused are counted under it (listed with --verbose)."""
    return format_groups(shown(report), OUTPUT.verbose, FOLD_WORDS)


FALLBACKS_SHOWN = 8


def build_findings(report: Report) -> str:
    """A build's findings; of the texts that fell back, the first few per game and language
    (``pnp i18n status`` lists every one; --verbose prints every one here too)."""
    groups: list[Group] = []
    hidden: dict[tuple[str, str], int] = {}
    for g in shown(report):
        f = g.root
        if f.rule == "fallback" and not OUTPUT.verbose:
            group = (f.game, f.lang)
            hidden[group] = hidden.get(group, 0) + 1
            if hidden[group] > FALLBACKS_SHOWN:
                continue
        groups.append(g)
    lines = [format_groups(groups, OUTPUT.verbose, FOLD_WORDS)] if groups else []
    for (game, lang), n in sorted(hidden.items()):
        if n > FALLBACKS_SHOWN:
            more = n - FALLBACKS_SHOWN
            said = ngettext(
                "... {n} more text of {game} printed untranslated in {lang}; "
                "`pnp i18n status {game}` lists each",
                "... {n} more texts of {game} printed untranslated in {lang}; "
                "`pnp i18n status {game}` lists each",
                more,
            )
            lines.append(said.format(n=more, game=game, lang=lang))
    return "\n".join(lines)


def summary(report: Report, games: list[str]) -> str:
    """How many errors and warnings, counting each cause once; how many findings they caused."""
    groups = report.groups()
    errors = len([g for g in groups if g.root.severity is Severity.ERROR])
    warnings = len([g for g in groups if g.root.severity is Severity.WARNING])
    line = tr("{games}: {errors}, {warnings}").format(
        games=terminal_safe(", ".join(games)),
        errors=ngettext("{n} error", "{n} errors", errors).format(n=errors),
        warnings=ngettext("{n} warning", "{n} warnings", warnings).format(n=warnings),
    )
    folded = sum(len(g.folded) for g in groups)
    if folded:
        line += ngettext("; {n} more caused by them", "; {n} more caused by them", folded).format(
            n=folded
        )
    return line


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
        text = findings_text(report)
        if text:
            err(text)
        raise ContentError(f"{gid} has errors; fix them first (`pnp validate {gid}`)")
    return game
