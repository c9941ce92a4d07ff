"""Measuring printed sheets from the PDF alone, as a printer or a ruler would.

Used by tests/test_print_truth.py. Nothing here imports pnp: what is measured is what the PDF
draws, not what pnp meant to draw. Lengths are millimetres with the origin at the top-left
corner of the page (as in pnp's page plan); line widths are points.

- :func:`margin_intrusions` rasterises each page (pypdfium2) and finds ink in the band along
  the paper edge that a home printer cannot print.
- :func:`scan_pdf` reads each page's content stream (a small interpreter over pypdf's raw
  streams: graphics state, paths, Form XObjects) into :class:`PageScan`: the straight stroked
  segments (with width, colour, dash) and where faces are placed (a Form XObject drawn at a
  translation, or a face drawn in place after ``q <translation> cm q``, which is how faces are
  put on a sheet).
- :func:`scale_bars`, :func:`crop_marks`, :func:`cut_lines`, :func:`marked_ends`,
  :func:`fold_line` and :func:`unmirrored_backs` measure on those.
- :func:`squash` and :func:`sentence_pattern` compare printed sentences with their templates,
  tolerant of line breaks and hyphenation, strict about the words.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PT_PER_MM = 72 / 25.4
TOL = 0.01  # mm: how far apart two positions may be and still be "the same"

Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def mm(points: float) -> float:
    return points / PT_PER_MM


# --- shapes ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Box:
    """A rectangle in mm, origin at the top-left corner of the page."""

    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def bottom(self) -> float:
        return self.y + self.h

    def grow(self, d: float) -> Box:
        return Box(self.x - d, self.y - d, self.w + 2 * d, self.h + 2 * d)

    def __str__(self) -> str:
        return f"({self.x:.2f}, {self.y:.2f}) {self.w:.2f} x {self.h:.2f} mm"


def extent(boxes: Iterable[Box]) -> Box:
    """The smallest box holding all ``boxes``."""
    bs = list(boxes)
    x0, y0 = min(b.x for b in bs), min(b.y for b in bs)
    return Box(x0, y0, max(b.right for b in bs) - x0, max(b.bottom for b in bs) - y0)


@dataclass(frozen=True)
class Stroke:
    """One straight stroked segment (mm, top-left origin)."""

    x1: float
    y1: float
    x2: float
    y2: float
    width: float  # pt, as painted (scaled by the transformation)
    color: tuple[float, ...]  # stroke colour as set (gray, rgb or cmyk components)
    dashed: bool = False
    in_rect: bool = False  # an edge of a rectangle (``re``), not a drawn line
    in_form: bool = False  # drawn by a Form XObject (a face, a board), not by the page itself

    @property
    def length(self) -> float:
        return math.hypot(self.x2 - self.x1, self.y2 - self.y1)

    @property
    def vertical(self) -> bool:
        return abs(self.x2 - self.x1) <= 1e-3

    @property
    def horizontal(self) -> bool:
        return abs(self.y2 - self.y1) <= 1e-3

    @property
    def top(self) -> float:
        return min(self.y1, self.y2)

    @property
    def bottom(self) -> float:
        return max(self.y1, self.y2)

    @property
    def left(self) -> float:
        return min(self.x1, self.x2)

    @property
    def right(self) -> float:
        return max(self.x1, self.x2)

    def crosses(self, box: Box, eps: float = 1e-3) -> bool:
        """Whether any part of the segment lies inside ``box`` (its edges excluded)."""
        return (
            self.right > box.x + eps
            and self.left < box.right - eps
            and self.bottom > box.y + eps
            and self.top < box.bottom - eps
        )

    def __str__(self) -> str:
        return f"({self.x1:.2f}, {self.y1:.2f})-({self.x2:.2f}, {self.y2:.2f}) mm"


def is_black(color: Sequence[float]) -> bool:
    """Black ink: gray 0, rgb 0 0 0, or cmyk with full black."""
    if len(color) == 4:
        return color[3] >= 0.95
    return bool(color) and max(color) <= 0.05


@dataclass(frozen=True)
class Placement:
    """Where a face is put on the page: the transformation (PDF points) that maps the face's
    own space, origin at its bottom-left corner, onto the page (a translation, maybe turned by
    a multiple of 90 degrees); for a Form XObject, the face size and bleed its /BBox gives."""

    ctm: Matrix
    form: str | None = None
    form_size: tuple[float, float] | None = None  # mm (w, h) of the trim, from /BBox
    form_bleed: float = 0.0  # mm

    @property
    def turned(self) -> bool:
        """Turned by 90 or 270 degrees: the face's width runs down the page."""
        return abs(self.ctm[0]) < 0.5

    def box(self, page_h: float, w: float, h: float) -> Box:
        """The face's trim box on the page (mm, top-left origin), for a face whose box on the
        page is ``w`` x ``h`` mm (``h`` x ``w`` in its own space when turned)."""
        fw, fh = (h, w) if self.turned else (w, h)
        pts = [apply(self.ctm, x, y) for x in (0.0, fw * PT_PER_MM) for y in (0.0, fh * PT_PER_MM)]
        x0, x1 = min(p[0] for p in pts), max(p[0] for p in pts)
        y0, y1 = min(p[1] for p in pts), max(p[1] for p in pts)
        return Box(mm(x0), page_h - mm(y1), mm(x1 - x0), mm(y1 - y0))


