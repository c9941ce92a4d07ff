"""A game's gettext catalogs: the template, new catalogs, updates, reading them, progress.

Files: ``locales/<game>.pot`` (the template) and ``locales/<lang>/LC_MESSAGES/<game>.po``.
Each entry's msgctxt is the text's stable place in the game (``decks/roles/cards/boss/title``),
so entries follow their card when the source text changes; pnp's own sheet words join under the
context ``pnp``. Files are laid out as GNU gettext writes them (:mod:`.po`), checked as ``msgfmt
-c`` checks them (:mod:`.pocheck`) and merged as ``msgmerge --previous`` merges them
(:mod:`.merge`). A catalog that cannot be read as it declares is refused and left unchanged by
every command; every write goes through a temporary file and a rename.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from .. import __version__
from ..content.load import Root
from ..content.model import Game, Text, valid_language
from ..core.errors import PnpError, UsageError
from ..core.files import write_atomic
from ..core.findings import Pos, Report
from ..core.rules import PO_CONFLICT, PO_SYNTAX, PO_WARNING
from .merge import MergeStats, fresh_entries, merge
from .plural import PluralError, PluralForms, parse_plural_forms, plural_forms_for
from .po import Catalog, Entry, Flags, charset_of, encode, parse, python_codec
from .pocheck import PoProblem, scan_po
from .words import CONTEXT, SHEET_WORDS, Builtin, Word, builtin

MAX_CATALOG_BYTES = 16 * 1024 * 1024
SEP = "\x04"  # between msgctxt and msgid in a lookup key, as in gettext's MO files


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%d %H:%M+0000")


class CatalogError(PnpError):
    """A catalog cannot be read or written; ``problems`` say where (first one in the message)."""

    def __init__(self, rel: str, problems: list[PoProblem]) -> None:
        self.rel = rel
        self.problems = problems
        first = problems[0]
        where = f"{rel}:{first.line}" if first.line else rel
        more = f" (and {len(problems) - 1} more problems)" if len(problems) > 1 else ""
        super().__init__(f"{where}: {first.message}{more}")


def pot_path(root: Root, game: str) -> Path:
    return root.locales / f"{game}.pot"


def po_path(root: Root, game: str, lang: str) -> Path:
    return root.locales / lang / "LC_MESSAGES" / f"{game}.po"


def catalog_languages(root: Root, game: str) -> list[str]:
    """The languages that have a catalog of ``game`` under ``locales/``."""
    if not root.locales.is_dir():
        return []
    return sorted(
        p.name
        for p in root.locales.iterdir()
        if p.is_dir() and (p / "LC_MESSAGES" / f"{game}.po").exists()
    )


def key_of(msgctxt: str | None, msgid: str) -> str:
    """The lookup key of an entry: its msgctxt for a game text, ``pnp<EOT>msgid`` for a word."""
    if msgctxt == CONTEXT:
        return CONTEXT + SEP + msgid
    return msgctxt if msgctxt is not None else SEP + msgid


# --- headers --------------------------------------------------------------------------------


def _header(fields: list[tuple[str, str]], comments: list[str], fuzzy: bool = False) -> Entry:
    text = "".join(f"{name}: {value}\n" for name, value in fields)
    return Entry("", [text], comments=comments, flags=Flags(fuzzy=fuzzy))


def pot_header(project: str, version: str, comments: list[str] | None = None) -> Entry:
    """A template's header, as xgettext writes one (fuzzy, with the initial default values),
    without xgettext's ``Plural-Forms: nplurals=INTEGER`` placeholder, which msgfmt -c
    rejects: each catalog says its own language's plural rule."""
    fields = [
        ("Project-Id-Version", f"{project} {version}".strip()),
        ("Report-Msgid-Bugs-To", ""),
        ("POT-Creation-Date", _now()),
        ("PO-Revision-Date", "YEAR-MO-DA HO:MI+ZONE"),
        ("Last-Translator", "FULL NAME <EMAIL@ADDRESS>"),
        ("Language-Team", "LANGUAGE <LL@li.org>"),
        ("Language", ""),
        ("MIME-Version", "1.0"),
        ("Content-Type", "text/plain; charset=UTF-8"),
        ("Content-Transfer-Encoding", "8bit"),
    ]
    if comments is None:
        comments = [
            f"Translation template of {project!r}, made by pnp {__version__}.",
            "Start a language with `pnp i18n init`; see docs/translating.md.",
        ]
    return _header(fields, comments, fuzzy=True)


