"""Structure: ids, references between things, layouts, and the files a game points to."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from ..content.assets import AssetError, probe_image, resolve
from ..content.model import Element, Face, Game, Layout, Text
from ..content.schema import Located, suggest
from ..core.findings import Pos
from ..core.rules import (
    BAD_IMAGE,
    IGNORED_STYLE,
    LAYOUT_CYCLE,
    MISSING_FILE,
    REFERENCE,
    SCHEMA,
    UNPRINTED_TEXT,
    Severity,
)
from ..core.rules import DUPLICATE_ID as DUPLICATE
from ..typeset.faces import (
    MAX_EXTENDS,
    NONE,
    PALETTE,
    LayoutCycle,
    colour_names,
    face_layout_id,
    is_template,
    kind_of,
    layout_table,
    parent_of,
    read_colour,
    resolve_layout,
)
from ..typeset.text import tokens
from .context import CheckContext, check, needs_thing


def _unknown(
    ctx: CheckContext,
    pos: Pos,
    kind: str,
    name: str,
    known: list[str],
    needs: tuple[str, ...] | None = None,
) -> None:
    hint = suggest(name, known)
    listing = ", ".join(sorted(known)[:12]) + (" ..." if len(known) > 12 else "")
    needs = needs_thing(kind, name) if needs is None else needs
    ctx.add(  # the same unknown name written again: folded under the first
        REFERENCE,
        pos,
        f"unknown {kind} {name!r}; {hint}known {kind}s: {listing or 'none'}",
        subject=needs,
        needs=needs,
    )


@check
def unique_ids(game: Game, ctx: CheckContext) -> None:
    """Card and token ids are unique across the whole game (scenarios name them)."""
    seen: dict[str, Pos] = {}
    for owner, card in game.every_card():
        if not card.id:
            ctx.add(
                REFERENCE,
                card.pos,
                "this card has no id; add id: (letters, digits, -)",
                needs=(f"{card.path}/id",),
            )
            continue
        if card.id in seen:
            ctx.add(
                DUPLICATE,
                card.at("id"),
                f"card id {card.id!r} is already used at {seen[card.id]}; ids are unique across "
                f"every deck and token set (this one is in {owner.id!r})",
            )
        else:
            seen[card.id] = card.at("id")
    for table in game.tables.values():
        cols: set[str] = set()
        for col in table.columns:
            if col.id in cols:
                ctx.add(DUPLICATE, col.at("id"), f"column {col.id!r} appears twice in this table")
            cols.add(col.id)


def faces(game: Game) -> list[tuple[Face, str, Any]]:
    """Every face with what draws it: (face, side, owner)."""
    out: list[tuple[Face, str, Any]] = []
    for owner in game.owners():
        if owner.back is not None:
            out.append((owner.back, "back", owner))
        for card in owner.cards:
            out.append((card, "front", owner))
            if card.back is not None:
                out.append((card.back, "back", owner))
    for board in game.boards.values():
        out.append((board, "front", board))
        if board.back is not None:
            out.append((board.back, "back", board))
    return out


def face_texts(game: Game) -> list[Text]:
    """Every text a face sets (its title, text, fields...): the texts whose ``{name}`` may
    be a value of the face."""
    return [text for face, _side, _owner in faces(game) for _name, text in face.texts()]


@check
def layouts(game: Game, ctx: CheckContext) -> None:
    table = layout_table(game)
    known = sorted(table)
    for lid, layout in game.layouts.items():
        _element_references(game, layout, ctx)
        _layout_parent(table, known, lid, layout, ctx)
    _face_layouts(game, table, known, ctx)
    _face_styles(game, table, ctx)


@check
def unprinted_texts(game: Game, ctx: CheckContext) -> None:
    """A text a face sets that its layout prints nowhere (no field:, no template names it)."""
    table = layout_table(game)
    printed: dict[str, set[str] | None] = {}
    for face, side, owner in faces(game):
        lid = face_layout_id(face, owner, side)
        if lid not in printed:
            printed[lid] = printed_fields(table, lid)
        names = printed[lid]
        if names is None:
            continue  # an unknown or circular layout: reported by the layout checks
        for name, text in face.texts():
            if name not in names and name != "title":  # a title also names it (exports, proofs)
                ctx.add(
                    UNPRINTED_TEXT,
                    text.pos if text.pos.line else face.pos,
                    f"{name}: is set here, but layout {lid!r} prints no {name!r} (no element "
                    f"has field: {name} or names it in a template): it appears on no sheet; "
                    "add an element that prints it, or remove it",
                )


def printed_fields(table: dict[str, Layout], lid: str, conditions: bool = False) -> set[str] | None:
    """The text fields and values a layout's elements print (``field:``, names in templates),
    with ``conditions`` the names their ``when:`` tests too; None when the layout cannot be
    resolved (reported by the layout checks)."""
    try:
        elements = resolve_layout(table, lid).elements
    except (LayoutCycle, KeyError):
        return None
    names: set[str] = set()
    for el in elements:
        names |= kind_of(el).printed_names(el)
        if conditions and el.when:
            names.add(el.when)
    return names


@check
def element_colours(game: Game, ctx: CheckContext) -> None:
    """Every colour written in a layout element is one the renderer reads (pnp.typeset.faces
    read_colour): "#rrggbb", "#rgb", a colour name, a style's palette name, or none for fill
    and stroke. Anything else would stop the build, so it is a schema error here, at the value.
    A template is rendered for each card by the face engine, which checks what it gives."""
    for layout in game.layouts.values():
        for el in layout.elements:
            for name in ("color", "fill", "stroke"):
                value = getattr(el, name)
                if value is None or value in PALETTE or is_template(value):
                    continue
                colour = read_colour(value)
                if colour is not None and (colour != NONE or name != "color"):
                    continue
                ctx.add(SCHEMA, el.at(name), _not_a_colour(name, value))
            _painted(el, ctx)


def _painted(el: Element, ctx: CheckContext) -> None:
    """A gradient's colours and a shadow's colour: colours (or the style's), not none."""
    given: list[tuple[Located, str, str, str]] = []
    if el.gradient is not None:
        given += [(el.gradient, "colors", v, "a gradient's colour") for v in el.gradient.colors]
    if el.shadow is not None:
        given.append((el.shadow, "color", el.shadow.color, "a shadow's colour"))
    for owner, key, value, what in given:
        colour = read_colour(value) if value not in PALETTE else "#000000"
        if colour is None or colour == NONE:
            hint = suggest(value, [*PALETTE, *sorted(colour_names())])
            ctx.add(
                SCHEMA,
                owner.at(key),
                f'{what} {value!r} is not a colour; write "#rrggbb", a colour name such as '
                f"blue, or one of the style's colours ({', '.join(PALETTE)}); {hint}".rstrip("; "),
            )


def _not_a_colour(name: str, value: str) -> str:
    if name == "color" and read_colour(value) == NONE:
        return "color: none would print the text in no colour; give it a colour"
    extra = ["none"] if name != "color" else []
    hint = suggest(value, [*PALETTE, *extra, *sorted(colour_names())])
    return (
        f'{name}: {value!r} is not a colour; write "#rrggbb", a colour name such as blue'
        f"{', none' if extra else ''}, one of the style's colours ({', '.join(PALETTE)}) or a "
        f"template; {hint}".rstrip("; ")
    )


@check
def track_boards(game: Game, ctx: CheckContext) -> None:
    """The board a track says it is printed on, and the tokens that mark it, exist."""
    tokens = [*game.tokens, *(t.id for _s, t in game.all_tokens())]
    for track in game.tracks.values():
        if track.board is not None and track.board not in game.boards:
            _unknown(ctx, track.at("board"), "board", track.board, sorted(game.boards))
        markers = [track.markers] if isinstance(track.markers, str) else track.markers or []
        for name in markers:
            if name not in tokens:
                _unknown(ctx, track.at("markers"), "token set or token", name, tokens)


def _element_references(game: Game, layout: Layout, ctx: CheckContext) -> None:
    """The tracks and tables a layout's elements draw exist."""
    for el in layout.elements:
        kind = kind_of(el)
        ident = kind.reference(el)
        if ident is None or kind.key is None or kind.refers_to is None:
            continue
        known: dict[str, object] = getattr(game, kind.refers_to)
        if ident not in known:
            needs = (f"{kind.refers_to}/{ident}",)
            _unknown(ctx, el.at(kind.key), kind.key, ident, sorted(known), needs)


def _layout_parent(
    table: dict[str, Layout], known: list[str], lid: str, layout: Layout, ctx: CheckContext
) -> None:
    """The layout a layout extends exists, and the chain of parents is short and ends."""
    if layout.extends is not None and layout.extends not in table:
        _unknown(ctx, layout.at("extends"), "layout", layout.extends, known)
        return
    try:
        resolved = resolve_layout(table, lid)
    except LayoutCycle as cyc:
        if cyc.too_long:
            ctx.add(
                LAYOUT_CYCLE,
                layout.at("extends"),
                f"layout {lid!r} extends a chain of more than {MAX_EXTENDS} layouts; flatten it",
            )
        else:
            ctx.add(
                LAYOUT_CYCLE,
                layout.at("extends"),
                f"layout {lid!r} extends itself through {' -> '.join(cyc.chain)}; "
                "remove one extends:",
            )
    except KeyError:
        return  # the missing parent is reported above
    else:
        _unmatched_drops(table, layout, resolved.unmatched, ctx)


def _unmatched_drops(
    table: dict[str, Layout], layout: Layout, unmatched: list[Element], ctx: CheckContext
) -> None:
    """A ``drop: true`` of this layout that names no element of its parents."""
    mine = [el for el in unmatched if any(el is own for own in layout.elements)]
    if not mine:
        return
    names = _parent_names(table, layout)
    for el in mine:
        where = f"layout {layout.extends!r}" if layout.extends else "this layout (it extends none)"
        ctx.add(
            REFERENCE,
            el.at("name"),
            f"drop: true removes the parent's element named {el.name!r}, but {where} has no "
            f"element of that name; {suggest(el.name or '', names)}its named elements: "
            f"{', '.join(names) or 'none'}",
        )


def _parent_names(table: dict[str, Layout], layout: Layout) -> list[str]:
    """The names of the elements a layout inherits."""
    parent = parent_of(table, layout.id, layout) if layout.extends else None
    if parent is None:
        return []
    if layout.extends == layout.id:  # the built-in layout this one replaces (no parent)
        elements = parent.elements
    else:
        elements = resolve_layout(table, parent.id).elements
    return [e.name for e in elements if e.name]


def _face_layouts(
    game: Game, table: dict[str, Layout], known: list[str], ctx: CheckContext
) -> None:
    """The layouts that decks, token sets and faces ask for exist."""
    for owner in game.owners():
        if owner.layout is not None and owner.layout not in table:
            _unknown(ctx, owner.at("layout"), "layout", owner.layout, known)
    for face, _side, _owner in faces(game):
        if face.layout is not None and face.layout not in table:
            _unknown(ctx, face.at("layout"), "layout", face.layout, known)


def _face_styles(game: Game, table: dict[str, Layout], ctx: CheckContext) -> None:
    """The style a face asks for is one of its layout's styles."""
    for face, side, owner in faces(game):
        if face.style is None:
            continue
        lid = face_layout_id(face, owner, side)
        if lid not in table:
            continue
        try:
            styles = resolve_layout(table, lid).styles
        except (LayoutCycle, KeyError):
            continue
        if face.style in styles or read_colour(face.style) not in (None, NONE):
            continue  # one of the layout's styles, or a colour: the default style in it
        if styles:
            ctx.add(
                REFERENCE,
                face.at("style"),
                needs=(f"layouts/{lid}/styles/{face.style}",),
                message=f"layout {lid!r} has no style {face.style!r}; "
                f"{suggest(face.style, [*styles, *sorted(colour_names())])}its styles: "
                f"{', '.join(sorted(styles))}; "
                'or give a colour ("#rrggbb" or a name) for the default style in that accent',
            )


def _uses_accent(value: Any, depth: int = 0) -> bool:
    """Whether an element (or a part of one: a gradient, a shadow) may draw in its style's
    accent: a colour written ``accent``, or a template that may give it."""
    if isinstance(value, str):
        return value == "accent" or is_template(value)
    if isinstance(value, list):
        return any(_uses_accent(v, depth + 1) for v in value)
    if isinstance(value, Located) and depth < 3:
        return any(
            _uses_accent(getattr(value, f.name), depth + 1)
            for f in dataclasses.fields(value)
            if not f.metadata.get("internal")
        )
    return False


@check
def ignored_styles(game: Game, ctx: CheckContext) -> None:
    """A face's style that gives an accent colour (a colour as ``style:``, or a style of the
    layout with ``accent:``) while no element of its layout draws in the accent: the colour
    would silently have no effect (a token's ``style: "#c00"`` with the built-in token
    layout). Once per layout and style."""
    table = layout_table(game)
    seen: set[tuple[str, str]] = set()
    accent: dict[str, tuple[bool, dict[str, Any]] | None] = {}
    for face, side, owner in faces(game):
        lid = face_layout_id(face, owner, side)
        if face.style is None or (lid, face.style) in seen or lid not in table:
            continue
        seen.add((lid, face.style))
        if lid not in accent:
            try:
                resolved = resolve_layout(table, lid)
            except (LayoutCycle, KeyError):
                accent[lid] = None
            else:
                used = any(_uses_accent(el) for el in resolved.elements if not el.drop)
                accent[lid] = (used, dict(resolved.styles))
        known = accent[lid]
        if known is None or known[0]:
            continue
        style = known[1].get(face.style)
        if not _gives_accent(face.style, style):
            continue
        ctx.add(IGNORED_STYLE, face.at("style"), _ignored(face.style, lid, style is None))


_STYLE_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")  # a colour's name, usable as a style's


def _ignored(name: str, lid: str, colour: bool) -> str:
    fix = "give the layout an element with fill: accent (or color: or stroke: accent)"
    if colour:
        head = (
            f"style: {name!r} gives the accent colour, but layout {lid!r} draws nothing in "
            f"accent, so the colour has no effect; {fix}, or colour the whole face with a style "
            "of the layout"
        )
        if _STYLE_NAME.fullmatch(name):  # a colour's name: the style can take it
            return (
                f'{head} named after it: styles: {{{name}: {{background: "{name}"}}}} '
                f"(style: {name} then names that style)"
            )
        return f'{head}: styles: {{mine: {{background: "{name}"}}}} and style: mine'

    return (
        f"style {name!r} gives only an accent colour, but layout {lid!r} draws nothing in "
        f"accent, so the style has no effect; {fix}, or give the style a background:"
    )


def _gives_accent(name: str, style: Any) -> bool:
    """Whether a face's style gives an accent and nothing else (a style that also gives a
    background, a text colour, art or a font still does something)."""
    if style is not None:
        others = (style.background, style.color, style.art, style.font_family)
        return style.accent is not None and all(v is None for v in others)
    colour = read_colour(name)
    return colour is not None and colour != NONE


@check
def references(game: Game, ctx: CheckContext) -> None:
    cards = {c.id for _d, c in game.all_cards()}
    token_ids = {t.id for _s, t in game.all_tokens()}
    for table in game.tables.values():
        for col in table.columns:
            deal = col.deals
            if deal is None:
                continue
            ids = [deal.card] if isinstance(deal.card, str) else list(deal.card or [])
            for cid in ids:
                if cid not in cards:
                    _unknown(ctx, deal.at("card"), "card", cid, sorted(cards))
            if deal.deck is not None and deal.deck not in game.decks:
                _unknown(ctx, deal.at("deck"), "deck", deal.deck, sorted(game.decks))
            if deal.tokens is not None and deal.tokens not in game.tokens:
                _unknown(ctx, deal.at("tokens"), "token set", deal.tokens, sorted(game.tokens))
        ids = [c.id for c in table.columns]
        for total in table.total:
            for cid in total.of:
                if cid not in ids:
                    needs = (f"tables/{table.id}/columns",)
                    _unknown(ctx, total.at("of"), "column", cid, ids, needs)
            if isinstance(total.equals, str) and total.equals not in ids:
                needs = (f"tables/{table.id}/columns",)
                _unknown(ctx, total.at("equals"), "column", total.equals, ids, needs)
    sheet = game.meta.setup_sheet
    if sheet is not None:
        for tid in sheet.tables:
            if tid not in game.tables:
                _unknown(ctx, sheet.at("tables"), "table", tid, sorted(game.tables))
    del token_ids


@check
def icons_and_tokens(game: Game, ctx: CheckContext) -> None:
    """Every {name} in a text is an icon of the game or a value of its face."""
    for face, _side, owner in faces(game):
        values = set(face.values) | set(getattr(owner, "values", {}) or {})
        card_values = set(getattr(face, "values", {}))
        for _name, text in face.texts():
            for lang, value in text.values.items():
                for tok in tokens(value):
                    if "." in tok:
                        continue  # a reference to the game's data: pnp.validate.references
                    if tok not in game.icons and tok not in values and tok not in card_values:
                        ctx.add(
                            REFERENCE,
                            text.at(lang),
                            f"{{{tok}}} is neither an icon (icons:) nor a value of this face "
                            f"(values:); {suggest(tok, sorted(game.icons))}known icons: "
                            f"{', '.join(sorted(game.icons)) or 'none'}",
                        )


@check
def files(game: Game, ctx: CheckContext) -> None:
    """Art and icon images exist inside the game's folder and are usable PNG or JPEG files."""
    checked: set[str] = set()

    def one(rel: str, pos: Pos, what: str) -> None:
        key = f"{rel}@{pos}"
        if key in checked:
            return
        checked.add(key)
        try:
            path = resolve(ctx.game_dir, rel, what=what)
            probe_image(path)
        except AssetError as err:  # a missing or bad file named again: folded under the first
            same = (f"files/{rel}",) if err.rule in (MISSING_FILE, BAD_IMAGE) else ()
            ctx.add(err.rule, pos, str(err), subject=same, needs=same)

    for face, _side, _owner in faces(game):
        if face.art:
            one(face.art, face.at("art"), "image")
    for icon in game.icons.values():
        if icon.image:
            one(icon.image, icon.at("image"), "icon image")
    for layout in game.layouts.values():
        for el in layout.elements:
            kind = kind_of(el)
            for rel in kind.files(el):  # a template's: the engine checks each card's
                one(rel, el.at(kind.key or "box"), "image")
        for style in layout.styles.values():
            if style.art:
                one(style.art, style.at("art"), "image")


__all__ = ["BAD_IMAGE", "MISSING_FILE", "Severity"]
