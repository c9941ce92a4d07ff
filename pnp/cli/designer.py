"""A designer's commands: `pnp new`, `pnp schema`, `pnp preview`, `pnp watch`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..content.load import open_root, select_games
from ..core.errors import PnpError
from ..core.findings import Report
from ..i18n.words import tr
from .common import (
    GameArg,
    OutOpt,
    Paper,
    PaperOpt,
    RootOpt,
    app,
    err,
    fail,
    fail_with,
    findings_text,
    summary,
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


StrictOpt = Annotated[bool, typer.Option("--strict", help="Warnings fail too.")]


@app.command("preview")
def preview_cmd(
    game: GameArg,
    lang: Annotated[list[str] | None, typer.Option("--lang", help="Languages to show.")] = None,
    out: OutOpt = None,
    strict: StrictOpt = False,
    root: RootOpt = None,
) -> None:
    """Write OUT/GAME/preview/index.html: the findings, then every face in every language.

    Exit 0 with no errors, 1 with errors (the page is written all the same: every face that
    can be drawn, those with errors marked, the findings kept in view), 2 on a usage error.
    """
    from ..build.pipeline import languages_for
    from ..designer.preview import write_preview
    from ..validate import validate

    report = Report()
    try:
        r = open_root(root)
        (gid,) = select_games(r, [game])
        g = validate(r, [gid], report).get(gid)
        langs = languages_for(r, g, tuple(lang or ())) if g is not None else None
        page = write_preview(r, gid, g, report, langs, out=out.resolve() if out else None)
    except PnpError as exc:
        fail_with(findings_text(report), exc)
    text = findings_text(report)
    if text:
        err(text)
    err(summary(report, [gid]))
    failed = report.has_errors() or (strict and bool(report.warnings))
    if report.has_errors():
        typer.echo(tr("wrote {path}: it shows the errors").format(path=page))
    else:
        typer.echo(tr("wrote {path}").format(path=page))
    raise typer.Exit(1 if failed else 0)


@app.command("watch")
def watch_cmd(
    game: GameArg,
    lang: Annotated[list[str] | None, typer.Option("--lang", help="Languages to rebuild.")] = None,
    paper: PaperOpt = Paper.a4,
    out: OutOpt = None,
    root: RootOpt = None,
) -> None:
    """Validate and rebuild (PDF and preview) whenever a file of GAME changes. Ctrl-C stops.

    After a save with errors, the preview page shows them until a save fixes them. A save
    rewrites only the PDFs it can change: an edit of the English texts leaves the PDF of a
    language that does not print them (it has its own) as it is.
    """
    from ..designer.watch import Watcher

    try:
        r = open_root(root)
        (gid,) = select_games(r, [game])
        target = out.resolve() if out else None
        watcher = Watcher(r, gid, tuple(lang or ()), paper.value, echo=typer.echo, out=target)
        watcher.run()
    except PnpError as exc:
        fail(exc)
