"""`pnp i18n extract | init | update | status`: translation files for contributors."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from ..content.load import open_root, select_games
from ..core.errors import HAS_OUT, PnpError
from ..core.findings import Report, json_text, terminal_safe
from ..i18n.words import ngettext, tr
from .common import (
    OUTPUT,
    Format,
    FormatOpt,
    GameArg,
    GamesArg,
    RootOpt,
    app,
    err,
    fail,
    findings_text,
    one_game,
    say,
)

i18n_app = typer.Typer(
    no_args_is_help=True,
    help="Translation files for contributors: extract, init, update, status.",
)
app.add_typer(i18n_app, name="i18n")


@i18n_app.callback()
def _in_place() -> None:
    HAS_OUT.set(False)  # catalogs are written where they belong: no --out to advise


def _printed(r: Any, game: Any) -> set[str]:
    from ..build.pipeline import printed_texts

    return printed_texts(r, game)


@i18n_app.command("extract")
def i18n_extract(game: GameArg, root: RootOpt = None) -> None:
    """Write locales/GAME.pot, the template of every text the sheets print."""
    from ..i18n.catalog import extract, read_catalog

    try:
        r = open_root(root)
        g = one_game(r, game, Report())
        path, written = extract(r, g, _printed(r, g))
        n = len(read_catalog(path, r.rel(path)).entries)
    except PnpError as exc:
        fail(exc)
    if written:
        message = ngettext("wrote {path} ({n} text)", "wrote {path} ({n} texts)", n)
    else:
        message = ngettext("unchanged {path} ({n} text)", "unchanged {path} ({n} texts)", n)
    say(message.format(path=r.rel(path), n=n))


@i18n_app.command("init")
def i18n_init(
    game: GameArg,
    lang: Annotated[str, typer.Argument(help="Language code, e.g. fr, de, pt_BR.")],
    root: RootOpt = None,
) -> None:
    """Start locales/LANG/LC_MESSAGES/GAME.po, prefilled with the YAML's own LANG texts."""
    from ..i18n.catalog import init

    try:
        r = open_root(root)
        g = one_game(r, game, Report())
        path = init(r, g, lang, printed=_printed(r, g))
    except PnpError as exc:
        fail(exc)
    say(
        tr(
            "wrote {path}: translate it in Poedit, Weblate or a text editor, then run "
            "`pnp build {game} --lang {lang}`"
        ).format(path=r.rel(path), game=game, lang=lang)
    )


def _catalog_problems(exc: Any) -> None:
    for problem in exc.problems:
        where = f"{exc.rel}:{problem.line}:{problem.col or 1}" if problem.line else exc.rel
        err(f"{where}: error [po-syntax] {problem.message}")


@i18n_app.command("update")
def i18n_update(game: GameArg, root: RootOpt = None) -> None:
    """Merge new and changed texts into every catalog of GAME; nothing is ever lost."""
    from ..i18n.catalog import CatalogError, update

    try:
        r = open_root(root)
        g = one_game(r, game, Report())
        results = update(r, g, _printed(r, g))
    except CatalogError as exc:
        _catalog_problems(exc)
        err("pnp: " + tr("nothing was changed; fix the catalog and run update again"))
        raise typer.Exit(1) from None
    except PnpError as exc:
        fail(exc)
    if not results:
        say(tr("no catalogs yet: start one with `pnp i18n init {game} LANG`").format(game=game))
    for res in results:
        line = tr("{path}: {new}, {fuzzy}, {old}").format(
            path=r.rel(res.path),
            new=ngettext("{n} new", "{n} new", res.added).format(n=res.added),
            fuzzy=ngettext("{n} changed (fuzzy)", "{n} changed (fuzzy)", res.changed).format(
                n=res.changed
            ),
            old=ngettext("{n} obsolete", "{n} obsolete", res.obsolete).format(n=res.obsolete),
        )
        revived = res.stats.revived
        if revived:
            back = ngettext(", {n} back from obsolete", ", {n} back from obsolete", revived)
            line += back.format(n=revived)
        say(line if res.written else line + tr(", unchanged"))
        if res.converted:
            say(
                "  "
                + tr("{path} was {charset}; now UTF-8, which holds the new texts").format(
                    path=r.rel(res.path), charset=res.converted
                )
            )


STATUS_KINDS = {
    "missing": "not translated",
    "fuzzy": "fuzzy: check it, then remove the fuzzy flag",
    "outdated": "made for an older source text: run `pnp i18n update`",
    "absent": "not in the catalog: run `pnp i18n update`",
    "form": "a plural form is empty (it prints the source text): fill each msgstr[N]",
}
_ORDER = {"fuzzy": 0, "form": 1, "outdated": 2, "absent": 3, "missing": 4, "overflow": 5}
LISTED = 12  # lines of one kind listed per language (pnp -v: all)
SOURCE_CHARS = 60  # of a source text quoted


