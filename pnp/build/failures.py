"""Each language on its own: an error that concerns one language of a game (its catalog, its
translations, a script no font prints) stops that language's PDFs only; the game's other
languages are built, and the build says which language failed and why, once per cause.

Errors that concern no single language (a count, a layout, a YAML file) stop the whole build,
as before: nothing is written.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ..core.findings import Finding, Report
from ..core.rules import Severity
from ..i18n.words import ngettext, tr
from .options import Output


@dataclass
class Failed:
    """A game's language that was not built (or, for a proof, built with its errors marked)."""

    game: str
    lang: str
    causes: list[str]  # one line per cause: a rule in one file
    marked: bool = False  # a document that marks errors (a proof) was still written

    def line(self) -> str:
        if self.marked:
            head = tr("{game} {lang}: proof written with its errors marked; fix them to build it")
        else:
            head = tr("{game} {lang}: not built")
        return head.format(game=self.game, lang=self.lang) + ": " + "; ".join(self.causes)


class Outputs(list[Output]):
    """What a build wrote, and the languages it did not build (with why)."""

    def __init__(self, items: Iterable[Output] = ()) -> None:
        super().__init__(items)
        self.failed: list[Failed] = []
        self.notes: list[str] = []  # one line a language left out on purpose


def language_errors(report: Report, game: str) -> dict[str, list[Finding]]:
    """The errors of ``game`` that concern one language, by language."""
    out: dict[str, list[Finding]] = {}
    for f in report.sorted():
        if f.game == game and f.lang and f.severity is Severity.ERROR:
            out.setdefault(f.lang, []).append(f)
    return out


def game_errors(report: Report) -> bool:
    """Errors that concern no single language: they stop the whole build."""
    return any(f.severity is Severity.ERROR and not f.lang for f in report.findings)


def causes(findings: list[Finding]) -> list[str]:
    """One line per cause (a rule in one file): where the first is, what it says, how many."""
    groups: dict[tuple[str, str], list[Finding]] = {}
    for f in findings:
        groups.setdefault((f.rule, f.pos.path), []).append(f)
    lines = []
    for (rule, _path), found in groups.items():
        first = found[0]
        line = f"{first.pos}: [{rule}] {first.message}"
        if len(found) > 1:
            more = len(found) - 1
            line += " " + ngettext("(and {n} more like it)", "(and {n} more like them)", more)
            line = line.format(n=more)
        lines.append(line)
    return lines


def drop_unbuilt(report: Report, game: str, built: set[str]) -> list[str]:
    """Errors of languages this build does not make are not its failures: they leave the
    report, and one line per language says they exist (``pnp validate`` lists them)."""
    notes = []
    for lang, found in sorted(language_errors(report, game).items()):
        if lang in built:
            continue
        gone = set(found)
        report.findings[:] = [f for f in report.findings if f not in gone]
        n = len({(f.pos, f.message) for f in found})
        notes.append(
            ngettext(
                "{game} {lang}: not built here; its translation has {n} error "
                "(`pnp validate {game}` shows it)",
                "{game} {lang}: not built here; its translation has {n} errors "
                "(`pnp validate {game}` shows them)",
                n,
            ).format(game=game, lang=lang, n=n)
        )
    return notes


@dataclass
class Verdict:
    """Which languages of which games fail, found from the report."""

    failed: dict[tuple[str, str], Failed] = field(default_factory=dict)
    skipped: set[tuple[str, str]] = field(default_factory=set)  # --min-translated

    def judge(self, report: Report, game: str, langs: Iterable[str], marked: bool) -> None:
        errors = language_errors(report, game)
        for lang in langs:
            found = errors.get(lang)
            if found and (game, lang) not in self.failed:
                self.failed[(game, lang)] = Failed(game, lang, causes(found), marked)

    def stops(self, game: str, lang: str) -> bool:
        """The language is not rendered (a document that marks errors still is)."""
        if (game, lang) in self.skipped:
            return True
        failed = self.failed.get((game, lang))
        return failed is not None and not failed.marked
