"""The charsets a catalog may declare: GNU's portable names, and the Python codec of each."""

from __future__ import annotations

import re

# GNU's portable encoding names (po-charset.c) and the codec Python reads each with.
CHARSETS = {
    "ASCII": "ascii",
    "ANSI_X3.4-1968": "ascii",
    "US-ASCII": "ascii",
    "UTF-8": "utf-8",
    "KOI8-R": "koi8_r",
    "KOI8-U": "koi8_u",
    "KOI8-T": "koi8_t",
    "CP850": "cp850",
    "CP866": "cp866",
    "CP874": "cp874",
    "CP932": "cp932",
    "CP949": "cp949",
    "CP950": "cp950",
    "CP1250": "cp1250",
    "CP1251": "cp1251",
    "CP1252": "cp1252",
    "CP1253": "cp1253",
    "CP1254": "cp1254",
    "CP1255": "cp1255",
    "CP1256": "cp1256",
    "CP1257": "cp1257",
    "GB2312": "gb2312",
    "EUC-JP": "euc_jp",
    "EUC-KR": "euc_kr",
    "EUC-TW": "",  # GNU knows it, Python does not
    "BIG5": "big5",
    "BIG5-HKSCS": "big5hkscs",
    "GBK": "gbk",
    "GB18030": "gb18030",
    "SHIFT_JIS": "shift_jis",
    "JOHAB": "johab",
    "TIS-620": "tis_620",
    "VISCII": "",
    "GEORGIAN-PS": "",
}
for _n in (1, 2, 3, 4, 5, 6, 7, 8, 9, 13, 14, 15):
    CHARSETS[f"ISO-8859-{_n}"] = f"iso8859_{_n}"
    CHARSETS[f"ISO_8859-{_n}"] = f"iso8859_{_n}"
_CANONICAL = {name.upper(): name for name in CHARSETS}
_CANONICAL.update({f"ISO_8859-{n}": f"ISO-8859-{n}" for n in (1, 2, 3, 4, 5, 6, 7, 8, 9)})
_CANONICAL.update({f"ISO_8859-{n}": f"ISO-8859-{n}" for n in (13, 14, 15)})
_CANONICAL.update({"ANSI_X3.4-1968": "ASCII", "US-ASCII": "ASCII"})


def canonical_charset(name: str) -> str | None:
    """GNU's canonical name for a declared charset, or None if GNU does not know it."""
    return _CANONICAL.get(name.upper())


def declared_charset(header: str) -> str | None:
    """The text after the first ``charset=`` of a header, up to white space (msgfmt's rule)."""
    at = header.find("charset=")
    if at < 0:
        return None
    m = re.compile(r"[^ \t\n]*").match(header, at + len("charset="))
    assert m is not None
    return m.group()


class Restart(Exception):
    """The header declares a charset the file must be decoded with first."""

    def __init__(self, codec: str) -> None:
        self.codec = codec
