"""Files a game refers to (art, icons, fonts): resolved safely and checked before use.

A path in content is relative to the game's folder. It must stay inside that folder (or the
content root's fonts/ for fonts): absolute paths, ``..`` escapes and symlinks that lead outside
are refused. Images are opened only if they are PNG, JPEG or SVG (an SVG checked as untrusted
XML: :mod:`.svgfiles`), and Pillow's decompression-bomb limit is an error, not a warning.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import io
import os
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from PIL import Image

from ..core.files import ReadRefused, open_regular, read_limited
from ..core.run import current
from .imagefiles import (
    JPEG_SIGNATURE,
    PNG_SIGNATURE,
    ImageStructureError,
    jpeg_frame,
    png_check,
)
from .svgfiles import MAX_SVG_BYTES, SvgRefused, check_svg, looks_like_svg

MAX_IMAGE_PIXELS = 60_000_000  # about 7,700 x 7,700: far more than 600 dpi on A3
IMAGE_FORMATS = {"PNG", "JPEG"}


class AssetError(Exception):
    """A referenced file is unsafe, missing or unusable; the message says what to do."""

    def __init__(self, message: str, rule: str) -> None:
        super().__init__(message)
        self.rule = rule

    def __reduce__(self) -> tuple[type[AssetError], tuple[str, str]]:
        return AssetError, (str(self), self.rule)  # travels back from forked workers


@functools.lru_cache(maxsize=256)
def _real_folder(base: Path) -> Path:
    """A game's folder with symbolic links resolved (asked once per file the game names)."""
    return base.resolve()


def resolve(base: Path, rel: str, *, what: str = "file") -> Path:
    """``rel`` (forward slashes, relative) inside ``base``, or AssetError. Answered once per
    run: validation and each language's PDF name the same art (resolving symbolic links asks
    the file system about every folder on the way)."""
    known = current().store("content.resolved", limit=100_000)
    key = (base, rel, what)
    found = known.get(key)
    if found is None:
        try:
            found = known[key] = _resolve(base, rel, what)
        except AssetError as exc:
            found = known[key] = exc
    if isinstance(found, AssetError):
        raise AssetError(str(found), found.rule)
    return found


def _resolve(base: Path, rel: str, what: str) -> Path:
    if not rel or "\x00" in rel:
        raise AssetError(f"empty or invalid {what} path", "unsafe-path")
    if len(rel) > 1024 or any(len(part) > 255 for part in rel.replace("\\", "/").split("/")):
        raise AssetError(f"{what} path {rel[:60]!r}... is too long", "unsafe-path")
    pure = PurePosixPath(rel.replace("\\", "/"))
    if pure.is_absolute() or rel.startswith(("/", "\\")) or (len(rel) > 1 and rel[1] == ":"):
        raise AssetError(
            f"{what} path {rel!r} is absolute; write it relative to the game's folder",
            "unsafe-path",
        )
    if ".." in pure.parts:
        raise AssetError(
            f"{what} path {rel!r} leaves the game's folder (..); keep files inside it",
            "unsafe-path",
        )
    target = base.joinpath(*pure.parts)
    try:
        real = target.resolve(strict=False)
        inside = real.is_relative_to(_real_folder(base))
    except (OSError, RuntimeError, ValueError):
        inside = False
    if not inside:
        raise AssetError(
            f"{what} path {rel!r} leads outside the game's folder (through a symbolic link?)",
            "unsafe-path",
        )
    try:
        exists = target.exists()
        regular = target.is_file()
    except OSError as exc:  # a name too long, a broken file system...
        raise AssetError(
            f"{what} path {rel[:60]!r}... cannot be used ({exc.strerror})", "unsafe-path"
        ) from exc
    if not exists:
        raise AssetError(
            f"{what} {rel!r} does not exist in the game's folder{_nearest_file(base, rel)}",
            "missing-file",
        )
    if not regular:
        raise AssetError(
            f"{what} {rel!r} is not a regular file (a folder, pipe or device?); use an image file",
            "missing-file",
        )
    return target


MAX_LISTED = 20_000  # files of a game's folder compared with a missing name


def _files_of(base: Path) -> list[str]:
    """The files of a game's folder (relative, forward slashes; hidden ones and symbolic links
    left out), listed once per run and at most MAX_LISTED of them."""
    listed = current().store("content.listed", limit=64)
    found: list[str] | None = listed.get(base)
    if found is None:
        found = []
        for dirpath, dirnames, filenames in os.walk(base, followlinks=False):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
            folder = Path(dirpath).relative_to(base).as_posix()
            for name in sorted(filenames):
                if not name.startswith("."):
                    found.append(name if folder == "." else f"{folder}/{name}")
            if len(found) > MAX_LISTED:
                break
        listed[base] = found
    return found


