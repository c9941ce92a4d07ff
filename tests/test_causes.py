"""One cause, one finding (issue 29 item 2, issue 31 item 6): findings are listed causes first
(files, sheets, schema, references, rules), and the findings a cause makes happen are folded
under it, in text and in JSON. The cases of the issue are fixture packs (tests/fixtures/cause-*,
whose expected findings test_rules.py checks); here, what a designer reads of them."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pnp.cli import app
from pnp.core.causes import fold, meets, split
from pnp.core.findings import Finding, Pos, Report
from pnp.core.rules import RULES, Severity, Stage

from helpers import FIXTURES, make_root, run_validate

# pack -> (findings before folding, findings shown after, the first line shown)
CASES = {
    # one real error under 33 follow-on warnings
    "cause-language": (34, 1, "cards/mini/game.yaml:7:12: error [language-code] 'itt'"),
    # the same error printed 5 times
    "cause-same-image": (5, 1, "cards/mini/fruit.csv:2:4: error [missing-file] image"),
    # a board-size error adding two false "board not defined" errors
    "cause-board-size": (3, 1, "cards/mini/boards.yaml:4:11: error [schema] [42 cm, 29.7 cm]"),
    # two errors (here five) for one character
    "cause-one-character": (5, 1, "cards/mini/decks.yaml:7:17: error [schema] expected a whole"),
    # a YAML syntax error below the errors it causes
    "cause-yaml-syntax": (4, 1, "cards/mini/layouts.yaml:7:3: error [yaml-syntax] invalid YAML"),
    # a header typo and the missing translations it causes
    "cause-header": (6, 2, "cards/mini/market.csv:1:4: warning [unknown-key] unknown key 'titel'"),
    # unknown columns that empty a deck
    "cause-empty-deck": (4, 3, "cards/mini/crew.csv:1:1: error [unknown-key] the deck is empty"),
    # a template failing on card data: at the column meant, each card's failure folded
    "cause-template": (4, 1, "cards/mini/jobs.csv:1:5: error [unknown-key] unknown key 'tools'"),
}


def _counted(findings: list[Finding]) -> int:
    return len({(f.pos, f.rule, f.message) for f in findings if f.severity is not Severity.INFO})


@pytest.mark.parametrize("pack", sorted(CASES))
def test_the_cases_of_the_issue(pack: str, tmp_path: Path) -> None:
    before, after, first = CASES[pack]
    report = run_validate(make_root(tmp_path, FIXTURES / pack))
    groups = [g for g in report.groups() if g.root.severity is not Severity.INFO]
    assert _counted(report.sorted()) == before
    assert len(groups) == after
    assert groups[0].root.text().startswith(first)
    text = report.format_text().splitlines()
    assert text[0].startswith(first)
    assert len(text) == after  # one line a cause: the text format (PATH:LINE:COL: ...) holds
    if groups[0].folded:
        assert f"(and {len(groups[0].folded)} more caused by this: " in text[0]
    assert sum("is empty: no column" in line for line in text) == (pack == "cause-empty-deck")


def test_the_cause_is_listed_first_and_says_what_to_do(tmp_path: Path) -> None:
    report = run_validate(make_root(tmp_path, FIXTURES / "cause-same-image"))
    root = report.groups()[0].root
    assert "did you mean 'art/apple.png'? (the letter case differs" in root.message
    report = run_validate(make_root(tmp_path / "h", FIXTURES / "cause-header"))
    cost = next(g.root for g in report.groups() if "'cost'" in g.root.message)
    assert "values.cost" in cost.message and "copies" not in cost.message.split(";")[1]


def test_text_json_and_summary_carry_the_folding(tmp_path: Path) -> None:
    root = make_root(tmp_path, FIXTURES / "cause-board-size")
    runner = CliRunner()
    res = runner.invoke(app, ["validate", "--root", str(root)])
    assert res.exit_code == 1
    lines = res.stdout.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("cards/mini/boards.yaml:4:11: error [schema]")
    assert lines[0].endswith("(and 2 more caused by this: reference x2; pnp -v lists them)")
    assert "mini: 1 error, 0 warnings; 2 more caused by them" in res.stderr
    res = runner.invoke(app, ["-v", "validate", "--root", str(root)])
    lines = res.stdout.splitlines()
    assert [ln.split(" [")[0] for ln in lines[1:3]] == [
        "cards/mini/boards.yaml:9:12: error",
        "cards/mini/game.yaml:9:28: error",
    ]
    assert all(ln.endswith("(caused by cards/mini/boards.yaml:4:11)") for ln in lines[1:3])
    finding = re.compile(r"\S[^:]*(:\d+:\d+)?: (error|warning|info) \[[a-z0-9-]+\] ")
    assert all(finding.match(ln) for ln in lines)  # every line is a finding's line
    res = runner.invoke(app, ["validate", "--format", "json", "--root", str(root)])
    data = json.loads(res.stdout)
    keys = {"path", "line", "column", "severity", "rule", "message", "game"}
    assert all(keys <= set(item) for item in data)
    assert data[0]["caused_by"] is None and data[0]["folded"] == 2
    cause = {"path": "cards/mini/boards.yaml", "line": 4, "column": 11, "rule": "schema"}
    assert [d["caused_by"] for d in data[1:]] == [cause, cause]
    assert [d["folded"] for d in data[1:]] == [0, 0]


def test_stages_order_the_rules() -> None:
    assert RULES["yaml-syntax"].stage is Stage.FILES
    assert RULES["sheet"].stage is Stage.SHEETS
    assert RULES["schema"].stage is Stage.SCHEMA
    assert RULES["reference"].stage is Stage.REFERENCES
    assert RULES["box-count"].stage is Stage.RULES
    report = Report()
    report.add("box-count", Pos("cards/g/a.yaml", 1, 1), "count", game="g")
    report.add("reference", Pos("cards/g/a.yaml", 2, 1), "ref", game="g")
    report.add("yaml-syntax", Pos("cards/g/z.yaml", 9, 1), "syntax", game="g")
    assert [f.rule for f in report.sorted()] == ["yaml-syntax", "reference", "box-count"]


def _finding(rule: str, line: int, subject: tuple[str, ...] = (), needs: tuple[str, ...] = ()):
    report = Report()
    report.add(rule, Pos("cards/g/x.yaml", line, 1), f"{rule} {line}", game="g",
               subject=subject, needs=needs)  # fmt: skip
    return report.findings[0]


def test_needs_meet_subjects_by_the_names_both_have() -> None:
    assert meets(split("decks/a/cards/run/copies"), split("decks/a/cards/*/copies"))
    assert meets(split("decks/a/cards/run"), split("decks/a/cards/*/copies"))
    assert meets(split("boards/map/size"), split("boards/map"))
    assert meets(split("languages/*"), split("languages/it"))
    assert not meets(split("decks/a/cards/run/art"), split("decks/a/cards/*/copies"))
    assert not meets(split("decks/b"), split("decks/a/cards/*/copies"))


def test_a_warning_that_causes_an_error_is_an_error_and_chains_end_at_the_root() -> None:
    header = _finding("unknown-key", 1, subject=("decks/d/cards/*/id",))
    dropped = _finding("schema", 2, subject=("decks/d/cards/3",), needs=("decks/d/cards/3/id",))
    count = _finding("box-count", 3, needs=("decks/d/cards/*/copies",))
    other = _finding("box-count", 4, needs=("decks/e/cards/*/copies",))
    groups = fold([header, dropped, count, other])
    assert [g.root.rule for g in groups] == ["unknown-key", "box-count"]
    assert groups[0].root.severity is Severity.ERROR  # it empties the deck: an error in effect
    assert [f.rule for f in groups[0].folded] == ["schema", "box-count"]
    assert not groups[1].folded


def test_a_cause_comes_first_and_a_finding_is_never_its_own_cause() -> None:
    first = _finding("missing-file", 1, subject=("files/a.png",), needs=("files/a.png",))
    again = _finding("missing-file", 2, subject=("files/a.png",), needs=("files/a.png",))
    groups = fold([first, again])
    assert len(groups) == 1 and groups[0].root is first and groups[0].folded == (again,)
    alone = _finding("missing-file", 3, subject=("files/b.png",), needs=("files/b.png",))
    assert fold([alone])[0].folded == ()


def test_the_same_line_in_two_languages_is_shown_once() -> None:
    report = Report()
    for lang in ("en", "it"):
        report.add("template", Pos("cards/g/l.yaml", 3, 5), "template failed", game="g", lang=lang)
    assert len(report.sorted()) == 2  # the preview places each in its language
    assert len(report.groups()) == 1
    assert report.format_text().count("template failed") == 1


def test_a_template_failing_on_a_card_names_the_card_cell(tmp_path: Path) -> None:
    report = run_validate(make_root(tmp_path, FIXTURES / "cause-template"))
    (group,) = report.groups()
    assert "name it values.tools" in group.root.message
    first = group.folded[0]
    assert str(first.pos) == "cards/mini/jobs.csv:2:4"  # the card's row, not the layout
    assert first.message.startswith(
        "card 'smith' has no values.tools, which the template at cards/mini/decks.yaml:11:54 "
        "prints; its values: cost; "
    )


def test_folding_a_large_deck_takes_no_time() -> None:
    """10,000 rows with a bad copies each, and 10,000 missing texts: no pair compared."""
    import time

    report = Report()
    for n in range(10_000):
        card = f"decks/d/cards/c{n}"
        pos = Pos("cards/g/d.csv", n + 2, 2)
        report.add("schema", pos, f"bad {n}", game="g", subject=(f"{card}/copies",))
        report.add("missing-text", pos, f"no it {n}", game="g", needs=(f"{card}/title/it",))
        report.add("box-count", Pos("cards/g/game.yaml", 3, 1), "count", game="g",
                   needs=("decks/d/cards/*/copies",))  # fmt: skip
    started = time.perf_counter()
    groups = report.groups()
    assert time.perf_counter() - started < 5
    assert len(groups) == 20_000  # each bad copies folds the box count; no text is caused
    assert len(groups[0].folded) == 1
