"""Translations for contributors: the catalog loop as a translator lives it, in every tool.

Catalogs pnp writes are checked with GNU gettext itself (msgfmt -c, msgcat, msgmerge), polib
and translate-toolkit; broken catalogs give a finding at the line to fix, exit 1, and are left
byte-for-byte as they were.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader
from typer.testing import CliRunner

from pnp.cli.commands import app
from pnp.i18n.catalog import read_catalog
from pnp.i18n.maintain import template
from pnp.i18n.po import Catalog, Entry, dumps
from pnp.i18n.words import LOCALE_DIR, SHEET_WORDS, builtin, gettext

from gettext_tools import (
    msgcat_diff,
    msgfmt_errors,
    msgmerge_diff,
    need_gettext,
    polib_entries,
    toolkit_units,
)
from helpers import FIXTURES, REPO, make_root

runner = CliRunner()
FR = "locales/fr/LC_MESSAGES/mini.po"


def run(*args: str):
    return runner.invoke(app, list(args), catch_exceptions=False)


def po(root: Path, game: str, lang: str) -> Catalog:
    path = root / "locales" / lang / "LC_MESSAGES" / f"{game}.po"
    return read_catalog(path, path.name)


def entry(catalog: Catalog, ctx: str, obsolete: bool = False) -> Entry:
    entries = catalog.obsolete if obsolete else catalog.entries
    return next(e for e in entries if e.msgctxt == ctx)


def translate(root: Path, ctx: str, *forms: str, lang: str = "fr", game: str = "mini") -> int:
    """Fill an entry the way a PO editor does; the line of its msgstr."""
    path = root / "locales" / lang / "LC_MESSAGES" / f"{game}.po"
    cat = read_catalog(path, path.name)
    found = entry(cat, ctx)
    found.msgstr = list(forms)
    path.write_text(dumps(cat), "utf-8")
    return entry(read_catalog(path, path.name), ctx).msgstr_line


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text("utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), "utf-8")


def tools_accept(po_file: Path, pot: Path | None = None) -> None:
    """msgfmt -c accepts the file, msgcat (and msgmerge) leave it unchanged, polib and
    translate-toolkit read it."""
    need_gettext()
    assert not msgfmt_errors(po_file), msgfmt_errors(po_file)
    assert msgcat_diff(po_file) == [], "\n".join(msgcat_diff(po_file))
    if pot is not None:
        assert msgmerge_diff(po_file, pot) == [], "\n".join(msgmerge_diff(po_file, pot))
    polib_entries(po_file)
    toolkit_units(po_file)


@pytest.fixture
def mini(tmp_path: Path) -> Path:
    root = make_root(tmp_path, FIXTURES / "clean")
    assert run("i18n", "init", "mini", "fr", "--root", str(root)).exit_code == 0
    return root


def test_round_trip_never_loses_a_translation(mini: Path) -> None:
    root = mini
    pot = root / "locales" / "mini.pot"
    before = pot.read_bytes()
    assert "unchanged" in run("i18n", "extract", "mini", "--root", str(root)).stdout
    assert pot.read_bytes() == before  # only the date would change: not rewritten
    path = root / FR
    tools_accept(path, pot)
    cat = po(root, "mini", "fr")
    assert cat.field("Plural-Forms") == "nplurals=2; plural=(n > 1);"
    alpha = entry(cat, "decks/main/cards/alpha/title")
    assert alpha.msgid == "Alpha" and alpha.references == ["cards/mini/decks.yaml:8"]
    # a translator edits the file by hand, with a comment
    edit(
        path,
        'msgctxt "decks/main/cards/alpha/title"\nmsgid "Alpha"\nmsgstr ""',
        '# Alice: "Alpha" reste tel quel en français\n'
        'msgctxt "decks/main/cards/alpha/title"\nmsgid "Alpha"\nmsgstr "Alpha (fr)"',
    )
    edit(
        path,
        'msgid "Pay **1** {coin}."\nmsgstr ""',
        'msgid "Pay **1** {coin}."\nmsgstr "Payez **1** {coin}."',
    )
    # the source changes: a text is reworded, a card is deleted
    decks = root / "cards/mini/decks.yaml"
    edit(decks, "title: {en: Alpha, it: Alfa}", "title: {en: Alpha One, it: Alfa}")
    src = decks.read_text("utf-8")
    start, end = src.index("      - id: beta"), src.index("tokens:")
    decks.write_text(src[:start] + src[end:], "utf-8")
    edit(root / "cards/mini/game.yaml", "deck: main, count: 6", "deck: main, count: 4")
    result = run("i18n", "update", "mini", "--root", str(root))
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "1 changed (fuzzy)" in result.stdout and "1 obsolete" in result.stdout
    tools_accept(path, pot)
    cat = po(root, "mini", "fr")
    alpha = entry(cat, "decks/main/cards/alpha/title")
    assert alpha.msgid == "Alpha One" and alpha.msgstr == ["Alpha (fr)"] and alpha.fuzzy
    assert alpha.previous_msgid == "Alpha"
    assert '#| msgid "Alpha"' in path.read_text("utf-8")
    assert any("Alice" in c for c in alpha.comments)
    beta = entry(cat, "decks/main/cards/beta/text", obsolete=True)
    assert beta.msgstr == ["Payez **1** {coin}."]
    # a second update changes nothing
    again = run("i18n", "update", "mini", "--root", str(root))
    assert ", unchanged" in again.stdout
    # status: 1 fuzzy, each problem named with its line
    status = run("i18n", "status", "mini", "--format", "json", "--root", str(root))
    rows = {r["lang"]: r for r in json.loads(status.stdout)}
    fr = rows["fr"]
    assert fr["fuzzy"] == 1 and fr["total"] == fr["translated"] + fr["fuzzy"] + fr["missing"]
    fuzzy = [p for p in fr["problems"] if p["kind"] == "fuzzy"]
    assert fuzzy[0]["path"] == FR and fuzzy[0]["what"] == "decks/main/cards/alpha/title"
    assert path.read_text("utf-8").splitlines()[fuzzy[0]["line"] - 1] == 'msgstr "Alpha (fr)"'
    assert rows["en"]["source"] and rows["en"]["percent"] == 100.0
    # the card comes back: its translation comes back from the obsolete entries
    decks.write_text(src, "utf-8")
    edit(root / "cards/mini/game.yaml", "deck: main, count: 4", "deck: main, count: 6")
    back = run("i18n", "update", "mini", "--root", str(root))
    assert "1 back from obsolete" in back.stdout, back.stdout
    tools_accept(path, pot)
    cat = po(root, "mini", "fr")
    beta = entry(cat, "decks/main/cards/beta/text")
    assert beta.msgstr == ["Payez **1** {coin}."] and not beta.fuzzy and not cat.obsolete


def test_long_previous_source_stays_valid_po(mini: Path) -> None:
    """A changed text longer than a line: #| lines GNU, polib and translate-toolkit read."""
    root = mini
    long = "Pay **1** {coin}, " + "then draw a card and read it aloud to every player, " * 4
    edit(root / "cards/mini/decks.yaml", 'en: "Pay **1** {coin}."', f'en: "{long}"')
    run("i18n", "update", "mini", "--root", str(root))
    path = root / FR
    translate(root, "decks/main/cards/beta/text", "Payez {coin}.")
    longer = long + "Then shuffle the discard pile into the deck, " * 3
    edit(root / "cards/mini/decks.yaml", long, longer)
    for _ in range(3):  # repeated updates do not mangle anything
        assert run("i18n", "update", "mini", "--root", str(root)).exit_code == 0
        tools_accept(path, root / "locales/mini.pot")
    text = path.read_text("utf-8")
    assert "# |" not in text and text.count("#| msgid") == 1
    from translate.storage import pypo

    unit = next(u for u in pypo.pofile(path.read_bytes()).units if "read it aloud" in u.source)
    assert unit.prev_source == long and unit.isfuzzy()


