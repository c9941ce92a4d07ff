"""Text issues: a problem with one text of one face in one language, and which face it is on."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...core.findings import Pos, Report


@dataclass
class TextIssue:
    """A problem with one text of one face in one language."""

    rule: str  # a rule id of pnp.core.rules
    pos: Pos
    message: str
    lang: str = ""
    face: str = ""  # face_id() of the face it is on ("" for the setup sheet)
    structural: bool = False  # validation's structure checks report it too (with suggestions)
    chars: str = ""  # missing-glyph: the characters no font has
    # what it breaks and what it needs (pnp.core.causes): a card's field a template prints
    subject: tuple[str, ...] = ()
    needs: tuple[str, ...] = ()

    def report_to(self, report: Report, game: str) -> None:
        report.add(
            self.rule,
            self.pos,
            self.message,
            game=game,
            lang=self.lang,
            face=self.face,
            subject=self.subject,
            needs=self.needs,
        )


def face_id(owner: Any, card: Any, face: Any, side: str) -> str:
    """Which face an issue is on, as the preview names faces: ``owner/card/side``, with no card
    for the one back a deck's cards share."""
    shared = side == "back" and getattr(card, "back", None) is None and face is not card
    return f"{owner.id}/{'' if shared else card.id}/{side}"