def _nearest_file(base: Path, rel: str) -> str:
    """ "; did you mean 'art/apple.png'?" for the file of the game's folder nearest to a
    missing name (the same name in another letter case first), or nothing."""
    from .names import nearest

    files = _files_of(base)
    wanted = rel.replace("\\", "/").removeprefix("./")
    same = [f for f in files if f.lower() == wanted.lower()]
    if same:
        return f"; did you mean {same[0]!r}? (the letter case differs, which matters)"
    close = nearest(wanted, files)
    if close is None:
        name = PurePosixPath(wanted).name
        by_name = {PurePosixPath(f).name: f for f in files}
        found = nearest(name, sorted(by_name))
        close = by_name[found] if found is not None else None
    return f"; did you mean {close!r}?" if close is not None else ""


@dataclass(frozen=True)
class ImageInfo:
    path: Path
    format: str
    width: int
    height: int
    mode: str


# What reading a file told us, while its size and modification time stay the same: the SHA-256
# of its content (build stamps, image names in PDFs) and, for images, the probe's outcome.
# One read serves both for the whole run (pnp.core.run), and a build's forked workers inherit
# them; the next build finds them in the facts kept beside its outputs.
Key = tuple[str, int, int]
MAX_REMEMBERED = 50_000
READ_WHOLE = 64 * 1024 * 1024  # larger files are streamed, never held in memory
PARALLEL_BYTES = 32 * 1024 * 1024  # below this, starting processes costs more than it saves
_SIGNATURES = (PNG_SIGNATURE, JPEG_SIGNATURE)
_IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".svg")


def _key(path: Path, st: os.stat_result) -> Key:
    return str(path), st.st_size, st.st_mtime_ns


def _digests() -> dict[Key, str]:
    return current().store("content.digests")


def _probes() -> dict[Key, ImageInfo | AssetError]:
    return current().store("content.probes")


def _probe(path: Path, source: Path | io.BytesIO, head: bytes) -> ImageInfo:
    if path.suffix.lower() == ".svg" or looks_like_svg(head):
        return _probe_svg(path, source)
    if not head.startswith(_SIGNATURES):
        raise AssetError(
            f"{path.name} is not a PNG, JPEG or SVG file; convert it to PNG", "bad-image"
        )
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(source) as im:
                if im.format not in IMAGE_FORMATS:
                    raise AssetError(
                        f"{path.name}: {im.format} images are not supported", "bad-image"
                    )
                w, h = im.size
                if w * h > MAX_IMAGE_PIXELS:
                    raise AssetError(
                        f"{path.name} is {w}x{h} pixels, over the {MAX_IMAGE_PIXELS:,}-pixel "
                        "limit; scale it down (600 dpi is plenty)",
                        "bad-image",
                    )
                im.verify()  # reads the whole file: chunk checksums
                fmt, mode = im.format, im.mode
        _structure(source, fmt)  # what the PDF writer will read: the same walk
        return ImageInfo(path, fmt, w, h, mode)
    except AssetError:
        raise
    except (Image.DecompressionBombWarning, Image.DecompressionBombError) as exc:
        raise AssetError(
            f"{path.name} is refused as a decompression bomb: {exc}", "bad-image"
        ) from exc
    except ImageStructureError as exc:
        raise AssetError(f"{path.name}: {exc}; export it again", "bad-image") from exc
    except (OSError, SyntaxError, ValueError, EOFError) as exc:
        reason = str(exc).replace(str(path), path.name).replace(repr(source), path.name)
        raise AssetError(
            f"{path.name} is damaged or unreadable ({reason}); export it again", "bad-image"
        ) from exc


def _probe_svg(path: Path, source: Path | io.BytesIO) -> ImageInfo:
    """An SVG checked as :func:`pnp.content.svgfiles.check_svg` checks it (size, references,
    entities, elements); its size in CSS pixels, rounded."""
    if not isinstance(source, io.BytesIO):
        raise AssetError(
            f"{path.name} is over the {MAX_SVG_BYTES // 2**20} MB limit for an SVG; simplify "
            "it or export it as PNG",
            "bad-image",
        )
    try:
        info = check_svg(source.getvalue(), path.name)
    except SvgRefused as exc:
        raise AssetError(str(exc), "bad-image") from exc
    return ImageInfo(path, "SVG", max(1, round(info.width)), max(1, round(info.height)), "vector")


