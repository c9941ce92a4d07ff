"""The `pnp` command: parses arguments, calls the library, prints results, sets the exit code.

Exit codes: 0 success, 1 content errors or build failure, 2 usage errors. No command prints a
Python traceback for bad input; set PNP_DEBUG=1 to see one for a bug in pnp itself.
"""

from __future__ import annotations

import math
import os
import sys
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, Literal, NoReturn

import typer

from .. import __version__
from ..content.load import discover, load_game, open_root, select_games
from ..core.errors import ContentError, Interrupted, PnpError, UsageError
from ..core.findings import Report
from ..core.rules import Severity
from ..core.run import running
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
            sys.stderr.write("\r\x1b[K" + tr("building {step}").format(step=step))
            sys.stderr.flush()
        else:
            sys.stderr.write(tr("building {step}").format(step=step) + "\n")

    return show


FALLBACKS_SHOWN = 8


def _build_findings(report: Report) -> str:
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


def _summary(report: Report, games: list[str]) -> str:
    errors = len([f for f in report.sorted() if f.severity is Severity.ERROR])
    warnings = len([f for f in report.sorted() if f.severity is Severity.WARNING])
    return tr("{games}: {errors} error(s), {warnings} warning(s)").format(
        games=", ".join(games), errors=errors, warnings=warnings
    )


@app.callback(invoke_without_command=True)
def _main(
    ctx: typer.Context,
    version: Annotated[
        bool, typer.Option("--version", help="Print the version and exit.", is_eager=True)
    ] = False,
) -> None:
    if version:
        typer.echo(f"pnp {__version__}")
        raise typer.Exit(0)
    if ctx.invoked_subcommand is None:
        typer.echo(ctx.get_help())
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
        from ..i18n import Translator

        title = Translator(game, game.source_language).text(game.meta.title)
        typer.echo(f"{gid}\t{', '.join(game.languages)}\t{title}")


@app.command("validate")
def validate_cmd(
    games: Annotated[
        list[str] | None, typer.Argument(help="Games to check (default: all).")
    ] = None,
    fmt: Annotated[Format, typer.Option("--format", help="Output format.")] = Format.text,
    strict: Annotated[bool, typer.Option("--strict", help="Warnings fail too.")] = False,
    jobs: Annotated[
        int,
        typer.Option(
            "--jobs",
            "-j",
            help="Fit a large game's texts in up to N processes (0: one per core).",
            min=0,
            max=64,
        ),
    ] = 0,
    root: RootOpt = None,
) -> None:
    """Check games and report every finding as PATH:LINE:COL: severity [rule] message."""
    from ..validate import validate

    report = Report()
    try:
        r = open_root(root)
        ids = select_games(r, games)
        validate(r, ids, report, jobs=jobs)
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
    if len(parts) != 2 or any(not math.isfinite(p) or abs(p) > 20 for p in parts):
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
    proof: Annotated[
        bool,
        typer.Option("--proof", help="Write a translator's proof: source and LANG side by side."),
    ] = False,
    force: Annotated[
        bool,
        typer.Option(
            "--force", help="Rebuild even when nothing changed, reading every file again."
        ),
    ] = False,
    root: RootOpt = None,
) -> None:
    """Build PDFs: output/GAME/GAME-LANG-PAPER.pdf for every game and language asked."""
    from ..build.pipeline import BuildOptions, build
    from ..printing.imposition import Options

    report = Report()
    try:
        for name, number in (("--bleed", bleed), ("--png", png)):
            if number is not None and not math.isfinite(number):  # ranges let NaN through
                raise UsageError(f"{name} {number}: give a number")
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
            proof=proof,
            force=force,
        )
        outputs = build(r, games, opts, report, progress=_progress())
    except KeyboardInterrupt:
        _err("")
        _fail(Interrupted(tr("interrupted; nothing was written")))
    except ContentError as exc:
        text = _build_findings(report)
        if text:
            _err(text)
        _fail(exc)
    except PnpError as exc:
        text = _build_findings(report)
        if text:
            _err(text)
        _fail(exc)
    if sys.stderr.isatty():
        sys.stderr.write("\r\x1b[K")
    text = _build_findings(report)
    if text:
        _err(text)
    for o in outputs:
        try:
            shown = o.path.relative_to(Path.cwd())
        except ValueError:
            shown = o.path
        if o.skipped:
            typer.echo(
                tr("up to date: {path} (nothing changed; --force rebuilds)").format(path=shown)
            )
            continue
        typer.echo(
            tr("wrote {path} ({pages} pages, {sheets} sheets)").format(
                path=shown, pages=o.pages, sheets=o.sheets
            )
        )
        if o.extra:
            folders = sorted({p.parent.name for p in o.extra})
            typer.echo(
                "  "
                + tr("and {n} image files in {folders}").format(
                    n=len(o.extra), folders=", ".join(folders)
                )
            )


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
        r = open_root(root)
        folder = new_game(r, game, list(lang or ["en"]))
    except PnpError as exc:
        _fail(exc)
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
        _fail(exc)


