"""pnp.i18n.gnuwrap against the real GNU tools: what pnp lays out must be what msgcat writes.

Each differential test writes ONE PO file holding many entries, each field on a single long
line (GNU reads any layout), runs ``msgcat`` (or ``msgmerge``) once on it, and compares the
output line by line with the file pnp's functions lay out for the same entries. The contract
is GNU gettext 0.21 (with libunistring 1.0, Debian 12): with another version the tests skip.
"""

from __future__ import annotations

import random
import re
import shutil
import subprocess
import textwrap
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pnp.i18n.gnuwrap import escape, field_lines, reference_lines

from helpers import needs_tool


def _gettext_version() -> str | None:
    exe = shutil.which("msgcat")
    if exe is None:
        return None
    first = subprocess.run([exe, "--version"], capture_output=True, text=True).stdout
    return first.splitlines()[0].rsplit(" ", 1)[-1] if first else "unknown"


_VERSION = _gettext_version()
needs_msgcat = (
    needs_tool(True, "no msgcat on PATH (install GNU gettext 0.21)")
    if _VERSION is None
    else pytest.mark.skipif(
        _VERSION != "0.21", reason=f"layout is GNU gettext 0.21's; msgcat here is {_VERSION}"
    )
)

# Everything the corpus is made of: the scripts and punctuation pnp's catalogs hold.
_CORPUS = (
    "le la carte joueur défausse pioche à été où déjà garçon cœur naïve Ökonomie Straße "
    "größer łódź żółć zażółć gęślą jaźń mañana señor ¿qué ¡sí perché città però "
    "каждый раз существо получите урон Ещё ход λέξη καλημέρα αγαπώ "
    "中文 日本語 テスト 한국어 ภาษาไทย สวัสดี שלום עולם مرحبا بالعالم "
    "😀 👍🏽 👨‍👩‍👧 🇫🇷🇩🇪 e\u0301 n\u0303 a\u0308 "
    "and/or a/b/c http://example.com/path?x=1 face-down re-roll x-y "
    "(voir règle 4.2) [x] {name} «\u00a0oui\u00a0» “quoted” ‘single’ \"dq\" 'sq' "
    "100\u00a0₽ 1\u202f000\u202f000 12,5 3.14 50\u00a0% 50% 7½ — – … -5 +3 #1 @ & * "
    "back\\slash tab\there new\nline end\n 아이 한국"
)
WORDS = _CORPUS.split(" ")
COMBINING = "\u0301\u0303\u0308\u200d"
SPACE_LIKE = [" ", " ", " ", "  ", "\u00a0", "\u202f", "\t", "\n"]
ALPHABET = sorted(set("".join(WORDS)) | {" "})

HEADER = "Content-Type: text/plain; charset=UTF-8\n"


@dataclass
class Entry:
    """One PO entry: its fields in GNU's order, with the prefix they are written with."""

    msgid: str
    msgstr: str = ""
    msgctxt: str | None = None
    plural: str | None = None
    forms: list[str] = field(default_factory=list)
    previous: list[tuple[str, str]] = field(default_factory=list)  # (keyword, value)
    refs: list[str] = field(default_factory=list)
    obsolete: bool = False
    wrap: bool = True
    flags: list[str] = field(default_factory=list)
    keep: dict[str, list[tuple[int, int]]] = field(default_factory=dict)
    width: int = 79  # the page width (msgcat --width)

    def fields(self) -> list[tuple[str, str, str]]:
        """(prefix, keyword, value) of every string field, in file order."""
        out = []
        previous = "#~| " if self.obsolete else "#| "
        prefix = "#~ " if self.obsolete else ""
        out += [(previous, keyword, value) for keyword, value in self.previous]
        if self.msgctxt is not None:
            out.append((prefix, "msgctxt", self.msgctxt))
        out.append((prefix, "msgid", self.msgid))
        if self.plural is not None:
            out.append((prefix, "msgid_plural", self.plural))
            out += [(prefix, f"msgstr[{i}]", form) for i, form in enumerate(self.forms)]
        else:
            out.append((prefix, "msgstr", self.msgstr))
        return out

    def comments(self) -> list[str]:
        flags = [*self.flags, *([] if self.wrap else ["no-wrap"])]
        return [f"#, {', '.join(flags)}"] if flags else []

    def raw(self) -> list[str]:
        """The entry as GNU reads it, every field and the references on one line each."""
        out = [f"#: {' '.join(self.refs)}"] if self.refs else []
        out += self.comments()
        out += [f'{p}{k} "{escape(v)}"' for p, k, v in self.fields()]
        return out

    def laid_out(self) -> list[str]:
        """The entry as pnp lays it out."""
        out = reference_lines(self.refs, self.width)
        out += self.comments()
        for prefix, keyword, value in self.fields():
            keep = self.keep.get(keyword, [])
            out += field_lines(keyword, value, prefix, wrap=self.wrap, width=self.width, keep=keep)
        return out


