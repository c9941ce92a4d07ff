"""`pnp list` and `pnp validate`."""

from __future__ import annotations

from typing import Annotated

import typer

from ..content.load import Root, discover, load_game, open_root, select_games
from ..content.model import Game
from ..core.errors import PnpError
from ..core.findings import Report, terminal_safe
from .common import (
    Format,
    FormatOpt,
    RootOpt,
    app,
    err,
    fail,
    findings_text,
    game_names,
    say,
    summary,
)


@app.command("list")
def list_games(root: RootOpt = None) -> None:
    """List the games under cards/ with their languages."""
    from ..i18n import Translator

    try:
        r = open_root(root)
        ids = discover(r)
    except PnpError as exc:
        fail(exc)
    if not ids:
        err(f"no games under {r.cards} (create one with `pnp new GAME`)")
        return
    for gid in ids:
        game = load_game(r, gid, Report())
        if game is None:
            typer.echo(terminal_safe(f"{gid}\t(unreadable: run `pnp validate {gid}`)"))
            continue
        title = Translator(game, game.source_language).text(game.meta.title)
        fields = (gid, ", ".join(game.languages), title)
        typer.echo("\t".join(terminal_safe(f) for f in fields))


JobsOpt = Annotated[
    int,
    typer.Option(
        "--jobs",
        "-j",
        help="Fit a large game's texts in up to N processes (0: one per core).",
        min=0,
        max=64,
    ),
]


ForOpt = Annotated[
    str | None,
    typer.Option(
        "--for",
        help="Also check the games against a print-on-demand profile (thegamecrafter, "
        "drivethrucards, makeplayingcards, or profiles/NAME.yaml of the content root): what "
        "the shop cannot print, and texts outside its safe zone.",
        show_default=False,
    ),
]


@app.command("validate")
def validate_cmd(
    games: Annotated[
        list[str] | None,
        typer.Argument(help="Games to check (default: all).", autocompletion=game_names),
    ] = None,
    fmt: FormatOpt = Format.text,
    strict: Annotated[bool, typer.Option("--strict", help="Warnings fail too.")] = False,
    jobs: JobsOpt = 0,
    profile: ForOpt = None,
    root: RootOpt = None,
) -> None:
    """Check games and report every finding as PATH:LINE:COL: severity [rule] message."""
    from ..validate import validate

    report = Report()
    try:
        r = open_root(root)
        ids = select_games(r, games)
        checked = validate(r, ids, report, jobs=jobs)
        if profile is not None:
            _check_for(r, profile, checked, report)
    except PnpError as exc:
        fail(exc)
    if fmt is Format.json:
        typer.echo(report.format_json())
    else:
        text = findings_text(report)
        if text:
            say(text)
        err(summary(report, ids))
    failed = report.has_errors() or (strict and bool(report.warnings))
    raise typer.Exit(1 if failed else 0)


def _check_for(root: Root, name: str, games: dict[str, Game], report: Report) -> None:
    """The games against the print-on-demand profile ``name`` (its own findings first)."""
    from ..content.profiles import read_profile
    from ..validate.profile import check_profile

    found = read_profile(root, name, report)
    if found is None:
        return  # the profile's findings say why
    for game in games.values():
        if not report.has_errors(game.id):
            check_profile(root, game, found, report)
