"""uharfbuzz, as pnp calls it itself. Written for uharfbuzz 0.50 to 0.57 (capped <0.58).

reportlab shapes text with uharfbuzz (its ``shaping`` extra, through :mod:`.reportlab`), and
guesses each run's direction from its letters as it does so. pnp asks harfbuzz the same
question first (:func:`guessed_rtl`: ``Buffer.add_str``, ``guess_segment_properties`` and
``direction``, all public API), to hand over reversed the runs whose direction the
bidirectional algorithm decided otherwise.
"""

from __future__ import annotations

WRITTEN_FOR = ("0.50", "0.57")


def guessed_rtl(text: str) -> bool:
    """Whether harfbuzz, as reportlab calls it (``guess_segment_properties``), shapes
    ``text`` right to left: it guesses from the script, and guesses Arabic digits wrong."""
    import uharfbuzz

    buf = uharfbuzz.Buffer()
    buf.add_str(text)
    buf.guess_segment_properties()
    return str(buf.direction) == "rtl"
