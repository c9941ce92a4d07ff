"""Images into the PDF without re-encoding, read from disk only while the PDF is written.

reportlab decodes every PNG and compresses its pixels again, and keeps them in memory until the
document is saved. pnp instead:

- embeds a JPEG as it is (DCTDecode) and the compressed data of a PNG as it is (FlateDecode with
  the PNG predictors), which is lossless and needs no decoding; PNGs with an alpha channel or
  interlacing are decoded (with Pillow) and compressed once, alpha as a soft mask;
- reads the bytes of each image only when the PDF is written, and writes the PDF straight to its
  file (:func:`save_streaming`), so memory holds about one image at a time, not the whole deck.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

from reportlab.pdfbase.pdfdoc import PDFArray, PDFDictionary, PDFName, PDFObject, PDFStream

from ..compat import reportlab as rl
from ..content.assets import file_digest
from ..content.imagefiles import JPEG_SIGNATURE, PNG_SIGNATURE, jpeg_frame
from ..core.errors import BuildError
from ..core.files import open_regular
from ..core.run import current


def _chunks(data: bytes | memoryview) -> Iterator[tuple[bytes, bytes | memoryview]]:
    """(kind, body) of each chunk of a PNG; given a memoryview, bodies are views (no copy)."""
    pos = len(PNG_SIGNATURE)
    while pos + 8 <= len(data):
        (length, kind) = struct.unpack_from(">I4s", data, pos)
        yield kind, data[pos + 8 : pos + 8 + length]
        pos += 12 + length
        if kind == b"IEND":
            return


def _png_header(path: Path) -> dict[str, Any]:
    """Width, height, bit depth, colour type, interlace, palette and tRNS of a PNG."""
    info: dict[str, Any] = {"palette": None, "trns": False}
    with open(path, "rb") as fh:
        if fh.read(8) != PNG_SIGNATURE:
            raise ValueError("not a PNG")
        while True:
            head = fh.read(8)
            if len(head) < 8:
                break
            length, kind = struct.unpack(">I4s", head)
            if kind == b"IDAT" or kind == b"IEND":
                break
            body = fh.read(length)
            fh.seek(4, 1)  # CRC
            if kind == b"IHDR":
                w, h, depth, ctype, _comp, _filt, interlace = struct.unpack(">IIBBBBB", body)
                info.update(width=w, height=h, depth=depth, ctype=ctype, interlace=interlace)
            elif kind == b"PLTE":
                info["palette"] = body
            elif kind == b"tRNS":
                info["trns"] = True
    return info


def _jpeg_header(path: Path) -> tuple[int, int, int, bool]:
    """(width, height, components, adobe) of a baseline or progressive JPEG."""
    with open_regular(path, "image") as fh:
        return jpeg_frame(fh)


class _HexString(PDFObject):
    def __init__(self, data: bytes) -> None:
        self.data = data

    def format(self, document: Any) -> bytes:
        return b"<" + self.data.hex().encode("ascii") + b">"


class LazyImage(PDFObject):
    """An image XObject whose stream is produced from its file while the PDF is written."""

    def __init__(self, name: str, path: Path) -> None:
        self.name = name
        self.path = path
        self.smask: Any = None
        self.mask = None
        self.kind, self.width, self.height, self._params = self._inspect(path)

    @staticmethod
    def _inspect(path: Path) -> tuple[str, int, int, dict[str, Any]]:
        with open(path, "rb") as fh:
            head = fh.read(8)
        if head.startswith(JPEG_SIGNATURE):
            w, h, comps, adobe = _jpeg_header(path)
            return "jpeg", w, h, {"components": comps, "adobe": adobe}
        info = _png_header(path)
        passthrough = (
            info["interlace"] == 0
            and info["ctype"] in (0, 2, 3)
            and info["depth"] in (1, 2, 4, 8, 16)
            and not info["trns"]
            and not (info["ctype"] == 3 and not info["palette"])
        )
        return ("png" if passthrough else "decode"), info["width"], info["height"], info

    @property
    def has_alpha(self) -> bool:
        return self.kind == "decode" and (
            self._params.get("ctype") in (4, 6) or bool(self._params.get("trns"))
        )

    def _stream(self) -> tuple[list[bytes | memoryview], dict[str, Any]]:
        """The stream's bytes, in pieces, and the dictionary entries of this image."""
        if self.kind == "jpeg":
            comps = self._params["components"]
            jspace = {1: "DeviceGray", 3: "DeviceRGB", 4: "DeviceCMYK"}.get(comps, "DeviceRGB")
            entries: dict[str, Any] = {
                "ColorSpace": PDFName(jspace),
                "BitsPerComponent": 8,
                "Filter": PDFArray([PDFName("DCTDecode")]),
            }
            if comps == 4 and self._params["adobe"]:
                entries["Decode"] = PDFArray([1, 0, 1, 0, 1, 0, 1, 0])
            return [self.path.read_bytes()], entries
        if self.kind == "png":
            p = self._params
            data = memoryview(self.path.read_bytes())
            idat = [body for kind, body in _chunks(data) if kind == b"IDAT"]
            colors = {0: 1, 2: 3, 3: 1}[p["ctype"]]
            if p["ctype"] == 3:
                palette = p["palette"]
                space: Any = PDFArray(
                    [
                        PDFName("Indexed"),
                        PDFName("DeviceRGB"),
                        len(palette) // 3 - 1,
                        _HexString(palette),
                    ]
                )
            else:
                space = PDFName("DeviceGray" if colors == 1 else "DeviceRGB")
            parms = PDFDictionary(
                {
                    "Predictor": 15,
                    "Colors": colors,
                    "BitsPerComponent": p["depth"],
                    "Columns": self.width,
                }
            )
            return idat, {
                "ColorSpace": space,
                "BitsPerComponent": p["depth"],
                "Filter": PDFName("FlateDecode"),  # one filter: its parameters as a dictionary
                "DecodeParms": parms,
            }
        return _decoded(self.path)  # alpha or interlaced PNGs

    def format(self, document: Any) -> bytes:
        pieces, entries = self._stream()
        stream = PDFStream(content=b"")
        d = stream.dictionary
        d["Type"] = PDFName("XObject")
        d["Subtype"] = PDFName("Image")
        d["Width"] = self.width
        d["Height"] = self.height
        for key, value in entries.items():
            d[key] = value
        if self.smask is not None:
            d["SMask"] = self.smask
        stream.filters = ()  # the data is already encoded: no further filters
        return _stream_object(stream, pieces, document)


