"""A number written twice agrees with itself: where a text or a scenario still writes a number
that the data it belongs to holds, the two copies must agree (a reference writes it once:
docs/format.md, References).

- ``text-number``: a track's name (in that language, or the abbreviation in its name's
  brackets) followed by a number (``FP 1``, ``the Race track ends at 20``) writes a space the
  track does not have, or, on a long track, the space just before its last (the end of the
  track before it grew); a scenario step's note writes numbers, and none of them is a number
  the step draws, deals, reveals or splits into (``The 5 face-up cards…`` for ``reveal: 6``);
- ``draw-table``: a scenario step draws (reveals, deals to each player), from a deck a setup
  table deals, other numbers than the table for some player counts and the same for others
  (one copy of the figures went stale), or one number while the table deals another one for
  every count.

A line of the component list and its count are ``box-count``'s (pnp.validate.box).
"""

from __future__ import annotations

import functools
import re

from ..content.expr import is_whole
from ..content.model import Card, DeckStep, DrawFrom, Game, Scenario, Table, Track, plain
from ..content.queries import ids_of, player_range, step_count
from ..content.records import key_column
from ..content.refs import player_counts
from ..core.english import counted
from ..core.rules import DRAW_TABLE, SETUP_DEAL, TEXT_NUMBER
from ..i18n.words import builtin
from .context import CheckContext, check
from .numbers import quote, written
from .sentences import without_dice
from .texts import checked_languages, text_in, text_pos

# a track this long or longer: a number one short of its end is taken for its stale end
LONG_TRACK = 10
_BRACKETS_RE = re.compile(r"\s*[(\[]([^()\[\]]*)[)\]]\s*")


def _names_of(track: Track, lang: str, game: Game) -> list[str]:
    """How a text names a track in ``lang``, as patterns: its name, its name without
    brackets, and an abbreviation in the brackets (``Fuerza Patronal (FP)``: also ``FP``). A
    name of one word is matched as written (``Salario``, not ``salario``: a common word), a
    longer one in any case."""
    if track.name is None:
        return []
    name = track.name.values.get(lang) or track.name.values.get(game.source_language) or ""
    words: list[str] = []
    bare = _BRACKETS_RE.sub(" ", name).strip()
    for candidate in (name.strip(), bare):
        if len(candidate) >= 4 and candidate not in words:
            words.append(candidate)
    for inner in _BRACKETS_RE.findall(name):
        if re.fullmatch(r"[A-Z]{2,5}", inner.strip()):
            words.append(inner.strip())
    return [f"(?i:{re.escape(w)})" if " " in w else re.escape(w) for w in words]


def _names(game: Game, lang: str) -> tuple[re.Pattern[str] | None, dict[str, Track]]:
    """One pattern matching every track's names in ``lang`` (a group per track), and the
    track of each group."""
    groups: dict[str, Track] = {}
    parts = []
    for i, track in enumerate(game.tracks.values()):
        names = _names_of(track, lang, game)
        if names:
            groups[f"t{i}"] = track
            # longest first: "Tracciato Militare" before "Militare"
            alternatives = "|".join(sorted(names, key=len, reverse=True))
            parts.append(f"(?P<t{i}>{alternatives})")
    if not parts:
        return None, groups
    return re.compile(rf"(?<!\w)(?:{'|'.join(parts)})(?!\w)"), groups


def _wrong(number: float, track: Track) -> bool:
    """Whether a space is not one of the track's, or one short of the end of a long track. A
    number equal to the track's length is its length ("50 spaces" on a 0..49 track)."""
    if number == track.max - track.min + 1:
        return False
    if not track.min <= number <= track.max:
        return True
    return track.max - track.min + 1 >= LONG_TRACK and number == track.max - 1


# a name and the number it is followed by: at most two words between, no punctuation
_GAP_RE = re.compile(r"[\s:]*(?:[^\W\d_]+[\s:]+){0,2}")
_MARKS_RE = re.compile(r"\*\*|(?<!\w)_|_(?!\w)")
_DIGIT_RE = re.compile(r"[0-9]")


