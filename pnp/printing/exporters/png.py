"""PNG faces: every distinct face once (a deck's shared back once) and each side of each board,
at the resolution asked, in ``<game>-<lang>-png/`` (``--png DPI``), exactly as printed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .faces import FaceExporter


@dataclass(frozen=True)
class Png(FaceExporter):
    name: ClassVar[str] = "png"
    dpi: float = 300.0

    def png_dpi(self) -> float | None:
        return self.dpi

    def wants_boards(self) -> bool:
        return True
