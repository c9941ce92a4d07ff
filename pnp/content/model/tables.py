"""Tables (setup, victory and lookup tables: columns, rows, totals, what they deal and what
their key column covers) and the box's component list."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any, ClassVar, Literal

from ...core.findings import Pos
from ..schema import INVALID, Context, Custom, Located, describe, fld
from ..yamlio import YMap, YSeq
from .text import Text
from .types import SheetSource


@dataclass
class Deal(Located):
    """What a table column takes out of the box: copies of cards, a deck, or tokens."""

    label: ClassVar[str] = "a deal"

    card: str | list[str] | None = fld(None, doc="card id(s) whose copies are dealt")
    deck: str | None = fld(None, doc="deck whose cards are dealt")
    tokens: str | None = fld(None, doc="token set whose tokens are dealt")
    per: Literal["game", "player"] = fld("game", doc="the cell counts per game or per player")


@dataclass
class Column(Located):
    label: ClassVar[str] = "a table column"

    id: str = fld(doc="column id, used by rows written as mappings and by totals")
    title: Text | None = fld(None, doc="column heading")
    deals: Deal | None = fld(None, doc="the box components this column takes")
    unit: str | None = fld(None, doc="unit printed after numbers, e.g. ₽")
    labels: dict[str, Text] = fld(
        default_factory=dict,
        doc="what each code in this column's cells prints (a text, translatable, or an icon): "
        "black+red prints as the labels of black and red; checks still compare the codes",
    )


@dataclass
class Total(Located):
    """A row constraint: the sum of some columns equals another column or a number."""

    label: ClassVar[str] = "a total"

    of: list[str] = fld(doc="columns to add up")
    equals: str | int = fld(doc="a column id or a number the sum must equal")


class Row(Custom):
    """A table row: a list of cells in column order, or a mapping column -> cell."""

    type_label = "a row (list of cells or mapping column -> cell)"

    def __init__(self, cells: Any, pos: Pos, cpos: Any) -> None:
        self.cells = cells  # list or dict of raw cell values
        self.pos = pos
        self.cpos = cpos  # list or dict of positions

    @classmethod
    def from_yaml(cls, value: Any, pos: Pos, ctx: Context) -> Any:
        if isinstance(value, YSeq):
            return cls(list(value), pos, list(value.ipos))
        if isinstance(value, YMap):
            return cls(dict(value), pos, dict(value.vpos))
        ctx.error(pos, f"expected a row (a list of cells or a mapping), found {describe(value)}")
        return INVALID

    @classmethod
    def json_schema(cls) -> dict[str, Any]:
        return {"anyOf": [{"type": "array"}, {"type": "object"}]}


Dice = Literal["d2", "d3", "d4", "d6", "d8", "d10", "d12", "d20", "2d6", "d66", "d100"]


@dataclass
class Combinations(Located):
    """The keys of a table indexed by combinations, e.g. unordered pairs of cube colours."""

    label: ClassVar[str] = "combinations"

    of: list[str] = fld(doc="the items combined, e.g. [black, white, blue, red, yellow]")
    size: int = fld(2, doc="how many items per combination")
    repeat: bool = fld(False, doc="an item may appear twice (black+black)")
    ordered: bool = fld(False, doc="order matters (black+white differs from white+black)")


@dataclass
class Covers(Located):
    """What the key column of a lookup table must cover exactly once."""

    label: ClassVar[str] = "covers"

    dice: (
        Literal["d2", "d3", "d4", "d6", "d8", "d10", "d12", "d20", "2d6", "d66", "d100"] | None
    ) = fld(None, doc="every outcome of these dice")
    range: list[int] | None = fld(None, doc="every whole number from..to, e.g. [0, 3]")
    combinations: Combinations | None = fld(None, doc="every combination of items")
    track: str | None = fld(None, doc="every space of this track, from its min to its max")
    key: str | None = fld(None, doc="the key column (default: the first)")

    def check(self, ctx: Context) -> None:
        kinds = ("dice", "range", "combinations", "track")
        given = [k for k in kinds if self.given(k)]
        valid = [k for k in kinds if getattr(self, k) is not None]
        # a value the schema refused is reported where it is written, not again here
        refused = {f.pos for f in ctx.report.findings} & {self.at(k) for k in given}
        if len(given) > 1:
            ctx.error(
                self.at(given[1]),
                f"covers: takes one of dice:, range:, combinations: or track:, not "
                f"{' and '.join(given)}",
            )
        elif not valid and not refused:
            ctx.error(
                self.at(given[0]) if given else self.pos,
                "covers: needs one of dice:, range:, combinations: or track:, with a value",
            )
        if self.range is not None and (len(self.range) != 2 or self.range[0] > self.range[1]):
            ctx.error(self.at("range"), "range is [from, to] with from <= to")
        elif self.range is not None and self.range[1] - self.range[0] > 100_000:
            ctx.error(self.at("range"), "a range of more than 100,000 values")


@dataclass
class Table(Located):
    """A setup, victory or lookup table: columns, rows, and constraints the validator checks."""

    label: ClassVar[str] = "a table"

    id: str = fld("", doc="table id (the key under tables:)")
    title: Text | None = fld(None, doc="heading printed above the table")
    columns: list[Column] = fld(default_factory=list, doc="the columns, the key column first")
    rows: Annotated[list[Row], SheetSource] = fld(
        default_factory=list,
        doc="rows: lists in column order or mappings, or a spreadsheet (file or {file:, sheet:})",
    )
    total: list[Total] = fld(default_factory=list, doc="sums each row must satisfy")
    note: Text | None = fld(None, doc="a note printed under the table")
    sheet: bool = fld(True, doc="print this table on the setup sheet")
    assumption: str | None = fld(
        None, doc="this copy's own table where the rulebook is silent: why, or what it says"
    )
    covers: Covers | None = fld(
        None, doc="a dice or lookup table: the outcomes its key column must cover once"
    )

    # filled by check(): rows as mapping column id -> value, and cell positions
    cells: list[dict[str, Any]] = field(
        default_factory=list, repr=False, metadata={"internal": True}
    )
    cell_pos: list[dict[str, Pos]] = field(
        default_factory=list, repr=False, metadata={"internal": True}
    )

    def check(self, ctx: Context) -> None:
        ids = [c.id for c in self.columns]
        for row in self.rows:
            values: dict[str, Any] = {}
            positions: dict[str, Pos] = {}
            if isinstance(row.cells, list):
                if len(row.cells) != len(ids):
                    ctx.error(
                        row.pos,
                        f"this row has {len(row.cells)} cells, the table has {len(ids)} columns "
                        f"({', '.join(ids)})",
                    )
                for cid, v, p in zip(ids, row.cells, row.cpos, strict=False):
                    values[cid] = v
                    positions[cid] = p
            else:
                for k, v in row.cells.items():
                    if k not in ids:
                        ctx.error(
                            row.cpos.get(k, row.pos),
                            f"unknown column {k!r}; columns: {', '.join(ids)}",
                        )
                        continue
                    values[k] = v
                    positions[k] = row.cpos[k]
            for cid, v in list(values.items()):
                if v is None or v == "-":
                    values[cid] = 0  # "-" in a rulebook table means none
                elif isinstance(v, YMap):  # a text in several languages
                    ctx.path.extend(["rows", str(len(self.cells)), cid])
                    try:
                        text = Text.from_yaml(v, positions[cid], ctx)
                    finally:
                        del ctx.path[-3:]
                    values[cid] = text if text is not INVALID else ""
                elif isinstance(v, YSeq):
                    ctx.error(positions[cid], "a cell holds a number or a text, not a list")
                    values[cid] = 0
            self.cells.append(values)
            self.cell_pos.append(positions)

    def column(self, cid: str) -> Column | None:
        return next((c for c in self.columns if c.id == cid), None)


# --- the box (component manifest) -------------------------------------------------------------


@dataclass
class BoxEntry(Located):
    """One line of the component list: how many of something the box holds."""

    label: ClassVar[str] = "a box entry"

    count: int = fld(doc="how many the rulebook says the box holds", bounds=(0, None))
    item: Text | None = fld(None, doc="the line as printed in the component list")
    card: str | list[str] | None = fld(None, doc="card id(s): their copies are counted")
    deck: str | list[str] | None = fld(None, doc="deck id(s): all their cards are counted")
    tokens: str | list[str] | None = fld(None, doc="token set id(s)")
    token: str | list[str] | None = fld(None, doc="single token id(s)")
    board: str | list[str] | None = fld(None, doc="board id(s)")
    tag: str | None = fld(None, doc="count every card and token with this tag")
    unit: Literal["copies", "cards"] = fld(
        "copies", doc="copies: count every copy; cards: count distinct cards"
    )
    bring: bool = fld(
        False,
        doc="not printed: the players bring it (real coins, dice, a bag); the home copy's "
        "component list says so. Such a line names no card, deck, token or board",
    )
    per_player: int | None = fld(
        None,
        doc="how many of these each player needs (a screen, a marker, a player aid): the "
        "count must hold that many for the most players the game allows; {per_player} prints it",
        bounds=(1, None),
    )

    SELECTORS: ClassVar[tuple[str, ...]] = ("card", "deck", "tokens", "token", "board", "tag")

    def check(self, ctx: Context) -> None:
        chosen = [s for s in self.SELECTORS if getattr(self, s) is not None]
        if self.bring:
            if chosen:
                ctx.error(
                    self.at(chosen[0]),
                    "a box entry the players bring (bring: true) is not printed, so it names "
                    f"no {chosen[0]}: remove {chosen[0]}, or remove bring to count what is printed",
                )
            if self.item is None:
                ctx.error(self.pos, "a box entry the players bring needs its item text")
        elif len(chosen) != 1:
            ctx.error(
                self.pos,
                "a box entry counts exactly one kind of thing: give one of "
                + ", ".join(self.SELECTORS)
                + (f" (it has {', '.join(chosen)})" if chosen else "")
                + ", or bring: true for what the players bring",
            )
