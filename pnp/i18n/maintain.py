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

# terminal messages (with plural forms: ngettext) and the calibration sheet
KEYWORDS = {"tr": None, "gettext_": None, "ngettext": (1, 2)}


def template() -> Catalog:
    """pnp.pot: the terminal messages found in the code, then the sheet words."""
    from babel.messages.extract import extract_from_dir

    note = ["pnp's own words: the terminal's and the sheets'.", "Made by `python -m pnp.i18n`."]
    cat = Catalog(header=pot_header("pnp", "", note))
    seen: dict[str, Entry] = {}
    package = Path(__file__).parent.parent
    found = extract_from_dir(str(package), method_map=[("**.py", "python")], keywords=KEYWORDS)
    for filename, lineno, found_message, _comments, _ctx in found:
        message, plural = _forms(found_message)
        if not message:
            continue
        ref = f"pnp/{filename}:{lineno}"
        if message in seen:
            seen[message].references.append(ref)
            continue
        flags = brace_flags(message + (plural or ""))
        entry = Entry(message, msgid_plural=plural, references=[ref], flags=flags)
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


def _forms(message: object) -> tuple[str, str | None]:
    """A message babel found: ``tr("...")`` gives a text, ``ngettext("...", "...", n)`` a
    tuple of its two English forms; anything else (a name, not a literal) is skipped."""
    if isinstance(message, str):
        return message, None
    if isinstance(message, tuple) and len(message) >= 2:
        one, other = message[0], message[1]
        if isinstance(one, str) and isinstance(other, str):
            return one, other
    return "", None


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