def _decoded(path: Path) -> tuple[list[bytes | memoryview], dict[str, Any]]:
    """An image the PDF cannot take as it is (alpha, interlaced), decoded to RGB pixels."""
    from PIL import Image

    try:
        with Image.open(path) as im:
            raw = im.convert("RGB").tobytes()
    except (OSError, SyntaxError, ValueError, EOFError, zlib.error) as exc:
        # validation decodes what is decoded here: the file changed since, or Pillow failed
        reason = " ".join(str(exc).split())[:200] or type(exc).__name__
        raise BuildError(
            f"the image {path.name} cannot be decoded ({reason}); run pnp validate, "
            "and export the image again"
        ) from exc
    return [zlib.compress(raw, 6)], {
        "ColorSpace": PDFName("DeviceRGB"),
        "BitsPerComponent": 8,
        "Filter": PDFArray([PDFName("FlateDecode")]),
    }


def _stream_object(stream: PDFStream, pieces: list[bytes | memoryview], document: Any) -> bytes:
    """What ``stream.format(document)`` gives with the pieces as its content. Written by
    :func:`save_streaming`, the pieces go to the file as they are, where a placeholder stands
    in the bytes returned (reportlab would otherwise copy an image's data five times)."""
    held = rl.held_streams(document)
    if held is None or not rl.is_plain(document):
        stream.content = b"".join(pieces)
        return bytes(stream.format(document))
    length = sum(len(piece) for piece in pieces)
    d = PDFDictionary(stream.dictionary.dict.copy())
    d["Length"] = length
    token = held.hold(pieces, length)
    return rl.format_dictionary(d, document) + b"\nstream\n" + token + b"endstream\n"


class LazyAlpha(PDFObject):
    """The soft mask (alpha channel) of a decoded PNG, produced while the PDF is written."""

    def __init__(self, name: str, path: Path, width: int, height: int) -> None:
        self.name = name
        self.path = path
        self.width = width
        self.height = height

    def format(self, document: Any) -> bytes:
        from PIL import Image

        with Image.open(self.path) as im:
            alpha = im.convert("RGBA").getchannel("A").tobytes()
        stream = PDFStream(content=zlib.compress(alpha, 6))
        d = stream.dictionary
        d["Type"] = PDFName("XObject")
        d["Subtype"] = PDFName("Image")
        d["Width"] = self.width
        d["Height"] = self.height
        d["ColorSpace"] = PDFName("DeviceGray")
        d["BitsPerComponent"] = 8
        d["Filter"] = PDFArray([PDFName("FlateDecode")])
        stream.filters = ()
        return stream.format(document)


def draw_image(canvas: Any, path: Path, x: float, y: float, w: float, h: float) -> None:
    """Draw an image file at (x, y) with size (w, h) in points, embedding it once per PDF."""
    st = path.stat()
    key = (str(path), st.st_size, st.st_mtime_ns)
    headers = current().store("printing.image-headers")
    cached = headers.get(key)
    if cached is None:
        name = "pnpimg" + file_digest(path)[:20]  # the same picture twice: embedded once
        cached = (name, LazyImage(name, path))
        headers[key] = cached
    name, template = cached
    doc = rl.document(canvas)
    reg = doc.getXObjectName(name)
    if doc.idToObject.get(reg) is None:
        image = LazyImage.__new__(LazyImage)
        image.__dict__.update(template.__dict__)
        image.smask = None
        rl.register_xobject(canvas, image)
        doc.Reference(image, reg)
        doc.addForm(name, image)
        if image.has_alpha:
            mask = LazyAlpha(name + "a", path, image.width, image.height)
            image.smask = doc.Reference(mask, doc.getXObjectName(mask.name))
    rl.place_xobject(canvas, reg, name, x, y, w, h)


def save_streaming(canvas: Any, sink: BinaryIO) -> None:
    """canvas.save(), but the PDF goes to ``sink`` object by object instead of via memory."""
    rl.saving_to(canvas, sink)
