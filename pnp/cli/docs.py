"""`pnp docs [TOPIC] [--open]`: the documentation, from the installed package."""

from __future__ import annotations

from typing import Annotated

import typer

from ..core.errors import PnpError
from ..i18n.words import tr
from .common import app, fail


def topic_names(incomplete: str) -> list[str]:
    """Shell completion of a topic: the docs pnp ships."""
    from ..designer.docs import topics

    try:
        return [name for name in topics() if name.startswith(incomplete)]
    except PnpError:
        return []


TopicArg = Annotated[
    str | None,
    typer.Argument(
        help="A topic: format, rules, spreadsheets, translating, security... (`pnp docs` "
        "lists them).",
        autocompletion=topic_names,
        show_default=False,
    ),
]
OpenOpt = Annotated[
    bool,
    typer.Option("--open", help="Show it in your web browser (as HTML pages linked together)."),
]


@app.command("docs")
def docs_cmd(topic: TopicArg = None, open_: OpenOpt = False) -> None:
    """Print a topic of pnp's documentation (Markdown), or list the topics.

    Exit 0, or 2 for a topic pnp does not have.
    """
    from ..designer import docs

    try:
        chosen = docs.topic(topic) if topic is not None else None
        if open_:
            _open(chosen.name if chosen else "")
            return
        if chosen is not None:
            typer.echo(chosen.text(), nl=False)
            return
        every = docs.topics()
    except PnpError as exc:
        fail(exc)
    width = max(len(name) for name in every)
    for name, t in every.items():
        typer.echo(f"{name.ljust(width)}  {t.title}")
    typer.echo(
        tr("`pnp docs TOPIC` prints one (pipe it to a pager: | less); --open shows it in a browser")
    )


def _open(name: str) -> None:
    """Every topic as HTML in a new temporary folder; the browser opened at ``name``."""
    import tempfile
    import webbrowser
    from pathlib import Path

    from ..designer.docs import write_html

    pages = write_html(Path(tempfile.mkdtemp(prefix="pnp-docs-")))
    shown = pages[name]
    if webbrowser.open(shown.as_uri()):
        typer.echo(tr("opened {path}").format(path=shown))
    else:
        typer.echo(tr("wrote {path}: open it in a browser").format(path=shown))
