"""A game's gettext catalogs: the template, new catalogs, updates, reading them, progress.

Files: ``locales/<game>.pot`` (the template) and ``locales/<lang>/LC_MESSAGES/<game>.po``.
Each entry's msgctxt is the text's stable place in the game (``decks/roles/cards/boss/title``),
so entries follow their card when the source text changes; pnp's own sheet words join under the
context ``pnp``. Files are laid out as GNU gettext writes them (:mod:`pnp.i18n.po`), checked as
``msgfmt -c`` checks them (:mod:`pnp.i18n.pocheck`) and merged as ``msgmerge --previous`` merges
them (:mod:`pnp.i18n.merge`). A catalog that cannot be read as it declares is refused and left
unchanged by every command; every write goes through a temporary file and a rename.

The modules: :mod:`.files` (paths, reading and writing safely), :mod:`.pot` (the template and
the headers), :mod:`.commands` (extract, init, update), :mod:`.translations` (catalogs as builds
and checks use them), :mod:`.progress` (status).
"""

from ...core.rules import PO_CONFLICT, PO_SYNTAX, PO_WARNING
from ..plural import PluralError
from ..po import python_codec
from .commands import UpdateResult, extract, init, update
from .files import (
    MAX_CATALOG_BYTES,
    CatalogError,
    Loaded,
    catalog_languages,
    load_catalog,
    po_path,
    pot_path,
    read_bytes,
    read_catalog,
    write_catalog,
)
from .pot import brace_flags, game_words, po_header, pot_header, template
from .progress import LangStatus, Problem, status
from .translations import SEP, LangCatalog, Translations, key_of, read_translations

__all__ = [
    "MAX_CATALOG_BYTES",
    "PO_CONFLICT",
    "PO_SYNTAX",
    "PO_WARNING",
    "SEP",
    "CatalogError",
    "LangCatalog",
    "LangStatus",
    "Loaded",
    "PluralError",
    "Problem",
    "Translations",
    "UpdateResult",
    "brace_flags",
    "catalog_languages",
    "extract",
    "game_words",
    "init",
    "key_of",
    "load_catalog",
    "po_header",
    "po_path",
    "pot_header",
    "pot_path",
    "python_codec",
    "read_bytes",
    "read_catalog",
    "read_translations",
    "status",
    "template",
    "update",
    "write_catalog",
]
