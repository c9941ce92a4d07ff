"""Dealing a scenario's set-up from the box, step by step, as a player would.

Each deck (or token set) that a scenario's card steps name has a *pool*, the box's cards not
yet used, and a *deck*, the cards laid out face down, top first. A step works in this order:

1. its filters pick the cards it works on (a step with a filter alone sets the other cards
   aside for the whole game);
2. ``remove`` takes named cards out of the game;
3. ``order`` puts exactly the named cards in the deck, in order; ``draw`` draws that many at
   random into the deck (shuffled into it, unless ``shuffle: false``);
4. ``top`` and ``bottom`` name cards for the top and the bottom of the deck;
5. ``deal`` deals that many cards to each player from the top of the deck, ``reveal`` turns that
   many face up, ``piles`` splits the deck into piles, and ``each_pile`` shuffles one card
   matching it, from the pool, into each pile; the piles are stacked again, larger ones on top.
   When no earlier step drew cards into the deck, the deck is first made of every card the
   step picked.

A deck no step drew, dealt or split is, at the end, every card its pool has left (shuffled
unless a step says ``shuffle: false``), with its named cards in place; a deck that cards were
drawn into leaves the rest of its pool in the box.

What cannot be done is a :class:`Problem` at the step's key; the engine then does what it can
(draws what is left) and goes on, so one run finds every step that fails.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ...content.model import Card, Deck, DeckStep, Difficulty, Filter, Game, Scenario, TokenSet
from ...content.queries import step_count
from ...core.english import counted
from ...core.findings import Pos
from ...core.rules import SCENARIO_DECK, SETUP_DEAL
from .law import Law


@dataclass
class Zone:
    """Cards laid out together: a hand, a face-up row, a pile, a deck, or cards put away."""

    kind: str  # aside, removed, hand, row, pile, deck
    owner: str  # the deck or token set
    step: int  # the card step that laid it out (its index in the scenario)
    cards: list[str]  # top first
    law: Law | None = None  # what it may hold, when that can be said exactly
    index: int = 0  # the player of a hand, the number of a pile (from 1)
    extra: str | None = None  # a pile's card shuffled in (each_pile)

    @property
    def key(self) -> tuple[int, str, str, int]:
        """The same zone in every deal of the same set-up."""
        return (self.step, self.kind, self.owner, self.index)


@dataclass
class Problem:
    """A step that cannot be done with this player count and difficulty."""

    rule: str
    pos: Pos
    what: str  # what kind of failure (one finding per step and kind)
    message: str
    short: int = 0  # how many cards are missing: the worst setting is reported
    # the player count and difficulty, when the message depends on them
    setting: tuple[int, str] | None = None


@dataclass
class _Deck:
    """A deck's state during the set-up."""

    pool: Counter[str]
    unsure: set[str] = field(default_factory=set)  # cards a random draw may have taken
    cards: list[str] | None = None  # the deck laid out, top first (None: not built yet)
    law: Law | None = None  # the law of the deck's shuffled part (see top, bottom)
    top: int = 0  # cards at the top put there by name
    bottom: int = 0  # cards at the bottom put there by name
    named_top: list[str] = field(default_factory=list)  # named for the top, not yet placed
    named_bottom: list[str] = field(default_factory=list)
    shuffle: bool = True  # no step on it says shuffle: false
    piles: int = 0  # the piles it was last split into (stacked again)
    picked: bool = False  # the deck is the cards a dealing step picked (none drawn into it)

    def sure(self, cards: Counter[str]) -> bool:
        """Whether the pool's copies of ``cards`` are known (no random draw could take one)."""
        return not self.unsure.intersection(cards)


@dataclass
class Dealt:
    """One set-up of a scenario: its zones in the order they were laid out, and its problems."""

    scenario: Scenario | None
    players: int
    difficulty: Difficulty | None
    zones: list[Zone] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def matches(card: Card, flt: Filter) -> bool:
    if flt.tag is not None and flt.tag not in card.tags:
        return False
    if flt.card is not None and card.id != flt.card:
        return False
    return all(card.values.get(k) == v for k, v in flt.values.items())


