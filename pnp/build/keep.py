"""`pnp watch` keeps the PDFs an edit cannot have changed (an English text edited: the Italian
PDF stays as it is), by a digest of what each language's PDF can print.

The game's model is walked whole (every field of every object, positions included, since the
findings of a build name them), with each multilingual text reduced to what the language can
print of it: its own value and plural forms when it has them, else the source text (which the
catalog's entries are matched against) and every value a missing source falls back to. The
files a model does not hold (images, fonts, catalogs) are digested whole. What the walk does not
know (an object it cannot take apart) makes the digest unique, so the PDF is rebuilt: a wrong
"unchanged" would leave a stale PDF, a wrong "changed" only costs time.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Iterable
from enum import Enum
from pathlib import Path, PurePath
from typing import Any

from ..content.model import Game, Text
from ..content.suffixes import CONTENT_SUFFIXES
from ..core.findings import Finding, Report
from ..core.run import Run
from .options import BuildOptions, Job, Output


class _Unknown(Exception):
    """The walk met an object it cannot take apart: no digest, the language is rebuilt."""


def others_digest(files: Iterable[tuple[Path, bytes]]) -> str:
    """A digest of the files a model does not hold (images, fonts, catalogs), from (path,
    digest) pairs of a game's input files."""
    h = hashlib.blake2b(digest_size=20)
    for path, digest in sorted(files):
        if path.suffix.lower() not in CONTENT_SUFFIXES:  # not held by the model
            h.update(f"{path}\0".encode() + digest)
    return h.hexdigest()


def printed_digests(
    game: Game, langs: list[str], files: Iterable[tuple[Path, bytes]]
) -> dict[str, str]:
    """The digest of what ``game``'s PDF in each of ``langs`` is made from, in one walk of the
    model; ``files``: (path, digest) of the game's input files (those the model holds are
    skipped). Empty when the walk meets something it cannot take apart."""
    w = _Walk(langs, {lang: hashlib.blake2b(lang.encode(), digest_size=20) for lang in langs})
    w.put("files", others_digest(files))
    try:
        _walk(game, w)
    except (_Unknown, RecursionError):
        return {}
    common = w.common.digest()
    for h in w.by_lang.values():
        h.update(common)
    return {lang: h.hexdigest() for lang, h in w.by_lang.items()}


@dataclasses.dataclass
class _Walk:
    langs: list[str]
    by_lang: dict[str, Any]  # language -> what it prints of the texts
    common: Any = dataclasses.field(default_factory=lambda: hashlib.blake2b(digest_size=20))
    seen: dict[int, int] = dataclasses.field(default_factory=dict)  # id -> order first seen

    def put(self, *parts: object) -> None:
        self.common.update(repr(parts).encode())


_ATOMS = (str, int, float, bool, bytes, type(None), Enum, PurePath)


def _walk(obj: Any, w: _Walk) -> None:
    if isinstance(obj, _ATOMS):
        w.put(type(obj).__name__, obj)
        return
    key = id(obj)
    if key in w.seen:  # shared and cyclic references: walked once, referred to after
        w.put("ref", w.seen[key])
        return
    w.seen[key] = len(w.seen)
    if isinstance(obj, Text):
        _text(obj, w)
    elif isinstance(obj, tuple | list):
        w.put(type(obj).__name__, len(obj))
        for item in obj:
            _walk(item, w)
    elif isinstance(obj, dict):
        w.put("dict", len(obj))
        for k, v in obj.items():
            _walk(k, w)
            _walk(v, w)
    elif isinstance(obj, set | frozenset):
        w.put("set", sorted(repr(x) for x in obj))
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        w.put(type(obj).__qualname__)
        for f in dataclasses.fields(obj):
            w.put(f.name)
            _walk(getattr(obj, f.name), w)
    elif hasattr(obj, "__dict__") and type(obj).__module__.startswith("pnp."):
        w.put(type(obj).__qualname__)
        for name, value in sorted(vars(obj).items()):
            w.put(name)
            _walk(value, w)
    else:
        raise _Unknown(type(obj).__qualname__)


def _text(t: Text, w: _Walk) -> None:
    """Where the text is, for every language; what each language prints of it: its own value,
    else the source (which the catalog's entries are matched against) or any value."""
    w.put("Text", w.seen[id(t)], t.ctx, t.count, t.plain, t.pos, sorted(t.lpos.items()))
    fallback = None
    for lang, h in w.by_lang.items():
        if lang in t.values:
            own = (w.seen[id(t)], t.values[lang], sorted(t.forms.get(lang, {}).items()))
            h.update(repr(own).encode())
            continue
        if fallback is None:
            fallback = repr(
                (
                    w.seen[id(t)],
                    sorted(t.values.items()),
                    sorted((k, sorted(v.items())) for k, v in t.forms.items()),
                    t.note,
                )
            ).encode()
        h.update(fallback)


