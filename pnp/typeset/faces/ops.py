"""Operations: what drawing a face takes, as plain data (millimetres from the face's top-left).

The face engine computes them; the render stage draws them in order. A filled text box is a
:class:`Group` of its fill and its text, which :func:`flatten` opens.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..text import Fit


@dataclass
class FillOp:
    box: tuple[float, float, float, float]  # mm, from the face's top-left
    color: str
    radius: float = 0.0
    bleed: float = 0.0  # grow by the bleed (backgrounds)
    rotate: float = 0.0  # degrees clockwise about the box's centre (every op with a box)


@dataclass
class StrokeOp:
    box: tuple[float, float, float, float]
    color: str
    width: float
    radius: float = 0.0
    rotate: float = 0.0


@dataclass
class ImageOp:
    box: tuple[float, float, float, float]
    path: Path
    bleed: float = 0.0
    width_px: int = 0
    height_px: int = 0
    art_bleed: float = 0.0  # mm of bleed already in the image
    rotate: float = 0.0


@dataclass
class TextOp:
    box: tuple[float, float, float, float]
    fit: Fit
    valign: str
    padding: float
    fallback: bool = False  # printed in the source language for lack of a translation
    rotate: float = 0.0


@dataclass
class TrackOp:
    """A track: a row (or column, counting upwards) of numbered cells."""

    box: tuple[float, float, float, float]
    labels: list[str]
    vertical: bool
    font: str  # face: regular, bold...
    size: float
    color: str
    fill: str | None
    stroke: str | None  # None: cells without outlines
    rotate: float = 0.0


@dataclass
class TableOp:
    """A table drawn inside a box, at the largest font size that fits."""

    box: tuple[float, float, float, float]
    header: list[str]
    rows: list[list[str]]
    size: float
    color: str
    stroke: str | None  # None: no grid
    rotate: float = 0.0


@dataclass
class PathOp:
    """A line (two points) or a polygon (closed), its points already turned as drawn."""

    points: tuple[tuple[float, float], ...]  # mm, from the face's top-left
    closed: bool
    fill: str | None
    stroke: str | None
    width: float  # of the stroke, mm


Op = FillOp | StrokeOp | ImageOp | TextOp | TrackOp | TableOp | PathOp


@dataclass
class Group:
    """Operations that belong together: a filled text box's fill and its text."""

    ops: list[Op]


def flatten(ops: list[Any]) -> list[Op]:
    """The operations with every group opened, in drawing order."""
    out: list[Op] = []
    for op in ops:
        if isinstance(op, Group):
            out.extend(op.ops)
        else:
            out.append(op)
    return out
