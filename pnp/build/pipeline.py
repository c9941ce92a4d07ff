"""Build: validate, plan, render every requested PDF in memory, then write them all atomically.

Nothing is written when validation finds an error. Each file is written to a temporary file in
the output folder and renamed over the old one, so an interrupted or failed build leaves the
previous PDF untouched and concurrent builds never mix their bytes.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, cast

from ..content.assets import facts_of, file_digest, is_image_name, prefetch, remember_facts, settle
from ..content.load import Root, load_game, select_games
from ..content.model import Game, valid_language
from ..core.errors import BuildError, ContentError, PnpError, UsageError
from ..core.files import default_mode, write_atomic
from ..core.findings import Finding, Report
from ..core.perf import EarlyWriteback
from ..core.rules import FALLBACK
from ..core.run import current, running
from ..core.units import PAPERS
from ..i18n.catalog import catalog_languages
from ..printing.imposition import Options, plan_document

if TYPE_CHECKING:  # the renderer and the validator are imported when first needed
    from ..i18n.catalog import LangCatalog
    from ..i18n.translator import Translator
    from ..printing.render import Renderer

OVERFLOW = "text-overflow"
GLYPH = "missing-glyph"


@dataclass(frozen=True)
class BuildOptions:
    langs: tuple[str, ...] = ()
    layout: Options = field(default_factory=Options)
    out_dir: Path | None = None
    papers: tuple[str, ...] = ()  # several papers in one build; empty: layout.paper
    jobs: int = 1  # worker processes for several games, languages or papers
    force: bool = False  # rebuild even when nothing changed since the last build
    proof: bool = False  # a translator's proof (source | translation) instead of print sheets
    png_dpi: float | None = None  # also write every face as a PNG at this resolution
    tts: bool = False  # also write Tabletop Simulator deck sheets


@dataclass
class Output:
    game: str
    lang: str
    path: Path
    staged: Path  # the finished PDF, in a temporary file beside ``path`` until committed
    pages: int
    sheets: int
    fallbacks: int
    extra: dict[Path, bytes] = field(default_factory=dict)  # PNG faces, TTS sheets
    skipped: bool = False  # up to date: nothing was rendered


def languages_for(root: Root, game: Game, wanted: tuple[str, ...]) -> list[str]:
    """The languages to build: the requested ones (declared, or with a catalog), else all."""
    if not wanted:
        return list(game.languages)
    available = set(game.languages) | set(catalog_languages(root, game.id))
    out = []
    for lang in wanted:
        if not valid_language(lang):
            raise UsageError(f"--lang {lang!r} is not a locale code (examples: it, en, pt_BR)")
        if lang not in available:
            raise UsageError(
                f"{game.id} has no {lang!r} text: it declares {', '.join(game.languages)}; "
                f"start a translation with `pnp i18n init {game.id} {lang}`"
            )
        out.append(lang)
    return list(dict.fromkeys(out))


def render_game(
    root: Root,
    game: Game,
    lang: str,
    opts: BuildOptions,
    report: Report,
    catalog: LangCatalog | None = None,
) -> Output:
    from ..i18n import Translator
    from ..printing.render import Renderer
    from ..typeset.faces import FaceEngine
    from ..typeset.fonts import fontset

    try:
        fonts = fontset(root.fonts, game.print.font, game.print.fallback_fonts)
    except BuildError as exc:
        report.add("font", game.meta.at("print"), str(exc), game=game.id)
        raise
    translator = Translator(game, lang, catalog)
    engine = FaceEngine(game, root.game_dir(game.id), lang, translator, fonts, cache=False)
    title = translator.text(game.meta.title)
    renderer = Renderer(game, lang, engine, fonts, translator, title)
    renderer._duplex = opts.layout.duplex
    if opts.proof:
        return _proof(root, game, lang, opts, report, renderer)
    setup_pages = renderer.count_setup_pages(PAPERS[opts.layout.paper].portrait())
    try:
        pages = plan_document(game, opts.layout, setup_pages=setup_pages)
    except ValueError as exc:
        raise BuildError(f"{game.id}: {exc}") from exc
    out_dir = (opts.out_dir or root.output) / game.id
    path = out_dir / f"{game.id}-{lang}-{opts.layout.paper}.pdf"
    staged = render_staged(renderer, pages, path)
    for issue in engine.issues:  # builds fit texts here, once, instead of in validation
        if not issue.structural:  # the structure check reports those, with suggestions
            issue.report_to(report, game.id)
    report_fallbacks(report, game, lang, translator)
    sheets = max((p.sheet for p in pages), default=0)
    out = Output(game.id, lang, path, staged, len(pages), sheets, len(translator.fallbacks))
    if opts.png_dpi or opts.tts:
        out.extra = raster_files(game, lang, renderer, out_dir, opts)
    return out


def printed_texts(root: Root, game: Game) -> set[str]:
    """The contexts of the texts a build of ``game`` prints: on faces (every card, token and
    board side, as their layouts draw them), page labels and the setup sheet.

    Texts outside it (validation messages, box inventories) need no translation."""
    from ..content.queries import item_size
    from ..i18n import Translator
    from ..printing.imposition import Options
    from ..printing.render import Renderer
    from ..typeset.faces import FaceEngine, LayoutCycle
    from ..typeset.fonts import fontset

    skip = (KeyError, ValueError, LayoutCycle)  # what validation reports
    fonts = fontset(root.fonts, game.print.font, game.print.fallback_fonts)
    seen: set[str] = set()
    lang = game.source_language
    translator = Translator(game, lang, seen=seen)
    engine = FaceEngine(game, root.game_dir(game.id), lang, translator, fonts, quick=True)
    for owner in game.owners():
        size = item_size(game, owner)
        for card in owner.cards:
            back = card.back if card.back is not None else owner.back  # a card's own back wins
            sides = [(card, "front")] + ([(back, "back")] if back is not None else [])
            for face, side in sides:
                with contextlib.suppress(*skip):
                    engine.ops(face, owner, card, side, size.w, size.h, 0.0)
    for board in game.boards.values():
        for bface, side in [(board, "front")] + ([(board.back, "back")] if board.back else []):
            with contextlib.suppress(*skip):
                engine.ops(bface, board, board, side, board.size.w, board.size.h, 0.0)
        translator.text(board.name or board.title)  # board tiles print it in their label
    renderer = Renderer(game, lang, engine, fonts, translator, translator.text(game.meta.title))
    renderer.setup_flowables()
    with contextlib.suppress(ValueError):
        for page in plan_document(game, Options(), setup_pages=1):
            renderer.label(page)
    return seen


FALLBACK_ADVICE = {
    "fuzzy": "is fuzzy: check the translation and remove the fuzzy flag",
    "missing": "is not translated yet",
    "outdated": "was made for an older source text: run `pnp i18n update {game}`",
    "absent": "is not in the catalog: run `pnp i18n update {game}` (or `pnp i18n init {game} "
    "{lang}`)",
}


def report_fallbacks(report: Report, game: Game, lang: str, translator: Translator) -> None:
    """One finding per text printed in another language than ``lang``, where to fix it."""
    for fb in translator.fallbacks.values():
        advice = FALLBACK_ADVICE.get(fb.state, fb.state).format(game=game.id, lang=lang)
        shown = "English" if fb.what.startswith("pnp:") else game.source_language
        report.add(
            FALLBACK,
            fb.pos,
            f"[{lang}] {fb.what} printed in {shown}: the {lang} entry {advice}",
            game=game.id,
            lang=lang,
        )


def _proof(
    root: Root, game: Game, lang: str, opts: BuildOptions, report: Report, renderer: Renderer
) -> Output:
    from ..i18n import Translator
    from ..printing.imposition import plan_proof
    from ..typeset.faces import FaceEngine

    src = game.source_language
    src_engine = FaceEngine(
        game, root.game_dir(game.id), src, Translator(game, src), renderer.fonts
    )
    renderer.source_engine = src_engine
    pages = plan_proof(game, PAPERS[opts.layout.paper])
    out_dir = (opts.out_dir or root.output) / game.id
    path = out_dir / f"{game.id}-{lang}-proof.pdf"
    staged = render_staged(renderer, pages, path)
    translator = renderer.translator
    for issue in renderer.engine.issues:
        if issue.structural or (issue.rule in (OVERFLOW, GLYPH) and lang in game.languages):
            continue  # validation reported these
        issue.report_to(report, game.id)
    report_fallbacks(report, game, lang, translator)
    return Output(game.id, lang, path, staged, len(pages), len(pages), len(translator.fallbacks))


def raster_files(
    game: Game, lang: str, renderer: Renderer, out_dir: Path, opts: BuildOptions
) -> dict[Path, bytes]:
    """Face PNGs and TTS sheets, rendered from a PDF of one face per page."""
    from ..content.queries import item_size
    from ..printing import export
    from ..printing.render import Renderer

    owners = game.owners()
    sizes = {o.id: item_size(game, o) for o in owners}
    faces = export.face_pages(game, owners, sizes)
    if not faces:
        return {}
    face_renderer = Renderer(
        game, lang, renderer.engine, renderer.fonts, renderer.translator, renderer.title
    )
    pdf = face_renderer.render([f.page for f in faces])
    dpi = opts.png_dpi or 150.0
    rasters = export.rasterise(pdf, dpi, [f.page.size for f in faces])
    images = dict(zip([f.name for f in faces], rasters, strict=True))
    files: dict[Path, bytes] = {}
    if opts.png_dpi:
        for name, image in images.items():
            files[out_dir / f"{game.id}-{lang}-png" / f"{name}.png"] = export.png_bytes(image, dpi)
    if opts.tts:
        for name, data in export.tts_sheets(game, images, faces, dpi).items():
            files[out_dir / f"{game.id}-{lang}-tts" / name] = data
    return files


def build(
    root: Root,
    names: list[str] | None,
    opts: BuildOptions,
    report: Report,
    progress: Callable[[str], None] | None = None,
    validated: dict[str, Game] | None = None,
) -> list[Output]:
    """Validate and build; raises ContentError (nothing written) when validation fails.

    ``validated``: games the caller has just validated into ``report`` (pnp watch), so they
    are not validated twice.
    """
    with running():
        return _build(root, names, opts, report, progress, validated)


def _build(
    root: Root,
    names: list[str] | None,
    opts: BuildOptions,
    report: Report,
    progress: Callable[[str], None] | None,
    validated: dict[str, Game] | None,
) -> list[Output]:
    from ..validate import catalogs_for, validate

    game_ids = select_games(root, names)
    started_ns = time.time_ns()  # before anything is read
    files = {gid: input_files(root, gid) for gid in game_ids}
    every = [p for gid in game_ids for p in files[gid]]
    for gid in game_ids if not opts.force else ():  # what the last build found, for the
        with contextlib.suppress(OSError):  # files unchanged since (--force reads them all)
            kept = _facts_path(root, gid, opts)
            if kept.stat().st_size <= MAX_FACTS_BYTES:
                remember_facts(kept.read_bytes(), files[gid], root.path, _code_digest())
    # Each input file is read once: its digest for the stamps and, for an image, the checks
    # of validation. With --jobs, other processes start on the images now, while this one
    # reads the other files and the YAML (its own share of the images comes when validation
    # asks for them). The other files are digested before this process reads them, and the
    # images before anything draws them, so a file saved during the build leaves a stamp
    # that no longer matches and the next build does not skip.
    prefetch([p for p in every if is_image_name(p)], opts.jobs, wait=False)
    try:
        early = {p: _file_part(p) for p in every if not is_image_name(p)}
        digests: dict[str, str] = {}

        def digest_of(gid: str) -> str:
            if gid not in digests:
                settle()
                digests[gid] = inputs_digest(root, gid, files[gid], early)
            return digests[gid]

        if validated is None and not opts.force:
            skipped = _all_up_to_date(root, game_ids, opts, digest_of)
            if skipped is not None:
                return skipped
        # texts are fitted (and overflow reported) while rendering: once, not twice
        games = validated if validated is not None else validate(root, game_ids, report, [])
    finally:
        settle()
    for gid in game_ids:
        digest_of(gid)
    if report.has_errors() or len(games) != len(game_ids):
        raise ContentError("validation found errors; nothing was written")
    jobs: list[tuple[Game, str, BuildOptions]] = []
    papers = opts.papers or (opts.layout.paper,)
    for gid in game_ids:
        game = games[gid]
        for lang in languages_for(root, game, opts.langs):
            for paper in dict.fromkeys(papers):
                one = replace(opts, layout=replace(opts.layout, paper=paper), papers=())
                jobs.append((game, lang, one))
    outputs: list[Output] = []
    catalogs = {gid: catalogs_for(root, games[gid], report) for gid in game_ids}
    total = len(jobs)
    committed = False
    try:
        if opts.jobs > 1 and total > 1:
            outputs = _render_parallel(root, jobs, opts.jobs, report, progress, catalogs)
        else:
            for i, (game, lang, one) in enumerate(jobs, 1):
                if progress:
                    progress(f"[{i}/{total}] {game.id} {lang} {one.layout.paper}")
                catalog = catalogs[game.id].get(lang)
                outputs.append(render_game(root, game, lang, one, report, catalog))
        if report.has_errors():
            raise ContentError("the build found errors; nothing was written")
        for out in outputs:  # everything is ready: put the files in place
            os.replace(out.staged, out.path)
            for extra_path, extra_data in sorted(out.extra.items()):
                write_atomic(extra_path, extra_data)
            stamp = _stamp(digest_of(out.game), out.lang, out.path.name, opts)
            write_atomic(_stamp_path(out.path), stamp.encode())
        for gid in dict.fromkeys(out.game for out in outputs):
            facts = facts_of(files[gid], root.path, started_ns, _code_digest())
            write_atomic(_facts_path(root, gid, opts), facts)
        committed = True
    finally:
        if not committed:
            for out in outputs:
                with contextlib.suppress(OSError):
                    out.staged.unlink()
    return outputs


# --- skipping unchanged builds ----------------------------------------------------------------


def _fs(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")  # file names need not be valid UTF-8


def _file_part(path: Path) -> bytes:
    """What one file adds to :func:`inputs_digest`: its name, size and content digest."""
    try:
        st = path.stat()
        head = _fs(f"{path.name}:{st.st_size}")
        if st.st_size <= 4 * 1024 * 1024:
            return head + file_digest(path).encode()
        return head + str(st.st_mtime_ns).encode()  # large art: size and time stand for it
    except OSError as exc:  # unreadable: validation says so if the game needs the file
        return _fs(f"{path.name}: {exc.strerror}")


_CODE_DIGEST: str | None = None


def _code_digest() -> str:
    """pnp's own version and code: a new pnp rebuilds everything."""
    global _CODE_DIGEST
    if _CODE_DIGEST is None:
        import hashlib

        from .. import __version__

        h = hashlib.sha256(__version__.encode())
        package = Path(__file__).parent.parent
        for p in sorted(package.rglob("*")):
            if p.is_file() and p.suffix in (".py", ".yaml", ".html", ".po"):
                st = p.stat()
                h.update(_fs(f"{p.relative_to(package)}:{st.st_size}:{st.st_mtime_ns}"))
        _CODE_DIGEST = h.hexdigest()
    return _CODE_DIGEST