@check
def track_numbers(game: Game, ctx: CheckContext) -> None:
    """A track's name followed by a number writes a space the track has (``text-number``)."""
    if not game.tracks:
        return
    langs = checked_languages(game, ctx)
    named = {lang: _names(game, lang) for lang in langs}
    messages = {id(inv.message) for inv in game.invariants if inv.message is not None}
    for text in game.texts:
        if id(text) in messages:
            continue
        for lang in langs:
            pattern, tracks = named[lang]
            value = text_in(game, text, lang, ctx)
            if pattern is None or not value or not _DIGIT_RE.search(value):
                continue
            if not pattern.search(value):
                continue  # no track named
            found = _misnamed(value, pattern, tracks)
            if found is not None:
                ctx.add(
                    TEXT_NUMBER, text_pos(game, text, lang, ctx), f"[{lang}] {text.ctx}: {found}"
                )
                break  # one finding per text


def _misnamed(value: str, pattern: re.Pattern[str], tracks: dict[str, Track]) -> str | None:
    """What the first track name followed by a space the track lacks says, or None."""
    plain = _MARKS_RE.sub("", value)
    numbers = None
    for m in pattern.finditer(plain):
        track = tracks[m.lastgroup or ""]
        if numbers is None:
            numbers = written(plain)
        n = next((n for n in numbers if n.start >= m.end()), None)
        if n is None or _GAP_RE.fullmatch(plain[m.end() : n.start]) is None:
            continue
        if plain[n.end : n.end + 2].strip().startswith(("%", "‰")):
            continue  # a share, not a space
        number = float(n.value)
        if not _wrong(number, track):
            continue
        if track.min <= number <= track.max:
            said = f"{n.raw}, one short of its last space {track.max}"
        else:
            said = f"{n.raw}, which is not on it ({track.min}..{track.max})"
        return (
            f'"{quote(plain, n.start, n.end)}" names track {track.id} and writes {said}: '
            f"write {{tracks.{track.id}.max}} (or .min, .start) to print the track's own "
            "number, or correct the number"
        )
    return None


# --- a step's note and the step's own numbers ---------------------------------------------------

_VERBS = {"draw": "draws", "deal": "deals each player", "reveal": "reveals", "piles": "makes piles"}


def _step_numbers(game: Game, scenario: Scenario, step: DeckStep) -> dict[str, set[int]] | None:
    """What a step draws, deals, reveals and splits into, for every player count and
    difficulty it is played with; None when one of them cannot be worked out."""
    lo, hi = player_range(game, scenario)
    difficulties = [d.values for d in scenario.difficulties.values()] or [{}]
    out: dict[str, set[int]] = {}
    for what in _VERBS:
        value = getattr(step, what)
        if value is None:
            continue
        got = {step_count(value, n, v, what=what) for n in range(lo, hi + 1) for v in difficulties}
        if not got or not all(isinstance(g, int) for g in got):
            return None
        out[what] = {g for g in got if isinstance(g, int)}
    return out


def _spoken_of(step: DeckStep, drawn_before: int) -> set[str]:
    """Other numbers a step's note may speak of: the values its filters pick (``«3 stages»``),
    the cards drawn from its deck so far, this step's included (``the 4 drawn``), and the
    rounds it deals in."""
    out = {f"{drawn_before}"} if drawn_before else set()
    if step.rounds > 1:
        out.add(f"{step.rounds}")
    for flt in (step.only, step.exclude):
        if flt is not None:
            out |= {f"{v}" for v in flt.values.values() if isinstance(v, int | float)}
    return out


