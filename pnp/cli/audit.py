"""`pnp audit`: which facts of a game no rule protects."""

from __future__ import annotations

import math
import sys
from collections import Counter
from collections.abc import Callable
from itertools import groupby
from typing import TYPE_CHECKING, Annotated

import typer

from ..content.load import open_root, select_games
from ..core.errors import PnpError, UsageError
from ..core.findings import Report, json_text, terminal_safe
from ..i18n.words import ngettext, tr
from .common import Format, FormatOpt, RootOpt, app, err, fail, game_names, say

if TYPE_CHECKING:
    from ..validate.audit import Audit

MinScoreOpt = Annotated[
    float | None,
    typer.Option(
        "--min-score",
        help="Exit 1 when less than this per cent of the changes are caught (for CI).",
        min=0,
        max=100,
    ),
]
DEFAULT_BUDGET = 300.0  # seconds: every bundled game is done in well under a minute
MaxSecondsOpt = Annotated[
    float,
    typer.Option(
        "--max-seconds",
        help="Stop trying changes after this many seconds and give a partial score, labelled "
        "as such, over the changes tried (a random sample of them).",
        min=0.001,
        max=7 * 24 * 3600,
    ),
]
AuditJobsOpt = Annotated[
    int,
    typer.Option("--jobs", "-j", help="Processes (0: one per core).", min=0, max=64),
]


@app.command("audit")
def audit_cmd(
    game: Annotated[str, typer.Argument(help="The game to audit.", autocompletion=game_names)],
    fmt: FormatOpt = Format.text,
    min_score: MinScoreOpt = None,
    jobs: AuditJobsOpt = 0,
    max_seconds: MaxSecondsOpt = DEFAULT_BUDGET,
    root: RootOpt = None,
) -> None:
    """Change each number (+1, -1, 0), count, table cell, reference, list item and number
    inside a text of a game once, validate, and list the changes no rule catches: the facts
    nothing protects, each with the rule or reference that would protect it."""
    from ..validate.audit import audit_game

    report = Report()
    try:
        if min_score is not None and not math.isfinite(min_score):
            raise UsageError(tr("--min-score {value}: give a number").format(value=min_score))
        if not math.isfinite(max_seconds):
            raise UsageError(tr("--max-seconds {value}: give a number").format(value=max_seconds))
        r = open_root(root)
        (gid,) = select_games(r, [game])
        result = audit_game(
            r, gid, report, jobs=jobs, progress=_progress(gid, max_seconds), max_seconds=max_seconds
        )
    except PnpError as exc:
        fail(exc)
    if sys.stderr.isatty():
        sys.stderr.write("\r\x1b[K")
    if result is None:
        err(report.format_text())
        fail(UsageError(tr("{game} cannot be read: run `pnp validate {game}`").format(game=gid)))
    if fmt is Format.json:
        typer.echo(json_text(_as_json(result)))
        err(_summary(result))  # standard output holds the JSON alone
    else:
        text = _as_text(result)
        if text:
            say(text)
        say(_summary(result))  # the score is the result: it goes where the survivors go
    raise typer.Exit(1 if min_score is not None and result.score < min_score else 0)


def _progress(game: str, budget: float) -> Callable[[int, int, float], None]:
    """Progress on standard error with an estimate of the time left: on a terminal, one line
    kept up to date; elsewhere (a log, a CI), a line at the start and one every 10 s."""
    tty = sys.stderr.isatty()
    said = [-1.0]  # when the last line was written (not on a terminal)

    def show(done: int, total: int, seconds: float) -> None:
        line = progress_line(game, done, total, seconds, budget)
        if tty:
            sys.stderr.write(f"\r\x1b[K{line}")
            sys.stderr.flush()
        elif said[0] < 0 or seconds - said[0] >= 10:
            said[0] = seconds
            sys.stderr.write(line + "\n")
            sys.stderr.flush()

    return show


def progress_line(game: str, done: int, total: int, seconds: float, budget: float) -> str:
    """``audit GAME: 120/4000 changes, about 35 s left`` (or when the budget stops it)."""
    said = ngettext(
        "audit {game}: {done}/{total} change", "audit {game}: {done}/{total} changes", total
    ).format(game=game, done=done, total=total)
    if done == 0 or done >= total:
        return said
    left = seconds / done * (total - done)
    if seconds + left <= budget:
        return said + ", " + tr("about {seconds} s left").format(seconds=_round(left))
    reach = min(total, int(done * budget / max(seconds, 1e-9)))
    return (
        said
        + ", "
        + tr(
            "about {seconds} s left, more than the budget: --max-seconds {budget} stops it "
            "at about {reach} (partial score)"
        ).format(seconds=_round(left), budget=f"{budget:g}", reach=reach)
    )