def svg_drawing(path: Path) -> Any:
    """The vector drawing of an SVG file of the game (a reportlab Drawing in the SVG's own
    units), checked again as it is read; made once per file and run. AssetError when the file
    is not one pnp draws."""
    st = path.stat()
    drawings = current().store("content.svg-drawings", limit=256)
    key = _key(path, st)
    found = drawings.get(key)
    if found is None:
        try:
            data = read_limited(path, MAX_SVG_BYTES, "image")
            info = check_svg(data, path.name)
        except SvgRefused as exc:
            raise AssetError(str(exc), "bad-image") from exc
        except ReadRefused as exc:
            raise AssetError(f"{path.name}: {exc}", "bad-image") from exc
        from ..compat.svglib import svg_drawing as drawing_of

        found = drawings[key] = drawing_of(info.root)
    return found


def _structure(source: Path | io.BytesIO, fmt: str) -> None:
    check = png_check if fmt == "PNG" else jpeg_frame
    if isinstance(source, io.BytesIO):
        source.seek(0)
        check(source)
    else:
        with open_regular(source, "image") as fh:
            check(fh)


def _examine(path: Path, probe: bool) -> tuple[Key, str, ImageInfo | AssetError | None]:
    """Read a file once: its digest and, with ``probe`` (or when it is or looks like an image),
    what :func:`probe_image` says about it. Remembered unless the file changed while being
    read. OSError when the file cannot be read."""
    st = path.stat()
    probe = probe or is_image_name(path)
    key = _key(path, st)
    h = hashlib.sha256()
    result: ImageInfo | AssetError | None = None
    if st.st_size <= READ_WHOLE:
        data = read_limited(path, READ_WHOLE)
        h.update(data)
        if probe or data.startswith(_SIGNATURES):
            try:
                result = _probe(path, io.BytesIO(data), data[:16])
            except AssetError as err:
                result = err
    else:
        with open_regular(path) as fh:
            head = fh.read(16)
            h.update(head)
            for block in iter(lambda: fh.read(1 << 20), b""):
                h.update(block)
        if probe or head.startswith(_SIGNATURES):
            try:
                result = _probe(path, path, head)
            except AssetError as err:
                result = err
    digest = h.hexdigest()
    if _key(path, path.stat()) == key:  # unchanged while read: safe to remember
        _remember(key, digest, result)
    return key, digest, result


def _remember(key: Key, digest: str, result: ImageInfo | AssetError | None) -> None:
    digests, probes = _digests(), _probes()
    if len(digests) > MAX_REMEMBERED:
        digests.clear()
        probes.clear()
    digests[key] = digest
    if result is not None:
        probes[key] = result


def file_digest(path: Path) -> str:
    """The SHA-256 of a file's content (hex); OSError when it cannot be read."""
    key = _key(path, path.stat())
    known = _digests().get(key)
    if known is not None:
        return known
    return _examine(path, probe=False)[1]


def probe_image(path: Path) -> ImageInfo:
    """What kind of image a file is and its size in pixels; AssetError when it is not a usable
    PNG, JPEG or SVG (damaged, too large, another format, an SVG pnp does not draw)."""
    settle()
    try:
        st = path.stat()
        result = _probes().get(_key(path, st))
        if result is None:
            result = _examine(path, probe=True)[2]
    except OSError as exc:
        raise AssetError(
            f"{path.name} is damaged or unreadable ({exc.strerror}); export it again",
            "bad-image",
        ) from exc
    if isinstance(result, AssetError):
        raise result
    assert result is not None
    return result


def _examine_all(paths: list[Path]) -> list[tuple[Key, str, ImageInfo | AssetError | None]]:
    out = []
    for path in paths:
        with contextlib.suppress(OSError):  # unreadable: whoever needs the file says so
            out.append(_examine(path, probe=False))
    return out


def is_image_name(path: Path) -> bool:
    """Whether a file is named as a PNG, JPEG or SVG."""
    return path.suffix.lower() in _IMAGE_SUFFIXES


# Part 0 of a prefetch is read by the process that meanwhile reads and checks the YAML (with
# wait=False): it takes a smaller share of the bytes, so that every process ends together.
FIRST_PART_WEIGHT = 0.45