def test_wrapped_as_gnu_does_both_ways(tmp_path: Path) -> None:
    """pnp's files survive msgcat unchanged; msgcat's and msgmerge's files survive pnp."""
    need_gettext()
    root = tmp_path / "root"
    shutil.copytree(REPO / "cards", root / "cards")
    shutil.copytree(REPO / "pnp" / "data" / "fonts", root / "fonts")
    for game, lang in (("fabg", "fr"), ("which-side", "de"), ("austerity", "pl"), ("status", "ja")):
        assert run("i18n", "init", game, lang, "--root", str(root)).exit_code == 0
        path = root / "locales" / lang / "LC_MESSAGES" / f"{game}.po"
        tools_accept(path, root / "locales" / f"{game}.pot")
        # a translator's tool rewrites it at another width; pnp takes it back to GNU's layout
        import subprocess

        subprocess.run(["msgcat", "-w", "60", "-o", str(path), str(path)], check=True)
        assert run("i18n", "update", game, "--root", str(root)).exit_code == 0
        assert msgcat_diff(path) == []
        before = path.read_bytes()
        subprocess.run(["msgcat", "-o", str(path), str(path)], check=True)
        assert path.read_bytes() == before
        assert ", unchanged" in run("i18n", "update", game, "--root", str(root)).stdout


