"""pnp's PO reader and writer against GNU gettext: a file msgcat wrote is one pnp writes back
byte for byte, and what pnp writes is what msgcat writes.

The corpus is every catalog of tests/fixtures/po-check/ that msgfmt -c accepts (hand-made
edge cases: comments without a space, several flag lines, obsolete and previous fields, plural
entries, escapes, long lines), normalised once by msgcat.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pnp.i18n.po import Catalog, Entry, Flags, dumps, parse
from pnp.i18n.pocheck import scan_po

from gettext_tools import GNU, msgfmt_errors, need_gettext
from helpers import FIXTURES

CORPUS = sorted((FIXTURES / "po-check").glob("*.po"))


def _msgcat(data: bytes) -> bytes:
    proc = subprocess.run(
        [str(GNU["msgcat"]), "--to-code=UTF-8", "-"], input=data, capture_output=True, timeout=30
    )
    assert proc.returncode == 0, proc.stderr.decode()
    return proc.stdout


def test_pnp_writes_back_what_msgcat_wrote() -> None:
    need_gettext()
    compared = 0
    for path in CORPUS:
        if msgfmt_errors(path) or scan_po(path.read_bytes()).errors:
            continue
        gnu = _msgcat(path.read_bytes())
        scan = scan_po(gnu)
        assert scan.text is not None and not scan.errors, (path.name, scan.errors[:2])
        assert dumps(parse(scan.text)) == gnu.decode("utf-8"), path.name
        compared += 1
    assert compared >= 40


TEXT = st.lists(
    st.sampled_from([*list('abc xyz-/«»"\\\t\n{}%é₽\xa0\u202f日本'), "word ", "longer words "]),
    max_size=60,
).map("".join)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.none() | st.text("abcdef/:", min_size=1, max_size=80),  # msgctxt
            TEXT.filter(bool),  # msgid
            TEXT,  # msgstr
            st.booleans(),  # fuzzy
            st.booleans(),  # obsolete
            st.lists(st.text("abc xyz", max_size=40), max_size=2),  # comments
        ),
        min_size=1,  # msgcat writes nothing for a file with only a header
        max_size=12,
        unique_by=lambda t: (t[0], t[1]),
    )
)
def test_what_pnp_writes_msgcat_leaves_alone(
    tmp_path_factory: pytest.TempPathFactory, items: list
) -> None:
    need_gettext()
    cat = Catalog(header=Entry("", ["Content-Type: text/plain; charset=UTF-8\n"]))
    for ctx, msgid, msgstr, fuzzy, obsolete, comments in items:
        entry = Entry(msgid, [msgstr], ctx, comments=comments, flags=Flags(fuzzy=fuzzy))
        entry.obsolete = obsolete and bool(msgstr)
        (cat.obsolete if entry.obsolete else cat.entries).append(entry)
    text = dumps(cat)
    assert _msgcat(text.encode()).decode() == text
    assert dumps(parse(text)) == text
    path = Path(tmp_path_factory.mktemp("po")) / "x.po"
    path.write_text(text, "utf-8")
    assert not msgfmt_errors(path) or any(
        e.msgid.startswith("\n") != (e.msgstr[0] or "\n").startswith("\n")
        or e.msgid.endswith("\n") != (e.msgstr[0] or "\n").endswith("\n")
        for e in cat.entries
        if e.translated and not e.fuzzy
    )
