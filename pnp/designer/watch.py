"""`pnp watch`: validate and rebuild a game whenever one of its files changes.

The operating system tells of changes (inotify, FSEvents, ReadDirectoryChangesW, through
watchfiles): about 55 ms from a save to the rebuild's start, where polling every 0.25 s took
125 ms on average. The game's folder, the fonts and the game's catalogs are watched; other
games, the outputs and hidden files are not. A change validates again, prints the findings,
and when there is no error rebuilds the PDFs and the preview page (which reloads itself in the
browser); an error of one language (its catalog) stops that language's PDFs only, and one line
says so, as `pnp build` does; with other errors, no PDF is rebuilt and the preview page shows
the errors, held at the top of the window, over every face that can still be drawn, until a
save fixes them. Each rebuild
is a run of its own (pnp.core.run): nothing stale is kept, except what the watcher keeps on
purpose: a digest of what each PDF printed (build.keep), so that a PDF an edit cannot have
changed (the Italian one, after an English text) is not rendered again.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..build.failures import game_errors
from ..build.keep import Keep
from ..build.pipeline import BuildOptions, build
from ..content.load import Root
from ..content.model import Game
from ..core.errors import ContentError, PnpError
from ..core.findings import Report, terminal_safe
from ..core.run import running
from ..i18n.words import tr
from ..printing.imposition import Options
from ..validate import validate
from .preview import preview_dir, write_preview

QUIET_MS = 50  # a save is often several writes: rebuild once they have stopped for this long


@dataclass
class Watcher:
    root: Root
    game: str
    langs: tuple[str, ...]
    paper: str
    echo: Callable[[str], None] = print
    out: Path | None = None  # --out: where the PDFs and the preview go (default: ROOT/output)
    keep: Keep = field(default_factory=Keep, repr=False)  # what the last rebuild printed

    def relevant(self, path: Path) -> bool:
        """Whether a change of ``path`` can change what the game builds."""
        inside = path.relative_to(self.root.path) if path.is_relative_to(self.root.path) else path
        if any(part.startswith(".") for part in inside.parts):  # editors' and pnp's own
            return False
        if self.out is not None and path.is_relative_to(self.out):  # its own outputs
            return False
        game_dir = self.root.game_dir(self.game)
        if path.is_relative_to(game_dir) or path.is_relative_to(self.root.fonts):
            return True
        return path.is_relative_to(self.root.locales) and path.name == f"{self.game}.po"

    def wait(self, timeout_ms: int = 0, stop: threading.Event | None = None) -> list[Path]:
        """The files of the game that change next, once they are quiet for QUIET_MS (empty
        after ``timeout_ms`` without a change, or when ``stop`` is set; 0: no timeout)."""
        import watchfiles

        def wanted(_change: object, name: str) -> bool:
            return self.relevant(Path(name))

        for changes in watchfiles.watch(
            self.root.path,
            watch_filter=wanted,
            step=QUIET_MS,
            stop_event=stop,
            rust_timeout=timeout_ms,
            yield_on_timeout=bool(timeout_ms),
            raise_interrupt=True,
        ):
            return sorted({Path(name) for _change, name in changes})
        return []

    def cycle(self) -> tuple[bool, float]:
        """Validate and rebuild once; returns (built, seconds)."""
        with running(fresh=True) as run:  # each rebuild is a run of its own, but for
            self.keep.lend(run)  # the fitted texts the watcher keeps (build.keep)
            return self._cycle()

    def _cycle(self) -> tuple[bool, float]:
        start = time.perf_counter()
        report = Report()
        game: Game | None = None
        seen = 0
        try:
            # texts are fitted (and overflow reported) by the build, as `pnp build` does
            games = validate(self.root, [self.game], report, fit_languages=[])
            seen = len(report)
            text = report.format_text()
            if text:
                self.echo(text)
            game = games.get(self.game)
            if game is None or game_errors(report):  # one language's errors stop only it
                return self._failed(report, game, start)
            opts = BuildOptions(
                langs=self.langs, layout=Options(paper=self.paper), out_dir=self.out
            )
            outputs = build(self.root, [self.game], opts, report, validated=games, keep=self.keep)
            for f in report.findings[seen:]:  # what rendering found (overflow, fallbacks)
                self.echo(f.text())
            for line in [*outputs.notes, *(f"pnp: {one.line()}" for one in outputs.failed)]:
                self.echo(line)  # a language not built, and why: one line each
            langs = list(dict.fromkeys(o.lang for o in outputs))
            # the PDFs' setup pages are the preview's when they were built as it draws (A4)
            drawn = outputs if opts.layout == Options() else []
            write_preview(self.root, self.game, game, report, langs, out=self.out, built=drawn)
        except ContentError as exc:
            for f in report.findings[seen:]:  # what the build found after validation
                self.echo(f.text())
            self.echo(f"pnp: {exc}")  # which languages were not built, and why
            return self._failed(report, game, start)
        except PnpError as exc:
            self.echo(f"pnp: {exc}")
            return self._failed(report, game, start, problem=f"pnp: {exc}")
        seconds = time.perf_counter() - start
        built = [o.path.name for o in outputs if not o.skipped]
        self.echo(
            tr("rebuilt {game} in {seconds:.2f} s: {pdfs} and the preview").format(
                game=self.game, seconds=seconds, pdfs=", ".join(built) or "-"
            )
        )
        same = [o.path.name for o in outputs if o.skipped]
        if same:
            self.echo("  " + tr("unchanged by this edit: {pdfs}").format(pdfs=", ".join(same)))
        return True, seconds

    def _failed(
        self, report: Report, game: Game | None, start: float, problem: str = ""
    ) -> tuple[bool, float]:
        """No PDF rebuilt; the preview page shows the errors over the faces that can be drawn."""
        self.echo(tr("errors: no PDF rebuilt, the preview shows them; fix them and save again"))
        try:
            write_preview(self.root, self.game, game, report, out=self.out, problem=problem)
        except PnpError as exc:
            self.echo(f"pnp: {exc}")
        return False, time.perf_counter() - start

    @property
    def page(self) -> Path:
        return preview_dir(self.root, self.game, self.out) / "index.html"

    def changed(self, paths: list[Path]) -> str:
        """What changed, in one line: the first few names, escaped as findings are (a file
        name can hold a newline, a terminal's escape, or bytes that are not UTF-8)."""
        names = ", ".join(terminal_safe(self.root.rel(p)) for p in paths[:3])
        return tr("changed: {files}").format(files=names)

    def run(self) -> None:  # pragma: no cover - an endless loop, exercised by hand
        self.cycle()
        self.echo(
            tr("watching {game}; open {page} in a browser; Ctrl-C stops").format(
                game=self.game, page=self.page
            )
        )
        try:
            while True:
                changed = self.wait()
                if changed:
                    self.echo(time.strftime("%H:%M:%S ") + self.changed(changed))
                    self.cycle()
        except KeyboardInterrupt:
            self.echo(tr("stopped"))