def test_update_refuses_a_broken_catalog(mini: Path) -> None:
    root = mini
    path = root / FR
    broken = path.read_text("utf-8")[:-40]  # a half-saved file
    path.write_text(broken, "utf-8")
    pot_before = (root / "locales/mini.pot").read_bytes()
    edit(root / "cards/mini/decks.yaml", "{en: Alpha, it: Alfa}", "{en: Alpha Two, it: Alfa}")
    result = run("i18n", "update", "mini", "--root", str(root))
    assert result.exit_code == 1
    assert f"{FR}:" in result.stderr and "nothing was changed" in result.stderr
    assert path.read_text("utf-8") == broken
    assert (root / "locales/mini.pot").read_bytes() == pot_before  # not even the template
    check = run("validate", "mini", "--root", str(root))
    assert check.exit_code == 1 and "[po-syntax]" in check.stdout
    status = run("i18n", "status", "mini", "--root", str(root))
    assert status.exit_code == 1 and "catalog unreadable" in status.stdout


def _broken(root: Path, data: bytes) -> tuple[bytes, list[dict[str, object]]]:
    """Write ``data`` as the French catalog; run every command on it; what validate says."""
    path = root / FR
    path.write_bytes(data)
    found = json.loads(run("validate", "mini", "--format", "json", "--root", str(root)).stdout)
    for args in (
        ("validate", "mini"),
        ("build", "mini", "--lang", "fr"),
        ("i18n", "update", "mini"),
        ("i18n", "status", "mini"),
        ("i18n", "status", "mini", "--format", "json"),
    ):
        result = run(*args, "--root", str(root))
        assert result.exit_code == 1, (args, result.stdout, result.stderr)
        assert "Traceback" not in result.stdout + result.stderr
    assert path.read_bytes() == data  # left byte for byte
    assert not (root / "output/mini/mini-fr-a4.pdf").exists()
    return data, [f for f in found if f["rule"] == "po-syntax"]


def test_utf8_bytes_under_a_latin1_header_are_refused(mini: Path) -> None:
    path = mini / FR
    text = path.read_text("utf-8").replace("charset=UTF-8", "charset=ISO-8859-1")
    text = text.replace('msgid "Alpha"\nmsgstr ""', 'msgid "Alpha"\nmsgstr "Alphé «₽»"')
    _data, errors = _broken(mini, text.encode("utf-8"))
    header = next(n for n, ln in enumerate(text.splitlines(), 1) if "charset=" in ln)
    assert errors and errors[0]["line"] == header and "UTF-8" in str(errors[0]["message"])
    assert not any(f for f in errors if "glyph" in str(f["message"]))


