"""The entries msgfmt keeps while it reads a catalog: duplicates found, texts too long refused,
the header's charset read (and the file decoded again with it when needed), and the entries
its checks will look at once the whole file is read."""

from __future__ import annotations

from ..plural import PluralForms
from .charsets import CHARSETS, Restart, canonical_charset, declared_charset
from .entries import Flags, Form, Message, header_line
from .lexer import Lexer
from .problems import CONT, EAL, MAX_WARNINGS, Problems
from .tokens import JUNK, Tok


class Collector(Problems):
    """A scan's catalog as read so far, and its problems."""

    def __init__(self, data: bytes, max_string: int) -> None:
        super().__init__()
        self.data = data
        self.max_string = max_string
        self.text: str | None = None
        self.charset = ""
        self.charset_seen = False
        self.codec = "utf-8"
        self.utf8_ok = False
        self.lexer: Lexer | None = None
        self.messages: list[Message] = []
        # (msgctxt, msgid) -> (line of msgid, obsolete, msgfmt's line of msgstr)
        self.seen: dict[tuple[str | None, str], tuple[int, bool, int]] = {}
        self.msgstr_lines: dict[tuple[str | None, str], int] = {}
        self.header: Message | None = None
        self.plural: PluralForms | None = None
        self.plural_line = 0  # the header's Plural-Forms line

    def warn_cut(self, line: int, pos: int) -> None:
        """A string cut at \\0, at offset ``pos`` (its column found only if it is listed)."""
        if self.nwarnings >= MAX_WARNINGS:
            self.dropped_warnings += 1
            return
        assert self.lexer is not None
        self.warn(
            line,
            self.lexer.col(pos),
            "\\0 ends this text for gettext: what follows it in the same string is lost",
        )

    def on_domain(self, tok: Tok) -> None:
        assert self.lexer is not None
        self.error(
            tok.line,
            self.lexer.col(tok.pos),
            f"'domain {tok.value}': pnp catalogs have one domain per file, so domain lines are "
            "not allowed: remove this line",
            ((tok.gline, EAL),),
        )

    def store(
        self,
        ctxt: str | None,
        ctxt_kw: Tok | None,
        msgid: str,
        intro: Tok,
        plural: str | None,
        plural_kw: Tok | None,
        forms: list[Form],
        flags: Flags,
        str_toks: list[Tok] | None,
        lookahead: Tok | None,
        short: bool = False,
    ) -> None:
        """Keep an entry as msgfmt does: duplicates, untranslated and fuzzy entries aside.

        ``short``: the whole entry is shorter than max_string (no text can be too long).
        """
        obsolete = intro.obs
        if not short and self.too_long(ctxt, msgid, plural, forms):
            fields = [(ctxt_kw, ctxt), (intro, msgid), (plural_kw, plural)]
            self.refuse_long(fields + [(form.kw, form.text) for form in forms])
        header_like = ctxt is None and msgid == "" and not obsolete
        if header_like:
            self.on_header_charset(forms[0].text, str_toks, forms[0].kw, lookahead)
        key = (ctxt, msgid)
        first = self.seen.get(key)
        if first is not None:
            self.duplicate(key, first, intro, forms[0].kw)
            return
        kw = forms[0].kw
        self.seen[key] = (intro.line, obsolete, kw.gline)
        if obsolete:
            return
        self.msgstr_lines[key] = kw.line
        if not _needs_checks(msgid, plural, forms[0].text, flags, header_like):
            return
        message = Message(
            ctxt,
            msgid,
            intro,
            plural,
            plural_kw,
            forms,
            obsolete,
            flags.fuzzy,
            flags.formats,
            flags.range,
            str_toks if header_like else None,
        )
        self.messages.append(message)
        if header_like and self.header is None:
            self.header = message

    def too_long(self, ctxt: str | None, msgid: str, plural: str | None, forms: list[Form]) -> bool:
        """Whether a text of the entry is longer than max_string."""
        limit = self.max_string
        return (
            len(msgid) > limit
            or (ctxt is not None and len(ctxt) > limit)
            or (plural is not None and len(plural) > limit)
            or any(len(form.text) > limit for form in forms)
        )

    def refuse_long(self, fields: list[tuple[Tok | None, str | None]]) -> None:
        """An error at each of these (keyword, text) longer than max_string."""
        assert self.lexer is not None
        limit = self.max_string
        for tok, value in fields:
            if tok is not None and value is not None and len(value) > limit:
                self.error(
                    tok.line,
                    self.lexer.col(tok.pos),
                    f"this text is {len(value):,} characters long: pnp accepts at most "
                    f"{limit:,} in one msgid or msgstr; shorten or split it",
                    deliberate=True,
                )

    def duplicate(
        self,
        key: tuple[str | None, str],
        first: tuple[int, bool, int],
        intro: Tok,
        kw: Tok,
    ) -> None:
        """A second entry with the same msgctxt and msgid (``first``: what the first one was)."""
        assert self.lexer is not None
        obsolete = intro.obs
        where, first_obsolete, first_gline = first
        if first_obsolete or obsolete:
            extra = " (an obsolete #~ entry counts too: delete the copy you do not want)"
        else:
            extra = ""
        message = (
            f"this entry (same msgctxt and msgid) is already in the file at line {where}: "
            f"keep only one of the two{extra}"
        )
        self.error(
            intro.line,
            self.lexer.col(intro.pos),
            message,
            ((intro.gline, EAL), (first_gline, CONT)),
        )
        if not obsolete and key not in self.msgstr_lines:
            self.msgstr_lines[key] = kw.line  # (its copy was obsolete)

    def on_header_charset(
        self, header: str, toks: list[Tok] | None, kw: Tok, lookahead: Tok | None
    ) -> None:
        """msgfmt reads the charset of every header entry it meets; pnp decodes with the first."""
        if (
            lookahead is not None
            and lookahead.kind == JUNK
            and self.utf8_ok
            and not str(lookahead.value).isascii()
            and canonical_charset(declared_charset(header) or "") == "UTF-8"
        ):
            # msgfmt read the first byte of this character before the header told it the
            # charset: each byte after it is now an invalid sequence of its own.
            assert self.lexer is not None
            self.lexer.eilseq += len(str(lookahead.value).encode("utf-8")) - 1
        if self.charset_seen:
            return
        self.charset_seen = True
        declared = declared_charset(header)
        line = header_line(header, toks, "charset=", kw)
        if declared is None:
            self.warn(
                line,
                1,
                'the header declares no charset: add "Content-Type: text/plain; '
                'charset=UTF-8\\n" (and save the file as UTF-8)',
            )
            return
        canonical = canonical_charset(declared)
        self.charset = canonical or declared
        codec = CHARSETS.get(canonical or "", "")
        if not codec:
            self.refuse_charset(declared, canonical, line)
            return
        if codec == "utf-8":
            return
        if self.utf8_ok:
            assert self.lexer is not None
            if not self.lexer.s.isascii():
                self.error(
                    line,
                    1,
                    f"the header declares charset={declared}, but the file is UTF-8 text (its "
                    "accented letters are UTF-8 bytes): declare charset=UTF-8 instead",
                    deliberate=True,
                )
            return
        if self.codec != codec:
            raise Restart(codec)

    def refuse_charset(self, declared: str, canonical: str | None, line: int) -> None:
        """A declared charset pnp cannot read."""
        if declared == "CHARSET":
            why = "the header still says charset=CHARSET, the template's placeholder"
        elif canonical is None:
            why = f"charset={declared} is not a portable encoding name (GNU warns too)"
        else:
            why = f"pnp cannot read charset={declared}"
        self.error(
            line,
            1,
            f"{why}: save the file as UTF-8 and declare charset=UTF-8",
            deliberate=True,
        )


def _needs_checks(
    msgid: str, plural: str | None, text: str, flags: Flags, header_like: bool
) -> bool:
    """Whether msgfmt's checks of the complete catalog have anything to look at in an entry
    whose first translation is ``text``."""
    if not text or (flags.fuzzy and not header_like):
        return False  # msgfmt does not check untranslated and fuzzy entries
    if header_like or plural is not None or flags.formats:
        return True
    # only the line breaks remain to be checked: keep the entry only if they differ
    begins = msgid[:1] == "\n"
    ends = msgid[-1:] == "\n"
    return (text[:1] == "\n") != begins or (text[-1:] == "\n") != ends