def prefetch(paths: list[Path], parts: int = 1, wait: bool = True) -> None:
    """Read the files a build is about to need (digests, image checks) once each, in up to
    ``parts`` processes at once when there are enough bytes to share out.

    With ``wait=False``, parts 1 and up are read by other processes while this one does
    something else; the first :func:`probe_image` (or :func:`settle`) reads part 0 here and
    gathers the rest. :func:`file_digest` does not wait: ask it for other files meanwhile.
    """
    settle()
    todo: list[tuple[int, Path]] = []
    digests = _digests()
    for path in paths:
        with contextlib.suppress(OSError):
            st = path.stat()
            if st.st_size <= READ_WHOLE and _key(path, st) not in digests:
                todo.append((st.st_size, path))
    if parts <= 1 or len(todo) < 2 or sum(size for size, _ in todo) < PARALLEL_BYTES:
        _examine_all([path for _, path in todo])
        return
    from ..core.perf import fork_parts_later

    parts = min(parts, len(todo))
    # every part gets about its weight's share of the bytes: largest first, to the part
    # furthest below its share
    weights = [1.0 if wait else FIRST_PART_WEIGHT] + [1.0] * (parts - 1)
    shares: list[list[Path]] = [[] for _ in range(parts)]
    loads = [0.0] * parts
    for size, path in sorted(todo, key=lambda item: -item[0]):
        k = min(range(parts), key=lambda i: (loads[i] + size) / weights[i])
        shares[k].append(path)
        loads[k] += size
    gather = fork_parts_later(lambda k: _examine_all(shares[k]), parts)

    def collect() -> None:
        for found in gather():
            for key, digest, result in found:
                _remember(key, digest, result)

    # a prefetch whose other processes are still reading, and the process that started it
    current().store("content.prefetch")["pending"] = (os.getpid(), collect)
    if wait:
        settle()


def settle() -> None:
    """Finish a prefetch started with ``wait=False``: read part 0 here, gather the others.
    (A forked child that inherited an unfinished prefetch leaves it to its parent.)"""
    pending: tuple[int, Callable[[], None]] | None = (
        current().store("content.prefetch").pop("pending", None)
    )
    if pending is not None:
        pid, collect = pending
        if pid == os.getpid():
            collect()


# --- what earlier builds found, kept beside their outputs ------------------------------------
# A build writes down, for every input file, its size, modification time, digest and probe
# outcome; the next build trusts them for the files whose size and time are unchanged (as git
# and make do), so a rebuild reads and checks only what changed. Only files last modified
# well before the build that read them are written down: a file saved again within the
# clock's resolution of that read could keep its time and size.
FACTS_VERSION = 1
TRUST_AFTER_NS = 2_000_000_000


def facts_of(files: list[Path], base: Path, started_ns: int, code: str) -> bytes:
    """The facts known of ``files`` (relative to ``base``) worth keeping, as JSON bytes."""
    import json

    kept: dict[str, list[Any]] = {}
    for path in files:
        try:
            st = path.stat()
        except OSError:
            continue
        if st.st_mtime_ns > started_ns - TRUST_AFTER_NS:
            continue
        key = _key(path, st)
        digest = _digests().get(key)
        if digest is None:
            continue
        probe = _probes().get(key)
        if isinstance(probe, ImageInfo):
            outcome: list[Any] | None = [
                "image",
                probe.format,
                probe.width,
                probe.height,
                probe.mode,
            ]
        elif isinstance(probe, AssetError):
            outcome = ["error", probe.rule, str(probe)]
        else:
            outcome = None
        kept[path.relative_to(base).as_posix()] = [st.st_size, st.st_mtime_ns, digest, outcome]
    return json.dumps({"version": FACTS_VERSION, "code": code, "files": kept}).encode()


def remember_facts(data: bytes, files: list[Path], base: Path, code: str) -> int:
    """Take the facts an earlier build kept (:func:`facts_of`) for the files whose size and
    time are still the same; anything unreadable or from another pnp is ignored. Returns how
    many files need no reading."""
    import json

    try:
        found = json.loads(data)
        if found.get("version") != FACTS_VERSION or found.get("code") != code:
            return 0
        kept = found["files"]
        if not isinstance(kept, dict):
            return 0
    except (ValueError, TypeError, KeyError, AttributeError, RecursionError):
        return 0  # a facts file nested thousands deep is not ours either
    taken = 0
    for path in files:
        entry = kept.get(path.relative_to(base).as_posix())
        try:
            size, mtime, digest, outcome = entry  # type: ignore[misc]
            st = path.stat()
        except (TypeError, ValueError, OSError):
            continue
        if (st.st_size, st.st_mtime_ns) != (size, mtime) or not _is_digest(digest):
            continue
        result: ImageInfo | AssetError | None = None
        if isinstance(outcome, list) and len(outcome) == 5 and outcome[0] == "image":
            _, fmt, width, height, mode = outcome
            if fmt not in IMAGE_FORMATS or not all(isinstance(v, int) for v in (width, height)):
                continue
            result = ImageInfo(path, str(fmt), width, height, str(mode))
        elif isinstance(outcome, list) and len(outcome) == 3 and outcome[0] == "error":
            result = AssetError(str(outcome[2]), str(outcome[1]))
        elif outcome is not None:
            continue
        _remember(_key(path, st), digest, result)
        taken += 1
    return taken


def _is_digest(value: Any) -> bool:
    return (
        isinstance(value, str) and len(value) == 64 and all(c in "0123456789abcdef" for c in value)
    )