def test_a_true_latin1_catalog_is_read_and_kept(mini: Path) -> None:
    (mini / FR).unlink()
    assert run("i18n", "init", "mini", "nl", "--root", str(mini)).exit_code == 0
    path = mini / "locales/nl/LC_MESSAGES/mini.po"
    cat = read_catalog(path, "mini.po")
    cat.entries = [e for e in cat.entries if e.msgctxt != "pnp"]  # English “quotes”: not Latin-1
    entry(cat, "decks/main/cards/alpha/title").msgstr = ["Alphé"]
    text = dumps(cat).replace("charset=UTF-8", "charset=ISO-8859-1")
    path.write_bytes(text.encode("latin-1"))
    assert run("validate", "mini", "--root", str(mini)).exit_code == 0
    build = run("build", "mini", "--lang", "nl", "--root", str(mini))
    pdf = " ".join(p.extract_text() for p in PdfReader(mini / "output/mini/mini-nl-a4.pdf").pages)
    assert build.exit_code == 0 and "Alphé" in pdf
    # update writes UTF-8, as msgmerge does, and says so; no translation changes
    result = run("i18n", "update", "mini", "--root", str(mini))
    assert "was ISO-8859-1; now UTF-8" in result.stdout, result.stdout
    data = path.read_bytes()
    assert b"charset=UTF-8" in data and "Alphé".encode() in data
    assert entry(read_catalog(path, "mini.po"), "decks/main/cards/alpha/title").msgstr == ["Alphé"]
    tools_accept(path, mini / "locales/mini.pot")


@pytest.mark.parametrize(
    ("case", "old", "new", "at"),
    [
        ("unclosed", 'msgid "Alpha"\nmsgstr ""', 'msgid "Alpha"\nmsgstr "Alph', "msgstr"),
        ("placeholder", '{coin}."\nmsgstr ""', '{coin}."\nmsgstr "{x}"', "msgstr"),
        ("plural-header", "nplurals=2; plural=(n > 1);", "nplurals=2; plural=(n > );", "Plural"),
        ("nplurals", "nplurals=2; plural=(n > 1);", "nplurals=1000000000; plural=0;", "Plural"),
        ("newline", 'msgid "Alpha"\nmsgstr ""', 'msgid "Alpha"\nmsgstr "Alpha\\n"', "msgstr"),
    ],
)  # fmt: skip
def test_what_msgfmt_rejects_is_an_error_at_its_line(
    mini: Path, case: str, old: str, new: str, at: str
) -> None:
    text = (mini / FR).read_text("utf-8")
    assert old in text
    text = text.replace(old, new, 1)
    data, errors = _broken(mini, text.encode("utf-8"))
    start = text[: text.index(new)].count("\n") + 1
    want = start + next((i for i, ln in enumerate(new.split("\n")) if ln.startswith(at)), 0)
    assert errors and errors[0]["line"] == want, (case, errors)
    if case != "nplurals":  # GNU takes a billion forms; pnp refuses them as a deliberate limit
        need_gettext()
        (mini / "x.po").write_bytes(data)
        assert msgfmt_errors(mini / "x.po")


def test_duplicate_entry_names_the_second(mini: Path) -> None:
    path = mini / FR
    text = path.read_text("utf-8")
    block = 'msgctxt "decks/main/cards/alpha/title"\nmsgid "Alpha"\nmsgstr ""\n'
    text = text + "\n" + block.replace('msgstr ""', 'msgstr "Alpha bis"')
    _data, errors = _broken(mini, text.encode("utf-8"))
    second = len(text.splitlines()) - 1  # the second msgid
    assert errors[0]["line"] in (second, second + 1)


