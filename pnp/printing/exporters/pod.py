"""Print-on-demand files: what a shop's profile asks for (``pnp build GAME --for PROFILE``,
``<game>-<lang>-<profile>/``).

Each deck, token set and board the shop has a product for is laid out again at the product's
trim (a pack keeps its size; the profile names the nearest product), with the shop's safe zone
keeping texts inside it (:mod:`pnp.validate.profile` reports what it cannot), and drawn with
the product's bleed from the design itself: the background and art reach past the trim as
``--bleed`` draws them, never a white frame. Each face is an image of exactly the product's
pixels (the page is drawn with the bleed and the image cut from its middle), named and
foldered as the profile says, and where the shop takes PDFs, a PDF per component with one face
a page, its TrimBox and BleedBox set, fronts and backs in the shop's order. ``manifest.csv``
pairs fronts with backs and says how many of each card to order.
"""

from __future__ import annotations

import csv
import io
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from ...content.load import Root
from ...content.model import Board, Game, TokenSet
from ...content.profiles import Files as FileSpec
from ...content.profiles import Match, Profile, fill, match
from ...core.errors import BuildError
from ...core.findings import Report
from ...core.units import MM_PER_INCH, Size
from ..imposition import Item, Page, Rect, Slot
from .base import ExportJob, Files, JobExporter
from .staging import discard, remove_stale_in, render_staged, stage_file

if TYPE_CHECKING:
    from ..export import FacePage
    from ..render import Renderer


@dataclass(frozen=True)
class Face:
    """One face of a component as the shop gets it: its page and its file's name."""

    file: str  # path in the export's folder, without extension
    page: FacePage
    card: str  # the card's id ("" for a shared back)


@dataclass(frozen=True)
class PrintOnDemand(JobExporter):
    name: ClassVar[str] = "pod"
    many_cores: ClassVar[bool] = True  # its faces are rasterised by pixels, as PNG faces are
    per_paper: ClassVar[bool] = False  # the shop's files do not depend on the home paper
    profile: Profile | None = None

    def folder(self, game_id: str, lang: str) -> str:
        assert self.profile is not None
        return f"{game_id}-{lang}-{self.profile.id}"

    def check(self, root: Root, game: Game, report: Report) -> None:
        """What the shop cannot print, and texts outside its safe zone (errors stop the
        build before anything is made)."""
        from ...validate.profile import check_profile

        assert self.profile is not None
        check_profile(root, game, self.profile, report)

    def files(self, job: ExportJob) -> Files:
        from ...validate.profile import zone_of

        profile = self.profile
        assert profile is not None
        folder = job.out_dir / self.folder(job.game.id, job.lang)
        matches = [m for m in match(profile, job.game) if m.product is not None]
        renderer = _renderer(job, zone_of(profile))
        plan = [(m, _faces(profile, job, m)) for m in matches]
        _unique(profile, plan)
        files = Files(notes=_notes(profile, matches))
        try:
            remove_stale_in(folder)
            if profile.files.images != "none":
                self._images(job, renderer, plan, folder, files)
            if profile.files.pdf != "none":
                self._pdfs(renderer, plan, folder, files, job)
            manifest = _manifest(profile, job, plan)
            files.staged[folder / "manifest.csv"] = stage_file(folder / "manifest.csv", manifest)
        except BaseException:
            discard(files.staged.values())
            raise
        return files

    def _images(
        self,
        job: ExportJob,
        renderer: Renderer,
        plan: list[tuple[Match, list[Face]]],
        folder: Path,
        files: Files,
    ) -> None:
        """Every face as an image of exactly the product's pixels, rasterised in
        ``job.jobs`` processes as PNG faces are."""
        from .. import raster

        assert self.profile is not None
        ext = self.profile.files.images
        faces = {f.page.name: f for _m, fs in plan for f in fs}
        work = raster.plan([f.page for f in faces.values()], [], self.profile.dpi)

        def sink(name: str, data: bytes) -> None:
            stem = name.partition("/")[2].removesuffix(".png")
            final = folder / f"{faces[stem].file}.{ext}"
            files.staged[final] = stage_file(final, data if ext == "png" else _jpeg(data))

        with tempfile.TemporaryDirectory(prefix="pnp-pod-") as tmp:
            pdf = Path(tmp) / "faces.pdf"
            with pdf.open("wb") as fh:
                renderer.render(work.pages, sink=fh)
            raster.run(str(pdf), work.tasks, job.jobs, sink, job.progress)

    def _pdfs(
        self,
        renderer: Renderer,
        plan: list[tuple[Match, list[Face]]],
        folder: Path,
        files: Files,
        job: ExportJob,
    ) -> None:
        """A PDF per component, one face a page at the product's image size, trim and bleed
        boxes set; each copy of a card a pair of pages in the profile's order."""
        assert self.profile is not None
        spec = self.profile.files
        for m, faces in plan:
            assert m.product is not None
            pages = [_pdf_page(m, f) for f in _paired(m, faces, spec.pdf, spec.copies)]
            stem = fill(spec.pdf_name, **_fields(job, m, 1, "", "front"))
            if stem is None:  # checked when the profile was read
                raise BuildError(f"{self.profile.id}: files.pdf_name {spec.pdf_name!r}")
            final = folder / f"{stem}.pdf"
            files.staged[final] = render_staged(renderer, pages, final)


