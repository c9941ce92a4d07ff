"""Check benchmark PDFs in a process of their own (so the runner itself stays small).

    python benchmarks/pdfcheck.py --min-pages 24 [--filters] a.pdf b.pdf

Prints one JSON object: for each path, ``error`` ('' when the file is a complete PDF with at
least ``--min-pages`` pages; 0 checks only the header and the trailer), ``pages`` and, with
``--filters``, how its images are encoded (the ``/Filter`` of every image XObject, inside Form
XObjects too); with ``--pixels IMAGE``, whether the first pages hold that image with identical
pixels (lossless embedding).
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path
from typing import Any


def check(path: Path, min_pages: int) -> tuple[str, int | None]:
    with path.open("rb") as fh:
        head = fh.read(5)
        fh.seek(max(0, path.stat().st_size - 1024))
        tail = fh.read()
    if head != b"%PDF-" or b"%%EOF" not in tail:
        return f"{path.name}: not a complete PDF", None
    if min_pages <= 0:  # header and trailer only
        return "", None
    try:
        from pypdf import PdfReader
    except ImportError:  # pypdf comes with pnp's test extras; without it, header and trailer
        return "", None
    try:
        pages = len(PdfReader(str(path)).pages)
    except Exception as exc:
        return f"{path.name}: unreadable: {exc}", None
    if pages < min_pages:
        return f"{path.name}: {pages} pages, expected at least {min_pages}", pages
    return "", pages


def image_filters(path: Path) -> dict[str, int]:
    from pypdf import PdfReader

    found: Counter[str] = Counter()
    seen: set[Any] = set()

    def walk(resources: Any) -> None:
        xobjects = resources.get("/XObject") if resources else None
        if not xobjects:
            return
        for ref in xobjects.get_object().values():
            key = getattr(ref, "idnum", None) or id(ref)
            if key in seen:
                continue
            seen.add(key)
            obj = ref.get_object()
            if obj.get("/Subtype") == "/Image":
                filt = obj.get("/Filter")
                names = filt if isinstance(filt, list) else [filt]
                found["+".join(str(n) for n in names if n is not None) or "none"] += 1
            elif obj.get("/Subtype") == "/Form":
                walk(obj.get("/Resources"))

    for page in PdfReader(str(path)).pages:
        walk(page.get("/Resources"))
    return dict(found)


def pixels_identical(path: Path, reference: Path, pages: int = 6) -> bool:
    """Whether an image in the first ``pages`` pages has exactly the pixels of ``reference``."""
    from PIL import Image, ImageChops
    from pypdf import PdfReader

    with Image.open(reference) as ref_file:
        ref = ref_file.convert("RGB")
    for page in PdfReader(str(path)).pages[:pages]:
        for found in page.images:
            image = found.image
            if image is None or image.size != ref.size:
                continue
            if ImageChops.difference(image.convert("RGB"), ref).getbbox() is None:
                return True
    return False


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pdfs", nargs="+", type=Path)
    parser.add_argument("--min-pages", type=int, default=1)
    parser.add_argument("--filters", action="store_true", help="report image encodings")
    parser.add_argument(
        "--pixels", type=Path, help="an image file: is it in the PDF with identical pixels?"
    )
    args = parser.parse_args(argv)
    out: dict[str, Any] = {}
    for pdf in args.pdfs:
        error, pages = check(pdf, args.min_pages)
        entry: dict[str, Any] = {"error": error, "pages": pages}
        if args.filters and not error:
            try:
                entry["filters"] = image_filters(pdf)
            except Exception as exc:  # pypdf missing, or a PDF it cannot walk
                entry["filters"] = {f"unknown ({type(exc).__name__})": 1}
        if args.pixels and not error:
            try:
                entry["pixels_identical"] = pixels_identical(pdf, args.pixels)
            except Exception as exc:  # pypdf cannot decode an image
                entry["pixels_identical"] = None
                entry["pixels_error"] = f"{type(exc).__name__}: {exc}"
        out[str(pdf)] = entry
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
