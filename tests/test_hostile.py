"""Hostile and broken input, end to end through the `pnp` command line.

The contract (issue "Hostile and broken input"): no input makes pnp print a Python traceback.
Every error reachable from user input is a finding (PATH:LINE:COL, rule id) or a one-line
message, with exit 1 (usage errors exit 2); a failed build writes nothing; nothing outside the
game's folder (and fonts/) is read; no input hangs pnp or blows up its memory.

Each case runs `pnp.cli.commands.invoke` (what the `pnp` command runs) as a user does (in
process, or in a subprocess where time and peak memory are measured). Hand-written inputs live in
tests/hostile/; inputs git could alter or that are binary are generated here. The 18 bugs
these tests found were fixed; each test now guards its fix.
"""

from __future__ import annotations

import json
import os
import re
import struct
import subprocess
import sys
import textwrap
import time
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from pnp.cli import commands as cli

from helpers import FIXTURES, REPO, make_root, snapshot

HOSTILE = Path(__file__).resolve().parent / "hostile"
CLEAN = FIXTURES / "clean"
GAME = "cards/mini"
PO = "locales/fr/LC_MESSAGES/mini.po"
CONTRACT_CODES = (0, 1, 2)

FINDING_RE = re.compile(
    r"^(?P<path>[^\s:][^:\n]*?)(?::(?P<line>\d+):(?P<col>\d+))?: "
    r"(?P<severity>error|warning|info) \[(?P<rule>[a-z0-9-]+)\] (?P<message>.*)$",
    re.M,
)


# --- running pnp -----------------------------------------------------------------------------


@dataclass
class Result:
    code: int
    out: str
    err: str
    seconds: float

    @property
    def text(self) -> str:
        return self.out + self.err

    def findings(self) -> list[dict[str, str]]:
        return [m.groupdict() for m in FINDING_RE.finditer(self.text)]

    def rules(self) -> set[str]:
        return {f["rule"] for f in self.findings()}

    def at(self, rule: str) -> list[tuple[str, int]]:
        return [(f["path"], int(f["line"] or 0)) for f in self.findings() if f["rule"] == rule]


def assert_contract(res: Result, codes: tuple[int, ...] = CONTRACT_CODES) -> None:
    """Exit code in ``codes``, no traceback, no 'internal error' (a bug in pnp)."""
    assert res.code in codes, f"exit {res.code}:\n{res.text[-3000:]}"
    assert "Traceback" not in res.text, res.text[-3000:]
    assert "internal error" not in res.text, res.text[-3000:]


# Every path opened while pnp runs (audit hook): proves that nothing outside is read.
_OPENED: list[str] | None = None


def _audit(event: str, args: tuple[object, ...]) -> None:
    if _OPENED is not None and event == "open" and args and isinstance(args[0], str | bytes):
        path = args[0]
        _OPENED.append(os.fsdecode(path))


_HOOKED = False


