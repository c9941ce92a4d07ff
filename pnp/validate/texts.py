"""Texts in every language: present, placeholders marked, markup kept, fitting, printable."""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterator
from typing import Any

from ..content.model import Card, Element, Face, Game, Style, Text
from ..content.model.elements import FAMILY_RE
from ..content.queries import item_size
from ..core.errors import BuildError
from ..core.findings import Pos
from ..core.perf import available_cpus, fork_parts_later
from ..core.rules import (
    FONT,
    GLYPH,
    MARKUP_KEPT,
    MISSING_TEXT,
    PLACEHOLDER,
    SCHEMA,
    TOKENS_KEPT,
)
from ..i18n import Translator
from ..i18n.catalog import LangCatalog
from ..typeset.faces import FaceEngine, LayoutCycle
from ..typeset.fonts import FontSet, family, fontset
from ..typeset.markup import span_problems
from ..typeset.text import markup_signature, tokens
from .context import CheckContext, check, check_first

# fitting a card takes about 0.1 ms per language; below this many, starting a process costs more
FACES_PER_PROCESS = 2000


def text_in(game: Game, text: Text, lang: str, ctx: CheckContext) -> str | None:
    """The ``lang`` text of ``text``: inline, else the confirmed PO translation, else None."""
    if lang in text.values:
        return text.values[lang]
    cat = ctx.catalogs.get(lang)
    return cat.translation(text, game.source_language) if cat is not None else None


def text_pos(game: Game, text: Text, lang: str, ctx: CheckContext) -> Pos:
    """Where the ``lang`` text of ``text`` is written: the YAML, else the PO msgstr line."""
    if lang in text.values:
        return text.at(lang)
    cat = ctx.catalogs.get(lang)
    entry = cat.text_state(text, game.source_language)[1] if cat is not None else None
    return cat.pos(entry) if cat is not None and entry is not None else text.pos


def translations(
    game: Game, ctx: CheckContext
) -> Iterator[tuple[Text, str, list[tuple[str, str]]]]:
    """Each text with a source value, that value, and its translations (inline or from a
    catalog) that differ from it, by checked language."""
    src_lang = game.source_language
    langs = [lang for lang in checked_languages(game, ctx) if lang != src_lang]
    for text in game.texts:
        source = text.values.get(src_lang)
        if source is None:
            continue
        found = [(lang, text_in(game, text, lang, ctx)) for lang in langs]
        yield text, source, [(lang, v) for lang, v in found if v is not None and v != source]


@check
def missing_texts(game: Game, ctx: CheckContext) -> None:
    """Texts without a version in some of the game's languages. Not reported: texts without
    words (the same in every language), and invariant messages (validate prints them; no
    sheet does, and translation templates leave them out)."""
    messages = {id(inv.message) for inv in game.invariants if inv.message is not None}
    for text in game.texts:
        missing = [lang for lang in game.languages if text_in(game, text, lang, ctx) is None]
        if not missing or len(missing) == len(game.languages) or id(text) in messages:
            continue
        if text.has_words():  # "{coin} {coin}" reads the same in every language
            have = ", ".join(sorted(text.values))
            ctx.add(
                MISSING_TEXT,
                text.pos,
                f"{text.ctx}: no {', '.join(missing)} text (has {have}); the build falls back to "
                f"{game.source_language}: add it here or in the PO catalog",
                needs=tuple(f"{text.ctx}/{lang}" for lang in missing),
            )


@check
def placeholders(game: Game, ctx: CheckContext) -> None:
    for board in game.boards.values():
        if board.placeholder:
            note = f": {board.note.strip()}" if board.note.strip() else ""
            ctx.add(
                PLACEHOLDER,
                board.at("placeholder"),
                f"board {board.id} is a placeholder (its content is not published){note}",
            )
    for owner, card in game.every_card():
        if card.placeholder:
            note = f": {card.note.strip()}" if card.note.strip() else ""
            ctx.add(
                PLACEHOLDER,
                card.at("placeholder"),
                f"{owner.id}/{card.id} is a placeholder (its text is not published){note}",
            )


