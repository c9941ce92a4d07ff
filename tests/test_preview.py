"""The preview page: boards and tiles among the faces, the findings at the top, `--out`, exit
codes as `pnp validate`'s, and `pnp watch` showing errors on the page (in headless Chromium)."""

from __future__ import annotations

import fcntl
import json
import os
import re
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from typer.testing import CliRunner

from pnp.cli.commands import app
from pnp.content.load import open_root
from pnp.designer.preview import BOARD_PX, DPI, FACES_START
from pnp.designer.watch import Watcher

from helpers import FIXTURES, make_root, needs_tool

runner = CliRunner()
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
needs_chromium = needs_tool(CHROMIUM is None, "needs Debian's chromium (installed by .ci/run)")

BOARDS = """\
boards:
  city:
    name: {en: City board, it: Tabellone della città}
    size: [300, 200]
    title: {en: The city, it: La città}
  tile:
    name: {en: Tile, it: Tessera}
    size: [90, 90]
    title: {en: Tile A, it: Tessera A}
    back:
      title: {en: Tile B, it: Tessera B}
"""


def run(*args: str) -> Any:
    return runner.invoke(app, list(args), catch_exceptions=False)


def game_with_boards(tmp_path: Path) -> Path:
    root = make_root(tmp_path, FIXTURES / "clean")
    (root / "cards/mini/boards.yaml").write_text(BOARDS, "utf-8")
    return root


def sections(html: str) -> dict[str, dict[str, str]]:
    """The face sections of a page: id -> their data- attributes."""
    out = {}
    for m in re.finditer(r'<section class="face" id="([^"]+)"([^>]*)>', html):
        out[m.group(1)] = dict(re.findall(r'data-(\w+)="([^"]*)"', m.group(2)))
    return out


def body(html: str) -> dict[str, str]:
    tag = re.search(r"<body[^>]*>", html)
    assert tag, html[:300]
    return dict(re.findall(r'data-(\w+)="([^"]*)"', tag.group(0)))


def images_of(html: str, key: str) -> list[str]:
    section = re.search(rf'<section class="face" id="{re.escape(key)}".*?</section>', html, re.S)
    assert section, f"{key} missing"
    return re.findall(r'<img src="([^"]+)"', section.group(0))


def test_boards_and_tiles_are_faces_of_the_page(tmp_path: Path) -> None:
    root = game_with_boards(tmp_path)
    result = run("preview", "mini", "--root", str(root))
    assert result.exit_code == 0, result.stderr
    folder = root / "output/mini/preview"
    html = (folder / "index.html").read_text("utf-8")
    faces = sections(html)
    kinds = {key: attrs["kind"] for key, attrs in faces.items()}
    assert kinds == {
        "setup": "setup",
        "main-alpha-front": "card",
        "main-back": "card",
        "main-beta-front": "card",
        "board.city-front": "board",
        "board.tile-front": "board",
        "board.tile-back": "board",
        "chips-chip-front": "token",
    }
    # boards span wider than cards: a whole row for the large one, two columns for the tile
    assert faces["board.city-front"]["span"] == "full"
    assert faces["board.tile-front"]["span"] == "wide"
    assert faces["main-alpha-front"]["span"] == "one"
    assert body(html)["faces"] == "7"
    # each board side drawn in each language, at its size (the large one at most BOARD_PX wide)
    for key, width_mm in (("board.city-front", 300), ("board.tile-back", 90)):
        en, it = (Image.open(folder / src) for src in images_of(html, key))
        want = min(BOARD_PX, round(width_mm / 25.4 * DPI))
        assert abs(en.width - want) <= 1 and en.size == it.size
        assert en.tobytes() != it.tobytes()  # "The city" / "La città": drawn per language
        assert len(en.convert("L").getcolors(1 << 16) or []) > 2  # not blank


