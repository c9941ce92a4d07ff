"""Issue 16, "Done when": what a home printer and a player get, measured on the PDFs.

Every bundled game is built with the CLI, as a player would, on A4 and Letter in six modes
(duplex long, --duplex short, --duplex none, --fold, --bleed 3, --back-offset 1.5,-1), and its
PDF is measured (tests/pdfmeasure.py):

- nothing is drawn within the printable margin (5 mm) of the paper edge, on the rasterised page;
- a crop mark continues each end of every cut line of a card sheet (fronts, backs, fold);
- every sheet a player cuts or measures carries a 50 mm scale bar (to 0.01 mm);
- with --duplex none, each back is the left-right mirror image of its front, for gluing;
- the setup sheet's printing instructions say what this build needs, in every language.

What is measured comes from the PDF: positions of faces and marks from its content streams,
ink from its pixels, words from its text. pnp tells only what each page is for (its kind) and
the size of its faces, recorded from the page plan it renders. Geometry is checked in the
game's source language; the instructions in every language on A4. Each check collects every
failure of a PDF and reports them at once. The ``test_measure_*`` tests show on small PDFs
made here that each measurement finds what it should and rejects what it should.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from babel.numbers import format_decimal
from pdfmeasure import (
    PT_PER_MM,
    TOL,
    Box,
    PageScan,
    crop_marks,
    cut_lines,
    fold_line,
    margin_intrusions,
    marked_ends,
    marks_of,
    nearest_lengths,
    room_at,
    scale_bars,
    scan_pdf,
    sentence_pattern,
    sheet_text,
    squash,
    unmirrored_backs,
)
from reportlab.lib.colors import Color, HexColor, black, white
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen.canvas import Canvas

from helpers import REPO

GAMES = ["austerity", "fabg", "status", "which-side"]
PAPERS = ["a4", "letter"]
MARGIN = 5.0  # mm: the default printable margin
SCALE_BAR = 50.0  # mm
MIN_MARK = 3.0  # mm: the least of a crop mark worth calling one (visible, a ruler lies on it)
DPI = 100  # rasterising for the margin: 0.254 mm a pixel
INSTRUCTIONS_PAPER = "a4"  # the paper the instructions are read on, in every language
SHOWN = 20  # failures listed in a report

CARD_SHEETS = ("fronts", "backs", "fold")  # cut on crop marks (tokens have outlines)
MEASURED_SHEETS = ("fronts", "backs", "tokens", "token-backs", "fold", "board")  # scale bar
PAIRS = {"fronts": "backs", "tokens": "token-backs"}  # a page of fronts, then its backs


@dataclass(frozen=True)
class Mode:
    args: tuple[str, ...] = ()
    duplex: str = "long"
    fold: bool = False
    bleed: float = 0.0
    offset: tuple[float, float] = (0.0, 0.0)


MODES = {
    "duplex-long": Mode(),
    "duplex-short": Mode(("--duplex", "short"), duplex="short"),
    "duplex-none": Mode(("--duplex", "none"), duplex="none"),
    "fold": Mode(("--fold",), fold=True),
    "bleed-3": Mode(("--bleed", "3"), bleed=3.0),
    "back-offset": Mode(("--back-offset=1.5,-1",), offset=(1.5, -1.0)),
}

# The printing instructions (pnp/printing/render/instructions.py), English msgids
HOW = "Print at 100 % (actual size), never “fit to page”."
LONG = "Print pages {first}–{last} double-sided, flipping on the long edge."
SHORT = "Print pages {first}–{last} double-sided, flipping on the short edge."
NONE = (
    "Print single-sided. Each page of backs follows its page of fronts and is mirrored for "
    "gluing: turn it over from left to right, like the page of a book, lay it behind its fronts "
    "with the crop marks lined up, and glue."
)
FOLD = (
    "Print single-sided. Fold each sheet on the dashed line with the faces outwards, glue the "
    "two halves together, then cut."
)
BLEED = "Cards have {bleed} mm of bleed: cut on the crop marks, not on the edge of the colour."
OFFSET = "Backs are shifted by {x} mm across and {y} mm down to match your printer (--back-offset)."
OLD_ADVICE = (  # the advice every build printed before issue 16, whatever its options
    "How to print: at 100 % (actual size), never “fit to page”. Check the scale bar on any "
    "sheet measures 50 mm. Card sheets are followed by their backs: print double-sided, "
    "flipping on the long edge, or print single-sided and glue."
)


# --- building ----------------------------------------------------------------------------------


@dataclass
class Built:
    """One PDF of a build, and what pnp rendered on each of its pages."""

    game: str
    paper: str
    mode: str
    lang: str
    path: Path
    pages: list[Any]  # pnp's page plan as rendered (imposition Page objects)

    @functools.cached_property
    def scans(self) -> list[PageScan]:
        return scan_pdf(self.path)

    def where(self, number: int) -> str:
        return f"{self.game} {self.paper} {self.mode} page {number} ({self.pages[number - 1].kind})"

    def sheets(self) -> list[tuple[int, Any, PageScan]]:
        """(page number, plan page, measured page) for every page."""
        assert len(self.pages) == len(self.scans), (
            f"{self.path.name}: pnp rendered {len(self.pages)} pages, the PDF has {len(self.scans)}"
        )
        return [(n, p, s) for n, (p, s) in enumerate(zip(self.pages, self.scans, strict=True), 1)]


class Builds:
    """Builds made on demand and kept for the module: each (game, paper, mode) once."""

    def __init__(self, tmp: pytest.TempPathFactory) -> None:
        self.tmp = tmp
        self.done: dict[tuple[str, str, str], dict[str, Built] | BaseException] = {}

    def get(self, game: str, paper: str, mode: str) -> dict[str, Built]:
        """The PDFs of a build, by language: every language on INSTRUCTIONS_PAPER, the source
        language on the other papers. A build that failed fails every test using it."""
        key = (game, paper, mode)
        if key not in self.done:
            try:
                self.done[key] = self._build(game, paper, mode)
            except Exception as exc:  # the first test shows the traceback, the others say so
                self.done[key] = exc
                raise
        found = self.done[key]
        if isinstance(found, BaseException):
            pytest.fail(f"pnp build {game} --paper {paper} ({mode}) failed: {found}", False)
        return found

    def source(self, game: str, paper: str, mode: str) -> Built:
        return self.get(game, paper, mode)[source_language(game)]

    def _build(self, game: str, paper: str, mode: str) -> dict[str, Built]:
        from typer.testing import CliRunner

        from pnp.cli.commands import app
        from pnp.printing.render import Renderer

        out = self.tmp.mktemp(f"{game}-{paper}-{mode}")
        langs = [] if paper == INSTRUCTIONS_PAPER else ["--lang", source_language(game)]
        # -j 1: the render patch below sees this process only (auto jobs would fork for a
        # large game)
        args = ["build", game, "--root", str(REPO), "--out", str(out), "--force", "-j", "1"]
        args += ["--paper", paper, *langs, *MODES[mode].args]
        rendered: dict[str, list[Any]] = {}
        real = Renderer.render

        def render(renderer: Any, pages: Any, *rest: Any, **kw: Any) -> Any:
            rendered[renderer.lang] = list(pages)
            return real(renderer, pages, *rest, **kw)

        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(Renderer, "render", render)
            result = CliRunner().invoke(app, args, catch_exceptions=False)
        assert result.exit_code == 0, f"pnp {' '.join(args)} failed:\n{result.output}"
        built = {}
        for lang, pages in rendered.items():
            path = out / game / f"{game}-{lang}-{paper}.pdf"
            assert path.is_file(), f"pnp {' '.join(args)} wrote no {path.name}"
            built[lang] = Built(game, paper, mode, lang, path, pages)
        return built


@functools.cache
def source_language(game: str) -> str:
    from pnp.content.load import load_game, open_root
    from pnp.core.findings import Report

    loaded = load_game(open_root(REPO), game, Report())
    assert loaded is not None, game
    return loaded.source_language


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> Builds:
    return Builds(tmp_path_factory)


def fail_with(what: str, failures: list[str]) -> None:
    """One assertion for everything found: the count and the first SHOWN failures."""
    if failures:
        shown = "\n  ".join(failures[:SHOWN])
        more = f"\n  … and {len(failures) - SHOWN} more" if len(failures) > SHOWN else ""
        pytest.fail(f"{what}: {len(failures)} failure(s)\n  {shown}{more}", pytrace=False)


def slow_unless_fabg_a4(game: str, paper: str = INSTRUCTIONS_PAPER) -> Any:
    """The marks of a case: FABG on A4 (six builds) is in the fast loop, -m "not slow"; the
    other games and papers (42 builds) are slow, for the full run and CI."""
    return () if (game, paper) == ("fabg", "a4") else pytest.mark.slow


def geometry_cases() -> list[Any]:
    return [
        pytest.param(g, p, m, id=f"{g}-{p}-{m}", marks=slow_unless_fabg_a4(g, p))
        for g in GAMES
        for p in PAPERS
        for m in MODES
    ]


# --- faces on a page ---------------------------------------------------------------------------


@dataclass
class Faces:
    boxes: list[Box] = field(default_factory=list)
    bleed: float = 0.0
    problems: list[str] = field(default_factory=list)


def faces_of(page: Any, scan: PageScan, cards_only: bool = False) -> Faces:
    """The trim boxes of the faces drawn on a page, in drawing order: where the PDF places
    each face, at the size pnp planned for its slot (checked against the /BBox of faces
    drawn as forms). ``cards_only``: leave out tokens (cut on their outlines)."""
    drawn = [s for s in page.slots if s.item.face is not None]
    found = Faces(bleed=scan.bleed)
    if not drawn:
        return found
    if len(scan.placements) != len(drawn):
        found.problems.append(
            f"{len(scan.placements)} faces placed in the PDF, {len(drawn)} planned"
        )
        return found
    for slot, p in zip(drawn, scan.placements, strict=True):
        w, h = slot.rect.w, slot.rect.h
        if p.form_size is not None:
            fw, fh = (h, w) if p.turned else (w, h)
            if abs(p.form_size[0] - fw) > TOL or abs(p.form_size[1] - fh) > TOL:
                found.problems.append(
                    f"a face drawn {p.form_size[0]:.2f} x {p.form_size[1]:.2f} mm, "
                    f"planned {fw:.2f} x {fh:.2f} mm"
                )
                break
        found.bleed = max(found.bleed, p.form_bleed)
        if not (cards_only and _token(slot)):
            found.boxes.append(p.box(scan.height, w, h))
    return found


def _token(slot: Any) -> bool:
    from pnp.content.model import TokenSet

    return isinstance(slot.item.owner, TokenSet)


# --- 1. nothing within the margin --------------------------------------------------------------


@pytest.mark.parametrize(("game", "paper", "mode"), geometry_cases())
def test_nothing_drawn_within_the_margin(builds: Builds, game: str, paper: str, mode: str) -> None:
    built = builds.source(game, paper, mode)
    failures = [
        f"{built.where(i.page)}: dark pixels at {i.distance:.2f} mm from the {i.edge} edge "
        f"({i.start:.1f}-{i.end:.1f} mm along it, darkest {i.darkest}/255)"
        for i in margin_intrusions(built.path, MARGIN, DPI)
    ]
    raster = f"rasterised at {DPI} dpi: distances to the pixel, {25.4 / DPI:.2f} mm"
    fail_with(f"ink within {MARGIN:g} mm of the paper edge ({built.path.name}, {raster})", failures)


# --- 2. crop marks ----------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "paper", "mode"), geometry_cases())
def test_crop_mark_on_every_cut_line(builds: Builds, game: str, paper: str, mode: str) -> None:
    """Every cut line of the cards (tokens are cut on their outlines) has a crop mark at least
    MIN_MARK long: at both ends where the paper has room (checked on A4), at one end at least
    where it has not (Letter's three rows of poker cards; the fold side of a gutter fold).
    No shorter stub is drawn, and no mark for an empty slot (a line is only where a card
    is)."""
    from pnp.printing.render import MARK_WIDTH_PT

    built = builds.source(game, paper, mode)
    failures = []
    checked = 0
    join = 2 * MODES[mode].bleed + 0.5  # neighbours in a band; bands are further apart
    for n, page, scan in built.sheets():
        if page.kind not in CARD_SHEETS:
            continue
        faces = faces_of(page, scan, cards_only=True)
        failures += [f"{built.where(n)}: {p}" for p in faces.problems]
        if not faces.boxes:
            continue
        every = faces_of(page, scan).boxes
        marks = crop_marks(scan.strokes, every, faces.bleed, MARK_WIDTH_PT)
        stubs = [m for m in marks if m.length < MIN_MARK - TOL]  # TOL: the PDF's rounding
        failures += [f"{built.where(n)}: a crop mark {m.length:.2f} mm long at {m}" for m in stubs]
        for line in cut_lines(faces.boxes, join):
            ends = marked_ends(line, marks, faces.bleed, MIN_MARK - TOL)
            if not ends:
                failures.append(f"{built.where(n)}: {line} has no crop mark")
            if page.kind == "fold":
                continue  # one side of each half is the fold
            for side in {"start", "end"} - ends:  # the paper had room for it
                room = room_at(line, side, faces.bleed, scan.width, scan.height, MARGIN)
                if room >= MIN_MARK and paper == "a4":
                    failures.append(f"{built.where(n)}: {line}: no mark at its {side}")
        checked += 1
    assert checked or not any(p.kind in CARD_SHEETS for p in built.pages)
    fail_with(f"cut lines without crop marks ({built.path.name})", failures)


def _tokens(page: Any) -> bool:
    """A page of tokens (a gutter-fold sheet can hold tokens too)."""
    from pnp.content.model import TokenSet

    return any(isinstance(slot.item.owner, TokenSet) for slot in page.slots)


# --- 3. scale bar -------------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "paper", "mode"), geometry_cases())
def test_scale_bar_on_every_sheet(builds: Builds, game: str, paper: str, mode: str) -> None:
    built = builds.source(game, paper, mode)
    failures = []
    for n, page, scan in built.sheets():
        if page.kind not in MEASURED_SHEETS:
            continue
        faces = faces_of(page, scan)
        keep_off = [b.grow(faces.bleed) for b in faces.boxes]
        if not scale_bars(scan.strokes, keep_off, SCALE_BAR, TOL):
            outside = [s for s in scan.strokes if not any(s.crosses(b) for b in keep_off)]
            near = ", ".join(f"{v:.3f}" for v in nearest_lengths(outside, SCALE_BAR))
            failures.append(
                f"{built.where(n)}: no {SCALE_BAR:g} mm scale bar (lines closest to it: "
                f"{near or 'none'} mm)"
            )
    fail_with(f"sheets without a {SCALE_BAR:g} mm scale bar ({built.path.name})", failures)


# --- 4. --duplex none: backs mirrored for gluing --------------------------------------------------


@pytest.mark.parametrize(
    ("game", "paper"),
    [
        pytest.param(g, p, id=f"{g}-{p}", marks=slow_unless_fabg_a4(g, p))
        for g in GAMES
        for p in PAPERS
    ],
)
def test_duplex_none_backs_are_mirrored_for_gluing(builds: Builds, game: str, paper: str) -> None:
    built = builds.source(game, paper, "duplex-none")
    if not any(p.kind in PAIRS.values() for p in built.pages):
        pytest.skip(f"{built.path.name} has no page of backs: nothing is glued")
    fail_with(f"backs not mirrored for gluing ({built.path.name})", mirror_failures(built))


def test_measure_mirrored_backs_pass_on_long_edge_duplex(builds: Builds) -> None:
    """The check on a real PDF: long-edge backs of portrait sheets are mirrored left-right,
    as glued backs must be."""
    built = builds.source("fabg", "a4", "duplex-long")
    assert sum(p.kind == "backs" for p in built.pages) >= 6
    assert mirror_failures(built) == []


def mirror_failures(built: Built) -> list[str]:
    """Each back against its own front: the k-th face drawn on a page is the k-th slot of
    pnp's plan that has a face, and a front and its back share their slot index. Each page
    of backs must follow its page of fronts."""
    failures = []
    sheets = built.sheets()
    for n, back, back_scan in sheets:
        if back.kind not in PAIRS.values():
            continue
        _m, page, scan = sheets[n - 2] if n > 1 else (0, None, None)
        if page is None or scan is None or PAIRS.get(page.kind) != back.kind:
            failures.append(f"{built.where(n)}: does not follow its page of fronts")
            continue
        fronts, backs = faces_of(page, scan), faces_of(back, back_scan)
        failures += [f"{built.where(n - 1)}: {p}" for p in fronts.problems]
        failures += [f"{built.where(n)}: {p}" for p in backs.problems]
        if fronts.problems or backs.problems:
            continue
        by_slot = dict(zip(drawn_slots(page), fronts.boxes, strict=True))
        triples = [
            (i + 1, by_slot[i], box)
            for i, box in zip(drawn_slots(back), backs.boxes, strict=True)
            if i in by_slot
        ]
        for problem in unmirrored_backs(triples, scan.width):
            failures.append(f"{built.where(n)}: {problem} (fronts on page {n - 1})")
    return failures


def drawn_slots(page: Any) -> list[int]:
    """The slot index of each face drawn on a page, in drawing order."""
    return [s.index for s in page.slots if s.item.face is not None]


# --- 5. instructions ----------------------------------------------------------------------------


def expected_sentences(
    mode: Mode, lang: str, kinds: set[str]
) -> tuple[dict[str, str], dict[str, str]]:
    """(sentences the setup sheet must print, sentences it must not), by what they say, as
    templates translated as pnp translates its sheet words. ``kinds``: the kinds of page the
    PDF has; the sentence of the build's duplex mode is wanted when a page needs it (a page of
    backs, a fold sheet), and neither wanted nor refused when none does."""
    from pnp.i18n.words import gettext

    sentences = {
        "how to print": HOW,
        "duplex long": LONG,
        "duplex short": SHORT,
        "duplex none": NONE,
        "fold": FOLD,
        "the bleed": BLEED,
        "the back offset": OFFSET,
        "the old advice (long edge or glue, whatever the options)": OLD_ADVICE,
    }
    own = "fold" if mode.fold else f"duplex {mode.duplex}"
    needed = kinds & ({"fold"} if mode.fold else set(PAIRS.values()))
    wanted = {"how to print", own} if needed else {"how to print"}
    if mode.fold and kinds & {"backs", "token-backs"}:  # too large to fold: backs to glue
        wanted.add("duplex none")
    if mode.bleed > 0:
        wanted.add("the bleed")
    if mode.offset != (0.0, 0.0):
        wanted.add("the back offset")
    present, absent = {}, {}
    for what, template in sentences.items():
        if what in wanted:
            present[what] = gettext(template, lang)
        elif what != own and not (mode.fold and what == "duplex none"):
            absent[what] = gettext(template, lang)
    return present, absent


@pytest.mark.parametrize(
    ("game", "mode"),
    [pytest.param(g, m, id=f"{g}-{m}", marks=slow_unless_fabg_a4(g)) for g in GAMES for m in MODES],
)
def test_instructions_match_the_options(builds: Builds, game: str, mode: str) -> None:
    failures = []
    built = builds.get(game, INSTRUCTIONS_PAPER, mode)
    for lang, b in sorted(built.items()):
        setup = [n for n, p in enumerate(b.pages, 1) if p.kind == "setup"] or [1]
        text = squash(sheet_text(b.path, setup))
        x, y = MODES[mode].offset
        values: dict[str, str | None] = {
            "first": None,
            "last": None,
            "bleed": format_decimal(MODES[mode].bleed, locale=lang),
            "x": format_decimal(x, locale=lang),
            "y": format_decimal(y, locale=lang),
        }
        present, absent = expected_sentences(MODES[mode], lang, {p.kind for p in b.pages})
        pages = f"page{'s' if len(setup) > 1 else ''} {', '.join(map(str, setup))}"
        for what, template in present.items():
            if not sentence_pattern(template, values).search(text):
                failures.append(
                    f"{b.path.name} ({pages}): missing {what}: {fill(template, values)!r}"
                )
        for what, template in absent.items():
            if sentence_pattern(template, values).search(text):
                failures.append(f"{b.path.name} ({pages}): says {what}: {fill(template, values)!r}")
    fail_with(f"setup sheet instructions of {game} --{mode}", failures)


def fill(template: str, values: dict[str, str | None]) -> str:
    return template.format(**{k: v if v is not None else "N" for k, v in values.items()})


# --- the measurements, on PDFs made here ----------------------------------------------------------

PAGE_W, PAGE_H = A4[0] / PT_PER_MM, A4[1] / PT_PER_MM  # mm


def make_pdf(path: Path, *draws: Callable[[Canvas], None]) -> Path:
    """A PDF of A4 pages, one for each drawing function (which draws in points)."""
    c = Canvas(str(path), pagesize=A4, invariant=1)
    for draw in draws:
        draw(c)
        c.showPage()
    c.save()
    return path


def line_mm(c: Canvas, x1: float, y1: float, x2: float, y2: float, width: float = 0.5) -> None:
    """A black line between two points in mm from the top-left corner."""
    c.setStrokeColor(black)
    c.setLineWidth(width)
    k = PT_PER_MM
    c.line(x1 * k, A4[1] - y1 * k, x2 * k, A4[1] - y2 * k)


def test_measure_margin_finds_ink_near_each_edge(tmp_path: Path) -> None:
    def inside(c: Canvas) -> None:  # ink that ends exactly on the margin, and beyond it
        line_mm(c, 5.0, 100, 12, 100)
        line_mm(c, PAGE_W - 12, 120, PAGE_W - 5.0, 120)
        line_mm(c, 80, 5.0, 80, 12)
        line_mm(c, 90, PAGE_H - 12, 90, PAGE_H - 5.0)
        c.rect(30 * PT_PER_MM, 30 * PT_PER_MM, 100 * PT_PER_MM, 100 * PT_PER_MM, fill=1)

    def marks_at_2mm(c: Canvas) -> None:
        line_mm(c, 2.0, 100, 8, 100)  # a crop mark running to 2 mm from the left edge
        line_mm(c, PAGE_W - 8, 50, PAGE_W - 2.0, 50)
        line_mm(c, 60, 3.0, 60, 9)

    def faint(c: Canvas) -> None:  # the faintest grey, in the bottom margin
        c.setFillColor(Color(0.98, 0.98, 0.98))
        c.rect(50 * PT_PER_MM, 4 * PT_PER_MM, 20 * PT_PER_MM, 0.5 * PT_PER_MM, stroke=0, fill=1)

    pdf = make_pdf(tmp_path / "margin.pdf", inside, marks_at_2mm, faint)
    found = {(i.page, i.edge): i for i in margin_intrusions(pdf, 5.0, DPI)}
    assert set(found) == {(2, "left"), (2, "right"), (2, "top"), (3, "bottom")}, found
    px = 25.4 / DPI
    assert 2.0 - px <= found[2, "left"].distance <= 2.0
    assert 2.0 - px <= found[2, "right"].distance <= 2.0
    assert 3.0 - px <= found[2, "top"].distance <= 3.0
    assert found[2, "left"].start == pytest.approx(100, abs=1)
    assert 4.0 - px <= found[3, "bottom"].distance <= 4.0 + px and found[3, "bottom"].darkest > 240
    assert re.match(r"page 2: ink at 1\.[789]\d mm from the left edge", str(found[2, "left"]))
    # a smaller margin lets the 3 mm mark through, and a larger one catches the 5 mm lines
    assert (2, "top") not in {(i.page, i.edge) for i in margin_intrusions(pdf, 2.5, DPI)}
    assert (1, "left") in {(i.page, i.edge) for i in margin_intrusions(pdf, 6.0, DPI)}


def test_measure_scale_bar_is_50_mm_to_a_hundredth(tmp_path: Path) -> None:
    def bars(c: Canvas) -> None:
        line_mm(c, 20, 280, 70, 280, width=0.8)  # 50 mm
        line_mm(c, 20, 270, 69.9, 270, width=0.8)  # 49.9 mm
        line_mm(c, 20, 260, 70.02, 260, width=0.8)  # 50.02 mm
        line_mm(c, 100, 60, 100, 110)  # 50 mm, but inside a face
        c.rect(120 * PT_PER_MM, 100 * PT_PER_MM, 50 * PT_PER_MM, 20 * PT_PER_MM)  # a box's edge

    def short(c: Canvas) -> None:
        line_mm(c, 20, 280, 69.9, 280, width=0.8)

    def boards(c: Canvas) -> None:  # a 50 mm line drawn by a face's Form XObject
        _sheet(c, _grid(20, 30, 2, 2, 63, 88, 4), [])

    scans = scan_pdf(make_pdf(tmp_path / "bars.pdf", bars, short, boards))
    assert scale_bars(scans[2].strokes, [], 50.0, TOL) == []
    assert any(abs(s.length - 50) < 1e-3 and s.in_form for s in scans[2].strokes)
    face = Box(90, 50, 30, 80)
    found = scale_bars(scans[0].strokes, [face], 50.0, TOL)
    assert [(round(s.x1, 3), round(s.y1, 3), round(s.length, 3)) for s in found] == [
        (20.0, 280.0, 50.0)
    ]
    assert scale_bars(scans[1].strokes, [], 50.0, TOL) == []
    assert nearest_lengths(scans[1].strokes) == [pytest.approx(49.9, abs=1e-3)]


def _sheet(
    c: Canvas,
    faces: list[Box],
    marks: list[tuple[float, float, float, float]],
    inline: bool = False,
    fold: tuple[float, float, float, float] | None = None,
    mark_color: Any = black,
    upside_down: bool = False,
) -> None:
    """A sheet as pnp draws one: faces (a form placed many times, or drawn in place after
    ``q <translation> cm q``; ``upside_down``: turned half a turn, as backs may be for a
    fold), crop marks over a white halo, a dashed fold line."""
    k = PT_PER_MM
    w, h = faces[0].w * k, faces[0].h * k
    if not inline and not c.hasForm("face"):
        c.beginForm("face", lowerx=0, lowery=0, upperx=w, uppery=h)
        c.setFillColor(HexColor("#334455"))
        c.rect(0, 0, w, h, stroke=0, fill=1)
        c.setStrokeColor(black)
        c.line(10, 10, 10 + 50 * k, 10)  # a 50 mm line on the face: not a scale bar
        c.endForm()
    for f in faces:
        c.saveState()
        if upside_down:
            c.translate(f.right * k, A4[1] - f.y * k)
            c.rotate(180)
        else:
            c.translate(f.x * k, A4[1] - f.bottom * k)
        if inline:
            c.saveState()
            c.setFillColor(HexColor("#556677"))
            c.rect(0, 0, w, h, stroke=0, fill=1)
            c.drawString(5, 5, "A (face) with \\( parentheses")
            c.restoreState()
        else:
            c.doForm("face")
        c.restoreState()
    c.saveState()  # a page label read from the bottom up, as pnp draws one: not a face
    c.translate(8 * k, A4[1] / 2)
    c.rotate(90)
    c.drawString(0, 0, "sheet 1 of 1 · fronts")
    c.restoreState()
    c.saveState()
    c.setStrokeColor(white)
    c.setLineWidth(1.6)
    for m in marks:
        c.line(m[0] * k, A4[1] - m[1] * k, m[2] * k, A4[1] - m[3] * k)
    c.setStrokeColor(mark_color)
    c.setLineWidth(0.5)
    for m in marks:
        c.line(m[0] * k, A4[1] - m[1] * k, m[2] * k, A4[1] - m[3] * k)
    c.restoreState()
    if fold is not None:
        c.saveState()
        c.setStrokeColor(HexColor("#555555"))
        c.setLineWidth(0.6)
        c.setDash(4, 3)
        c.line(fold[0] * k, A4[1] - fold[1] * k, fold[2] * k, A4[1] - fold[3] * k)
        c.restoreState()


def _grid(x0: float, y0: float, cols: int, rows: int, w: float, h: float, gap: float) -> list[Box]:
    return [
        Box(x0 + c * (w + gap), y0 + r * (h + gap), w, h) for r in range(rows) for c in range(cols)
    ]


def _all_marks(
    faces: list[Box], away: str | None = None, off: float = 1.5
) -> list[tuple[float, float, float, float]]:
    """Marks ``off`` mm off the grid, 4 mm long, at both ends of every cut line (but on the
    side ``away``)."""
    left = min(f.x for f in faces)
    right = max(f.right for f in faces)
    top = min(f.y for f in faces)
    bottom = max(f.bottom for f in faces)
    xs = sorted({v for f in faces for v in (f.x, f.right)})
    ys = sorted({v for f in faces for v in (f.y, f.bottom)})
    marks = []
    for x in xs:
        if away != "top":
            marks.append((x, top - off - 4, x, top - off))
        if away != "bottom":
            marks.append((x, bottom + off, x, bottom + off + 4))
    for y in ys:
        if away != "left":
            marks.append((left - off - 4, y, left - off, y))
        if away != "right":
            marks.append((right + off, y, right + off + 4, y))
    return marks


def test_measure_faces_are_found_where_they_are_placed(tmp_path: Path) -> None:
    faces = _grid(20, 30, 2, 2, 63, 88, 4)
    pdf = make_pdf(
        tmp_path / "faces.pdf",
        lambda c: _sheet(c, faces, []),
        lambda c: _sheet(c, faces, [], inline=True),
        lambda c: _sheet(c, faces, [], upside_down=True),
        lambda c: _sheet(c, faces, [], inline=True, upside_down=True),
    )
    for scan in scan_pdf(pdf):
        found = scan.faces(63, 88)
        assert len(found) == 4, scan.placements
        for got, want in zip(found, faces, strict=True):
            assert (got.x, got.y, got.w, got.h) == (
                pytest.approx(want.x, abs=1e-3),
                pytest.approx(want.y, abs=1e-3),
                pytest.approx(63),
                pytest.approx(88),
            )
    form = scan_pdf(pdf)[0].placements[0]
    assert form.form_size == (pytest.approx(63, abs=1e-3), pytest.approx(88, abs=1e-3))


def test_measure_crop_marks_on_cut_lines(tmp_path: Path) -> None:
    from pnp.printing.render import MARK_WIDTH_PT

    faces = _grid(20, 30, 2, 2, 63, 88, 4)
    marks = _all_marks(faces)
    dropped = marks[:1] + marks[2:]  # the mark below the grid on x = 20 is gone
    beyond_bleed = _all_marks(faces, off=4.5)  # 3 mm of bleed, then 1.5 mm
    inside_bleed = [(20, 30 - 2.5, 20, 30 - 0.5), *beyond_bleed[1:]]  # one mark 0.5 mm off
    stubs = [(20, 30 - 1.5 - 2.0, 20, 30 - 1.5), *marks[1:]]  # 2 mm above x = 20
    pdf = make_pdf(
        tmp_path / "marks.pdf",
        lambda c: _sheet(c, faces, marks),
        lambda c: _sheet(c, faces, dropped, inline=True),
        lambda c: _sheet(c, faces, marks, mark_color=HexColor("#999999")),
        lambda c: _sheet(c, faces, inside_bleed),
        lambda c: _sheet(c, faces, stubs),
    )
    scans = scan_pdf(pdf)

    def ends(scan: PageScan, bleed: float = 0.0) -> dict[str, int]:
        boxes = scan.faces(63, 88)
        found = crop_marks(scan.strokes, boxes, bleed, MARK_WIDTH_PT)
        return {str(c): marks_of(c, found, bleed, MIN_MARK) for c in cut_lines(boxes, 4.5)}

    every = ends(scans[0])
    assert len(every) == 4 + 4 and set(every.values()) == {2}  # 2 x 2 cards 4 mm apart
    assert set(ends(scans[0], bleed=3.0).values()) == {0}  # every mark within the bleed
    x20 = "the vertical cut line x=20.00 mm (y 30.00-210.00)"
    assert {k: v for k, v in ends(scans[1]).items() if v != 2} == {x20: 1}
    assert set(ends(scans[2]).values()) == {0}  # grey lines are not crop marks
    # 3 mm of bleed: marks 1.5 mm past it count, one within the bleed does not
    assert {k: v for k, v in ends(scans[3], bleed=3.0).items() if v != 2} == {x20: 1}
    assert {k: v for k, v in ends(scans[4]).items() if v != 2} == {x20: 1}  # a stub is none
    # two bands, far apart: lines of their own
    lower = _grid(20, 230, 2, 1, 30, 30, 4)
    lines = cut_lines([*faces, *lower], 4.5)
    assert len([c for c in lines if c.axis == "x" and c.at == pytest.approx(20)]) == 2


def test_measure_fold_sheet_marks_only_away_from_the_fold(tmp_path: Path) -> None:
    """A half of a fold sheet is marked on the three sides away from the fold: its lines
    along the fold have their mark at one end only."""
    from pnp.printing.render import MARK_WIDTH_PT

    fronts = _grid(15, 40, 1, 3, 63, 88, 0)
    backs = _grid(PAGE_W - 15 - 63, 40, 1, 3, 63, 88, 0)
    fold = (PAGE_W / 2, 0, PAGE_W / 2, PAGE_H)
    marks = _all_marks(fronts, away="right") + _all_marks(backs, away="left")
    no_left = [m for m in marks if not (m[2] <= 15 and m[1] == 40)]
    pdf = make_pdf(
        tmp_path / "fold.pdf",
        lambda c: _sheet(c, fronts + backs, marks, fold=fold),
        lambda c: _sheet(c, fronts + backs, no_left, fold=fold),
    )
    scans = scan_pdf(pdf)
    results = []
    for scan in scans:
        line = fold_line(scan.strokes, scan.width, scan.height)
        assert line is not None and line.vertical and line.x1 == pytest.approx(PAGE_W / 2)
        boxes = scan.faces(63, 88)
        found = crop_marks(scan.strokes, boxes, 0.0, MARK_WIDTH_PT)
        left = [b for b in boxes if b.x < PAGE_W / 2]
        counts = {str(c): marks_of(c, found, 0.0, MIN_MARK) for c in cut_lines(left, 0.5)}
        results.append(sorted(k for k, v in counts.items() if v == 0))
        assert {v for k, v in counts.items() if "horizontal" in k} <= {0, 1}
    y40 = "the horizontal cut line y=40.00 mm (x 15.00-78.00)"
    assert results == [[], [y40]]


def test_measure_backs_mirrored_left_to_right() -> None:
    fronts = _grid(10.5, 16.5, 3, 3, 63, 88, 0)  # a grid centred across the page
    mirrored = [Box(PAGE_W - f.right, f.y, f.w, f.h) for f in fronts]
    assert unmirrored_backs(list(zip(range(9), fronts, mirrored, strict=True)), PAGE_W) == []
    # backs where the fronts are: on a centred grid the set of places is the same, but each
    # card of a side column gets the back of the card across
    same = unmirrored_backs(list(zip(range(9), fronts, fronts, strict=True)), PAGE_W)
    assert len(same) == 6 and same[0].startswith("slot 0: back at x=10.50, y=16.50 mm")
    shifted = [Box(b.x + 0.02, b.y, b.w, b.h) for b in mirrored]
    assert len(unmirrored_backs(list(zip(range(9), fronts, shifted, strict=True)), PAGE_W)) == 9
    nudged = [Box(b.x + 0.009, b.y - 0.009, b.w, b.h) for b in mirrored]  # within 0.01 mm
    assert unmirrored_backs(list(zip(range(9), fronts, nudged, strict=True)), PAGE_W) == []


def test_measure_sentences_across_line_breaks_and_hyphens() -> None:
    printed = (
        "Come stampare: al 100 % (dimensioni effettive). Print pages 3–17 double-\n"
        "sided, flipping on the long edge. Cards have 3 mm of bleed: cut on the crop marks,"
        " not on the edge of the col-\nour. Backs are shifted by 1,5 mm across and -1 mm down"
        " to match your printer (--back-\noffset)."
    )
    text = squash(printed)
    values: dict[str, str | None] = {
        "first": None,
        "last": None,
        "bleed": "3",
        "x": "1,5",
        "y": "-1",
    }
    assert sentence_pattern(LONG, values).search(text)
    assert not sentence_pattern(SHORT, values).search(text)
    assert sentence_pattern(BLEED, values).search(text)
    assert sentence_pattern(OFFSET, values).search(text)
    assert not sentence_pattern(OFFSET, {**values, "y": "1"}).search(text)  # the sign counts
    assert not sentence_pattern(BLEED, {**values, "bleed": "2"}).search(text)
    assert not sentence_pattern(LONG, values).search(squash("Print pages 3–17 double-sided."))


def test_measure_expected_sentences_follow_the_mode() -> None:
    sheets = {"setup", "fronts", "backs", "tokens"}
    present, absent = expected_sentences(MODES["duplex-short"], "en", sheets)
    assert set(present) == {"how to print", "duplex short"}
    assert {"duplex long", "duplex none", "fold", "the bleed", "the back offset"} <= set(absent)
    present, absent = expected_sentences(MODES["fold"], "it", {"setup", "fold", "tokens"})
    assert set(present) == {"how to print", "fold"} and "duplex long" in absent
    present, _ = expected_sentences(MODES["back-offset"], "es", sheets)
    assert set(present) == {"how to print", "duplex long", "the back offset"}
    # nothing printed double-sided: no duplex sentence is wanted, none of the others allowed
    present, absent = expected_sentences(MODES["duplex-long"], "en", {"setup", "fronts"})
    assert set(present) == {"how to print"} and "duplex long" not in absent
    assert {"duplex short", "duplex none", "fold"} <= set(absent)
