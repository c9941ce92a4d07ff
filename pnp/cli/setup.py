"""`pnp setup`: one set-up dealt from the box, as a player would lay it out."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from ..content.load import open_root
from ..core.errors import PnpError, UsageError
from ..core.findings import Report, json_text
from ..i18n.words import ngettext, tr
from .common import (
    Format,
    FormatOpt,
    GameArg,
    RootOpt,
    app,
    err,
    fail,
    findings_text,
    one_game,
    say,
)

if TYPE_CHECKING:
    from ..content.model import Difficulty, Game, Scenario

PlayersOpt = Annotated[
    int, typer.Option("--players", "-p", help="How many players.", min=1, max=100)
]
ScenarioOpt = Annotated[
    str | None,
    typer.Option(
        "--scenario", help="The scenario (default: the game's first).", show_default=False
    ),
]
DifficultyOpt = Annotated[
    str | None,
    typer.Option(
        "--difficulty", help="The scenario's difficulty (default: its first).", show_default=False
    ),
]
SeedOpt = Annotated[int, typer.Option("--seed", help="The same seed deals the same cards.")]
OddsOpt = Annotated[
    bool,
    typer.Option(
        "--odds",
        help="Also print each hand, row and pile's size and the chance of each kind of card "
        "in it (exact where it can be computed, else counted over --deals deals).",
    ),
]
DealsOpt = Annotated[
    int, typer.Option("--deals", help="Deals counted for --odds.", min=10, max=100_000)
]
LangOpt = Annotated[
    str | None,
    typer.Option("--lang", help="Language of the names (default: the source).", show_default=False),
]


@app.command("setup")
def setup_cmd(
    game: GameArg,
    players: PlayersOpt,
    scenario: ScenarioOpt = None,
    difficulty: DifficultyOpt = None,
    seed: SeedOpt = 1,
    show_odds: OddsOpt = False,
    deals: DealsOpt = 2000,
    lang: LangOpt = None,
    fmt: FormatOpt = Format.text,
    root: RootOpt = None,
) -> None:
    """Deal one set-up from the box, as the setup tables and the scenario's steps say, and
    print it as a player would lay it out; what cannot be dealt is a finding (exit 1)."""
    from ..i18n import Translator
    from ..i18n.catalog import read_translations
    from ..validate.deal import deal, table_deals
    from ..validate.deal.odds import odds
    from ..validate.deal.show import Shower, as_json, as_text
    from ..validate.deal.tabled import lay_out

    report = Report()
    try:
        r = open_root(root)
        g = one_game(r, game, report)
        sc, level = _choose(g, players, scenario, difficulty)
        language = _language(g, lang)
        catalogs = read_translations(r, g, Report())
        shower = Shower(g, Translator(g, language, catalogs.get(language)).text)
    except PnpError as exc:
        fail(exc)
    dealt = deal(g, sc, players, level, seed) if sc is not None else None
    built = {step.deck for step in sc.cards} if sc is not None else set()
    tables = table_deals(g, players, built)
    found = odds(g, sc, players, level, seed, deals) if show_odds and sc is not None else None
    laid = lay_out(g, tables, players, seed)
    if fmt is Format.json:
        said = as_json(dealt, tables, found, seed, laid)
        typer.echo(json_text(said))
    else:
        odds_asked = (found or [], deals) if show_odds else None
        say(as_text(shower, dealt, players, seed, tables, laid, odds_asked))
    for problem in dealt.problems if dealt is not None else []:
        report.add(problem.rule, problem.pos, problem.message, game=g.id)
    if report.has_errors():
        err(findings_text(report))
        raise typer.Exit(1)


def _choose(
    game: Game, players: int, scenario: str | None, difficulty: str | None
) -> tuple[Scenario | None, Difficulty | None]:
    """The scenario and difficulty asked for (or the first ones), checked against the
    player count; a UsageError names what there is."""
    from ..content.queries import player_range

    gp = game.meta.players
    if gp is not None and not gp.min <= players <= gp.max:
        raise UsageError(
            _game_range(gp.min, gp.max).format(n=players, game=game.id, lo=gp.min, hi=gp.max)
        )
    if scenario is None:
        sc = next(iter(game.scenarios.values()), None)
    elif scenario in game.scenarios:
        sc = game.scenarios[scenario]
    else:
        known = ", ".join(game.scenarios) or tr("none")
        raise UsageError(
            tr("no scenario {name!r} in {game}; scenarios: {known}").format(
                name=scenario, game=game.id, known=known
            )
        )
    if sc is None:
        if difficulty is not None:
            raise UsageError(tr("--difficulty: {game} has no scenarios").format(game=game.id))
        return None, None
    lo, hi = player_range(game, sc)
    if not lo <= players <= hi:
        raise UsageError(_scenario_range(lo, hi).format(n=players, name=sc.id, lo=lo, hi=hi))
    levels = sc.difficulties
    if difficulty is None:
        return sc, next(iter(levels.values()), None)
    if difficulty not in levels:
        known = ", ".join(levels) or tr("none")
        raise UsageError(
            tr("no difficulty {name!r} in scenario {scenario}; difficulties: {known}").format(
                name=difficulty, scenario=sc.id, known=known
            )
        )
    return sc, levels[difficulty]


def _language(game: Game, lang: str | None) -> str:
    if lang is None:
        return game.source_language
    if lang not in game.languages:
        raise UsageError(
            tr("--lang {lang}: {game} is written in {langs}").format(
                lang=lang, game=game.id, langs=", ".join(game.languages)
            )
        )
    return lang


def _game_range(lo: int, hi: int) -> str:
    """The message for a player count outside the game's: one count is said as one."""
    if lo == hi:  # a solo game (or one count only): no range to say
        return ngettext(
            "--players {n}: {game} is for {hi} player only",
            "--players {n}: {game} is for {hi} players only",
            hi,
        )
    return ngettext(
        "--players {n}: {game} is for {lo}-{hi} player",
        "--players {n}: {game} is for {lo}-{hi} players",
        hi,
    )


def _scenario_range(lo: int, hi: int) -> str:
    """The message for a player count outside a scenario's (see :func:`_game_range`)."""
    if lo == hi:
        return ngettext(
            "--players {n}: scenario {name} is for {hi} player only",
            "--players {n}: scenario {name} is for {hi} players only",
            hi,
        )
    return ngettext(
        "--players {n}: scenario {name} is for {lo}-{hi} player",
        "--players {n}: scenario {name} is for {lo}-{hi} players",
        hi,
    )
