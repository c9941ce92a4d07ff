"""`pnp docs`: the documentation at hand, from the package as installed (a wheel in a fresh
virtualenv included), its topics the files of docs/, its pages linked together."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pnp.cli.commands import app
from pnp.designer import docs

from helpers import REPO

runner = CliRunner()
DOCS = sorted((REPO / "docs").glob("*.md"))


def run(*args: str) -> Any:
    return runner.invoke(app, list(args), catch_exceptions=False)


def test_every_doc_is_a_topic_with_its_title() -> None:
    result = run("docs")
    assert result.exit_code == 0, result.stderr
    listed = dict(line.split(None, 1) for line in result.stdout.splitlines()[:-1])
    assert set(listed) == {p.stem for p in DOCS}
    assert {"format", "rules", "spreadsheets", "translating", "security"} <= set(listed)
    assert listed["format"] == "The content format"
    assert "pnp docs TOPIC" in result.stdout.splitlines()[-1]


def test_a_topic_prints_its_file() -> None:
    for path in DOCS:
        result = run("docs", path.stem)
        assert result.exit_code == 0
        assert result.stdout == path.read_text("utf-8"), path.name
    assert run("docs", "Format.md").stdout == (REPO / "docs/format.md").read_text("utf-8")


def test_an_unknown_topic_is_one_line_naming_every_topic() -> None:
    result = run("docs", "formt")
    assert result.exit_code == 2 and not result.stdout
    (line,) = result.stderr.splitlines()
    assert line.startswith("pnp: unknown topic 'formt'; did you mean format?")
    assert line.endswith(", ".join(p.stem for p in DOCS))


def test_a_new_doc_file_is_a_new_topic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """As installed from a wheel: the docs the package ships, whatever they are."""
    shipped = tmp_path / "pnp/data/docs"
    shipped.mkdir(parents=True)
    for path in DOCS:
        shutil.copy(path, shipped)
    (shipped / "printing.md").write_text("# Printing at home\n\nAt 100 %.\n", "utf-8")
    monkeypatch.setattr(docs, "CHECKOUT", tmp_path / "no-checkout")
    monkeypatch.setattr(docs, "SHIPPED", shipped)
    assert "printing      Printing at home" in run("docs").stdout
    assert run("docs", "printing").stdout == "# Printing at home\n\nAt 100 %.\n"
    assert "printing" in run("docs", "nope").stderr
    monkeypatch.setattr(docs, "SHIPPED", tmp_path / "gone")
    gone = run("docs", "format")
    assert gone.exit_code == 1 and "reinstall pnp" in gone.stderr


def test_help_and_the_new_roots_readme_point_to_the_docs(tmp_path: Path) -> None:
    assert "pnp docs format" in " ".join(run("--help").stdout.split())
    assert run("new", "g", "--root", str(tmp_path / "r")).exit_code == 0
    readme = (tmp_path / "r/README.md").read_text("utf-8")
    assert "`pnp docs format`" in readme and "docs/format.md" not in readme
    game = (tmp_path / "r/cards/g/game.yaml").read_text("utf-8")
    assert "`pnp docs format`" in game.splitlines()[1]


def test_open_writes_linked_pages_and_opens_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tempfile
    import webbrowser

    opened: list[str] = []
    monkeypatch.setattr(webbrowser, "open", lambda url: opened.append(url) or True)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    result = run("docs", "format", "--open")
    assert result.exit_code == 0, result.stderr
    (url,) = opened
    page = Path(url.removeprefix("file://"))
    assert page.name == "format.html" and f"opened {page}" in result.stdout
    pages = {p.name: p.read_text("utf-8") for p in page.parent.glob("*.html")}
    assert set(pages) == {"index.html"} | {f"{p.stem}.html" for p in DOCS}
    assert "<table>" in pages["format.html"] and '<h3 id="sizes">' in pages["format.html"]
    checked = 0
    for name, text in pages.items():
        for href in re.findall(r'href="([^"]+)"', text):
            if re.match(r"[a-z]+:", href):
                continue
            target, _, anchor = href.partition("#")
            target = target or name
            assert target in pages, f"{name}: a link to {href}"
            if anchor:
                assert f'id="{anchor}"' in pages[target], f"{name}: a link to {href}"
                checked += 1
    assert checked > 50  # the format's own contents, between its sections


@pytest.mark.slow
def test_a_wheel_in_a_fresh_virtualenv_has_the_docs(tmp_path: Path) -> None:
    """The wheel built from this tree, installed in a new virtualenv outside the checkout,
    prints a topic: the docs travel inside the package. (The virtualenv borrows the
    dependencies of this one, so no package index is needed but for the build backend.)"""
    src = tmp_path / "src"
    src.mkdir()
    for name in ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md"):
        shutil.copy(REPO / name, src)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for folder in ("pnp", "docs"):
        shutil.copytree(REPO / folder, src / folder, ignore=ignore)
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    subprocess.run([*pip, "wheel", "--no-deps", "-w", tmp_path / "dist", src], check=True)
    (wheel,) = (tmp_path / "dist").glob("*.whl")
    with zipfile.ZipFile(wheel) as z:
        assert {f"pnp/data/docs/{p.name}" for p in DOCS} <= set(z.namelist())
        meta = z.read(next(n for n in z.namelist() if n.endswith("METADATA"))).decode()
    assert re.search(r"^Summary: .*`pnp docs`", meta, re.M)

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", venv], check=True)
    python = venv / "bin" / "python"
    subprocess.run([*pip, "--python", python, "install", "--no-deps", wheel], check=True)
    site = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    borrowed = {sysconfig.get_path("purelib"), sysconfig.get_path("platlib")}
    (Path(site) / "borrowed.pth").write_text("\n".join(sorted(borrowed)) + "\n")
    empty = tmp_path / "empty"
    empty.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # nothing of the checkout

    def installed(*args: str | Path) -> subprocess.CompletedProcess[str]:
        return subprocess.run(args, capture_output=True, text=True, cwd=empty, env=env)

    where = installed(python, "-c", "import pnp; print(pnp.__file__)")
    assert where.stdout.startswith(str(venv)), where.stdout + where.stderr
    result = installed(venv / "bin/pnp", "docs", "format")
    assert result.returncode == 0, result.stderr
    assert result.stdout == (REPO / "docs/format.md").read_text("utf-8")
    unknown = installed(venv / "bin/pnp", "docs", "x")
    assert unknown.returncode == 2 and "the topics: " in unknown.stderr


def test_topics_complete_in_the_shell() -> None:
    env = {"_PNP_COMPLETE": "complete_bash", "COMP_WORDS": "pnp docs tr", "COMP_CWORD": "2"}
    result = runner.invoke(app, [], env=env, prog_name="pnp")
    assert result.stdout.split() == ["translating"]
    assert "docs" in run("--help").stdout


# what only pnp's source repository has: its example games and its tests
REPO_ONLY = re.compile(r"`(?:cards/(?:fabg|which-side|austerity|status)\b|tests/)[^`]*`")


def test_the_docs_never_point_at_the_example_games_as_if_installed() -> None:
    """A wheel has no cards/ nor tests/: a page that names the example games' files (or the
    tests') says, in the same paragraph, that they are in pnp's source repository. The
    architecture page describes that repository itself."""
    unsaid = []
    for page in DOCS:
        if page.stem == "architecture":
            continue
        text = page.read_text("utf-8")
        assert "bundled pack" not in text, page.name
        for para in re.split(r"\n\s*\n", text):
            named = REPO_ONLY.search(para)
            if named and "repository" not in para:
                unsaid.append(f"{page.name}: {named.group(0)}")
    assert not unsaid, unsaid
