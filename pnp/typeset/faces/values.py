"""What a face's elements are drawn with: its style's palette, colours read as the renderer
reads them, templates rendered for the card (texts, colours, image paths), image files checked.

:class:`FaceValues` is the part of the face engine (:class:`~.engine.FaceEngine`) that turns an
element's written values into what is drawn for one card, and reports, naming the card, a
template that fails or gives no colour or no usable image.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...content.assets import AssetError, probe_image, resolve, svg_drawing
from ...content.model import Board, Card, Element, Face, Game, Text
from ...core.errors import BuildError
from ...core.findings import Pos
from ...core.rules import SCHEMA, TEMPLATE
from ...core.run import current
from ...i18n import Translator
from ..fonts import BUNDLED_FONTS, FontSet, family
from .colours import NONE, PALETTE, colour_names, is_template, read_colour
from .issues import TextIssue
from .layouts import Resolved

TEMPLATE_SECONDS = 0.5
DEFAULT_TEXT = "#000000"
DEFAULT_ACCENT = "#37474f"
MAX_TEMPLATE_CHARS = 2000


def _compiled(env: Any, source: str) -> Any:
    """Compile each distinct template once per run."""
    templates = current().store("typeset.templates", limit=5000)
    template = templates.get(source)
    if template is None:
        template = templates[source] = env.from_string(source)
    return template


@dataclass
class FaceCtx:
    """One face being laid out: what its elements are drawn from."""

    face: Face
    card: Card | Board
    w: float
    h: float
    palette: dict[str, str]  # background, accent, text: the style's colours
    values: dict[str, Any]
    template_ctx: dict[str, Any] | None = None
    words: dict[str, Text] = field(default_factory=dict)  # the layout's texts (texts.name)
    family: str | None = None  # the style's font family (None: the game's)


def palette_of(lay: Resolved, style_name: str | None) -> tuple[dict[str, str], str | None]:
    """The colours a face's style gives (background, accent, text) and the style's art. A
    style that is none of the layout's but a colour is the default style in that accent."""
    style = lay.styles.get(style_name or "default") or lay.styles.get("default")
    background = (style.background if style and style.background else None) or lay.background
    text = (style.color if style and style.color else None) or DEFAULT_TEXT
    accent = (style.accent if style and style.accent else None) or DEFAULT_ACCENT
    if style_name and style_name not in lay.styles:
        colour = read_colour(style_name)
        if colour is not None and colour != NONE:
            accent = colour
    text = DEFAULT_TEXT if text == NONE else text  # a text needs a colour
    palette = {"background": background, "accent": accent, "text": text}
    return palette, style.art if style else None


def style_family(lay: Resolved, style_name: str | None) -> str | None:
    """The font family a face's style gives its texts (None: the game's)."""
    style = lay.styles.get(style_name or "default") or lay.styles.get("default")
    return style.font_family if style is not None else None


def _template_problem(
    exc: Exception, card: str, ctx: dict[str, Any], values: dict[str, Any]
) -> str:
    """What went wrong, for which card, and the name meant when one is misspelt."""
    import re

    from ...content.schema import suggest

    reason = str(exc) or (
        "it needs more memory than there is" if isinstance(exc, MemoryError) else type(exc).__name__
    )
    text = f"template failed for {card}: {reason}"
    missing = re.search(r"has no attribute '([^']+)'|'([^']+)' is undefined", str(exc))
    if missing:
        name = missing.group(1) or missing.group(2)
        known = sorted(values) if missing.group(1) else sorted(ctx)
        hint = suggest(name, known)
        listing = ", ".join(known[:12]) or "none"
        text += f"; {hint}it has: {listing}"
    return text


def missing_name(
    exc: Exception, source: str, env: Any, ctx: dict[str, Any] | None = None
) -> str | None:
    """The card field a template asked for and the card lacks (``values.tools``, ``flavor``),
    read from the template's own syntax tree (``ctx``: what it was rendered with, so that
    ``texts.tools`` it has is not taken for ``values.tools`` it lacks); None when the error
    is of another kind."""
    import re

    from jinja2 import TemplateError, nodes

    found = re.search(r"has no attribute '([^']+)'|'([^']+)' is undefined", str(exc))
    if found is None:
        return None
    if found.group(2):
        return found.group(2)
    name = found.group(1)
    try:
        tree = env.parse(source)
    except (TemplateError, RecursionError):  # it was rendered, so it parses; else, no chain
        return None
    for node in tree.find_all(nodes.Getattr):
        if node.attr == name and isinstance(node.node, nodes.Name):
            owner = (ctx or {}).get(node.node.name)
            if isinstance(owner, dict) and name in owner:
                continue  # this one has it: another chain lacks it
            return f"{node.node.name}.{name}"
    return None