def _file(entries: list[Entry], lines_of: str) -> str:
    """A PO file: a header, the active entries, then the obsolete ones (where GNU puts them)."""
    width = entries[0].width
    blocks = [[*field_lines("msgid", ""), *field_lines("msgstr", HEADER, width=width)]]
    ordered = [e for e in entries if not e.obsolete] + [e for e in entries if e.obsolete]
    blocks += [getattr(entry, lines_of)() for entry in ordered]
    return "\n\n".join("\n".join(block) for block in blocks) + "\n"


def _gnu(tmp_path: Path, text: str, *command: str) -> str:
    """Run a GNU tool on the PO text once; its output."""
    src = tmp_path / "in.po"
    src.write_text(text, encoding="utf-8")
    # msgmerge updates the file from itself: same entries, same references.
    args = [*command, str(src), str(src)] if command[0] == "msgmerge" else [*command, str(src)]
    done = subprocess.run(args, capture_output=True, text=True, encoding="utf-8")
    assert done.returncode == 0, done.stderr
    return done.stdout


def _assert_same(expected: str, actual: str) -> None:
    """Line by line, showing the entry around the first difference."""
    ours, gnus = expected.split("\n"), actual.split("\n")  # not splitlines: U+2028 is text
    for number, (a, b) in enumerate(zip(ours, gnus, strict=False)):
        if a != b:
            start = max(0, number - 6)
            ctx_ours = "\n".join(ours[start : number + 4])
            ctx_gnu = "\n".join(gnus[start : number + 4])
            pytest.fail(f"line {number + 1} differs\n--- pnp:\n{ctx_ours}\n--- GNU:\n{ctx_gnu}")
    assert len(ours) == len(gnus), f"pnp wrote {len(ours)} lines, GNU {len(gnus)}"


def _check(tmp_path: Path, entries: list[Entry], *options: str) -> int:
    """msgcat reads the entries written raw and must write exactly pnp's layout; returns the
    number of string fields compared."""
    gnu = _gnu(tmp_path, _file(entries, "raw"), "msgcat", *options)
    _assert_same(_file(entries, "laid_out"), gnu)
    return sum(len(entry.fields()) for entry in entries)


def _text(rnd: random.Random, length: int) -> str:
    """Words of the corpus, separated like text is, up to about `length` characters."""
    out: list[str] = []
    size = 0
    while size < length:
        piece = rnd.choice(WORDS) if rnd.random() < 0.75 else rnd.choice(SPACE_LIKE)
        if rnd.random() < 0.05:
            piece = rnd.choice("xwm") * rnd.randint(20, 120)  # a word with no break in it
        out.append(piece)
        size += len(piece)
    return "".join(out)[:length]


# ---------------------------------------------------------------------------------------------
# Without GNU tools.


def test_escape_as_gnu_writes() -> None:
    assert escape('a\\b"c\nd\te\rf\ag\bh\fi\vj') == 'a\\\\b\\"c\\nd\\te\\rf\\ag\\bh\\fi\\vj'
    assert escape("é\u00a0€\x01") == "é\u00a0€\x01"  # other characters raw


