"""Random renames, moves and re-contexts, `pnp i18n update` after each round: every translation
whose text is still there comes back, never on the wrong text without the fuzzy flag, and at
least as often as GNU msgmerge brings it back from the same files.

For two bundled games (FABG and Austerity) a catalog is made with a made-up translation of
every entry, naming the context it was made for. Hypothesis then, in rounds, renames card ids,
moves cards to another deck, renames decks, renames cards and edits their texts (in the game,
in memory), changes contexts in the catalog as a translator's tool would, or strips every
context from it (a spreadsheet round trip). After each round's `update`:

- the catalog passes ``msgfmt -c`` and is a fixed point of ``msgmerge --update --previous``;
- an entry translated and not fuzzy holds the translation made for its own text (never one
  attached silently to another text);
- every entry that had no translation under its own context and text gets one back whenever
  msgmerge gives it one (run on the catalog and template of the same round), as fuzzy, with
  ``#|`` lines naming the entry it came from;
- a card renamed or moved, a deck renamed, a context changed in the catalog: the entry gets back
  the translation made for its own text (GNU offers one with the same text, maybe another's).

Set PNP_PROPERTY_STATS=FILE to have the counts written there.
"""

from __future__ import annotations

import copy
import json
import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_merge_recovery import check_never_silent, recovered

from pnp.build.printed import printed_texts
from pnp.content.load import Root, load_game
from pnp.content.model import Game, Text
from pnp.core.findings import Report
from pnp.i18n.catalog import init, po_path, pot_path, read_catalog, update, write_catalog
from pnp.i18n.catalog.pot import source_forms
from pnp.i18n.po import Catalog

from gettext_tools import GNU, msgfmt_errors, msgmerge_diff, need_gettext
from helpers import REPO

GAMES = ["fabg", "austerity"]
LANG = "pl"  # pnp has no words of its own in Polish: every entry is the test's
CARD = re.compile(r"^decks/([^/]+)/cards/([^/]+)/")
TOKEN = re.compile(
    r"\{[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_-]+)*\}"
)  # {name}, {tables.setup.3-4.x}
STATS: dict[str, int] = {}


@dataclass
class World:
    root: Root
    game: Game
    printed: set[str]
    texts: list[Text]  # every text of the game (the same objects as the game's)
    own: dict[int, tuple[str, str]] = field(default_factory=dict)  # id(text) -> (ctx, msgstr)
    moved: set[int] = field(default_factory=set)  # texts whose context changed this round
    edited: set[int] = field(default_factory=set)  # texts whose source changed


_LOADED: dict[str, tuple[Game, set[str]]] = {}


def _loaded(gid: str) -> tuple[Game, set[str]]:
    if gid not in _LOADED:
        root = Root(REPO)
        report = Report()
        game = load_game(root, gid, report)
        assert game is not None and not report.has_errors(), report.format_text()
        _LOADED[gid] = (game, printed_texts(root, game))
    return _LOADED[gid]


def _world(tmp: Path, gid: str) -> World:
    game0, printed = _loaded(gid)
    game = copy.deepcopy(game0)
    folder = tmp / f"root-{gid}"
    if folder.exists():
        shutil.rmtree(folder)
    (folder / "cards").mkdir(parents=True)
    world = World(Root(folder), game, set(printed), list(game.texts))
    init(world.root, game, LANG, printed=world.printed)
    path = po_path(world.root, gid, LANG)
    cat = read_catalog(path, "po")
    by_ctx = {t.ctx: t for t in world.texts}
    for entry in cat.entries:
        text = by_ctx.get(entry.msgctxt or "")
        if text is None:
            continue
        tokens = " ".join(dict.fromkeys(TOKEN.findall(entry.msgid + (entry.msgid_plural or ""))))
        sources = [entry.msgid] + [entry.msgid_plural or entry.msgid] * (len(entry.msgstr) - 1)
        entry.msgstr = [_made_up(entry.msgctxt or "", tokens, s) for s in sources]
        world.own[id(text)] = (text.ctx, entry.msgstr[0])
    write_catalog(path, cat)
    return world


def _made_up(ctx: str, tokens: str, source: str) -> str:
    """A translation naming its context, with the source's placeholders and line breaks at
    either end (msgfmt -c checks both)."""
    lead = source[: len(source) - len(source.lstrip("\n"))]
    trail = source[len(source.rstrip("\n")) :] if source.strip("\n") else ""
    return f"{lead}PL[{ctx}] {tokens} ż{trail}"


# --- what a round does -------------------------------------------------------------------------


def _cards(world: World) -> dict[tuple[str, str], list[Text]]:
    out: dict[tuple[str, str], list[Text]] = {}
    for text in world.texts:
        m = CARD.match(text.ctx)
        if m:
            out.setdefault((m.group(1), m.group(2)), []).append(text)
    return out


def _move(world: World, texts: list[Text], old: str, new: str) -> None:
    taken = {t.ctx for t in world.texts}
    for text in texts:
        ctx = text.ctx.replace(old, new, 1)
        while ctx in taken:
            ctx = ctx.replace(new, new + "x", 1)
            new += "x"
        if text.ctx in world.printed:
            world.printed.discard(text.ctx)
            world.printed.add(ctx)
        text.ctx = ctx
        world.moved.add(id(text))


