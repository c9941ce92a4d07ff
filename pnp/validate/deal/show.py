"""A dealt set-up as text (as a player lays it out) and as JSON, for ``pnp setup``."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from typing import Any

from ...content.model import Game, Scenario, Text
from ...i18n.words import ngettext, tr
from ...typeset.markup import plain_text
from . import TableDeal
from .engine import Dealt, Zone
from .odds import ZoneOdds
from .tabled import TableZone, chances

LISTED = 8  # names listed before "and N more"
SHORT = 24  # characters: an untitled card's text short enough to name it
_VALUE_RE = re.compile(r"\{([A-Za-z_][A-Za-z0-9_-]*)\}")

Namer = Callable[[Text | None], str]


class Shower:
    """Names the game's things in one language (``text``: a Translator's text)."""

    def __init__(self, game: Game, text: Namer) -> None:
        self.game = game
        self._text = text
        self.cards = {c.id: c for _o, c in game.every_card()}
        self.icons = {name: icon.glyph or f"[{name}]" for name, icon in game.icons.items()}
        self.marks: dict[str, Text] = {}  # tag -> the mark: a step's filter of it gives
        for sc in game.scenarios.values():
            for step in sc.cards:
                for flt in (step.only, step.exclude, step.each_pile):
                    if flt is not None and flt.tag and flt.mark is not None and not flt.values:
                        self.marks.setdefault(flt.tag, flt.mark)

    def text(self, value: Text | None) -> str:
        """A text in the chosen language, its markup as a terminal shows it."""
        return self.plain(self._text(value))

    def plain(self, said: str) -> str:
        return plain_text(said, self.icons)

    def card(self, cid: str) -> str:
        """A card by its title; an untitled one (a number token) by the first text it prints,
        its values filled in, else by its id."""
        card = self.cards.get(cid)
        if card is None:
            return cid
        if card.title:
            return self.text(card.title)
        for _name, said in card.texts():
            shown = _VALUE_RE.sub(
                lambda m: str(card.values.get(m.group(1), m.group(0))), self.text(said)
            ).strip()
            if shown and len(shown) <= SHORT:
                return shown
        return cid

    def owner(self, oid: str) -> str:
        thing = self.game.decks.get(oid) or self.game.tokens.get(oid)
        return self.text(thing.name) if thing is not None and thing.name else oid

    def cards_listed(self, ids: list[str], grouped: bool = True) -> str:
        """Card names, copies grouped (``Guard ×5``) unless their order matters."""
        if grouped:
            counted = Counter(ids)
            names = [self.card(c) + (f" ×{n}" if n > 1 else "") for c, n in sorted(counted.items())]
        else:
            names = [self.card(c) for c in ids]
        if len(names) > LISTED:
            more = len(names) - LISTED
            return (
                ", ".join(names[:LISTED])
                + " "
                + ngettext("and {n} more", "and {n} more", more).format(n=more)
            )
        return ", ".join(names)

    def kind(self, kind: str) -> str:
        """A card, or the cards of a tag: by the mark a step's filter gives that tag (how the
        players recognise them, in their language), else the tag as written, quoted."""
        what, _, name = kind.partition(":")
        if what == "card":
            return self.card(name)
        mark = self.marks.get(name)
        return self.text(mark) if mark is not None else f"“{name}”"


def heading(game: Game, sh: Shower, dealt: Dealt | None, players: int, seed: int) -> str:
    parts = [sh.text(game.meta.title)]
    if dealt is not None and dealt.scenario is not None:
        sc = dealt.scenario
        parts.append(sh.text(sc.name) if sc.name else sc.id)
    parts.append(ngettext("{n} player", "{n} players", players).format(n=players))
    if dealt is not None and dealt.difficulty is not None:
        level = dealt.difficulty
        parts.append(tr("difficulty: {level}").format(level=sh.text(level.name) or level.id))
    parts.append(tr("seed {seed}").format(seed=seed))
    return " — ".join(parts)


def scenario_lines(sh: Shower, sc: Scenario) -> list[str]:
    """The boards, the tracks' starting values and the set-up text of a scenario."""
    lines: list[str] = []
    for ref in sc.boards:
        board = sh.game.boards.get(ref.board)
        name = (
            sh.text(board.name or board.title)
            if board and (board.name or board.title)
            else ref.board
        )
        side = {"front": "A", "back": "B"}.get(ref.side, ref.side)
        where = f" — {sh.text(ref.where)}" if ref.where else ""
        if board is not None and board.back is None:
            lines.append(f"  {name}{where}")
        else:
            placed = tr("{board}, side {side} up").format(board=name, side=side)
            lines.append(f"  {placed}{where}")
    if lines:
        lines.insert(0, tr("Boards"))
    starts = []
    for track_id, value in sc.start.items():
        track = sh.game.tracks.get(track_id)
        starts.append(f"{sh.text(track.name) if track and track.name else track_id} {value}")
    if starts:
        lines.append(tr("Starting values: {tracks}").format(tracks=", ".join(starts)))
    if sc.setup:
        lines.append(sh.text(sc.setup))
    return lines


