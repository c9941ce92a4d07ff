"""pnp reads a PO file as GNU gettext reads it, whatever the layout msgfmt accepts.

The oracle is GNU itself: ``msgfmt`` compiles the file and ``msgunfmt`` writes back what it
read; for what a MO file does not keep (comments, flags, obsolete and previous fields),
``msgcat`` writes what GNU's catalog reader read. pnp must read the same texts (and lay them out
as msgcat does), and refuse, at a line, exactly what msgfmt refuses.

Two sources of variants: a table of hand-written ones (keywords and strings on one line or on
several, adjacent strings on one line, octal and hex escapes, backslash-newline, comments on
the line of a msgstr, CRLF, a Latin-1 file...), and a hypothesis strategy that lays out random
entries in random ways (where lines break, where strings split, which bytes are escaped, and
how). Escapes that make bytes that are not text in the file's charset are the one thing pnp
refuses and msgfmt accepts (it warns "invalid multibyte sequence" and drops them).
"""

from __future__ import annotations

import random
import re
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pnp.i18n.catalog import CatalogError, load_catalog
from pnp.i18n.po import Catalog, PoReadError, dumps, parse
from pnp.i18n.pocheck import scan_po

from gettext_tools import GNU, need_gettext

HEADER = (
    'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset={charset}\\n"\n'
    '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n'
)

Reading = dict[tuple[str | None, str], tuple[str | None, tuple[str, ...]]]


