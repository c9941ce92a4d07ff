"""The suffixes of content files, in one table: the YAML files of a game and the spreadsheets a
content file may name in place of a list (read by :mod:`.sheets`; docs/spreadsheets.md).

Everything that asks "is this a content file?" reads it from here: the sheet reader (which
reader a suffix takes), the JSON Schema of a sheet reference (:mod:`.model.types`) and
``pnp watch``'s digests (``build/keep.py``: the files whose contents the model holds).
Suffixes are compared in lower case.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

YAML_SUFFIXES = (".yaml", ".yml")

# suffix -> the reader's kind. CSV and TSV: the csv module (sheets/read.py); XLSX and ODS:
# python-calamine, after sheets/guard.py has checked the zip archive and its XML. .xlsm is an
# XLSX workbook that may hold macros (never run); .tab is a common name for TSV.
SHEET_KINDS: Mapping[str, str] = MappingProxyType(
    {
        ".csv": "CSV",
        ".tsv": "TSV",
        ".tab": "TSV",
        ".xlsx": "XLSX",
        ".xlsm": "XLSX",
        ".ods": "ODS",
    }
)

# Spreadsheets pnp refuses with "save it as ...": .xls (an OLE file, not a zip archive) and
# .xlsb (binary sheets the guard cannot scan), both of which calamine would read, and .numbers.
REFUSED_SHEET_SUFFIXES = (".xls", ".xlsb", ".numbers")

# The files whose contents a game's model holds (pnp watch digests the others whole).
CONTENT_SUFFIXES = frozenset((*YAML_SUFFIXES, *SHEET_KINDS))


def sheet_suffixes_text(last: str = "or") -> str:
    """The sheet suffixes as a message lists them: ".csv, .tsv, ... or .ods"."""
    *rest, final = SHEET_KINDS
    return f"{', '.join(rest)} {last} {final}"


def sheet_file_pattern() -> str:
    """A JSON Schema pattern (ECMA regex, no flags) for a file name with a sheet suffix, in
    lower or upper case."""
    names = [s[1:] for s in SHEET_KINDS]
    return r"\.(" + "|".join([*names, *(n.upper() for n in names)]) + ")$"
