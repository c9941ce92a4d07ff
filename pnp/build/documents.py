"""One PDF: a game in one language on one paper, rendered into a staged file beside
its final name; the findings of rendering (overflow, glyphs, fallbacks) go to the report; PNG
faces and Tabletop Simulator sheets when asked."""

from __future__ import annotations

import contextlib
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, cast

from ..content.load import Root
from ..content.model import Game
from ..core.errors import BuildError, ContentError
from ..core.files import stage
from ..core.findings import Report
from ..core.perf import EarlyWriteback
from ..core.rules import FALLBACK, GLYPH, OVERFLOW, PRINTABLE
from ..core.units import PAPERS
from ..printing.imposition import Page, outside_printable
from .options import BuildOptions, Output

if TYPE_CHECKING:  # the renderer and the validator are imported when first needed
    from ..i18n.catalog import LangCatalog
    from ..i18n.translator import Translator
    from ..printing.render import Renderer

FaceProgress = Callable[[int, int], None]  # faces done, faces in all


def render_game(
    root: Root,
    game: Game,
    lang: str,
    opts: BuildOptions,
    report: Report,
    catalog: LangCatalog | None = None,
    progress: FaceProgress | None = None,
    guess: int = 1,
) -> Output:
    """The PDF of ``game`` in ``lang`` (staged), and its PNG and TTS files when asked;
    ``progress(done, total)`` is told how many of those faces are done; ``guess``: how many
    pages the setup sheet took last time (`pnp watch`), where counting them starts."""
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
    renderer.layout = opts.layout
    if opts.proof:
        return _proof(root, game, lang, opts, report, renderer)
    try:
        pages = renderer.plan_pages(opts.layout, guess)
    except ValueError as exc:
        raise BuildError(f"{game.id}: {exc}") from exc
    check_printable(game, pages, opts, report)
    out_dir = (opts.out_dir or root.output) / game.id
    path = out_dir / f"{game.id}-{lang}-{opts.layout.paper}.pdf"
    staged = render_staged(renderer, pages, path)
    for issue in engine.issues:  # builds fit texts here, once, instead of in validation
        if not issue.structural:  # the structure check reports those, with suggestions
            issue.report_to(report, game.id)
    report_fallbacks(report, game, lang, translator)
    sheets = max((p.sheet for p in pages), default=0)
    out = Output(game.id, lang, path, staged, len(pages), sheets, len(translator.fallbacks))
    out.setup = tuple((i, p.size) for i, p in enumerate(pages) if p.kind == "setup")
    if opts.png_dpi or opts.tts:
        try:
            out.extra, out.notes = raster_files(game, lang, renderer, out_dir, opts, progress)
        except BaseException:
            discard([staged])
            raise
    return out


