"""The parser with its fast paths: ordinary entries, runs of comments, of strings, of plural
forms or of dropped tokens, each read with one regular expression (:mod:`.patterns`).

They take only what the token-by-token path (:class:`.parser.TokenParser`) reads the same way,
without an error, and leave everything else to it; the tests check that both paths find the
same. The most common entry (one msgstr, no format flag, its line breaks alike) is only
recorded as seen: msgfmt's later checks have nothing to look at in it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .collect import Collector
from .entries import Flags, Form, read_flags
from .grammar import APPENDS, B4, B5, FORM_STATES, M2, M5, M7, Q2, Q4, Q6, P
from .lexer import SPACE, Lexer, end
from .parser import KEEP_TOKENS, StrList, TokenParser
from .patterns import (
    ACTIVE,
    COMMENTS,
    DISCARD,
    FORM,
    FORM_RUN,
    OBS_FORM,
    OBSOLETE,
    PIECE,
    PREFIX,
    RUNS,
    SPECIAL_REVERSED,
    Pieces,
    decoded,
    pieces,
    strs_cut,
    strs_value,
    text_of,
)
from .problems import MAX_WARNINGS
from .tokens import (
    COMMENT,
    LONG_MAX,
    MSGCTXT,
    MSGID,
    MSGID_PLURAL,
    MSGSTR,
    NUMBER,
    PREV_MSGCTXT,
    PREV_MSGID,
    STRING,
    Tok,
)

_KEYWORD_LENGTH = {MSGCTXT: 7, MSGID: 5, MSGID_PLURAL: 12}


@dataclass(slots=True)
class _EntryStrings:
    """The strings of each field of an entry a fast path matched."""

    prev: Pieces  # the #| lines'
    ctxt: Pieces | None
    msgid: Pieces
    plural: Pieces | None
    forms: list[tuple[int, Pieces, int]]  # (offset of msgstr, strings, index or -1)


class FastParser(TokenParser):
    """The parser: in bulk where it can (when ``fast``), token by token elsewhere."""

    def __init__(self, scan: Collector, lexer: Lexer, fast: bool) -> None:
        super().__init__(scan, lexer)
        self.fast = fast

    def run(self) -> None:
        """Read the whole catalog (or until the scan stops)."""
        lexer = self.lexer
        fast = self.fast
        failed_at = -1  # where the fast path last gave up (the slow path reads on from there)
        while True:
            if fast and not lexer.eilseq:
                if self.la is not None and self.state == P:
                    self.unread(failed_at)
                if self.la is None:
                    if self.state == P:
                        if self.fast_between():
                            continue
                        failed_at = lexer.i
                    elif (self.state in APPENDS and self.fast_strings()) or (
                        self.state in FORM_STATES and self.fast_forms()
                    ):
                        continue
            if self.la is None:
                self.la = lexer.next()
            if not self.step(self.la):
                return

    def unread(self, failed_at: int) -> None:
        """Give the lookahead back to the lexer if it starts what the fast path may read.

        Such a token (a keyword, or a comment line) changed nothing but the position, the line
        count and the #~ and #| flags, which are put back as they were before it.
        """
        tok = self.la
        assert tok is not None
        lexer = self.lexer
        s = lexer.s
        kind = tok.kind
        if kind == COMMENT:
            if tok.obs or lexer.prev or tok.pos == failed_at:
                return
            if lexer.i > tok.pos and s[lexer.i - 1] == "\n":
                lexer.nl -= 1
            lexer.i = tok.pos
        elif kind in (MSGID, MSGCTXT) and not tok.obs and not lexer.prev:
            if tok.pos == failed_at:
                return
            lexer.i = tok.pos
        elif kind in (MSGID, MSGCTXT, PREV_MSGID, PREV_MSGCTXT):
            start = s.rfind("\n", max(0, tok.pos - 80), tok.pos) + 1  # (a prefix is short)
            prefix = PREFIX.fullmatch(s, start, tok.pos)
            if start == failed_at or prefix is None:
                return
            if prefix.group(1) != (
                "#~" if kind in (MSGID, MSGCTXT) else "#|" if not tok.obs else "#~|"
            ):
                return
            lexer.i = start
            lexer.obs = lexer.prev = False
        else:
            return
        self.la = None

    def fast_between(self) -> bool:
        """In state P: read what follows in bulk if it is ordinary. False: use the slow path."""
        lexer = self.lexer
        s = lexer.s
        i = lexer.i
        if i < lexer.n and s[i] in " \t\r\f\v\n":
            lexer.pass_over(i, end(SPACE, s, i))
            i = lexer.i
        if i >= lexer.n:
            return False
        if self.errstatus == 3:  # bison drops every token that cannot start an entry
            m = DISCARD.match(s, i)
            if m is not None:
                lexer.pass_over(i, m.end())
                return True
        if lexer.obs or lexer.prev:
            return False
        return self.fast_run(i)

    def fast_run(self, i: int) -> bool:
        """Read comments and ordinary entries in bulk for as long as they come.

        A plain entry (see plain_key), the most common kind, is only recorded as seen, with the
        line of its msgstr; this is done here, where it costs least.
        """
        lexer = self.lexer
        s = lexer.s
        count = s.count
        line_at = lexer.line_at
        splices = lexer.splices
        seen = self.scan.seen
        msgstr_lines = self.scan.msgstr_lines
        done = False
        while True:
            c = s[i : i + 2]
            if c[:1] == "m" or c == "#|":
                obsolete = False
                m = ACTIVE.match(s, i)
            elif c == "#~":
                obsolete = True
                m = OBSOLETE.match(s, i)
            elif c[:1] == "#":  # comment lines
                if not self.fast_comments(i):
                    return done
                done = True
                i = lexer.i
                continue
            else:
                return done
            if m is None:
                return done
            key = self.plain_key(s, i, m, obsolete)
            if key is None:
                return self.fast_entry(i, m, obsolete) or done
            stop = m.end()
            id_at = m.start(3)
            str_at = m.start(5)
            nl = lexer.nl + count("\n", i, id_at)
            id_line = nl + 1
            nl += count("\n", id_at, str_at)
            if splices:
                id_line = line_at(id_at, id_line - 1)
                str_line = line_at(str_at, nl)
                str_gline = line_at(str_at + 6, nl)
            else:
                str_line = str_gline = nl + 1
            seen[key] = (id_line, obsolete, str_gline)
            if not obsolete:
                msgstr_lines[key] = str_line
            flags = self.flags
            if flags.fuzzy or flags.range:
                self.flags = Flags()
            lexer.last_line = str_line
            lexer.nl = nl + count("\n", str_at, stop)
            lexer.i = i = stop
            # (the next entry may be on the same #~ line: the #~ is still in force)
            lexer.obs = obsolete and s.find("\n", m.end(6), stop) < 0
            self.errstatus = 0
            done = True

    def plain_key(
        self, s: str, i: int, m: re.Match[str], obsolete: bool
    ) -> tuple[str | None, str] | None:
        """(msgctxt, msgid) of a plain entry: one msgstr, no format flag, not a duplicate, and
        nothing msgfmt's later checks look at (its line breaks are alike). None: another kind,
        for fast_entry. (``s``: the text.)"""
        scan = self.scan
        if s[i] == "#":  # #| strings may hold \0 or \004 too
            head = m.start(1) if m.start(1) >= 0 else m.start(3)
            if ("\\" in s[i:head] or "\0" in s[i:head]) and strs_value(s[i:head]) is None:
                return None
        flags = self.flags
        ctxt_raw, id_raw, str_raw = m.group(2, 4, 6)
        if str_raw is None or flags.formats or m.end() - i > scan.max_string:
            return None
        # (one string, no escape: its text is between the quotes)
        if "\\" in id_raw or "\0" in id_raw or id_raw.find('"', 1) != len(id_raw) - 1:
            msgid = strs_value(id_raw)
        else:
            msgid = id_raw[1:-1]
        if "\\" in str_raw or "\0" in str_raw or str_raw.find('"', 1) != len(str_raw) - 1:
            text = strs_value(str_raw)
        else:
            text = str_raw[1:-1]
        ctxt = None if ctxt_raw is None else strs_value(ctxt_raw)
        if (
            msgid is None or text is None or (ctxt_raw is not None and ctxt is None)
        ) and scan.nwarnings >= MAX_WARNINGS:
            counted = self.count_cuts(i, m)
            if counted is not None:
                ctxt, msgid, text = counted
        if (
            msgid is None
            or text is None
            or (ctxt is None and (ctxt_raw is not None or (msgid == "" and not obsolete)))
        ):
            return None
        key = (ctxt, msgid)
        if key in scan.seen:
            return None
        if (
            text
            and not (obsolete or flags.fuzzy)
            and (
                (text[:1] == "\n") != (msgid[:1] == "\n")
                or (text[-1:] == "\n") != (msgid[-1:] == "\n")
            )
        ):
            return None
        return key

    def count_cuts(self, i: int, m: re.Match[str]) -> tuple[str | None, str, str] | None:
        """The msgctxt, msgid and msgstr of an entry whose strings are cut at \\0, when no room
        is left for their warnings: the cuts are only counted. None if a string holds \\004."""
        s = self.lexer.s
        ctxt_raw, id_raw, str_raw = m.group(2, 4, 6)
        head = m.start(1) if m.start(1) >= 0 else m.start(3)
        cuts = [strs_cut(raw) for raw in (s[i:head], ctxt_raw or '""', id_raw, str_raw)]
        if not all(cut is not None for cut in cuts):
            return None
        _prev, ctxt_cut, id_cut, str_cut = cuts
        assert ctxt_cut is not None and id_cut is not None and str_cut is not None
        self.scan.dropped_warnings += sum(cut[1] for cut in cuts if cut is not None)
        return (None if ctxt_raw is None else ctxt_cut[0]), id_cut[0], str_cut[0]

    def fast_comments(self, i: int) -> bool:
        """A run of comment lines: each is a token; only the last #, line's flags count."""
        lexer = self.lexer
        s = lexer.s
        m = COMMENTS.match(s, i)
        if m is None:
            return False
        stop = m.end()
        special = SPECIAL_REVERSED.search(s[stop - 1 : i - 1 if i else None : -1])
        if special is not None or s.startswith(("#,", "#!"), i):
            at = stop - 1 - special.start() - 1 if special is not None else i
            self.flags = Flags()
            read_flags(s[at + 2 : s.find("\n", at)], self.flags)
        if self.errstatus:
            self.errstatus = max(
                0, self.errstatus - 1 - len(re.findall(r"\n[ \t\r\f\v]*#", s[i:stop]))
            )
        newlines = count = s.count("\n", i, stop)
        lexer.last_line = lexer.line_at(stop, lexer.nl + count)
        lexer.nl += newlines
        lexer.i = stop
        return True

    def fast_entry(self, i: int, m: re.Match[str], obsolete: bool) -> bool:
        """An ordinary entry (read by ACTIVE or OBSOLETE) that may need checks later."""
        lexer = self.lexer
        strings = _entry_strings(lexer.s, i, m, obsolete)
        if strings is None:
            return False
        msgid = text_of(strings.msgid)
        if strings.ctxt is None and msgid == "" and not obsolete:
            return False  # the header: the slow path reads its charset
        here, nl = (
            i,
            lexer.nl,
        )  # (counting lines as the pieces come, in the order of the file)
        for group in (strings.prev, strings.ctxt, strings.msgid, strings.plural):
            here, nl = self.warn_cuts(group or [], here, nl)
        for _at, found, _index in strings.forms:
            here, nl = self.warn_cuts(found, here, nl)
        forms = self.entry_forms(i, strings.forms, obsolete)
        intro = self.keyword_at(MSGID, i, m.start(3), obsolete)
        plural_kw = ctxt_kw = None
        if strings.plural is not None:
            plural_kw = self.keyword_at(MSGID_PLURAL, i, m.start(7), obsolete)
            self.plural_counter = len(forms)
        if strings.ctxt is not None:
            ctxt_kw = self.keyword_at(MSGCTXT, i, m.start(1), obsolete)
        stop = m.end()
        lexer.last_line = forms[-1].kw.line
        lexer.nl += lexer.s.count("\n", i, stop)
        lexer.i = stop
        # (the next entry may be on the same #~ line: the #~ is still in force)
        lexer.obs = obsolete and lexer.s.find("\n", max(m.end(6), m.end(9)), stop) < 0
        self.errstatus = 0
        flags = self.flags
        if flags.fuzzy or flags.formats or flags.range:
            self.flags = Flags()
        self.scan.store(
            None if strings.ctxt is None else text_of(strings.ctxt),
            ctxt_kw,
            msgid,
            intro,
            None if strings.plural is None else text_of(strings.plural),
            plural_kw,
            forms,
            flags,
            None,
            None,
            stop - i <= self.scan.max_string,
        )
        return True

    def warn_cuts(self, found: Pieces, here: int, nl: int) -> tuple[int, int]:
        """Warn about each string of ``found`` cut at \\0. Lines are counted on from offset
        ``here``, which ``nl`` newlines precede; return where the counting got to."""
        lexer = self.lexer
        for start, _value, cut in found:
            if cut:
                nl += lexer.s.count("\n", here, start)
                here = start
                self.scan.warn_cut(lexer.line_at(start, nl), start)
        return here, nl

    def entry_forms(
        self, i: int, found: list[tuple[int, Pieces, int]], obsolete: bool
    ) -> list[Form]:
        """The translations of an entry that starts at ``i``, each with its msgstr keyword."""
        lexer = self.lexer
        count = lexer.s.count
        line_at = lexer.line_at
        forms = []
        nl = lexer.nl
        at = i
        for kw_at, strings, index in found:
            nl += count("\n", at, kw_at)
            at = kw_at
            line = line_at(kw_at, nl)
            kw = Tok(MSGSTR, None, line_at(kw_at + 6, nl), line, kw_at, obsolete)
            forms.append(Form(kw, text_of(strings), index))
        return forms

    def keyword_at(self, kind: int, i: int, at: int, obsolete: bool) -> Tok:
        """The token of the keyword at ``at``, in an entry that starts at ``i``."""
        lexer = self.lexer
        nl = lexer.nl + lexer.s.count("\n", i, at)
        gline = lexer.line_at(at + _KEYWORD_LENGTH[kind], nl)
        return Tok(kind, None, gline, lexer.line_at(at, nl), at, obsolete)

    def fast_forms(self) -> bool:
        """A run of msgstr[N] "..." forms, while a plural entry is read token by token."""
        lexer = self.lexer
        if lexer.obs or lexer.prev:
            return False
        s = lexer.s
        i = lexer.i
        m = FORM_RUN.match(s, i)
        if m is None:
            return False
        found = []
        for form in FORM.finditer(s, i, m.end()):
            strings = decoded(s, *form.span(2))
            if strings is None:
                return False  # a \004: the token path reports it
            found.append((form, strings))
        if self.state == B5:  # the form before is complete (msgfmt reads this msgstr first)
            self.end_form()
        elif self.state == M2:  # msgid "..." msgstr[0]: plural forms without msgid_plural
            self.after_plural = False
        else:
            self.after_plural = self.state != M5
        here, nl = i, lexer.nl  # (counting lines as the forms come)
        last = len(found) - 1
        for k, (form, strings) in enumerate(found):
            at = form.start()
            nl += s.count("\n", here, at)
            here = at
            kw = Tok(
                MSGSTR,
                None,
                lexer.line_at(at + 6, nl),
                lexer.line_at(at, nl),
                at,
                False,
            )
            here, nl = self.warn_cuts(strings, here, nl)
            lst = StrList(kw, [value for _start, value, _cut in strings])
            number = min(int(form.group(1)[-19:]), LONG_MAX)
            if k == last:
                self.hold_form(kw, lst, number)
                self.current = lst  # the last one waits for what follows, as in the token path
            elif number != self.plural_counter:
                self.hold_form(kw, lst, number)
                self.end_form()  # (it says which number is wrong)
            else:  # a complete form, as end_form takes it (all its tokens lack #~ alike)
                self.plural_counter += 1
                self.forms.append((kw, lst, number))
                self.state = M7 if self.after_plural else M5
        stop = m.end()
        lexer.nl = nl + s.count("\n", here, stop)
        lexer.last_line = lexer.line_at(stop, lexer.nl)
        lexer.i = stop
        self.errstatus = 0
        return True

    def hold_form(self, kw: Tok, lst: StrList, number: int) -> None:
        """Hold a msgstr[N] form as the token path holds it until what follows is read."""
        self.form_kw = kw
        self.form_lb = self.form_rb = kw
        self.form_num = Tok(NUMBER, number, kw.gline, kw.line, kw.pos, False)
        self.lists[B4] = lst
        self.state = B5

    def fast_strings(self) -> bool:
        """More strings of the field being read, in a run without errors."""
        lexer = self.lexer
        lst = self.current
        if lst is None or lst.first.obs != lexer.obs or (lexer.obs and lexer.prev):
            return False
        if lexer.prev != (self.state in (Q2, Q4, Q6)):
            return False
        s = lexer.s
        i = lexer.i
        m = RUNS[(lexer.obs, lexer.prev)].match(s, i)
        if m is None:
            return False
        stop = m.end()
        if "\\" not in s[i:stop] and "\0" not in s[i:stop] and lst.toks is None:
            values = s[i:stop].split('"')[1::2]
            lst.parts.extend(values)
            strings = len(values)
        elif self.scan.nwarnings >= MAX_WARNINGS and lst.toks is None:
            # no room left for warnings about cut strings: only count them
            counted = strs_cut(s[i:stop])
            if counted is None:
                return False
            lst.parts.append(counted[0])
            self.scan.dropped_warnings += counted[1]
            strings = len(PIECE.findall(s, i, stop))
        else:
            found = pieces(s, i, stop)
            if found is None:
                return False
            self.add_strings(lst, i, found)
            strings = len(found)
        if self.errstatus:
            self.errstatus = max(0, self.errstatus - strings)
        lexer.nl += s.count("\n", i, stop)
        lexer.last_line = lexer.line_at(stop, lexer.nl)
        lexer.i = stop
        return True

    def add_strings(self, lst: StrList, i: int, found: Pieces) -> None:
        """Add strings that start at ``i`` to a field, warning about those cut at \\0."""
        lexer = self.lexer
        nl = lexer.nl
        at = i
        toks = lst.toks
        for start, value, cut in found:
            nl += lexer.s.count("\n", at, start)
            at = start
            line = lexer.line_at(start, nl)
            if cut:
                self.scan.warn_cut(line, start)
            lst.parts.append(value)
            if toks is not None and len(toks) < KEEP_TOKENS:  # a header: where each is
                toks.append(Tok(STRING, value, line, line, start, lexer.obs))


