"""pytest configuration: helpers live in tests/helpers.py; each test is one run of pnp
(pnp.core.run), as each command is: nothing one test caches is seen by the next."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from pnp.core.run import running


@pytest.fixture(autouse=True)
def _one_run_per_test() -> Iterator[None]:
    with running(fresh=True):
        yield
