"""Hostile input, second round (issue "Hostile input, second round"): one case per defect class
found, each failing on the code before its fix. The machinery (running pnp in process or in a
measured subprocess, the contract on exit codes and messages) is tests/test_hostile.py's."""

# ruff: noqa: F811 - the fixtures imported from test_hostile are parameters of the tests

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
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
    if command == "build":  # a catalog of a language not built is one line (issue 32, item 2)
        assert res.code == 0 and "mini fr: not built here" in res.text, res.text
        return
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


# --- 7. icons: bounded in pixels, decoded once per run ------------------------------------------


def test_huge_icons_are_refused_before_they_are_decoded(root: Path) -> None:
    import struct
    import zlib

    # 7,700 px square RGBA, mostly zeros: 230 KB on disk, 237 MB decoded
    raw = zlib.compress((b"\0" + bytes(7700 * 4)) * 7700, 9)
    head = struct.pack(">IIBBBBB", 7700, 7700, 8, 6, 0, 0, 0)
    png = b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", head) + _png_chunk(b"IDAT", raw)
    game = root / GAME / "game.yaml"
    text = game.read_text("utf-8")
    icons = "".join(f"  i{n}: {{image: i{n}.png}}\n" for n in range(3))
    for n in range(3):
        put(root, f"{GAME}/i{n}.png", png + _png_chunk(b"IEND", b""))
    game.write_text(text.replace("icons:\n", "icons:\n" + icons), "utf-8")
    decks = root / GAME / "decks.yaml"
    text = decks.read_text("utf-8").replace("Gain 2 {coin}", "{i0}{i1}{i2} 2 {coin}")
    decks.write_text(text.replace("Guadagna 2 {coin}", "{i0}{i1}{i2} 2 {coin}"))
    res = assert_bounded(measured("build", "--root", root), seconds=5.0, peak_mb=300)
    assert res.code == 1 and len(res.at("bad-image")) == 3, res.text
    assert "at most 1024 pixels a side" in res.text


# --- 8. long translations: refused over the limit, fitted in bounded time under it -------------


@pytest.mark.parametrize("words", [24_000, 300_000], ids=["under-the-limit", "over-the-limit"])
def test_long_translations_are_bounded(root: Path, words: int) -> None:
    text = "mot " * words + "{coin}."  # 96,006 or 1,200,006 characters
    put(
        root,
        PO,
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
        '"Plural-Forms: nplurals=2; plural=(n > 1);\\n"\n\n'
        f'msgctxt "decks/main/cards/alpha/text"\nmsgid "Gain 2 {{coin}}."\nmsgstr "{text}"\n',
    )
    game = root / GAME / "game.yaml"
    game.write_text(game.read_text("utf-8").replace("[en, it]", "[en, it, fr]"), "utf-8")
    res = assert_bounded(measured("build", "--root", root, "--lang", "fr"), seconds=10.0)
    if words > 100_000 // 4:
        assert res.code == 1 and "at most 100,000" in res.text, res.text
    else:
        assert "text-overflow" in res.rules(), res.text


# --- 15. a full disk, a read-only folder: the user's to fix, said clearly ----------------------


@pytest.fixture
def tiny_disk(tmp_path: Path) -> Iterator[Callable[[str], Path]]:
    """Mount small tmpfs file systems (root only: skipped elsewhere); unmounted after."""
    import subprocess

    mounted: list[Path] = []

    def mount(options: str) -> Path:
        where = tmp_path / f"disk{len(mounted)}"
        where.mkdir()
        done = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(where)], capture_output=True
        )
        if done.returncode != 0:
            pytest.skip("mounting a small file system needs root")
        mounted.append(where)
        return where

    yield mount
    for where in mounted:
        subprocess.run(["umount", "-l", str(where)], capture_output=True)


