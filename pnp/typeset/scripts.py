"""Scripts: which texts need shaping or right-to-left layout, a language's direction, the font
to suggest for a script no font covers, and where Thai may break without spaces.

The direction of a language is its CLDR character order (babel), so every right-to-left
language babel knows (``ar``, ``he``, ``fa``, ``ur``, ``ps``, ``yi``, ``ckb``...) is laid out
right to left. Texts of the other languages are laid out right to left where they hold a
right-to-left script (the Unicode bidirectional algorithm, :mod:`pnp.typeset.layout`).
"""

from __future__ import annotations

import functools
import re

# characters a plain left-to-right line cannot print right: scripts whose letters join or
# reorder (Arabic, Syriac, Thaana, N'Ko, the Indic scripts, Thai, Lao, Tibetan, Myanmar,
# Khmer, Mongolian), right-to-left scripts (Hebrew...), the bidirectional controls, and the
# scripts whose lines break between words without spaces (Thai, Chinese, Japanese)
COMPLEX_RE = re.compile(
    "[\u0590-\u08ff\u0900-\u0dff\u0e00-\u0fff\u1000-\u109f\u1780-\u18af\u200b\u200e"
    "\u200f\u202a-\u202e\u2066-\u2069\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\ua8e0-\ua8ff"
    "\uf900-\ufaff\ufb1d-\ufdff\ufe70-\ufeff\uff00-\uffef"
    "\U00010800-\U00010fff\U0001e800-\U0001efff\U00020000-\U0003134f]"
)
# characters that make a paragraph need the bidirectional algorithm: right-to-left letters
# and digits, and the controls that open right-to-left embeddings
RTL_RE = re.compile(
    "[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc\u200f\u202b\u202e\u2067"
    "\U00010800-\U00010fff\U0001e800-\U0001efff]"
)


def needs_layout(text: str) -> bool:
    """True when ``text`` has a character that needs shaping or the bidirectional algorithm."""
    return not text.isascii() and COMPLEX_RE.search(text) is not None


def has_rtl(text: str) -> bool:
    """True when ``text`` has a right-to-left character."""
    return not text.isascii() and RTL_RE.search(text) is not None


@functools.lru_cache(maxsize=256)
def is_rtl(lang: str) -> bool:
    """True when the language is written right to left (CLDR's character order)."""
    if not lang:
        return False
    from babel import Locale, UnknownLocaleError

    try:
        order = Locale.parse(lang.replace("-", "_")).character_order
    except (UnknownLocaleError, ValueError, TypeError, LookupError):
        return False
    return order == "right-to-left"


# --- scripts and the fonts that cover them --------------------------------------------------

# (first, last, script name, what it needs: "shaping", "rtl", "" for neither)
_SCRIPTS: tuple[tuple[int, int, str, str], ...] = (
    (0x0370, 0x03FF, "Greek", ""),
    (0x0400, 0x052F, "Cyrillic", ""),
    (0x0530, 0x058F, "Armenian", ""),
    (0x0590, 0x05FF, "Hebrew", "rtl"),
    (0x0600, 0x06FF, "Arabic", "shaping"),
    (0x0700, 0x074F, "Syriac", "shaping"),
    (0x0750, 0x077F, "Arabic", "shaping"),
    (0x0780, 0x07BF, "Thaana", "shaping"),
    (0x07C0, 0x07FF, "Nko", "shaping"),
    (0x0860, 0x08FF, "Arabic", "shaping"),
    (0x0900, 0x097F, "Devanagari", "shaping"),
    (0x0980, 0x09FF, "Bengali", "shaping"),
    (0x0A00, 0x0A7F, "Gurmukhi", "shaping"),
    (0x0A80, 0x0AFF, "Gujarati", "shaping"),
    (0x0B00, 0x0B7F, "Oriya", "shaping"),
    (0x0B80, 0x0BFF, "Tamil", "shaping"),
    (0x0C00, 0x0C7F, "Telugu", "shaping"),
    (0x0C80, 0x0CFF, "Kannada", "shaping"),
    (0x0D00, 0x0D7F, "Malayalam", "shaping"),
    (0x0D80, 0x0DFF, "Sinhala", "shaping"),
    (0x0E00, 0x0E7F, "Thai", "shaping"),
    (0x0E80, 0x0EFF, "Lao", "shaping"),
    (0x0F00, 0x0FFF, "Tibetan", "shaping"),
    (0x1000, 0x109F, "Myanmar", "shaping"),
    (0x10A0, 0x10FF, "Georgian", ""),
    (0x1100, 0x11FF, "Hangul", ""),
    (0x1200, 0x139F, "Ethiopic", ""),
    (0x1780, 0x17FF, "Khmer", "shaping"),
    (0x1800, 0x18AF, "Mongolian", "shaping"),
    (0x3040, 0x309F, "Hiragana", ""),
    (0x30A0, 0x30FF, "Katakana", ""),
    (0x3130, 0x318F, "Hangul", ""),
    (0x3400, 0x4DBF, "Han", ""),
    (0x4E00, 0x9FFF, "Han", ""),
    (0xA8E0, 0xA8FF, "Devanagari", "shaping"),
    (0xAC00, 0xD7AF, "Hangul", ""),
    (0xF900, 0xFAFF, "Han", ""),
    (0xFB1D, 0xFB4F, "Hebrew", "rtl"),
    (0xFB50, 0xFDFF, "Arabic", "shaping"),
    (0xFE70, 0xFEFF, "Arabic", "shaping"),
    (0xFF66, 0xFF9F, "Katakana", ""),
    (0x20000, 0x3134F, "Han", ""),
)