def po_header(game: Game, lang: str, template: Catalog) -> Entry:
    """A new catalog's header, as msginit writes one; the translator fills in their name."""
    from babel import Locale

    name = Locale.parse(lang).english_name or lang
    fields = [
        ("Project-Id-Version", f"{game.id} {game.meta.version}".strip()),
        ("Report-Msgid-Bugs-To", template.field("Report-Msgid-Bugs-To") or ""),
        ("POT-Creation-Date", template.field("POT-Creation-Date") or _now()),
        ("PO-Revision-Date", _now()),
        ("Last-Translator", ""),
        ("Language-Team", name),
        ("Language", lang),
        ("MIME-Version", "1.0"),
        ("Content-Type", "text/plain; charset=UTF-8"),
        ("Content-Transfer-Encoding", "8bit"),
        ("Plural-Forms", plural_forms_for(lang)),
    ]
    comments = [
        f"{name} translation of {game.id!r}.",
        "Translators: add your name and e-mail to Last-Translator; keep every {placeholder}",
        "and **bold** / _italic_ mark. See docs/translating.md.",
    ]
    return _header(fields, comments)


# --- the template ---------------------------------------------------------------------------

_TOKEN = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*\}")


def brace_flags(text: str) -> Flags:
    """``python-brace-format`` when the text has {placeholders}: Poedit and msgfmt -c then
    check that a translation keeps them; nothing for other texts ("100 %" is no format)."""
    flags = Flags()
    if _TOKEN.search(text) and _valid_brace_format(text):
        flags.formats["python-brace"] = "yes"
    return flags


def _valid_brace_format(text: str) -> bool:
    import string

    try:
        list(string.Formatter().parse(text))
    except ValueError:
        return False
    return True


def _source_forms(text: Text, lang: str) -> tuple[str, str | None]:
    """(msgid, msgid_plural) of a text in the source language."""
    forms = text.forms.get(lang)
    if forms is None:
        return text.values.get(lang, ""), None
    return forms.get("one", forms["other"]), forms["other"]


def game_words(game: Game) -> list[Word]:
    """pnp's sheet words a game's sheets can print (by the features the game has)."""
    features = {"sheets", "proof", "setup"}
    if game.tokens:
        features.add("tokens")
    if game.boards:
        features.add("boards")
    if game.scenarios:
        features.add("scenarios")
    return [w for w in SHEET_WORDS if w.feature in features]


def template(game: Game, printed: set[str] | None = None) -> Catalog:
    """The POT: every text of the game that a sheet prints, then pnp's words for its sheets.

    ``printed``: the contexts of the texts the game's sheets print (None: every text). Texts no
    sheet prints (validation messages, box inventories) are left out: nobody would read them.
    """
    words = game_words(game)
    cat = Catalog(header=pot_header(game.id, game.meta.version))
    notes = _translator_notes(game)
    src = game.source_language
    for text in game.texts:
        source, source_plural = _source_forms(text, src)
        if not source or (printed is not None and text.ctx not in printed):
            continue
        pos = text.at(src)
        extracted = list(notes.get(text.ctx, []))
        if text.note:
            extracted.insert(0, " ".join(text.note.split()))
        if text.count:
            extracted.append(f"plural forms: {{{text.count}}} chooses the form")
        cat.entries.append(
            Entry(
                source,
                msgctxt=text.ctx,
                msgid_plural=source_plural,
                extracted=extracted,
                references=[f"{pos.path}:{pos.line}"],
                flags=brace_flags(source + (source_plural or "")),
            )
        )
    for word in words:
        cat.entries.append(
            Entry(
                word.msgid,
                msgctxt=CONTEXT,
                msgid_plural=word.plural,
                extracted=[f"pnp's own words (English): {word.where}"],
                flags=brace_flags(word.msgid + (word.plural or "")),
            )
        )
    return cat


def _translator_notes(game: Game) -> dict[str, list[str]]:
    """Card notes become notes for translators on every text of that card."""
    out: dict[str, list[str]] = {}
    for _owner, card in game.every_card():
        if not card.note:
            continue
        note = " ".join(card.note.split())
        for _name, text in card.texts():
            out.setdefault(text.ctx, []).append(note)
        if card.back is not None:
            for _name, text in card.back.texts():
                out.setdefault(text.ctx, []).append(note)
    return out


# --- reading and writing files ----------------------------------------------------------------


