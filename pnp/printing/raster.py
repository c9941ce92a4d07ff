"""PNG faces and Tabletop Simulator sheets, rasterised once and cut.

The faces to export are drawn by the renderer onto a few large pages, each face on a whole
pixel of the page at the resolution it is wanted at, with a gap of white around it. pdfium
rasterises each page once (at exactly the pixels it was laid out in); the faces are cut out
of it, written as PNGs and pasted into the TTS sheet they belong to (a JPEG: see :mod:`.tts`).
A face of flat colours is written straight from the page's bitmap, unfiltered (twice as fast
as Pillow's encoder, :func:`.export.unfiltered_png`); one that images cover (art) is copied
out and written by Pillow, whose filters keep photographic pixels a third smaller.
A sheet that had to be drawn below the PNGs' resolution to keep within TTS's size has its faces
drawn again at its own resolution (vector text drawn small is sharper than a large image
scaled down, and cheaper), unless they carry art, which pdfium scales slowly: those are scaled
from the PNGs' pixels. The work is a list of :class:`Task` (a TTS sheet with its faces, or a
group of faces written as PNGs only), done in worker processes with ``--jobs``; a worker holds
one page image and the sheet it fills at a time, and each file goes to disk as it is made.
"""

from __future__ import annotations

import io
import math
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import groupby
from typing import Any

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
from PIL import Image

from ..core.errors import BuildError
from ..core.units import MM_PER_INCH, Size, px
from .export import FacePage, png_bytes, unfiltered_png
from .imposition import Page, Rect, Slot
from .tts import Sheet

# the largest page image a worker holds: 12 MB of RGB (pdfium keeps the art it decoded for a
# page besides: smaller pages keep the peak down, and cost no measurable time)
PAGE_PIXELS = 4_000_000
FACE_PIXELS = 60_000_000  # the most one face may have (as for an image): about 180 MB of RGB
PAGE_FACES = 16  # and at most this many faces: pdfium decodes the art of all a page's faces
GAP = 2  # px of white between two faces on a page: a face never bleeds into the next
LEVEL = 1  # zlib level of the PNGs written: the fastest (export.png_bytes)
QUALITY = 95  # of the JPEG sheets (printing.tts): no visible loss on a screen
PNGS = "png"  # the pass's face PNGs are named "png/<face>.png" (each exporter of PNGs has them)


@dataclass(frozen=True)
class Placed:
    """A face on a page of the faces PDF, and its box there in pixels (left, top, right, bottom)."""

    name: str
    page: int
    box: tuple[int, int, int, int]


@dataclass(frozen=True)
class Task:
    """One unit of work: rasterise some pages, cut their faces, write what is asked."""

    dpi: float
    placed: tuple[Placed, ...]
    png: frozenset[str] = frozenset()  # faces written as <name>.png
    sheet: Sheet | None = None  # the TTS sheet these faces fill


@dataclass
class Plan:
    pages: list[Page] = field(default_factory=list)  # the faces PDF, in order
    tasks: list[Task] = field(default_factory=list)

    @property
    def faces(self) -> int:
        return sum(len(t.placed) for t in self.tasks)