def _run(*args: str, data: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(args, input=data, capture_output=True, timeout=60, check=False)


def gnu_reading(path: Path) -> tuple[int, str, Reading | None]:
    """(msgfmt's exit code, what it says, the entries msgunfmt reads back from the MO)."""
    import polib

    mo = path.with_suffix(".mo")
    proc = _run(str(GNU["msgfmt"]), "-c", "-o", str(mo), str(path))
    if proc.returncode != 0:
        return proc.returncode, proc.stderr.decode("utf-8", "replace"), None
    back = _run("msgunfmt", str(mo))
    said = proc.stderr.decode("utf-8", "replace") + back.stderr.decode("utf-8", "replace")
    if back.returncode != 0:  # it aborts on bytes that are not text in the charset
        assert "multibyte sequence" in said, said
        return 0, said, None
    out = path.with_suffix(".unmo.po")
    out.write_bytes(back.stdout)
    reading: Reading = {}
    for e in polib.pofile(str(out), wrapwidth=79):
        forms = (
            tuple(e.msgstr_plural[i] for i in sorted(e.msgstr_plural))
            if e.msgid_plural
            else (e.msgstr,)
        )
        reading[(e.msgctxt, e.msgid)] = (e.msgid_plural or None, forms)
    return 0, said, reading


def pnp_reading(catalog: Catalog) -> Reading:
    """What goes into a MO file: the translated entries that are not fuzzy."""
    out: Reading = {}
    for e in catalog.entries:
        if e.translated and not e.fuzzy:
            out[(e.msgctxt, e.msgid)] = (e.msgid_plural, tuple(e.msgstr))
    return out


def msgcat(data: bytes, charset: str) -> str:
    """What msgcat writes of ``data`` (in the file's own charset), as text."""
    proc = _run(str(GNU["msgcat"]), "-", data=data)
    assert proc.returncode == 0, proc.stderr.decode()
    return proc.stdout.decode("latin-1" if charset == "ISO-8859-1" else "utf-8")


def compare(tmp: Path, data: bytes) -> str:
    """Compare pnp's reading of ``data`` with GNU's: 'read', 'refused' (both refuse) or
    'bytes' (escaped bytes that are not text: msgfmt warns and drops them, pnp refuses)."""
    path = tmp / "variant.po"
    path.write_bytes(data)
    code, said, gnu = gnu_reading(path)
    scan = scan_po(data)
    if code != 0:  # pnp refuses it too (its check, or its reader)
        with pytest.raises(CatalogError) as refused:
            load_catalog(path, "variant.po")
        # at the line msgfmt names, or above it (where the entry to fix starts)
        gnu_lines = [
            int(m) for m in re.findall(r"^[^:\n]*\.po:(\d+):(?! warning| \.\.\.)", said, re.M)
        ]
        assert 1 <= refused.value.problems[0].line <= min(gnu_lines, default=1_000_000), said
        return "refused"
    assert not scan.errors, f"msgfmt accepts, pnp refuses: {scan.errors}\n{data!r}"
    assert scan.text is not None
    try:
        catalog = parse(scan.text, scan.charset)
    except PoReadError as exc:
        # GNU warns (msgfmt), or fails (msgcat), for bytes that are not text
        cat = _run(str(GNU["msgcat"]), "-o", "/dev/null", str(path))
        complaint = said + cat.stderr.decode("utf-8", "replace")
        # (but msgcat drops an untranslated obsolete entry without a word)
        obsolete = data.split(b"\n")[exc.line - 1].lstrip().startswith(b"#~")
        assert "multibyte sequence" in complaint or obsolete, (exc, complaint, data)
        with pytest.raises(CatalogError) as refused:
            load_catalog(path, "variant.po")
        assert refused.value.problems[0].line == exc.line
        return "bytes"
    assert "multibyte sequence" not in said and gnu is not None, (said, data)
    assert pnp_reading(catalog) == {k: v for k, v in gnu.items() if k != (None, "")}, data
    assert catalog.header.msgstr[0].startswith("Content-Type: text/plain; charset=")
    assert dumps(catalog) == msgcat(data, scan.charset), data  # comments, flags, #~ and #|
    load_catalog(path, "variant.po")  # and the whole reading path agrees
    return "read"


# --- the hand-written variants -------------------------------------------------------------

ACCEPTED = {
    "one line": 'msgid "Boss" msgstr "Chefin"\n',
    "one line with msgctxt": 'msgctxt "roles/boss" msgid "Boss" msgstr "Chefin"\n',
    "msgstr, its string on the next line": 'msgid "Boss"\nmsgstr\n"Chefin"\n',
    "msgid, its string on the next line": 'msgid\n"Boss"\nmsgstr "Chefin"\n',
    "msgctxt, its string on the next line": 'msgctxt\n"c"\nmsgid "Boss"\nmsgstr "Chefin"\n',
    "a blank line inside a msgstr": 'msgid "Boss"\nmsgstr "Che"\n\n"fin"\n',
    "adjacent strings on one line": 'msgid "Boss"\nmsgstr "Che" "fin"\n',
    "adjacent strings, no space": 'msgid "Boss"\nmsgstr "Che""fin"\n',
    "keywords glued to strings": 'msgid"Boss"msgstr"Chefin"\n',
    "octal escapes": 'msgid "Boss"\nmsgstr "Ch\\303\\251fin"\n',
    "hex escapes": 'msgid "Boss"\nmsgstr "Ch\\xc3\\xA9" "fin"\n',
    "a hex escape eats every hex digit": 'msgid "Boss"\nmsgstr "\\x4142 \\x41\\x4a"\n',
    "short octal escapes": 'msgid "Boss"\nmsgstr "\\101\\60\\0601"\n',
    "a character split over two strings": 'msgid "Boss"\nmsgstr "Ch\\303" "\\251fin"\n',
    "an escaped character in a msgid": 'msgid "Caf\\303\\251"\nmsgstr "Coffee"\n',
    "\\0 cuts its string": 'msgid "Boss"\nmsgstr "Chef\\000in" "!"\n',
    "backslash-newline in a string": 'msgid "Boss"\nmsgstr "Che\\\nfin"\n',
    "backslash-newline between tokens": 'msgid "Boss"\nmsgstr \\\n"Chefin"\n',
    "tabs, form feeds, CRLF": 'msgid\t"Boss"\r\n\fmsgstr\v"Chefin"\r\n',
    "a comment on the line of a msgstr": (
        'msgid "Boss" msgstr "Chefin" # note\nmsgid "Worker" msgstr "Arbeiterin"\n'
    ),
    "plural forms, spaced": (
        'msgid "card"\nmsgid_plural "cards"\nmsgstr [ 0 ] "Karte"\nmsgstr[1]"Karten"\n'
    ),
    "plural entry on one line": (
        'msgid "card" msgid_plural "cards" msgstr[0] "Karte" msgstr[1] "Karten"\n'
    ),
    "previous fields over several lines": (
        '#, fuzzy\n#| msgctxt "old"\n#| msgid "Bo"\n#| "ss"\n'
        'msgctxt "c" msgid "Boss" msgstr "Chefin"\n'
    ),
    "previous msgid, its string on the next #| line": (
        '#, fuzzy\n#| msgid\n#| "Bos"\nmsgid "Boss"\nmsgstr "Chefin"\n'
    ),
    "obsolete entry on one line": '#~ msgid "Old" msgstr "Alt"\n',
    "obsolete msgstr, its string on the next line": '#~ msgid "Old"\n#~ msgstr\n#~ "Alt"\n',
    "obsolete previous fields": '#, fuzzy\n#~| msgid "Ol"\n#~ msgid "Old"\n#~ msgstr "Alt"\n',
    "flags without commas": '#, fuzzy python-format\nmsgid "Boss %s"\nmsgstr "Chefin %s"\n',
    "flags in #! and no space": '#!fuzzy,c-format\nmsgid "Boss %d"\nmsgstr "Chefin %d"\n',
    "the last flags line counts": '#, fuzzy\n#, no-wrap\nmsgid "Boss"\nmsgstr "Chefin"\n',
    "range flag": '#, range: 1..5\nmsgid "Boss"\nmsgstr "Chefin"\n',
    "comments without a space": '#note\n#.extracted\n#:a.yaml:3\nmsgid "Boss"\nmsgstr "Chefin"\n',
    "comment keeps trailing blanks": '#  two spaces  \n#.  dot  \nmsgid "Boss"\nmsgstr "Chefin"\n',
}

REFUSED = {
    "a comment between msgid and msgstr": 'msgid "Boss"\n# note\nmsgstr "Chefin"\n',
    "a comment between msgctxt and msgid": 'msgctxt "c"\n# note\nmsgid "Boss"\nmsgstr "X"\n',
    "a #| msgid and msgid on one line": '#| msgid "Bos" msgid "Boss"\nmsgstr "Chefin"\n',
    "a string on its own after #~": '#~ msgid "Old"\n#~ msgstr "Al"\n"t"\n',
    "an unclosed string": 'msgid "Boss"\nmsgstr "Chefin\n',
    "a bad escape": 'msgid "Boss"\nmsgstr "Che\\qfin"\n',
    "msgstr without msgid": 'msgstr "Chefin"\n',
    "msgstr[1] first": 'msgid "a"\nmsgid_plural "b"\nmsgstr[1] "x"\nmsgstr[0] "y"\n',
    "a comment between #| and msgid": '#| msgid "old"\n# c\nmsgid "new"\nmsgstr "N"\n',
    "a comment between plural forms": (
        'msgid "a"\nmsgid_plural "b"\nmsgstr[0] "x"\n# c\nmsgstr[1] "y"\n'
    ),
    "a comment inside an obsolete entry": '#~ msgid "o"\n# c\n#~ msgstr "O"\n',
    "a comment on the line of a msgid": 'msgid "a" # c\nmsgstr "b"\n',
    "the same msgid, once escaped": 'msgid "é"\nmsgstr "a"\n\nmsgid "\\303\\251"\nmsgstr "b"\n',
}


@pytest.mark.parametrize("name", sorted(ACCEPTED))
def test_what_msgfmt_accepts_pnp_reads_as_msgunfmt(name: str, tmp_path: Path) -> None:
    need_gettext()
    data = (HEADER.format(charset="UTF-8") + ACCEPTED[name]).encode("utf-8")
    assert compare(tmp_path, data) == "read"


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_what_msgfmt_refuses_is_an_error_at_a_line(name: str, tmp_path: Path) -> None:
    need_gettext()
    data = (HEADER.format(charset="UTF-8") + REFUSED[name]).encode("utf-8")
    assert compare(tmp_path, data) == "refused"


def test_escapes_are_bytes_of_the_files_charset(tmp_path: Path) -> None:
    need_gettext()
    body = 'msgid "Boss"\nmsgstr "Ch\\351fin \\xe9 é"\n'
    data = (HEADER.format(charset="ISO-8859-1") + body).encode("latin-1")
    assert compare(tmp_path, data) == "read"
    scan = scan_po(data)
    assert scan.text is not None
    assert parse(scan.text, scan.charset).entries[0].msgstr == ["Chéfin é é"]


def test_escaped_bytes_that_are_not_text_are_refused_at_their_line(tmp_path: Path) -> None:
    need_gettext()
    body = 'msgid "Boss"\nmsgstr "Chefin"\n\nmsgid "Worker"\nmsgstr\n"Arbeiter\\377in"\n'
    data = (HEADER.format(charset="UTF-8") + body).encode("utf-8")
    assert compare(tmp_path, data) == "bytes"
    path = tmp_path / "variant.po"
    with pytest.raises(CatalogError) as refused:
        load_catalog(path, "variant.po")
    problem = refused.value.problems[0]
    assert (problem.line, problem.col) == (10, 1)  # the msgstr keyword
    assert "UTF-8" in problem.message and "escape" in problem.message


# --- generated variants --------------------------------------------------------------------

TEXT = st.lists(
    st.sampled_from([*'abcx yz-"\\\t{}%', "é", "₽", "日本", "\u00a0", "ß", "Ω", "\n", "01"]),
    min_size=1,
    max_size=14,
).map("".join)
BREAKS = [" ", "", "\n", "\n\n", "\t", "\r\n", " \\\n", "\n# between\n"]


def _escaped(text: str, rnd: random.Random, codec: str = "utf-8") -> str:
    """``text`` inside a string, each character raw or escaped in one of GNU's ways."""
    out = []
    last = ""
    for ch in text:
        way = rnd.choice(["raw", "raw", "raw", "octal", "hex", "named"])
        if ch in '"\\' or (ch in "\n\t" and way == "raw"):
            way = "named"
        elif last == "hex" and ch in "0123456789abcdef" and rnd.random() < 0.8:
            way = "octal"  # (mostly: a hex escape takes every hex digit after it)
        last = way
        if way == "named":
            out.append({"\n": "\\n", "\t": "\\t", '"': '\\"', "\\": "\\\\"}.get(ch, ch))
        elif way == "octal":
            digits = rnd.choice(["{:o}", "{:03o}"])
            out.append("".join("\\" + digits.format(b) for b in ch.encode(codec)))
        elif way == "hex":
            out.append("".join(f"\\x{b:02x}" for b in ch.encode(codec)))
        else:
            out.append(ch)
    return "".join(out)


def _strings(text: str, rnd: random.Random, obsolete: bool, codec: str) -> str:
    """``text`` as one string or several, with random breaks between them."""
    cuts = sorted(rnd.sample(range(1, len(text)), min(len(text) - 1, rnd.randint(0, 3))))
    pieces = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]
    seps = ["\n#~ ", " "] if obsolete else [" ", "", "\n", "\n\n", "\t", " \\\n"]
    out = '"' + _escaped(pieces[0], rnd, codec) + '"'
    for piece in pieces[1:]:
        out += rnd.choice(seps) + '"' + _escaped(piece, rnd, codec) + '"'
    return out


