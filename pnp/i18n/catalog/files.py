"""A game's catalog files: where they are, and reading and writing them safely.

A catalog is read only as a regular file (not a link) of at most 16 MB, checked as ``msgfmt -c``
checks it (:mod:`..pocheck`) before it is parsed; one that cannot be read as it declares is
refused with :class:`CatalogError`, which names each problem's line. Every write goes through a
temporary file and a rename, and a file that would not change is not written.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from pathlib import Path

from ...content.load import Root
from ...core.errors import PnpError
from ...core.files import ReadRefused, out_folder, read_limited, root_of, write_atomic
from ..glossary import Term, read_glossary
from ..plural import PluralForms
from ..po import Catalog, Entry, PoReadError, encode, parse
from ..pocheck import PoProblem, scan_po
from .conflicts import with_conflicts

MAX_CATALOG_BYTES = 16 * 1024 * 1024


class CatalogError(PnpError):
    """A catalog cannot be read or written; ``problems`` say where (first one in the message)."""

    def __init__(self, rel: str, problems: list[PoProblem]) -> None:
        self.rel = rel
        self.problems = problems
        first = problems[0]
        where = f"{rel}:{first.line}" if first.line else rel
        more = f" (and {len(problems) - 1} more problems)" if len(problems) > 1 else ""
        super().__init__(f"{where}: {first.message}{more}")


def pot_path(root: Root, game: str) -> Path:
    return root.locales / f"{game}.pot"


def po_path(root: Root, game: str, lang: str) -> Path:
    return root.locales / lang / "LC_MESSAGES" / f"{game}.po"


def catalog_languages(root: Root, game: str) -> list[str]:
    """The languages that have a catalog of ``game`` under ``locales/``."""
    if not root.locales.is_dir():
        return []
    return sorted(
        p.name
        for p in root.locales.iterdir()
        if p.is_dir() and (p / "LC_MESSAGES" / f"{game}.po").exists()
    )


def read_bytes(path: Path, rel: str) -> bytes:
    """A catalog's bytes: a regular file, not a link, at most 16 MB (checked before reading)."""
    try:
        return read_limited(path, MAX_CATALOG_BYTES, "catalog", inside=root_of(path, rel))
    except ReadRefused as exc:
        raise CatalogError(rel, [PoProblem(0, 0, str(exc), "error")]) from exc


@dataclass
class Loaded:
    """A catalog read from disk, with what ``msgfmt -c`` would warn about."""

    catalog: Catalog
    warnings: list[PoProblem]
    plural: PluralForms | None
    plural_line: int = 0  # the line of the header's Plural-Forms (0: none)
    glossary: list[Term] = field(default_factory=list)  # the header's glossary lines


def load_catalog(path: Path, rel: str) -> Loaded:
    """Read and check a PO/POT file; :class:`CatalogError` names each error's line."""
    data = read_bytes(path, rel)
    scan = scan_po(data)
    if scan.errors or scan.text is None:
        errors = scan.errors or [PoProblem(0, 0, "cannot be decoded", "error")]
        raise CatalogError(rel, with_conflicts(data, errors))
    warnings = [p for p in scan.problems if p.severity != "error"]
    try:
        catalog = parse(scan.text, scan.charset)
    except PoReadError as exc:
        raise CatalogError(rel, [PoProblem(exc.line, exc.col, exc.message, "error")]) from None
    _same_entries(rel, catalog, scan.msgstr_lines)
    glossary = read_glossary(scan.text, catalog.header.line)
    return Loaded(catalog, warnings, scan.plural, scan.plural_line, glossary)


