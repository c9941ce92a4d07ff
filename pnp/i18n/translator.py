"""Choosing the text of each field, and of each of pnp's own words, for a build language.

For language L a game text is L's inline YAML value, else L's confirmed (translated, not
fuzzy, made for the current source) entry of ``locales/L/LC_MESSAGES/<game>.po``; for a regional
code (``en_GB``, ``pt_BR``) then its language's (``en``, ``pt``) inline value and catalog
entry, which are not fallbacks; else the source text. pnp's own sheet words come from that
catalog too, else from pnp's own catalog for L, else in English. Every fallback is recorded
with where a translator fixes it (the PO entry's msgstr line, else the YAML text) and why
(fuzzy, missing, outdated, absent), so the build and ``pnp i18n status`` can report it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..content.model import Game, Text
from ..content.refs import count_value, fill
from ..core.findings import Pos
from .words import CONTEXT, SOURCE_LANGUAGE, WORDS_BY_ID, builtin, plural_index

if TYPE_CHECKING:
    from .catalog import LangCatalog


@dataclass(frozen=True)
class Fallback:
    """A text printed in another language than the build's, and where to fix it."""

    what: str  # the text's context, or "pnp: <word>"
    state: str  # fuzzy, missing, outdated, absent
    pos: Pos


@dataclass
class Translator:
    game: Game
    lang: str
    catalog: LangCatalog | None = None
    fallbacks: dict[str, Fallback] = field(default_factory=dict)  # key -> what fell back
    from_catalog: set[str] = field(default_factory=set)
    seen: set[str] | None = None  # when a set: the context of every text asked for

    def __post_init__(self) -> None:
        base = self.lang.split("_")[0]
        self._english = base == SOURCE_LANGUAGE
        self._base = base if base != self.lang else None  # en_GB: en
        self._source = self.game.source_language in (self.lang, self._base)

    # --- game texts ------------------------------------------------------------------------------

    def _entry_state(self, t: Text) -> tuple[str, Any]:
        if self.catalog is None:
            return "absent", None
        return self.catalog.text_state(t, self.game.source_language)

    def is_fallback(self, t: Text) -> bool:
        """True when ``t`` prints in the source language for lack of a translation."""
        if self._source or self.lang in t.values:
            return False
        if self._entry_state(t)[0] == "translated" or self._regional(t, None) is not None:
            return False
        return t.has_words()

    def _regional(self, t: Text, n: float | None) -> str | None:
        """For a regional code: its language's inline text of ``t``, else that language's
        confirmed catalog entry; None when neither has it (or the code has no region)."""
        if self._base is None:
            return None
        if self._base in t.values:
            inline = t.form(self._base, n) if n is not None else None
            return inline if inline is not None else t.values[self._base]
        parent = self.catalog.parent if self.catalog is not None else None
        if parent is None or parent.lang != self._base:
            return None
        state, entry = parent.text_state(t, self.game.source_language)
        if state != "translated" or entry is None:
            return None
        if entry.msgid_plural is None:
            return str(entry.msgstr[0])
        i = parent.form_index(n) if n is not None else len(entry.msgstr) - 1
        return str(entry.msgstr[min(max(i, 0), len(entry.msgstr) - 1)])

    def has_error(self, t: Text) -> bool:
        """True when the catalog entry of ``t`` has an error (a damaged catalog, for a proof)."""
        return (
            self.catalog is not None
            and bool(self.catalog.bad)
            and (self._entry_state(t)[0] == "error")
        )

    def position(self, t: Text) -> Pos:
        """Where this language's text of ``t`` is written: YAML, else the PO entry."""
        if self.lang in t.values:
            return t.at(self.lang)
        entry = self._entry_state(t)[1]
        if entry is not None and self.catalog is not None:
            return self.catalog.pos(entry)
        return t.pos

    def text(self, t: Text | None, values: Mapping[str, Any] | None = None) -> str:
        """The text of ``t`` in the build language, its references to the game's data
        resolved (``{tracks.military.max}``, a box line's ``{count}``); ``values`` choose a
        plural text's form."""
        if t is None:
            return ""
        chosen = self._chosen(t, values)
        if "{" not in chosen:
            return chosen
        return fill(self.game, chosen, self.lang, t.scope)

    def _chosen(self, t: Text, values: Mapping[str, Any] | None) -> str:
        """The text of ``t`` in the build language, as written (inline, from the catalog, or
        the source text when neither has it)."""
        if self.seen is not None:
            self.seen.add(t.ctx)
        n = _count_of(self.game, t, values)
        if self.lang in t.values:
            inline = t.form(self.lang, n) if n is not None else None
            return inline if inline is not None else t.values[self.lang]
        state, entry = self._entry_state(t)
        if state == "translated" and entry is not None and self.catalog is not None:
            self.from_catalog.add(t.ctx)
            if entry.msgid_plural is None:
                return str(entry.msgstr[0])
            i = self.catalog.form_index(n) if n is not None else len(entry.msgstr) - 1
            return str(entry.msgstr[min(max(i, 0), len(entry.msgstr) - 1)])
        regional = self._regional(t, n)
        if regional is not None:
            return regional
        src = self.game.source_language
        source = t.values.get(src)
        if source is None:
            # no source text: any language present is better than nothing
            source = next(iter(t.values.values()), "")
        elif n is not None:
            source = t.form(src, n) or source
        if not self._source and t.has_words():  # "{coin}" is the same in every language
            pos = self.catalog.pos(entry) if entry is not None and self.catalog else t.pos
            self.fallbacks[t.ctx] = Fallback(t.ctx, state, pos)
        return source

    # --- pnp's own words ------------------------------------------------------------------------

    def word(self, msgid: str, n: int | None = None) -> str:
        """One of pnp's sheet words in the build language (``n`` for a word with plural forms)."""
        spec = WORDS_BY_ID.get(msgid)
        if spec is None:
            raise KeyError(f"{msgid!r} is not registered in pnp.i18n.words.SHEET_WORDS")
        english = spec.plural if (spec.plural and n is not None and n != 1) else msgid
        if self._english:
            return english
        key = CONTEXT + "\x04" + msgid
        state, entry = (
            self.catalog.state(key, msgid, spec.plural) if self.catalog else ("absent", None)
        )
        if state == "translated" and entry is not None and self.catalog is not None:
            if spec.plural is None:
                return str(entry.msgstr[0])
            i = self.catalog.form_index(n if n is not None else 2)
            return str(entry.msgstr[min(max(i, 0), len(entry.msgstr) - 1)])
        own = builtin(self.lang)
        forms = own.get(msgid) if own else None
        if forms:
            if spec.plural is None:
                return forms[0]
            i = plural_index(own.plural if own else None, self.lang, n if n is not None else 2)
            if 0 <= i < len(forms):
                return forms[i]
        if entry is not None and self.catalog is not None:
            pos = self.catalog.pos(entry)
        else:  # the catalog where the word goes (``pnp i18n init`` or ``update`` adds it)
            rel = self.catalog.rel if self.catalog else f"locales/{self.lang}/LC_MESSAGES"
            pos = Pos(rel if self.catalog else f"{rel}/{self.game.id}.po")
        self.fallbacks[key] = Fallback(f"pnp: {msgid}", state, pos)
        return english


def _count_of(game: Game, t: Text, values: Mapping[str, Any] | None) -> float | None:
    if not t.count:
        return None
    value = count_value(game, t, values)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        try:
            return float(str(value))
        except ValueError:
            return None
    return value
