"""The checks' common ground: the registry of checks and the context they report through.

A check is a function ``(game, ctx) -> None`` decorated with :func:`check`, in one module per
theme; it reports through ``ctx.add(rule_id, pos, message)`` with a rule id of
pnp/core/rules.py.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..content.model import Game
from ..core.findings import Pos, Report

if TYPE_CHECKING:
    from ..i18n.catalog import LangCatalog

CheckFn = Callable[[Game, "CheckContext"], None]
CHECKS: list[CheckFn] = []


def check(fn: CheckFn) -> CheckFn:
    CHECKS.append(fn)
    return fn


def check_first(fn: CheckFn) -> CheckFn:
    """A check that runs before the others: one that starts work in other processes
    (``ctx.later``), which goes on while the other checks run here."""
    CHECKS.insert(0, fn)
    return fn


@dataclass
class CheckContext:
    report: Report
    root: Path
    game_dir: Path
    catalogs: dict[str, LangCatalog] = field(default_factory=dict)  # lang -> its PO catalog
    game_id: str = ""
    fit_languages: list[str] | None = None  # None: all; []: none (deferred to the workers)
    jobs: int = 0  # processes for fitting texts (0: as many as there are cores, for large games)
    later: list[Callable[[], None]] = field(default_factory=list)  # run after every check
    # lang -> the characters of its texts no font has, reported once per script (scripts.py):
    # the texts that hold them are not reported one by one too
    uncovered: dict[str, set[str]] = field(default_factory=dict)

    def finish(self) -> None:
        """Gather what checks left running in other processes (:func:`check_first`)."""
        while self.later:
            self.later.pop(0)()

    def add(
        self,
        rule_id: str,
        pos: Pos,
        message: str,
        lang: str = "",
        *,
        subject: tuple[str, ...] = (),
        needs: tuple[str, ...] = (),
    ) -> None:
        """A finding; ``lang``: the one language it concerns (a translation's problem stops
        only that language's PDFs); ``subject``: what it reports broken, ``needs``: what, when
        another finding reports it broken, caused this one (pnp.core.causes)."""
        self.report.add(
            rule_id, pos, message, game=self.game_id, lang=lang, subject=subject, needs=needs
        )


# the section of the content that names each kind of thing a reference names
SECTIONS = {
    "layout": "layouts",
    "board": "boards",
    "deck": "decks",
    "token set": "tokens",
    "table": "tables",
    "track": "tracks",
    "scenario": "scenarios",
}


def needs_thing(kind: str, name: str) -> tuple[str, ...]:
    """What a reference to ``name`` (a layout, board, card...) needs: the thing's own entry,
    which a broken file or value may have dropped."""
    if kind in ("card", "token"):
        return (f"decks/*/cards/{name}", f"tokens/*/tokens/{name}")
    section = SECTIONS.get(kind, kind)
    return (f"{section}/{name}",)


def needs_copies(section: str, name: str) -> tuple[str, ...]:
    """What a count of a deck's (or token set's) copies needs: every item and its copies."""
    items = "cards" if section == "decks" else "tokens"
    return (f"{section}/{name}/{items}/*/copies",)
