"""The resolved embedding levels of the Unicode bidirectional algorithm (UAX #9), in Python.

Not a library's internals: the levels python-bidi's public API does not give (it returns
reordered strings, and pnp breaks a paragraph into lines before it reorders them). Rules P2-P3
(:func:`paragraph_level`), X1-X10, W1-W7, N0 (paired brackets), N1-N2 and I1-I2
(:func:`resolve`); the line rules L1-L4 are the caller's. Characters removed by rule X9
(embedding controls, BN) are given the level of the character before them, else the
paragraph's. Bidi classes are Python's ``unicodedata`` (its Unicode version), with the
defaults of DerivedBidiClass.txt for unassigned code points; the paired brackets are
BidiBrackets.txt's (:data:`BRACKETS`). tests/test_bidi_uax9.py runs every line of Unicode's
BidiCharacterTest.txt and checks the table against BidiBrackets.txt.
"""

from __future__ import annotations

import bisect
import unicodedata
from collections.abc import Sequence

MAX_DEPTH = 125  # BD2
MAX_BRACKET_PAIRS = 63  # BD16: the bracket stack's size

# BidiBrackets.txt: each opening bracket followed by its closing one (Unicode 15.0, 64 pairs)
BRACKETS = (
    "()[]{}\u0f3a\u0f3b\u0f3c\u0f3d\u169b\u169c\u2045\u2046\u207d\u207e\u208d\u208e\u2308\u2309"
    "\u230a\u230b\u2329\u232a\u2768\u2769\u276a\u276b\u276c\u276d\u276e\u276f\u2770\u2771"
    "\u2772\u2773\u2774\u2775\u27c5\u27c6\u27e6\u27e7\u27e8\u27e9\u27ea\u27eb\u27ec\u27ed"
    "\u27ee\u27ef\u2983\u2984\u2985\u2986\u2987\u2988\u2989\u298a\u298b\u298c\u298d\u2990"
    "\u298f\u298e\u2991\u2992\u2993\u2994\u2995\u2996\u2997\u2998\u29d8\u29d9\u29da\u29db"
    "\u29fc\u29fd\u2e22\u2e23\u2e24\u2e25\u2e26\u2e27\u2e28\u2e29\u2e55\u2e56\u2e57\u2e58"
    "\u2e59\u2e5a\u2e5b\u2e5c\u3008\u3009\u300a\u300b\u300c\u300d\u300e\u300f\u3010\u3011"
    "\u3014\u3015\u3016\u3017\u3018\u3019\u301a\u301b\ufe59\ufe5a\ufe5b\ufe5c\ufe5d\ufe5e"
    "\uff08\uff09\uff3b\uff3d\uff5b\uff5d\uff5f\uff60\uff62\uff63"
)
_CANONICAL = {"\u2329": "\u3008", "\u232a": "\u3009"}  # BD16 compares canonical equivalents
_CLOSER = {o: _CANONICAL.get(c, c) for o, c in zip(BRACKETS[::2], BRACKETS[1::2], strict=True)}
_CLOSERS = frozenset(BRACKETS[1::2])

# DerivedBidiClass.txt's @missing lines: the class of an unassigned code point, by range
_UNASSIGNED = (
    (0x0590, 0x05FF, "R"),
    (0x0600, 0x07BF, "AL"),
    (0x07C0, 0x085F, "R"),
    (0x0860, 0x08FF, "AL"),
    (0x20A0, 0x20CF, "ET"),
    (0xFB1D, 0xFB4F, "R"),
    (0xFB50, 0xFDCF, "AL"),
    (0xFDF0, 0xFDFF, "AL"),
    (0xFE70, 0xFEFF, "AL"),
    (0x10800, 0x10CFF, "R"),
    (0x10D00, 0x10D3F, "AL"),
    (0x10D40, 0x10EBF, "R"),
    (0x10EC0, 0x10EFF, "AL"),
    (0x10F00, 0x10F2F, "R"),
    (0x10F30, 0x10F6F, "AL"),
    (0x10F70, 0x10FFF, "R"),
    (0x1E800, 0x1EC6F, "R"),
    (0x1EC70, 0x1ECBF, "AL"),
    (0x1ECC0, 0x1ECFF, "R"),
    (0x1ED00, 0x1ED4F, "AL"),
    (0x1ED50, 0x1EDFF, "R"),
    (0x1EE00, 0x1EEFF, "AL"),
    (0x1EF00, 0x1EFFF, "R"),
)
# unassigned default-ignorable code points and noncharacters (besides U+xxFFFE-xxFFFF): BN
_IGNORABLE = ((0x2060, 0x206F), (0xFDD0, 0xFDEF), (0xFFF0, 0xFFF8), (0xE0000, 0xE0FFF))

