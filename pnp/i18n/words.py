"""pnp's own words on sheets and in the terminal, translated with gettext catalogs.

The catalogs live in pnp/locale/<lang>/LC_MESSAGES/pnp.po and are read with babel; sheet words
follow the build language, terminal messages the user's locale (LC_ALL, LC_MESSAGES, LANG).
"""

from __future__ import annotations

import functools
import os
from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po

LOCALE_DIR = Path(__file__).parent / "locale"


@functools.lru_cache(maxsize=32)
def _catalog(lang: str) -> dict[str, str]:
    for code in (lang, lang.split("_")[0]):
        po = LOCALE_DIR / code / "LC_MESSAGES" / "pnp.po"
        if po.is_file():
            with po.open("rb") as fh:
                cat = read_po(fh, locale=code)
            return {
                str(m.id): str(m.string)
                for m in cat
                if m.id and isinstance(m.id, str) and m.string and not m.fuzzy
            }
    return {}


def gettext(message: str, lang: str) -> str:
    """``message`` in ``lang`` when pnp has a translation, else as written (English)."""
    return _catalog(lang).get(message, message)


def terminal_language() -> str:
    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = os.environ.get(var, "")
        if value and value not in ("C", "POSIX") and not value.startswith("C."):
            return value.split(".")[0].split(":")[0]
    return "en"


def tr(message: str) -> str:
    """A terminal message in the user's language."""
    return gettext(message, terminal_language())


KEYWORDS = {"w": None, "gettext": None, "gettext_": None, "tr": None}


def extract_template() -> Any:
    """pnp's own words, extracted from the source with babel (the pnp.pot template)."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract_from_dir

    cat = Catalog(project="pnp", msgid_bugs_address="", fuzzy=False)
    package = Path(__file__).parent.parent
    for filename, lineno, message, comments, _ctx in extract_from_dir(
        str(package), method_map=[("**.py", "python")], keywords=KEYWORDS
    ):
        if isinstance(message, str) and message:
            cat.add(message, locations=[(f"pnp/{filename}", lineno)], auto_comments=comments)
    return cat


def main() -> None:  # pragma: no cover - a maintainer's tool: python -m pnp.words
    """Refresh pnp/locale/pnp.pot and merge it into every pnp.po (translations are kept)."""
    import io

    from babel.messages.pofile import write_po

    tmpl = extract_template()
    buf = io.BytesIO()
    write_po(buf, tmpl, width=100, omit_header=False)
    (LOCALE_DIR / "pnp.pot").write_bytes(buf.getvalue())
    for po in sorted(LOCALE_DIR.glob("*/LC_MESSAGES/pnp.po")):
        with po.open("rb") as fh:
            cat = read_po(fh, locale=po.parent.parent.name)
        cat.update(tmpl, no_fuzzy_matching=True)
        out = io.BytesIO()
        write_po(out, cat, width=100, ignore_obsolete=True)
        po.write_bytes(out.getvalue())
        missing = [m.id for m in cat if m.id and (not m.string or m.fuzzy)]
        print(f"{po}: {len(missing)} to translate")
        for mid in missing:
            print(f"  {mid!r}")


if __name__ == "__main__":  # pragma: no cover
    main()
