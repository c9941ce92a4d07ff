"""Hostile input, third round (issue 33), the classes about files and folders: a shipped
`output/` folder, links and special files where pnp writes, symbolic-link loops, numbers too
large to print, and what reaches the terminal or JSON. Each case failed on the code before its
fix. The machinery (running pnp in process or in a measured subprocess, the contract on exit
codes and messages) is tests/test_hostile.py's."""

# ruff: noqa: F811 - the fixtures imported from test_hostile are parameters of the tests

from __future__ import annotations

import errno
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from test_hostile import (  # noqa: F401 - fixtures are used by name
    GAME,
    Result,
    assert_bounded,
    measured,
    pnp,
    put,
    root,
)

from helpers import snapshot

PREVIEW = "output/mini/preview"
SCRIPT = "<script>alert('shipped')</script>"
SHIPPED_PAGE = (
    '<html lang="en"><body><h1>Shipped</h1><!--pnp:faces--><section class="face" id="evil">'
    f"{SCRIPT}</section><!--/pnp:faces--></body></html>"
)


def _with_errors(root: Path) -> None:
    decks = root / GAME / "decks.yaml"
    decks.write_text(decks.read_text("utf-8").replace("copies: 4", 'copies: "x"', 1), "utf-8")


def _unreadable_game(root: Path) -> None:
    game = root / GAME / "game.yaml"
    game.write_text(game.read_text("utf-8") + "id: [\n", "utf-8")


def _outside(tmp_path: Path) -> Path:
    outside = tmp_path / "outside"
    outside.mkdir(exist_ok=True)
    (outside / "secret.txt").write_text("SECRET-TEXT\n", "utf-8")
    (outside / "keep.png").write_bytes(b"not pnp's")
    return outside


# --- 1. a shipped output/ folder is written, never trusted ---------------------------------


@pytest.mark.parametrize("damage", [_with_errors, _unreadable_game], ids=["errors", "no-game"])
def test_a_shipped_page_is_never_reused(
    root: Path, pnp: Callable[..., Result], damage: Callable[[Path], None]
) -> None:
    put(root, f"{PREVIEW}/index.html", SHIPPED_PAGE)
    damage(root)
    res = pnp("preview", "mini", "--root", root)
    assert res.code == 1, res.text
    page = (root / PREVIEW / "index.html").read_text("utf-8")
    assert "<script>alert" not in page and "Shipped" not in page
    assert 'id="evil"' not in page


def test_a_shipped_manifest_is_data_escaped_and_checked(
    root: Path, pnp: Callable[..., Result], tmp_path: Path
) -> None:
    """The manifest is the one thing pnp reads again: what it says is escaped, an image it
    names must be pnp's (a regular file named as pnp names them, in a real folder)."""
    outside = _outside(tmp_path)
    face = {
        "key": "evil",
        "label": SCRIPT,
        "owner": "o",
        "card": "c",
        "side": "front",
        "kind": "card",
        "span": "one",
        "pixels": [10, 10],
        "images": {"en": "en/x.png"},
    }
    bad = dict(face, key="bad", images={"en": "javascript:alert(1)/x.png"})
    data = {"pnp": 1, "title": SCRIPT, "langs": ["en"], "faces": [face, bad], "setups": {}}
    data["files"] = ["en/x.png", "javascript:alert(1)/x.png"]
    put(root, f"{PREVIEW}/.pnp-preview.json", json.dumps(data))
    (root / PREVIEW / "en").mkdir()
    os.symlink(outside / "keep.png", root / PREVIEW / "en" / "x.png")
    _unreadable_game(root)
    res = pnp("preview", "mini", "--root", root)
    assert res.code == 1
    page = (root / PREVIEW / "index.html").read_text("utf-8")
    assert "<script>alert" not in page and "&lt;script&gt;" in page  # shown, escaped
    assert "javascript:" not in page  # no image named as pnp never names them
    assert 'src="en/x.png"' not in page  # a link is not pnp's image


