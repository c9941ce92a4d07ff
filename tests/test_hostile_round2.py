"""Hostile input, second round (issue "Hostile input, second round"): one case per defect class
found, each failing on the code before its fix. The machinery (running pnp in process or in a
measured subprocess, the contract on exit codes and messages) is tests/test_hostile.py's."""

# ruff: noqa: F811 - the fixtures imported from test_hostile are parameters of the tests

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from test_hostile import (  # noqa: F401 - fixtures are used by name
    GAME,
    PO,
    Result,
    assert_bounded,
    measured,
    pnp,
    put,
    root,
)

# --- 1. nesting deep enough to crash the C composer ---------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "x: " + "[" * 30_000 + "]" * 30_000 + "\n",
        "x: " + "{a: " * 30_000 + "}" * 30_000 + "\n",
        "x:\n" + "- " * 30_000 + "v\n",  # compact block sequences: one level per "- "
    ],
    ids=["flow-sequences", "flow-mappings", "block-sequences"],
)
def test_deep_nesting_is_a_finding_not_a_crash(root: Path, text: str) -> None:
    put(root, f"{GAME}/extra.yaml", text)
    res = assert_bounded(measured("validate", "--root", root), seconds=5.0)
    assert res.code == 1 and "yaml-limit" in res.rules(), res.text
    assert "nesting deeper than 64 levels" in res.text


# --- 2. FIFOs and devices where a file is expected ----------------------------------------


