"""Synthetic content packs in pnp's own format, for the benchmarks.

A pack is a content root (``cards/bench/`` plus a copy of the repository's ``fonts/``):

- ``text``: N poker cards, each with a distinct title and two paragraphs of distinct body text
  (words drawn from a list that mixes long words, so that hyphenation happens) with inline
  ``{coin}`` icons and bold words, in English and Italian (inline), one shared back and a box
  entry with the right count. Built-in layouts.
- ``art``: N poker cards, each with its own 750x1050 image (PNG, or JPEG with ``--jpeg``):
  gradients, flat shapes and patches of noise, so the pixels do not compress trivially. One
  shared back image, titles in two languages, little text.

Packs are cached under ``benchmarks/work/packs/<kind>-<N>[-jpeg]/`` and images under
``benchmarks/work/images/`` (shared by packs of every size: a pack links or copies them), so
repeated runs do not regenerate anything.

    python benchmarks/gen.py text 1000
    python benchmarks/gen.py art 90 --jpeg
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sys
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
WORK = HERE / "work"
FONTS = REPO / "pnp" / "data" / "fonts"
GAME = "bench"
MARKER = ".bench-pack.json"
GEN_VERSION = 2  # the same numbers in both languages (translation-numbers)

ART_W, ART_H = 750, 1050
NOISE_AMPLITUDE = 2  # +0..1 per channel in the noise patches: PNGs of about 340 KB


def _words(text: str) -> list[str]:
    return text.split()


# Short and long words; the long ones (12+ letters) make reportlab hyphenate in narrow boxes.
WORDS = {
    "en": _words(
        "the a of to and in for with on each every other your their draw take pay move gain "
        "lose keep trade build card deck coin worker robot turn round player table hand "
        "market factory harbour lantern river bridge tower garden engine signal "
        "extraordinary responsibility infrastructure disproportionate counterbalancing "
        "notwithstanding internationalisation uncharacteristically electromagnetic "
        "photosynthesis incomprehensible reconstruction administration representatives "
        "manufacturing neighbourhood transportation understanding constitutional "
        "collaboration overwhelmingly simultaneously"
    ),
    "it": _words(
        "il la di a e in per con su ogni altra tua loro pesca prendi paga muovi guadagna "
        "perdi tieni scambia costruisci carta mazzo moneta lavoratrice robot turno giro "
        "giocatrice tavolo mano mercato fabbrica porto lanterna fiume ponte torre giardino "
        "motore segnale straordinariamente responsabilità infrastrutturale sproporzionato "
        "controbilanciamento nondimeno internazionalizzazione caratteristicamente "
        "elettromagnetico fotosintesi incomprensibile ricostruzione amministrazione "
        "rappresentanti manifatturiero quartiere trasportabilità comprensione "
        "costituzionale collaborazione precipitevolissimevolmente contemporaneamente"
    ),
}
TITLE_WORDS = {
    "en": _words("Amber Bold Cobalt Distant Early Fallen Golden Hidden Iron Jade Lost Silent"),
    "it": _words(
        "Ambra Audace Cobalto Lontano Primo Caduto Dorato Nascosto Ferro Giada Perso Muto"
    ),
}
TITLE_NOUNS = {
    "en": _words("Harbour Lantern River Bridge Tower Garden Engine Signal Market Factory"),
    "it": _words("Porto Lanterna Fiume Ponte Torre Giardino Motore Segnale Mercato Fabbrica"),
}
LANGS = ("en", "it")


def pack_dir(kind: str, n: int, jpeg: bool = False) -> Path:
    return WORK / "packs" / f"{kind}-{n}{'-jpeg' if jpeg else ''}"


def _q(text: str) -> str:
    """A YAML double-quoted scalar (JSON strings are valid YAML)."""
    return json.dumps(text, ensure_ascii=False)


def _sentence(rng: random.Random, lang: str, count: int) -> list[str]:
    return [rng.choice(WORDS[lang]) for _ in range(count)]


def card_texts(i: int) -> dict[str, tuple[str, str]]:
    """(title, body) per language for card ``i``; both languages share the markup."""
    shape = random.Random(i)
    n1, n2 = shape.randint(20, 28), shape.randint(10, 16)
    bold_at, coin_at = shape.randrange(n1), shape.randrange(n2)
    gain, pay = shape.randint(1, 9), shape.randint(1, 9)  # the same numbers in every language
    out = {}
    for lang in LANGS:
        rng = random.Random(f"{lang}-{i}")
        first = _sentence(rng, lang, n1)
        first[bold_at] = f"**{first[bold_at]}**"
        first[0] = first[0].capitalize()
        second = _sentence(rng, lang, n2)
        second[0] = second[0].capitalize()
        second.insert(coin_at, f"{pay} {{coin}}")
        body = " ".join(first) + f", {gain} {{coin}}.\n\n" + " ".join(second) + "."
        title = f"{rng.choice(TITLE_WORDS[lang])} {rng.choice(TITLE_NOUNS[lang])} {i}"
        out[lang] = (title, body)
    return out


def _game_yaml(kind: str, n: int) -> str:
    return f"""\
