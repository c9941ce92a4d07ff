"""The command line as a designer meets it: shell completion, help texts that show the finding
format, --quiet and --verbose, `pnp new` in an empty folder, and texts made only of icons."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from pnp.cli.commands import app
from pnp.designer.scaffold import WORDS, sample_words
from pnp.i18n.words import LOCALE_DIR

from helpers import FIXTURES, REPO, make_root

runner = CliRunner()
FORMAT = "PATH:LINE:COL: severity [rule] message"
PNP_BIN = Path(sys.executable).parent / "pnp"


def run(*args: str, **kw: object):
    return runner.invoke(app, list(args), catch_exceptions=False, **kw)  # type: ignore[arg-type]


def pnp(*args: str, env: dict[str, str] | None = None, cwd: Path | None = None):
    """pnp in a process of its own, as a shell runs it."""
    return subprocess.run(
        [sys.executable, "-m", "pnp", *args],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        cwd=cwd,
        timeout=120,
    )


# --- help texts ------------------------------------------------------------------------------


def _squash(text: str) -> str:
    return " ".join(text.split())


def test_help_shows_the_finding_format_verbatim() -> None:
    for args in (["--help"], ["validate", "--help"]):
        result = run(*args)
        assert result.exit_code == 0
        assert FORMAT in _squash(result.stdout), result.stdout


def test_no_help_text_loses_its_brackets() -> None:
    """Every [...] written in a command's or option's help is printed as written."""
    root = typer.main.get_command(app)
    checked = 0

    def walk(cmd: object, path: list[str]) -> None:
        nonlocal checked
        texts = [getattr(cmd, "help", None) or ""]
        texts += [getattr(p, "help", None) or "" for p in getattr(cmd, "params", [])]
        shown = _squash(run(*path, "--help").stdout)
        for bracket in re.findall(r"\[[^\]\n]+\]", " ".join(texts)):
            assert _squash(bracket) in shown, (path, bracket)
            checked += 1
        for name, sub in sorted(getattr(cmd, "commands", {}).items()):
            walk(sub, [*path, name])

    walk(root, [])
    assert checked >= 2  # the format in `pnp --help` and `pnp validate --help` at least


def test_help_does_not_load_rich() -> None:
    """`pnp --help` prints plain text: rich (a tenth of a second to import) is never loaded."""
    code = (
        "import sys\n"
        "from pnp.cli.commands import invoke\n"
        "sys.argv = ['pnp', '--help']\n"
        "try:\n    invoke()\nexcept SystemExit:\n    pass\n"
        "sys.stderr.write('RICH' if 'rich' in sys.modules else 'PLAIN')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert "Usage: pnp" in out.stdout
    assert out.stderr.endswith("PLAIN"), out.stderr


# --- shell completion ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("shell", "mark"),
    [("bash", "complete -o default -F _pnp_completion pnp"), ("zsh", "#compdef pnp")],
)
def test_show_completion_prints_the_named_shells_script(shell: str, mark: str) -> None:
    out = pnp("--show-completion", shell)
    assert out.returncode == 0, out.stderr
    assert mark in out.stdout
    assert "_PNP_COMPLETE=complete_" + shell in out.stdout


def test_install_completion_writes_the_script_and_sources_it(tmp_path: Path) -> None:
    out = pnp("--install-completion", "bash", env={"HOME": str(tmp_path)})
    assert out.returncode == 0, out.stderr
    script = tmp_path / ".bash_completions" / "pnp.sh"
    assert "_pnp_completion" in script.read_text()
    assert f"source '{script}'" in (tmp_path / ".bashrc").read_text()


def test_completion_protocol_gives_commands_options_and_games() -> None:
    def complete(words: str) -> list[str]:
        env = {
            "_PNP_COMPLETE": "complete_bash",
            "COMP_WORDS": words,
            "COMP_CWORD": str(len(words.split(" ")) - 1),
        }
        result = runner.invoke(app, [], env=env, prog_name="pnp")
        return result.stdout.split()

    assert complete("pnp val") == ["validate"]
    assert "--format" in complete("pnp validate --f")
    assert complete(f"pnp validate --root {REPO} f") == ["fabg"]
    assert complete(f"pnp i18n status --root {REPO} w") == ["which-side"]


@pytest.mark.skipif(
    not shutil.which("bash") or not PNP_BIN.is_file(), reason="needs bash and the pnp script"
)
def test_completion_in_bash() -> None:
    """The script `pnp --show-completion bash` prints, sourced by a real bash, completes."""
    script = (
        "source <(pnp --show-completion bash)\n"
        'COMP_WORDS=(pnp val); COMP_CWORD=1; _pnp_completion pnp; echo "[${COMPREPLY[*]}]"\n'
        f"COMP_WORDS=(pnp preview --root {REPO} fa); COMP_CWORD=4; _pnp_completion pnp\n"
        'echo "[${COMPREPLY[*]}]"\n'
    )
    env = {**os.environ, "PATH": f"{PNP_BIN.parent}{os.pathsep}{os.environ['PATH']}"}
    out = subprocess.run(["bash", "-c", script], capture_output=True, text=True, env=env)
    assert out.stdout.split() == ["[validate]", "[fabg]"], out.stdout + out.stderr


# --- --quiet and --verbose -------------------------------------------------------------------


def test_quiet_prints_errors_and_the_final_line_only(tmp_path: Path) -> None:
    new = tmp_path / "new"
    assert run("new", "x", "--lang", "en", "--lang", "pl", "--root", str(new)).exit_code == 0
    assert "[missing-text]" in run("validate", "--root", str(new)).stdout
    warned = run("-q", "validate", "--root", str(new))
    assert warned.exit_code == 0
    assert warned.stdout == ""  # the missing Polish texts are warnings: not printed
    assert re.fullmatch(r"x: 0 errors, \d+ warnings\n", warned.stderr)
    root = make_root(tmp_path, FIXTURES / "clean")
    decks = root / "cards/mini/decks.yaml"
    decks.write_text(decks.read_text().replace("copies: 4", "copies: 5"))
    failed = run("--quiet", "validate", "--root", str(root))
    assert failed.exit_code == 1
    lines = failed.stdout.splitlines()
    assert lines and all(" error [" in line for line in lines)
    assert "box-count" in failed.stdout


def test_quiet_and_verbose_together_are_a_usage_error() -> None:
    result = run("-q", "-v", "list", "--root", str(REPO))
    assert result.exit_code == 2
    assert "--quiet" in result.stderr


def test_build_output_by_verbosity(tmp_path: Path) -> None:
    """A language pnp has no example texts in: the default build shows the first fallbacks and
    how many more; --verbose every one, each step's time and the total; --quiet none."""
    root = tmp_path / "root"
    assert run("new", "solo", "--lang", "en", "--lang", "pl", "--root", str(root)).exit_code == 0
    args = ["build", "solo", "--lang", "pl", "--force", "--root", str(root)]
    normal = run(*args)
    assert normal.exit_code == 0, normal.stderr
    shown = [line for line in normal.stderr.splitlines() if "[fallback] [pl]" in line]
    assert len(shown) == 8
    more = re.search(r"\.\.\. (\d+) more texts of solo printed untranslated in pl", normal.stderr)
    assert more
    verbose = run("-v", *args)
    every = [line for line in verbose.stderr.splitlines() if "[fallback] [pl]" in line]
    assert len(every) == 8 + int(more.group(1))
    assert re.search(r"^\[\d+\.\d\d s\] building \[1/1\] solo pl a4$", verbose.stderr, re.M)
    assert re.search(r"^pnp build: \d+\.\d\d s$", verbose.stderr, re.M)
    quiet = run("-q", *args)
    assert quiet.exit_code == 0
    assert quiet.stderr == ""
    assert quiet.stdout.startswith("wrote ") and len(quiet.stdout.splitlines()) == 1


