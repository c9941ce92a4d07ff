"""The setup sheet's flow: what its frames place, and the flowables that shape it.

The sheet fills its frames directly (no document template): :class:`Together` keeps a
heading with what follows it, :class:`Columns` turns the rest of the sheet into two columns,
:func:`measured` stands a flowable in for counting pages without drawing, and tables come in
parts no taller than a page (:class:`Rows`, :func:`parts`, :func:`with_heading`), sized for the
frame of the smallest paper (:func:`smallest_frame`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from reportlab.platypus import Paragraph as RLParagraph
from reportlab.platypus import Table, TableStyle
from reportlab.platypus.flowables import Flowable

from ...compat import reportlab as rl
from ...core.units import PAPERS, pt
from ...typeset.layout import ShapedParagraph

COLUMN_GAP = 6.0  # mm between the two columns of the scenarios
SETUP_MARGIN = 10.0  # mm: wider than the printable margin, narrow enough for a dense sheet
FRAME_PADDING = 12.0  # points: a reportlab Frame's default padding, 6 at each side


def smallest_frame(margin: float = SETUP_MARGIN) -> tuple[float, float]:
    """The width and height (points) a setup page's frame gives on the smallest paper."""
    papers = [p.portrait() for p in PAPERS.values()]
    width = pt(min(p.w for p in papers) - 2 * margin) - FRAME_PADDING
    return width, pt(min(p.h for p in papers) - 2 * margin) - FRAME_PADDING


class Columns(Flowable):
    """A mark in the setup sheet's flow: from here on, two columns."""

    def wrap(self, aW: float, aH: float) -> tuple[float, float]:
        return 0.0, 0.0

    def draw(self) -> None:
        pass


@dataclass
class Rows:
    """A table to be cut between rows: its header row, its body rows, and how a platypus
    Table is made of the header and some of them (the same widths and style each time)."""

    header: list[Any]
    body: list[list[Any]]
    make: Callable[[list[list[Any]]], Table]  # rows, the header first -> a table

    def whole(self) -> Table:
        return self.make([self.header, *self.body])

    def heights(self, width: float, room: float) -> tuple[float, list[float]]:
        """The header's height and each body row's (points), from one wrap of the whole
        table: a part made of some rows is as tall as they add up to."""
        table = self.whole()
        table.wrapOn(None, width, room)
        found = rl.row_heights(table)
        return found[0], found[1:]

    def part(self, start: int, end: int) -> Table:
        return self.make([self.header, *self.body[start:end]])


def _cut(heights: list[float], start: int, head: float, room: float) -> int:
    """Where the part starting at body row ``start`` ends: as many rows as fit in ``room``
    under the header, at least one (a row taller than a page keeps a part to itself)."""
    used = head
    end = start
    while end < len(heights) and (end == start or used + heights[end] <= room):
        used += heights[end]
        end += 1
    return end


def with_heading(heading: Flowable, rows: Rows, width: float, room: float) -> list[Flowable]:
    """A heading and its table, the table in parts of at most ``room`` points: the heading and
    the first part (the whole table when it fits, else half a page of it) are one block, which
    a setup page's frame places whole or moves whole to the next page."""
    _, below = heading.wrapOn(None, width, room)
    below += max(heading.getSpaceAfter(), rows.whole().getSpaceBefore())
    head, heights = rows.heights(width, room)
    if below + head + sum(heights) <= room:
        return [Together([heading, rows.whole()])]
    for first in (room / 2, room):  # its first rows take half a page: they may follow text
        if heights and below + head + heights[0] <= first:
            end = _cut(heights, 0, head, first - below)
            return [Together([heading, rows.part(0, end)]), *parts(rows, width, room, end)]
    return [heading, *parts(rows, width, room)]  # not even a row fits below the heading


def parts(rows: Rows, width: float, height: float, start: int = 0) -> list[Table]:
    """The table's rows from ``start`` in parts of at most ``height`` points, cut between
    rows, each part with the header row: the setup sheet's frames place whole flowables only.
    The table is wrapped once, so the cost grows with its rows, not with their square. A row
    taller than that stays in its part, which the sheet then reports as too big."""
    head, heights = rows.heights(width, height)
    out: list[Table] = []
    while start < len(heights) or not out:
        end = _cut(heights, start, head, height)
        out.append(rows.part(start, end))
        start = end
    return out