def _entry(item: tuple, rnd: random.Random, codec: str = "utf-8") -> str:
    ctx, msgid, forms, fuzzy, obsolete, previous, comment = item
    seps = ["\n#~ ", " "] if obsolete else BREAKS[:-1] * 3 + BREAKS[-1:]  # (a comment: refused)
    fields = []
    if ctx is not None:
        fields.append(("msgctxt", ctx))
    fields.append(("msgid", msgid))
    if len(forms) > 1:
        fields.append(("msgid_plural", msgid + "s"))
        fields += [(f"msgstr[{i}]", form) for i, form in enumerate(forms)]
    else:
        fields.append(("msgstr", forms[0]))
    body = "#~ " if obsolete else ""
    for i, (keyword, text) in enumerate(fields):
        if i:
            body += rnd.choice(seps)
        body += keyword + rnd.choice(seps)
        body += _strings(text, rnd, obsolete, codec) if text else '""'
    head = f"# {comment}\n" if comment else ""
    head += "#, fuzzy\n" if fuzzy else ""
    if previous:
        head += ("#~| " if obsolete else "#| ") + 'msgid "' + _escaped(previous, rnd, codec) + '"\n'
    return head + body


def _latin1(item: tuple) -> tuple:
    table = str.maketrans({"₽": "¤", "日": "ä", "本": "ö", "Ω": "ø"})

    def fix(value: object) -> object:
        if isinstance(value, str):
            return value.translate(table)
        if isinstance(value, list):
            return [fix(v) for v in value]
        return value

    return tuple(fix(v) for v in item)