@pytest.fixture
def pnp(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> Callable[..., Result]:
    """Run `pnp ARGS...` in process; check the contract unless ``codes`` says otherwise."""
    monkeypatch.delenv("PNP_DEBUG", raising=False)
    monkeypatch.delenv("PNP_ROOT", raising=False)
    monkeypatch.chdir(tmp_path)

    def run(*args: object, codes: tuple[int, ...] | None = CONTRACT_CODES) -> Result:
        capsys.readouterr()
        monkeypatch.setattr(sys, "argv", ["pnp", *(str(a) for a in args)])
        start = time.perf_counter()
        code = 0
        try:
            cli.invoke()
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        out, err = capsys.readouterr()
        res = Result(code, out, err, time.perf_counter() - start)
        if codes is not None:
            assert_contract(res, codes)
        return res

    return run


@pytest.fixture
def opened() -> Iterator[list[str]]:
    """Paths opened from now until the end of the test (an audit hook, installed once)."""
    global _OPENED, _HOOKED
    if not _HOOKED:
        sys.addaudithook(_audit)
        _HOOKED = True
    _OPENED = []
    try:
        yield _OPENED
    finally:
        _OPENED = None


_DRIVER = textwrap.dedent(
    """
    import json, resource, sys, time
    cap = 3 * 1024 ** 3  # a safety net for the machine running the tests
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    sys.argv = ["pnp", *sys.argv[1:]]
    from pnp.cli.commands import invoke as main
    start = time.perf_counter()
    code = 0
    try:
        main()
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    # VmHWM: the peak of this program's memory (ru_maxrss would include the memory of the
    # pytest process this one was forked from, as the kernel keeps it across exec)
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    try:
        for line in open("/proc/self/status"):
            if line.startswith("VmHWM:"):
                peak_kb = int(line.split()[1])
    except OSError:
        pass
    sys.stdout.flush()
    sys.stderr.write("\\n@@" + json.dumps({"code": code,
        "seconds": time.perf_counter() - start, "peak_mb": peak_kb / 1024}) + "\\n")
    """
)


@dataclass
class Measured:
    result: Result | None  # None: killed at the timeout
    peak_mb: float


# Time bounds tell a hang (the bugs these tests guard took 14 to 90 s) from a slow machine:
# they are multiplied by SLACK, so a busy CI does not fail them.
SLACK = float(os.environ.get("HOSTILE_SLACK", "6"))


def measured(*args: object, timeout: float = 10.0) -> Measured:
    """Run `pnp ARGS...` in a subprocess; time the command and read its peak memory."""
    env = {k: v for k, v in os.environ.items() if k not in ("PNP_DEBUG", "PNP_ROOT")}
    try:
        proc = subprocess.run(
            [sys.executable, "-c", _DRIVER, *(str(a) for a in args)],
            capture_output=True,
            text=True,
            timeout=timeout * SLACK,
            env=env,  # no preexec_fn: a forked child would inherit pytest's peak memory
        )
    except subprocess.TimeoutExpired:
        return Measured(None, float("nan"))
    err, _, stats = proc.stderr.rpartition("\n@@")
    if not stats:  # the driver died before reporting (killed, crashed)
        return Measured(Result(proc.returncode, proc.stdout, proc.stderr, timeout), float("nan"))
    data = json.loads(stats)
    return Measured(Result(data["code"], proc.stdout, err, data["seconds"]), data["peak_mb"])


def assert_bounded(m: Measured, seconds: float = 2.0, peak_mb: float = 300.0) -> Result:
    assert m.result is not None, "killed at the timeout: pnp hangs on this input"
    assert_contract(m.result)
    assert m.result.seconds < seconds * SLACK, f"took {m.result.seconds:.1f} s"
    assert m.peak_mb < peak_mb, f"peak memory {m.peak_mb:.0f} MB"
    return m.result


# --- content roots ---------------------------------------------------------------------------


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A copy of the minimal valid game (cards/mini) with the real fonts."""
    return make_root(tmp_path, CLEAN)


def corpus(name: str) -> bytes:
    return (HOSTILE / name).read_bytes()


def put(root: Path, rel: str, data: bytes | str) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        data = data.encode("utf-8")
    path.write_bytes(data)
    return path


def temp_files(folder: Path) -> list[str]:
    if not folder.exists():
        return []
    return [p.name for p in folder.rglob("*") if p.name.endswith(".tmp")]


def line_of(data: bytes, needle: bytes) -> int:
    """1-based number of the first line of ``data`` containing ``needle``."""
    return data[: data.index(needle)].count(b"\n") + 1


# --- YAML: the corpus of broken files ----------------------------------------------------------

# corpus file, target in the clean game, rule expected, lines it must be reported on
YAML_CASES = [
    ("invalid-yaml.yaml", f"{GAME}/extra.yaml", "yaml-syntax", {5}),
    ("wrong-types.yaml", f"{GAME}/extra.yaml", "schema", {4, 5, 7, 9, 10, 11, 12, 13, 14, 19, 20}),
    ("tabs.yaml", f"{GAME}/extra.yaml", "yaml-syntax", {4}),
    ("duplicate-keys.yaml", f"{GAME}/extra.yaml", "duplicate-key", {5, 7}),
    ("unknown-language.game.yaml", f"{GAME}/game.yaml", "language-code", {2, 4}),
    ("layout-cycle.yaml", f"{GAME}/extra.yaml", "layout-cycle", {3, 4, 5, 6}),
    ("not-utf8.yaml", f"{GAME}/extra.yaml", "file-encoding", {4}),
    ("alias-bomb.yaml", f"{GAME}/extra.yaml", "yaml-limit", {8}),
    ("merge-bomb.yaml", f"{GAME}/extra.yaml", "yaml-limit", {8}),
    ("python-tags.yaml", f"{GAME}/extra.yaml", "schema", {3}),
    ("font-escape.game.yaml", f"{GAME}/game.yaml", "schema", {9}),  # refused as it is read
]


@pytest.mark.parametrize(
    ("name", "target", "rule", "lines"), YAML_CASES, ids=[c[0] for c in YAML_CASES]
)
def test_yaml_corpus(
    pnp: Callable[..., Result], root: Path, name: str, target: str, rule: str, lines: set[int]
) -> None:
    put(root, target, corpus(name))
    res = pnp("validate", "--root", root)
    assert res.code == 1
    assert lines <= {n for p, n in res.at(rule) if p == target}, res.text
    for f in res.findings():  # every finding is placed in a file of the content root
        assert not Path(f["path"]).is_absolute(), f
        assert (root / f["path"]).exists(), f
    assert res.seconds < 5 * SLACK
    out = root / "output"
    build = pnp("build", "--root", root)
    assert build.code == 1  # builds defer text fitting, so the rule may differ; the place may not
    placed = {(f["path"], int(f["line"] or 0)) for f in build.findings()}
    assert {(target, n) for n in lines} <= placed, build.text
    assert snapshot(out) == {}  # nothing written
    assert pnp("list", "--root", root).code == 0
    for command in (("i18n", "extract", "mini"), ("i18n", "init", "mini", "fr")):
        pnp(*command, "--root", root, codes=(0, 1))  # 0 when the texts themselves load
    pnp("i18n", "update", "mini", "--root", root, codes=(0, 1))
    pnp("i18n", "status", "--root", root, codes=(0, 1))
    assert not list(root.rglob("PWNED*")) and not list(Path.cwd().rglob("PWNED*"))


def test_syntax_errors_name_their_line(pnp: Callable[..., Result], root: Path) -> None:
    put(root, f"{GAME}/extra.yaml", corpus("tabs.yaml"))
    res = pnp("validate", "--root", root)
    assert (f"{GAME}/extra.yaml", 4) in res.at("yaml-syntax")
    assert "tab" in res.text
    data = corpus("not-utf8.yaml")
    put(root, f"{GAME}/extra.yaml", data)
    res = pnp("validate", "--root", root)
    assert (f"{GAME}/extra.yaml", line_of(data, b"\xe0")) in res.at("file-encoding")
    put(root, f"{GAME}/extra.yaml", corpus("duplicate-keys.yaml"))
    res = pnp("validate", "--root", root)
    assert {(f"{GAME}/extra.yaml", 5), (f"{GAME}/extra.yaml", 7)} <= set(res.at("duplicate-key"))


@pytest.mark.parametrize("which", ["decks.yaml", "game.yaml"])
def test_empty_files(pnp: Callable[..., Result], root: Path, which: str) -> None:
    put(root, f"{GAME}/{which}", b"")
    res = pnp("validate", "--root", root)
    assert res.code == 1 and res.findings()
    if which == "game.yaml":
        assert (f"{GAME}/game.yaml", 1) in res.at("schema")
    else:  # an empty extra file is allowed; the box then names a deck that is not there
        assert "reference" in res.rules()
    assert pnp("build", "--root", root).code == 1
    assert snapshot(root / "output") == {}
    assert pnp("list", "--root", root).code == 0
    extract = pnp("i18n", "extract", "mini", "--root", root)
    assert extract.code == (1 if which == "game.yaml" else 0)


@pytest.mark.parametrize(
    "variant", ["bom", "crlf", "bom+crlf", "utf16", "nul", "comment-only", "only-document-end"]
)
def test_encodings_and_line_ends(pnp: Callable[..., Result], root: Path, variant: str) -> None:
    decks = (root / GAME / "decks.yaml").read_bytes()
    data = {
        "bom": b"\xef\xbb\xbf" + decks,
        "crlf": decks.replace(b"\n", b"\r\n"),
        "bom+crlf": b"\xef\xbb\xbf" + decks.replace(b"\n", b"\r\n"),
        "utf16": decks.decode("utf-8").encode("utf-16"),
        "nul": decks.replace(b"Alpha", b"Al\x00pha"),
        "comment-only": b"# nothing here yet\n",
        "only-document-end": b"...\n",
    }[variant]
    put(root, f"{GAME}/decks.yaml", data)
    res = pnp("validate", "--root", root)
    if variant in ("bom", "crlf", "bom+crlf"):  # accepted: the same game as before
        assert res.code == 0, res.text
        assert pnp("build", "--root", root).code == 0
        assert {"mini-en-a4.pdf", "mini-it-a4.pdf"} <= set(snapshot(root / "output/mini"))
    elif variant in ("utf16", "nul"):
        assert res.code == 1 and (f"{GAME}/decks.yaml") in {f["path"] for f in res.findings()}
        assert "file-encoding" in res.rules()
    else:
        assert res.code == 1 and "reference" in res.rules()


def test_crlf_keeps_line_numbers(pnp: Callable[..., Result], root: Path) -> None:
    decks = (root / GAME / "decks.yaml").read_bytes().replace(b"copies: 4", b"copies: 5")
    put(root, f"{GAME}/decks.yaml", b"\xef\xbb\xbf" + decks.replace(b"\n", b"\r\n"))
    res = pnp("validate", "--root", root)
    assert res.code == 1
    assert (f"{GAME}/game.yaml", 7) in res.at("box-count")
    put(root, f"{GAME}/extra.yaml", corpus("tabs.yaml").replace(b"\n", b"\r\n"))
    res = pnp("validate", "--root", root)
    assert (f"{GAME}/extra.yaml", 4) in res.at("yaml-syntax")


def test_yaml_top_level_and_scalar_oddities(pnp: Callable[..., Result], root: Path) -> None:
    cases = [
        b"- a list\n- at the top\n",
        b"just a scalar\n",
        b"a: 1\n---\nb: 2\n",
        b"? [complex, key]\n: 1\n",
        b"decks: {main2: {cards: [{id: x, copies: 99999999999999999999999999999999999}]}}\n",
        b"decks: {main2: {size: [.nan, .inf], cards: [{id: x, copies: -.inf}]}}\n",
        b"decks: {main2: {size: [1e308, 1e309], cards: [{id: x, copies: 1e400}]}}\n",
        b"a: " + b"[" * 3000 + b"]" * 3000 + b"\n",
        b"a: " + b"{a: " * 500 + b"1" + b"}" * 500 + b"\n",
        b"a: *undefined\n",
        b"a: &x [*x]\n",
        b"decks: {.nan: 1, .inf: 2, ~: 3}\n",
        b'decks:\n  main2:\n    cards:\n      - id: x\n        title: "\\uD800"\n',
        b'decks: {main2: {cards: [{id: "\xe2\x80\xae\xf0\x9f\x92\xa3", title: "\xef\xbf\xbf"}]}}\n',
        b"%YAML 9.9\n---\na: 1\n",
        b"%TAG !e! tag:evil.com,2000:\n---\na: !e!x 1\n",
        b"a: !!binary aGVsbG8=\nb: !!timestamp 2001-12-14\n",
        b"a: 'x' 'y'\n",
        b"\t\n",
        b"a: |\n  ok\n bad\n",
    ]
    for data in cases:
        put(root, f"{GAME}/extra.yaml", data)
        res = pnp("validate", "--root", root)
        assert f"{GAME}/extra.yaml" in {f["path"] for f in res.findings()}, (data[:60], res.text)
        assert res.seconds < 5 * SLACK, data[:60]


def test_keys_one_and_true_are_not_duplicates(pnp: Callable[..., Result], root: Path) -> None:
    put(root, f"{GAME}/extra.yaml", b"invariants: []\nx: {1: a, true: b, 1.0: c}\n")
    res = pnp("validate", "--root", root)
    assert "duplicate-key" not in res.rules(), res.text


# --- oversized documents and bombs: refused quickly, with modest memory -----------------------


def test_alias_bomb_is_refused_quickly(root: Path) -> None:
    put(root, f"{GAME}/extra.yaml", corpus("alias-bomb.yaml"))
    res = assert_bounded(measured("validate", "--root", root))
    assert res.code == 1 and f"{GAME}/extra.yaml" in {p for p, _ in res.at("yaml-limit")}


def test_file_over_the_size_limit_is_refused_quickly(root: Path) -> None:
    put(root, f"{GAME}/extra.yaml", b"x: [" + b"1, " * (6 * 1024 * 1024) + b"]\n")
    res = assert_bounded(measured("validate", "--root", root))
    assert res.code == 1 and "yaml-limit" in res.rules()


def test_long_scalar_is_refused_quickly(root: Path) -> None:
    put(root, f"{GAME}/extra.yaml", b"x: '" + b"a" * (8 * 1024 * 1024) + b"'\n")
    res = assert_bounded(measured("validate", "--root", root))
    assert res.code == 1 and "yaml-limit" in res.rules()


def test_oversized_document_under_the_byte_limit_is_refused_quickly(root: Path) -> None:
    put(root, f"{GAME}/extra.yaml", b"x: [" + b"1," * (8 * 1024 * 1024 - 8) + b"]\n")
    res = assert_bounded(measured("validate", "--root", root, timeout=2.0))
    assert res.code == 1 and "yaml-limit" in res.rules()
    assert "alias" not in res.text


def test_long_extends_chain_is_bounded(root: Path) -> None:
    chain = "".join(f"  l{i}: {{extends: l{i - 1}}}\n" for i in range(1, 3000))
    put(root, f"{GAME}/extra.yaml", "layouts:\n  l0: {extends: card}\n" + chain)
    assert_bounded(measured("validate", "--root", root, timeout=2.0))


# --- images -------------------------------------------------------------------------------------


def _png(width: int, height: int) -> bytes:
    """A valid 1-bit greyscale PNG, all black, compressed row by row (tiny on disk)."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        crc = zlib.crc32(kind + body) & 0xFFFFFFFF
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)

    row = b"\0" * ((width + 7) // 8 + 1)
    z = zlib.compressobj(9)
    data = b"".join(z.compress(row) for _ in range(height)) + z.flush()
    header = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", data) + chunk(b"IEND", b"")
    )


