"""One truth: what the command line offers is the same for every command (shell completion of
games, the global options after the command), and every value the format accepts is accepted
by the JSON Schema and named in docs/format.md, and the other way round."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import typer
from typer.testing import CliRunner

from pnp.cli.commands import app

from helpers import FIXTURES, REPO, make_root

runner = CliRunner()


def run(*args: str, env: dict[str, str] | None = None) -> Any:
    return runner.invoke(app, list(args), env=env, catch_exceptions=False)


def commands() -> dict[tuple[str, ...], Any]:
    """Every command of `pnp` (groups left out), by its path: ('build',), ('i18n', 'init')."""
    found: dict[tuple[str, ...], Any] = {}

    def walk(cmd: Any, path: tuple[str, ...]) -> None:
        subs = getattr(cmd, "commands", None)
        if subs is None:
            found[path] = cmd
            return
        for name, sub in subs.items():
            walk(sub, (*path, name))

    walk(typer.main.get_command(app), ())
    return found


def complete(words: str) -> list[str]:
    env = {
        "_PNP_COMPLETE": "complete_bash",
        "COMP_WORDS": words,
        "COMP_CWORD": str(len(words.split(" ")) - 1),
    }
    return list(runner.invoke(app, [], env=env, prog_name="pnp").stdout.split())


# --- completion ---------------------------------------------------------------------------------

NEW_NAME = {("new",)}  # its argument names a game that does not exist yet: nothing to complete


def game_commands() -> list[tuple[str, ...]]:
    """The commands whose first argument is a game (or games)."""
    out = []
    for path, cmd in commands().items():
        arguments = [p for p in cmd.params if p.param_type_name == "argument"]
        if arguments and arguments[0].name in ("game", "games"):
            out.append(path)
    return out


def test_every_command_taking_a_game_completes_its_name() -> None:
    paths = game_commands()
    assert {("build",), ("validate",), ("audit",), ("preview",), ("i18n", "init")} <= set(paths)
    for path in paths:
        if path in NEW_NAME:
            continue
        words = " ".join(("pnp", *path, "--root", str(REPO), "fa"))
        assert complete(words) == ["fabg"], path
    # --root before the command counts too
    assert complete(f"pnp --root {REPO} build wh") == ["which-side"]


# --- the global options after the command ----------------------------------------------------


def test_every_command_takes_the_global_options_after_it() -> None:
    for path, cmd in commands().items():
        names = {n for p in cmd.params for n in getattr(p, "opts", [])}
        assert {"-q", "--quiet", "-v", "--verbose"} <= names, path
        shown = run(*path, "--help").stdout
        assert "--quiet" in shown and "--verbose" in shown, path


def test_quiet_and_verbose_after_the_command(tmp_path: Path) -> None:
    root = str(make_root(tmp_path, FIXTURES / "placeholder"))
    before = run("-q", "validate", "mini", "--root", root)
    after = run("validate", "mini", "--root", root, "-q")
    assert before.exit_code == after.exit_code == 0
    assert (before.stdout, before.stderr) == (after.stdout, after.stderr)
    assert "[placeholder]" not in after.stdout  # quiet: no warnings
    loud = run("validate", "mini", "--verbose", "--root", root)
    assert "[placeholder]" in loud.stdout and "pnp validate:" in loud.stderr  # the timing
    for args in (("-q", "validate", "mini", "-v"), ("validate", "mini", "-q", "-v")):
        clash = run(*args, "--root", root)
        assert clash.exit_code == 2, args
        assert "--quiet and --verbose exclude each other" in clash.stderr
    assert run("-q", "validate", "mini", "-q", "--root", root).exit_code == 0


def test_root_before_the_command(tmp_path: Path) -> None:
    root = make_root(tmp_path, FIXTURES / "placeholder")
    listed = run("--root", str(root), "list")
    assert listed.exit_code == 0 and listed.stdout.startswith("mini\t"), listed.stderr
    # the command line wins over PNP_ROOT, and after the command over before it
    env = {"PNP_ROOT": str(tmp_path / "nowhere")}
    assert run("--root", str(root), "list", env=env).stdout == listed.stdout
    assert run("--root", str(tmp_path / "nowhere"), "list", "--root", str(root)).exit_code == 0
    assert run("list", env=env).exit_code == 2


# --- values: the loader, the JSON Schema and docs/format.md agree ------------------------------
#
# The loader's truth is probed: a value is accepted when converting it gives no error. The JSON
# Schema's truth is jsonschema's verdict on the same value. Numbers are probed at every bound
# any field has; the custom values (sizes, colours, boxes, lines, points) with the words the
# tool knows (its presets and names, in other cases too), written forms near each limit, and
# strings and lists drawn by hypothesis from the forms the loader reads.


def schema_defs() -> dict[str, Any]:
    from pnp.designer.scaffold import CONTENT_SCHEMA, GAME_SCHEMA, schema_data

    data = schema_data()
    return {**data[CONTENT_SCHEMA]["$defs"], **data[GAME_SCHEMA]["$defs"]}


DEFS = schema_defs()
# the least each class needs to load (its required keys, and what its checks ask for)
MINIMAL: dict[str, dict[str, Any]] = {
    "Board": {"size": [100, 100]},
    "BoardRef": {"board": "b"},
    "BoxEntry": {"count": 1, "deck": "d"},
    "Column": {"id": "c"},
    "Combinations": {"of": ["a", "b"]},
    "Covers": {"range": [0, 3]},
    "DeckStep": {"deck": "d"},
    "Element": {"box": [0, 0, 10, 10]},
    "GameFile": {"title": "T", "source_language": "en", "languages": ["en"]},
    "Gradient": {"colors": ["red", "blue"]},
    "Icon": {"glyph": "x"},
    "Invariant": {"id": "i", "assert": "True"},
    "Outcome": {"count": 1},
    "Players": {"min": 1, "max": 2},
    "RuleSetting": {"severity": "error"},
    "Total": {"of": ["c"], "equals": 1},
    "Track": {"max": 10},
}
# checks between two numbers (min <= max...), which no JSON Schema can say: each number is
# probed with the other one wide enough
RELATED: dict[tuple[str, str], dict[str, Any]] = {
    ("Track", "min"): {"max": 10**6},
    ("Track", "max"): {"min": -(10**6)},
    ("Track", "start"): {"min": -(10**6), "max": 10**6},
    ("Players", "min"): {"max": 100},
    ("Players", "max"): {"min": 1},
    ("Element", "min_size"): {"size": 200},
    ("Element", "depth"): {"direction": "around", "track": "t"},  # depth: is for such a track
}
NUMBERS = [-10001, -21, -20, -1, 0, 0.4, 0.5, 1, 4, 5, 20, 21, 50, 51, 100, 101, 200, 201]
NUMBERS += [500, 501, 2000, 2001]
NUMBERS += [10000, 10001, 100000]


def loader_errors(cls: type, data: Any) -> list[str]:
    import json

    from pnp.content.schema import Context, convert
    from pnp.content.yamlio import parse_text
    from pnp.core.findings import Report
    from pnp.core.rules import Severity

    report = Report()
    loaded = parse_text(json.dumps(data, ensure_ascii=False), "probe.yaml", report).data
    convert(loaded, cls, loaded.pos, Context(report))
    return [f.message for f in report.findings if f.severity is Severity.ERROR]


def schema_errors(name: str, data: Any) -> list[str]:
    import jsonschema

    validator = jsonschema.Draft202012Validator({"$ref": f"#/$defs/{name}", "$defs": DEFS})
    return [e.message for e in validator.iter_errors(data)]


def disagreement(cls: type, data: dict[str, Any]) -> str | None:
    tool, schema = loader_errors(cls, data), schema_errors(cls.__name__, data)
    if bool(tool) == bool(schema):
        return None
    if tool:
        return f"{cls.__name__} {data}: the schema accepts it, pnp says {tool[0]!r}"
    return f"{cls.__name__} {data}: pnp accepts it, the schema says {schema[0]!r}"


def model_classes() -> dict[str, type]:
    import dataclasses

    from test_format_doc import reachable

    from pnp.content.model import GameFile, Sections

    return {c.__name__: c for c in reachable((GameFile, Sections)) if dataclasses.is_dataclass(c)}


def numeric_fields(cls: type) -> list[tuple[str, bool]]:
    """(key, whole numbers only) of every number field of ``cls``."""
    from typing import get_args

    from pnp.content.schema import hints, public_fields, yaml_key

    out = []
    for f in public_fields(cls):
        tp = hints(cls)[f.name]
        kinds = {a for a in (tp, *get_args(tp)) if a in (int, float)}
        if kinds:
            out.append((yaml_key(f), kinds == {int}))
    return out


def test_every_class_probed_loads_as_written() -> None:
    for name, cls in model_classes().items():
        base = MINIMAL.get(name, {})
        assert not loader_errors(cls, base) and not schema_errors(name, base), name


def test_numbers_the_loader_refuses_the_schema_refuses() -> None:
    problems, probed = [], 0
    for name, cls in model_classes().items():
        for key, whole in numeric_fields(cls):
            base = {**MINIMAL.get(name, {}), **RELATED.get((name, key), {})}
            for number in NUMBERS:
                if whole and number != int(number):
                    continue
                probed += 1
                problem = disagreement(cls, {**base, key: number})
                if problem:
                    problems.append(problem)
    assert not problems, "\n".join(problems)
    assert probed > 400


def custom_samples() -> dict[str, list[Any]]:
    """Values of each custom type near what the loader knows: its words in every case, and
    each written form at and past its limits."""
    from pnp.content.model import NAMED_COLORS, SIZE_PRESETS

    def cases(word: str) -> list[str]:
        return [word, word.upper(), word.title(), f" {word}", f"{word} "]

    sizes: list[Any] = [c for p in SIZE_PRESETS for c in cases(p)]
    sizes += ["60x90", "60 x 90 mm", "60X90", "60×90mm", "0x90", "0.5x3", "1x1", "01x02"]
    sizes += ["2000x2000", "2000.0x1", "2000.5x1", "2001x5", "1999.99x1.5", "60x", "huge"]
    sizes += ["2.5x3.5in", "2.5 x 3.5 in", "2.5X3.5in", "2.5x3.5IN", "2.5x3.5 In", "2.5x3.5inch"]
    sizes += ["0.04x1in", "0.039x1in", "0.0399x1in", "00.05x1in", "0.040x78.74in", "1x78.740in"]
    sizes += ["1x78.741in", "1x78.75in", "1x78.8in", "1x79in", "78x1in", "77.99x1in", "0x1in"]
    sizes += ["0.1x0.7in", "1x78.7in", "1x78in", "1x078.7400in", ".5x1in", "1x1mmin"]
    sizes += [0, 0.5, 1, 70, 2000, 2001, -5, [63, 88], [0, 5], [2001, 5], [63], "63"]
    sizes += [{"w": 63, "h": 88}, {"w": 0, "h": 1}, {"w": 63}, True]
    colours: list[Any] = [c for n in NAMED_COLORS for c in cases(n)]
    colours += ["#fff", "#FFF", "#1f4e9c", "#1F4E9C", "#12345", " #fff", "blu", "fff", 5]
    lengths = [0, 5, -5, 10000, 10001, -10001, "10%", "0%", "-10%", "500%", "500.0%"]
    lengths += ["500.5%", "501%", "-501%", " 10%", "10 %", "10", "0.0%", "00%", "1e3%"]
    boxes: list[Any] = [[0, 0, 10, 10], [0, 0, 0, 10], [0, 0, 10, -1], [0, 0, "0.0%", 5]]
    boxes += [[x, 0, 10, 10] for x in lengths] + [[0, 0, w, w] for w in lengths]
    boxes += [[0, 0, 10], [0, 0, 10, 10, 10], "0 0 10 10"]
    lines: list[Any] = [[0, 0, v, v] for v in lengths] + [[0, 0, 1], [0, 0, 1, 1, 1]]
    points: list[Any] = [[[0, 0], [v, 5], [5, v]] for v in lengths]
    points += [[[0, 0], [1, 1]], [[0, 0], [1, 1], [2]], [[0, 0]] * 1001, [[0, 0]] * 1000]
    fonts: list[Any] = ["NotoSans", "Noto Sans", "../NotoSans", "x" * 64, "x" * 65, "_x"]
    fonts += ["x_y-z", "9", "", 5, "Noto/Sans", "NotoSans.ttf"]
    return {
        "size": sizes,
        "color": colours,
        "box": boxes,
        "line": lines,
        "points": points,
        "font": fonts,
        "fallback_fonts": [[f] for f in fonts],
        "font_family": fonts,
    }


# where each custom type is probed: a class that has it, and the key
CARRIERS = {"size": "Deck", "color": "Border", "box": "Element", "line": "Element"}
CARRIERS.update(points="Element", font="PrintSettings", fallback_fonts="PrintSettings")
CARRIERS.update(font_family="Style")


def probe_custom(kind: str, value: Any) -> str | None:
    name = CARRIERS[kind]
    cls = model_classes()[name]
    data = {**MINIMAL.get(name, {}), kind: value}
    if kind in ("line", "points"):
        data.pop("box")
    return disagreement(cls, data)


def test_custom_values_the_loader_reads_the_schema_accepts() -> None:
    problems = [
        p
        for kind, values in custom_samples().items()
        for value in values
        if (p := probe_custom(kind, value))
    ]
    assert not problems, "\n".join(problems)


def test_written_forms_agree_on_every_value_hypothesis_draws() -> None:
    """Strings and lists in the forms the loader reads (sizes "WxH" and "WxHin", lengths in mm
    or %),
    drawn at random: the schema agrees with the loader on each."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    number = st.from_regex(r"\A[0-9]{1,5}(\.[0-9]{1,3})?\Z")
    inches = st.from_regex(r"\A0?[0-9]{1,2}(\.[0-9]{1,3})?\Z")
    size_text = st.builds(
        lambda w, sep, h, mm: f"{w}{sep}{h}{mm}",
        number,
        st.sampled_from(["x", " x ", "X", "×"]),
        number,
        st.sampled_from(["", "mm", " mm"]),
    )
    inch_text = st.builds(
        lambda w, sep, h, unit: f"{w}{sep}{h}{unit}",
        inches,
        st.sampled_from(["x", " x ", "X", "×"]),
        inches,
        st.sampled_from(["in", " in"]),
    )
    length = st.one_of(
        st.floats(-20000, 20000, allow_nan=False),
        st.builds(lambda sign, n: f"{sign}{n}%", st.sampled_from(["", "-"]), number),
    )
    box = st.lists(length, min_size=4, max_size=4)

    @settings(max_examples=300, deadline=None, derandomize=True)
    @given(
        st.one_of(
            st.tuples(st.just("size"), size_text),
            st.tuples(st.just("size"), inch_text),
            st.tuples(st.just("box"), box),
        )
    )
    def agree(sample: tuple[str, Any]) -> None:
        assert probe_custom(*sample) is None

    agree()