def read_bytes(path: Path, rel: str) -> bytes:
    """A catalog's bytes: a regular file, not a link, at most 16 MB (checked before reading)."""

    def fail(message: str) -> CatalogError:
        return CatalogError(rel, [PoProblem(0, 0, message, "error")])

    if path.is_symlink():
        raise fail("symbolic links are not read; copy the catalog into locales/")
    try:
        fd = os.open(
            path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
        )
    except OSError as exc:
        raise fail(f"cannot read ({exc.strerror})") from exc
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise fail("not a regular file; a catalog is a text file")
        if info.st_size > MAX_CATALOG_BYTES:
            raise fail(f"{info.st_size:,} bytes: over the 16 MB a catalog may have")
        with os.fdopen(fd, "rb", closefd=False) as fh:
            data = fh.read(MAX_CATALOG_BYTES + 1)
    except OSError as exc:
        raise fail(f"cannot read ({exc.strerror})") from exc
    finally:
        os.close(fd)
    if len(data) > MAX_CATALOG_BYTES:
        raise fail("over the 16 MB a catalog may have")
    return data


@dataclass
class Loaded:
    """A catalog read from disk, with what ``msgfmt -c`` would warn about."""

    catalog: Catalog
    warnings: list[PoProblem]
    plural: PluralForms | None


def load_catalog(path: Path, rel: str) -> Loaded:
    """Read and check a PO/POT file; :class:`CatalogError` names each error's line."""
    scan = scan_po(read_bytes(path, rel))
    if scan.errors or scan.text is None:
        raise CatalogError(rel, scan.errors or [PoProblem(0, 0, "cannot be decoded", "error")])
    warnings = [p for p in scan.problems if p.severity != "error"]
    return Loaded(parse(scan.text), warnings, scan.plural)


def read_catalog(path: Path, rel: str) -> Catalog:
    return load_catalog(path, rel).catalog


def _unchanged(old: bytes, new: bytes, ignore: tuple[bytes, ...]) -> bool:
    def strip(data: bytes) -> list[bytes]:
        return [ln for ln in data.split(b"\n") if not ln.startswith(ignore)]

    return strip(old) == strip(new)


def write_catalog(path: Path, catalog: Catalog, *, ignore_dates: bool = False) -> bool:
    """Write atomically in the catalog's charset; False when the file already says the same.

    A character the declared charset cannot hold turns the catalog into UTF-8 (as msgmerge
    does), saying so in the header."""
    try:
        data = encode(catalog)
    except UnicodeEncodeError:
        catalog.set_field("Content-Type", "text/plain; charset=UTF-8")
        data = encode(catalog)
    if path.is_file() and not path.is_symlink():
        try:
            old = path.read_bytes()
        except OSError:
            old = b""
        ignore = (b'"POT-Creation-Date:',) if ignore_dates else ()
        if old == data or (ignore and _unchanged(old, data, ignore)):
            return False
    write_atomic(path, data)
    return True


# --- commands -------------------------------------------------------------------------------


def extract(root: Root, game: Game, printed: set[str] | None = None) -> tuple[Path, bool]:
    """Write the template; a template that differs only by its date is not rewritten."""
    path = pot_path(root, game.id)
    return path, write_catalog(path, template(game, printed), ignore_dates=True)


def _current_template(root: Root, game: Game, printed: set[str] | None) -> Catalog:
    """The template as written on disk (its date is the one catalogs must carry)."""
    path, _written = extract(root, game, printed)
    return read_catalog(path, root.rel(path))


def _plural_of(lang: str) -> PluralForms:
    return parse_plural_forms(plural_forms_for(lang))


def _prefill(entries: list[Entry], game: Game, lang: str, words: Builtin | None) -> None:
    """A new catalog starts with the YAML's own ``lang`` texts and pnp's words in ``lang``."""
    by_ctx = {t.ctx: t for t in game.texts}
    plural = _plural_of(lang)
    for entry in entries:
        if entry.msgctxt == CONTEXT:
            forms = words.get(entry.msgid) if words else None
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
    write_catalog(path, Catalog(header=po_header(game, lang, tmpl), entries=entries))
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
        merged, stats = merge(old.catalog, tmpl, nplurals=nplurals)
        words = builtin(lang)
        fresh = [e for e in merged.entries if e.msgctxt == CONTEXT and not e.translated]
        _prefill(fresh, game, lang, words)
        result = UpdateResult(path, stats)
        result.written = write_catalog(path, merged)
        charset = charset_of(old.catalog.header.msgstr[0])
        if result.written and charset and python_codec(charset) != "utf-8":
            result.converted = charset  # msgmerge writes UTF-8 too
        results.append(result)
    return results


# --- reading translations for builds and checks ------------------------------------------------


