"""Print-on-demand profiles: what a shop prints, as data (``pnp build GAME --for PROFILE``).

A profile is one YAML file: the shop's resolution, safe zone and cut tolerance, its products
(cards, tokens, boards: each a trim size and the image in pixels that the shop wants for it,
bleed included), how the files are named and laid out in folders, how fronts and backs are
paired, and whether the shop takes a PDF of one face a page. pnp's own profiles are in
``pnp/data/profiles/``; a content root's ``profiles/NAME.yaml`` is used instead of pnp's of the
same name, so a designer copies one there and changes it. Where each number comes from is in
docs/printing.md; numbers no source gave are listed under ``assumed:`` in the file.

:func:`match` says which product prints each deck, token set and board of a game: the product
of the same kind and shape whose trim is nearest, within the profile's ``nearest`` millimetres
on every side (a pack keeps its size: its faces are laid out again at the product's trim).
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.errors import UsageError
from ..core.findings import Pos, Report
from ..core.rules import PROFILE
from ..core.units import MM_PER_INCH, Size
from .load import Root
from .model import Board, Deck, Game, TokenSet
from .queries import item_size
from .yamlio import YMap, YSeq, load_file, parse_text

BUNDLED = Path(__file__).resolve().parent.parent / "data" / "profiles"
FOLDER = "profiles"  # a content root's own profiles
KINDS = ("card", "token", "board")
SHAPES = {"card": ("rect",), "board": ("rect",), "token": ("round", "square", "hex")}
IMAGES = ("png", "jpg", "none")
PDFS = ("none", "back-front", "front-back")  # a PDF per component: the order of a card's pages
COPIES = ("once", "each")  # each distinct face once (counts in the manifest), or every copy
FIELDS = ("game", "lang", "component", "product", "n", "card", "side", "copy")
_ID = re.compile(r"[a-z0-9][a-z0-9_-]*")
_LENGTH = re.compile(r"(\d+(?:\.\d+)?)\s*(mm|in)?")
_SIZE = re.compile(r"(\d+(?:\.\d+)?)\s*[x×]\s*(\d+(?:\.\d+)?)\s*(mm|in)?")


@dataclass(frozen=True)
class Product:
    """Something the shop makes: its trim (mm, portrait for cards) and the image it wants."""

    id: str
    name: str
    kind: str  # card, token or board
    shape: str  # rect; round, square or hex for tokens
    trim: Size
    image: tuple[int, int]  # pixels at the profile's dpi, bleed included
    dpi: float
    assumed: tuple[str, ...] = ()  # which of its numbers no source gave
    pos: Pos = field(default=Pos(""), compare=False)

    @property
    def image_mm(self) -> Size:
        w, h = self.image
        return Size(w / self.dpi * MM_PER_INCH, h / self.dpi * MM_PER_INCH)

    @property
    def bleed(self) -> tuple[float, float]:
        """The bleed on each side, across and down (mm)."""
        outer = self.image_mm
        return (outer.w - self.trim.w) / 2, (outer.h - self.trim.h) / 2

    def label(self) -> str:
        return f"{self.name} ({self.trim.w:g} x {self.trim.h:g} mm)"


@dataclass(frozen=True)
class Files:
    """How the shop wants the files: templates of names (see :data:`FIELDS`)."""

    images: str = "png"
    pdf: str = "none"
    copies: str = "once"
    folder: str = "{component}"
    front: str = "{n:03}-{card}"
    back: str = "{n:03}-{card}-back"
    shared_back: str = "back"
    pdf_name: str = "{component}"


@dataclass(frozen=True)
class Profile:
    id: str
    name: str
    url: str
    dpi: float
    safe: float  # mm inside the trim where what a player reads must stay
    tolerance: float  # mm the shop's cut may wander
    nearest: float  # mm on every side: a size this near a product prints as it
    files: Files
    products: tuple[Product, ...]
    assumed: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()  # what the shop asks that pnp does not do, said at each build
    path: str = ""  # where it was read from

    @property
    def clearance(self) -> float:
        """How far inside the trim what a player reads must lie: the safe zone (never less
        than the cut tolerance)."""
        return max(self.safe, self.tolerance)

    def of_kind(self, kind: str, shape: str = "rect") -> list[Product]:
        return [p for p in self.products if p.kind == kind and p.shape == shape]


# --- reading a profile ------------------------------------------------------------------------
def available(root: Root | None) -> list[str]:
    """The names ``--for`` accepts: the content root's profiles and pnp's own."""
    names = {p.stem for p in BUNDLED.glob("*.yaml")}
    if root is not None and (root.path / FOLDER).is_dir():
        names |= {p.stem for p in (root.path / FOLDER).glob("*.yaml") if _ID.fullmatch(p.stem)}
    return sorted(names)


def read_profile(root: Root | None, name: str, report: Report) -> Profile | None:
    """The profile ``name`` (the content root's file first, then pnp's); None when the file
    has errors (each a finding at its line). UsageError for a name no file has."""
    if not _ID.fullmatch(name):
        raise UsageError(f"--for {name!r}: a profile is named like thegamecrafter")
    own = root.path / FOLDER / f"{name}.yaml" if root is not None else None
    if own is not None and own.is_file():
        loaded = load_file(own, f"{FOLDER}/{name}.yaml", report)
    elif (BUNDLED / f"{name}.yaml").is_file():
        rel = f"pnp/data/profiles/{name}.yaml"  # as a message names it
        loaded = parse_text((BUNDLED / f"{name}.yaml").read_text("utf-8"), rel, report)
    else:
        names = ", ".join(available(root))
        raise UsageError(
            f"no print-on-demand profile {name!r}: pnp has {names}; a profile of your own goes "
            f"in {FOLDER}/{name}.yaml (copy one of pnp's, `pnp docs printing`)"
        )
    if not loaded.ok:
        return None
    before = len(report.errors)
    profile = _profile(name, loaded.data, loaded.path, report)
    return profile if len(report.errors) == before else None


class _Reader:
    """Reads the values of one mapping, reporting each problem at its position."""

    def __init__(self, data: Any, pos: Pos, report: Report, where: str) -> None:
        self.ok = isinstance(data, YMap)
        self.data: YMap = data if isinstance(data, YMap) else YMap(pos)
        self.report = report
        self.where = where
        if not self.ok:
            self.bad(pos, "must be a mapping of keys to values")

    def bad(self, pos: Pos, message: str) -> None:
        self.report.add(PROFILE, pos, f"{self.where}: {message}")

    def at(self, key: str) -> Pos:
        return self.data.value_pos(key)

    def text(self, key: str, default: str | None = None) -> str:
        value = self.data.get(key, default)
        if value is None:
            self.bad(self.data.pos, f"{key} is missing")
            return ""
        if not isinstance(value, str) or not value.strip():
            self.bad(self.at(key), f"{key} must be a text, not {value!r}")
            return ""
        return value.strip()

    def choice(self, key: str, options: tuple[str, ...]) -> str:
        value = self.text(key, options[0])
        if value and value not in options:
            self.bad(self.at(key), f"{key} is {value!r}: write one of {', '.join(options)}")
        return value

    def number(self, key: str, default: float | None = None, low: float = 0.0) -> float:
        value = self.data.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int | float) or value <= low:
            self.bad(self.at(key), f"{key} must be a number above {low:g}, not {value!r}")
            return default or 1.0
        return float(value)

    def length(self, key: str, default: str | None = None) -> float:
        """A length, "0.125in" or "3mm" (a bare number is mm); 0 when it is missing."""
        value = self.data.get(key, default)
        m = _LENGTH.fullmatch(str(value).strip()) if isinstance(value, str | int | float) else None
        if value is None or isinstance(value, bool) or m is None:
            self.bad(self.at(key), f"{key} must be a length like 3mm or 0.125in, not {value!r}")
            return 0.0
        return round(float(m.group(1)) * (MM_PER_INCH if m.group(2) == "in" else 1.0), 4)

    def words(self, key: str) -> tuple[str, ...]:
        value = self.data.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            self.bad(self.at(key), f"{key} must be a list of texts")
            return ()
        return tuple(value)


def _profile(name: str, data: Any, path: str, report: Report) -> Profile:
    r = _Reader(data, Pos(path, 1, 1), report, f"profile {name}")
    dpi = r.number("dpi", 300.0, low=29.0)
    products: list[Product] = []
    listed = r.data.get("products")
    if not isinstance(listed, YMap) or not listed:
        r.bad(r.at("products"), "products must map each product's id to its sizes")
    else:
        for pid, spec in listed.items():
            product = _product(str(pid), spec, listed.value_pos(pid), dpi, report, name)
            if product is not None:
                products.append(product)
    assumed = r.words("assumed")
    known = {"name", "url", "dpi", "safe", "cut_tolerance", "nearest", "files", "products"}
    known |= {"assumed", "notes"}
    for key in r.data:
        if key not in known:
            r.bad(r.data.key_pos(key), f"unknown key {key!r} (known: {', '.join(sorted(known))})")
    for key in assumed:
        if key not in known:
            r.bad(r.at("assumed"), f"assumed names {key!r}, which is no key of a profile")
    return Profile(
        id=name,
        name=r.text("name", name),
        url=r.text("url", "-"),
        dpi=dpi,
        safe=r.length("safe"),
        tolerance=r.length("cut_tolerance", "0mm"),
        nearest=r.number("nearest", 1.0, low=-1e-9),
        files=_files(r.data.get("files"), r.at("files"), report, name),
        products=tuple(products),
        assumed=assumed,
        notes=r.words("notes"),
        path=path,
    )


def _files(data: Any, pos: Pos, report: Report, name: str) -> Files:
    r = _Reader(data if data is not None else YMap(pos), pos, report, f"profile {name}, files")
    made = Files(
        images=r.choice("images", IMAGES),
        pdf=r.choice("pdf", PDFS),
        copies=r.choice("copies", COPIES),
        folder=r.text("folder", Files.folder),
        front=r.text("front", Files.front),
        back=r.text("back", Files.back),
        shared_back=r.text("shared_back", Files.shared_back),
        pdf_name=r.text("pdf_name", Files.pdf_name),
    )
    for key in ("folder", "front", "back", "shared_back", "pdf_name"):
        if key == "folder" and made.folder == ".":
            continue  # the export's folder itself
        problem = template_problem(getattr(made, key))
        if problem:
            r.bad(r.at(key), f"{key}: {problem}")
    if made.images == "none" and made.pdf == "none":
        r.bad(pos, "the profile writes neither images nor a PDF: set images or pdf")
    return made


def _product(
    pid: str, spec: Any, pos: Pos, dpi: float, report: Report, name: str
) -> Product | None:
    r = _Reader(spec, pos, report, f"profile {name}, product {pid}")
    if not r.ok:
        return None
    if not _ID.fullmatch(pid):
        r.bad(pos, "a product id is lower-case letters, digits, - and _")
    kind = r.choice("kind", KINDS)
    shape = r.choice("shape", SHAPES.get(kind, ("rect",)))
    trim = _trim(r, kind, shape)
    image = r.data.get("image")
    if not (
        isinstance(image, YSeq)
        and len(image) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) and 10 <= v <= 20000 for v in image)
    ):
        r.bad(r.at("image"), f"image must be [width, height] in pixels at {dpi:g} dpi")
        return None
    if trim is None:
        return None
    name_ = r.text("name", pid)
    made = Product(
        pid, name_, kind, shape, trim, (image[0], image[1]), dpi, r.words("assumed"), pos
    )
    bx, by = made.bleed
    if min(bx, by) < -0.05:
        r.bad(
            r.at("image"), f"the image is smaller than the trim {trim}: give the image with bleed"
        )
    return made


def _trim(r: _Reader, kind: str, shape: str) -> Size | None:
    """The trim: "2.5x3.5in" or "63x88mm"; for a token, its diameter (side, corners across)."""
    value = r.data.get("trim")
    text = str(value).strip() if isinstance(value, str | int | float) else ""
    both, one = _SIZE.fullmatch(text), _LENGTH.fullmatch(text)
    if both:
        per = MM_PER_INCH if both.group(3) == "in" else 1.0
        size = Size(round(float(both.group(1)) * per, 4), round(float(both.group(2)) * per, 4))
    elif one and kind == "token":
        d = round(float(one.group(1)) * (MM_PER_INCH if one.group(2) == "in" else 1.0), 4)
        size = Size(d, round(d * 3**0.5 / 2, 4)) if shape == "hex" else Size(d, d)
    else:
        r.bad(r.at("trim"), "trim must be a size like 2.5x3.5in or 63x88mm (a token: 1in)")
        return None
    return size.portrait() if kind == "card" else size


def template_problem(template: str) -> str:
    """What is wrong with a file-name template ("" when nothing): only {field} and
    {field:03} of :data:`FIELDS`, and no name that leaves the export's folder."""
    try:
        parts = list(string.Formatter().parse(template))
    except ValueError as exc:
        return f"{template!r} is not a name template ({exc})"
    for _text, fname, spec, conv in parts:
        if fname is None:
            continue
        if fname not in FIELDS or conv or (spec and not re.fullmatch(r"0?\d{0,2}d?", spec)):
            return f"{{{fname}}} in {template!r}: use {', '.join('{' + f + '}' for f in FIELDS)}"
    sample = fill(template, game="g", lang="en", component="c", product="p", n=1, card="x")
    if sample is None:
        return f"{template!r} leads outside the export's folder"
    return ""


