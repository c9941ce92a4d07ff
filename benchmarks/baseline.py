"""Minimal hand-written reportlab scripts: the same drawing as pnp for a benchmark pack.

What a person would write by hand for one pack, reading the same files pnp reads (the pack's
YAML with ruamel's safe loader, its fonts, its images), with no caching of its own:

- ``text``: a 3x3 grid of 63x88 mm cards on A4 per page; each card is a background rectangle,
  its title, and its body as reportlab Paragraphs (hyphenated for the language, NotoSans with
  DejaVuSans registered, the icon glyph ₽); after each fronts page, a backs page with the shared
  back in every slot, columns mirrored for long-edge duplex. One PDF per language.
- ``art``: the same grid; each card's image drawn with ``canvas.drawImage`` and its title; the
  shared back image in every slot of the backs page, mirrored. One PDF per language. With
  ``--no-a85`` it sets ``rl_config.useA85 = 0`` (binary streams instead of ASCII85).

    python benchmarks/baseline.py text benchmarks/work/packs/text-100 /tmp/out
    python benchmarks/baseline.py art benchmarks/work/packs/art-90 /tmp/out --no-a85
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path
from xml.sax.saxutils import escape

from reportlab import rl_config
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph
from ruamel.yaml import YAML

CARD_W, CARD_H = 63 * mm, 88 * mm
COLS, ROWS = 3, 3
PAGE_W, PAGE_H = A4
LEFT = (PAGE_W - COLS * CARD_W) / 2
TOP = (PAGE_H - ROWS * CARD_H) / 2


def load_pack(root: Path) -> tuple[dict, dict, Path]:
    """game.yaml and the deck of the pack's only game (named ``bench`` by gen.py)."""
    game_dir = root / "cards" / "bench"
    yaml = YAML(typ="safe")
    game = yaml.load((game_dir / "game.yaml").read_text(encoding="utf-8"))
    decks = yaml.load((game_dir / "decks.yaml").read_text(encoding="utf-8"))["decks"]
    return game, next(iter(decks.values())), game_dir


def register_fonts(fonts: Path) -> None:
    for face in ("Regular", "Bold", "Italic", "BoldItalic"):
        pdfmetrics.registerFont(TTFont(f"NotoSans-{face}", str(fonts / f"NotoSans-{face}.ttf")))
    pdfmetrics.registerFont(TTFont("DejaVuSans", str(fonts / "DejaVuSans.ttf")))
    pdfmetrics.registerFontFamily(
        "NotoSans-Regular",
        normal="NotoSans-Regular",
        bold="NotoSans-Bold",
        italic="NotoSans-Italic",
        boldItalic="NotoSans-BoldItalic",
    )


def slot_xy(i: int, mirrored: bool) -> tuple[float, float]:
    """Bottom-left corner of slot ``i`` (0..8) on the page, in points."""
    row, col = divmod(i, COLS)
    if mirrored:
        col = COLS - 1 - col
    return LEFT + col * CARD_W, PAGE_H - TOP - (row + 1) * CARD_H


def markup(text: str, icons: dict[str, str]) -> list[str]:
    """pnp's card markup as reportlab paragraph XML: one string per paragraph."""
    xml = escape(text)
    xml = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", xml)
    for name, glyph in icons.items():
        xml = xml.replace("{" + name + "}", glyph)
    return [p.replace("\n", "<br/>") for p in xml.split("\n\n")]


def text_pdf(game: dict, deck: dict, lang: str, out: Path) -> None:
    icons = {name: spec["glyph"] for name, spec in game.get("icons", {}).items()}
    body = ParagraphStyle(
        "body", fontName="NotoSans-Regular", fontSize=8.5, leading=10.2, hyphenationLang=lang
    )
    c = Canvas(str(out), pagesize=A4)
    cards = deck["cards"]
    back_title = deck["back"]["title"][lang]
    for start in range(0, len(cards), COLS * ROWS):
        sheet = cards[start : start + COLS * ROWS]
        for i, card in enumerate(sheet):
            x, y = slot_xy(i, mirrored=False)
            c.setFillColorRGB(1, 1, 1)
            c.setStrokeColorRGB(0.2, 0.2, 0.2)
            c.rect(x, y, CARD_W, CARD_H, stroke=1, fill=1)
            c.setFillColorRGB(0.1, 0.1, 0.1)
            c.setFont("NotoSans-Bold", 12)
            c.drawCentredString(x + CARD_W / 2, y + CARD_H - 9 * mm, card["title"][lang])
            top = y + CARD_H * 0.77
            for para_xml in markup(card["text"][lang], icons):
                para = Paragraph(para_xml, body)
                _w, h = para.wrap(CARD_W * 0.84, CARD_H * 0.58)
                para.drawOn(c, x + CARD_W * 0.08, top - h)
                top -= h + 3
        c.showPage()
        for i in range(len(sheet)):
            x, y = slot_xy(i, mirrored=True)
            c.setFillColorRGB(0.216, 0.278, 0.31)
            c.rect(x, y, CARD_W, CARD_H, stroke=0, fill=1)
            c.setFillColorRGB(1, 1, 1)
            c.setFont("NotoSans-Bold", 16)
            c.drawCentredString(x + CARD_W / 2, y + CARD_H / 2, back_title)
        c.showPage()
    c.save()


def art_pdf(deck: dict, game_dir: Path, lang: str, out: Path) -> None:
    c = Canvas(str(out), pagesize=A4)
    cards = deck["cards"]
    back = str(game_dir / deck["back"]["art"])
    for start in range(0, len(cards), COLS * ROWS):
        sheet = cards[start : start + COLS * ROWS]
        for i, card in enumerate(sheet):
            x, y = slot_xy(i, mirrored=False)
            c.drawImage(str(game_dir / card["art"]), x, y, CARD_W, CARD_H)
            c.setFillColorRGB(1, 1, 1)
            c.setFont("NotoSans-Bold", 12)
            c.drawCentredString(x + CARD_W / 2, y + CARD_H - 9 * mm, card["title"][lang])
        c.showPage()
        for i in range(len(sheet)):
            x, y = slot_xy(i, mirrored=True)
            c.drawImage(back, x, y, CARD_W, CARD_H)
        c.showPage()
    c.save()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("kind", choices=["text", "art"])
    parser.add_argument("root", type=Path, help="a pack's content root (benchmarks/gen.py)")
    parser.add_argument("out", type=Path, help="folder for baseline-<lang>.pdf")
    parser.add_argument("--no-a85", action="store_true", help="rl_config.useA85 = 0")
    args = parser.parse_args(argv)
    if args.no_a85:
        rl_config.useA85 = 0
    game, deck, game_dir = load_pack(args.root)
    register_fonts(args.root / "fonts")
    args.out.mkdir(parents=True, exist_ok=True)
    for lang in game["languages"]:
        out = args.out / f"baseline-{lang}.pdf"
        if args.kind == "text":
            text_pdf(game, deck, lang, out)
        else:
            art_pdf(deck, game_dir, lang, out)
        print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