def check_printable(game: Game, pages: list[Page], opts: BuildOptions, report: Report) -> None:
    """Before anything is drawn: faces or crop marks the printer could not print (--margin)
    are errors, at the definition of what they belong to."""
    layout = opts.layout
    found = outside_printable(pages, layout.margin, layout.crop_marks)
    for out in found:
        where = f"{layout.paper}, page {out.page}"
        if out.what == "faces":
            problem = f"come to {out.distance:.1f} mm of the paper edge ({where})"
        else:
            problem = f"leave no room for their crop marks inside the margin ({where})"
        report.add(
            PRINTABLE,
            out.owner.pos,
            f"the faces of {out.owner.id} {problem}, but --margin is {layout.margin:g} mm: "
            "use a larger paper, a smaller print.gap, no bleed or --no-crop-marks, or a "
            "smaller --margin if the printer allows it",
            game=game.id,
        )
    if found:
        raise ContentError(f"{game.id}: faces outside the printable area")


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
    game: Game,
    lang: str,
    renderer: Renderer,
    out_dir: Path,
    opts: BuildOptions,
    progress: FaceProgress | None = None,
) -> tuple[dict[Path, Path], list[str]]:
    """Face PNGs and TTS sheets with their saved objects, cut from pages of many faces each
    rasterised once, each staged in a temporary file beside its final name as soon as it is
    made (final name -> staged file); and what the terminal should say about them."""
    from ..content.queries import item_size
    from ..printing import export, raster, tts
    from ..printing.render import Renderer

    owners = game.owners()
    sizes = {o.id: item_size(game, o) for o in owners}
    faces = export.face_pages(game, owners, sizes)
    decks: list[tts.DeckSheets] = []
    if opts.tts:
        dpi = opts.png_dpi or tts.TTS_DPI
        decks = tts.plan_decks(list(game.decks.values()), faces, sizes, dpi, opts.tts_max_px)
    work = raster.plan(faces, [s for d in decks for s in d.sheets], opts.png_dpi)
    if not work.tasks:
        return {}, []
    face_renderer = Renderer(
        game, lang, renderer.engine, renderer.fonts, renderer.translator, renderer.title
    )
    folders = {"png": out_dir / f"{game.id}-{lang}-png", "tts": out_dir / f"{game.id}-{lang}-tts"}
    staged: dict[Path, Path] = {}

    def sink(name: str, data: bytes) -> None:
        kind, _, rest = name.partition("/")
        final = folders[kind] / rest
        staged[final] = stage_file(final, data)

    try:
        for folder in folders.values():
            remove_stale_in(folder)
        # the faces PDF on disk, not in memory (it holds every face's art): pdfium reads pages
        with tempfile.TemporaryDirectory(prefix="pnp-faces-") as tmp:
            pdf = Path(tmp) / "faces.pdf"
            with pdf.open("wb") as fh:
                face_renderer.render(work.pages, sink=fh)
            raster.run(str(pdf), work.tasks, opts.jobs, sink, progress)
        text = renderer.translator.text
        for name, data in tts.saved_objects(
            game.id,
            decks,
            folders["tts"].absolute(),
            sizes,
            lambda card: tts.plain(text(card.title)) or card.id,
            lambda deck: tts.plain(text(deck.name)) or deck.id,
        ).items():
            sink(f"tts/{name}", data)
    except BaseException:
        discard(staged.values())
        raise
    return staged, _scaled_note(decks, opts)


def stage_file(path: Path, data: bytes) -> Path:
    """``data`` in a temporary file beside ``path`` (renamed into place by the build's commit)."""
    return stage(path, lambda fh: fh.write(data))


def discard(staged: Any) -> None:
    """Remove staged files, and their folders if nothing else is in them."""
    folders = set()
    for path in staged:
        with contextlib.suppress(OSError):
            path.unlink()
        folders.add(path.parent)
    for folder in folders:
        with contextlib.suppress(OSError):
            folder.rmdir()  # only when empty


def _scaled_note(decks: list[Any], opts: BuildOptions) -> list[str]:
    """Never silent: which TTS sheets hold their cards below the resolution asked, and at what."""
    from ..i18n.words import tr

    scaled = []
    for plan in decks:
        if plan.scaled:
            sheet = min(plan.sheets, key=lambda s: s.dpi)
            w, h = sheet.cell
            scaled.append(f"{plan.deck.id} {w}x{h} px ({sheet.dpi:.0f} dpi)")
    if not scaled:
        return []
    asked = opts.png_dpi or 300
    return [
        tr(
            "TTS sheets drawn below {dpi:g} dpi to stay within {px} px a side "
            "(--tts-max-px allows larger sheets): {decks}"
        ).format(dpi=asked, px=opts.tts_max_px, decks=", ".join(scaled))
    ]


STALE_SECONDS = 3600


def render_staged(renderer: Renderer, pages: list[Any], path: Path) -> Path:
    """Render into a temporary file beside ``path`` (renamed into place by :func:`build`)."""
    remove_stale(path)

    def produce(fh: BinaryIO) -> None:
        writer = EarlyWriteback(fh)  # the disk starts writing while the PDF is produced
        try:
            renderer.render(pages, sink=cast(BinaryIO, writer))
        finally:
            writer.stop()  # stage() flushes and syncs the rest

    return stage(path, produce)


def remove_stale_in(folder: Path) -> None:
    """Staged files left in ``folder`` by a build killed long ago."""
    now = time.time()
    for old in folder.glob(".*.tmp") if folder.is_dir() else ():
        with contextlib.suppress(OSError):
            if now - old.stat().st_mtime > STALE_SECONDS:
                old.unlink()


def remove_stale(path: Path) -> None:
    """Temporary files left by a build that was killed long ago (not by one running now)."""

    now = time.time()
    for old in path.parent.glob(f".{path.name}.*.tmp"):
        with contextlib.suppress(OSError):
            if now - old.stat().st_mtime > STALE_SECONDS:
                old.unlink()
