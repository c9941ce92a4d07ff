"""`pnp preview`: a static page with every face in every language and the findings above it.

OUT/GAME/preview/index.html opens from the file system (no server). At the top, the findings of
the last validation, folded as `pnp validate` folds them (each cause, what it caused collapsed
under it); below, a grid as wide as the window with every card, token and board face
(boards and tiles span wider). Face images are PNGs rendered from the same PDF pipeline; each is
named after a digest of everything that draws it, so a rebuild renders only the faces that
changed. A small script reloads the page when `pnp watch` writes a new stamp.js, errors
included.

The page never goes blank. With errors (a build writes nothing then), every face that can be
drawn is drawn all the same, each face with an error is marked in place (a red frame, its
findings under it), a face that cannot be drawn says why where it would be, and the findings
stay in view while the page scrolls (a panel held at the top of the window). Only when the
game itself cannot be read (its game.yaml is broken) are the faces of the last page drawn
shown instead, greyed, until a save fixes it.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium
from jinja2 import Environment, select_autoescape
from PIL import Image

from ..build.options import Output
from ..content.load import Root
from ..content.model import Board, Card, Face, Game, Text, TokenSet
from ..content.queries import item_size
from ..core.causes import fold, rules_of
from ..core.errors import PnpError
from ..core.files import (
    is_regular,
    out_folder,
    write_atomic,
)
from ..core.findings import Finding, Report
from ..core.rules import Severity
from ..core.units import Size
from ..i18n import Translator
from ..i18n.words import ngettext, tr
from ..printing import export
from ..printing.imposition import Item, Options, Page, Rect, Slot
from ..printing.render import Renderer
from ..typeset.faces import FaceEngine
from ..typeset.fonts import fontset
from ..validate import catalogs_for
from .pagefiles import FaceView, Manifest, prune, read_manifest, write_cached, write_manifest

DPI = 110
SETUP_DPI = 60
BOARD_PX = 1400  # a board's longer side is drawn at most this many pixels long
FULL_ROW_MM = 250  # a board at least this wide takes a whole row of the grid
SEVERITY_ORDER = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}
FACES_START, FACES_END = "<!--pnp:faces-->", "<!--/pnp:faces-->"  # as in preview.html


@dataclass
class Row:
    """A line of the findings table: the finding, and the face it is on (its html id); a
    cause also has the rows it caused, folded under it as `pnp validate` folds them."""

    finding: Finding
    face: str = ""
    folded: list[Row] = field(default_factory=list)
    more: str = ""  # a cause's "and N more caused by this: RULES"


def preview_dir(root: Root, game_id: str, out: Path | None = None) -> Path:
    return (out or root.output) / game_id / "preview"


def preview_folder(root: Root, game_id: str, out: Path | None = None) -> Path:
    """The preview folder, made and checked as every output folder (no symbolic link or
    special file on the way below the content root, or below ``--out``)."""
    if out is not None:
        return out_folder(out, game_id, "preview")
    return out_folder(root.path, "output", game_id, "preview")


def _digest(*parts: Any) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(repr(p).encode("utf-8", "replace"))
        h.update(b"\x00")
    return h.hexdigest()[:12]


def _positions(face: Face, card: Face) -> set[tuple[str, int]]:
    out = {(card.pos.path, card.pos.line)}
    for f in (card, face):
        out.update((p.path, p.line) for p in f.fpos.values())
        for _name, text in f.texts():
            out.update((p.path, p.line) for p in text.lpos.values())
            out.add((text.pos.path, text.pos.line))
    return out


def _face_texts(face: Face) -> list[Text]:
    return [t for _n, t in face.texts()]


def write_preview(
    root: Root,
    game_id: str,
    game: Game | None,
    report: Report,
    langs: list[str] | None = None,
    *,
    out: Path | None = None,
    problem: str = "",
    built: Sequence[Output] = (),
) -> Path:
    """The preview page of ``game_id`` with the findings of ``report``, errors first. Every
    face that can be drawn is drawn, errors or not (with errors, a face that cannot be drawn
    says why in its place); only a game that could not be read at all (``game`` None) shows
    the faces of the last page drawn, greyed. ``problem``: what stopped a build (shown at the
    top). ``built``: PDFs just built with the preview's print options (A4, the defaults), whose
    setup pages the page shows instead of drawing them again."""
    if game is not None:
        errors = report.has_errors(game_id) or report.has_errors("") or bool(problem)
        return build_preview(
            root, game, report, langs, out=out, built=built, tolerant=errors, problem=problem
        )
    return _write_stale(root, game_id, report, game_id, out, problem)


def build_preview(
    root: Root,
    game: Game,
    report: Report,
    langs: list[str] | None = None,
    *,
    out: Path | None = None,
    built: Sequence[Output] = (),
    tolerant: bool = False,
    problem: str = "",
) -> Path:
    """Draw every face of ``game`` in each of ``langs`` and write the page (``built``,
    ``problem``: see :func:`write_preview`). ``tolerant``: the game has errors, so a face (or
    a language, or the setup sheet) that cannot be drawn is left out, saying why, instead of
    stopping the page."""
    out_dir = preview_folder(root, game.id, out)
    langs = langs or list(game.languages)
    old = read_manifest(out_dir)
    pages = _pages(game)
    rows = _rows(report, game.id)
    views = _views(game, pages, rows)
    setups: dict[str, list[str]] = {lang: [] for lang in langs}
    unset: dict[str, str] = {}  # lang -> why its setup sheet could not be drawn
    for lang in langs:
        out_folder(out_dir, lang)
        try:
            engine = _engine(root, game, lang)
            _face_images(root, game, engine, views, pages, out_dir, tolerant)
        except Exception as exc:
            _tolerate(exc, tolerant)
            for view in views:
                if lang not in view.images:
                    view.undrawn.setdefault(lang, _why(exc))
            unset[lang] = _why(exc)
            continue
        try:
            pdf = next((o for o in built if o.game == game.id and o.lang == lang), None)
            setups[lang] = _setup_images(game, engine, out_dir, pdf)
        except Exception as exc:
            _tolerate(exc, tolerant)
            unset[lang] = _why(exc)
    keys = {v.key for v in views}
    gone = [v for v in old.faces if v.key not in keys] if tolerant else []
    files = {v.images[lg] for v in [*views, *gone] for lg in v.images} | {
        n for names in setups.values() for n in names
    }
    prune(out_dir, old.files, files)
    title = game.meta.title.values.get(langs[0]) or game.id
    context = {"langs": langs, "faces": views, "setups": setups, "drawn": True, "gone": gone}
    context["unset"] = unset
    page = _write_page(out_dir, title, rows, {**context, "problem": problem})
    write_manifest(out_dir, Manifest(title, langs, [*views, *gone], setups, files))
    return page


def _engine(root: Root, game: Game, lang: str) -> FaceEngine:
    """The face engine of ``lang``: its fonts, its catalog."""
    fonts = fontset(root.fonts, game.print.font, game.print.fallback_fonts)
    catalog = catalogs_for(root, game, Report()).get(lang)
    translator = Translator(game, lang, catalog)
    return FaceEngine(game, root.game_dir(game.id), lang, translator, fonts)


def _tolerate(exc: Exception, tolerant: bool) -> None:
    """Go on after ``exc`` when drawing a game with errors (a face that cannot be drawn is
    one of them); without errors, or with PNP_DEBUG set, it is raised."""
    if not tolerant or os.environ.get("PNP_DEBUG"):
        raise exc


def _why(exc: Exception, view: FaceView | None = None) -> str:
    """Why something could not be drawn, in one line: the face's own errors, when it has."""
    said = str(exc) if isinstance(exc, PnpError) else f"{type(exc).__name__}: {exc}"
    if view is not None and view.errors:
        return tr("its errors stop it ({reason})").format(reason=said)
    return said


