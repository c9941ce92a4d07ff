"""What every element kind is: :class:`ElementKind`, the class each kind module subclasses, and
:class:`Layouter`, what of the face engine a kind lays its element out with.

A kind answers, for an element of its kind, everything the rest of pnp asks of it: what a
message calls it, where it lies on the face, whether it covers what is under it or prints
words, which tracks, tables, files and face texts it uses, the checks it makes of itself on a
face of some size, and its operations (:mod:`..ops`) on one face. Nothing outside the kinds
asks which kind an element is.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from ....content.model import Element, Game
from ....core.findings import Pos
from ....core.rules import CUT_CLEARANCE, SAFE_ZONE
from ..colours import is_template
from ..cuts import CLEARANCE, Cut, Zone, box_clear
from ..ops import Box, Op
from ..shapes import Point, box_corners, centre, element_box, extent, turned

if TYPE_CHECKING:
    from ....i18n import Translator
    from ...fonts import FontSet
    from ...markup import IconSpec
    from ..issues import TextIssue
    from ..values import FaceCtx


class Layouter(Protocol):
    """What of the face engine (:class:`~..engine.FaceEngine`) a kind lays its element out with."""

    game: Game
    lang: str
    fonts: FontSet
    icons: dict[str, IconSpec]
    translator: Translator
    issues: list[TextIssue]
    quick: bool  # validation: no exact fitting of texts that surely fit
    plain: bool  # a plain face (--ink-saver backs): texts and lines only
    cut: Cut  # the cut line of the face being laid out
    zone: Zone  # how far inside it what a player reads must lie (the home copy's, a shop's)
    face_name: str

    def paint(self, el: Element, attr: str, fc: FaceCtx, default: str | None) -> str | None: ...

    def render(self, el: Element, attr: str, source: str, fc: FaceCtx) -> str | None: ...

    def image(
        self, rel: str, el: Element | None = None, fc: FaceCtx | None = None, attr: str = "image"
    ) -> tuple[Any, int, int] | None: ...

    def drawing(self, path: Any) -> Any: ...

    def fonts_for(self, el: Element, fc: FaceCtx) -> FontSet: ...

    def first(self, *key: str) -> bool: ...

    def issue(
        self, rule: str, pos: Pos, message: str, structural: bool = False, lang: bool = True
    ) -> TextIssue: ...


def faded(op: Op | None, el: Element) -> Op | None:
    """The operations drawn at the element's opacity (when it gives one)."""
    if op is not None and el.opacity is not None:
        for part in op.parts():
            part.opacity = el.opacity
    return op


@dataclass(frozen=True)
class Placed:
    """An element on the faces of one size that one layout draws, for the checks its kind
    makes of it there."""

    el: Element
    w: float
    h: float
    game: Game
    named: str  # the element as a message names it, with its layout
    what: str  # whose faces: "deck 'roles'", "board 'main'"


