"""GNU's PO grammar (po-gram-gen.y) as tables: the parser's states, the tokens each one takes,
its default reductions, and what to tell a translator about a syntax error in each state."""

from __future__ import annotations

from .tokens import (
    COMMENT,
    DOMAIN,
    JUNK,
    LBRACKET,
    MSGCTXT,
    MSGID,
    MSGID_PLURAL,
    MSGSTR,
    NUMBER,
    PREV_MSGCTXT,
    PREV_MSGID,
    PREV_MSGID_PLURAL,
    PREV_STRING,
    RBRACKET,
    SHOWN,
    STRING,
    Tok,
)

# Parser states, named after what has been read (see GNU po-gram-gen.y).
P = 0  # between entries
D1 = 1  # domain .
C1 = 2  # msgctxt .
C2 = 3  # msgctxt "..." .
M1 = 4  # msgid .
M2 = 5  # msgid "..." .
M3 = 6  # msgid "..." msgstr .
M4 = 7  # msgid "..." msgstr "..." .
MP1 = 8  # msgid_plural .
MP2 = 9  # msgid_plural "..." .
M6 = 10  # msgid "..." msgid_plural "..." .
PM = 11  # (plural forms) msgstr .   expecting [
B2 = 12  # msgstr [ .
B3 = 13  # msgstr [ N .
B4 = 14  # msgstr [ N ] .
B5 = 15  # msgstr [ N ] "..." .
M5 = 16  # msgid "..." msgstr[N] "..." .   (no msgid_plural)
M7 = 17  # msgid "..." msgid_plural "..." msgstr[N] "..." .
Q1 = 18  # #| msgctxt .
Q2 = 19  # #| msgctxt "..." .
Q3 = 20  # #| msgid .
Q4 = 21  # #| msgid "..." .
Q5 = 22  # #| msgid_plural .
Q6 = 23  # #| msgid_plural "..." .
R = 24  # #| lines read: expecting msgctxt or msgid

# The tokens each state shifts, and to which state; in the states of REDUCES any other token
# completes what was read (bison's default reduction); elsewhere it is a syntax error.
SHIFTS: dict[int, dict[int, int]] = {
    P: {
        COMMENT: P,
        DOMAIN: D1,
        MSGID: M1,
        MSGCTXT: C1,
        PREV_MSGID: Q3,
        PREV_MSGCTXT: Q1,
    },
    D1: {STRING: P},
    C1: {STRING: C2},
    C2: {STRING: C2, MSGID: M1},
    M1: {STRING: M2},
    M2: {STRING: M2, MSGSTR: M3, MSGID_PLURAL: MP1},
    M3: {STRING: M4, LBRACKET: B2},
    M4: {STRING: M4},
    MP1: {STRING: MP2},
    MP2: {STRING: MP2},
    M6: {MSGSTR: PM},
    PM: {LBRACKET: B2},
    B2: {NUMBER: B3},
    B3: {RBRACKET: B4},
    B4: {STRING: B5},
    B5: {STRING: B5},
    M5: {MSGSTR: PM},
    M7: {MSGSTR: PM},
    Q1: {PREV_STRING: Q2},
    Q2: {PREV_STRING: Q2, PREV_MSGID: Q3},
    Q3: {PREV_STRING: Q4},
    Q4: {PREV_STRING: Q4, PREV_MSGID_PLURAL: Q5},
    Q5: {PREV_STRING: Q6},
    Q6: {PREV_STRING: Q6},
    R: {MSGID: M1, MSGCTXT: C1},
}
REDUCES = frozenset({M2, M4, MP2, M6, B5, M5, M7, Q4, Q6})
# States whose first string starts a new list (the others add to the current one).
NEW_LIST = frozenset({C1, M1, M3, MP1, B4, Q1, Q3, Q5})
APPENDS = frozenset({C2, M2, M4, MP2, B5, Q2, Q4, Q6})
# States after which a run of msgstr[N] "..." forms may come.
FORM_STATES = frozenset({M2, M5, M6, M7, B5})