def test_small_layouts() -> None:
    assert field_lines("msgid", "") == ['msgid ""']
    assert field_lines("msgstr", "a\n", "#~ ") == ['#~ msgstr "a\\n"']
    assert field_lines("msgid", "a\nb") == ['msgid ""', '"a\\n"', '"b"']
    long = "word " * 30
    assert field_lines("msgid", long, wrap=False) == [f'msgid "{long}"']
    assert field_lines("msgid", long + "\n" + long, wrap=False) == [
        'msgid ""',
        f'"{long}\\n"',
        f'"{long}"',
    ]
    assert reference_lines([]) == []
    assert reference_lines(["./a.py:1", "a.py:1", "b.py"]) == ["#: a.py:1 b.py"]


def test_fast_and_slow_paths_agree() -> None:
    """The regex path and the character-by-character walk give the same layout: a combining
    mark on the first letter sends a string to the walk without changing where it breaks."""
    rnd = random.Random(7)
    for _ in range(500):
        text = "Z" + "".join(
            c for c in _text(rnd, rnd.randint(60, 300)) if c < "\u3000" and c not in COMBINING
        )
        walked = field_lines("msgstr", "Z\u0301" + text[1:])
        assert [line.replace("\u0301", "") for line in walked] == field_lines("msgstr", text)


# ---------------------------------------------------------------------------------------------
# Against msgcat.

HANDPICKED = [
    "",
    "a",
    "\n",
    "\n\n",
    "trailing newline\n",
    "two\nlines",
    "tab\there and\ttab",
    'quotes "inside" and \\ backslashes \\\\ and \\n not a newline',
    "x" * 200,
    "x" * 60 + " " + "y" * 60,
    "face-down re-roll and/or http://example.com/a/b/c (see rule 4.2) [x] {name}",
    "«\u00a0Pioche une carte\u00a0» — puis défausse-la… Tu gagnes 100\u00a0₽ (50\u00a0%).",
    "Стоимость 1\u202f000\u202f000\u00a0₽ — каждый раз, когда существо получает урон…",
    "καλημέρα κόσμε, αγαπώ τα ελληνικά — «λέξη» 12,5 3.14 7½",
    "中文日本語テスト中文日本語テスト中文日本語テスト中文日本語テスト中文日本語テスト",
    "ภาษาไทยภาษาไทยภาษาไทยภาษาไทยภาษาไทยภาษาไทยภาษาไทยภาษาไทยภาษาไทยภาษาไทย",
    "שלום עולם - מרחבא בالعالم مرحبا بالعالم שלום-עולם עברית-עברית " * 2,
    "emoji 😀👍🏽👨\u200d👩\u200d👧🇫🇷🇩🇪 " * 5,
    "combining e\u0301e\u0301e\u0301 n\u0303 a\u0308 " * 8,
    "Zażółć gęślą jaźń — größer Straße ¿qué? ¡sí! perché città però naïve cœur " * 2,
    "“double” ‘single’ «guillemets» 'apostrophe' \"ascii\" — – … -5 +3 #1 @ & * % 50% " * 2,
    "line separator\u2028in the middle of a long enough text to need a break " * 2,
    "the other escapes: bell\a backspace\b form feed\f return\r vertical tab\v " * 2,
    "a backslash at the end of a line that is long enough to need a break ......... \\",
    "a backslash before the newline of a line long enough to need a break ..........\\\n",
    "x" * 74 + '"""' + "y" * 10,
]