@check
def spans(game: Game, ctx: CheckContext) -> None:
    """The spans of every text (``[text]{color=red size=150%}``) have attributes pnp draws."""
    for text in game.texts:
        for lang in checked_languages(game, ctx):
            value = text_in(game, text, lang, ctx)
            for problem in span_problems(value) if value and "]{" in value else ():
                ctx.add(
                    SCHEMA,
                    text_pos(game, text, lang, ctx),
                    f"the {lang} text of {text.ctx} has a span [...]{{...}} whose {problem}",
                    lang=lang,
                )


@check
def translation_tokens(game: Game, ctx: CheckContext) -> None:
    src_lang = game.source_language
    for text, source, translated in translations(game, ctx):
        want: Counter[str] | None = None
        want_markup: tuple[int, int, int] | None = None
        for lang, value in translated:
            # the common case, quickly: neither text has a token or a mark
            has_tokens = "{" in source or "{" in value
            has_marks = any(m in t for m in ("*", "_", "]{") for t in (source, value))
            breaks = source.count("\n\n")
            if value.count("\n\n") != breaks:
                ctx.add(
                    MARKUP_KEPT,
                    text_pos(game, text, lang, ctx),
                    f"the {lang} text of {text.ctx} has {value.count(chr(10) * 2)} paragraph "
                    f"break(s), the {src_lang} text {breaks}: keep the blank lines between "
                    "paragraphs (\\n\\n in a PO file)",
                    lang=lang,
                )
            if not has_tokens and not has_marks:
                continue
            if want is None:
                want = Counter(tokens(source))
                want_markup = markup_signature(source)
            got = Counter(tokens(value)) if has_tokens else want
            pos = text_pos(game, text, lang, ctx)
            if got != want:
                lost = sorted((want - got).elements())
                extra = sorted((got - want).elements())
                parts = []
                if lost:
                    parts.append("drops " + ", ".join(f"{{{t}}}" for t in lost))
                if extra:
                    parts.append("adds " + ", ".join(f"{{{t}}}" for t in extra))
                ctx.add(
                    TOKENS_KEPT,
                    pos,
                    f"the {lang} text of {text.ctx} {' and '.join(parts)}; keep every "
                    f"{{placeholder}} of the {src_lang} text",
                    lang=lang,
                )
            if markup_signature(value) != want_markup:
                ctx.add(
                    MARKUP_KEPT,
                    pos,
                    f"the {lang} text of {text.ctx} has different **bold** / _italic_ marks or "
                    f"[spans]{{color=...}} than the {src_lang} text; keep the same emphasis",
                    lang=lang,
                )


def fit_language(
    game: Game,
    game_dir: Any,
    fonts: Any,
    lang: str,
    catalog: LangCatalog | None,
    part: int = 0,
    parts: int = 1,
) -> list[Any]:
    """Lay out every face of the game in one language; the text issues found.

    With ``parts`` > 1, only the cards of part ``part`` (:func:`part_of`; shared backs in every
    part: the report merges the same finding found twice; boards in part 0)."""
    owners = part_of(parts)
    tr = Translator(game, lang, catalog)
    engine = FaceEngine(game, game_dir, lang, tr, fonts, quick=True, cache=False)
    index = 0
    for owner in game.owners():
        size = item_size(game, owner)
        w, h = size.w, size.h
        faces: list[tuple[Face, Card | None, str]] = []
        if owner.back is not None:
            faces.append((owner.back, owner.cards[0] if owner.cards else None, "back"))
        for card in owner.cards:
            index += 1
            if owners[index % len(owners)] != part:
                continue
            faces.append((card, card, "front"))
            if card.back is not None:
                faces.append((card.back, card, "back"))
        for face, owner_card, side in faces:
            if owner_card is None:
                continue
            try:
                engine.ops(face, owner, owner_card, side, w, h, 0.0)
            except (KeyError, LayoutCycle):
                continue  # unknown layout or cycle: reported by the structure checks
    for board in game.boards.values() if part == 0 else ():
        sides = [(board, "front")] + ([(board.back, "back")] if board.back else [])
        for bface, side in sides:
            try:
                engine.ops(bface, board, board, side, board.size.w, board.size.h, 0.0)
            except (KeyError, LayoutCycle):
                continue
    return engine.issues


