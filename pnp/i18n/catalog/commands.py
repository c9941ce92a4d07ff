"""The catalog commands: write the template (``extract``), start a language's catalog
(``init``), and merge the template into every catalog of a game (``update``, as ``msgmerge
--previous`` does, see :mod:`..merge`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ...content.load import Root
from ...content.model import Game, Text, valid_language
from ...core.errors import UsageError
from ..merge import MergeStats, fresh_entries, merge
from ..plural import PluralForms, parse_plural_forms, plural_forms_for
from ..po import Catalog, Entry, charset_of, python_codec
from ..words import CONTEXT, SOURCE_LANGUAGE, Builtin, builtin
from .files import catalog_languages, load_catalog, po_path, pot_path, read_catalog, write_catalog
from .pot import po_header, template


def extract(root: Root, game: Game, printed: set[str] | None = None) -> tuple[Path, bool]:
    """Write the template; a template that differs only by its date is not rewritten."""
    path = pot_path(root, game.id)
    return path, write_catalog(path, template(game, printed), ignore_dates=True, base=root.path)


def _current_template(root: Root, game: Game, printed: set[str] | None) -> Catalog:
    """The template as written on disk (its date is the one catalogs must carry)."""
    path, _written = extract(root, game, printed)
    return read_catalog(path, root.rel(path))


def _plural_of(lang: str) -> PluralForms:
    return parse_plural_forms(plural_forms_for(lang))


def _prefill(entries: list[Entry], game: Game, lang: str, words: Builtin | None) -> None:
    """A new catalog starts with the YAML's own ``lang`` texts and pnp's words in ``lang``;
    pnp's words are English, so an English catalog starts with them as they are (msginit
    does the same for English)."""
    by_ctx = {t.ctx: t for t in game.texts}
    plural = _plural_of(lang)
    english = lang.split("_")[0] == SOURCE_LANGUAGE
    for entry in entries:
        if entry.msgctxt == CONTEXT:
            forms = words.get(entry.msgid) if words else None
            if english:
                more = [] if entry.msgid_plural is None else [entry.msgid_plural]
                forms = [entry.msgid, *more * (plural.nplurals - 1)]
            if forms and (entry.msgid_plural is None or len(forms) == plural.nplurals):
                entry.msgstr = list(forms)
            continue
        text = by_ctx.get(entry.msgctxt or "")
        if text is None or lang not in text.values:
            continue
        if entry.msgid_plural is None:
            entry.msgstr = [text.values[lang]]
        else:
            entry.msgstr = _gettext_forms(text, lang, plural)


def _gettext_forms(text: Text, lang: str, plural: PluralForms) -> list[str]:
    """The CLDR forms of an inline plural text, in the order of the catalog's plural rule."""
    out = []
    for i in range(plural.nplurals):
        n = next((n for n in range(0, 1000) if plural.index(n) == i), None)
        out.append((text.form(lang, n) or "") if n is not None else "")
    return out


def init(
    root: Root, game: Game, lang: str, *, printed: set[str] | None = None, force: bool = False
) -> Path:
    if not valid_language(lang):
        raise UsageError(
            f"{lang!r} is not a locale code; use codes such as fr, de, pt_BR, nb (see "
            "https://www.unicode.org/cldr for the list)"
        )
    path = po_path(root, game.id, lang)
    if path.exists() and not force:
        raise UsageError(
            f"{root.rel(path)} already exists; use `pnp i18n update {game.id}` to merge new "
            "texts into it (nothing is overwritten)"
        )
    tmpl = _current_template(root, game, printed)
    entries = fresh_entries(tmpl, _plural_of(lang).nplurals)
    _prefill(entries, game, lang, builtin(lang))
    catalog = Catalog(header=po_header(game, lang, tmpl), entries=entries)
    write_catalog(path, catalog, base=root.path)
    return path


@dataclass
class UpdateResult:
    path: Path
    stats: MergeStats = field(default_factory=MergeStats)
    written: bool = False
    converted: str = ""  # the charset a catalog was converted from, when it was

    @property
    def added(self) -> int:
        return self.stats.added

    @property
    def changed(self) -> int:
        return self.stats.changed

    @property
    def obsolete(self) -> int:
        return self.stats.obsolete


def update(root: Root, game: Game, printed: set[str] | None = None) -> list[UpdateResult]:
    """Merge the current template into every catalog of the game.

    Every catalog is read and checked first: when one cannot be read, :class:`CatalogError`
    is raised and no file is written (not even the template)."""
    langs = catalog_languages(root, game.id)
    loaded = {}
    for lang in langs:
        path = po_path(root, game.id, lang)
        loaded[lang] = load_catalog(path, root.rel(path))
    tmpl = _current_template(root, game, printed)
    results = []
    for lang in langs:
        path = po_path(root, game.id, lang)
        old = loaded[lang]
        nplurals = old.plural.nplurals if old.plural else _plural_of(lang).nplurals
        merged, stats = merge(old.catalog, tmpl, nplurals=nplurals, language=lang)
        words = builtin(lang)
        # pnp's words no form of which is written (a form a translator wrote is kept)
        fresh = [e for e in merged.entries if e.msgctxt == CONTEXT and not any(e.msgstr)]
        _prefill(fresh, game, lang, words)
        result = UpdateResult(path, stats)
        result.written = write_catalog(path, merged, base=root.path)
        charset = charset_of(old.catalog.header.msgstr[0])
        if result.written and charset and python_codec(charset) != "utf-8":
            result.converted = charset  # msgmerge writes UTF-8 too
        results.append(result)
    return results
