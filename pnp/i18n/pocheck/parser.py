"""The parser, token by token: GNU's grammar and bison's error recovery.

It takes the lexer's tokens in the states of :mod:`.grammar`, checks what msgfmt checks while
reading (every token of an entry is ``#~`` or none is, plural forms are numbered in order, an
entry is complete), hands each complete entry to the :class:`.collect.Collector`, and after a
syntax error drops tokens as bison does until one can start an entry.
"""

from __future__ import annotations

from dataclasses import dataclass

from .collect import Collector
from .entries import Flags, Form, read_flags
from .grammar import (
    B2,
    B3,
    B4,
    B5,
    C1,
    C2,
    D1,
    M1,
    M2,
    M3,
    M4,
    M5,
    M6,
    M7,
    MP1,
    MP2,
    NEW_LIST,
    PM,
    Q1,
    Q2,
    Q3,
    Q4,
    Q5,
    Q6,
    REDUCES,
    SHIFTS,
    P,
    R,
    eof_message,
    unexpected_message,
)
from .lexer import Lexer
from .problems import EAL, PLAIN
from .tokens import (
    COMMENT,
    DOMAIN,
    EOF,
    LBRACKET,
    MSGCTXT,
    MSGID,
    MSGID_PLURAL,
    MSGSTR,
    NAME,
    NUMBER,
    PREV_MSGCTXT,
    PREV_MSGID,
    PREV_MSGID_PLURAL,
    PREV_STRING,
    RBRACKET,
    STRING,
    Tok,
)

KEEP_TOKENS = 1000  # the header's strings whose lines are kept (to point at its fields)


@dataclass(slots=True)
class StrList:
    """string_list: the strings of one field; ``first`` gives its position and #~ flag."""

    first: Tok
    parts: list[str]
    toks: list[Tok] | None = None


