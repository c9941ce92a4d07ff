"""Skipping unchanged builds: each PDF keeps a stamp of everything it was made from (its
files, fonts and catalogs, pnp's own code, the options); a build whose stamps all still match
renders nothing. What was learnt of the input files is kept beside the outputs for the next
build (content.assets.facts_of)."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..content.assets import file_digest, is_image_name, prefetch, remember_facts, settle
from ..content.load import Root
from ..content.model import valid_language
from ..core.files import read_limited
from ..core.findings import Report
from .options import BuildOptions, Output


def _fs(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")  # file names need not be valid UTF-8


def file_part(path: Path) -> bytes:
    """What one file adds to :func:`inputs_digest`: its name, size and content digest."""
    try:
        st = path.stat()
        head = _fs(f"{path.name}:{st.st_size}")
        if st.st_size <= 4 * 1024 * 1024:
            return head + file_digest(path).encode()
        return head + str(st.st_mtime_ns).encode()  # large art: size and time stand for it
    except OSError as exc:  # unreadable: validation says so if the game needs the file
        return _fs(f"{path.name}: {exc.strerror}")


# the libraries whose versions change pnp's output: a new one rebuilds everything
OUTPUT_LIBRARIES = (
    "reportlab",
    "pillow",
    "uharfbuzz",
    "python-bidi",
    "budoux",
    "pyphen",
    "pypdfium2",
    "babel",
    "jinja2",
    "python-calamine",
    "ruamel.yaml",
)


def library_versions() -> str:
    """The installed versions of :data:`OUTPUT_LIBRARIES` ("name=version" lines)."""
    from importlib import metadata

    lines = []
    for name in OUTPUT_LIBRARIES:
        try:
            lines.append(f"{name}={metadata.version(name)}")
        except metadata.PackageNotFoundError:
            lines.append(f"{name}=-")
    return "\n".join(lines)


def code_digest() -> str:
    """pnp's own version, code and bundled data (fonts, layouts, tables, catalogs), and the
    versions of the libraries that shape its output: any of them new rebuilds everything."""
    global _CODE_DIGEST
    if _CODE_DIGEST is None:
        import hashlib

        from .. import __version__

        h = hashlib.sha256(__version__.encode())
        h.update(library_versions().encode())
        package = Path(__file__).parent.parent
        for p in sorted(package.rglob("*")):
            if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc":
                st = p.stat()
                h.update(_fs(f"{p.relative_to(package)}:{st.st_size}:{st.st_mtime_ns}"))
        _CODE_DIGEST = h.hexdigest()
    return _CODE_DIGEST


_CODE_DIGEST: str | None = None


def input_files(root: Root, game_id: str) -> list[Path]:
    """Everything a game's PDFs are made from: its files, fonts and catalogs, sorted."""
    files: list[Path] = []
    for folder in (root.game_dir(game_id), root.fonts):
        if folder.is_dir():
            files.extend(p for p in sorted(folder.rglob("*")) if p.is_file() and not p.is_symlink())
    if root.locales.is_dir():
        files.extend(sorted(root.locales.glob(f"*/LC_MESSAGES/{game_id}.po")))
    return files


def inputs_digest(
    root: Root,
    game_id: str,
    files: list[Path] | None = None,
    known: dict[Path, bytes] | None = None,
) -> str:
    """A digest of a game's input files (:func:`input_files`) and of pnp itself; ``known``:
    what some of the files added when they were read earlier (:func:`file_part`)."""
    import hashlib

    h = hashlib.sha256(code_digest().encode())
    known = known or {}
    for p in input_files(root, game_id) if files is None else files:
        h.update(_fs(p.relative_to(root.path).as_posix()))
        part = known.get(p)
        h.update(file_part(p) if part is None else part)
    return h.hexdigest()


def stamp_of(digest: str, lang: str, name: str, opts: BuildOptions) -> str:
    settings = replace(opts, out_dir=None, jobs=1, force=False, papers=(), langs=())
    return f"{digest}\n{lang}\n{name}\n{settings!r}\n"


def stamp_path(pdf: Path) -> Path:
    return pdf.with_name(f".{pdf.name}.inputs")


MAX_FACTS_BYTES = 64 * 1024 * 1024  # about 300,000 files; anything larger is not ours


