"""Choosing the text of each field for a build language.

For language L a text is L's inline YAML value, else L's translated, non-fuzzy entry of the PO
catalog ``locales/L/LC_MESSAGES/<game>.po``, else the source text; every fallback is recorded so
the build can report it. Catalog reading and writing lives in pnp/catalog.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..findings import Pos
from ..model import Game, Text


@dataclass
class Translator:
    game: Game
    lang: str
    catalog: dict[str, str] = field(default_factory=dict)  # msgctxt -> translated text
    fallbacks: dict[str, Text] = field(default_factory=dict)  # msgctxt -> text that fell back
    from_catalog: set[str] = field(default_factory=set)
    positions: dict[str, Pos] = field(default_factory=dict)  # msgctxt -> PO file line

    def is_fallback(self, t: Text) -> bool:
        """True when ``t`` prints in the source language for lack of a translation."""
        return (
            self.lang != self.game.source_language
            and self.lang not in t.values
            and not self.catalog.get(t.ctx)
        )

    def position(self, t: Text) -> Pos:
        """Where this language's text of ``t`` is written: YAML, else the PO entry."""
        if self.lang in t.values:
            return t.at(self.lang)
        if t.ctx in self.catalog and t.ctx in self.positions:
            return self.positions[t.ctx]
        return t.pos

    def text(self, t: Text | None) -> str:
        if t is None:
            return ""
        inline = t.values.get(self.lang)
        if inline is not None:
            return inline
        translated = self.catalog.get(t.ctx)
        if translated:
            self.from_catalog.add(t.ctx)
            return translated
        source = t.values.get(self.game.source_language)
        if source is None:
            # no source text: any language present is better than nothing
            source = next(iter(t.values.values()), "")
        if self.lang != self.game.source_language:
            self.fallbacks[t.ctx] = t
        return source