def _same_entries(
    rel: str, catalog: Catalog, msgstr_lines: dict[tuple[str | None, str], int]
) -> None:
    """The reader found the entries the check found (a safeguard: a catalog pnp would read
    otherwise than GNU is refused, never half-read), and no two of them are one: the check
    compares texts before their escapes are read as bytes (``"\\303\\251"`` is ``"é"``)."""
    read = len(catalog.entries) + (1 if catalog.header.line else 0)
    if read != len(msgstr_lines):
        line = min(msgstr_lines.values(), default=0)
        message = (
            f"pnp reads {read} entries in this catalog where msgfmt reads "
            f"{len(msgstr_lines)}; nothing was changed: please report this file to pnp"
        )
        raise CatalogError(rel, [PoProblem(line, 1 if line else 0, message, "error")])
    seen: dict[tuple[str | None, str], int] = {}
    every = [catalog.header, *catalog.entries, *catalog.obsolete]
    for entry in sorted((e for e in every if e.line), key=lambda e: e.line):
        first = seen.setdefault(entry.key, entry.line)
        if first != entry.line:
            message = (
                "this entry (same msgctxt and msgid, once their escapes are read) is already "
                f"in the file at line {first}: keep only one of the two"
            )
            raise CatalogError(rel, [PoProblem(entry.line, 1, message, "error")])


@dataclass
class Damaged:
    """A catalog with errors in some of its entries, read without them (for a translator's
    proof): ``bad`` holds the entries set aside, each with the first problem msgfmt found."""

    loaded: Loaded
    bad: list[tuple[Entry, PoProblem]]


def load_damaged(path: Path, rel: str) -> Damaged | None:
    """A catalog :func:`load_catalog` refuses, read as far as it can be trusted: when every
    error is inside one translation (a dropped placeholder, a missing plural form), the other
    entries are read and the bad ones set aside; None when the file itself cannot be read (a
    syntax error, a broken header or charset)."""
    try:
        scan = scan_po(read_bytes(path, rel))
        if scan.text is None or scan.plural is None:
            return None
        catalog = parse(scan.text, scan.charset)
    except (CatalogError, PoReadError):
        return None
    entries = sorted((e for e in catalog.entries if e.line), key=lambda e: e.line)
    starts = [e.line for e in entries]
    bad: dict[int, tuple[Entry, PoProblem]] = {}
    for problem in (p for p in scan.problems if p.severity == "error"):
        i = bisect_right(starts, problem.line) - 1
        if problem.line <= 0 or i < 0 or problem.line < entries[i].msgstr_line:
            return None  # in the header, or not inside a translation
        bad.setdefault(i, (entries[i], problem))
    if not bad:
        return None
    gone = {id(entry) for entry, _p in bad.values()}
    catalog.entries = [e for e in catalog.entries if id(e) not in gone]
    warnings = [p for p in scan.problems if p.severity != "error"]
    return Damaged(Loaded(catalog, warnings, scan.plural, scan.plural_line), list(bad.values()))


def read_catalog(path: Path, rel: str) -> Catalog:
    return load_catalog(path, rel).catalog


def _unchanged(old: bytes, new: bytes, ignore: tuple[bytes, ...]) -> bool:
    def strip(data: bytes) -> list[bytes]:
        return [ln for ln in data.split(b"\n") if not ln.startswith(ignore)]

    return strip(old) == strip(new)


def write_catalog(
    path: Path, catalog: Catalog, *, ignore_dates: bool = False, base: Path | None = None
) -> bool:
    """Write atomically in the catalog's charset; False when the file already says the same.
    ``base``: the content root, below which every folder on the way must be a real one (made
    when missing; a symbolic link is refused, never written through).

    A character the declared charset cannot hold turns the catalog into UTF-8 (as msgmerge
    does), saying so in the header."""
    if base is not None:
        out_folder(base, *path.parent.relative_to(base).parts)
    try:
        data = encode(catalog)
    except UnicodeEncodeError:
        catalog.set_field("Content-Type", "text/plain; charset=UTF-8")
        data = encode(catalog)
    if path.is_file() and not path.is_symlink():
        try:
            old = path.read_bytes()
        except OSError:
            old = b""
        ignore = (b'"POT-Creation-Date:',) if ignore_dates else ()
        if old == data or (ignore and _unchanged(old, data, ignore)):
            return False
    write_atomic(path, data)
    return True