def zone_line(sh: Shower, zone: Zone) -> str:
    n = len(zone.cards)
    if zone.kind == "hand":
        said = tr("player {n}: {cards}").format(n=zone.index, cards=sh.cards_listed(zone.cards))
    elif zone.kind == "row":
        said = ngettext("face up ({n}): {cards}", "face up ({n}): {cards}", n).format(
            n=n, cards=sh.cards_listed(zone.cards, False)
        )
    elif zone.kind == "pile":
        said = ngettext(
            "pile {i}: {n} card, face down", "pile {i}: {n} cards, face down", n
        ).format(i=zone.index, n=n)
        if zone.extra is not None:
            place = zone.cards.index(zone.extra) + 1
            said += " " + tr("({card} shuffled in: card {place} from the top)").format(
                card=sh.card(zone.extra), place=place
            )
    elif zone.kind == "deck" and zone.index:
        said = ngettext(
            "the {piles} piles stacked, larger ones on top: a deck of {n} card",
            "the {piles} piles stacked, larger ones on top: a deck of {n} cards",
            n,
        ).format(piles=zone.index, n=n)
    elif zone.kind == "deck":
        said = ngettext("deck, face down: {n} card", "deck, face down: {n} cards", n).format(n=n)
    elif zone.kind == "aside":
        said = ngettext("set aside ({n}): {cards}", "set aside ({n}): {cards}", n).format(
            n=n, cards=sh.cards_listed(zone.cards)
        )
    elif zone.kind == "removed":
        said = ngettext(
            "out of the game ({n}): {cards}", "out of the game ({n}): {cards}", n
        ).format(n=n, cards=sh.cards_listed(zone.cards))
    else:
        said = in_the_box(sh, zone.cards)
    return "  " + said


def in_the_box(sh: Shower, cards: list[str]) -> str:
    n = len(cards)
    return ngettext("back in the box ({n}): {cards}", "back in the box ({n}): {cards}", n).format(
        n=n, cards=sh.cards_listed(cards)
    )


def deck_lines(sh: Shower, dealt: Dealt) -> list[str]:
    """Each deck the scenario prepares, with what it laid out, in the order of its steps."""
    order: list[str] = []
    for zone in dealt.zones:
        if zone.owner not in order:
            order.append(zone.owner)
    lines: list[str] = []
    for owner in order:
        lines.extend(["", sh.owner(owner)])
        lines.extend(zone_line(sh, z) for z in dealt.zones if z.owner == owner)
    return lines


def table_lines(sh: Shower, deals: list[TableDeal], players: int) -> list[str]:
    if not deals:
        return []
    lines = [
        "",
        ngettext(
            "From the setup tables, for {n} player:",
            "From the setup tables, for {n} players:",
            players,
        ).format(n=players),
    ]
    for d in deals:
        table = sh.game.tables[d.table]
        col = table.column(d.column)
        title = sh.text(table.title) if table.title else d.table
        what = sh.text(col.title) if col is not None and col.title else d.column
        source = ", ".join(sh.card(c) for c in d.cards) if d.cards else sh.owner(d.source)
        said = ngettext(
            "{table} ({key}), {what}: {n} from {source}",
            "{table} ({key}), {what}: {n} from {source}",
            d.count,
        ).format(table=title, key=sh.plain(d.key), what=what, n=d.count, source=source)
        if d.each:
            said += " " + ngettext("({n} for each player)", "({n} for each player)", d.each).format(
                n=d.each
            )
        lines.append("  " + said)
    return lines


def laid_lines(sh: Shower, zones: list[TableZone]) -> list[str]:
    """The table rows' cards as dealt: each row's hands, decks and what goes back in the box."""
    lines: list[str] = []
    row = None
    for z in zones:
        if (z.table, z.key) != row:
            row = (z.table, z.key)
            table = sh.game.tables[z.table]
            title = sh.text(table.title) if table.title else z.table
            lines.extend(["", f"{title} ({sh.plain(z.key)}), " + tr("dealt:")])
        lines.append(_laid_line(sh, z))
    return lines


def _laid_line(sh: Shower, z: TableZone) -> str:
    n = len(z.cards)
    if z.kind == "hand" and not z.cards:
        said = ""
    elif z.kind == "hand":
        said = tr("player {n}: {cards}").format(n=z.index, cards=sh.cards_listed(z.cards))
    elif z.kind == "deck":
        said = ngettext("{deck}, face down: {n} card", "{deck}, face down: {n} cards", n).format(
            deck=sh.owner(z.owner), n=n
        )
    else:
        said = in_the_box(sh, z.cards)
    if z.short:
        short = ngettext(
            "({n} missing: the box has too few)", "({n} missing: the box has too few)", z.short
        )
        said += (" " if said else "") + short.format(n=z.short)
    return "  " + said


