"""When a text's context changes, `update` offers its translation back at least as often as GNU
msgmerge does on the same files, as fuzzy, with the context and text it was made for.

For each bundled game, a catalog with every entry translated (a made-up translation that names
the context it was made for) meets a template where cards were renamed, moved to another deck,
a deck renamed, contexts edited by a translator's tool, the contexts lost (a csv2po round trip
without template, the real tool), or cards renamed and their texts edited. ``msgmerge
--previous`` and pnp's merge run on the same two files; for the template entries that have no
translated entry of their own in the catalog, the ones each tool gives a translation are
counted: pnp must give one to every entry msgmerge does. And pnp never attaches a translation
silently: an entry it did not find under its own context and text is fuzzy, and its ``#|``
lines name the entry the translation comes from.

Run ``python tests/test_merge_recovery.py`` for the table of counts.
"""

from __future__ import annotations

import functools
import random
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from pnp.build.printed import printed_texts
from pnp.content.load import Root, load_game
from pnp.core.findings import Report
from pnp.i18n.catalog import po_header, read_catalog, template
from pnp.i18n.merge import fresh_entries, merge
from pnp.i18n.po import Catalog, Entry, dumps, parse

from gettext_tools import GNU, msgfmt_errors, msgmerge_diff, need_gettext
from helpers import REPO

GAMES = ["fabg", "austerity", "status", "which-side"]
CARD = re.compile(r"^decks/([^/]+)/cards/([^/]+)/")
Key = tuple[str | None, str]


def made_up(entry: Entry) -> list[str]:
    """A translation of every form that names the context it was made for (placeholders and
    the leading and trailing line breaks kept, so that msgfmt -c accepts it)."""

    def one(source: str) -> str:
        body = source.lstrip("\n")
        return source[: len(source) - len(body)] + f"DE[{entry.msgctxt}] " + body

    sources = [entry.msgid] + [entry.msgid_plural or entry.msgid] * (len(entry.msgstr) - 1)
    return [one(s) for s in sources]


def translated_catalog(gid: str) -> tuple[Catalog, Catalog]:
    """(a catalog with every entry translated, its template) for a bundled game (new copies)."""
    po, pot = _translated(gid)
    return parse(po), parse(pot)


@functools.cache
def _translated(gid: str) -> tuple[str, str]:
    root = Root(REPO)
    report = Report()
    game = load_game(root, gid, report)
    assert game is not None and not report.has_errors(), report.format_text()
    pot = template(game, printed_texts(root, game))
    pot.header = Entry("", [pot.header.msgstr[0]])
    entries = fresh_entries(pot, 2)
    for entry in entries:
        entry.msgstr = made_up(entry)
    po = Catalog(header=po_header(game, "de", pot), entries=entries)
    po.set_field("Plural-Forms", "nplurals=2; plural=(n != 1);")
    return dumps(po), dumps(pot)


# --- what changes ----------------------------------------------------------------------------


def _cards(cat: Catalog) -> dict[tuple[str, str], list[Entry]]:
    out: dict[tuple[str, str], list[Entry]] = {}
    for e in cat.entries:
        m = CARD.match(e.msgctxt or "")
        if m:
            out.setdefault((m.group(1), m.group(2)), []).append(e)
    return out


def rename_cards(po: Catalog, pot: Catalog, rnd: random.Random) -> None:
    cards = _cards(pot)
    for deck, card in rnd.sample(sorted(cards), min(4, len(cards))):
        for e in cards[(deck, card)]:
            e.msgctxt = (e.msgctxt or "").replace(f"/cards/{card}/", f"/cards/{card}-2/")


def move_cards(po: Catalog, pot: Catalog, rnd: random.Random) -> None:
    cards = _cards(pot)
    decks = sorted({d for d, _c in cards})
    for deck, card in rnd.sample(sorted(cards), min(4, len(cards))):
        other = rnd.choice([d for d in decks if d != deck] or [deck + "-2"])
        for e in cards[(deck, card)]:
            e.msgctxt = (e.msgctxt or "").replace(f"decks/{deck}/", f"decks/{other}/", 1)


