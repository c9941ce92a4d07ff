"""The `pnp` command."""

from .commands import app, main

__all__ = ["app", "main"]
