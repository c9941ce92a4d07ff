"""pnp: print-and-play content generator (multilingual YAML -> validated, printable PDFs)."""

__version__ = "0.1.0"
