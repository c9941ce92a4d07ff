"""`pnp watch`: validate and rebuild a game whenever one of its files changes.

The operating system tells of changes (inotify, FSEvents, ReadDirectoryChangesW, through
watchfiles): about 55 ms from a save to the rebuild's start, where polling every 0.25 s took
125 ms on average. The game's folder, the fonts and the game's catalogs are watched; other
games, the outputs and hidden files are not. A change validates again, prints the findings,
and when there is no error rebuilds the PDFs and the preview page (which reloads itself in the
browser). Each rebuild is a run of its own (pnp.core.run): nothing stale is kept.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..build.pipeline import BuildOptions, build
from ..content.load import Root
from ..core.errors import ContentError, PnpError
from ..core.findings import Report
from ..core.run import running
from ..i18n.words import tr
from ..printing.imposition import Options
from ..validate import validate
from .preview import build_preview

QUIET_MS = 50  # a save is often several writes: rebuild once they have stopped for this long


@dataclass
class Watcher:
    root: Root
    game: str
    langs: tuple[str, ...]
    paper: str
    echo: Callable[[str], None] = print

    def relevant(self, path: Path) -> bool:
        """Whether a change of ``path`` can change what the game builds."""
        inside = path.relative_to(self.root.path) if path.is_relative_to(self.root.path) else path
        if any(part.startswith(".") for part in inside.parts):  # editors' and pnp's own
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
        with running(fresh=True):  # each rebuild is a run of its own: nothing stale is kept
            return self._cycle()

    def _cycle(self) -> tuple[bool, float]:
        start = time.perf_counter()
        report = Report()
        try:
            games = validate(self.root, [self.game], report)
            text = report.format_text()
            if text:
                self.echo(text)
            game = games.get(self.game)
            if game is None or report.has_errors():
                self.echo(tr("errors: nothing rebuilt; fix them and save again"))
                return False, time.perf_counter() - start
            opts = BuildOptions(langs=self.langs, layout=Options(paper=self.paper))
            outputs = build(self.root, [self.game], opts, report, validated=games)
            build_preview(self.root, game, report, [o.lang for o in outputs])
        except ContentError:
            self.echo(tr("errors: nothing rebuilt; fix them and save again"))
            return False, time.perf_counter() - start
        except PnpError as exc:
            self.echo(f"pnp: {exc}")
            return False, time.perf_counter() - start
        seconds = time.perf_counter() - start
        self.echo(
            tr("rebuilt {game} in {seconds:.2f} s: {pdfs} and the preview").format(
                game=self.game, seconds=seconds, pdfs=", ".join(o.path.name for o in outputs)
            )
        )
        return True, seconds

    def run(self) -> None:  # pragma: no cover - an endless loop, exercised by hand
        self.cycle()
        page = self.root.output / self.game / "preview" / "index.html"
        self.echo(
            tr("watching {game}; open {page} in a browser; Ctrl-C stops").format(
                game=self.game, page=page
            )
        )
        try:
            while True:
                changed = self.wait()
                if changed:
                    names = ", ".join(self.root.rel(p) for p in changed[:3])
                    self.echo(
                        time.strftime("%H:%M:%S ") + tr("changed: {files}").format(files=names)
                    )
                    self.cycle()
        except KeyboardInterrupt:
            self.echo(tr("stopped"))
