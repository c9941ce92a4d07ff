"""What a scan finds: each problem, the results handed back, and the record kept while scanning.

A problem is what pnp shows a translator (:class:`PoProblem`); a :class:`Finding` adds the lines
msgfmt itself prints for it, so that the tests can compare pnp with ``msgfmt -c``.
:class:`Problems` is the record a scan keeps: it counts errors and warnings, stops the scan
after :data:`MAX_ERRORS` errors and only counts warnings after :data:`MAX_WARNINGS`.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..plural import PluralForms

MAX_ERRORS = 200
"""After this many errors the scan stops: the file needs fixing before more is useful."""
MAX_WARNINGS = 200
"""Warnings after this many are counted, not listed."""

ERROR = "error"
WARNING = "warning"

# How msgfmt prints an error: with error() (PLAIN), or with error_at_line() (EAL), which prints
# nothing when the previous error_at_line() named the same line (GNU sets error_one_per_line);
# CONT is an error_at_line() continuation ("...this is the location of the first definition").
PLAIN = 0
EAL = 1
CONT = 2


@dataclass(frozen=True)
class PoProblem:
    """One thing to fix in a catalog: where (1-based line and column) and what to do."""

    line: int
    col: int
    message: str
    severity: str  # "error" or "warning"


@dataclass
class PoScan:
    """What :func:`scan_po` found in a catalog."""

    problems: list[PoProblem]
    text: str | None
    """The decoded file (None when it could not be decoded)."""
    charset: str
    """The charset the header declares, normalised (``UTF-8``), or "" when it declares none."""
    plural: PluralForms | None
    """The header's Plural-Forms, when it has one that is valid."""
    msgstr_lines: dict[tuple[str | None, str], int]
    """(msgctxt or None, msgid) of each active (non-obsolete) entry -> line of its first msgstr."""
    plural_line: int = 0
    """The line of the header's Plural-Forms field (0: none)."""

    @property
    def errors(self) -> list[PoProblem]:
        return [p for p in self.problems if p.severity == ERROR]


@dataclass
class Finding:
    """A problem with what msgfmt prints for it (nothing when only pnp reports it)."""

    problem: PoProblem
    gnu: tuple[tuple[int, int], ...] = ()
    """(line, how) of each message msgfmt -c prints for it, in order; line 0 is the whole file."""


@dataclass
class ScanDetails:
    """The scan, plus the findings in the order msgfmt reports them (for comparing with it)."""

    scan: PoScan
    findings: list[Finding]
    refused_by_pnp_only: bool = False
    """True when an error comes from pnp's own limits (msgfmt may accept the file)."""

    def msgfmt_lines(self) -> list[int]:
        """The lines of the errors msgfmt -c prints, in its order (continuations left out)."""
        out: list[int] = []
        last = -1
        for finding in self.findings:
            for line, how in finding.gnu:
                if how == PLAIN:
                    out.append(line)
                elif line != last:
                    last = line
                    if how == EAL:
                        out.append(line)
        return out


class Stop(Exception):
    """Too many errors: the scan ends here."""


class Problems:
    """The findings of one scan so far, in msgfmt's order, and their counts."""

    def __init__(self) -> None:
        self.findings: list[Finding] = []
        self.nerrors = 0
        self.pnp_only = False
        self.nwarnings = 0
        self.dropped_warnings = 0
        self.stopped = False
        self.phase1_errors = 0  # errors msgfmt would print while reading (it then stops)
        self.in_phase2 = False

    def add(
        self,
        line: int,
        col: int,
        message: str,
        severity: str,
        gnu: tuple[tuple[int, int], ...],
    ) -> None:
        if severity == ERROR:
            if self.nerrors >= MAX_ERRORS:
                self.stopped = True
                raise Stop
            self.nerrors += 1
            if gnu and not self.in_phase2:
                self.phase1_errors += 1
            if self.in_phase2 and self.phase1_errors:
                gnu = ()  # msgfmt stops before its checks when reading failed
        elif self.nwarnings >= MAX_WARNINGS:
            self.dropped_warnings += 1
            return
        else:
            self.nwarnings += 1
        self.findings.append(Finding(PoProblem(line, max(col, 1), message, severity), gnu))

    def error(
        self,
        line: int,
        col: int,
        message: str,
        gnu: tuple[tuple[int, int], ...] = (),
        *,
        deliberate: bool = False,
    ) -> None:
        """An error; ``deliberate``: one of pnp's own refusals (msgfmt may accept the file)."""
        if deliberate:
            self.pnp_only = True
        self.add(line, col, message, ERROR, gnu)

    def warn(self, line: int, col: int, message: str) -> None:
        self.add(line, col, message, WARNING, ())

    def extend_last(self, gline: int) -> None:
        """Add a syntax error msgfmt prints to the last error (one problem, two msgfmt lines)."""
        for finding in reversed(self.findings):
            if finding.problem.severity == ERROR:
                finding.gnu = (*finding.gnu, (gline, PLAIN))
                return