EMBEDDINGS = frozenset(("LRE", "RLE", "LRO", "RLO"))
ISOLATES = frozenset(("LRI", "RLI", "FSI"))
REMOVED = EMBEDDINGS | {"PDF", "BN"}  # rule X9
_NEUTRAL = frozenset(("B", "S", "WS", "ON", "LRI", "RLI", "FSI", "PDI"))  # NI, after X9
_DIRECTION = {"L": "L", "R": "R", "AL": "R", "EN": "R", "AN": "R"}  # strong, for N0 and N1


def bidi_class(ch: str) -> str:
    """A character's Bidi_Class (``L``, ``R``, ``AL``, ``EN``...)."""
    found = unicodedata.bidirectional(ch)
    if found:
        return found
    cp = ord(ch)
    for first, last, name in _UNASSIGNED:
        if first <= cp <= last:
            return name
    ignorable = any(first <= cp <= last for first, last in _IGNORABLE)
    return "BN" if ignorable or (cp & 0xFFFE) == 0xFFFE else "L"


def paragraph_level(text: str) -> int:
    """Rules P2-P3: 1 when the first strong character (outside isolates) of the first
    paragraph of ``text`` is right to left, else 0."""
    classes = [bidi_class(c) for c in text]
    end = classes.index("B") if "B" in classes else len(classes)
    return _first_strong(classes, 0, end, _matching_pdis(classes[:end])) or 0


def resolve(text: str, level: int) -> list[int]:
    """The resolved level of each character of ``text``, every paragraph (text between
    paragraph separators) at the embedding level ``level`` (0: left to right, 1: right to
    left): rules X1-I2."""
    classes = [bidi_class(c) for c in text]
    levels: list[int] = []
    start = 0
    for end in [k + 1 for k, c in enumerate(classes) if c == "B"] + [len(text)]:
        if end > start:
            levels += _Paragraph(text[start:end], classes[start:end], level).resolve()
        start = end
    return levels


def _first_strong(
    classes: Sequence[str], start: int, end: int, matching: dict[int, int]
) -> int | None:
    """P2: 0 or 1 from the first L, R or AL in ``start:end``, isolates skipped; None if none."""
    k = start
    while k < end:
        c = classes[k]
        if c == "L":
            return 0
        if c in ("R", "AL"):
            return 1
        k = matching.get(k, end) if c in ISOLATES else k + 1
    return None


def _matching_pdis(classes: Sequence[str]) -> dict[int, int]:
    """BD9: each isolate initiator's matching PDI (the ones that have one)."""
    open_: list[int] = []
    found = {}
    for k, c in enumerate(classes):
        if c in ISOLATES:
            open_.append(k)
        elif c == "PDI" and open_:
            found[open_.pop()] = k
    return found


def _next_level(level: int, rtl: bool) -> int:
    return (level + 1) | 1 if rtl else (level + 2) & ~1


