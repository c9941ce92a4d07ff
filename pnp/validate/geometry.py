"""Layout geometry: elements inside their face, nothing drawn over a text box, no two tracks or
tables drawn over each other.

Both rules look at a layout as the face engine resolves it (``extends`` chains, named elements
replacing the parent's) and at its elements as printed on one face size: boxes in mm turned by
``rotate:``, lines and polygons by their points (pnp.typeset.faces.shapes, which the engine
draws from). The work is done once
per distinct (layout, face width, face height), not per card: a deck of 10,000 cards drawn with
one layout is one piece of work, and a finding is reported once per element (or element pair)
however many faces draw it.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..content.model import Deck, Element, Face, Game, Layout, TokenSet
from ..content.queries import card_size, token_size
from ..core.findings import Pos
from ..core.rules import ELEMENT_HIDES_TEXT, ELEMENT_OUTSIDE, ELEMENT_OVERLAP
from ..typeset.faces import (
    LayoutCycle,
    Placed,
    builtin_layouts,
    clip,
    extent,
    face_layout_id,
    kind_of,
    layout_table,
    outline,
    resolve_layout,
    spans,
)
from .context import CheckContext, check

TOLERANCE = 0.01  # mm an element may reach past its face (rounding of boxes in %)
OVERLAP = 1.0  # mm, in both directions, above which a later element covers a text

Box = tuple[float, float, float, float]
Outline = list[tuple[float, float]]  # an element's corners (or points) on the face, in mm


@dataclass(frozen=True)
class Drawn:
    """A layout drawn on faces of one size, with the first thing whose faces it draws."""

    lid: str
    w: float
    h: float
    what: str  # "deck 'roles'", "board 'main'"
    pos: Pos  # where that thing sets its size: findings of built-in layouts go there
    board: bool = False


@dataclass(frozen=True)
class Origin:
    """Where an element is written: its layout, its place in that layout's list, built-in?"""

    lid: str
    index: int
    builtin: bool


def drawn(game: Game) -> list[Drawn]:
    """Every distinct (layout, face size) the game draws, in definition order."""
    seen: dict[tuple[str, float, float], Drawn] = {}
    for owner in game.owners():
        if isinstance(owner, TokenSet):
            size, what = token_size(owner), f"token set {owner.id!r}"
        else:
            size, what = card_size(game, owner), f"deck {owner.id!r}"
        for lid in _owner_layouts(owner):
            seen.setdefault(
                (lid, size.w, size.h), Drawn(lid, size.w, size.h, what, owner.at("size"))
            )
    for board in game.boards.values():
        size = board.size
        for face, side in ((board, "front"), (board.back, "back")):
            if face is None:
                continue
            lid = face_layout_id(face, board, side)
            where = board.at("size")
            use = Drawn(lid, size.w, size.h, f"board {board.id!r}", where, board=True)
            seen.setdefault((lid, size.w, size.h), use)
    return list(seen.values())


def _owner_layouts(owner: Deck | TokenSet) -> list[str]:
    """The layouts drawing a deck's or token set's faces, each once. A face naming no layout
    takes its owner's for its side, so that one is asked once per side, not once per card."""
    lids: dict[str, None] = {}
    default: dict[str, str] = {}

    def one(face: Face, side: str) -> None:
        if face.layout:
            lids[face_layout_id(face, owner, side)] = None
            return
        if side not in default:
            default[side] = face_layout_id(face, owner, side)
        lids[default[side]] = None

    if owner.back is not None:
        one(owner.back, "back")
    for card in owner.cards:
        one(card, "front")
        if card.back is not None:
            one(card.back, "back")
    return list(lids)


def origins(game: Game, table: dict[str, Layout]) -> dict[int, Origin]:
    """id(element) -> where it is written, for every element of every layout in use (the
    built-in layouts a game's layout of the same id extends included)."""
    out: dict[int, Origin] = {}
    for lid, layout in [*builtin_layouts().items(), *table.items()]:
        builtin = lid not in game.layouts or layout is not game.layouts[lid]
        for i, el in enumerate(layout.elements, 1):
            out[id(el)] = Origin(lid, i, builtin)
    return out


def element_outlines(el_list: list[Element], w: float, h: float) -> list[tuple[Element, Outline]]:
    """Each element with what it covers on a face of w x h mm, as printed (elements without a
    usable box or points, already reported by the schema, are left out)."""
    out: list[tuple[Element, Outline]] = []
    for el in el_list:
        shape = outline(el, w, h)
        if shape is not None:
            out.append((el, shape))
    return out