ENTRY = st.tuples(
    st.none() | st.sampled_from(["c", "decks/roles/cards/boss/title", "ü"]),  # msgctxt
    TEXT.filter(lambda t: t.strip("\n") == t),  # msgid
    st.lists(TEXT.filter(lambda t: t.strip("\n") == t) | st.just(""), min_size=1, max_size=2),
    st.booleans(),  # fuzzy
    st.booleans(),  # obsolete
    st.none() | TEXT.filter(lambda t: "\n" not in t),  # previous msgid
    st.none() | st.sampled_from(["note", "  two", "Ñ"]),  # translator comment
)


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    st.lists(ENTRY, min_size=1, max_size=5, unique_by=lambda t: (t[0], t[1])),
    st.integers(0, 2**32),
    st.sampled_from(["\n\n", "\n", " ", "\n# between\n"]),
    st.sampled_from(["UTF-8", "UTF-8", "ISO-8859-1"]),
)
def test_generated_layouts_read_as_gnu_reads_them(
    tmp_path_factory: pytest.TempPathFactory, items: list, seed: int, between: str, charset: str
) -> None:
    need_gettext()
    rnd = random.Random(seed)
    codec = "latin-1" if charset == "ISO-8859-1" else "utf-8"
    if codec == "latin-1":  # letters Latin-1 has
        items = [_latin1(item) for item in items]
        items = list({(item[0], item[1]): item for item in items}.values())
    body = between.join(_entry(item, rnd, codec) + "\n" for item in items)
    data = (HEADER.format(charset=charset) + body).encode(codec)
    assert compare(tmp_path_factory.mktemp("variant"), data) in ("read", "refused", "bytes")


