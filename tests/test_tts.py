"""Tabletop Simulator export and PNG faces (issues 18 and 20).

Every bundled deck gives TTS sheets within TTS's limits (at most 4096 px a side, at most 70
cards, a grid of at most 10 x 7 sized to the deck) at the default resolution and at
``--png 300``, and a saved object that TTS can import: CardIDs name the cell of the sheet that
shows the card (checked against the card's own PNG), NumWidth x NumHeight cut
the sheet into cells of the card's proportions. Sheets are JPEGs: a cell is its card but for
JPEG's small loss, and closer to it than to any other face of its deck. The faces are
rasterised many to a page and cut: a face does not depend on its neighbours, and ``--jobs``
gives the same bytes.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

import pytest
from PIL import Image, ImageChops
from typer.testing import CliRunner

from pnp.build.pipeline import BuildOptions, Output, build
from pnp.content.load import discover, load_game, open_root
from pnp.content.model import Game
from pnp.content.queries import item_size
from pnp.core.findings import Report
from pnp.core.units import CARD_SIZES, Size, px
from pnp.printing import raster, tts
from pnp.printing.export import face_pages

from helpers import FIXTURES, REPO, exports, make_root

GAMES = discover(open_root(REPO))


def _build(root: Path, game: str, tmp: Path, **options: Any) -> tuple[Output, Path]:
    """Build ``game`` in its first language into ``tmp``; the output and its TTS folder."""
    loaded = load_game(open_root(root), game, Report())
    assert loaded is not None
    lang = loaded.languages[0]
    made = {k: options.pop(k) for k in ("png_dpi", "tts", "tts_max_px") if k in options}
    opts = BuildOptions(langs=(lang,), out_dir=tmp, force=True, exports=exports(**made), **options)
    (out,) = build(open_root(root), [game], opts, Report())
    return out, tmp / game / f"{game}-{lang}-tts"


def _image(path: Path) -> Image.Image:
    with Image.open(path) as im:
        return im.convert("RGB")


def _path(url: str) -> Path:
    """The file a FaceURL or BackURL names; it exists."""
    parsed = urlparse(url)
    assert parsed.scheme == "file"
    path = Path(unquote(parsed.path))
    assert path.is_file(), url
    return path


def _deck_objects(folder: Path, game: str) -> dict[str, dict[str, Any]]:
    """Each deck's object from its DECK.json, checked against the game's file of all decks."""
    every = json.loads((folder / f"{game}.decks.json").read_text("utf-8"))
    objects = {}
    for path in sorted(folder.glob("*.json")):
        if not path.name.endswith((".decks.json", ".table.json")):
            save = json.loads(path.read_text("utf-8"))
            assert len(save["ObjectStates"]) == 1
            objects[path.stem] = save["ObjectStates"][0]
    by_guid = {o["GUID"]: o for o in objects.values()}
    assert sorted(o["GUID"] for o in every["ObjectStates"]) == sorted(by_guid)
    xs = []
    for obj in every["ObjectStates"]:  # the same decks, side by side
        xs.append(obj["Transform"]["posX"])
        alone = by_guid[obj["GUID"]]
        assert {**obj, "Transform": None} == {**alone, "Transform": None}
    assert len(set(xs)) == len(xs)
    return objects


def _cards(obj: dict[str, Any]) -> list[dict[str, Any]]:
    """The Card objects of a saved deck (a lone card is saved as a Card)."""
    if obj["Name"] == "Card":
        return [obj]
    assert obj["Name"] == "Deck"
    assert obj["DeckIDs"] == [c["CardID"] for c in obj["ContainedObjects"]]
    return list(obj["ContainedObjects"])


def _game(game_id: str) -> Game:
    game = load_game(open_root(REPO), game_id, Report())
    assert game is not None
    return game


def check_decks(game_id: str, folder: Path, max_px: int = 4096) -> dict[str, dict[str, Any]]:
    """Every deck of the game exported in ``folder``: TTS's limits and the saved object's
    structure. Returns the saved object of each deck."""
    game = _game(game_id)
    objects = _deck_objects(folder, game_id)
    decks = {d.id: d for d in game.decks.values() if any(c.copies for c in d.cards)}
    assert sorted(objects) == sorted(decks), "one saved object per deck with cards"
    for deck_id, obj in objects.items():
        deck, size = decks[deck_id], item_size(game, decks[deck_id])
        cards = _cards(obj)
        assert sorted(c["Memo"] for c in cards) == sorted(
            c.id for c in deck.cards for _ in range(c.copies)
        ), "one Card per copy"
        custom = obj["CustomDeck"]
        for card in cards:
            key = str(card["CardID"] // 100)
            assert card["CustomDeck"] == {key: custom[key]}, "each card names its own sheet"
        for key, entry in custom.items():
            cols, rows = entry["NumWidth"], entry["NumHeight"]
            assert 1 <= cols <= 10 and 1 <= rows <= 7
            assert entry["BackIsHidden"] is True  # so that the last cell may hold a card
            face = _image(_path(entry["FaceURL"]))
            assert max(face.size) <= max_px, f"{deck_id} sheet {key}: {face.size}"
            assert face.width % cols == 0 and face.height % rows == 0, "whole cells"
            cw, ch = face.width // cols, face.height // rows
            assert abs(cw / ch - size.w / size.h) < 0.01, "cells of the card's proportions"
            back = _image(_path(entry["BackURL"]))
            assert back.size == face.size if entry["UniqueBack"] else max(back.size) <= max_px
            used = sorted({c["CardID"] % 100 for c in cards if str(c["CardID"] // 100) == key})
            assert used[-1] < cols * rows <= 70
            assert len(used) == len(set(used))
            assert cols * rows - len(used) < cols, "filled row by row: no empty row or column"
    return objects


def _cell(sheet: Image.Image, cols: int, rows: int, index: int) -> Image.Image:
    cw, ch = sheet.width // cols, sheet.height // rows
    r, c = divmod(index, cols)
    return sheet.crop((c * cw, r * ch, (c + 1) * cw, (r + 1) * ch))


def _stem(*parts: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", "-".join(parts)).strip("-")


def _mismatch(a: Image.Image, b: Image.Image) -> int:
    """Pixels that differ by more than JPEG's loss at quality 95 (a few levels; a wrong glyph
    or colour differs by far more)."""
    diff = ImageChops.difference(a, b).convert("L")
    return sum(diff.histogram()[LOSS + 1 :])


LOSS = 48


def check_cells_are_the_cards(png: Path, objects: dict[str, dict[str, Any]]) -> int:
    """The cell a CardID names shows that card: its own PNG but for JPEG's loss, and closer to
    it than to any other face of the deck (sheets drawn at the PNG resolution); the same for
    its own back on a sheet of unique backs. Returns the cells checked."""
    checked = 0
    for deck_id, obj in objects.items():
        faces = {p.name: _image(p) for p in png.glob(f"{deck_id}-*.png")}
        for card in {c["Memo"]: c for c in _cards(obj)}.values():
            cid = card["CardID"]
            entry = obj["CustomDeck"][str(cid // 100)]
            sides = [("front", entry["FaceURL"])]
            if entry["UniqueBack"]:
                sides.append(("back", entry["BackURL"]))
            for side, url in sides:
                name = f"{_stem(deck_id, card['Memo'])}-{side}.png"
                if name not in faces:  # the deck's shared back on a sheet of backs
                    name = f"{deck_id}-back.png"
                cols, rows = entry["NumWidth"], entry["NumHeight"]
                cell = _cell(_image(_path(url)), cols, rows, cid % 100)
                if cell.size != faces[name].size:
                    continue  # a sheet drawn below the PNG resolution
                own = _mismatch(cell, faces[name])
                where = f"{deck_id}/{card['Memo']} {side}: cell {cid}"
                assert own <= cell.width * cell.height // 2000, f"{where} is not the card"
                for other, image in faces.items():
                    if image.size == cell.size and _mismatch(image, faces[name]):
                        assert own < _mismatch(cell, image), f"{where} looks like {other}"
                checked += 1
    return checked


# --- every bundled deck ------------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_default_sheets_are_within_tts_limits(game: str, tmp_path: Path) -> None:
    out, folder = _build(REPO, game, tmp_path, tts=True)
    assert check_decks(game, folder), f"{game} has decks"
    assert not [p for p in out.extra if p.parent.name.endswith("-png")], "no PNGs unasked"
    sheets = list(folder.glob("*.jpg"))
    assert sheets and not list(folder.glob("*.png"))
    for sheet in sheets:
        with Image.open(sheet) as im:
            assert im.format == "JPEG" and max(im.size) <= 4096, (sheet.name, im.size)


@pytest.mark.parametrize("game", GAMES)
def test_cells_are_the_cards_they_name(game: str, tmp_path: Path) -> None:
    _out, folder = _build(REPO, game, tmp_path, tts=True, png_dpi=50)
    objects = check_decks(game, folder)
    png = folder.with_name(folder.name.replace("-tts", "-png"))
    assert check_cells_are_the_cards(png, objects) == sum(
        len({c["Memo"] for c in _cards(o)}) * (2 if _unique(o) else 1) for o in objects.values()
    ), "at 50 dpi no sheet is scaled: every cell is checked"


def _unique(obj: dict[str, Any]) -> bool:
    return any(e["UniqueBack"] for e in obj["CustomDeck"].values())


@pytest.mark.slow
def test_a_full_game_at_png_300(tmp_path: Path) -> None:
    out, folder = _build(REPO, "fabg", tmp_path, tts=True, png_dpi=300)
    objects = check_decks("fabg", folder)
    png = folder.with_name(folder.name.replace("-tts", "-png"))
    assert check_cells_are_the_cards(png, objects) >= 20  # the sheets drawn at 300 dpi
    poker = CARD_SIZES["poker"]
    robot = Image.open(png / "robots-robot-front.png")
    assert robot.size == (px(poker.w, 300), px(poker.h, 300))
    assert robot.info["dpi"] == pytest.approx((300, 300), abs=0.01)  # pixels a metre
    # the roles deck (5 distinct cards) is not a 10 x 7 grid
    roles = next(iter(objects["roles"]["CustomDeck"].values()))
    assert roles["NumWidth"] * roles["NumHeight"] < 10
    # a deck drawn below 300 dpi is named in the build's note, with its resolution
    for deck_id, obj in objects.items():
        entry = next(iter(obj["CustomDeck"].values()))
        cell_w = _image(_path(entry["FaceURL"])).width // entry["NumWidth"]
        named = any(re.search(rf"\b{deck_id} \d+x\d+ px", n) for n in out.notes)
        assert named == (cell_w < px(poker.w, 300)), deck_id


# --- the grid -----------------------------------------------------------------------------------
@pytest.mark.parametrize("size", [CARD_SIZES["poker"], CARD_SIZES["tarot"], Size(88, 63)])
def test_grid_fits_every_count(size: Size) -> None:
    for n in range(1, 71):
        cols, rows = tts.grid(n, size)
        assert cols <= 10 and rows <= 7 and cols * rows >= n
        empty = cols * rows - n
        assert empty < cols, (n, cols, rows)  # filled row by row: no empty row or column
    assert tts.grid(8, CARD_SIZES["poker"]) == (4, 2)
    with pytest.raises(ValueError):
        tts.grid(71, size)


def test_fit_scales_down_to_the_limit_and_says_so() -> None:
    poker = CARD_SIZES["poker"]
    cell, dpi = tts.fit(poker, 10, 7, 300, 4096)
    assert dpi < 300 and 10 * cell[0] <= 4096 and 7 * cell[1] <= 4096
    assert cell == (px(poker.w, dpi), px(poker.h, dpi))  # drawn at dpi, a face is the cell
    cell, dpi = tts.fit(poker, 2, 2, 300, 4096)
    assert dpi == 300 and cell == (px(poker.w, 300), px(poker.h, 300))
    cell, dpi = tts.fit(poker, 10, 7, 300, 8192)
    assert dpi == 300


# --- a deck larger than one sheet, a smaller limit, the terminal -------------------------------
def _big_root(tmp: Path, extra: int) -> Path:
    root = make_root(tmp, FIXTURES / "clean")
    decks = root / "cards" / "mini" / "decks.yaml"
    text = decks.read_text("utf-8")
    more = "".join(
        f"      - {{id: c{i:03d}, title: {{en: Card {i}, it: Carta {i}}}}}\n" for i in range(extra)
    )
    text = text.replace("    cards:\n", "    cards:\n" + more, 1)
    decks.write_text(text, "utf-8")
    game = root / "cards" / "mini" / "game.yaml"
    n = 6 + extra
    line = f"{{item: {{en: {n} cards, it: {n} carte}}, deck: main, count: {n}}}"
    text = game.read_text("utf-8").replace(
        "{item: {en: 6 cards, it: 6 carte}, deck: main, count: 6}", line
    )
    game.write_text(text, "utf-8")
    return root


def test_a_big_deck_spreads_over_sheets(tmp_path: Path) -> None:
    root = _big_root(tmp_path, 73)  # 75 distinct cards, 79 in the box
    report = Report()
    opts = BuildOptions(langs=("en",), out_dir=tmp_path / "out", exports=exports(40, tts=True))
    (out,) = build(open_root(root), ["mini"], opts, report)
    saved = {p.name: p for p in out.extra if p.suffix == ".json"}
    deck = json.loads(saved["main.json"].read_text("utf-8"))["ObjectStates"][0]
    assert sorted(deck["CustomDeck"]) == ["1", "2"]
    assert len(deck["DeckIDs"]) == 79
    per_sheet = [sum(1 for i in set(deck["DeckIDs"]) if i // 100 == k) for k in (1, 2)]
    assert per_sheet == [38, 37]  # evenly, not 70 + 5
    for key, entry in deck["CustomDeck"].items():
        assert entry["NumWidth"] * entry["NumHeight"] >= per_sheet[int(key) - 1]
    chips = [p for p in out.extra if p.name.startswith("chips-")]
    assert chips and all(p.parent.name.endswith("-png") for p in chips), "tokens: PNGs only"


def test_a_smaller_limit_is_kept_and_reported(tmp_path: Path) -> None:
    from pnp.cli.commands import app

    result = CliRunner().invoke(
        app,
        ["build", "fabg", "--lang", "en", "--tts", "--tts-max-px", "1024", "--root", str(REPO),
         "--out", str(tmp_path), "--force"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "TTS sheets drawn below 300 dpi to stay within 1024 px" in result.output
    assert "events" in result.output
    folder = tmp_path / "fabg" / "fabg-en-tts"
    for sheet in folder.glob("*.jpg"):
        with Image.open(sheet) as im:
            assert max(im.size) <= 1024
    check_decks("fabg", folder, max_px=1024)
    # off a terminal: one progress line for the PDF, none for each face
    assert len(re.findall(r"building \[1/1\]", result.output)) == 1
    assert "faces" not in result.output.split("wrote")[0]


# --- rasterising many faces to a page ---------------------------------------------------------
def _faces_and_game(game_id: str) -> tuple[Any, Any, dict[str, Size]]:
    game = _game(game_id)
    sizes = {o.id: item_size(game, o) for o in game.owners()}
    return game, face_pages(game, game.owners(), sizes), sizes


def _rasterise(game: Any, faces: list[Any], dpi: float, jobs: int = 1) -> dict[str, bytes]:
    from pnp.i18n import Translator
    from pnp.printing.render import Renderer
    from pnp.typeset.faces import FaceEngine
    from pnp.typeset.fonts import fontset

    root = open_root(REPO)
    fonts = fontset(root.fonts, game.print.font, game.print.fallback_fonts)
    translator = Translator(game, "en")
    engine = FaceEngine(game, root.game_dir(game.id), "en", translator, fonts)
    work = raster.plan(faces, [], dpi)
    pdf = Renderer(game, "en", engine, fonts, translator, "t").render(work.pages)
    seen: list[tuple[int, int]] = []
    files: dict[str, bytes] = {}
    raster.run(pdf, work.tasks, jobs, files.__setitem__, lambda d, t: seen.append((d, t)))
    assert seen and seen[-1][0] == seen[-1][1] == work.faces
    assert [d for d, _t in seen] == sorted(d for d, _t in seen)
    return files


def test_a_face_does_not_depend_on_its_neighbours() -> None:
    game, faces, _sizes = _faces_and_game("fabg")
    some = [f for f in faces if f.owner in ("roles", "events")][:9]
    together = _rasterise(game, some, 120)
    for face in some[:3]:
        alone = _rasterise(game, [face], 120)
        name = f"png/{face.name}.png"
        a = Image.open(io.BytesIO(alone[name])).convert("RGB")
        b = Image.open(io.BytesIO(together[name])).convert("RGB")
        assert a.size == (px(face.page.size.w, 120), px(face.page.size.h, 120))
        # the same pixels but for rounding in anti-aliasing: a face moved by a fraction of a
        # pixel, or drawn over its neighbour, would differ by far more
        diff = ImageChops.difference(a, b).convert("L")
        assert diff.getextrema()[1] <= 2, face.name
        assert sum(diff.histogram()[1:]) <= a.width * a.height // 1000, face.name


def test_jobs_give_the_same_files(tmp_path: Path, monkeypatch: Any) -> None:
    one, _ = _build(REPO, "fabg", tmp_path / "one", tts=True, png_dpi=60, jobs=1)
    import concurrent.futures  # raster imports its pool from here when it needs one

    pools: list[int] = []

    class Counted(concurrent.futures.ProcessPoolExecutor):
        def __init__(self, workers: int, **kw: Any) -> None:
            pools.append(workers)
            super().__init__(workers, **kw)

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", Counted)
    monkeypatch.setattr(raster, "PARALLEL_PIXELS", 0)  # small faces: in two processes all the same
    two, _ = _build(REPO, "fabg", tmp_path / "two", tts=True, png_dpi=60, jobs=2)
    assert pools == [2], "the faces were rasterised by two worker processes"
    files = {p.relative_to(tmp_path / "one") for p in one.extra}
    assert files == {p.relative_to(tmp_path / "two") for p in two.extra}
    assert not list(tmp_path.rglob("*.tmp")), "every staged file was put in place"
    for path in files:
        a, b = (tmp_path / "one" / path).read_bytes(), (tmp_path / "two" / path).read_bytes()
        if path.suffix == ".json":  # they name their own folder
            a, b = a.replace(b"/one/", b"/X/"), b.replace(b"/two/", b"/X/")
        assert a == b, path


def test_a_failed_build_leaves_nothing_staged(tmp_path: Path, monkeypatch: Any) -> None:
    def broken(task: raster.Task) -> Any:
        if task.sheet is not None:
            raise RuntimeError("disk on fire")
        return real(task)

    real = raster.run_task
    monkeypatch.setattr(raster, "run_task", broken)
    with pytest.raises(RuntimeError):
        _build(REPO, "fabg", tmp_path, tts=True, png_dpi=40)
    assert not [p for p in tmp_path.rglob("*") if p.is_file()], "nothing written, nothing left"


def test_plain_names_drop_markup() -> None:
    assert tts.plain("**Boss** of the {coin} _bank_") == "Boss of the coin bank"
    assert tts.plain("snake_case_name") == "snake_case_name"


def test_a_lone_card_is_saved_as_a_card(tmp_path: Path) -> None:
    from pnp.content.model import Card, Deck, Face
    from pnp.printing.export import FacePage
    from pnp.printing.imposition import Page

    deck = Deck(id="solo", back=Face(), cards=[Card(id="only", copies=1), Card(id="gone")])
    deck.cards[1].copies = 0  # not in the box: no cell, no card
    size = CARD_SIZES["tarot"]
    faces = [
        FacePage("solo-only-front", "solo", "only", "front", Page("fronts", size)),
        FacePage("solo-gone-front", "solo", "gone", "front", Page("fronts", size)),
        FacePage("solo-back", "solo", "", "back", Page("fronts", size)),
    ]
    (plan,) = tts.plan_decks([deck], faces, {"solo": size}, 300)
    assert [s.cells for s in plan.fronts] == [("solo-only-front",)]
    assert plan.back is not None and plan.back.cells == ("solo-back",)
    names = tts.Names(title=lambda c: c.id, name=lambda d: "Solo")
    obj = tts.deck_object(plan, tmp_path, size, names, 0.0)
    assert obj["Name"] == "Card" and obj["CardID"] == 100 and obj["Memo"] == "only"
    assert obj["CustomDeck"]["1"]["FaceURL"] == (tmp_path / "solo-faces-1.jpg").as_uri()
    assert obj["CustomDeck"]["1"]["BackURL"] == (tmp_path / "solo-back.jpg").as_uri()
    scale = obj["Transform"]  # a tarot card is larger than TTS's own (poker) card
    assert scale["scaleX"] > 1 and scale["scaleZ"] > 1  # type: ignore[index]


def test_a_scaled_sheet_of_art_shows_each_card(tmp_path: Path) -> None:
    """Below the PNGs' resolution, a deck with art is scaled from the PNGs' pixels: each cell
    is its card's PNG made smaller (by area averaging, as sharp as the HAMMING filter pnp
    used before: the two differ by a few levels), and far from the deck's other card."""
    from PIL import ImageDraw, ImageStat

    root = make_root(tmp_path, FIXTURES / "clean")
    game = root / "cards" / "mini"
    (game / "art").mkdir()
    art = Image.linear_gradient("L").resize((250, 350)).convert("RGB")
    draw = ImageDraw.Draw(art)
    draw.ellipse((30, 60, 200, 230), fill=(230, 40, 90))
    draw.rectangle((10, 250, 120, 330), fill=(20, 160, 60))
    art.save(game / "art" / "picture.png")
    decks = game / "decks.yaml"
    text = decks.read_text("utf-8").replace(
        "copies: 4\n", "copies: 4\n        art: art/picture.png\n"
    )
    decks.write_text(text, "utf-8")
    opts = BuildOptions(
        langs=("en",), out_dir=tmp_path / "out", exports=exports(100, True, 300), jobs=1
    )
    (out,) = build(open_root(root), ["mini"], opts, Report())
    png = {p.stem: _image(p) for p in out.extra if p.suffix == ".png"}
    deck = json.loads((out.path.parent / "mini-en-tts" / "main.json").read_text("utf-8"))
    obj = deck["ObjectStates"][0]
    cells = {}
    for card in _cards(obj):
        entry = obj["CustomDeck"][str(card["CardID"] // 100)]
        sheet = _image(_path(entry["FaceURL"]))
        cell = _cell(sheet, entry["NumWidth"], entry["NumHeight"], card["CardID"] % 100)
        cells[card["Memo"]] = cell
    assert {c.size for c in cells.values()} != {png["main-alpha-front"].size}, "scaled"

    def distance(a: Image.Image, b: Image.Image) -> float:
        small = b.resize(a.size, Image.Resampling.HAMMING)
        return sum(ImageStat.Stat(ImageChops.difference(a, small)).mean) / 3

    for own, other in (("alpha", "beta"), ("beta", "alpha")):
        near = distance(cells[own], png[f"main-{own}-front"])
        far = distance(cells[own], png[f"main-{other}-front"])
        assert near < 3 and far > 5 * near, (own, near, far)
