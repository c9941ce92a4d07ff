"""Face exporters, and the pass they share: every distinct face drawn on a few large pages,
rasterised once, cut out and handed to each exporter (PNG faces, Tabletop Simulator sheets).

An exporter of faces names the files it wants from the pass (every face as a PNG at a
resolution, sheets of faces) and what it writes after it (saved objects); files are staged
in the exporter's folder beside the PDF (``<game>-<lang>-<name>/``) as they are made.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from ...content.queries import item_size
from ...core.units import Size
from .base import Exporter, ExportJob, Files
from .staging import discard, remove_stale_in, stage_file

if TYPE_CHECKING:  # pdfium and Pillow are loaded when faces are exported, not before
    from .. import raster
    from ..export import FacePage
    from ..tts import Sheet

Sink = Callable[[str, bytes], None]


@dataclass(frozen=True)
class FaceExporter(Exporter):
    """An exporter working from the faces rasterised once."""

    needs: ClassVar[frozenset[str]] = frozenset({"faces"})
    stamped: ClassVar[bool] = False  # its files are not in the PDF's stamp: always made
    keeps: ClassVar[bool] = False
    many_cores: ClassVar[bool] = True  # the pass shares its work out by pixels
    per_paper: ClassVar[bool] = False  # faces are the same on every paper

    def folder(self, game_id: str, lang: str) -> str:
        return f"{game_id}-{lang}-{self.name}"

    def wants_boards(self) -> bool:
        """Whether it wants the boards' sides too."""
        return False

    def png_dpi(self) -> float | None:
        """The resolution it wants every face at as a PNG ("<name>/<face>.png"), if any."""
        return None

    def plan(self, job: ExportJob, faces: list[FacePage], sizes: dict[str, Size]) -> Any:
        """Its own plan of what it makes of the faces (handed back to the methods below)."""
        return None

    def sheets(self, plan: Any) -> list[Sheet]:
        """The sheets of faces it wants from the pass ("<sheet's folder>/<sheet's file>")."""
        return []

    def after(self, job: ExportJob, folder: Path, sizes: dict[str, Size], plan: Any) -> Files:
        """Files it writes once the pass is done (by name in its folder), and notes."""
        return Files()


def export_faces(job: ExportJob, exporters: list[FaceExporter]) -> Files:
    """The files of every face exporter, from one rasterisation of the game's faces."""
    from .. import export, raster

    game = job.game
    owners = game.owners()
    sizes = {o.id: item_size(game, o) for o in owners}
    faces = export.face_pages(game, owners, sizes)
    dpis = [d for e in exporters if (d := e.png_dpi())]
    files = Files()
    if any(e.wants_boards() for e in exporters):
        drawn_at = max([*dpis, *(float(getattr(e, "dpi", 0.0)) for e in exporters)])
        boards, left = export.board_pages(game, drawn_at, raster.FACE_PIXELS)
        faces += boards
        if left:
            files.notes.append(_too_large(left, drawn_at))
    plans = {e.name: e.plan(job, faces, sizes) for e in exporters}
    sheets = [s for e in exporters for s in e.sheets(plans[e.name])]
    work = raster.plan(faces, sheets, max(dpis) if dpis else None)
    if not work.tasks:
        return files
    folders = {e.name: job.out_dir / e.folder(game.id, job.lang) for e in exporters}
    pngs = [e.name for e in exporters if e.png_dpi()]  # the pass's face PNGs go to each

    def sink(name: str, data: bytes) -> None:
        kind, _, rest = name.partition("/")
        for owner in pngs if kind == raster.PNGS else [kind]:
            final = folders[owner] / rest
            files.staged[final] = stage_file(final, data)

    try:
        for folder in folders.values():
            remove_stale_in(folder)
        _rasterise(job, work, sink)
        for e in exporters:
            made = e.after(job, folders[e.name], sizes, plans[e.name])
            for name, data in made.data.items():
                sink(f"{e.name}/{name}", data)
            files.notes.extend(made.notes)
    except BaseException:
        discard(files.staged.values())
        raise
    return files


def _too_large(boards: list[str], dpi: float) -> str:
    from ...i18n.words import tr

    return tr(
        "boards too large to draw at {dpi:g} dpi, left out of the images: {boards} "
        "(a lower --png resolution draws them)"
    ).format(dpi=dpi, boards=", ".join(boards))


def _rasterise(job: ExportJob, work: raster.Plan, sink: Sink) -> None:
    """Draw the pass's pages (a PDF on disk, not in memory: it holds every face's art) and
    cut them, in ``job.jobs`` processes."""
    from .. import raster
    from ..render import Renderer

    r = job.renderer
    faces = Renderer(job.game, job.lang, r.engine, r.fonts, r.translator, r.title)
    with tempfile.TemporaryDirectory(prefix="pnp-faces-") as tmp:
        pdf = Path(tmp) / "faces.pdf"
        with pdf.open("wb") as fh:
            faces.render(work.pages, sink=fh)
        raster.run(str(pdf), work.tasks, job.jobs, sink, job.progress)
