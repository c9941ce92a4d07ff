"""Trying the changes: each one applied, the game validated again, the change undone.

A change is *caught* when validation reports an error or a warning the unchanged game did not
have. Validating again costs little because most of the unchanged game is reused:

- a changed number, reference or list item converts again only the file it is in (the others'
  conversions are kept, :class:`...content.load.Converted`);
- the checks run one at a time and stop at the first new finding; the checks that read only
  the texts are skipped (the texts did not change), and so is text fitting (the audit fits no
  text);
- the game's invariants come last, and only those that read an entry the change touched are
  evaluated again (:mod:`.deps`);
- a number changed inside a text changes that text in the loaded game: the text checks look at
  that text alone, the checks that read no text are skipped, the rest run as above.

``tests/test_audit.py`` checks that this gives what validating everything again gives.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from typing import Any

from ...content.expr import Evaluator, Record
from ...content.load import Memo, Root, Trees, load_game
from ...content.model import Game, Text
from ...core.findings import Finding, Report
from ...core.rules import Severity
from ...i18n.catalog import Translations
from .. import load_all
from ..context import CHECKS, CheckContext, CheckFn
from ..invariants import INVARIANT_TIME_S, _one, game_data
from .deps import ALL, SECTIONS, Touched, affected, local, reads, touched
from .facts import Mutation

# checks that read only the game's texts (a changed text: they look at it alone; a change of
# anything else: skipped)
TEXT_ONLY = frozenset(
    {
        "texts.missing_texts", "texts.spans", "texts.translation_tokens",
        "numbers.translation_numbers", "sentences.translation_sentences", "scripts.scripts",
    }
)  # fmt: skip
# checks that read no text: skipped when a number of a text changes
NO_TEXT = frozenset(
    {
        "box.box_counts", "box.setup_tables", "tables.lookup_tables", "tables.staged_cards",
        "scenarios.scenarios", "structure.unique_ids", "structure.files",
        "structure.track_boards", "structure.element_colours", "texts.placeholders",
        "texts.font_families", "assumptions.assumptions", "geometry.layout_geometry",
    }
)  # fmt: skip
NEVER = frozenset({"texts.fitting", "invariants.invariants"})  # no fitting; invariants last

Key = tuple[str, str, int, int, str]


def name_of(fn: CheckFn) -> str:
    return f"{fn.__module__.rsplit('.', 1)[-1]}.{fn.__name__}"


def _keys(findings: list[Finding]) -> set[Key]:
    keep = (Severity.ERROR, Severity.WARNING)
    return {
        (f.rule, f.pos.path, f.pos.line, f.pos.col, f.message)
        for f in findings
        if f.severity in keep
    }


class Runner:
    """The unchanged game, validated once, and what each change adds to its findings."""

    def __init__(self, root: Root, game_id: str, trees: Trees, catalogs: Translations) -> None:
        load_all()
        self.root, self.game_id, self.trees, self.catalogs = root, game_id, trees, catalogs
        self.memo: Memo = {}
        report = Report()
        game = load_game(root, game_id, report, trees, self.memo)
        assert game is not None
        self.game = game
        self.checks = [fn for fn in CHECKS if name_of(fn) not in NEVER]
        ctx = self.context(report)
        for fn in self.checks:
            fn(game, ctx)
        self.cost: dict[int, float] = {}  # how long each invariant takes
        self.base_invariants = self._invariants(game, None)
        self.base: set[Key] = _keys(report.findings).union(*self.base_invariants.values())
        self.data = game_data(game)[0] if game.invariants else {}
        self.reads = {i: reads(inv) for i, inv in enumerate(game.invariants)}
        self.local = {i: local(inv) for i, inv in enumerate(game.invariants)}
        self.texts = {
            (t.at(lang).path, t.at(lang).line, t.at(lang).col, lang): t
            for t in game.texts
            for lang in t.values
        }

    def context(self, report: Report) -> CheckContext:
        return CheckContext(
            report=report,
            root=self.root.path,
            game_dir=self.root.game_dir(self.game_id),
            catalogs=dict(self.catalogs),
            game_id=self.game_id,
            fit_languages=[],
            jobs=1,
        )

    def _validate(self, game: Game, report: Report, checks: list[CheckFn]) -> set[Key]:
        """Run ``checks`` in order; the new findings of the first check that has some."""
        ctx = self.context(report)
        for fn in checks:
            start = len(report.findings)
            fn(game, ctx)
            new = _keys(report.findings[start:]) - self.base
            if new:
                return new
        return set()

    def _invariants(self, game: Game, only: Callable[[int], bool] | None) -> dict[int, set[Key]]:
        """The findings of each invariant (those ``only`` accepts), the cheapest first; with
        ``only``, up to the first invariant with a finding the unchanged game did not have."""
        out: dict[int, set[Key]] = {}
        if not game.invariants:
            return out
        names, functions = game_data(game)
        ev = Evaluator(names, functions)
        order = sorted(range(len(game.invariants)), key=lambda i: self.cost.get(i, 0.0))
        for i in order:
            if only is not None and not only(i):
                continue
            report = Report()
            started = time.perf_counter()
            with ev.budget(INVARIANT_TIME_S):
                _one(game.invariants[i], ev, game, self.context(report))
            if only is None:
                self.cost[i] = time.perf_counter() - started
            out[i] = _keys(report.findings)
            if only is not None and out[i] - self.base_invariants.get(i, set()):
                break
        return out

    # --- one change --------------------------------------------------------------------------

    def run(self, m: Mutation) -> list[str]:
        """The rules that catch ``m`` (none: it survives)."""
        if m.op == "text":
            return self._text(m, self.texts[(m.pos.path, m.pos.line, m.pos.col, m.where[-1])])
        return self._data(m)

    def _data(self, m: Mutation) -> list[str]:
        undo = apply(self.trees, m)
        try:
            report = Report()
            game = load_game(self.root, self.game_id, report, self.trees, self.memo, m.pos.path)
            new = _keys(report.findings) - self.base
            if not new and game is not None:
                checks = [fn for fn in self.checks if name_of(fn) not in TEXT_ONLY]
                new = self._validate(game, report, checks) or self._changed_invariants(game)
        finally:
            undo()
        return sorted({rule for rule, *_rest in new})

    def _text(self, m: Mutation, text: Text) -> list[str]:
        lang = m.where[-1]
        old = text.values[lang]
        start, end = m.span
        text.values[lang] = old[:start] + str(m.new) + old[end:]
        try:
            alone = dataclasses.replace(self.game, texts=[text])
            report = Report()
            new: set[Key] = set()
            for fn in self.checks:
                name = name_of(fn)
                if name in NO_TEXT:
                    continue
                new = self._validate(alone if name in TEXT_ONLY else self.game, report, [fn])
                if new:
                    break
            if not new:
                new = self._changed_invariants(self.game)
        finally:
            text.values[lang] = old
        return sorted({rule for rule, *_rest in new})

    def _changed_invariants(self, game: Game) -> set[Key]:
        """New findings of the invariants that read what the change touched (the cheapest
        first, up to the first that has one); an invariant over the items of one section looks
        at the changed items alone."""
        if not game.invariants:
            return set()
        try:
            names, functions = game_data(game)
            changed: Touched = touched(self.data, names)
        except Exception:  # the data cannot be read as records: evaluate every invariant
            names, functions = game_data(self.game)
            changed = {(s, ALL) for s in SECTIONS}
        order = sorted(range(len(game.invariants)), key=lambda i: self.cost.get(i, 0.0))
        for i in order:
            if not affected(self.reads.get(i), changed):
                continue
            view = self._items(names, self.local.get(i), changed)
            if view is None:
                continue
            report = Report()
            ev = Evaluator(view, functions)
            with ev.budget(INVARIANT_TIME_S):
                _one(game.invariants[i], ev, game, self.context(report))
            new = _keys(report.findings) - self.base_invariants.get(i, set())
            if new:
                return new
        return set()

    def _items(
        self, names: dict[str, Any], where: tuple[str, str | None] | None, changed: Touched
    ) -> dict[str, Any] | None:
        """The names an invariant sees: for one over the items of a section, only the items
        that changed (None: none did)."""
        if where is None:
            return names
        section, entry = where
        if (section, ALL) in changed or not isinstance(names.get(section), Record):
            return names
        if entry is None:
            ids = {k for s, k in changed if s == section}
            kept = {k: v for k, v in names[section].data().items() if k in ids}
            return {**names, section: Record(kept)} if kept else None
        new, old = names[section].data().get(entry), self.data[section].data().get(entry)
        if not isinstance(new, list) or not isinstance(old, list):
            return names
        rows = [row for n, row in enumerate(new) if n >= len(old) or row != old[n]]
        if not rows:
            return None
        return {**names, section: Record({**names[section].data(), entry: rows})}


def apply(trees: Trees, m: Mutation) -> Callable[[], None]:
    """Make the change in the files' trees; the function that undoes it."""
    holder, at = locate(trees, m)
    if m.op == "delete":
        item, ipos = holder[at], holder.ipos[at]
        del holder[at]
        del holder.ipos[at]

        def undo_delete() -> None:
            holder.insert(at, item)
            holder.ipos.insert(at, ipos)

        return undo_delete
    holder[at] = m.new

    def undo() -> None:
        holder[at] = m.old

    return undo


def locate(trees: Trees, m: Mutation) -> tuple[Any, Any]:
    """The container holding the mutated value, and its key or index (as they are in the
    file's data: a mapping's integer key stays an integer, a key may hold dots)."""
    node: Any = trees[m.pos.path]
    for step in m.where[:-1]:
        node = node[step]
    return node, m.where[-1]
