"""Element kinds: each kind of layout element is one class in one module of this package,
registered in :data:`KINDS`.

A kind draws one thing (a text field, a template, an image, a track, a table, a line, a
polygon, a QR code; a plain box when an element names none of them), answers what validation
asks of it (:class:`~.base.ElementKind`) and lays its element out as operations that draw
themselves (:mod:`..ops`). A new kind is a module here, a line in :data:`KINDS` and its key
in the format (``Element`` in :mod:`pnp.content.model.elements`, documented in
docs/format.md); tests keep the three in step.
"""

from __future__ import annotations

from ....content.model import Element
from ..shapes import Point
from .base import ElementKind, Layouter, Placed
from .box import Box
from .image import Image
from .line import Line, PathOp
from .polygon import Polygon
from .qr import Qr, QrOp
from .table import Table, TableOp
from .text import Field, Template
from .track import Track, TrackOp

# the element kinds, by the key that selects each (an element names at most one)
KINDS: tuple[ElementKind, ...] = (
    Field(),
    Template(),
    Image(),
    Track(),
    Table(),
    Line(),
    Polygon(),
    Qr(),
)
BOX = Box()  # an element naming no kind: its box, filled or outlined


def kind_of(el: Element) -> ElementKind:
    """The kind of an element: the first kind whose key it sets, else the plain box."""
    for kind in KINDS:
        if getattr(el, kind.key or "") is not None:
            return kind
    return BOX


def outline(el: Element, w: float, h: float) -> list[Point] | None:
    """What an element covers on a face of w x h mm, as printed (:meth:`ElementKind.outline`)."""
    return kind_of(el).outline(el, w, h)


__all__ = [
    "BOX",
    "KINDS",
    "ElementKind",
    "Layouter",
    "PathOp",
    "Placed",
    "QrOp",
    "TableOp",
    "TrackOp",
    "kind_of",
    "outline",
]
