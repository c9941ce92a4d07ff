"""Bringing a catalog up to date with its template, as ``msgmerge --previous`` would, and more.

The result is a fixed point of ``msgmerge --update --previous`` with the same template: every
template entry is in it, with the template's references, notes and format flags; the header is
laid out as msgmerge lays it out (:func:`merged_header`), in UTF-8 as msgmerge writes it;
entries the template lost become obsolete when they hold a translation, and are dropped when
they do not, as GNU does.

A template entry takes, in this order:

1. the catalog's entry with its msgctxt and msgid (active, else obsolete: it comes back);
2. pnp's own rule (pnp's contexts are stable places in a game): the entry with its msgctxt
   alone, when no other template entry has that msgctxt; a changed source keeps its
   translation, marked fuzzy, with the source it was made for in ``#|`` lines, however
   different the new text is;
3. msgmerge's rule, for an entry still without a translation (a card renamed or moved, a deck
   renamed, a catalog that lost its contexts): the translation of the same or the most similar
   source text in any context, active or obsolete (:mod:`.fuzzy`), offered as fuzzy, with the
   context and text it was made for in ``#|`` lines. pnp finds every one msgmerge finds, and of
   equally similar ones prefers the one no other entry took, from the same source line, in the
   most similar context (msgmerge takes the first).

A fuzzy entry whose context and source return to those its translation was made for is
confirmed again (the fuzzy flag and ``#|`` lines go). A translation is never put on another
text without the fuzzy flag.

Nothing a translator wrote is dropped: translations (every plural form), translator comments,
the fuzzy flag and the header fields they filled are carried over.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, replace

from .fuzzy import TextIndex
from .po import Catalog, Entry, Flags, header_field

# header fields msgmerge copies from the template into the catalog
TEMPLATE_FIELDS = ("Report-Msgid-Bugs-To", "POT-Creation-Date")
# the fields msgmerge knows, in the order it writes them; other lines follow, as they were
KNOWN_FIELDS = (
    "Project-Id-Version",
    "Report-Msgid-Bugs-To",
    "POT-Creation-Date",
    "PO-Revision-Date",
    "Last-Translator",
    "Language-Team",
    "Language",
    "MIME-Version",
    "Content-Type",
    "Content-Transfer-Encoding",
)
_CHARSET = re.compile(r"(charset=)\S*", re.IGNORECASE)


def merged_header(header: str, template: str, language: str = "") -> str:
    """The header as msgmerge rewrites it: the fields it knows first, in its order (a field
    given twice: the last one), the template's date and bug address, the charset UTF-8 (the
    file is written in UTF-8), a ``Language`` field after ``Language-Team`` when it had none
    (msgmerge ``--lang=language``), then every other line as it was."""
    known: dict[str, str] = {}
    others: list[str] = []
    for line in header.split("\n"):
        if not line:
            continue
        name = next(
            (f for f in KNOWN_FIELDS if line[: len(f) + 1].lower() == f.lower() + ":"), None
        )
        if name is None:
            others.append(line)
        else:
            known[name] = line
    for name in TEMPLATE_FIELDS:
        value = header_field(template, name)
        if value is not None:
            known[name] = f"{name}: {value}"
    if "Content-Type" in known:
        known["Content-Type"] = _CHARSET.sub(r"\1UTF-8", known["Content-Type"])
    if "Language-Team" in known and "Language" not in known:
        known["Language"] = f"Language: {language}"
    lines = [known[f] for f in KNOWN_FIELDS if f in known] + others
    return "".join(line + "\n" for line in lines)


@dataclass
class MergeStats:
    added: int = 0  # new in the template, not translated yet
    changed: int = 0  # the source changed: the translation is now fuzzy
    revived: int = 0  # came back from the obsolete entries
    matched: int = 0  # found by their text under another context (fuzzy; counted in changed)
    obsolete: int = 0  # translated entries the template no longer has
    dropped: int = 0  # untranslated entries the template no longer has (nothing to keep)


def _forms(entry: Entry, template: Entry, nplurals: int) -> list[str]:
    """The translation's forms shaped for the template entry (singular or ``nplurals`` forms)."""
    if template.msgid_plural is None:
        return [entry.msgstr[0] if entry.msgstr else ""]
    forms = list(entry.msgstr) if entry.msgid_plural is not None else entry.msgstr[:1]
    want = max(nplurals, len(forms), 1)
    return forms + [""] * (want - len(forms))