@pytest.mark.parametrize(
    ("options", "said"),
    [("size=64k", "No space left on device"), ("ro,size=64k", "Read-only file system")],
    ids=["full", "read-only"],
)
def test_a_full_or_read_only_disk_is_the_users_to_fix(
    pnp: Callable[..., Result],
    root: Path,
    tiny_disk: Callable[[str], Path],
    options: str,
    said: str,
) -> None:
    out = tiny_disk(options)
    res = pnp("build", "--root", root, "--out", out)
    assert res.code == 1 and said in res.text and "--out" in res.text, res.text
    assert not [p for p in out.rglob("*") if p.is_file()]  # nothing half-written


def test_translating_into_a_read_only_root(
    pnp: Callable[..., Result], root: Path, tiny_disk: Callable[[str], Path]
) -> None:
    import shutil
    import subprocess

    disk = tiny_disk("size=4m")
    shutil.copytree(root / "cards", disk / "cards")
    subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True)
    res = pnp("i18n", "init", "mini", "fr", "--root", disk)
    assert res.code == 1 and "Read-only file system" in res.text, res.text


# --- 18. content cannot drive the terminal -----------------------------------------------------


def test_titles_and_folder_names_reach_the_terminal_escaped(
    pnp: Callable[..., Result], root: Path
) -> None:
    game = root / GAME / "game.yaml"
    text = game.read_text("utf-8")
    game.write_text(
        text.replace("title: {en: Mini,", 'title: {en: "Mi\\e[2J\\e]0;pwn\\ani\\u202e",')
    )
    listed = pnp("list", "--root", root)
    assert "\x1b" not in listed.text and "\u202e" not in listed.text, repr(listed.text)
    assert "Mi\\x1b[2J\\x1b]0;pwn\\x07ni\\u202e" in listed.out, repr(listed.out)
    odd = root / "cards" / "odd\nname\x1b[31m"
    (root / GAME).rename(odd)
    (odd / "extra.yaml").write_text("decks: [1\n", "utf-8")
    res = pnp("validate", "--root", root)
    assert "\x1b" not in res.text, repr(res.text)
    lines = [ln for ln in res.text.splitlines() if "[yaml-syntax]" in ln]
    assert len(lines) == 1 and lines[0].startswith("cards/odd\\nname\\x1b[31m/extra.yaml:"), lines


# --- 17. folders linked out of the root are refused like linked files --------------------------


@pytest.mark.parametrize("folder", ["game", "fonts", "locales"])
def test_folders_linked_out_of_the_root_are_not_read(
    pnp: Callable[..., Result], root: Path, tmp_path: Path, folder: str
) -> None:
    import shutil

    outside = tmp_path / "outside"
    outside.mkdir()
    secret = "TOP-SECRET-OUTSIDE"
    if folder == "game":
        shutil.copytree(root / GAME, outside / "mini")
        (outside / "mini" / "secret.yaml").write_text(f"decks: {{{secret}: 1}}\n", "utf-8")
        shutil.rmtree(root / GAME)
        (root / GAME).symlink_to(outside / "mini", target_is_directory=True)
    elif folder == "fonts":
        shutil.move(str(root / "fonts"), str(outside / "fonts"))
        (outside / "fonts" / f"{secret}-Regular.ttf").write_bytes(b"\0" * 100)
        (root / "fonts").symlink_to(outside / "fonts", target_is_directory=True)
        game = root / GAME / "game.yaml"
        game.write_text(game.read_text("utf-8") + f"print: {{font: {secret}}}\n", "utf-8")
    else:
        po = outside / "LC_MESSAGES" / "mini.po"
        po.parent.mkdir(parents=True)
        po.write_text(f'msgid ""\nmsgstr ""\n"X-{secret}: 1\\n"\nbroken "{secret}\n', "utf-8")
        (root / "locales" / "fr").parent.mkdir(parents=True)
        (root / "locales" / "fr").symlink_to(outside, target_is_directory=True)
    res = pnp("validate", "--root", root)
    assert res.code == 1 and "outside the content root" in res.text, res.text
    if folder != "fonts":  # the font's name is the game's own words; its bytes are not read
        assert secret not in res.text, res.text


