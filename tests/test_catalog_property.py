"""Random sequences of source edits, `pnp i18n update` after each: every gettext tool accepts
every catalog, GNU's tools leave it unchanged, and not one translation is lost or altered.

For each bundled game: a Polish catalog (three plural forms) is made and filled with a made-up
translation of every entry (some fuzzy, some with a translator's comment). Hypothesis then
changes the game's texts in memory — long and short rewrites, deletions, restorations (as they
were or changed), texts gaining and losing plural forms — and runs `update` after each edit.
After each update: `msgfmt -c --check-format` accepts the catalog and the template, polib and
translate-toolkit read them, `msgcat` and `msgmerge --update --previous` leave them unchanged,
and every translation made at the start is still in the file, unaltered: in its entry (fuzzy
when its source changed), or in an obsolete entry while its source is gone.

Set PNP_PROPERTY_STATS=FILE to have the number of update cycles and edits written there.
"""

from __future__ import annotations

import copy
import json
import os
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pnp.build.pipeline import printed_texts
from pnp.content.load import Root, load_game
from pnp.content.model import Game, Text
from pnp.core.findings import Report
from pnp.i18n.catalog import init, po_path, pot_path, read_catalog, update
from pnp.i18n.po import Catalog, Entry

from gettext_tools import (
    msgcat_diff,
    msgfmt_errors,
    msgmerge_diff,
    need_gettext,
    polib_entries,
    toolkit_units,
)
from helpers import REPO

TOKEN = re.compile(
    r"\{[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_-]+)*\}"
)  # {name}, {tables.setup.3-4.x}
GAMES = ["fabg", "austerity", "status", "which-side"]
LANG = "pl"  # three plural forms, and pnp has no words of its own in Polish
STATS = {"examples": 0, "updates": 0, "edits": {}}

WORDS = (
    "Pesca una carta e pagala subito",
    "tira di nuovo «RUPE» e perdi 2 {coin}",
    "la boss sceglie—senza discutere—chi scioperа",
    "elige/descarta: 3-4 jugadores (variante)",
    'dice "sì" e poi\u00a0«no»',
    "Ñandú, ça, Überraschung, Łódź, ₽ 100 %",
    "a\\b \t tab",
    "x" * 90,
)


@dataclass
class World:
    """One game in memory, its catalog on disk, and what the translator wrote at the start."""

    root: Root
    game: Game
    printed: set[str]
    order: list[str]  # every text context, in the game's order
    texts: dict[str, Text]  # ctx -> the text as it is now (also the removed ones)
    gone: set[str] = field(default_factory=set)
    written: dict[str, tuple[str, ...]] = field(default_factory=dict)  # ctx -> forms


_GAMES: dict[str, tuple[Game, set[str]]] = {}


def _loaded(gid: str) -> tuple[Game, set[str]]:
    if gid not in _GAMES:
        root = Root(REPO)
        report = Report()
        game = load_game(root, gid, report)
        assert game is not None and not report.has_errors(), report.format_text()
        _GAMES[gid] = (game, printed_texts(root, game))
    return _GAMES[gid]


def _translate(entry: Entry) -> list[str]:
    """A made-up translation, different per form and per entry, keeping the source's tokens."""
    tokens = " ".join(dict.fromkeys(TOKEN.findall(entry.msgid + (entry.msgid_plural or ""))))
    return [f"ⓟ {entry.msgctxt} #{i} «żółć» {tokens}".strip() for i in range(len(entry.msgstr))]


def _world(tmp: Path, gid: str) -> World:
    game0, printed = _loaded(gid)
    game = copy.deepcopy(game0)
    root_dir = tmp / f"root-{gid}"
    if root_dir.exists():
        shutil.rmtree(root_dir)
    (root_dir / "cards").mkdir(parents=True)
    root = Root(root_dir)
    texts = {t.ctx: t for t in game.texts}
    world = World(root, game, set(printed), [t.ctx for t in game.texts], texts)
    init(root, game, LANG, printed=world.printed)
    path = po_path(root, gid, LANG)
    cat = read_catalog(path, "po")
    for i, entry in enumerate(cat.entries):
        if entry.msgctxt == "pnp":
            continue
        entry.msgstr = _translate(entry)
        if i % 7 == 3:
            entry.flags.fuzzy = True
        if i % 5 == 1:
            entry.comments.append(f"note of the translator on {entry.msgctxt}")
        world.written[entry.msgctxt or ""] = tuple(entry.msgstr)
    from pnp.i18n.catalog import write_catalog

    write_catalog(path, cat)
    return world


# --- edits -------------------------------------------------------------------------------------


def _source(world: World, ctx: str) -> str:
    return world.texts[ctx].values[world.game.source_language]