def _mm(value: float) -> str:
    return f"{round(value, 2):g}"


def describe(el: Element, origin: Origin | None, lid: str, layout: bool = True) -> str:
    """An element named for a message, e.g. element 'title' (text field title) of layout
    'fabg' (drawn through layout 'role'). An unnamed element is named by its place in the
    layout that lists it (#1 is the first). Without ``layout``, the layout is named only when
    it is not ``lid``."""
    label = repr(el.name) if el.name else (f"#{origin.index}" if origin else "")
    out = f"element {label} ({kind_of(el).describe(el)})"
    home = origin.lid if origin is not None else lid
    builtin = "built-in " if origin is not None and origin.builtin else ""
    if home != lid:
        out += f" of {builtin}layout {home!r}"
        return out + f" (drawn through layout {lid!r})" if layout else out
    return out + f" of {builtin}layout {lid!r}" if layout else out


def _position(el: Element, origin: Origin | None, use: Drawn) -> Pos:
    """Where a finding about an element goes: its box in the game's files; for an element of
    a built-in layout, the thing whose size makes it misfit."""
    if origin is None or origin.builtin:
        return use.pos
    return el.at(kind_of(el).placed_by)


def _overflow(box: Box, w: float, h: float) -> list[str]:
    x, y, bw, bh = box
    sides = (("left", -x), ("top", -y), ("right", x + bw - w), ("bottom", y + bh - h))
    return [f"{_mm(d)} mm past the {side} edge" for side, d in sides if d > TOLERANCE]


def _outside(
    use: Drawn,
    shapes: list[tuple[Element, Outline]],
    where: dict[int, Origin],
    done: set[tuple[int, Pos]],
    ctx: CheckContext,
) -> None:
    for el, shape in shapes:
        box = extent(shape)
        past = _overflow(box, use.w, use.h)
        if not past:
            continue
        origin = where.get(id(el))
        pos = _position(el, origin, use)
        if (id(el), pos) in done:
            continue
        done.add((id(el), pos))
        x, y, bw, bh = box
        fix = f"move or shrink the {_noun(el)} so that it ends inside the face"
        if origin is None or origin.builtin:
            fix = f"give {use.what} a layout of its own (layouts:), or make it larger"
        elif use.board:
            fix += ", or enlarge the board"
        ctx.add(
            ELEMENT_OUTSIDE,
            pos,
            f"{describe(el, origin, use.lid)} reaches {' and '.join(past)} of the "
            f"{_mm(use.w)} x {_mm(use.h)} mm face of {use.what} (its {_noun(el, True)} spans x "
            f"{_mm(x)}..{_mm(x + bw)}, y {_mm(y)}..{_mm(y + bh)} mm); the part outside is "
            f"lost when the face is cut out: {fix}",
        )


def _noun(el: Element, printed: bool = False) -> str:
    """What is measured of an element: its box, line or polygon (as turned, if it is)."""
    noun = kind_of(el).shape
    return f"{noun}, turned {el.rotate:g}°," if printed and el.rotate % 360 else noun


def _overlap(cover: Outline, text: Outline) -> tuple[float, float]:
    """How far ``cover`` reaches over the text's box, along its two sides (0, 0: not at all);
    for upright boxes, the width and height of their intersection."""
    common = clip(cover, text)
    if len(common) < 3:
        return 0.0, 0.0
    return spans(common, text)


def _hides(
    game: Game,
    use: Drawn,
    shapes: list[tuple[Element, Outline]],
    where: dict[int, Origin],
    done: set[tuple[int, int, Pos]],
    ctx: CheckContext,
) -> None:
    texts: list[tuple[Element, Outline]] = []  # where the text elements drawn so far print
    for el, shape in shapes:
        kind = kind_of(el)
        if kind.covers(el):
            for text, tshape in texts:
                ox, oy = _overlap(shape, tshape)
                if ox > OVERLAP and oy > OVERLAP:
                    _report_over(ELEMENT_HIDES_TEXT, use, el, text, (ox, oy), where, done, ctx)
        if kind.shows_text:
            texts += [(el, area) for area in kind.text_areas(el, use.w, use.h, game) or [shape]]


