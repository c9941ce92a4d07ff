"""What an exporter is: one output format of a build, one class.

A build renders each game in each language (on each paper) once, and asks the exporters of
its options for their files. The *document* exporter (exactly one: the print PDF, or a
translator's proof) writes the job's PDF from the renderer's page plan; *face* exporters (PNG
faces, Tabletop Simulator sheets, any number) work from the faces rasterised once for all of
them (:mod:`.faces`). Each declares what it needs and whether a build may skip or keep it, so
that the build never asks which format it is.

Files are staged: written to a temporary file beside their final name, renamed into place by
the build's commit once every job has succeeded.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from ...content.model import Game
from ...core.findings import Report
from ...core.units import Size
from ..imposition import Options

if TYPE_CHECKING:
    from ..render import Renderer

FaceProgress = Callable[[int, int], None]  # faces done, faces in all


@dataclass
class ExportJob:
    """One game in one language on one paper, rendered: what every exporter works from."""

    game: Game
    lang: str
    renderer: Renderer
    layout: Options
    out_dir: Path  # the game's output folder
    report: Report  # findings of the export (printable area, overflow, fallbacks)
    game_dir: Path  # the game's folder (the proof draws the source language beside)
    jobs: int = 1  # processes an exporter may use
    progress: FaceProgress | None = None
    guess: int = 1  # the setup sheet's pages last time (pnp watch): where counting starts


@dataclass
class Document:
    """The job's PDF, staged, as a document exporter made it."""

    path: Path
    staged: Path
    pages: int
    sheets: int
    setup: tuple[tuple[int, Size], ...] = ()  # the setup sheet's pages (index, size)


@dataclass
class Files:
    """Files an exporter made: final name -> staged file (or, before staging, name in its
    folder -> bytes); and notes for the terminal."""

    staged: dict[Path, Path] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    data: dict[str, bytes] = field(default_factory=dict)


@dataclass(frozen=True)
class Exporter:
    """An output format. Subclasses are frozen dataclasses holding the format's settings
    (what the command line asked), registered by name in
    :data:`pnp.printing.exporters.EXPORTERS`."""

    name: ClassVar[str] = ""
    needs: ClassVar[frozenset[str]] = frozenset()  # "plan": the print page plan; "faces": the
    # faces rasterised once (one face a page, without bleed)
    stamped: ClassVar[bool] = True  # a build of unchanged content may skip it (build stamps)
    keeps: ClassVar[bool] = True  # pnp watch may keep its files when an edit cannot change them
    many_cores: ClassVar[bool] = False  # worth a process per core


@dataclass(frozen=True)
class DocumentExporter(Exporter):
    """Writes the job's PDF; a build has exactly one."""

    def file_name(self, game_id: str, lang: str, paper: str) -> str:
        raise NotImplementedError

    def document(self, job: ExportJob) -> Document:
        raise NotImplementedError
