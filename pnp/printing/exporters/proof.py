"""A translator's proof: each face in the source language beside its translation
(``output/<game>/<game>-<lang>-proof.pdf``), what does not fit framed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...core.rules import GLYPH, OVERFLOW
from ...core.units import PAPERS
from ..imposition import plan_proof
from .base import Document, DocumentExporter, ExportJob
from .staging import render_staged


@dataclass(frozen=True)
class Proof(DocumentExporter):
    """Source | translation, face by face, instead of the print sheets."""

    name: ClassVar[str] = "proof"
    keeps: ClassVar[bool] = False  # pnp watch builds print PDFs only
    shows_errors: ClassVar[bool] = True  # a catalog's errors are marked on it

    def file_name(self, game_id: str, lang: str, paper: str) -> str:
        return f"{game_id}-{lang}-proof.pdf"

    def document(self, job: ExportJob) -> Document:
        from ...i18n import Translator
        from ...typeset.faces import FaceEngine

        game, lang = job.game, job.lang
        src = game.source_language
        source = FaceEngine(game, job.game_dir, src, Translator(game, src), job.renderer.fonts)
        renderer = job.renderer.with_source(source)
        pages = plan_proof(game, PAPERS[job.layout.paper])
        path = job.out_dir / self.file_name(game.id, lang, job.layout.paper)
        staged = render_staged(renderer, pages, path)
        for issue in renderer.engine.issues:
            if issue.structural or (issue.rule in (OVERFLOW, GLYPH) and lang in game.languages):
                continue  # validation reported these
            issue.report_to(job.report, game.id)
        return Document(path, staged, len(pages), len(pages))
