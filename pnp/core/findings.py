"""Findings: what validation and builds report, with their position in the content.

A :class:`Finding` names a file, line and column (1-based, path relative to the content root), a
severity, a rule id (pnp/core/rules.py) and a message that says what to do.

A finding may also say what it reports broken (``subject``) and what must be sound for it to
be a cause of its own (``needs``): logical paths of the content, as the model names them
(``decks/actions/cards/run/copies``, ``boards/map``; ``*`` stands for any one name). A finding
whose needs meet another's subject is a consequence of that one, and is folded under it when
findings are shown (:mod:`.causes`); findings are listed by stage (:class:`~.rules.Stage`),
so that causes come first.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import NamedTuple

from .causes import ENGLISH, Group, Words, fold, format_groups, groups_json
from .rules import RULES, Severity, stage_of

# What a terminal would act on instead of showing: C0 and C1 controls (escape sequences, a
# newline splitting a finding in two), DEL, and the bidirectional overrides that reorder a line
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def terminal_safe(text: str, keep_newlines: bool = False) -> str:
    """``text`` with every character a terminal would act on written as an escape (``\\x1b``,
    ``\\n``, ``\\u202e``): content (titles, folder and file names) cannot move the cursor,
    recolour the screen or split a line of pnp's output."""

    def escape(m: re.Match[str]) -> str:
        ch = m.group()
        if keep_newlines and ch in "\n\t":
            return ch
        return repr(ch)[1:-1] if ord(ch) < 0x100 else f"\\u{ord(ch):04x}"

    return _UNSAFE.sub(escape, text)


class Pos(NamedTuple):
    """A position in a content file: path relative to the content root, 1-based line/column.

    A named tuple: loading a big deck creates hundreds of thousands of them.
    """

    path: str
    line: int = 0
    col: int = 0

    def __str__(self) -> str:
        if self.line:
            return f"{self.path}:{self.line}:{self.col}"
        return self.path


@dataclass(frozen=True, slots=True)
class Finding:
    pos: Pos
    severity: Severity
    rule: str
    message: str
    game: str = ""
    lang: str = ""  # the language the finding is about, when it is about one
    face: str = ""  # the face it is on (owner/card/side, as the preview names faces)
    # what this finding reports broken, and what must be sound for it to be its own cause
    subject: tuple[str, ...] = field(default=(), compare=False)
    needs: tuple[str, ...] = field(default=(), compare=False)
    stage: int = field(default=-1, compare=False)  # -1: its rule's stage

    @property
    def order(self) -> int:
        """Its stage: what is listed first (files, sheets, schema, references, rules)."""
        return self.stage if self.stage >= 0 else int(stage_of(self.rule))

    def text(self) -> str:
        """One line for a terminal: content in the path or message cannot break it."""
        line = f"{self.pos}: {self.severity.value} [{self.rule}] {self.message}"
        return terminal_safe(line) if _UNSAFE.search(line) else line

    def as_json(self) -> dict[str, object]:
        return {
            "path": self.pos.path,
            "line": self.pos.line,
            "column": self.pos.col,
            "severity": self.severity.value,
            "rule": self.rule,
            "message": self.message,
            "game": self.game,
        }

    def sort_key(self) -> tuple[str, int, str, int, int, bool, str, str]:
        """Game by game, stage by stage (causes first), then by place in the files; at one
        place, a finding that may be caused by another after one that may not."""
        return (
            self.game,
            self.order,
            self.pos.path,
            self.pos.line,
            self.pos.col,
            bool(self.needs),
            self.rule,
            self.message,
        )


@dataclass
class Report:
    """Findings collected over a whole run; severities are resolved per game when added."""

    findings: list[Finding] = field(default_factory=list)
    # game id -> rule id -> severity override declared by the game
    overrides: dict[str, dict[str, Severity]] = field(default_factory=dict)

    def add(
        self,
        rule_id: str,
        pos: Pos,
        message: str,
        *,
        game: str = "",
        severity: Severity | None = None,
        lang: str = "",
        face: str = "",
        subject: tuple[str, ...] = (),
        needs: tuple[str, ...] = (),
        stage: int = -1,
    ) -> None:
        """A finding of ``rule_id``; ``subject``: what it reports broken, ``needs``: what must
        be sound for it to be a cause of its own (logical paths, see the module's note)."""
        if rule_id not in RULES:  # a bug in pnp, not in the content
            raise KeyError(f"unregistered rule {rule_id!r}")
        sev = severity or RULES[rule_id].severity
        override = self.overrides.get(game, {}).get(rule_id)
        if override is not None:
            sev = override
        if sev is Severity.OFF:
            return
        self.findings.append(
            Finding(pos, sev, rule_id, message, game, lang, face, subject, needs, stage)
        )

    def extend(self, findings: Iterable[Finding]) -> None:
        self.findings.extend(findings)

    def __iter__(self) -> Iterator[Finding]:
        return iter(self.sorted())

    def __len__(self) -> int:
        return len(self.findings)

    def sorted(self) -> list[Finding]:
        """Every finding once, causes first (:meth:`Finding.sort_key`)."""
        seen: set[Finding] = set()
        unique = []
        for f in self.findings:
            if f not in seen:
                seen.add(f)
                unique.append(f)
        return sorted(unique, key=Finding.sort_key)

    def for_game(self, game: str) -> list[Finding]:
        return [f for f in self.sorted() if f.game == game]

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity is Severity.ERROR]

    @property
    def warnings(self) -> list[Finding]:
        return [f for f in self.findings if f.severity is Severity.WARNING]

    def has_errors(self, game: str | None = None) -> bool:
        return any(
            f.severity is Severity.ERROR and (game is None or f.game == game) for f in self.findings
        )

    def groups(self) -> list[Group]:
        """The findings as shown: each cause with the findings it caused folded under it."""
        return fold(self.sorted())

    def format_text(self, verbose: bool = False, words: Words = ENGLISH) -> str:
        return format_groups(self.groups(), verbose, words)

    def format_json(self) -> str:
        return json.dumps(groups_json(self.groups()), ensure_ascii=False, indent=2)
