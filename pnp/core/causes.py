"""One cause, one finding: findings caused by another are folded under it.

A finding says what it reports broken (its ``subject``) and what must be sound for it to be a
cause of its own (its ``needs``), as logical paths of the content: ``decks/actions/cards/run/
copies``, ``boards/map``, ``layouts/action``; ``*`` stands for any one name. A need is met by a
subject when the two agree on every name they both have, so a broken card
(``decks/actions/cards/run``) explains a count that needs its copies
(``decks/actions/cards/*/copies``), and a board dropped for a bad size (``boards/map/size``)
explains a reference to the board (``boards/map``). The links are data the checks give, never
read from messages.

:func:`fold` groups the findings (already sorted, causes first) under their root causes; a
warning that causes an error is shown as an error, since it is one in effect (a misspelt column
header that empties a deck). Two findings that would print the same line (one per language)
are shown once.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from .rules import Severity


class Caused(Protocol):
    """What folding reads of a finding (pnp.core.findings.Finding)."""

    @property
    def severity(self) -> Severity: ...
    @property
    def rule(self) -> str: ...
    @property
    def game(self) -> str: ...
    @property
    def subject(self) -> tuple[str, ...]: ...
    @property
    def needs(self) -> tuple[str, ...]: ...
    @property
    def order(self) -> int: ...
    @property
    def pos(self) -> Any: ...
    @property
    def message(self) -> str: ...
    def text(self) -> str: ...
    def as_json(self) -> dict[str, object]: ...


@dataclass(frozen=True)
class Group:
    """A finding that is its own cause, and the findings it caused (in order)."""

    root: Any  # a Finding
    folded: tuple[Any, ...] = ()


def split(path: str) -> tuple[str, ...]:
    return tuple(path.split("/"))


def meets(subject: tuple[str, ...], need: tuple[str, ...]) -> bool:
    """Whether a broken ``subject`` explains a finding that ``need``\\ s: they agree on every
    name both have (``*`` agrees with any name)."""
    return all(a == b or a == "*" or b == "*" for a, b in zip(subject, need, strict=False))


class _Trie:
    """The subjects of the findings, by their names, for finding the subjects that meet a
    need without comparing every pair (a deck of 10,000 rows may have as many findings)."""

    __slots__ = ("children", "here", "under")

    def __init__(self) -> None:
        self.children: dict[str, _Trie] = {}
        self.here: list[int] = []  # findings whose subject ends here
        self.under: list[int] | None = None  # below(), once asked

    def add(self, segs: tuple[str, ...], index: int) -> None:
        node = self
        for seg in segs:
            node = node.children.setdefault(seg, _Trie())
        node.here.append(index)

    def below(self) -> list[int]:
        """Every finding whose subject ends here or further down."""
        if self.under is None:
            self.under = [*self.here, *(i for c in self.children.values() for i in c.below())]
        return self.under

    def meeting(self, need: tuple[str, ...]) -> list[int]:
        """The findings whose subject meets ``need`` (see :func:`meets`)."""
        found: list[int] = []
        nodes = [self]
        for seg in need:
            found.extend(i for node in nodes for i in node.here)  # a shorter subject
            if seg == "*":
                nodes = [c for node in nodes for c in node.children.values()]
            else:
                nodes = [c for node in nodes for k in (seg, "*") if (c := node.children.get(k))]
            if not nodes:
                return found
        found.extend(i for node in nodes for i in node.below())  # as long, or longer
        return found


def _causes(findings: Sequence[Caused]) -> dict[int, int]:
    """Index of a finding -> index of the finding that caused it (not yet followed to roots).
    A cause comes before what it causes (the findings are sorted causes first), in the same
    game; of several, the first."""
    tries: dict[str, _Trie] = {}
    for i, f in enumerate(findings):
        for path in f.subject:
            tries.setdefault(f.game, _Trie()).add(split(path), i)
    cause: dict[int, int] = {}
    for i, f in enumerate(findings):
        trie = tries.get(f.game) if f.needs else None
        if trie is None:
            continue
        found = [j for need in f.needs for j in trie.meeting(split(need)) if j < i]
        if found:
            cause[i] = min(found)
    return cause


def _root(i: int, cause: dict[int, int]) -> int:
    while i in cause:  # a cause comes first: the chain ends
        i = cause[i]
    return i


def fold(findings: Sequence[Any]) -> list[Group]:
    """The findings (sorted, causes first) grouped under the findings that caused them."""
    shown: list[Any] = []
    printed: set[tuple[object, ...]] = set()
    for f in findings:  # the same line once (a finding found in each language)
        key = (f.game, f.pos, f.severity, f.rule, f.message)
        if key not in printed:
            printed.add(key)
            shown.append(f)
    cause = _causes(shown)
    folded: dict[int, list[Any]] = {}
    for i in range(len(shown)):
        if i in cause:
            folded.setdefault(_root(i, cause), []).append(shown[i])
    groups = []
    for i, f in enumerate(shown):
        if i in cause:
            continue
        under = tuple(folded.get(i, ()))
        if f.severity is not Severity.ERROR and any(g.severity is Severity.ERROR for g in under):
            f = dataclasses.replace(f, severity=Severity.ERROR)
        groups.append(Group(f, under))
    return groups


@dataclass(frozen=True)
class Words:
    """What is added to a finding's line: how many it caused (n, their rules), and, for a
    folded finding listed with --verbose, where its cause is."""

    folded: Callable[[int, str], str]
    caused: Callable[[str], str]


ENGLISH = Words(
    folded=lambda n, rules: f" (and {n} more caused by this: {rules}; pnp -v lists them)",
    caused=lambda where: f" (caused by {where})",
)


def rules_of(folded: Sequence[Any]) -> str:
    """The rules of folded findings, with counts: reference x4, box-count."""
    counts: dict[str, int] = {}
    for f in folded:
        counts[f.rule] = counts.get(f.rule, 0) + 1
    return ", ".join(rule if n == 1 else f"{rule} x{n}" for rule, n in counts.items())


def format_groups(groups: Sequence[Group], verbose: bool = False, words: Words = ENGLISH) -> str:
    """One line a finding, as the text format has it (``PATH:LINE:COL: severity [rule]
    message``): a cause says at its end how many findings it caused; with ``verbose`` they
    follow it, each saying where its cause is."""
    lines: list[str] = []
    for g in groups:
        if not g.folded:
            lines.append(g.root.text())
            continue
        lines.append(_said(g.root, words.folded(len(g.folded), rules_of(g.folded))))
        if verbose:
            lines.extend(_said(f, words.caused(str(g.root.pos))) for f in g.folded)
    return "\n".join(lines)


def _said(f: Any, more: str) -> str:
    """A finding's line with ``more`` at the end of its message."""
    return dataclasses.replace(f, message=f.message + more).text()


def groups_json(groups: Sequence[Group]) -> list[dict[str, object]]:
    """Every finding as JSON, each cause followed by what it caused: a cause has ``folded``
    (how many it caused), a caused finding ``caused_by`` (its cause's path, line, column and
    rule); null and 0 elsewhere."""
    out: list[dict[str, object]] = []
    for g in groups:
        root = g.root.as_json()
        out.append({**root, "caused_by": None, "folded": len(g.folded)})
        cause = {k: root[k] for k in ("path", "line", "column", "rule")}
        out.extend({**f.as_json(), "caused_by": cause, "folded": 0} for f in g.folded)
    return out
