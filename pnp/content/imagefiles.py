"""The structure of PNG and JPEG files, read the same way by validation (``assets``) and by the
PDF writer (``printing.pdfimage``), so that an image validation accepts is one the build can
embed. Only markers and chunk headers are walked: no pixels are decoded, except the start of a
PNG's compressed data, inflated to prove that it is zlib data.
"""

from __future__ import annotations

import struct
import zlib
from typing import BinaryIO

JPEG_SIGNATURE = b"\xff\xd8\xff"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
# start-of-frame markers: baseline, extended, progressive, lossless, and their variants
_SOF = frozenset((0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF))
# what PDF's DCTDecode reads (and Pillow and qpdf decode): baseline, extended, progressive
_PDF_SOF = frozenset((0xC0, 0xC1, 0xC2))
_SOF_KINDS = {
    0xC3: "lossless",
    **dict.fromkeys((0xC5, 0xC6, 0xC7), "hierarchical"),
    **dict.fromkeys((0xC9, 0xCA, 0xCB), "arithmetic-coded"),
    **dict.fromkeys((0xCD, 0xCE, 0xCF), "hierarchical and arithmetic-coded"),
}
_STANDALONE = frozenset((0x01, 0xD8, *range(0xD0, 0xD8)))  # markers without a length
_TAIL = 1 << 20  # where a JPEG's end marker is looked for: bytes after it are tolerated
_INFLATE_PROBE = 64 * 1024  # bytes of PNG image data inflated (in or out) to check it is zlib


class ImageStructureError(ValueError):
    """The file is not a PNG or JPEG whose structure pnp can embed; the message says why."""


def jpeg_frame(fh: BinaryIO) -> tuple[int, int, int, bool]:
    """(width, height, components, adobe) of a JPEG, from its frame header, which may come
    after any amount of metadata and fill bytes; and proof that the file is not cut short (its
    end marker follows the image data). ``fh`` is at the start of the file."""
    if fh.read(2) != b"\xff\xd8":
        raise ImageStructureError("not a JPEG file")
    adobe = False
    frame: tuple[int, int, int] | None = None
    while True:
        marker = _next_marker(fh)
        if marker in _STANDALONE:
            continue
        if marker == 0xD9:
            raise ImageStructureError("the JPEG ends before its image data")
        raw = fh.read(2)
        if len(raw) < 2:
            raise ImageStructureError("the JPEG is cut short in its headers")
        (length,) = struct.unpack(">H", raw)
        if length < 2:
            raise ImageStructureError(f"a JPEG segment has an impossible length ({length})")
        body_start = fh.tell()
        if marker == 0xEE:
            adobe = adobe or fh.read(5) == b"Adobe"
        elif marker in _SOF:
            if frame is not None:  # decoders disagree on which one holds: none can be trusted
                raise ImageStructureError("the JPEG has two frame headers")
            if marker not in _PDF_SOF:
                raise ImageStructureError(
                    f"the JPEG is {_SOF_KINDS.get(marker, 'of a kind')} (marker SOF"
                    f"{marker - 0xC0}), which PDF readers cannot show; save it as an ordinary "
                    "(baseline or progressive) JPEG or as PNG"
                )
            head = fh.read(6)
            if len(head) < 6:
                raise ImageStructureError("the JPEG is cut short in its frame header")
            _precision, h, w, comps = struct.unpack(">BHHB", head)
            frame = (w, h, comps)
        elif marker == 0xDA:  # start of scan: the image data follows
            if frame is None:
                raise ImageStructureError("the JPEG's image data comes before its frame header")
            _check_jpeg_end(fh, body_start)
            w, h, comps = frame
            if w == 0 or h == 0 or comps not in (1, 3, 4):
                raise ImageStructureError(f"the JPEG frame header is not usable ({w}x{h})")
            return w, h, comps, adobe
        fh.seek(body_start + length - 2)


def _next_marker(fh: BinaryIO) -> int:
    """The next marker's code: one 0xFF, any number of 0xFF fill bytes, then the code."""
    if fh.read(1) != b"\xff":
        raise ImageStructureError("the JPEG's structure is damaged (a marker was expected)")
    while True:
        b = fh.read(1)
        if not b:
            raise ImageStructureError("the JPEG is cut short in its headers")
        if b != b"\xff":
            return b[0]


def _check_jpeg_end(fh: BinaryIO, scan_start: int) -> None:
    """The end marker (FF D9) must follow the start of the image data: a file cut short has
    none there (0xFF inside the entropy-coded data is always followed by 00 or a restart
    marker, so FF D9 cannot occur in it by chance)."""
    size = fh.seek(0, 2)
    start = max(scan_start, size - _TAIL)
    fh.seek(start)
    if fh.read(size - start).rfind(b"\xff\xd9") < 0:
        raise ImageStructureError("the JPEG is cut short: its image data has no end")


def png_check(fh: BinaryIO) -> None:
    """The chunks of a PNG follow each other up to IEND, the file is not cut short, and its
    compressed image data starts as zlib data (inflated until 64 KB come out, or 64 KB went
    in: a flat image inflates a hundredfold, and inflating all of it would cost more than the
    rest of the build does with it); chunk checksums are Pillow's ``verify()``. ``fh`` is at
    the start of the file."""
    if fh.read(8) != PNG_SIGNATURE:
        raise ImageStructureError("not a PNG file")
    inflater = zlib.decompressobj()
    probed = inflated = 0
    while True:
        head = fh.read(8)
        if len(head) < 8:
            raise ImageStructureError("the PNG is cut short (no IEND chunk)")
        length, kind = struct.unpack(">I4s", head)
        if kind == b"IEND":
            if probed == 0:
                raise ImageStructureError("the PNG has no image data (IDAT)")
            return
        if kind == b"IDAT" and probed < _INFLATE_PROBE and inflated < _INFLATE_PROBE:
            body = fh.read(min(length, _INFLATE_PROBE - probed))
            read = len(body)
            try:  # at most what is left of the 64 KB comes out: memory stays bounded
                inflated += len(inflater.decompress(body, _INFLATE_PROBE - inflated))
            except zlib.error as exc:
                raise ImageStructureError(f"the PNG's image data is not zlib data ({exc})") from exc
            probed += max(read, 1)
            fh.seek(length - read + 4, 1)
        elif kind == b"IDAT":
            probed += 1  # there is image data, already probed
            fh.seek(length + 4, 1)
        else:
            fh.seek(length + 4, 1)