class ElementKind:
    """One kind of layout element. ``key`` is the element key that selects the kind (a
    ``track:`` element is a track); the kind with no key is a plain box."""

    key: ClassVar[str | None] = None
    noun: ClassVar[str] = "box"  # what a message calls it
    placed_by: ClassVar[str] = "box"  # the key that places it on the face
    shape: ClassVar[str] = "box"  # what a message calls what it covers
    shows_text: ClassVar[bool] = False  # prints words or numbers (a later cover hides them)
    refers_to: ClassVar[str | None] = None  # the game's section its key names an entry of

    # -- what it is -----------------------------------------------------------------------

    def describe(self, el: Element) -> str:
        """What a message calls it: 'track military', 'filled text field title'."""
        noun = self.noun_of(el)
        return f"filled {noun}" if self.fills(el) else noun

    def noun_of(self, el: Element) -> str:
        return self.noun

    @staticmethod
    def fills(el: Element) -> bool:
        return (el.fill is not None and el.fill != "none") or el.gradient is not None

    def covers(self, el: Element) -> bool:
        """Whether it hides what lies under it (a filled box, an image)."""
        return self.fills(el)

    def points(self, el: Element, w: float, h: float) -> list[Point] | None:
        """Its points in mm before rotation, when it is placed by points, not by a box."""
        return None

    # -- what it uses ---------------------------------------------------------------------

    def reference(self, el: Element) -> str | None:
        """The id it names in the game's ``refers_to`` section (a track, a table)."""
        return getattr(el, self.key) if self.key and self.refers_to else None

    def files(self, el: Element) -> list[str]:
        """The game's files it names as written (checked to exist and be readable)."""
        return []

    def printed_names(self, el: Element) -> set[str]:
        """The face texts and values it may print: its field, the names in its templates."""
        names: set[str] = set()
        for value in (*self.templates(el), el.color, el.fill, el.stroke):
            if value and (value in self.templates(el) or is_template(value)):
                names.update(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", value))
        return names

    def templates(self, el: Element) -> list[str]:
        """Its own value read as a template (besides its colours)."""
        return []

    def draws_art(self, el: Element) -> bool:
        """Whether it places the face's art itself (else the art is the background)."""
        return False

    def assumed(self, el: Element, game: Game) -> bool:
        """Whether it prints something the rulebook does not give (the face gets the mark)."""
        return False

    def face_findings(self, p: Placed) -> Iterator[tuple[str, str]]:
        """(rule, message) of what is wrong with it on faces of this size."""
        return iter(())

    # -- its operations -------------------------------------------------------------------

    def layout(self, el: Element, fc: FaceCtx, eng: Layouter) -> Op | None:
        """Its operations on one face (None: nothing to draw), turned as the element is."""
        box = element_box(el, fc.w, fc.h)
        if box is None:
            return None  # no usable box: reported by the schema
        op = self.in_box(el, box, fc, eng)
        if op is not None and el.rotate % 360:
            for part in op.parts():
                part.rotate = el.rotate % 360
        return faded(op, el)

    def in_box(self, el: Element, box: Box, fc: FaceCtx, eng: Layouter) -> Op | None:
        raise NotImplementedError

    # -- where it lies --------------------------------------------------------------------

    def outline(self, el: Element, w: float, h: float) -> list[Point] | None:
        """What it covers on a face of w x h mm, as printed: its points, or its box's corners,
        turned about their centre; None when it has neither (reported by the schema)."""
        try:
            points = self.points(el, w, h)
        except (TypeError, ValueError):
            return None
        if points is not None:
            return turned(points, centre(points), el.rotate)
        box = element_box(el, w, h)
        if box is None:
            return None
        x, y, bw, bh = box
        return turned(box_corners(box), (x + bw / 2, y + bh / 2), el.rotate)

    def text_areas(
        self, el: Element, w: float, h: float, game: Game | None = None
    ) -> list[list[Point]]:
        """Where it prints words or numbers, as printed (a later cover over them hides
        them): its outline, unless the kind knows better (a track around its box: the
        strips along its edges)."""
        shape = self.outline(el, w, h)
        return [shape] if shape is not None else []

    def past_face(self, el: Element, cut: Cut) -> bool:
        """Whether it reaches past its face's bounding box by more than 0.01 mm, as the
        element-outside rule measures it."""
        shape = self.outline(el, cut.w, cut.h)
        if shape is None:
            return False
        x, y, w, h = extent(shape)
        return min(x, y, cut.w - x - w, cut.h - y - h) < -0.01

    def cut_issue(
        self, eng: Layouter, el: Element, pos: Pos, what: str, reached: float, lang: bool
    ) -> None:
        """Report what it prints too near the face's cut line (not what reaches past its
        face: that is element-outside), once per engine; against a shop's safe zone, at the
        layout element (``eng.zone``)."""
        cut, zone = eng.cut, eng.zone
        face_key = ""
        if zone.shop:  # at the element, once per face
            pos, face_key = (el.at("box") if el.given("box") else el.pos), eng.face_name
        if self.past_face(el, cut) or not eng.first("cut", str(pos), what, face_key):
            return
        element = f"element {el.name!r}" if el.name else "element"
        fix = (
            f"shorten it, lower the min_size of its layout's {element}, or move that box inward"
            if lang
            else f"move or shrink the box of its layout's {element} so that it ends "
            f"{zone.clearance:g} mm inside"
        )
        near = f"prints {reached:.2f} mm from"
        if reached < 0:
            near = f"reaches {-reached:.2f} mm past"
        head = f"[{eng.lang}] " if lang else ""
        face = f"the {what} {near} the {cut.name} of its {cut.w:.3g} x {cut.h:.3g} mm face"
        if zone.shop:
            message = (
                f"{head}{face} ({eng.face_name}), inside {zone.where(reached)}: move the box "
                f"of this {element} at least {zone.clearance:.3g} mm inside the trim, or "
                "shorten the text"
            )
            eng.issues.append(eng.issue(SAFE_ZONE, pos, message, lang=lang))
            return
        message = (
            f"{head}{face} ({eng.face_name}): nothing a player reads may lie within "
            f"{CLEARANCE:g} mm of where the face is cut; {fix}"
        )
        eng.issues.append(eng.issue(CUT_CLEARANCE, pos, message, lang=lang))

    def ink_clear(
        self, eng: Layouter, el: Element, box: Box, ink: Callable[[], list[list[Point]]], what: str
    ) -> None:
        """Its numbers or texts (``ink()``: their corners on the face) kept clear of the cut
        line, else reported at its box."""
        clear = eng.zone.clearance
        if box_clear(eng.cut, box, el.rotate, clear):
            return
        reached = min((eng.cut.clearance(points) for points in ink()), default=float("inf"))
        if reached < clear - 0.005:
            self.cut_issue(eng, el, el.at("box"), what, reached, lang=False)
