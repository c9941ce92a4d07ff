"""What converting YAML into the model carries along: the report, where in the game it is (the
logical path, ``decks/roles/cards/boss/copies``), and the texts it made.

A problem found on the way is a finding that says what it breaks: the value at the logical path
(and, inside a required key, the object that is dropped with it), so that what follows from it
(a count, a reference, a missing text) is folded under it (pnp.core.causes).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..core.findings import Pos, Report
from ..core.rules import SCHEMA, UNKNOWN_KEY


@dataclass
class Context:
    report: Report
    game: str = ""
    path: list[str] = field(default_factory=list)  # logical path, e.g. decks/roles/boss
    hooks: list[Callable[[Any, Context], None]] = field(default_factory=list)
    texts: list[Any] = field(default_factory=list)  # every Text created, for post-processing
    # the object dropped when the value being converted is refused (a required key's owner)
    dropping: str | None = None

    def error(self, pos: Pos, message: str, needs: tuple[str, ...] = ()) -> None:
        """A schema error at ``pos``: it breaks the value here (and the object a refused
        required value drops); ``needs``: what, if broken, caused it."""
        subject = tuple(p for p in (self.where, self.dropping) if p)
        line = (f"lines/{pos.path}:{pos.line}",)  # a value YAML read as empty on this line
        self.report.add(
            SCHEMA, pos, message, game=self.game, subject=subject, needs=(*needs, *line)
        )

    def warn_unknown(self, pos: Pos, message: str, meant: str | None = None) -> None:
        """An unknown key; ``meant``: the key it stands for (which is then missing), or the
        key itself (which a template may ask for)."""
        subject = ("/".join([*self.path, meant]),) if meant else ()
        self.report.add(UNKNOWN_KEY, pos, message, game=self.game, subject=subject)

    @property
    def where(self) -> str:
        return "/".join(self.path)
