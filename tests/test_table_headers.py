"""Table headers in narrow columns break between words or hyphenate (with a hyphen), never
mid-word without one: on faces (a layout's table) and on the setup sheet, in every bundled
language, and in German ("Verwundete", which reportlab cut as "Verwu|ndete").

A header is checked as reportlab wraps it: the lines of its Paragraph, walked against the
header's text. A line may end between two words, or with a hyphen the text does not have there
(a hyphenation); a line ending inside a word without a hyphen is a failure.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from reportlab.lib.styles import ParagraphStyle

from pnp.compat.reportlab import wrapped_lines
from pnp.content.load import load_game, open_root
from pnp.content.queries import item_size
from pnp.core.findings import Report
from pnp.core.run import running
from pnp.core.units import pt
from pnp.printing.render.tables import SetupTables
from pnp.typeset.fonts import fontset
from pnp.typeset.headers import HYPHEN, header_lines, header_xml
from pnp.typeset.layout import Paragraph

from helpers import REPO

GAMES = ["austerity", "fabg", "status", "which-side"]
SETUP_PADDING = 12.0  # points: reportlab's cell padding, 6 on each side (setup sheet tables)


@pytest.fixture(scope="module")
def fonts() -> Any:
    return fontset(REPO / "pnp" / "data" / "fonts", "NotoSans", ["DejaVuSans"])


def line_texts(para: Any, width: float) -> list[str]:
    """The lines of a paragraph wrapped ``width`` points wide, as text."""
    para.wrap(width, 1e6)
    lines = wrapped_lines(para) or []
    out = []
    for line in lines:
        if isinstance(line, tuple):
            out.append(" ".join(str(w) for w in line[1]))
        else:
            out.append("".join(str(getattr(w, "text", "")) for w in line.words))
    return out


def printed(text: str, icons: dict[str, Any]) -> str:
    """A header as printed: each {icon} as its glyph."""
    from pnp.typeset.markup import TOKEN_RE

    def glyph(m: re.Match[str]) -> str:
        icon = icons.get(m.group(1))
        return m.group(0) if icon is None else icon.glyph or ""

    return TOKEN_RE.sub(glyph, text)


def bad_breaks(text: str, lines: list[str]) -> list[str]:
    """The line ends of ``lines`` that cut ``text`` inside a word without a hyphen."""
    bad = []
    i = 0  # position in text
    for n, line in enumerate(lines):
        for ch in line.replace(" ", ""):
            while i < len(text) and text[i].isspace():
                i += 1
            if i < len(text) and text[i] == ch:
                i += 1
            elif ch == HYPHEN:
                continue  # a hyphen the text does not have here: a hyphenation
            else:
                bad.append(f"line {n + 1} {line!r} does not follow {text!r}")
                return bad
        last = n == len(lines) - 1
        inside = i < len(text) and not text[i].isspace() and i > 0 and not text[i - 1].isspace()
        if not last and inside and not line.rstrip().endswith(HYPHEN) and text[i - 1] != "-":
            bad.append(f"{text!r} cut after {line!r} without a hyphen")
    return bad


def test_the_check_catches_a_cut_word() -> None:
    assert bad_breaks("Injured", ["Injure", "d"])
    assert not bad_breaks("Injured", ["In-", "jured"])
    assert not bad_breaks("Injured in each home", ["Injured", "in each", "home"])
    assert bad_breaks("Verwundete", ["Verwu", "ndete"])


# --- header_lines ------------------------------------------------------------------------------

CASES = [
    ("en", "Injured"),
    ("en", "Starting BF"),
    ("en", "Starting $ (each home)"),
    ("es", "Heridos"),
    ("es", "Heridos en cada casa"),
    ("it", "Sovraindebitamento"),
    ("it", "Rendita iniziale"),
    ("de", "Verwundete"),
    ("de", "Arbeitsbedingungen"),
]


@pytest.mark.parametrize(("lang", "text"), CASES)
@pytest.mark.parametrize("width", [24.0, 30.5, 40.0])
def test_every_header_line_fits_and_breaks_between_words_or_with_a_hyphen(
    fonts: Any, lang: str, text: str, width: float
) -> None:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    lines, size = header_lines(text, width, fonts, "bold", 8.5, lang)
    assert 8.5 * 0.7 - 1e-9 <= size <= 8.5
    for line in lines:
        assert stringWidth(line, fonts.main.font("bold"), size) <= width + 1e-6, (line, size)
    assert not bad_breaks(text, lines)
    words = [w for w in re.split(r"\s+", text) if w]
    joined = "".join(line[:-1] if line.endswith(HYPHEN) else line + " " for line in lines)
    assert joined.split() == words


def test_a_word_a_little_too_wide_is_set_smaller_not_broken(fonts: Any) -> None:
    lines, size = header_lines("Injured", 30.5, fonts, "bold", 8.5, "en")
    assert lines == ["Injured"] and size < 8.5


def test_a_long_word_is_hyphenated_by_its_language(fonts: Any) -> None:
    lines, _size = header_lines("Verwundete", 30.5, fonts, "bold", 8.5, "de")
    assert len(lines) == 2 and lines[0].endswith(HYPHEN)
    assert lines[0][:-1] + lines[1] == "Verwundete"
    assert lines[0][:-1] in ("Ver", "Verwun", "Verwunde")  # where German breaks it


@pytest.mark.parametrize(("lang", "text"), CASES)
def test_a_header_paragraph_is_not_cut_by_reportlab(fonts: Any, lang: str, text: str) -> None:
    width = 30.5
    head = ParagraphStyle("th", fontName=fonts.main.font("bold"), fontSize=8.5, leading=10.5)
    with running():
        para = Paragraph(header_xml(text, width, fonts, {}, lang, 8.5), head)
        lines = line_texts(para, width)
    assert not bad_breaks(text, lines), lines


# --- the bundled games -------------------------------------------------------------------------


def _game(game_id: str) -> Any:
    game = load_game(open_root(REPO), game_id, Report())
    assert game is not None
    return game


def _renderer(game: Any, lang: str) -> Any:
    from pnp.i18n import Translator
    from pnp.i18n.catalog import read_translations
    from pnp.printing.render import Renderer
    from pnp.typeset.faces import FaceEngine

    root = open_root(REPO)
    catalogs = read_translations(root, game, Report())
    tr = Translator(game, lang, catalogs.get(lang))
    fonts = fontset(root.fonts, game.print.font, game.print.fallback_fonts)
    engine = FaceEngine(game, root.game_dir(game.id), lang, tr, fonts)
    return Renderer(game, lang, engine, fonts, tr, tr.text(game.meta.title))


def setup_headers(game_id: str) -> list[tuple[str, str, float, dict[str, Any]]]:
    """(language, header, column width in points) of every table of a bundled game, as the
    setup sheet lays its columns out."""
    game = _game(game_id)
    out = []
    with running():
        for lang in game.languages:
            renderer = _renderer(game, lang)
            tables = SetupTables(renderer.context)
            for table in game.tables.values():
                widths = tables.column_widths(table)
                for col, width in zip(table.columns, widths, strict=True):
                    title = renderer.translator.text(col.title) if col.title else col.id
                    out.append((lang, title, width, renderer.engine.icons))
    return out


@pytest.mark.parametrize("game", GAMES)
def test_setup_sheet_headers_break_between_words_or_with_a_hyphen(game: str) -> None:
    """Through header_xml at the setup sheet's column widths (its header style: bold 8.5 pt,
    6 pt of padding on each side)."""
    fonts = fontset(REPO / "pnp" / "data" / "fonts", "NotoSans", ["DejaVuSans"])
    head = ParagraphStyle(
        "th", fontName=fonts.main.font("bold"), fontSize=8.5, leading=10.5, alignment=1
    )
    bad = []
    with running():
        for lang, title, width, icons in setup_headers(game):
            inner = width - SETUP_PADDING
            para = Paragraph(header_xml(title, inner, fonts, icons, lang, 8.5), head)
            lines = line_texts(para, inner)
            bad += [f"[{lang}] {b}" for b in bad_breaks(printed(title, icons), lines)]
    assert not bad, "\n".join(bad)


def test_the_setup_sheet_itself_cuts_no_header_word() -> None:
    """The setup sheet's own table (render/tables.py): its header row as it draws it."""
    bad = []
    with running():
        for game_id in GAMES:
            game = _game(game_id)
            for lang in game.languages:
                renderer = _renderer(game, lang)
                body = ParagraphStyle("body", fontName=renderer.fonts.main.font("regular"))
                tables = SetupTables(renderer.context)
                for table in game.tables.values():
                    grid = tables.grid(table, body)
                    widths = tables.column_widths(table)
                    for col, cell, width in zip(table.columns, grid.header, widths, strict=False):
                        title = renderer.translator.text(col.title) if col.title else col.id
                        lines = line_texts(cell, width - SETUP_PADDING)
                        title = printed(title, renderer.engine.icons)
                        bad += [f"{game_id} [{lang}] {b}" for b in bad_breaks(title, lines)]
    assert not bad, "\n".join(bad[:20])