@dataclass
class PageScan:
    number: int  # 1-based
    width: float  # mm
    height: float  # mm
    trim: Box | None  # /TrimBox, when the page has one
    bleed_box: Box | None
    strokes: list[Stroke] = field(default_factory=list)
    placements: list[Placement] = field(default_factory=list)

    @property
    def bleed(self) -> float:
        """How much the bleed box exceeds the trim box (0 when either is missing)."""
        if self.trim is None or self.bleed_box is None:
            return 0.0
        return max(0.0, round(self.trim.x - self.bleed_box.x, 4))

    def faces(self, w: float, h: float) -> list[Box]:
        """The trim boxes of the faces placed on the page, all of ``w`` x ``h`` mm."""
        return [p.box(self.height, w, h) for p in self.placements]


# --- the content stream interpreter ------------------------------------------------------------

_TOKEN = re.compile(
    rb"""[\s\x00]*(?:
      (?P<comment>%[^\r\n]*)
    | (?P<string>\((?:[^\\()]|\\.)*\))
    | (?P<open>\()
    | (?P<dict><<|>>)
    | (?P<hex><[0-9A-Fa-f\s]*>)
    | (?P<array>[\[\]])
    | (?P<name>/[^\s/\[\]()<>{}%]*)
    | (?P<number>[+-]?(?:\d+\.?\d*|\.\d+))
    | (?P<op>[A-Za-z'"][A-Za-z0-9*'"]*)
    | (?P<brace>[{}])
    )""",
    re.X | re.S,
)
_STRING = object()  # a string operand: its value is never needed
_INLINE_END = re.compile(rb"\sEI(?=[\s\x00]|$)")


def _skip_string(data: bytes, pos: int) -> int:
    """The position after a literal string with nested parentheses starting at ``pos``."""
    depth = 1
    n = len(data)
    while depth and pos < n:
        c = data[pos]
        if c == 0x5C:  # backslash
            pos += 2
            continue
        if c == 0x28:
            depth += 1
        elif c == 0x29:
            depth -= 1
        pos += 1
    return pos


def tokens(data: bytes) -> Iterator[tuple[str, list[Any]]]:
    """(operator, operands) for every operator of a content stream; strings are left out."""
    operands: list[Any] = []
    arrays: list[list[Any]] = []
    pos, n = 0, len(data)
    while pos < n:
        m = _TOKEN.match(data, pos)
        if m is None or m.end() == pos:
            if data[pos:].strip(b" \t\r\n\x00\x0c") == b"":
                return
            pos += 1  # an unknown byte: step over it
            continue
        pos = m.end()
        kind = m.lastgroup
        if kind == "number":
            value: Any = float(m.group(kind))
        elif kind == "op":
            op = m.group(kind).decode("latin-1")
            if op in ("true", "false", "null"):
                value = op
            elif op == "BI":  # inline image: its data may hold any byte
                end = _INLINE_END.search(data, pos)
                pos = end.end() if end else n
                operands = []
                continue
            else:
                yield op, operands
                operands = []
                continue
        elif kind == "string" or kind == "hex":
            value = _STRING
        elif kind == "open":
            pos = _skip_string(data, pos)
            value = _STRING
        elif kind == "name":
            value = m.group(kind).decode("latin-1")
        elif kind == "array":
            if m.group(kind) == b"[":
                arrays.append(operands)
                operands = []
            else:
                inner, operands = operands, arrays.pop() if arrays else []
                operands.append(inner)
            continue
        else:  # comments, dictionaries of marked content, braces
            continue
        operands.append(value)