# Synthetic {kind} pack for pnp's benchmarks: made by benchmarks/gen.py, do not edit.
title: {{en: "Benchmark {kind} {n}", it: "Benchmark {kind} {n}"}}
source_language: en
languages: [en, it]
players: {{min: 1, max: 4}}
version: "1"
box:
  - item: {{en: "{n} cards", it: "{n} carte"}}
    deck: cards
    count: {n}
print:
  card_size: poker
  font: NotoSans
  fallback_fonts: [DejaVuSans]
icons:
  coin: {{glyph: "₽"}}
"""


def _deck_lines(
    n: int, back: str, extra: Callable[[int, dict[str, tuple[str, str]]], list[str]]
) -> str:
    """decks.yaml: one deck of N cards with ids and titles in both languages, a shared back
    (its ``back`` line besides the title) and ``extra(i, texts)`` lines for each card."""
    lines = [
        "decks:",
        "  cards:",
        '    name: {en: "Cards", it: "Carte"}',
        "    back:",
        f"      {back}",
        '      title: {en: "Benchmark", it: "Benchmark"}',
        "    cards:",
    ]
    for i in range(1, n + 1):
        texts = card_texts(i)
        lines.append(f"      - id: c{i:05d}")
        lines.append(f"        title: {{en: {_q(texts['en'][0])}, it: {_q(texts['it'][0])}}}")
        lines.extend(extra(i, texts))
    return "\n".join(lines) + "\n"


def _text_decks(n: int) -> str:
    def body(_i: int, texts: dict[str, tuple[str, str]]) -> list[str]:
        out = ["        text:"]
        for lang in LANGS:
            out.append(f"          {lang}: |-")
            for para_line in texts[lang][1].split("\n"):
                out.append(f"            {para_line}" if para_line else "")
        return out

    return _deck_lines(n, "layout: back", body)


def _art_decks(n: int, ext: str) -> str:
    return _deck_lines(
        n, f"art: art/back.{ext}", lambda i, _t: [f"        art: art/c{i:05d}.{ext}"]
    )


# --- images ------------------------------------------------------------------------------------
def make_image(seed: str):  # -> PIL.Image.Image
    """A colourful 750x1050 RGB image: rotated gradients, flat shapes, patches of fine noise."""
    from PIL import Image, ImageChops, ImageDraw

    rng = random.Random(seed)
    size = (ART_W, ART_H)
    chans = [Image.linear_gradient("L").rotate(rng.randrange(360)).resize(size) for _ in range(2)]
    chans.append(Image.radial_gradient("L").resize(size))
    rng.shuffle(chans)
    im = Image.merge("RGB", chans)
    draw = ImageDraw.Draw(im)
    for _ in range(12):
        x, y, r = rng.randrange(ART_W), rng.randrange(ART_H), rng.randrange(40, 260)
        colour = tuple(rng.randrange(256) for _ in range(3))
        if rng.random() < 0.5:
            draw.ellipse((x - r, y - r, x + r, y + r), fill=colour)
        else:
            points = [(x + rng.randrange(-r, r), y + rng.randrange(-r, r)) for _ in range(5)]
            draw.polygon(points, fill=colour)
    noise = Image.frombytes("RGB", size, rng.randbytes(ART_W * ART_H * 3))
    noise = noise.point(lambda v: v * NOISE_AMPLITUDE // 256)
    mask = Image.new("L", size, 0)
    mask_draw = ImageDraw.Draw(mask)
    for _ in range(6):
        x, y, r = rng.randrange(ART_W), rng.randrange(ART_H), rng.randrange(80, 250)
        mask_draw.ellipse((x - r, y - r, x + r, y + r), fill=255)
    return Image.composite(ImageChops.add(im, noise), im, mask)


def _write_image(args: tuple[str, str, str]) -> str:
    seed, path, fmt = args
    tmp = path + ".tmp"
    image = make_image(seed)
    if fmt == "JPEG":
        image.save(tmp, "JPEG", quality=90)
    else:
        image.save(tmp, "PNG")
    os.replace(tmp, path)
    return path


def cached_images(names: list[str], jpeg: bool) -> dict[str, Path]:
    """Image files for ``names`` (seeds), generated once into benchmarks/work/images/."""
    ext = "jpg" if jpeg else "png"
    folder = WORK / "images" / f"v{GEN_VERSION}-{ext}"
    folder.mkdir(parents=True, exist_ok=True)
    paths = {name: folder / f"{name}.{ext}" for name in names}
    todo = [
        (name, str(p), "JPEG" if jpeg else "PNG") for name, p in paths.items() if not p.exists()
    ]
    if todo:
        print(f"gen: drawing {len(todo)} images ({ext})", file=sys.stderr, flush=True)
        workers = min(len(todo), os.cpu_count() or 1)
        if workers > 1:
            with ProcessPoolExecutor(workers) as pool:
                list(pool.map(_write_image, todo, chunksize=4))
        else:
            for job in todo:
                _write_image(job)
    return paths


def _link_or_copy(src: Path, dst: Path) -> None:
    try:
        os.link(src, dst)  # a hard link is a regular file: pnp reads it like any other
    except OSError:
        shutil.copyfile(src, dst)


# --- packs -------------------------------------------------------------------------------------
def make_pack(kind: str, n: int, jpeg: bool = False) -> Path:
    """The content root of a pack, generated unless already cached; returns its path."""
    if kind not in ("text", "art"):
        raise ValueError(f"unknown pack kind {kind!r}")
    root = pack_dir(kind, n, jpeg)
    meta = {"kind": kind, "n": n, "jpeg": jpeg, "version": GEN_VERSION}
    marker = root / MARKER
    if marker.is_file():
        try:
            if json.loads(marker.read_text()) == meta:
                return root
        except ValueError:
            pass
    if root.exists():
        shutil.rmtree(root)
    tmp = root.with_name(root.name + ".tmp")
    if tmp.exists():
        shutil.rmtree(tmp)
    game = tmp / "cards" / GAME
    game.mkdir(parents=True)
    shutil.copytree(FONTS, tmp / "fonts")
    (game / "game.yaml").write_text(_game_yaml(kind, n), encoding="utf-8")
    if kind == "text":
        (game / "decks.yaml").write_text(_text_decks(n), encoding="utf-8")
    else:
        ext = "jpg" if jpeg else "png"
        (game / "decks.yaml").write_text(_art_decks(n, ext), encoding="utf-8")
        names = ["back"] + [f"c{i:05d}" for i in range(1, n + 1)]
        images = cached_images(names, jpeg)
        (game / "art").mkdir()
        for name, src in images.items():
            _link_or_copy(src, game / "art" / f"{name}.{ext}")
    (tmp / MARKER).write_text(json.dumps(meta), encoding="utf-8")
    tmp.rename(root)
    return root


def clean_root(root: Path) -> list[str]:
    """Remove whatever a tool added to a pack's root (a cache, an output/ folder), so that
    every measured build starts cold; returns what was removed."""
    keep = {
        "": {"cards", "fonts", MARKER},
        "cards": {GAME},
        f"cards/{GAME}": {"game.yaml", "decks.yaml", "art"},
    }
    removed = []
    for folder, names in keep.items():
        for path in sorted((root / folder).iterdir()):
            if path.name in names:
                continue
            removed.append(path.relative_to(root).as_posix())
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path)
            else:
                path.unlink()
    return removed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("kind", choices=["text", "art"])
    parser.add_argument("n", type=int)
    parser.add_argument("--jpeg", action="store_true", help="art as JPEG instead of PNG")
    args = parser.parse_args(argv)
    print(make_pack(args.kind, args.n, args.jpeg))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