@dataclass
class LangCatalog:
    """One language's catalog of a game, as builds and checks use it."""

    lang: str
    rel: str  # the PO file, relative to the content root
    entries: dict[str, Entry]  # key_of(msgctxt, msgid) -> active entry
    plural: PluralForms | None

    def entry(self, key: str) -> Entry | None:
        return self.entries.get(key)

    def pos(self, entry: Entry) -> Pos:
        """Where a translator fixes an entry: its msgstr line."""
        line = entry.msgstr_line or entry.line
        return Pos(self.rel, line, 1 if line else 0)

    def state(self, key: str, msgid: str, plural: str | None) -> tuple[str, Entry | None]:
        """How the entry of ``key`` stands for this source text: ``translated``, ``fuzzy``,
        ``missing`` (empty or a plural form empty), ``outdated`` (made for another source
        text: the catalog needs ``pnp i18n update``) or ``absent``."""
        entry = self.entries.get(key)
        if entry is None:
            return "absent", None
        if entry.msgid != msgid or entry.msgid_plural != plural:
            return "outdated", entry
        if entry.complete:
            return "translated", entry
        if entry.translated and entry.fuzzy:
            return "fuzzy", entry
        return "missing", entry

    def text_state(self, text: Text, source_lang: str) -> tuple[str, Entry | None]:
        msgid, plural = _source_forms(text, source_lang)
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
    """lang -> that language's catalog of the game (catalogs that could be read)."""


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
                report.add(PO_SYNTAX, _pos(rel, problem), problem.message, game=game.id)
            continue
        for problem in loaded.warnings:
            report.add(PO_WARNING, _pos(rel, problem), problem.message, game=game.id)
        entries = {key_of(e.msgctxt, e.msgid): e for e in loaded.catalog.entries}
        cat = LangCatalog(lang, rel, entries, loaded.plural)
        _conflicts(game, cat, report)
        out[lang] = cat
    return out


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
            )


# --- progress -----------------------------------------------------------------------------------


@dataclass
class Problem:
    """Something a translator has to do, and where."""

    kind: str  # fuzzy, missing, outdated, absent (not in the catalog), overflow, glyph
    pos: Pos
    what: str  # the text's context (or the message of a finding)

    def as_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "path": self.pos.path,
            "line": self.pos.line,
            "column": self.pos.col,
            "what": self.what,
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
    readable: bool = True
    problems: list[Problem] = field(default_factory=list)

    @property
    def percent(self) -> float:
        return 100.0 * self.translated / self.total if self.total else 100.0

    def count(self, kind: str) -> int:
        return sum(1 for p in self.problems if p.kind == kind)


def status(
    root: Root, game: Game, translations: Translations, printed: set[str] | None = None
) -> list[LangStatus]:
    """Per language: texts translated (inline or PO), fuzzy, missing, each problem placed.

    Counted: the texts the sheets print, and pnp's own words for them."""
    langs = list(dict.fromkeys([*game.languages, *catalog_languages(root, game.id)]))
    src = game.source_language
    texts = [
        t for t in game.texts if _source_forms(t, src)[0] and (printed is None or t.ctx in printed)
    ]
    words = game_words(game)
    rows = []
    for lang in langs:
        st = LangStatus(lang, source=lang == src)
        cat = translations.get(lang)
        st.catalog = po_path(root, game.id, lang).exists()
        st.readable = cat is not None or not st.catalog
        for text in texts:
            st.total += 1
            if st.source or lang in text.values:
                st.translated += 1
                continue
            state, entry = cat.text_state(text, src) if cat else ("absent", None)
            _count(st, cat, state, entry, text.ctx, text.pos)
        pnp_words = builtin(lang) if lang.split("_")[0] != "en" else None
        for word in words:
            st.total += 1
            if lang.split("_")[0] == "en":
                st.translated += 1
                continue
            key = key_of(CONTEXT, word.msgid)
            state, entry = cat.state(key, word.msgid, word.plural) if cat else ("absent", None)
            if state != "translated" and pnp_words is not None and pnp_words.get(word.msgid):
                state = "translated"  # pnp's own translation prints
            _count(st, cat, state, entry, f"pnp: {word.msgid}", Pos(cat.rel) if cat else Pos(""))
        rows.append(st)
    return rows


def _count(
    st: LangStatus, cat: LangCatalog | None, state: str, entry: Entry | None, what: str, at: Pos
) -> None:
    if state == "translated":
        st.translated += 1
        return
    pos = cat.pos(entry) if cat is not None and entry is not None else at
    if state == "fuzzy":
        st.fuzzy += 1
    else:
        st.missing += 1
    st.problems.append(Problem(state, pos, what))


__all__ = [
    "PO_CONFLICT",
    "PO_SYNTAX",
    "PO_WARNING",
    "CatalogError",
    "LangCatalog",
    "PluralError",
    "Translations",
    "python_codec",
]