# the fonts pnp brings for scripts its main fonts lack (pnp/data/fonts/): tried before
# DejaVu Sans for the characters of their script
BUNDLED_SCRIPT_FONTS = {
    "Arabic": "NotoSansArabic",
    "Hebrew": "NotoSansHebrew",
    "Devanagari": "NotoSansDevanagari",
    "Thai": "NotoSansThai",
}
# a Noto family a translator can add for each other script (Google Fonts names)
_NOTO = {
    "Han": "",  # by language: see font_for
    "Hiragana": "Noto Sans JP",
    "Katakana": "Noto Sans JP",
    "Hangul": "Noto Sans KR",
    "Tibetan": "Noto Serif Tibetan",
}


def script_of(ch: str) -> tuple[str, str] | None:
    """The script of a character and what it needs ("shaping", "rtl" or ""), for the
    scripts pnp knows; None for the others (Latin, symbols)."""
    code = ord(ch)
    if code < 0x0370:
        return None
    for first, last, name, needs in _SCRIPTS:
        if first <= code <= last:
            return name, needs
    return None


def bundled_font(ch: str) -> str | None:
    """The family pnp brings for the script of ``ch``, if it brings one."""
    found = script_of(ch)
    return BUNDLED_SCRIPT_FONTS.get(found[0]) if found else None


def font_for(script: str, lang: str) -> str:
    """A freely licensed family that covers ``script`` (a Noto family's name)."""
    if script == "Han":
        base = lang.replace("-", "_").split("_")
        if base[0] == "ja":
            return "Noto Sans JP"
        if base[0] == "ko":
            return "Noto Sans KR"
        if base[0] == "zh" and any(p in ("Hant", "TW", "HK", "MO") for p in base[1:]):
            return "Noto Sans TC"
        return "Noto Sans SC"
    return _NOTO.get(script) or f"Noto Sans {script}"


def glyph_advice(chars: str, lang: str) -> str:
    """What to do about characters no font covers: a font for their script, as a file name
    in fonts/ and the name to list under ``print.fallback_fonts``."""
    scripts = sorted({s[0] for s in map(script_of, chars) if s is not None})
    if not scripts:
        return "add a font that has it to fonts/ and list it under print.fallback_fonts"
    family = font_for(scripts[0], lang)
    file = family.replace(" ", "")
    named = scripts[0] if len(scripts) == 1 else ", ".join(scripts[:-1]) + " and " + scripts[-1]
    them = "it" if len(scripts) == 1 else "them"
    need = "needs" if len(scripts) == 1 else "need"
    return (
        f"{named} {need} a font that covers {them}: install a TrueType font such as "
        f"{family} as fonts/{file}-Regular.ttf (and -Bold.ttf) and list {file} under "
        "print.fallback_fonts"
    )


# --- line breaks without spaces: Thai, Chinese, Japanese ------------------------------------

