"""The internals of other libraries that pnp relies on, behind one wall: one module per library.

Everything here uses a private name or changes a library's setting, or (harfbuzz.py) calls a
library pnp otherwise reaches only through another; nothing else in pnp does.
Each module says which versions it was written for; pyproject.toml caps those libraries below
the next version, and tests/test_compat.py fails loudly, naming the library, when an upgrade
changes what these modules rely on.

One module is no library's: :mod:`.uax9`, the bidirectional algorithm's levels, which
python-bidi's public API does not give (:mod:`.bidi` hands them out beside its mirror table).
"""
