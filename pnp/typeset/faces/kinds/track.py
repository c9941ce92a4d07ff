"""Tracks: a row of numbered cells (a column counting upwards, or cells all around the box:
:mod:`.ring`), one per value of a track of the game, each big enough for a marker."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ....content.model import Element, Game
from ....content.model import Track as TrackSpec
from ....content.queries import token_size
from ....core.rules import TRACK_CELL
from ....core.units import mm, pt
from ...layout import rl_color as color
from ...scripts import is_rtl
from ..cuts import reach, turned_box
from ..ops import TEXT_WEIGHT, Box, Ink, Op, Operation, Surface
from ..paint import faded
from ..shapes import Point, box_corners, element_box, turned
from .base import ElementKind, Layouter, Placed
from .ring import MIN_CELLS, RingOp, cells, default_depth

if TYPE_CHECKING:
    from ..values import FaceCtx


@dataclass
class TrackOp(Operation):
    """A track: a row (or column, counting upwards) of numbered cells."""

    box: Box
    labels: list[str]
    vertical: bool
    font: str  # face: regular, bold...
    size: float
    color: str
    fill: str | None
    stroke: str | None  # None: cells without outlines
    rotate: float = 0.0
    mirrored: bool = False  # a horizontal track counting from the right (print.mirror)
    font_name: str | None = None  # the reportlab name of its numbers' font (None: the game's)

    def cell(self) -> tuple[float, float]:
        """The width and height (mm) of one cell."""
        _x, _y, bw, bh = self.box
        n = max(len(self.labels), 1)
        return (bw, bh / n) if self.vertical else (bw / n, bh)

    def number_size(self) -> float:
        """The size its numbers print at: the element's, or less in small cells."""
        cw, ch = self.cell()
        return min(self.size, pt(min(cw, ch)) * 0.6)

    def draw(self, s: Surface) -> None:
        n = max(len(self.labels), 1)
        font = self.font_name or s.fonts.main.font(self.font)
        with faded(s.canvas, self.opacity):
            self._cells(s, font, n)

    def _cells(self, s: Surface, font: str, n: int) -> None:
        c = s.canvas
        x, y, bw, bh = self.box
        c.saveState()
        c.setLineWidth(0.6)
        outline = int(self.stroke is not None)
        if self.stroke is not None:
            c.setStrokeColor(color(self.stroke))
        for i, label in enumerate(self.labels):
            if self.vertical:  # the lowest value at the bottom
                ch = bh / n
                cx, cy, cw = x, y + bh - (i + 1) * ch, bw
                cell_h = ch
            else:  # from the right in a language the game mirrors
                cw = bw / n
                cx, cy, cell_h = x + (n - 1 - i if self.mirrored else i) * cw, y, bh
            rx, ry = pt(cx), pt(s.face_h - cy - cell_h)
            if self.fill:
                c.setFillColor(color(self.fill))
                c.rect(rx, ry, pt(cw), pt(cell_h), stroke=outline, fill=1)
            elif outline:
                c.rect(rx, ry, pt(cw), pt(cell_h), stroke=1, fill=0)
            size = min(self.size, pt(min(cw, cell_h)) * 0.6)
            c.setFont(font, size)
            c.setFillColor(color(self.color))
            c.drawCentredString(rx + pt(cw) / 2, ry + pt(cell_h) / 2 - size * 0.35, label)
        c.restoreState()

    def ink(self) -> Ink:
        return [(self.box, TEXT_WEIGHT)]

    def numbers(self, font: str) -> list[list[Point]]:
        """The corners of each number, as turned on the face (``font``: the reportlab name)."""
        from reportlab.pdfbase.pdfmetrics import stringWidth

        x, y, _bw, bh = self.box
        cw, ch = self.cell()
        size = self.number_size()
        out = []
        for i, label in enumerate(self.labels):
            cx, cy = (x, y + bh - (i + 1) * ch) if self.vertical else (x + i * cw, y)
            width = mm(stringWidth(label, font, size))
            baseline = cy + ch / 2 + mm(size * 0.35)
            up, down = reach(font, label)
            left = cx + (cw - width) / 2
            box = (left, baseline - mm(up * size), width, mm((up + down) * size))
            out.append(turned_box(box, self.box, self.rotate))
        return out


