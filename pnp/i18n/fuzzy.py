"""Finding a translation by its source text, as ``msgmerge`` does when a context is new.

When a template entry has no entry of its own in a catalog (its card was renamed or moved, its
deck renamed, or the catalog lost its contexts on a trip through a spreadsheet), msgmerge offers
the translation of the most similar source text among the catalog's translated entries, active
or obsolete, whatever their context (gettext 0.21, ``message_fuzzy_index_search``): similarity
is ``fstrcmp``, twice the longest common subsequence of the two msgids' bytes over their total
length, and a text is offered when it reaches 0.6. A text equal to the new one (similarity 1)
always wins. :class:`TextIndex` finds the same ones:

- the similarity is computed exactly (msgmerge may give up early on long texts and find less),
  for every candidate at once: the bit-parallel LCS of Hyyrö (2004) runs over one integer that
  holds every candidate's bits, a guard bit between two candidates stopping the carries;
- a catalog or a template of hostile size is bounded: past :data:`MAX_CANDIDATE_BYTES` of
  source texts, or :data:`MAX_WORK` of searching, only identical texts are found;
- a tie (the same similarity) goes to a candidate no other entry took, then to one from the
  same source line (``#:``: a catalog that lost its contexts keeps them), then to the one whose
  context is most like the new one (the same card in another deck, the same deck and field
  of a renamed card), then to the first in the file. msgmerge takes the first one it meets.
"""

from __future__ import annotations

from dataclasses import dataclass

from .po import Entry

THRESHOLD = (3, 5)
"""msgmerge's FUZZY_THRESHOLD, 0.6, as a fraction (compared in integers)."""
MAX_CANDIDATE_BYTES = 4_000_000
"""Similar texts are looked for among at most this many bytes of source texts (a real catalog
holds a few hundred kB; identical texts are found in any catalog)."""
MAX_WORK = 400_000_000
"""How many machine words of candidate bits one merge may go through looking for similar
texts (about 10 s; Which Side, the largest bundled game, with every context and every text
changed, takes under a quarter of it)."""


def lcs_length(a: bytes, b: bytes) -> int:
    """The length of the longest common subsequence of ``a`` and ``b`` (bit-parallel)."""
    masks: dict[int, int] = {}
    for i, byte in enumerate(a):
        masks[byte] = masks.get(byte, 0) | (1 << i)
    full = (1 << len(a)) - 1
    v = full
    for byte in b:
        m = masks.get(byte)
        if m is not None:
            u = v & m
            v = ((v + u) | (v - u)) & full
    return len(a) - v.bit_count()


def similarity(a: str, b: str) -> float:
    """GNU's fstrcmp of two texts: 2 * LCS / total length, on their UTF-8 bytes (1.0 if both
    are empty)."""
    x, y = a.encode("utf-8"), b.encode("utf-8")
    total = len(x) + len(y)
    return 1.0 if total == 0 else 2 * lcs_length(x, y) / total


def _reaches(lcs: int, total: int) -> bool:
    """Whether 2 * lcs / total reaches the threshold."""
    num, den = THRESHOLD
    return 2 * lcs * den >= num * total


@dataclass
class _Candidates:
    """Every candidate's msgid bytes laid end to end in one integer, a guard bit after each
    (a msgid holds no NUL byte: gettext cuts its strings there)."""

    offsets: list[int]  # where each candidate's bits start
    lengths: list[int]
    masks: dict[int, int]  # byte -> the bits where a candidate has it
    full: int  # every candidate bit (guard bits 0)
    size: int  # bits in all


def _lay_out(texts: list[bytes]) -> _Candidates:
    joined = b"\0".join(texts) + b"\0"
    offsets, lengths, at = [], [], 0
    for text in texts:
        offsets.append(at)
        lengths.append(len(text))
        at += len(text) + 1
    width = (len(joined) + 7) // 8
    maps: dict[int, bytearray] = {}
    full = bytearray(width)
    for p, byte in enumerate(joined):
        if byte:
            bitmap = maps.get(byte)
            if bitmap is None:
                bitmap = maps[byte] = bytearray(width)
            bitmap[p >> 3] |= 1 << (p & 7)
            full[p >> 3] |= 1 << (p & 7)
    masks = {byte: int.from_bytes(bitmap, "little") for byte, bitmap in maps.items()}
    return _Candidates(offsets, lengths, masks, int.from_bytes(full, "little"), len(joined))


class TextIndex:
    """A catalog's translated entries (GNU: ``msgstr[0]`` not empty), found by their msgid."""

    def __init__(self, entries: list[Entry]) -> None:
        self.entries = [e for e in entries if e.translated and (e.msgid or e.msgctxt)]
        self.by_msgid: dict[str, list[int]] = {}
        for i, e in enumerate(self.entries):
            self.by_msgid.setdefault(e.msgid, []).append(i)
        self._laid_out: _Candidates | None = None
        self.work = 0  # machine words of candidate bits the searches went through

    def best(self, wanted: Entry, taken: set[int]) -> Entry | None:
        """The entry msgmerge would offer for the template entry ``wanted`` (whose context is
        new to the catalog), or None. ``taken``: ids of entries other entries took already."""
        same = self.by_msgid.get(wanted.msgid)
        if same:
            return self._pick(same, wanted, taken)
        weights = self._weights(wanted.msgid.encode("utf-8"))
        if not weights:
            return None
        top = max(weights.values())
        return self._pick([i for i, w in weights.items() if w == top], wanted, taken)

    def _weights(self, query: bytes) -> dict[int, float]:
        """The candidates whose similarity to ``query`` reaches the threshold, with it."""
        laid = self._laid_out
        if laid is None:
            texts = [e.msgid.encode("utf-8") for e in self.entries]
            if sum(map(len, texts)) > MAX_CANDIDATE_BYTES:
                texts = []  # (a hostile catalog: only identical texts are looked for)
            laid = self._laid_out = _lay_out(texts)
        self.work += len(query) * (laid.size // 64 + 1)
        if not query or not laid.lengths or self.work > MAX_WORK:
            return {}
        v = full = laid.full
        masks = laid.masks
        for byte in query:
            m = masks.get(byte)
            if m is not None:
                u = v & m
                v = ((v + u) | (v - u)) & full  # carries end in the guard bits, dropped here
        bits = format(v, "b").zfill(laid.size)[::-1]  # bits[p]: bit p of v
        out: dict[int, float] = {}
        for i, (offset, length) in enumerate(zip(laid.offsets, laid.lengths, strict=True)):
            common = length - bits.count("1", offset, offset + length)
            total = length + len(query)
            if _reaches(common, total):
                out[i] = 2 * common / total
        return out

    def _pick(self, found: list[int], wanted: Entry, taken: set[int]) -> Entry:
        """The best of equally similar candidates (see the module)."""
        if len(found) == 1:
            return self.entries[found[0]]
        refs = set(wanted.references)
        ctx = wanted.msgctxt

        def rank(i: int) -> tuple[bool, bool, float, int]:
            e = self.entries[i]
            near = similarity(e.msgctxt or "", ctx) if ctx is not None else 0.0
            return (id(e) not in taken, not refs.isdisjoint(e.references), near, -i)

        return self.entries[max(found, key=rank)]


__all__ = ["MAX_CANDIDATE_BYTES", "MAX_WORK", "THRESHOLD", "TextIndex", "lcs_length", "similarity"]
