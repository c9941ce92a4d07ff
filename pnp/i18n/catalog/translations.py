"""One language's catalog as builds and checks use it (:class:`LangCatalog`), and reading every
catalog of a game for them: what cannot be read, and a catalog's translation that differs from
the YAML's own text, become findings at their line."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...content.load import Root
from ...content.model import Game, Text
from ...core.findings import Pos, Report
from ...core.rules import PLURAL_FORMS, PO_CONFLICT, PO_SYNTAX, PO_WARNING
from ..glossary import Term
from ..plural import PluralForms
from ..plural_language import plural_mismatch
from ..po import Entry
from ..pocheck import PoProblem
from ..words import CONTEXT
from .files import CatalogError, Loaded, catalog_languages, load_catalog, load_damaged, po_path
from .pot import source_forms

SEP = "\x04"  # between msgctxt and msgid in a lookup key, as in gettext's MO files


def key_of(msgctxt: str | None, msgid: str) -> str:
    """The lookup key of an entry: its msgctxt for a game text, ``pnp<EOT>msgid`` for a word."""
    if msgctxt == CONTEXT:
        return CONTEXT + SEP + msgid
    return msgctxt if msgctxt is not None else SEP + msgid


@dataclass
class LangCatalog:
    """One language's catalog of a game, as builds and checks use it."""

    lang: str
    rel: str  # the PO file, relative to the content root
    entries: dict[str, Entry]  # key_of(msgctxt, msgid) -> active entry
    plural: PluralForms | None
    plural_line: int = 0  # where its header's Plural-Forms is (0: nowhere)
    # a catalog with errors, read for a proof: the entries set aside, by key (state "error")
    bad: dict[str, Entry] = field(default_factory=dict)
    # a regional catalog's language (en_GB: en), consulted for what this one leaves out
    parent: LangCatalog | None = None
    glossary: list[Term] = field(default_factory=list)  # the header's (pnp.i18n.glossary)

    def entry(self, key: str) -> Entry | None:
        return self.entries.get(key)

    def pos(self, entry: Entry) -> Pos:
        """Where a translator fixes an entry: its msgstr line."""
        line = entry.msgstr_line or entry.line
        return Pos(self.rel, line, 1 if line else 0)

    def state(self, key: str, msgid: str, plural: str | None) -> tuple[str, Entry | None]:
        """How the entry of ``key`` stands for this source text: ``translated``, ``fuzzy``,
        ``missing`` (empty or a plural form empty), ``outdated`` (made for another source
        text: the catalog needs ``pnp i18n update``), ``error`` (msgfmt refuses it: a catalog
        read for a proof) or ``absent``."""
        entry = self.entries.get(key)
        if entry is None:
            bad = self.bad.get(key)
            return ("error", bad) if bad is not None else ("absent", None)
        if entry.msgid != msgid or entry.msgid_plural != plural:
            return "outdated", entry
        if entry.complete:
            return "translated", entry
        if entry.translated and entry.fuzzy:
            return "fuzzy", entry
        return "missing", entry

    def text_state(self, text: Text, source_lang: str) -> tuple[str, Entry | None]:
        msgid, plural = source_forms(text, source_lang)
        return self.state(text.ctx, msgid, plural)

    def translation(self, text: Text, source_lang: str) -> str | None:
        """The confirmed translation of ``text`` (its general form), or None."""
        state, entry = self.text_state(text, source_lang)
        if state != "translated" or entry is None:
            return None
        return entry.msgstr[-1] if entry.msgid_plural is not None else entry.msgstr[0]

    def form_index(self, n: float) -> int:
        """The plural form for the count ``n`` by this catalog's Plural-Forms."""
        if self.plural is None:
            return 0 if n == 1 else 1
        if not float(n).is_integer():
            return self.plural.index(2) if self.plural.nplurals > 1 else 0
        return self.plural.index(int(n))


class Translations(dict[str, LangCatalog]):
    """lang -> that language's catalog of the game (catalogs that could be read); ``damaged``:
    the catalogs refused for errors inside some translations, read without those (proofs
    use them, marking the errors; builds and checks do not)."""

    def __init__(self) -> None:
        super().__init__()
        self.damaged: dict[str, LangCatalog] = {}

    def for_build(self, lang: str, damaged: bool = False) -> LangCatalog | None:
        """The catalog a build of ``lang`` uses; ``damaged``: a proof takes a damaged one."""
        found = self.get(lang)
        if found is None and damaged:
            found = self.damaged.get(lang)
        if found is None:  # en_GB without a catalog of its own reads en's
            base = lang.split("_")[0]
            found = self.get(base) if base != lang else None
        return found


def read_translations(root: Root, game: Game, report: Report) -> Translations:
    """Every readable catalog of the game; what cannot be read is a finding at its line."""
    out = Translations()
    for lang in catalog_languages(root, game.id):
        path = po_path(root, game.id, lang)
        rel = root.rel(path)
        try:
            loaded = load_catalog(path, rel)
        except CatalogError as exc:
            for problem in exc.problems:
                report.add(PO_SYNTAX, _pos(rel, problem), problem.message, game=game.id, lang=lang)
            damaged = load_damaged(path, rel)
            if damaged is not None:
                cat = _lang_catalog(lang, rel, damaged.loaded)
                cat.bad = {key_of(e.msgctxt, e.msgid): e for e, _problem in damaged.bad}
                out.damaged[lang] = cat
            continue
        for problem in loaded.warnings:
            report.add(PO_WARNING, _pos(rel, problem), problem.message, game=game.id, lang=lang)
        cat = _lang_catalog(lang, rel, loaded)
        _conflicts(game, cat, report)
        out[lang] = cat
    _plural_forms(game, out, report)
    for lang, cat in [*out.items(), *out.damaged.items()]:
        base = lang.split("_")[0]  # a region falls back to its language before the source
        if base != lang and base in out:
            cat.parent = out[base]
    return out


def _lang_catalog(lang: str, rel: str, loaded: Loaded) -> LangCatalog:
    entries = {key_of(e.msgctxt, e.msgid): e for e in loaded.catalog.entries}
    return LangCatalog(
        lang, rel, entries, loaded.plural, loaded.plural_line, glossary=loaded.glossary
    )


def _pos(rel: str, problem: PoProblem) -> Pos:
    return Pos(rel, problem.line, problem.col or (1 if problem.line else 0))


def _conflicts(game: Game, cat: LangCatalog, report: Report) -> None:
    lang = cat.lang
    for text in game.texts:
        if lang not in text.values:
            continue
        value = cat.translation(text, game.source_language)
        if value is not None and value != text.values[lang]:
            entry = cat.entries[text.ctx]
            report.add(
                PO_CONFLICT,
                text.at(lang),
                f"the {lang} text of {text.ctx} differs from {cat.pos(entry)}; the YAML text "
                "wins in builds: keep one of them",
                game=game.id,
                lang=lang,
            )


def _plural_forms(game: Game, out: Translations, report: Report) -> None:
    """A Plural-Forms that is not the language's (by GNU's table or CLDR) is a warning."""
    for lang, cat in out.items():
        if cat.plural is None or not cat.plural_line:
            continue
        problem = plural_mismatch(lang, cat.plural)
        if problem is not None:
            pos = Pos(cat.rel, cat.plural_line, 1)
            report.add(PLURAL_FORMS, pos, problem, game=game.id, lang=lang)
