"""Choosing the text of each field for a build language.

For language L a text is L's inline YAML value, else L's translated, non-fuzzy entry of the PO
catalog ``locales/L/LC_MESSAGES/<game>.po``, else the source text; every fallback is recorded so
the build can report it. Catalog reading and writing lives in pnp/catalog.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .model import Game, Text


@dataclass
class Translator:
    game: Game
    lang: str
    catalog: dict[str, str] = field(default_factory=dict)  # msgctxt -> translated text
    fallbacks: dict[str, Text] = field(default_factory=dict)  # msgctxt -> text that fell back
    from_catalog: set[str] = field(default_factory=set)

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