_LEADING = frozenset("\u0e40\u0e41\u0e42\u0e43\u0e44")  # เ แ โ ใ ไ: before their consonant
_ATTACHED = frozenset(  # never begin a cluster: vowels after or over a consonant, marks, ๆ ฯ
    "\u0e2f\u0e30\u0e31\u0e32\u0e33\u0e34\u0e35\u0e36\u0e37\u0e38\u0e39\u0e3a\u0e45\u0e46"
    "\u0e47\u0e48\u0e49\u0e4a\u0e4b\u0e4c\u0e4d\u0e4e"
)
_TONES = frozenset("\u0e48\u0e49\u0e4a\u0e4b")
_CLOSING = frozenset("\u0e31\u0e47")  # ั ็: the consonant after them closes the syllable
_KARAN = "\u0e4c"  # ์: the letter under it is silent, part of the syllable before
_THAI_RE = re.compile("[\u0e01-\u0e5b]+")
_CJK_RE = re.compile("[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]+")
_KANA_RE = re.compile("[\u3040-\u30ff]")
# CJK line-breaking rules (kinsoku): never at the start of a line, never at its end
_NO_START = frozenset(
    "、。，．：；？！）」』】〕〉》〙〗｝］…ー々ゝゞぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ・"
)
_NO_END = frozenset("（「『【〔〈《〘〖｛［")


def _thai(ch: str) -> bool:
    return "\u0e01" <= ch <= "\u0e5b"


def thai_breaks(text: str) -> list[int]:
    """Positions in ``text`` before which a line may break inside a run of Thai letters,
    between Thai character clusters: never inside a consonant with its vowels and marks, a
    leading vowel with its consonant, a syllable closed after ั or ็, or before a silent
    letter (์). Such a break may fall inside a word: :func:`break_opportunities` uses them only
    inside a phrase longer than a line."""
    out = []
    for i in range(1, len(text)):
        ch, prev = text[i], text[i - 1]
        if not (_thai(ch) and _thai(prev)):
            continue
        if ch in _ATTACHED or prev in _LEADING:
            continue
        nxt = text[i + 1] if i + 1 < len(text) else ""
        after = text[i + 2] if i + 2 < len(text) else ""
        if nxt == _KARAN or (nxt in _ATTACHED and after == _KARAN):
            continue  # a silent letter stays with the syllable before it
        back = i - 1
        while back > 0 and text[back] in _TONES:
            back -= 1
        if text[back] in _CLOSING:
            continue  # the closing consonant of a syllable with ั or ็
        if ch in "\u0e22\u0e2d" and text[back] in "\u0e35\u0e37":
            continue  # เ-ีย, เ-ือ: one vowel written in three letters
        out.append(i)
    return out


def _cjk_breaks(text: str) -> list[int]:
    """Positions between two CJK characters where a line may break (kinsoku rules kept)."""
    return [
        i for i in range(1, len(text)) if text[i] not in _NO_START and text[i - 1] not in _NO_END
    ]


@functools.lru_cache(maxsize=8)
def _parser(model: str) -> object | None:
    """BudouX's phrase parser for ``th``, ``ja`` or ``zh-hans`` (None without budoux)."""
    try:
        import budoux
    except ImportError:  # pragma: no cover - a dependency; then only clusters break
        return None
    load = {
        "th": budoux.load_default_thai_parser,
        "ja": budoux.load_default_japanese_parser,
        "zh-hans": budoux.load_default_simplified_chinese_parser,
    }[model]
    return load()


def _phrase_starts(run: str, model: str) -> list[int]:
    """Where BudouX's phrases of ``run`` begin (after the first)."""
    parser = _parser(model)
    if parser is None:
        return []
    out, at = [], 0
    for phrase in parser.parse(run)[:-1]:  # type: ignore[attr-defined]
        at += len(phrase)
        out.append(at)
    return out


def break_opportunities(text: str) -> tuple[frozenset[int], frozenset[int]]:
    """Where a line may break in a text without a space: (between words, inside a phrase).

    Thai, Chinese and Japanese leave no space between words. pnp breaks their lines between
    the phrases BudouX finds (Google's line-breaking model, as browsers use it; a phrase is a
    word or a word with its particles), and, in a phrase longer than a line, between Thai
    character clusters or CJK characters (never before a closing mark or after an opening
    one)."""
    words: set[int] = set()
    inside: set[int] = set()
    if text.isascii():
        return frozenset(), frozenset()
    for m in _THAI_RE.finditer(text):
        words.update(m.start() + i for i in _phrase_starts(m.group(), "th"))
        inside.update(m.start() + i for i in thai_breaks(m.group()))
    for m in _CJK_RE.finditer(text):
        model = "ja" if _KANA_RE.search(text) else "zh-hans"
        words.update(m.start() + i for i in _phrase_starts(m.group(), model))
        inside.update(m.start() + i for i in _cjk_breaks(m.group()))
    return frozenset(words), frozenset(inside - words)
