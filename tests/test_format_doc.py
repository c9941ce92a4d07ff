"""docs/format.md documents every key of the format, and its examples are valid content.

The convention that makes "documented" checkable:

- An object's section is a heading of docs/format.md followed, before the next heading, by a
  line ``<!-- schema: ClassName -->`` naming the model class it documents
  (pnp/content/model/; several names may share one line).
- A key belongs to the class that declares it (a card's ``title`` is a key of ``Face``), and
  has one row in the table of that class's section: ``| `key` | type | default | meaning |``.
  The default cell says ``required`` for a key without a default and shows the default
  otherwise; a key whose value is one of a few words names each of them in its row.
- Every class and custom value type reachable from the roots (game.yaml and any other file)
  through field types, unions, lists and dicts has a section.
- The names an invariant's expression sees are rows of the section marked
  ``<!-- expression-names -->``, each row naming every field of its records.
- Every ```` ```yaml ```` block is a content file (or a game.yaml) that loads without a finding.
"""

from __future__ import annotations

import dataclasses
import inspect
import re
from dataclasses import dataclass
from typing import Annotated, Any, Literal, get_args, get_origin

from pnp.content.expr import Evaluator, Record
from pnp.content.load import load_game, open_root
from pnp.content.model import Element, GameFile, Layout, Sections, Track
from pnp.content.records import game_data
from pnp.content.schema import (
    Context,
    Custom,
    Located,
    convert,
    fld,
    hints,
    public_fields,
    yaml_key,
)
from pnp.content.yamlio import YMap, parse_text
from pnp.core.findings import Report

from helpers import REPO

DOC = REPO / "docs" / "format.md"
ROOTS: tuple[type, ...] = (GameFile, Sections)

HEADING = re.compile(r"^#{1,6} (.+?)\s*$")
MARKER = re.compile(r"<!-- schema: ([\w ]+?) -->")
NAMES_MARKER = "<!-- expression-names -->"
ROW = re.compile(r"^\|\s*`([^`]+)`\s*\|(.*)$", re.M)
NAME_ROW = re.compile(r"^\|\s*`([^`]+)`[^|]*\|(.*)$", re.M)  # `cards.ID` (every card) | ...
YAML_BLOCK = re.compile(r"^```yaml\n(.*?)^```", re.M | re.S)


# --- the schema: every class reachable from the roots, and the keys each one declares ---------


def leaf_types(tp: Any) -> list[type]:
    """The dataclasses and custom value types inside an annotation."""
    if get_origin(tp) is Annotated:
        custom = [m for m in tp.__metadata__ if isinstance(m, type) and issubclass(m, Custom)]
        return custom or leaf_types(get_args(tp)[0])
    if get_origin(tp) is Literal:
        return []
    if isinstance(tp, type) and (dataclasses.is_dataclass(tp) or issubclass(tp, Custom)):
        return [tp]
    return [t for arg in get_args(tp) for t in leaf_types(arg)]


def reachable(roots: tuple[type, ...]) -> dict[type, str]:
    """Every class reachable from the roots (with the dataclasses they inherit keys from), and
    the path of keys that first reaches it."""
    found: dict[type, str] = {}
    todo = [(r, r.__name__) for r in roots]
    while todo:
        cls, via = todo.pop(0)
        if cls in found:
            continue
        found[cls] = via
        if not dataclasses.is_dataclass(cls):
            continue
        todo.extend((base, via) for base in cls.__mro__[1:] if own_keys(base))
        th = hints(cls)
        for f in own_keys(cls):
            todo.extend((t, f"{via}.{yaml_key(f)}") for t in leaf_types(th[f.name]))
    return found


def own_keys(cls: type) -> list[dataclasses.Field[Any]]:
    """The keys a class declares itself (inherited ones belong to the class declaring them)."""
    if not dataclasses.is_dataclass(cls):
        return []
    own = inspect.get_annotations(cls)
    return [f for f in public_fields(cls) if f.name in own]


def choices(tp: Any) -> list[str]:
    """The words a Literal annotation allows (inside unions and lists too)."""
    if get_origin(tp) is Literal:
        return [str(a) for a in get_args(tp)]
    return [c for arg in get_args(tp) for c in choices(arg)]


def shown_default(f: dataclasses.Field[Any]) -> str | None:
    """The default as the doc writes it: 'required', a number, a word; None when the doc
    explains it in words (none, an empty list, the deck's...)."""
    if f.default is dataclasses.MISSING:
        return "required" if f.default_factory is dataclasses.MISSING else None
    value = f.default
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, int | str) and value != "":
        return str(value)
    return None