# --- ... and docs/format.md says the same ------------------------------------------------------


def section_text(cls_name: str) -> str:
    from test_format_doc import DOC, class_sections

    return class_sections(DOC.read_text("utf-8"))[cls_name].text


def enum_words(schema: Any) -> set[str]:
    """Every word an enum of a schema allows."""
    if isinstance(schema, dict):
        found = {str(v) for v in schema.get("enum", [])}
        return found.union(*(enum_words(v) for v in schema.values()))
    if isinstance(schema, list):
        return set().union(*(enum_words(v) for v in schema))
    return set()


def test_every_word_a_custom_value_allows_is_documented() -> None:
    from pnp.content.model import SIZE_PRESETS, Color, SizeSpec

    missing = [
        f"{cls.__name__}: `{word}`"
        for cls in (SizeSpec, Color)
        for word in sorted(enum_words(cls.json_schema()))
        if f"`{word}`" not in section_text(cls.__name__)
    ]
    assert not missing, "docs/format.md does not name: " + ", ".join(missing)
    sizes = section_text("SizeSpec")
    for preset, size in SIZE_PRESETS.items():  # with its size, in the table of presets
        assert f"| `{preset}` | {size.w:g} × {size.h:g} |" in sizes, preset


def said(number: float, text: str) -> bool:
    """Whether ``text`` writes ``number`` (2000, 10000 or 10,000, 0.5)."""
    return any(
        re.search(rf"(?<![\w.,]){re.escape(f'{number:{form}}')}(?!\w|[.,]\d)", text)
        for form in ("g", ",.0f")
    )


