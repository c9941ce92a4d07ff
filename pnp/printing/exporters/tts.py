"""Tabletop Simulator: for each deck, JPEG sheets of its distinct cards and a saved object
that spawns the deck; each token and board an image of its own, as custom tiles in a bag per
token set and custom boards; and one saved object with the whole table (``<game>-<lang>-tts/``,
``--tts``, ``--tts-url``). :mod:`pnp.printing.tts` lays the decks out and writes the JSON,
:mod:`pnp.printing.ttstable` the tokens and boards."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from ...core.units import Size
from .. import tts, ttstable
from .base import ExportJob, Files
from .faces import FaceExporter

if TYPE_CHECKING:
    from ..export import FacePage


@dataclass
class TablePlan:
    """Everything the export puts on the table."""

    decks: list[tts.DeckSheets] = field(default_factory=list)
    tokens: list[ttstable.TokenSheets] = field(default_factory=list)
    boards: list[ttstable.BoardSheets] = field(default_factory=list)

    @property
    def sheets(self) -> list[tts.Sheet]:
        parts: list[Any] = [*self.decks, *self.tokens, *self.boards]
        return [s for part in parts for s in part.sheets]


@dataclass(frozen=True)
class Tts(FaceExporter):
    name: ClassVar[str] = "tts"
    dpi: float = tts.TTS_DPI  # the cards' resolution on the sheets (--png's when asked)
    max_px: int = tts.TTS_MAX_PX  # the largest side of a sheet (--tts-max-px)
    url: str | None = None  # --tts-url: where the folder is uploaded ("": the files' names)

    def wants_boards(self) -> bool:
        return True

    def plan(self, job: ExportJob, faces: list[FacePage], sizes: dict[str, Size]) -> TablePlan:
        game = job.game
        return TablePlan(
            tts.plan_decks(list(game.decks.values()), faces, sizes, self.dpi, self.max_px),
            ttstable.plan_tokens(list(game.tokens.values()), faces, sizes, self.dpi, self.max_px),
            ttstable.plan_boards(list(game.boards.values()), faces, self.dpi, self.max_px),
        )

    def sheets(self, plan: Any) -> list[tts.Sheet]:
        return list(plan.sheets)

    def after(self, job: ExportJob, folder: Path, sizes: dict[str, Size], plan: Any) -> Files:
        text = job.renderer.translator.text
        names = tts.Names(
            title=lambda card: tts.plain(text(card.title)) or card.id,
            name=lambda deck: tts.plain(text(deck.name)) or deck.id,
            describe=lambda card: tts.plain(text(card.text, card.values), card.values),
            url=self.url,
        )
        where = folder.absolute()
        table: list[dict[str, object]] = []
        for i, tokens in enumerate(plan.tokens):
            label = tts.plain(text(tokens.tokens.name)) or tokens.tokens.id
            table.append(ttstable.token_bag(tokens, where, names, label, i * tts.SPACING))
        for i, board in enumerate(plan.boards):
            label = tts.plain(text(board.board.name or board.board.title)) or board.board.id
            x = i * (board.board.size.w / 25.4 + 1)
            table.append(ttstable.board_object(board, where, names, label, x))
        saved = tts.saved_objects(job.game.id, plan.decks, where, sizes, names, table)
        return Files(notes=self._scaled(plan), data=saved)

    def _scaled(self, plan: TablePlan) -> list[str]:
        """Never silent: which sheets hold their cards below the resolution asked, and at
        what."""
        from ...i18n.words import tr

        scaled = []
        for deck in plan.decks:
            if deck.scaled:
                sheet = min(deck.sheets, key=lambda s: s.dpi)
                w, h = sheet.cell
                scaled.append(f"{deck.deck.id} {w}x{h} px ({sheet.dpi:.0f} dpi)")
        parts: list[Any] = [*plan.tokens, *plan.boards]
        for part in parts:
            if part.scaled:
                sheet = min(part.sheets, key=lambda s: s.dpi)
                w, h = sheet.cell
                scaled.append(f"{sheet.file} {w}x{h} px ({sheet.dpi:.0f} dpi)")
        if not scaled:
            return []
        return [
            tr(
                "TTS sheets drawn below {dpi:g} dpi to stay within {px} px a side "
                "(--tts-max-px allows larger sheets): {decks}"
            ).format(dpi=self.dpi, px=self.max_px, decks=", ".join(scaled))
        ]