# --- the doc: sections, their markers and their key tables ------------------------------------


@dataclass
class Section:
    heading: str
    line: int
    text: str

    @property
    def where(self) -> str:
        return f"section '{self.heading}' (docs/format.md:{self.line})"

    def rows(self) -> dict[str, list[str]]:
        """Table rows whose first cell is one `key`: the key and the other cells."""
        out: dict[str, list[str]] = {}
        for m in ROW.finditer(self.text):
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", m.group(2))]
            out[m.group(1)] = cells[:-1] if cells[-1] == "" else cells
        return out


def sections(doc: str) -> list[Section]:
    """The doc cut at its headings (lines starting with # inside code blocks are not ones)."""
    out: list[Section] = []
    lines: list[str] = []
    fenced = False
    heading, start = "", 1
    for n, line in enumerate(doc.splitlines(), 1):
        if line.startswith("```"):
            fenced = not fenced
        m = None if fenced else HEADING.match(line)
        if m:
            out.append(Section(heading, start, "\n".join(lines)))
            heading, start, lines = line, n, []
        lines.append(line)
    out.append(Section(heading, start, "\n".join(lines)))
    return out


def class_sections(doc: str) -> dict[str, Section]:
    return {
        name: s for s in sections(doc) for m in MARKER.finditer(s.text) for name in m[1].split()
    }


# --- the check --------------------------------------------------------------------------------


def undocumented(doc: str, roots: tuple[type, ...] = ROOTS) -> list[str]:
    """What the doc lacks (or says wrongly) about the schema, one line each, saying where."""
    by_class = class_sections(doc)
    out: list[str] = []
    for cls, via in reachable(roots).items():
        name, keys = cls.__name__, own_keys(cls)
        section = by_class.get(name)
        if section is None:
            out.append(
                f"{name} (reached by {via}) has no section: add a heading to docs/format.md "
                f"with the line <!-- schema: {name} --> under it"
                + (
                    f", and a table row for each key: {', '.join(map(yaml_key, keys))}"
                    if keys
                    else ""
                )
            )
            continue
        rows = section.rows()
        th = hints(cls) if keys else {}
        for f in keys:
            key = yaml_key(f)
            if key not in rows:
                out.append(
                    f"{name}: key `{key}` is not documented; add the row "
                    f"| `{key}` | type | default | meaning | to the table of {section.where}"
                )
                continue
            out.extend(
                f"{name}: the row of `{key}` in {section.where} {p}"
                for p in row_problems(f, th[f.name], rows[key])
            )
    return out + stale_rows(doc, roots)


def row_problems(f: dataclasses.Field[Any], tp: Any, cells: list[str]) -> list[str]:
    if len(cells) < 3:
        return ["needs four cells: | `key` | type | default | meaning |"]
    out = []
    default = shown_default(f)
    cell = cells[1].replace("`", "")
    if default == "required" and "required" not in cell.lower():
        out.append("must say 'required' in its default cell (the key has no default)")
    elif default != "required" and cell.strip().lower() == "required":
        out.append("says 'required', but the key has a default: write it, or none")
    elif default not in (None, "required") and not re.search(
        rf"(?<![\w.]){re.escape(default)}(?![\w.])", cell
    ):
        out.append(f"must show the default {default} in its default cell (it says {cells[1]!r})")
    row = " | ".join(cells)
    missing = [c for c in choices(tp) if f"`{c}`" not in row]
    if missing:
        out.append(
            f"does not name the allowed value(s) {', '.join(missing)} (write each in backticks)"
        )
    return out


def stale_rows(doc: str, roots: tuple[type, ...]) -> list[str]:
    """Rows of a class's table naming a key the class does not have (a typo or a removed key)."""
    classes = {cls.__name__: cls for cls in reachable(roots)}
    out = []
    for section in sections(doc):
        names = [n for m in MARKER.finditer(section.text) for n in m[1].split()]
        if not names or not all(dataclasses.is_dataclass(classes.get(n)) for n in names):
            continue  # custom value types document their forms, not keys
        keys = {yaml_key(f) for n in names for f in own_keys(classes[n])}
        out.extend(
            f"{section.where} documents `{key}`, which {' / '.join(names)} does not have: "
            "remove the row or correct the key"
            for key in section.rows()
            if key not in keys
        )
    return out


