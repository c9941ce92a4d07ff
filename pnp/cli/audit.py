"""`pnp audit`: which facts of a game no rule protects."""

from __future__ import annotations

import json
import math
import sys
from collections import Counter
from collections.abc import Callable
from itertools import groupby
from typing import TYPE_CHECKING, Annotated

import typer

from ..content.load import open_root, select_games
from ..core.errors import PnpError, UsageError
from ..core.findings import Report
from ..i18n.words import tr
from .common import Format, FormatOpt, RootOpt, app, err, fail, game_names

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
    root: RootOpt = None,
) -> None:
    """Change each number, count, table cell and reference of a game once, validate, and list
    the changes no rule catches: the facts nothing protects."""
    from ..validate.audit import audit_game

    report = Report()
    try:
        if min_score is not None and not math.isfinite(min_score):
            raise UsageError(tr("--min-score {value}: give a number").format(value=min_score))
        r = open_root(root)
        (gid,) = select_games(r, [game])
        result = audit_game(r, gid, report, jobs=jobs, progress=_progress(gid))
    except PnpError as exc:
        fail(exc)
    if sys.stderr.isatty():
        sys.stderr.write("\r\x1b[K")
    if result is None:
        err(report.format_text())
        fail(UsageError(tr("{game} cannot be read: run `pnp validate {game}`").format(game=gid)))
    if fmt is Format.json:
        typer.echo(json.dumps(_as_json(result), ensure_ascii=False, indent=2))
    else:
        text = _as_text(result)
        if text:
            typer.echo(text)
    err(_summary(result))
    raise typer.Exit(1 if min_score is not None and result.score < min_score else 0)


def _progress(game: str) -> Callable[[int, int], None]:
    tty = sys.stderr.isatty()

    def show(done: int, total: int) -> None:
        if tty:
            sys.stderr.write(f"\r\x1b[Kaudit {game}: {done}/{total}")
            sys.stderr.flush()

    return show


def _summary(a: Audit) -> str:
    return tr(
        "{game}: {caught} of {tried} changes caught ({score} %), {survived} unprotected; "
        "{seconds} s"
    ).format(
        game=a.game,
        caught=len(a.caught),
        tried=len(a.mutations),
        score=f"{a.score:.1f}",
        survived=len(a.survivors),
        seconds=f"{a.seconds:.1f}",
    )


def _as_text(a: Audit) -> str:
    """The survivors grouped by file, then what kind of rule would catch each kind."""
    from ..validate.audit import HINTS

    lines: list[str] = []
    survivors = sorted(a.survivors, key=lambda m: (m.pos.path, m.pos.line, m.pos.col))
    for path, group in groupby(survivors, key=lambda m: m.pos.path):
        lines.append(path)
        for m in group:
            lines.append(f"  {m.pos.line}:{m.pos.col}: {m.kind} {m.key}: {m.old!r} -> {m.new!r}")
    kinds = Counter(m.kind for m in survivors)
    if kinds:
        lines.append("")
        lines.append("what would protect them:")
        for kind, n in kinds.most_common():
            lines.append(f"  {kind} ({n}): {HINTS[kind]}")
    return "\n".join(lines)


def _as_json(a: Audit) -> dict[str, object]:
    rules = Counter(rule for m in a.caught for rule in m.caught_by)
    return {
        "game": a.game,
        "tried": len(a.mutations),
        "caught": len(a.caught),
        "score": round(a.score, 2),
        "seconds": round(a.seconds, 2),
        "caught_by_rule": dict(rules.most_common()),
        "survivors": [m.as_json() for m in a.survivors],
    }
