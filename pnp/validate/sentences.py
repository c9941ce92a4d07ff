"""Translations keep their sentences and their dice.

**Sentences.** A translation has as many sentences as its source text (rule
``translation-sentences``, a warning). A text is read line by line (a line break ends a list
item or a paragraph); in a line, a sentence ends at ``.``, ``!``, ``?`` or ``…`` (closing quotes
and brackets may follow) before white space and a character that is not a lower-case letter,
or at a full stop that needs no space after it: ``。！？`` (Chinese, Japanese), ``।`` (Devanagari,
Bengali), ``۔`` (Urdu), ``։`` (Armenian), ``።`` (Ethiopic), ``။`` (Burmese). Not ends: a point
between digits (``2.5``), a point before a lower-case word (``e.g. the``), a known
abbreviation or a single letter (``etc. The``, ``J. Smith``, ``z. B.``), and in languages that
write ordinals with a point (German ``3. Runde``) a point after digits. A part with no letter
(the ``2.`` of a numbered list) is no sentence. Thai and Lao are not compared: they separate
sentences with a space, as they separate clauses.

**Dice.** Dice notation is compared like a placeholder (rule ``translation-dice``, an error):
``2D6``, ``D66``, ``d10``, ``3d6+1``, ``d%``, with the letter of the language's own notation
(German ``2W6``, Polish ``K6``, Swedish ``T6``, Russian and Ukrainian ``к6``, Italian ``2D6``).
``1d6`` and ``d6`` are the same die. Digits of a dice notation are not numbers of the text
(rule ``translation-numbers`` leaves them to this rule).
"""

from __future__ import annotations

import functools
import re
from collections import Counter

from ..content.model import Game, Text
from ..core.english import counted
from ..core.rules import TRANSLATION_DICE, TRANSLATION_SENTENCES
from .context import CheckContext, check
from .texts import text_in, text_pos, translations

# the letter of a die, by language (d or D everywhere; these add their own)
DIE_LETTERS = {"de": "wW", "nl": "wW", "pl": "kK", "sv": "tT", "ru": "кКдД", "uk": "кКдД"}
_DIE = r"(?<![\w])(\d*)([{letters}])(\d+|%)(?:\s?([+\-−])\s?(\d+))?(?![\w])"

UNCOUNTED = frozenset({"th", "lo"})  # languages whose sentences are not marked
ORDINAL_POINT = frozenset(
    {"de", "da", "no", "nb", "nn", "fi", "cs", "sk", "sl", "hr", "sr", "bs", "pl", "hu", "et",
     "lv", "lt", "tr", "is", "fo"}
)  # fmt: skip
ABBREVIATIONS = frozenset(
    {"e.g", "i.e", "etc", "vs", "approx", "cf", "no", "nos", "mr", "mrs", "ms", "dr", "st", "p",
     "pp", "fig", "ca", "resp", "min", "max", "es", "ecc", "pag", "sig", "sigg", "cfr", "ad",
     "ex", "ej", "pág", "núm", "sr", "sra", "dto", "env", "mme", "mlle", "vol", "z.b", "d.h",
     "usw", "bzw", "vgl", "nr", "s", "u.a", "o.ä", "inkl", "evtl", "ggf"}
)  # fmt: skip
_FULL_STOP = "。！？｡।॥۔։።။"
_END_RE = re.compile(r"[.!?…]+[\"'”’»)\]]*(?=\s)|[" + _FULL_STOP + r"]+[\"'”’»)\]」』]*")
_MARKUP_RE = re.compile(r"\{[^{}]*\}|\*\*|\]\{[^}]*\}|(?<!\w)_|_(?!\w)|\[")
_LIST_MARK_RE = re.compile(r"^\s*(?:[-•*–·]|\d+[.)]|[a-z][.)])\s+")
_WORD_BEFORE_RE = re.compile(r"([\w.]+)$")


def _dice_re(lang: str) -> re.Pattern[str]:
    return _dice_re_of(DIE_LETTERS.get(lang.split("_")[0], ""))


@functools.cache
def _dice_re_of(extra_letters: str) -> re.Pattern[str]:
    """The dice pattern with a language's own die letters (one of a few: kept between runs)."""
    return re.compile(_DIE.format(letters="dD" + extra_letters))


def dice(text: str, lang: str) -> Counter[str]:
    """The dice a text names, written alike: ``2D6`` -> ``2d6``, ``1W6`` -> ``d6``."""
    out: Counter[str] = Counter()
    for m in _dice_re(lang).finditer(text):
        count, _letter, sides, sign, plus = m.groups()
        n = int(count) if count else 1
        said = f"{n if n != 1 else ''}d{sides}"
        if plus:
            said += ("-" if sign in "-−" else "+") + plus
        out[said] += 1
    return out


