"""The Plural-Forms header of a gettext catalog: read it safely and evaluate it like GNU gettext.

A header says how many plural forms a language has and which one a number takes::

    Plural-Forms: nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 ? 1 : 2);

The expression is C over the single variable ``n``: integer literals, parentheses, ``!``,
``* / %``, ``+ -``, ``< > <= >=``, ``== !=``, ``&&``, ``||`` and ``?:``, with C's precedences.
This module reads exactly what GNU gettext's ``msgfmt -c`` (0.21) accepts: the same tokens (no
unary minus, no hexadecimal, only spaces and tabs between tokens), the same grammar, and the
expression ends at ``;``, at a line end or at the end of the value. Nothing is handed to
``eval``: the expression becomes a small tree of Python functions.

Like ``msgfmt -c``, :func:`parse_plural_forms` evaluates the expression for every ``n`` from 0
to 1000, in unsigned 64-bit arithmetic, and refuses one that divides by zero, gives a value that
is negative as a signed number, or gives a value of ``nplurals`` or more. pnp refuses a few
things GNU tolerates, on purpose: ``nplurals`` above 100 (a hostile ``nplurals=1000000000`` once
made another library allocate a billion forms), an expression longer than 1,000 characters, and
one nested more than 100 levels deep.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache

MAX_NPLURALS = 100
"""pnp's limit: more plural forms than this is not a language, it is an attack or a typo."""
MAX_EXPRESSION = 1000
"""pnp's limit on the characters of a plural expression (real ones are under 200)."""
MAX_DEPTH = 100
"""pnp's limit on how deeply an expression nests (real ones nest about 10 levels)."""
CHECKED_N = range(0, 1001)
"""The numbers msgfmt -c evaluates the expression for, and so does pnp."""

_MASK = (1 << 64) - 1
_SIGN = 1 << 63
_EXAMPLE = "nplurals=2; plural=(n != 1);"


class PluralError(ValueError):
    """A Plural-Forms value that msgfmt -c (or pnp) refuses.

    ``col`` is the 1-based column in the header value where the problem is; the message says
    what to write instead.
    """

    def __init__(
        self, message: str, col: int = 1, *, gnu: bool = True, stage: str = "expression"
    ) -> None:
        super().__init__(message)
        self.message = message
        self.col = col
        self.gnu = gnu
        """False when only pnp refuses this (a limit of its own), True when msgfmt -c does too."""
        self.stage = stage
        """What failed: "nplurals", "expression" (reading it), "evaluation" or "limit"."""


Evaluator = Callable[[int], int]


@dataclass(frozen=True)
class PluralForms:
    """A checked Plural-Forms header: the number of forms and the expression choosing one."""

    nplurals: int
    expr: str

    def index(self, n: int) -> int:
        """The plural form (0 .. nplurals-1) for the number ``n``.

        ``n`` is taken as gettext takes it, an unsigned 64-bit number (so -1 is 2**64 - 1).
        As gettext does at run time, a value outside the forms (possible only for a number above
        1000, where the expression was not checked) gives form 0, and so does a division by zero.
        """
        try:
            value = _evaluator_for(self.expr)(n & _MASK)
        except ZeroDivisionError:
            return 0
        return value if value < self.nplurals else 0


@dataclass
class HeaderPlural:
    """What msgfmt -c finds about the plural forms in a header entry's text (see inspect_header).

    ``errors`` are in msgfmt's order; each is a PluralError whose ``gnu`` says whether msgfmt
    refuses it too. ``nplurals_at`` and ``plural_at`` are the offsets of ``nplurals=`` and
    ``plural=`` in the text, or -1.
    """

    nplurals_at: int = -1
    plural_at: int = -1
    nplurals: int | None = None
    errors: list[PluralError] = field(default_factory=list)
    forms: PluralForms | None = None
    often: tuple[bool, ...] | None = None
    """For each form, whether the expression gives it at least 5 times for n in 0..1000
    (msgfmt uses this to choose how strictly to check format strings); None if unknown."""


# --- the expression language -------------------------------------------------------------------

_OPS = {
    "||": 2,
    "&&": 3,
    "==": 4,
    "!=": 4,
    "<": 5,
    ">": 5,
    "<=": 5,
    ">=": 5,
    "+": 6,
    "-": 6,
    "*": 7,
    "/": 7,
    "%": 7,
}
_TERNARY = 1


@dataclass
class _Tok:
    kind: str  # "num", "n", "op", "?", ":", "(", ")", "!", "end", "bad"
    text: str
    col: int
    value: int = 0