def test_a_finding_on_a_tile_sits_by_it_and_links_to_it(tmp_path: Path) -> None:
    root = game_with_boards(tmp_path)
    boards = root / "cards/mini/boards.yaml"
    text = boards.read_text("utf-8")
    # the back layout prints no text: a warning at this line, about the tile's back
    boards.write_text(text + "      text: {en: Never printed, it: Mai stampato}\n", "utf-8")
    result = run("preview", "mini", "--root", str(root))
    assert result.exit_code == 0 and "boards.yaml:12:" in result.stderr, result.stderr
    html = (root / "output/mini/preview/index.html").read_text("utf-8")
    rows = re.findall(r'<tr class="warning">.*?</tr>', html, re.S)
    row = next((r for r in rows if "boards.yaml:12:" in r), "")
    assert 'href="#board.tile-back"' in row, rows
    section = re.search(r'<section class="face" id="board.tile-back".*?</section>', html, re.S)
    assert section and "boards.yaml:12:" in section.group(0)


def test_findings_at_the_top_escaped_and_exit_1(tmp_path: Path) -> None:
    root = game_with_boards(tmp_path)
    decks = root / "cards/mini/decks.yaml"
    decks.write_text(
        decks.read_text("utf-8").replace("copies: 2\n", 'copies: "<b>bold</b>"\n'),
        "utf-8",
    )
    result = run("preview", "mini", "--root", str(root))
    assert result.exit_code == 1, result.stdout + result.stderr
    page = root / "output/mini/preview/index.html"
    assert f"wrote {page}" in result.stdout and "errors" in result.stdout  # says where
    assert "[schema]" in result.stderr
    html = page.read_text("utf-8")
    assert body(html)["state"] == "errors"
    rows = re.findall(r'<tr class="error">(.*?)</tr>', html, re.S)
    assert len(rows) == 1, html  # the cause; the counts that the lost copies break under it
    caused = re.findall(r'<tr class="caused error">(.*?)</tr>', html, re.S)
    assert len(caused) == 2 and "(and 2 more caused by this: " in rows[0], html
    cells = re.findall(r"<td[^>]*>(.*?)</td>", rows[0], re.S)
    assert cells[0] == "error" and cells[2] == "schema"
    assert re.fullmatch(r"cards/mini/decks\.yaml:\d+:\d+", cells[1])
    assert "&lt;b&gt;bold&lt;/b&gt;" in cells[3]  # escaped, never markup
    assert "<b>bold" not in html
    # the faces are drawn all the same, the one with the error marked in place
    assert FACES_START in html and 'id="stale"' not in html
    assert sections(html)["main-beta-front"]["errors"] == "1"
    assert "errors" not in sections(html)["main-alpha-front"]
    beta = re.search(r'<section class="face" id="main-beta-front".*?</section>', html, re.S)
    assert beta and "&lt;b&gt;bold&lt;/b&gt;" in beta.group(0)  # its finding, in place
    assert images_of(html, "main-beta-front")  # drawn


def test_exit_codes_as_validate(tmp_path: Path) -> None:
    root = make_root(tmp_path, FIXTURES / "placeholder")
    ok = run("preview", "mini", "--root", str(root))
    assert ok.exit_code == 0, ok.stderr  # warnings only
    assert "[placeholder]" in ok.stderr
    assert run("preview", "mini", "--strict", "--root", str(root)).exit_code == 1
    assert run("preview", "nope", "--root", str(root)).exit_code == 2
    assert run("preview", "mini", "--lang", "xx", "--root", str(root)).exit_code == 2


def test_out_like_build(tmp_path: Path) -> None:
    root = make_root(tmp_path, FIXTURES / "clean")
    out = tmp_path / "elsewhere"
    result = run("preview", "mini", "--out", str(out), "--root", str(root))
    assert result.exit_code == 0, result.stderr
    assert (out / "mini/preview/index.html").is_file()
    assert list((out / "mini/preview/en").glob("*.png"))
    assert not (root / "output").exists()


def break_yaml(path: Path) -> str:
    good = path.read_text("utf-8")
    path.write_text(good.replace("size: [90, 90]", "size: [90, 90"), "utf-8")
    return good


