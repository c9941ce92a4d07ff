"""The set-up simulator (issue 31, item 3): scenarios dealt from the box for every player count
and difficulty, `pnp setup`, and the chances per pile (exact against counted)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pnp.cli import app
from pnp.content.load import load_game, open_root
from pnp.core.findings import Report
from pnp.core.run import running
from pnp.validate.deal import deal, settings, table_deals
from pnp.validate.deal.odds import odds

from helpers import FIXTURES, REPO, run_validate

runner = CliRunner()
GAMES = FIXTURES / "games"
BUNDLED = ["fabg", "austerity", "status", "which-side"]


def _game(root: Path, gid: str):
    with running():
        game = load_game(open_root(root), gid, Report())
    assert game is not None
    return game


def test_outbreak_deals_hands_piles_and_a_row() -> None:
    game = _game(GAMES, "outbreak")
    sc = game.scenarios["standard"]
    heroic = sc.difficulties["heroic"]
    dealt = deal(game, sc, 4, heroic, seed=7)
    assert not dealt.problems
    kinds = [(z.kind, z.owner) for z in dealt.zones]
    assert kinds.count(("hand", "player")) == 4 and kinds.count(("pile", "player")) == 6
    hands = [z for z in dealt.zones if z.kind == "hand" and z.owner == "player"]
    assert all(len(h.cards) == 2 and "epidemic" not in h.cards for h in hands)
    piles = [z for z in dealt.zones if z.kind == "pile"]
    # 53 cards without the epidemics, 8 dealt: 45 in 6 piles (8, 8, 8, 7, 7, 7), 1 epidemic each
    assert [len(p.cards) for p in piles] == [9, 9, 9, 8, 8, 8]
    assert all(p.cards.count("epidemic") == 1 for p in piles)
    row = next(z for z in dealt.zones if z.kind == "row")
    assert len(row.cards) == 9 and row.owner == "infection"
    deck = next(z for z in dealt.zones if z.kind == "deck" and z.owner == "player")
    assert deck.cards == [c for p in piles for c in p.cards]  # stacked, larger piles on top
    # the same seed deals the same cards; another seed other cards
    again = deal(game, sc, 4, heroic, seed=7)
    assert [z.cards for z in again.zones] == [z.cards for z in dealt.zones]
    other = deal(game, sc, 4, heroic, seed=8)
    assert [z.cards for z in other.zones] != [z.cards for z in dealt.zones]


def test_every_setting_of_a_scenario() -> None:
    game = _game(GAMES, "outbreak")
    found = settings(game, game.scenarios["standard"])
    assert len(found) == 3 * 3  # 2-4 players, three difficulties
    assert {d.id for _p, d in found if d is not None} == {"introductory", "standard", "heroic"}


def test_exact_chances_agree_with_counted_deals() -> None:
    """The hypergeometric chances of the piles are what many seeded deals count."""
    game = _game(GAMES, "outbreak")
    sc = game.scenarios["standard"]
    exact = odds(game, sc, 3, sc.difficulties["standard"], seed=1)
    assert exact and all(zo.exact for zo in exact)
    # count the same groups by forcing the sampled path: the laws are dropped
    from pnp.validate.deal import odds as odds_module

    counted = [odds_module.ZoneOdds(zo.zone, zo.sizes, False) for zo in exact]
    kinds_of = {zo.zone.owner: odds_module.kinds(game, zo.zone.owner) for zo in exact}
    odds_module._sampled(game, sc, 3, sc.difficulties["standard"], 1, 3000, counted, kinds_of)
    for e, c in zip(exact, counted, strict=True):
        assert e.sizes == c.sizes
        for ce, cc in zip(e.chances, c.chances, strict=True):
            assert ce.kind == cc.kind
            assert abs(ce.chance - cc.chance) < 0.04, (e.zone.key, ce, cc)
            assert abs(ce.expected - cc.expected) < 0.12, (e.zone.key, ce, cc)
    pile = next(zo for zo in exact if zo.zone.kind == "pile")
    epidemic = next(c for c in pile.chances if c.kind == "tag:epidemic")
    assert epidemic.chance == 1.0 and epidemic.expected == 1.0


@pytest.mark.parametrize("gid", BUNDLED)
def test_bundled_games_deal_every_setting(gid: str) -> None:
    game = _game(REPO, gid)
    for sc in game.scenarios.values():
        for players, level in settings(game, sc):
            dealt = deal(game, sc, players, level)
            assert not dealt.problems, [p.message for p in dealt.problems]


def test_status_lays_out_the_monitor_from_the_deck_it_built() -> None:
    game = _game(REPO, "status")
    dealt = deal(game, game.scenarios["standard"], 3, None, seed=2)
    row = next(z for z in dealt.zones if z.kind == "row")
    deck = next(z for z in dealt.zones if z.kind == "deck")
    box = next(z for z in dealt.zones if z.kind == "box")
    assert (len(row.cards), len(deck.cards), len(box.cards)) == (4, 12, 24)


def test_tables_deal_what_no_scenario_builds() -> None:
    game = _game(REPO, "fabg")
    five = table_deals(game, 5)
    roles = [d for d in five if d.table == "roles"]
    assert sum(d.count for d in roles) == 5  # a role card for each of the 5 players
    assert [d.count for d in table_deals(game, 3) if d.table == "events-2-4"] == [10]
    outbreak = _game(GAMES, "outbreak")
    hands = table_deals(outbreak, 3)
    assert [(d.count, d.each) for d in hands if d.table == "hands"] == [(9, 3)]  # 3 each
    status = _game(REPO, "status")
    assert table_deals(status, 3, built={"events"}) == []  # the scenario draws them


def test_cli_setup_text_json_and_odds() -> None:
    args = ["setup", "outbreak", "--root", str(GAMES), "--players", "3"]
    result = runner.invoke(app, [*args, "--difficulty", "heroic", "--seed", "4", "--odds"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Outbreak — Standard game — 3 players — difficulty: Heroic — seed 4" in out
    assert "pile 6:" in out and "Epidemic shuffled in" in out and "face up (9)" in out
    # a tag by the mark a step gives it, in the build's language; one without a mark quoted
    assert "Epidemic cards 100.0 %" in out and "“city” 100.0 %" in out
    again = runner.invoke(app, [*args, "--difficulty", "heroic", "--seed", "4", "--odds"])
    assert again.stdout == out  # deterministic for a seed
    data = json.loads(runner.invoke(app, [*args, "--format", "json"]).stdout)
    assert data["difficulty"] == "introductory" and data["players"] == 3
    assert len([z for z in data["zones"] if z["kind"] == "pile"]) == 4
    italian = runner.invoke(app, [*args, "--lang", "it"])
    assert "Carte Giocatore" in italian.stdout


@pytest.mark.parametrize(
    "extra",
    [
        ["--players", "5"],
        ["--players", "3", "--scenario", "nope"],
        ["--players", "3", "--difficulty", "nope"],
        ["--players", "3", "--lang", "fr"],
    ],
)
def test_cli_setup_usage_errors(extra: list[str]) -> None:
    result = runner.invoke(app, ["setup", "outbreak", "--root", str(GAMES), *extra])
    assert result.exit_code == 2, result.output


def test_a_solo_game_says_its_one_player_count_not_a_range() -> None:
    """Austerity is for one player: "is for 1 player only", never "1-1 player"."""
    result = runner.invoke(app, ["setup", "austerity", "--root", str(REPO), "--players", "3"])
    assert result.exit_code == 2
    assert "austerity is for 1 player only" in result.output and "1-1" not in result.output
    result = runner.invoke(app, ["setup", "outbreak", "--root", str(GAMES), "--players", "5"])
    assert "outbreak is for 2-4 players" in result.output, result.output


def test_cli_setup_reports_what_cannot_be_dealt(tmp_path: Path) -> None:
    root = FIXTURES / "setup-deal"
    result = runner.invoke(
        app, ["setup", "mini", "--root", str(root), "-p", "4", "--scenario", "hands"]
    )
    assert result.exit_code == 1
    assert "scenarios.yaml:24:15: error [setup-deal]" in result.stderr
    assert "deals 2 to each player (8 cards)" in result.stderr


def test_tables_lay_out_roles_one_to_each_player_and_a_drawn_deck() -> None:
    from pnp.validate.deal.tabled import chances, lay_out

    game = _game(REPO, "fabg")
    six = lay_out(game, table_deals(game, 6), 6, seed=3)
    hands = [z for z in six if z.kind == "hand"]
    assert [z.index for z in hands] == [1, 2, 3, 4, 5, 6]
    got = sorted(c for z in hands for c in z.cards)
    assert got == sorted(["boss", "boss", "prolet", "startupper", "scab", "luddite"])
    boss = next(c for c in chances(game, hands[0]) if c.kind == "card:boss")
    assert boss.chance == pytest.approx(2 / 6)
    assert lay_out(game, table_deals(game, 6), 6, seed=3) == six  # the same seed, the same deal
    three = lay_out(game, table_deals(game, 3), 3, seed=1)
    deck, box = (z for z in three if z.owner == "events")
    assert (deck.kind, len(deck.cards), box.kind, len(box.cards)) == ("deck", 10, "box", 7)
    assert not set(deck.cards) & set(box.cards)
    outbreak = _game(GAMES, "outbreak")
    hands3 = [z for z in lay_out(outbreak, table_deals(outbreak, 3), 3, 1) if z.kind == "hand"]
    assert [len(z.cards) for z in hands3] == [3, 3, 3]


def test_tables_say_what_the_box_lacks(tmp_path: Path) -> None:
    from pnp.validate.deal.tabled import lay_out

    game = _game(REPO, "fabg")
    game.decks["events"].cards = game.decks["events"].cards[:5]
    three = lay_out(game, table_deals(game, 3), 3, seed=1)
    assert [(z.kind, len(z.cards), z.short) for z in three] == [("deck", 5, 5)]


def test_cli_setup_prints_markup_as_a_player_reads_it() -> None:
    result = runner.invoke(app, ["setup", "austerity", "--root", str(REPO), "--players", "1"])
    assert result.exit_code == 0, result.output
    assert "{black}" not in result.stdout and "4 ✖, 2 ⚡" in result.stdout
    assert "for 1 player:" in result.stdout
    fabg = runner.invoke(app, ["setup", "fabg", "--root", str(REPO), "-p", "6", "--odds"])
    assert fabg.exit_code == 0, fabg.output
    assert fabg.stdout.count("player ") >= 6 and "Boss 33.3 %" in fabg.stdout
    as_json = runner.invoke(
        app, ["setup", "fabg", "--root", str(REPO), "-p", "6", "--format", "json"]
    )
    laid = json.loads(as_json.stdout)["dealt_from_tables"]
    assert [z["index"] for z in laid] == [1, 2, 3, 4, 5, 6] and laid[0]["table"] == "roles"
    which = runner.invoke(app, ["setup", "which-side", "--root", str(REPO), "-p", "2", "--odds"])
    assert "**" not in which.stdout and "nothing is dealt at random" in which.stdout


def test_plain_text_drops_marks_and_shows_icons() -> None:
    from pnp.typeset.markup import plain_text

    said = plain_text("**Bold** _it_ [red]{color=red} {coin} {nope} snake_case", {"coin": "₽"})
    assert said == "Bold it red ₽ {nope} snake_case"


def test_the_scenario_sheet_prints_every_count_a_step_deals(tmp_path: Path) -> None:
    """What the simulator deals, the home copy tells: hands, face-up cards, piles by difficulty
    and the card shuffled into each pile, in the build's language; a note prints the step's
    own number by reference."""
    import pdfplumber

    root = tmp_path / "root"
    shutil.copytree(GAMES, root)
    scenario = root / "cards" / "rails" / "tokens.yaml"
    text = scenario.read_text("utf-8")
    assert '"The 5 face-up' in text
    text = text.replace('"The 5 face-up', '"The {reveal} face-up')
    scenario.write_text(
        text.replace('"Le 5 carte scoperte', '"Le {reveal} carte scoperte'), "utf-8"
    )
    out = tmp_path / "out"
    for game in ("outbreak", "rails", "draft"):
        result = runner.invoke(app, ["build", game, "--root", str(root), "--out", str(out)])
        assert result.exit_code == 0, result.output
    pages = {}
    for pdf_path in sorted(out.rglob("*-a4.pdf")):
        with pdfplumber.open(pdf_path) as pdf:
            pages[pdf_path.name] = " ".join(
                " ".join((p.extract_text() or "").split()) for p in pdf.pages
            )
    en, it = pages["outbreak-en-a4.pdf"], pages["outbreak-it-a4.pdf"]
    assert "Roles: shuffle; deal 1 to each player" in en
    assert "deal to each player (2 players: 4, 3 players: 3, 4 players: 2)" in en
    assert "split into piles (Introductory: 4, Standard: 5, Heroic: 6)" in en
    assert "shuffle one card marked Epidemic into each pile" in en
    assert "dividi in mazzetti (Introduttiva: 4, Normale: 5, Eroica: 6)" in it
    assert "mescola una carta Epidemia in ogni mazzetto" in it
    assert "Infection cards: shuffle; turn 9 face up" in en
    rails = pages["rails-en-a4.pdf"]
    assert "deal 4 to each player; turn 5 face up — The 5 face-up cards" in rails
    assert "{reveal}" not in rails
    draft = pages["draft-en-a4.pdf"]
    assert "again at the start of each of the 3 rounds" in draft  # rounds: 3


def test_a_filtered_step_after_a_picked_deck_deals_its_own_cards(tmp_path: Path) -> None:
    """Two steps on one deck, each picking one card and dealing it (7 Copper, then 3 Estates to
    each player): the second deals Estates from the box, not more Copper from the first's
    deck, which stays as it is; draw-table compares each with the column of its own card."""
    root = tmp_path / "root"
    shutil.copytree(GAMES, root)
    setup = root / "cards" / "realm" / "setup.yaml"
    text = setup.read_text("utf-8")
    anchor = '          es: "Sacad las 10 pilas de Reino que nombran estas cartas; las demás se '
    anchor += 'quedan en la caja."\n'
    assert text.count(anchor) >= 1
    steps = (
        "      - {deck: basic, only: {card: copper, mark: {en: Copper, es: Cobre}}, deal: 7}\n"
        "      - {deck: basic, only: {card: estate, mark: {en: Estate, es: Finca}}, deal: 3}\n"
    )
    setup.write_text(text.replace(anchor, anchor + steps, 1), "utf-8")
    game = _game(root, "realm")
    report = run_validate(root, ["realm"])
    assert not [f for f in report.findings if f.rule in ("draw-table", "setup-deal")]
    dealt = deal(game, game.scenarios["standard"], 3, None, seed=4)
    assert not dealt.problems
    hands = [z for z in dealt.zones if z.kind == "hand" and z.owner == "basic"]
    assert [sorted(set(h.cards)) for h in hands] == [["copper"]] * 3 + [["estate"]] * 3
    assert [len(h.cards) for h in hands] == [7, 7, 7, 3, 3, 3]
    decks = [z for z in dealt.zones if z.kind == "deck" and z.owner == "basic"]
    assert [(len(z.cards), set(z.cards)) for z in decks] == [(39, {"copper"}), (15, {"estate"})]
