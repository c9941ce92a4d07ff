"""Gettext catalogs of a game: extract the template, start, merge, read, and count them.

Files: ``locales/<game>.pot`` (the template) and ``locales/<lang>/LC_MESSAGES/<game>.po``.
Each entry's msgctxt is the text's stable place in the game (``decks/roles/cards/boss/title``),
so entries follow their card when the source text changes. Catalogs are read and written with
babel; every write goes through a temporary file and a rename, and a catalog that does not parse
is never overwritten.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from babel import Locale
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import PoFileError, read_po, write_po

from .. import __version__
from ..errors import PnpError, UsageError
from ..findings import Pos, Report, Severity, rule
from ..load import Root
from ..model import Game, Text, valid_language

PO_SYNTAX = rule("po-syntax", Severity.ERROR, "a translation catalog (PO file) cannot be read")
PO_CONFLICT = rule(
    "translation-conflict",
    Severity.WARNING,
    "a text's inline YAML translation and its PO translation disagree",
)
PO_WIDTH = 100


def _now() -> datetime:
    return datetime.now(UTC).replace(second=0, microsecond=0)


class CatalogError(PnpError):
    """A catalog cannot be read or written (the message names the file and line)."""


def pot_path(root: Root, game: str) -> Path:
    return root.locales / f"{game}.pot"


def po_path(root: Root, game: str, lang: str) -> Path:
    return root.locales / lang / "LC_MESSAGES" / f"{game}.po"


def catalog_languages(root: Root, game: str) -> list[str]:
    if not root.locales.is_dir():
        return []
    return sorted(
        p.name
        for p in root.locales.iterdir()
        if p.is_dir() and (p / "LC_MESSAGES" / f"{game}.po").is_file()
    )


def _comment(text: Text, game: Game) -> list[str]:
    notes = []
    if text.note:
        notes.append(text.note)
    return notes


def template(game: Game) -> Catalog:
    """The POT: every translatable text of the game, in the source language."""
    cat = Catalog(
        project=game.id,
        version=game.meta.version,
        msgid_bugs_address="",
        creation_date=_now(),
        revision_date=_now(),
        fuzzy=False,
        header_comment=(
            f"# Translation template of the pnp content pack {game.id!r}.\n"
            "# Made by `pnp i18n extract`; start a language with `pnp i18n init`."
        ),
    )
    notes = _translator_notes(game)
    for text in game.texts:
        source = text.values.get(game.source_language)
        if not source:
            continue
        pos = text.at(game.source_language)
        msg = cat.add(
            source,
            context=text.ctx,
            locations=[(pos.path, pos.line)],
            auto_comments=notes.get(text.ctx, []),
        )
        msg.flags.discard("python-format")  # "100 % sure" is not a printf format
    return cat


def _translator_notes(game: Game) -> dict[str, list[str]]:
    """Card notes become translator comments of every text of that card."""
    out: dict[str, list[str]] = {}
    for _owner, card in game.every_card():
        if not card.note:
            continue
        for _name, text in card.texts():
            out.setdefault(text.ctx, []).append(" ".join(card.note.split()))
        if card.back is not None:
            for _name, text in card.back.texts():
                out.setdefault(text.ctx, []).append(" ".join(card.note.split()))
    return out


def _dump(catalog: Catalog) -> bytes:
    buf = io.BytesIO()
    longest = max((len(str(m.string or "")) + len(str(m.id)) for m in catalog), default=0)
    # babel's line wrapping backtracks badly on very long words: long texts stay unwrapped
    width = PO_WIDTH if longest < 2000 else 0
    write_po(buf, catalog, width=width, include_previous=True, sort_output=False)
    return buf.getvalue()


def _without_dates(data: bytes) -> bytes:
    return b"\n".join(
        line
        for line in data.splitlines()
        if not line.startswith((b'"POT-Creation-Date:', b'"PO-Revision-Date:'))
    )


def write_catalog(path: Path, catalog: Catalog) -> bool:
    """Write atomically; return False when the file already says the same (dates aside)."""
    from ..build import write_atomic

    data = _dump(catalog)
    if path.is_file() and _without_dates(path.read_bytes()) == _without_dates(data):
        return False
    write_atomic(path, data)
    return True


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_KEYWORD = re.compile(r"(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)\s+(.*)$")


def po_syntax_error(text: str) -> tuple[int, str] | None:
    """The first syntax error of a PO file as (line, problem), or None.

    babel's reader forgives unterminated strings and truncated entries; a translator's
    half-finished file must be reported instead, with the line to fix.
    """
    state = "start"  # what the previous keyword was
    have_msgid = 0
    line_no = 0
    ctx_parts: list[str] = []
    id_parts: list[str] = []
    seen: dict[tuple[str, str], int] = {}
    for line_no, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue  # comments, previous (#|) and obsolete (#~) entries are not checked
        m = _KEYWORD.match(line)
        rest = line
        if m:
            keyword, rest = m.group(1), m.group(2).strip()
            if keyword == "msgid":
                if state == "msgid":
                    return have_msgid, "this msgid has no msgstr"
                if state != "msgctxt":
                    ctx_parts = []
                state, have_msgid, id_parts = "msgid", line_no, []
            elif keyword == "msgid_plural":
                if state != "msgid":
                    return line_no, "msgid_plural must follow a msgid"
                state = "plural"
            elif keyword.startswith("msgstr"):
                if state not in ("msgid", "plural", "msgstr"):
                    return line_no, "msgstr without a msgid before it"
                if state != "msgstr":
                    key = ("".join(ctx_parts), "".join(id_parts))
                    if key in seen and key != ("", ""):
                        return (
                            have_msgid,
                            f"this entry is already in the file at line {seen[key]}: "
                            "keep one of the two",
                        )
                    seen[key] = have_msgid
                state = "msgstr"
            else:  # msgctxt
                if state in ("msgid", "plural"):
                    return have_msgid, "this msgid has no msgstr"
                state, ctx_parts = "msgctxt", []
        elif re.fullmatch(r"msgctxt|msgid|msgid_plural|msgstr(\[\d+\])?", line):
            return line_no, f"{line} without its string (is the file truncated?)"
        elif not line.startswith('"'):
            return (
                line_no,
                f"unexpected text {line[:30]!r}: a line is a keyword, a comment or a string",
            )
        elif state == "start":
            return line_no, "a string before any msgid"
        if not _STRING.fullmatch(rest):
            if (rest.startswith('"') and not rest.endswith('"')) or rest == '"':
                return line_no, "this string is not closed: add the final double quote"
            return line_no, "expected one string in double quotes here"
        if state == "msgctxt":
            ctx_parts.append(rest)
        elif state == "msgid":
            id_parts.append(rest)
    if state in ("msgid", "plural"):
        return have_msgid, "the file ends before this msgid's msgstr (truncated?)"
    if state == "msgctxt":
        return line_no, "the file ends after a msgctxt (truncated?)"
    return None


def read_catalog(path: Path, rel: str, lang: str | None = None) -> Catalog:
    """Parse a PO/POT file, or raise CatalogError naming the line."""
    if path.is_symlink():
        raise CatalogError(f"{rel}: symbolic links are not read; copy the catalog into locales/")
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise CatalogError(f"{rel}: cannot read ({exc.strerror})") from exc
    if b"\x00" in raw:
        raise CatalogError(f"{rel}: not a text file")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise CatalogError(f"{rel}:{line}: not UTF-8; save the catalog as UTF-8") from exc
    problem = po_syntax_error(text)
    if problem is not None:
        raise CatalogError(f"{rel}:{problem[0]}: {problem[1]}")
    catalog: Catalog
    try:
        catalog = read_po(io.BytesIO(raw), locale=lang, abort_invalid=True)
    except PoFileError as exc:
        line = getattr(exc, "lineno", 0)
        raise CatalogError(
            f"{rel}:{line}: {exc}; fix the PO syntax (msgfmt -c shows it too)"
        ) from exc
    except LookupError as exc:  # an unknown charset in the header
        line = next((n for n, ln in enumerate(text.splitlines(), 1) if "charset=" in ln.lower()), 0)
        raise CatalogError(
            f"{rel}:{line}: unknown charset ({exc}); save the catalog as UTF-8 and write "
            "charset=UTF-8 in its header"
        ) from exc
    except (ValueError, KeyError, IndexError, UnicodeError) as exc:
        raise CatalogError(f"{rel}: unreadable catalog ({exc}); save it as UTF-8") from exc
    _singular(catalog)
    for (ctx, mid), previous in previous_ids(text).items():
        msg = catalog.get(mid, context=ctx or None)
        if msg is not None:
            msg.previous_id = [previous]
    return catalog


def _singular(catalog: Catalog) -> None:
    """pnp's texts have no plural forms: a plural entry counts by its first forms."""
    for msg in list(catalog):
        if isinstance(msg.id, tuple | list):
            msg.id = str(msg.id[0])
            strings = msg.string if isinstance(msg.string, tuple | list) else (msg.string,)
            msg.string = str(strings[0] or "") if strings else ""