def _fifo(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(path)


@pytest.mark.parametrize(
    "rel",
    [f"{GAME}/extra.yaml", PO],
    ids=["yaml", "po"],
)
def test_a_fifo_is_refused_not_waited_for(root: Path, rel: str) -> None:
    _fifo(root / rel)
    res = assert_bounded(measured("validate", "--root", root))
    assert res.code == 1 and "not a regular file" in res.text, res.text


def test_a_device_is_refused_not_read(root: Path) -> None:
    import stat

    try:  # /dev/zero's numbers: read, it never ends
        os.mknod(root / GAME / "extra.yaml", stat.S_IFCHR | 0o644, os.makedev(1, 5))
        os.mknod(root / "fonts" / "Zero-Regular.ttf", stat.S_IFCHR | 0o644, os.makedev(1, 5))
    except PermissionError:
        pytest.skip("creating a device node needs CAP_MKNOD")
    game = root / GAME / "game.yaml"
    game.write_text(game.read_text("utf-8") + "print: {font: Zero}\n", "utf-8")
    res = assert_bounded(measured("validate", "--root", root))
    assert res.code == 1 and res.text.count("not a regular file") >= 2, res.text


def test_a_fifo_image_is_refused(root: Path) -> None:
    _fifo(root / GAME / "art" / "x.png")
    decks = root / GAME / "decks.yaml"
    text = decks.read_text("utf-8")
    decks.write_text(text.replace("copies: 4\n", "copies: 4\n        art: art/x.png\n", 1))
    res = assert_bounded(measured("validate", "--root", root))
    assert res.code == 1 and (f"{GAME}/decks.yaml", 8) in res.at("missing-file"), res.text
    assert "not a regular file" in res.text


# --- 3. a font's size is checked before it is read ----------------------------------------


def test_sparse_huge_font_is_refused_before_reading(root: Path) -> None:
    with open(root / "fonts" / "Huge-Regular.ttf", "wb") as fh:
        fh.truncate(4 * 1024**3)  # 4 GB, sparse: no disk used, 4 GB of memory if read
    game = root / GAME / "game.yaml"
    game.write_text(game.read_text("utf-8") + "print: {font: Huge}\n", "utf-8")
    res = assert_bounded(measured("validate", "--root", root), seconds=5.0, peak_mb=300)
    assert res.code == 1 and "over the 32 MB a font may have" in res.text, res.text


# --- 4. a PO header declaring a billion plural forms ----------------------------------------

_PO_HEAD = (
    'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
    '"Plural-Forms: nplurals=1000000000; plural=n;\\n"\n\n'
    'msgctxt "main/alpha.title"\nmsgid "Alpha"\nmsgstr "Alfa"\n'
)


@pytest.mark.parametrize("command", ["validate", "build", "i18n-update", "i18n-status"])
def test_a_billion_plural_forms_is_refused_cheaply(root: Path, command: str) -> None:
    put(root, PO, _PO_HEAD)
    args = [*command.split("-"), "mini"] if command == "i18n-update" else command.split("-")
    res = assert_bounded(measured(*args, "--root", root), seconds=10.0)
    assert res.code == 1 and "nplurals" in res.text, res.text


# --- 11. aliases multiply characters, not only nodes ----------------------------------------


def test_aliases_of_a_long_string_are_bounded_by_characters(root: Path) -> None:
    long = "word " * 19_000  # 95,000 characters, under the 100,000 of one value
    cards = "".join(
        f"      - {{id: c{i}, title: {{en: *t, it: *t}}, text: {{en: *t, it: *t}}}}\n"
        for i in range(2_000)
    )
    put(
        root,
        f"{GAME}/extra.yaml",
        f"decks:\n  big:\n    name: {{en: &t '{long}', it: Grande}}\n    cards:\n{cards}",
    )
    res = assert_bounded(measured("validate", "--root", root), seconds=5.0)
    assert res.code == 1 and "characters through aliases" in res.text, res.text


# --- 12, 13. images that pass a check of headers and checksums but not the PDF writer ---------


def _jpeg(**kw: object) -> bytes:
    import io

    from PIL import Image

    buf = io.BytesIO()
    noise = Image.effect_noise((120, 90), 80).convert("RGB")  # image data outweighs headers
    noise.save(buf, format="JPEG", **kw)
    return buf.getvalue()


def _png_chunk(kind: bytes, body: bytes) -> bytes:
    import struct
    import zlib

    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def _images() -> dict[str, tuple[bytes, bool]]:
    """name: (file, whether it is a good image)"""
    import struct

    jpeg = _jpeg()
    app = b"\xff\xe1" + struct.pack(">H", 65_000) + bytes(64_998)  # a large metadata segment
    late = jpeg[:2] + app * 5 + jpeg[2:]  # the frame header after 320 KB
    filled = jpeg[:2] + b"\xff" * 7 + jpeg[2:]  # fill bytes before the first marker's code
    png = _png_chunk(b"IHDR", struct.pack(">IIBBBBB", 8, 8, 8, 0, 0, 0, 0))
    return {
        "jpeg-frame-after-256k": (late, True),
        "jpeg-fill-bytes": (filled, True),
        "jpeg-truncated": (jpeg[: len(jpeg) * 9 // 10], False),
        "png-idat-not-zlib": (
            b"\x89PNG\r\n\x1a\n"
            + png
            + _png_chunk(b"IDAT", bytes(range(200)) * 3)
            + _png_chunk(b"IEND", b""),
            False,
        ),
    }


@pytest.mark.parametrize("name", sorted(_images()))
def test_images_validation_and_build_agree(
    pnp: Callable[..., Result], root: Path, name: str
) -> None:
    data, good = _images()[name]
    suffix = "jpg" if name.startswith("jpeg") else "png"
    put(root, f"{GAME}/art/x.{suffix}", data)
    decks = root / GAME / "decks.yaml"
    text = decks.read_text("utf-8")
    decks.write_text(text.replace("copies: 4\n", f"copies: 4\n        art: art/x.{suffix}\n", 1))
    res = pnp("validate", "--root", root)
    if good:
        assert res.code == 0, res.text
        built = pnp("build", "--root", root, "--lang", "en")
        assert built.code == 0, built.text
    else:
        assert res.code == 1 and (f"{GAME}/decks.yaml", 8) in res.at("bad-image"), res.text
        assert pnp("build", "--root", root).code == 1


# --- 6, 10. invariants: format widths in messages, time over all rows -------------------------


def test_a_format_width_in_a_message_is_bounded(root: Path) -> None:
    put(
        root,
        f"{GAME}/rules.yaml",
        "invariants:\n  - id: wide\n    for_each: i in range(3)\n    assert: i < 0\n"
        "    message: {en: 'row {i:300000000} is wrong'}\n",
    )
    res = assert_bounded(measured("validate", "--root", root), peak_mb=300)
    assert res.code == 1 and len(res.at("invariant")) == 3, res.text
    assert "row {i:300000000} is wrong" in res.text  # shown as written, not formatted


def test_an_invariant_is_timed_over_all_its_rows(root: Path) -> None:
    put(
        root,
        f"{GAME}/rules.yaml",
        "invariants:\n  - id: slow\n    for_each: i in range(100000)\n"
        "    assert: sum(x for x in range(20000)) > 0\n",
    )
    res = assert_bounded(measured("validate", "--root", root, timeout=4.0), seconds=4.0)
    assert res.code == 1 and [f"{GAME}/rules.yaml"] == [
        p for p, _ in res.at("invariant-expression")
    ]
    assert "s in total" in res.text, res.text


# --- 5. templates: results bounded before they are built -----------------------------------

_TEN = "~".join(["{v}"] * 10)
_BOMBS = {
    "replace": "{% set a = ('x' * 10000).replace('x', 'x' * 10000) %}{{ a.replace('x', 'xx') }}",
    "concat": "{% set a = 'x' * 10000 %}"
    + "".join(
        "{% set " + n + " = " + _TEN.format(v=p) + " %}"
        for p, n in zip("abcdef", "bcdefg", strict=True)
    )
    + "{{ g }}",
    "output": "{% for i in range(10000) %}{% for j in range(10000) %}xxxxxxxxxx{% endfor %}"
    "{% endfor %}",
}


@pytest.mark.parametrize("name", sorted(_BOMBS))
def test_template_results_are_bounded_before_they_are_built(root: Path, name: str) -> None:
    import json

    put(
        root,
        f"{GAME}/layouts.yaml",
        "layouts:\n  card:\n    elements:\n      - {box: [5, 70, 50, 8], template: "
        + json.dumps(_BOMBS[name])
        + "}\n",
    )
    res = assert_bounded(measured("validate", "--root", root), peak_mb=300)
    assert res.code == 1 and "template" in res.rules(), res.text
