"""Images go into the PDF unchanged (lossless) and come out pixel for pixel."""

from __future__ import annotations

import io
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageChops
from reportlab.pdfgen.canvas import Canvas

from pnp.printing.pdfimage import LazyImage, draw_image, save_streaming


def _picture(mode: str, size=(60, 40)) -> Image.Image:
    im = Image.new("RGB", size)
    px = im.load()
    for x in range(size[0]):
        for y in range(size[1]):
            px[x, y] = ((x * 37) % 256, (y * 53) % 256, ((x + y) * 17) % 256)
    if mode == "RGBA":
        im = im.convert("RGBA")
        im.putalpha(Image.linear_gradient("L").resize(size))
        return im
    if mode == "P":
        return im.convert("P", palette=Image.Palette.ADAPTIVE, colors=64)
    return im.convert(mode)


def _render(path: Path, size: tuple[int, int]) -> Image.Image:
    buf = io.BytesIO()
    canvas = Canvas(buf, pagesize=size, invariant=1)
    draw_image(canvas, path, 0, 0, size[0], size[1])
    canvas.showPage()
    save_streaming(canvas, buf)
    doc = pdfium.PdfDocument(buf.getvalue())
    page = doc[0]
    image = page.render(scale=1.0, may_draw_forms=True).to_pil().convert("RGB")
    page.close()
    doc.close()
    return image


@pytest.mark.parametrize(
    ("mode", "kind", "fmt"),
    [
        ("RGB", "png", "PNG"),
        ("L", "png", "PNG"),
        ("P", "png", "PNG"),
        ("RGBA", "decode", "PNG"),
        ("RGB", "jpeg", "JPEG"),
        ("L", "jpeg", "JPEG"),
    ],
)
def test_images_round_trip(tmp_path: Path, mode: str, kind: str, fmt: str) -> None:
    picture = _picture(mode)
    path = tmp_path / f"art.{fmt.lower()}"
    picture.save(path, fmt, quality=95)
    image = LazyImage("x", path)
    assert image.kind == kind and (image.width, image.height) == picture.size
    shown = _render(path, picture.size)
    expected = Image.open(path).convert("RGBA" if mode == "RGBA" else "RGB")
    if mode == "RGBA":  # composited on white
        white = Image.new("RGBA", expected.size, "white")
        expected = Image.alpha_composite(white, expected)
    diff = ImageChops.difference(shown, expected.convert("RGB"))
    worst = max(band[1] for band in diff.getextrema())
    assert worst <= (2 if fmt == "PNG" else 8), f"{mode}/{fmt}: pixels differ by {worst}"


def test_png_data_is_not_recompressed(tmp_path: Path) -> None:
    picture = _picture("RGB", (300, 200))
    path = tmp_path / "art.png"
    picture.save(path, "PNG", optimize=True)
    raw = path.read_bytes()
    buf = io.BytesIO()
    canvas = Canvas(buf, pagesize=(300, 200), invariant=1)
    draw_image(canvas, path, 0, 0, 300, 200)
    draw_image(canvas, path, 0, 0, 150, 100)  # the same file twice: embedded once
    canvas.showPage()
    save_streaming(canvas, buf)
    pdf = buf.getvalue()
    idat = raw[raw.index(b"IDAT") + 4 : raw.index(b"IDAT") + 4 + 64]
    assert pdf.count(idat) == 1  # the PNG's own compressed bytes, once
    assert pdf.count(b"/Predictor 15") == 1


def test_interlaced_png_is_decoded(tmp_path: Path) -> None:
    path = tmp_path / "i.png"
    _picture("RGB").save(path, "PNG", interlace=1)
    assert LazyImage("x", path).kind in ("decode", "png")
    shown = _render(path, (60, 40))
    diff = ImageChops.difference(shown, Image.open(path).convert("RGB"))
    assert max(b[1] for b in diff.getextrema()) <= 2


def test_streamed_images_give_the_bytes_reportlab_would_write(tmp_path: Path) -> None:
    """save_streaming writes image data in place of a placeholder; the file must be exactly
    what formatting the whole document in memory gives."""
    paths = []
    for i, (mode, fmt) in enumerate([("RGB", "PNG"), ("RGBA", "PNG"), ("RGB", "JPEG")]):
        path = tmp_path / f"art{i}.{fmt.lower()}"
        _picture(mode, (30 + i, 20)).save(path, fmt)
        paths.append(path)

    def document(streaming: bool) -> bytes:
        buf = io.BytesIO()
        canvas = Canvas(buf, pagesize=(200, 100), invariant=1)
        for k, path in enumerate(paths * 2):  # each picture twice: embedded once
            draw_image(canvas, path, 10 * k, 10, 30, 20)
        canvas.showPage()
        if streaming:
            save_streaming(canvas, buf)
        else:
            canvas.save()
        return buf.getvalue()

    streamed = document(True)
    assert streamed == document(False)
    assert streamed.count(b"/Subtype /Image") == 4  # three pictures and one soft mask
    assert b"pnp-held-stream" not in streamed
