"""Units, paper sizes and card presets: the one place where millimetres become points.

Content and layout work in millimetres (floats). Only the render stage converts, through
:func:`pt`. Keep every other module free of 72/25.4.
"""

from __future__ import annotations

from dataclasses import dataclass

MM_PER_INCH = 25.4
PT_PER_INCH = 72.0
PT_PER_MM = PT_PER_INCH / MM_PER_INCH


def pt(mm: float) -> float:
    """Millimetres to PDF points."""
    return mm * PT_PER_MM


def mm(points: float) -> float:
    """PDF points to millimetres."""
    return points / PT_PER_MM


def px(mm_value: float, dpi: float) -> int:
    """Millimetres to whole pixels at a resolution."""
    return max(1, round(mm_value / MM_PER_INCH * dpi))


@dataclass(frozen=True, slots=True)
class Size:
    """A width x height in millimetres."""

    w: float
    h: float

    def landscape(self) -> Size:
        return Size(max(self.w, self.h), min(self.w, self.h))

    def portrait(self) -> Size:
        return Size(min(self.w, self.h), max(self.w, self.h))

    def __str__(self) -> str:
        return f"{self.w:g}x{self.h:g} mm"


PAPERS: dict[str, Size] = {
    "a4": Size(210.0, 297.0),
    "letter": Size(215.9, 279.4),
    "a3": Size(297.0, 420.0),
}


def inches(w: float, h: float) -> Size:
    """A size given in inches, in millimetres."""
    return Size(round(w * MM_PER_INCH, 4), round(h * MM_PER_INCH, 4))


# Card presets. The first five are the names pnp has always given (PRODUCT.md: poker 63 x 88);
# they keep their sizes, so no pack changes size. The others name the sizes shops print by
# what they are: the US inch sizes, and 63 x 88 mm under a name of its own (docs/format.md).
CARD_SIZES: dict[str, Size] = {
    "poker": Size(63.0, 88.0),
    "bridge": Size(57.0, 89.0),
    "mini": Size(44.0, 63.0),
    "tarot": Size(70.0, 120.0),
    "square": Size(70.0, 70.0),
    "euro-poker": Size(63.0, 88.0),  # the poker card of European decks and MtG-style games
    "poker-us": inches(2.5, 3.5),  # 63.5 x 88.9: the poker card of US shops
    "bridge-us": inches(2.25, 3.5),  # 57.15 x 88.9
    "tarot-us": inches(2.75, 4.75),  # 69.85 x 120.65
    "mini-us": inches(1.75, 2.5),  # 44.45 x 63.5
    "mini-euro": Size(44.0, 68.0),
    "square-us": inches(3.5, 3.5),  # 88.9 x 88.9
    "jumbo": inches(3.5, 5.5),  # 88.9 x 139.7
}
