"""`pnp watch`: validate and rebuild a game whenever one of its files changes.

Polling (no extra dependency): every few tenths of a second the modification times of the
game's YAML and art, the fonts and the game's catalogs are compared with the last snapshot.
A change validates again, prints the findings, and when there is no error rebuilds the PDFs
and the preview page (which reloads itself in the browser).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
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

POLL_SECONDS = 0.25


@dataclass
class Watcher:
    root: Root
    game: str
    langs: tuple[str, ...]
    paper: str
    echo: Callable[[str], None] = print
    snapshot: dict[Path, float] = field(default_factory=dict)

    def files(self) -> dict[Path, float]:
        out: dict[Path, float] = {}
        dirs = [self.root.game_dir(self.game), self.root.fonts]
        for base in dirs:
            if base.is_dir():
                for p in base.rglob("*"):
                    if p.is_file() and not p.name.startswith("."):
                        out[p] = p.stat().st_mtime
        if self.root.locales.is_dir():
            for p in self.root.locales.rglob(f"{self.game}.po"):
                out[p] = p.stat().st_mtime
        return out

    def changed(self) -> list[Path]:
        now = self.files()
        diff = [p for p in now if self.snapshot.get(p) != now[p]]
        diff += [p for p in self.snapshot if p not in now]
        self.snapshot = now
        return diff

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
        self.changed()
        self.cycle()
        page = self.root.output / self.game / "preview" / "index.html"
        self.echo(
            tr("watching {game}; open {page} in a browser; Ctrl-C stops").format(
                game=self.game, page=page
            )
        )
        try:
            while True:
                time.sleep(POLL_SECONDS)
                changed = self.changed()
                if changed:
                    names = ", ".join(self.root.rel(p) for p in changed[:3])
                    self.echo(
                        time.strftime("%H:%M:%S ") + tr("changed: {files}").format(files=names)
                    )
                    self.cycle()
        except KeyboardInterrupt:
            self.echo(tr("stopped"))