def test_watch_shows_errors_on_the_page_and_recovers(tmp_path: Path) -> None:
    root = game_with_boards(tmp_path)
    out = tmp_path / "out"
    watcher = Watcher(open_root(root), "mini", (), "a4", echo=lambda _m: None, out=out)
    assert watcher.cycle()[0]
    assert (out / "mini/mini-en-a4.pdf").is_file() and not (root / "output").exists()
    page, stamp = out / "mini/preview/index.html", out / "mini/preview/stamp.js"
    good_stamp = stamp.read_text()
    assert body(page.read_text("utf-8"))["state"] == "ok"

    boards = root / "cards/mini/boards.yaml"
    good = break_yaml(boards)
    assert not watcher.cycle()[0]
    html = page.read_text("utf-8")
    assert body(html)["state"] == "errors"
    assert stamp.read_text() != good_stamp  # the open page reloads on errors too
    top = html.index('id="findings"')
    assert "yaml-syntax" in html[top : html.index(FACES_START)]
    assert "cards/mini/boards.yaml:" in html
    # the cards are drawn; the boards, whose file does not load, are those of the last good
    # page, greyed, and their images still exist
    assert "gone" not in sections(html)["main-alpha-front"]
    assert sections(html)["board.tile-back"]["gone"] == "1"
    for src in images_of(html, "board.tile-back"):
        assert (page.parent / src).is_file()

    boards.write_text(good, "utf-8")
    assert watcher.cycle()[0]
    html = page.read_text("utf-8")
    assert body(html)["state"] == "ok" and 'id="stale"' not in html and 'data-gone="' not in html
    assert stamp.read_text() == good_stamp  # the same content, the same page


def test_watch_ignores_its_own_out_folder(tmp_path: Path) -> None:
    root = open_root(make_root(tmp_path, FIXTURES / "clean"))
    inside = root.game_dir("mini") / "built"
    watcher = Watcher(root, "mini", (), "a4", out=inside)
    assert not watcher.relevant(inside / "mini/preview/index.html")
    assert watcher.relevant(root.game_dir("mini") / "decks.yaml")
    assert watcher.page == inside / "mini/preview/index.html"


# --- in a browser -----------------------------------------------------------------------------


def chromium_args(tmp: Path) -> list[str]:
    assert CHROMIUM
    return [
        CHROMIUM,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={tmp / 'chrome-profile'}",
    ]