def without_dice(text: str, lang: str) -> str:
    """The text with each dice notation replaced by a space (its digits are no numbers)."""
    if not any(ch.isdigit() for ch in text):
        return text
    return _dice_re(lang).sub(" ", text)


def sentences(text: str, lang: str) -> list[str] | None:
    """The sentences of a text, line by line; None for a language not compared."""
    base = lang.split("_")[0]
    if base in UNCOUNTED:
        return None
    plain = _MARKUP_RE.sub("", text)
    out: list[str] = []
    for line in plain.splitlines():
        line = _LIST_MARK_RE.sub("", line)
        start = 0
        for m in _END_RE.finditer(line):
            if _is_end(line, m, base):
                out.append(line[start : m.end()])
                start = m.end()
        out.append(line[start:])
    return [s.strip() for s in out if any(ch.isalpha() for ch in s)]


def _is_end(line: str, m: re.Match[str], lang: str) -> bool:
    """Whether the marks at ``m`` end a sentence (see the module's docstring)."""
    if line[m.start()] in _FULL_STOP:
        return True
    after = line[m.end() :].lstrip()
    if after and after[0].islower():
        return False
    if line[m.start()] != ".":
        return True
    before = _WORD_BEFORE_RE.search(line[: m.start()])
    word = before.group(1) if before else ""
    if not word:
        return True
    if word.isdigit():
        return lang not in ORDINAL_POINT or not after
    bare = word.lower().strip(".")
    return not (len(bare) == 1 or bare in ABBREVIATIONS or "." in bare)


def _quote(text: str, limit: int = 70) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


@check
def translation_sentences(game: Game, ctx: CheckContext) -> None:
    """A translation with more or fewer sentences than its source (one was dropped or
    added), and one whose dice differ from the source's."""
    src = game.source_language
    for text, source, translated in translations(game, ctx):
        want = sentences(source, src)
        want_dice = dice(source, src)
        for lang, value in translated:
            got_dice = dice(value, lang)
            if got_dice != want_dice:
                _dice_finding(ctx, game, text, lang, src, want_dice, got_dice)
            got = sentences(value, lang)
            if want is None or got is None or len(got) == len(want):
                continue
            said = "drops" if len(got) < len(want) else "adds"
            ctx.add(
                TRANSLATION_SENTENCES,
                text_pos(game, text, lang, ctx),
                f"the {lang} text of {text.ctx} has {counted(len(got), 'sentence')}, the {src} "
                f'source {len(want)}: it {said} one? Source: "{_quote(source)}"; translate each '
                "sentence (join or split them only when the language needs it)",
            )


def _dice_finding(
    ctx: CheckContext,
    game: Game,
    text: Text,
    lang: str,
    src: str,
    want: Counter[str],
    got: Counter[str],
) -> None:
    lost = sorted((want - got).elements())
    extra = sorted((got - want).elements())
    seen_src = _as_written(text_in(game, text, src, ctx) or "", src)
    seen_lang = _as_written(text_in(game, text, lang, ctx) or "", lang)
    shown_lost = ", ".join(seen_src.get(d, d.upper()) for d in lost)
    shown_extra = ", ".join(seen_lang.get(d, d.upper()) for d in extra)
    if lost and extra:
        said = f"has {shown_extra} where the {src} text has {shown_lost}"
    elif lost:
        said = f"drops {shown_lost}"
    else:
        said = f"adds {shown_extra}, which the {src} text does not have"
    ctx.add(
        TRANSLATION_DICE,
        text_pos(game, text, lang, ctx),
        f"the {lang} text of {text.ctx} {said}: keep the dice of the {src} text, in the "
        f"notation of {lang} ({_example(lang)})",
    )


def _as_written(value: str, lang: str) -> dict[str, str]:
    """Each die of a text, as compared (``d6``), and as the text writes it (``W6``)."""
    out: dict[str, str] = {}
    for m in _dice_re(lang).finditer(value):
        out.setdefault(next(iter(dice(m.group(0), lang))), m.group(0))
    return out


def _example(lang: str) -> str:
    """Dice as a language writes them: 2D6, D66; German 2W6, W66."""
    letter = DIE_LETTERS.get(lang.split("_")[0], "dD")[-1]
    return f"2{letter}6, {letter}66"