def previous_ids(text: str) -> dict[tuple[str, str], str]:
    """(msgctxt, msgid) -> the previous msgid kept in ``#| msgid`` comments.

    babel's reader drops these comments; pnp keeps them so that a translator always sees what
    the source said when their translation was made.
    """
    from babel.messages.pofile import unescape

    out: dict[tuple[str, str], str] = {}
    previous: list[str] = []
    in_previous = False
    current: dict[str, list[str]] = {}
    key: str | None = None
    lines = text.splitlines()
    lines.append("")
    for raw in lines:
        line = raw.strip()
        if line.startswith("#| msgid "):
            previous, in_previous = [line[len("#| msgid ") :]], True
            continue
        if line.startswith('#| "') and in_previous:
            previous.append(line[3:])
            continue
        if line.startswith("#|"):
            in_previous = False
            continue
        m = _KEYWORD.match(line)
        if m and m.group(1) in ("msgctxt", "msgid"):
            key = m.group(1)
            current.setdefault(key, []).append(m.group(2))
            continue
        if line.startswith('"') and key in ("msgctxt", "msgid"):
            current[key].append(line)
            continue
        if (m and m.group(1).startswith("msgstr")) or not line:
            if previous and "msgid" in current:
                ctx = "".join(unescape(p) for p in current.get("msgctxt", []))
                mid = "".join(unescape(p) for p in current["msgid"])
                out[(ctx, mid)] = "".join(unescape(p) for p in previous)
            if not line or m:
                previous, in_previous, current, key = [], False, {}, None
    return out


