"""The gettext tools of translators, as tests use them: GNU gettext, polib, translate-toolkit.

Each function runs the real tool on a catalog and fails the test with the tool's own words when
it rejects or rewrites the file. Tests that need GNU gettext skip without it, and fail without
it under CI=true (.ci/run installs it).
"""

from __future__ import annotations

import difflib
import shutil
import subprocess
from pathlib import Path

from helpers import missing_tool

GNU = {name: shutil.which(name) for name in ("msgfmt", "msgcat", "msgmerge")}


def need_gettext() -> None:
    missing = [name for name, path in GNU.items() if path is None]
    if missing:
        missing_tool(f"GNU gettext is not installed ({', '.join(missing)})")


def _run(*args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(args, capture_output=True, timeout=60, check=False)


def msgfmt_errors(path: Path) -> str:
    """What ``msgfmt -c --check-format`` says is wrong ('' when it accepts the file)."""
    proc = _run(str(GNU["msgfmt"]), "-c", "--check-format", "-o", "/dev/null", str(path))
    return "" if proc.returncode == 0 else proc.stderr.decode("utf-8", "replace")


def diff(before: bytes, after: bytes) -> list[str]:
    return list(
        difflib.unified_diff(
            before.decode("utf-8", "replace").splitlines(),
            after.decode("utf-8", "replace").splitlines(),
            lineterm="",
            n=1,
        )
    )


def msgcat_diff(path: Path) -> list[str]:
    """The diff ``msgcat F`` makes of a catalog (empty: GNU writes it the same)."""
    proc = _run(str(GNU["msgcat"]), str(path))
    assert proc.returncode == 0, proc.stderr.decode()
    return diff(path.read_bytes(), proc.stdout)


def msgmerge_diff(po: Path, pot: Path) -> list[str]:
    """The diff ``msgmerge --update --previous PO POT`` makes (on a copy)."""
    copy = po.with_name(po.name + ".msgmerge.po")
    shutil.copyfile(po, copy)
    try:
        proc = _run(
            str(GNU["msgmerge"]), "--quiet", "--update", "--previous", "--backup=off",
            str(copy), str(pot),
        )  # fmt: skip
        assert proc.returncode == 0, proc.stderr.decode()
        return diff(po.read_bytes(), copy.read_bytes())
    finally:
        copy.unlink(missing_ok=True)


def polib_entries(path: Path) -> dict[tuple[str | None, str], tuple[str, ...]]:
    """(msgctxt, msgid) -> translation forms, as polib reads the file (obsolete ones too)."""
    import polib

    catalog = polib.pofile(str(path), wrapwidth=79)
    out: dict[tuple[str | None, str], tuple[str, ...]] = {}
    for entry in catalog:
        forms = (
            tuple(entry.msgstr_plural[i] for i in sorted(entry.msgstr_plural))
            if entry.msgid_plural
            else (entry.msgstr,)
        )
        out[(entry.msgctxt, entry.msgid)] = forms
    return out


def toolkit_units(path: Path) -> int:
    """How many units translate-toolkit (what Weblate uses) reads; it fails on a bad file."""
    from translate.storage import pypo

    store = pypo.pofile(path.read_bytes())
    units = [u for u in store.units if not u.isheader()]
    for unit in units:
        assert isinstance(unit.source, str) and isinstance(unit.target, str | None)
    return len(units)