def _entry_strings(s: str, i: int, m: re.Match[str], obsolete: bool) -> _EntryStrings | None:
    """The strings of an entry ACTIVE or OBSOLETE matched at ``i``, each cut at a \\0; None if
    one holds \\004 (the token path reports it) or a form has the wrong number."""
    # the groups: 1 msgctxt, 2 its strings, 3 msgid, 4 ..., 5 msgstr, 6 ..., 7 msgid_plural,
    # 8 ..., 9 the msgstr[N]
    ck, ik, sk, pk = m.start(1), m.start(3), m.start(5), m.start(7)
    head = ck if ck >= 0 else ik
    prev = pieces(s, i, head) if head > i and strs_value(s[i:head]) is None else []
    ctxt = None if ck < 0 else decoded(s, *m.span(2))
    msgid = decoded(s, *m.span(4))
    plural = None if pk < 0 else decoded(s, *m.span(8))
    if prev is None or msgid is None or (ck >= 0 and ctxt is None) or (pk >= 0 and plural is None):
        return None
    forms: list[tuple[int, Pieces, int]] = []
    if sk >= 0:
        text = decoded(s, *m.span(6))
        if text is None:
            return None
        forms.append((sk, text, -1))
    else:
        found = (OBS_FORM if obsolete else FORM).finditer(s, *m.span(9))
        for index, form in enumerate(found):
            if int(form.group(1)[-6:]) != index:
                return None  # the token path says which index is wrong
            text = decoded(s, *form.span(2))
            if text is None:
                return None
            forms.append((form.start(), text, index))
    return _EntryStrings(prev, ctxt, msgid, plural, forms)
