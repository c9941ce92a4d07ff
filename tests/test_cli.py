"""The command-line contract of PRODUCT.md: output formats and exit codes."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pnp.cli.commands import app

from helpers import FIXTURES, REPO, files_read, make_root

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args), catch_exceptions=False)


def test_list_shows_games_and_languages() -> None:
    result = run("list", "--root", str(REPO))
    assert result.exit_code == 0
    assert "fabg\tit, en\tThe Fully Automated Board Game" in result.stdout


def test_validate_text_format_and_exit_codes() -> None:
    result = run("validate", "fabg", "--root", str(REPO))
    assert result.exit_code == 0
    lines = [ln for ln in result.stdout.splitlines() if ln]
    # FABG's findings: placeholders (warnings) and its marked assumptions (info)
    assert lines and all(
        " warning [placeholder] " in ln or " info [assumption] " in ln for ln in lines
    )
    assert any(" info [assumption] " in ln for ln in lines)
    assert lines[0].startswith("cards/fabg/decks.yaml:")
    strict = run("validate", "fabg", "--strict", "--root", str(REPO))
    assert strict.exit_code == 1


def test_validate_json_format(tmp_path: Path) -> None:
    root = make_root(tmp_path, FIXTURES / "clean")
    (root / "cards/mini/decks.yaml").write_text(
        (root / "cards/mini/decks.yaml").read_text().replace("copies: 4", "copies: 5")
    )
    result = run("validate", "--format", "json", "--root", str(root))
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data and set(data[0]) == {
        "path",
        "line",
        "column",
        "severity",
        "rule",
        "message",
        "game",
        "caused_by",  # null, or the cause a finding is folded under (docs/rules.md)
        "folded",  # how many findings it caused
    }
    box = [f for f in data if f["rule"] == "box-count"]
    assert box and box[0]["path"] == "cards/mini/game.yaml" and box[0]["line"] == 7


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    assert run("validate", "nosuchgame", "--root", str(REPO)).exit_code == 2
    assert run("build", "fabg", "--paper", "a5", "--root", str(REPO)).exit_code == 2
    assert run("validate", "--root", str(tmp_path / "missing")).exit_code == 2
    assert run("build", "fabg", "--lang", "xx", "--root", str(REPO)).exit_code == 2


def test_build_writes_nothing_on_errors(tmp_path: Path) -> None:
    root = make_root(tmp_path, FIXTURES / "clean")
    ok = run("build", "--root", str(root))
    assert ok.exit_code == 0, ok.stdout + ok.stderr
    pdf = root / "output/mini/mini-en-a4.pdf"
    before = pdf.read_bytes()
    decks = root / "cards/mini/decks.yaml"
    decks.write_text(decks.read_text().replace("copies: 4", "copies: 3"))
    bad = run("build", "--root", str(root), "--paper", "letter")
    assert bad.exit_code == 1
    assert "box-count" in bad.stderr
    assert pdf.read_bytes() == before
    assert not (root / "output/mini/mini-en-letter.pdf").exists()
    assert not [p for p in (root / "output/mini").iterdir() if p.name.endswith(".tmp")]


def test_console_script_never_prints_a_traceback(tmp_path: Path) -> None:
    root = make_root(tmp_path, FIXTURES / "clean")
    (root / "cards/mini/game.yaml").write_bytes(b"\xff\xfe garbage: [\n")
    exe = shutil.which("pnp") or ""
    cmd = [exe] if exe else [sys.executable, "-m", "pnp"]
    proc = subprocess.run([*cmd, "build", "--root", str(root)], capture_output=True, text=True)
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr and "file-encoding" in proc.stderr


def test_console_script_flushes_everything_before_it_exits(tmp_path: Path) -> None:
    """`pnp` leaves with os._exit (no teardown of the heap): its output must still be whole."""
    exe = shutil.which("pnp") or ""
    cmd = [exe] if exe else [sys.executable, "-m", "pnp"]
    proc = subprocess.run(
        [*cmd, "validate", "--format", "json", "--root", str(REPO)], capture_output=True
    )
    assert proc.returncode == 0, proc.stderr
    findings = json.loads(proc.stdout)  # the whole document arrived
    assert len(findings) > 10
    proc = subprocess.run(
        [*cmd, "validate", "--root", str(tmp_path / "nowhere")], text=True, capture_output=True
    )
    assert proc.returncode == 2 and proc.stderr.strip()


def test_game_can_lower_a_rule(tmp_path: Path) -> None:
    root = make_root(tmp_path, FIXTURES / "rule-override")
    result = run("validate", "--format", "json", "--root", str(root))
    assert result.exit_code == 0, result.stdout
    data = json.loads(result.stdout)
    assert [f["severity"] for f in data if f["rule"] == "box-count"] == ["warning"]
    assert not [f for f in data if f["rule"] == "placeholder"]  # switched off


def test_build_several_papers(tmp_path: Path) -> None:
    root = make_root(tmp_path, FIXTURES / "clean")
    result = run("build", "mini", "--paper", "a4", "--paper", "letter", "--root", str(root))
    assert result.exit_code == 0, result.stderr
    names = sorted(p.name for p in (root / "output/mini").iterdir() if not p.name.startswith("."))
    assert names == ["mini-en-a4.pdf", "mini-en-letter.pdf", "mini-it-a4.pdf", "mini-it-letter.pdf"]


def test_unchanged_rebuild_is_skipped(tmp_path: Path) -> None:
    root = make_root(tmp_path, FIXTURES / "clean")
    assert run("build", "mini", "--root", str(root)).exit_code == 0
    pdf = root / "output/mini/mini-en-a4.pdf"
    mtime = pdf.stat().st_mtime_ns
    again = run("build", "mini", "--root", str(root))
    assert again.exit_code == 0 and "up to date" in again.stdout
    assert pdf.stat().st_mtime_ns == mtime
    decks = root / "cards/mini/decks.yaml"
    decks.write_text(decks.read_text("utf-8").replace("Gain 2", "Gain 3"), "utf-8")
    changed = run("build", "mini", "--root", str(root))
    assert "up to date" not in changed.stdout and pdf.stat().st_mtime_ns != mtime
    forced = run("build", "mini", "--force", "--root", str(root))
    assert "up to date" not in forced.stdout
    letter = run("build", "mini", "--paper", "letter", "--root", str(root))
    assert "up to date" not in letter.stdout  # other options: built
    one = run("build", "mini", "--lang", "it", "--paper", "letter", "--root", str(root))
    assert one.exit_code == 0 and "up to date" in one.stdout  # a language already built
    game = root / "cards/mini/game.yaml"
    game.write_text(game.read_text("utf-8").replace("languages: [en, it]", "languages: [en]"))
    fewer = run("build", "mini", "--paper", "letter", "--root", str(root))
    assert fewer.exit_code == 0 and "up to date" not in fewer.stdout  # game.yaml changed
    assert "mini-it" not in fewer.stdout


def test_a_file_edited_during_a_build_is_built_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The stamp records the inputs as they were before the build read them."""
    import pnp.build.pipeline

    root = make_root(tmp_path, FIXTURES / "clean")
    decks = root / "cards/mini/decks.yaml"
    real = pnp.build.pipeline.render_game

    def editing(*args, **kwargs):  # type: ignore[no-untyped-def]
        out = real(*args, **kwargs)
        if "Gain 2" in decks.read_text("utf-8"):  # the designer saves while pnp renders
            decks.write_text(decks.read_text("utf-8").replace("Gain 2", "Gain 3"), "utf-8")
        return out

    monkeypatch.setattr(pnp.build.pipeline, "render_game", editing)
    assert run("build", "mini", "--root", str(root)).exit_code == 0
    monkeypatch.setattr(pnp.build.pipeline, "render_game", real)
    again = run("build", "mini", "--root", str(root))
    assert again.exit_code == 0 and "up to date" not in again.stdout
    third = run("build", "mini", "--root", str(root))
    assert "up to date" in third.stdout


