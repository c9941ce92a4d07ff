"""``python -m pnp.i18n``: refresh pnp's own catalogs (a maintainer's tool, see words.main)."""

from .words import main

main()