def test_every_limit_is_documented() -> None:
    from test_format_doc import DOC, class_sections

    from pnp.content.model import INCH_LIMITS, MAX_LENGTH, MAX_PERCENT, SIZE_LIMITS
    from pnp.content.schema import public_fields, yaml_key

    problems = [
        f"SizeSpec: the limit {n:g} mm"
        for n in (*SIZE_LIMITS, *INCH_LIMITS)
        if not said(n, section_text("SizeSpec"))
    ]
    problems += [
        f"{name}: the limit {n:g}"
        for name in ("Box", "LineSpec")
        for n in (MAX_LENGTH, MAX_PERCENT)
        if not said(n, section_text(name))
    ]
    by_class = class_sections(DOC.read_text("utf-8"))
    for name, cls in model_classes().items():
        for f in public_fields(cls):
            if "bounds" not in f.metadata:
                continue
            key = yaml_key(f)
            row = " | ".join(by_class[name].rows().get(key, []))
            numbers = [b for b in f.metadata["bounds"] if b is not None]
            if not all(said(b, row) for b in numbers):
                problems.append(f"{name}: the row of `{key}` should say its limits {numbers}")
    assert not problems, "docs/format.md does not say:\n" + "\n".join(problems)


# --- the colours of layout elements: read when the game is validated ---------------------------