def _report_over(
    rule: str,
    use: Drawn,
    top: Element,
    under: Element,
    overlap: tuple[float, float],
    where: dict[int, Origin],
    done: set[tuple[int, int, Pos]],
    ctx: CheckContext,
) -> None:
    """Element ``top`` drawn over ``under`` on a face (element-hides-text or element-overlap),
    once per pair and position (a layout used by many faces)."""
    origin = where.get(id(top))
    pos = _position(top, origin, use)
    key = (id(top), id(under), pos)
    if key in done:
        return
    done.add(key)
    drawn = describe(top, origin, use.lid)
    below = describe(under, where.get(id(under)), use.lid, layout=False)
    shared = f"{_mm(overlap[0])} x {_mm(overlap[1])} mm"
    face = f"{_mm(use.w)} x {_mm(use.h)} mm face of {use.what}"
    if rule == ELEMENT_HIDES_TEXT:
        message = (
            f"{drawn} is drawn over {below}, which is listed before it: it covers {shared} of "
            f"the text's box on the {face}, so that part of the text is hidden; list this "
            "element before the text (elements are drawn in order) or move it off the text"
        )
    else:
        message = (
            f"{drawn} is drawn over {below}: they share {shared} of the {face}, where the "
            "numbers and words of both print on top of each other; move or shrink one of the "
            "boxes"
        )
    ctx.add(rule, pos, message)


def _doubled(
    game: Game,
    use: Drawn,
    shapes: list[tuple[Element, Outline]],
    where: dict[int, Origin],
    done: set[tuple[int, int, Pos]],
    ctx: CheckContext,
) -> None:
    """Two tracks or tables drawn over each other (element-overlap): each prints its numbers
    in the whole of its cells or rows, so where they meet every number prints twice."""
    drawn: list[tuple[Element, list[Outline]]] = []
    for el, _shape in shapes:
        kind = kind_of(el)
        if kind.key not in ("track", "table"):
            continue
        areas = kind.text_areas(el, use.w, use.h, game)
        for other, theirs in drawn:
            common = max(
                (_overlap(a, b) for a in areas for b in theirs),
                key=lambda o: min(o),
                default=(0.0, 0.0),
            )
            if common[0] > OVERLAP and common[1] > OVERLAP:
                _report_over(ELEMENT_OVERLAP, use, el, other, common, where, done, ctx)
                break  # once per element: the first one it is drawn over
        drawn.append((el, areas))


def _findings(
    game: Game,
    use: Drawn,
    el_list: list[Element],
    where: dict[int, Origin],
    done: set[tuple[int, Pos]],
    ctx: CheckContext,
) -> None:
    """What each element's kind finds wrong with it on faces of this size (a track's cells
    too small for a marker: track-cell)."""
    for el in el_list:
        origin = where.get(id(el))
        placed = Placed(el, use.w, use.h, game, describe(el, origin, use.lid), use.what)
        for rule, message in kind_of(el).face_findings(placed):
            pos = _position(el, origin, use)
            if (id(el), pos) in done:
                continue
            done.add((id(el), pos))
            ctx.add(rule, pos, message)


@check
def layout_geometry(game: Game, ctx: CheckContext) -> None:
    """Elements inside their face (element-outside), no image, filled box or filled polygon
    drawn over a text (element-hides-text), as printed (rotated), and track cells a marker
    fits in (track-cell), once per layout and face size."""
    table = layout_table(game)
    where = origins(game, table)
    outside_done: set[tuple[int, Pos]] = set()
    cells_done: set[tuple[int, Pos]] = set()
    hides_done: set[tuple[int, int, Pos]] = set()
    doubled_done: set[tuple[int, int, Pos]] = set()
    elements: dict[str, list[Element] | None] = {}
    for use in drawn(game):
        if use.lid not in elements:
            try:
                elements[use.lid] = resolve_layout(table, use.lid).elements
            except (LayoutCycle, KeyError):
                elements[use.lid] = None  # reported by the structure checks
        el_list = elements[use.lid]
        if not el_list:
            continue
        shapes = element_outlines(el_list, use.w, use.h)
        _outside(use, shapes, where, outside_done, ctx)
        _hides(game, use, shapes, where, hides_done, ctx)
        _doubled(game, use, shapes, where, doubled_done, ctx)
        _findings(game, use, el_list, where, cells_done, ctx)
