"""What pnp writes in a preview folder besides the page: the images of the faces, and a
manifest of them. The manifest is the one thing of an earlier page pnp reads again (to show the
faces of the last page drawn while the game has errors, and to know which images are its own to
remove): as data, bounded, each value checked, and escaped when shown; never the page's HTML.
An image is removed only when the last manifest lists it as pnp's and it still is a regular
file in a real folder (a pack may ship an ``output/`` folder: nothing of it is trusted)."""

from __future__ import annotations

import json
import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.errors import BuildError
from ..core.files import is_regular, read_limited, remove_written, write_atomic
from ..core.findings import Finding
from ..core.rules import Severity

# What pnp wrote in the preview folder (the faces shown, their images): the one thing of an
# earlier page it reads, as data (bounded, checked, escaped when shown), never its HTML.
MANIFEST = ".pnp-preview.json"
MAX_MANIFEST = 16 * 1024 * 1024
# an image of the page, as pnp names them: LANG/STEM.png (no scheme, no query, no ..)
IMAGE_RE = re.compile(r"[A-Za-z0-9_@-]{1,64}/[^./\\:?#%\s][^/\\:?#%\s]{0,250}\.png")
TEMP_RE = re.compile(r"\.[^/]+\.png\.[A-Za-z0-9_]{8}\.tmp")  # a stopped run's, as mkstemp names


@dataclass
class FaceView:
    key: str  # html id
    label: str
    owner: str
    card: str
    side: str
    kind: str = "card"  # card, token, board
    span: str = "one"  # one, wide (two columns), full (a whole row)
    images: dict[str, str] = field(default_factory=dict)  # lang -> relative png path
    pixels: tuple[int, int] = (0, 0)
    findings: dict[str, list[Finding]] = field(default_factory=dict)  # lang ('' = all)
    fallbacks: dict[str, list[str]] = field(default_factory=dict)
    placeholder: bool = False
    undrawn: dict[str, str] = field(default_factory=dict)  # lang -> why it could not be drawn

    @property
    def undrawn_count(self) -> int:
        return len(self.undrawn)

    @property
    def errors(self) -> int:
        """How many errors are about this face (it is marked on the page when any)."""
        return sum(f.severity is Severity.ERROR for fs in self.findings.values() for f in fs)


@dataclass
class Manifest:
    """What the last page showed, as pnp wrote it down: its title and languages, its faces
    (without their findings) and setup pages, and every image file pnp wrote for it."""

    title: str = ""
    langs: list[str] = field(default_factory=list)
    faces: list[FaceView] = field(default_factory=list)
    setups: dict[str, list[str]] = field(default_factory=dict)
    files: set[str] = field(default_factory=set)


def write_manifest(out_dir: Path, m: Manifest) -> None:
    faces = [
        {"key": v.key, "label": v.label, "owner": v.owner, "card": v.card, "side": v.side,
         "kind": v.kind, "span": v.span, "images": v.images, "pixels": list(v.pixels)}
        for v in m.faces
    ]  # fmt: skip
    data = {"pnp": 1, "title": m.title, "langs": m.langs, "faces": faces, "setups": m.setups}
    data["files"] = sorted(m.files)
    text = json.dumps(data, ensure_ascii=True, sort_keys=True, indent=1) + "\n"
    write_atomic(out_dir / MANIFEST, text.encode("ascii"))


def read_manifest(out_dir: Path) -> Manifest:
    """The manifest of the page already there: read as a bounded regular file, and only what
    holds up kept (an image must be named as pnp names them, listed among the files pnp wrote
    and still be a regular file); anything malformed (a pack may ship an ``output/``) is no
    manifest."""
    try:
        data = json.loads(read_limited(out_dir / MANIFEST, MAX_MANIFEST, "preview manifest"))
    except (OSError, ValueError, RecursionError):
        return Manifest()
    if not isinstance(data, dict) or data.get("pnp") != 1:
        return Manifest()
    listed = data.get("files")
    files = {f for f in listed if _image_name(f)} if isinstance(listed, list) else set()
    langs = [x for x in _list(data.get("langs")) if isinstance(x, str) and len(x) <= 64]
    title = data["title"] if isinstance(data.get("title"), str) else ""
    setups = {
        lang: [n for n in _list(names) if n in files and _ours(out_dir, n)]
        for lang, names in (data.get("setups") or {}).items()
        if lang in langs
    } if isinstance(data.get("setups"), dict) else {}  # fmt: skip
    faces = [v for v in map(_face_of, _list(data.get("faces"))) if v is not None]
    for v in faces:
        v.images = {k: n for k, n in v.images.items() if n in files and _ours(out_dir, n)}
    return Manifest(title[:1000], langs, faces, setups, files)


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _ours(out_dir: Path, rel: str) -> bool:
    """Whether the image ``rel`` (a name as pnp gives them) is a regular file in a real folder
    of ``out_dir`` (a language folder that is a link, or a link in the file's place, is not)."""
    folder = out_dir / rel.split("/", 1)[0]
    return not os.path.islink(folder) and os.path.isdir(folder) and is_regular(out_dir / rel)


def _image_name(name: Any) -> bool:
    return isinstance(name, str) and IMAGE_RE.fullmatch(name) is not None


def _face_of(data: Any) -> FaceView | None:
    """A face of a manifest, or None when it is not as pnp writes them."""
    if not isinstance(data, dict):
        return None
    words = [data.get(k) for k in ("key", "label", "owner", "card", "side")]
    if not all(isinstance(x, str) and len(x) <= 1000 for x in words):
        return None
    kind, span, images, pixels = (data.get(k) for k in ("kind", "span", "images", "pixels"))
    if kind not in ("card", "token", "board") or span not in ("one", "wide", "full"):
        return None
    if not isinstance(images, dict) or not all(map(_image_name, images.values())):
        return None
    if not (isinstance(pixels, list) and len(pixels) == 2):
        return None
    if not all(type(p) is int and 0 <= p <= 100_000 for p in pixels):
        return None
    key, label, owner, card, side = words
    view = FaceView(key, label, owner, card, side, kind, span)  # type: ignore[arg-type]
    view.images = {str(k): v for k, v in images.items()}
    view.pixels = (pixels[0], pixels[1])
    return view


def write_cached(path: Path, data: bytes) -> None:
    """An image of the page, in its language's folder (checked by the caller): written to a
    new temporary file (never through a file or link already there), renamed into place whole,
    but not synced to the disk (a tenth of a second each; the images are a cache, named by
    what they show, drawn again if lost)."""
    tmp = ""
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except OSError as exc:
        if tmp:
            remove_written(Path(tmp))
        raise BuildError(f"cannot write {path}: {exc.strerror}") from exc


def prune(out_dir: Path, written: set[str], keep: set[str]) -> None:
    """Remove the images the last page's manifest lists as pnp's that this page does not show
    (a file pnp did not write is never removed), and the temporary files of a stopped run."""
    for rel in written - keep:
        if _ours(out_dir, rel):
            remove_written(out_dir / rel)
    for folder in {rel.split("/", 1)[0] for rel in keep}:
        if os.path.islink(out_dir / folder):
            continue
        for tmp in (out_dir / folder).glob(".*.png.*.tmp"):  # left by a run that was stopped
            if TEMP_RE.fullmatch(tmp.name):
                remove_written(tmp)


__all__ = [
    "MANIFEST",
    "FaceView",
    "Manifest",
    "prune",
    "read_manifest",
    "write_cached",
    "write_manifest",
]
