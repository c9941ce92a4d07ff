"""The PNG writer for faces of flat colours (issue 20): ``export.unfiltered_png``.

Its files are read back by two decoders that share no code with it: Pillow, and libpng (the
PNG reference library, through its "simplified" API, when the machine has it), both pixel for
pixel; each chunk's CRC is checked here by zlib and by both readers, which refuse a file whose
CRC is wrong; the resolution reads back as it does from Pillow's own files. In a build, faces
that art covers keep Pillow's filtering encoder and the others get the unfiltered one.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import io
import random
import struct
import zlib
from pathlib import Path

import pytest
from PIL import Image, ImageDraw, ImageFile, PngImagePlugin, UnidentifiedImageError

from pnp.build.pipeline import BuildOptions, build
from pnp.content.load import open_root
from pnp.core.findings import Report
from pnp.printing.export import PNG_SIGNATURE, png_bytes, unfiltered_png

from helpers import FIXTURES, exports, make_root, needs_tool


def _picture(size: tuple[int, int] = (123, 77), seed: int = 1) -> Image.Image:
    """Flat colours, text, a gradient and a band of noise: every kind of row."""
    w, h = size
    noise = random.Random(seed).randbytes(w * h * 3)
    if min(size) < 16:
        return Image.frombytes("RGB", size, noise)
    im = Image.linear_gradient("L").resize(size).convert("RGB")
    draw = ImageDraw.Draw(im)
    draw.rectangle((2, 2, w // 2, h // 2), fill=(200, 30, 60))
    draw.text((5, 5), "Pay 1 coin", fill=(255, 255, 255))
    im.paste(Image.frombytes("RGB", (w, 3), noise), (0, h - 4))
    return im


def _chunks(data: bytes) -> list[tuple[bytes, bytes, int]]:
    """(type, data, CRC as stored) of each chunk, read by hand."""
    assert data[:8] == PNG_SIGNATURE
    out, at = [], 8
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind, body = data[at + 4 : at + 8], data[at + 8 : at + 8 + length]
        (crc,) = struct.unpack(">I", data[at + 8 + length : at + 12 + length])
        out.append((kind, body, crc))
        at += 12 + length
    assert at == len(data), "nothing after the last chunk"
    return out


def _decoded(data: bytes) -> Image.Image:
    assert not ImageFile.LOAD_TRUNCATED_IMAGES  # Pillow checks the CRCs it reads
    with Image.open(io.BytesIO(data)) as im:
        im.load()
        return im.copy()


# --- libpng, when the machine has it -----------------------------------------------------------
class _PngImage(ctypes.Structure):  # png.h's png_image (libpng 1.6's simplified API)
    _fields_ = [
        ("opaque", ctypes.c_void_p),
        ("version", ctypes.c_uint32),
        ("width", ctypes.c_uint32),
        ("height", ctypes.c_uint32),
        ("format", ctypes.c_uint32),
        ("flags", ctypes.c_uint32),
        ("colormap_entries", ctypes.c_uint32),
        ("warning_or_error", ctypes.c_uint32),
        ("message", ctypes.c_char * 64),
    ]


def _libpng() -> ctypes.CDLL | None:
    name = ctypes.util.find_library("png16") or ctypes.util.find_library("png")
    if name is None:
        return None
    try:
        lib = ctypes.CDLL(name)
        begin, finish = lib.png_image_begin_read_from_memory, lib.png_image_finish_read
    except (OSError, AttributeError):
        return None
    begin.argtypes = [ctypes.POINTER(_PngImage), ctypes.c_char_p, ctypes.c_size_t]
    finish.argtypes = [ctypes.POINTER(_PngImage), ctypes.c_void_p, ctypes.c_void_p]
    finish.argtypes += [ctypes.c_int32, ctypes.c_void_p]
    return lib


LIBPNG = _libpng()
needs_libpng = needs_tool(
    LIBPNG is None, "libpng is not installed (Debian's libpng16-16, which chromium needs)"
)


def _libpng_rgb(data: bytes) -> tuple[tuple[int, int], bytes]:
    """Size and RGB pixels of a PNG, as libpng reads it; ValueError with libpng's message."""
    assert LIBPNG is not None
    image = _PngImage(version=1)  # PNG_IMAGE_VERSION
    if not LIBPNG.png_image_begin_read_from_memory(ctypes.byref(image), data, len(data)):
        raise ValueError(image.message.decode())
    image.format = 2  # PNG_FORMAT_RGB: what the file holds, so nothing is converted
    pixels = ctypes.create_string_buffer(image.width * image.height * 3)
    ok = LIBPNG.png_image_finish_read(ctypes.byref(image), None, pixels, 0, None)
    message = image.message.decode()
    LIBPNG.png_image_free(ctypes.byref(image))
    if not ok:
        raise ValueError(message)
    return (image.width, image.height), pixels.raw