def _with_art(root: Path, art: str) -> None:
    decks = root / GAME / "decks.yaml"
    text = decks.read_text("utf-8")
    decks.write_text(text.replace("copies: 4\n", f"copies: 4\n        art: {art}\n", 1), "utf-8")


@pytest.fixture(scope="module")
def bomb_png() -> bytes:
    return _png(30000, 30000)  # 110 kB on disk, 900 megapixels decoded


def test_decompression_bomb_png(root: Path, bomb_png: bytes) -> None:
    put(root, f"{GAME}/art/bomb.png", bomb_png)
    _with_art(root, "art/bomb.png")
    res = assert_bounded(measured("build", "--root", root))
    assert res.code == 1 and (f"{GAME}/decks.yaml", 8) in res.at("bad-image")
    assert snapshot(root / "output") == {}


@pytest.mark.parametrize(
    "kind", ["missing", "corrupt", "truncated", "empty", "gif-as-png", "text-as-png", "folder"]
)
def test_bad_images(pnp: Callable[..., Result], root: Path, kind: str) -> None:
    from PIL import Image

    art = root / GAME / "art"
    art.mkdir()
    if kind == "corrupt":
        (art / "x.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4)
    elif kind == "truncated":
        (art / "x.png").write_bytes(_png(64, 64)[:50])
    elif kind == "empty":
        (art / "x.png").write_bytes(b"")
    elif kind == "gif-as-png":
        Image.new("RGB", (8, 8)).save(art / "x.png", format="GIF")
    elif kind == "text-as-png":
        (art / "x.png").write_text("not an image")
    elif kind == "folder":
        (art / "x.png").mkdir()
    _with_art(root, "art/x.png")
    res = pnp("validate", "--root", root)
    assert res.code == 1
    rule = "missing-file" if kind in ("missing", "folder") else "bad-image"
    assert (f"{GAME}/decks.yaml", 8) in res.at(rule), res.text
    assert pnp("build", "--root", root).code == 1
    assert snapshot(root / "output") == {}


# --- paths that escape the game's folder ---------------------------------------------------------


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A folder beside the content root, holding files content must never reach."""
    out = tmp_path / "outside"
    out.mkdir()
    (out / "secret.png").write_bytes(_png(8, 8))
    (out / "secret.txt").write_text("root:x:0:0:TOP-SECRET-CONTENT:/root:/bin/bash\n")
    return out


def _forbidden(opened: list[str], outside: Path) -> list[str]:
    bad = ("/etc/passwd", "/etc/hostname", "C:/Windows/win.ini")
    return [p for p in opened if p in bad or Path(p).resolve().is_relative_to(outside.resolve())]


def test_escaping_paths(
    pnp: Callable[..., Result], root: Path, outside: Path, opened: list[str]
) -> None:
    art = root / GAME / "art"
    art.mkdir()
    (art / "link.png").symlink_to(outside / "secret.png")
    (art / "linkdir").symlink_to(outside, target_is_directory=True)
    put(root, f"{GAME}/extra.yaml", corpus("escaping-paths.yaml"))
    opened.clear()  # from here on, only what pnp opens
    res = pnp("validate", "--root", root)
    assert res.code == 1
    unsafe = res.at("unsafe-path")
    for n in (3, 4, 9, 10, 11, 12, 13, 14, 15):  # every escaping path, on its own line
        assert (f"{GAME}/extra.yaml", n) in unsafe, (n, res.text)
    assert pnp("build", "--root", root).code == 1
    assert snapshot(root / "output") == {}
    assert "TOP-SECRET" not in res.text
    assert _forbidden(opened, outside) == []


def test_symlinked_yaml_file_is_not_read(
    pnp: Callable[..., Result], root: Path, outside: Path, opened: list[str]
) -> None:
    (outside / "decks.yaml").write_bytes((root / GAME / "decks.yaml").read_bytes())
    (root / GAME / "decks.yaml").unlink()
    (root / GAME / "decks.yaml").symlink_to(outside / "decks.yaml")
    opened.clear()
    res = pnp("validate", "--root", root)
    assert res.code == 1 and "unsafe-path" in res.rules()
    assert pnp("build", "--root", root).code == 1
    assert _forbidden(opened, outside) == []


def test_symlinked_yaml_finding_path_is_relative(
    pnp: Callable[..., Result], root: Path, outside: Path
) -> None:
    (outside / "decks.yaml").write_bytes((root / GAME / "decks.yaml").read_bytes())
    (root / GAME / "decks.yaml").unlink()
    (root / GAME / "decks.yaml").symlink_to(outside / "decks.yaml")
    res = pnp("validate", "--root", root)
    assert [p for p, _ in res.at("unsafe-path")] == [f"{GAME}/decks.yaml"], res.text


def test_symlinked_po_file_is_not_read(
    pnp: Callable[..., Result], root: Path, outside: Path, opened: list[str]
) -> None:
    (root / PO).parent.mkdir(parents=True)
    (root / PO).symlink_to(outside / "secret.txt")
    opened.clear()
    res = pnp("validate", "--root", root)
    assert "TOP-SECRET" not in res.text
    assert _forbidden(opened, outside) == []


@pytest.mark.parametrize("path", ["a/" * 2100 + "x.png", "a" * 5000 + ".png"], ids=["long", "name"])
def test_overlong_art_path(pnp: Callable[..., Result], root: Path, path: str) -> None:
    _with_art(root, path)
    res = pnp("validate", "--root", root)
    assert res.code == 1 and res.rules() & {"missing-file", "unsafe-path"}


@pytest.mark.skipif(sys.platform == "darwin", reason="macOS refuses non-UTF-8 file names")
def test_non_utf8_file_name_in_game_folder(pnp: Callable[..., Result], root: Path) -> None:
    art = root / GAME / "art"
    art.mkdir()
    with open(os.path.join(os.fsencode(art), b"\xff\xfe.png"), "wb") as fh:
        fh.write(_png(8, 8))
    pnp("build", "--root", root)


# --- fonts ---------------------------------------------------------------------------------------


def _use_font(root: Path, family: str) -> None:
    game = root / GAME / "game.yaml"
    text = game.read_text("utf-8").replace(
        "setup_sheet:", f"print: {{font: {family}}}\nsetup_sheet:"
    )
    game.write_text(text, "utf-8")


@pytest.mark.parametrize("kind", ["garbage", "empty", "postscript"])
def test_unusable_font(pnp: Callable[..., Result], root: Path, kind: str) -> None:
    body = {
        "garbage": bytes(range(256)) * 20,
        "empty": b"",
        "postscript": b"OTTO" + bytes(300),
    }[kind]
    (root / "fonts" / "Bad-Regular.ttf").write_bytes(body)
    _use_font(root, "Bad")
    res = pnp("validate", "--root", root)
    assert res.code == 1 and (f"{GAME}/game.yaml", 11) in res.at("font"), res.text
    assert pnp("build", "--root", root).code == 1
    assert snapshot(root / "output") == {}


def test_truncated_font(pnp: Callable[..., Result], root: Path) -> None:
    full = (root / "fonts" / "NotoSans-Regular.ttf").read_bytes()
    (root / "fonts" / "Cut-Regular.ttf").write_bytes(full[: len(full) // 2])
    _use_font(root, "Cut")
    res = pnp("validate", "--root", root)
    assert res.code == 1 and "font" in res.rules()


def test_symlinked_font_is_not_read(
    pnp: Callable[..., Result], root: Path, outside: Path, opened: list[str]
) -> None:
    (root / "fonts" / "Evil-Regular.ttf").symlink_to(outside / "secret.txt")
    _use_font(root, "Evil")
    opened.clear()
    res = pnp("validate", "--root", root)
    assert res.code == 1 and "font" in res.rules()
    assert _forbidden(opened, outside) == []


def test_font_without_a_glyph(pnp: Callable[..., Result], root: Path) -> None:
    decks = root / GAME / "decks.yaml"
    decks.write_text(decks.read_text("utf-8").replace("{en: Alpha,", "{en: Alpha 𓀀 \ue000,"))
    res = pnp("validate", "--root", root)
    assert (f"{GAME}/decks.yaml", 8) in res.at("missing-glyph"), res.text


# --- invariants and templates: hostile expressions end as findings, quickly ----------------------


def _lines(name: str) -> list[str]:
    return [
        ln
        for ln in (HOSTILE / name).read_text("utf-8").splitlines()
        if ln.strip() and not ln.startswith("#")
    ]


@pytest.mark.parametrize("expr", _lines("invariants.txt"), ids=lambda e: e[:40])
def test_hostile_invariants(pnp: Callable[..., Result], root: Path, expr: str) -> None:
    put(
        root,
        f"{GAME}/rules.yaml",
        "invariants:\n  - id: hostile\n    assert: " + json.dumps(expr) + "\n",
    )
    res = pnp("validate", "--root", root)
    assert res.seconds < 3 * SLACK, f"{res.seconds:.1f} s"
    assert res.code == 1, res.text
    assert [f"{GAME}/rules.yaml"] == sorted(
        {p for p, _ in res.at("invariant-expression") + res.at("invariant")}
    ), res.text
    assert not list(Path.cwd().rglob("PWNED*")) and not list(root.rglob("PWNED*"))


def _with_template(root: Path, template: str) -> None:
    put(
        root,
        f"{GAME}/layouts.yaml",
        "layouts:\n  card:\n    elements:\n      - {box: [5, 70, 50, 8], template: "
        + json.dumps(template)
        + "}\n",
    )


@pytest.mark.parametrize("template", _lines("templates.txt"), ids=lambda t: t[:40])
def test_hostile_templates(pnp: Callable[..., Result], root: Path, template: str) -> None:
    _with_template(root, template)
    res = pnp("validate", "--root", root)
    assert res.seconds < 5 * SLACK, f"{res.seconds:.1f} s"
    assert res.code == 1, res.text
    assert (f"{GAME}/layouts.yaml", 4) in res.at("template"), res.text
    assert not list(Path.cwd().rglob("PWNED*")) and not list(root.rglob("PWNED*"))


def test_template_string_bombs_are_bounded(root: Path) -> None:
    bombs = [
        "{{ 'x'|center(200000000) }}",
        "{{ '%0200000000d' % 1 }}",
        "{{ '{:>200000000}'.format(1) }}",
        "{{ 'x'|indent(200000000) }}",
    ]
    elements = "".join(
        f"      - {{box: [5, {10 + 10 * i}, 50, 8], template: {json.dumps(b)}}}\n"
        for i, b in enumerate(bombs)
    )
    put(root, f"{GAME}/layouts.yaml", "layouts:\n  card:\n    elements:\n" + elements)
    res = assert_bounded(measured("validate", "--root", root, timeout=2.0))
    assert res.code == 1 and len(res.at("template")) >= len(bombs)


# --- PO catalogs ---------------------------------------------------------------------------------


@pytest.fixture
def catalog(pnp: Callable[..., Result], root: Path) -> Path:
    """A valid French catalog made with `pnp i18n init`, one entry translated."""
    pnp("i18n", "init", "mini", "fr", "--root", root, codes=(0,))
    po = root / PO
    text = po.read_text("utf-8")
    text = text.replace('msgid "Alpha"\nmsgstr ""', 'msgid "Alpha"\nmsgstr "Alphé"', 1)
    po.write_text(text, "utf-8")
    return po


def _check_broken_catalog(
    pnp: Callable[..., Result], root: Path, po: Path, line: int | None
) -> None:
    before = po.read_bytes()
    res = pnp("validate", "--root", root)
    assert res.code == 1
    where = res.at("po-syntax")
    assert where and where[0][0] == PO, res.text
    if line is not None:
        assert where[0][1] == line, res.text
    assert pnp("build", "--lang", "fr", "--root", root).code == 1
    assert snapshot(root / "output") == {}
    # the game's own languages (en, it) do not stop for an unfinished French catalog
    every = pnp("build", "--root", root)
    assert every.code == 0, every.text
    assert "mini fr: not built here" in every.text
    assert sorted(p.name for p in (root / "output/mini").glob("*.pdf")) == [
        "mini-en-a4.pdf",
        "mini-it-a4.pdf",
    ]
    status = pnp("i18n", "status", "--root", root)
    assert PO in status.text
    upd = pnp("i18n", "update", "mini", "--root", root)
    assert upd.code == 1 and PO in upd.text
    assert po.read_bytes() == before  # a catalog that does not parse is never rewritten
    assert pnp("i18n", "init", "mini", "fr", "--root", root).code == 2
    assert po.read_bytes() == before
    assert temp_files(root / "locales") == []


def test_po_syntax_error_names_its_line(pnp: Callable[..., Result], root: Path) -> None:
    po = put(root, PO, corpus("unclosed-string.po"))
    _check_broken_catalog(pnp, root, po, 12)


@pytest.mark.parametrize("cut", ["mid-string", "after-msgid", "after-msgctxt", "half"])
def test_truncated_po(pnp: Callable[..., Result], root: Path, catalog: Path, cut: str) -> None:
    text = catalog.read_text("utf-8")
    if cut == "mid-string":
        text = text[: text.index('msgstr "Alphé"') + 10]
    elif cut == "after-msgid":
        text = text[: text.index('msgstr "Alphé"')]
    elif cut == "after-msgctxt":
        text = text[: text.index('msgid "Alpha"')]
    else:
        text = text[: len(text) // 2]
        text = text[: text.rindex("\nmsgstr")]
    catalog.write_text(text, "utf-8")
    _check_broken_catalog(pnp, root, catalog, None)


@pytest.mark.parametrize("kind", ["binary", "latin1", "utf16", "junk-line", "nplurals"])
def test_unreadable_po(pnp: Callable[..., Result], root: Path, catalog: Path, kind: str) -> None:
    text = catalog.read_text("utf-8")
    data = {
        "binary": b"\x00\x01\x02" * 100,
        "latin1": text.encode("latin-1", errors="replace"),
        "utf16": text.encode("utf-16"),
        "junk-line": text.replace('msgctxt "title"', 'this is not PO\nmsgctxt "title"').encode(),
        "nplurals": text.replace("nplurals=2", "nplurals=x").encode(),
    }[kind]
    catalog.write_bytes(data)
    _check_broken_catalog(pnp, root, catalog, None)


def test_po_with_unknown_charset(pnp: Callable[..., Result], root: Path) -> None:
    po = put(root, PO, corpus("bad-charset.po"))
    _check_broken_catalog(pnp, root, po, 4)


def test_po_plural_entry(pnp: Callable[..., Result], root: Path) -> None:
    po = put(root, PO, corpus("plural-entry.po"))
    build = pnp("build", "--lang", "fr", "--root", root)
    if build.code == 0:
        import pypdf

        pdf = pypdf.PdfReader(root / "output/mini/mini-fr-a4.pdf")
        text = "".join(page.extract_text() for page in pdf.pages)
        assert "('" not in text
    before = po.read_bytes()
    upd = pnp("i18n", "update", "mini", "--root", root)
    assert upd.code == 0 or po.read_bytes() == before


def test_po_duplicate_entry(pnp: Callable[..., Result], root: Path) -> None:
    po = put(root, PO, corpus("duplicate-entry.po"))
    res = pnp("validate", "--root", root)
    if res.code == 1:  # reported: then update must leave the file alone
        before = po.read_bytes()
        pnp("i18n", "update", "mini", "--root", root)
        assert po.read_bytes() == before
    else:  # accepted: then no translation may be lost
        pnp("i18n", "update", "mini", "--root", root)
        text = po.read_text("utf-8")
        assert "Alphé" in text and "Alpha deuxième" in text


def test_update_keeps_every_translation(
    pnp: Callable[..., Result], root: Path, catalog: Path
) -> None:
    decks = root / GAME / "decks.yaml"
    decks.write_text(
        decks.read_text("utf-8").replace("{en: Alpha, it: Alfa}", "{en: Alpha One, it: Alfa}"),
        "utf-8",
    )
    text = decks.read_text("utf-8").replace("      - id: beta", "      - id: gamma-removed-beta")
    decks.write_text(text, "utf-8")
    pnp("i18n", "update", "mini", "--root", root, codes=(0,))
    after = catalog.read_text("utf-8")
    assert "Alphé" in after  # changed source: fuzzy, translation kept


def test_update_with_a_long_unbroken_translation_is_bounded(
    pnp: Callable[..., Result], root: Path, catalog: Path
) -> None:
    text = catalog.read_text("utf-8")
    catalog.write_text(text.replace('msgstr "Alphé"', 'msgstr "' + "x" * 40_000 + '"'), "utf-8")
    m = measured("i18n", "update", "mini", "--root", root, timeout=2.0)
    assert_bounded(m)


# --- builds: failed, interrupted, concurrent ---------------------------------------------------


def test_failed_build_writes_nothing(pnp: Callable[..., Result], root: Path) -> None:
    assert pnp("build", "--root", root).code == 0
    before = snapshot(root / "output")
    decks = root / GAME / "decks.yaml"
    decks.write_text(decks.read_text("utf-8").replace("copies: 4", "copies: 3"), "utf-8")
    for extra in ([], ["--paper", "letter"], ["--force"], ["--proof", "--lang", "it"]):
        res = pnp("build", *extra, "--root", root)
        assert res.code == 1 and "box-count" in res.rules()
        assert snapshot(root / "output") == before


@pytest.mark.parametrize("when", ["first-render", "second-render", "fsync", "rename"])
def test_interrupted_build(
    pnp: Callable[..., Result], root: Path, monkeypatch: pytest.MonkeyPatch, when: str
) -> None:
    from pnp.printing import render

    assert pnp("build", "--root", root).code == 0
    before = snapshot(root / "output")
    assert before
    decks = root / GAME / "decks.yaml"  # a real change, so the build is not skipped
    decks.write_text(decks.read_text("utf-8").replace("Gain 2", "Gain 3"), "utf-8")
    calls = {"n": 0}
    original = render.Renderer.render

    def interrupted_render(self: object, *args: object, **kwargs: object) -> object:
        calls["n"] += 1
        if when == "first-render" or (when == "second-render" and calls["n"] == 2):
            raise KeyboardInterrupt
        return original(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(render.Renderer, "render", interrupted_render)
    if when == "fsync":

        def no_fsync(fd: int) -> None:
            raise KeyboardInterrupt

        monkeypatch.setattr(os, "fsync", no_fsync)
    if when == "rename":
        real_replace = os.replace

        def no_replace(src: object, dst: object) -> None:
            if str(dst).endswith(".pdf"):
                raise KeyboardInterrupt
            real_replace(src, dst)  # type: ignore[arg-type]

        monkeypatch.setattr(os, "replace", no_replace)
    pnp("build", "--root", root, codes=(130,))
    monkeypatch.undo()
    assert snapshot(root / "output") == before  # previous PDFs untouched, nothing new
    assert temp_files(root / "output") == []


def test_interrupted_between_two_renames(
    pnp: Callable[..., Result], root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Interrupted while putting files in place: each PDF is the old or the new one, whole."""
    import pypdf

    assert pnp("build", "--root", root).code == 0
    decks = root / GAME / "decks.yaml"
    decks.write_text(decks.read_text("utf-8").replace("Gain 2", "Gain 3"), "utf-8")
    real_replace = os.replace
    renamed: list[str] = []

    def second_rename_interrupted(src: object, dst: object) -> None:
        if str(dst).endswith(".pdf"):
            if renamed:
                raise KeyboardInterrupt
            renamed.append(str(dst))
        real_replace(src, dst)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "replace", second_rename_interrupted)
    pnp("build", "--root", root, codes=(130,))
    monkeypatch.undo()
    assert temp_files(root / "output") == []
    for lang in ("en", "it"):
        pdf = pypdf.PdfReader(root / f"output/mini/mini-{lang}-a4.pdf")
        assert len(pdf.pages) >= 3
    rebuilt = pnp("build", "--root", root)  # the next build redoes what was not put in place
    assert rebuilt.code == 0 and "mini-it-a4.pdf" in rebuilt.out