@app.command("preview")
def preview_cmd(
    game: Annotated[str, typer.Argument(help="The game.")],
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
        text = report.format_text()
        if text:
            _err(text)
        _fail(exc)
    _err(_summary(report, [game]))
    typer.echo(tr("wrote {path}").format(path=page))


@app.command("watch")
def watch_cmd(
    game: Annotated[str, typer.Argument(help="The game.")],
    lang: Annotated[list[str] | None, typer.Option("--lang", help="Languages to rebuild.")] = None,
    paper: Annotated[Paper, typer.Option("--paper", help="Paper size.")] = Paper.a4,
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
        _fail(exc)


i18n_app = typer.Typer(
    no_args_is_help=True,
    help="Translation files for contributors: extract, init, update, status.",
)
app.add_typer(i18n_app, name="i18n")


def _one_game(r: Any, name: str, report: Report) -> Any:
    (gid,) = select_games(r, [name])
    game = load_game(r, gid, report)
    if game is None or report.has_errors(gid):
        text = report.format_text()
        if text:
            _err(text)
        raise ContentError(f"{gid} has errors; fix them first (`pnp validate {gid}`)")
    return game


def _printed(r: Any, game: Any) -> set[str]:
    from ..build.pipeline import printed_texts

    return printed_texts(r, game)


@i18n_app.command("extract")
def i18n_extract(
    game: Annotated[str, typer.Argument(help="The game.")], root: RootOpt = None
) -> None:
    """Write locales/GAME.pot, the template of every text the sheets print."""
    from ..i18n.catalog import extract, read_catalog

    try:
        r = open_root(root)
        g = _one_game(r, game, Report())
        path, written = extract(r, g, _printed(r, g))
        n = len(read_catalog(path, r.rel(path)).entries)
    except PnpError as exc:
        _fail(exc)
    message = tr("wrote {path} ({n} texts)") if written else tr("unchanged {path} ({n} texts)")
    typer.echo(message.format(path=r.rel(path), n=n))


@i18n_app.command("init")
def i18n_init(
    game: Annotated[str, typer.Argument(help="The game.")],
    lang: Annotated[str, typer.Argument(help="Language code, e.g. fr, de, pt_BR.")],
    root: RootOpt = None,
) -> None:
    """Start locales/LANG/LC_MESSAGES/GAME.po, prefilled with the YAML's own LANG texts."""
    from ..i18n.catalog import init

    try:
        r = open_root(root)
        g = _one_game(r, game, Report())
        path = init(r, g, lang, printed=_printed(r, g))
    except PnpError as exc:
        _fail(exc)
    typer.echo(
        tr(
            "wrote {path}: translate it in Poedit, Weblate or a text editor, then run "
            "`pnp build {game} --lang {lang}`"
        ).format(path=r.rel(path), game=game, lang=lang)
    )


def _catalog_problems(exc: Any) -> None:
    for problem in exc.problems:
        where = f"{exc.rel}:{problem.line}:{problem.col or 1}" if problem.line else exc.rel
        _err(f"{where}: error [po-syntax] {problem.message}")


@i18n_app.command("update")
def i18n_update(
    game: Annotated[str, typer.Argument(help="The game.")], root: RootOpt = None
) -> None:
    """Merge new and changed texts into every catalog of GAME; nothing is ever lost."""
    from ..i18n.catalog import CatalogError, update

    try:
        r = open_root(root)
        g = _one_game(r, game, Report())
        results = update(r, g, _printed(r, g))
    except CatalogError as exc:
        _catalog_problems(exc)
        _err("pnp: " + tr("nothing was changed; fix the catalog and run update again"))
        raise typer.Exit(1) from None
    except PnpError as exc:
        _fail(exc)
    if not results:
        typer.echo(
            tr("no catalogs yet: start one with `pnp i18n init {game} LANG`").format(game=game)
        )
    for res in results:
        line = tr("{path}: {added} new, {changed} changed (fuzzy), {obsolete} obsolete").format(
            path=r.rel(res.path), added=res.added, changed=res.changed, obsolete=res.obsolete
        )
        if res.stats.revived:
            line += tr(", {n} back from obsolete").format(n=res.stats.revived)
        typer.echo(line if res.written else line + tr(", unchanged"))
        if res.converted:
            typer.echo(
                "  "
                + tr("{path} was {charset}; now UTF-8, which holds the new texts").format(
                    path=r.rel(res.path), charset=res.converted
                )
            )


STATUS_KINDS = {
    "fuzzy": "fuzzy: check it, then remove the fuzzy flag",
    "outdated": "made for an older source text: run `pnp i18n update`",
    "absent": "not in the catalog: run `pnp i18n update`",
}


@i18n_app.command("status")
def i18n_status(
    games: Annotated[list[str] | None, typer.Argument(help="Games (default: all).")] = None,
    fmt: Annotated[Format, typer.Option("--format", help="Output format.")] = Format.text,
    root: RootOpt = None,
) -> None:
    """Translation progress per game and language, naming each problem with its file:line."""
    import json

    from ..i18n.catalog import Problem, read_translations, status
    from ..validate import validate

    report = Report()
    rows_out: list[dict[str, Any]] = []
    try:
        r = open_root(root)
        ids = select_games(r, games)
        loaded = validate(r, ids, report)
    except PnpError as exc:
        _fail(exc)
    broken = [gid for gid in ids if gid not in loaded]
    unreadable: list[str] = []
    for gid in ids:
        game = loaded.get(gid)
        if game is None:
            continue
        try:
            printed = _printed(r, game)
        except PnpError:
            printed = None  # validation reports why (fonts)
        translations = read_translations(r, game, Report())
        for st in status(r, game, translations, printed):
            mine = [f for f in report.for_game(gid) if f.lang == st.lang]
            for f in mine:
                kind = {"text-overflow": "overflow", "missing-glyph": "glyph"}.get(f.rule)
                if kind is not None:
                    st.problems.append(Problem(kind, f.pos, f.message))
            catalog_errors = [
                f
                for f in report.for_game(gid)
                if f.rule == "po-syntax" and f.pos.path.startswith(f"locales/{st.lang}/")
            ]
            for f in catalog_errors:
                st.problems.append(Problem("catalog", f.pos, f.message))
            if st.catalog and not st.readable:
                unreadable.append(f"{gid} {st.lang}")
            rows_out.append(
                {
                    "game": gid,
                    "lang": st.lang,
                    "source": st.source,
                    "catalog": st.catalog,
                    "readable": st.readable,
                    "total": st.total,
                    "translated": st.translated,
                    "fuzzy": st.fuzzy,
                    "missing": st.missing,
                    "percent": round(st.percent, 1),
                    "fallbacks": st.fuzzy + st.missing,
                    "overflow": st.count("overflow"),
                    "missing_glyphs": st.count("glyph"),
                    "problems": [p.as_json() for p in st.problems],
                }
            )
    failed = bool(broken or unreadable)
    if fmt is Format.json:
        typer.echo(json.dumps(rows_out, ensure_ascii=False, indent=2))
        raise typer.Exit(1 if failed else 0)
    if broken:
        text = report.format_text()
        if text:
            _err(text)
        _err(
            "pnp: "
            + tr("{games} cannot be read; fix the errors above").format(games=", ".join(broken))
        )
    typer.echo(
        f"{'game':<12} {'lang':<6} {'done':>6} {'transl.':>8} {'fuzzy':>6} {'missing':>8} "
        f"{'overflow':>9} {'glyphs':>7}"
    )
    for row in rows_out:
        mark = " (source)" if row["source"] else ("" if row["catalog"] else " (YAML only)")
        if row["catalog"] and not row["readable"]:
            mark = " (catalog unreadable)"
        typer.echo(
            f"{row['game']:<12} {row['lang']:<6} {row['percent']:>5.1f}% {row['translated']:>8} "
            f"{row['fuzzy']:>6} {row['missing']:>8} {row['overflow']:>9} "
            f"{row['missing_glyphs']:>7}{mark}"
        )
    for row in rows_out:  # what to do, and where; untranslated texts only by number
        for p in row["problems"]:
            if p["kind"] in ("missing",):
                continue
            where = f"{p['path']}:{p['line']}:{p['column']}" if p["line"] else p["path"]
            what = STATUS_KINDS.get(p["kind"], p["kind"])
            subject = p["what"] if p["kind"] not in ("overflow", "glyph", "catalog") else ""
            text = f"{what}: {subject}" if subject else p["what"]
            typer.echo(f"{where}: [{row['lang']}] {text}")
    if failed:
        raise typer.Exit(1)


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
    from ..core.files import write_atomic
    from ..core.units import PAPERS
    from ..printing.render import render_calibration
    from ..typeset.fonts import fontset

    try:
        r = open_root(root)
        if duplex is Duplex.none:
            raise UsageError("calibration is for double-sided printing: --duplex long or short")
        from ..content.model import valid_language

        if not valid_language(lang):
            raise UsageError(f"--lang {lang!r} is not a locale code (examples: en, it, es)")
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
    typer.echo(
        tr("wrote {path}: print it double-sided ({edge} edge) at 100 %").format(
            path=target, edge=duplex.value
        )
    )


def _interrupt(_signum: int, _frame: object) -> None:
    # typer turns KeyboardInterrupt into a silent exit; a PnpError reaches our handlers
    raise Interrupted(tr("interrupted; nothing was written"))


def main() -> None:
    """The `pnp` command: :func:`invoke`, then leave without tearing down the heap.

    After a large build, freeing every cached paragraph one object at a time takes a
    noticeable part of a second; the operating system takes the memory back at once. Output
    is flushed first, and nothing pnp writes depends on exit handlers (files are renamed into
    place before this point).
    """
    code = 0
    try:
        invoke()
    except SystemExit as exc:
        if isinstance(exc.code, str):
            _err(exc.code)
            code = 1
        else:
            code = exc.code or 0
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):  # a closed pipe (``pnp list | head``): nothing more to say
        pass
    os._exit(code)


def invoke() -> None:
    """Run the command line in this process (tests call this; it raises SystemExit).

    No traceback reaches the user for anything but a bug in pnp.
    """
    import signal

    signal.signal(signal.SIGINT, _interrupt)
    try:
        with running(fresh=True):  # one command, one run: nothing cached outlives it
            app(prog_name="pnp")
    except PnpError as exc:
        _err(f"pnp: {exc}")
        sys.exit(exc.exit_code)
    except KeyboardInterrupt:
        _err("pnp: " + tr("interrupted; nothing was written"))
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