@check
def step_note_numbers(game: Game, ctx: CheckContext) -> None:
    """A step's note that writes a number close to one of the step's own, and none of them,
    wrote it before the step changed (``text-number``)."""
    lang = game.source_language
    said: set[int] = set()  # a note shared by scenarios (a YAML anchor): reported once
    for scenario in game.scenarios.values():
        drawn: dict[str, int] = {}
        for step in scenario.cards:
            own = _step_numbers(game, scenario, step)
            for what in ("draw", "reveal"):
                if own is not None and len(own.get(what, ())) == 1:
                    drawn[step.deck] = drawn.get(step.deck, 0) + next(iter(own[what]))
            if step.note is None or not own or id(step.note) in said:
                continue
            value = text_in(game, step.note, lang, ctx)
            if not value or not _DIGIT_RE.search(value) or any(f"{{{w}}}" in value for w in own):
                continue  # no number, or the step's own printed by reference
            plain = without_dice(_MARKS_RE.sub("", value), lang)
            counts = {m.start(1) for m in _players_re(lang).finditer(plain)}
            found = [n for n in written(plain) if n.start not in counts]  # not "2 players"
            known = {f"{n}" for ns in own.values() for n in ns}
            known |= _spoken_of(step, drawn.get(step.deck, 0))
            stale = [n for n in found if _near(n.value, own)]
            if not stale or known & {n.value for n in found}:
                continue
            says = "; ".join(f"{_VERBS[w]} {_alternatives(ns)}" for w, ns in own.items())
            said.add(id(step.note))
            ctx.add(
                TEXT_NUMBER,
                text_pos(game, step.note, lang, ctx),
                f'[{lang}] scenario {scenario.id}, step {step.deck}: its note writes "'
                f'{quote(plain, stale[0].start, stale[0].end)}", but the step {says}: correct '
                f"the note, or print the step's own number with {{{next(iter(own))}}}",
            )


