"""translation-numbers: a translation carries the numbers of its source text, inline or in a
PO catalog; how numbers are read (decimal commas, thousands, ordinals, placeholders)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from pnp.core.rules import TRANSLATION_NUMBERS
from pnp.validate.numbers import numbers, quote, reportable

from helpers import FIXTURES, make_root, run_validate

PO = "locales/it/LC_MESSAGES/mini.po"
HEADER = r"""msgid ""
msgstr ""
"Project-Id-Version: mini 1\n"
"Report-Msgid-Bugs-To: \n"
"POT-Creation-Date: 2026-11-26 10:00+0000\n"
"PO-Revision-Date: 2026-11-26 10:00+0000\n"
"Last-Translator: Ada <ada@example.org>\n"
"Language-Team: Italian\n"
"Language: it\n"
"MIME-Version: 1.0\n"
"Content-Type: text/plain; charset=UTF-8\n"
"Content-Transfer-Encoding: 8bit\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\n"
"""


def catalog_root(tmp_path: Path, msgstr: str) -> tuple[Path, int]:
    """The clean mini game whose alpha text (English source, "Gain 35 {coin}.") is translated
    into Italian by the PO catalog only; the root and the line of that msgstr."""
    root = make_root(tmp_path, FIXTURES / "clean")
    decks = root / "cards/mini/decks.yaml"
    old = 'text: {en: "Gain 2 {coin}.", it: "Guadagna 2 {coin}."}'
    text = decks.read_text("utf-8")
    assert old in text
    decks.write_text(text.replace(old, 'text: "Gain 35 {coin}."'), "utf-8")
    entry = (
        "\n#: cards/mini/decks.yaml:9\n"
        'msgctxt "decks/main/cards/alpha/text"\n'
        'msgid "Gain 35 {coin}."\n'
        f'msgstr "{msgstr}"\n'
    )
    po = root / PO
    po.parent.mkdir(parents=True)
    po.write_text(HEADER + entry, "utf-8")
    line = po.read_text("utf-8").splitlines().index(f'msgstr "{msgstr}"') + 1
    return root, line


def test_catalog_translation_with_another_number_points_at_its_msgstr(tmp_path: Path) -> None:
    root, line = catalog_root(tmp_path, "Guadagna 36 {coin}.")
    report = run_validate(root)
    found = [f for f in report.sorted() if f.rule == TRANSLATION_NUMBERS]
    assert [(f.pos.path, f.pos.line) for f in found] == [(PO, line)], [
        f.text() for f in report.sorted()
    ]
    assert found[0].message == (
        'decks/main/cards/alpha/text: [it] "Guadagna 36 {coin}." has 36 where the en source '
        "has 35: check which one is right"
    )
    assert len(report.sorted()) == 1  # the catalog gives the Italian text: it is not missing


def test_catalog_translation_with_the_same_number_is_clean(tmp_path: Path) -> None:
    root, _line = catalog_root(tmp_path, "Guadagna 35 {coin}.")
    report = run_validate(root)
    assert not [f.text() for f in report.sorted()]


@pytest.mark.parametrize(
    ("source", "translation"),
    [
        ("Pay 2, then gain 3.", "Guadagna 3 dopo aver pagato 2."),  # another order
        ("Worth 1.5 points.", "Vale 1,5 punti."),  # decimal point and comma
        ("Worth 1.50 points.", "Vale 1,5 punti."),  # trailing zeros
        ("At most 1,000 points.", "Al massimo 1.000 punti."),  # thousands
        ("At most 20,000 points.", "Au plus 20 000 points."),  # thousands with a space
        ("At most 20,000 points.", "Au plus 20\u202f000 points."),  # narrow no-break space
        ("At most 1,000,000.", "Höchstens 1.000.000."),
        ("1,234.5 km", "1.234,5 km"),  # both separators
        ("Pay 1'000.", "Paga 1000."),  # Swiss apostrophe, no separator
        ("The 1st player", "Il 1° giocatore"),  # ordinals
        ("The 3rd card", "La 3ª carta"),
        ("The 1st player", "Le 1er joueur"),
        ("The 2nd round", "Die 2. Runde"),  # German ordinal with a point
        ("Roll {d6} twice: 2 dice.", "Tira {d6} due volte: 2 dadi."),
        ("Costs {cost2}.", "Costa {cost3}."),  # digits of placeholders are ignored
        ("Gain +2.", "Guadagna 2."),  # signs are ignored
        ("2-4 players", "da 2 a 4 giocatori"),
        ("At 09:30", "Alle 9:30"),  # leading zeros
    ],
)
def test_same_numbers(source: str, translation: str) -> None:
    assert numbers(source) == numbers(translation)


@pytest.mark.parametrize(
    ("source", "translation"),
    [
        ("Gain 35 coins.", "Guadagna 36 monete."),
        ("Worth 1.5 points.", "Vale 15 punti."),
        ("Worth 0,125 points.", "Worth 125 points."),  # 0 starts no thousands group
        ("Pay 2, gain 3.", "Paga 2, guadagna 2."),
        ("Gain 1,000.", "Guadagna 1,5."),
        ("3.14159", "3"),
    ],
)
def test_other_numbers(source: str, translation: str) -> None:
    assert numbers(source) != numbers(translation)


def test_numbers_as_read() -> None:
    assert numbers("{coin2} 2 {d6}, 1.000 and 1,5; the 1st of 007") == Counter(
        {"2": 1, "1000": 1, "1.5": 1, "1": 1, "7": 1}
    )


def test_small_numbers_dropped_alone_are_not_reported() -> None:
    """A whole number up to 12 may be written as a word in the other text."""
    assert not reportable(Counter(), Counter({"2": 1}))
    assert not reportable(Counter({"12": 1}), Counter())
    assert reportable(Counter(), Counter({"35": 1}))
    assert reportable(Counter({"1.5": 1}), Counter())
    assert reportable(Counter({"3": 1}), Counter({"2": 1}))  # changed


def test_quote_cuts_at_words() -> None:
    text = "At the start of each round every player may gain 36 coins from the bank and then pass."
    start = text.index("36")
    assert quote(text, start, start + 2) == "…every player may gain 36 coins from the bank…"
    assert quote("Gain 36 coins.", 5, 7) == "Gain 36 coins."