def _renderer(job: ExportJob, zone: object) -> Renderer:
    """A renderer of the job's game whose face engine keeps texts in the shop's safe zone."""
    from ...typeset.faces import FaceEngine
    from ..render import Renderer

    r = job.renderer
    engine = FaceEngine(job.game, job.game_dir, job.lang, r.translator, r.fonts, cache=False)
    engine.zone = zone  # type: ignore[assignment]
    return Renderer(job.game, job.lang, engine, r.fonts, r.translator, r.title)


def _fields(job: ExportJob, m: Match, n: int, card: str, side: str, copy: int = 1) -> dict:
    assert m.product is not None
    return {
        "game": job.game.id,
        "lang": job.lang,
        "component": m.owner.id,
        "product": m.product.id,
        "n": n,
        "card": card,
        "side": side,
        "copy": copy,
    }


def _faces(profile: Profile, job: ExportJob, m: Match) -> list[Face]:
    """The component's distinct faces, laid out at the product's trim inside its bleed, each
    with its file name."""
    from ...validate.profile import faces_of
    from ..export import FacePage

    assert m.product is not None
    spec = profile.files
    trim, (bx, by) = m.trim, m.bleed
    pad = max(bx, by) + MM_PER_INCH / profile.dpi  # a pixel more, cut off with the rest
    shape = getattr(m.owner, "shape", "rect") if isinstance(m.owner, TokenSet) else "rect"
    numbers = {id(c): n for n, c in enumerate(_cards(m), 1)}
    out: list[Face] = []
    for face, card, side in faces_of(m.owner):
        shared = side == "back" and not isinstance(card, Board) and card.back is None
        cid = "" if shared else card.id
        n = numbers.get(id(card), 1)
        template = spec.shared_back if shared else spec.front if side == "front" else spec.back
        name = fill(template, **_fields(job, m, n, cid, side))
        if name is None:
            raise BuildError(f"{profile.id}: the file name template {template!r}")
        folder = fill(spec.folder, **_fields(job, m, n, cid, side)) if spec.folder != "." else ""
        # side "back": no cut outline is drawn on a shop's face (the shop cuts it)
        page = Page("fronts", Size(trim.w + 2 * pad, trim.h + 2 * pad), side="back")
        item = Item(face, m.owner, card, side, shape)  # type: ignore[arg-type]
        page.slots.append(Slot(Rect(pad, pad, trim.w, trim.h), item, bleed=pad))
        key = f"{m.owner.id}--{cid or 'shared'}--{side}"
        at = FacePage(key, m.owner.id, cid, side, page, m.image)
        out.append(Face(f"{folder}/{name}" if folder else name, at, cid))
    return out


def _cards(m: Match) -> list:
    owner = m.owner
    return [owner] if isinstance(owner, Board) else [c for c in owner.cards if c.copies > 0]


def _unique(profile: Profile, plan: list[tuple[Match, list[Face]]]) -> None:
    """Two faces may not get one name (a template without {n} or {card})."""
    seen: dict[str, str] = {}
    for _m, faces in plan:
        for f in faces:
            if f.file in seen and seen[f.file] != f.page.name:
                raise BuildError(
                    f"the profile {profile.id} names two faces {f.file!r}: put {{n}} or {{card}} "
                    f"in its files.front and files.back ({profile.path})"
                )
            seen[f.file] = f.page.name