def apply(world: World, op: tuple[str, int, int], n: int) -> str:
    kind, a, b = op
    cards = _cards(world)
    keys = sorted(cards)
    deck, card = keys[a % len(keys)]
    texts = cards[(deck, card)]
    prefix = f"decks/{deck}/cards/{card}/"
    if kind == "rename":
        _move(world, texts, prefix, f"decks/{deck}/cards/{card}-r{n}/")
    elif kind == "move":
        decks = sorted({d for d, _c in keys if d != deck}) or [deck + "-m"]
        _move(world, texts, f"decks/{deck}/", f"decks/{decks[b % len(decks)]}/")
    elif kind == "deck":
        every = [t for (d, _c), ts in cards.items() if d == deck for t in ts]
        _move(world, every, f"decks/{deck}/", f"decks/{deck}-r{n}/")
    elif kind == "retext":
        _move(world, texts, prefix, f"decks/{deck}/cards/{card}-e{n}/")
        text = texts[b % len(texts)]
        src = world.game.source_language
        if src in text.values and not text.count:
            text.values[src] += "!"
            world.edited.add(id(text))
    return kind


def apply_to_catalog(world: World, op: tuple[str, int, int]) -> str:
    """A translator's tool changed contexts in the catalog (or lost them all)."""
    kind, a, _b = op
    path = po_path(world.root, world.game.id, LANG)
    cat = read_catalog(path, "po")
    mine = [e for e in cat.entries if e.msgctxt not in (None, "pnp")]
    if kind == "tool" and mine:
        entry = mine[a % len(mine)]
        entry.msgctxt = f"{entry.msgctxt}/tool"
    elif kind == "strip":
        seen: set[str] = set()
        kept = []
        for entry in cat.entries:
            if entry.msgid not in seen and entry.msgctxt != "pnp":
                seen.add(entry.msgid)
                entry.msgctxt = None
                kept.append(entry)
        cat.entries = kept
        left = {e.msgstr[0] for e in [*kept, *cat.obsolete]}
        world.own = {k: v for k, v in world.own.items() if v[1] in left}  # the others are gone
    write_catalog(path, cat)
    return kind


OP = st.tuples(
    st.sampled_from(["rename", "move", "deck", "retext", "rename", "move", "tool", "strip"]),
    st.integers(0, 10_000),
    st.integers(0, 100),
)


# --- what must hold after each round --------------------------------------------------------


def check_round(world: World, before: Catalog, before_path: Path) -> None:
    po = po_path(world.root, world.game.id, LANG)
    pot = pot_path(world.root, world.game.id)
    assert not msgfmt_errors(po), msgfmt_errors(po)
    assert msgmerge_diff(po, pot) == [], "\n".join(msgmerge_diff(po, pot)[:30])
    after = read_catalog(po, "po")
    entries = {e.msgctxt: e for e in after.entries}
    src = world.game.source_language
    for text in world.texts:
        entry = entries.get(text.ctx)
        if entry is None or id(text) not in world.own:
            continue
        own_ctx, own = world.own[id(text)]
        if entry.translated and not entry.fuzzy:  # never silently another text's
            assert entry.msgstr[0] == own, (text.ctx, entry.msgstr[0], own)
            assert source_forms(text, src)[0] == entry.msgid
        if id(text) in world.moved and id(text) not in world.edited:
            assert entry.msgstr[0] == own, f"{own_ctx} -> {text.ctx}: got {entry.msgstr[0]!r}"
            STATS["moved texts back"] = STATS.get("moved texts back", 0) + 1
    check_never_silent(before, after)
    gnu_out = before_path.with_name("gnu.po")
    proc = subprocess.run(
        [str(GNU["msgmerge"]), "--previous", "-q", "-o", str(gnu_out), str(before_path), str(pot)],
        capture_output=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr.decode()
    gnu, ours = recovered(before, read_catalog(gnu_out, "gnu")), recovered(before, after)
    assert gnu <= ours, f"msgmerge brings back, pnp does not: {sorted(gnu - ours)[:5]}"
    STATS["msgmerge"] = STATS.get("msgmerge", 0) + len(gnu)
    STATS["pnp"] = STATS.get("pnp", 0) + len(ours)


@pytest.mark.parametrize("gid", GAMES)
def test_renamed_moved_and_recontexted_entries_come_back(
    gid: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    need_gettext()
    tmp = tmp_path_factory.mktemp(gid)

    @settings(
        max_examples=12,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )
    @given(st.lists(st.lists(OP, min_size=1, max_size=4), min_size=1, max_size=3))
    def run(rounds: list[list[tuple[str, int, int]]]) -> None:
        world = _world(tmp, gid)
        for n, ops in enumerate(rounds):
            world.moved.clear()
            for op in ops:
                if op[0] in ("tool", "strip"):
                    kind = apply_to_catalog(world, op)
                else:
                    kind = apply(world, op, n)
                STATS[kind] = STATS.get(kind, 0) + 1
            path = po_path(world.root, gid, LANG)
            before_path = tmp / "before.po"
            shutil.copyfile(path, before_path)
            before = read_catalog(before_path, "before")
            update(world.root, world.game, world.printed)
            STATS["updates"] = STATS.get("updates", 0) + 1
            check_round(world, before, before_path)

    run()
    out = os.environ.get("PNP_PROPERTY_STATS")
    if out:
        Path(out).write_text(json.dumps(STATS, indent=2), "utf-8")
