"""svglib, as pnp uses it. Written for svglib 2.3 (capped <2.4).

- ``svglib.svglib.SvgRenderer`` is given an lxml tree pnp parsed and checked itself
  (:mod:`pnp.content.svgfiles`), never a file to open: svglib's own loader would resolve
  entities only if asked, but its renderer opens any file an ``href`` names relative to the
  SVG. The source it is given is an empty in-memory stream, which makes it refuse every
  external reference (it resolves them only against a file system path), on top of pnp's
  own refusal of them;
- its font lookup (``fontconfig``, started as a process) is never reached: pnp refuses SVGs
  with text;
- its logger is silenced: what it would warn about (unsupported features) must not reach a
  user's terminal as stray lines; what pnp refuses is a finding instead.
"""

from __future__ import annotations

import io
import logging
from typing import Any

WRITTEN_FOR = ("2.3", "2.3")


def svg_drawing(root: Any) -> Any:
    """A reportlab Drawing of a checked SVG tree (its vector paths, gradients, clips), in
    the SVG's own size (CSS pixels read as points: callers scale it to where it goes)."""
    from svglib.svglib import SvgRenderer

    logging.getLogger("svglib").setLevel(logging.CRITICAL + 1)
    return SvgRenderer(io.BytesIO()).render(root)