def _write_stale(
    root: Root, game_id: str, report: Report, title: str, out: Path | None, problem: str
) -> Path:
    """The findings over the faces of the last page drawn (greyed), if there was one: drawn
    again from what pnp wrote down of it (its manifest), never from its HTML."""
    out_dir = preview_folder(root, game_id, out)
    old = read_manifest(out_dir)
    context: dict[str, Any] = {
        "langs": old.langs,
        "faces": [],
        "setups": {lang: old.setups.get(lang, []) for lang in old.langs},
        "drawn": False,
        "stale": old.faces or None,
        "problem": problem,
    }
    title = old.title or title
    return _write_page(out_dir, title, _rows(report, game_id), context)


def _write_page(out_dir: Path, title: str, rows: list[Row], context: dict[str, Any]) -> Path:
    findings = [r.finding.text() for r in rows]
    images = [(v.images, v.undrawn) for v in context["faces"]]
    gone = [(v.key, v.images) for v in context.get("gone") or context.get("stale") or ()]
    shown = (context.get("problem"), context["drawn"], gone, context.get("unset"))
    stamp = _digest(images, context["setups"], findings, *shown)
    text = _page(title, rows, stamp, context)
    write_atomic(out_dir / "index.html", text.encode("utf-8"))
    write_atomic(out_dir / "stamp.js", f"window.pnpStamp = {json.dumps(stamp)};\n".encode())
    return out_dir / "index.html"