def fill(template: str, **values: Any) -> str | None:
    """A file name from a checked template; None when it would leave the folder."""
    values = {"side": "front", "copy": 1, **values}
    try:
        name = template.format(**values)
    except (KeyError, ValueError, IndexError):
        return None
    parts = name.split("/")
    if not name or "\\" in name or any(p in ("", ".", "..") for p in parts):
        return None
    return name


# --- what prints each component ---------------------------------------------------------------
Owner = Deck | TokenSet | Board


@dataclass(frozen=True)
class Match:
    """A deck, token set or board and the product that prints it (None: none does)."""

    owner: Owner
    kind: str
    size: Size  # the pack's size
    product: Product | None
    turned: bool = False  # a landscape card: the product's trim and image turned
    candidates: tuple[Product, ...] = field(default=(), compare=False)  # what it could print

    @property
    def trim(self) -> Size:
        """The size the faces are laid out at: the product's trim, as the pack holds it."""
        assert self.product is not None
        t = self.product.trim
        return Size(t.h, t.w) if self.turned else t

    @property
    def image(self) -> tuple[int, int]:
        assert self.product is not None
        w, h = self.product.image
        return (h, w) if self.turned else (w, h)

    @property
    def bleed(self) -> tuple[float, float]:
        assert self.product is not None
        bx, by = self.product.bleed
        return (by, bx) if self.turned else (bx, by)


