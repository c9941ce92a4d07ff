"""One scan of a catalog from its bytes to its findings: pnp's limits on the bytes, decoding (again
with the header's charset when it is neither ASCII nor UTF-8), reading, then msgfmt's checks."""

from __future__ import annotations

import codecs

from .charsets import Restart
from .checks import check_catalog
from .collect import Collector
from .fast import FastParser
from .lexer import Lexer, join_lines
from .problems import (
    MAX_ERRORS,
    PLAIN,
    WARNING,
    Finding,
    PoProblem,
    PoScan,
    ScanDetails,
    Stop,
)

MAX_FILE_BYTES = 16 * 1024 * 1024
"""pnp does not read a catalog larger than this (checked before decoding)."""


class Scan(Collector):
    """One scan: decoding, reading (lexer and parser), msgfmt's checks, and what they found."""

    def __init__(self, data: bytes, max_string: int, fast: bool) -> None:
        super().__init__(data, max_string)
        self.fast = fast

    def run(self) -> ScanDetails:
        notes: list[PoProblem] = []
        try:
            self.read()
        except Stop:
            notes.append(
                PoProblem(
                    self.findings[-1].problem.line,
                    1,
                    f"more than {MAX_ERRORS} errors: the scan stopped at this line; fix these "
                    "first",
                    WARNING,
                )
            )
        problems = sorted((f.problem for f in self.findings), key=lambda p: (p.line, p.col))
        if self.dropped_warnings:
            last = problems[-1] if problems else PoProblem(1, 1, "", WARNING)
            notes.append(
                PoProblem(
                    last.line,
                    last.col,
                    f"{self.dropped_warnings} more warnings are not shown",
                    WARNING,
                )
            )
        self.findings += [Finding(note) for note in notes]
        scan = PoScan(
            problems + notes,
            self.text,
            self.charset,
            self.plural,
            self.msgstr_lines,
            self.plural_line,
        )
        return ScanDetails(scan, self.findings, self.pnp_only)

    def read(self) -> None:
        data = self.data
        if len(data) > MAX_FILE_BYTES:
            self.error(
                1,
                1,
                f"this catalog is {len(data) / 1e6:.1f} MB: pnp does not read catalogs over "
                f"{MAX_FILE_BYTES // (1024 * 1024)} MB (is it really a translation catalog?)",
                deliberate=True,
            )
            return
        data = self.check_bytes(data)
        try:
            text = data.decode("utf-8")
            self.utf8_ok = True
        except UnicodeDecodeError:
            text = data.decode("latin-1")  # provisional: the header's charset decides
        self.text = text if self.utf8_ok else None
        prelude = (list(self.findings), self.nerrors, self.nwarnings, self.pnp_only)
        try:
            self.parse(text)
        except Restart as restart:
            self.findings, self.nerrors, self.nwarnings, self.pnp_only = prelude
            self.dropped_warnings = 0
            self.restart(data, restart.codec)
            return
        self.check_charset_after(data)
        check_catalog(self)

    def check_bytes(self, data: bytes) -> bytes:
        """A byte-order mark (taken away) and NUL bytes, before decoding."""
        if data.startswith(codecs.BOM_UTF8):
            data = data[3:]
            self.warn(
                1,
                1,
                "the file starts with a UTF-8 byte-order mark: pnp reads it, but GNU msgfmt "
                "refuses it; save the file as UTF-8 without BOM",
            )
        nul = data.find(b"\0")
        if nul >= 0:
            line = data.count(b"\n", 0, nul) + 1
            self.error(
                line,
                nul - data.rfind(b"\n", 0, nul),
                "this line contains a NUL byte (a zero byte): a catalog is text; is it a binary "
                "file, or saved as UTF-16? Save it as UTF-8",
                deliberate=True,
            )
        return data

    def restart(self, data: bytes, codec: str) -> None:
        """Read again, decoded with the header's charset (a catalog neither ASCII nor UTF-8)."""
        self.phase1_errors = 0
        self.messages = []
        self.seen = {}
        self.msgstr_lines = {}
        self.header = None
        self.charset_seen = False
        self.codec = codec
        try:
            text = data.decode(codec)
        except UnicodeDecodeError as exc:
            line = data.count(b"\n", 0, exc.start) + 1
            self.error(
                line,
                exc.start - data.rfind(b"\n", 0, exc.start),
                f"these bytes are not {self.charset} text, though the header declares "
                f"charset={self.charset}: save the file as UTF-8 and declare charset=UTF-8",
                deliberate=True,
            )
            text = data.decode(codec, errors="replace")
            self.text = None
        else:
            self.text = text
        self.parse(text)
        check_catalog(self)

    def check_charset_after(self, data: bytes) -> None:
        """After reading: bytes a UTF-8 (or undeclared) catalog cannot hold."""
        if self.utf8_ok or self.codec != "utf-8" or self.charset not in ("", "UTF-8"):
            return
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = data.count(b"\n", 0, exc.start) + 1
            declared = self.charset or "no charset"
            self.error(
                line,
                exc.start - data.rfind(b"\n", 0, exc.start),
                f"this line is not valid UTF-8 text (the header declares {declared}): save the "
                "file as UTF-8",
                deliberate=True,
            )

    def parse(self, text: str) -> None:
        splices: list[int] = []
        if "\\\n" in text:
            text, splices = join_lines(text)
        lexer = Lexer(self, text, splices)
        self.lexer = lexer
        FastParser(self, lexer, self.fast).run()
        if self.header is None:
            self.error(
                1,
                1,
                'this catalog has no header entry (msgid "" with msgstr "Content-Type: text/plain; '
                'charset=UTF-8\\n" and the other fields); add one: `pnp i18n update` writes it',
                ((0, PLAIN),),
            )