def test_plural_forms_survive_updates(mini: Path) -> None:
    """A game declares a plural text; every form a translator wrote is kept."""
    decks = mini / "cards/mini/decks.yaml"
    edit(
        decks,
        'text: {en: "Gain 2 {coin}.", it: "Guadagna 2 {coin}."}',
        'values: {n: 2}\n        text: {count: n, en: {one: "Gain {n} {coin}.", other: "Gain '
        '{n} {coin}s."}, it: {one: "Guadagna {n} {coin}.", other: "Guadagna {n} {coin}."}}',
    )
    assert run("validate", "mini", "--root", str(mini)).exit_code == 0
    assert run("i18n", "update", "mini", "--root", str(mini)).exit_code == 0
    path = mini / FR
    text = path.read_text("utf-8")
    assert 'msgid_plural "Gain {n} {coin}s."' in text
    text = text.replace(
        'msgid_plural "Gain {n} {coin}s."\nmsgstr[0] ""\nmsgstr[1] ""',
        'msgid_plural "Gain {n} {coin}s."\nmsgstr[0] "Gagnez {n} {coin}."\n'
        'msgstr[1] "Gagnez {n} {coin}s."',
    )
    path.write_text(text, "utf-8")
    for _ in range(2):
        assert run("i18n", "update", "mini", "--root", str(mini)).exit_code == 0
        tools_accept(path, mini / "locales/mini.pot")
    alpha = entry(po(mini, "mini", "fr"), "decks/main/cards/alpha/text")
    assert alpha.msgstr == ["Gagnez {n} {coin}.", "Gagnez {n} {coin}s."]
    build = run("build", "mini", "--lang", "fr", "--root", str(mini))
    assert build.exit_code == 0, build.stderr
    pdf = " ".join(p.extract_text() for p in PdfReader(mini / "output/mini/mini-fr-a4.pdf").pages)
    assert "Gagnez 2 ₽s." in pdf  # n = 2: French's second form


def test_findings_point_at_the_msgstr(mini: Path) -> None:
    path = mini / FR
    text = path.read_text("utf-8").replace(
        'msgid "Pay **1** {coin}."\nmsgstr ""',
        'msgid "Pay **1** {coin}."\nmsgstr "Payez 1 {coin}."',
    )
    path.write_text(text, "utf-8")
    line = text.splitlines().index('msgstr "Payez 1 {coin}."') + 1
    found = json.loads(run("validate", "mini", "--format", "json", "--root", str(mini)).stdout)
    markup = [f for f in found if f["rule"] == "translation-markup"]
    assert markup and (markup[0]["path"], markup[0]["line"]) == (FR, line)


def test_a_dropped_paragraph_break_is_reported(mini: Path) -> None:
    decks = mini / "cards/mini/decks.yaml"
    edit(decks, 'en: "Pay **1** {coin}."', 'en: "Pay **1** {coin}.\\n\\nThen rest."')
    run("i18n", "update", "mini", "--root", str(mini))
    translate(mini, "decks/main/cards/beta/text", "Payez **1** {coin}. Puis reposez-vous.")
    found = json.loads(run("validate", "mini", "--format", "json", "--root", str(mini)).stdout)
    breaks = [f for f in found if "paragraph break" in f["message"] and f["path"] == FR]
    assert breaks and "has 0 paragraph break(s), the en text 1" in breaks[0]["message"]


def test_fallbacks_say_where_and_why(mini: Path) -> None:
    path = mini / FR
    edit(path, 'msgid "Alpha"\nmsgstr ""', 'msgid "Alpha"\nmsgstr "Alpha fr"')
    text = path.read_text("utf-8").replace(
        'msgctxt "decks/main/cards/alpha/title"', '#, fuzzy\nmsgctxt "decks/main/cards/alpha/title"'
    )
    path.write_text(text, "utf-8")
    result = run("build", "mini", "--lang", "fr", "--root", str(mini))
    assert result.exit_code == 0
    fuzzy_line = text.splitlines().index('msgstr "Alpha fr"') + 1
    assert f"{FR}:{fuzzy_line}:1: info [fallback] [fr] decks/main/cards/alpha/title" in (
        result.stderr
    )
    assert "is fuzzy" in result.stderr and "is not translated yet" in result.stderr
    assert "more texts of mini printed untranslated in fr" in result.stderr


def test_init_checks_the_language(tmp_path: Path) -> None:
    root = make_root(tmp_path, FIXTURES / "clean")
    result = run("i18n", "init", "mini", "klingon", "--root", str(root))
    assert result.exit_code == 2 and "not a locale code" in result.stderr
    run("i18n", "init", "mini", "pt_BR", "--root", str(root))
    assert po(root, "mini", "pt_BR").field("Language") == "pt_BR"
    again = run("i18n", "init", "mini", "pt_BR", "--root", str(root))
    assert again.exit_code == 2 and "update" in again.stderr


