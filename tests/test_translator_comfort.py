"""Translator comfort: a merge conflict in a catalog is called one; pnp's counts use plural
forms."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from typer.testing import CliRunner

from pnp.cli.commands import app
from pnp.i18n.words import ngettext

from helpers import FIXTURES, make_root

runner = CliRunner()
PO = "locales/it/LC_MESSAGES/mini.po"


def conflicted(tmp_path: Path) -> Path:
    root = make_root(tmp_path, FIXTURES / "po-warning")
    (root / "expected.txt").unlink(missing_ok=True)
    po = root / PO
    text = po.read_text("utf-8").replace(
        'msgstr "Alfa"\n', '<<<<<<< HEAD\nmsgstr "Alfa"\n=======\nmsgstr "Alpha"\n>>>>>>> fr\n'
    )
    po.write_text(text, "utf-8")
    return root


def test_a_git_merge_conflict_is_called_one(tmp_path: Path) -> None:
    root = conflicted(tmp_path)
    if shutil.which("msgfmt"):  # GNU refuses the file too, with three syntax errors
        gnu = subprocess.run(["msgfmt", "-c", "-o", "/dev/null", str(root / PO)], check=False)
        assert gnu.returncode != 0
    result = runner.invoke(app, ["validate", "mini", "--root", str(root)])
    assert result.exit_code == 1
    errors = [ln for ln in result.stdout.splitlines() if " error " in ln]
    assert errors == [
        f"{PO}:18:1: error [po-syntax] a git merge conflict (lines 18-22): git kept both sides "
        "of an edit between its <<<<<<<, ======= and >>>>>>> lines; keep the translation you "
        "want, delete the three marker lines, then run `msgcat` or `pnp i18n update` to check "
        "the file"
    ]
    before = (root / PO).read_bytes()
    update = runner.invoke(app, ["i18n", "update", "mini", "--root", str(root)])
    assert update.exit_code == 1 and "merge conflict" in update.output
    assert (root / PO).read_bytes() == before


def test_counts_take_plural_forms(tmp_path: Path) -> None:
    root = conflicted(tmp_path)
    result = runner.invoke(app, ["validate", "mini", "--root", str(root)])
    assert "mini: 1 error, 0 warnings" in result.output
    assert ngettext("{n} error", "{n} errors", 1, "it").format(n=1) == "1 errore"
    assert ngettext("{n} error", "{n} errors", 3, "it").format(n=3) == "3 errori"
    assert ngettext("{n} warning", "{n} warnings", 1, "fr").format(n=1) == "1 avertissement"


PL = "locales/pl/LC_MESSAGES/mini.po"


def term_findings(root: Path) -> list[str]:
    result = runner.invoke(app, ["validate", "mini", "--root", str(root)])
    return [ln for ln in result.stdout.splitlines() if "[inconsistent-term]" in ln]


def test_a_glossary_settles_a_term(tmp_path: Path) -> None:
    root = make_root(tmp_path, FIXTURES / "inconsistent-term")
    (root / "expected.txt").unlink(missing_ok=True)
    before = term_findings(root)
    assert any(ln.startswith(f"{PL}:89:1: ") and "two ways" in ln for ln in before)
    po = root / PL
    # the translator decides: Alpha is "Pierwsza", everywhere
    text = po.read_text("utf-8").replace("# glossary: Alpha\n", "# glossary: Alpha = Pierwsza\n")
    po.write_text(text, "utf-8")
    after = term_findings(root)
    card_title, card_text = f"{PL}:54:1: ", f"{PL}:59:1: "
    assert [ln.split("warning")[0] for ln in after if "'Alpha'" in ln] == [card_title, card_text]
    (title,) = [ln for ln in after if ln.startswith(card_title)]
    assert "'Alfa' here, but the glossary (line 5) says 'Pierwsza'" in title
    assert not any(ln.startswith(f"{PL}:89:1: ") for ln in after)  # the column agrees now
    assert not any(ln.startswith(f"{PL}:5:1: ") for ln in after)  # the line reads now
    # update keeps the glossary where it is, and it still settles the term
    assert runner.invoke(app, ["i18n", "update", "mini", "--root", str(root)]).exit_code == 0
    assert "# glossary: Alpha = Pierwsza\n# glossary: Coin = Moneta" not in po.read_text()
    assert "# glossary: Coin = Moneta\n# glossary: Alpha = Pierwsza\nmsgid" in po.read_text()
    assert any("glossary (line 5) says 'Pierwsza'" in ln for ln in term_findings(root))


def test_inflected_terms_pass_and_names_keep_their_case(tmp_path: Path) -> None:
    from pnp.validate.terms import _holds

    assert _holds("Weź monetę, potem pokaż swoją Betę.", "Moneta")
    assert _holds("Zdobądź 2 monety. Odrzuć Alfę.", "Alfa")
    assert _holds("Il Robot di Nascita", "robot")
    assert not _holds("Weź żeton.", "Moneta")
    root = make_root(tmp_path, FIXTURES / "inconsistent-term")
    po = root / PL
    # "Coin" is in the glossary: found as "coin" too; "Beta" is a name: "beta" is not it
    text = po.read_text("utf-8").replace(
        'msgid "Take a Coin, then show your Beta."\nmsgstr "Weź monetę',
        'msgid "Take a coin, then show your beta."\nmsgstr "Weź żeton',
    )
    po.write_text(text, "utf-8")
    (line,) = [ln for ln in term_findings(root) if ln.startswith(f"{PL}:69:1: ")]
    assert "'Coin' (the glossary 'Moneta' at line 4)" in line and "'Beta'" not in line


def test_status_puts_a_catalog_error_first_and_never_counts_it_done(tmp_path: Path) -> None:
    root = make_root(tmp_path, FIXTURES / "po-syntax")
    result = runner.invoke(app, ["i18n", "status", "mini", "--root", str(root)])
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0].startswith(
        "locales/fr/LC_MESSAGES/mini.po:12:8: error [po-syntax] [fr] this string is not closed"
    )
    assert lines[1].startswith("game ")
    (fr,) = [ln for ln in lines if ln.startswith("mini ") and " fr " in ln]
    assert "%" not in fr and "catalog unreadable" in fr  # no count: nothing of it was read
    assert "pnp i18n update" not in result.stdout  # its texts are not listed one by one
    data = runner.invoke(app, ["i18n", "status", "mini", "--format", "json", "--root", str(root)])
    (row,) = [r for r in json.loads(data.stdout) if r["lang"] == "fr"]
    assert row["percent"] is None and row["translated"] is None and not row["readable"]


def test_status_lists_the_missing_entries(tmp_path: Path) -> None:
    root = make_root(tmp_path, FIXTURES / "inconsistent-term")
    po = root / PL
    text = po.read_text("utf-8").replace(
        'msgid "Take a Coin, then show your Beta."\nmsgstr "Weź monetę, potem pokaż swoją kartę."',
        'msgid "Take a Coin, then show your Beta."\nmsgstr ""',
    )
    po.write_text(text, "utf-8")
    assert runner.invoke(app, ["i18n", "update", "mini", "--root", str(root)]).exit_code == 0
    result = runner.invoke(app, ["i18n", "status", "mini", "--root", str(root)])
    lines = result.stdout.splitlines()
    (row,) = [ln for ln in lines if ln.startswith("mini ") and " pl " in ln]
    missing = int(row.split()[5])
    listed = [ln for ln in lines if "[pl] not translated: " in ln]
    # the card's text first (the file's order), with its context, source text and msgstr line
    line = po.read_text("utf-8").splitlines().index('msgid "Take a Coin, then show your Beta."')
    assert listed[0] == (
        f"{PL}:{line + 2}:1: [pl] not translated: decks/main/cards/beta/text "
        "“Take a Coin, then show your Beta.”"
    )
    assert len(listed) == 12 < missing  # shortened, and says so
    more = f"  ... and {missing - 12} more (missing) in mini pl; `pnp -v i18n status mini`"
    assert any(ln.startswith(more) for ln in lines)
    every = runner.invoke(app, ["-v", "i18n", "status", "mini", "--root", str(root)])
    assert len([ln for ln in every.stdout.splitlines() if "not translated: " in ln]) == missing


BELOW = 80  # points below the text's box that are still its face, blank, on the proof
LONG_FR = (
    "Gagnez deux pièces, puis "
    + "racontez une très longue histoire à chaque joueuse autour de la table, " * 6
    + "{coin}."
)


def test_the_proof_clips_an_overflowing_text_and_marks_it(tmp_path: Path) -> None:
    """Seen on the rendered page: the French text laid out past its box (its glyphs are in
    the page's content below the box) prints nothing there, and the box is framed in red
    with the mark word inside it."""
    import pdfplumber
    import pypdfium2

    from pnp.i18n.catalog import read_catalog
    from pnp.i18n.po import dumps
    from pnp.i18n.words import gettext

    root = make_root(tmp_path, FIXTURES / "clean")
    decks = root / "cards/mini/decks.yaml"
    text = decks.read_text("utf-8").replace(
        "    name: {en: Main deck, it: Mazzo}\n",
        "    name: {en: Main deck, it: Mazzo}\n    layout: plain\n",
    )
    text += (  # one text box at the top of a white card, nothing below it
        "layouts:\n  plain:\n    elements:\n"
        "      - {name: text, box: [5, 5, 53, 12], field: text, size: 9, min_size: 8}\n"
    )
    decks.write_text(text, "utf-8")
    assert runner.invoke(app, ["i18n", "init", "mini", "fr", "--root", str(root)]).exit_code == 0
    po = root / "locales/fr/LC_MESSAGES/mini.po"
    cat = read_catalog(po, po.name)
    for entry in cat.entries:
        if entry.msgctxt == "decks/main/cards/alpha/text":
            entry.msgstr = [LONG_FR]
    po.write_text(dumps(cat), "utf-8")
    args = ["build", "mini", "--lang", "fr", "--proof", "--root", str(root)]
    result = runner.invoke(app, args)
    # an error (French is not built), but the proof is still written, for the translator
    assert result.exit_code == 1 and "error [text-overflow] [fr]" in result.output
    proof = root / "output/mini/mini-fr-proof.pdf"
    scale = 4  # pixels per point
    image = pypdfium2.PdfDocument(proof)[0].render(scale=scale).to_pil().convert("RGB")
    pixels = image.load()
    width, height = image.size
    red = [
        (x, y)
        for y in range(0, height, 2)
        for x in range(0, width, 2)
        if pixels[x, y][0] > 180 and pixels[x, y][1] < 60 and pixels[x, y][2] < 60
    ]
    assert red, "no red frame on the proof"
    left, right = min(x for x, _ in red), max(x for x, _ in red)
    top, bottom = min(y for _, y in red), max(y for _, y in red)
    # the red frame is the text's box: 53 x 12 mm, shown smaller beside the source face
    assert 1.5 < (right - left) / (bottom - top) < 8
    with pdfplumber.open(proof) as pdf:
        chars = pdf.pages[0].chars
    red_chars = [c for c in chars if tuple(c["non_stroking_color"] or ())[:1] > (0.8,)]
    red_chars = [c for c in red_chars if tuple(c["non_stroking_color"])[1:] == (0, 0)]
    assert "".join(c["text"] for c in red_chars) == gettext("overflow", "fr")  # the mark...
    for c in red_chars:  # ...inside the frame
        assert left <= c["x0"] * scale and c["x1"] * scale <= right + 1
        assert top <= c["top"] * scale and c["bottom"] * scale <= bottom + 2
    # the text goes on below its box in the page's content...
    below = [
        c
        for c in chars
        if left < c["x0"] * scale < right
        and bottom + 4 < c["top"] * scale < bottom + BELOW * scale  # on the same face
        and c["text"].strip()
    ]
    assert len(below) > 50
    # ...and not one of those glyphs is printed: nothing dark below the frame
    dark = [
        (x, y)
        for y in range(bottom + 3, bottom + BELOW * scale)
        for x in range(left + 2, right - 1)
        if sum(pixels[x, y]) < 3 * 120
    ]
    assert dark == []


def test_a_column_prints_its_codes_by_their_labels(tmp_path: Path) -> None:
    """Codes the checks compare (black+red) print as their labels, translated like any text."""
    from pypdf import PdfReader

    from pnp.i18n.catalog import read_catalog
    from pnp.i18n.po import dumps

    root = make_root(tmp_path, FIXTURES / "clean")
    decks = root / "cards/mini/decks.yaml"
    decks.write_text(
        decks.read_text("utf-8")
        + "  pairs:\n    title: {en: Pairs, it: Coppie}\n    columns:\n"
        + "      - id: pair\n        title: {en: Pair, it: Coppia}\n"
        + "        labels: {black: {en: Debt, it: Debito}, red: {en: Crime, it: Crimine}}\n"
        + "      - {id: score, title: {en: Score, it: Punti}}\n"
        + "    rows:\n      - [black+red, 1]\n      - [red+red, 2]\n",
        "utf-8",
    )
    game = root / "cards/mini/game.yaml"
    game.write_text(game.read_text("utf-8").replace("tables: [deal]", "tables: [deal, pairs]"))
    assert runner.invoke(app, ["validate", "mini", "--root", str(root)]).exit_code == 0
    assert runner.invoke(app, ["i18n", "init", "mini", "fr", "--root", str(root)]).exit_code == 0
    po = root / "locales/fr/LC_MESSAGES/mini.po"
    cat = read_catalog(po, po.name)
    french = {"Debt": "Dette", "Crime": "Délit"}
    labels = [e for e in cat.entries if (e.msgctxt or "").startswith("tables/pairs/")]
    assert {e.msgid for e in labels if "/labels/" in (e.msgctxt or "")} == set(french)
    for entry in labels:
        entry.msgstr = [french.get(entry.msgid, entry.msgid)]
    po.write_text(dumps(cat), "utf-8")
    result = runner.invoke(app, ["build", "mini", "--lang", "fr", "--root", str(root)])
    assert result.exit_code == 0, result.output
    pdf = PdfReader(root / "output/mini/mini-fr-a4.pdf")
    text = " ".join(page.extract_text() for page in pdf.pages)
    assert "Dette+Délit" in text and "Délit+Délit" in text
    assert "black" not in text and "red+red" not in text