def input_files(root: Root, game_id: str) -> list[Path]:
    """Everything a game's PDFs are made from: its files, fonts and catalogs, sorted."""
    files: list[Path] = []
    for folder in (root.game_dir(game_id), root.fonts):
        if folder.is_dir():
            files.extend(p for p in sorted(folder.rglob("*")) if p.is_file() and not p.is_symlink())
    if root.locales.is_dir():
        files.extend(sorted(root.locales.glob(f"*/LC_MESSAGES/{game_id}.po")))
    return files


def inputs_digest(
    root: Root,
    game_id: str,
    files: list[Path] | None = None,
    known: dict[Path, bytes] | None = None,
) -> str:
    """A digest of a game's input files (:func:`input_files`) and of pnp itself; ``known``:
    what some of the files added when they were read earlier (:func:`_file_part`)."""
    import hashlib

    h = hashlib.sha256(_code_digest().encode())
    known = known or {}
    for p in input_files(root, game_id) if files is None else files:
        h.update(_fs(p.relative_to(root.path).as_posix()))
        part = known.get(p)
        h.update(_file_part(p) if part is None else part)
    return h.hexdigest()


def _stamp(digest: str, lang: str, name: str, opts: BuildOptions) -> str:
    settings = replace(opts, out_dir=None, jobs=1, force=False, papers=(), langs=())
    return f"{digest}\n{lang}\n{name}\n{settings!r}\n"