def _limit_cases() -> list[str]:
    """Texts whose lines end exactly around the width: 77 to 80 columns with `msgid "`."""
    out = []
    for total in range(74, 84):
        body = total - len('msgid ""')
        for cut in (0, 1, 2, body // 2):
            words = ("a" * cut + " " + "b" * body)[:body] if cut else "c" * body
            out.append(words)
            out.append(words + " tail")
            out.append("zz " + words)
        out.append("w " * (body // 2))
        out.append(("é" * body)[:body] + " é")
    # Continuation lines at 76 to 80 columns.
    for size in range(74, 81):
        out.append("first line\n" + "d" * (size - 2) + " e")
        out.append("first line\n" + "ff " * (size // 3) + "g")
    return out


@needs_msgcat
def test_handpicked_cases_in_every_field_kind(tmp_path: Path) -> None:
    entries = []
    for i, text in enumerate(HANDPICKED + _limit_cases()):
        entries.append(Entry(msgid=f"{i} {text}", msgstr=text))
        entries.append(Entry(msgid=f"c{i}", msgctxt=text, msgstr=text, wrap=False))
        entries.append(
            Entry(msgid=f"p{i}", plural=text, forms=[text, text[::-1]], previous=[("msgid", text)])
        )
        entries.append(
            Entry(
                msgid=f"o{i}",
                msgstr=text or "x",
                obsolete=True,
                previous=[("msgctxt", text), ("msgid", text)],
            )
        )
    assert _check(tmp_path, entries) > 1000


# One character of each line-break class libunistring 1.0 knows (CP2 has none; CR and LF
# never reach it: they are escaped).
CLASS_SAMPLES = {
    "WJ": "\u2060", "GL": "\u00a0", "B2": "—", "BA": "–", "BB": "´", "HY": "-", "CL": "}",
    "CP1": ")", "EX": "!", "IN": "…", "NS": "ー", "OP1": "(", "OP2": "\uff08", "QU": "«",
    "IS": ",", "NU": "5", "PO": "%", "PR": "$", "SY": "/", "AL": "a", "H2": "아", "H3": "한",
    "ID1": "中", "ID2": "\U0001f203", "JL": "\u1100", "JV": "\u1161", "JT": "\u11a8",
    "HL": "א", "RI": "\U0001f1eb", "ZWJ": "\u200d", "EB": "\U0001f44d", "EM": "\U0001f3fd",
    "BK": "\u2028", "CM": "\u0301", "ZW": "\u200b", "SP": " ",
}  # fmt: skip
CONTEXT_CLASSES = ("AL", "HL", "HY", "BA", "RI", "ZWJ", "CM", "ZW", "SP", "BK", "NU", "QU")


def _columns(text: str) -> int:
    """Display width, near enough to put a pair of characters at the end of a line."""
    wide = sum(unicodedata.east_asian_width(c) in "WF" for c in text)
    zero = sum(
        unicodedata.combining(c) > 0 or c in "\u200b\u200d\u2060\u2028" or "\u1160" <= c < "\u1200"
        for c in text
    )
    return len(text) + wide - zero


@needs_msgcat
def test_every_class_pair_at_a_line_end(tmp_path: Path) -> None:
    """Every pair of classes, next to each other and with a space between, placed where the
    line is full, so that whether GNU may break between them decides the layout; and every
    triple of the classes whose rules look further back than one character. (The pair table
    entries that libunistring never reads, row and column ZWJ and RI after RI, cannot show.)"""
    middles = [
        x + gap + y
        for x in CLASS_SAMPLES.values()
        for y in CLASS_SAMPLES.values()
        for gap in ("", " ")
    ]
    middles += [
        CLASS_SAMPLES[a] + CLASS_SAMPLES[b] + CLASS_SAMPLES[c]
        for a in CONTEXT_CLASSES
        for b in CONTEXT_CLASSES
        for c in CONTEXT_CLASSES
    ]
    entries = []
    for i, middle in enumerate(middles):
        fill = 77 - _columns(middle[:-1])
        # The line full just before the last character; or one column past full, the first
        # character glued to the line by a word joiner (what comes then breaks even when it
        # is zero columns wide); or a space before the characters.
        entries.append(Entry(msgid=f"{i}", msgstr="\n" + "z" * fill + middle + "zz"))
        glued = "z" * (fill + 1) + "\u2060" + middle + "zz"
        entries.append(Entry(msgid=f"{i}+", msgstr="\n" + glued))
        entries.append(Entry(msgid=f"{i}s", msgstr="\n" + "z" * (fill - 2) + " " + middle + "z"))
    assert _check(tmp_path, entries) > 20000


@needs_msgcat
def test_seeded_corpus(tmp_path: Path) -> None:
    """Several thousand generated strings, in all field kinds and prefixes, in one msgcat run."""
    rnd = random.Random(20240601)
    entries = []
    for i in range(1500):
        texts = [_text(rnd, rnd.choice((5, 40, 70, 76, 77, 78, 79, 80, 150, 400))) for _ in "ab"]
        kind = rnd.random()
        wrap = rnd.random() > 0.1
        if kind < 0.5:
            entries.append(Entry(msgid=f"{i} {texts[0]}", msgstr=texts[1], wrap=wrap))
        elif kind < 0.7:
            entries.append(
                Entry(msgid=f"{i}", plural=texts[0], forms=[texts[1], texts[0]], wrap=wrap)
            )
        elif kind < 0.85:
            prev = [("msgctxt", texts[1]), ("msgid", texts[0])]
            entries.append(Entry(msgid=f"{i}", msgctxt=texts[0], msgstr=texts[1], previous=prev))
        else:
            prev = [("msgid", texts[0])]
            entries.append(
                Entry(msgid=f"{i}", msgstr=texts[1] or "x", obsolete=True, previous=prev, wrap=wrap)
            )
    assert _check(tmp_path, entries) >= 3000


_words = st.lists(
    st.one_of(st.text(alphabet=ALPHABET, min_size=1, max_size=12), st.sampled_from(SPACE_LIKE)),
    max_size=40,
).map("".join)


@needs_msgcat
@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(batch=st.lists(_words, min_size=30, max_size=60), prefix=st.sampled_from(["", "#~ "]))
def test_hypothesis_batches(tmp_path_factory: pytest.TempPathFactory, batch, prefix) -> None:
    """Each example is a batch of strings: one msgcat call per batch."""
    obsolete = prefix == "#~ "
    entries = [
        Entry(msgid=f"{i}", msgstr=text or "x", obsolete=obsolete, previous=[("msgid", text)])
        for i, text in enumerate(batch)
    ]
    _check(tmp_path_factory.mktemp("batch"), entries)


@needs_msgcat
def test_other_page_widths(tmp_path: Path) -> None:
    """``msgcat --width``: the same layout at another page width."""
    rnd = random.Random(9)
    for width in (40, 60, 100):
        entries = [
            Entry(
                msgid=f"{i}",
                msgstr=_text(rnd, rnd.choice((20, 50, 90, 200))),
                refs=[f"src/{'d' * rnd.randint(1, 30)}.py:{n}" for n in range(rnd.randint(0, 6))],
                width=width,
            )
            for i in range(200)
        ]
        _check(tmp_path, entries, f"--width={width}")


@needs_msgcat
def test_references(tmp_path: Path) -> None:
    rnd = random.Random(5)
    names = [
        "cards/deck.yaml",
        "a.py",
        "locales/fr/very/long/path/" + "segment/" * 6 + "file.yaml",
        "dir with space/file.yaml",
        "naïve/éléments.yaml",
        "x" * 90,
    ]
    entries = []
    for i in range(300):
        refs = []
        for _ in range(rnd.choice((1, 2, 5, 12, 30))):
            name = rnd.choice(names)
            refs.append(name if rnd.random() < 0.1 else f"{name}:{rnd.randint(1, 99999)}")
        if rnd.random() < 0.2:
            refs += refs[:3]  # repeated references are written once
        entries.append(Entry(msgid=f"r{i}", refs=refs))
    entries.append(Entry(msgid="odd", refs=["a.py : 12", "b.py: 7", "c.py:007", ":5", "d.py:"]))
    _check(tmp_path, entries)


@needs_msgcat
def test_references_are_a_fixed_point(tmp_path: Path) -> None:
    """msgcat compares references before it drops a leading "./", so reading ./a.py:1 and
    a.py:1 it writes a.py:1 twice, and once on the next run. pnp writes the second form."""
    refs = ["./cards/deck.yaml:3", "cards/deck.yaml:3", "./x.yaml", "x.yaml", "y.yaml:1"]
    entries = [Entry(msgid=f"{i}", refs=refs * i) for i in range(1, 9)]
    laid_out = _file(entries, "laid_out")
    assert "#: cards/deck.yaml:3 x.yaml y.yaml:1" in laid_out
    _assert_same(laid_out, _gnu(tmp_path, laid_out, "msgcat"))


@needs_msgcat
def test_format_directives_kept_whole(tmp_path: Path) -> None:
    """GNU does not break inside a format directive of a *-format entry; `keep` says where."""
    rnd = random.Random(11)
    directive = re.compile(r"%[-+ #0]*\d*(?:\.\d+)?[sdf]")
    entries = []
    changed = 0
    for i in range(300):
        words = [rnd.choice(["word", "card", "% d", "% 5d", "%-5d", "%s", "%+.2f", "x-y"])]
        while sum(map(len, words)) < rnd.randint(60, 250):
            words.append(rnd.choice(["word", "card", "% d", "% 5d", "%-5d", "%s", "x-y"]))
        text = " ".join(words)
        keep = [m.span() for m in directive.finditer(text)]
        entries.append(
            Entry(
                msgid=f"{i}",
                msgstr=text,
                flags=["python-format"],
                keep={"msgstr": keep},
            )
        )
        changed += field_lines("msgstr", text) != field_lines("msgstr", text, keep=keep)
    assert changed > 20  # the spans matter for many of these entries
    _check(tmp_path, entries)


@needs_msgcat
def test_msgmerge_writes_the_same_layout(tmp_path: Path) -> None:
    """msgmerge (updating a catalog from itself) leaves pnp's layout unchanged."""
    rnd = random.Random(3)
    entries = [
        Entry(
            msgid=f"{i} {_text(rnd, rnd.choice((30, 80, 200)))}",
            msgstr=_text(rnd, rnd.choice((0, 78, 300))),
            refs=[f"cards/{i}.yaml:{n}" for n in range(rnd.randint(1, 9))],
        )
        for i in range(400)
    ]
    laid_out = _file(entries, "laid_out")
    _assert_same(laid_out, _gnu(tmp_path, laid_out, "msgmerge", "--quiet", "-o", "-"))


def _naive(keyword: str, value: str) -> list[str]:
    """What a textwrap-based writer does (polib, babel): wrap the escaped text at spaces."""
    lines = textwrap.wrap(escape(value), 77, break_long_words=False, drop_whitespace=False)
    if len(lines) == 1 and len(keyword) + len(lines[0]) + 3 <= 79:
        return [f'{keyword} "{lines[0]}"']
    return [f'{keyword} ""'] + [f'"{line}"' for line in lines]


# textwrap fits "gain 2" in 77 columns and moves the space to the next line; GNU counts the
# space with the "2 " piece it ends, so the line breaks before "2".
NAIVE_DIFFERS = (
    "Draw two cards, then discard one of them. If you discarded a creature, gain 2 life points "
    "and/or draw another card."
)


@needs_msgcat
def test_naive_textwrap_disagrees_and_this_module_agrees(tmp_path: Path) -> None:
    """A check that can fail: textwrap's layout of this text is not GNU's; ours is."""
    entry = Entry(msgid="naive", msgstr=NAIVE_DIFFERS)
    gnu = _gnu(tmp_path, _file([entry], "raw"), "msgcat").split("\n")[:-1]
    gnu_msgstr = gnu[gnu.index('msgid "naive"') + 1 :]
    assert gnu_msgstr == field_lines("msgstr", NAIVE_DIFFERS)
    assert gnu_msgstr != _naive("msgstr", NAIVE_DIFFERS)