def _from(old: Entry, template: Entry, nplurals: int) -> Entry:
    """``old``'s translation under ``template``'s source, notes and flags."""
    flags = template.flags.copy()
    flags.fuzzy = old.flags.fuzzy
    shape_changed = (old.msgid_plural is None) != (template.msgid_plural is None)
    new = replace(
        old,
        msgid=template.msgid,
        msgctxt=template.msgctxt,
        msgid_plural=template.msgid_plural,
        msgstr=_forms(old, template, nplurals),
        comments=list(old.comments),
        extracted=list(template.extracted),
        references=list(template.references),
        flags=flags,
        obsolete=False,
        line=0,
        msgstr_line=0,
    )
    if shape_changed and new.translated:
        new.flags.fuzzy = True
    kept = len(new.msgstr) if template.msgid_plural is not None else 1
    for i, form in enumerate(old.msgstr[kept:], kept):
        if form:  # forms the new shape has no room for stay readable, as a comment
            note = f"msgstr[{i}] before the source changed: {form}"
            if note not in new.comments:
                new.comments.append(note)
    return new


def _fresh(template: Entry, nplurals: int) -> Entry:
    forms = [""] * max(nplurals, 2) if template.msgid_plural is not None else [""]
    return replace(
        template,
        msgstr=forms,
        comments=[],
        extracted=list(template.extracted),
        references=list(template.references),
        flags=replace(template.flags.copy(), fuzzy=False),
        line=0,
        msgstr_line=0,
    )


def _retired(old: Entry) -> Entry:
    """``old`` as an obsolete entry, as msgmerge writes one: no references, no notes."""
    return replace(old, obsolete=True, references=[], extracted=[], line=0, msgstr_line=0)


def merge(
    catalog: Catalog,
    template: Catalog,
    *,
    nplurals: int = 2,
    by_context: bool = True,
    language: str = "",
) -> tuple[Catalog, MergeStats]:
    """``catalog`` brought up to date with ``template``; ``catalog`` itself is not changed.

    ``nplurals``: plural forms of the catalog's language (new plural entries get that many).
    ``by_context``: also match an entry by its msgctxt alone (pnp's game catalogs).
    ``language``: the catalog's language, for a header that does not say it.
    """
    stats = MergeStats()
    active = [e for e in catalog.entries if e.msgid or e.msgctxt is not None]
    known = [*active, *catalog.obsolete]
    own = _own_entries(known, template, by_context)
    used = {id(old) for old in own if old is not None}
    revived_ids = {id(e) for e in catalog.obsolete}
    texts: TextIndex | None = None
    header = merged_header(catalog.header.msgstr[0], template.header.msgstr[0], language)
    notes = list(template.header.extracted)  # msgmerge takes the header's notes from the template
    out = Catalog(header=replace(catalog.header, msgstr=[header], extracted=notes))
    for t, old in zip(template.entries, own, strict=True):
        if old is not None and old.key == t.key:
            new = _from(old, t, nplurals)
            if not new.flags.fuzzy:
                new.clear_previous()  # msgmerge keeps #| lines on fuzzy entries only
        elif old is not None and old.translated:
            new = _by_context(old, t, nplurals, stats)
        else:
            # as msgmerge: the translation of the same or a similar text in another context
            texts = texts or TextIndex(known)
            similar = texts.best(t, used)
            if similar is not None:
                new = _by_text(similar, t, nplurals, stats)
                if old is not None:  # an untranslated entry of this context: keep its notes
                    new.comments += [c for c in old.comments if c not in new.comments]
                old = similar
                used.add(id(old))
            elif old is not None:  # untranslated, in the same context: its comments stay
                new = _by_context(old, t, nplurals, stats)
            else:
                out.entries.append(_fresh(t, nplurals))
                stats.added += 1
                continue
        if id(old) in revived_ids:
            stats.revived += 1
        out.entries.append(new)
    out.obsolete = _leftovers(active, catalog.obsolete, used, stats)
    return out, stats


