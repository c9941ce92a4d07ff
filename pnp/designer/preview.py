"""`pnp preview`: a static page with every face in every language and the findings beside it.

output/GAME/preview/index.html opens from the file system (no server). Face images are PNGs
rendered from the same PDF pipeline; each is named after a digest of everything that draws it,
so a rebuild renders only the faces that changed. A small script reloads the page when
`pnp watch` writes a new stamp.js.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jinja2 import Environment, select_autoescape

from ..content.load import Root
from ..content.model import Card, Face, Game, Text
from ..content.queries import item_size
from ..core.files import write_atomic
from ..core.findings import Finding, Report
from ..core.rules import Severity
from ..i18n import Translator
from ..printing import export
from ..printing.imposition import Options
from ..printing.render import Renderer
from ..typeset.faces import FaceEngine
from ..typeset.fonts import fontset
from ..validate import catalogs_for

DPI = 110
SETUP_DPI = 60


@dataclass
class FaceView:
    key: str  # html id
    label: str
    owner: str
    card: str
    side: str
    images: dict[str, str] = field(default_factory=dict)  # lang -> relative png path
    findings: dict[str, list[Finding]] = field(default_factory=dict)  # lang ('' = all)
    fallbacks: dict[str, list[str]] = field(default_factory=dict)
    placeholder: bool = False


def _digest(*parts: Any) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(repr(p).encode("utf-8", "replace"))
        h.update(b"\x00")
    return h.hexdigest()[:12]


def _positions(face: Face, card: Card) -> set[tuple[str, int]]:
    out = {(card.pos.path, card.pos.line)}
    for f in (card, face):
        out.update((p.path, p.line) for p in f.fpos.values())
        for _name, text in f.texts():
            out.update((p.path, p.line) for p in text.lpos.values())
            out.add((text.pos.path, text.pos.line))
    return out


def _face_texts(face: Face) -> list[Text]:
    return [t for _n, t in face.texts()]


def build_preview(root: Root, game: Game, report: Report, langs: list[str] | None = None) -> Path:
    out_dir = root.output / game.id / "preview"
    out_dir.mkdir(parents=True, exist_ok=True)
    langs = langs or list(game.languages)
    fonts = fontset(root.fonts, game.print.font, game.print.fallback_fonts)
    catalogs = catalogs_for(root, game, Report())
    pages = export.face_pages(game, game.owners(), _sizes(game))
    findings = report.for_game(game.id)
    views, general = _views(game, pages, findings)
    setups: dict[str, list[str]] = {}
    for lang in langs:
        translator = Translator(game, lang, catalogs.get(lang))
        engine = FaceEngine(game, root.game_dir(game.id), lang, translator, fonts)
        _face_images(root, game, engine, views, pages, out_dir)
        setups[lang] = _setup_images(game, engine, out_dir)
    _prune(
        out_dir,
        {v.images[lg] for v in views for lg in v.images}
        | {n for names in setups.values() for n in names},
    )
    stamp = _digest([v.images for v in views], setups, [f.text() for f in findings])
    html = _page(game, langs, views, general, setups, stamp, findings)
    write_atomic(out_dir / "index.html", html.encode("utf-8"))
    write_atomic(out_dir / "stamp.js", f"window.pnpStamp = {json.dumps(stamp)};\n".encode())
    return out_dir / "index.html"


def _sizes(game: Game) -> dict[str, Any]:
    return {o.id: item_size(game, o) for o in game.owners()}


def _views(
    game: Game, pages: list[export.FacePage], findings: list[Finding]
) -> tuple[list[FaceView], list[Finding]]:
    """A view per face, with the findings on it; and the findings on no face."""
    cards = {c.id: c for _o, c in game.every_card()}
    views: list[FaceView] = []
    claimed: set[int] = set()
    for fp in pages:
        item = fp.page.slots[0].item
        card = item.card if isinstance(item.card, Card) else cards.get(fp.card)
        face = item.face
        assert face is not None and isinstance(card, Card)
        view = FaceView(
            fp.name, f"{fp.owner} / {fp.card or 'back'} · {fp.side}", fp.owner, fp.card, fp.side
        )
        view.placeholder = card.placeholder and fp.side == "front"
        where = _positions(face, card) if fp.card else {(face.pos.path, face.pos.line)}
        here = f"{fp.owner}/{fp.card}/{fp.side}"  # as findings name their face
        for i, f in enumerate(findings):
            if f.face == here or (not f.face and (f.pos.path, f.pos.line) in where):
                claimed.add(i)
                view.findings.setdefault(f.lang, []).append(f)
        views.append(view)
    return views, [f for i, f in enumerate(findings) if i not in claimed]


def _face_images(
    root: Root,
    game: Game,
    engine: FaceEngine,
    views: list[FaceView],
    pages: list[export.FacePage],
    out_dir: Path,
) -> None:
    """Each face in the engine's language as a PNG, named by what it is drawn from (a face
    that did not change is not drawn again)."""
    lang, translator, fonts = engine.lang, engine.translator, engine.fonts
    sizes = _sizes(game)
    todo: list[tuple[FaceView, export.FacePage, Path]] = []
    for view, fp in zip(views, pages, strict=True):
        item = fp.page.slots[0].item
        face = item.face
        assert face is not None
        resolved = engine.resolved(engine.layout_id(face, item.owner, item.side))
        texts = [translator.text(t) for t in _face_texts(face)]
        view.fallbacks[lang] = [
            t.ctx.rsplit("/", 1)[-1] for t in _face_texts(face) if translator.is_fallback(t)
        ]
        art = [face.art, getattr(item.card, "art", None)]
        folder = root.game_dir(game.id)
        mtimes = [(folder / a).stat().st_mtime if a and (folder / a).is_file() else 0 for a in art]
        sig = _digest(
            lang,
            face,
            item.card.values,
            resolved,
            texts,
            sizes[fp.owner],
            mtimes,
            game.icons,
            fonts.main.faces,
            item.shape,
        )
        rel = f"{lang}/{fp.name}-{sig}.png"
        view.images[lang] = rel
        if not (out_dir / rel).is_file():
            todo.append((view, fp, out_dir / rel))
    if todo:
        renderer = Renderer(game, lang, engine, fonts, translator, translator.text(game.meta.title))
        pdf = renderer.render([fp.page for _v, fp, _p in todo])
        images = export.rasterise(pdf, DPI, [fp.page.size for _v, fp, _p in todo])
        for (_v, _fp, path), image in zip(todo, images, strict=True):
            write_atomic(path, export.png_bytes(image, DPI))


def _setup_images(game: Game, engine: FaceEngine, out_dir: Path) -> list[str]:
    """The setup sheet in the engine's language, as the player will see it."""
    lang, translator, fonts = engine.lang, engine.translator, engine.fonts
    renderer = Renderer(game, lang, engine, fonts, translator, translator.text(game.meta.title))
    plan = [p for p in renderer.plan_pages(Options()) if p.kind == "setup"]
    pdf = renderer.render(plan)
    sig = _digest(pdf)
    names = []
    for i, image in enumerate(export.rasterise(pdf, SETUP_DPI, [p.size for p in plan]), 1):
        rel = f"{lang}/setup-{i}-{sig}.png"
        if not (out_dir / rel).is_file():
            write_atomic(out_dir / rel, export.png_bytes(image, SETUP_DPI))
        names.append(rel)
    return names


def _prune(out_dir: Path, keep: set[str]) -> None:
    for png in out_dir.glob("*/*.png"):
        rel = png.relative_to(out_dir).as_posix()
        if rel not in keep:
            png.unlink(missing_ok=True)


TEMPLATE = Path(__file__).parent.parent / "data" / "preview.html"


def _page(
    game: Game,
    langs: list[str],
    views: list[FaceView],
    general: list[Finding],
    setups: dict[str, list[str]],
    stamp: str,
    findings: list[Finding],
) -> str:
    env = Environment(autoescape=select_autoescape(default=True, default_for_string=True))
    counts = {
        "error": sum(f.severity is Severity.ERROR for f in findings),
        "warning": sum(f.severity is Severity.WARNING for f in findings),
    }
    title = game.meta.title.values.get(langs[0]) or game.id
    return env.from_string(TEMPLATE.read_text("utf-8")).render(
        title=title,
        langs=langs,
        faces=views,
        general=general,
        setups=setups,
        stamp=stamp,
        counts=counts,
    )
