"""The shape of the code: the pipeline's import contracts, and modules and functions small
enough to read.

- import-linter's contracts (pyproject.toml): each layer of the pipeline imports only the layers
  below it (core < content < i18n < typeset < validate < printing < build < designer < cli),
  and no package has an import cycle between its modules;
- no module of pnp/ over 600 lines, no function over 60 lines or 15 branches, unless the line
  that defines it carries ``# long: <reason>``.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import REPO

MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 60
MAX_BRANCHES = 15
SOURCES = sorted((REPO / "pnp").rglob("*.py"))


def test_import_contracts_are_kept() -> None:
    run = "import sys, importlinter.cli as c; sys.exit(c.lint_imports_command())"
    proc = subprocess.run(
        [sys.executable, "-c", run, "--no-cache"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "0 broken" in proc.stdout


def branches(node: ast.AST) -> int:
    """Branches as pylint counts them (PLR0912): if/elif/else, loops and their else, try parts,
    with, match cases, conditional expressions; nested functions count for themselves."""
    count = 0
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            continue
        if isinstance(child, ast.If):
            count += 1 + (1 if child.orelse and not _is_elif(child) else 0)
        elif isinstance(child, ast.For | ast.While | ast.AsyncFor):
            count += 1 + (1 if child.orelse else 0)
        elif isinstance(child, ast.Try | ast.TryStar):
            count += (
                len(child.handlers) + (1 if child.orelse else 0) + (1 if child.finalbody else 0)
            )
        elif isinstance(child, ast.With | ast.AsyncWith | ast.match_case):
            count += 1
        count += branches(child)
    return count


def _is_elif(node: ast.If) -> bool:
    return len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If)


def size_problems(text: str) -> list[str]:
    """What breaks the size limits in one module's source."""
    problems = []
    lines = text.splitlines()
    first = lines[0] if lines else ""
    if text.count("\n") > MAX_MODULE_LINES and "# long:" not in first:
        problems.append(
            f"{text.count(chr(10))} lines; split the module "
            "(or say why not with '# long: reason' on line 1)"
        )
    for node in ast.walk(ast.parse(text)):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        size = node.end_lineno - node.lineno + 1  # type: ignore[operator]
        count = branches(node)
        waived = "# long:" in lines[node.lineno - 1]
        if (size > MAX_FUNCTION_LINES or count > MAX_BRANCHES) and not waived:
            problems.append(f"{node.name} (line {node.lineno}): {size} lines, {count} branches")
    return problems


@pytest.mark.parametrize("path", SOURCES, ids=[p.relative_to(REPO).as_posix() for p in SOURCES])
def test_modules_and_functions_are_short(path: Path) -> None:
    problems = size_problems(path.read_text("utf-8"))
    assert not problems, "; ".join(problems)


def test_the_size_check_can_fail() -> None:
    body = "".join(f"    x{i} = {i}\n" for i in range(61))
    assert size_problems(f"def f():\n{body}") == ["f (line 1): 62 lines, 0 branches"]
    assert size_problems(f"def f():  # long: a table\n{body}") == []
    ifs = "".join(f"    if x == {i}:\n        return {i}\n" for i in range(16))
    assert size_problems(f"def g(x):\n{ifs}") == ["g (line 1): 33 lines, 16 branches"]
    module = "x = 1\n" * 601
    assert size_problems(module)[0].startswith("601 lines")
    assert size_problems("# long: generated\n" + module) == []