def measured(flowable: Flowable) -> Flowable:
    """``flowable`` as a frame measures it, not drawn (one that acts on its frame: itself)."""
    if hasattr(flowable, "frameAction") or isinstance(flowable, Columns):
        return flowable
    return Measured(flowable)


class Measured(Flowable):
    """A flowable's size and spacing, for counting pages: a frame places it where the
    flowable would go (the same wrap, the same spaces), and drawing it draws nothing."""

    def __init__(self, inner: Flowable) -> None:
        super().__init__()
        self.inner = inner
        rl.copy_frame_flags(inner, self)  # a frame spaces it as it spaces the flowable

    def wrap(self, aW: float, aH: float) -> tuple[float, float]:
        size: tuple[float, float] = self.inner.wrapOn(getattr(self, "canv", None), aW, aH)
        return size

    def getSpaceBefore(self) -> float:
        space: float = self.inner.getSpaceBefore()
        return space

    def getSpaceAfter(self) -> float:
        space: float = self.inner.getSpaceAfter()
        return space

    def split(self, aW: float, aH: float) -> list[Flowable]:
        parts = self.inner.splitOn(getattr(self, "canv", None), aW, aH)
        return [Measured(part) for part in parts]

    def drawOn(self, canvas: Any, x: float, y: float, _sW: float = 0) -> None:
        pass


def splits(flowable: Flowable) -> bool:
    """Whether a flowable of the sheet may go on in the next frame: a paragraph (measured or
    not), never a table or a heading kept with its table."""
    inner = flowable.inner if isinstance(flowable, Measured) else flowable
    return isinstance(inner, RLParagraph | ShapedParagraph)


class Together(Flowable):
    """Flowables drawn as one block, spaced as a frame spaces them: a frame places all of them
    on its page, or moves all of them to the next (reportlab's KeepTogether needs a document
    template to do that; the setup pages fill their frames directly)."""

    def __init__(self, parts: list[Flowable]) -> None:
        super().__init__()
        self.parts = parts
        self._heights: list[float] = []
        self._widths: list[float] = []

    def _gap(self, i: int) -> float:
        """The space between part i - 1 and part i."""
        return float(max(self.parts[i - 1].getSpaceAfter(), self.parts[i].getSpaceBefore()))

    def wrap(self, aW: float, aH: float) -> tuple[float, float]:
        sizes = [part.wrapOn(self.canv, aW, aH) for part in self.parts]
        self._widths = [w for w, _ in sizes]
        self._heights = [h for _, h in sizes]
        self.width = max(w for w, _ in sizes)
        self.height = sum(self._heights) + sum(self._gap(i) for i in range(1, len(self.parts)))
        return self.width, self.height

    def getSpaceBefore(self) -> float:
        return float(self.parts[0].getSpaceBefore())

    def getSpaceAfter(self) -> float:
        return float(self.parts[-1].getSpaceAfter())

    def draw(self) -> None:
        y = self.height
        for i, (part, h) in enumerate(zip(self.parts, self._heights, strict=True)):
            y -= h + (self._gap(i) if i else 0)
            right = getattr(part, "hAlign", "LEFT") == "RIGHT"  # a table read from the right
            part.drawOn(self.canv, self.width - self._widths[i] if right else 0, y)


def bare_table(rows: list[list[Any]], widths: list[Any], font: str, **how: Any) -> Table:
    """A table that only lays out its cells: no padding, cells aligned at the top, the game's
    font for any cell without a flowable (else reportlab's Helvetica enters the PDF).
    ``how["bottom"]``: points below each row; ``how["rtl"]``: columns read from the right."""
    rtl = bool(how.get("rtl", False))
    if rtl:
        rows, widths = [row[::-1] for row in rows], widths[::-1]
    table = Table(rows, colWidths=widths, hAlign="RIGHT" if rtl else "LEFT")
    table.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), font, 9),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                ("TOPPADDING", (0, 0), (-1, -1), 0),
                ("BOTTOMPADDING", (0, 0), (-1, -1), float(how.get("bottom", 0.0))),
            ]
        )
    )
    return table