def _tokens(text: str, start: int) -> list[_Tok]:
    """Split the expression starting at ``start`` the way GNU's plural.y lexer does."""
    out: list[_Tok] = []
    i = start
    size = len(text)
    while True:
        while i < size and text[i] in " \t":
            i += 1
        col = i + 1
        if i - start > MAX_EXPRESSION:
            raise PluralError(
                f"the plural expression is longer than {MAX_EXPRESSION} characters: pnp does not "
                "read it; write the language's usual formula",
                start + 1,
                gnu=False,
                stage="limit",
            )
        if i >= size:
            out.append(_Tok("end", "", col))
            return out
        tok, i = _token(text, i, col)
        out.append(tok)
        if tok.kind in ("end", "bad"):
            return out


def _token(text: str, i: int, col: int) -> tuple[_Tok, int]:
    """The token at ``text[i]`` (not a space), and where the next one may start."""
    c = text[i]
    if c in ";\n\0":
        return _Tok("end", c, col), i
    if "0" <= c <= "9":
        j = i + 1
        while j < len(text) and "0" <= text[j] <= "9":
            j += 1
        # C's unsigned long wraps modulo 2**64, and 10**64 is a multiple of 2**64: the last
        # 64 digits give the value.
        digits = text[max(i, j - 64) : j]
        return _Tok("num", text[i:j], col, int(digits) & _MASK), j
    if c in "=!<>&|":
        return _operator(text, i, col)
    if c in "*/%+-":
        return _Tok("op", c, col), i + 1
    if c in "n?:()":
        return _Tok(c, c, col), i + 1
    return _Tok("bad", c, col), i + 1


def _operator(text: str, i: int, col: int) -> tuple[_Tok, int]:
    """``== != < > <= >= ! && ||`` at ``text[i]``; a lone ``=``, ``&`` or ``|`` is bad."""
    c = text[i]
    after = text[i + 1 : i + 2]
    if c in "=!<>":
        if after == "=":
            return _Tok("op", c + "=", col), i + 2
        if c == "=":
            return _Tok("bad", c, col), i + 1
        if c == "!":
            return _Tok("!", c, col), i + 1
        return _Tok("op", c, col), i + 1
    if after == c:
        return _Tok("op", c + c, col), i + 2
    return _Tok("bad", c, col), i + 1


# A node is (depth, kind, payload...): kind "n", "num", "!", "?", or a binary operator.
_Node = tuple


class _Parser:
    def __init__(self, toks: list[_Tok]) -> None:
        self.toks = toks
        self.i = 0
        self.depth = 0

    def peek(self) -> _Tok:
        return self.toks[self.i]

    def fail(self, tok: _Tok, what: str, after: bool = False) -> PluralError:
        if tok.kind == "bad":
            if tok.text == "=":
                what = "'=' alone is not an operator: compare with =="
            elif tok.text in "&|":
                what = f"'{tok.text}' alone is not an operator: write {tok.text * 2}"
            elif not after:
                what = f"the character {tok.text!r} has no meaning in a plural expression"
        return PluralError(f"invalid plural expression: {what} (e.g. {_EXAMPLE})", tok.col)

    def nest(self, tok: _Tok) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise PluralError(
                f"the plural expression nests more than {MAX_DEPTH} levels deep: "
                "pnp does not read it; write the language's usual formula",
                tok.col,
                gnu=False,
                stage="limit",
            )

    def node(self, kind: str, *kids: _Node, tok: _Tok) -> _Node:
        depth = 1 + max((k[0] for k in kids), default=0)
        if depth > MAX_DEPTH:
            raise PluralError(
                f"the plural expression nests more than {MAX_DEPTH} levels deep: "
                "pnp does not read it; write the language's usual formula",
                tok.col,
                gnu=False,
                stage="limit",
            )
        return (depth, kind, *kids)

    def primary(self) -> _Node:
        tok = self.peek()
        if tok.kind == "n":
            self.i += 1
            return (1, "n")
        if tok.kind == "num":
            self.i += 1
            return (1, "num", tok.value)
        if tok.kind == "!":
            self.i += 1
            self.nest(tok)
            inner = self.primary()
            self.depth -= 1
            return self.node("!", inner, tok=tok)
        if tok.kind == "(":
            self.i += 1
            self.nest(tok)
            inner = self.expression(_TERNARY)
            self.depth -= 1
            close = self.peek()
            if close.kind != ")":
                raise self.fail(close, "a '(' is not closed: add ')'")
            self.i += 1
            return inner
        if tok.kind == "end":
            raise self.fail(tok, "the expression stops where a number, n, '(' or '!' is needed")
        raise self.fail(tok, f"{tok.text!r} where a number, n, '(' or '!' is needed")

    def expression(self, min_prec: int) -> _Node:
        left = self.primary()
        while True:
            tok = self.peek()
            if tok.kind == "op" and _OPS[tok.text] >= min_prec:
                self.i += 1
                right = self.expression(_OPS[tok.text] + 1)
                left = self.node(tok.text, left, right, tok=tok)
            elif tok.kind == "?" and min_prec <= _TERNARY:
                self.i += 1
                self.nest(tok)
                middle = self.expression(_TERNARY)
                colon = self.peek()
                if colon.kind != ":":
                    raise self.fail(colon, "a '?' needs its ':' (cond ? a : b)")
                self.i += 1
                last = self.expression(_TERNARY)
                self.depth -= 1
                left = self.node("?", left, middle, last, tok=tok)
            else:
                return left