# --- a whole game in French, from a new catalog ---------------------------------------------------

WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")


def _pseudo(text: str) -> str:
    """A made-up French: every word marked with ƒ, placeholders and marks kept."""
    out, i = [], 0
    for m in re.finditer(r"\{[^}]*\}|\*\*|\\n|[^\W\d_]+", text):
        out.append(text[i : m.start()])
        token = m.group(0)
        out.append(token if not token[0].isalpha() else "ƒ" + token)
        i = m.end()
    out.append(text[i:])
    return "".join(out)


def test_fabg_in_french_has_no_english_or_italian_word(tmp_path: Path) -> None:
    root = tmp_path / "root"
    shutil.copytree(REPO / "cards", root / "cards")
    shutil.copytree(REPO / "pnp" / "data" / "fonts", root / "fonts")
    assert run("i18n", "init", "fabg", "fr", "--root", str(root)).exit_code == 0
    path = root / "locales/fr/LC_MESSAGES/fabg.po"
    cat = read_catalog(path, "fabg.po")
    pnp_fr = [e for e in cat.entries if e.msgctxt == "pnp"]
    assert pnp_fr and all(e.complete for e in pnp_fr)  # prefilled from pnp's French words
    french: set[str] = set()
    for e in cat.entries:
        if e.msgctxt != "pnp":
            e.msgstr = [_pseudo(e.msgid) for _ in e.msgstr]
        for form in e.msgstr:
            french.update(w.lower() for w in WORD.findall(form))
    path.write_text(dumps(cat), "utf-8")
    tools_accept(path, root / "locales/fabg.pot")
    status = json.loads(
        run("i18n", "status", "fabg", "--format", "json", "--root", str(root)).stdout
    )
    fr = next(r for r in status if r["lang"] == "fr")
    assert fr["fallbacks"] == 0 and fr["missing"] == 0 and fr["fuzzy"] == 0, fr["problems"][:5]
    result = run("build", "fabg", "--lang", "fr", "--root", str(root))
    assert result.exit_code == 0, result.stderr
    assert "[fallback]" not in result.stderr
    pdf = PdfReader(root / "output/fabg/fabg-fr-a4.pdf")
    from babel.dates import get_month_names

    allowed = french | {m.lower() for m in get_month_names(locale="fr").values()} | {"fr", "mm"}
    foreign: dict[str, int] = {}
    for number, page in enumerate(pdf.pages, 1):
        text = re.sub(r"-\s*\n\s*", "", page.extract_text() or "")  # hyphenated words
        for word in WORD.findall(text):
            bare = word.lstrip("ƒ").lower()
            if word.startswith("ƒ") or word.lower() in allowed or len(bare) <= 1:
                continue
            foreign.setdefault(f"{word} (page {number})", 0)
    assert not foreign, sorted(foreign)[:30]


# --- pnp's own words ------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["it", "es", "fr", "de"])
def test_pnp_words_are_translated(lang: str) -> None:
    need_gettext()
    path = LOCALE_DIR / lang / "LC_MESSAGES" / "pnp.po"
    tools_accept(path, LOCALE_DIR / "pnp.pot")
    own = builtin(lang)
    assert own is not None
    ids = [e.msgid for e in template().entries]
    assert len(ids) > 60 and all(w.msgid in ids for w in SHEET_WORDS)
    missing = [i for i in ids if not own.get(i)]
    assert not missing, f"{lang}: untranslated {missing[:5]}"
    assert msgcat_diff(LOCALE_DIR / "pnp.pot") == []


def test_pnp_pot_is_current() -> None:
    """pnp.pot says what the code says (run `python -m pnp.i18n` after changing words)."""
    committed = read_catalog(LOCALE_DIR / "pnp.pot", "pnp.pot")
    fresh = template()
    assert [(e.msgid, e.msgid_plural) for e in committed.entries] == [
        (e.msgid, e.msgid_plural) for e in fresh.entries
    ]