@pytest.mark.parametrize("game", GAMES)
def test_face_table_headers_break_between_words_or_with_a_hyphen(game: str) -> None:
    """Every table a layout of a bundled game draws, at the size the face engine fits it."""
    from pnp.typeset.faces import TableOp, build_table, flatten

    loaded = _game(game)
    bad: list[str] = []
    seen = 0
    with running():
        for lang in loaded.languages:
            renderer = _renderer(loaded, lang)
            engine, fonts = renderer.engine, renderer.fonts
            faces = [(b, b, b, "front", b.size.w, b.size.h) for b in loaded.boards.values()]
            for owner in loaded.owners():
                size = item_size(loaded, owner)
                faces += [(c, owner, c, "front", size.w, size.h) for c in owner.cards]
            for face, owner, card, side, w, h in faces:
                for op in flatten(engine.ops(face, owner, card, side, w, h, 0.0)):
                    if not isinstance(op, TableOp):
                        continue
                    seen += 1
                    width = pt(op.box[2])
                    table = build_table(
                        op.header,
                        op.rows,
                        op.size,
                        fonts,
                        width=width,
                        icons=engine.icons,
                        lang=lang,
                    )
                    inner = width / len(op.header) - 2 * op.size * 0.3
                    for title, cell in zip(op.header, table._cellvalues[0], strict=True):
                        lines = line_texts(cell, inner)
                        title = printed(title, engine.icons)
                        bad += [f"[{lang}] {b}" for b in bad_breaks(title, lines)]
    if not seen:
        pytest.skip(f"{game} draws no table on a face")
    assert not bad, "\n".join(bad[:20])


def test_a_body_cell_word_is_hyphenated_too(fonts: Any) -> None:
    """A word of a table's body too wide for its column ("Entwicklungskarte" in the first
    column of Island's building costs, drawn on a card) is hyphenated by its language, as a
    header is, on faces and on the setup sheet alike; before, reportlab cut it anywhere."""
    from pnp.typeset.faces import build_table

    header = ["Bau", "Holz", "Lehm", "Wolle", "Getreide", "Erz", "Siegpunkte"]
    rows = [
        ["Straße", "1", "1", "–", "–", "–", "–"],
        ["Entwicklungskarte", "–", "–", "1"] + ["1"] * 3,
    ]
    width = 140.0
    table = build_table(header, rows, 7.0, fonts, width=width, lang="de")
    inner = width / len(header) - 2 * 7.0 * 0.3
    bad = []
    for row, cells in zip(rows, table._cellvalues[1:], strict=True):
        for text, cell in zip(row, cells, strict=True):
            lines = line_texts(cell, inner)
            bad += bad_breaks(text, lines)
    assert not bad, bad
    first = line_texts(table._cellvalues[2][0], inner)
    assert len(first) > 1 and first[0].endswith("-")  # broken, with a hyphen
