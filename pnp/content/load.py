"""Load stage: find the games under a content root and read each into a :class:`Game`.

A game is a folder ``cards/<id>/`` with a ``game.yaml``; every other ``*.yaml`` file below it
adds sections (decks, tokens, boards, tables, layouts, icons, invariants). All problems are
collected into the report; a game is returned whenever game.yaml itself could be read, so that
validation can report everything at once.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.errors import UsageError
from ..core.findings import Pos, Report
from ..core.perf import collections_paused
from ..core.rules import (
    DUPLICATE_ID,
    LANGUAGE_CODE,
    PATH_OUTSIDE,
    RULE_REASON,
    SCHEMA,
    TEXT_LANGUAGE,
    Severity,
)
from .model import SECTION_NAMES, SOURCE, Game, GameFile, Sections, valid_language
from .names import suggest
from .schema import INVALID, Context, convert
from .sheets import Sheets
from .yamlio import YMap, load_file

GAME_FILE = "game.yaml"
ID_RE = re.compile(r"[a-z0-9][a-z0-9_-]*")
MAX_FILES = 2000


@dataclass(frozen=True)
class Root:
    """The content root: it holds cards/, locales/, fonts/ and output/."""

    path: Path

    @property
    def cards(self) -> Path:
        return self.path / "cards"

    @property
    def locales(self) -> Path:
        return self.path / "locales"

    @property
    def fonts(self) -> Path:
        return self.path / "fonts"

    @property
    def output(self) -> Path:
        return self.path / "output"

    def rel(self, p: Path) -> str:
        """``p`` relative to the root (symbolic links are not followed: the name the user sees)."""
        for candidate in (p, p.resolve()):
            try:
                return candidate.relative_to(self.path).as_posix()
            except ValueError:
                continue
        return p.as_posix()

    def game_dir(self, game: str) -> Path:
        return self.cards / game


def open_root(path: str | Path | None) -> Root:
    root = Path(path or ".").expanduser()
    if not root.is_dir():
        raise UsageError(f"content root {str(root)!r} is not a folder")
    return Root(root.resolve())


def discover(root: Root) -> list[str]:
    """Ids of the games under cards/, sorted."""
    if not root.cards.is_dir():
        return []
    return sorted(
        p.name
        for p in root.cards.iterdir()
        if p.is_dir() and not p.name.startswith(".") and (p / GAME_FILE).is_file()
    )


def select_games(root: Root, names: list[str] | None) -> list[str]:
    """The games a command should act on: the named ones (checked), else all."""
    found = discover(root)
    if not names:
        if not found:
            raise UsageError(
                f"no games found: {root.rel(root.cards)}/ holds no folder with a {GAME_FILE} "
                "(use --root to point at another content folder, or `pnp new GAME`)"
            )
        return found
    missing = [n for n in names if n not in found]
    if missing:
        known = ", ".join(found) or "none"
        raise UsageError(f"unknown game {missing[0]!r}; games under cards/: {known}")
    return list(dict.fromkeys(names))


def content_files(game_dir: Path) -> list[Path]:
    """Every YAML file of a game, game.yaml first, then sorted by path; symlinks are skipped."""
    files: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(game_dir, followlinks=False):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for d in dirnames:
            if (Path(dirpath) / d).is_symlink():  # os.walk lists it but never enters it
                files.append(Path(dirpath) / d)  # reported as a link by load_game
        for name in sorted(filenames):
            if name.endswith((".yaml", ".yml")) and not name.startswith("."):
                files.append(Path(dirpath) / name)
        if len(files) > MAX_FILES:
            break
    first = game_dir / GAME_FILE
    return [first, *sorted(f for f in files if f != first)]


Trees = dict[str, Any]  # a game's files parsed: relative path -> YAML tree (UNREADABLE)
UNREADABLE = object()


def load_game(root: Root, game_id: str, report: Report, trees: Trees | None = None) -> Game | None:
    """A game read from its files, or from ``trees`` (:func:`read_trees`) when given: the
    audit converts changed trees again without reading a file."""
    with collections_paused():  # everything made here lives on: nothing for the collector
        return _load_game(root, game_id, report, trees)


def read_trees(root: Root, game_id: str, report: Report) -> Trees:
    """Every content file of a game parsed into YAML trees that remember their positions
    (symbolic links are reported and not read)."""
    trees: Trees = {}
    for file in content_files(root.game_dir(game_id)):
        rel = root.rel(file)
        if file.is_symlink():
            report.add(
                PATH_OUTSIDE,
                Pos(rel),
                "symbolic links are not read; copy it into the game folder",
                game=game_id,
            )
            continue
        lf = load_file(file, rel, report, game_id)
        trees[rel] = lf.data if lf.ok else UNREADABLE
    return trees


def _load_game(root: Root, game_id: str, report: Report, trees: Trees | None) -> Game | None:
    gdir = root.game_dir(game_id)
    _check_folder_name(root, gdir, game_id, report)
    ctx = Context(report=report, game=game_id)
    if trees is None:
        trees = read_trees(root, game_id, report)
    sheets = Sheets(root.path, gdir, report, game_id)
    meta, parts, rel_files = _read_files(root, gdir, ctx, trees, sheets)
    if meta is None:
        if not any(f.pos.path.endswith(GAME_FILE) and f.game == game_id for f in report.errors):
            report.add(
                SCHEMA, Pos(root.rel(gdir / GAME_FILE)), "game.yaml could not be read", game=game_id
            )
        return None
    _apply_rule_settings(meta, report, game_id)
    game = Game(id=game_id, folder=root.rel(gdir), meta=meta, files=rel_files)
    for _rel, part in [("game.yaml", meta), *parts]:
        _merge(game, part, report)
    game.texts = list(ctx.texts)
    _check_languages(game, report)
    _resolve_source_texts(game)
    return game


def _check_folder_name(root: Root, gdir: Path, game_id: str, report: Report) -> None:
    if not ID_RE.fullmatch(game_id):
        report.add(
            SCHEMA,
            Pos(root.rel(gdir)),
            f"the folder name {game_id!r} is not a game id: rename it with lower-case letters, "
            "digits, - and _",
            game=game_id,
        )


def _read_files(
    root: Root, gdir: Path, ctx: Context, trees: Trees, sheets: Sheets
) -> tuple[GameFile | None, list[tuple[str, Sections]], list[str]]:
    """Every content file of a game, converted: game.yaml (None when it could not be read), the
    other files' sections with their paths, and the paths of every file read (the
    spreadsheets they name last)."""
    meta: GameFile | None = None
    parts: list[tuple[str, Sections]] = []
    for rel, tree in trees.items():
        obj = _read_file(root.path / rel, rel, gdir, ctx, tree, sheets)
        if isinstance(obj, GameFile):
            meta = obj
        elif obj is not None:
            parts.append((rel, obj))
    return meta, parts, [*trees, *sheets.read]


def _read_file(
    file: Path, rel: str, gdir: Path, ctx: Context, data: Any, sheets: Sheets
) -> Sections | None:
    """One content file, parsed, as its sections (the game's own game.yaml as a GameFile), or
    None when it is empty or unusable (reported). Spreadsheets it names are read in place."""
    report, game_id = ctx.report, ctx.game
    if data is UNREADABLE:
        return None
    if data is None:
        if file.name == GAME_FILE:
            report.add(SCHEMA, Pos(rel, 1, 1), "game.yaml is empty", game=game_id)
        return None
    if not isinstance(data, YMap):
        report.add(
            SCHEMA,
            Pos(rel, 1, 1),
            "a content file must be a mapping of sections (decks:, tables:, ...)",
            game=game_id,
        )
        return None
    target = GameFile if file.name == GAME_FILE and file.parent == gdir else Sections
    obj = convert(sheets.expand(data), target, data.pos, ctx)
    return None if obj is INVALID else obj


def _apply_rule_settings(meta: GameFile, report: Report, game: str) -> None:
    from ..core.rules import RULES, UNKNOWN_KEY

    overrides: dict[str, Severity] = {}
    for rid, setting in meta.rules.items():
        if rid not in RULES:
            from .schema import suggest

            report.add(
                UNKNOWN_KEY,
                setting.pos,
                f"unknown rule {rid!r}; {suggest(rid, sorted(RULES))}see `pnp docs rules`",
                game=game,
            )
            continue
        overrides[rid] = Severity(setting.severity)
        if not setting.reason.strip():
            report.add(
                RULE_REASON,
                setting.pos,
                f'rules.{rid} changes a built-in rule without a reason; add reason: "..." '
                "so reviewers know why",
                game=game,
            )
    report.overrides[game] = overrides


def _merge(game: Game, part: Sections, report: Report) -> None:
    for name in SECTION_NAMES:
        value = getattr(part, name)
        if name == "invariants":
            game.invariants.extend(value)
            continue
        target: dict[str, Any] = getattr(game, name)
        for key, item in value.items():
            if key in target:
                first = target[key].pos
                report.add(
                    DUPLICATE_ID,
                    item.at("id")
                    if item.given("id")
                    else (item.pos if item.pos.line else part.at(name)),
                    f"{name[:-1]} {key!r} is already defined at {first}; rename one of them",
                    game=game.id,
                )
                continue
            if not ID_RE.fullmatch(str(key)):
                report.add(
                    SCHEMA,
                    item.at("id") if item.given("id") else item.pos,
                    f"id {key!r} should use lower-case letters, digits, - and _ only",
                    game=game.id,
                )
            target[key] = item


def _check_languages(game: Game, report: Report) -> None:
    meta = game.meta
    written = sorted({lang for text in game.texts for lang in text.values} - {SOURCE})
    for i, lang in enumerate(meta.languages):
        if not valid_language(lang):
            hint = suggest(lang, [w for w in written if w not in meta.languages])
            report.add(  # a text in the language meant is then in an undeclared one
                LANGUAGE_CODE,
                meta.at("languages"),
                f"{lang!r} is not a locale code; {hint}use codes such as it, en, es, pt_BR, no",
                game=game.id,
                subject=("languages/*",),
            )
        if lang in meta.languages[:i]:
            report.add(
                DUPLICATE_ID, meta.at("languages"), f"language {lang!r} listed twice", game=game.id
            )
    meta.languages = [lang for lang in dict.fromkeys(meta.languages) if valid_language(lang)]
    if not valid_language(meta.source_language):
        report.add(
            LANGUAGE_CODE,
            meta.at("source_language"),
            f"{meta.source_language!r} is not a locale code; use e.g. it, en, es",
            game=game.id,
        )
    elif meta.source_language not in meta.languages:
        report.add(
            SCHEMA,
            meta.at("source_language"),
            f"the source language {meta.source_language!r} must be one of languages: "
            f"{', '.join(meta.languages)}",
            game=game.id,
        )
    declared = set(meta.languages)
    for text in game.texts:
        for lang in text.values:
            if lang == SOURCE:
                continue
            if not valid_language(lang):
                report.add(
                    LANGUAGE_CODE,
                    text.at(lang),
                    f"{lang!r} is not a locale code; use codes such as it, en, es, pt_BR, no",
                    game=game.id,
                )
            elif lang not in declared:
                report.add(  # one cause for every text in that language: folded under the first
                    TEXT_LANGUAGE,
                    text.at(lang),
                    f"text in {lang!r}, which game.yaml does not list under languages; "
                    "add it there or remove this text",
                    game=game.id,
                    subject=(f"languages/{lang}",),
                    needs=(f"languages/{lang}",),
                )


def _resolve_source_texts(game: Game) -> None:
    src = game.source_language
    for text in game.texts:
        if SOURCE in text.values:
            value = text.values.pop(SOURCE)
            text.values.setdefault(src, value)
            text.lpos.setdefault(src, text.lpos.pop(SOURCE, text.pos))
