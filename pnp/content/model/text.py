"""Multilingual text: a plain string in the source language, a mapping language -> text, or a
text with plural forms chosen by a count (CLDR categories per language)."""

from __future__ import annotations

import re
from typing import Any

from babel import Locale, UnknownLocaleError

from ...core.findings import Pos
from ..schema import INVALID, Context, Custom, describe
from ..yamlio import YMap

SOURCE = ""  # language key of a plain (source-language) string until the game is known


class Text(Custom):
    """Multilingual text: a mapping language -> text, or a plain string in the source language."""

    type_label = "a text or a mapping language -> text"

    def __init__(
        self,
        values: dict[str, str],
        pos: Pos,
        lpos: dict[str, Pos] | None = None,
        *,
        plain: bool = False,
        ctx: str = "",
    ) -> None:
        self.values = values
        self.pos = pos
        self.lpos = lpos or {}
        self.plain = plain
        self.ctx = ctx  # stable msgctxt: where in the game this text lives
        self.note = ""  # translator comment
        # a text with plural forms: the value that chooses the form, and per language the
        # forms by CLDR category (zero, one, two, few, many, other); values[lang] is "other"
        self.count: str | None = None
        self.forms: dict[str, dict[str, str]] = {}
        # the values the text names for itself ({count} in a box line), by what it belongs to:
        # filled when the game is loaded (pnp.content.refs.link)
        self.scope: dict[str, Any] = {}

    def __repr__(self) -> str:
        return f"Text({self.values!r})"

    def at(self, lang: str) -> Pos:
        return self.lpos.get(lang, self.pos)

    def has_words(self) -> bool:
        """Whether some value has a letter outside its {placeholders} and icons. One without
        ("{coin} {coin}", "3 / 4", "**+2**") reads the same in every language: it needs no
        translation, is no entry of a translation template, and is never a fallback."""
        return any(
            ch.isalpha() for v in self.values.values() for ch in re.sub(r"\{[^{}]*\}", "", v)
        )

    @classmethod
    def from_yaml(cls, value: Any, pos: Pos, ctx: Context) -> Any:
        if isinstance(value, str | int | float) and not isinstance(value, bool):
            text = cls({SOURCE: str(value)}, pos, {SOURCE: pos}, plain=True, ctx=ctx.where)
        elif isinstance(value, YMap) and "count" in value:
            return cls._plural_from_yaml(value, pos, ctx)
        elif isinstance(value, YMap):
            values: dict[str, str] = {}
            lpos: dict[str, Pos] = {}
            for lang, s in value.items():
                vpos = value.value_pos(lang)
                if not isinstance(lang, str):
                    ctx.error(
                        value.key_pos(lang),
                        f"{describe(lang)} is not a language code; write e.g. en: or it:",
                    )
                    continue
                if s is None:
                    continue  # an empty translation slot, e.g. "fr:" left for later
                if not isinstance(s, str | int | float) or isinstance(s, bool):
                    ctx.error(vpos, f"expected the {lang!r} text, found {describe(s)}")
                    continue
                values[lang] = str(s)
                lpos[lang] = vpos
            text = cls(values, pos, lpos, ctx=ctx.where)
        else:
            ctx.error(
                pos, f"expected a text or a mapping language -> text, found {describe(value)}"
            )
            return INVALID
        ctx.texts.append(text)
        return text

    @classmethod
    def _plural_from_yaml(cls, value: YMap, pos: Pos, ctx: Context) -> Any:
        """``{count: n, en: {one: ..., other: ...}, it: {...}}``: a text with plural forms."""
        count = value.get("count")
        if not isinstance(count, str) or not re.fullmatch(
            r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_-]+)*", count
        ):
            ctx.error(
                value.value_pos("count"),
                f"count: expected the name of the value that chooses the plural form (e.g. "
                f"count: n for {{n}}, or a reference such as decks.events.total), found "
                f"{describe(count)}",
            )
            return INVALID
        values: dict[str, str] = {}
        lpos: dict[str, Pos] = {}
        forms: dict[str, dict[str, str]] = {}
        for lang, by_form in value.items():
            if lang == "count":
                continue
            vpos = value.value_pos(lang)
            if not isinstance(lang, str):
                ctx.error(value.key_pos(lang), f"{describe(lang)} is not a language code")
                continue
            if by_form is None:
                continue
            if isinstance(by_form, str | int | float) and not isinstance(by_form, bool):
                by_form = {"other": str(by_form)}  # one text for every form
            elif not isinstance(by_form, YMap):
                ctx.error(
                    vpos,
                    f"expected the {lang!r} forms as a mapping such as {{one: ..., other: ...}}, "
                    f"found {describe(by_form)}",
                )
                continue
            these: dict[str, str] = {}
            for category, text in by_form.items():
                if category not in PLURAL_CATEGORIES:
                    ctx.error(
                        by_form.key_pos(category) if isinstance(by_form, YMap) else vpos,
                        f"{describe(category)} is not a plural category; use "
                        f"{', '.join(PLURAL_CATEGORIES)}",
                    )
                    continue
                if not isinstance(text, str | int | float) or isinstance(text, bool):
                    ctx.error(
                        vpos, f"expected the {lang!r} {category} text, found {describe(text)}"
                    )
                    continue
                these[str(category)] = str(text)
            if "other" not in these:
                ctx.error(vpos, f"the {lang!r} forms need an 'other' form (the general plural)")
                continue
            forms[lang] = these
            values[lang] = these["other"]
            lpos[lang] = vpos
        text = cls(values, pos, lpos, ctx=ctx.where)
        text.count = count
        text.forms = forms
        ctx.texts.append(text)
        return text

    def form(self, lang: str, n: float) -> str | None:
        """The text in ``lang`` for the count ``n`` (CLDR's rule for the language)."""
        forms = self.forms.get(lang)
        if forms is None:
            return self.values.get(lang)
        try:
            category = Locale.parse(lang).plural_form(n)
        except (UnknownLocaleError, ValueError):
            category = "one" if n == 1 else "other"
        return forms.get(category, forms["other"])

    @classmethod
    def json_schema(cls) -> dict[str, Any]:
        forms = {
            "anyOf": [
                {"type": ["string", "number"]},
                {
                    "type": "object",
                    "properties": {c: {"type": ["string", "number"]} for c in PLURAL_CATEGORIES},
                    "required": ["other"],
                    "additionalProperties": False,
                },
            ]
        }
        return {
            "anyOf": [
                {"type": ["string", "number"]},
                {
                    "type": "object",
                    "propertyNames": {"pattern": "^[a-z]{2,3}(_[A-Za-z0-9]{2,8})*$"},
                    "additionalProperties": {"type": ["string", "number", "null"]},
                },
                {
                    "type": "object",
                    "properties": {"count": {"type": "string"}},
                    "required": ["count"],
                    "additionalProperties": forms,
                    "description": "a text with plural forms: count names the value choosing "
                    "the form; each language gives its forms by CLDR category",
                },
            ],
            "description": "a text in the source language, or a mapping language code -> text",
        }


PLURAL_CATEGORIES = ("zero", "one", "two", "few", "many", "other")


def plain(value: Any, lang: str) -> Any:
    """A text as the designer wrote it in ``lang`` (else its first language), for messages and
    invariants; any other value unchanged."""
    if isinstance(value, Text):
        return value.values.get(lang) or next(iter(value.values.values()), "")
    return value
