"""The docs stay true: every rule documented, the README's commands are what CI runs."""

from __future__ import annotations

import re

from pnp.build import pipeline as _build  # noqa: F401  (registers the build-time rules)
from pnp.core.rules import RULES
from pnp.validate import load_all

from helpers import REPO


def test_every_rule_is_documented() -> None:
    load_all()
    doc = (REPO / "docs/rules.md").read_text("utf-8")
    documented = set(re.findall(r"^### ([a-z0-9-]+)$", doc, re.M))
    assert documented == set(RULES), (
        f"undocumented: {sorted(set(RULES) - documented)}; stale: {sorted(documented - set(RULES))}"
    )


def test_ci_runs_the_readme_test_command() -> None:
    readme = (REPO / "README.md").read_text("utf-8")
    commands = re.findall(r"^    (python3 -m venv .*)$", readme, re.M)
    assert len(commands) == 2, "the quickstart is exactly two commands"
    install_build, test = commands
    assert "pnp build" in install_build and "pytest" in test
    assert test in (REPO / ".ci/run").read_text("utf-8")


def test_architecture_is_one_page() -> None:
    text = (REPO / "docs/architecture.md").read_text("utf-8")
    assert len(text.split()) < 900