def test_parallel_build_with_a_hostile_template(pnp: Callable[..., Result], root: Path) -> None:
    _with_template(root, "{{ ''.__class__ }}")
    res = pnp("build", "-j", "2", "--root", root)
    assert res.code == 1 and (f"{GAME}/layouts.yaml", 4) in res.at("template")
    assert snapshot(root / "output") == {}
    assert temp_files(root / "output") == []


def test_interrupted_build_says_so(
    pnp: Callable[..., Result], root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pnp.printing import render

    def interrupted_render(self: object, *args: object, **kwargs: object) -> object:
        raise KeyboardInterrupt

    monkeypatch.setattr(render.Renderer, "render", interrupted_render)
    res = pnp("build", "--root", root, codes=(130,))
    assert "interrupted" in res.err, res.err


def test_two_builds_at_once(root: Path) -> None:
    import pypdf

    env = {k: v for k, v in os.environ.items() if k not in ("PNP_DEBUG", "PNP_ROOT")}
    cmd = [sys.executable, "-m", "pnp", "build", "--force", "--root", str(root)]
    procs = [
        subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        for _ in range(2)
    ]
    for p in procs:
        out, err = p.communicate(timeout=60)
        assert p.returncode == 0, out + err
        assert "Traceback" not in out + err
    for lang in ("en", "it"):
        pdf = pypdf.PdfReader(root / f"output/mini/mini-{lang}-a4.pdf")
        assert len(pdf.pages) >= 3
        for page in pdf.pages:
            page.extract_text()
    assert temp_files(root / "output") == []


def test_output_folder_unwritable_or_a_file(pnp: Callable[..., Result], root: Path) -> None:
    (root / "blocker").write_text("a file, not a folder")
    res = pnp("build", "--out", root / "blocker", "--root", root)
    assert res.code == 1 and len(res.err.strip().splitlines()[-1]) < 300
    res = pnp("build", "--out", root / "blocker" / "sub", "--root", root)
    assert res.code == 1
    assert (root / "blocker").read_text() == "a file, not a folder"


# --- command lines ----------------------------------------------------------------------------

BAD_COMMAND_LINES = [
    (["build", "--paper", "a5"], 2),
    (["build", "--paper", "A4"], 2),
    (["build", "--lang", ""], 2),
    (["build", "--lang", "../../x"], 2),
    (["build", "--lang", "xx"], 2),
    (["build", "--lang", "fr"], 2),
    (["build", "--bleed", "nan"], 2),
    (["build", "--bleed", "-1"], 2),
    (["build", "--bleed", "inf"], 2),
    (["build", "--back-offset", "x,y"], 2),
    (["build", "--back-offset", "1e400,0"], 2),
    (["build", "--back-offset", "1,2,3"], 2),
    (["build", "--back-offset", ","], 2),
    (["build", "--duplex", "diagonal"], 2),
    (["build", "--jobs", "-1"], 2),
    (["build", "--png", "nan"], 2),
    (["build", "../mini"], 2),
    (["build", "\x01"], 2),
    (["validate", "--format", "xml"], 2),
    (["validate", "mini", "nosuch"], 2),
    (["i18n", "init", "mini", "../../../tmp/evil"], 2),
    (["i18n", "init", "mini", "xx"], 2),
    (["i18n", "init", "mini", ""], 2),
    (["i18n", "update", "nosuch"], 2),
    (["i18n", "extract"], 2),
    (["i18n", "nosuch"], 2),
    (["nosuch"], 2),
]


@pytest.mark.parametrize(("args", "code"), BAD_COMMAND_LINES, ids=lambda a: repr(a)[:40])
def test_bad_command_lines(
    pnp: Callable[..., Result], root: Path, args: list[str], code: int
) -> None:
    res = pnp(*args, "--root", root)
    assert res.code == code, res.text
    assert snapshot(root / "output") == {}
    assert not list(root.rglob("*.po")) and not list(root.parent.rglob("evil*"))


def test_bad_roots(pnp: Callable[..., Result], tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("x")
    for command in (["validate"], ["build"], ["list"], ["i18n", "status"]):
        for where in (tmp_path / "missing", tmp_path / "afile"):
            res = pnp(*command, "--root", where)
            assert res.code == 2, (command, where, res.text)
    empty = tmp_path / "empty"
    empty.mkdir()
    assert pnp("validate", "--root", empty).code == 2
    assert pnp("build", "--root", empty).code == 2


def test_back_offset_nan(pnp: Callable[..., Result], root: Path) -> None:
    res = pnp("build", "--back-offset", "nan,nan", "--root", root)
    assert res.code == 2, res.text


def test_status_of_an_unreadable_game(pnp: Callable[..., Result], root: Path) -> None:
    put(root, f"{GAME}/game.yaml", b"")
    res = pnp("i18n", "status", "--root", root)
    assert res.code == 1 or "mini" in res.text, res.text


def test_whole_repository_end_to_end(pnp: Callable[..., Result]) -> None:
    """Every rule fixture pack through every read-only command: findings, never a traceback."""
    for pack in sorted(p for p in FIXTURES.iterdir() if (p / "cards").is_dir()):
        res = pnp("validate", "--format", "json", "--root", pack)
        assert res.code in (0, 1), pack.name
        assert all(f["path"] and not Path(f["path"]).is_absolute() for f in json.loads(res.out))
        pnp("list", "--root", pack)
    assert (REPO / "cards").is_dir()


# --- found by tests/test_hostile_property.py --------------------------------------------------


@pytest.mark.parametrize("covers", ["{}", "{range: null}", "{range: x}", "{range: [a, b]}"])
def test_table_covers_of_the_wrong_shape(
    pnp: Callable[..., Result], root: Path, covers: str
) -> None:
    put(
        root,
        f"{GAME}/extra.yaml",
        "tables:\n  lookup:\n    covers: " + covers + "\n    columns:\n      - {id: roll}\n"
        "      - {id: what}\n    rows:\n      - [1, a]\n      - [2, b]\n",
    )
    res = pnp("validate", "--root", root)
    assert res.code == 1 and res.rules() & {"schema", "table-coverage"}


def test_update_keeps_entries_without_context(
    pnp: Callable[..., Result], root: Path, catalog: Path
) -> None:
    text = catalog.read_text("utf-8")
    text = text.replace('msgid "Beta"\nmsgstr ""', 'msgid "Beta"\nmsgstr "Bêta"', 1)
    for ctx in ("decks/main/cards/alpha/title", "decks/main/cards/beta/title"):
        text = text.replace(f'msgctxt "{ctx}"\n', "", 1)
    catalog.write_text(text, "utf-8")
    pnp("i18n", "update", "mini", "--root", root, codes=(0, 1))
    after = catalog.read_text("utf-8")
    assert "Alphé" in after and "Bêta" in after
