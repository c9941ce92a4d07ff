"""A release bundle (``pnp release GAME``): one ZIP to publish a print-and-play,
``output/<game>/<game>-<version>.zip``.

It holds, under one folder ``<game>-<version>/``: the PDF of every language on every paper
(A4 and Letter), a README in each language (``README-<lang>.txt``: the printing advice of
each PDF, as its first page gives it, and what each copy holds, page by page), a picture of
every face for a game page (``<game>-<lang>-contact.jpg``), the Tabletop Simulator export
(``<game>-<lang>-tts/``), the content's version (``VERSION``) and ``SHA256SUMS``.

The ZIP is byte-stable: the same inputs give the same bytes (entries sorted, each dated with
the content's date, or 1980-01-01, with fixed permissions; PDFs and images stored, texts
deflated). Each job leaves its README parts (:meth:`Release.files`: its renderer knows the
page plan and the language's words); the ZIP is made from every job's staged files
(:meth:`Release.game_files`) before anything is put in place.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, ClassVar

from ... import __version__
from ...core.files import stage
from ..imposition.contents import Component, components, page_ranges
from ..tts import plain
from .base import ExportJob, Files, GameExporter, GameJob, JobExporter, Made

if TYPE_CHECKING:
    from ...content.model import Game
    from ...i18n import Translator

STORED = (".pdf", ".jpg", ".png")  # compressed already: stored as they are
EPOCH = (1980, 1, 1, 0, 0, 0)  # the earliest date a ZIP holds
CHUNK = 1 << 20


@dataclass(frozen=True)
class Release(JobExporter, GameExporter):
    """The README parts of each job, then the ZIP of the game."""

    name: ClassVar[str] = "release"
    per_paper: ClassVar[bool] = True  # each paper's PDF has its own advice and pages
    tts_url: str | None = None  # where the TTS folder is uploaded (the README says so)

    def files(self, job: ExportJob) -> Files:
        """This job's parts of its language's README: the heading and closing lines (the
        same from every paper), and this paper's PDF: how to print it, what it holds."""
        from ..render.frontmatter import CONTENTS
        from ..render.instructions import HEADING, print_advice

        r = job.renderer
        word, lang, game = r.translator.word, job.lang, job.game
        pdf = f"{game.id}-{lang}-{job.layout.paper}.pdf"
        lines = [f"== {pdf} ==", "", word(HEADING)]
        lines += [
            f"- {plain(s)}" for s in print_advice(word, job.layout, list(r.context.plan), lang)
        ]
        lines += ["", word(CONTENTS)]
        for c in components(game, list(r.context.plan)):
            lines.append(f"- {_component(c, r.translator)}: {_pages(c, r.translator)}")
        parts = {
            f"{lang}/head": _head(game, r.translator),
            f"{lang}/{job.layout.paper}": "\n".join(lines) + "\n",
            f"{lang}/tail": _tail(game, lang, r.translator, self.tts_url),
        }
        return Files(parts={k: v.encode("utf-8") for k, v in parts.items()})

    def game_files(self, job: GameJob) -> Files:
        game = job.game
        top = f"{game.id}-{_safe(game.meta.version)}"
        entries: dict[str, Path | bytes] = {}
        langs = list(dict.fromkeys(m.lang for m in job.made))
        for m in job.made:
            entries[f"{top}/{m.document.name}"] = m.staged
            for final, staged in m.files.items():
                rel = final.relative_to(job.out_dir).as_posix()
                if rel.startswith(f"{game.id}-{m.lang}-tts/"):
                    entries[f"{top}/{rel}"] = staged
        for lang in langs:
            mine = [m for m in job.made if m.lang == lang]
            entries[f"{top}/README-{lang}.txt"] = _readme(lang, mine)
            picture = _contact(game, lang, mine, job.out_dir)
            if picture is not None:
                entries[f"{top}/{game.id}-{lang}-contact.jpg"] = picture
        entries[f"{top}/VERSION"] = _version(game, langs, job.made)
        entries[f"{top}/SHA256SUMS"] = _checksums(entries, top)
        path = job.out_dir / f"{top}.zip"
        staged = stage(path, lambda fh: _zip(fh, entries, _date(game)))
        return Files(staged={path: staged}, notes=[])


