"""What a YAML file's syntax error says: where the parser stopped, and a hint for the usual
causes (an unquoted colour, a tab, a text starting with { or *, a control character)."""

from __future__ import annotations

import re

from ruamel.yaml.error import MarkedYAMLError

from ..core.findings import Pos


def unreadable(exc: Exception, text: str, path: str) -> tuple[Pos, str]:
    """Where and why the YAML reader stopped without a mark: a character YAML does not allow
    in a file (a control or C1 character) is found at its line and column."""
    code = getattr(exc, "character", None)  # the reader's error names the character
    if not isinstance(code, int) or not 0 <= code < 0x110000:
        code = -1
    at = text.find(chr(code)) if code >= 0 else -1
    if at < 0:
        return Pos(path, 1, 1), first_line(str(exc))
    line = text.count("\n", 0, at) + 1
    col = at - (text.rfind("\n", 0, at) + 1) + 1
    return Pos(path, line, col), (
        f"the character U+{code:04X} (a control character) is not allowed in YAML; remove it, "
        f'or write it as an escape in a double-quoted string ("\\x{code:02x}")'
        if code < 0x100
        else f"the character U+{code:04X} is not allowed in YAML; remove it, or write it as "
        f'an escape in a double-quoted string ("\\u{code:04x}")'
    )


def syntax_problem(exc: MarkedYAMLError, text: str, path: str) -> tuple[Pos, str]:
    """Where the parser stopped and what to do; a bracket left open says where it opened."""
    mark = exc.problem_mark or exc.context_mark
    line = mark.line + 1 if mark else 0
    col = mark.column + 1 if mark else 0
    problem = exc.problem or exc.context or "invalid YAML"
    opened = exc.context_mark if exc.problem and exc.context else None
    if opened is not None and opened.line + 1 != line and "flow" in str(exc.context):
        closer = "}" if "mapping" in str(exc.context) else "]"
        problem += (
            f" (the {str(exc.context).removeprefix('while parsing a ')} opened at line "
            f"{opened.line + 1}, column {opened.column + 1} is not closed: add its {closer})"
        )
    first = opened.line + 1 if opened is not None else 0
    return Pos(path, line, col), _explain_syntax(problem, text, line, first)


def first_line(message: str) -> str:
    return message.strip().splitlines()[0] if message.strip() else "invalid YAML"


_FLOW_COLOUR = re.compile(r"([\w-]+)\s*:\s+(#(?:[0-9A-Fa-f]{8}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{3,4}))\b")


def _explain_syntax(problem: str, text: str, line: int, opened: int = 0) -> str:
    """The parser's problem at ``line``, with a hint for the usual causes; ``opened``: the
    line where a bracket left open was opened (its lines are looked at too)."""
    problem = problem.strip()
    lines = text.splitlines()
    src = lines[line - 1] if 0 < line <= len(lines) else ""
    around = lines[max(opened, 1) - 1 : line - 1] if opened else []
    hint = ""
    colour = next((c for c in (src, *around) if _FLOW_COLOUR.search(c)), None)
    if colour is not None:
        found = _FLOW_COLOUR.search(colour)
        assert found is not None
        hint = (
            f"; a colour starting with # must be quoted ({found.group(1)}: "
            f'"{found.group(2)}"): unquoted, YAML reads # as the start of a comment'
        )
    elif "\t" in src or "tab" in problem.lower():
        hint = "; YAML indents with spaces only: replace the tab with spaces"
    elif re.search(r"(:|-)\s+\*", src):
        hint = '; a value starting with * is read as an alias: quote it, e.g. "*bold* text"'
    elif re.search(r"(:|-)\s+[{\[][^}\]]*$", src) or re.search(r":\s+\{\w+\}\s*\w", src):
        hint = '; a text starting with { or [ must be quoted, e.g. text: "{coin} to pay"'
    elif "mapping values are not allowed" in problem:
        hint = '; a text containing ": " must be quoted, e.g. text: "Rent: 2 ₽"'
    elif "another document" in problem:
        hint = "; a pnp file holds one YAML document: remove the '---' line"
    elif "found character '@'" in problem or "found character '`'" in problem:
        hint = "; quote values that start with @ or `"
    elif "could not find expected ':'" in problem or "expected <block end>" in problem:
        hint = "; check the indentation of this line against the lines above"
    return f"invalid YAML: {problem}{hint}"
