"""Tabletop Simulator: tokens and boards beside the decks, in the game's saved object
(``GAME.table.json``; :mod:`.tts` makes the decks).

Each token is a ``Custom_Tile`` (TTS's object for a flat piece of a shape: circle, hexagon or
square, ``CustomTile.Type``) with its front as ``ImageURL`` and its back as
``ImageSecondaryURL``; the copies of a token set's tokens are in one ``Bag`` named after the
set. Each board is a ``Custom_Board`` (its image is the board; TTS sizes it from the image).
Every image is a JPEG of its own, the face drawn once, no larger than the sheets' limit.
The field names follow TTS's knowledge base (save file format, custom tile, custom board).

TTS does not document the size of a tile at scale 1; pnp takes it as :data:`TILE_MM` across,
an assumption, so tokens come out roughly to scale beside the cards (a player can rescale).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..content.model import Board, Card, TokenSet
from ..core.units import Size
from .tts import GREY, Names, Sheet, _guid, _object, address, fit

if TYPE_CHECKING:
    from .export import FacePage

TILE_TYPE = {"square": 0, "hex": 1, "round": 2}  # CustomTile.Type: Box, Hex, Circle
TILE_MM = 50.8  # ASSUMED: a Custom_Tile at scale 1 is 2 in across
TILE_THICKNESS = 0.1  # TTS units: a thin token
ROW_Z = -8.0  # where the token bags stand, before the decks
BOARD_Z = 12.0  # and the boards, behind them


@dataclass
class TokenSheets:
    """A token set's images: each token's front and back (the set's shared back once)."""

    tokens: TokenSet
    faces: dict[str, tuple[Sheet, Sheet | None]] = field(default_factory=dict)
    scaled: bool = False

    @property
    def sheets(self) -> list[Sheet]:
        return list({s.file: s for pair in self.faces.values() for s in pair if s}.values())


@dataclass
class BoardSheets:
    board: Board
    front: Sheet
    back: Sheet | None
    scaled: bool = False

    @property
    def sheets(self) -> list[Sheet]:
        return [self.front, *([self.back] if self.back else [])]


def _one(file: str, face: str, size: Size, dpi: float, max_px: int) -> tuple[Sheet, bool]:
    cell, eff = fit(size, 1, 1, dpi, max_px)
    return Sheet(file, 1, 1, cell, eff, (face,)), eff < dpi


def plan_tokens(
    sets: list[TokenSet], faces: list[FacePage], sizes: dict[str, Size], dpi: float, max_px: int
) -> list[TokenSheets]:
    """The images of every token set with tokens in the box."""
    by_key = {(f.owner, f.card, f.side): f.name for f in faces}
    out = []
    for ts in sets:
        tokens = [t for t in ts.cards if t.copies > 0]
        if not tokens:
            continue
        plan = TokenSheets(ts)
        size = sizes[ts.id]
        shared = by_key.get((ts.id, "", "back"))
        back_sheet = None
        if shared is not None:
            back_sheet, scaled = _one(f"token-{ts.id}-back.jpg", shared, size, dpi, max_px)
            plan.scaled |= scaled
        for token in tokens:
            front, scaled = _one(
                f"token-{ts.id}-{token.id}.jpg", by_key[(ts.id, token.id, "front")], size, dpi,
                max_px,
            )  # fmt: skip
            plan.scaled |= scaled
            back = back_sheet
            own = by_key.get((ts.id, token.id, "back"))
            if own is not None:
                back, scaled = _one(f"token-{ts.id}-{token.id}-back.jpg", own, size, dpi, max_px)
                plan.scaled |= scaled
            plan.faces[token.id] = (front, back)
        out.append(plan)
    return out


def plan_boards(
    boards: list[Board], faces: list[FacePage], dpi: float, max_px: int
) -> list[BoardSheets]:
    """The images of every board: within the sheets' limit, so large boards are drawn at a
    lower resolution."""
    by_key = {(f.owner, f.card, f.side): f.name for f in faces}
    out = []
    for board in boards:
        owner = f"board-{board.id}"  # export.board_pages
        front = by_key.get((owner, board.id, "front"))
        if front is None:
            continue  # too large to draw (export.board_pages said so)
        sheet, scaled = _one(f"board-{board.id}.jpg", front, board.size, dpi, max_px)
        back = None
        face = by_key.get((owner, board.id, "back"))
        if face is not None:
            back, more = _one(f"board-{board.id}-back.jpg", face, board.size, dpi, max_px)
            scaled |= more
        out.append(BoardSheets(board, sheet, back, scaled))
    return out


def _image(front: str, back: str | None, extra: dict[str, object]) -> dict[str, object]:
    return {
        "ImageURL": front,
        "ImageSecondaryURL": back or "",
        "ImageScalar": 1.0,
        "WidthScale": 0.0,
        **extra,
    }


def _flat(x: float, z: float, scale: float = 1.0) -> dict[str, float]:
    return {
        "posX": x, "posY": 1.0, "posZ": z, "rotX": 0.0, "rotY": 180.0, "rotZ": 0.0,
        "scaleX": scale, "scaleY": 1.0, "scaleZ": scale,
    }  # fmt: skip


Title = Callable[[Card], str]


def token_bag(
    plan: TokenSheets, folder: Path, names: Names, set_name: str, x: float
) -> dict[str, object]:
    """A bag holding one Custom_Tile per copy of each token of the set."""
    ts = plan.tokens
    scale = round(ts.size / TILE_MM, 4)
    tiles: list[dict[str, object]] = []
    for token in ts.cards:
        if token.id not in plan.faces:
            continue
        front, back = plan.faces[token.id]
        image = _image(
            address(folder, front.file, names.url),
            address(folder, (back or front).file, names.url),
            {
                "CustomTile": {
                    "Type": TILE_TYPE.get(ts.shape, 0),
                    "Thickness": TILE_THICKNESS,
                    "Stackable": True,
                    "Stretch": True,
                }
            },
        )
        for copy in range(token.copies):
            tile = _object(
                "Custom_Tile",
                _guid("token", ts.id, token.id, str(copy)),
                names.title(token),
                _flat(0.0, 0.0, scale),
                names.describe(token) if names.describe else "",
            )
            tile.update(CustomImage=image, Memo=token.id)
            tile["Hands"] = False
            tiles.append(tile)
    bag = _object("Bag", _guid("token", ts.id), set_name, _flat(x, ROW_Z))
    bag.update(ColorDiffuse=dict(GREY), ContainedObjects=tiles, Memo=ts.id)
    return bag


def board_object(plan: BoardSheets, folder: Path, names: Names, name: str, x: float) -> dict:
    """A Custom_Board showing the board's front (its back, if it has one, as the secondary
    image)."""
    board = plan.board
    front = address(folder, plan.front.file, names.url)
    back = address(folder, plan.back.file, names.url) if plan.back else None
    obj = _object("Custom_Board", _guid("board", board.id), name, _flat(x, BOARD_Z))
    obj.update(CustomImage=_image(front, back, {}), Memo=board.id, Locked=True)
    obj["Hands"] = False
    return obj