# --- the files ---------------------------------------------------------------------------------
@pytest.mark.parametrize("size", [(1, 1), (123, 77), (744, 1039)])
def test_pillow_reads_the_same_pixels(size: tuple[int, int]) -> None:
    im = _picture(size)
    data = unfiltered_png(im.tobytes(), im.size, 300)
    back = _decoded(data)
    assert back.mode == "RGB" and back.size == im.size
    assert back.tobytes() == im.tobytes()
    assert unfiltered_png(im.tobytes(), im.size, 300) == data  # the same bytes every time


@pytest.mark.parametrize("dpi", [40, 72, 96, 150, 196.85, 206.4, 299.99, 300, 600, 1200])
def test_the_resolution_reads_back_as_from_pillows_files(dpi: float) -> None:
    im = _picture()
    ours = _chunks(unfiltered_png(im.tobytes(), im.size, dpi))
    pillows = _chunks(png_bytes(im, dpi, 1))
    assert [c for c in ours if c[0] == b"pHYs"] == [c for c in pillows if c[0] == b"pHYs"]
    read = _decoded(unfiltered_png(im.tobytes(), im.size, dpi)).info["dpi"]
    assert read == _decoded(png_bytes(im, dpi, 1)).info["dpi"]
    assert read == pytest.approx((dpi, dpi), abs=0.02)


def test_chunks_rows_and_crcs() -> None:
    im = _picture()
    w, h = im.size
    chunks = _chunks(unfiltered_png(im.tobytes(), im.size, 300))
    assert [c[0] for c in chunks] == [b"IHDR", b"pHYs", b"IDAT", b"IEND"]
    for kind, body, crc in chunks:
        assert zlib.crc32(kind + body) == crc, kind
    assert chunks[0][1] == struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)  # 8-bit RGB
    assert chunks[1][1][8] == 1  # pixels per metre
    raw = zlib.decompress(chunks[2][1])
    assert len(raw) == h * (3 * w + 1)
    pixels = im.tobytes()
    for y in range(h):
        row = raw[y * (3 * w + 1) : (y + 1) * (3 * w + 1)]
        assert row[0] == 0, "filter type 0: the row as it is"
        assert row[1:] == pixels[y * 3 * w : (y + 1) * 3 * w]


def test_a_wrong_crc_is_refused() -> None:
    """The readers of the tests above do check CRCs: a file with one wrong is refused."""
    im = _picture()
    data = bytearray(unfiltered_png(im.tobytes(), im.size, 300))
    data[8 + 8 + 13] ^= 1  # IHDR's CRC
    with pytest.raises(UnidentifiedImageError):
        _decoded(bytes(data))
    with pytest.raises(SyntaxError, match="bad header checksum"):  # why, from the PNG reader
        PngImagePlugin.PngImageFile(io.BytesIO(bytes(data)))
    if LIBPNG is not None:
        with pytest.raises(ValueError, match="CRC"):
            _libpng_rgb(bytes(data))


@needs_libpng
@pytest.mark.parametrize("size", [(1, 1), (123, 77), (744, 1039)])
def test_libpng_reads_the_same_pixels(size: tuple[int, int]) -> None:
    im = _picture(size, seed=size[0])
    data = unfiltered_png(im.tobytes(), im.size, 300)
    assert _libpng_rgb(data) == (im.size, im.tobytes())
    idat = data.index(b"IDAT")
    (length,) = struct.unpack(">I", data[idat - 4 : idat])
    broken = bytearray(data)
    broken[idat + 4 + length] ^= 1  # IDAT's CRC
    with pytest.raises(ValueError, match="CRC"):
        _libpng_rgb(bytes(broken))


