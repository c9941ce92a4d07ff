"""Scenarios on the setup sheet: each scenario's set-up as a numbered checklist.

What to take out of the box, in order: boards and their side, tracks to set, the decks to
build (cards to keep, set aside, remove, order, shuffle, draw by player count), then the
scenario's special rules, victory and defeat.
"""

from __future__ import annotations

from typing import Any

from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Spacer
from reportlab.platypus.flowables import Flowable

from ...content.queries import draw_count, player_range
from ...typeset.layout import Paragraph  # reportlab's, or pnp's layout for shaped/RTL text
from .base import RendererBase


class ScenarioSteps(RendererBase):
    """The renderer's part that writes scenarios as checklists."""

    def scenario(
        self, sc: Any, h2: ParagraphStyle, body: ParagraphStyle, small: ParagraphStyle
    ) -> list[Flowable]:
        """A scenario's set-up as a checklist: what to take out of the box, in order."""
        t = self.translator.text
        game = self.game
        out: list[Flowable] = [Spacer(1, 8)]
        name = t(sc.name) if sc.name else sc.id
        if sc.extends and sc.extends in game.scenarios:
            parent = game.scenarios[sc.extends]
            base = t(parent.name) if parent.name else parent.id
            name = self.w("{name} (variant of {base})").format(name=name, base=base)
        out.append(Paragraph(self.para(name, "bold", 12), h2))
        lo, hi = player_range(game, sc)
        if lo != hi:
            facts = [self.w("{lo}-{hi} player", hi).format(lo=lo, hi=hi)]
        else:
            facts = [self.w("{n} player", lo).format(n=lo)]
        if sc.difficulty:
            facts.append(t(sc.difficulty))
        out.append(Paragraph(self.para(" · ".join(facts), "italic", 9), body))
        if sc.story:
            out.extend(self.paragraphs(t(sc.story), small))
        steps: list[str] = []
        for ref in sc.boards:
            board = game.boards.get(ref.board)
            bname = (
                t(board.name or board.title) if board and (board.name or board.title) else ref.board
            )
            side = {"front": "A", "back": "B"}.get(ref.side, ref.side)
            where = f" — {t(ref.where)}" if ref.where else ""
            if board is not None and board.back is None:
                place = self.w("Place {board}").format(board=bname)
            else:
                place = self.w("Place {board}, side {side} up").format(board=bname, side=side)
            steps.append(place + where)
        for track_id, value in sc.start.items():
            track = game.tracks.get(track_id)
            tname = t(track.name) if track and track.name else track_id
            steps.append(self.w("Set {track} to {value}").format(track=tname, value=value))
        if sc.setup:
            steps.append(t(sc.setup))
        for step in sc.cards:
            steps.append(self.deck_step(step, lo, hi))
        for i, text in enumerate(steps, 1):
            out.append(Paragraph(self.para(f"{i}. {text}", "regular", 9.5), body))
        for label, text in (
            (self.w("Special rules"), sc.rules),
            (self.w("Victory"), sc.victory),
            (self.w("Defeat"), sc.defeat),
        ):
            if text:
                out.extend(self.paragraphs(f"**{label}:** {t(text)}", body))
        return out

    def deck_step(self, step: Any, lo: int, hi: int) -> str:
        """One deck of a scenario: which cards to keep, set aside, order, shuffle and draw."""
        t = self.translator.text
        game = self.game
        deck = game.decks.get(step.deck) or game.tokens.get(step.deck)
        dname = t(deck.name) if deck is not None and deck.name else step.deck

        def names(refs: list[Any]) -> str:
            out = []
            for ref in refs:
                card = game.card(ref.card)
                label = t(card.title) if card is not None and card.title else ref.card
                out.append(f"{label} ×{ref.copies}" if ref.copies > 1 else label)
            return ", ".join(out)

        parts = []
        if step.only is not None:
            parts.append(
                self.w("keep only the cards marked {mark}").format(mark=self._filter(step.only))
            )
        if step.exclude is not None:
            parts.append(
                self.w("set aside the cards marked {mark}").format(mark=self._filter(step.exclude))
            )
        if step.remove:
            parts.append(self.w("remove {cards}").format(cards=names(step.remove)))
        if step.order:
            parts.append(self.w("use, in this order: {cards}").format(cards=names(step.order)))
        if step.shuffle and not step.order:
            parts.append(self.w("shuffle"))
        if step.draw is not None:
            counts = {p: draw_count(step, p) for p in range(lo, hi + 1)}
            values = set(counts.values())
            if len(values) == 1:
                parts.append(self.w("draw {n} at random").format(n=values.pop()))
            else:
                per = ", ".join(f"{p}: {n}" for p, n in counts.items())
                parts.append(self.w("draw at random by players ({per})").format(per=per))
        if step.top:
            parts.append(self.w("put on top: {cards}").format(cards=names(step.top)))
        if step.bottom:
            parts.append(self.w("put at the bottom: {cards}").format(cards=names(step.bottom)))
        text = f"**{dname}:** " + "; ".join(parts)
        if step.note:
            text += f" — {t(step.note)}"
        return text

    def _filter(self, flt: Any) -> str:
        """How the cards a filter picks are marked: their tag and values."""
        parts = [f"“{flt.tag}”"] if flt.tag else []
        parts.extend(f"{k} = {v}" for k, v in flt.values.items())
        return ", ".join(parts)
