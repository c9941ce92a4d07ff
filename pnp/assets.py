"""Files a game refers to (art, icons, fonts): resolved safely and checked before use.

A path in content is relative to the game's folder. It must stay inside that folder (or the
content root's fonts/ for fonts): absolute paths, ``..`` escapes and symlinks that lead outside
are refused. Images are opened only if they are PNG or JPEG, and Pillow's decompression-bomb
limit is an error, not a warning.
"""

from __future__ import annotations

import functools
import warnings
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from PIL import Image

MAX_IMAGE_PIXELS = 60_000_000  # about 7,700 x 7,700: far more than 600 dpi on A3
Image.MAX_IMAGE_PIXELS = MAX_IMAGE_PIXELS
IMAGE_FORMATS = {"PNG", "JPEG"}


class AssetError(Exception):
    """A referenced file is unsafe, missing or unusable; the message says what to do."""

    def __init__(self, message: str, rule: str) -> None:
        super().__init__(message)
        self.rule = rule


def resolve(base: Path, rel: str, *, what: str = "file") -> Path:
    """``rel`` (forward slashes, relative) inside ``base``, or AssetError."""
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
        inside = real.is_relative_to(base.resolve())
    except (OSError, RuntimeError, ValueError):
        inside = False
    if not inside:
        raise AssetError(
            f"{what} path {rel!r} leads outside the game's folder (through a symbolic link?)",
            "unsafe-path",
        )
    try:
        exists = target.is_file()
    except OSError as exc:  # a name too long, a broken file system...
        raise AssetError(
            f"{what} path {rel[:60]!r}... cannot be used ({exc.strerror})", "unsafe-path"
        ) from exc
    if not exists:
        raise AssetError(f"{what} {rel!r} does not exist in the game's folder", "missing-file")
    return target


@dataclass(frozen=True)
class ImageInfo:
    path: Path
    format: str
    width: int
    height: int
    mode: str


@functools.lru_cache(maxsize=4096)
def _probe(path: Path, mtime: float, size: int) -> ImageInfo:
    with open(path, "rb") as fh:
        head = fh.read(16)
    if not (head.startswith(b"\x89PNG\r\n\x1a\n") or head.startswith(b"\xff\xd8\xff")):
        raise AssetError(
            f"{path.name} is not a PNG or JPEG file; convert it to PNG or JPEG", "bad-image"
        )
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(path) as im:
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
                im.verify()  # reads the whole file: catches truncated or corrupt data
                return ImageInfo(path, im.format, w, h, im.mode)
    except AssetError:
        raise
    except (Image.DecompressionBombWarning, Image.DecompressionBombError) as exc:
        raise AssetError(
            f"{path.name} is refused as a decompression bomb: {exc}", "bad-image"
        ) from exc
    except (OSError, SyntaxError, ValueError, EOFError) as exc:
        reason = str(exc).replace(str(path), path.name)
        raise AssetError(
            f"{path.name} is damaged or unreadable ({reason}); export it again", "bad-image"
        ) from exc


def probe_image(path: Path) -> ImageInfo:
    st = path.stat()
    return _probe(path, st.st_mtime, st.st_size)