# --- the README -------------------------------------------------------------------------------
def _head(game: Game, t: Translator) -> str:
    title = plain(t.text(game.meta.title))
    version = t.word("Content pack version {version}").format(version=game.meta.version)
    if game.meta.date:
        version += f", {game.meta.date}"
    lines = [title, "=" * len(title), "", version]
    if game.meta.credits is not None:
        lines += ["", plain(t.text(game.meta.credits))]
    return "\n".join(lines) + "\n"


def _tail(game: Game, lang: str, t: Translator, url: str | None) -> str:
    folder = f"{game.id}-{lang}-tts"
    if url:
        tts = t.word(
            "Tabletop Simulator: copy the .json files of {folder} into your “Saves/Saved "
            "Objects” folder; they load their images from {url}."
        ).format(folder=folder, url=f"{url}/")
    else:
        tts = t.word(
            "Tabletop Simulator: copy the .jpg files of {folder} into your “Mods/Images” "
            "folder and its .json files into “Saves/Saved Objects”."
        ).format(folder=folder)
    picture = t.word("{file}: a picture of every card, token and board of this copy.")
    check = t.word(
        "SHA256SUMS lists a checksum for every file of this bundle (check them with: "
        "sha256sum -c SHA256SUMS)."
    )
    lines = [tts, "", picture.format(file=f"{game.id}-{lang}-contact.jpg"), "", check]
    return "\n".join(lines) + "\n"


def _component(c: Component, t: Translator) -> str:
    """A line of the component list as the first page gives it."""
    if c.entry is not None:
        if c.entry.item is not None:
            return plain(t.text(c.entry.item))
        for key in ("card", "deck", "tokens", "token", "board", "tag"):
            ids = getattr(c.entry, key, None)
            if ids:
                return f"{c.entry.count} × {', '.join(ids) if isinstance(ids, list) else ids}"
        return str(c.entry.count)
    name = getattr(c.owner, "name", None) or getattr(c.owner, "title", None)
    label = plain(t.text(name)) if name is not None else getattr(c.owner, "id", "")
    return f"{label} ({c.copies})"


def _pages(c: Component, t: Translator) -> str:
    from ..render.frontmatter import BRING, NOT_PRINTED, PAGES

    if c.bring:
        return t.word(BRING)
    if not c.pages:
        return t.word(NOT_PRINTED)
    text = ", ".join(f"{a}" if a == b else f"{a}–{b}" for a, b in page_ranges(c.pages))
    return t.word(PAGES[0], 2 if len(c.pages) > 1 else 1).format(pages=text)


def _readme(lang: str, made: list[Made]) -> bytes:
    """The README of one language: its heading, each paper's part, the closing lines."""
    parts = made[0].parts
    body = [parts[f"{lang}/head"].decode("utf-8")]
    for m in made:  # in the order of the papers asked
        body.append(m.parts[f"{lang}/{m.paper}"].decode("utf-8"))
    body.append(parts[f"{lang}/tail"].decode("utf-8"))
    return "\n".join(body).encode("utf-8")


def _version(game: Game, langs: list[str], made: list[Made]) -> bytes:
    from ..render.instructions import PAPER_NAMES

    papers = ", ".join(dict.fromkeys(PAPER_NAMES.get(m.paper, m.paper.upper()) for m in made))
    lines = [
        f"game: {game.id}",
        f"version: {game.meta.version}",
        f"date: {game.meta.date or '-'}",
        f"languages: {', '.join(langs)}",
        f"papers: {papers}",
        f"made with: pnp {__version__}",
    ]
    return ("\n".join(lines) + "\n").encode("utf-8")