def _stamp_path(pdf: Path) -> Path:
    return pdf.with_name(f".{pdf.name}.inputs")


MAX_FACTS_BYTES = 64 * 1024 * 1024  # about 300,000 files; anything larger is not ours


def _facts_path(root: Root, game_id: str, opts: BuildOptions) -> Path:
    """What the last build of a game into this folder found of its files (assets.facts_of)."""
    return (opts.out_dir or root.output) / game_id / ".pnp-files.json"


def _declared_languages(root: Root, game_id: str) -> list[str] | None:
    """The ``languages:`` of a game's game.yaml alone, or None when anything is unusual.

    Enough to find the stamps of an earlier build without loading the whole game (for a
    10,000-card deck, loading is most of the time a skipped build would take); the stamps
    themselves cover every input, game.yaml included.
    """
    from ..content.load import GAME_FILE
    from ..content.yamlio import load_file

    file = root.game_dir(game_id) / GAME_FILE
    loaded = load_file(file, GAME_FILE, Report(), game_id)
    data = loaded.data
    languages = data.get("languages") if isinstance(data, dict) else None
    if not isinstance(languages, list) or not languages:
        return None
    if not all(isinstance(x, str) and valid_language(x) for x in languages):
        return None
    return list(dict.fromkeys(languages))


