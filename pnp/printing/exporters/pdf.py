"""The print PDF: everything needed to play a game in one language, on one paper, in print
order (``output/<game>/<game>-<lang>-<paper>.pdf``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...core.errors import BuildError, ContentError
from ...core.rules import PRINTABLE
from ..imposition import Page, TooLarge, outside_printable
from .base import Document, DocumentExporter, ExportJob
from .staging import render_staged


@dataclass(frozen=True)
class PrintPdf(DocumentExporter):
    """The home copy: setup sheet, cards, tokens and boards imposed for the print options."""

    name: ClassVar[str] = "pdf"
    needs: ClassVar[frozenset[str]] = frozenset({"plan"})

    def file_name(self, game_id: str, lang: str, paper: str) -> str:
        return f"{game_id}-{lang}-{paper}.pdf"

    def document(self, job: ExportJob) -> Document:
        try:
            pages = job.renderer.plan_pages(job.layout, job.guess)
        except TooLarge as exc:  # a finding at the size of what does not fit
            owner = exc.run.items[0][0].owner
            size = exc.run.size
            where = owner.at("size")
            if not owner.given("size") and job.game.print.given("card_size"):
                where = job.game.print.at("card_size")  # the default size it takes
            job.report.add(
                PRINTABLE,
                where,
                f"a {size.w:g}×{size.h:g} mm face of {owner.id} does not fit on "
                f"{job.layout.paper} (with its margin, crop marks and bleed): make it smaller, "
                "print on a larger paper (--paper), or make it a board (boards larger than "
                "the paper are split over pages)",
                game=job.game.id,
            )
            raise ContentError(f"{job.game.id}: faces larger than the paper") from exc
        except ValueError as exc:
            raise BuildError(f"{job.game.id}: {exc}") from exc
        check_printable(job, pages)
        path = job.out_dir / self.file_name(job.game.id, job.lang, job.layout.paper)
        staged = render_staged(job.renderer, pages, path)
        for issue in job.renderer.engine.issues:  # texts are fitted here, once, not in validation
            if not issue.structural:  # the structure check reports those, with suggestions
                issue.report_to(job.report, job.game.id)
        sheets = max((p.sheet for p in pages), default=0)
        setup = tuple((i, p.size) for i, p in enumerate(pages) if p.kind == "setup")
        return Document(path, staged, len(pages), sheets, setup)


def check_printable(job: ExportJob, pages: list[Page]) -> None:
    """Before anything is drawn: faces or crop marks the printer could not print (--margin)
    are errors, at the definition of what they belong to."""
    layout = job.layout
    found = outside_printable(pages, layout.margin, layout.crop_marks)
    for out in found:
        where = f"{layout.paper}, page {out.page}"
        if out.what == "faces":
            problem = f"come to {out.distance:.1f} mm of the paper edge ({where})"
        else:
            problem = f"leave no room for their crop marks inside the margin ({where})"
        job.report.add(
            PRINTABLE,
            out.owner.pos,
            f"the faces of {out.owner.id} {problem}, but --margin is {layout.margin:g} mm: "
            "use a larger paper, a smaller print.gap, no bleed or --no-crop-marks, or a "
            "smaller --margin if the printer allows it",
            game=job.game.id,
        )
    if found:
        raise ContentError(f"{job.game.id}: faces outside the printable area")