def _sizes(game: Game) -> dict[str, Any]:
    return {o.id: item_size(game, o) for o in game.owners()}


def _pages(game: Game) -> list[export.FacePage]:
    """Every face, in print order: cards, boards and tiles, tokens."""
    sizes = _sizes(game)
    return (
        export.face_pages(game, list(game.decks.values()), sizes)
        + board_pages(game)
        + export.face_pages(game, list(game.tokens.values()), sizes)
    )


def board_pages(game: Game) -> list[export.FacePage]:
    """One page per side of every board and tile, each page exactly the board's size."""
    out: list[export.FacePage] = []
    for board in game.boards.values():
        sides: list[tuple[str, Face]] = [("front", board)]
        if board.back is not None:
            sides.append(("back", board.back))
        for side, face in sides:
            page = Page("fronts", board.size)
            item = Item(face, board, board, side)  # type: ignore[arg-type]
            page.slots.append(Slot(Rect(0, 0, board.size.w, board.size.h), item))
            # ids have no dots: "board." cannot clash with a deck's stem
            name = f"board.{board.id}-{side}"
            out.append(export.FacePage(name, board.id, board.id, side, page))
    return out


def _kind(fp: export.FacePage) -> tuple[str, str]:
    """What a face is (card, token, board) and how many columns of the grid it spans."""
    item = fp.page.slots[0].item
    if isinstance(item.owner, Board):
        return "board", "full" if fp.page.size.w >= FULL_ROW_MM else "wide"
    return ("token" if isinstance(item.owner, TokenSet) else "card"), "one"


def _views(game: Game, pages: list[export.FacePage], rows: list[Row]) -> list[FaceView]:
    """A view per face, with the findings on it (each row learns the face it is on)."""
    cards = {c.id: c for _o, c in game.every_card()}
    views: list[FaceView] = []
    for fp in pages:
        item = fp.page.slots[0].item
        card = item.card if isinstance(item.card, Card | Board) else cards.get(fp.card)
        face = item.face
        assert face is not None and card is not None
        kind, span = _kind(fp)
        sides = {"front": tr("front"), "back": tr("back")}
        what = f"{fp.owner} / {fp.card or sides['back']}" if kind != "board" else fp.owner
        label = f"{what} · {sides.get(fp.side, fp.side)}"
        view = FaceView(fp.name, label, fp.owner, fp.card, fp.side, kind, span)
        view.placeholder = bool(getattr(card, "placeholder", False)) and fp.side == "front"
        where = _positions(face, card) if fp.card else {(face.pos.path, face.pos.line)}
        here = f"{fp.owner}/{fp.card}/{fp.side}"  # as findings name their face
        for row in rows:
            f = row.finding
            if not row.face and (
                f.face == here or (not f.face and (f.pos.path, f.pos.line) in where)
            ):
                row.face = view.key
                view.findings.setdefault(f.lang, []).append(f)
        views.append(view)
    return views


def _rows(report: Report, game_id: str) -> list[Row]:
    """The game's findings (and those of no game), errors first, then by position."""
    mine = [f for f in report.sorted() if f.game in (game_id, "")]
    mine.sort(key=lambda f: SEVERITY_ORDER.get(f.severity, 3))  # stable: positions kept
    return [Row(f) for f in mine]


def _key(f: Finding) -> tuple[object, ...]:
    return (f.game, f.pos, f.rule, f.message, f.lang)