# --- what update makes of them -------------------------------------------------------------

UPDATED = {
    "one line": 'msgctxt "{ctx}" msgid "Alpha" msgstr "Alphé"',
    "msgstr, its string on the next line": 'msgctxt "{ctx}"\nmsgid "Alpha"\nmsgstr\n"Alphé"',
    "adjacent strings on one line": 'msgctxt "{ctx}"\nmsgid "Alpha"\nmsgstr "Alp" "hé"',
    "octal escapes": 'msgctxt "{ctx}"\nmsgid "Alpha"\nmsgstr "Alph\\303\\251"',
    "hex escapes": 'msgctxt "{ctx}"\nmsgid "Alpha"\nmsgstr "Alph\\xc3\\xa9"',
}


@pytest.mark.parametrize("name", sorted(UPDATED))
@pytest.mark.parametrize("source_changes", [False, True])
def test_update_keeps_a_translation_in_any_layout(
    name: str, source_changes: bool, tmp_path: Path
) -> None:
    """Before pnp read PO files token by token, `update` emptied a msgstr whose string was on
    the next line (and kept no obsolete copy), and garbled escapes and adjacent strings."""
    need_gettext()
    from typer.testing import CliRunner

    from pnp.cli.commands import app

    from helpers import FIXTURES, make_root

    root = make_root(tmp_path, FIXTURES / "clean")
    runner = CliRunner()
    assert runner.invoke(app, ["i18n", "init", "mini", "fr", "--root", str(root)]).exit_code == 0
    path = root / "locales/fr/LC_MESSAGES/mini.po"
    ctx = "decks/main/cards/alpha/title"
    plain = f'msgctxt "{ctx}"\nmsgid "Alpha"\nmsgstr ""'
    text = path.read_text("utf-8")
    assert plain in text
    path.write_text(text.replace(plain, UPDATED[name].replace("{ctx}", ctx)), "utf-8")
    if source_changes:
        decks = root / "cards/mini/decks.yaml"
        yaml = decks.read_text("utf-8")
        decks.write_text(yaml.replace("title: {en: Alpha,", "title: {en: Alpha One,", 1), "utf-8")
    result = runner.invoke(app, ["i18n", "update", "mini", "--root", str(root)])
    assert result.exit_code == 0, result.output
    catalog = load_catalog(path, "mini.po").catalog
    alpha = next(e for e in catalog.entries if e.msgctxt == ctx)
    assert alpha.msgstr == ["Alphé"]
    assert alpha.fuzzy == source_changes
    assert alpha.previous_msgid == ("Alpha" if source_changes else None)
    assert not catalog.obsolete
    assert _run(str(GNU["msgfmt"]), "-c", "-o", "/dev/null", str(path)).returncode == 0


def test_escaped_bytes_that_are_not_text_stop_every_command_at_their_line(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from pnp.cli.commands import app

    from helpers import FIXTURES, make_root

    root = make_root(tmp_path, FIXTURES / "clean")
    runner = CliRunner()
    assert runner.invoke(app, ["i18n", "init", "mini", "fr", "--root", str(root)]).exit_code == 0
    path = root / "locales/fr/LC_MESSAGES/mini.po"
    plain = 'msgctxt "decks/main/cards/alpha/title"\nmsgid "Alpha"\nmsgstr ""'
    text = path.read_text("utf-8")
    line = text[: text.index(plain)].count("\n") + 3
    path.write_text(text.replace(plain, plain[:-2] + '"Alph\\xe9"'), "utf-8")
    data = path.read_bytes()
    check = runner.invoke(app, ["validate", "mini", "--root", str(root)])
    assert check.exit_code == 1
    assert f"locales/fr/LC_MESSAGES/mini.po:{line}:1: error [po-syntax]" in check.stdout
    assert "not UTF-8 text" in check.stdout
    result = runner.invoke(app, ["i18n", "update", "mini", "--root", str(root)])
    assert result.exit_code == 1 and "nothing was changed" in result.stderr
    assert path.read_bytes() == data