def _compile(node: _Node) -> Evaluator:
    """A Python function computing the node like GNU's plural_eval (unsigned 64-bit)."""
    kind = node[1]
    if kind == "n":
        return lambda n: n
    if kind == "num":
        value: int = node[2]
        return lambda n: value
    if kind == "!":
        inner = _compile(node[2])
        return lambda n: 0 if inner(n) else 1
    if kind == "?":
        cond, yes, no = (_compile(k) for k in node[2:])
        return lambda n: yes(n) if cond(n) else no(n)
    a = _compile(node[2])
    b = _compile(node[3])
    if kind == "&&":
        return lambda n: 1 if a(n) and b(n) else 0
    if kind == "||":
        return lambda n: 1 if a(n) or b(n) else 0
    binary: dict[str, Callable[[int, int], int]] = {
        "*": lambda x, y: (x * y) & _MASK,
        "/": lambda x, y: x // y,  # ZeroDivisionError is what msgfmt reports
        "%": lambda x, y: x % y,
        "+": lambda x, y: (x + y) & _MASK,
        "-": lambda x, y: (x - y) & _MASK,
        "<": lambda x, y: int(x < y),
        ">": lambda x, y: int(x > y),
        "<=": lambda x, y: int(x <= y),
        ">=": lambda x, y: int(x >= y),
        "==": lambda x, y: int(x == y),
        "!=": lambda x, y: int(x != y),
    }
    op = binary[kind]
    return lambda n: op(a(n), b(n))


def _parse_expression(text: str, start: int) -> tuple[str, Evaluator]:
    """Parse the expression at ``text[start:]``; return its text and evaluator."""
    toks = _tokens(text, start)
    parser = _Parser(toks)
    tree = parser.expression(_TERNARY)
    tok = parser.peek()
    if tok.kind != "end":
        raise parser.fail(
            tok, f"{tok.text!r} after a complete expression: end it with ';'", after=True
        )
    return text[start : tok.col - 1].strip(" \t"), _compile(tree)


def _evaluate_all(evaluator: Evaluator, nplurals: int, col: int) -> tuple[bool, ...] | None:
    """Evaluate for n in 0..1000 as msgfmt -c does; raise PluralError on the first problem."""
    counts = [0] * nplurals if nplurals <= MAX_NPLURALS else None
    for n in CHECKED_N:
        try:
            value = evaluator(n)
        except ZeroDivisionError:
            raise PluralError(
                f"the plural expression divides by zero (for n = {n}): change it so that it "
                "never divides by something that can be 0",
                col,
                stage="evaluation",
            ) from None
        if value & _SIGN:
            raise PluralError(
                f"the plural expression gives a negative number for n = {n}: forms are "
                f"numbered from 0 to nplurals-1 (subtraction below 0 is the usual cause)",
                col,
                stage="evaluation",
            )
        if value >= nplurals:
            raise PluralError(
                f"nplurals = {nplurals} but the plural expression gives {value} for n = {n}: "
                f"forms are numbered 0 to {nplurals - 1}; raise nplurals or fix the expression",
                col,
                stage="evaluation",
            )
        if counts is not None and counts[value] < 5:
            counts[value] += 1
    return None if counts is None else tuple(c >= 5 for c in counts)


