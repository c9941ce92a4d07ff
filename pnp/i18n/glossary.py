"""A catalog's glossary: the translations a translator chose for recurring terms.

It lives in the catalog itself, among the translator comments of its header entry (the
comments above ``msgid ""``), one term a line::

    # glossary: Coin = Münze
    # glossary: Alpha = Alpha

The header's comments go wherever the catalog goes (Poedit, Weblate, msgmerge, msgcat and
``pnp i18n update`` keep them), and the translator who writes the catalog writes them. The
rule ``inconsistent-term`` reads them: a term translated another way is a warning that points
to the glossary line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

LINE = re.compile(r"#[ \t]*glossary[ \t]*:(.*)$", re.IGNORECASE)


@dataclass(frozen=True)
class Term:
    """A glossary line: ``term`` (source language) is written ``translation``; ``problem``
    when the line cannot be read (no ``=``, an empty side)."""

    line: int
    term: str
    translation: str
    problem: str = ""


def read_glossary(text: str, header_line: int) -> list[Term]:
    """The glossary lines among the comments right above the header's ``msgid ""`` at
    ``header_line`` (0: the catalog has no header, so no glossary)."""
    lines = text.splitlines()
    found: list[Term] = []
    number = header_line - 1
    while 0 < number <= len(lines) and lines[number - 1].lstrip().startswith("#"):
        line = lines[number - 1].strip()
        match = LINE.match(line)
        if match and not line.startswith(("#.", "#:", "#,", "#|", "#~")):
            found.append(_term(number, match.group(1)))
        number -= 1
    return found[::-1]


def _term(line: int, body: str) -> Term:
    term, eq, translation = body.partition("=")
    term, translation = term.strip(), translation.strip()
    if not eq or not term or not translation:
        shown = term or "TERM"
        return Term(
            line,
            term,
            translation,
            f"this glossary line has no term and translation: write it "
            f"`# glossary: {shown} = ITS TRANSLATION`",
        )
    return Term(line, term, translation)