def _own_entries(known: list[Entry], template: Catalog, by_context: bool) -> list[Entry | None]:
    """For each template entry, the catalog's entry with its msgctxt and msgid; else (when
    ``by_context``) one with its msgctxt, if no other template entry has that msgctxt: a
    translated one first, active before obsolete."""
    exact: dict[tuple[str | None, str], Entry] = {}
    for e in known:
        exact.setdefault(e.key, e)  # the active entry wins over an obsolete twin
    contexts = Counter(t.msgctxt for t in template.entries)
    by_ctx: dict[str, Entry] = {}
    if by_context:
        for e in known:
            ctx = e.msgctxt
            if ctx is not None and contexts[ctx] == 1:
                first = by_ctx.get(ctx)
                if first is None or (e.translated and not first.translated):
                    by_ctx[ctx] = e
    out: list[Entry | None] = []
    for t in template.entries:
        old = exact.get(t.key)
        if old is None and t.msgctxt is not None:
            old = by_ctx.get(t.msgctxt)
        out.append(old)
    return out


def _by_context(old: Entry, t: Entry, nplurals: int, stats: MergeStats) -> Entry:
    """``old``'s translation for the template entry ``t``, found by its msgctxt alone: the
    source text changed."""
    new = _from(old, t, nplurals)
    if not old.translated:
        new.flags.fuzzy = False
        new.clear_previous()
    elif old.flags.fuzzy and old.previous_msgid is not None:
        # still waiting for review: keep the source the translation was made for,
        # and confirm it again when the source returns to exactly that text
        back = old.previous_msgid == t.msgid and old.previous_msgctxt in (None, t.msgctxt)
        if back and old.previous_msgid_plural == t.msgid_plural:
            new.flags.fuzzy = False
            new.clear_previous()
    else:
        new.flags.fuzzy = True
        new.previous_msgctxt = old.msgctxt
        new.previous_msgid = old.msgid
        new.previous_msgid_plural = old.msgid_plural
        stats.changed += 1
    return new


def _by_text(old: Entry, t: Entry, nplurals: int, stats: MergeStats) -> Entry:
    """``old``'s translation offered for the template entry ``t`` (the same or a similar text
    in another context): fuzzy, with the context and text it was made for in ``#|`` lines."""
    new = _from(old, t, nplurals)
    made_for = (old.previous_msgctxt, old.previous_msgid, old.previous_msgid_plural)
    if not (old.flags.fuzzy and old.previous_msgid is not None):
        new.previous_msgctxt = old.msgctxt
        new.previous_msgid = old.msgid
        new.previous_msgid_plural = old.msgid_plural
    elif made_for == (t.msgctxt, t.msgid, t.msgid_plural):
        new.flags.fuzzy = False  # back to exactly the place and text it was made for
        new.clear_previous()
        return new
    new.flags.fuzzy = True
    stats.changed += 1
    stats.matched += 1
    return new


def _leftovers(
    active: list[Entry], obsolete: list[Entry], used: set[int], stats: MergeStats
) -> list[Entry]:
    """The obsolete entries of the merged catalog: the entries the template did not take that
    hold a translation (active ones first, then the catalog's obsolete ones)."""
    out = []
    for old in active:
        if id(old) in used:
            continue
        if old.translated:
            out.append(_retired(old))
            stats.obsolete += 1
        else:
            stats.dropped += 1
    for old in obsolete:
        if id(old) not in used and old.translated:
            out.append(_retired(old))
    return out


def fresh_entries(template: Catalog, nplurals: int) -> list[Entry]:
    """The template's entries, untranslated, for a new catalog."""
    return [_fresh(t, nplurals) for t in template.entries]


__all__ = ["Flags", "MergeStats", "fresh_entries", "merge"]
