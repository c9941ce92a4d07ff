"""Terms: one source term translated one way in a catalog (rule ``inconsistent-term``).

Two findings, both warnings at the msgstr line a translator edits:

- **the same source text translated two ways**: entries with the same msgid (and plural) in
  different contexts, a card's title and a table column naming it, whose translations differ
  (ignoring case and surrounding spaces). The translation most entries use is taken as the
  chosen one (the first in the file on a tie), and each other is reported naming it;
- **a term missing from a translation**: a term is a name, the whole msgid of a ``title`` or
  ``name`` entry of one to three words (a card, deck, token or column title), or a glossary
  term. Where its source words appear, as whole words, in another entry's msgid, that entry's
  translation should hold the term's translation. To spare inflected forms (Polish *Moneta*,
  *Monety*), a word of the translation counts as present when the msgstr holds it anywhere, or
  holds a word beginning with its first letters (all but the last two, at least three).

The catalog's glossary (``# glossary: TERM = TRANSLATION`` among the header's comments, see
:mod:`pnp.i18n.glossary`) settles a term: its translation is the chosen one, and each finding
about it points to the glossary line. Only confirmed translations (not fuzzy, not empty) count.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from ..content.model import Game
from ..core.findings import Pos
from ..core.rules import INCONSISTENT_TERM
from ..i18n.catalog import LangCatalog
from ..i18n.glossary import Term
from ..i18n.po import Entry
from .context import CheckContext, check

TOKEN = re.compile(r"\w+")
NAME_FIELDS = ("title", "name")  # the last part of a context whose msgid is a name
MAX_NAME_WORDS = 3
SHOWN = 3  # terms named in one finding


@dataclass
class Chosen:
    """A term's translation and where it was chosen (the glossary line, or an entry)."""

    term: str
    words: tuple[str, ...]  # the term's source words
    translation: str
    where: Pos
    glossary: bool = False


@dataclass
class Catalog:
    """One catalog's confirmed entries, grouped by source text."""

    cat: LangCatalog
    by_source: dict[tuple[str, str | None], list[Entry]] = field(default_factory=dict)
    glossary: dict[str, Term] = field(default_factory=dict)


@check
def inconsistent_terms(game: Game, ctx: CheckContext) -> None:
    """Each catalog: a source text translated two ways, a term missing from a translation."""
    for lang, cat in sorted(ctx.catalogs.items()):
        if lang == game.source_language:
            continue
        book = _read(cat, ctx)
        chosen = _same_source(book, ctx)
        _terms_inside(book, chosen, ctx)


def _read(cat: LangCatalog, ctx: CheckContext) -> Catalog:
    book = Catalog(cat)
    for entry in sorted(cat.entries.values(), key=lambda entry: entry.line):
        if entry.complete and entry.msgid:
            book.by_source.setdefault((entry.msgid, entry.msgid_plural), []).append(entry)
    for term in cat.glossary:
        pos = Pos(cat.rel, term.line, 1)
        if term.problem:
            ctx.add(INCONSISTENT_TERM, pos, term.problem, cat.lang)
        elif term.term in book.glossary:
            first = book.glossary[term.term]
            ctx.add(
                INCONSISTENT_TERM,
                pos,
                f"the glossary names {term.term!r} twice (line {first.line} too): keep one line",
                cat.lang,
            )
        else:
            book.glossary[term.term] = term
    return book


def _norm(text: str) -> str:
    return " ".join(text.split()).casefold()


def _same_source(book: Catalog, ctx: CheckContext) -> dict[str, Chosen]:
    """Entries of one source text translated two ways; the chosen translation of each term."""
    cat = book.cat
    chosen: dict[str, Chosen] = {}
    for (msgid, _plural), entries in book.by_source.items():
        settled = book.glossary.get(msgid)
        if settled is not None:
            pick = Chosen(msgid, _words(msgid), settled.translation, _at(cat, settled), True)
            off = [e for e in entries if not _holds(" ".join(e.msgstr), pick.translation)]
        else:
            counts = Counter(tuple(_norm(s) for s in e.msgstr) for e in entries)
            best = max(counts.values())
            first = next(e for e in entries if counts[tuple(_norm(s) for s in e.msgstr)] == best)
            pick = Chosen(msgid, _words(msgid), first.msgstr[0], cat.pos(first))
            want = tuple(_norm(s) for s in first.msgstr)
            off = [e for e in entries if tuple(_norm(s) for s in e.msgstr) != want]
        chosen[msgid] = pick
        for entry in off:
            ctx.add(INCONSISTENT_TERM, cat.pos(entry), _two_ways(pick, entry), cat.lang)
    for term, line in book.glossary.items():
        chosen.setdefault(term, Chosen(term, _words(term), line.translation, _at(cat, line), True))
    return chosen