def test_rows_are_taken_from_a_larger_bitmap() -> None:
    """A face written straight from its page: rows ``stride`` bytes apart, from ``offset``."""
    page = _picture((300, 200), seed=7)
    stride = page.width * 3
    box = (37, 21, 37 + 123, 21 + 77)
    offset = box[1] * stride + box[0] * 3
    data = unfiltered_png(memoryview(page.tobytes()), (123, 77), 300, stride, offset)
    assert _decoded(data).tobytes() == page.crop(box).tobytes()
    if LIBPNG is not None:
        assert _libpng_rgb(data) == ((123, 77), page.crop(box).tobytes())
    with pytest.raises(ValueError, match="hold no"):  # past the end of the bitmap
        unfiltered_png(page.tobytes(), (123, 77), 300, stride, offset + 200 * stride)


# --- in a build: which faces get which writer -------------------------------------------------
def _filters(data: bytes) -> set[int]:
    """The filter types a PNG's rows use."""
    with Image.open(io.BytesIO(data)) as im:
        w, h = im.size
    raw = zlib.decompress(b"".join(body for kind, body, _crc in _chunks(data) if kind == b"IDAT"))
    return {raw[y * (3 * w + 1)] for y in range(h)}


def test_art_keeps_pillows_encoder_and_text_gets_the_fast_one(tmp_path: Path) -> None:
    root = make_root(tmp_path, FIXTURES / "clean")
    game = root / "cards" / "mini"
    (game / "art").mkdir()
    noise = random.Random(3).randbytes(240 * 330 * 3)  # photographic: no two pixels alike
    Image.frombytes("RGB", (240, 330), noise).save(game / "art" / "photo.png")
    _picture((32, 32)).save(game / "art" / "coin.png")
    decks = game / "decks.yaml"
    text = decks.read_text("utf-8").replace(
        "copies: 4\n", "copies: 4\n        art: art/photo.png\n"
    )
    decks.write_text(text, "utf-8")
    spec = game / "game.yaml"
    spec.write_text(spec.read_text("utf-8").replace('{glyph: "₽"}', "{image: art/coin.png}"))
    report = Report()
    opts = BuildOptions(langs=("en",), out_dir=tmp_path / "out", exports=exports(150), jobs=1)
    (out,) = build(open_root(root), ["mini"], opts, report)
    assert not report.errors, report.findings
    pngs = {p.stem: p.read_bytes() for p in out.extra if p.suffix == ".png"}
    assert _filters(pngs["main-alpha-front"]) - {0}, "art: Pillow chose filters for its rows"
    assert _filters(pngs["main-beta-front"]) == {0}, "text and an icon: unfiltered"
    assert _filters(pngs["main-back"]) == {0}
    for name, data in pngs.items():  # every face, either way, is a PNG both readers take
        with Image.open(io.BytesIO(data)) as im:
            assert im.info["dpi"] == pytest.approx((150, 150), abs=0.02), name
            if LIBPNG is not None:
                assert _libpng_rgb(data) == (im.size, im.convert("RGB").tobytes()), name


def test_pillows_writer_keeps_its_own_defaults() -> None:
    """``png_bytes`` without a strategy writes what Pillow writes by itself (the preview's
    files do not change), and with Z_RLE a smaller file of the same pixels for art."""
    im = _picture((200, 150))
    own = io.BytesIO()
    im.save(own, "PNG", dpi=(96, 96), optimize=False, compress_level=6)
    assert png_bytes(im, 96) == own.getvalue()
    photo = Image.frombytes("RGB", (200, 150), random.Random(5).randbytes(200 * 150 * 3))
    photo = photo.resize((800, 600), Image.Resampling.BICUBIC)  # smooth, as a photograph is
    rle = png_bytes(photo, 300, 1, zlib.Z_RLE)
    assert _decoded(rle).tobytes() == photo.tobytes()
    assert len(rle) < len(png_bytes(photo, 300, 1))