def plan(faces: list[FacePage], sheets: list[Sheet], png_dpi: float | None) -> Plan:
    """Pages and tasks for every sheet, then for the faces on no sheet when PNGs are asked.
    BuildError when a face would be over FACE_PIXELS at the asked resolution: the pack sets
    the face's size, the user the resolution, and the memory of a page image follows both."""
    for face in faces:
        dpi = max(png_dpi or 0, *(s.dpi for s in sheets)) if sheets else png_dpi or 0
        w, h = _face_px(face, dpi)
        if w * h > FACE_PIXELS:
            size = face.page.size
            raise BuildError(
                f"a face of {size.w:g} x {size.h:g} mm at {dpi:g} dpi is {w * h / 1e6:.0f} "
                f"megapixels, over the {FACE_PIXELS // 1_000_000} pnp draws: ask for a lower "
                "--png resolution"
            )
    by_name = {f.name: f for f in faces}
    out = Plan()
    written: set[str] = set()
    for sheet in sheets:
        faces_on = [by_name[n] for n in dict.fromkeys(n for n in sheet.cells if n is not None)]
        dpi = sheet.dpi
        if png_dpi and (dpi == png_dpi or any(_has_art(f) for f in faces_on)):
            dpi = png_dpi  # cut from the PNGs' pages (and scaled down if need be)
        png = frozenset(f.name for f in faces_on if dpi == png_dpi and f.name not in written)
        written |= png
        out.tasks.append(Task(dpi, _lay_out(out.pages, faces_on, dpi), png, sheet))
    if png_dpi:
        rest = [f for f in faces if f.name not in written]
        for _owner, group in groupby(rest, key=lambda f: (f.owner, f.page.size)):
            for page_faces in _per_page(list(group), png_dpi):
                placed = _lay_out(out.pages, page_faces, png_dpi)
                out.tasks.append(Task(png_dpi, placed, frozenset(f.name for f in page_faces)))
    return out


def _has_art(face: FacePage) -> bool:
    """A face with an image of its own. pdfium scales art down slowly (about 25 ms a poker
    card to 200 dpi), so a sheet below the PNGs' resolution scales their pixels instead (about
    4 ms: :func:`_paste`); faces without art are drawn again at the sheet's resolution (about
    5 ms), where their vector text stays sharp."""
    item = face.page.slots[0].item
    return any(getattr(f, "art", None) for f in (item.face, item.card))


def _face_px(face: FacePage, dpi: float) -> tuple[int, int]:
    return px(face.page.size.w, dpi), px(face.page.size.h, dpi)