def laid_odds_lines(sh: Shower, zones: list[TableZone]) -> list[str]:
    """Each table-dealt hand and deck's size and chances; hands dealt alike are said once."""
    lines: list[str] = []
    said: set[tuple[str, str, str]] = set()
    for z in zones:
        if z.law is None or (z.kind == "hand" and (z.table, z.key, z.kind) in said):
            continue
        found = chances(sh.game, z)
        said.add((z.table, z.key, z.kind))
        label = tr("each player's hand") if z.kind == "hand" else tr("deck")
        text = " · ".join(
            f"{sh.kind(c.kind)} {100 * c.chance:.1f} % ({c.expected:.2f})" for c in found
        )
        lines.append(
            f"  {sh.owner(z.owner)}, {label} ({z.law.size})" + (f": {text}" if text else "")
        )
    return lines


def odds_lines(sh: Shower, found: list[ZoneOdds], deals: int, laid: list[str]) -> list[str]:
    """The chances of the scenario's groups (``found``), then the tables' (``laid``)."""
    lines = [
        ngettext(
            "Sizes and chances (exact: hypergeometric; ~ counted over {n} deal): the chance "
            "of at least one, and how many on average",
            "Sizes and chances (exact: hypergeometric; ~ counted over {n} deals): the chance "
            "of at least one, and how many on average",
            deals,
        ).format(n=deals)
    ]
    for zo in found:
        z = zo.zone
        label = {
            "hand": tr("hand of player {n}").format(n=z.index),
            "row": tr("face up"),
            "pile": tr("pile {n}").format(n=z.index),
        }.get(z.kind, z.kind)
        lo, hi = zo.sizes
        size = str(lo) if lo == hi else f"{lo}-{hi}"
        mark = "" if zo.exact else "~"
        chances = " · ".join(
            f"{sh.kind(c.kind)} {mark}{100 * c.chance:.1f} % ({c.expected:.2f})" for c in zo.chances
        )
        lines.append(
            f"  {sh.owner(z.owner)}, {label} ({size})" + (f": {chances}" if chances else "")
        )
    lines.extend(laid)
    if len(lines) == 1:
        lines.append("  " + tr("nothing is dealt at random into a hand, a row or a pile"))
    return lines


def as_json(
    dealt: Dealt | None,
    deals: list[TableDeal],
    found: list[ZoneOdds] | None,
    seed: int,
    laid: list[TableZone] | None = None,
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "scenario": dealt.scenario.id if dealt and dealt.scenario else None,
        "players": dealt.players if dealt else None,
        "difficulty": dealt.difficulty.id if dealt and dealt.difficulty else None,
        "seed": seed,
        "zones": [
            {
                "kind": z.kind,
                "deck": z.owner,
                "step": z.step + 1,
                "index": z.index,
                "cards": z.cards,
            }
            for z in (dealt.zones if dealt else [])
        ],
        "tables": [
            {"table": d.table, "row": d.key, "column": d.column, "count": d.count,
             "each": d.each or None, "cards": d.cards, "from": d.source}
            for d in deals
        ],
    }  # fmt: skip
    out["dealt_from_tables"] = [
        {"kind": z.kind, "table": z.table, "row": z.key, "deck": z.owner, "index": z.index,
         "cards": z.cards, "missing": z.short}
        for z in laid or []
    ]  # fmt: skip
    if found is not None:
        out["odds"] = [
            {
                "kind": zo.zone.kind,
                "deck": zo.zone.owner,
                "index": zo.zone.index,
                "sizes": list(zo.sizes),
                "exact": zo.exact,
                "chances": {c.kind: round(c.chance, 4) for c in zo.chances},
                "expected": {c.kind: round(c.expected, 4) for c in zo.chances},
            }
            for zo in found
        ]
    return out


def as_text(
    sh: Shower,
    dealt: Dealt | None,
    players: int,
    seed: int,
    tables: list[TableDeal],
    laid: list[TableZone],
    odds_asked: tuple[list[ZoneOdds], int] | None,
) -> str:
    """The whole set-up as ``pnp setup`` prints it (``odds_asked``: the chances and how many
    deals counted them, when asked for)."""
    lines = [heading(sh.game, sh, dealt, players, seed), ""]
    if dealt is not None and dealt.scenario is not None:
        lines.extend(scenario_lines(sh, dealt.scenario))
        lines.extend(deck_lines(sh, dealt))
    lines.extend(table_lines(sh, tables, players))
    lines.extend(laid_lines(sh, laid))
    if odds_asked is not None:
        found, deals = odds_asked
        lines.extend(["", *odds_lines(sh, found, deals, laid_odds_lines(sh, laid))])
    kept = [line for i, line in enumerate(lines) if line or (i and lines[i - 1])]
    return "\n".join(kept)