def facts_path(root: Root, game_id: str, opts: BuildOptions) -> Path:
    """What the last build of a game into this folder found of its files (assets.facts_of)."""
    return (opts.out_dir or root.output) / game_id / ".pnp-files.json"


def declared_languages(root: Root, game_id: str) -> list[str] | None:
    """The ``languages:`` of a game's game.yaml alone, or None when anything is unusual.

    Enough to find the stamps of an earlier build without loading the whole game (for a
    10,000-card deck, loading is most of the time a skipped build would take); the stamps
    themselves cover every input, game.yaml included.
    """
    from ..content.load import GAME_FILE
    from ..content.yamlio import load_file

    file = root.game_dir(game_id) / GAME_FILE
    loaded = load_file(file, GAME_FILE, Report(), game_id)
    data = loaded.data
    languages = data.get("languages") if isinstance(data, dict) else None
    if not isinstance(languages, list) or not languages:
        return None
    if not all(isinstance(x, str) and valid_language(x) for x in languages):
        return None
    return list(dict.fromkeys(languages))


def all_up_to_date(
    root: Root, game_ids: list[str], opts: BuildOptions, digest_of: Callable[[str], str]
) -> list[Output] | None:
    """The outputs, when every one of them was built from exactly the current inputs."""
    outs: list[Output] = []
    for gid in game_ids:
        langs = list(dict.fromkeys(opts.langs)) or declared_languages(root, gid)
        if not langs or not all(valid_language(lang) for lang in langs):
            return None  # the full path decides (and explains)
        for lang in langs:
            for paper in dict.fromkeys(opts.papers or (opts.layout.paper,)):
                name = opts.document.file_name(gid, lang, paper)
                pdf = (opts.out_dir or root.output) / gid / name
                stamp = stamp_path(pdf)
                stamped = all(e.stamped for e in opts.exports)  # no other file unstamped
                if not stamped or not pdf.is_file() or not stamp.is_file():
                    return None
                try:  # a stamp is a line: anything else (a pipe, a huge file) is no match
                    kept = read_limited(stamp, 4096, "stamp").decode("utf-8", "replace")
                except OSError:
                    return None
                if kept != stamp_of(digest_of(gid), lang, name, opts):
                    return None
                outs.append(Output(gid, lang, pdf, pdf, 0, 0, 0, skipped=True))
    return outs


@dataclass
class Inputs:
    """The input files of the games being built, read once each, and their digests."""

    root: Root
    files: dict[str, list[Path]]  # game id -> its files
    started_ns: int  # before anything was read
    early: dict[Path, bytes] = field(default_factory=dict)  # the files that are not images
    digests: dict[str, str] = field(default_factory=dict)  # game id -> inputs digest

    @classmethod
    def start(cls, root: Root, game_ids: list[str], opts: BuildOptions) -> Inputs:
        """Take what the last build found, then start reading.

        Each input file is read once: its digest for the stamps and, for an image, the checks
        of validation. With --jobs, other processes start on the images now, while this one
        reads the other files and the YAML (its own share of the images comes when validation
        asks for them). The other files are digested before this process reads them, and the
        images before anything draws them, so a file saved during the build leaves a stamp
        that no longer matches and the next build does not skip."""
        started_ns = time.time_ns()
        inputs = cls(root, {gid: input_files(root, gid) for gid in game_ids}, started_ns)
        every = [p for gid in game_ids for p in inputs.files[gid]]
        for gid in game_ids if not opts.force else ():  # what the last build found, for the
            with contextlib.suppress(OSError):  # files unchanged since (--force reads all)
                data = read_limited(facts_path(root, gid, opts), MAX_FACTS_BYTES, "facts file")
                remember_facts(data, inputs.files[gid], root.path, code_digest())
        prefetch([p for p in every if is_image_name(p)], opts.jobs, wait=False)
        try:
            inputs.early = {p: file_part(p) for p in every if not is_image_name(p)}
        except BaseException:
            settle()
            raise
        return inputs

    def parts(self, gid: str) -> list[tuple[Path, bytes]]:
        """Each input file of ``gid`` and what it adds to the digest (:func:`file_part`)."""
        settle()
        return [(p, self.early.get(p) or file_part(p)) for p in self.files[gid]]

    def digest_of(self, gid: str) -> str:
        if gid not in self.digests:
            settle()
            self.digests[gid] = inputs_digest(self.root, gid, self.files[gid], self.early)
        return self.digests[gid]
