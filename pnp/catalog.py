"""Gettext catalogs of a game: reading translations (writing comes with `pnp i18n`)."""

from __future__ import annotations

from .findings import Report
from .load import Root
from .model import Game


def read_translations(root: Root, game: Game, report: Report) -> dict[str, dict[str, str]]:
    return {}