def test_every_sheet_word_in_the_code_is_registered() -> None:
    """Each w("...") / word("...") in pnp/ names a registered sheet word, and each is used."""
    import ast

    used: set[str] = set()
    for source in (REPO / "pnp").rglob("*.py"):
        for node in ast.walk(ast.parse(source.read_text("utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = getattr(node.func, "attr", getattr(node.func, "id", ""))
            first = node.args[0]
            if name in ("w", "word") and isinstance(first, ast.Constant):
                used.add(first.value)
    from pnp.printing.render import PAGE_KIND_WORDS
    from pnp.printing.render.frontmatter import MESSAGES as FRONT
    from pnp.printing.render.instructions import MESSAGES
    from pnp.printing.render.scenarios import COUNTED
    from pnp.printing.render.setup import PLACEHOLDER_NOTE

    used.update(PAGE_KIND_WORDS.values())
    used.update(MESSAGES)  # the first page's printing advice, chosen by the build's options
    used.update(FRONT)  # the first page's component list
    used.add(PLACEHOLDER_NOTE)
    used.update(w for _what, *words in COUNTED for w in words)  # a scenario step's counts
    registered = {w.msgid for w in SHEET_WORDS}
    assert used - registered == set()
    assert registered - used == set()


def test_words_follow_the_language() -> None:
    assert gettext("fronts", "it") == "fronti" and gettext("fronts", "es") == "frentes"
    assert gettext("fronts", "fr") == "rectos" and gettext("fronts", "de") == "Vorderseiten"
    assert gettext("fronts", "en") == "fronts" and gettext("fronts", "pl") == "fronts"


def test_terminal_follows_the_locale(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = make_root(tmp_path, FIXTURES / "clean")
    monkeypatch.setenv("LANG", "es_ES.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    result = run("validate", "mini", "--root", str(root))
    assert "0 errores, 0 avisos" in result.stderr


@pytest.mark.parametrize("gid", ["fabg", "austerity", "status", "which-side"])
def test_the_template_holds_exactly_what_a_build_prints(
    gid: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """printed_texts() (what templates hold) against every text a real build asks for."""
    from pnp.build.pipeline import printed_texts
    from pnp.content.load import Root, load_game
    from pnp.core.findings import Report
    from pnp.i18n.translator import Translator

    asked: set[str] = set()
    real = Translator.text

    def text(self: Translator, t: object, values: object = None) -> str:
        if t is not None:
            asked.add(t.ctx)  # type: ignore[attr-defined]
        return real(self, t, values)  # type: ignore[arg-type]

    monkeypatch.setattr(Translator, "text", text)
    out = tmp_path / "out"
    result = run(
        "build", gid, "--out", str(out), "--force", "--root", str(REPO), "-j", "1"
    )  # -j 1: the patch sees this process only
    assert result.exit_code == 0, result.stderr
    monkeypatch.setattr(Translator, "text", real)
    game = load_game(Root(REPO), gid, Report())
    assert game is not None
    assert printed_texts(Root(REPO), game) == asked


def test_overflow_in_a_translation_is_named_with_its_po_line(mini: Path) -> None:
    long = "Sehr " * 400 + "{coin}."
    line = translate(mini, "decks/main/cards/alpha/text", long)
    found = json.loads(run("validate", "mini", "--format", "json", "--root", str(mini)).stdout)
    over = [f for f in found if f["rule"] == "text-overflow"]
    assert over and (over[0]["path"], over[0]["line"]) == (FR, line)
    status = run("i18n", "status", "mini", "--format", "json", "--root", str(mini))
    fr = next(r for r in json.loads(status.stdout) if r["lang"] == "fr")
    named = [p for p in fr["problems"] if p["kind"] == "overflow"]
    assert fr["overflow"] == len(named) >= 1 and (named[0]["path"], named[0]["line"]) == (FR, line)
    text = run("i18n", "status", "mini", "--root", str(mini)).stdout
    assert f"{FR}:{line}:1: [fr] " in text