def rename_deck(po: Catalog, pot: Catalog, rnd: random.Random) -> None:
    deck = rnd.choice(sorted({d for d, _c in _cards(pot)}))
    for e in pot.entries:
        if (e.msgctxt or "").startswith(f"decks/{deck}/"):
            e.msgctxt = (e.msgctxt or "").replace(f"decks/{deck}/", f"decks/{deck}-2/", 1)


def tool_contexts(po: Catalog, pot: Catalog, rnd: random.Random) -> None:
    """A translator's tool changed some contexts in the catalog."""
    entries = [e for e in po.entries if e.msgctxt not in (None, "pnp")]
    for e in rnd.sample(entries, 4):
        e.msgctxt = f"{e.msgctxt}/edited"


def no_contexts(po: Catalog, pot: Catalog, rnd: random.Random) -> None:
    """The catalog lost its contexts (one entry per source text is left)."""
    seen: set[str] = set()
    kept = []
    for e in po.entries:
        if e.msgid not in seen:
            seen.add(e.msgid)
            e.msgctxt = None
            kept.append(e)
    po.entries = kept


def rename_and_edit(po: Catalog, pot: Catalog, rnd: random.Random) -> None:
    """Cards renamed, and their texts edited a little."""
    cards = _cards(pot)
    for deck, card in rnd.sample(sorted(cards), min(4, len(cards))):
        for e in cards[(deck, card)]:
            e.msgctxt = (e.msgctxt or "").replace(f"/cards/{card}/", f"/cards/{card}-2/")
            e.msgid += " (2nd edition)" if len(e.msgid) > 20 else "!"


def everything_moves(po: Catalog, pot: Catalog, rnd: random.Random) -> None:
    """Every context changes and every text is edited (all by similarity)."""
    keys: set[Key] = set()
    for e in pot.entries:
        e.msgctxt = f"{e.msgctxt}/2"
        words = e.msgid.split(" ")
        if len(words) > 2:
            words[rnd.randrange(len(words))] = "zzz"
        e.msgid = " ".join(words) if len(words) > 2 else e.msgid + " zzz"
        while e.key in keys:
            e.msgid += " zzz"
        keys.add(e.key)


SCENARIOS: dict[str, Callable[[Catalog, Catalog, random.Random], None]] = {
    "card ids renamed": rename_cards,
    "cards moved to another deck": move_cards,
    "a deck renamed": rename_deck,
    "contexts edited by a tool": tool_contexts,
    "contexts lost": no_contexts,
    "ids renamed, texts edited": rename_and_edit,
    "every context and text changed": everything_moves,
}


def csv_round_trip(po_path: Path, out: Path) -> None:
    """po2csv, then csv2po without a template (translate-toolkit, as a translator would)."""
    tools = Path(sys.executable).parent
    csv = out.with_suffix(".csv")
    subprocess.run([str(tools / "po2csv"), str(po_path), str(csv)], check=True, capture_output=True)
    subprocess.run([str(tools / "csv2po"), str(csv), str(out)], check=True, capture_output=True)
    if msgfmt_errors(out):  # same source line twice: csv2po can merge them instead
        subprocess.run(
            [str(tools / "csv2po"), "--duplicates=merge", str(csv), str(out)],
            check=True,
            capture_output=True,
        )


# --- counting --------------------------------------------------------------------------------