def _causes(rows: list[Row]) -> list[Row]:
    """The table's lines as `pnp validate` prints them: each cause (errors first, causes
    first), with the rows it caused folded under it and counted. Every row keeps its face
    (found on all of them, folded or not), so each face stays marked."""
    by_key: dict[tuple[object, ...], Row] = {}
    for row in rows:
        by_key.setdefault(_key(row.finding), row)
    ordered = sorted(by_key.values(), key=lambda r: r.finding.sort_key())
    out: list[Row] = []
    for group in fold([r.finding for r in ordered]):
        found = by_key[_key(group.root)]
        cause = Row(group.root, found.face, [by_key[_key(f)] for f in group.folded])
        if cause.folded:
            count, rules = len(cause.folded), rules_of(group.folded)
            more = ngettext(
                "and {n} more caused by this: {rules}",
                "and {n} more caused by this: {rules}",
                count,
            )
            cause.more = more.format(n=count, rules=rules)
        out.append(cause)
    out.sort(key=lambda r: SEVERITY_ORDER.get(r.finding.severity, 3))  # stable
    return out


def _dpi(size: Size) -> float:
    return min(DPI, BOARD_PX * 25.4 / max(size.w, size.h, 1.0))


def _face_images(
    root: Root,
    game: Game,
    engine: FaceEngine,
    views: list[FaceView],
    pages: list[export.FacePage],
    out_dir: Path,
    tolerant: bool = False,
) -> None:
    """Each face in the engine's language as a PNG, named by what it is drawn from (a face
    that did not change is not drawn again). ``tolerant``: see :func:`build_preview`."""
    lang = engine.lang
    todo: dict[float, list[tuple[export.FacePage, Path, FaceView]]] = {}
    for view, fp in zip(views, pages, strict=True):
        size, dpi = fp.page.size, _dpi(fp.page.size)
        view.pixels = export.expected_size(size, dpi)
        try:
            rel = f"{lang}/{fp.name}-{_signature(root, game, engine, view, fp, dpi)}.png"
        except Exception as exc:
            _tolerate(exc, tolerant)
            view.undrawn[lang] = _why(exc, view)
            continue
        view.images[lang] = rel
        if not is_regular(out_dir / rel):
            todo.setdefault(dpi, []).append((fp, out_dir / rel, view))
    for dpi, batch in todo.items():  # one PDF per resolution (boards are drawn smaller)
        try:
            _draw(game, engine, batch, dpi)
        except Exception as exc:
            _tolerate(exc, tolerant)
            for one in batch:  # each face alone: those that can be drawn are
                try:
                    _draw(game, engine, [one], dpi)
                except Exception as alone:
                    _tolerate(alone, tolerant)
                    one[2].images.pop(lang, None)
                    one[2].undrawn[lang] = _why(alone, one[2])


def _signature(
    root: Root, game: Game, engine: FaceEngine, view: FaceView, fp: export.FacePage, dpi: float
) -> str:
    """A digest of everything that draws the face in the engine's language (and the face's
    untranslated fields, noted on the view)."""
    lang, translator, fonts = engine.lang, engine.translator, engine.fonts
    item = fp.page.slots[0].item
    face = item.face
    assert face is not None
    resolved = engine.resolved(engine.layout_id(face, item.owner, item.side))
    texts = [translator.text(t) for t in _face_texts(face)]
    view.fallbacks[lang] = [
        t.ctx.rsplit("/", 1)[-1] for t in _face_texts(face) if translator.is_fallback(t)
    ]
    folder = root.game_dir(game.id)
    art = [face.art, getattr(item.card, "art", None)]
    mtimes = [(folder / a).stat().st_mtime if a and (folder / a).is_file() else 0 for a in art]
    return _digest(
        lang, face, item.card.values, resolved, texts, fp.page.size, dpi, mtimes, game.icons,
        fonts.main.faces, item.shape,
    )  # fmt: skip


def _draw(
    game: Game,
    engine: FaceEngine,
    batch: list[tuple[export.FacePage, Path, FaceView]],
    dpi: float,
) -> None:
    """The faces of ``batch`` drawn in one PDF, rasterised and written."""
    lang, translator, fonts = engine.lang, engine.translator, engine.fonts
    renderer = Renderer(game, lang, engine, fonts, translator, translator.text(game.meta.title))
    pdf = renderer.render([fp.page for fp, _p, _v in batch])
    images = export.rasterise(pdf, dpi, [fp.page.size for fp, _p, _v in batch])
    for (_fp, path, _v), image in zip(batch, images, strict=True):
        write_cached(path, export.png_bytes(image, dpi))


