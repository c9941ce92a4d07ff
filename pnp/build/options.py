"""What a build is asked for, and what it gives back."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..content.load import Root
from ..content.model import Game, valid_language
from ..core.errors import UsageError
from ..core.files import out_folder
from ..core.units import Size
from ..i18n.catalog import catalog_languages
from ..printing.exporters import (
    DEFAULT,
    DocumentExporter,
    Exporter,
    FaceExporter,
    GameExporter,
    JobExporter,
)
from ..printing.imposition import Options


def game_folder(root: Root, out_dir: Path | None, game_id: str, create: bool = False) -> Path:
    """OUT/GAME, checked as :func:`~pnp.core.files.out_folder` checks (no symbolic link, no
    special file on the way below the content root, or below ``--out``): made with
    ``create``."""
    if out_dir is not None:
        return out_folder(out_dir, game_id, create=create)
    return out_folder(root.path, "output", game_id, create=create)


@dataclass(frozen=True)
class BuildOptions:
    langs: tuple[str, ...] = ()
    layout: Options = field(default_factory=Options)
    out_dir: Path | None = None
    papers: tuple[str, ...] = ()  # several papers in one build; empty: layout.paper
    jobs: int = 0  # worker processes for several games, languages or papers; 0: auto
    # (one per core when the work pays for it, pipeline.processes)
    force: bool = False  # rebuild even when nothing changed since the last build
    # the output formats asked, with their settings (printing.exporters): exactly one document
    # (the print PDF, or a translator's proof), and any faces exporters (PNG, TTS)
    exports: tuple[Exporter, ...] = DEFAULT
    # --min-translated: languages with fewer of their printed texts translated (percent) are
    # not built, one line each says so
    min_translated: float | None = None

    @property
    def document(self) -> DocumentExporter:
        """The exporter of the job's PDF."""
        found = [e for e in self.exports if isinstance(e, DocumentExporter)]
        if len(found) != 1:
            raise ValueError(f"a build makes one document, not {len(found)}: {self.exports}")
        return found[0]

    @property
    def face_exporters(self) -> list[FaceExporter]:
        """The exporters that work from the faces rasterised once."""
        return [e for e in self.exports if isinstance(e, FaceExporter)]

    @property
    def job_exporters(self) -> list[JobExporter]:
        """The exporters that make files of their own from each job's renderer."""
        return [e for e in self.exports if isinstance(e, JobExporter)]

    @property
    def game_exporters(self) -> list[GameExporter]:
        """The exporters that make files from every job of a game."""
        return [e for e in self.exports if isinstance(e, GameExporter)]


Job = tuple[Game, str, BuildOptions]  # a game, a language, the options with one paper


@dataclass
class Output:
    game: str
    lang: str
    path: Path
    staged: Path  # the finished PDF, in a temporary file beside ``path`` until committed
    pages: int
    sheets: int
    fallbacks: int
    extra: dict[Path, Path] = field(default_factory=dict)  # PNG faces, TTS: name -> staged
    parts: dict[str, bytes] = field(default_factory=dict)  # left by job exporters for a game's
    notes: list[str] = field(default_factory=list)  # for the terminal (TTS sheets scaled down)
    skipped: bool = False  # up to date: nothing was rendered
    paper: str = ""
    # the setup sheet's pages in the PDF (index, size): `pnp watch`'s preview shows them from
    # there, and its next rebuild counts the sheet from their number
    setup: tuple[tuple[int, Size], ...] = ()


def languages_for(root: Root, game: Game, wanted: tuple[str, ...]) -> list[str]:
    """The languages to build: the requested ones (declared, or with a catalog, or a region of
    one of those: en_GB prints en's texts where it has none of its own), else all."""
    if not wanted:
        return list(game.languages)
    available = set(game.languages) | set(catalog_languages(root, game.id))
    out = []
    for lang in wanted:
        if not valid_language(lang):
            raise UsageError(f"--lang {lang!r} is not a locale code (examples: it, en, pt_BR)")
        if lang not in available and lang.split("_")[0] not in available:  # en_GB: en's
            raise UsageError(
                f"{game.id} has no {lang!r} text: it declares {', '.join(game.languages)}; "
                f"start a translation with `pnp i18n init {game.id} {lang}`"
            )
        out.append(lang)
    return list(dict.fromkeys(out))
