"""Limits that protect the build from content that would cost it far more than it is worth:
what validation refuses here, the build would have paid for in memory or time."""

from __future__ import annotations

from ..content.assets import AssetError, probe_image, resolve
from ..content.model import Game
from ..core.rules import BAD_IMAGE, SCHEMA
from .context import CheckContext, check

# An icon prints a few millimetres wide: 1024 px is 600 dpi up to 43 mm. reportlab decodes an
# icon to draw it, so an icon of 7,700 px square would cost about 240 MB of memory.
ICON_MAX_PX = 1024
# A table on the setup sheet: 5,000 one-line rows are about 90 A4 pages. The sheet itself stops
# at printing.render.setup.MAX_SETUP_PAGES pages (an error, never a sheet cut short).
SHEET_TABLE_ROWS = 5_000


@check
def icon_sizes(game: Game, ctx: CheckContext) -> None:
    for icon in game.icons.values():
        if not icon.image:
            continue
        try:
            info = probe_image(resolve(ctx.game_dir, icon.image, what="icon image"))
        except AssetError:
            continue  # reported by the files check
        if max(info.width, info.height) > ICON_MAX_PX:
            ctx.add(
                BAD_IMAGE,
                icon.at("image"),
                f"icon image {icon.image!r} is {info.width}x{info.height} pixels; an icon "
                f"prints a few millimetres wide: scale it to at most {ICON_MAX_PX} pixels a side",
            )


@check
def setup_table_rows(game: Game, ctx: CheckContext) -> None:
    sheet = game.meta.setup_sheet
    printed = (
        sheet.tables if sheet and sheet.tables else [t for t, tb in game.tables.items() if tb.sheet]
    )
    for tid in dict.fromkeys(printed):
        table = game.tables.get(tid)
        if table is not None and len(table.rows) > SHEET_TABLE_ROWS:
            ctx.add(
                SCHEMA,
                table.at("rows"),
                f"table {tid} has {len(table.rows):,} rows; the setup sheet prints at most "
                f"{SHEET_TABLE_ROWS:,} rows of a table: split it, or keep it off the sheet "
                "(sheet: false, and not in setup_sheet.tables)",
            )
