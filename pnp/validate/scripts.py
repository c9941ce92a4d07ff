"""Scripts: every text of every language in a script that this installation prints right.

A text in a script that no font of the game covers (neither its fonts nor pnp's: Latin, Greek,
Cyrillic, Arabic, Hebrew, Devanagari, Thai) would print blank boxes; a text in a script whose
letters must be shaped (Arabic, the Indic scripts, Thai...) or laid out right to left prints
wrong where this installation cannot do it (reportlab's shaping needs uharfbuzz, brackets set
right to left python-bidi's mirror table, both dependencies of pnp). Each is one finding per
language and script, at the first text written in it, for every text pnp prints (faces, the
setup sheet, names in page labels); the text-fitting check also names each face text with a
missing glyph.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..compat import bidi
from ..compat.reportlab import shaping_available
from ..content.model import Game
from ..core.errors import BuildError
from ..core.findings import Pos
from ..core.rules import SCRIPT
from ..typeset.fonts import FontSet, fontset
from ..typeset.scripts import glyph_advice, script_of
from .context import CheckContext, check
from .texts import checked_languages, text_in, text_pos


@dataclass
class _Use:
    """The texts of one language written in one script: how many, and where the first is."""

    pos: Pos
    texts: set[int] = field(default_factory=set)  # their indexes in game.texts
    uncovered: set[str] = field(default_factory=set)  # its characters no font has


@check
def scripts(game: Game, ctx: CheckContext) -> None:
    """Texts in a script no font covers, or that needs shaping or right-to-left layout this
    installation cannot do."""
    try:
        fonts = fontset(ctx.root / "fonts", game.print.font, game.print.fallback_fonts)
    except BuildError:
        return  # the font check reports it
    for lang in checked_languages(game, ctx):
        uses = _uses(game, ctx, lang, fonts)
        blank = {key: use for key, use in uses.items() if use.uncovered}
        if blank:  # one cause (no font for the language's letters), one finding
            _report_blank(ctx, lang, blank)
        for (script, needs), use in sorted(uses.items(), key=lambda kv: kv[1].pos):
            if not use.uncovered:
                _report(ctx, lang, script, needs, use)


def _uses(game: Game, ctx: CheckContext, lang: str, fonts: FontSet) -> dict[tuple[str, str], _Use]:
    """For each script a language's texts use: which texts, the first, what no font has (a
    text's punctuation no font has, such as 。, counts with the first of its scripts)."""
    covered: dict[str, bool] = {}
    uses: dict[tuple[str, str], _Use] = {}
    for n, text in enumerate(game.texts):
        value = text_in(game, text, lang, ctx)
        if not value or value.isascii():
            continue
        first: _Use | None = None
        others: set[str] = set()
        for ch in sorted(set(value)):
            if ch not in covered:
                covered[ch] = fonts.covering("regular", ch) is not None
            found = script_of(ch)
            if found is None:
                if not covered[ch]:
                    others.add(ch)
                continue
            use = uses.get(found)
            if use is None:
                use = uses[found] = _Use(text_pos(game, text, lang, ctx))
            use.texts.add(n)
            first = first or use
            if not covered[ch]:
                use.uncovered.add(ch)
        if first is not None and first.uncovered:
            first.uncovered.update(others)
    return uses


def _report_blank(ctx: CheckContext, lang: str, blank: dict[tuple[str, str], _Use]) -> None:
    """The scripts of a language no font prints, as one finding at the first text in any."""
    names = sorted(script for script, _needs in blank)
    texts = set().union(*(use.texts for use in blank.values()))
    uncovered = set().union(*(use.uncovered for use in blank.values()))
    chars = "".join(sorted(uncovered)[:12])
    count = len(texts)
    ctx.uncovered.setdefault(lang, set()).update(uncovered)
    ctx.add(
        SCRIPT,
        min(use.pos for use in blank.values()),
        f"[{lang}] {count} text{'s' if count != 1 else ''} {'are' if count != 1 else 'is'} "
        f"written in {_and(names)} (the first here), and no font of this game has "
        f"{'their' if count != 1 else 'its'} letters ({chars!r}); "
        + glyph_advice("".join(sorted(uncovered)), lang),
        lang=lang,
    )


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _report(ctx: CheckContext, lang: str, script: str, needs: str, use: _Use) -> None:
    count = len(use.texts)
    texts = f"{count} text{'s' if count != 1 else ''} {'are' if count != 1 else 'is'}"
    where = f"[{lang}] {texts} written in {script} (the first here)"
    if needs == "shaping" and not shaping_available():
        ctx.add(
            SCRIPT,
            use.pos,
            f"{where}, whose letters must be shaped, and this installation cannot shape text "
            "(uharfbuzz is missing): they would print unjoined; install pnp-press again, or "
            "`pip install uharfbuzz`",
            lang=lang,
        )
    elif needs in ("shaping", "rtl") and _rtl(script) and not bidi.AVAILABLE:
        ctx.add(
            SCRIPT,
            use.pos,
            f"{where}, which reads right to left, and this installation cannot mirror it "
            "(python-bidi is missing): its brackets would print facing the wrong way; install "
            "pnp-press again, or `pip install python-bidi`",
            lang=lang,
        )


def _rtl(script: str) -> bool:
    return script in ("Arabic", "Hebrew", "Syriac", "Thaana", "Nko")
