"""``python -m pnp.i18n``: refresh pnp's own catalogs (a maintainer's tool)."""

from .maintain import main

main()