@pytest.mark.parametrize("kind", ["fifo", "device-link", "outside-link"])
def test_an_old_page_that_is_no_file_of_pnp_is_not_read(
    root: Path, tmp_path: Path, kind: str
) -> None:
    outside = _outside(tmp_path)
    page = root / PREVIEW / "index.html"
    page.parent.mkdir(parents=True)
    if kind == "fifo":
        os.mkfifo(page)
    elif kind == "device-link":
        os.symlink("/dev/zero", page)
    else:
        (outside / "page.html").write_text(SHIPPED_PAGE.replace(SCRIPT, "SECRET-TEXT"), "utf-8")
        os.symlink(outside / "page.html", page)
    _with_errors(root)
    res = assert_bounded(measured("preview", "mini", "--root", root), seconds=5.0)
    assert res.code == 1, res.text
    assert page.is_file() and not page.is_symlink()  # replaced by pnp's page
    assert "SECRET-TEXT" not in page.read_text("utf-8")
    assert (outside / "secret.txt").read_text("utf-8") == "SECRET-TEXT\n"


@pytest.mark.parametrize(
    ("linked", "command"),
    [
        ("output", "build"),
        ("output/mini", "build"),
        ("output/mini/preview", "preview"),
        ("output/mini/preview/en", "preview"),
    ],
)
def test_an_output_folder_linked_out_of_the_root_is_refused(
    root: Path, pnp: Callable[..., Result], tmp_path: Path, linked: str, command: str
) -> None:
    outside = _outside(tmp_path)
    (outside / "en").mkdir()
    (outside / "en" / "old.png").write_bytes(b"not pnp's")
    before = snapshot(outside)
    (root / linked).parent.mkdir(parents=True, exist_ok=True)
    os.symlink(outside, root / linked)
    res = pnp(command, "mini", "--root", root)
    assert res.code == 1 and "is a symbolic link" in res.text, res.text
    assert snapshot(outside) == before  # nothing written, nothing removed


def test_a_dangling_link_in_place_of_an_output_folder_is_refused(
    root: Path, pnp: Callable[..., Result], tmp_path: Path
) -> None:
    os.makedirs(root / "output")
    os.symlink(tmp_path / "made-outside", root / "output" / "mini")
    res = pnp("build", "mini", "--root", root)
    assert res.code == 1 and "is a symbolic link" in res.text, res.text
    assert not (tmp_path / "made-outside").exists()


def test_cleanup_removes_only_what_pnp_wrote(root: Path, pnp: Callable[..., Result]) -> None:
    assert pnp("preview", "mini", "--root", root).code == 0
    folder = root / PREVIEW / "en"
    drawn = sorted(p.name for p in folder.glob("*.png"))
    foreign = folder / "mine.png"
    foreign.write_bytes(b"the designer's own file")
    decks = root / GAME / "decks.yaml"  # a change: faces drawn again, the old images pruned
    decks.write_text(decks.read_text("utf-8").replace("Alpha", "Alpha!"), "utf-8")
    assert pnp("preview", "mini", "--root", root).code == 0
    now = sorted(p.name for p in folder.glob("*.png"))
    assert foreign.read_bytes() == b"the designer's own file"  # not pnp's: kept
    assert now != drawn and set(now) - {"mine.png"} != set(drawn)  # pnp's old one removed
    assert len(now) == len(drawn) + 1


# --- 1. `pnp new` checks every path it touches ---------------------------------------------


def _new_root(tmp_path: Path) -> Path:
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    return fresh


@pytest.mark.parametrize("case", ["gitignore-link", "cards-link", "gitignore-fifo"])
def test_pnp_new_refuses_links_and_special_files(tmp_path: Path, case: str) -> None:
    outside = _outside(tmp_path)
    fresh = _new_root(tmp_path)
    if case == "gitignore-link":
        os.symlink(outside / "secret.txt", fresh / ".gitignore")
    elif case == "cards-link":
        os.symlink(outside, fresh / "cards")
    else:
        os.mkfifo(fresh / ".gitignore")
    before = snapshot(outside)
    res = assert_bounded(measured("new", "game", "--root", fresh))
    assert res.code == 1, res.text
    assert "symbolic link" in res.text or "not a regular file" in res.text, res.text
    assert snapshot(outside) == before
    assert not (fresh / "README.md").exists()  # refused before anything was made