# --- commands ------------------------------------------------------------------------------------


def extract(root: Root, game: Game) -> tuple[Path, bool]:
    path = pot_path(root, game.id)
    return path, write_catalog(path, template(game))


def init(root: Root, game: Game, lang: str, *, force: bool = False) -> Path:
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
    tmpl = template(game)
    cat = Catalog(
        locale=Locale.parse(lang),
        project=game.id,
        version=game.meta.version,
        msgid_bugs_address="",
        creation_date=_now(),
        revision_date=_now(),
        last_translator="",
        language_team=f"{Locale.parse(lang).english_name} <>",
        fuzzy=False,
        header_comment=(
            f"# {Locale.parse(lang).english_name} translation of the pnp content pack "
            f"{game.id!r}.\n# Translators: add your name here; keep every {{placeholder}} "
            "and **bold** / _italic_ mark."
        ),
    )
    inline = {t.ctx: t.values.get(lang) for t in game.texts}
    for msg in tmpl:
        if not msg.id:
            continue
        cat.add(
            msg.id,
            string=inline.get(str(msg.context)) or "",
            context=msg.context,
            locations=msg.locations,
            auto_comments=msg.auto_comments,
        )
    write_catalog(path, cat)
    return path


@dataclass
class UpdateResult:
    path: Path
    added: int = 0
    changed: int = 0  # source changed: now fuzzy, previous source kept
    obsolete: int = 0
    dropped_empty: int = 0  # removed texts nobody had translated: nothing to keep
    written: bool = False


def update(root: Root, game: Game) -> list[UpdateResult]:
    """Merge the current template into every catalog of the game; nothing is ever dropped."""
    tmpl = template(game)
    extract(root, game)
    results = []
    for lang in catalog_languages(root, game.id):
        path = po_path(root, game.id, lang)
        cat = read_catalog(path, root.rel(path), lang)  # raises: a broken file is left alone
        result = UpdateResult(path)
        by_ctx: dict[str, Message] = {}
        foreign: list[Message] = []  # entries pnp did not write (no msgctxt): kept as they are
        for msg in cat:
            if not msg.id:
                continue
            if msg.context:
                by_ctx[str(msg.context)] = msg
            else:
                foreign.append(msg)
        merged = Catalog(
            locale=cat.locale,
            project=cat.project,
            version=game.meta.version,
            msgid_bugs_address="",
            creation_date=cat.creation_date,
            revision_date=cat.revision_date,
            last_translator=cat.last_translator,
            language_team=cat.language_team,
            fuzzy=False,
        )
        merged.header_comment = cat.header_comment
        seen: set[str] = set()
        for tmsg in tmpl:
            if not tmsg.id:
                continue
            ctx = str(tmsg.context or "")
            seen.add(ctx)
            old = by_ctx.get(ctx)
            if old is None:
                merged.add(
                    tmsg.id,
                    "",
                    context=ctx,
                    locations=tmsg.locations,
                    auto_comments=tmsg.auto_comments,
                )
                result.added += 1
                continue
            flags = set(old.flags)
            previous = list(old.previous_id) if old.previous_id else []
            if old.id != tmsg.id:
                if old.string:
                    flags.add("fuzzy")
                    previous = [str(old.id)]
                result.changed += 1
            new = merged.add(
                tmsg.id,
                old.string,
                context=ctx,
                locations=tmsg.locations,
                flags=flags,
                auto_comments=tmsg.auto_comments,
                user_comments=old.user_comments,
                previous_id=previous or (),
            )
            del new  # fuzzy follows the flags
        for ctx, old in by_ctx.items():
            if ctx not in seen and (old.string or old.user_comments):  # keep what people wrote
                old.locations = []
                key: str | tuple[str, str] = (
                    (str(old.id), str(old.context)) if old.context else str(old.id)
                )
                merged.obsolete[key] = old
                result.obsolete += 1
            elif ctx not in seen:
                result.dropped_empty += 1
        for i, old in enumerate(foreign):
            if old.string or old.user_comments:
                old.locations = []
                merged.obsolete[(str(old.id), f"\x00foreign{i}")] = old  # unique: none lost
                result.obsolete += 1
        for key, old in cat.obsolete.items():  # earlier obsolete entries stay
            merged.obsolete.setdefault(key, old)
        result.written = write_catalog(path, merged)
        results.append(result)
    return results


