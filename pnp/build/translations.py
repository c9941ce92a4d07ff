"""Translation progress of games, as `pnp i18n status` shows it: per language, the texts its
sheets print that are translated, fuzzy or missing, and every problem with its file:line —
catalog entries to check, texts that overflow or lack glyphs (from validation), catalogs that
cannot be read."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..content.load import Root
from ..core.errors import PnpError
from ..core.findings import Report
from ..core.rules import GLYPH, OVERFLOW, PO_SYNTAX
from ..i18n.catalog import Problem, read_translations, status
from ..validate import validate
from .pipeline import printed_texts


@dataclass
class Progress:
    rows: list[dict[str, Any]] = field(default_factory=list)  # one per game and language
    broken: list[str] = field(default_factory=list)  # games that cannot be loaded
    unreadable: list[str] = field(default_factory=list)  # "game lang" of unreadable catalogs

    @property
    def failed(self) -> bool:
        return bool(self.broken or self.unreadable)


def translation_progress(root: Root, ids: list[str], report: Report) -> Progress:
    """Validate the games (into ``report``) and count their translations."""
    loaded = validate(root, ids, report)
    out = Progress(broken=[gid for gid in ids if gid not in loaded])
    for gid in ids:
        game = loaded.get(gid)
        if game is None:
            continue
        try:
            printed: set[str] | None = printed_texts(root, game)
        except PnpError:
            printed = None  # validation reports why (fonts)
        translations = read_translations(root, game, Report())
        found = report.for_game(gid)
        for st in status(root, game, translations, printed):
            for f in found:
                kind = {OVERFLOW: "overflow", GLYPH: "glyph"}.get(f.rule)
                if kind is not None and f.lang == st.lang:
                    st.problems.append(Problem(kind, f.pos, f.message))
                elif f.rule == PO_SYNTAX and f.pos.path.startswith(f"locales/{st.lang}/"):
                    st.problems.append(Problem("catalog", f.pos, f.message))
            if st.catalog and not st.readable:
                out.unreadable.append(f"{gid} {st.lang}")
            out.rows.append(_row(gid, st))
    return out


def _row(gid: str, st: Any) -> dict[str, Any]:
    """A language's row; a catalog that cannot be read has no counts (null): what it holds
    is not known."""
    counted = st.counted
    return {
        "game": gid,
        "lang": st.lang,
        "source": st.source,
        "catalog": st.catalog,
        "readable": st.readable,
        "total": st.total,
        "translated": st.translated if counted else None,
        "fuzzy": st.fuzzy if counted else None,
        "missing": st.missing if counted else None,
        "percent": round(st.percent, 1) if st.percent is not None else None,
        "fallbacks": st.fuzzy + st.missing if counted else None,
        "overflow": st.count("overflow"),
        "missing_glyphs": st.count("glyph"),
        "problems": [p.as_json() for p in st.problems],
    }
