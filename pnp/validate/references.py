"""References in texts: every ``{decks.events.total}`` names a number of the game's data, in
every language (inline and in the PO catalogs); a text printed outside a face (a box line, a
scenario, the setup sheet, a table) names only icons, references and its own values."""

from __future__ import annotations

from ..content.model import Game, Text
from ..content.refs import RefError, lookup, paths
from ..content.schema import suggest
from ..core.rules import REFERENCE
from ..typeset.text import tokens
from .context import CheckContext, check
from .structure import face_texts
from .texts import checked_languages, text_in, text_pos


def _values(text: Text, lang: str, game: Game, ctx: CheckContext) -> list[str]:
    """Every form of ``text`` in ``lang`` (its plural forms too)."""
    value = text_in(game, text, lang, ctx)
    forms = list(text.forms.get(lang, {}).values())
    return [v for v in [value, *forms] if v]


@check
def text_references(game: Game, ctx: CheckContext) -> None:
    """Each reference of each text resolves to a number, reported once per text and
    reference, at the language that writes it (the source first)."""
    messages = {id(inv.message) for inv in game.invariants if inv.message is not None}
    on_faces = {id(t) for t in face_texts(game)}
    # a layout's own words (texts:) are printed by its templates, which fill their {names}
    on_faces |= {id(t) for layout in game.layouts.values() for t in layout.texts.values()}
    langs = checked_languages(game, ctx)
    langs.sort(key=lambda lang: lang != game.source_language)
    for text in game.texts:
        if id(text) in messages:
            continue  # an invariant's message names the fields of its items
        done: set[str] = set()
        for lang in langs:
            for value in _values(text, lang, game, ctx):
                for path in paths(value):
                    if path not in done:
                        done.add(path)
                        _one(game, text, lang, path, ctx)
                if id(text) not in on_faces:
                    _names(game, text, lang, value, done, ctx)
        if text.count and "." in text.count and text.count not in done:
            _one(game, text, "", text.count, ctx)


def _one(game: Game, text: Text, lang: str, path: str, ctx: CheckContext) -> None:
    try:
        lookup(game, path)
    except RefError as exc:
        pos = text_pos(game, text, lang, ctx) if lang else text.pos
        ctx.add(
            REFERENCE,
            pos,
            f"{text.ctx}: the reference {{{path}}} {exc}; fix it, or write the number",
        )


def _names(
    game: Game, text: Text, lang: str, value: str, done: set[str], ctx: CheckContext
) -> None:
    """A ``{name}`` without dots in a text no face prints: an icon, or a value the text names
    for itself (a box line's ``{count}``)."""
    own = tuple(text.scope)  # a box line's {count}, and {per_player} when it gives one
    for name in tokens(value):
        if "." in name or name in game.icons or name in own or name in done:
            continue
        done.add(name)
        known = sorted(game.icons) + list(own)
        hint = suggest(name, known)
        ctx.add(
            REFERENCE,
            text_pos(game, text, lang, ctx),
            f"{text.ctx}: {{{name}}} is neither an icon (icons:) nor a reference to the game's "
            f"data (written with dots: {{decks.ID.total}}, {{tracks.ID.max}}); {hint}"
            f"known icons: {', '.join(sorted(game.icons)) or 'none'}"
            + (f"; this text's own values: {', '.join('{' + n + '}' for n in own)}" if own else ""),
        )