def test_a_rebuild_reads_again_only_the_files_that_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A build keeps what it found of its files beside its outputs; the next one, in a new
    process, reads only the files whose size or time changed."""
    import os
    import time

    from PIL import Image

    root = make_root(tmp_path, FIXTURES / "clean")
    art = root / "cards/mini/art"
    art.mkdir()
    for name, colour in (("a", "red"), ("b", "blue")):
        Image.new("RGB", (60, 84), colour).save(art / f"{name}.png")
    decks = root / "cards/mini/decks.yaml"
    text = decks.read_text("utf-8")
    for card, name in (("alpha", "a"), ("beta", "b")):
        text = text.replace(
            f"      - id: {card}\n", f"      - id: {card}\n        art: art/{name}.png\n"
        )
    decks.write_text(text, "utf-8")
    past = time.time_ns() - 60 * 10**9
    for path in [*root.joinpath("cards").rglob("*"), *root.joinpath("fonts").rglob("*")]:
        os.utime(path, ns=(past, past))  # saved a minute ago: old enough to be trusted
    assert run("build", "mini", "--root", str(root)).exit_code == 0
    pdf = root / "output/mini/mini-en-a4.pdf"
    first = pdf.read_bytes()

    decks.write_text(decks.read_text("utf-8").replace("Gain 2", "Gain 3"), "utf-8")
    os.utime(decks, ns=(past + 10**9, past + 10**9))  # edited, a while ago
    read = files_read(monkeypatch)  # CliRunner runs in this process
    edited = run("build", "mini", "--root", str(root))
    assert edited.exit_code == 0 and "up to date" not in edited.stdout
    assert read == ["decks.yaml"]  # the art is unchanged: not read again
    second = pdf.read_bytes()
    Image.new("RGB", (60, 84), "green").save(art / "a.png")
    read = files_read(monkeypatch)  # CliRunner runs in this process
    changed = run("build", "mini", "--root", str(root))
    assert changed.exit_code == 0 and "up to date" not in changed.stdout
    assert read == ["a.png"] and pdf.read_bytes() not in (first, second)
    read = files_read(monkeypatch)  # CliRunner runs in this process
    assert run("build", "mini", "--force", "--root", str(root)).exit_code == 0
    assert {"a.png", "b.png", "decks.yaml"} <= set(read)  # --force reads everything again
    (root / "output/mini/.pnp-files.json").write_text("{damaged", "utf-8")
    read = files_read(monkeypatch)  # CliRunner runs in this process
    decks.write_text(decks.read_text("utf-8").replace("Gain 3", "Gain 4"), "utf-8")
    assert run("build", "mini", "--root", str(root)).exit_code == 0
    assert {"a.png", "b.png"} <= set(read)  # unreadable facts: read again, no error


def test_parallel_build_matches_a_serial_one(tmp_path: Path) -> None:
    """--jobs 2: workers render what the parent validated, with the game's own rule levels."""
    root = make_root(tmp_path, FIXTURES / "clean")
    game = root / "cards/mini/game.yaml"
    game.write_text(
        game.read_text("utf-8")
        + "rules:\n  fallback: {severity: warning, reason: a warning in this test}\n"
    )
    assert run("i18n", "init", "mini", "fr", "--root", str(root)).exit_code == 0
    langs = ["--lang", "en", "--lang", "it", "--lang", "fr"]
    outs = {}
    for jobs in ("1", "2"):
        out = tmp_path / f"jobs{jobs}"
        res = run("build", *langs, "--jobs", jobs, "--out", str(out), "--root", str(root))
        assert res.exit_code == 0, res.output
        assert "warning [fallback]" in res.output  # the game's level, in workers too
        outs[jobs] = sorted(line for line in res.output.splitlines() if "[fallback]" in line)
        assert len(list((out / "mini").glob("*.pdf"))) == 3
    assert outs["1"] == outs["2"]
    for pdf in sorted((tmp_path / "jobs1/mini").glob("*.pdf")):
        assert pdf.read_bytes() == (tmp_path / "jobs2/mini" / pdf.name).read_bytes(), pdf.name