@i18n_app.command("status")
def i18n_status(games: GamesArg = None, fmt: FormatOpt = Format.text, root: RootOpt = None) -> None:
    """Translation progress per game and language, naming each problem with its file:line."""
    from ..build.translations import translation_progress

    report = Report()
    try:
        r = open_root(root)
        progress = translation_progress(r, select_games(r, games), report)
    except PnpError as exc:
        fail(exc)
    if fmt is Format.json:
        typer.echo(json_text(progress.rows))
        raise typer.Exit(1 if progress.failed else 0)
    if progress.broken:
        text = findings_text(report)
        if text:
            err(text)
        names = ", ".join(progress.broken)
        err("pnp: " + tr("{games} cannot be read; fix the errors above").format(games=names))
    _print_catalog_errors(progress.rows)
    _print_table(progress.rows)
    _print_problems(progress.rows)
    if progress.failed:
        raise typer.Exit(1)


def _where(p: dict[str, Any]) -> str:
    return f"{p['path']}:{p['line']}:{p['column']}" if p["line"] else p["path"]


def _print_catalog_errors(rows: list[dict[str, Any]]) -> None:
    """A catalog's own errors first: they explain the counts below."""
    for row in rows:
        for p in row["problems"]:
            if p["kind"] == "catalog":
                say(terminal_safe(f"{_where(p)}: error [po-syntax] [{row['lang']}] {p['what']}"))


def _print_table(rows: list[dict[str, Any]]) -> None:
    say(
        f"{'game':<12} {'lang':<6} {'done':>6} {'transl.':>8} {'fuzzy':>6} {'missing':>8} "
        f"{'overflow':>9} {'glyphs':>7}"
    )
    for row in rows:
        mark = " (source)" if row["source"] else ("" if row["catalog"] else " (YAML only)")
        if row["catalog"] and not row["readable"]:
            mark = " (" + tr("catalog unreadable: its errors are above") + ")"
            if row["percent"] is not None:
                mark = " (" + tr("catalog has errors, not built: they are above") + ")"
        if row["percent"] is None:  # nothing of it could be read: no counts
            done, counts = f"{'?':>6}", f"{'?':>8} {'?':>6} {'?':>8}"
        else:
            done = f"{row['percent']:>5.1f}%"
            counts = f"{row['translated']:>8} {row['fuzzy']:>6} {row['missing']:>8}"
        say(
            f"{terminal_safe(row['game']):<12} {terminal_safe(row['lang']):<6} {done} {counts} "
            f"{row['overflow']:>9} "
            f"{row['missing_glyphs']:>7}{mark}"
        )


def _print_problems(rows: list[dict[str, Any]]) -> None:
    """What to do, and where: each text not translated with its context and source text,
    the first few of each kind per language (``pnp -v``: all), then overflows and glyphs."""
    for row in rows:
        kinds: dict[str, list[dict[str, Any]]] = {}
        for p in row["problems"]:
            if p["kind"] not in ("catalog", "error"):  # errors: printed first
                kinds.setdefault(p["kind"], []).append(p)
        for kind, problems in sorted(kinds.items(), key=lambda k: _ORDER.get(k[0], 9)):
            shown = problems if OUTPUT.verbose else problems[:LISTED]
            for p in shown:
                say(terminal_safe(f"{_where(p)}: [{row['lang']}] {_problem_text(p)}"))
            if len(problems) > len(shown):
                n = len(problems) - len(shown)
                more = ngettext(
                    "... and {n} more ({kind}) in {game} {lang}; `pnp -v i18n status {game}` "
                    "lists them all",
                    "... and {n} more ({kind}) in {game} {lang}; `pnp -v i18n status {game}` "
                    "lists them all",
                    n,
                )
                say(
                    terminal_safe(
                        "  " + more.format(n=n, kind=kind, game=row["game"], lang=row["lang"])
                    )
                )


def _problem_text(p: dict[str, Any]) -> str:
    if p["kind"] in ("overflow", "glyph"):
        return str(p["what"])
    source = " ".join(str(p.get("text") or "").split())
    if len(source) > SOURCE_CHARS:
        source = source[: SOURCE_CHARS - 1] + "…"
    what = STATUS_KINDS.get(p["kind"], p["kind"])
    return f"{what}: {p['what']}" + (f" “{source}”" if source else "")