def eof_message(state: int) -> str:
    what = {
        D1: "domain",
        C1: "msgctxt",
        C2: "msgctxt",
        M1: "msgid",
        M3: "msgstr",
        MP1: "msgid_plural",
        PM: "msgstr",
        B2: "msgstr[",
        B3: "msgstr[N",
        B4: "msgstr[N]",
        Q1: "#| msgctxt",
        Q2: "#| msgctxt",
        Q3: "#| msgid",
        Q5: "#| msgid_plural",
        R: "the #| lines",
    }.get(state, "this entry")
    return (
        f"the file ends after {what}, in the middle of an entry: is the file cut short? "
        "Complete the entry or remove it"
    )


def unexpected_message(state: int, tok: Tok) -> str:
    """What to say about a token the grammar does not take in ``state``."""
    kind = tok.kind
    if kind == NUMBER:
        got = f"the number {tok.value}"
    elif kind == JUNK:
        got = f"the character {tok.value!r}"
    else:
        got = SHOWN.get(kind, repr(tok.value))
    if state == P:
        return _between_entries(kind, got)
    return _inside_entry(state, kind, got)


def _between_entries(kind: int, got: str) -> str:
    """A token that cannot start an entry."""
    if kind == STRING:
        return (
            "this string belongs to no keyword: a text in double quotes goes after msgid, "
            "msgstr... or continues the one above (is a keyword missing, or a comment line "
            "in the middle of an entry?)"
        )
    if kind == MSGSTR:
        return (
            "msgstr without a msgid before it: each entry is msgid then msgstr (a comment "
            "line between them ends the entry)"
        )
    if kind == MSGID_PLURAL:
        return "msgid_plural must come right after the msgid of its entry"
    if kind == PREV_STRING:
        return "this #| string belongs to no #| keyword: fix or remove the line"
    if kind == PREV_MSGID_PLURAL:
        return "#| msgid_plural must come right after a #| msgid: fix or remove the line"
    return (
        f"unexpected {got}: a line is a keyword (msgctxt, msgid, msgid_plural, msgstr), "
        "a # comment, or a string in double quotes"
    )


def _inside_entry(state: int, kind: int, got: str) -> str:
    """A token that cannot come next in the entry being read."""
    if state in (M1, C1, MP1):
        word = {M1: "msgid", C1: "msgctxt", MP1: "msgid_plural"}[state]
        return f'{word} needs its text in double quotes after it ({word} "..."), not {got}'
    if state == C2:
        return f"msgctxt must be followed by the msgid of its entry, not {got}"
    if state == M3:
        return f'msgstr needs its text in double quotes after it (msgstr "..."), not {got}'
    if state == PM:
        if kind == STRING:
            return (
                "this entry has msgid_plural: its translations are msgstr[0], msgstr[1]... "
                '(write msgstr[0] "..." instead of msgstr "...")'
            )
        return f"after msgstr in a plural entry comes [N] (msgstr[0], msgstr[1]...), not {got}"
    if state == B2:
        return f"msgstr[ needs the number of the plural form (msgstr[0]...), not {got}"
    if state == B3:
        return f"close the plural form's number with ] (msgstr[0]...), not {got}"
    if state == B4:
        return f'msgstr[N] needs its text in double quotes after it (msgstr[0] "..."), not {got}'
    if state == D1:
        return "domain needs a name in double quotes (and pnp catalogs have no domain line)"
    if state in (Q1, Q3, Q5):
        return f"a #| keyword needs its text in double quotes on the same #| line, not {got}"
    if state == Q2:
        return f"#| msgctxt must be followed by #| msgid, not {got}"
    if state == R:
        return (
            "the #| lines (the previous source text) must be followed directly by the entry's "
            f"msgctxt or msgid, not {got}"
        )
    return f"unexpected {got} here"