def test_pnp_new_never_writes_through_a_dangling_link(tmp_path: Path) -> None:
    fresh = _new_root(tmp_path)
    os.symlink(tmp_path / "made-outside.md", fresh / "README.md")
    res = assert_bounded(measured("new", "game", "--root", fresh))
    assert res.code == 0, res.text
    assert not (tmp_path / "made-outside.md").exists()
    assert (fresh / "cards" / "game" / "game.yaml").is_file()


# --- 7. every string that reaches the terminal or JSON is escaped --------------------------

_RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_PO_EMPTY = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'


def _bytes_of(*args: object) -> tuple[int, bytes]:
    """Run `pnp ARGS...` in a subprocess (in C.UTF-8, as a terminal would): its exit code and
    its stdout and stderr as bytes."""
    env = {k: v for k, v in os.environ.items() if k not in ("PNP_DEBUG", "PNP_ROOT")}
    env["LC_ALL"] = "C.UTF-8"
    proc = subprocess.run(
        [sys.executable, "-m", "pnp", *(os.fsencode(a) for a in args)],
        capture_output=True,
        timeout=120,
        env=env,
    )
    return proc.returncode, proc.stdout + b"\n" + proc.stderr


def _assert_clean(code: int, out: bytes) -> str:
    assert code in (0, 1), out[-2000:]
    text = out.decode("utf-8")  # raises on raw bytes of a name that is not UTF-8
    assert not _RAW.search(text), [line for line in text.splitlines() if _RAW.search(line)]
    assert "internal error" not in text and "Traceback" not in text, text[-2000:]
    return text


NASTY = "x\a\u202ered\x1b[31m"  # a bell, a right-to-left override, a terminal's escape


@pytest.mark.parametrize("command", ["status", "update"])
def test_locale_folder_names_reach_the_terminal_escaped(root: Path, command: str) -> None:
    put(root, f"locales/{NASTY}/LC_MESSAGES/mini.po", _PO_EMPTY)
    args = ["i18n", command, *(["mini"] if command == "update" else []), "--root", root]
    text = _assert_clean(*_bytes_of(*args))
    assert "x\\x07\\u202ered\\x1b[31m" in text, text


def test_audit_keys_reach_the_terminal_escaped(root: Path) -> None:
    put(root, f"{GAME}/extra.yaml", 'extra:\n  "k\\e[31m\\u009b\\u202e": 5\n')
    text = _assert_clean(*_bytes_of("audit", "mini", "--root", root))
    assert "extra.k\\x1b[31m\\x9b\\u202e: 5 -> 6" in text, text


def test_the_summary_line_keeps_a_folder_names_newline_escaped(root: Path) -> None:
    (root / GAME).rename(root / "cards" / "mi\nni")
    text = _assert_clean(*_bytes_of("validate", "--root", root))
    assert "mi\\nni: 1 error, 0 warnings" in text.splitlines(), text


def _undecodable_names(root: Path) -> None:
    folder = os.fsencode(root / GAME)
    with open(folder + b"/bad\x9b31m.yaml", "wb") as fh:
        fh.write(b"x: [\n")


def test_a_name_that_is_not_utf8_is_shown_escaped(root: Path) -> None:
    _undecodable_names(root)
    text = _assert_clean(*_bytes_of("validate", "--root", root))
    assert "cards/mini/bad\\x9b31m.yaml:2:1: error [yaml-syntax]" in text, text


def test_json_output_is_valid_utf8_with_undecodable_names_escaped(root: Path) -> None:
    _undecodable_names(root)
    code, out = _bytes_of("validate", "--format", "json", "--root", root)
    assert code == 1
    found = json.loads(out.split(b"\n\n", 1)[0].decode("utf-8"))  # strict UTF-8, strict JSON
    assert "cards/mini/bad\\x9b31m.yaml" in {f["path"] for f in found}, found


def test_json_escapes_what_a_terminal_would_act_on(root: Path) -> None:
    put(root, f"{GAME}/k\x9b\u202e.yaml", "x: [\n")
    code, out = _bytes_of("validate", "--format", "json", "--root", root)
    raw = out.split(b"\n\n", 1)[0].decode("utf-8")
    assert code == 1 and not _RAW.search(raw), raw  # JSON escapes: the same text once parsed
    assert "cards/mini/k\x9b\u202e.yaml" in {f["path"] for f in json.loads(raw)}, raw