def example_problems(doc: str) -> tuple[int, list[str]]:
    """How many ```yaml blocks load as content, and every finding about the others."""
    checked, out = 0, []
    for m in YAML_BLOCK.finditer(doc):
        first = doc.count("\n", 0, m.start()) + 2  # the block's first line
        report = Report()
        data = parse_text(m.group(1), "docs/format.md", report).data
        if data is not None and not isinstance(data, YMap):
            out.append(f"docs/format.md:{first}: a YAML example must be a mapping of sections")
            continue
        if data is not None:
            root = GameFile if "source_language" in data else Sections
            convert(data, root, data.pos, Context(report))
            checked += 1
        out.extend(
            f"docs/format.md:{first + f.pos.line - 1}: [{f.rule}] {f.message}"
            for f in report.findings
        )
    return checked, out


# --- what an invariant's expression sees --------------------------------------------------------

COLLECTIONS = ("cards", "decks", "tokens", "tables", "tracks", "scenarios", "boards")
# fields whose contents are the game's own data (values, table columns), not fixed names
DATA_FIELDS = {
    "cards": {"values"},
    "decks": {"back"},
    "scenarios": {"start", "draw", "draws", "values"},
}


def record_fields(value: Any, data_fields: set[str]) -> set[str]:
    """Every field name of a record and of the records inside it."""
    out: set[str] = set()
    if isinstance(value, list):
        for item in value:
            out |= record_fields(item, data_fields)
    elif isinstance(value, Record):
        for key, inner in value.items():
            out.add(key)
            if key not in data_fields:
                out |= record_fields(inner, data_fields)
    return out


def expression_names() -> tuple[dict[str, set[str]], list[str]]:
    """The names an invariant sees, each with the fields of its records (read from a bundled
    game that has every kind of record), and the functions it may call."""
    game = load_game(open_root(REPO), "which-side", Report())
    assert game is not None
    names, functions = game_data(game)
    fields: dict[str, set[str]] = {}
    for name, value in names.items():
        if name in ("True", "False", "None"):
            continue
        if name == "tables":
            fields[name] = set()  # a row's fields are the table's columns
        elif name in COLLECTIONS:
            items = list(value)
            assert items, f"which-side has no {name}: pick a game that has some"
            fields[name] = set().union(
                *(record_fields(i, DATA_FIELDS.get(name, set())) for i in items)
            )
        else:
            fields[name] = record_fields(value, set())
    return fields, sorted(Evaluator({}, functions).functions)


def names_problems(doc: str) -> list[str]:
    section = next((s for s in sections(doc) if NAMES_MARKER in s.text), None)
    if section is None:
        return [f"no section of docs/format.md has the line {NAMES_MARKER} (the names table)"]
    fields, functions = expression_names()
    out = []
    for name, wanted in fields.items():
        row = next(
            (m[0] for m in NAME_ROW.finditer(section.text) if re.match(rf"{name}\b", m[1])), None
        )
        if row is None:
            out.append(f"{section.where}: no row for the name `{name}`")
            continue
        out.extend(
            f"{section.where}: the row of `{name}` does not list its field `{f}`"
            for f in sorted(wanted)
            if f"`{f}`" not in row
        )
    out.extend(
        f"{section.where}: the function {fn}() is not named (write `{fn}(...)`)"
        for fn in functions
        if not re.search(rf"`{fn}[`(]", section.text)
    )
    return out


# --- the tests --------------------------------------------------------------------------------


def test_every_schema_key_is_documented() -> None:
    problems = undocumented(DOC.read_text("utf-8"))
    assert not problems, "docs/format.md is behind the schema:\n" + "\n".join(problems)


def test_every_example_loads_without_a_finding() -> None:
    checked, problems = example_problems(DOC.read_text("utf-8"))
    assert not problems, "\n".join(problems)
    assert checked >= 15, f"only {checked} YAML examples were checked"


def test_every_name_an_invariant_sees_is_documented() -> None:
    problems = names_problems(DOC.read_text("utf-8"))
    assert not problems, "\n".join(problems)


# --- the checks can fail ------------------------------------------------------------------------


def _without_row(doc: str, key: str, heading: str) -> str:
    """The doc with the row of ``key`` removed from the section under ``heading``."""
    section = next(s for s in sections(doc) if s.heading == heading)
    row = next(m[0] for m in ROW.finditer(section.text) if m[1] == key)
    return doc.replace(section.text, section.text.replace(row + "\n", ""), 1)


def _heading_of(doc: str, cls: type) -> str:
    return class_sections(doc)[cls.__name__].heading


