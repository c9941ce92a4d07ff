"""`pnp audit`: mutation testing of a content pack (issue 17)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pnp.cli import app
from pnp.content.load import open_root
from pnp.core.findings import Report
from pnp.validate.audit import audit_game

from helpers import FIXTURES, REPO, make_root

runner = CliRunner()

INVARIANT = """invariants:
  - id: columns-deal-their-card
    for_each: "column in tables.deal.columns"
    where: "column.deals"
    assert: "column.deals.card == [column.id]"
    message:
      en: "column {id} of the deal table must deal the card {id}"
      it: "la colonna {id} della tabella deve distribuire la carta {id}"
"""


def _mini(tmp_path: Path, invariant: bool) -> Path:
    root = make_root(tmp_path, FIXTURES / "clean")
    if invariant:
        (root / "cards" / "mini" / "rules.yaml").write_text(INVARIANT, "utf-8")
    return root


def _audit(root: Path):
    result = audit_game(open_root(root), "mini", Report(), jobs=1)
    assert result is not None
    return result


def key(m) -> tuple:
    return (m.pos.path, m.pos.line, m.pos.col, m.old, m.new)


def test_removing_the_only_invariant_loses_exactly_what_it_caught(tmp_path: Path) -> None:
    with_it = _audit(_mini(tmp_path / "a", invariant=True))
    without = _audit(_mini(tmp_path / "b", invariant=False))
    only_invariant = {key(m) for m in with_it.mutations if m.caught_by == ["invariant"]}
    assert only_invariant  # the invariant protects something no built-in rule does
    survivors_with = {key(m) for m in with_it.survivors}
    survivors_without = {key(m) for m in without.survivors}
    # the invariant's own file adds no facts to mutate (its id and message are not facts)
    assert {key(m) for m in with_it.mutations} == {key(m) for m in without.mutations}
    assert survivors_without == survivors_with | only_invariant
    assert len(without.caught) == len(with_it.caught) - len(only_invariant)


def test_what_is_mutated_and_what_is_not(tmp_path: Path) -> None:
    audit = _audit(_mini(tmp_path, invariant=False))
    kinds = {m.kind for m in audit.mutations}
    assert {"count", "cell", "number"} <= kinds
    keys = [m.key for m in audit.mutations]
    assert "decks.main.cards[0].copies" in keys  # a count, at its own line and column
    copies = next(m for m in audit.mutations if m.key == "decks.main.cards[0].copies")
    assert (copies.pos.line, copies.pos.col, copies.old, copies.new) == (7, 17, 4, 5)
    assert "count" in [m.kind for m in audit.mutations if m.key.endswith(".copies")]
    # presentation is not a fact: token sizes, layouts and icons are left alone
    assert not any(k.endswith(".size") or k.startswith(("layouts", "icons")) for k in keys)
    # a copy of alpha more is caught by the box count
    assert "box-count" in copies.caught_by
    assert 0 < audit.score < 100


def test_cli_json_text_and_min_score(tmp_path: Path) -> None:
    root = _mini(tmp_path, invariant=False)
    result = runner.invoke(app, ["audit", "mini", "--root", str(root), "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["tried"] == data["caught"] + len(data["survivors"])
    for s in data["survivors"]:
        assert {"path", "line", "column", "old", "new", "kind", "hint"} <= set(s)
        assert s["path"].startswith("cards/mini/") and s["line"] > 0 and s["column"] > 0
    assert "changes caught" in result.stderr
    text = runner.invoke(app, ["audit", "mini", "--root", str(root)])
    assert text.exit_code == 0
    assert "cards/mini/" in text.stdout and "what would protect them" in text.stdout
    strict = runner.invoke(app, ["audit", "mini", "--root", str(root), "--min-score", "100"])
    assert strict.exit_code == 1
    easy = runner.invoke(app, ["audit", "mini", "--root", str(root), "--min-score", "0"])
    assert easy.exit_code == 0
    assert runner.invoke(app, ["audit", "nope", "--root", str(root)]).exit_code == 2


@pytest.mark.slow
def test_audit_in_parallel_matches_one_process(tmp_path: Path) -> None:
    root = tmp_path / "root"
    shutil.copytree(REPO / "cards" / "fabg", root / "cards" / "fabg")
    shutil.copytree(REPO / "pnp" / "data" / "fonts", root / "fonts")
    one = audit_game(open_root(root), "fabg", Report(), jobs=1)
    two = audit_game(open_root(root), "fabg", Report(), jobs=2)
    assert one is not None and two is not None
    assert [(key(m), m.caught_by) for m in one.mutations] == [
        (key(m), m.caught_by) for m in two.mutations
    ]


def test_a_mutation_is_written_and_undone_at_its_real_key() -> None:
    """An integer key (a scenario's ``draw: {2: 12}``) and a key holding a dot are changed and
    restored as they are: the audit once wrote ``'2'`` beside ``2`` and left it there, so every
    later change in that process failed on a schema error and counted as caught."""
    from pnp.content.yamlio import parse_text
    from pnp.validate.audit import locate, mutations

    text = "scenarios:\n  s:\n    cards:\n      - {deck: d, draw: {2: 12, 3: 14}}\nx: {a.b: 5}\n"
    tree = parse_text(text, "cards/g/s.yaml", Report()).data
    found = {(m.key, m.op): m for m in mutations({"cards/g/s.yaml": tree})}
    m = found[("scenarios.s.cards[0].draw.2", "+1")]
    holder, at = locate({"cards/g/s.yaml": tree}, m)
    assert at == 2 and holder[at] == 12
    holder[at] = m.new
    assert dict(tree["scenarios"]["s"]["cards"][0]["draw"]) == {2: 13, 3: 14}
    dotted = found[("x.a.b", "+1")]
    holder, at = locate({"cards/g/s.yaml": tree}, dotted)
    assert at == "a.b" and holder[at] == 5


def _reference(root: Path, game_id: str):
    """Every change of the audit tried the slow way: the files' trees changed (a text's
    number in its YAML string), the whole game converted and validated again."""
    from pnp.content.load import load_game, read_trees
    from pnp.content.yamlio import YMap, YSeq
    from pnp.core.run import running
    from pnp.i18n.catalog import read_translations
    from pnp.validate import validate_game
    from pnp.validate.audit import apply, mutations
    from pnp.validate.audit.runner import _keys

    def strings(node):
        if isinstance(node, YMap):
            for k, v in node.items():
                if isinstance(v, str):
                    yield node, k, node.value_pos(k)
                yield from strings(v)
        elif isinstance(node, YSeq):
            for v in node:
                yield from strings(v)

    r = open_root(root)
    with running():
        trees = read_trees(r, game_id, Report())
        game = load_game(r, game_id, Report(), trees)
        catalogs = read_translations(r, game, Report())

        def found() -> set:
            report = Report()
            g = load_game(r, game_id, report, trees)
            if g is not None:
                validate_game(r, g, report, fit_languages=[], jobs=1, catalogs=catalogs)
            return _keys(report.findings)

        base = found()
        at = {(p.path, p.line, p.col): (n, k) for t in trees.values() for n, k, p in strings(t)}
        out = {}
        for m in mutations(trees, game):
            if m.op == "text":
                holder, k = at[(m.pos.path, m.pos.line, m.pos.col)]
                old = holder[k]
                start, end = m.span
                if old[start:end] != m.old:
                    continue  # the YAML string is not the text as loaded (folded, escaped)
                holder[k] = old[:start] + m.new + old[end:]
                try:
                    out[key(m), m.op] = bool(found() - base)
                finally:
                    holder[k] = old
                continue
            undo = apply(trees, m)
            try:
                out[key(m), m.op] = bool(found() - base)
            finally:
                undo()
    return out


@pytest.mark.parametrize(
    ("source", "game_id"),
    [(FIXTURES / "clean", "mini"), (FIXTURES / "games", "outbreak")],
    ids=["mini", "outbreak"],
)
def test_the_fast_audit_catches_what_validating_everything_catches(
    tmp_path: Path, source: Path, game_id: str
) -> None:
    """Converting only the changed file, stopping at the first new finding, skipping the checks
    a change cannot concern and evaluating only the invariants it touches: the same changes
    caught as validating the whole game again."""
    root = make_root(tmp_path, source)
    if game_id == "mini":
        (root / "cards" / "mini" / "rules.yaml").write_text(INVARIANT, "utf-8")
    fast = audit_game(open_root(root), game_id, Report(), jobs=1)
    assert fast is not None
    slow = _reference(root, game_id)
    assert len(slow) > 0.9 * len(fast.mutations)
    got = {(key(m), m.op): bool(m.caught_by) for m in fast.mutations}
    differ = {k: (got[k], v) for k, v in slow.items() if got[k] != v}
    assert not differ, differ
    assert {m.op for m in fast.mutations} >= {"+1", "-1", "0", "delete", "text"}


@pytest.mark.slow
@pytest.mark.parametrize("game_id", ["fabg", "status"])
def test_the_fast_audit_of_a_bundled_game_is_exact(tmp_path: Path, game_id: str) -> None:
    root = tmp_path / "root"
    shutil.copytree(REPO / "cards" / game_id, root / "cards" / game_id)
    shutil.copytree(REPO / "pnp" / "data" / "fonts", root / "fonts")
    fast = audit_game(open_root(root), game_id, Report(), jobs=1)
    assert fast is not None
    slow = _reference(root, game_id)
    got = {(key(m), m.op): bool(m.caught_by) for m in fast.mutations}
    assert {k: (got[k], v) for k, v in slow.items() if got[k] != v} == {}


def test_numbers_written_once_are_said_so(tmp_path: Path) -> None:
    """A number nothing else in the game holds (Rails' ticket points, printed by reference on
    their own card; the points of its route table) is reported as written once, not given a
    rule that cannot catch it; a value a table of cards lists (Courtship's ranks) is not."""
    from pnp.validate.audit import WRITTEN_ONCE

    root = make_root(tmp_path, FIXTURES / "games")
    rails = audit_game(open_root(root), "rails", Report(), jobs=1)
    assert rails is not None
    once = {m.key for m in rails.survivors if m.protect == WRITTEN_ONCE}
    points = {f"decks.tickets.cards[{i}].values.points" for i in range(30)}
    assert points <= once
    assert {f"tables.route-scores.rows[{i}][1]" for i in range(6)} <= once
    # a track no table covers: nothing but its texts (text-number) has its ends
    assert "tracks.score.max" in once
    # key cells, dealing cells and the box are something else
    assert not {k for k in once if k.endswith("][0]") or k.startswith("box")}
    assert not {k for k in once if k.startswith("tables.per-player.rows[0][1]")}  # deals
    assert rails.written_once == sum(1 for m in rails.survivors if m.key in once)
    outbreak = audit_game(open_root(root), "outbreak", Report(), jobs=1)
    assert outbreak is not None
    # the infection-rate table covers its track: a track made longer or shorter is caught
    ends = [m for m in outbreak.mutations if m.key == "tracks.infection-rate.max"]
    assert ends and all(m.caught_by for m in ends)
    assert [m.caught_by for m in ends if m.op != "0"] == [["table-coverage"]] * 2
    court = audit_game(open_root(root), "courtship", Report(), jobs=1)
    assert court is not None
    ranks = [m for m in court.mutations if m.key.endswith(".values.rank")]
    assert ranks and all(m.caught_by for m in ranks)  # table-cards: the reference table
    assert not any(m.protect == WRITTEN_ONCE for m in court.survivors if "values" in m.key)
    result = runner.invoke(app, ["audit", "rails", "--root", str(root), "--format", "json"])
    assert json.loads(result.stdout)["written_once"] == rails.written_once
    text = runner.invoke(app, ["audit", "rails", "--root", str(root)])
    assert f"{rails.written_once} of the unprotected are numbers written once" in text.output


def test_the_advice_fits_the_table_and_the_step(tmp_path: Path) -> None:
    """Survivors get advice that could protect them: a supply column that adds up to no player
    count gets an invariant on the player count, not a row total; a market's reveal that no
    table deals is written once; a code swapped in a cell is no number to take from a
    table."""
    from pnp.validate.audit import WRITTEN_ONCE

    root = make_root(tmp_path, FIXTURES / "games")
    realm = audit_game(open_root(root), "realm", Report(), jobs=1)
    assert realm is not None
    supply = [m for m in realm.survivors if m.key.startswith("tables.supply.rows")]
    assert supply and all(m.protect.startswith("invariant — one relating column") for m in supply)
    gems = audit_game(open_root(root), "gems", Report(), jobs=1)
    assert gems is not None
    reveals = [m for m in gems.survivors if m.key.endswith("].reveal")]
    assert reveals and all(m.protect == WRITTEN_ONCE for m in reveals)
    island = audit_game(open_root(root), "island", Report(), jobs=1)
    assert island is not None
    swapped = [m for m in island.survivors if m.kind == "reference" and ".rows[" in m.key]
    assert swapped and not any(m.protect.startswith("reference — take") for m in swapped)


TEST_GAMES = sorted(p.name for p in (FIXTURES / "games" / "cards").iterdir() if p.is_dir())


@pytest.mark.parametrize("game_id", TEST_GAMES)
def test_each_test_game_validates_clean(tmp_path: Path, game_id: str) -> None:
    """The test games (three written here, five by engineers who knew only the docs) are
    correct packs: any finding on one is a false one, and would also count as 'caught' in
    their audits."""
    from helpers import run_validate

    assert len(TEST_GAMES) >= 8
    root = make_root(tmp_path, FIXTURES / "games")
    report = run_validate(root, [game_id])
    shown = [f for f in report.findings if f.severity.value in ("error", "warning")]
    assert shown == [], "\n".join(f"{f.pos} [{f.rule}] {f.message}" for f in shown)
