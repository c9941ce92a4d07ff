"""Fonts: register the bundled TrueType families with reportlab and answer glyph questions.

A family ``NotoSans`` is the files ``fonts/NotoSans-Regular.ttf``, ``-Bold``, ``-Italic`` and
``-BoldItalic`` (a missing face falls back to Regular). reportlab embeds TrueType fonts as
subsets, so every PDF carries only the glyphs it uses.
"""

from __future__ import annotations

import hashlib
import io
import re
from dataclasses import dataclass, field
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from ..compat.reportlab import font_characters, quick_subsets
from ..core.errors import BuildError
from ..core.files import ReadRefused, read_limited, real
from ..core.run import current
from .scripts import bundled_font

FACES = ("regular", "bold", "italic", "bolditalic")
_FILE_SUFFIX = {
    "regular": "Regular",
    "bold": "Bold",
    "italic": "Italic",
    "bolditalic": "BoldItalic",
}
MAX_FONT_BYTES = 32 * 1024 * 1024
# the fonts pnp ships (Noto Sans, DejaVu Sans, Noto Sans Arabic, Hebrew, Devanagari and Thai;
# licences beside them): a content root's fonts/ is searched first, then these, so a game
# needs no fonts/ of its own
BUNDLED_FONTS = Path(__file__).resolve().parent.parent / "data" / "fonts"


@dataclass
class Family:
    name: str
    faces: dict[str, str]  # face -> registered reportlab font name
    cmaps: dict[str, frozenset[int]] = field(default_factory=dict)
    charsets: dict[str, frozenset[str]] = field(default_factory=dict)

    def font(self, face: str) -> str:
        return self.faces.get(face) or self.faces["regular"]

    def has(self, face: str, char: str) -> bool:
        return ord(char) in self.cmaps[self.font(face)]

    def covers(self, face: str, text: str) -> bool:
        """True when this family has every character of ``text``."""
        chars = self.charsets.get(face)
        if chars is None:
            cmap = self.cmaps[self.font(face)]
            chars = self.charsets[face] = frozenset(chr(c) for c in cmap if c < 0x110000)
        return chars.issuperset(text)


def _load_ttf(path: Path) -> tuple[str, frozenset[int]]:
    # a root's font lies in ROOT/fonts/, pnp's in its own folder: both really, not by a link
    inside = path.parent if path.parent == BUNDLED_FONTS else path.parent.parent
    try:  # the size is checked before reading: a sparse 4 GB file costs nothing
        data = read_limited(path, MAX_FONT_BYTES, "font", inside=inside)
    except ReadRefused as exc:
        raise BuildError(f"font {path.name} not read: {exc}") from exc
    digest = hashlib.sha1(data).hexdigest()[:8]
    name = f"{path.stem}-{digest}"
    if name not in pdfmetrics.getRegisteredFontNames():
        source = io.BytesIO(data)
        source.name = str(path)  # what reportlab would have called it, reading it again
        try:
            font = TTFont(name, source)
        except Exception as exc:  # a damaged font raises anything: TTFError, struct.error...
            raise BuildError(f"font {path.name} cannot be used ({type(exc).__name__})") from exc
        pdfmetrics.registerFont(font)
    font = pdfmetrics.getFont(name)
    quick_subsets(font)
    cmap = font_characters(font)
    return name, cmap


def _has_family(folder: Path, name: str) -> bool:
    return any((folder / f).is_file() for f in (f"{name}-Regular.ttf", f"{name}.ttf"))


def family(fonts_dir: Path, name: str) -> Family:
    """Register and return the family ``name`` found in ``fonts_dir`` (once per run; a font
    file's content names it in reportlab, so a changed file is registered anew)."""
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}", name):
        raise BuildError(f"font family {name!r} is not a plain name (letters, digits, - and _)")
    key = f"{real(fonts_dir)}::{name}"
    families = current().store("typeset.font-families")
    if key in families:
        return families[key]
    if not _has_family(fonts_dir, name) and _has_family(BUNDLED_FONTS, name):
        fonts_dir = BUNDLED_FONTS  # one of pnp's own fonts, not in the root's fonts/
    faces: dict[str, str] = {}
    cmaps: dict[str, frozenset[int]] = {}
    for face in FACES:
        candidates = [fonts_dir / f"{name}-{_FILE_SUFFIX[face]}.ttf"]
        if face == "regular":
            candidates.append(fonts_dir / f"{name}.ttf")
        for cand in candidates:
            if cand.is_symlink():
                raise BuildError(f"font {cand.name} is a symbolic link; copy the file into fonts/")
            if cand.exists():  # a pipe or a device is refused by _load_ttf, not skipped
                reg, cmap = _load_ttf(cand)
                faces[face] = reg
                cmaps[reg] = cmap
                break
    if "regular" not in faces:
        bundled = ", ".join(sorted({p.stem.split("-")[0] for p in BUNDLED_FONTS.glob("*.ttf")}))
        raise BuildError(
            f"font family {name!r} not found: expected {name}-Regular.ttf or {name}.ttf in "
            f"{fonts_dir.name}/ (pnp brings {bundled})"
        )
    fam = Family(name, faces, cmaps)
    pdfmetrics.registerFontFamily(
        faces["regular"],
        normal=faces["regular"],
        bold=fam.font("bold"),
        italic=fam.font("italic"),
        boldItalic=fam.font("bolditalic"),
    )
    families[key] = fam
    return fam


# the catch-all fallback: pnp's script fonts (scripts.BUNDLED_SCRIPT_FONTS) go before it
CATCH_ALL = "DejaVuSans"


@dataclass
class FontSet:
    """The main family of a game and its fallbacks, in order; for a character none of them
    has, pnp's font for its script (Arabic, Hebrew, Devanagari, Thai), loaded when first
    needed. pnp's script fonts come before DejaVu Sans, the catch-all, so that a script is
    set in the font made for it; a family the game lists comes before them."""

    main: Family
    fallbacks: list[Family]
    fonts_dir: Path | None = None  # where the game's fonts are (None: pnp's only)
    scripts: dict[str, Family | None] = field(default_factory=dict)  # loaded script fonts

    def covering(self, face: str, char: str) -> Family | None:
        """The first family that has ``char`` (main first), or None."""
        if self.main.has(face, char):
            return self.main
        for fb in self.fallbacks:
            if fb.name == CATCH_ALL:
                found = self.script_family(face, char)
                if found is not None:
                    return found
            if fb.has(face, char):
                return fb
        return self.script_family(face, char)

    def script_family(self, face: str, char: str) -> Family | None:
        """pnp's family for the script of ``char``, when it brings one that has it."""
        name = bundled_font(char)
        if name is None:
            return None
        if name not in self.scripts:
            try:
                self.scripts[name] = family(self.fonts_dir or BUNDLED_FONTS, name)
            except BuildError:  # a damaged copy in the root's fonts/: as if there were none
                self.scripts[name] = None
        found = self.scripts[name]
        return found if found is not None and found.has(face, char) else None

    def covers(self, face: str, text: str) -> bool:
        """True when some family of the set has every character of ``text``."""
        if self.main.covers(face, text):
            return True
        return all(ch in " \t\n\u00a0" or self.covering(face, ch) for ch in text)


def fontset(fonts_dir: Path, main: str, fallbacks: list[str]) -> FontSet:
    main_family = family(fonts_dir, main)
    extra = []
    for name in fallbacks:
        try:
            extra.append(family(fonts_dir, name))
        except BuildError as exc:
            raise BuildError(f"fallback {exc}") from exc
    return FontSet(main_family, extra, fonts_dir)