class TokenParser:
    """The entry being read, the grammar state, and bison's error recovery."""

    def __init__(self, scan: Collector, lexer: Lexer) -> None:
        self.scan = scan
        self.lexer = lexer
        self.state = P
        self.errstatus = 0
        self.plural_counter = 0  # GNU resets it only at msgid_plural
        self.flags = Flags()  # from #, lines; GNU forgets them only when an entry is stored
        self.la: Tok | None = None
        self.reset()

    def reset(self) -> None:
        """Forget the entry being read (complete, or dropped by an error)."""
        self.prev_ctxt_kw: Tok | None = None
        self.prev_kw: Tok | None = None
        self.prev_plural_kw: Tok | None = None
        self.ctxt_kw: Tok | None = None
        self.domain_kw: Tok | None = None
        self.intro: Tok | None = None  # msgid
        self.plural_kw: Tok | None = None
        self.msgstr_kw: Tok | None = None
        self.form_kw: Tok | None = None
        self.form_lb: Tok | None = None
        self.form_num: Tok | None = None
        self.form_rb: Tok | None = None
        self.lists: dict[int, StrList] = {}  # by the state that started each list
        self.current: StrList | None = None
        self.forms: list[tuple[Tok, StrList, int]] = []
        self.after_plural = False  # the plural forms being read follow a msgid_plural

    def same_obs(self, first: Tok, second: Tok) -> None:
        """GNU check_obsolete: all tokens of an entry are #~ or none is."""
        if first.obs != second.obs:
            if second.obs:
                what = "this line is marked obsolete (#~) but the entry it belongs to is not"
            else:
                what = "this line lacks the #~ of the obsolete entry it belongs to"
            self.scan.error(
                second.line,
                self.lexer.col(second.pos),
                f"{what}: an entry is obsolete on all its lines or on none (add or remove #~)",
                ((second.gline, EAL),),
            )

    def step(self, tok: Tok) -> bool:
        """Take the lookahead token as bison does: shift it, reduce, or recover from an error.
        False when the file is read (or the scan stopped)."""
        state = self.state
        nxt = SHIFTS[state].get(tok.kind)
        if nxt is not None:
            self.la = None
            if self.errstatus:
                self.errstatus -= 1
            self.state = nxt
            self.shift(state, tok)
            return True
        if state == P and tok.kind == EOF:
            return False
        if state in REDUCES:
            self.reduce(state)
            return True
        if self.errstatus == 0:
            self.syntax_error(state, tok)
        elif self.errstatus == 3:
            if tok.kind == EOF:
                return False
            self.la = None  # bison drops a token that cannot start anything
        self.errstatus = 3
        self.state = P
        self.reset()
        return not self.scan.stopped

    # -- shifting a token: keep what the entry needs of it --
    def shift(self, state: int, tok: Tok) -> None:
        kind = tok.kind
        if tok.cut:
            self.scan.warn_cut(tok.line, tok.pos)
        if kind in (STRING, PREV_STRING):
            self.shift_string(state, tok)
        elif kind == COMMENT:
            text = tok.value
            assert isinstance(text, str)
            if text[:1] in (",", "!"):
                # msgfmt 0.21 keeps only the last #, line: each one replaces the flags
                self.flags = Flags()
                read_flags(text[1:], self.flags)
        elif kind in (MSGID, PREV_MSGID):
            self.shift_msgid(state, tok)
        elif kind == MSGSTR:
            if state == M2:
                self.msgstr_kw = tok
            else:  # M5, M6, M7: another plural form
                self.form_kw = tok
                self.after_plural = state != M5
        else:
            self.shift_other(state, tok)

    def shift_string(self, state: int, tok: Tok) -> None:
        if state == D1:
            self.scan.on_domain(tok)
        elif state in NEW_LIST:
            keep = state == M3 and self.ctxt_kw is None and not any(self.lists[M1].parts)
            lst = StrList(tok, [tok.value], [tok] if keep else None)  # type: ignore[list-item]
            self.lists[state] = lst
            self.current = lst
        else:
            lst = self.current  # type: ignore[assignment]
            assert lst is not None
            self.same_obs(lst.first, tok)
            lst.parts.append(tok.value)  # type: ignore[arg-type]
            if lst.toks is not None and len(lst.toks) < KEEP_TOKENS:
                lst.toks.append(tok)

    def shift_msgid(self, state: int, tok: Tok) -> None:
        if tok.kind == MSGID:
            if state == C2:  # msg_intro: MSGCTXT string_list MSGID
                assert self.ctxt_kw is not None
                self.same_obs(self.ctxt_kw, self.lists[C1].first)
                self.same_obs(self.ctxt_kw, tok)
            if self.prev_kw is not None:  # message_intro: prev msg_intro
                self.same_obs(self.prev_kw, tok)
            self.intro = tok
        else:
            if state == Q2:  # prev_msg_intro: PREV_MSGCTXT prev_string_list PREV_MSGID
                assert self.prev_ctxt_kw is not None
                self.same_obs(self.prev_ctxt_kw, self.lists[Q1].first)
                self.same_obs(self.prev_ctxt_kw, tok)
            self.prev_kw = tok

    def shift_other(self, state: int, tok: Tok) -> None:
        """A keyword, [, N or ] that is only kept, to be checked when its part is complete."""
        kind = tok.kind
        if kind == DOMAIN:
            self.domain_kw = tok
        elif kind == MSGCTXT:
            self.ctxt_kw = tok
        elif kind == MSGID_PLURAL:
            self.plural_kw = tok
        elif kind == NUMBER:
            self.form_num = tok
        elif kind == RBRACKET:
            self.form_rb = tok
        elif kind == PREV_MSGCTXT:
            self.prev_ctxt_kw = tok
        elif kind == PREV_MSGID_PLURAL:
            self.prev_plural_kw = tok
        elif kind == LBRACKET:
            if state == M3:  # msgid "..." msgstr[ : plural forms without msgid_plural
                self.form_kw = self.msgstr_kw
                self.msgstr_kw = None
                self.after_plural = False
            self.form_lb = tok

    # -- reducing: a part, or the whole entry, is complete --
    def reduce(self, state: int) -> None:
        """The default reduction of ``state``: a part, or the whole entry, is complete."""
        if state == MP2:  # msgid_pluralform: MSGID_PLURAL string_list
            assert self.plural_kw is not None
            self.same_obs(self.plural_kw, self.lists[MP1].first)
            self.plural_counter = 0
            self.state = M6
        elif state == B5:  # pluralform, then pluralform_list
            self.end_form()
        elif state == Q4:  # prev: prev_msg_intro prev_string_list
            assert self.prev_kw is not None
            self.same_obs(self.prev_kw, self.lists[Q3].first)
            self.state = R
        elif state == Q6:  # prev_msgid_pluralform, then prev with it
            assert self.prev_kw is not None and self.prev_plural_kw is not None
            self.same_obs(self.prev_plural_kw, self.lists[Q5].first)
            self.same_obs(self.prev_kw, self.lists[Q3].first)
            self.same_obs(self.prev_kw, self.prev_plural_kw)
            self.state = R
        else:
            self.end_message(state)

    def end_form(self) -> None:
        """pluralform: MSGSTR '[' NUMBER ']' string_list (GNU checks the numbering here)."""
        kw, lb, num, rb = self.form_kw, self.form_lb, self.form_num, self.form_rb
        assert kw is not None and lb is not None and num is not None and rb is not None
        lst = self.lists[B4]
        self.same_obs(kw, lb)
        self.same_obs(kw, num)
        self.same_obs(kw, rb)
        self.same_obs(kw, lst.first)
        if num.value != self.plural_counter:
            if self.plural_counter == 0:
                what = f"the first plural form must be msgstr[0], not msgstr[{num.value}]"
            else:
                what = (
                    f"plural forms are numbered in order: msgstr[{self.plural_counter}] comes "
                    f"here, not msgstr[{num.value}]"
                )
            self.scan.error(kw.line, self.lexer.col(kw.pos), what, ((kw.gline, EAL),))
        self.plural_counter += 1
        if self.forms:  # pluralform_list: pluralform_list pluralform
            self.same_obs(self.forms[0][0], kw)
        self.forms.append((kw, lst, num.value))  # type: ignore[arg-type]
        self.state = M7 if self.after_plural else M5

    def end_message(self, state: int) -> None:
        """An entry is complete (GNU's rules for message): check it, hand it to the catalog."""
        intro = self.intro
        assert intro is not None
        self.same_obs(intro, self.lists[M1].first)
        if state == M4:
            kw = self.msgstr_kw
            assert kw is not None
            lst = self.lists[M3]
            self.same_obs(intro, kw)
            self.same_obs(intro, lst.first)
            self.on_message([Form(kw, "".join(lst.parts))], lst.toks)
        elif state == M7:
            assert self.plural_kw is not None
            self.same_obs(intro, self.plural_kw)
            self.same_obs(intro, self.forms[0][0])
            forms = [Form(kw, "".join(lst.parts), k) for kw, lst, k in self.forms]
            self.on_message(forms, None)
        elif state == M6:
            assert self.plural_kw is not None
            self.same_obs(intro, self.plural_kw)
            self.incomplete(
                intro,
                "this entry has msgid_plural but no translations: add msgstr[0], msgstr[1]... "
                "after it (as many as the header's nplurals)",
            )
        elif state == M5:
            self.same_obs(intro, self.forms[0][0])
            self.incomplete(
                intro,
                "msgstr[N] is for plural entries, and this one has no msgid_plural: add the "
                'msgid_plural line after msgid, or write a single msgstr "..."',
            )
        else:  # M2
            self.incomplete(
                intro,
                'this msgid has no msgstr: add msgstr "" (or the translation) after it',
            )
        self.state = P
        self.reset()

    def incomplete(self, intro: Tok, message: str) -> None:
        """An entry that lacks its translations, named at its msgid."""
        self.scan.error(intro.line, self.lexer.col(intro.pos), message, ((intro.gline, EAL),))

    def on_message(self, forms: list[Form], str_toks: list[Tok] | None) -> None:
        """A whole entry is read (GNU do_callback_message): the collector keeps it."""
        flags = self.flags
        self.flags = Flags()
        assert self.intro is not None
        self.scan.store(
            self.field_text(C1),
            self.ctxt_kw,
            self.field_text(M1) or "",
            self.intro,
            self.field_text(MP1),
            self.plural_kw,
            forms,
            flags,
            str_toks,
            self.la,
        )

    def field_text(self, state: int) -> str | None:
        lst = self.lists.get(state)
        return None if lst is None else "".join(lst.parts)

    # -- what to say about a syntax error --
    def syntax_error(self, state: int, tok: Tok) -> None:
        scan = self.scan
        if tok.kind == NAME:
            scan.extend_last(tok.gline)  # msgfmt says "keyword unknown", then "syntax error"
            return
        if tok.kind == EOF:
            message = eof_message(state)
        elif tok.kind == COMMENT and state != P:
            message = (
                "a comment line (#...) cannot come inside an entry: move it above the entry "
                "(comments first, then #| lines, then msgctxt or msgid)"
            )
        else:
            message = unexpected_message(state, tok)
        line, col = tok.line, self.lexer.col(tok.pos)
        # After a keyword waiting for its text, the line to fix is the keyword's (msgfmt names
        # the line of the token it could not take, maybe the next entry's)
        keyword = self.waiting_keyword(state)
        if keyword is not None and keyword.line < line:
            if tok.kind != EOF:
                message += f" (on line {line})"
            line, col = keyword.line, self.lexer.col(keyword.pos)
        scan.error(line, col, message, ((tok.gline, PLAIN),))

    def waiting_keyword(self, state: int) -> Tok | None:
        """The keyword (or [, N, ]) that waits for what comes next in ``state``, if any."""
        return {
            D1: self.domain_kw,
            C1: self.ctxt_kw,
            M1: self.intro,
            MP1: self.plural_kw,
            M3: self.msgstr_kw,
            PM: self.form_kw,
            B2: self.form_lb,
            B3: self.form_num,
            B4: self.form_rb,
            Q1: self.prev_ctxt_kw,
            Q3: self.prev_kw,
            Q5: self.prev_plural_kw,
        }.get(state)