def _read_nplurals(text: str, at: int) -> int | None:
    """strtoul after ``nplurals=``: leading white space, then digits; None if no digit."""
    i = at + len("nplurals=")
    size = len(text)
    while i < size and text[i] in " \t\n\r\f\v":
        i += 1
    j = i
    while j < size and "0" <= text[j] <= "9":
        j += 1
    if j == i:
        return None
    digits = text[i:j].lstrip("0") or "0"
    if len(digits) > 20:
        return _MASK  # strtoul saturates at ULONG_MAX
    return min(int(digits), _MASK)


@lru_cache(maxsize=256)
def _evaluator_for(expr: str) -> Evaluator:
    return _parse_expression(expr, 0)[1]


def inspect_header(text: str) -> HeaderPlural:
    """Check the plural forms of a header entry's text (or of a Plural-Forms value) as msgfmt does.

    Like msgfmt, this looks for the first ``nplurals=`` and the first ``plural=`` anywhere in the
    text. With both present it reads nplurals, parses the expression and, if both are valid,
    evaluates it for n = 0..1000. The result lists every problem, msgfmt's and pnp's own.
    Results are shared between calls: do not change them.
    """
    if len(text) <= 4096:
        return _inspect_cached(text)
    return _inspect(text)


@lru_cache(maxsize=64)
def _inspect_cached(text: str) -> HeaderPlural:
    return _inspect(text)


def _inspect(text: str) -> HeaderPlural:
    out = HeaderPlural(nplurals_at=text.find("nplurals="), plural_at=text.find("plural="))
    if out.nplurals_at < 0 or out.plural_at < 0:
        return out
    nplurals = _read_nplurals(text, out.nplurals_at)
    if nplurals is None:
        out.errors.append(
            PluralError(
                "nplurals must be followed by a whole number of forms, e.g. nplurals=2",
                out.nplurals_at + len("nplurals=") + 1,
                stage="nplurals",
            )
        )
    elif nplurals > MAX_NPLURALS:
        out.errors.append(
            PluralError(
                f"nplurals={nplurals} is not plausible: pnp accepts at most {MAX_NPLURALS} "
                "plural forms (most languages have 1 to 6)",
                out.nplurals_at + len("nplurals=") + 1,
                gnu=False,
                stage="limit",
            )
        )
    out.nplurals = nplurals
    start = out.plural_at + len("plural=")
    try:
        expr, evaluator = _parse_expression(text, start)
    except PluralError as exc:
        out.errors.append(exc)
        return out
    if nplurals is None or any(e.gnu for e in out.errors):
        return out
    try:
        out.often = _evaluate_all(evaluator, nplurals, start + 1)
    except PluralError as exc:
        out.errors.append(exc)
        return out
    if not out.errors:
        out.forms = PluralForms(nplurals, expr)
    return out


def parse_plural_forms(value: str) -> PluralForms:
    """Read a Plural-Forms value such as ``nplurals=2; plural=(n > 1);``, or raise PluralError.

    The error's ``col`` is the 1-based column in ``value``; its message says what to write.
    """
    found = inspect_header(value)
    if found.nplurals_at < 0:
        raise PluralError(f"Plural-Forms needs nplurals=N, e.g. {_EXAMPLE}", 1)
    if found.plural_at < 0:
        raise PluralError(f"Plural-Forms needs plural=EXPRESSION, e.g. {_EXAMPLE}", 1)
    if found.errors:
        raise found.errors[0]
    assert found.forms is not None
    return found.forms


def plural_forms_for(lang: str) -> str:
    """The usual Plural-Forms value for a locale code, e.g. 'fr' -> 'nplurals=2; plural=(n > 1);'.

    Codes are taken with '_' or '-' (``pt_BR``, ``pt-BR``). The languages of GNU gettext's
    table take its rule (:mod:`.plural_table`), others babel's; an unknown language gets the
    Germanic two forms.
    """
    from babel.core import UnknownLocaleError
    from babel.messages.plurals import get_plural

    from .plural_table import PLURALS

    code = lang.replace("-", "_")
    for key in (code, code.split("_")[0]):
        if key in PLURALS:  # GNU gettext's table, whatever babel's version says
            n, expr = PLURALS[key]
            return f"nplurals={n}; plural={expr};"
    try:
        return str(get_plural(code).plural_forms)
    except (UnknownLocaleError, ValueError):
        base = code.split("_")[0]
        try:
            return str(get_plural(base).plural_forms)
        except (UnknownLocaleError, ValueError):
            return _EXAMPLE


def evaluate(expr: str, n: int) -> int | None:
    """The raw value of a (valid) plural expression for ``n``, or None on a division by zero."""
    try:
        return _evaluator_for(expr)(n & _MASK)
    except ZeroDivisionError:
        return None
