"""What an exporter is: one output format of a build, one class.

A build renders each game in each language (on each paper) once, and asks the exporters of
its options for their files. The *document* exporter (exactly one: the print PDF, or a
translator's proof) writes the job's PDF from the renderer's page plan; *face* exporters (PNG
faces, Tabletop Simulator sheets, any number) work from the faces rasterised once for all of
them (:mod:`.faces`); *job* exporters make files of their own from the job's renderer
(print-on-demand files); *game* exporters make files from what every job of a game made,
once they are all made (a release bundle). Each declares what it needs, whether a build may
skip or keep it, whether it depends on the paper, and what it checks before anything is
made, so that the build never asks which format it is.

Files are staged: written to a temporary file beside their final name, renamed into place by
the build's commit once every job has succeeded.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from ...content.load import Root
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
    parts: dict[str, bytes] = field(default_factory=dict)  # for a game exporter, not files


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
    per_paper: ClassVar[bool] = True  # made again for each paper (else with the first only)

    def check(self, root: Root, game: Game, report: Report) -> None:
        """Findings about ``game`` that stop the build before anything is made (with the
        validation's): what this format cannot make of it."""
        return None


@dataclass(frozen=True)
class DocumentExporter(Exporter):
    """Writes the job's PDF; a build has exactly one."""

    # made for a language with errors of its own too, marking them (a translator's proof);
    # the print PDF of such a language is not made
    shows_errors: ClassVar[bool] = False

    def file_name(self, game_id: str, lang: str, paper: str) -> str:
        raise NotImplementedError

    def document(self, job: ExportJob) -> Document:
        raise NotImplementedError


@dataclass(frozen=True)
class JobExporter(Exporter):
    """Makes files of its own from the job's renderer, after the document."""

    stamped: ClassVar[bool] = False  # its files are not in the PDF's stamp: always made
    keeps: ClassVar[bool] = False

    def files(self, job: ExportJob) -> Files:
        raise NotImplementedError


@dataclass
class Made:
    """What one job of a game made, for a game exporter: its PDF and other files (final name
    -> staged file) and the parts job exporters left for it."""

    lang: str
    paper: str
    document: Path
    staged: Path
    files: dict[Path, Path]
    parts: dict[str, bytes]


@dataclass
class GameJob:
    """Every job of one game, made: what a game exporter works from."""

    game: Game
    out_dir: Path  # the game's output folder
    report: Report
    made: list[Made]


@dataclass(frozen=True)
class GameExporter(Exporter):
    """Makes files of a whole game from what all its jobs made (before anything is put in
    place, so a failure leaves nothing)."""

    stamped: ClassVar[bool] = False
    keeps: ClassVar[bool] = False

    def game_files(self, job: GameJob) -> Files:
        raise NotImplementedError
