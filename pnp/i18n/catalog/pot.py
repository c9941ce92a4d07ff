"""The template (POT) of a game: the texts its sheets print and pnp's own words for them, each
with its notes for translators and format flags; and the headers of new templates and catalogs.

Each entry's msgctxt is the text's stable place in the game (``decks/roles/cards/boss/title``),
so entries follow their card when the source text changes; pnp's sheet words join under the
context ``pnp``.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

from ... import __version__
from ...content.model import Game, Text
from ..plural import plural_forms_for
from ..po import Catalog, Entry, Flags
from ..words import CONTEXT, SHEET_WORDS, Word


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%d %H:%M+0000")


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
            "Start a language with `pnp i18n init`; see `pnp docs translating`.",
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
        "and **bold** / _italic_ mark. See `pnp docs translating`.",
    ]
    return _header(fields, comments)


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


def source_forms(text: Text, lang: str) -> tuple[str, str | None]:
    """(msgid, msgid_plural) of a text in the source language."""
    forms = text.forms.get(lang)
    if forms is None:
        return text.values.get(lang, ""), None
    return forms.get("one", forms["other"]), forms["other"]


def game_words(game: Game) -> list[Word]:
    """pnp's sheet words a game's sheets can print (by the features the game has)."""
    features = {"sheets", "proof", "setup", "release"}
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
        source, source_plural = source_forms(text, src)
        if not source or (printed is not None and text.ctx not in printed):
            continue
        if not text.has_words():  # "{coin} {coin}" is the same in every language
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