def _all_up_to_date(
    root: Root, game_ids: list[str], opts: BuildOptions, digest_of: Callable[[str], str]
) -> list[Output] | None:
    """The outputs, when every one of them was built from exactly the current inputs."""
    outs: list[Output] = []
    for gid in game_ids:
        langs = list(dict.fromkeys(opts.langs)) or _declared_languages(root, gid)
        if not langs or not all(valid_language(lang) for lang in langs):
            return None  # the full path decides (and explains)
        for lang in langs:
            for paper in dict.fromkeys(opts.papers or (opts.layout.paper,)):
                name = f"{gid}-{lang}-{'proof' if opts.proof else paper}.pdf"
                pdf = (opts.out_dir or root.output) / gid / name
                stamp = _stamp_path(pdf)
                if opts.png_dpi or opts.tts or not pdf.is_file() or not stamp.is_file():
                    return None
                if stamp.read_text("utf-8", errors="replace") != _stamp(
                    digest_of(gid), lang, name, opts
                ):
                    return None
                outs.append(Output(gid, lang, pdf, pdf, 0, 0, 0, skipped=True))
    return outs


STALE_SECONDS = 3600


def render_staged(renderer: Renderer, pages: list[Any], path: Path) -> Path:
    """Render into a temporary file beside ``path`` (renamed into place by :func:`build`)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        _remove_stale(path)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise BuildError(f"cannot write into {path.parent}: {exc.strerror}") from exc
    staged = Path(tmp)
    default_mode(staged)
    try:
        with os.fdopen(fd, "wb") as fh:
            writer = EarlyWriteback(fh)
            try:
                renderer.render(pages, sink=cast(BinaryIO, writer))
                writer.close()
            finally:
                writer.stop()
    except BaseException:
        with contextlib.suppress(OSError):
            staged.unlink()
        raise
    return staged


def _remove_stale(path: Path) -> None:
    """Temporary files left by a build that was killed long ago (not by one running now)."""
    import time

    now = time.time()
    for old in path.parent.glob(f".{path.name}.*.tmp"):
        with contextlib.suppress(OSError):
            if now - old.stat().st_mtime > STALE_SECONDS:
                old.unlink()


def _render_job(
    root_path: str, game_id: str, lang: str, opts: BuildOptions
) -> tuple[Output | None, list[Finding], str]:
    """A worker process: render one PDF of a game the parent loaded and validated.

    A forked worker finds the game in memory; otherwise (other start methods) it loads the
    game again.
    """
    with running():  # a forked worker is in the run that started it
        return _render_one(root_path, game_id, lang, opts)


def _render_one(
    root_path: str, game_id: str, lang: str, opts: BuildOptions
) -> tuple[Output | None, list[Finding], str]:
    from ..validate import catalogs_for

    report = Report()
    root = Root(Path(root_path))
    inherited = current().store("build.inherited").get((root_path, game_id))
    if inherited is not None:
        game, catalogs, overrides = inherited
        report.overrides = {game_id: dict(overrides)}
    else:
        loaded = load_game(root, game_id, report)
        if loaded is None:
            return None, report.findings, "the game could not be loaded"
        game = loaded
        catalogs = catalogs_for(root, game, report)
    try:
        out = render_game(root, game, lang, opts, report, catalogs.get(lang))
    except PnpError as exc:
        return None, report.findings, str(exc)
    return out, report.findings, ""


def _render_parallel(
    root: Root,
    jobs: list[tuple[Game, str, BuildOptions]],
    workers: int,
    report: Report,
    progress: Callable[[str], None] | None,
    catalogs: dict[str, Any],
) -> list[Output]:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    total = len(jobs)
    results: list[Output | None] = [None] * total
    # what the parent leaves to forked workers: (root, game id) -> (game, catalogs, overrides)
    inherited = current().store("build.inherited")
    if multiprocessing.get_start_method() == "fork":  # workers see the parent's memory
        for game, _lang, _one in jobs:
            inherited[(str(root.path), game.id)] = (
                game,
                catalogs[game.id],
                report.overrides.get(game.id, {}),
            )
    try:
        return _run_pool(
            ProcessPoolExecutor(max_workers=min(workers, total)),
            root,
            jobs,
            results,
            report,
            progress,
        )
    finally:
        inherited.clear()


def _run_pool(
    pool: Any,
    root: Root,
    jobs: list[tuple[Game, str, BuildOptions]],
    results: list[Output | None],
    report: Report,
    progress: Callable[[str], None] | None,
) -> list[Output]:
    total = len(jobs)
    with pool:
        futures = {
            pool.submit(_render_job, str(root.path), g.id, lang, one): i
            for i, (g, lang, one) in enumerate(jobs)
        }
        from concurrent.futures import as_completed

        for done, future in enumerate(as_completed(futures), 1):
            i = futures[future]
            out, findings, error = future.result()
            game, lang, one = jobs[i]
            if progress:
                progress(f"[{done}/{total}] {game.id} {lang} {one.layout.paper}")
            report.extend(findings)  # duplicates of load findings are merged by the report
            if error:
                raise BuildError(f"{game.id} {lang}: {error}")
            results[i] = out
    return [r for r in results if r is not None]