class Track(ElementKind):
    """A track of the game (tracks:) as a row of numbered cells."""

    key = "track"
    shows_text = True
    refers_to = "tracks"

    def noun_of(self, el: Element) -> str:
        return f"track {el.track}"

    def in_box(self, el: Element, box: Box, fc: FaceCtx, eng: Layouter) -> Op | None:
        track = eng.game.tracks.get(el.track or "")
        if track is None:
            return None  # reported by validation
        mirror = eng.game.print.mirror
        text = fc.palette["text"]
        labels = [str(v) for v in range(track.min, track.max + 1)]
        font = eng.fonts_for(el, fc).main.font(el.font)
        colours = (
            eng.paint(el, "color", fc, text) or text,
            eng.paint(el, "fill", fc, None),
            eng.paint(el, "stroke", fc, text),
        )
        mirrored = eng.lang in mirror or ("rtl" in mirror and is_rtl(eng.lang))
        what = f"numbers of track {track.id}"
        if el.direction == "around":
            depth = el.depth or default_depth(box, len(labels))
            ring = RingOp(box, labels, depth, el.numbers, font, el.size, *colours, el.rotate % 360,
                          mirrored)  # fmt: skip
            self.ink_clear(eng, el, box, ring.numbers_at, what)
            return ring
        op = TrackOp(
            box,
            labels,
            el.direction == "vertical",
            el.font,
            el.size,
            *colours,
            rotate=el.rotate % 360,
            mirrored=mirrored,
            font_name=font,
        )
        self.ink_clear(eng, el, box, lambda: op.numbers(font), what)
        return op

    def text_areas(
        self, el: Element, w: float, h: float, game: Game | None = None
    ) -> list[list[Point]]:
        """A track around its box prints along the box's edges only: four strips as deep
        as its cells (the middle of a board stays free)."""
        box = element_box(el, w, h)
        track = game.tracks.get(el.track or "") if game is not None else None
        if box is None or el.direction != "around" or track is None:
            return super().text_areas(el, w, h, game)
        x, y, bw, bh = box
        d = el.depth or default_depth(box, track.max - track.min + 1)
        strips = [(x, y, bw, d), (x + bw - d, y, d, bh), (x, y + bh - d, bw, d), (x, y, d, bh)]
        about = (x + bw / 2, y + bh / 2)
        return [turned(box_corners(s), about, el.rotate) for s in strips]

    def face_findings(self, p: Placed) -> Iterator[tuple[str, str]]:
        """Cells a marker fits in: each at least print.min_track_cell mm wide and high, and
        as large as the tokens the track names as its markers."""
        el, game = p.el, p.game
        track = game.tracks.get(el.track or "")
        least, marker = marker_size(game, track) if track is not None else (0.0, "")
        box = element_box(el, p.w, p.h) if track is not None else None
        if track is None or box is None:
            return  # an unknown track: the structure checks report it
        n = max(track.max - track.min + 1, 1)
        if el.direction == "around":
            yield from _around_findings(p, box, n, track.id, least, marker)
            return
        vertical = el.direction == "vertical"
        cw, ch = (box[2], box[3] / n) if vertical else (box[2] / n, box[3])
        if min(cw, ch) >= least - 0.005:
            return
        along, step, across, side = (
            ("high", ch, "wide", cw) if vertical else ("wide", cw, "high", ch)
        )
        need = [f"{_mm(least * n)} mm {along}"] if step < least - 0.005 else []
        need += [f"{_mm(least)} mm {across}"] if side < least - 0.005 else []
        yield (
            TRACK_CELL,
            f"{p.named} draws the {n} cells of track {track.id} "
            f"({track.min}..{track.max}) in a {_mm(box[2])} x {_mm(box[3])} mm box on "
            f"{p.what}: each cell is {_mm(cw)} x {_mm(ch)} mm, smaller than {marker}: make "
            f"the box {' and '.join(need)}, or {_smaller(marker)}",
        )


def marker_size(game: Game, track: TrackSpec) -> tuple[float, str]:
    """The side of the smallest cell that holds the track's markers, and what they are: the
    largest token it names (``markers:``), else print.min_track_cell."""
    least = game.print.min_track_cell
    said = f"a marker ({_mm(least)} mm, print.min_track_cell)"
    names = [track.markers] if isinstance(track.markers, str) else list(track.markers or [])
    sets = {s.id: s for s in game.tokens.values()}
    homes = {t.id: s for s in game.tokens.values() for t in s.tokens}
    for name in names:
        owner = sets.get(name) or homes.get(name)
        if owner is None:
            continue  # an unknown marker: the structure checks report it
        size = token_size(owner)
        side = max(size.w, size.h)
        if side > least + 0.005:
            least = side
            said = f"its markers ({name}: {owner.shape} tokens of {_mm(owner.size)} mm)"
    return least, said


def _smaller(marker: str) -> str:
    if marker.startswith("its markers"):
        return "make its markers smaller (the token set's size:)"
    return "set print.min_track_cell to the size of the game's markers"


def _around_findings(
    p: Placed, box: Box, n: int, track: str, least: float, marker: str
) -> Iterator[tuple[str, str]]:
    """The cells of a track around its box, each big enough for a marker."""
    if n < MIN_CELLS:
        yield (
            TRACK_CELL,
            f"{p.named} runs track {track} around its box on {p.what}, but the track has "
            f"{n} values: its four corners alone need 4; draw it as a row instead",
        )
        return
    depth = p.el.depth or default_depth(box, n)
    small = min(cells(box, n, depth), key=lambda c: min(c.box[2], c.box[3]))
    side = min(small.box[2], small.box[3])
    if side >= least - 0.005:
        return
    yield (
        TRACK_CELL,
        f"{p.named} runs the {n} cells of track {track} around a {_mm(box[2])} x "
        f"{_mm(box[3])} mm box on {p.what}: its smallest cell is {_mm(small.box[2])} x "
        f"{_mm(small.box[3])} mm, smaller than {marker}: make the box larger or depth: "
        f"deeper, or {_smaller(marker)}",
    )


def _mm(value: float) -> str:
    return f"{round(value, 2):g}"
