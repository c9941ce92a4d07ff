"""Issue 30, item 3: card sizes by their real names.

The five names pnp has always had keep their sizes (PRODUCT.md: poker 63 x 88), so no pack
changes size; the sizes shops print are there by their own names, each with its millimetres,
and a size may be written in inches.
"""

from __future__ import annotations

import pytest

from pnp.content.model import SizeSpec
from pnp.content.schema import INVALID, Context
from pnp.core.findings import Pos, Report
from pnp.core.units import CARD_SIZES, Size


def test_existing_names_keep_their_sizes() -> None:
    assert CARD_SIZES["poker"] == Size(63.0, 88.0)
    assert CARD_SIZES["bridge"] == Size(57.0, 89.0)
    assert CARD_SIZES["mini"] == Size(44.0, 63.0)
    assert CARD_SIZES["tarot"] == Size(70.0, 120.0)
    assert CARD_SIZES["square"] == Size(70.0, 70.0)


@pytest.mark.parametrize(
    ("name", "w", "h"),
    [
        ("poker-us", 63.5, 88.9),  # 2.5 x 3.5 in
        ("euro-poker", 63.0, 88.0),  # 63 x 88 mm as its own name
        ("bridge-us", 57.15, 88.9),
        ("tarot-us", 69.85, 120.65),
        ("mini-us", 44.45, 63.5),
        ("square-us", 88.9, 88.9),
    ],
)
def test_shop_sizes_by_name(name: str, w: float, h: float) -> None:
    assert CARD_SIZES[name] == Size(w, h)


def _read(value: object) -> object:
    ctx = Context(Report())
    return SizeSpec.from_yaml(value, Pos("game.yaml", 1, 1), ctx)


def test_sizes_in_inches_and_millimetres() -> None:
    assert _read("2.5x3.5in") == Size(63.5, 88.9)
    assert _read("63 x 88 mm") == Size(63.0, 88.0)
    assert _read("2.5 x 3.5 in") == Size(63.5, 88.9)
    assert _read("1x78.75in") is INVALID  # past 2000 mm
    assert _read("2.5x3.5 furlongs") is INVALID


def test_preset_names_are_written_in_lower_case() -> None:
    report = Report()
    assert SizeSpec.from_yaml("Poker-US", Pos("game.yaml", 1, 1), Context(report)) is INVALID
    assert "write it in lower case, 'poker-us'" in report.findings[0].message