# --- 14. the state kept in output/ is untrusted too ------------------------------------------


@pytest.mark.parametrize("kind", ["nested", "fifo", "forged"])
def test_state_files_shipped_in_output_are_not_trusted(
    pnp: Callable[..., Result], root: Path, kind: str
) -> None:
    """A pack may come with an output/ folder: its state files cannot break or steer a build."""
    state = root / "output" / "mini"
    state.mkdir(parents=True)
    facts = state / ".pnp-files.json"
    if kind == "nested":
        facts.write_text("[" * 100_000 + "]" * 100_000, "utf-8")
    elif kind == "fifo":
        os.mkfifo(facts)
        os.mkfifo(state / "mini-en-a4.pdf.stamp")
        (state / "mini-en-a4.pdf").write_bytes(b"%PDF-1.4\n")
    else:  # facts claiming a broken image is a good one, for its exact size and time
        art = put(root, f"{GAME}/art/x.png", b"\x89PNG\r\n\x1a\n" + bytes(100))
        decks = root / GAME / "decks.yaml"
        text = decks.read_text("utf-8")
        decks.write_text(text.replace("copies: 4\n", "copies: 4\n        art: art/x.png\n", 1))
        st = art.stat()
        good = ["PNG", 64, 64, "RGB"]
        entry = [st.st_size, st.st_mtime_ns, "0" * 64, good]
        facts.write_text(
            json.dumps({"version": 1, "code": "x", "files": {f"{GAME}/art/x.png": entry}})
        )
    res = assert_bounded(measured("build", "--root", root), seconds=10.0)
    if kind == "forged":
        assert res.code == 1 and "bad-image" in res.rules(), res.text
    else:
        assert res.code == 0 and (state / "mini-en-a4.pdf").stat().st_size > 1000, res.text


# --- 9. table elements: too narrow, too long --------------------------------------------------


def _table_pack(root: Path, rows: int, box: str, size: int) -> None:
    body = "".join(f"      - [{i}, {i % 7}, {i % 5}]\n" for i in range(rows))
    put(
        root,
        f"{GAME}/big.yaml",
        "tables:\n  big:\n    title: {en: Big, it: Grande}\n    sheet: false\n    columns:\n"
        + "".join(f"      - {{id: {c}, title: {{en: {c}, it: {c}}}}}\n" for c in "abc")
        + f"    rows:\n{body}layouts:\n  card:\n    elements:\n"
        + f"      - {{box: {box}, table: big, size: {size}}}\n",
    )


def test_a_long_table_in_a_small_box_is_measured_quickly(root: Path) -> None:
    _table_pack(root, 2000, "[5, 5, 50, 70]", 40)
    res = assert_bounded(measured("validate", "--root", root, timeout=5.0), seconds=5.0)
    # an error (text-overflow), found within the time
    assert res.code == 1 and "table big does not fit its box" in res.text, res.text


def test_a_table_too_narrow_for_its_font_is_a_finding(root: Path) -> None:
    _table_pack(root, 3, "[5, 5, 2, 30]", 40)
    res = assert_bounded(measured("build", "--root", root))
    assert res.code == 1 and (f"{GAME}/big.yaml", 16) in res.at("schema"), res.text
    checked = assert_bounded(measured("validate", "--root", root))
    assert (f"{GAME}/big.yaml", 16) in checked.at("schema"), checked.text


# --- 16. PNG and TTS exports: memory bounded whatever the pack's face size ---------------------


def test_a_huge_face_at_a_high_resolution_is_refused(root: Path) -> None:
    game = root / GAME / "game.yaml"
    game.write_text(game.read_text("utf-8") + "print: {card_size: [250, 380]}\n", "utf-8")
    res = assert_bounded(
        measured("build", "--root", root, "--lang", "en", "--paper", "a3", "--png", "1200"),
        seconds=20.0,
        peak_mb=600,
    )
    assert res.code == 1 and "megapixels, over the 60 pnp draws" in res.text, res.text
