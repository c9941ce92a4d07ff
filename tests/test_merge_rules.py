"""The rules of pnp's merge, one by one, each next to what GNU msgmerge does with the same files.

How a template entry finds its translation: its own context and text; its context alone (pnp's
contexts are stable places); then, as msgmerge, the same or the most similar text (fstrcmp, at
least 0.6) among the catalog's translated entries, active or obsolete, in any context, offered
as fuzzy with ``#|`` lines. And the similarity itself against a plain dynamic programme.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from pnp.i18n.fuzzy import lcs_length, similarity
from pnp.i18n.merge import merge
from pnp.i18n.po import Catalog, Entry, dumps, parse

from gettext_tools import GNU, need_gettext

HEADER = "Content-Type: text/plain; charset=UTF-8\n"


def catalog(*entries: Entry, obsolete: tuple[Entry, ...] = ()) -> Catalog:
    for e in obsolete:
        e.obsolete = True
    return Catalog(Entry("", [HEADER]), list(entries), list(obsolete))


def both(old: Catalog, template: Catalog, tmp: Path) -> tuple[Catalog, Catalog]:
    """(pnp's merge, msgmerge --previous's) of the same two files."""
    need_gettext()
    po, pot = tmp / "old.po", tmp / "new.pot"
    po.write_text(dumps(old), "utf-8")
    pot.write_text(dumps(template), "utf-8")
    proc = subprocess.run(
        [str(GNU["msgmerge"]), "--previous", "-q", "-o", "-", str(po), str(pot)],
        capture_output=True,
        check=True,
    )
    ours, _stats = merge(parse(po.read_text("utf-8")), parse(pot.read_text("utf-8")))
    return ours, parse(proc.stdout.decode("utf-8"))


def found(cat: Catalog) -> dict[str | None, tuple[str, bool, str | None, str | None]]:
    return {
        e.msgctxt: (e.msgstr[0], e.fuzzy, e.previous_msgctxt, e.previous_msgid) for e in cat.entries
    }


def test_the_same_text_in_another_context_comes_back_fuzzy(tmp_path: Path) -> None:
    old = catalog(Entry("Boss", ["Chefin"], "decks/a/cards/boss/title"))
    new = catalog(Entry("Boss", [""], "decks/b/cards/boss/title"))
    ours, gnu = both(old, new, tmp_path)
    want = ("Chefin", True, "decks/a/cards/boss/title", "Boss")
    assert found(ours) == found(gnu) == {"decks/b/cards/boss/title": want}
    assert not ours.obsolete and not gnu.obsolete


def test_of_equal_texts_the_entrys_own_is_offered(tmp_path: Path) -> None:
    """msgmerge takes the first "Worker" it meets; pnp the one nobody took, in the most similar
    context (the same card moved to another deck)."""
    old = catalog(
        Entry("Worker", ["Arbeiterin A"], "decks/a/cards/anna/title"),
        Entry("Worker", ["Arbeiterin B"], "decks/a/cards/bea/title"),
        Entry("Worker", ["Arbeiterin C"], "decks/c/cards/carla/title"),
    )
    new = catalog(
        Entry("Worker", [""], "decks/a/cards/anna/title"),
        Entry("Worker", [""], "decks/b/cards/carla/title"),
        Entry("Worker", [""], "decks/b/cards/bea/title"),
    )
    ours, gnu = both(old, new, tmp_path)
    assert found(ours)["decks/b/cards/carla/title"][0] == "Arbeiterin C"
    assert found(ours)["decks/b/cards/bea/title"][0] == "Arbeiterin B"
    assert all(v[0] for v in found(gnu).values())  # (msgmerge offers one too, maybe another's)


def test_a_similar_text_comes_back_and_a_different_one_does_not(tmp_path: Path) -> None:
    old = catalog(
        Entry("Draw two cards from the deck", ["Zieh zwei Karten"], "x"),
        Entry("Pay the rent", ["Zahl die Miete"], "y"),
    )
    new = catalog(
        Entry("Draw three cards from the deck", [""], "x2"),  # 0.9 alike
        Entry("Gain a coin", [""], "y2"),  # nothing alike
    )
    ours, gnu = both(old, new, tmp_path)
    assert found(ours)["x2"] == ("Zieh zwei Karten", True, "x", "Draw two cards from the deck")
    assert found(ours)["y2"][0] == "" and found(gnu)["y2"][0] == ""
    assert found(gnu)["x2"][0] == "Zieh zwei Karten"
    assert [e.msgctxt for e in ours.obsolete] == [e.msgctxt for e in gnu.obsolete] == ["y"]


def test_obsolete_entries_are_found_by_text_too(tmp_path: Path) -> None:
    old = catalog(obsolete=(Entry("Strike", ["Streik"], "decks/old/cards/strike/title"),))
    new = catalog(Entry("Strike", [""], "decks/new/cards/strike/title"))
    ours, gnu = both(old, new, tmp_path)
    want = ("Streik", True, "decks/old/cards/strike/title", "Strike")
    assert found(ours) == found(gnu) == {"decks/new/cards/strike/title": want}


def test_one_translation_is_offered_to_every_entry_that_needs_it(tmp_path: Path) -> None:
    old = catalog(Entry("Boss", ["Chefin"], "b"))
    new = catalog(Entry("Boss", [""], "b"), Entry("Boss", [""], "d"), Entry("Boss", [""], "e"))
    ours, gnu = both(old, new, tmp_path)
    assert found(ours) == found(gnu)
    assert found(ours)["b"] == ("Chefin", False, None, None)
    assert found(ours)["d"] == found(ours)["e"] == ("Chefin", True, "b", "Boss")


def test_untranslated_entries_are_not_offered(tmp_path: Path) -> None:
    old = catalog(Entry("Untranslated thing", [""], "z"))
    new = catalog(Entry("Untranslated thing", [""], "g"))
    ours, gnu = both(old, new, tmp_path)
    assert found(ours) == found(gnu) == {"g": ("", False, None, None)}


def test_a_fuzzy_entry_keeps_what_its_translation_was_made_for(tmp_path: Path) -> None:
    made = Entry("Bosses", ["Chefin"], "a", previous_msgctxt="orig", previous_msgid="Boss")
    made.flags.fuzzy = True
    old = catalog(made)
    new = catalog(Entry("Bosses", [""], "c"))
    ours, gnu = both(old, new, tmp_path)
    assert found(ours) == found(gnu) == {"c": ("Chefin", True, "orig", "Boss")}


def test_a_card_moved_back_before_review_is_confirmed() -> None:
    moved = Entry("Boss", ["Chefin"], "decks/b/cards/boss/title")
    moved.flags.fuzzy = True
    moved.previous_msgctxt, moved.previous_msgid = "decks/a/cards/boss/title", "Boss"
    back = catalog(Entry("Boss", [""], "decks/a/cards/boss/title"))
    ours, _stats = merge(catalog(moved), back)
    assert found(ours) == {"decks/a/cards/boss/title": ("Chefin", False, None, None)}


def test_a_changed_text_follows_its_context_first() -> None:
    """pnp's own rule: the same context, however different the text (msgmerge would offer
    the similar text of another entry)."""
    old = catalog(Entry("Boss", ["Chefin"], "a"), Entry("Chief", ["Häuptling"], "b"))
    new = catalog(Entry("Chief", [""], "a"), Entry("Chief", [""], "b"))
    ours, _stats = merge(old, new)
    assert found(ours)["a"] == ("Chefin", True, "a", "Boss")
    assert found(ours)["b"] == ("Häuptling", False, None, None)


def test_an_untranslated_entry_of_the_context_keeps_its_notes() -> None:
    old = catalog(Entry("Boss", ["Chefin"], "a"), Entry("Old", [""], "b", comments=["ask"]))
    new = catalog(Entry("Boss", [""], "a"), Entry("Boss!", [""], "b"))
    ours, _stats = merge(old, new)
    entry = next(e for e in ours.entries if e.msgctxt == "b")
    assert (entry.msgstr, entry.fuzzy, entry.comments) == (["Chefin"], True, ["ask"])


def test_the_header_is_merged_as_msgmerge_merges_it(tmp_path: Path) -> None:
    """A header without Language gets one after Language-Team; its notes are the template's."""
    old = catalog(Entry("Boss", ["Chefin"], "a"))
    old.header = Entry("", [HEADER + "Language-Team: de\n"], extracted=["from a spreadsheet"])
    new = catalog(Entry("Boss", [""], "a"))
    ours, gnu = both(old, new, tmp_path)
    assert ours.header.msgstr == gnu.header.msgstr
    assert ours.header.extracted == gnu.header.extracted == []
    lang, _stats = merge(old, new, language="de")
    assert lang.field("Language") == "de"


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=40), st.binary(max_size=40))
def test_lcs_is_the_longest_common_subsequence(a: bytes, b: bytes) -> None:
    table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            up, left = table[i][j + 1], table[i + 1][j]
            table[i + 1][j + 1] = table[i][j] + 1 if x == y else max(up, left)
    assert lcs_length(a, b) == lcs_length(b, a) == table[-1][-1]


def test_similarity_is_gnu_fstrcmp() -> None:
    assert similarity("", "") == 1.0
    assert similarity("Boss", "Boss") == 1.0
    assert similarity("abcd", "abce") == 0.75
    assert similarity("é", "e") == 0.0  # bytes: \xc3\xa9 and e