class _Paragraph:
    """One paragraph's characters, their types (``types``, changed rule by rule) and levels."""

    def __init__(self, text: str, classes: list[str], level: int) -> None:
        self.text = text
        self.classes = classes
        self.level = level
        self.types = list(classes)
        self.levels = [level] * len(classes)
        self.matching = _matching_pdis(classes)
        self.matched = frozenset(self.matching.values())
        # the directional status stack (X1): (level, override "L"/"R"/"", isolate?)
        self.stack: list[tuple[int, str, bool]] = [(level, "", False)]
        self.overflow_isolates = self.overflow_embeddings = self.valid_isolates = 0

    def resolve(self) -> list[int]:
        for k, c in enumerate(self.classes):
            self._explicit(k, c)
        kept = [k for k, c in enumerate(self.classes) if c not in REMOVED]
        sequences = [
            _Sequence(self, seq, *self._sos_eos(seq, kept)) for seq in self._sequences(kept)
        ]
        for seq in sequences:  # sos and eos from the explicit levels: all made before any resolves
            seq.resolve()
        last = self.level
        for k, c in enumerate(self.classes):
            if c in REMOVED:
                self.levels[k] = last
            elif c == "B":
                self.levels[k] = self.level
            last = self.levels[k]
        return self.levels

    # --- X1-X8: explicit levels and directions ------------------------------------------------

    def _explicit(self, k: int, c: str) -> None:
        if c in EMBEDDINGS:
            self._push(_next_level(self.stack[-1][0], c[0] == "R"), c[0] if c[2] == "O" else "")
        elif c in ISOLATES:
            self._set(k)
            self._push_isolate(_next_level(self.stack[-1][0], self._isolate_rtl(k, c)))
        elif c == "PDI":
            self._pop_isolate()
            self._set(k)
        elif c == "PDF":
            self._pop_embedding()
        elif c not in ("B", "BN"):
            self._set(k)

    def _isolate_rtl(self, k: int, c: str) -> bool:
        """X5a-X5c: whether an isolate is right to left (an FSI: by rules P2-P3 on its text)."""
        if c != "FSI":
            return c == "RLI"
        end = self.matching.get(k, len(self.classes))
        return _first_strong(self.classes, k + 1, end, self.matching) == 1

    def _set(self, k: int) -> None:
        """X5a-X6: the level of the embedding a character is in, and its override."""
        level, override, _isolate = self.stack[-1]
        self.levels[k] = level
        if override:
            self.types[k] = override

    def _push(self, level: int, override: str) -> None:
        """X2-X5: an embedding or override."""
        if level <= MAX_DEPTH and not self.overflow_isolates and not self.overflow_embeddings:
            self.stack.append((level, override, False))
        elif not self.overflow_isolates:
            self.overflow_embeddings += 1

    def _push_isolate(self, level: int) -> None:
        """X5a-X5c: an isolate."""
        if level <= MAX_DEPTH and not self.overflow_isolates and not self.overflow_embeddings:
            self.valid_isolates += 1
            self.stack.append((level, "", True))
        else:
            self.overflow_isolates += 1

    def _pop_isolate(self) -> None:
        """X6a: a PDI."""
        if self.overflow_isolates:
            self.overflow_isolates -= 1
        elif self.valid_isolates:
            self.overflow_embeddings = 0
            while not self.stack[-1][2]:
                self.stack.pop()
            self.stack.pop()
            self.valid_isolates -= 1

    def _pop_embedding(self) -> None:
        """X7: a PDF."""
        if self.overflow_isolates:
            return
        if self.overflow_embeddings:
            self.overflow_embeddings -= 1
        elif not self.stack[-1][2] and len(self.stack) >= 2:
            self.stack.pop()

    # --- X10: isolating run sequences -----------------------------------------------------

    def _sequences(self, kept: list[int]) -> list[list[int]]:
        """BD13: level runs, each joined to the run of its isolate's matching PDI."""
        runs: list[list[int]] = []
        for k in kept:
            if runs and self.levels[runs[-1][-1]] == self.levels[k]:
                runs[-1].append(k)
            else:
                runs.append([k])
        by_start = {run[0]: run for run in runs}
        joined: set[int] = set()
        out = []
        for run in runs:
            if run[0] in joined:
                continue
            seq = list(run)
            while self.classes[seq[-1]] in ISOLATES and seq[-1] in self.matching:
                following = by_start.get(self.matching[seq[-1]])
                if following is None:
                    break
                joined.add(following[0])
                seq += following
            out.append(seq)
        return out

    def _sos_eos(self, seq: list[int], kept: list[int]) -> tuple[str, str]:
        """X10: the direction at each end of a sequence, from the higher of its level and the
        level next to it (the paragraph's at the paragraph's ends and after an isolate
        initiator without a matching PDI)."""
        level = self.levels[seq[0]]
        at = bisect.bisect_left(kept, seq[0])
        before = self.levels[kept[at - 1]] if at > 0 else self.level
        at = bisect.bisect_left(kept, seq[-1])
        after = self.levels[kept[at + 1]] if at + 1 < len(kept) else self.level
        if self.classes[seq[-1]] in ISOLATES:
            after = self.level
        return "LR"[max(level, before) % 2], "LR"[max(level, after) % 2]


