"""The strict reading of a gettext PO catalog: what ``msgfmt -c`` refuses, named at the line to fix.

pnp hands translators PO catalogs and reads them back with polib. Before polib, :func:`scan_po`
reads the bytes the way GNU gettext's ``msgfmt -c -o /dev/null`` (version 0.21: check-format,
check-header, check-domain) does and reports every error msgfmt reports, as a
:class:`PoProblem` with the line a translator must fix and a message in plain words; msgfmt's
warnings (header fields left at their template values...) come back as warnings.

How it mirrors msgfmt:

- the lexer reads tokens like GNU's po-lex.c: keywords, strings with C escapes, ``#`` comments,
  ``#~`` (obsolete) and ``#|`` (previous) prefixes, backslash-newline joins. A catalog is a
  stream of tokens, not of lines: ``msgid "a" msgstr "b"`` on one line is fine, and a string
  after a blank line still continues the msgstr above it;
- the parser follows GNU's grammar (po-gram-gen.y) and bison's error recovery, so the errors are
  the ones msgfmt finds, in its order;
- duplicates (same msgctxt and msgid) are errors even when one copy is obsolete (``#~``) or
  untranslated; an ``#,`` line replaces the flags of the ones above it (msgfmt keeps only the
  last one);
- untranslated and fuzzy entries are not checked further; the others are checked for the header,
  the plural forms (``Plural-Forms`` against each entry's ``msgstr[N]``), leading and trailing
  ``\\n``, and the ``c-format``, ``python-format`` and ``python-brace-format`` placeholders.
  msgfmt skips these checks when the file has a syntax error; pnp makes them anyway, so that a
  translator sees everything at once.

The line of a problem is the one msgfmt names, except where msgfmt names a line after it (an
unterminated string, a misplaced comment, the end of the file, a keyword whose text is missing)
and for problems of one translation, named at its own ``msgstr[N]``.
:func:`scan_po_details` keeps, for each problem, the lines msgfmt itself prints.

pnp also refuses, on purpose, a few things msgfmt lets through: a file over 16 MB, NUL bytes,
bytes that do not decode in the declared charset, a UTF-8 file labelled with another charset,
a charset pnp cannot read (anything but GNU's portable names that Python knows), strings longer
than ``max_string`` characters, and the limits of :mod:`pnp.i18n.plural`. It accepts a UTF-8
byte-order mark (with a warning), which msgfmt does not.

The scan is linear in the size of the file. Ordinary entries, runs of comments and runs of
strings are each read with one regular expression whose repetitions never backtrack; the rest
goes token by token.

The modules, in the order a scan uses them: :mod:`.scan` (decoding, the whole scan),
:mod:`.tokens` and :mod:`.lexer` (reading tokens), :mod:`.grammar` and :mod:`.parser` (GNU's
grammar, token by token), :mod:`.patterns` and :mod:`.fast` (the same, in bulk),
:mod:`.collect` (the entries msgfmt keeps), :mod:`.checks` and :mod:`.formats` (msgfmt's checks
of the complete catalog), :mod:`.problems` (what is found), :mod:`.charsets` and
:mod:`.entries` (what they share).
"""

from __future__ import annotations

import gc

from .problems import (
    CONT,
    EAL,
    ERROR,
    MAX_ERRORS,
    MAX_WARNINGS,
    PLAIN,
    WARNING,
    Finding,
    PoProblem,
    PoScan,
    ScanDetails,
)
from .scan import MAX_FILE_BYTES, Scan

FAST_PATHS = True
"""Read ordinary entries, comments and runs of strings in bulk (the tests turn it off to check
that the result is the same)."""


def scan_po(data: bytes, *, max_string: int = 100_000) -> PoScan:
    """Check a PO catalog as ``msgfmt -c`` would, plus pnp's own refusals (see the module)."""
    return scan_po_details(data, max_string=max_string).scan


def scan_po_details(data: bytes, *, max_string: int = 100_000) -> ScanDetails:
    """Like :func:`scan_po`, keeping msgfmt's order and lines (used by the tests against it)."""
    # The scan makes many small objects that live until its end, and creates no cycles: the
    # garbage collector would only walk them again and again (quadratic on huge catalogs).
    collecting = gc.isenabled()
    gc.disable()
    try:
        return Scan(data, max_string, FAST_PATHS).run()
    finally:
        if collecting:
            gc.enable()


__all__ = [
    "CONT",
    "EAL",
    "ERROR",
    "FAST_PATHS",
    "MAX_ERRORS",
    "MAX_FILE_BYTES",
    "MAX_WARNINGS",
    "PLAIN",
    "WARNING",
    "Finding",
    "PoProblem",
    "PoScan",
    "ScanDetails",
    "scan_po",
    "scan_po_details",
]
