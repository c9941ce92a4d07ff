"""Hostile input, property-based: random and broken YAML, PO files and command lines.

Against one copy of the real FABG pack (plus a French catalog made with `pnp i18n init`), each
example writes a broken file, runs `pnp` through its console entry point and checks the
contract of the issue "Hostile and broken input":

- the exit code is 0, 1 or 2; no traceback, no "internal error";
- a failed build leaves output/ exactly as it was (no new file, no temporary file), a successful
  one writes whole PDFs;
- `pnp i18n update` never rewrites a catalog it cannot parse, and never loses a translation.

The mutated file is restored after every example. Examples are derandomized so the suite is
repeatable; set HOSTILE_EXPLORE=1 for many more random examples (bugs found that way belong in
tests/test_hostile.py, as strict xfails until they are fixed, and the inputs hitting them are
assumed away here meanwhile; none is at present).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shutil
import sys
import traceback
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, reject, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from pnp.cli import commands as cli

from helpers import REPO, snapshot

pytestmark = pytest.mark.slow  # about 45 s: a full run and CI, not the fast loop

EXPLORE = bool(os.environ.get("HOSTILE_EXPLORE"))
FABG = "cards/fabg"
PO = "locales/fr/LC_MESSAGES/fabg.po"
FILES = ["game.yaml", "decks.yaml", "tokens.yaml", "tables.yaml", "layouts.yaml", "rules.yaml"]


def examples(n: int) -> Any:
    return settings(
        max_examples=n * 20 if EXPLORE else n,
        deadline=None,
        derandomize=not EXPLORE,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


# --- running pnp against one shared copy of the pack ------------------------------------------


@dataclass
class Result:
    code: int
    out: str
    err: str

    @property
    def text(self) -> str:
        return self.out + self.err


# Crashes already recorded as strict xfails in tests/test_hostile.py: (pnp file, function) of
# the innermost pnp frame. Examples that hit them are rejected here, anything else fails.
KNOWN_CRASHES: dict[tuple[str, str], str] = {}  # all recorded crashes are fixed


def _crash_site(exc: BaseException) -> tuple[str, str]:
    package = Path(cli.__file__).parent.parent
    site = ("?", "?")
    for frame in traceback.extract_tb(exc.__traceback__):
        path = Path(frame.filename)
        if path.is_relative_to(package):
            site = (path.relative_to(package).as_posix(), frame.name)
    return site


def pnp(*args: object) -> Result:
    """`pnp ARGS...` through the console entry point, in process; checks the contract.

    PNP_DEBUG=1 lets a bug's exception through `main`, so a failure shows its traceback (a
    user without PNP_DEBUG would see "internal error").
    """
    argv = sys.argv
    out, err = io.StringIO(), io.StringIO()
    sys.argv = ["pnp", *(str(a) for a in args)]
    debug = os.environ.get("PNP_DEBUG")
    os.environ["PNP_DEBUG"] = "1"
    code = 0
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            cli.invoke()
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except Exception as exc:
        site = _crash_site(exc)
        if site in KNOWN_CRASHES:
            reject()
        tb = "".join(traceback.format_exception(exc))
        raise AssertionError(f"pnp {args}: internal error at {site}\n{tb}") from None
    finally:
        sys.argv = argv
        if debug is None:
            os.environ.pop("PNP_DEBUG", None)
        else:
            os.environ["PNP_DEBUG"] = debug
    res = Result(code, out.getvalue(), err.getvalue())
    assert res.code in (0, 1, 2), (args, res.text[-2000:])
    assert "Traceback" not in res.text, (args, res.text[-2000:])
    assert "internal error" not in res.text, (args, res.text[-2000:])
    return res


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    saved_root = os.environ.pop("PNP_ROOT", None)
    base = tmp_path_factory.mktemp("hostile-fabg")
    root = base / "root"
    shutil.copytree(REPO / FABG, root / FABG)
    shutil.copytree(REPO / "pnp" / "data" / "fonts", root / "fonts")
    assert pnp("i18n", "init", "fabg", "fr", "--root", root).code == 0
    po = root / PO
    # translate every other entry, so that losing a translation would show
    lines = po.read_text("utf-8").split("\n")
    out, n = [], 0
    for i, line in enumerate(lines):
        if line == 'msgstr ""' and i > 2 and lines[i - 1].startswith("msgid "):
            n += 1
            if n % 2:
                line = 'msgstr "FR ' + lines[i - 1][len('msgid "') :]
        out.append(line)
    po.write_text("\n".join(out), "utf-8")
    assert pnp("validate", "fabg", "--root", root).code == 0
    cwd = Path.cwd()
    os.chdir(base)
    try:
        yield root
    finally:
        os.chdir(cwd)
        if saved_root is not None:
            os.environ["PNP_ROOT"] = saved_root


@contextlib.contextmanager
def replaced(root: Path, rel: str, data: bytes) -> Iterator[Path]:
    """``rel`` holds ``data`` for the duration; then the original file (or none) is back."""
    path = root / rel
    original = path.read_bytes() if path.exists() else None
    pot = root / "locales/fabg.pot"
    pot_before = pot.read_bytes() if pot.exists() else None
    po_before = (root / PO).read_bytes()
    path.write_bytes(data)
    try:
        yield path
    finally:
        if original is None:
            path.unlink(missing_ok=True)
        else:
            path.write_bytes(original)
        (root / PO).write_bytes(po_before)
        if pot_before is not None:
            pot.write_bytes(pot_before)
        shutil.rmtree(root / "output", ignore_errors=True)
        for extra in root.parent.glob("out-*"):
            shutil.rmtree(extra, ignore_errors=True)
        for lang in (root / "locales").iterdir():
            if lang.is_dir() and lang.name != "fr":
                shutil.rmtree(lang)


def check_build(root: Path, args: list[str], out_dir: Path | None = None) -> Result:
    """A build: failed, nothing changed in the output folder; built, whole PDFs."""
    out = out_dir or root / "output"
    before = snapshot(out)
    res = pnp("build", *args)
    after = snapshot(out)
    if res.code != 0:
        assert after == before, (args, sorted(set(after) ^ set(before)), res.text[-1500:])
    else:
        for name, data in after.items():
            assert not name.endswith(".tmp"), name
            if name.endswith(".pdf"):
                assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF"), name
    return res


def validate_and_maybe_build(root: Path, build: bool, as_json: bool = True) -> None:
    if not as_json:
        res = pnp("validate", "fabg", "--root", root)
        for line in res.out.splitlines():  # PATH:LINE:COL: severity [rule] message
            assert re.match(r"\S[^:]*(:\d+:\d+)?: (error|warning|info) \[[a-z0-9-]+\] ", line), line
    else:
        res = pnp("validate", "fabg", "--format", "json", "--root", root)
    if as_json and res.code in (0, 1):
        findings = json.loads(res.out)
        assert all(not Path(f["path"]).is_absolute() for f in findings), findings[:3]
        assert (res.code == 1) == any(f["severity"] == "error" for f in findings)
    if build:
        check_build(root, ["fabg", "--lang", "en", "--root", str(root)])


# --- YAML: random bytes, YAML-ish text, wrong types, mutated copies of the pack ----------------

# fmt: off
YAML_TOKENS = [
    ": ", "- ", "\n", "\n  ", "\n    ", "\t", "{", "}", "[", "]", ", ", "&a ", "*a", "&b ", "*b",
    "!!str ", "!!int ", "!!python/object:os.system ", "!x ", "? ", "|\n", ">-\n", "'", '"', "#",
    "---\n", "...\n", "%YAML 1.2\n", "<<: ", "decks", "cards", "id", "title", "copies", "layouts",
    "extends", "elements", "template", "{{ values.x }}", "tables", "rows", "columns", "invariants",
    "assert", "for_each", "box", "count", "languages", "icons", "glyph", "art", "image", "size",
    "tokens", "boards", "x", "42", "-1", "1e309", ".nan", "-.inf", "0x1F", "0o17", "9" * 40, "~",
    "null", "yes", "no", "true", "\ufeff", "\u202e", "\x00", "\r\n", "\x85", "\u2028", "𓀀", "漢字",
    "₽", "é", "../../etc/passwd", "/etc/passwd", "\\",
]
# fmt: on

odd_text = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=12)


@given(data=st.binary(max_size=3000), build=st.booleans(), as_json=st.booleans())
@examples(20)
def test_random_bytes(root: Path, data: bytes, build: bool, as_json: bool) -> None:
    with replaced(root, f"{FABG}/extra.yaml", data):
        validate_and_maybe_build(root, build and len(data) % 3 == 0, as_json)


@given(
    parts=st.lists(st.sampled_from(YAML_TOKENS) | odd_text, max_size=120),
    target=st.sampled_from(["extra.yaml", *FILES]),
    as_json=st.booleans(),
)
@examples(25)
def test_yaml_ish_text(root: Path, parts: list[str], target: str, as_json: bool) -> None:
    text = "".join(parts)
    with replaced(root, f"{FABG}/{target}", text.encode("utf-8", "surrogatepass")):
        validate_and_maybe_build(root, False, as_json)


scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**40), max_value=10**40)
    | st.floats(allow_nan=True, allow_infinity=True)
    | odd_text
    | st.sampled_from(["poker", "#ff0000", "50%", "fabg", "card", "en", "it", "{coin}", "**x**"])
)
# fmt: off
KEY_NAMES = [
    "id", "title", "text", "copies", "size", "layout", "back", "cards", "tokens", "style",
    "values", "fields", "tags", "box", "count", "deck", "card", "extends", "elements",
    "template", "field", "image", "font", "columns", "rows", "total", "deals", "of",
    "equals", "assert", "for_each", "en", "it", "shape", "art", "name", "placeholder",
    "covers", "range", "dice",
]
# fmt: on
KEYS = st.sampled_from(KEY_NAMES) | odd_text
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(KEYS, inner, max_size=5),
    max_leaves=30,
)


def _plain(path: Path) -> Any:
    yaml = YAML(typ="safe", pure=True)
    return yaml.load(path.read_text("utf-8"))


PLAIN = {name: _plain(REPO / FABG / name) for name in FILES}


def _replace_somewhere(data: Any, choices: list[int], value: Any) -> Any:
    """``data`` with the value at a path picked by ``choices`` replaced by ``value``."""
    if not choices or not isinstance(data, dict | list) or not data:
        return value
    if isinstance(data, dict):
        keys = list(data)
        key = keys[choices[0] % len(keys)]
        return {**data, key: _replace_somewhere(data[key], choices[1:], value)}
    i = choices[0] % len(data)
    return [*data[:i], _replace_somewhere(data[i], choices[1:], value), *data[i + 1 :]]


@given(
    target=st.sampled_from(FILES),
    choices=st.lists(st.integers(min_value=0, max_value=1000), min_size=1, max_size=7),
    value=values,
    depth=st.sampled_from([0, 0, 0, 0, 40, 70, 200]),
    ascii_only=st.booleans(),
)
@examples(30)
def test_wrong_types_in_the_real_pack(
    root: Path,
    target: str,
    choices: list[int],
    value: Any,
    depth: int,
    ascii_only: bool,
) -> None:
    for i in range(depth):  # sometimes: deep nesting (pnp refuses more than 64 levels)
        value = [value] if i % 2 else {"deep": value}
    data = _replace_somewhere(PLAIN[target], choices, value)
    text = json.dumps(data, ensure_ascii=ascii_only, default=str)  # JSON is YAML 1.2
    with replaced(root, f"{FABG}/{target}", text.encode("utf-8", "surrogatepass")):
        validate_and_maybe_build(root, False)


# fmt: off
INTERESTING_VALUES = [
    "", "~", "null", "[]", "{}", "-1", "0", "1e309", ".nan", "99999999999999999999999999", "true",
    '"{{ 7 * 7 }}"', "\"{{ ''.__class__ }}\"", "/etc/passwd", "../../x.png", "*x", "&x",
    '"unterminated', "{a: [", "|", "\t", "no", "xx-YY", "fabg", "card", "poker", "[1, 2]",
    '"**bold"', '"{unknown}"', "𓀀", "!!python/object:os.system x",
]
# fmt: on


@st.composite
def mutated_lines(draw: st.DrawFn, lines: list[str]) -> list[str]:
    lines = list(lines)
    for _ in range(draw(st.integers(min_value=1, max_value=4))):
        if not lines:
            break
        op = draw(st.sampled_from(["delete", "duplicate", "swap", "value", "insert", "indent"]))
        i = draw(st.integers(min_value=0, max_value=len(lines) - 1))
        if op == "delete":
            del lines[i]
        elif op == "duplicate":
            lines.insert(i, lines[i])
        elif op == "swap":
            j = draw(st.integers(min_value=0, max_value=len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif op == "value":
            line = lines[i]
            cut = max(line.find(": "), line.find("- "))
            new = draw(st.sampled_from(INTERESTING_VALUES) | odd_text)
            lines[i] = (line[: cut + 2] if cut >= 0 else line) + new
        elif op == "insert":
            lines.insert(i, draw(st.sampled_from(INTERESTING_VALUES) | odd_text))
        else:
            shift = draw(st.sampled_from([-2, -1, 1, 2]))
            lines[i] = " " * shift + lines[i] if shift > 0 else lines[i][-shift:]
    return lines


@given(data=st.data(), target=st.sampled_from(FILES), build=st.booleans())
@examples(35)
def test_mutated_copies_of_the_pack(
    root: Path, data: st.DataObject, target: str, build: bool
) -> None:
    original = (REPO / FABG / target).read_text("utf-8").split("\n")
    lines = data.draw(mutated_lines(original))
    text = "\n".join(lines)
    if data.draw(st.booleans()):
        text = text[: data.draw(st.integers(min_value=0, max_value=len(text)))]  # truncated
    with replaced(root, f"{FABG}/{target}", text.encode("utf-8", "surrogatepass")):
        validate_and_maybe_build(root, build)


# --- PO: mutations of a valid catalog ---------------------------------------------------------

# fmt: off
PO_JUNK = [
    'msgstr "', "msgid", '"unterminated', '#~ msgid "old"', 'msgstr[0] "x"', 'msgctxt "zz"',
    'msgid "x"', 'msgstr "x"', '"continued"', "#, fuzzy", '#| msgid "prev', "garbage line", '"\\',
    "\\", '""', "\ufeff", "\x00", "#: cards/fabg/decks.yaml:1",
]
# fmt: on


def _translations(path: Path) -> dict[tuple[str, str], str] | None:
    """(msgctxt, msgid) -> msgstr of every translated entry, active or obsolete (babel's view)."""
    from babel.messages.pofile import read_po

    try:
        cat = read_po(io.BytesIO(path.read_bytes()), abort_invalid=True)
    except Exception:
        return None
    out = {}
    for msg in [*cat, *cat.obsolete.values()]:
        if msg.id and isinstance(msg.string, str) and msg.string:
            out[(str(msg.context or ""), str(msg.id))] = msg.string
    return out


@given(data=st.data(), command=st.sampled_from(["validate", "status", "build"]))
@examples(30)
def test_mutated_catalogs(root: Path, data: st.DataObject, command: str) -> None:
    lines = (root / PO).read_text("utf-8").split("\n")
    for _ in range(data.draw(st.integers(min_value=1, max_value=4))):
        op = data.draw(st.sampled_from(["delete", "duplicate", "swap", "junk", "edit", "cut"]))
        i = data.draw(st.integers(min_value=0, max_value=max(len(lines) - 1, 0)))
        if not lines:
            break
        if op == "delete":
            del lines[i]
        elif op == "duplicate":
            lines.insert(i, lines[i])
        elif op == "swap":
            j = data.draw(st.integers(min_value=0, max_value=len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif op == "junk":
            lines.insert(i, data.draw(st.sampled_from(PO_JUNK) | odd_text))
        elif op == "edit":
            at = data.draw(st.integers(min_value=0, max_value=len(lines[i])))
            bit = data.draw(st.sampled_from(['"', "\\", "\\n", "{", "x", "é", "\t"]))
            lines[i] = lines[i][:at] + bit + lines[i][at:]
        else:
            lines = lines[:i]
    text = "\n".join(lines)
    with replaced(root, PO, text.encode("utf-8", "surrogatepass")) as po:
        if command == "validate":
            pnp("validate", "fabg", "--root", root)
        elif command == "status":
            pnp("i18n", "status", "fabg", "--root", root)
        else:
            check_build(root, ["fabg", "--lang", "fr", "--root", str(root)])
        before = po.read_bytes()
        translated = _translations(po)
        res = pnp("i18n", "update", "fabg", "--root", root)
        event(f"update: exit {res.code}")
        if res.code != 0:
            assert po.read_bytes() == before, "a catalog that failed to parse was rewritten"
        elif translated is not None:
            after = set((_translations(po) or {}).values())
            lost = [key for key, text in translated.items() if text not in after]
            assert not lost, f"translations lost by update: {lost[:3]}"
        assert not list(po.parent.glob("*.tmp"))


# --- random command lines ------------------------------------------------------------------------

LANGS = ["en", "it", "fr", "de", "pt_BR", "no", "xx", "EN", "", "../fr", "en_US", "zz_ZZ"]
# "nan,nan" was a recorded bug, fixed (test_hostile.py::test_back_offset_nan)
BACK_OFFSETS = [
    "0,0",
    "0.5,-1",
    "20,20",
    "21,0",
    "-20.0001,0",
    "1e400,0",
    "a,b",
    ",",
    "1",
    "1;2",
    "nan,nan",
    "inf,0",
]


def mostly(valid: list[str], invalid: list[str]) -> st.SearchStrategy[str]:
    """Mostly a valid value (the simplest choice, so shrinking keeps it), else an invalid one."""
    return st.sampled_from(valid * (1 + 3 * len(invalid) // len(valid)) + invalid)


def sometimes(times: int = 4) -> st.SearchStrategy[bool]:
    """True about once in ``times`` (False is the simplest choice)."""
    return st.sampled_from([False] * (times - 1) + [True])


@st.composite
def command_lines(draw: st.DrawFn, root: Path) -> tuple[list[str], Path | None]:
    command = draw(
        st.sampled_from(
            [
                "validate",
                "build",
                "build",
                "build",
                "list",
                "i18n extract",
                "i18n init",
                "i18n update",
                "i18n status",
            ]
        )
    )
    args = command.split()
    games = draw(st.lists(mostly(["fabg"], ["nosuch", "../fabg", "-x", ""]), max_size=2))
    out_dir: Path | None = None
    if command == "build":
        args += games
        for lang in draw(st.lists(mostly(["en", "it", "fr"], LANGS), min_size=1, max_size=2)):
            args += ["--lang", lang]
        for paper in draw(st.lists(mostly(["a4", "letter", "a3"], ["A4", "a5", ""]), max_size=2)):
            args += ["--paper", paper]
        if draw(st.booleans()):
            args += ["--duplex", draw(mostly(["long", "short", "none"], ["both", "0"]))]
        if draw(st.booleans()):
            args += ["--bleed", draw(mostly(["0", "3", "10", "0.5"], ["10.5", "-1", "nan", "x"]))]
        if draw(st.booleans()):
            args += ["--back-offset", draw(mostly(BACK_OFFSETS[:3], BACK_OFFSETS[3:]))]
        for flag in ("--fold", "--no-crop-marks", "--proof", "--force"):
            if draw(sometimes()):
                args.append(flag)
        if draw(st.booleans()):
            name = draw(st.sampled_from(["out-a", "out-b/deeper", "out-file"]))
            out_dir = root.parent / name
            if name == "out-file":
                out_dir.write_text("a file where a folder should be")
            args += ["--out", str(out_dir)]
    elif command == "validate":
        args += games
        if draw(st.booleans()):
            args += ["--format", draw(mostly(["text", "json"], ["xml", "JSON"]))]
        if draw(st.booleans()):
            args.append("--strict")
    elif command in ("i18n extract", "i18n update"):
        args += games[:1] or ["fabg"]
    elif command == "i18n init":
        args += games[:1] or ["fabg"]
        args.append(draw(mostly(["de", "es", "pt_BR", "fr"], LANGS)))
    elif command == "i18n status":
        args += games
        if draw(st.booleans()):
            args += ["--format", draw(mostly(["text", "json"], ["csv"]))]
    if draw(sometimes(6)):  # a stray argument somewhere
        args.insert(draw(st.integers(min_value=1, max_value=len(args))), draw(odd_text))
    return [*args, "--root", str(root)], out_dir


@given(data=st.data())
@examples(35)
def test_random_command_lines(root: Path, data: st.DataObject) -> None:
    args, out_dir = data.draw(command_lines(root))
    with replaced(root, f"{FABG}/game.yaml", (root / FABG / "game.yaml").read_bytes()):
        po_before = (root / PO).read_bytes()
        if args[0] == "build":
            res = check_build(root, args[1:], out_dir)
            if out_dir is not None:
                assert snapshot(root / "output") == {}
        else:
            res = pnp(*args)
        event(f"{' '.join(args[:2]) if args[0] == 'i18n' else args[0]}: exit {res.code}")
        if res.code != 0 and args[:2] == ["i18n", "init"]:
            assert (root / PO).read_bytes() == po_before
        if args[:2] == ["i18n", "update"] and res.code == 0:
            assert _translations(root / PO) is not None
        stray = [p for p in root.parent.rglob("*.tmp")]
        assert not stray, stray
        if out_dir is not None and out_dir.is_file():
            out_dir.unlink()