def test_watch_says_changed_file_names_escaped(root: Path) -> None:
    from pnp.content.load import open_root
    from pnp.designer.watch import Watcher

    watcher = Watcher(open_root(root), "mini", (), "a4", echo=lambda _m: None)
    folder = os.fsdecode(os.fsencode(root / GAME) + b"/a\x9b\n\x1b[2J.yaml")
    line = watcher.changed([Path(folder)])
    assert not _RAW.search(line) and "\udc9b" not in line, repr(line)
    assert "cards/mini/a\\x9b\\n\\x1b[2J.yaml" in line, line


# --- 6. every path walk survives symbolic-link loops ---------------------------------------


def _loops(root: Path, where: str) -> None:
    if where == "loop.yaml":
        os.symlink("loop.yaml", root / GAME / "loop.yaml")
    elif where == "fonts":
        shutil.rmtree(root / "fonts")
        os.symlink("fonts", root / "fonts")
    elif where == "cards-folder":
        os.symlink(".", root / GAME / "here")
        os.symlink("self", root / GAME / "self")
    elif where == "art":  # a card's art is looked up through it
        os.symlink("art", root / GAME / "art")
        decks = root / GAME / "decks.yaml"
        text = decks.read_text("utf-8")
        decks.write_text(text.replace("copies: 4\n", "copies: 4\n        art: art/x.png\n", 1))


@pytest.mark.parametrize("where", ["loop.yaml", "fonts", "cards-folder", "art"])
@pytest.mark.parametrize("command", ["validate", "build"])
def test_a_symlink_loop_is_a_finding(
    root: Path, pnp: Callable[..., Result], where: str, command: str
) -> None:
    _loops(root, where)
    res = pnp(command, "--root", root)  # the contract: no internal error, no traceback
    if where == "fonts":  # not used by the game: pnp's own fonts print it
        assert res.code == 0, res.text
    else:
        assert res.code == 1 and "unsafe-path" in res.rules(), res.text


def test_the_content_root_a_loop_is_a_usage_error(
    tmp_path: Path, pnp: Callable[..., Result]
) -> None:
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    os.symlink("cards", fresh / "cards")
    res = pnp("validate", "--root", fresh)
    assert res.code == 2 and "no games found" in res.text, res.text


def test_watch_survives_loops_in_the_game_folder(root: Path) -> None:
    from pnp.content.load import open_root
    from pnp.designer.watch import Watcher

    for where in ("loop.yaml", "cards-folder"):
        _loops(root, where)
    os.symlink("../..", root / GAME / "up")
    said: list[str] = []
    watcher = Watcher(open_root(root), "mini", (), "a4", echo=said.append)
    assert watcher.cycle()[0] is False  # the loops are findings; the watcher goes on
    assert any("[unsafe-path]" in line for line in said), said
    decks = root / GAME / "decks.yaml"
    timer = threading.Timer(0.5, lambda: decks.write_text(decks.read_text("utf-8"), "utf-8"))
    timer.start()
    try:
        changed = watcher.wait(timeout_ms=20_000)
    finally:
        timer.cancel()
    assert decks in changed


# --- 6. numbers of any size are shown or refused with a finding ----------------------------

_BIG = "10**999 * 10**999 * 10**999 * 10**999 * 10**999"  # 4,996 digits: over Python's 4,300


def _invariant(root: Path, text: str) -> None:
    decks = root / GAME / "decks.yaml"
    decks.write_text(decks.read_text("utf-8") + "invariants:\n" + text, "utf-8")


def test_a_failing_row_with_a_huge_number_is_shown_by_its_size(
    root: Path, pnp: Callable[..., Result]
) -> None:
    _invariant(
        root,
        f'  - id: big\n    for_each: "n in [{_BIG}]"\n    assert: "n < 0"\n'
        f'  - id: said\n    for_each: "n in [{_BIG}]"\n    assert: "n < 0"\n'
        '    message: "n is {n}"\n',
    )
    res = pnp("validate", "--root", root)
    assert res.code == 1 and len(res.at("invariant")) == 2, res.text
    assert "(for a number of about 4,996 digits)" in res.text, res.text
    assert "n is a number of about 4,996 digits" in res.text, res.text


