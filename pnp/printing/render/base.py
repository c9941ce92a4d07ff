"""What every part of the renderer shares: the game, its language, engine, fonts and words.

:class:`RendererBase` holds the renderer's state; the parts (:mod:`.faces`, :mod:`.furniture`,
:mod:`.boards`, :mod:`.proof`, :mod:`.scenarios`, :mod:`.setup`) extend it, and
:class:`~.document.Renderer` is all of them together.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus.flowables import Flowable

from ...content.model import Game
from ...i18n import Translator
from ...typeset.faces import FaceEngine
from ...typeset.fonts import FontSet
from ...typeset.layout import Paragraph  # reportlab's, or pnp's layout for shaped/RTL text
from ...typeset.markup import parse, to_xml
from ..imposition import Options, Page


@dataclass
class RendererBase:
    """The renderer's state: what it draws (a game in one language) and what one PDF uses up
    (its forms, the rest of the setup sheet's flow)."""

    game: Game
    lang: str
    engine: FaceEngine
    fonts: FontSet
    translator: Translator
    title: str
    total_sheets: int = 0
    layout: Options = field(default_factory=Options)  # the print options of the build
    plan: list[Page] = field(default_factory=list)  # the document's pages (plan_pages)
    proof_marks: bool = False
    forms: dict[Any, str] = field(default_factory=dict)
    form_uses: dict[Any, int] = field(default_factory=dict)
    _setup_pending: list[Flowable] | None = None
    _setup_columns: bool = False  # the setup sheet flows in two columns from here on
    _setup_overviews: list[Any] = field(default_factory=list)  # boards the sheet draws
    source_engine: FaceEngine | None = None  # proofs: the engine of the source language

    def w(self, message: str, n: int | None = None) -> str:
        """One of pnp's own sheet words in the build language (pnp.i18n.words)."""
        return self.translator.word(message, n)

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