# --- pnp new ---------------------------------------------------------------------------------


def test_new_in_an_empty_folder_makes_a_root_to_keep_in_git(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    made = run("new", "g")
    assert made.exit_code == 0, made.stderr
    names = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*"))
    assert names == [
        ".gitignore",
        "README.md",
        "cards",
        "cards/g",
        "cards/g/art",
        "cards/g/art/emblem.svg",
        "cards/g/art/scene.svg",
        "cards/g/decks.yaml",
        "cards/g/game.yaml",
        "cards/g/layouts.yaml",
        "cards/g/tables.yaml",
        "cards/g/tokens.yaml",
        "cards/pnp-content.schema.json",
        "cards/pnp-game.schema.json",
    ]  # no fonts/: pnp brings its own
    assert "output/" in (tmp_path / ".gitignore").read_text().splitlines()
    readme = (tmp_path / "README.md").read_text()
    for command in ("pnp validate", "pnp build", "pnp preview g", "pnp i18n init g"):
        assert command in readme
    checked = run("validate", "g", "--strict")
    assert checked.exit_code == 0 and checked.stdout == ""
    built = run("build", "g")
    assert built.exit_code == 0, built.stderr
    assert (tmp_path / "output/g/g-en-a4.pdf").is_file()
    if shutil.which("git"):  # what a build writes is left out of git
        subprocess.run(["git", "init", "-q"], check=True)
        status = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=all"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        assert "output" not in status and "cards/g/game.yaml" in status


def test_new_keeps_what_the_root_has(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "README.md").write_text("mine\n")
    (root / ".gitignore").write_text("*.bak")  # no final newline
    assert run("new", "a", "--root", str(root)).exit_code == 0
    assert (root / "README.md").read_text() == "mine\n"
    ignore = (root / ".gitignore").read_text()
    assert ignore.startswith("*.bak\n") and ignore.splitlines().count("output/") == 1
    assert run("new", "b", "--root", str(root)).exit_code == 0
    assert (root / ".gitignore").read_text() == ignore  # output/ once
    other = tmp_path / "other"
    other.mkdir()
    (other / ".gitignore").write_text("output/*\n")
    assert run("new", "c", "--root", str(other)).exit_code == 0
    assert (other / ".gitignore").read_text() == "output/*\n"


def test_new_makes_fonts_only_when_asked(tmp_path: Path) -> None:
    root = tmp_path / "root"
    assert run("new", "a", "--root", str(root)).exit_code == 0
    assert not (root / "fonts").exists()
    result = run("new", "b", "--own-fonts", "--root", str(root))
    assert result.exit_code == 0
    assert "Regular.ttf" in (root / "fonts/README.md").read_text()
    assert run("validate", "--strict", "--root", str(root)).exit_code == 0


def _texts(path: Path) -> str:
    from pypdf import PdfReader

    return " ".join(" ".join((p.extract_text() or "").split()) for p in PdfReader(path).pages)


def test_new_in_german_is_german(tmp_path: Path) -> None:
    """pnp has the example's texts in German: the German PDF prints none of the English ones,
    and the build reports no fallback."""
    root = tmp_path / "root"
    assert run("new", "x", "--lang", "en", "--lang", "de", "--root", str(root)).exit_code == 0
    assert run("validate", "x", "--strict", "--root", str(root)).exit_code == 0
    built = run("build", "x", "--lang", "de", "--root", str(root))
    assert built.exit_code == 0 and "fallback" not in built.stderr, built.stderr
    printed = _texts(root / "output/x/x-de-a4.pdf")
    for key in ("run_text", "trade_text", "flip_back_text", "intro", "deal"):
        german = WORDS["de"][key].replace("**", "").replace("{coin}", "₽")
        assert german in printed, key
        english = WORDS["en"][key].split("{")[0].replace("**", "").strip()
        assert english not in printed, key


def test_new_in_a_language_pnp_lacks_says_so(tmp_path: Path) -> None:
    root = tmp_path / "root"
    made = run("new", "x", "--lang", "en", "--lang", "pl", "--root", str(root))
    assert made.exit_code == 0
    missing = [line for line in made.stdout.splitlines() if "[missing-text]" in line]
    assert len(missing) > 10 and all("no pl text (has en)" in line for line in missing)
    assert "pnp has no pl version" in made.stderr and "pnp i18n init x pl" in made.stderr
    decks = (root / "cards/x/decks.yaml").read_text()
    assert 'title: {en: "Run", pl: }' in decks  # a slot to fill, not English as Polish
    checked = run("validate", "x", "--root", str(root))
    assert checked.exit_code == 0
    assert checked.stdout.count("[missing-text]") == len(missing)
    source = run("new", "y", "--lang", "pl", "--root", str(root))
    assert source.exit_code == 0
    assert "the pl texts in cards/y are English" in source.stderr
    assert "the pl texts below are English" in (root / "cards/y/decks.yaml").read_text()


def test_every_language_pnp_has_a_catalog_for_has_the_examples_texts() -> None:
    catalogs = sorted(p.name for p in LOCALE_DIR.iterdir() if p.is_dir())
    assert catalogs and all(sample_words(lang) is not None for lang in catalogs)
    token = re.compile(r"\{\w+\}|\*\*")
    for lang, words in WORDS.items():
        assert words.keys() == WORDS["en"].keys(), lang
        for key, text in words.items():
            assert sorted(token.findall(text)) == sorted(token.findall(WORDS["en"][key])), (
                lang,
                key,
            )


# --- texts made only of icons ----------------------------------------------------------------


def test_icon_only_texts_need_no_translation(tmp_path: Path) -> None:
    """ "{coin}" and "{coin} {coin}" read the same in every language: no missing-text finding,
    no template entry, no fallback, not counted as missing."""
    root = tmp_path / "root"
    assert run("new", "x", "--lang", "en", "--lang", "it", "--root", str(root)).exit_code == 0
    decks = root / "cards/x/decks.yaml"
    text = decks.read_text()
    text = text.replace('title: {en: "Windfall", it: "Fortuna"}', 'title: "{coin}"')
    text = text.replace(
        'text: {en: "Take 2 {coin}.", it: "Prendi 2 {coin}."}', 'text: "{coin} {coin}"'
    )
    assert text.count('"{coin}') == 2
    decks.write_text(text)
    checked = run("validate", "x", "--strict", "--root", str(root))
    assert checked.exit_code == 0, checked.stdout
    assert run("i18n", "extract", "x", "--root", str(root)).exit_code == 0
    pot = (root / "locales/x.pot").read_text()
    assert "windfall" not in pot and 'msgid "Trade"' in pot
    built = run("build", "x", "--lang", "it", "--root", str(root))
    assert built.exit_code == 0 and "fallback" not in built.stderr, built.stderr
    status = run("i18n", "status", "x", "--format", "json", "--root", str(root))
    rows = {row["lang"]: row for row in json.loads(status.stdout)}
    assert not [p for p in rows["it"]["problems"] if "windfall" in p["what"]]