def test_writing_a_huge_number_as_text_is_a_finding(root: Path, pnp: Callable[..., Result]) -> None:
    _invariant(root, f"  - id: text\n    assert: \"str({_BIG}) == ''\"\n")
    res = pnp("validate", "--root", root)
    assert res.code == 1 and "invariant-expression" in res.rules(), res.text
    assert "more than 4,300 digits cannot be written as text" in res.text, res.text
    assert "set_int_max_str_digits" not in res.text  # Python's advice is not the designer's


def test_expressions_are_parsed_outside_the_time_limit(
    root: Path, pnp: Callable[..., Result], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An alarm firing inside Python's parser can leave the interpreter's recursion counter
    wrong for the next parse: parsing is never timed (evaluation is)."""
    from simpleeval import EvalWithCompoundTypes

    timers: list[float] = []
    parse = EvalWithCompoundTypes.parse

    def watched(expr: str) -> object:
        timers.append(signal.getitimer(signal.ITIMER_REAL)[0])
        return parse(expr)

    monkeypatch.setattr(EvalWithCompoundTypes, "parse", staticmethod(watched))
    _invariant(root, '  - id: x\n    for_each: "n in range(3)"\n    assert: "n >= 0"\n')
    assert pnp("validate", "--root", root).code == 0
    assert timers and all(t == 0 for t in timers), timers


# --- 9. poor messages say what happened, at the right position -----------------------------


def test_a_raw_c1_character_is_reported_at_its_line(root: Path, pnp: Callable[..., Result]) -> None:
    put(root, f"{GAME}/extra.yaml", 'decks:\n  extra:\n    name: ok\n    note: "a\x9bb"\n')
    res = pnp("validate", "--root", root)
    assert res.code == 1 and res.at("yaml-syntax") == [(f"{GAME}/extra.yaml", 4)], res.text
    assert f"{GAME}/extra.yaml:4:13:" in res.text and "U+009B" in res.text, res.text


def test_a_fraction_of_copies_is_shown_as_written(root: Path, pnp: Callable[..., Result]) -> None:
    decks = root / GAME / "decks.yaml"
    decks.write_text(decks.read_text("utf-8").replace("copies: 4", "copies: 4.0000000001"))
    res = pnp("validate", "--root", root)
    assert "expected a whole number, found the number 4.0000000001" in res.text, res.text


@pytest.mark.parametrize("command", ["new", "i18n-init"])
def test_commands_without_out_do_not_advise_it(
    root: Path, pnp: Callable[..., Result], monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    def refused(*_args: object, **_kwargs: object) -> object:
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(os, "mkdir", refused)
    monkeypatch.setattr(tempfile, "mkstemp", refused)
    args = ["new", "fresh"] if command == "new" else ["i18n", "init", "mini", "fr"]
    res = pnp(*args, "--root", root)
    assert res.code == 1 and "you may not write there" in res.text, res.text
    assert "--out" not in res.text, res.text
    # build has --out: it is still advised
    res = pnp("build", "--root", root)
    assert res.code == 1 and "or use --out" in res.text, res.text


def test_a_card_larger_than_the_paper_is_a_finding_at_its_size(
    root: Path, pnp: Callable[..., Result]
) -> None:
    game = root / GAME / "game.yaml"
    game.write_text(game.read_text("utf-8") + "print:\n  card_size: [2000, 88]\n", "utf-8")
    res = pnp("build", "--root", root)
    assert res.code == 1 and res.at("printable-area") == [(f"{GAME}/game.yaml", 15)], res.text
    assert "2000×88 mm face of main does not fit on a4" in res.text, res.text
    assert not (root / "output" / "mini" / "mini-en-a4.pdf").exists()


def test_a_binary_tag_is_refused_not_read_as_text(root: Path, pnp: Callable[..., Result]) -> None:
    put(root, f"{GAME}/extra.yaml", "decks:\n  extra:\n    name: !!binary aGVsbG8=\n")
    res = pnp("validate", "--root", root)
    assert res.code == 1 and res.at("schema") == [(f"{GAME}/extra.yaml", 3)], res.text
    assert "!!binary" in res.text, res.text