def _per_page(faces: list[FacePage], dpi: float) -> Iterator[list[FacePage]]:
    """``faces`` (all of one size) in runs that fit one page image."""
    if not faces:
        return
    w, h = _face_px(faces[0], dpi)
    most = max(1, min(PAGE_FACES, PAGE_PIXELS // ((w + GAP) * (h + GAP))))
    for i in range(0, len(faces), most):
        yield faces[i : i + most]


def _lay_out(pages: list[Page], faces: list[FacePage], dpi: float) -> tuple[Placed, ...]:
    """Add pages holding ``faces`` (all of one size) to ``pages``; where each face is. A face
    keeps its slot's place and bleed on its page (a print-on-demand face: its trim inside its
    bleed), and is cut as ``face.cut`` pixels from the middle when it gives them."""
    placed: list[Placed] = []
    for run in _per_page(faces, dpi):
        w, h = _face_px(run[0], dpi)
        cols = min(len(run), max(1, math.ceil(math.sqrt(len(run) * (h + GAP) / (w + GAP)))))
        rows = math.ceil(len(run) / cols)
        to_mm = MM_PER_INCH / dpi
        size = Size((cols * (w + GAP) + GAP) * to_mm, (rows * (h + GAP) + GAP) * to_mm)
        page = Page("fronts", size, side=run[0].page.side)  # "back": no cut outlines drawn
        for i, face in enumerate(run):
            r, c = divmod(i, cols)
            x, y = GAP + c * (w + GAP), GAP + r * (h + GAP)
            src = face.page.slots[0]
            at = Rect(x * to_mm + src.rect.x, y * to_mm + src.rect.y, src.rect.w, src.rect.h)
            page.slots.append(Slot(at, src.item, bleed=src.bleed))
            cw, ch = face.cut or (w, h)
            left, top = x + (w - cw) // 2, y + (h - ch) // 2
            placed.append(Placed(face.name, len(pages), (left, top, left + cw, top + ch)))
        pages.append(page)
    return tuple(placed)


# --- the work, in a worker process or in this one --------------------------------------------
_SOURCE: dict[str, bytes | str] = {}


def open_pdf(pdf: bytes | str) -> None:
    """A worker's start: where the faces PDF is (its bytes, or the path of its file)."""
    _SOURCE["faces"] = pdf


def close_pdf() -> None:
    _SOURCE.pop("faces", None)


def run_task(task: Task) -> tuple[dict[str, bytes], int]:
    """Rasterise the task's pages one at a time and cut them: files by name ("png/NAME.png",
    "<sheet's folder>/FILE"), and how many faces were done."""
    files: dict[str, bytes] = {}
    sheet = task.sheet
    canvas = Image.new("RGB", sheet.size, "white") if sheet else None
    for index, run in groupby(task.placed, key=lambda p: p.page):
        # opened for each page: pdfium keeps every image it has read until the document closes
        doc = pdfium.PdfDocument(_SOURCE["faces"])
        page = doc[index]
        try:
            _cut(page, list(run), task, files, canvas)
        finally:
            page.close()
            doc.close()
    if sheet is not None and canvas is not None:
        files[f"{sheet.folder}/{sheet.file}"] = jpeg_bytes(canvas, sheet.dpi)
    return files, len(task.placed)


def _cut(
    page: pdfium.PdfPage,
    placed: list[Placed],
    task: Task,
    files: dict[str, bytes],
    canvas: Image.Image | None,
) -> None:
    """Rasterise ``page`` and write its faces: a face of flat colours straight from the page's
    bitmap (:func:`.export.unfiltered_png`), one mostly covered by images through Pillow's
    filtering encoder; and paste each into the task's sheet. No copy of the whole page is
    made, only of the faces that Pillow takes."""
    scale = _scale(page, task.dpi)
    photos = _with_images(page, scale, placed)
    bitmap = page.render(
        scale=scale, force_bitmap_format=pdfium_c.FPDFBitmap_BGR, rev_byteorder=True
    )
    stride = bitmap.stride
    try:
        with memoryview(bitmap.buffer) as pixels:
            for p in placed:
                left, top, right, bottom = p.box
                size, at = (right - left, bottom - top), top * stride + left * 3
                png = p.name in task.png
                if png and p.name not in photos:
                    data = unfiltered_png(pixels, size, task.dpi, stride, at, LEVEL)
                    files[f"{PNGS}/{p.name}.png"] = data
                    if canvas is None:
                        continue
                face = _face(pixels[at:], size, stride)
                if png and p.name in photos:
                    data = png_bytes(face, task.dpi, LEVEL, zlib.Z_RLE)
                    files[f"{PNGS}/{p.name}.png"] = data
                if canvas is not None and task.sheet is not None:
                    _paste(canvas, task.sheet, p.name, face)
    finally:
        bitmap.close()


def _face(rows: memoryview, size: tuple[int, int], stride: int) -> Image.Image:
    """A copy of the face whose rows start ``stride`` bytes apart at the start of ``rows``."""
    data: Any = rows  # any buffer does, where Pillow's stubs name bytes
    return Image.frombuffer("RGB", size, data, "raw", "RGB", stride, 1)


COVERED = 0.25  # a face this much covered by images is written by Pillow (see _cut)


def _with_images(page: pdfium.PdfPage, scale: float, placed: list[Placed]) -> set[str]:
    """The faces of ``placed`` that images cover at least COVERED of: art, a style's
    background, an image element (a few inline icons are less). An image inside a form (a
    face drawn from one) counts as the whole form."""
    height = page.get_height()
    boxes: list[tuple[float, float, float, float]] = []
    for obj in page.get_objects(max_depth=1):  # the page's own objects, forms unopened
        if obj.type == pdfium_c.FPDF_PAGEOBJ_FORM:
            inner = page.get_objects([pdfium_c.FPDF_PAGEOBJ_IMAGE], form=obj, level=1)
            if next(inner, None) is None:
                continue
        elif obj.type != pdfium_c.FPDF_PAGEOBJ_IMAGE:
            continue
        try:
            left, bottom, right, top = obj.get_bounds()
        except pdfium.PdfiumError:  # an object pdfium cannot place draws nothing to count
            continue
        boxes.append(
            (left * scale, (height - top) * scale, right * scale, (height - bottom) * scale)
        )
    covered: set[str] = set()
    for p in placed:
        x0, y0, x1, y1 = p.box
        area = sum(
            max(0.0, min(x1, r) - max(x0, left)) * max(0.0, min(y1, b) - max(y0, t))
            for left, t, r, b in boxes
        )
        if area >= COVERED * (x1 - x0) * (y1 - y0):
            covered.add(p.name)
    return covered


def jpeg_bytes(image: Image.Image, dpi: float) -> bytes:
    """A TTS sheet as a JPEG, colour at full resolution (no chroma subsampling: coloured text
    keeps its edges)."""
    buf = io.BytesIO()
    image.save(buf, "JPEG", quality=QUALITY, subsampling=0, dpi=(round(dpi), round(dpi)))
    return buf.getvalue()


def _scale(page: pdfium.PdfPage, dpi: float) -> float:
    """The scale that makes the page exactly the pixels it was laid out in (whole pixels at
    ``dpi``): pdfium stretches a page over the next whole pixel, which would move the faces by
    a fraction of one."""
    width, height = page.get_size()
    want_w, want_h = round(width * dpi / 72.0), round(height * dpi / 72.0)
    return min(want_w / width, want_h / height) * (1 - 1e-9)


def _paste(canvas: Image.Image, sheet: Sheet, name: str, face: Image.Image) -> None:
    """``face`` in each cell of ``sheet`` that shows it, scaled to the cell when the sheet is
    below the PNGs' resolution (see _has_art). Scaled by area averaging (BOX): a poker card
    from 300 to 197 dpi in 3.6 ms, against 5.5 ms for HAMMING (the filter before), text and
    edges as sharp (a zoomed side-by-side shows no loss; BILINEAR, as slow, is blurrier)."""
    if face.size != sheet.cell:
        face = face.resize(sheet.cell, Image.Resampling.BOX)
    cols = sheet.cols
    for i, cell in enumerate(sheet.cells):
        if cell == name:
            r, c = divmod(i, cols)
            canvas.paste(face, (c * sheet.cell[0], r * sheet.cell[1]))


Progress = Callable[[int, int], None]
Sink = Callable[[str, bytes], None]


def run(
    pdf: bytes | str, tasks: list[Task], jobs: int, sink: Sink, progress: Progress | None = None
) -> None:
    """Every task, in ``jobs`` processes (in this one when 1); each file goes to ``sink`` as
    soon as its task is done, so that no more than a task's files are held at a time."""
    total = sum(len(t.placed) for t in tasks)
    done = 0
    pixels = sum(len(t.placed) * _pixels(t) for t in tasks)
    if jobs <= 1 or len(tasks) <= 1 or pixels < PARALLEL_PIXELS:
        open_pdf(pdf)
        try:
            for task in tasks:
                files, n = run_task(task)
                for name in sorted(files):
                    sink(name, files[name])
                done += n
                if progress:
                    progress(done, total)
        finally:
            close_pdf()
        return
    from concurrent.futures import ProcessPoolExecutor, as_completed

    # the largest tasks first, so that no worker is left with a big one at the end
    order = sorted(tasks, key=lambda t: -len(t.placed) * _pixels(t))
    workers = min(jobs, len(tasks))
    with ProcessPoolExecutor(workers, initializer=open_pdf, initargs=(pdf,)) as pool:
        for future in as_completed([pool.submit(run_task, t) for t in order]):
            files, n = future.result()
            for name in sorted(files):
                sink(name, files[name])
            done += n
            if progress:
                progress(done, total)


PARALLEL_PIXELS = 4_000_000  # less work than this (about 0.1 s) is not worth starting workers


def _pixels(task: Task) -> int:
    if not task.placed:
        return 0
    left, top, right, bottom = task.placed[0].box
    return (right - left) * (bottom - top)
