"""pnp/data/linebreak.txt is what its generator makes from libunistring 1.0, byte for byte, and
the pair table in pnp/i18n/gnuwrap/classes.py is the library's.

The generator needs libunistring 1.0 (libunistring.so.2 of Debian 12): elsewhere the tests skip,
except under CI=true, where a missing library is a failure."""

from __future__ import annotations

import ctypes
import os

import pytest

from pnp.i18n.gnuwrap import maketable
from pnp.i18n.gnuwrap.classes import PAIRS
from pnp.i18n.gnuwrap.tables import DATA


@pytest.fixture(scope="module")
def lib() -> ctypes.CDLL:
    try:
        return maketable.load()
    except maketable.Unavailable as exc:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI must be able to remake the line-break table: {exc}")
        pytest.skip(str(exc))


def test_generator_reproduces_the_committed_file(lib: ctypes.CDLL) -> None:
    assert maketable.DATA == DATA  # the file the generator writes is the one tables.py reads
    committed = DATA.read_bytes()
    made = maketable.render(lib).encode("ascii")
    assert made == committed, "run `python -m pnp.i18n.gnuwrap.maketable` and commit the file"


def test_pair_table_is_the_librarys(lib: ctypes.CDLL) -> None:
    assert maketable.library_pairs(lib) == PAIRS


def test_header_says_how_to_remake_it() -> None:
    header = [line for line in DATA.read_text(encoding="ascii").splitlines() if line[:1] == "#"]
    text = "\n".join(header)
    assert "python -m pnp.i18n.gnuwrap.maketable" in text
    assert "pnp/i18n/gnuwrap/tables.py" in text
    assert text == maketable.HEADER.rstrip("\n")
