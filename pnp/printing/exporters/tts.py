"""Tabletop Simulator: for each deck, JPEG sheets of its distinct cards and a saved object
that spawns the deck (``<game>-<lang>-tts/``, ``--tts``); :mod:`pnp.printing.tts` lays them
out and writes the JSON."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from ...core.units import Size
from .. import tts
from .base import ExportJob, Files
from .faces import FaceExporter

if TYPE_CHECKING:
    from ..export import FacePage


@dataclass(frozen=True)
class Tts(FaceExporter):
    name: ClassVar[str] = "tts"
    dpi: float = tts.TTS_DPI  # the cards' resolution on the sheets (--png's when asked)
    max_px: int = tts.TTS_MAX_PX  # the largest side of a sheet (--tts-max-px)

    def plan(
        self, job: ExportJob, faces: list[FacePage], sizes: dict[str, Size]
    ) -> list[tts.DeckSheets]:
        decks = list(job.game.decks.values())
        return tts.plan_decks(decks, faces, sizes, self.dpi, self.max_px)

    def sheets(self, plan: Any) -> list[tts.Sheet]:
        return [s for deck in plan for s in deck.sheets]

    def after(self, job: ExportJob, folder: Path, sizes: dict[str, Size], plan: Any) -> Files:
        text = job.renderer.translator.text
        saved = tts.saved_objects(
            job.game.id,
            plan,
            folder.absolute(),
            sizes,
            lambda card: tts.plain(text(card.title)) or card.id,
            lambda deck: tts.plain(text(deck.name)) or deck.id,
        )
        return Files(notes=self._scaled(plan), data=saved)

    def _scaled(self, decks: list[tts.DeckSheets]) -> list[str]:
        """Never silent: which sheets hold their cards below the resolution asked, and at
        what."""
        from ...i18n.words import tr

        scaled = []
        for plan in decks:
            if plan.scaled:
                sheet = min(plan.sheets, key=lambda s: s.dpi)
                w, h = sheet.cell
                scaled.append(f"{plan.deck.id} {w}x{h} px ({sheet.dpi:.0f} dpi)")
        if not scaled:
            return []
        return [
            tr(
                "TTS sheets drawn below {dpi:g} dpi to stay within {px} px a side "
                "(--tts-max-px allows larger sheets): {decks}"
            ).format(dpi=self.dpi, px=self.max_px, decks=", ".join(scaled))
        ]
