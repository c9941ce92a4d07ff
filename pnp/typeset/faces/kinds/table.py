"""Tables: a table of the game (tables:) drawn inside the element's box, at the largest font
size that fits."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ....content.model import Element, Game
from ....core.rules import OVERFLOW, SCHEMA
from ....core.units import mm, pt
from ..cuts import turned_box
from ..ops import TEXT_WEIGHT, Box, Ink, Op, Operation, Surface
from ..paint import faded
from ..shapes import Point
from ..tables import build_table, cell_text, table_fit_size, table_height
from .base import ElementKind, Layouter

if TYPE_CHECKING:
    from ..values import FaceCtx


@dataclass
class TableOp(Operation):
    """A table drawn inside a box, at the largest font size that fits."""

    box: Box
    header: list[str]
    rows: list[list[str]]
    size: float
    color: str
    stroke: str | None  # None: no grid
    rotate: float = 0.0

    def draw(self, s: Surface) -> None:
        """The table at the size the engine fitted, from the top of its box."""
        x, y, bw, bh = self.box
        table = build_table(
            self.header,
            self.rows,
            self.size,
            s.fonts,
            self.color,
            self.stroke,
            pt(bw),
            s.icons,
            lang=s.lang,
        )
        _w, th = table.wrap(pt(bw), pt(bh))
        with faded(s.canvas, self.opacity):
            table.drawOn(s.canvas, pt(x), pt(s.face_h - y) - th)

    def ink(self) -> Ink:
        return [(self.box, TEXT_WEIGHT)]

    def texts(self) -> list[list[Point]]:
        """Where its texts may lie: its box within the cells' padding (as turned)."""
        x, y, bw, bh = self.box
        side, top = mm(self.size * 0.3), mm(self.size * 0.15)
        return [turned_box((x + side, y + top, bw - 2 * side, bh - top), self.box, self.rotate)]


class Table(ElementKind):
    """A table of the game (tables:) inside the box."""

    key = "table"
    shows_text = True
    refers_to = "tables"

    def noun_of(self, el: Element) -> str:
        return f"table {el.table}"

    def assumed(self, el: Element, game: Game) -> bool:
        table = game.tables.get(el.table or "")
        return table is not None and table.assumption is not None

    def in_box(self, el: Element, box: Box, fc: FaceCtx, eng: Layouter) -> Op | None:
        table = eng.game.tables.get(el.table or "")
        if table is None:
            return None
        t = eng.translator.text
        header = [t(c.title) if c.title else c.id for c in table.columns]
        rows = [
            [
                cell_text(cells.get(col.id, ""), col.unit, eng.lang, t, col.labels)
                for col in table.columns
            ]
            for cells in table.cells
        ]
        low = el.min_size or el.size * 0.6
        fonts, icons, lang = eng.fonts, eng.icons, eng.lang
        size = table_fit_size(header, rows, box, el.size, low, fonts, icons, lang)
        if size is None and table_height(header, rows, low, fonts, pt(box[2]), icons, lang) is None:
            if eng.first("table", str(el.at("box"))):
                eng.issues.append(
                    eng.issue(
                        SCHEMA,
                        el.at("box"),
                        f"table {table.id} cannot be drawn in a box {box[2]:.3g} mm wide: its "
                        f"{len(header)} columns are narrower than their margins; widen the box",
                        lang=False,
                    )
                )
            return None
        if size is None:
            eng.issues.append(
                eng.issue(
                    OVERFLOW,
                    el.at("table"),
                    f"[{eng.lang}] table {table.id} does not fit its box even at "
                    f"{el.min_size or el.size * 0.6:g} pt; enlarge the box",
                )
            )
            size = el.min_size or el.size * 0.6
        text = fc.palette["text"]
        op = TableOp(
            box,
            header,
            rows,
            size,
            eng.paint(el, "color", fc, text) or text,
            eng.paint(el, "stroke", fc, "#666666"),
            rotate=el.rotate % 360,
        )
        self.ink_clear(eng, el, box, op.texts, f"texts of table {table.id}")
        return op
