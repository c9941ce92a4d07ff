"""`pnp new`: a new game to start from, in a content root a designer keeps in git."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ..content.load import open_root
from ..core.errors import HAS_OUT, PnpError, UsageError
from ..core.findings import Report
from ..core.rules import MISSING_TEXT
from ..i18n.words import ngettext, tr
from .common import OUTPUT, RootOpt, app, err, fail, findings_text, say

if TYPE_CHECKING:
    from ..designer.scaffold import NewGame

LangsOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--lang",
        help="A language of the game, repeatable; the first is the source (default: en). The "
        "example's texts come in en, it, es, fr and de; another language gets empty slots to "
        "fill, listed after the game is made.",
    ),
]
OwnFontsOpt = Annotated[
    bool,
    typer.Option(
        "--own-fonts",
        help="Also make fonts/ for font files of your own (pnp brings Noto Sans and DejaVu "
        "Sans, so a game needs none).",
    ),
]


@app.command("new")
def new_cmd(
    game: Annotated[str, typer.Argument(help="Id of the new game (folder name).")],
    lang: LangsOpt = None,
    own_fonts: OwnFontsOpt = False,
    root: RootOpt = None,
) -> None:
    """Start a new game in cards/GAME/ from a small working example. The content root (made
    if it does not exist) also gets a README.md and a .gitignore for output/, where it has
    none: a folder to keep in git."""
    from ..designer.scaffold import new_game

    HAS_OUT.set(False)  # a new game is written in the content root: no --out to advise
    try:
        r = open_root(_made(root) if root is not None else None)
        made = new_game(r, game, list(lang or ["en"]), own_fonts=own_fonts)
    except PnpError as exc:
        fail(exc)
    if not OUTPUT.quiet:
        for path in made.made:
            say(tr("wrote {path}").format(path=r.rel(path)))
        for path in made.extended:
            say(tr("added output/ to {path}").format(path=r.rel(path)))
        if made.untranslated:
            _untranslated(r, game, made)
    say(
        tr(
            "created {path}: try `pnp validate {game}`, `pnp build {game}`, `pnp watch {game}`"
        ).format(path=r.rel(made.folder), game=game)
    )


def _made(root: Path) -> Path:
    """``--root``, made when it does not exist yet: a new game may start a new content root."""
    if not root.exists():
        try:
            root.mkdir(parents=True)
        except OSError as exc:
            raise UsageError(
                tr("cannot create {path}: {reason}").format(path=root, reason=exc.strerror)
            ) from None
    return root


def _untranslated(r: Any, game: str, made: NewGame) -> None:
    """Say which languages pnp has no example texts in: the source's are English, the other
    languages' slots are empty and reported, one finding each, as `pnp validate` would."""
    from ..validate import validate

    src = made.langs[0]
    if made.english_source:
        err(
            tr(
                "pnp has no {lang} version of the example's texts: the {lang} texts in {path} "
                "are English; write them in {lang}"
            ).format(lang=src, path=r.rel(made.folder))
        )
    others = [lang for lang in made.untranslated if lang != src]
    if not others:
        return
    report = Report()
    validate(r, [game], report)
    text = findings_text(report)
    if text:
        say(text)
    n = len([f for f in report.findings if f.rule == MISSING_TEXT])
    err(
        ngettext(
            "pnp has no {langs} version of the example's texts: the {n} text above is left "
            "empty for you to write, in the YAML or in a PO catalog (`pnp i18n init {game} "
            "{lang}`)",
            "pnp has no {langs} version of the example's texts: the {n} texts above are left "
            "empty for you to write, in the YAML or in a PO catalog (`pnp i18n init {game} "
            "{lang}`)",
            n,
        ).format(langs=", ".join(others), n=n, game=game, lang=others[0])
    )