def match(profile: Profile, game: Game) -> list[Match]:
    """The product of each deck (with cards in the box), token set and board of ``game``."""
    found: list[Match] = []
    for deck in game.decks.values():
        if any(c.copies for c in deck.cards):
            found.append(_nearest(profile, deck, "card", "rect", item_size(game, deck)))
    for ts in game.tokens.values():
        if any(c.copies for c in ts.cards):
            found.append(_nearest(profile, ts, "token", ts.shape, item_size(game, ts)))
    for board in game.boards.values():
        found.append(_nearest(profile, board, "board", "rect", board.size))
    return found


def _nearest(profile: Profile, owner: Owner, kind: str, shape: str, size: Size) -> Match:
    """The product nearest ``size`` within ``profile.nearest`` mm on each side (a landscape
    card turned to match a portrait product)."""
    candidates = tuple(profile.of_kind(kind, shape))
    best: tuple[float, Product, bool] | None = None
    for product in candidates:
        for turned in (False, True):
            t = Size(product.trim.h, product.trim.w) if turned else product.trim
            off = max(abs(t.w - size.w), abs(t.h - size.h))
            if off <= profile.nearest + 1e-6 and (best is None or off < best[0] - 1e-9):
                best = (off, product, turned)
    if best is None:
        return Match(owner, kind, size, None, candidates=candidates)
    return Match(owner, kind, size, best[1], best[2], candidates)
