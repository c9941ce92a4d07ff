"""pnp's own words on sheets and in the terminal, translated with gettext catalogs.

The catalogs live in pnp/locale/<lang>/LC_MESSAGES/pnp.po and are read with babel; sheet words
follow the build language, terminal messages the user's locale (LC_ALL, LC_MESSAGES, LANG).
"""

from __future__ import annotations

import functools
import os
from pathlib import Path

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
