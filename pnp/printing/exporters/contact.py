"""Contact sheets: for each deck and token set, one JPEG of its distinct fronts side by side,
small (``<game>-<lang>-contact/``, ``--contact-sheet``): the pictures a published
print-and-play shows of what it holds, cut from the same rasterisation as the PNG faces.
``every``: the distinct backs too, and a sheet for each board's sides (a release's preview)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from ...core.units import Size
from ..tts import Sheet, fit
from .base import ExportJob, Files
from .faces import FaceExporter

if TYPE_CHECKING:
    from ..export import FacePage

WIDEST = 10  # faces in a row, for a deck of up to a hundred faces
MAX_PX = 4096  # the largest side of a sheet: a large deck is drawn smaller, never larger


def _columns(n: int, size: Size) -> int:
    """WIDEST faces a row; more for a large deck, so that its sheet stays about square (and
    the faces as large as MAX_PX allows)."""
    square = math.ceil(math.sqrt(n * size.h / size.w))
    return min(n, max(WIDEST, square))


@dataclass(frozen=True)
class ContactSheet(FaceExporter):
    name: ClassVar[str] = "contact"
    dpi: float = 72.0  # small: a preview, not a print
    every: bool = False  # backs and boards too

    def wants_boards(self) -> bool:
        return self.every

    def plan(self, job: ExportJob, faces: list[FacePage], sizes: dict[str, Size]) -> Any:
        """A sheet per deck or token set of its fronts (and backs), in rows of at most
        WIDEST; with ``every``, one per board with its sides."""
        sheets = []
        owners = [(o.id, sizes[o.id]) for o in job.game.owners()]
        if self.every:  # export.board_pages names a board's faces' owner board-ID
            owners += [(f"board-{b.id}", b.size) for b in job.game.boards.values()]
        sides = ("front", "back") if self.every else ("front",)
        for oid, size in owners:
            fronts = [f.name for s in sides for f in faces if f.owner == oid and f.side == s]
            if not fronts:
                continue
            cols = _columns(len(fronts), size)
            rows = math.ceil(len(fronts) / cols)
            cell, dpi = fit(size, cols, rows, self.dpi, MAX_PX)
            cells = (*fronts, *([None] * (cols * rows - len(fronts))))
            sheets.append(Sheet(f"{oid}.jpg", cols, rows, cell, dpi, cells, self.name))
        return sheets

    def sheets(self, plan: Any) -> list[Sheet]:
        return list(plan)

    def after(self, job: ExportJob, folder: Path, sizes: dict[str, Size], plan: Any) -> Files:
        return Files()
