"""One job: a game in one language on one paper, rendered once, and the files its exporters
make of it (printing.exporters): the PDF, staged beside its final name, and any PNG faces or
Tabletop Simulator sheets; the findings of rendering (overflow, glyphs, fallbacks) go to the
report."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..content.load import Root
from ..content.model import Game
from ..core.errors import BuildError
from ..core.findings import Report
from ..core.rules import FALLBACK
from ..printing.exporters import ExportJob, FaceProgress, discard, export_faces
from .options import BuildOptions, Output, game_folder

if TYPE_CHECKING:  # the renderer and the validator are imported when first needed
    from ..i18n.catalog import LangCatalog
    from ..i18n.translator import Translator


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
    """The job's PDF (staged) and the files of its other exporters, from one renderer of the
    game in ``lang``; ``progress(done, total)`` is told how many faces the face exporters have
    done; ``guess``: how many pages the setup sheet took last time (`pnp watch`)."""
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
    renderer = Renderer(game, lang, engine, fonts, translator, title, layout=opts.layout)
    out_dir = game_folder(root, opts.out_dir, game.id)
    job = ExportJob(game, lang, renderer, opts.layout, out_dir, report, root.game_dir(game.id))
    job.jobs, job.progress, job.guess = opts.jobs, progress, guess
    doc = opts.document.document(job)
    report_fallbacks(report, game, lang, translator)
    out = Output(
        game.id, lang, doc.path, doc.staged, doc.pages, doc.sheets, len(translator.fallbacks)
    )
    out.setup, out.paper = doc.setup, opts.layout.paper
    try:
        if opts.face_exporters:
            files = export_faces(job, opts.face_exporters)
            out.extra, out.notes = files.staged, files.notes
        for exporter in opts.job_exporters:
            made = exporter.files(job)
            out.extra.update(made.staged)
            out.notes.extend(made.notes)
            out.parts.update(made.parts)
    except BaseException:
        discard([doc.staged, *out.extra.values()])
        raise
    return out


FALLBACK_ADVICE = {
    "fuzzy": "is fuzzy: check the translation and remove the fuzzy flag",
    "missing": "is not translated yet",
    "outdated": "was made for an older source text: run `pnp i18n update {game}`",
    "absent": "is not in the catalog: run `pnp i18n update {game}` (or `pnp i18n init {game} "
    "{lang}`)",
    "error": "has an error msgfmt refuses (the po-syntax finding at this line): fix it",
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
