"""pytest configuration: helpers live in tests/helpers.py; each test is one run of pnp
(pnp.core.run), as each command is: nothing one test caches is seen by the next. A test marked
``needs_tool`` (helpers.needs_tool) is skipped when its tool is missing, failed under CI=true."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from pnp.core.run import running


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    for mark in item.iter_markers("needs_tool"):
        if mark.kwargs["missing"]:
            from helpers import missing_tool

            missing_tool(mark.kwargs["reason"])


@pytest.fixture(autouse=True)
def _one_run_per_test() -> Iterator[None]:
    with running(fresh=True):
        yield