def _setup_images(
    game: Game, engine: FaceEngine, out_dir: Path, pdf: Output | None = None
) -> list[str]:
    """The setup sheet in the engine's language, as the player will see it: the pages of the
    PDF this run just built with the default print options (`pnp watch`), else drawn here."""
    images = _built_setup_images(pdf) if pdf is not None else None
    if images is None:
        lang, translator, fonts = engine.lang, engine.translator, engine.fonts
        title = translator.text(game.meta.title)
        renderer = Renderer(game, lang, engine, fonts, translator, title)
        plan = [p for p in renderer.plan_pages(Options()) if p.kind == "setup"]
        images = export.rasterise(renderer.render(plan), SETUP_DPI, [p.size for p in plan])
    h = hashlib.sha256()
    for image in images:
        h.update(repr(image.size).encode())
        h.update(image.tobytes())
    sig = h.hexdigest()[:12]
    names = []
    for i, image in enumerate(images, 1):
        rel = f"{engine.lang}/setup-{i}-{sig}.png"
        if not is_regular(out_dir / rel):
            write_cached(out_dir / rel, export.png_bytes(image, SETUP_DPI))
        names.append(rel)
    return names


def _built_setup_images(pdf: Output) -> list[Image.Image] | None:
    """The setup pages of a PDF just built with the preview's print options, rasterised;
    None when it has none (or it cannot be read)."""
    if not pdf.setup:
        return None
    path, pages = pdf.path, pdf.setup
    try:
        doc = pdfium.PdfDocument(str(path))
    except (OSError, pdfium.PdfiumError):  # gone since: draw the sheet instead
        return None
    try:
        images = []
        for index, size in pages:
            page = doc[index]
            image = page.render(scale=SETUP_DPI / 72.0).to_pil().convert("RGB")
            page.close()
            want = export.expected_size(size, SETUP_DPI)
            if image.size != want:  # as export.rasterise: pdfium rounds the bitmap up
                image = image.crop((0, 0, *want)) if image.size >= want else image.resize(want)
            images.append(image)
        return images
    finally:
        doc.close()


TEMPLATE = Path(__file__).parent.parent / "data" / "preview.html"


def _words() -> dict[str, str]:
    """The page's own words, in the user's language."""
    return {
        "preview": tr("pnp preview"),
        "faces": tr("faces"),
        "errors": tr("errors"),
        "warnings": tr("warnings"),
        "notes": tr("notes"),
        "live": tr("updates itself while `pnp watch` runs"),
        "findings": tr("Findings of the last validation"),
        "clean": tr("No findings: the game validates clean."),
        "severity": tr("severity"),
        "where": tr("where"),
        "rule": tr("rule"),
        "message": tr("message"),
        "face": tr("face"),
        "setup": tr("Setup sheet"),
        "placeholder": tr("placeholder"),
        "untranslated": tr("not translated"),
        "stale": tr(
            "Errors: the faces below are from the last preview without errors; "
            "they are drawn again once the errors are fixed."
        ),
        "nothing": tr("No faces drawn yet: fix the errors above and save."),
        "marked": tr(
            "Errors: nothing is printed until they are fixed. Every face that can be drawn is "
            "drawn below; the faces with errors are framed in red, their findings under them."
        ),
        "undrawn": tr("not drawn"),
        "gone": tr(
            "Greyed below: faces of the last page drawn that the game does not have as it "
            "reads now (a file of it has errors); they come back once it is fixed."
        ),
    }


@functools.cache
def _template() -> Any:
    """The page's template, compiled once per process (pnp's own file: it never changes)."""
    env = Environment(autoescape=select_autoescape(default=True, default_for_string=True))
    return env.from_string(TEMPLATE.read_text("utf-8"))


def _page(title: str, rows: list[Row], stamp: str, context: dict[str, Any]) -> str:
    rows = _causes(rows)  # counted as `pnp validate` counts them: the causes
    counts = {
        sev.value: sum(r.finding.severity is sev for r in rows)
        for sev in (Severity.ERROR, Severity.WARNING, Severity.INFO)
    }
    langs = context["langs"]
    return _template().render(
        title=title,
        lang=langs[0] if langs else "en",
        rows=rows,
        stamp=stamp,
        counts=counts,
        caused=_caused_text(sum(len(r.folded) for r in rows)),
        state="errors" if counts["error"] or context.get("problem") else "ok",
        w=_words(),
        **{"stale": None, "problem": "", "gone": "", "unset": {}, **context},
    )


def _caused_text(n: int) -> str:
    """The findings summary's "(and N more caused by them)", or "" when nothing is folded."""
    if not n:
        return ""
    return ngettext("and {n} more caused by them", "and {n} more caused by them", n).format(n=n)
