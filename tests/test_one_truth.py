"""One truth: what the command line offers is the same for every command (shell completion of
games, the global options after the command), and every value the format accepts is accepted
by the JSON Schema and named in docs/format.md, and the other way round."""

from __future__ import annotations

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