@needs_chromium
def test_boards_and_errors_in_headless_chromium(tmp_path: Path) -> None:
    root = game_with_boards(tmp_path)
    assert run("preview", "mini", "--root", str(root)).exit_code == 0
    page = root / "output/mini/preview/index.html"
    shot = tmp_path / "page.png"
    args = [*chromium_args(tmp_path), "--virtual-time-budget=4000"]
    dom = subprocess.run(
        [*args, "--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=120
    ).stdout
    attrs = body(dom)
    assert attrs.get("errors") == "0" and attrs.get("broken") == "0", attrs
    assert int(attrs["loaded"]) == dom.count("<img ") > 0  # every image loaded, boards too
    assert sections(dom)["board.city-front"]["kind"] == "board"
    subprocess.run(
        [*args, "--window-size=1200,1600", f"--screenshot={shot}", page.as_uri()],
        capture_output=True,
        timeout=120,
    )
    image = Image.open(shot)
    assert image.size == (1200, 1600)
    assert len(image.convert("L").getcolors(1 << 16) or []) > 20

    # a broken save: the page shows the error at the top, over the last faces drawn
    good = break_yaml(root / "cards/mini/boards.yaml")
    result = run("preview", "mini", "--root", str(root))
    assert result.exit_code == 1
    dom = subprocess.run(
        [*args, "--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=120
    ).stdout
    assert body(dom)["state"] == "errors" and body(dom)["broken"] == "0"
    first_row = re.search(r"<tbody>\s*<tr class=\"(\w+)\">.*?</tr>", dom, re.S)
    assert first_row and first_row.group(1) == "error" and "yaml-syntax" in first_row.group(0)
    assert dom.index('id="findings"') < dom.index('id="board.city-front"')
    (root / "cards/mini/boards.yaml").write_text(good, "utf-8")


class DevTools:
    """Chromium driven over --remote-debugging-pipe (the DevTools protocol on fds 3 and 4)."""

    def __init__(self, args: list[str]) -> None:
        to_chrome_r, self.to_chrome = os.pipe()
        self.from_chrome, from_chrome_w = os.pipe()
        # out of the way of 3 and 4 before the child moves them there
        high = [fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10) for fd in (to_chrome_r, from_chrome_w)]

        def child() -> None:
            os.dup2(high[0], 3)
            os.dup2(high[1], 4)

        self.proc = subprocess.Popen(
            [*args, "--remote-debugging-pipe"],
            close_fds=False,  # 3 and 4 stay open; pnp's own descriptors are not inheritable
            preexec_fn=child,  # runs in the child before exec: 3 and 4 in place
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for fd in (to_chrome_r, from_chrome_w, *high):
            os.close(fd)
        self.buffer = b""
        self.next_id = 0

    def call(self, method: str, session: str | None = None, **params: Any) -> dict[str, Any]:
        self.next_id += 1
        message: dict[str, Any] = {"id": self.next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        os.write(self.to_chrome, json.dumps(message).encode() + b"\0")
        while True:
            while b"\0" not in self.buffer:
                chunk = os.read(self.from_chrome, 1 << 16)
                assert chunk, "chromium closed the pipe"
                self.buffer += chunk
            raw, self.buffer = self.buffer.split(b"\0", 1)
            reply = json.loads(raw)
            if reply.get("id") == self.next_id:
                assert "error" not in reply, reply
                return dict(reply.get("result", {}))

    def close(self) -> None:
        self.proc.kill()
        self.proc.wait(timeout=30)
        os.close(self.to_chrome)
        os.close(self.from_chrome)


@needs_chromium
def test_an_open_page_reloads_on_errors_and_recovers(tmp_path: Path) -> None:
    """`pnp watch` with the page open: a broken save shows the error, the next good save the
    faces again, without touching the browser."""
    root = game_with_boards(tmp_path)
    watcher = Watcher(open_root(root), "mini", (), "a4", echo=lambda _m: None)
    assert watcher.cycle()[0]
    tools = DevTools(chromium_args(tmp_path))
    try:
        target = tools.call("Target.createTarget", url=watcher.page.as_uri())["targetId"]
        session = tools.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]

        def shows(state: str, text: str) -> bool:
            script = (
                f"document.body && document.body.dataset.state === {json.dumps(state)} && "
                f"document.body.innerText.includes({json.dumps(text)})"
            )
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline:
                got = tools.call("Runtime.evaluate", session, expression=script)
                if got.get("result", {}).get("value") is True:
                    return True
                time.sleep(0.2)
            return False

        assert shows("ok", "city · front")
        good = break_yaml(root / "cards/mini/boards.yaml")
        assert not watcher.cycle()[0]
        assert shows("errors", "yaml-syntax")
        (root / "cards/mini/boards.yaml").write_text(good, "utf-8")
        assert watcher.cycle()[0]
        assert shows("ok", "tile · back")
    finally:
        tools.close()


def test_findings_caused_by_another_are_folded_under_it(tmp_path: Path) -> None:
    """As `pnp validate` prints them: a template that fails on every card is one line (the
    first card's), saying how many more it caused, those collapsed under it; every face
    with an error is still marked."""
    root = make_root(tmp_path, FIXTURES / "clean")
    decks = root / "cards/mini/decks.yaml"
    decks.write_text(
        decks.read_text("utf-8")
        + "layouts:\n  card:\n    elements:\n"
        + '      - {box: [5, 5, 50, 10], template: "{{ values.tools }}", size: 8}\n',
        "utf-8",
    )
    assert run("preview", "mini", "--root", str(root)).exit_code == 1
    html = (root / "output/mini/preview/index.html").read_text("utf-8")
    causes = re.findall(r'<tr class="error">(.*?)</tr>', html, re.S)
    assert len(causes) == 1, causes  # not one per card and language
    cells = re.findall(r"<td[^>]*>(.*?)</td>", causes[0], re.S)
    assert cells[1] == "cards/mini/decks.yaml:6:9" and cells[2] == "template"
    assert "card &#39;alpha&#39; has no values.tools" in cells[3]
    assert cells[3].endswith('<span class="more">(and 1 more caused by this: template)</span>')
    folded = re.search(
        r'<tr class="caused-by">.*?<details><summary>and 1 more caused by this: template'
        r"</summary>(.*?)</details>",
        html,
        re.S,
    )
    assert folded, html
    caused = re.findall(r'<tr class="caused error">(.*?)</tr>', folded.group(1), re.S)
    assert len(caused) == 1 and "cards/mini/decks.yaml:10:9" in caused[0]
    assert "card &#39;beta&#39; has no values.tools" in caused[0]
    assert '<a href="#main-beta-front">' in caused[0]
    assert "errors 1, warnings 2, notes 0 (and 1 more caused by them)</summary>" in html
    faces = sections(html)
    assert faces["main-alpha-front"].get("errors") and faces["main-beta-front"].get("errors")


# --- with errors: every face that can be drawn, the findings in view ----------------------------


def game_with_errors(tmp_path: Path) -> Path:
    """Beta has two errors, one of which (an unknown layout) keeps it from being drawn;
    alpha's art is missing (an error: it is drawn without it); the rest is fine."""
    root = game_with_boards(tmp_path)
    decks = root / "cards/mini/decks.yaml"
    text = decks.read_text("utf-8")
    text = text.replace("copies: 2\n", "copies: -1\n        layout: nowhere\n")
    text = text.replace("      - id: alpha\n", "      - id: alpha\n        art: missing.png\n")
    decks.write_text(text, "utf-8")
    return root


def test_with_errors_the_page_draws_what_it_can(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without a browser: the faces drawn, those with errors marked, the one that cannot be
    drawn saying why, a setup sheet that cannot be drawn too; a clean game still stops on a
    failure to draw (a bug, not a finding)."""
    from pnp.core.errors import BuildError
    from pnp.designer import preview

    root = game_with_errors(tmp_path)
    assert run("preview", "mini", "--root", str(root)).exit_code == 1
    page = root / "output/mini/preview/index.html"
    html = page.read_text("utf-8")
    assert body(html)["marked"] == "2" and body(html)["undrawn"] == "2"
    for key in ("main-alpha-front", "main-back", "board.city-front", "chips-chip-front"):
        assert all((page.parent / src).is_file() for src in images_of(html, key)), key
    assert not images_of(html, "main-beta-front")

    def unset(*_args: Any) -> list[str]:
        raise BuildError("the setup sheet cannot be laid out")

    monkeypatch.setattr(preview, "_setup_images", unset)
    assert run("preview", "mini", "--root", str(root)).exit_code == 1
    html = page.read_text("utf-8")
    setup = re.search(r'<section class="face" id="setup".*?</section>', html, re.S)
    assert setup and setup.group(0).count("the setup sheet cannot be laid out") == 2

    clean = make_root(tmp_path / "clean", FIXTURES / "clean")
    failed = run("preview", "mini", "--root", str(clean))
    assert failed.exit_code == 1  # not hidden on a page: the game has no error to explain it
    assert "pnp: the setup sheet cannot be laid out" in failed.stderr


@needs_chromium
def test_with_errors_every_face_that_can_be_drawn_is_drawn(tmp_path: Path) -> None:
    root = game_with_errors(tmp_path)
    result = run("preview", "mini", "--root", str(root))
    assert result.exit_code == 1 and "unknown layout 'nowhere'" in result.stderr
    page = root / "output/mini/preview/index.html"
    args = [*chromium_args(tmp_path), "--virtual-time-budget=4000"]
    dom = subprocess.run(
        [*args, "--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=120
    ).stdout
    attrs = body(dom)
    assert attrs["state"] == "errors" and attrs["errors"] == "0" and attrs["broken"] == "0"
    assert int(attrs["loaded"]) == dom.count("<img ") > 0  # every image drawn shows
    faces = sections(dom)
    assert {k for k, a in faces.items() if "errors" in a} == {"main-alpha-front", "main-beta-front"}
    assert attrs["marked"] == "2" and attrs["undrawn"] == "2"
    for key in set(faces) - {"setup", "main-beta-front"}:
        assert len(images_of(dom, key)) == 2, key  # drawn, in both languages
    beta = re.search(r'<section class="face" id="main-beta-front".*?</section>', dom, re.S)
    assert beta and beta.group(0).count('class="undrawn"') == 2  # says why, in place
    assert "unknown layout 'nowhere'" in beta.group(0) and "copies must be" in beta.group(0)
    alpha = re.search(r'<section class="face" id="main-alpha-front".*?</section>', dom, re.S)
    assert alpha and "missing.png" in alpha.group(0)


def open_page(tools: DevTools, page: Path, width: int = 1200, height: int = 900) -> str:
    target = tools.call("Target.createTarget", url=page.as_uri())["targetId"]
    session = tools.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
    metrics = {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}
    tools.call("Emulation.setDeviceMetricsOverride", session, **metrics)
    return str(session)


def evaluate(tools: DevTools, session: str, script: str) -> Any:
    return (
        tools.call("Runtime.evaluate", session, expression=script, returnByValue=True)
        .get("result", {})
        .get("value")
    )


def wait_for(tools: DevTools, session: str, script: str) -> bool:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if evaluate(tools, session, script) is True:
            return True
        time.sleep(0.2)
    return False


# scrolled to the bottom: where the findings are, and what is drawn at their middle
SCROLLED = """(() => {
  window.scrollTo(0, document.documentElement.scrollHeight);
  const panel = document.getElementById("findings").getBoundingClientRect();
  const hit = document.elementFromPoint(panel.left + panel.width / 2, panel.top + panel.height / 2);
  return {scrolled: window.scrollY, height: window.innerHeight, top: panel.top,
          bottom: panel.bottom, covered: !document.getElementById("findings").contains(hit),
          text: document.getElementById("findings").innerText};
})()"""
LOADED = "document.readyState === 'complete' && document.body.dataset.loaded !== undefined"


def red_at_top(shot: bytes) -> bool:
    """Whether the top rows of a screenshot show the findings' red frame (#c62828)."""
    import io

    image = Image.open(io.BytesIO(shot)).convert("RGB")
    top = image.crop((0, 0, image.width, 8))
    colours = [c for _n, c in top.getcolors(1 << 16) or []]
    return any(abs(r - 198) + abs(g - 40) + abs(b - 40) < 40 for r, g, b in colours)


@needs_chromium
def test_the_findings_stay_in_view_while_scrolling(tmp_path: Path) -> None:
    import base64
    import io

    root = game_with_errors(tmp_path)
    assert run("preview", "mini", "--root", str(root)).exit_code == 1
    tools = DevTools(chromium_args(tmp_path))
    try:
        session = open_page(tools, root / "output/mini/preview/index.html")
        assert wait_for(tools, session, LOADED)
        seen = evaluate(tools, session, SCROLLED)
        assert seen["scrolled"] > 1000, seen  # a long page, scrolled to its end
        assert 0 <= seen["top"] <= 1 and seen["bottom"] > 150, seen  # held at the top
        assert not seen["covered"] and "unknown layout 'nowhere'" in seen["text"]
        shot = base64.b64decode(tools.call("Page.captureScreenshot", session)["data"])
        assert red_at_top(shot)
        image = Image.open(io.BytesIO(shot)).convert("L")
        below = image.crop((0, image.height // 2, image.width, image.height))
        assert len(below.getcolors(1 << 16) or []) > 20  # faces drawn under the panel
    finally:
        tools.close()


@needs_chromium
def test_under_watch_the_error_banner_stays_in_view(tmp_path: Path) -> None:
    root = game_with_boards(tmp_path)
    watcher = Watcher(open_root(root), "mini", (), "a4", echo=lambda _m: None)
    assert watcher.cycle()[0]
    tools = DevTools(chromium_args(tmp_path))
    try:
        session = open_page(tools, watcher.page)
        assert wait_for(tools, session, LOADED + " && document.body.dataset.state === 'ok'")
        assert evaluate(tools, session, SCROLLED)["scrolled"] > 1000
        decks = root / "cards/mini/decks.yaml"
        decks.write_text(decks.read_text("utf-8").replace("copies: 2\n", "copies: -1\n"))
        assert not watcher.cycle()[0]
        assert wait_for(tools, session, LOADED + " && document.body.dataset.state === 'errors'")
        seen = evaluate(tools, session, SCROLLED)
        assert seen["scrolled"] > 1000 and 0 <= seen["top"] <= 1, seen
        assert not seen["covered"] and "copies must be between 0 and 10000" in seen["text"]
        faces = evaluate(tools, session, "document.querySelectorAll('section.face img').length")
        assert faces >= 14  # still every face, in both languages (the setup sheet too)
        marked = "document.querySelector('#main-beta-front').dataset.errors"
        assert evaluate(tools, session, marked) == "1"
    finally:
        tools.close()
