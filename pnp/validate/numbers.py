"""Numbers in texts: a translation carries the numbers of its source text.

A number is a run of digits, with thousands groups and a decimal part written either way:
``1.000``, ``1,000``, ``1 000`` and ``1'000`` are all 1000 (a separator followed by exactly
three digits, after a first group of one to three digits that is not 0, groups thousands);
``1,5`` and ``1.5`` are both 1.5 (any other ``.`` or ``,`` between digits is a decimal point;
trailing zeros of a decimal part and leading zeros do not count). What follows a number is
not part of it, so ordinals (``1st``, ``1°``, ``1er``, German ``1.``) are numbers too. Digits
inside ``{placeholders}`` and icons are not numbers of the text. Signs are ignored (``+2`` and
``2``, or the ``-`` of ``2-4``, read alike). Numbers written as words are not seen, and the
digits of a dice notation (``2D6``) are not numbers: rule ``translation-dice`` compares dice
(:mod:`.sentences`).
"""

from __future__ import annotations

import re
from collections import Counter
from difflib import SequenceMatcher
from typing import NamedTuple

from ..content.model import Game, Text
from ..core.rules import TRANSLATION_NUMBERS
from .context import CheckContext, check
from .sentences import without_dice
from .texts import text_pos, translations

# One pass over a text: a {placeholder} (skipped: no int group) or a number. The separators of
# thousands: . , ' ’ and spaces (no-break, narrow no-break, thin and plain).
# The lookahead lets the regex engine skip other characters quickly (halves the time).
_NUMBER_RE = re.compile(
    r"(?=[0-9{])(?:\{[^{}]*\}"
    r"|(?P<int>[1-9][0-9]{0,2}(?:[.,'’\u00a0\u202f\u2009 ][0-9]{3}(?![0-9]))+|[0-9]+)"
    r"(?:[.,](?P<frac>[0-9]+))?)"
)
_NOT_DIGIT_RE = re.compile(r"[^0-9]")

# how much of a text the message quotes on each side of a number
QUOTE = 24
# integers up to this are often written as words: dropped or added alone, they are not reported
WORDS = 12


def _value(whole: str, frac: str) -> str:
    """A number as compared: ``1.000`` -> ``1000``, ``1,50`` -> ``1.5``, ``007`` -> ``7``."""
    digits = _NOT_DIGIT_RE.sub("", whole) if len(whole) > 3 else whole
    frac = frac.rstrip("0")
    return f"{int(digits)}.{frac}" if frac else str(int(digits))


def first_number(text: str) -> str | None:
    """The first number of a text, as compared (see the module's docstring); None if none."""
    for m in _NUMBER_RE.finditer(text):
        if m.group("int"):
            return _value(m.group("int"), m.group("frac") or "")
    return None


def numbers(text: str) -> Counter[str]:
    """The numbers of a text, as compared (see the module's docstring), with their counts."""
    return _counted(_NUMBER_RE.findall(text))


def _counted(found: list[tuple[str, str]]) -> Counter[str]:
    return Counter(_value(whole, frac) for whole, frac in found if whole)


class Written(NamedTuple):
    """A number of a text: its value as compared, as written, and where."""

    value: str
    raw: str
    start: int
    end: int


def written(text: str) -> list[Written]:
    """The numbers of a text in order."""
    out = []
    for m in _NUMBER_RE.finditer(text):
        whole = m.group("int")
        if whole:
            out.append(Written(_value(whole, m.group("frac") or ""), m.group(), m.start(), m.end()))
    return out


def quote(text: str, start: int, end: int) -> str:
    """The part of ``text`` around ``start:end``, on one line, cut with … at word ends."""
    left = max(0, start - QUOTE)
    right = min(len(text), end + QUOTE)
    if left > 0:
        space = text.find(" ", left, start)
        left = space + 1 if space >= 0 else left
    if right < len(text):
        space = text.rfind(" ", end, right)
        right = space if space >= 0 else right
    part = " ".join(text[left:right].split())
    return f"{'…' if left > 0 else ''}{part}{'…' if right < len(text) else ''}"


def _as_written(found: list[Written], which: Counter[str]) -> str:
    """The numbers of ``which`` as the text writes them, in the text's order."""
    left = Counter(which)
    out = []
    for number in found:
        if left[number.value] > 0:
            left[number.value] -= 1
            out.append(number.raw)
    return ", ".join(out)


def _quoted(text: str, found: list[Written], other: list[Written], which: Counter[str]) -> str:
    """``text`` quoted around the first of its numbers in ``which`` that the sequence of the
    other text's numbers does not align with (else around the first of ``which``)."""
    values = [n.value for n in found]
    aligned: set[int] = set()
    matcher = SequenceMatcher(None, values, [n.value for n in other], autojunk=False)
    for block in matcher.get_matching_blocks():
        aligned.update(range(block.a, block.a + block.size))
    candidates = [i for i, v in enumerate(values) if v in which]
    at = found[next((i for i in candidates if i not in aligned), candidates[0])]
    return quote(text, at.start, at.end)


def reportable(extra: Counter[str], lost: Counter[str]) -> bool:
    """A changed number, or a number dropped or added that is not written as a word in the
    other text (integers up to :data:`WORDS`: "2 €" and "both €", "1 jugador" and "solo")."""
    if extra and lost:
        return True
    return any("." in v or int(v) > WORDS for v in (extra or lost))


def mismatch_message(text: Text, lang: str, value: str, src_lang: str, source: str) -> str:
    """What a translation's numbers lack or add, quoting where the first difference is."""
    got_found, want_found = written(value), written(source)
    got = Counter(n.value for n in got_found)
    want = Counter(n.value for n in want_found)
    extra, lost = got - want, want - got
    if extra:
        quoted = _quoted(value, got_found, want_found, extra)
        said = f'[{lang}] "{quoted}" has {_as_written(got_found, extra)}'
    else:
        said = f'[{lang}] "{quote(value, 0, 0)}" does not have'
    if extra and lost:
        said += f" where the {src_lang} source has {_as_written(want_found, lost)}"
    elif extra:
        said += f", which the {src_lang} source does not have"
    else:
        quoted = _quoted(source, want_found, got_found, lost)
        said += f' the {_as_written(want_found, lost)} of the {src_lang} source "{quoted}"'
    return f"{text.ctx}: {said}: check which one is right"


@check
def translation_numbers(game: Game, ctx: CheckContext) -> None:
    src_lang = game.source_language
    for text, source, translated in translations(game, ctx):
        want_raw: list[tuple[str, str]] | None = None
        for lang, value in translated:
            if want_raw is None:
                source = without_dice(source, src_lang)  # dice: translation-dice's
                want_raw = sorted(_NUMBER_RE.findall(source))
            value = without_dice(value, lang)
            got_raw = sorted(_NUMBER_RE.findall(value))
            if got_raw == want_raw:
                continue  # the usual case: the same numbers, written alike
            got, want = _counted(got_raw), _counted(want_raw)
            if got != want and reportable(got - want, want - got):
                ctx.add(
                    TRANSLATION_NUMBERS,
                    text_pos(game, text, lang, ctx),
                    mismatch_message(text, lang, value, src_lang, source),
                    lang=lang,
                )