def test_a_removed_row_is_named_with_its_section() -> None:
    doc = DOC.read_text("utf-8")
    heading = _heading_of(doc, Element)
    new = set(undocumented(_without_row(doc, "direction", heading))) - set(undocumented(doc))
    assert len(new) == 1, new
    (problem,) = new
    assert problem.startswith("Element: key `direction` is not documented; add the row")
    assert heading in problem


@dataclass
class Sticker(Located):
    """A class the doc cannot know: its section and key must be asked for."""

    label = "a sticker"

    shine: float = fld(0.5, doc="how much it shines")


@dataclass
class FakeFile(Located):
    layouts: dict[str, Layout] = fld(default_factory=dict, doc="layouts")  # noqa: RUF009
    stickers: list[Sticker] | None = fld(None, doc="stickers")  # noqa: RUF009


def test_a_new_class_and_its_key_are_asked_for() -> None:
    doc = DOC.read_text("utf-8")
    reached = reachable((FakeFile,))
    assert Element in reached and Sticker in reached  # through dicts, lists and unions

    def unrouted(problems: list[str]) -> set[str]:
        return {re.sub(r" \(reached by [^)]*\)", "", p) for p in problems}

    new = unrouted(undocumented(doc, (FakeFile,))) - unrouted(undocumented(doc))
    assert any(p.startswith("Sticker has no section") for p in new)
    assert any(
        p.startswith("Sticker (reached by FakeFile.stickers)")
        for p in undocumented(doc, (FakeFile,))
    )
    assert any("a table row for each key: shine" in p for p in new)
    assert all(p.startswith(("Sticker", "FakeFile")) for p in new), new


def _row(doc: str, cls: type, key: str) -> str:
    section = class_sections(doc)[cls.__name__]
    return next(m[0] for m in ROW.finditer(section.text) if m[1] == key)


def _new_problems(doc: str, old: str, new: str) -> set[str]:
    assert old in doc
    return set(undocumented(doc.replace(old, new, 1))) - set(undocumented(doc))


def test_a_wrong_default_or_a_missing_choice_is_named() -> None:
    doc = DOC.read_text("utf-8")
    row = _row(doc, Element, "direction")
    new = _new_problems(doc, row, row.replace("| `horizontal` |", "| `vertical` |"))
    assert len(new) == 1 and "default horizontal" in new.pop()
    new = _new_problems(doc, row, row.replace("`vertical`", "upright"))
    assert len(new) == 1 and "does not name the allowed value(s) vertical" in new.pop()
    row = _row(doc, Element, "size")
    new = _new_problems(doc, row, row.replace("| `9` |", "| `10` |"))
    assert len(new) == 1 and "must show the default 9" in new.pop()
    row = _row(doc, Track, "max")
    new = _new_problems(doc, row, row.replace("| required |", "| none |"))
    assert len(new) == 1 and "must say 'required'" in new.pop()
    row = _row(doc, Track, "min")
    new = _new_problems(doc, row, row.replace("| `0` |", "| required |"))
    assert len(new) == 1 and "says 'required', but the key has a default" in new.pop()


def test_a_row_for_a_key_that_does_not_exist_is_named() -> None:
    doc = DOC.read_text("utf-8")
    row = _row(doc, Element, "when")
    new = _new_problems(doc, row, row + "\n" + row.replace("`when`", "`sparkle`", 1))
    where = class_sections(doc)["Element"].where
    assert new == {
        f"{where} documents `sparkle`, which Element does not have: remove the row or correct "
        "the key"
    }


def test_an_invalid_example_is_named_at_its_line() -> None:
    doc = "text\n\n```yaml\ndecks:\n  d:\n    cards:\n      - {id: x, titel: X}\n```\n"
    checked, problems = example_problems(doc)
    assert checked == 1
    assert len(problems) == 1 and problems[0].startswith("docs/format.md:7: [unknown-key]")
    assert "'titel'" in problems[0]


def test_a_name_field_missing_from_the_names_table_is_named() -> None:
    doc = DOC.read_text("utf-8")
    section = next(s for s in sections(doc) if NAMES_MARKER in s.text)
    row = next(m[0] for m in NAME_ROW.finditer(section.text) if m[1].startswith("cards"))
    known = set(names_problems(doc))
    new = set(names_problems(doc.replace(row, row.replace("`stage_of`", "stage_of"), 1))) - known
    assert new == {f"{section.where}: the row of `cards` does not list its field `stage_of`"}
    new = set(names_problems(doc.replace("`sorted(...)`", "sorted", 1))) - known
    assert new == {f"{section.where}: the function sorted() is not named (write `sorted(...)`)"}
