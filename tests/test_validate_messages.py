"""Messages a designer understands: values as written in the YAML, the thing named, the
finding where the fix goes (issue 17)."""

from __future__ import annotations

from pathlib import Path

from helpers import FIXTURES, make_root, run_validate


def test_a_translated_row_key_is_printed_as_written(tmp_path: Path) -> None:
    root = make_root(tmp_path, FIXTURES / "setup-exceeds-box-pool")
    messages = [f.message for f in run_validate(root).findings]
    heroic = [m for m in messages if "Heroic" in m]
    assert heroic and heroic[0].startswith("row Heroic: draw + extra take 7 from deck main")
    assert not any("Text(" in m for m in messages)


def test_track_start_and_board_are_checked(tmp_path: Path) -> None:
    start = run_validate(make_root(tmp_path / "a", FIXTURES / "schema-track-start"))
    assert [f.message for f in start.errors if f.rule == "schema"] == [
        "start (11) is outside the track's range 0..10; change start, or min/max"
    ]
    board = run_validate(make_root(tmp_path / "b", FIXTURES / "reference-track-board"))
    (found,) = [f for f in board.errors if f.rule == "reference"]
    assert "unknown board 'mian'; did you mean 'main'?" in found.message


DICE_TABLE = """tables:
  events:
    title: {{en: Events, it: Eventi}}
    covers: {covers}
    columns:
      - {{id: roll, title: {{en: Roll, it: Tiro}}}}
      - {{id: what, title: {{en: Event, it: Evento}}}}
    rows:
      - [1, {{en: Storm, it: Tempesta}}]
"""


def _dice_pack(tmp_path: Path, covers: str) -> Path:
    root = make_root(tmp_path, FIXTURES / "clean")
    (root / "cards" / "mini" / "events.yaml").write_text(DICE_TABLE.format(covers=covers), "utf-8")
    return root


def test_a_bad_dice_value_is_reported_once_where_it_is_written(tmp_path: Path) -> None:
    report = run_validate(_dice_pack(tmp_path, "{dice: 3d6}"))
    errors = [f for f in report.errors if f.pos.path.endswith("events.yaml")]
    assert len(errors) == 1, [f.message for f in errors]
    assert errors[0].pos.line == 4 and "3d6" in errors[0].message
    assert "exactly one" not in errors[0].message


def test_a_huge_covers_range_is_refused_without_being_walked(tmp_path: Path) -> None:
    report = run_validate(_dice_pack(tmp_path, "{range: [1, 100000000]}"))
    errors = [f for f in report.errors if f.pos.path.endswith("events.yaml")]
    assert [f.message for f in errors] == ["a range of more than 100,000 values"]
    # the coverage check does not run on it (it listed "99999984 more" after 15 s)
    assert not any(f.rule == "table-coverage" for f in report.findings)


def test_a_box_count_names_the_cards_and_where_their_copies_are(tmp_path: Path) -> None:
    report = run_validate(make_root(tmp_path, FIXTURES / "box-count"))
    counts = [f for f in report.errors if f.rule == "box-count"]
    (text,) = [f for f in counts if "line says" in f.message]  # the dice line
    assert "line says 3" in text.message and "count is 2" in text.message
    (found,) = [f for f in counts if f is not text]
    assert "alpha x3 at cards/mini/decks.yaml:7:17" in found.message
    assert "beta x2 at cards/mini/decks.yaml:11:17" in found.message


SCENARIOS = """scenarios:
  heroic:
    name: {en: Heroic, it: Eroico}
    difficulty: {en: Hard, it: Difficile}
    cards:
      - {deck: main, draw: 8}
  easy:
    name: {en: Easy, it: Facile}
    cards:
      - {deck: main, draw: 3, remove: [beta]}
invariants:
  - id: draws-fit-the-deck
    for_each: "s in scenarios"
    assert: "all(step.draw <= decks[step.deck].total for step in s.cards)"
    message: {en: "{id} draws more than its deck holds", it: "{id} pesca troppo"}
  - id: removed-cards-exist
    assert: "all(r.card in cards for s in scenarios for step in s.cards for r in step.remove)"
    message: {en: "a removed card does not exist", it: "una carta rimossa non esiste"}
"""


def test_invariants_see_scenario_steps(tmp_path: Path) -> None:
    root = make_root(tmp_path, FIXTURES / "clean")
    (root / "cards" / "mini" / "scenarios.yaml").write_text(SCENARIOS, "utf-8")
    report = run_validate(root)
    found = [f for f in report.findings if f.rule in ("invariant", "invariant-expression")]
    assert [(f.rule, f.message) for f in found] == [
        ("invariant", "[draws-fit-the-deck] heroic draws more than its deck holds (for heroic)")
    ], [f.message for f in found]
    assert found[0].pos.line == 3  # at the scenario that draws too many


def test_a_misspelt_template_value_names_the_card_and_the_value_meant(tmp_path: Path) -> None:
    root = make_root(tmp_path, FIXTURES / "template")
    decks = root / "cards" / "mini" / "decks.yaml"
    text = (
        decks.read_text("utf-8")
        .replace('"{{ values.cost + }}"', '"{{ values.valeu * 2 }}"')
        .replace("        layout: priced\n", "        layout: priced\n        values: {value: 3}\n")
    )
    decks.write_text(text, "utf-8")
    found = [f for f in run_validate(root).errors if f.rule == "template"]
    assert found, "no template finding"
    # at the card's own values (not the layout), the field meant and the fields it has
    assert str(found[0].pos) == "cards/mini/decks.yaml:12:17"
    assert found[0].message.startswith(
        "card 'beta' has no values.valeu, which the template at cards/mini/decks.yaml:39:41 "
        "prints; did you mean 'value'? its values: value; "
    )
    assert len({(f.pos, f.lang) for f in found}) == len(found)  # once per language


def test_colours_validation_accepts_are_colours_the_build_draws(tmp_path: Path) -> None:
    """fill: "blu" was 0 errors in validate and an internal error in build; now it is a schema
    error, and what validation accepts (palette names, #rgb, CSS names) builds."""
    from typer.testing import CliRunner

    from pnp.cli import app

    root = make_root(tmp_path, FIXTURES / "schema-colour")
    report = run_validate(root)
    # 39: a template giving a card's id, checked for each card (each finding once)
    schema = [f for f in report.sorted() if f.rule == "schema" and f.severity.value == "error"]
    assert [f.pos.line for f in schema] == [38, 39]
    decks = root / "cards" / "mini" / "decks.yaml"
    kept = [ln for ln in decks.read_text("utf-8").splitlines() if "expect: schema" not in ln]
    decks.write_text("\n".join(kept) + "\n", "utf-8")
    assert not run_validate(root).errors
    built = CliRunner().invoke(app, ["build", "mini", "--root", str(root), "--lang", "en"])
    assert built.exit_code == 0, built.stderr
