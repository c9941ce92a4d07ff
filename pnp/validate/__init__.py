"""Validate stage: run every built-in check (and the game's own invariants) on loaded games."""

from __future__ import annotations

from ..content.load import Root, load_game
from ..content.model import Game
from ..core.findings import Report
from ..core.run import current, running
from ..i18n.catalog import Translations, read_translations
from .context import CHECKS, CheckContext


def load_all() -> None:
    """Import every check module: each adds its checks to CHECKS (in this order)."""
    # the order of registration is the order of the checks
    from . import box, geometry, invariants, numbers, scenarios, structure, tables, texts  # noqa: F401, I001
    from . import (  # noqa: F401
        agreement,
        assumptions,
        cardtables,
        limits,
        players,
        references,
        scripts,
        sentences,
        terms,
        untranslatable,
        values,
    )


def catalogs_for(root: Root, game: Game, report: Report) -> Translations:
    """The game's readable PO catalogs by language (problems of the others are findings in
    ``report``), read once per run: a build uses what its validation read."""
    read = current().store("validate.catalogs")
    key = (str(root.path), game.id, id(game))
    found = read.get(key)
    if found is None:
        found = read[key] = (game, read_translations(root, game, report))
    return found[1]


def validate_game(
    root: Root,
    game: Game,
    report: Report,
    fit_languages: list[str] | None = None,
    jobs: int = 0,
    catalogs: Translations | None = None,
) -> None:
    """Run every check. ``fit_languages``: the languages whose texts are fitted (None: all);
    ``jobs``: processes that fit texts (0: one per core, for large games); ``catalogs``: the
    game's catalogs when already read (the audit validates one game many times)."""
    load_all()
    if catalogs is None:
        catalogs = catalogs_for(root, game, report)
    ctx = CheckContext(
        report=report,
        root=root.path,
        game_dir=root.game_dir(game.id),
        catalogs=dict(catalogs),
        game_id=game.id,
        fit_languages=fit_languages,
        jobs=jobs,
    )
    for fn in CHECKS:
        fn(game, ctx)
    ctx.finish()


def validate(
    root: Root,
    game_ids: list[str],
    report: Report,
    fit_languages: list[str] | None = None,
    jobs: int = 0,
) -> dict[str, Game]:
    """Load and validate games; returns the games that could be loaded."""
    games: dict[str, Game] = {}
    with running():
        for gid in game_ids:
            game = load_game(root, gid, report)
            if game is None:
                continue
            validate_game(root, game, report, fit_languages, jobs)
            games[gid] = game
    return games