def _paired(m: Match, faces: list[Face], order: str, copies: str) -> list[Face]:
    """The pages of a component's PDF: each card's front and back (back first for
    back-front), each copy again when the profile wants every copy."""
    fronts = {f.card: f for f in faces if f.page.side == "front"}
    backs = {f.card: f for f in faces if f.page.side == "back"}
    pages: list[Face] = []
    for card in _cards(m):
        cid = card.id
        back = backs.get(cid) or backs.get("")
        pair = [fronts[cid], *([back] if back is not None else [])]
        if order == "back-front":
            pair.reverse()
        times = getattr(card, "copies", 1) if copies == "each" else 1
        pages.extend(pair * times)
    return pages


def _pdf_page(m: Match, face: Face) -> Page:
    """A page of exactly the product's image size, the trim centred with the bleed around."""
    assert m.product is not None
    w, h = m.image
    dpi = m.product.dpi
    size = Size(w / dpi * MM_PER_INCH, h / dpi * MM_PER_INCH)
    trim = m.trim
    slot = face.page.page.slots[0]
    x, y = (size.w - trim.w) / 2, (size.h - trim.h) / 2
    bleed = max(x, y)
    page = Page("fronts", size, trim=Rect(x, y, trim.w, trim.h), bleed=bleed, side="back")
    page.slots.append(Slot(Rect(x, y, trim.w, trim.h), slot.item, bleed=bleed))
    return page


def _manifest(profile: Profile, job: ExportJob, plan: list[tuple[Match, list[Face]]]) -> bytes:
    """One row a card: what prints it, its front and back (files, or the pages of the first
    copy in the component's PDF), how many to order."""
    buf = io.StringIO()
    out = csv.writer(buf, lineterminator="\n")
    out.writerow(["component", "product", "card", "copies", "front", "back"])
    spec = profile.files
    for m, faces in plan:
        assert m.product is not None
        if spec.images == "none":
            rows = _pdf_rows(m, faces, spec, job)
        else:
            fronts = {f.card: f.file for f in faces if f.page.side == "front"}
            backs = {f.card: f.file for f in faces if f.page.side == "back"}
            rows = []
            for card in _cards(m):
                back = backs.get(card.id) or backs.get("")
                front = f"{fronts[card.id]}.{spec.images}"
                rows.append((card, front, f"{back}.{spec.images}" if back else ""))
        for card, front, back in rows:
            out.writerow(
                [m.owner.id, m.product.id, card.id, getattr(card, "copies", 1), front, back]
            )
    return buf.getvalue().encode("utf-8")


def _pdf_rows(
    m: Match, faces: list[Face], spec: FileSpec, job: ExportJob
) -> list[tuple[Any, str, str]]:
    """Where each card's first copy is in the component's PDF ("voyages.pdf p. 2"), pages
    counted as :func:`_paired` lays them out."""
    stem = fill(spec.pdf_name, **_fields(job, m, 1, "", "front"))
    backs = {f.card for f in faces if f.page.side == "back"}
    rows = []
    page = 1
    for card in _cards(m):
        pair = 2 if card.id in backs or "" in backs else 1
        front = page + (1 if pair == 2 and spec.pdf == "back-front" else 0)
        back = page + (0 if spec.pdf == "back-front" else 1)
        rows.append((card, f"{stem}.pdf p. {front}", f"{stem}.pdf p. {back}" if pair == 2 else ""))
        page += pair * (getattr(card, "copies", 1) if spec.copies == "each" else 1)
    return rows


def _notes(profile: Profile, matches: list[Match]) -> list[str]:
    """What the terminal says of this export: the products used for sizes that are not
    exactly theirs, what the shop asks that pnp does not do, and the profile's assumptions."""
    from ...i18n.words import tr

    notes = []
    for m in matches:
        assert m.product is not None
        if abs(m.trim.w - m.size.w) > 0.01 or abs(m.trim.h - m.size.h) > 0.01:
            notes.append(
                tr("{id} ({size}) printed as {product}, laid out at its size").format(
                    id=m.owner.id, size=m.size, product=m.product.label()
                )
            )
    notes.extend(profile.notes)
    guessed = list(profile.assumed)
    guessed += [f"{p.id}: {', '.join(p.assumed)}" for p in profile.products if p.assumed]
    if guessed:
        notes.append(
            tr("{profile}: assumed, not from the shop (check before ordering): {what}").format(
                profile=profile.name, what="; ".join(guessed)
            )
        )
    return notes


def _jpeg(png: bytes) -> bytes:
    from PIL import Image

    with Image.open(io.BytesIO(png)) as im:
        buf = io.BytesIO()
        dpi = im.info.get("dpi", (300, 300))
        im.convert("RGB").save(buf, "JPEG", quality=95, subsampling=0, dpi=dpi)
        return buf.getvalue()