def _round(seconds: float) -> str:
    return f"{seconds:.0f}" if seconds >= 10 else f"{seconds:.1f}"


def _summary(a: Audit) -> str:
    said = _scored(a)
    if not a.partial:
        return said
    partial = ngettext(
        "partial score: the budget of {budget} s (--max-seconds) ran out after {tried} of "
        "{total} change, tried in a random order; raise --max-seconds for the whole score",
        "partial score: the budget of {budget} s (--max-seconds) ran out after {tried} of "
        "{total} changes, tried in a random order; raise --max-seconds for the whole score",
        a.total,
    ).format(budget=f"{a.budget:g}", tried=len(a.mutations), total=a.total)
    return f"{said}\n{partial}"


def _scored(a: Audit) -> str:
    label = tr("PARTIAL") + " " if a.partial else ""
    once = a.written_once
    tried, survived = len(a.mutations), len(a.survivors)
    said = label + tr(
        "{game}: {caught_of_tried} ({score} %; {old} % of the +1 and swapped ids), "
        "{unprotected}; {seconds} s"
    ).format(
        game=terminal_safe(a.game),
        caught_of_tried=ngettext(
            "{caught} of {tried} change caught", "{caught} of {tried} changes caught", tried
        ).format(caught=len(a.caught), tried=tried),
        score=f"{a.score:.1f}",
        old=f"{a.old_score:.1f}",
        unprotected=ngettext("{n} unprotected", "{n} unprotected", survived).format(n=survived),
        seconds=f"{a.seconds:.1f}",
    )
    if not once:
        return said
    rest = len(a.mutations) - once
    return (
        said
        + "\n"
        + ngettext(
            "{once} of the unprotected is a number written once (nothing else in the game holds "
            "it: no rule can know it wrong); of the other changes, {score} % are caught",
            "{once} of the unprotected are numbers written once (nothing else in the game holds "
            "them: no rule can know them wrong); of the other changes, {score} % are caught",
            once,
        ).format(once=once, score=f"{100.0 * len(a.caught) / rest:.1f}" if rest else "100.0")
    )


def _shown(value: object) -> str:
    said = repr(value) if value is not None else tr("(deleted)")
    return said if len(said) <= 60 else said[:59] + "…"


def _as_text(a: Audit) -> str:
    """The survivors grouped by file, each with what would protect it, then how many each
    protection would catch."""
    lines: list[str] = []
    survivors = sorted(a.survivors, key=lambda m: (m.pos.path, m.pos.line, m.pos.col))
    for path, group in groupby(survivors, key=lambda m: m.pos.path):
        lines.append(terminal_safe(path))
        for m in group:
            change = f"{_shown(m.old)} -> {_shown(m.new)}" if m.op != "delete" else _shown(m.old)
            line = f"  {m.pos.line}:{m.pos.col}: {m.kind} {m.op} {m.key}: {change}"
            lines.append(terminal_safe(line))
            lines.append(terminal_safe(f"      {tr('protect with')}: {m.protect}"))
    kinds = Counter(m.protect.split(" — ")[0] for m in survivors)
    if kinds:
        lines.append("")
        lines.append(tr("what would protect them:"))
        for what, n in kinds.most_common():
            lines.append(f"  {what} ({n})")
    return "\n".join(lines)


def _as_json(a: Audit) -> dict[str, object]:
    rules = Counter(rule for m in a.caught for rule in m.caught_by)
    ops = Counter(m.op for m in a.mutations)
    caught_ops = Counter(m.op for m in a.caught)
    return {
        "game": a.game,
        "tried": len(a.mutations),
        "caught": len(a.caught),
        "score": round(a.score, 2),
        "partial": a.partial,
        "total": a.total,
        "max_seconds": a.budget,
        "old_score": round(a.old_score, 2),
        "written_once": a.written_once,
        "seconds": round(a.seconds, 2),
        "by_change": {op: {"tried": n, "caught": caught_ops[op]} for op, n in ops.items()},
        "caught_by_rule": dict(rules.most_common()),
        "survivors": [m.as_json() for m in a.survivors],
    }
