"""pnp's own catalogs, for maintainers: ``python -m pnp.i18n`` extracts the terminal messages
from the code and the registered sheet words into ``pnp.pot``, and merges it into every
``pnp.po`` (translations kept)."""

from __future__ import annotations

from pathlib import Path

from .catalog import brace_flags, pot_header, read_catalog, write_catalog
from .merge import merge
from .plural import parse_plural_forms
from .po import Catalog, Entry
from .words import LOCALE_DIR, SHEET_WORDS

KEYWORDS = {"tr": None, "gettext_": None}  # terminal messages and the calibration sheet


def template() -> Catalog:
    """pnp.pot: the terminal messages found in the code, then the sheet words."""
    from babel.messages.extract import extract_from_dir

    note = ["pnp's own words: the terminal's and the sheets'.", "Made by `python -m pnp.i18n`."]
    cat = Catalog(header=pot_header("pnp", "", note))
    seen: dict[str, Entry] = {}
    package = Path(__file__).parent.parent
    found = extract_from_dir(str(package), method_map=[("**.py", "python")], keywords=KEYWORDS)
    for filename, lineno, message, _comments, _ctx in found:
        if not isinstance(message, str) or not message:
            continue
        ref = f"pnp/{filename}:{lineno}"
        if message in seen:
            seen[message].references.append(ref)
            continue
        entry = Entry(message, references=[ref], flags=brace_flags(message))
        seen[message] = entry
        cat.entries.append(entry)
    for word in SHEET_WORDS:
        if word.msgid in seen:
            continue
        flags = brace_flags(word.msgid + (word.plural or ""))
        cat.entries.append(
            Entry(word.msgid, msgid_plural=word.plural, extracted=[word.where], flags=flags)
        )
    return cat


def main() -> None:  # pragma: no cover - a maintainer's tool: python -m pnp.i18n
    """Refresh pnp.pot and merge it into every pnp.po (translations are kept)."""
    tmpl = template()
    write_catalog(LOCALE_DIR / "pnp.pot", tmpl)
    for path in sorted(LOCALE_DIR.glob("*/LC_MESSAGES/pnp.po")):
        old = read_catalog(path, str(path))
        plural = parse_plural_forms(old.field("Plural-Forms") or "nplurals=2; plural=(n != 1);")
        merged, _stats = merge(old, tmpl, nplurals=plural.nplurals, by_context=False)
        merged.obsolete = []  # pnp's own catalogs keep no history
        write_catalog(path, merged)
        missing = [e.msgid for e in merged.entries if not e.complete]
        print(f"{path}: {len(missing)} to translate")
        for mid in missing:
            print(f"  {mid!r}")