class _Sequence:
    """One isolating run sequence: the weak, neutral and implicit rules."""

    def __init__(self, para: _Paragraph, seq: list[int], sos: str, eos: str) -> None:
        self.para = para
        self.seq = seq
        self.sos = sos
        self.eos = eos
        self.level = para.levels[seq[0]]
        self.embedding = "LR"[self.level % 2]
        self.t = [para.types[k] for k in seq]

    def resolve(self) -> None:
        self._weak()
        self._numbers()
        self._brackets()
        self._neutrals()
        levels = self.para.levels
        for k, t in zip(self.seq, self.t, strict=True):
            level = levels[k]
            if level % 2 == 0:
                levels[k] = level + (1 if t == "R" else 2 if t in ("AN", "EN") else 0)  # I1
            elif t in ("L", "EN", "AN"):
                levels[k] = level + 1  # I2

    def _weak(self) -> None:
        """W1-W3: marks take the type before them; European numbers after Arabic letters are
        Arabic numbers; Arabic letters are R."""
        t = self.t
        before = strong = self.sos
        for k, c in enumerate(t):
            if c == "NSM":
                c = t[k] = "ON" if before in ISOLATES or before == "PDI" else before
            if c in ("L", "R", "AL"):
                strong = c
            elif c == "EN" and strong == "AL":
                t[k] = "AN"
            before = c
        self.t = ["R" if c == "AL" else c for c in t]

    def _numbers(self) -> None:
        """W4-W7: separators between numbers, terminators next to them, the rest neutral;
        European numbers after L are L."""
        t = self.t
        for k in range(1, len(t) - 1):
            if t[k] in ("ES", "CS") and t[k - 1] == t[k + 1] == "EN":
                t[k] = "EN"
            elif t[k] == "CS" and t[k - 1] == t[k + 1] == "AN":
                t[k] = "AN"
        k = 0
        while k < len(t):
            end = k
            while end < len(t) and t[end] == "ET":
                end += 1
            if end > k and ((k > 0 and t[k - 1] == "EN") or (end < len(t) and t[end] == "EN")):
                t[k:end] = ["EN"] * (end - k)
            k = max(end, k + 1)
        strong = self.sos
        for k, c in enumerate(t):
            if c in ("ES", "ET", "CS"):
                t[k] = "ON"
            elif c in ("L", "R"):
                strong = c
            elif c == "EN" and strong == "L":
                t[k] = "L"

    def _pairs(self) -> list[tuple[int, int]]:
        """BD16: the bracket pairs of the sequence, by their opening bracket."""
        text = self.para.text
        open_: list[tuple[str, int]] = []
        pairs = []
        for k, at in enumerate(self.seq):
            ch = text[at]
            if self.t[k] != "ON":
                continue
            if ch in _CLOSER:
                if len(open_) == MAX_BRACKET_PAIRS:
                    break
                open_.append((_CLOSER[ch], k))
            elif ch in _CLOSERS:
                ch = _CANONICAL.get(ch, ch)
                for depth in range(len(open_) - 1, -1, -1):
                    if open_[depth][0] == ch:
                        pairs.append((open_[depth][1], k))
                        del open_[depth:]
                        break
        return sorted(pairs)

    def _brackets(self) -> None:
        """N0: a bracket pair takes the embedding direction when it holds text in that
        direction, else the other direction when it holds that and follows it."""
        t = self.t
        for start, end in self._pairs():
            inside = {_DIRECTION.get(c) for c in t[start + 1 : end]}
            if self.embedding in inside:
                found = self.embedding
            elif inside - {None}:
                found = next(
                    (_DIRECTION[c] for c in reversed(t[:start]) if c in _DIRECTION), self.sos
                )
            else:
                continue
            for k in (start, end):
                t[k] = found
                after = k + 1  # marks after a bracket (W1 made them ON) follow it
                while after < len(t) and self.para.classes[self.seq[after]] == "NSM":
                    t[after] = found
                    after += 1

    def _neutrals(self) -> None:
        """N1-N2: neutrals between two strong types of one direction take it, the others the
        embedding direction (numbers count as R)."""
        t = self.t
        k = 0
        while k < len(t):
            if t[k] not in _NEUTRAL:
                k += 1
                continue
            end = k
            while end < len(t) and t[end] in _NEUTRAL:
                end += 1
            before = _DIRECTION[t[k - 1]] if k > 0 else self.sos
            after = _DIRECTION[t[end]] if end < len(t) else self.eos
            t[k:end] = [before if before == after else self.embedding] * (end - k)
            k = end