def apply(world: World, edit: tuple[str, int, int]) -> str:
    kind, which, variant = edit
    src = world.game.source_language
    live = [c for c in world.order if c not in world.gone and c in world.printed]
    gone = [c for c in world.order if c in world.gone]
    if kind == "restore" and gone:
        ctx = gone[which % len(gone)]
        world.gone.discard(ctx)
        if variant % 2:
            _set(world.texts[ctx], src, _source(world, ctx) + " " + WORDS[variant % len(WORDS)])
        world.game.texts = [world.texts[c] for c in world.order if c not in world.gone]
        return "restore-changed" if variant % 2 else "restore"
    if not live:
        return "none"
    if kind == "restore":
        kind = "delete"  # nothing to restore yet: remove a text, to bring back later
    ctx = live[which % len(live)]
    text = world.texts[ctx]
    if kind == "delete":
        world.gone.add(ctx)
        world.game.texts = [world.texts[c] for c in world.order if c not in world.gone]
    elif kind == "long":
        base = WORDS[variant % len(WORDS)]
        _set(text, src, (base + " — ") * (3 + variant % 4) + _source(world, ctx))
    elif kind == "short":
        _set(text, src, WORDS[variant % len(WORDS)][: 5 + variant % 20].strip() or "x")
    elif kind == "plural":
        if text.count:
            text.count, text.forms = None, {}
        else:
            text.count = "n"
            other = text.values[src]
            text.forms = {src: {"one": f"{other} ({{n}} one)", "other": other}}
    elif kind == "back":  # a changed text goes back to what it said at the start
        original = _GAMES[world.game.id][0]
        first = next((t for t in original.texts if t.ctx == ctx), None)
        if first is not None:
            text.values = dict(first.values)
            text.count, text.forms = first.count, copy.deepcopy(first.forms)
    return kind


def _set(text: Text, lang: str, value: str) -> None:
    text.values[lang] = value
    if text.count:
        text.forms[lang] = {"one": value + " ({n})", "other": value}


EDIT = st.tuples(
    st.sampled_from(["long", "short", "delete", "restore", "plural", "back", "delete", "restore"]),
    st.integers(0, 10_000),
    st.integers(0, 1_000),
)


# --- what must hold after every update --------------------------------------------------------


def check_tools(world: World) -> None:
    po = po_path(world.root, world.game.id, LANG)
    pot = pot_path(world.root, world.game.id)
    for path in (po, pot):
        assert not msgfmt_errors(path), msgfmt_errors(path)
        assert msgcat_diff(path) == [], "\n".join(msgcat_diff(path)[:40])
        toolkit_units(path)
    changed = msgmerge_diff(po, pot)
    assert changed == [], "\n".join(changed[:40])


def check_nothing_lost(world: World) -> None:
    po = po_path(world.root, world.game.id, LANG)
    entries = polib_entries(po)  # an independent reader
    cat = read_catalog(po, "po")
    by_ctx: dict[str, list[tuple[str, ...]]] = {}
    comments: dict[str, str] = {}
    for (ctx, _msgid), forms in entries.items():
        by_ctx.setdefault(ctx or "", []).append(forms)
    for entry in [*cat.entries, *cat.obsolete]:
        comments[entry.msgctxt or ""] = "\n".join(entry.comments)
    for ctx, forms in world.written.items():
        held = by_ctx.get(ctx, [])
        for i, form in enumerate(forms):
            assert any(i < len(h) and h[i] == form for h in held) or form in comments.get(
                ctx, ""
            ), f"{ctx}: msgstr[{i}] {form!r} lost; the file holds {held}"
    _check_state(world, cat)


def _check_state(world: World, cat: Catalog) -> None:
    """Present texts are active entries; removed ones are obsolete (when translated)."""
    active = {e.msgctxt for e in cat.entries}
    obsolete = {e.msgctxt for e in cat.obsolete}
    for ctx in world.written:
        if ctx in world.gone:
            assert ctx not in active and ctx in obsolete, ctx
        elif ctx in world.printed:
            assert ctx in active, ctx
    keys = [(e.msgctxt, e.msgid) for e in [*cat.entries, *cat.obsolete]]
    assert len(keys) == len(set(keys)), "a duplicate definition"


@pytest.mark.slow
@pytest.mark.parametrize("gid", GAMES)
def test_updates_keep_every_translation_and_every_tool_happy(
    gid: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    need_gettext()
    tmp = tmp_path_factory.mktemp(gid)

    @settings(
        max_examples=10 if gid == "which-side" else 20,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )
    @given(st.lists(EDIT, min_size=1, max_size=8))
    def run(edits: list[tuple[str, int, int]]) -> None:
        world = _world(tmp, gid)
        check_tools(world)
        STATS["examples"] += 1
        for edit in edits:
            kind = apply(world, edit)
            STATS["edits"][kind] = STATS["edits"].get(kind, 0) + 1  # type: ignore[index]
            update(world.root, world.game, world.printed)
            STATS["updates"] += 1
            check_tools(world)
            check_nothing_lost(world)

    run()
    out = os.environ.get("PNP_PROPERTY_STATS")
    if out:
        Path(out).write_text(json.dumps(STATS, indent=2), "utf-8")
