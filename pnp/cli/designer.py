"""A designer's commands: `pnp new`, `pnp schema`, `pnp preview`, `pnp watch`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..content.load import open_root, select_games
from ..core.errors import ContentError, PnpError, UsageError
from ..core.findings import Report
from ..i18n.words import tr
from .common import GameArg, Paper, PaperOpt, RootOpt, app, err, fail, fail_with, summary


@app.command("new")
def new_cmd(
    game: Annotated[str, typer.Argument(help="Id of the new game (folder name).")],
    lang: Annotated[
        list[str] | None, typer.Option("--lang", help="Languages, the first is the source.")
    ] = None,
    root: RootOpt = None,
) -> None:
    """Start a new game in cards/GAME/ from a small working example."""
    from ..designer.scaffold import new_game

    try:
        if root is not None and not root.exists():
            try:  # a new game may start a new content root
                root.mkdir(parents=True)
            except OSError as exc:
                raise UsageError(
                    tr("cannot create {path}: {reason}").format(path=root, reason=exc.strerror)
                ) from exc
        r = open_root(root)
        folder = new_game(r, game, list(lang or ["en"]))
    except PnpError as exc:
        fail(exc)
    typer.echo(
        tr(
            "created {path}: try `pnp validate {game}`, `pnp build {game}`, `pnp watch {game}`"
        ).format(path=r.rel(folder), game=game)
    )


@app.command("schema")
def schema_cmd(
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Folder for the two schema files (default: cards/)."),
    ] = None,
    root: RootOpt = None,
) -> None:
    """Write the JSON Schema of the format, for editor completion and checking."""
    import json

    from ..core.files import write_atomic
    from ..designer.scaffold import schema_data

    try:
        r = open_root(root)
        folder = out.resolve() if out else r.cards
        for name, data in schema_data().items():
            write_atomic(
                folder / name, (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode()
            )
            typer.echo(tr("wrote {path}").format(path=folder / name))
    except PnpError as exc:
        fail(exc)


@app.command("preview")
def preview_cmd(
    game: GameArg,
    lang: Annotated[list[str] | None, typer.Option("--lang", help="Languages to show.")] = None,
    root: RootOpt = None,
) -> None:
    """Write output/GAME/preview/index.html: every face, every language, findings beside."""
    from ..build.pipeline import languages_for
    from ..designer.preview import build_preview
    from ..validate import validate

    report = Report()
    try:
        r = open_root(root)
        (gid,) = select_games(r, [game])
        games = validate(r, [gid], report)
        g = games.get(gid)
        if g is None:
            raise ContentError(f"{gid} cannot be loaded; run `pnp validate {gid}`")
        page = build_preview(r, g, report, languages_for(r, g, tuple(lang or ())))
    except PnpError as exc:
        fail_with(report.format_text(), exc)
    err(summary(report, [game]))
    typer.echo(tr("wrote {path}").format(path=page))


@app.command("watch")
def watch_cmd(
    game: GameArg,
    lang: Annotated[list[str] | None, typer.Option("--lang", help="Languages to rebuild.")] = None,
    paper: PaperOpt = Paper.a4,
    root: RootOpt = None,
) -> None:
    """Validate and rebuild (PDF and preview) whenever a file of GAME changes. Ctrl-C stops."""
    from ..designer.watch import Watcher

    try:
        r = open_root(root)
        (gid,) = select_games(r, [game])
        watcher = Watcher(r, gid, tuple(lang or ()), paper.value, echo=typer.echo)
        watcher.run()
    except PnpError as exc:
        fail(exc)
