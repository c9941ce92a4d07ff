"""Contact sheets: for each deck and token set, one JPEG of its distinct fronts side by side,
small (``<game>-<lang>-contact/``, ``--contact-sheet``): the pictures a published
print-and-play shows of what it holds, cut from the same rasterisation as the PNG faces."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from ...core.units import Size, px
from ..tts import Sheet
from .base import ExportJob, Files
from .faces import FaceExporter

if TYPE_CHECKING:
    from ..export import FacePage

WIDEST = 10  # faces in a row at most


@dataclass(frozen=True)
class ContactSheet(FaceExporter):
    name: ClassVar[str] = "contact"
    dpi: float = 72.0  # small: a preview, not a print

    def plan(self, job: ExportJob, faces: list[FacePage], sizes: dict[str, Size]) -> Any:
        """A sheet per deck or token set of its fronts, in rows of at most WIDEST."""
        sheets = []
        for owner in job.game.owners():
            fronts = [f.name for f in faces if f.owner == owner.id and f.side == "front"]
            if not fronts:
                continue
            size = sizes[owner.id]
            cols = min(WIDEST, len(fronts))
            rows = math.ceil(len(fronts) / cols)
            cell = (px(size.w, self.dpi), px(size.h, self.dpi))
            cells = (*fronts, *([None] * (cols * rows - len(fronts))))
            sheets.append(Sheet(f"{owner.id}.jpg", cols, rows, cell, self.dpi, cells, self.name))
        return sheets

    def sheets(self, plan: Any) -> list[Sheet]:
        return list(plan)

    def after(self, job: ExportJob, folder: Path, sizes: dict[str, Size], plan: Any) -> Files:
        return Files()