def _at(cat: LangCatalog, term: Term) -> Pos:
    return Pos(cat.rel, term.line, 1)


def _line(pos: Pos) -> str:
    """Where in the same catalog: its line."""
    return f"line {pos.line}"


def _two_ways(pick: Chosen, entry: Entry) -> str:
    here = entry.msgstr[0]
    if pick.glossary:
        return (
            f"{pick.term!r} is translated {here!r} here, but the glossary "
            f"({_line(pick.where)}) says {pick.translation!r}: write that, or change the glossary"
        )
    return (
        f"{pick.term!r} is translated two ways in this catalog: {here!r} here, "
        f"{pick.translation!r} at {_line(pick.where)}: write one of them in both, or settle it "
        f"with a line `# glossary: {pick.term} = ...` among the header's comments"
    )


def _words(text: str) -> tuple[str, ...]:
    return tuple(TOKEN.findall(text))


def _is_name(entry: Entry) -> bool:
    """A msgid that is a name of its own: a title or name of one to three words."""
    field_name = (entry.msgctxt or "").rsplit("/", 1)[-1]
    words = _words(entry.msgid)
    return (
        field_name in NAME_FIELDS
        and entry.msgid_plural is None
        and 0 < len(words) <= MAX_NAME_WORDS
        and any(len(w) >= 3 and not w.isdigit() for w in words)
        and not any(c in entry.msgid for c in "{}*[]<>")
    )


def _terms_inside(book: Catalog, chosen: dict[str, Chosen], ctx: CheckContext) -> None:
    """Entries whose source holds a term and whose translation does not hold its."""
    names = {
        msgid for (msgid, _p), entries in book.by_source.items() if any(map(_is_name, entries))
    }
    by_first: dict[str, list[Chosen]] = {}
    for name in sorted(names | set(book.glossary)):
        term = chosen.get(name)
        if term is not None and term.words:
            by_first.setdefault(_key(term.words[0], term.glossary), []).append(term)
    for terms in by_first.values():
        terms.sort(key=lambda t: -len(t.words))  # the longest first: "Public Safety", "Safety"
    cat = book.cat
    for (msgid, plural), entries in book.by_source.items():
        words = _words(msgid + " " + (plural or ""))
        found = _found_terms(words, by_first, msgid)
        for entry in entries:
            missing = [t for t in found if not _holds(" ".join(entry.msgstr), t.translation)]
            if missing:
                ctx.add(INCONSISTENT_TERM, cat.pos(entry), _absent(missing), cat.lang)


def _key(word: str, glossary: bool) -> str:
    """How a term's word is looked up: a name as written (``Local`` is not ``local``); a
    glossary term with its first letter in either case (``Coin`` starting a sentence or
    not)."""
    return word[:1].lower() + word[1:] if glossary else word


def _found_terms(
    words: tuple[str, ...], by_first: dict[str, list[Chosen]], msgid: str
) -> list[Chosen]:
    """The terms whose words appear in ``words``, the longest at each place; a term inside a
    longer one found there is not counted."""
    found: dict[str, Chosen] = {}
    i = 0
    while i < len(words):
        step = 1
        candidates = [*by_first.get(words[i], ()), *by_first.get(_key(words[i], True), ())]
        for term in sorted(candidates, key=lambda t: -len(t.words)):
            size = len(term.words)
            here = words[i : i + size]
            if len(here) == size and all(
                _key(a, term.glossary) == _key(b, term.glossary)
                for a, b in zip(here, term.words, strict=True)
            ):
                if term.term != msgid:
                    found.setdefault(term.term, term)
                step = size
                break
        i += step
    return list(found.values())


def _holds(msgstr: str, translation: str) -> bool:
    """Whether a translation holds a term's translation, inflected or not."""
    text = _norm(msgstr)
    want = _norm(translation)
    if want in text:
        return True
    have = _words(text)
    for word in _words(want):
        stem = word if len(word) < 4 else word[: max(3, len(word) - 2)]
        if word not in text and not any(w.startswith(stem) for w in have):
            return False
    return True


def _absent(missing: list[Chosen]) -> str:
    shown = missing[:SHOWN]
    parts = [
        f"{t.term!r} ({'the glossary' if t.glossary else 'translated'} {t.translation!r} "
        f"at {_line(t.where)})"
        for t in shown
    ]
    more = f" and {len(missing) - SHOWN} more" if len(missing) > SHOWN else ""
    return (
        f"the source text names {', '.join(parts)}{more}, and this translation does not: "
        "write the same translation here (any inflection of it), or settle the term with a "
        "`# glossary:` line among the header's comments"
    )
