"""Build: validate, plan, render every requested PDF, write them all atomically."""

from .pipeline import BuildOptions, Output, build, printed_texts

__all__ = ["BuildOptions", "Output", "build", "printed_texts"]