# --- reading translations for builds and checks --------------------------------------------------


class Translations(dict[str, dict[str, str]]):
    """lang -> msgctxt -> translated text, plus where each entry is (PO file:line)."""

    def __init__(self) -> None:
        super().__init__()
        self.positions: dict[str, dict[str, Pos]] = {}


def read_translations(root: Root, game: Game, report: Report) -> Translations:
    """lang -> msgctxt -> translated, non-fuzzy text, for every catalog of the game."""
    out = Translations()
    by_ctx = {t.ctx: t for t in game.texts}
    for lang in catalog_languages(root, game.id):
        path = po_path(root, game.id, lang)
        rel = root.rel(path)
        try:
            cat = read_catalog(path, rel, lang)
        except CatalogError as exc:
            message = str(exc)
            line = 0
            head = message.split(":", 2)
            if len(head) > 1 and head[1].isdigit():
                line = int(head[1])
                message = head[2].strip()
            report.add(PO_SYNTAX, Pos(rel, line, 1 if line else 0), message, game=game.id)
            continue
        entries: dict[str, str] = {}
        positions: dict[str, Pos] = {}
        for msg in cat:
            if not msg.id or msg.fuzzy or not msg.string or not msg.context:
                continue
            ctx = str(msg.context)
            entries[ctx] = str(msg.string)
            positions[ctx] = Pos(rel, msg.lineno or 0, 1 if msg.lineno else 0)
            text = by_ctx.get(ctx)
            if text is not None and lang in text.values and text.values[lang] != msg.string:
                line = msg.lineno or 0
                report.add(
                    PO_CONFLICT,
                    text.at(lang),
                    f"the {lang} text of {ctx} differs from {rel}:{line}; the YAML text wins "
                    "in builds: keep one of them",
                    game=game.id,
                )
        out[lang] = entries
        out.positions[lang] = positions
    return out


@dataclass
class LangStatus:
    lang: str
    total: int = 0
    translated: int = 0
    fuzzy: int = 0
    missing: int = 0
    overflow: int = 0
    glyphs: int = 0
    source: bool = False
    catalog: bool = False
    problems: list[str] = field(default_factory=list)

    @property
    def percent(self) -> float:
        return 100.0 * self.translated / self.total if self.total else 100.0


def status(root: Root, game: Game, report: Report) -> list[LangStatus]:
    """Per language: how many texts are translated (inline or PO), fuzzy, missing."""
    langs = list(dict.fromkeys([*game.languages, *catalog_languages(root, game.id)]))
    texts = [t for t in game.texts if t.values.get(game.source_language)]
    rows = []
    for lang in langs:
        st = LangStatus(lang, total=len(texts), source=lang == game.source_language)
        fuzzy: set[str] = set()
        translated: dict[str, str] = {}
        path = po_path(root, game.id, lang)
        if path.is_file():
            st.catalog = True
            try:
                cat = read_catalog(path, root.rel(path), lang)
                for msg in cat:
                    if msg.id and msg.context:
                        if msg.fuzzy and msg.string:
                            fuzzy.add(str(msg.context))
                        elif msg.string:
                            translated[str(msg.context)] = str(msg.string)
            except CatalogError as exc:
                st.problems.append(str(exc))
        for text in texts:
            if lang in text.values or text.ctx in translated:
                st.translated += 1
            elif text.ctx in fuzzy:
                st.fuzzy += 1
            else:
                st.missing += 1
        rows.append(st)
    return rows


__all__ = ["__version__"]