def msgmerge(po: Path, pot: Path) -> Catalog:
    out = po.with_name(po.stem + ".gnu.po")
    proc = subprocess.run(
        [str(GNU["msgmerge"]), "--previous", "--quiet", "-o", str(out), str(po), str(pot)],
        capture_output=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr.decode()
    return read_catalog(out, out.name)


def recovered(old: Catalog, merged: Catalog) -> set[Key]:
    """The entries that got a translation their own context and text had none of."""
    had = {e.key for e in [*old.entries, *old.obsolete] if e.translated}
    return {e.key for e in merged.entries if e.translated and e.key not in had}


def check_never_silent(old: Catalog, merged: Catalog) -> None:
    """A translation under another context or text is fuzzy, and its #| lines name the entry
    of the catalog it comes from (or, when that one was fuzzy already, what it was made for)."""
    before = {e.key: e for e in [*old.entries, *old.obsolete]}
    made_for = {
        (e.previous_msgctxt, e.previous_msgid, e.msgstr[0])
        for e in [*old.entries, *old.obsolete]
        if e.fuzzy and e.previous_msgid is not None
    }
    for e in merged.entries:
        if not e.translated:
            continue
        own = before.get(e.key)
        if own is not None and own.msgstr[0] == e.msgstr[0]:
            continue
        assert e.fuzzy, f"{e.key} got {e.msgstr[0]!r} without the fuzzy flag"
        origin = before.get((e.previous_msgctxt, e.previous_msgid or ""))
        found = origin is not None and origin.msgstr[0] == e.msgstr[0]
        assert found or (e.previous_msgctxt, e.previous_msgid, e.msgstr[0]) in made_for, (
            e.key,
            e.previous_msgctxt,
            e.previous_msgid,
        )


def right(merged: Catalog, found: set[Key], origin: dict[Key, str | None]) -> int:
    """How many of ``found`` got the translation made for their own text, before it moved."""
    return sum(
        1
        for e in merged.entries
        if e.key in found and e.msgstr[0].lstrip("\n").startswith(f"DE[{origin[e.key]}] ")
    )


def run_scenario(tmp: Path, gid: str, name: str, seed: int = 1) -> tuple[int, ...]:
    """(entries needing a translation of their own, how many msgmerge gives one, pnp; how
    many of those are the translation made for the entry's own text, msgmerge, pnp)."""
    po, pot = translated_catalog(gid)
    po_path, pot_path = tmp / f"{gid}.po", tmp / f"{gid}.pot"
    before = [e.msgctxt for e in pot.entries]
    if name == "csv2po round trip":
        po_path.write_text(dumps(po), "utf-8")
        csv_round_trip(po_path, po_path)
    else:
        SCENARIOS[name](po, pot, random.Random(seed))
        po_path.write_text(dumps(po), "utf-8")
    origin = {e.key: ctx for e, ctx in zip(pot.entries, before, strict=True)}
    pot_path.write_text(dumps(pot), "utf-8")
    old = read_catalog(po_path, po_path.name)
    template_read = read_catalog(pot_path, pot_path.name)
    gnu = msgmerge(po_path, pot_path)
    ours, _stats = merge(old, template_read, nplurals=2)
    had = {e.key for e in [*old.entries, *old.obsolete] if e.translated}
    need = sum(1 for t in template_read.entries if t.key not in had)
    gnu_found, pnp_found = recovered(old, gnu), recovered(old, ours)
    assert gnu_found <= pnp_found, f"msgmerge recovers, pnp does not: {gnu_found - pnp_found}"
    check_never_silent(old, ours)
    result = tmp / f"{gid}.pnp.po"
    result.write_text(dumps(ours), "utf-8")
    assert not msgfmt_errors(result), msgfmt_errors(result)
    assert msgmerge_diff(result, pot_path) == [], "\n".join(msgmerge_diff(result, pot_path))
    gnu_right, pnp_right = right(gnu, gnu_found, origin), right(ours, pnp_found, origin)
    return need, len(gnu_found), len(pnp_found), gnu_right, pnp_right


NAMES = [*SCENARIOS, "csv2po round trip"]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("gid", GAMES)
def test_pnp_recovers_every_translation_msgmerge_recovers(
    gid: str, name: str, tmp_path: Path
) -> None:
    need_gettext()
    if name == "csv2po round trip" and not (Path(sys.executable).parent / "po2csv").exists():
        pytest.skip("translate-toolkit's po2csv is not installed")
    need, gnu, ours, _gnu_right, _pnp_right = run_scenario(tmp_path, gid, name)
    assert ours >= gnu
    if name != "every context and text changed":
        assert need and ours == need  # the same texts are always there to offer back


if __name__ == "__main__":  # the table of counts
    import tempfile

    print("entries to recover; recovered by msgmerge and pnp; of those, the translation made")
    print("for the entry's own text (the others are another entry's, with the same or a similar")
    print("source text, offered as fuzzy)")
    print(f"{'game':11} {'scenario':32} {'to recover':>10} {'msgmerge':>9} {'pnp':>5} {'own':>10}")
    for game in GAMES:
        for scenario in NAMES:
            with tempfile.TemporaryDirectory() as folder:
                n, g, p, gr, pr = run_scenario(Path(folder), game, scenario)
            print(f"{game:11} {scenario:32} {n:10} {g:9} {p:5} {gr:4} / {pr:3}")


def test_update_brings_back_a_catalog_that_went_through_a_spreadsheet(tmp_path: Path) -> None:
    """`pnp i18n update` itself, on a catalog po2csv and csv2po (no template) gave back."""
    need_gettext()
    from typer.testing import CliRunner

    from pnp.cli.commands import app

    from helpers import FIXTURES, make_root

    if not (Path(sys.executable).parent / "po2csv").exists():
        pytest.skip("translate-toolkit's po2csv is not installed")
    root = make_root(tmp_path, FIXTURES / "clean")
    runner = CliRunner()
    assert runner.invoke(app, ["i18n", "init", "mini", "de", "--root", str(root)]).exit_code == 0
    path = root / "locales/de/LC_MESSAGES/mini.po"
    cat = read_catalog(path, "mini.po")
    for entry in cat.entries:
        if entry.msgctxt != "pnp":
            entry.msgstr = made_up(entry)
    path.write_text(dumps(cat), "utf-8")
    mine = {e.msgctxt: e.msgstr for e in cat.entries if e.msgctxt != "pnp"}
    spreadsheet = tmp_path / "mini.po"
    csv_round_trip(path, spreadsheet)
    # (csv2po gives a duplicate source text its file:line as context, the others none)
    assert not any(e.msgctxt in mine for e in read_catalog(spreadsheet, "x").entries)
    shutil.copyfile(spreadsheet, path)
    gnu = msgmerge(path, root / "locales/mini.pot")
    result = runner.invoke(app, ["i18n", "update", "mini", "--root", str(root)])
    assert result.exit_code == 0, result.output
    after = read_catalog(path, "mini.po")
    back = {e.msgctxt: e for e in after.entries if e.msgctxt in mine and e.translated}
    assert {e.msgctxt for e in gnu.entries if e.msgctxt in mine and e.translated} <= set(back)
    assert len(back) == len(mine)
    for ctx, entry in back.items():
        assert entry.msgstr == mine[ctx] and entry.fuzzy and entry.previous_msgctxt not in mine
    assert not msgfmt_errors(path)
    assert msgmerge_diff(path, root / "locales/mini.pot") == []


def test_update_offers_a_renamed_cards_translations_back(tmp_path: Path) -> None:
    """A card id renamed in the YAML: its texts come back fuzzy, with `#| msgctxt`."""
    need_gettext()
    from typer.testing import CliRunner

    from pnp.cli.commands import app

    from helpers import FIXTURES, make_root

    root = make_root(tmp_path, FIXTURES / "clean")
    runner = CliRunner()
    assert runner.invoke(app, ["i18n", "init", "mini", "de", "--root", str(root)]).exit_code == 0
    path = root / "locales/de/LC_MESSAGES/mini.po"
    cat = read_catalog(path, "mini.po")
    for entry in cat.entries:
        if entry.msgctxt != "pnp":
            entry.msgstr = made_up(entry)
    path.write_text(dumps(cat), "utf-8")
    decks = root / "cards/mini/decks.yaml"
    yaml = decks.read_text("utf-8")
    decks.write_text(yaml.replace("id: alpha", "id: alfa").replace("card: alpha", "card: alfa"))
    result = runner.invoke(app, ["i18n", "update", "mini", "--root", str(root)])
    assert result.exit_code == 0, result.output
    assert "3 changed (fuzzy)" in result.stdout, result.stdout  # (the table column too)
    after = read_catalog(path, "mini.po")
    for old in (
        "decks/main/cards/alpha/title",
        "decks/main/cards/alpha/text",
        "tables/deal/columns/alpha/title",
    ):
        new = old.replace("alpha", "alfa")
        entry = next(e for e in after.entries if e.msgctxt == new)
        assert entry.fuzzy and entry.msgstr[0].startswith(f"DE[{old}] ")  # its own, not a twin's
        assert (entry.previous_msgctxt, entry.previous_msgid) == (old, entry.msgid)
    assert not after.obsolete
    text = path.read_text("utf-8")
    assert '#| msgctxt "decks/main/cards/alpha/title"\n#| msgid "Alpha"\n' in text
    assert msgmerge_diff(path, root / "locales/mini.pot") == []
