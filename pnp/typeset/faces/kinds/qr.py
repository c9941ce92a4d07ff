"""QR codes: a text (a web address: the rules, a video) encoded by segno and drawn as vector
squares, the largest square the box holds, with a quiet zone of light modules around it."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ....content.model import Element
from ....core.rules import SCHEMA
from ....core.units import pt
from ...layout import rl_color as color
from ..colours import is_template
from ..ops import Box, Ink, Op, Operation, Surface
from ..paint import faded
from .base import Layouter, Placed
from .box import Box as BoxKind
from .box import box_ops, grouped

if TYPE_CHECKING:
    from ..values import FaceCtx

QUIET = 2  # light modules around the code (scanners read it on a light ground)
MAX_QR_CHARS = 2000


def encode(text: str, level: str) -> list[bytearray]:
    """The modules of ``text``'s QR code (rows of 1 dark, 0 light); ValueError when the
    text is too long for a QR code at this error correction level."""
    import segno

    return list(segno.make(text, error=level.lower(), micro=False, boost_error=False).matrix)


def too_long(text: str, level: str) -> str | None:
    """What to do when ``text`` cannot be a QR code at ``level``, else None."""
    if len(text) > MAX_QR_CHARS:
        return f"a QR code holds at most {MAX_QR_CHARS} characters here; shorten the text"
    try:
        encode(text, level)
    except ValueError:
        return (
            f"the text is too long for a QR code at qr_level {level}: shorten it or lower qr_level"
        )
    return None


@dataclass
class QrOp(Operation):
    """A QR code: its dark modules as squares, merged along each row."""

    box: Box  # the square the code and its quiet zone fill
    rows: list[bytearray]
    color: str
    rotate: float = 0.0

    def draw(self, s: Surface) -> None:
        c = s.canvas
        x, y, side, _ = self.box
        n = len(self.rows) + 2 * QUIET
        module = side / n
        p = c.beginPath()
        for r, row in enumerate(self.rows):
            top = y + (r + QUIET) * module
            start = None
            for k, dark in enumerate([*row, 0]):
                if dark and start is None:
                    start = k
                elif not dark and start is not None:
                    left = x + (start + QUIET) * module
                    p.rect(pt(left), pt(s.face_h - top - module), pt((k - start) * module),
                           pt(module))  # fmt: skip
                    start = None
        with faded(c, self.opacity):
            c.setFillColor(color(self.color))
            c.drawPath(p, stroke=0, fill=1)

    def ink(self) -> Ink:
        return [(self.box, 1.0)]


class Qr(BoxKind):
    """A QR code of a text (a web address), the largest square its box holds."""

    key = "qr"
    noun = "QR code"

    def describe(self, el: Element) -> str:
        return "QR code"

    def covers(self, el: Element) -> bool:
        return True

    def templates(self, el: Element) -> list[str]:
        return [el.qr] if el.qr and is_template(el.qr) else []

    def face_findings(self, p: Placed) -> Iterator[tuple[str, str]]:
        """A written text that no QR code can hold (a template's: the engine, per card)."""
        text = p.el.qr
        if text and not is_template(text) and (problem := too_long(text, p.el.qr_level)):
            yield SCHEMA, f"{p.named}: {problem}"

    def in_box(self, el: Element, box: Box, fc: FaceCtx, eng: Layouter) -> Op | None:
        """The box's fill and outline, and the code in ``color`` (black unless given: a
        style's text colour may be light), centred in the largest square the box holds."""
        assert el.qr is not None
        text = eng.render(el, "qr", el.qr, fc) if is_template(el.qr) else el.qr
        ops = box_ops(el, box, fc, eng)
        text = (text or "").strip()
        if not text:
            return grouped(ops)
        problem = too_long(text, el.qr_level)
        if problem is not None:
            if is_template(el.qr) and eng.first("qr", str(el.at("qr")), text):
                message = f"qr: {el.qr!r} gives {text[:60]!r}: {problem}"
                eng.issues.append(eng.issue(SCHEMA, el.at("qr"), message, lang=False))
            return grouped(ops)
        x, y, bw, bh = box
        side = min(bw, bh)
        square = (x + (bw - side) / 2, y + (bh - side) / 2, side, side)
        ink = eng.paint(el, "color", fc, "#000000") or "#000000"  # dark, whatever the style
        ops.append(QrOp(square, encode(text, el.qr_level), ink))
        return grouped(ops)