# --- what the watcher keeps between rebuilds ---------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Kept:
    """A PDF as the last rebuild left it: what it printed, and what its rendering found."""

    digest: str
    stat: tuple[int, int]  # size and mtime of the PDF on disk: another hand changed it if not
    output: Output
    findings: tuple[Finding, ...]


@dataclasses.dataclass
class Keep:
    """What `pnp watch` remembers from one rebuild to the next (the exception to a run owning
    everything it uses): per PDF, the digest of what it printed. A rebuild renders only the
    PDFs whose digest changed, or that are no longer on disk as they were left; the others
    stay, and their findings are reported again. Plain PDFs only (no PNG, TTS or proof)."""

    kept: dict[tuple[str, str, object], Kept] = dataclasses.field(default_factory=dict)
    fits: dict[Any, Any] = dataclasses.field(default_factory=dict)  # fitted texts, shared
    files: str = ""  # the digest of the files the model does not hold, when fits were made
    # rendered by the current rebuild (digest, output, findings), kept once committed
    fresh: dict[tuple[str, str, object], tuple[str, Output | None, tuple[Finding, ...]]] = (
        dataclasses.field(default_factory=dict)
    )

    def split(
        self, jobs: list[Job], files: dict[str, list[tuple[Path, bytes]]], report: Report
    ) -> tuple[list[Job], list[Output]]:
        """The jobs to render, and the outputs kept as they are (their findings reported)."""
        self.fresh = {}
        others = "".join(f"{gid}:{others_digest(p)}" for gid, p in sorted(files.items()))
        if others != self.files:  # an image or a font changed: a fit may depend on it
            self.fits.clear()
            self.files = others
        todo: list[Job] = []
        kept: list[Output] = []
        printed: dict[str, dict[str, str]] = {}  # game -> language -> digest
        for game, lang, opts in jobs:
            if game.id not in printed:
                langs = list(dict.fromkeys(j[1] for j in jobs if j[0] is game))
                printed[game.id] = printed_digests(game, langs, files.get(game.id, []))
            key = (game.id, lang, opts.layout)
            digest = _job_digest(printed[game.id].get(lang), opts)
            old = self.kept.get(key)
            if digest is not None and old is not None and old.digest == digest and _same(old):
                report.extend(old.findings)  # its setup pages: in its output, for the preview
                kept.append(dataclasses.replace(old.output, skipped=True))
                continue
            self.kept.pop(key, None)
            if digest is not None:
                self.fresh[key] = (digest, None, ())
            todo.append((game, lang, opts))
        return todo, kept

    def lend(self, run: Run) -> None:
        """Let the rebuild in ``run`` use the fitted texts of the earlier ones (a fit is keyed
        by its text, style, fonts, icons, values and box; images and fonts are checked in
        :meth:`split`)."""
        from ..typeset.text import FIT_CACHE_SIZE, FITS  # not before a build needs it

        run.share(FITS, self.fits)
        if len(self.fits) > FIT_CACHE_SIZE:
            self.fits.clear()

    def guess(self, job: Job) -> int:
        """How many pages the job's setup sheet took last time: a first guess, which the
        count checks (1 when there was no last time)."""
        kept = self.kept.get((job[0].id, job[1], job[2].layout))
        return len(kept.output.setup) if kept is not None and kept.output.setup else 1

    def rendered(self, job: Job, out: Output, findings: list[Finding]) -> None:
        """``job`` was rendered in this process into ``out``, with these findings."""
        key = (job[0].id, job[1], job[2].layout)
        if key in self.fresh:
            self.fresh[key] = (self.fresh[key][0], out, tuple(findings))

    def committed(self) -> None:
        """The rebuild's files are on disk: remember the PDFs rendered in this process."""
        for key, (digest, out, findings) in self.fresh.items():
            if out is None:
                continue
            st = out.path.stat()
            self.kept[key] = Kept(digest, (st.st_size, st.st_mtime_ns), out, findings)
        self.fresh = {}


def _job_digest(printed: str | None, opts: BuildOptions) -> str | None:
    """What one PDF is made from: what its language prints, and every option of its print."""
    if printed is None or not all(e.keeps for e in opts.exports):
        return None
    settings = dataclasses.replace(opts, jobs=1, force=False, langs=())
    return hashlib.blake2b(f"{printed}{settings!r}".encode(), digest_size=20).hexdigest()


def _same(old: Kept) -> bool:
    try:
        st = old.output.path.stat()
    except OSError:
        return False
    return (st.st_size, st.st_mtime_ns) == old.stat