def test_an_unreadable_file_in_the_game_folder_does_not_stop_the_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_root(tmp_path, FIXTURES / "clean")
    notes = root / "cards/mini/notes.txt"  # not part of the game: only hashed for the stamp
    notes.write_text("private", "utf-8")
    real = Path.read_bytes

    def refusing(self: Path) -> bytes:
        if self.name == "notes.txt":
            raise PermissionError(13, "Permission denied")
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", refusing)
    result = run("build", "mini", "--root", str(root))
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("change", ["library", "data"])
def test_a_new_library_or_bundled_file_rebuilds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, change: str
) -> None:
    """The stamps hold the versions of the libraries that shape the PDFs and the digest of
    pnp's bundled data: an upgraded reportlab, or a changed bundled font, rebuilds a PDF that
    the same content would otherwise skip as up to date."""
    from pnp.build import stamps

    root = make_root(tmp_path, FIXTURES / "clean")
    monkeypatch.setattr(stamps, "_CODE_DIGEST", None)
    assert run("build", "mini", "--root", str(root)).exit_code == 0
    again = run("build", "mini", "--root", str(root))
    assert "up to date" in again.stdout
    monkeypatch.setattr(stamps, "_CODE_DIGEST", None)  # a new process would digest again
    if change == "library":
        versions = stamps.library_versions().replace("reportlab=", "reportlab=99.")
        monkeypatch.setattr(stamps, "library_versions", lambda: versions)
    else:
        package = Path(stamps.__file__).parent.parent
        font = next(iter(sorted((package / "data" / "fonts").glob("*.ttf"))))
        real_stat = Path.stat

        def stat(self: Path, *args: object, **kw: object) -> object:
            st = real_stat(self, *args, **kw)  # type: ignore[arg-type]
            if self == font:  # a font of another size: a new version of it
                fields = list(st)
                fields[6] += 1  # st_size
                extra = {k: getattr(st, k) for k in ("st_atime_ns", "st_mtime_ns", "st_ctime_ns")}
                return os.stat_result(fields, extra)
            return st

        monkeypatch.setattr(Path, "stat", stat)
    rebuilt = run("build", "mini", "--root", str(root))
    assert rebuilt.exit_code == 0 and "up to date" not in rebuilt.stdout, rebuilt.stdout