# --- the picture ------------------------------------------------------------------------------
GAP = 12  # px between two sheets of the picture
TALLEST = 8192  # px: the picture's sheets together (each sheet is at most 4096 a side)


def _contact(game: Game, lang: str, made: list[Made], out_dir: Path) -> bytes | None:
    """The contact sheets of a language (one per deck, token set and board, in the game's
    order) one under the other, on white, as one JPEG."""
    from PIL import Image

    from ..raster import jpeg_bytes

    folder = out_dir / f"{game.id}-{lang}-contact"
    names = [f"{o.id}.jpg" for o in game.owners()] + [f"board-{b}.jpg" for b in game.boards]
    staged_of = {final: staged for m in made for final, staged in m.files.items()}
    sheets = [(n, staged_of[folder / n]) for n in names if folder / n in staged_of]
    if not sheets:
        return None
    images: list[Image.Image] = []
    dpi = 72.0
    for _name, staged in sheets:
        with Image.open(staged) as opened:
            dpi = float(opened.info.get("dpi", (dpi, dpi))[0])
            images.append(opened.convert("RGB"))
    tall = sum(sheet.height for sheet in images)
    if tall > TALLEST:  # many components: each drawn smaller, so the picture stays a picture
        k = TALLEST / tall
        images = [
            s.resize((max(1, round(s.width * k)), max(1, round(s.height * k)))) for s in images
        ]
    width = max(sheet.width for sheet in images)
    height = sum(sheet.height for sheet in images) + GAP * (len(images) + 1)
    canvas = Image.new("RGB", (width + 2 * GAP, height), "white")
    y = GAP
    for sheet in images:
        canvas.paste(sheet, (GAP + (width - sheet.width) // 2, y))
        y += sheet.height + GAP
    return jpeg_bytes(canvas, dpi)


# --- the archive ------------------------------------------------------------------------------
def _checksums(entries: dict[str, Path | bytes], top: str) -> bytes:
    lines = []
    for name in sorted(entries):
        digest = hashlib.sha256()
        source = entries[name]
        if isinstance(source, bytes):
            digest.update(source)
        else:
            with source.open("rb") as fh:
                while chunk := fh.read(CHUNK):
                    digest.update(chunk)
        lines.append(f"{digest.hexdigest()}  {name.removeprefix(top + '/')}")
    return ("\n".join(lines) + "\n").encode("utf-8")


def _date(game: Game) -> tuple[int, int, int, int, int, int]:
    m = re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})", game.meta.date or "")
    if m is None or int(m.group(1)) < 1980:
        return EPOCH
    return (int(m.group(1)), int(m.group(2)), int(m.group(3)), 0, 0, 0)


def _zip(fh: BinaryIO, entries: dict[str, Path | bytes], when: tuple[int, ...]) -> None:
    """The entries in name order, each dated ``when``, read from their staged files as they
    are written (a release of large PDFs is never held in memory)."""
    with zipfile.ZipFile(fh, "w", allowZip64=True) as zf:
        for name in sorted(entries):
            source = entries[name]
            info = zipfile.ZipInfo(name, date_time=when)  # type: ignore[arg-type]
            info.create_system = 3  # Unix, wherever it is made: the same bytes
            info.external_attr = 0o100644 << 16  # a regular file, rw-r--r--
            stored = name.endswith(STORED)
            info.compress_type = zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED
            size = len(source) if isinstance(source, bytes) else source.stat().st_size
            with zf.open(info, "w", force_zip64=size > 2**31 - 1) as out:
                if isinstance(source, bytes):
                    out.write(source)
                else:
                    with source.open("rb") as src:
                        shutil.copyfileobj(src, out, CHUNK)


def _safe(text: str) -> str:
    """A version as part of a file name."""
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-") or "1"


__all__ = ["Release"]
