"""How many source-language words a fully translated PDF still prints.

Every entry of a game's catalog for a language is filled with a marked translation: each word
of the source text becomes ``ß`` + the word reversed (placeholders, icons and markup kept), so
a translated word can never be mistaken for a source word. The PDF is built, its text
extracted, and every word of it that is not a marked one is counted: it came from no catalog
entry (a layout template, a code, a word of pnp's that the catalog does not hold). Numbers are
not words; names can be left aside with ``names``.

    python tests/source_words.py [GAME...]     # the counts and the words, per game
"""

from __future__ import annotations

import re
import shutil
import sys
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
WORD = re.compile(r"[^\W\d_]{2,}")
# what a translation keeps as it is: {placeholders}, {{ fields }}, spans' {attributes}
KEEP = re.compile(r"\{\{.*?\}\}|\{[^{}]*\}")


def mark(text: str) -> str:
    """The marked translation of a source text."""
    out, last = [], 0
    for m in KEEP.finditer(text):
        out.append(WORD.sub(lambda w: "ß" + w.group(0)[::-1], text[last : m.start()]))
        out.append(m.group(0))
        last = m.end()
    out.append(WORD.sub(lambda w: "ß" + w.group(0)[::-1], text[last:]))
    return "".join(out)


def fill_catalog(root: Path, game: str, lang: str) -> int:
    """``pnp i18n init`` a catalog and fill every entry; the number of entries."""
    from typer.testing import CliRunner

    from pnp.cli.commands import app
    from pnp.i18n.catalog import read_catalog, write_catalog

    result = CliRunner().invoke(app, ["i18n", "init", game, lang, "--root", str(root)])
    assert result.exit_code == 0, result.output
    path = root / "locales" / lang / "LC_MESSAGES" / f"{game}.po"
    cat = read_catalog(path, path.name)
    for e in cat.entries:
        if e.msgid_plural is None:
            e.msgstr = [mark(e.msgid)]
        else:
            e.msgstr = [mark(e.msgid)] + [mark(e.msgid_plural)] * (len(e.msgstr) - 1)
        e.flags.fuzzy = False
    write_catalog(path, cat)
    return len(cat.entries)


def pdf_words(pdf: Path) -> list[str]:
    from pypdf import PdfReader

    text = "\n".join(page.extract_text() or "" for page in PdfReader(pdf).pages)
    text = re.sub(r"(?<=[^\W\d_])[-\u2010\u00ad]\n\s*(?=[^\W\d_])", "", text)  # hyphenated
    return WORD.findall(text)


def measure(
    work: Path, game: str, lang: str = "de", names: frozenset[str] = frozenset()
) -> tuple[int, Counter[str]]:
    """Build ``game`` in ``lang`` with every entry filled: (entries, words printed that no
    catalog entry gave: every word not marked, but ``names``)."""
    from typer.testing import CliRunner

    from pnp.cli.commands import app

    root = work / game
    if root.exists():
        shutil.rmtree(root)
    (root / "cards").mkdir(parents=True)
    shutil.copytree(REPO / "cards" / game, root / "cards" / game)
    if (REPO / "fonts").is_dir():
        shutil.copytree(REPO / "fonts", root / "fonts")
    entries = fill_catalog(root, game, lang)
    # the language's code (page labels) and its month names (CLDR, in the date of page 1)
    from babel.dates import get_month_names

    localised = {lang, *get_month_names("wide", locale=lang).values()}
    result = CliRunner().invoke(app, ["build", game, "--lang", lang, "--root", str(root)])
    assert result.exit_code == 0, result.output
    left = Counter(
        w
        for w in pdf_words(root / "output" / game / f"{game}-{lang}-a4.pdf")
        if not w.startswith("ß") and w not in names and w not in localised
    )
    return entries, left


def main(games: list[str]) -> None:  # pragma: no cover - a measuring tool
    import tempfile

    games = games or sorted(p.name for p in (REPO / "cards").iterdir() if p.is_dir())
    with tempfile.TemporaryDirectory() as tmp:
        for game in games:
            entries, left = measure(Path(tmp), game)
            print(f"{game}: {entries} entries filled, {sum(left.values())} source words printed")
            for word, n in left.most_common():
                print(f"  {n:4d} {word}")


if __name__ == "__main__":  # pragma: no cover
    sys.path.insert(0, str(REPO))
    main(sys.argv[1:])