def _near(value: str, own: dict[str, set[int]]) -> bool:
    """Whether a number written is close to one of a step's counts (a stale copy of it: one
    or two off, or a quarter of a large count)."""
    try:
        n = float(value)
    except ValueError:
        return False
    return any(0 < abs(n - c) <= max(2, c // 4) for ns in own.values() for c in ns if c > 0)


@functools.cache
def _players_re(lang: str) -> re.Pattern[str]:
    """A number of players as the language writes it, from pnp's own words ("2 players",
    "2 giocatori"): such a number says who the step is for, not how many cards."""
    forms = ["{n} player", "{n} players"]
    own = builtin(lang)
    forms += (own.get("{n} player") or []) if own is not None else []
    words = sorted({f.replace("{n}", "").strip() for f in forms if "{n}" in f}, key=len)
    alternatives = "|".join(re.escape(w) for w in reversed(words) if w)
    return re.compile(rf"(\d+)\s*(?:{alternatives})(?!\w)", re.IGNORECASE)


@check
def idle_counts(game: Game, ctx: CheckContext) -> None:
    """A step that draws, deals or reveals 0 for every player count and difficulty does
    nothing (``setup-deal``): a number left at 0, or one that was lost."""
    said: set[tuple[int, str]] = set()
    for scenario in game.scenarios.values():
        for step in scenario.cards:
            own = _step_numbers(game, scenario, step) or {}
            for what, numbers in own.items():
                if what == "piles" or numbers != {0} or (id(step), what) in said:
                    continue  # 0 piles: the simulator reports it
                said.add((id(step), what))
                ctx.add(
                    SETUP_DEAL,
                    step.at(what),
                    f"scenario {scenario.id}: the step on {step.deck} {_VERBS[what]} 0 with "
                    f"every player count: give {what}: its number, or remove it",
                )


def _alternatives(numbers: set[int]) -> str:
    ordered = sorted(numbers)
    return " or ".join(map(str, ordered)) if len(ordered) <= 4 else f"{ordered[0]}-{ordered[-1]}"


# --- a set-up text's number before a card's name -------------------------------------------------

# the texts that tell how to set up: a number in them counts components, not effects
_SETUP_TEXTS = ("setup_sheet/intro", "setup_sheet/notes", "/setup", "/note")


@check
def setup_card_numbers(game: Game, ctx: CheckContext) -> None:
    """A set-up text that writes a number before a card's name ("takes 8 Copper") writes one
    the data holds for that card, not one just beside it (``text-number``)."""
    lang = game.source_language
    pattern, cards = _card_names(game, lang)
    if pattern is None:
        return
    for text in game.texts:
        if not text.ctx.startswith(("setup_sheet/", "scenarios/", "tables/")):
            continue
        if not text.ctx.endswith(_SETUP_TEXTS) and not text.ctx.startswith(_SETUP_TEXTS[:2]):
            continue
        value = text_in(game, text, lang, ctx)
        if not value or not _DIGIT_RE.search(value):
            continue
        plain_text = without_dice(_MARKS_RE.sub("", value), lang)
        for m in pattern.finditer(plain_text):
            name = m.group("name")
            card = cards.get(name) or cards[name.casefold()]
            held = _held(game, card)
            n = int(m.group("n"))
            near = {h: w for h, w in held.items() if 0 < abs(n - h) <= max(2, h // 4)}
            if n in held or not near:
                continue
            said = "; ".join(f"{h} ({w})" for h, w in sorted(near.items()))
            ctx.add(
                TEXT_NUMBER,
                text_pos(game, text, lang, ctx),
                f'[{lang}] {text.ctx}: "{quote(plain_text, m.start(), m.end())}" writes {n} '
                f"{name}, but the data holds {said} for card {card.id}: print the number by "
                "reference, or correct it",
            )
            break


def _card_names(game: Game, lang: str) -> tuple[re.Pattern[str] | None, dict[str, Card]]:
    """A number followed by a card's title in ``lang``, or its plural (``Estates``): a title
    of one word as written (``Etapa``, not the common word ``etapas``), a longer one in any
    case. Keys: a one-word title as written, a longer one folded."""
    cards: dict[str, Card] = {}
    for _owner, card in game.every_card():
        title = plain(card.title, lang) if card.title is not None else ""
        title = title.strip() if isinstance(title, str) else ""
        if len(title) >= 3 and "{" not in title:
            cards.setdefault(title if " " not in title else title.casefold(), card)
    if not cards:
        return None, cards
    alternatives = [
        re.escape(t) if " " not in t else f"(?i:{re.escape(t)})"
        for t in sorted(cards, key=len, reverse=True)
    ]
    return (
        re.compile(rf"(?<![\w.,])(?P<n>\d+)\s+(?P<name>{'|'.join(alternatives)})(?:e?s)?(?!\w)"),
        cards,
    )


def _held(game: Game, card: Card) -> dict[int, str]:
    """The numbers the data holds for a card, each with where: its copies and values, the
    cells of table columns that deal it (or its deck), the counts of steps on its deck."""
    out: dict[int, str] = {card.copies: "copies"}
    out.update({v: f"values.{k}" for k, v in card.values.items() if is_whole(v) and v not in out})
    home = next((o.id for o, c in game.every_card() if c is card), "")
    for table in game.tables.values():
        for col in table.columns:
            deal = col.deals
            if deal is None or not (
                card.id in ids_of(deal.card) or home in (deal.deck, deal.tokens)
            ):
                continue
            for cells in table.cells:
                cell = cells.get(col.id)
                if is_whole(cell):
                    out.setdefault(cell, f"table {table.id}, column {col.id}")
    for scenario in game.scenarios.values():
        for step in scenario.cards:
            if step.deck == home:
                for what, numbers in (_step_numbers(game, scenario, step) or {}).items():
                    for n in numbers:
                        out.setdefault(n, f"scenario {scenario.id}, {what}")
    return out


# --- a scenario's draws and the table that deals the same deck ---------------------------------


# a step's count, and the ``per:`` of the table column it repeats
_STEP_COUNTS = (("draw", "game"), ("reveal", "game"), ("deal", "player"))


def _dealt(game: Game, table: Table, step: DeckStep, per: str) -> str | None:
    """The column of ``table`` that deals cards of the step's deck (the whole deck, or cards
    of it: those the step's ``only: {card: ...}`` picks, when it picks one), counted ``per``
    game or per player."""
    homes = {c.id: d.id for d, c in game.all_cards()}
    deck = step.deck
    picked = step.only.card if step.only is not None else None
    for col in table.columns:
        deal = col.deals
        if deal is None or deal.per != per:
            continue
        if picked is not None and deal.card is not None and picked not in ids_of(deal.card):
            continue  # the step deals other cards of the deck than the column
        if (
            deal.deck == deck
            or deal.tokens == deck
            or (deal.card is not None and {homes.get(c) for c in ids_of(deal.card)} == {deck})
        ):
            return col.id
    return None


def _by_players(table: Table, column: str, counts: range) -> dict[int, int]:
    """The column's cell for each player count: a players table's row for it; in a table that
    no player count keys, the sum of its rows holds for every count (as ``pnp setup`` deals
    it)."""
    key = key_column(table) or ""
    out: dict[int, int] = {}
    if key != "players" and table.column("players") is None:
        # rows by something else than the player count: every row is dealt (as pnp setup
        # deals them), so the column's sum holds for every count (First infections: 3 + 3 + 3)
        column_cells = [row.get(column) for row in table.cells]
        if column_cells and all(
            isinstance(c, int) and not isinstance(c, bool) for c in column_cells
        ):
            return dict.fromkeys(counts, sum(c for c in column_cells if isinstance(c, int)))
        return out
    for cells in table.cells:
        cell = cells.get(column)
        if isinstance(cell, int) and not isinstance(cell, bool):
            for n in player_counts(cells.get(key)):
                out.setdefault(n, cell)
    return out


@check
def scenario_draw_tables(game: Game, ctx: CheckContext) -> None:
    """A step's draws (reveals, deals to each player) agree with a table that deals the same
    deck by player count, where they agree for some counts (``draw-table``)."""
    for scenario in game.scenarios.values():
        counts = range(player_range(game, scenario)[0], player_range(game, scenario)[1] + 1)
        for step in scenario.cards:
            for what, per in _STEP_COUNTS:
                value = getattr(step, what)
                if isinstance(value, DrawFrom):
                    _other_deck(game, scenario, step, what, value, ctx)
                if value is None or isinstance(value, DrawFrom):
                    continue
                found = [
                    (table, column)
                    for table in game.tables.values()
                    if (column := _dealt(game, table, step, per)) is not None
                ]
                said = [_disagreement(scenario, step, what, t, c, counts) for t, c in found]
                if any(m is not None and not m[0] for m in said):
                    continue  # a table agrees in full
                # the table it agrees with most: the copy of the figures that went stale
                stale = sorted((m[1], i, m[0]) for i, m in enumerate(said) if m is not None)
                if stale:
                    ctx.add(DRAW_TABLE, step.at(what), stale[0][2])


def _other_deck(
    game: Game, scenario: Scenario, step: DeckStep, what: str, draw: DrawFrom, ctx: CheckContext
) -> None:
    """A step that takes its number from a column that deals another deck than the step's."""
    table = game.tables.get(draw.table)
    col = table.column(draw.column) if table is not None else None
    if col is None or col.deals is None:
        return  # no such column (a reference finding), or a column that deals nothing
    for per in ("game", "player"):
        if table is not None and _dealt(game, table, step, per) == col.id:
            return
    deal = col.deals
    dealt = deal.deck or deal.tokens or ", ".join(ids_of(deal.card))
    ctx.add(
        DRAW_TABLE,
        step.at(what),
        f"scenario {scenario.id}: the step on {step.deck} takes its {what} from table "
        f"{draw.table}, column {draw.column}, which deals {dealt}: name the column that deals "
        f"{step.deck}, or put the step on {dealt}",
    )


def _disagreement(
    scenario: Scenario, step: DeckStep, what: str, table: Table, column: str, counts: range
) -> tuple[str, int] | None:
    """What differs and for how many counts, when the step's count (``draw``, ``reveal``,
    ``deal``) and the table's column agree for some counts and not for others ("" when they
    agree in full, None when they are other figures)."""
    dealt = _by_players(table, column, counts)
    value = getattr(step, what)
    same: list[tuple[int, int, int]] = []
    other: list[tuple[int, int, int]] = []
    for n in counts:
        drawn = step_count(value, n, what=what)
        if n not in dealt or not isinstance(drawn, int):
            continue
        (same if drawn == dealt[n] else other).append((n, drawn, dealt[n]))
    if same and not other:
        return "", 0
    constant = isinstance(value, int)
    if constant and other and len({t for _n, _d, t in same + other}) == 1:
        pass  # the table deals the same for every count, and the step draws another number
    elif not same or not other or constant:
        return None  # another figure altogether (a constant draw beside a table by count)
    verb = {"draw": "draws", "reveal": "reveals", "deal": "deals each player"}[what]
    listed = "; ".join(
        f"with {counted(n, 'player')} it {verb} {d}, the table {t}" for n, d, t in other
    )
    return (
        f"scenario {scenario.id} {verb} from {step.deck} what table {table.id} (column "
        f"{column}) deals, except: {listed}. Make them agree, or write the numbers once: "
        f"{what}: {{table: {table.id}, column: {column}}}"
    ), len(other)
