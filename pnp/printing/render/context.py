"""What every drawer of the renderer reads, and what a drawer is.

:class:`RenderContext` is immutable: the game in one language (its engine, fonts and words), the
print options, the page plan and what the plan decided (the boards the setup sheet draws, the
number of sheets). A new plan is a new context (``dataclasses.replace``). What one PDF uses up
is not here: each drawer that needs such state owns it (the faces' forms, the setup sheet's
flow), and :class:`~.document.Renderer` makes the drawers anew for every PDF.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus.flowables import Flowable

from ...content.model import Game
from ...i18n import Translator
from ...typeset.faces import FaceEngine
from ...typeset.fonts import FontSet
from ...typeset.layout import (
    Paragraph,  # reportlab's, or pnp's layout for shaped/RTL text
    line_width,
)
from ...typeset.markup import parse, to_xml
from ..imposition import BoardOverview, Options, Page
from .pen import Pen


@dataclass(frozen=True, eq=False)
class RenderContext:
    """What the renderer draws (a game in one language) and how (the build's print options and
    its page plan)."""

    game: Game
    lang: str
    engine: FaceEngine
    fonts: FontSet
    translator: Translator
    title: str
    layout: Options = field(default_factory=Options)  # the print options of the build
    plan: tuple[Page, ...] = ()  # the document's pages (Renderer.plan_pages)
    sheet_overviews: tuple[BoardOverview, ...] = ()  # tiled boards the setup sheet draws
    total_sheets: int = 0  # of the pages being drawn, for the page labels
    source_engine: FaceEngine | None = None  # proofs: the engine of the source language

    def w(self, message: str, n: int | None = None) -> str:
        """One of pnp's own sheet words in the build language (pnp.i18n.words)."""
        return self.translator.word(message, n)

    def colon(self, label: str) -> str:
        """``label:`` as the build language sets it: French puts a no-break space before."""
        return f"{label}\u00a0:" if self._french() else f"{label}:"

    def semicolons(self, parts: list[str]) -> str:
        """Parts joined by semicolons, a no-break space before each in French."""
        return ("\u00a0; " if self._french() else "; ").join(parts)

    def _french(self) -> bool:
        return self.lang.split("_")[0].split("-")[0] == "fr"

    def para(self, text: str, face: str, size: float) -> str:
        """Marked-up text as reportlab paragraph XML in the game's fonts."""
        runs = [r for p in parse(text, self.engine.icons, {}) for r in p]
        return to_xml(runs, self.fonts, face, size, lang=self.lang)

    def paragraphs(self, text: str, style: ParagraphStyle) -> list[Flowable]:
        """Marked-up text as one Paragraph for each of its paragraphs."""
        out: list[Flowable] = []
        for runs in parse(text, self.engine.icons, {}):
            xml = to_xml(runs, self.fonts, "regular", style.fontSize, lang=self.lang)
            out.append(Paragraph(xml, style))
        return out

    def measure(self, face: str, size: float) -> Callable[[str], float]:
        """How wide a line of text is, in points, in the game's ``face`` at ``size``."""
        return lambda text: line_width(text, self.fonts, face, size, self.lang)


class PageDrawer(Protocol):
    """What draws one kind of page (:data:`~.document.Renderer` sends each page to one)."""

    def draw(self, pen: Pen, page: Page) -> None: ...