def refs_ok(step: DeckStep, owner: Deck | TokenSet) -> bool:
    """Whether every card the step names is in its deck (the validator reports the others)."""
    ids = {c.id for c in owner.cards}
    named = [*step.remove, *step.order, *step.top, *step.bottom]
    return all(ref.card in ids for ref in named)


ACTS = ("remove", "order", "top", "bottom")
COUNTS = ("draw", "deal", "reveal", "piles")


def acts(step: DeckStep) -> bool:
    """Whether a step does anything but filter (a filter alone sets cards aside)."""
    return any(getattr(step, f) for f in ACTS) or any(getattr(step, f) is not None for f in COUNTS)


class Dealer:
    """Deals one scenario's card steps for one player count and difficulty."""

    def __init__(
        self,
        game: Game,
        scenario: Scenario,
        players: int,
        difficulty: Difficulty | None,
        rng: random.Random,
        cards: dict[str, Card] | None = None,
    ) -> None:
        self.game = game
        self.scenario = scenario
        self.players = players
        self.difficulty = difficulty
        self.values = dict(difficulty.values) if difficulty else {}
        self.rng = rng
        self.cards = cards if cards is not None else {c.id: c for _o, c in game.every_card()}
        self.decks: dict[str, _Deck] = {}
        self.out = Dealt(scenario, players, difficulty)

    # --- reporting ---------------------------------------------------------------------------

    def setting(self) -> str:
        """This deal's player count and difficulty, as messages name them."""
        said = f"with {self.players} player{'s' if self.players != 1 else ''}"
        if self.difficulty is not None:
            said += f" at difficulty {self.difficulty.id}"
        return said

    def problem(self, rule: str, pos: Pos, what: str, message: str, short: int = 0) -> None:
        setting = self.setting()
        self.out.problems.append(
            Problem(
                rule,
                pos,
                what,
                f"scenario {self.scenario.id}: {message}",
                short,
                (self.players, self.difficulty.id if self.difficulty else "")
                if setting in message
                else None,
            )
        )

    def count(self, step: DeckStep, name: str) -> int | None:
        """The step's ``name`` count in this setting; None (and a problem) when unreadable."""
        n = step_count(getattr(step, name), self.players, self.values, name)
        if isinstance(n, str):
            self.problem(SCENARIO_DECK, step.at(name), f"{name}-unreadable", n)
            return None
        if n < 0:
            self.problem(SCENARIO_DECK, step.at(name), f"{name}-negative", f"{name} {n}?")
            return None
        return n

    # --- the steps ---------------------------------------------------------------------------

    def run(self) -> Dealt:
        for index, step in enumerate(self.scenario.cards):
            owner = self.game.decks.get(step.deck) or self.game.tokens.get(step.deck)
            if owner is None or not refs_ok(step, owner):
                continue  # the validator reports the unknown names
            state = self.decks.get(owner.id)
            if state is None:
                state = self.decks[owner.id] = _Deck(Counter({c.id: c.copies for c in owner.cards}))
            state.shuffle = state.shuffle and step.shuffle
            self.step(index, step, owner.id, state)
        end = len(self.scenario.cards)
        for oid, state in self.decks.items():
            drawn = state.cards is not None
            if not drawn:  # no step drew or dealt: the deck is every card left
                self.materialise(state, +state.pool, state.shuffle)
            if state.cards:
                self.zone("deck", oid, end, state.cards, self.deck_law(state), state.piles)
            if drawn and +state.pool:
                back = +state.pool
                law = Law.known(back) if state.sure(back) else None
                self.zone("box", oid, end, _listed(back), law)
        return self.out

    def step(self, index: int, step: DeckStep, owner: str, state: _Deck) -> None:
        selection = self.select(step, owner, state)
        if selection is None:
            return
        if not acts(step):  # a filter alone: the others are set aside for the game
            aside = state.pool - selection
            if aside:
                self.zone("aside", owner, index, _listed(aside), Law.known(aside))
            state.pool = selection
            return
        removed = self.take_named(step, "remove", "remove", state, selection)
        if removed:
            self.zone("removed", owner, index, removed, Law.known(Counter(removed)))
        if step.order:
            ordered = self.take_named(step, "order", "use", state, selection)
            self.join(state, ordered, Law.known(Counter(ordered)), shuffle=False)
        self.draw(step, owner, state, selection)
        if step.draw is not None or step.order:
            state.picked = False  # cards drawn into it: later steps deal on from it
        state.named_top += self.take_named(step, "top", "put on top", state, selection)
        state.named_bottom += self.take_named(step, "bottom", "put at the bottom", state, selection)
        if any(getattr(step, f) is not None for f in ("deal", "reveal", "piles")):
            if state.cards is not None and state.picked and self.picks_anew(step):
                self.close(index, owner, state)  # what an earlier step picked stays as it is
            if state.cards is None:  # the step works on the cards it picked
                self.materialise(state, selection, step.shuffle)
                state.picked = True
            self.deal(index, step, owner, state)
            self.reveal(index, step, owner, state)
            self.split(index, step, owner, state)
        elif state.cards is not None:
            self.place_named(state)

    @staticmethod
    def picks_anew(step: DeckStep) -> bool:
        """Whether a dealing step makes its own deck of the cards its filter picks from the box,
        beside the deck an earlier step picked (7 Copper each, then 3 Estates each), rather than
        dealing on from that deck."""
        return (step.only is not None or step.exclude is not None) and not (
            step.draw is not None or step.order
        )

    def close(self, index: int, owner: str, state: _Deck) -> None:
        """The deck an earlier step picked is laid down as it is; the next step starts anew."""
        if state.cards:
            self.zone("deck", owner, index, state.cards, self.deck_law(state), state.piles)
        state.cards, state.law, state.picked = None, None, False
        state.top = state.bottom = state.piles = 0

    def materialise(self, state: _Deck, cards: Counter[str], shuffle: bool) -> None:
        """The deck becomes ``cards`` (taken from the pool), with the named cards in place."""
        law = Law.known(cards) if state.sure(cards) else None
        state.pool -= cards
        self.join(state, _listed(cards), law, shuffle)
        cards.clear()
        self.place_named(state)

    def place_named(self, state: _Deck) -> None:
        """The cards named for the top and the bottom go there."""
        top, bottom = state.named_top, state.named_bottom
        if not top and not bottom:
            return
        state.cards = [*top, *(state.cards or []), *bottom]
        state.top += len(top)
        state.bottom += len(bottom)
        state.named_top, state.named_bottom = [], []

    def select(self, step: DeckStep, owner: str, state: _Deck) -> Counter[str] | None:
        """The pool's cards the step's filters leave; None (a problem) when ``only`` leaves
        none."""
        selection = +state.pool
        for flt, keep in ((step.only, True), (step.exclude, False)):
            if flt is None:
                continue
            selection = Counter(
                {c: n for c, n in selection.items() if matches(self.cards[c], flt) == keep}
            )
            if keep and not selection:
                self.problem(
                    SCENARIO_DECK,
                    step.at("only"),
                    "only-empty",
                    f"no card of {owner} left matches {describe(flt)}",
                )
                return None
        return selection

    def take_named(
        self, step: DeckStep, field_name: str, verb: str, state: _Deck, selection: Counter[str]
    ) -> list[str]:
        """The cards a step names under ``field_name``, taken out of the selection and the
        pool (those with too few copies left are problems)."""
        taken: list[str] = []
        for ref in getattr(step, field_name):
            have = selection.get(ref.card, 0)
            if ref.copies > have:
                self.problem(
                    SCENARIO_DECK,
                    ref.pos,
                    f"{field_name}-copies",
                    f"{verb} {ref.card} x{ref.copies}, but {have} "
                    f"{'copy is' if have == 1 else 'copies are'} left in {step.deck}",
                    ref.copies - have,
                )
                continue
            selection[ref.card] -= ref.copies
            state.pool[ref.card] -= ref.copies
            taken.extend([ref.card] * ref.copies)
        return taken

    def draw(self, step: DeckStep, owner: str, state: _Deck, selection: Counter[str]) -> None:
        """Cards drawn at random from what the step picked join the deck."""
        if step.draw is None:
            return
        n = self.count(step, "draw")
        if n is None:
            return
        left = sum(selection.values())
        if n > left:
            self.problem(
                SCENARIO_DECK,
                step.at("draw"),
                "draw-short",
                f"{self.setting()} it draws {n} from {owner}, but only {left} matching "
                "cards are left",
                n - left,
            )
            n = left
        drawn = self.rng.sample(_listed(selection), n)
        law = Law.sample(n, selection) if state.sure(selection) else None
        for c in drawn:
            selection[c] -= 1
            state.pool[c] -= 1
        if 0 < n < left:
            state.unsure.update(selection)
        self.join(state, drawn, law, step.shuffle)

    def join(self, state: _Deck, cards: list[str], law: Law | None, shuffle: bool) -> None:
        """Cards join the deck: shuffled with it, or (``shuffle: false``) under it, in order."""
        before = state.cards or []
        if not shuffle:
            known = law is not None and law.n == 0 and state.top == len(before)
            state.cards = [*before, *cards]
            if known:  # every card's place is known
                state.law, state.top, state.bottom = Law(), len(state.cards), 0
            elif not before:
                state.law = law  # drawn at random, in the order drawn: a shuffled block
            else:
                state.law, state.top, state.bottom = None, 0, 0
            return
        old = self.deck_law(state) if before else Law()
        state.cards = [*before, *cards]
        self.rng.shuffle(state.cards)
        state.top = state.bottom = 0
        if law is None or old is None:
            state.law = None
        elif old.size == 0:
            state.law = law
        elif old.n == 0 and law.n == 0 and not old.extra:
            state.law = Law.known(old.fixed + law.fixed)
        else:
            state.law = None

    def deck_law(self, state: _Deck) -> Law | None:
        """The law of the whole deck (its named top and bottom cards included)."""
        cards = state.cards or []
        if state.top + state.bottom >= len(cards):
            return Law.known(Counter(cards))
        if state.law is None:
            return None
        named = Counter(cards[: state.top]) + Counter(cards[len(cards) - state.bottom :])
        return state.law.plus_known(named)

    def zone(
        self,
        kind: str,
        owner: str,
        index: int,
        cards: list[str],
        law: Law | None,
        number: int = 0,
        extra: str | None = None,
    ) -> None:
        self.out.zones.append(Zone(kind, owner, index, cards, law, number, extra))

    # --- from the top of the deck ------------------------------------------------------------

    def take_top(self, state: _Deck, k: int) -> tuple[list[str], Law | None]:
        """The top ``k`` cards of the deck, and their law; the deck keeps the rest."""
        cards = state.cards or []
        taken = cards[:k]
        named = min(k, state.top)
        middle = len(cards) - state.top - state.bottom
        from_middle = min(k - named, middle)
        law: Law | None = None
        if from_middle == 0:
            law = Law.known(Counter(taken))
        else:
            split = state.law.take(from_middle) if state.law is not None else None
            if split is not None:
                ends = Counter(taken[:named]) + Counter(taken[named + from_middle :])
                law, state.law = split[0].plus_known(ends), split[1]
            else:
                state.law = None
        state.bottom -= k - named - from_middle
        state.top -= named
        state.cards = cards[k:]
        return taken, law

    def hand_law(self, state: _Deck, places: range) -> Law | None:
        """The law of the cards at ``places`` (from the top) of the deck."""
        cards = state.cards or []
        end = len(cards) - state.bottom
        named = [i for i in places if i < state.top or i >= end]
        ends = Counter(cards[i] for i in named)
        mid = len(places) - len(named)
        if mid == 0:
            return Law.known(ends)
        split = state.law.take(mid) if state.law is not None else None
        return split[0].plus_known(ends) if split is not None else None

    def deal(self, index: int, step: DeckStep, owner: str, state: _Deck) -> None:
        if step.deal is None:
            return
        n = self.count(step, "deal")
        if n is None:
            return
        have, p, rounds = len(state.cards or []), self.players, step.rounds
        if n * p * rounds > have:
            self.problem(
                SETUP_DEAL,
                step.at("rounds" if rounds > 1 and n * p <= have else "deal"),
                "deal-short",
                f"{self.setting()} it deals {n} to each player ({counted(n * p, 'card')}"
                + (f" a round, {n * p * rounds} over {rounds} rounds" if rounds > 1 else "")
                + f") from {owner}, but the deck holds {have}: deal fewer, or give the deck "
                "more cards",
                n * p * rounds - have,
            )
            n = min(n, have // p)
        cards = state.cards or []
        hands = []
        for player in range(p):  # one card at a time, player after player
            places = range(player, n * p, p)
            hands.append(([cards[i] for i in places], self.hand_law(state, places)))
        self.take_top(state, n * p)
        for player, (hand, law) in enumerate(hands, 1):
            self.zone("hand", owner, index, hand, law, player)

    def reveal(self, index: int, step: DeckStep, owner: str, state: _Deck) -> None:
        if step.reveal is None:
            return
        n = self.count(step, "reveal")
        if n is None:
            return
        have = len(state.cards or [])
        if n > have:
            self.problem(
                SETUP_DEAL,
                step.at("reveal"),
                "reveal-short",
                f"{self.setting()} it turns {counted(n, 'card')} of {owner} face up, but the deck "
                "holds "
                f"{have}: turn fewer, or give the deck more cards",
                n - have,
            )
            n = have
        cards, law = self.take_top(state, n)
        self.zone("row", owner, index, cards, law)

    def split(self, index: int, step: DeckStep, owner: str, state: _Deck) -> None:
        if step.piles is None:
            return
        n = self.count(step, "piles")
        if n is None:
            return
        have = len(state.cards or [])
        if n < 1:
            self.problem(
                SETUP_DEAL,
                step.at("piles"),
                "piles-none",
                f"{self.setting()} it splits {owner} into {n} piles, but a deck splits into 1 "
                "pile or more: fix the count (or the difficulty's value it reads)",
                1 - n,
            )
            return
        if n > have:
            self.problem(
                SETUP_DEAL,
                step.at("piles"),
                "piles-empty",
                f"{self.setting()} it splits the {counted(have, 'card')} of {owner} into {n} "
                f"piles, so {n - have} of them would hold 0 cards: make fewer piles",
                n - have,
            )
        extras = self.extras(step, owner, state, n)
        self.piles(index, owner, state, n, extras)

    def extras(self, step: DeckStep, owner: str, state: _Deck, n: int) -> tuple[list[str], Any]:
        """The cards shuffled one into each pile (``each_pile``), from the pool, and their
        population (None when not exact)."""
        flt = step.each_pile
        if flt is None:
            return [], None
        matching = Counter(
            {c: k for c, k in state.pool.items() if k > 0 and matches(self.cards[c], flt)}
        )
        have = sum(matching.values())
        if have < n:
            self.problem(
                SETUP_DEAL,
                step.at("each_pile"),
                "each-pile-short",
                f"{self.setting()} each of the {n} piles of {owner} gets a card matching "
                f"{describe(flt)}, but the box has {have} left: make fewer piles, or add copies",
                n - have,
            )
        chosen = self.rng.sample(_listed(matching), min(n, have))
        sure = state.sure(matching)
        for c in chosen:
            state.pool[c] -= 1
        if 0 < len(chosen) < have:
            state.unsure.update(matching)
        return chosen, (matching if sure else None)

    def piles(
        self, index: int, owner: str, state: _Deck, n: int, extras: tuple[list[str], Any]
    ) -> None:
        chosen, population = extras
        cards = state.cards or []
        size, more = divmod(len(cards), n)
        stacked: list[str] = []
        for pile in range(1, n + 1):
            k = size + (1 if pile <= more else 0)
            taken, law = self.take_top(state, k)
            extra = chosen[pile - 1] if pile <= len(chosen) else None
            if extra is not None:
                taken = [*taken, extra]
                self.rng.shuffle(taken)
                law = (
                    Law(law.fixed, law.n, law.population, population)
                    if law is not None and population is not None and not law.extra
                    else None
                )
            self.zone("pile", owner, index, taken, law, pile, extra)
            stacked.extend(taken)
        state.cards, state.law, state.top, state.bottom = stacked, None, 0, 0
        state.piles = n


def describe(flt: Filter) -> str:
    parts = []
    if flt.card:
        parts.append(f"card {flt.card!r}")
    if flt.tag:
        parts.append(f"tag {flt.tag!r}")
    parts.extend(f"{k} = {v!r}" for k, v in flt.values.items())
    return " and ".join(parts) or "the filter"


def _listed(cards: Counter[str]) -> list[str]:
    """A multiset as a list, in a stable order (sorted ids)."""
    return [c for c in sorted(cards) for _ in range(max(0, cards[c]))]
