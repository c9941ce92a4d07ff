"""Every validation rule fires on its fixture pack at the right line, and nowhere else.

Each folder under tests/fixtures/ is a content root. A YAML line ending in
``# expect: rule-id`` must get a finding of that rule (error or warning) on that line, shown as
a cause of its own; one ending in ``# folded: rule-id`` a finding folded under the finding that
caused it (pnp.core.causes); the pack must produce no other error or warning. ``clean``
expects none at all.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.core.rules import RULES, Severity
from pnp.validate import load_all

from helpers import FIXTURES, expectations, make_root, run_validate

PACKS = sorted(p for p in FIXTURES.iterdir() if (p / "cards").is_dir())
ERROR_OR_WARNING = (Severity.ERROR, Severity.WARNING)


@pytest.mark.parametrize("pack", PACKS, ids=[p.name for p in PACKS])
def test_fixture_pack(pack: Path, tmp_path: Path) -> None:
    root = make_root(tmp_path, pack)
    report = run_validate(root)
    groups = report.groups()
    shown = (ERROR_OR_WARNING, [g.root for g in groups])
    folded = (ERROR_OR_WARNING, [f for g in groups for f in g.folded])
    details = report.format_text(verbose=True)
    for kind, (severities, findings) in (("shown", shown), ("folded", folded)):
        got = {(f.pos.path, f.pos.line, f.rule) for f in findings if f.severity in severities}
        want = expectations(root, folded=kind == "folded")
        for _path, _line, rule in want:
            assert rule in RULES, f"{pack.name}: expects unknown rule {rule}"
        missing = sorted(want - got)
        unexpected = sorted(got - want)
        assert not missing and not unexpected, (
            f"{pack.name} ({kind})\nmissing: {missing}\nunexpected: {unexpected}\n"
            f"all findings:\n{details}"
        )
    if pack.name == "clean":
        assert not report.findings


def test_every_rule_has_a_fixture() -> None:
    load_all()
    fired: set[str] = set()
    for pack in PACKS:
        for f in (pack / "cards").rglob("*.y*ml"):
            text = f.read_text("utf-8", errors="replace")
            for rule in RULES:
                if any(f"{tag}: {rule}" in text for tag in ("expect", "folded")) or (
                    f", {rule}" in text
                ):
                    fired.add(rule)
        expected = pack / "expected.txt"
        if expected.is_file():
            fired.update(ln.split()[-1] for ln in expected.read_text().splitlines() if ln.strip())
    # build-only rules, tested end to end elsewhere: fallback (test_i18n), printable-area
    # (test_printable); the rules of `--for PROFILE` (test_print_on_demand)
    elsewhere = {"fallback", "printable-area", "safe-zone", "pod-size", "pod-product", "profile"}
    untested = sorted(set(RULES) - fired - elsewhere)
    assert not untested, f"rules without a fixture pack: {untested}"