def card_problem(meant: str, card: str, template: Pos, ctx: dict[str, Any]) -> str:
    """A card lacks a field its layout's template prints: which, where the template is, what
    the card has and the name it may have meant."""
    from ...content.schema import suggest

    owner, _dot, name = meant.rpartition(".")
    known = sorted(ctx.get(owner, {}) if owner else ctx)
    shown = ", ".join(known[:12]) + (" ..." if len(known) > 12 else "")
    has = f"its {owner}: {shown or 'none'}" if owner else f"it has: {shown}"
    names = known if owner else sorted({*known, *Face.TEXT_FIELDS})  # a text it may lack
    return (
        f"{card} has no {meant}, which the template at {template} prints; "
        f"{suggest(name, names)}{has}; give the card its {meant} (in a spreadsheet: a "
        f"column {meant}) or fix the template"
    )


class FaceValues:
    """The face engine's values: palette, colours, templates and image files of a face."""

    game: Game
    game_dir: Path
    lang: str
    translator: Translator
    issues: list[TextIssue]
    _reported: set[tuple[str, ...]]
    _env: Any
    face_name: str
    fonts: FontSet
    _font_sets: dict[str, FontSet]

    def first(self, *key: str) -> bool:
        """True the first time a problem is seen: each is reported once per engine, not once
        per card that shows it."""
        if key in self._reported:
            return False
        self._reported.add(key)
        return True

    def issue(
        self, rule: str, pos: Pos, message: str, structural: bool = False, lang: bool = True
    ) -> TextIssue:
        """An issue of this face; ``lang=False``: the same in every language (reported once)."""
        return TextIssue(rule, pos, message, self.lang if lang else "", self.face_name, structural)

    @property
    def env(self) -> Any:
        """The template sandbox, made when a template is first rendered (jinja2 is imported
        only by games that use templates)."""
        if self._env is None:
            from ..templates import sandbox

            self._env = sandbox()
        return self._env

    def image(
        self, rel: str, el: Element | None = None, fc: FaceCtx | None = None, attr: str = "image"
    ) -> tuple[Path, int, int] | None:
        """An image file of the game with its size in pixels; None when it is unusable.
        Written paths are checked by validation; a path an element's template ``attr`` gave
        (``el``) is reported here, naming the card."""
        try:
            path = resolve(self.game_dir, rel, what="image")
            info = probe_image(path)
        except AssetError as err:
            if el is not None and fc is not None and self.first("image", str(el.at(attr)), rel):
                where = f" ({attr}: {getattr(el, attr)!r} for {self._named(fc)})"
                self.issues.append(self.issue(err.rule, el.at(attr), f"{err}{where}", lang=False))
            return None
        return path, info.width, info.height

    def drawing(self, path: Path) -> Any:
        """An SVG file's vector drawing, None for a raster image (or an SVG that fails: its
        file is reported by validation, and the face draws nothing there)."""
        if path.suffix.lower() != ".svg":
            try:
                if probe_image(path).format != "SVG":
                    return None
            except AssetError:
                return None
        try:
            return svg_drawing(path)
        except (AssetError, OSError):
            return None

    def fonts_for(self, el: Element, fc: FaceCtx) -> FontSet:
        """The fonts an element's text is set in: its font_family, else its style's, else
        the game's; the game's fonts stay its fallbacks. A family that cannot be loaded is
        reported by validation (rule font): the game's fonts print instead."""
        name = el.font_family or fc.family
        if not name or name == self.fonts.main.name:
            return self.fonts
        sets = self._font_sets
        if name not in sets:
            try:
                main = family(self.fonts.fonts_dir or BUNDLED_FONTS, name)
                fallbacks = [self.fonts.main, *self.fonts.fallbacks]
                sets[name] = FontSet(main, fallbacks, self.fonts.fonts_dir, self.fonts.scripts)
            except BuildError:
                sets[name] = self.fonts
        return sets[name]

    def paint(self, el: Element, attr: str, fc: FaceCtx, default: str | None) -> str | None:
        """The colour of an element's ``attr`` (color, fill, stroke) on this face, as the
        renderer reads it; None: draw nothing. A template is rendered for the card first; a
        value that is no colour is reported (validation reports written ones) and not drawn."""
        value = getattr(el, attr)
        if value is None:
            return default
        templated = is_template(value)
        if templated:
            rendered = self.render(el, attr, value, fc)
            if rendered is None:
                return default if attr == "color" else None  # the template error is reported
            value = rendered.strip()
        colour = read_colour(fc.palette.get(value, value))
        if colour is not None and not (colour == NONE and attr == "color"):
            return None if colour == NONE else colour
        if templated or value in fc.palette:
            self._bad_colour(el, attr, value, fc, colour)
        return fc.palette["text"] if attr == "color" else None

    def _bad_colour(
        self, el: Element, attr: str, value: str, fc: FaceCtx, colour: str | None
    ) -> None:
        written = getattr(el, attr)
        if not self.first("colour", str(el.at(attr)), value):
            return
        from ...content.schema import suggest

        card = self._named(fc)
        if colour == NONE:
            why = "but a text needs a colour: give this element a color: that is one"
        else:
            names = [*PALETTE, *(["none"] if attr != "color" else []), *sorted(colour_names())]
            why = (
                f'which is not a colour; {suggest(value, names)}make it give "#rrggbb", a '
                f"colour name such as blue, or one of the style's colours ({', '.join(PALETTE)})"
            )
        given = repr(fc.palette.get(value, value))
        if value in fc.palette:
            given += f" (the style's {value})"
        self.issues.append(
            self.issue(
                SCHEMA,
                el.at(attr),
                f"{attr}: {written!r} gives {given} for {card}, {why}",
                lang=False,
            )
        )

    def _named(self, fc: FaceCtx) -> str:
        """The card (token, board) a face belongs to, for a message: card 'alpha'."""
        kind = "board" if isinstance(fc.card, Board) else "card"
        ident = getattr(fc.card, "id", "")
        return f"{kind} {ident!r}" if ident else self.face_name

    def _context(self, fc: FaceCtx) -> dict[str, Any]:
        """What a template of this face sees (made once per face)."""
        if fc.template_ctx is None:
            card, values = fc.card, fc.values
            ctx = {
                "values": values,
                "id": getattr(card, "id", ""),
                "copies": getattr(card, "copies", 1),
                "tags": list(getattr(card, "tags", [])),
                "lang": self.lang,
                "game_title": self.translator.text(self.game.meta.title),
            }
            for name, text in fc.face.texts():
                ctx[name] = self.translator.text(text, values)
            ctx["texts"] = {name: self.translator.text(t, values) for name, t in fc.words.items()}
            fc.template_ctx = ctx
        return fc.template_ctx

    def render(self, el: Element, attr: str, source: str, fc: FaceCtx) -> str | None:
        """A template of an element (its text, image path or colour) rendered for this face;
        None, and a finding naming the card, when it fails."""
        from jinja2 import TemplateError

        from ...content.expr import ExprError, time_limit

        ctx = self._context(fc)
        try:
            if len(source) > MAX_TEMPLATE_CHARS:
                raise ValueError(f"a template of more than {MAX_TEMPLATE_CHARS} characters")
            template = _compiled(self.env, source)  # untimed: an alarm must not stop a parser
            with time_limit(TEMPLATE_SECONDS):
                out = template.render(ctx)
        except (
            TemplateError,
            ArithmeticError,
            ValueError,
            TypeError,
            ExprError,
            RecursionError,
            MemoryError,
        ) as exc:
            self._template_failed(exc, el, attr, source, fc, ctx)
            return None
        return out[:MAX_TEMPLATE_CHARS]

    def _template_failed(
        self, exc: Exception, el: Element, attr: str, source: str, fc: FaceCtx, ctx: Any
    ) -> None:
        """A template that failed: at the card when the card lacks a field it prints (every
        such card, folded under the first, or under what broke that field), else at the
        template, once."""
        lang = attr == "template"  # a text's template may differ by language
        meant = missing_name(exc, source, self.env, ctx)
        card = fc.card
        path = getattr(card, "path", "")
        if meant is not None and path and card.pos.line:
            if not self.first(TEMPLATE, str(el.at(attr)), meant, path):
                return
            where = card.at(meant.split(".")[0]) if card.given(meant.split(".")[0]) else card.pos
            group = f"templates/{el.at(attr)}/{meant}"
            issue = self.issue(
                TEMPLATE, where, card_problem(meant, self._named(fc), el.at(attr), ctx), lang=lang
            )
            field = f"{path}/{meant.replace('.', '/')}"  # or a key of that name pnp did not read
            issue.subject, issue.needs = (group,), (field, f"{path}/{meant.split('.')[-1]}", group)
            self.issues.append(issue)
        elif self.first(TEMPLATE, str(el.at(attr)), str(exc)):  # named: the first card
            card_id = getattr(card, "id", "") or self.face_name
            message = _template_problem(exc, card_id, ctx, fc.values)
            self.issues.append(self.issue(TEMPLATE, el.at(attr), message, lang=lang))
