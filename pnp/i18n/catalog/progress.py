"""Translation progress (``pnp i18n status``): per language, the texts translated (inline or in
the catalog), fuzzy and missing, each problem placed where a translator fixes it."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...content.load import Root
from ...content.model import Game
from ...core.findings import Pos
from ..po import Entry
from ..words import CONTEXT, SOURCE_LANGUAGE, Word, builtin
from .files import catalog_languages, po_path
from .pot import game_words, source_forms
from .translations import LangCatalog, Translations, key_of


@dataclass
class Problem:
    """Something a translator has to do, and where."""

    # fuzzy, missing, outdated, absent (not in the catalog), error (an entry msgfmt refuses),
    # overflow, glyph, catalog (the catalog's own error)
    kind: str
    pos: Pos
    what: str  # the text's context (or the message of a finding)
    text: str = ""  # the source text, for a text of the catalog

    def as_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "path": self.pos.path,
            "line": self.pos.line,
            "column": self.pos.col,
            "what": self.what,
            "text": self.text,
        }


@dataclass
class LangStatus:
    lang: str
    total: int = 0
    translated: int = 0
    fuzzy: int = 0
    missing: int = 0
    source: bool = False
    catalog: bool = False
    readable: bool = True  # False: a catalog the build refuses (its errors are findings)
    # False: a catalog that cannot be read at all; its texts are not counted (their
    # state is unknown), and it is never shown as translated
    counted: bool = True
    problems: list[Problem] = field(default_factory=list)

    @property
    def percent(self) -> float | None:
        if not self.counted:
            return None
        return 100.0 * self.translated / self.total if self.total else 100.0

    def count(self, kind: str) -> int:
        return sum(1 for p in self.problems if p.kind == kind)


def status(
    root: Root, game: Game, translations: Translations, printed: set[str] | None = None
) -> list[LangStatus]:
    """Per language: texts translated, fuzzy, missing, each problem placed.

    Counted: the texts the sheets print, and pnp's own words for them. A text with an entry in
    the language's catalog counts as msgfmt counts that entry (so that a catalog brought up to
    date by ``update`` reads the same in ``msgfmt --statistics``); one without counts as
    translated when the YAML has its text in the language (or it is the source language, or
    pnp's own word in English or in pnp's translation)."""
    langs = list(dict.fromkeys([*game.languages, *catalog_languages(root, game.id)]))
    src = game.source_language
    texts = [
        t
        for t in game.texts
        if source_forms(t, src)[0] and t.has_words() and (printed is None or t.ctx in printed)
    ]
    words = game_words(game)
    rows = []
    for lang in langs:
        st = LangStatus(lang, source=lang == src)
        cat = translations.get(lang)
        st.catalog = po_path(root, game.id, lang).exists()
        st.readable = cat is not None or not st.catalog
        if cat is None and st.catalog:
            cat = translations.damaged.get(lang)  # read without its bad entries
            st.counted = cat is not None
        if not st.counted:
            st.total = len(texts) + len(words)
            rows.append(st)
            continue
        for text in texts:
            st.total += 1
            state, entry = cat.text_state(text, src) if cat else ("absent", None)
            if state == "absent" and (st.source or lang in text.values):
                state = "translated"  # no entry: the YAML's own text prints
            source = source_forms(text, src)[0] or ""
            _count(st, cat, state, entry, Problem(state, text.pos, text.ctx, source))
        _count_words(st, cat, words)
        rows.append(st)
    return rows


def _count_words(st: LangStatus, cat: LangCatalog | None, words: list[Word]) -> None:
    """pnp's own words on the sheets, as the catalog has them; with no entry (or no catalog),
    English needs none and pnp's own translation counts."""
    english = st.lang.split("_")[0] == SOURCE_LANGUAGE
    pnp_words = builtin(st.lang) if not english else None
    for word in words:
        st.total += 1
        key = key_of(CONTEXT, word.msgid)
        state, entry = cat.state(key, word.msgid, word.plural) if cat else ("absent", None)
        if state == "absent" and (english or (pnp_words and pnp_words.get(word.msgid))):
            state = "translated"  # pnp's own words print
        at = Pos(cat.rel) if cat else Pos("")
        _count(st, cat, state, entry, Problem(state, at, CONTEXT, word.msgid))


def _count(
    st: LangStatus, cat: LangCatalog | None, state: str, entry: Entry | None, problem: Problem
) -> None:
    """Count a text in its state as ``msgfmt --statistics`` counts its entry (translated: not
    fuzzy and a first form; fuzzy: fuzzy with a first form; else untranslated); a text not
    translated is a problem, placed at its entry's msgstr line when the catalog has one (else
    where ``problem`` says). A plural entry with a later form empty counts as translated, as
    msgfmt counts it, and is listed as a problem (``form``): that form prints the source."""
    if cat is not None and entry is not None:
        problem.pos = cat.pos(entry)
    if state == "missing" and entry is not None and entry.translated and not entry.fuzzy:
        problem.kind = "form"
        st.problems.append(problem)
        state = "translated"
    if state == "translated":
        st.translated += 1
        return
    if state == "fuzzy":
        st.fuzzy += 1
    else:
        st.missing += 1
    st.problems.append(problem)
