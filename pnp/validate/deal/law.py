"""What a laid-out group of cards may hold, when it can be said exactly.

A hand, a face-up row or a pile made by shuffling and taking cards from the top holds a
*uniform sample*: some cards known by name (put on top by name, or the whole of a known
selection), plus ``n`` cards drawn without replacement from a known population, plus at most
one card drawn from another known set (the epidemic shuffled into each pile). The chance that
such a group holds a card of some kind is then hypergeometric, and exact. A group whose cards
depend on earlier random draws in any other way has no law: its chances are counted over many
seeded deals instead (:mod:`.odds`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from math import comb

Kind = Callable[[str], bool]  # which card ids are of a kind


@dataclass(frozen=True)
class Law:
    """``fixed`` cards, plus ``n`` cards drawn from ``population``, plus one card of ``extra``
    (when given)."""

    fixed: Counter[str] = field(default_factory=Counter)
    n: int = 0
    population: Counter[str] = field(default_factory=Counter)
    extra: Counter[str] | None = None

    @staticmethod
    def known(cards: Counter[str]) -> Law:
        """Cards all known by name."""
        return Law(fixed=Counter(cards))

    @staticmethod
    def sample(n: int, population: Counter[str]) -> Law:
        return Law(n=n, population=Counter(population))

    @property
    def size(self) -> int:
        return sum(self.fixed.values()) + self.n + (1 if self.extra else 0)

    def chance(self, kind: Kind) -> float:
        """The chance that the group holds at least one card of ``kind``."""
        if any(kind(c) and k > 0 for c, k in self.fixed.items()):
            return 1.0
        absent = _none_drawn(self.n, self.population, kind)
        if self.extra:
            total = sum(self.extra.values())
            absent *= 1 - sum(k for c, k in self.extra.items() if kind(c)) / total
        return 1 - absent

    def expected(self, kind: Kind) -> float:
        """How many cards of ``kind`` the group holds on average."""
        got = float(sum(k for c, k in self.fixed.items() if kind(c)))
        pop = sum(self.population.values())
        if self.n and pop:
            got += self.n * sum(k for c, k in self.population.items() if kind(c)) / pop
        if self.extra:
            got += sum(k for c, k in self.extra.items() if kind(c)) / sum(self.extra.values())
        return got

    def take(self, k: int) -> tuple[Law, Law] | None:
        """The law of ``k`` cards taken at random from a shuffled group with this law, and of
        the rest; None when it cannot be said exactly (known cards mixed with a sample)."""
        fixed_total = sum(self.fixed.values())
        if self.extra:
            return None
        if self.n == 0:  # all known: the k are a sample of them, the rest the complement
            return Law.sample(k, self.fixed), Law.sample(fixed_total - k, self.fixed)
        if fixed_total == 0:
            return Law.sample(k, self.population), Law.sample(self.n - k, self.population)
        return None

    def plus_known(self, cards: Counter[str]) -> Law:
        return Law(self.fixed + cards, self.n, self.population, self.extra)


def _none_drawn(n: int, population: Counter[str], kind: Kind) -> float:
    """The chance that ``n`` cards drawn without replacement from ``population`` hold no card
    of ``kind`` (hypergeometric)."""
    total = sum(population.values())
    if n <= 0 or total <= 0:
        return 1.0
    marked = sum(k for c, k in population.items() if kind(c))
    if n > total - marked:
        return 0.0
    return comb(total - marked, n) / comb(total, n)