def painted(key: str, value: Any) -> dict[str, Any]:
    """An element with ``value`` as its ``key`` (color, fill, stroke), its gradient's first
    colour (gradient) or its shadow's colour (shadow)."""
    if key == "gradient":
        return {"box": [0, 0, 10, 10], "gradient": {"colors": [value, "red"]}}
    if key == "shadow":
        return {"box": [0, 0, 10, 10], "field": "title", "shadow": {"color": value}}
    return {"box": [0, 0, 10, 10], "field": "title", key: value}


def element_colour_verdict(key: str, value: Any) -> bool:
    """Whether pnp accepts ``value`` as an element's ``key`` (see :func:`painted`): it loads,
    and validation's element-colours check (what the renderer reads) finds nothing."""
    from types import SimpleNamespace

    from pnp.content.model import Layout
    from pnp.validate.structure import element_colours

    element = painted(key, value)
    if loader_errors(Layout, {"elements": [element]}):
        return False
    import json

    from pnp.content.schema import Context, convert
    from pnp.content.yamlio import parse_text
    from pnp.core.findings import Report

    data = parse_text(json.dumps({"elements": [element]}), "probe.yaml", Report()).data
    layout = convert(data, Layout, data.pos, Context(Report()))
    found: list[Any] = []
    game = SimpleNamespace(layouts={"l": layout})
    element_colours(game, SimpleNamespace(add=lambda *args, **kw: found.append(args)))
    return not found


def test_element_colours_the_validator_reads_the_schema_accepts() -> None:
    from pnp.content.model import PALETTE, css_colour_names
    from pnp.typeset.faces import colours

    assert set(css_colour_names()) == set(colours.colour_names())  # the same names
    assert PALETTE == colours.PALETTE
    words = [*css_colour_names(), *PALETTE, "none", "transparent", "blu", "fidblue"]
    samples: list[Any] = [c for w in words for c in (w, w.upper(), w.title(), f" {w} ")]
    samples += ["#fff", "#FFF", " #1f4e9c ", "#12345", "fff", "", 5, "{{ values.c }}"]
    samples += ["{% if x %}red{% endif %}", "{ values.c }", [1]]
    problems = []
    for key in ("color", "fill", "stroke", "gradient", "shadow"):
        for value in samples:
            tool = element_colour_verdict(key, value)
            schema = not schema_errors("Element", painted(key, value))
            if tool != schema:
                problems.append(f"{key}: {value!r}: pnp {tool}, the schema {schema}")
    assert not problems, "\n".join(problems)
