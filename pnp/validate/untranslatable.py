"""Untranslatable text: words that reach a sheet by a way no catalog follows.

A translator reaches every text of the game (YAML texts, the layouts' ``texts:``, pnp's own
words) through the catalogs. Three ways print words around them, and each is reported where it
is written (rule ``untranslatable-text``):

- a word written in a layout's ``template:`` (``"Stage {{ values.stage }}"``, a quoted
  ``{{ 'Europe' }}``): printed as it is in every language;
- a template choosing its words by language (``{% if lang == 'es' %}...{% else %}...``): every
  language but the ones named prints the ``else`` words;
- a template printing the card's ``id`` or ``tags``, and a scenario's card filter without a
  ``mark:``: the setup steps print its tag and values, codes no translator can change;
- a table column with ``labels:`` (what each code of its cells prints) whose cell holds a code
  it has no label for: that code prints as written.

Templates are read with Jinja's parser only (nothing is run). A word is two letters or more
outside ``{icon}`` markup; numbers and signs are no words.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from ..content.model import Element, Game
from ..core.findings import Pos
from ..core.rules import UNTRANSLATABLE
from ..typeset.faces.kinds import kind_of
from ..typeset.faces.tables import CODE
from .context import CheckContext, check

WORD = re.compile(r"[^\W\d_]{2,}")
ICON = re.compile(r"\{[^{}\s]*\}")  # {coin}, {stages}: markup, not words
CODES = ("id", "tags")  # what a template may print that is a code, not a text


@check
def untranslatable_text(game: Game, ctx: CheckContext) -> None:
    """Words in layout templates, templates choosing words by language, codes printed."""
    seen: set[tuple[str, int, int]] = set()
    for layout in game.layouts.values():
        for el in layout.elements:
            template = _template(el)
            if not template:
                continue
            for offset, message in template_problems(template):
                pos = _at(ctx, el, offset)
                key = (pos.path, pos.line, pos.col)
                if key not in seen:
                    seen.add(key)
                    ctx.add(UNTRANSLATABLE, pos, f"layout {layout.id}: {message}")
    for scenario in game.scenarios.values():
        for step in scenario.cards:
            for name in ("only", "exclude", "each_pile"):
                flt = getattr(step, name, None)
                if flt is None or flt.mark is not None:
                    continue
                pos = step.at(name)
                key = (pos.path, pos.line, pos.col)
                if key in seen:
                    continue
                seen.add(key)
                codes = [f"“{flt.tag}”"] if flt.tag else []
                codes += [f"{k} = {v}" for k, v in flt.values.items()]
                ctx.add(
                    UNTRANSLATABLE,
                    pos,
                    f"scenario {scenario.id}: the setup steps print this filter as "
                    f"{', '.join(codes)}, which no translator can reach: give it a mark: saying "
                    'how players recognise those cards (an icon such as "{first}", or a text '
                    "in each language)",
                )


@check
def unlabelled_codes(game: Game, ctx: CheckContext) -> None:
    """A column that prints its codes by labels: a code it has no label for prints as it is."""
    for table in game.tables.values():
        for col in table.columns:
            if not col.labels:
                continue
            for cells, positions in zip(table.cells, table.cell_pos, strict=True):
                value = cells.get(col.id)
                if not isinstance(value, str):
                    continue
                codes = [c for c in CODE.findall(value) if c not in col.labels and WORD.search(c)]
                if codes:
                    ctx.add(
                        UNTRANSLATABLE,
                        positions.get(col.id, table.pos),
                        f"table {table.id}: column {col.id} prints its codes by their labels, "
                        f"and has none for {', '.join(dict.fromkeys(codes))}, which would print "
                        f"as written in every language: add it to the column's labels: (known: "
                        f"{', '.join(col.labels)})",
                    )


def template_problems(source: str) -> list[tuple[int, str]]:
    """(offset in ``source``, message) for each untranslatable thing in a template; none for a
    template Jinja cannot parse (rule ``template`` reports it)."""
    from jinja2 import Environment, TemplateSyntaxError, nodes

    try:
        tree = Environment(autoescape=False).parse(source)
    except (TemplateSyntaxError, RecursionError, ValueError):
        return []
    out: list[tuple[int, str]] = []
    cursor = 0
    for node, parent in _walk(tree, None):
        if isinstance(node, nodes.TemplateData):
            words = WORD.findall(ICON.sub(" ", node.data))
            at = source.find(node.data, cursor)
            cursor = max(cursor, at)
            if words:
                out.append((max(at, 0) + _first(node.data), _words_message(words)))
        elif isinstance(node, nodes.Const) and isinstance(node.value, str):
            if not _printed(parent, node, nodes):
                continue
            words = WORD.findall(ICON.sub(" ", node.value))
            if words:
                at = _find_const(source, node.value)
                out.append((at, _words_message(words, quoted=True)))
        elif isinstance(node, nodes.Compare) and _names(node, nodes) & {"lang"}:
            at = source.find("lang")
            out.append(
                (
                    max(at, 0),
                    "this template chooses its words by language (lang == ...): every other "
                    "language prints the words of its else branch; put each word in the "
                    "layout's texts: (printed as {{ texts.name }}) and drop the condition",
                )
            )
        elif isinstance(node, nodes.Output):
            for child in node.nodes:
                if isinstance(child, nodes.Name) and child.name in CODES:
                    at = source.find(child.name)
                    out.append(
                        (
                            max(at, 0),
                            f"this template prints the card's {child.name}, a code no "
                            "translator can change: print a text (a field, or the layout's "
                            "texts:) instead",
                        )
                    )
    return out


def _walk(node: Any, parent: Any) -> Iterator[tuple[Any, Any]]:
    yield node, parent
    for child in node.iter_child_nodes():
        yield from _walk(child, node)


def _printed(parent: Any, node: Any, nodes: Any) -> bool:
    """Whether a string constant is printed (output, a branch of ``a if c else b``, a dict
    value, joined with ``~``), not compared, looked up, passed or iterated over."""
    if isinstance(parent, nodes.Output | nodes.Concat):
        return True
    if isinstance(parent, nodes.CondExpr):
        return node is not parent.test
    if isinstance(parent, nodes.Pair):
        return node is parent.value
    return False


def _names(node: Any, nodes: Any) -> set[str]:
    return {n.name for n in node.find_all(nodes.Name)}


def _find_const(source: str, value: str) -> int:
    for quoted in (f"'{value}'", f'"{value}"'):
        at = source.find(quoted)
        if at >= 0:
            return at
    return max(source.find(value), 0)


def _first(data: str) -> int:
    m = WORD.search(ICON.sub(lambda m: " " * len(m.group(0)), data))
    return m.start() if m else 0


def _words_message(words: list[str], quoted: bool = False) -> str:
    shown = " ".join(words[:6]) + (" ..." if len(words) > 6 else "")
    where = "a quoted string of this template" if quoted else "this template"
    return (
        f"{where} prints the words “{shown}” in every language, where no translator can reach "
        "them: put them in the layout's texts: (printed as {{ texts.name }}) or in a field"
    )


def _template(el: Element) -> str:
    """An element's template, when its kind is the template kind (else "")."""
    kind = kind_of(el)
    return str(getattr(el, kind.key or "", None) or "") if kind.key == "template" else ""


def _at(ctx: CheckContext, el: Element, offset: int) -> Pos:
    """The position of ``offset`` of an element's template: its scalar's own position moved
    along its line when the template is written on one line (past an opening quote)."""
    pos = el.at("template")
    source = _template(el)
    if not pos.line or "\n" in source[:offset]:
        return pos
    try:
        line = (ctx.root / pos.path).read_text("utf-8").splitlines()[pos.line - 1]
    except (OSError, IndexError, UnicodeDecodeError):
        return pos
    quote = line[pos.col - 1 : pos.col] in ("'", '"')
    return Pos(pos.path, pos.line, pos.col + offset + (1 if quote else 0))
