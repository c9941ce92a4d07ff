"""Scenarios on the setup sheet: each scenario's set-up as a numbered checklist.

What to take out of the box, in order: boards and their side, tracks to set, the decks to
build (cards to keep, set aside, remove, order, shuffle, draw, deal to each player, turn face
up, split into piles, by player count and difficulty where they vary), then the scenario's
special rules, victory and defeat.
"""

from __future__ import annotations

from typing import Any

from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus.flowables import Flowable

from ...content.queries import draw_count, player_range, step_count
from ...typeset.layout import Paragraph  # reportlab's, or pnp's layout for shaped/RTL text
from .context import RenderContext
from .flow import Together

STEP_PT, STEP_LEADING = 8.5, 10.2  # points: the checklists, set in two columns
REFER_CHARS = 80  # a rule, victory or defeat this long is printed once, then referred to


# a step's counts after its draw, in the order they are done: the word for one number and the
# word for numbers that vary by player count or difficulty
COUNTED = (
    ("deal", "deal {n} to each player", "deal to each player ({per})"),
    ("reveal", "turn {n} face up", "turn face up ({per})"),
    ("piles", "split into {n} pile", "split into piles ({per})"),
)


class ScenarioSteps:
    """Writes scenarios as checklists, each long text once (then referred to): make one for
    each setup sheet."""

    def __init__(self, ctx: RenderContext) -> None:
        self.ctx = ctx
        self._said: dict[str, str] = {}  # long texts printed, and the scenario that printed each

    def scenario(
        self, sc: Any, h2: ParagraphStyle, body: ParagraphStyle, small: ParagraphStyle
    ) -> list[Flowable]:
        """A scenario's set-up as a checklist: what to take out of the box, in order."""
        t = self.ctx.translator.text
        game = self.ctx.game
        text = ParagraphStyle("sc", parent=body, fontSize=STEP_PT, leading=STEP_LEADING)
        head = ParagraphStyle("sc-h", parent=h2, fontSize=10.5, leading=13, spaceBefore=5)
        head.spaceAfter = 1
        name = t(sc.name) if sc.name else sc.id
        out: list[Flowable] = [Paragraph(self.ctx.para(name, "bold", 10.5), head)]
        lo, hi = player_range(game, sc)
        if lo != hi:
            facts = [self.ctx.w("{lo}-{hi} player", hi).format(lo=lo, hi=hi)]
        else:
            facts = [self.ctx.w("{n} player", lo).format(n=lo)]
        if sc.difficulty:
            facts.append(t(sc.difficulty))
        parent = game.scenarios.get(sc.extends) if sc.extends else None
        base = ""
        if parent is not None:
            base = t(parent.name) if parent.name else parent.id
            facts.append(self.ctx.w("variant of {base}").format(base=base))
        out.append(Paragraph(self.ctx.para(" · ".join(facts), "italic", STEP_PT), text))
        out = [Together(out)]  # the heading never alone at the bottom of a column
        if sc.story:
            out.extend(self.ctx.paragraphs(t(sc.story), small))
        steps = self._steps(sc, lo, hi)
        if parent is not None:  # a variant lists what it changes
            same = set(self._steps(parent, *player_range(game, parent)))
            changed = [s for s in steps if s not in same]
            if len(changed) < len(steps):
                steps = [*changed, self.ctx.w("Other steps: as in {base}.").format(base=base)]
        step_style = ParagraphStyle("step", parent=text, spaceAfter=0.5)
        for i, step in enumerate(steps, 1):
            out.append(Paragraph(self.ctx.para(f"{i}. {step}", "regular", STEP_PT), step_style))
        for label, said in (
            (self.ctx.w("Special rules"), sc.rules),
            (self.ctx.w("Victory"), sc.victory),
            (self.ctx.w("Defeat"), sc.defeat),
        ):
            if said:
                out.extend(
                    self.ctx.paragraphs(
                        f"**{self.ctx.colon(label)}** {self._once(t(said), name)}", text
                    )
                )
        return out

    def _once(self, said: str, name: str) -> str:
        """A long text printed once: again, it refers to the scenario that printed it first."""
        first = self._said.setdefault(said, name)
        if first == name or len(said) < REFER_CHARS:
            return said
        return self.ctx.w("as in {scenario}").format(scenario=first)

    def _steps(self, sc: Any, lo: int, hi: int) -> list[str]:
        """A scenario's numbered steps: boards, tracks, its own set-up text, decks."""
        steps = [*self._board_steps(sc), *self._track_steps(sc)]
        if sc.setup:
            steps.append(self.ctx.translator.text(sc.setup))
        steps.extend(self._deck_steps(sc, lo, hi))
        return steps

    def _board_steps(self, sc: Any) -> list[str]:
        """One step for each run of boards placed alike (the same side, the same where):
        "Place A, B, C, side A up — Top row: choose 3 of these 4"."""
        t = self.ctx.translator.text
        game = self.ctx.game
        runs: list[tuple[tuple[str, str, bool], list[str]]] = []
        for ref in sc.boards:
            board = game.boards.get(ref.board)
            named = board.name or board.title if board is not None else None
            bname = t(named) if named else ref.board
            side = {"front": "A", "back": "B"}.get(ref.side, ref.side)
            where = t(ref.where) if ref.where else ""
            key = (side, where, board is not None and board.back is None)
            if runs and runs[-1][0] == key:
                runs[-1][1].append(bname)
            else:
                runs.append((key, [bname]))
        steps = []
        for (side, where, one_sided), names in runs:
            boards = ", ".join(names)
            if one_sided:
                place = self.ctx.w("Place {board}").format(board=boards)
            else:
                place = self.ctx.w("Place {board}, side {side} up").format(board=boards, side=side)
            steps.append(place + (f" — {where}" if where else ""))
        return steps

    def _track_steps(self, sc: Any) -> list[str]:
        """The tracks' starting spaces, in one step: "Set BF to 1" for one track,
        "Starting values: BF 1, INS 2" for several."""
        t = self.ctx.translator.text
        parts = []
        for track_id, value in sc.start.items():
            track = self.ctx.game.tracks.get(track_id)
            parts.append((t(track.name) if track and track.name else track_id, value))
        if len(parts) == 1:
            ((name, value),) = parts
            return [self.ctx.w("Set {track} to {value}").format(track=name, value=value)]
        listed = ", ".join(f"{name} {value}" for name, value in parts)
        return [self.ctx.w("Starting values: {tracks}").format(tracks=listed)] if parts else []

    def _deck_steps(self, sc: Any, lo: int, hi: int) -> list[str]:
        """One step for each deck, decks prepared alike in one step ("**A, B:** shuffle")."""
        groups: list[tuple[str, list[str]]] = []
        for step in sc.cards:
            name, what = self.deck_step(step, lo, hi, sc)
            for known, names in groups:
                if known == what:
                    names.append(name)
                    break
            else:
                groups.append((what, [name]))
        return [f"**{self.ctx.colon(', '.join(names))}** {what}" for what, names in groups]

    def _draw(self, sc: Any, step: Any, lo: int, hi: int) -> str:
        """A step's draw: one number, by player count, or as the difficulty sets it."""
        counts = {p: draw_count(step, p) for p in range(lo, hi + 1)}
        values = set(counts.values())
        if len(values) == 1 and isinstance(one := next(iter(values)), int):
            return self.ctx.w("draw {n} at random").format(n=one)
        if all(isinstance(n, int) for n in values):
            per = ", ".join(f"{p}: {n}" for p, n in counts.items())
            return self.ctx.w("draw at random by players ({per})").format(per=per)
        _n, per = self._count(sc, step.draw, "draw", lo, hi)
        return self.ctx.w("draw at random ({per})").format(per=per)

    def _count(self, sc: Any, value: Any, what: str, lo: int, hi: int) -> tuple[int | None, str]:
        """A step's count: the one number of every player count and difficulty (and ""), or
        None and the list of them: "2 players: 4, 3 players: 3", "Heroic: 6" or both."""
        t = self.ctx.translator.text
        levels = list(sc.difficulties.values()) or [None]
        counts = range(lo, hi + 1)
        got = {
            (i, p): step_count(value, p, level.values if level else None, what=what)
            for i, level in enumerate(levels)
            for p in counts
        }
        shown = {k: str(v) if isinstance(v, int) else "?" for k, v in got.items()}
        if len(set(got.values())) == 1 and isinstance(first := got[0, lo], int):
            return first, ""

        def players(p: int) -> str:
            return self.ctx.w("{n} player", p).format(n=p)

        def level(i: int) -> str:
            found = levels[i]
            return (t(found.name) if found.name else found.id) if found is not None else ""

        if all(len({shown[i, p] for p in counts}) == 1 for i in range(len(levels))):
            return None, ", ".join(
                f"{self.ctx.colon(level(i))} {shown[i, lo]}" for i in range(len(levels))
            )
        if all(len({shown[i, p] for i in range(len(levels))}) == 1 for p in counts):
            return None, ", ".join(f"{self.ctx.colon(players(p))} {shown[0, p]}" for p in counts)
        return None, "; ".join(
            f"{self.ctx.colon(level(i))} "
            + ", ".join(f"{players(p)} {shown[i, p]}" for p in counts)
            for i in range(len(levels))
        )

    def deck_step(self, step: Any, lo: int, hi: int, sc: Any) -> tuple[str, str]:
        """One deck of a scenario: its name, and which cards to keep, set aside, order,
        shuffle and draw."""
        t = self.ctx.translator.text
        game = self.ctx.game
        deck = game.decks.get(step.deck) or game.tokens.get(step.deck)
        dname = t(deck.name) if deck is not None and deck.name else step.deck

        own = {c.id: c for c in deck.cards} if deck is not None else {}  # a token set's too

        def names(refs: list[Any]) -> str:
            out = []
            for ref in refs:
                card = own.get(ref.card) or game.card(ref.card)
                label = t(card.title) if card is not None and card.title else ref.card
                out.append(f"{label} ×{ref.copies}" if ref.copies > 1 else label)
            return ", ".join(out)

        parts = []
        if step.only is not None:
            parts.append(
                self.ctx.w("keep only the cards marked {mark}").format(mark=self._filter(step.only))
            )
        if step.exclude is not None:
            parts.append(
                self.ctx.w("set aside the cards marked {mark}").format(
                    mark=self._filter(step.exclude)
                )
            )
        if step.remove:
            parts.append(self.ctx.w("remove {cards}").format(cards=names(step.remove)))
        if step.order:
            parts.append(self.ctx.w("use, in this order: {cards}").format(cards=names(step.order)))
        if step.shuffle and not step.order:
            parts.append(self.ctx.w("shuffle"))
        if step.draw is not None:
            parts.append(self._draw(sc, step, lo, hi))
        if step.top:
            parts.append(self.ctx.w("put on top: {cards}").format(cards=names(step.top)))
        if step.bottom:
            parts.append(self.ctx.w("put at the bottom: {cards}").format(cards=names(step.bottom)))
        for what, one, varying in COUNTED:
            value = getattr(step, what)
            if value is not None:
                n, per = self._count(sc, value, what, lo, hi)
                word = self.ctx.w(one, n) if n is not None else self.ctx.w(varying)
                parts.append(word.format(n=n, per=per))
                if what == "deal" and step.rounds > 1:
                    word = self.ctx.w("again at the start of each of the {n} round", step.rounds)
                    parts.append(word.format(n=step.rounds))
        if step.each_pile is not None:
            mark = self._filter(step.each_pile)
            parts.append(
                self.ctx.w("shuffle one card marked {mark} into each pile").format(mark=mark)
            )
        text = self.ctx.semicolons(parts)
        if step.note:
            text += f" — {t(step.note)}" if text else t(step.note)
        return dname, text

    def _filter(self, flt: Any) -> str:
        """How the cards a filter picks are marked: its ``mark:`` in the build language, else
        its tag and values as written (rule untranslatable-text reports those)."""
        if flt.mark is not None:
            return str(self.ctx.translator.text(flt.mark))
        parts = [f"“{flt.tag}”"] if flt.tag else []
        parts.extend(f"{k} = {v}" for k, v in flt.values.items())
        return ", ".join(parts)
