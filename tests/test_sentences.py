"""translation-sentences and translation-dice (issue 31, item 4): a translation keeps the
sentences and the dice of its source, inline or in a PO catalog; how sentences and dice are
read."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from test_numbers_rule import PO, catalog_root

from pnp.core.rules import TRANSLATION_DICE, TRANSLATION_NUMBERS, TRANSLATION_SENTENCES
from pnp.validate.sentences import dice, sentences, without_dice

from helpers import run_validate


@pytest.mark.parametrize(
    ("text", "lang", "count"),
    [
        ("Draw 2.5 cards. Then pay.", "en", 2),  # a decimal point is no end
        ("Pay e.g. the bank. Then rest.", "en", 2),  # a lower-case word after the point
        ("Ask J. Smith. He knows.", "en", 2),  # an initial
        ("Bring dice, cards etc. Then play.", "en", 1),  # an abbreviation before a capital
        ("Zieh am 3. Mai z. B. zwei Karten. Dann zahle.", "de", 2),  # ordinal, z. B.
        ("Ve a la casilla 5. Luego paga.", "es", 2),  # a number ends a sentence in Spanish
        ("¿Listos? ¡Ya! Luego robad.", "es", 3),
        ("1. Move. 2. Infect. 3. Shuffle.", "en", 3),  # list numbers are no sentences
        ("First line\nsecond line.", "en", 2),  # a line break ends a sentence
        ("カードを引く。次に払う。", "ja", 2),  # no space after a full stop
        ("抽一张牌。然后付钱！", "zh", 2),
        ("**Bold.** _Then_ [red]{color=red} text.", "en", 2),  # markup is not text
        ("Gain {coin}. Then {coin}.", "en", 2),
        ("", "en", 0),
    ],
)
def test_sentences_are_counted(text: str, lang: str, count: int) -> None:
    found = sentences(text, lang)
    assert found is not None and len(found) == count, found


def test_thai_is_not_counted() -> None:
    assert sentences("จั่วการ์ด แล้วจ่ายเงิน", "th") is None


@pytest.mark.parametrize(
    ("text", "lang", "want"),
    [
        ("Roll 2D6, then D66 or d10.", "en", {"2d6": 1, "d66": 1, "d10": 1}),
        ("Roll 1d6 and 3d6+1, or d%.", "en", {"d6": 1, "3d6+1": 1, "d%": 1}),
        ("Würfle 2W6 oder W20.", "de", {"2d6": 1, "d20": 1}),
        ("Rzuć 2K6.", "pl", {"2d6": 1}),
        ("Бросьте 2к6.", "ru", {"2d6": 1}),
        ("Take 2 dice, a CD10 or D&D.", "en", {}),  # no dice notation
        ("W6 is not a die in English.", "en", {}),
    ],
)
def test_dice_are_read(text: str, lang: str, want: dict[str, int]) -> None:
    assert dice(text, lang) == Counter(want)


def test_dice_digits_are_not_numbers() -> None:
    assert without_dice("Roll 2D6 and gain 3.", "en").split() == ["Roll", "and", "gain", "3."]


def test_catalog_translation_dropping_a_sentence_points_at_its_msgstr(tmp_path: Path) -> None:
    root, line = catalog_root(tmp_path, "Guadagna 35 {coin}. Poi pesca una carta.")
    report = run_validate(root)
    found = [f for f in report.sorted() if f.rule == TRANSLATION_SENTENCES]
    assert [(f.pos.path, f.pos.line) for f in found] == [(PO, line)]
    assert "has 2 sentences, the en source 1" in found[0].message


def test_catalog_translation_changing_a_die_is_one_finding(tmp_path: Path) -> None:
    root, line = catalog_root(tmp_path, "Guadagna 35 {coin} e tira D6.")
    decks = root / "cards/mini/decks.yaml"
    decks.write_text(
        decks.read_text("utf-8").replace("Gain 35 {coin}.", "Gain 35 {coin} and roll 2D6."),
        "utf-8",
    )
    po = root / PO
    po.write_text(
        po.read_text("utf-8").replace("Gain 35 {coin}.", "Gain 35 {coin} and roll 2D6."),
        "utf-8",
    )
    report = run_validate(root)
    rules = [f.rule for f in report.sorted()]
    assert rules == [TRANSLATION_DICE], [f.text() for f in report.sorted()]
    assert TRANSLATION_NUMBERS not in rules  # the die's 2 is not a number of the text
    (finding,) = report.sorted()
    assert finding.pos.line == line
    assert "has D6 where the en text has 2D6" in finding.message