def multiply(m: Matrix, n: Matrix) -> Matrix:
    """``m`` then ``n`` (PDF order: a point is transformed by m, then by n)."""
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (
        a * a2 + b * c2,
        a * b2 + b * d2,
        c * a2 + d * c2,
        c * b2 + d * d2,
        e * a2 + f * c2 + e2,
        e * b2 + f * d2 + f2,
    )


def apply(m: Matrix, x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f = m
    return a * x + c * y + e, b * x + d * y + f


def _is_rigid(m: Matrix) -> bool:
    """A translation, maybe turned by a multiple of 90 degrees or mirrored (no scaling)."""
    a, b, c, d = (abs(v) for v in m[:4])
    straight = b < 1e-9 and c < 1e-9 and abs(a - 1) < 1e-6 and abs(d - 1) < 1e-6
    turned = a < 1e-9 and d < 1e-9 and abs(b - 1) < 1e-6 and abs(c - 1) < 1e-6
    return straight or turned


@dataclass
class _State:
    ctm: Matrix = IDENTITY
    width: float = 1.0
    color: tuple[float, ...] = (0.0,)
    dashed: bool = False

    def copy(self) -> _State:
        return _State(self.ctm, self.width, self.color, self.dashed)


@dataclass
class _RawStroke:
    """A stroke in user space of a content stream (pt, bottom-left origin), before the page."""

    x1: float
    y1: float
    x2: float
    y2: float
    width: float
    color: tuple[float, ...]
    dashed: bool
    in_rect: bool
    in_form: bool = False

    def moved(self, m: Matrix) -> _RawStroke:
        """The stroke placed by a form drawn with the transformation ``m``."""
        x1, y1 = apply(m, self.x1, self.y1)
        x2, y2 = apply(m, self.x2, self.y2)
        scale = math.sqrt(abs(m[0] * m[3] - m[1] * m[2]))
        w = self.width * scale
        return _RawStroke(x1, y1, x2, y2, w, self.color, self.dashed, self.in_rect, True)


_STROKING = {"S", "s", "B", "B*", "b", "b*"}
_PAINTING = _STROKING | {"f", "F", "f*", "n"}
_COLOR_OPS = {"G": 1, "RG": 3, "K": 4}


class _Reader:
    """Interprets content streams; Form XObjects are read once each and reused."""

    def __init__(self) -> None:
        self._forms: dict[int, list[_RawStroke]] = {}

    def form_strokes(self, ref: Any, xobj: Any, inherited: Any) -> list[_RawStroke]:
        """Every straight stroke a Form XObject draws, in the space it is placed in
        (``inherited``: the resources of the stream placing it, for a form without its own)."""
        key = getattr(ref, "idnum", None) or id(xobj)
        if key not in self._forms:
            self._forms[key] = []  # a form that draws itself draws nothing more
            matrix = tuple(float(v) for v in xobj.get("/Matrix", IDENTITY))
            res = xobj.get("/Resources")
            strokes: list[_RawStroke] = []
            own = res.get_object() if res is not None else inherited
            self.run(xobj.get_data(), own, strokes, None)
            self._forms[key] = [s.moved(matrix) for s in strokes]  # type: ignore[arg-type]
        return self._forms[key]

    def run(
        self,
        data: bytes,
        resources: Any,
        strokes: list[_RawStroke],
        placements: list[Placement] | None,
    ) -> None:
        """Interpret one content stream: strokes (in the stream's user space) into
        ``strokes``; faces placed at its top level into ``placements`` (None: not looked
        for)."""
        xobjects = resources.get("/XObject") if resources is not None else None
        xobjects = xobjects.get_object() if xobjects is not None else {}
        state = _State()
        stack: list[_State] = []
        path: list[tuple[float, float, float, float, bool]] = []  # segments, device space
        start = current = (0.0, 0.0)
        since_top_q: list[str] | None = None  # operators since a q made at the top level
        for op, args in tokens(data):
            if op == "q":
                if placements is not None and _placing(since_top_q) and _is_rigid(state.ctm):
                    placements.append(Placement(state.ctm))  # a face drawn in place
                since_top_q = [] if not stack else None
                stack.append(state.copy())
                continue
            elif op == "Q":
                if stack:
                    state = stack.pop()
            elif op == "cm" and len(args) == 6:
                state.ctm = multiply(tuple(args), state.ctm)  # type: ignore[arg-type]
            elif op == "w" and args:
                state.width = args[0]
            elif _sets_stroke_color(op, args):
                state.color = tuple(args)
            elif op == "d" and args:
                state.dashed = isinstance(args[0], list) and len(args[0]) > 0
            elif op == "m" and len(args) == 2:
                start = current = apply(state.ctm, args[0], args[1])
            elif op == "l" and len(args) == 2:
                p = apply(state.ctm, args[0], args[1])
                path.append((*current, *p, False))
                current = p
            elif op in ("c", "v", "y") and len(args) >= 4:
                current = apply(state.ctm, args[-2], args[-1])  # curves are not lines
            elif op == "h":
                if current != start:
                    path.append((*current, *start, False))
                current = start
            elif op == "re" and len(args) == 4:
                x, y, w, h = args
                corners = [(x, y), (x + w, y), (x + w, y + h), (x, y + h), (x, y)]
                pts = [apply(state.ctm, cx, cy) for cx, cy in corners]
                for (ax, ay), (bx, by) in itertools.pairwise(pts):
                    path.append((ax, ay, bx, by, True))
                start = current = pts[0]
            elif op in _PAINTING:
                if op in _STROKING:
                    scale = math.sqrt(
                        abs(state.ctm[0] * state.ctm[3] - state.ctm[1] * state.ctm[2])
                    )
                    for x1, y1, x2, y2, in_rect in path:
                        strokes.append(
                            _RawStroke(
                                x1,
                                y1,
                                x2,
                                y2,
                                state.width * scale,
                                state.color,
                                state.dashed,
                                in_rect,
                            )
                        )
                path = []
            elif op == "Do" and args:
                ref = xobjects.raw_get(args[0]) if args[0] in xobjects else None
                xobj = ref.get_object() if ref is not None else None
                if xobj is not None and xobj.get("/Subtype") == "/Form":
                    strokes.extend(
                        s.moved(state.ctm) for s in self.form_strokes(ref, xobj, resources)
                    )
                    if placements is not None and _placing(since_top_q) and _is_rigid(state.ctm):
                        placements.append(_form_placement(xobj, state.ctm, args[0]))
            if since_top_q is not None:
                since_top_q.append(op)


def _sets_stroke_color(op: str, args: list[Any]) -> bool:
    if op in _COLOR_OPS:
        return len(args) == _COLOR_OPS[op]
    return op in ("SC", "SCN") and bool(args) and all(isinstance(a, float) for a in args)


def _placing(since_top_q: list[str] | None) -> bool:
    """Whether the operators since a top-level q place a face: only transformations."""
    return bool(since_top_q) and all(op == "cm" for op in since_top_q or ())


def _form_placement(xobj: Any, ctm: Matrix, name: str) -> Placement:
    x0, y0, x1, y1 = (float(v) for v in xobj["/BBox"])
    bleed = mm(-x0) if x0 < 0 else 0.0
    size = (mm(x1 + x0), mm(y1 + y0))  # /BBox is the trim grown by the bleed on every side
    return Placement(ctm, name, size, round(bleed, 4))


def _box(rect: Any, page_h_pt: float) -> Box:
    x0, y0, x1, y1 = (float(v) for v in rect)
    x0, x1 = min(x0, x1), max(x0, x1)
    y0, y1 = min(y0, y1), max(y0, y1)
    return Box(mm(x0), mm(page_h_pt - y1), mm(x1 - x0), mm(y1 - y0))


def scan_pdf(path: Path) -> list[PageScan]:
    """What every page of a PDF draws: its straight strokes and where its faces are."""
    from pypdf import PdfReader

    reader = PdfReader(path)
    interp = _Reader()
    scans: list[PageScan] = []
    for number, page in enumerate(reader.pages, 1):
        media = [float(v) for v in page.mediabox]
        w_pt, h_pt = media[2] - media[0], media[3] - media[1]
        trim = _box(page["/TrimBox"], h_pt) if "/TrimBox" in page else None
        bleed = _box(page["/BleedBox"], h_pt) if "/BleedBox" in page else None
        scan = PageScan(number, mm(w_pt), mm(h_pt), trim, bleed)
        contents = page.get_contents()
        if contents is not None:
            raw: list[_RawStroke] = []
            res = page.get("/Resources")
            interp.run(
                contents.get_data(),
                res.get_object() if res is not None else None,
                raw,
                scan.placements,
            )
            scan.strokes = [
                Stroke(
                    mm(s.x1),
                    mm(h_pt - s.y1),
                    mm(s.x2),
                    mm(h_pt - s.y2),
                    s.width,
                    s.color,
                    s.dashed,
                    s.in_rect,
                    s.in_form,
                )
                for s in raw
            ]
        scans.append(scan)
    return scans


# --- the printable margin ----------------------------------------------------------------------


@dataclass(frozen=True)
class Intrusion:
    """Ink within the margin along one edge of a page."""

    page: int  # 1-based
    edge: str  # left, right, top, bottom
    distance: float  # mm from that edge to the nearest inked pixel (its near side)
    start: float  # mm along the edge (from the top or the left) where the ink begins
    end: float  # ... and ends
    darkest: int  # 0 black ... 254 the faintest grey

    def __str__(self) -> str:
        along = "from the top" if self.edge in ("left", "right") else "from the left"
        return (
            f"page {self.page}: ink at {self.distance:.2f} mm from the {self.edge} edge "
            f"({self.start:.1f}-{self.end:.1f} mm {along}, darkest {self.darkest}/255)"
        )


def margin_intrusions(path: Path, margin: float = 5.0, dpi: float = 100.0) -> list[Intrusion]:
    """Every page edge with ink closer to the paper edge than ``margin`` mm.

    The page is rasterised in grayscale at about ``dpi`` (pdfium stretches the page over a
    whole number of pixels: each axis has its own pixel size); the band checked along each
    edge ends one pixel short of ``margin`` (anti-aliasing of a line ending exactly on the
    margin may grey the pixel it ends in) and must be pure white (255)."""
    import pypdfium2 as pdfium

    found: list[Intrusion] = []
    pdf = pdfium.PdfDocument(str(path))
    try:
        for i in range(len(pdf)):
            page = pdf[i]
            w_pt, h_pt = page.get_size()
            img = page.render(scale=dpi / 72, grayscale=True, draw_annots=False).to_pil()
            page.close()
            found.extend(_band_intrusions(img.convert("L"), i + 1, mm(w_pt), mm(h_pt), margin))
    finally:
        pdf.close()
    return found


def _band_intrusions(img: Any, number: int, w: float, h: float, margin: float) -> list[Intrusion]:
    """Intrusions in one page of ``w`` x ``h`` mm rendered as the grayscale image ``img``."""
    W, H = img.size
    px_x, px_y = w / W, h / H  # mm per pixel across and down
    bx = math.floor(margin / px_x - 1)  # whole pixels lying within margin - 1 px of the edge
    by = math.floor(margin / px_y - 1)
    out = []
    # edge, the band's crop box, pixel index -> distance of its near side from the edge (mm)
    bands: list[tuple[str, tuple[int, int, int, int], Callable[[int], float]]] = [
        ("left", (0, 0, bx, H), lambda j: j * px_x),
        ("right", (W - bx, 0, W, H), lambda j: (W - 1 - j) * px_x),
        ("top", (0, 0, W, by), lambda j: j * px_y),
        ("bottom", (0, H - by, W, H), lambda j: (H - 1 - j) * px_y),
    ]
    for edge, box, distance in bands:
        if box[2] <= box[0] or box[3] <= box[1]:
            continue
        darkest = img.crop(box).getextrema()[0]
        if darkest >= 255:
            continue
        across_edge = edge in ("left", "right")  # pixel columns, else rows

        def strip(j: int, box: tuple[int, int, int, int] = box, across: bool = across_edge) -> Any:
            return img.crop((j, box[1], j + 1, box[3]) if across else (box[0], j, box[2], j + 1))

        lines = range(box[0], box[2]) if across_edge else range(box[1], box[3])
        nearest = min((j for j in lines if strip(j).getextrema()[0] < 255), key=distance)
        inked = [k for k, v in enumerate(strip(nearest).tobytes()) if v < 255]
        along0, along_px = (box[1], px_y) if across_edge else (box[0], px_x)
        out.append(
            Intrusion(
                number,
                edge,
                round(distance(nearest), 2),
                (along0 + inked[0]) * along_px,
                (along0 + inked[-1] + 1) * along_px,
                int(darkest),
            )
        )
    return out


# --- scale bar, crop marks, fold, mirrored backs -------------------------------------------------


def scale_bars(
    strokes: Iterable[Stroke],
    faces: Sequence[Box] = (),
    length: float = 50.0,
    tol: float = TOL,
) -> list[Stroke]:
    """Straight lines of ``length`` mm (within ``tol``) stroked by the page itself (not by a
    face or a board, which are Form XObjects or drawn within their box), outside every face."""
    return [
        s
        for s in strokes
        if not s.in_rect
        and not s.in_form
        and abs(s.length - length) <= tol
        and not any(s.crosses(f) for f in faces)
    ]


def nearest_lengths(strokes: Iterable[Stroke], length: float = 50.0, n: int = 3) -> list[float]:
    """The lengths of the ``n`` stroked lines closest to ``length``, for messages."""
    lengths = sorted({round(s.length, 3) for s in strokes if not s.in_rect and not s.in_form})
    return sorted(lengths, key=lambda v: abs(v - length))[:n]


def crop_marks(
    strokes: Iterable[Stroke], faces: Sequence[Box], bleed: float, width_pt: float
) -> list[Stroke]:
    """The lines that can be crop marks: black, ``width_pt`` wide, solid, horizontal or
    vertical, and outside every face and its bleed."""
    grown = [f.grow(bleed) for f in faces]
    return [
        s
        for s in strokes
        if is_black(s.color)
        and abs(s.width - width_pt) <= 0.02
        and not s.dashed
        and not s.in_rect
        and (s.vertical or s.horizontal)
        and s.length > 0
        and not any(s.crosses(g) for g in grown)
    ]


def fold_line(strokes: Iterable[Stroke], page_w: float, page_h: float) -> Stroke | None:
    """The gutter-fold line: the longest dashed straight line running across most of the
    page, horizontally or vertically."""
    candidates = [
        s
        for s in strokes
        if s.dashed
        and (
            (s.vertical and s.length >= 0.5 * page_h) or (s.horizontal and s.length >= 0.5 * page_w)
        )
    ]
    return max(candidates, key=lambda s: s.length, default=None)


@dataclass(frozen=True)
class CutLine:
    """A cut line of some faces: vertical at x = ``at`` from ``start`` to ``end`` (y), or
    horizontal at y = ``at`` from ``start`` to ``end`` (x); mm."""

    axis: str  # "x" or "y"
    at: float
    start: float
    end: float

    def __str__(self) -> str:
        kind = "vertical" if self.axis == "x" else "horizontal"
        other = "y" if self.axis == "x" else "x"
        return (
            f"the {kind} cut line {self.axis}={self.at:.2f} mm "
            f"({other} {self.start:.2f}-{self.end:.2f})"
        )


def cut_lines(faces: Sequence[Box], join: float) -> list[CutLine]:
    """The cut lines of ``faces``: each edge of each face, edges on one line merged while the
    faces they bound are at most ``join`` mm apart (neighbours in a grid), so that two bands
    of faces on one sheet have lines of their own."""
    found: list[CutLine] = []
    for axis in ("x", "y"):
        spans: dict[float, list[tuple[float, float]]] = {}
        for f in faces:
            edges = (f.x, f.right) if axis == "x" else (f.y, f.bottom)
            span = (f.y, f.bottom) if axis == "x" else (f.x, f.right)
            for e in edges:
                key = next((k for k in spans if abs(k - e) <= TOL), e)
                spans.setdefault(key, []).append(span)
        for at, parts in spans.items():
            parts.sort()
            lo, hi = parts[0]
            for a, b in parts[1:]:
                if a - hi <= join + TOL:
                    hi = max(hi, b)
                else:
                    found.append(CutLine(axis, at, lo, hi))
                    lo, hi = a, b
            found.append(CutLine(axis, at, lo, hi))
    return found


def marks_of(line: CutLine, marks: Iterable[Stroke], bleed: float, min_len: float) -> int:
    """How many ends of ``line`` a mark at least ``min_len`` long continues, beyond the bleed
    and starting at most 3 mm past it (a crop mark, not a line of something else)."""
    return len(marked_ends(line, marks, bleed, min_len))


def marked_ends(line: CutLine, marks: Iterable[Stroke], bleed: float, min_len: float) -> set[str]:
    """Which ends of ``line`` ("start": top or left, "end": bottom or right) a crop mark
    continues (see :func:`marks_of`)."""
    found = set()
    marks = list(marks)
    for side in ("start", "end"):
        edge = line.start - bleed if side == "start" else line.end + bleed
        for m in marks:
            if m.length < min_len - 1e-6:
                continue
            if line.axis == "x" and m.vertical and abs(m.x1 - line.at) <= TOL:
                near, far = (m.bottom, m.top) if side == "start" else (m.top, m.bottom)
            elif line.axis == "y" and m.horizontal and abs(m.y1 - line.at) <= TOL:
                near, far = (m.right, m.left) if side == "start" else (m.left, m.right)
            else:
                continue
            beyond = far < edge if side == "start" else far > edge
            if beyond and abs(near - edge) <= 3.0 + TOL:
                found.add(side)
                break
    return found


def room_at(
    line: CutLine, side: str, bleed: float, page_w: float, page_h: float, margin: float
) -> float:
    """How long a mark at that end of ``line`` could be before the printable margin: from
    1.5 mm past the bleed to ``margin`` mm from the paper edge."""
    if side == "start":
        return line.start - bleed - 1.5 - margin
    return (page_h if line.axis == "x" else page_w) - margin - (line.end + bleed + 1.5)


def unmirrored_backs(
    pairs: Sequence[tuple[int, Box, Box]], page_w: float, tol: float = TOL
) -> list[str]:
    """For (slot, front, back) triples, the backs that are not the left-right mirror image of
    their own front (x' = page width - x - w, same y and size), as messages."""
    problems = []
    for slot, f, b in pairs:
        want = Box(page_w - f.right, f.y, f.w, f.h)
        if max(abs(b.x - want.x), abs(b.y - want.y), abs(b.w - want.w), abs(b.h - want.h)) > tol:
            problems.append(
                f"slot {slot}: back at x={b.x:.2f}, y={b.y:.2f} mm, the mirror image of its "
                f"front (x={f.x:.2f}, y={f.y:.2f}) is at x={want.x:.2f}, y={want.y:.2f} mm"
            )
    return problems


# --- printed sentences ------------------------------------------------------------------------

_HYPHENS = "-\u00ad\u2010\u2011"  # hyphen-minus, soft hyphen, hyphen, non-breaking hyphen
_WORD_HYPHEN = re.compile(f"[{_HYPHENS}](?=[^\\W\\d_])")


def squash(text: str) -> str:
    """Text with its spaces and line breaks removed, and the hyphens before a letter (word
    breaks and compound words alike): how the same words compare across any line breaking."""
    return _WORD_HYPHEN.sub("", re.sub(r"\s+", "", text))


_FIELD = re.compile(r"\{(\w+)\}")


def sentence_pattern(template: str, values: dict[str, str | None]) -> re.Pattern[str]:
    """A pattern for ``template`` as printed (compare with :func:`squash`-ed text): its
    ``{fields}`` filled with ``values``; a field whose value is None matches any number."""
    parts = []
    pos = 0
    for m in _FIELD.finditer(template):
        parts.append(re.escape(squash(template[pos : m.start()])))
        value = values.get(m.group(1))
        parts.append(r"\d+" if value is None else re.escape(squash(value)))
        pos = m.end()
    parts.append(re.escape(squash(template[pos:])))
    return re.compile("".join(parts))


def sheet_text(path: Path, pages: Iterable[int]) -> str:
    """The text of the given pages (1-based), joined, as pdfplumber extracts it."""
    import pdfplumber

    with pdfplumber.open(path) as pdf:
        return "\n".join(pdf.pages[n - 1].extract_text() or "" for n in pages)