# Part 0 is fitted by the process that also runs the other checks meanwhile: it takes a
# smaller share of the cards (measured on 10,000 cards: the other checks cost about a sixth of
# the fitting), so that every process ends at about the same time.
FIRST_PART_WEIGHT = 0.75


@functools.lru_cache(maxsize=64)
def part_of(parts: int) -> tuple[int, ...]:
    """Which part fits a card: ``part_of(parts)[index % 100]``; part 0 has fewer cards."""
    if parts <= 1:
        return (0,)
    total = FIRST_PART_WEIGHT + parts - 1
    first = round(100 * FIRST_PART_WEIGHT / total)
    rest = [1 + (k * (parts - 1)) // (100 - first) for k in range(100 - first)]
    return tuple([0] * first + rest)


def checked_languages(game: Game, ctx: CheckContext) -> list[str]:
    """The game's languages and every language a catalog adds."""
    return list(dict.fromkeys([*game.languages, *ctx.catalogs]))


@check_first
def fitting(game: Game, ctx: CheckContext) -> None:
    """Lay out every face in every language: overflow, missing glyphs, unknown tokens. (First:
    with a large game, the other processes fit texts while this one runs the other checks.)"""
    fonts = game_fonts(game, ctx)  # also when deferred: loaded once, before any fork
    if fonts is None or (ctx.fit_languages is not None and not ctx.fit_languages):
        return  # deferred: a build fits each language's texts while rendering it
    fit_languages(game, ctx, ctx.fit_languages or checked_languages(game, ctx), fonts)


def game_fonts(game: Game, ctx: CheckContext) -> FontSet | None:
    """The game's fonts, registered with reportlab; None (and a finding) when they fail."""
    try:
        return fontset(ctx.root / "fonts", game.print.font, game.print.fallback_fonts)
    except BuildError as exc:
        settings = game.print
        pos = settings.at("font") if settings.given("font") else game.meta.at("print")
        if settings.given("fallback_fonts") and "fallback" in str(exc):
            pos = settings.at("fallback_fonts")
        ctx.add(FONT, pos, f"{exc}")
        return None


@check
def font_families(game: Game, ctx: CheckContext) -> None:
    """Every font family a layout element or style names (``font_family:``) is one pnp can
    load: in the content root's fonts/, or one of pnp's own."""
    tried: dict[str, str | None] = {}
    for layout in game.layouts.values():
        named: list[Element | Style] = [*layout.elements, *layout.styles.values()]
        for owner in named:
            name = owner.font_family
            if name is None or not FAMILY_RE.fullmatch(name):
                continue  # none, or not a name: the schema says so
            if name not in tried:
                try:
                    family(ctx.root / "fonts", name)
                    tried[name] = None
                except BuildError as exc:
                    tried[name] = f"{exc}; copy its files into fonts/, or name another family"
            problem = tried[name]
            if problem is not None:
                ctx.add(FONT, owner.at("font_family"), problem)


def fit_languages(game: Game, ctx: CheckContext, langs: list[str], fonts: FontSet) -> None:
    cards = sum(len(owner.cards) for owner in game.owners()) + len(game.boards)
    parts = max(1, min(ctx.jobs or available_cpus(), cards * len(langs) // FACES_PER_PROCESS))

    def task(part: int) -> list[list[Any]]:
        return [
            fit_language(
                game,
                ctx.game_dir,
                fonts,
                lang,
                ctx.catalogs.get(lang),
                part,
                parts,
            )
            for lang in langs
        ]

    gather = fork_parts_later(task, parts)

    def report() -> None:
        for per_lang in gather():
            for issue in (i for issues in per_lang for i in issues):
                if issue.structural:  # the structure check reports those, with suggestions
                    continue
                uncovered = ctx.uncovered.get(issue.lang, set())
                if issue.rule == GLYPH and issue.chars and set(issue.chars) <= uncovered:
                    continue  # the script check said it once for the language
                issue.report_to(ctx.report, ctx.game_id)

    ctx.later.append(report)
