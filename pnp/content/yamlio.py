"""Load stage: YAML 1.2 files into plain data that remembers where every value came from.

ruamel.yaml composes the file into a node graph (with its C extension when installed: about 7x
faster than the pure-Python parser); this module turns nodes into :class:`YMap`, :class:`YSeq`
and plain scalars, keeping the file:line:col of every key and value. It never constructs
arbitrary Python objects: tags other than the YAML core ones are refused, so content cannot
execute code. Duplicate keys, alias bombs, cycles, oversized or non-UTF-8 files become findings.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.events import CollectionEndEvent, CollectionStartEvent
from ruamel.yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ..compat.ruamel import FastResolver
from ..compat.ruamel import tag_of as _tag
from ..core.files import ReadRefused, read_limited, root_of
from ..core.findings import Pos, Report
from ..core.rules import (
    FILE_ENCODING,
    SCHEMA,
    UNQUOTED_COLOUR,
    YAML_DUPLICATE_KEY,
    YAML_LIMIT,
    YAML_SYNTAX,
)
from .yamlsyntax import syntax_problem, unreadable

MAX_FILE_BYTES = 16 * 1024 * 1024
MAX_EXPANDED_NODES = 2_000_000
MAX_DEPTH = 64
MAX_SCALAR_CHARS = 100_000
# characters of all scalars after alias expansion: aliases cannot make the data larger than the
# largest file pnp reads written out in full
MAX_EXPANDED_CHARS = MAX_FILE_BYTES
# below this many openers ([, {, or a line's indentation), nesting cannot reach the depth at
# which ruamel's C composer, which recurses per level, overflows the C stack (about 20,000)
_DEEP_SUSPECT = 2_000

_CORE = "tag:yaml.org,2002:"


class YMap(dict[Any, Any]):
    """A YAML mapping: a dict that also knows the position of itself, its keys and values."""

    __slots__ = ("kpos", "pos", "vpos")
    pos: Pos
    kpos: dict[Any, Pos]
    vpos: dict[Any, Pos]

    def __init__(self, pos: Pos) -> None:
        super().__init__()
        self.pos = pos
        self.kpos = {}
        self.vpos = {}

    def key_pos(self, key: Any) -> Pos:
        return self.kpos.get(key, self.pos)

    def value_pos(self, key: Any) -> Pos:
        return self.vpos.get(key, self.pos)


class YSeq(list[Any]):
    """A YAML sequence: a list that knows its own position and the position of each item."""

    __slots__ = ("ipos", "pos")
    pos: Pos
    ipos: list[Pos]

    def __init__(self, pos: Pos) -> None:
        super().__init__()
        self.pos = pos
        self.ipos = []

    def item_pos(self, index: int) -> Pos:
        return self.ipos[index] if 0 <= index < len(self.ipos) else self.pos


@dataclass
class LoadedFile:
    path: str  # relative to the content root, with forward slashes
    data: Any  # YMap, YSeq, scalar, or None when the file is empty or unreadable
    ok: bool  # False when the file could not be parsed at all


class _Abort(Exception):
    def __init__(self, pos: Pos, rule: str, message: str) -> None:
        super().__init__(message)
        self.pos = pos
        self.rule = rule
        self.message = message


_INT_RE = re.compile(r"[-+]?(0|[1-9][0-9_]*|0o[0-7_]+|0x[0-9a-fA-F_]+|0[0-9_]+)$")


_COMMENT_COLOUR = re.compile(r"[ \t]*#([0-9A-Fa-f]{8}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{3,4})\b")


class _Converter:
    def __init__(
        self, path: str, report: Report, game: str, shared: bool = True, text: str = ""
    ) -> None:
        self.path = path
        self.text = text
        self.lines: list[str] | None = None  # the text's lines, split when first needed
        self.report = report
        self.game = game
        self.sizes: dict[int, int] = {}
        self.chars: dict[int, int] = {}  # characters of a node's scalars, aliases expanded
        self.done: dict[int, Any] = {}
        self.active: set[int] = set()
        self.aliased = False
        # False when the file has no anchor (&): then no node is reached twice, and the limits
        # on depth and size are checked while converting, without a walk of their own
        self.shared = shared
        self.nodes = 0

    def pos(self, node: Node) -> Pos:
        mark = node.start_mark
        return Pos(self.path, mark.line + 1, mark.column + 1)

    # --- alias-bomb guard: expanded size computed once per distinct node -----------------
    def expanded_size(self, node: Node, depth: int = 0) -> int:
        key = id(node)
        if key in self.sizes:
            self.aliased = True  # a node met twice: reached through an alias
            return self.sizes[key]
        if depth > MAX_DEPTH:
            raise _Abort(
                self.pos(node), YAML_LIMIT, f"nesting deeper than {MAX_DEPTH} levels; flatten it"
            )
        if key in self.active:
            raise _Abort(
                self.pos(node),
                YAML_LIMIT,
                "an alias refers to the collection that contains it (a cycle); "
                "copy the values instead",
            )
        self.active.add(key)
        total = 1
        chars = 0
        if isinstance(node, ScalarNode):
            chars = len(node.value)
        else:
            children = (
                [n for pair in node.value for n in pair]
                if isinstance(node, MappingNode)
                else node.value
            )
            for child in children:
                total += self.expanded_size(child, depth + 1)
                chars += self.chars[id(child)]
        self.active.discard(key)
        self.chars[key] = chars
        if chars > MAX_EXPANDED_CHARS:
            raise _Abort(
                self.pos(node),
                YAML_LIMIT,
                f"this value expands to more than {MAX_EXPANDED_CHARS:,} characters through "
                "aliases (an alias bomb?); write the data out",
            )
        if total > MAX_EXPANDED_NODES:
            why = (
                " through aliases (an alias bomb?); write the data out"
                if self.aliased
                else "; split the file"
            )
            raise _Abort(
                self.pos(node),
                YAML_LIMIT,
                f"this value expands to more than {MAX_EXPANDED_NODES:,} nodes{why}",
            )
        self.sizes[key] = total
        return total

    # --- conversion ------------------------------------------------------------------------
    def convert(self, node: Node, depth: int = 0) -> Any:
        shared = self.shared
        if shared:
            key = id(node)
            if key in self.done:  # an alias: share the converted value (size already bounded)
                return self.done[key]
        elif depth > MAX_DEPTH:
            raise _Abort(
                self.pos(node), YAML_LIMIT, f"nesting deeper than {MAX_DEPTH} levels; flatten it"
            )
        if isinstance(node, ScalarNode):
            value = self.scalar(node)
        elif isinstance(node, SequenceNode):
            self.check_tag(node, "seq")
            self.count(node)
            seq = YSeq(self.pos(node))
            for item in node.value:
                seq.append(self.convert(item, depth + 1))
                seq.ipos.append(self.pos(item))
            value = seq
        elif isinstance(node, MappingNode):
            self.check_tag(node, "map")
            self.count(node)
            value = self.mapping(node, depth)
        else:  # pragma: no cover - ruamel has no other node kinds
            raise _Abort(self.pos(node), YAML_SYNTAX, "unsupported YAML node")
        if shared:
            self.done[key] = value
        return value

    def count(self, node: Node) -> None:
        """The size limit, where no :meth:`expanded_size` walk came first."""
        if not self.shared:
            self.nodes += len(node.value) * (2 if isinstance(node, MappingNode) else 1)
            if self.nodes > MAX_EXPANDED_NODES:
                raise _Abort(
                    self.pos(node),
                    YAML_LIMIT,
                    f"this value expands to more than {MAX_EXPANDED_NODES:,} nodes; split the file",
                )

    def check_tag(self, node: Node, kind: str) -> None:
        tag = _tag(node)
        if tag not in (_CORE + kind, "!", "?") and not tag.startswith(_CORE + kind):
            raise _Abort(
                self.pos(node),
                SCHEMA,
                f"YAML tag {tag!r} is not supported; remove it (pnp reads plain data only)",
            )

    def mapping(self, node: MappingNode, depth: int = 0) -> YMap:
        result = YMap(self.pos(node))
        merged: list[YMap] = []
        for knode, vnode in node.value:
            if _tag(knode) == _CORE + "merge":
                merged.extend(self.merge_sources(vnode, depth + 1))
                continue
            if not isinstance(knode, ScalarNode):
                raise _Abort(
                    self.pos(knode),
                    SCHEMA,
                    "a mapping key must be a plain value, not a list or mapping",
                )
            k = self.scalar(knode)
            if isinstance(k, bool | float) or k is None:
                k = knode.value  # YAML keys true, 1.0 and ~ are not Python's True, 1 and None
            kp = self.pos(knode)
            if k in result:
                first = result.kpos[k]
                self.report.add(
                    YAML_DUPLICATE_KEY,
                    kp,
                    f"key {k!r} appears twice in this mapping (first at line {first.line}); "
                    "keep one of them",
                    game=self.game,
                )
                continue
            result[k] = self.convert(vnode, depth + 1)
            result.kpos[k] = kp
            result.vpos[k] = self.pos(vnode)
        for source in merged:  # YAML merge keys: explicit keys win
            for k, v in source.items():
                if k not in result:
                    result[k] = v
                    result.kpos[k] = source.kpos.get(k, source.pos)
                    result.vpos[k] = source.vpos.get(k, source.pos)
        return result

    def merge_sources(self, vnode: Node, depth: int) -> list[YMap]:
        value = self.convert(vnode, depth)
        items = value if isinstance(value, YSeq) else [value]
        out = []
        for item in items:
            if not isinstance(item, YMap):
                raise _Abort(self.pos(vnode), SCHEMA, "a merge key (<<) must refer to a mapping")
            out.append(item)
        return out

    def scalar(self, node: ScalarNode) -> Any:
        text: str = node.value
        tag = _tag(node)
        if len(text) > MAX_SCALAR_CHARS:
            raise _Abort(
                self.pos(node),
                YAML_LIMIT,
                f"a single value of {len(text):,} characters (limit {MAX_SCALAR_CHARS:,})",
            )
        if tag == _CORE + "binary":  # base64 bytes: read as text, it would print the base64
            raise _Abort(
                self.pos(node),
                SCHEMA,
                "a !!binary value (base64-encoded bytes) is not read by pnp: write the text "
                "itself, or put an image in the game's folder and give its path",
            )
        if tag in ("!", _CORE + "str", _CORE + "timestamp"):
            return text
        if tag == _CORE + "null":
            if not text and "#" in self.text:
                self.commented_colour(node)
            return None
        if tag == _CORE + "bool":
            return text.lower() == "true"
        if tag == _CORE + "int":
            return self.integer(node, text)
        if tag == _CORE + "float":
            low = text.lower().replace("_", "")
            if low in (".inf", "+.inf"):
                return math.inf
            if low == "-.inf":
                return -math.inf
            if low == ".nan":
                return math.nan
            try:
                return float(low)
            except ValueError:
                return text
        if tag == _CORE + "merge":
            return text
        raise _Abort(
            self.pos(node),
            SCHEMA,
            f"YAML tag {tag!r} is not supported; remove it (pnp reads plain data only)",
        )

    def commented_colour(self, node: ScalarNode) -> None:
        """An empty value followed on its line by a comment that is a colour (``fill: #f00``):
        the designer wrote a colour, YAML read a comment. Nothing else would say so."""
        if self.lines is None:
            self.lines = self.text.splitlines()
        mark = node.start_mark
        line = self.lines[mark.line] if mark.line < len(self.lines) else ""
        found = _COMMENT_COLOUR.match(line, mark.column)
        if found is None:
            return
        key = line[: mark.column].strip().rstrip(":").strip().lstrip("- ").strip()
        written = f"{key}: " if key else "- "
        self.report.add(
            UNQUOTED_COLOUR,
            Pos(self.path, mark.line + 1, found.start(1)),
            f"{written}#{found.group(1)} is read by YAML as a comment, so the value is empty; "
            f'quote the colour: {written}"#{found.group(1)}"',
            game=self.game,
            subject=(f"lines/{self.path}:{mark.line + 1}",),  # what is wrong on this line
        )

    def integer(self, node: ScalarNode, text: str) -> int | str:
        clean = text.replace("_", "")
        if len(clean) > 30:
            raise _Abort(self.pos(node), SCHEMA, f"the number {text[:20]}... is too large")
        try:
            if re.fullmatch(r"[-+]?0[0-9]+", clean):
                return int(clean, 10)  # YAML 1.2: a leading zero is still decimal
            return int(clean, 0)
        except ValueError:
            return text


MAX_ITEMS = 1_000_000  # separators (lines and commas): a generous bound on nodes


def parse_text(text: str, path: str, report: Report, game: str = "") -> LoadedFile:
    """Parse YAML text (already decoded) into positioned data, reporting problems."""
    items = text.count("\n") + text.count(",")
    if items > MAX_ITEMS:
        report.add(
            YAML_LIMIT,
            Pos(path, 1, 1),
            f"the file has about {items:,} items (lines or commas); pnp reads up to "
            f"{MAX_ITEMS:,} per file: split it",
            game=game,
        )
        return LoadedFile(path, None, False)
    yaml = YAML(typ="safe", pure=False)
    yaml.Resolver = FastResolver
    yaml.allow_duplicate_keys = True  # we detect them ourselves, with both positions
    try:
        deep = _too_deep(yaml, text, path)
        if deep is not None:
            report.add(
                YAML_LIMIT, deep, f"nesting deeper than {MAX_DEPTH} levels; flatten it", game=game
            )
            return LoadedFile(path, None, False)
        node = yaml.compose(text)
    except MarkedYAMLError as exc:
        pos, message = syntax_problem(exc, text, path)
        report.add(YAML_SYNTAX, pos, message, game=game, subject=defined_in(text))
        return LoadedFile(path, None, False)
    except YAMLError as exc:
        pos, message = unreadable(exc, text, path)
        report.add(YAML_SYNTAX, pos, message, game=game, subject=defined_in(text))
        return LoadedFile(path, None, False)
    except (RecursionError, MemoryError):
        report.add(YAML_LIMIT, Pos(path, 1, 1), "the file is nested too deeply", game=game)
        return LoadedFile(path, None, False)
    if node is None:
        return LoadedFile(path, None, True)
    conv = _Converter(path, report, game, shared="&" in text, text=text)
    try:
        if conv.shared:
            conv.expanded_size(node)
        data = conv.convert(node)
    except _Abort as abort:
        report.add(abort.rule, abort.pos, abort.message, game=game, subject=defined_in(text))
        return LoadedFile(path, None, False)
    except RecursionError:
        report.add(YAML_LIMIT, Pos(path, 1, 1), "the file is nested too deeply", game=game)
        return LoadedFile(path, None, False)
    return LoadedFile(path, data, True)


def _too_deep(yaml: YAML, text: str, path: str) -> Pos | None:
    """Where the nesting first goes deeper than MAX_DEPTH, for a text that might nest deep
    enough to crash the C composer (which recurses per level, with no guard, and overflows the
    C stack near 20,000 levels); None otherwise. The parser's events come from a loop with its
    own stack, so counting them is safe at any depth; it costs about a third of composing,
    paid only by texts with many openers."""
    widest = max(map(len, text.splitlines()), default=0)
    if text.count("[") + text.count("{") + widest < _DEEP_SUSPECT:
        return None
    depth = 0
    for event in yaml.parse(text):
        if isinstance(event, CollectionStartEvent):
            depth += 1
            if depth > MAX_DEPTH:
                mark = event.start_mark
                return Pos(path, mark.line + 1, mark.column + 1)
        elif isinstance(event, CollectionEndEvent):
            depth -= 1
    return None


def load_file(file: Path, rel: str, report: Report, game: str = "") -> LoadedFile:
    """Read and parse one YAML file; ``rel`` is its path relative to the content root."""
    try:
        raw = read_limited(file, MAX_FILE_BYTES, "YAML file", inside=root_of(file, rel))
    except ReadRefused as exc:
        report.add(YAML_LIMIT, Pos(rel), f"not read: {exc}", game=game)
        return LoadedFile(rel, None, False)
    text = decode_utf8(raw, rel, report, game)
    if text is None:
        return LoadedFile(rel, None, False)
    return parse_text(text, rel, report, game)


class EncodingProblem(ValueError):
    """Where a content file stops being UTF-8 text: ``byte`` is the byte that is not UTF-8,
    or None when the text holds NUL characters (a binary or UTF-16 file)."""

    def __init__(self, line: int, col: int, byte: int | None) -> None:
        super().__init__(f"{line}:{col}")
        self.line, self.col, self.byte = line, col, byte


def utf8_text(raw: bytes) -> str:
    """``raw`` as UTF-8 text (a BOM is accepted and dropped); EncodingProblem at the first
    byte that is not UTF-8, or at the first line holding a NUL character."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start]
        col = exc.start - (before.rfind(b"\n") + 1) + 1
        raise EncodingProblem(before.count(b"\n") + 1, col, raw[exc.start]) from exc
    if "\x00" in text:
        raise EncodingProblem(text.count("\n", 0, text.index("\x00")) + 1, 1, None)
    return text


def decode_utf8(raw: bytes, rel: str, report: Report, game: str = "") -> str | None:
    """Decode UTF-8 (a BOM is accepted and dropped); report the first bad byte otherwise."""
    try:
        return utf8_text(raw)
    except EncodingProblem as bad:
        message = (
            f"byte 0x{bad.byte:02x} is not UTF-8; save the file as UTF-8 "
            "(in most editors: Save with encoding > UTF-8)"
            if bad.byte is not None
            else "the file contains NUL characters: is it a binary file or UTF-16? save it as UTF-8"
        )
        text = raw.decode("utf-8", errors="replace")
        report.add(
            FILE_ENCODING,
            Pos(rel, bad.line, bad.col),
            message,
            game=game,
            subject=defined_in(text),
        )
        return None


_SECTION_RE = re.compile(r"([A-Za-z_][\w-]*)[ \t]*:[ \t]*(#.*)?$")
_ENTRY_RE = re.compile(r"([ \t]+)(['\"]?)([\w-]+)\2[ \t]*:(?:[ \t]|$)")


def defined_in(text: str) -> tuple[str, ...]:
    """What a file that cannot be parsed seems to define, read line by line as a person would:
    each top-level key and the keys of its first indented level (``layouts/action``). A
    finding about the file says these are broken, so that a reference to one of them is
    folded under it (pnp.core.causes)."""
    names: list[str] = []
    section: str | None = None
    indent: str | None = None
    for line in text.splitlines()[:20000]:
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        top = _SECTION_RE.match(line)
        if top is not None:
            section, indent = top.group(1), None
            continue
        if not line[0].isspace():
            section = None
            continue
        entry = _ENTRY_RE.match(line)
        if section is None or entry is None:
            continue
        if indent is None:
            indent = entry.group(1)
        if entry.group(1) == indent:
            names.append(f"{section}/{entry.group(3)}")
    return tuple(dict.fromkeys(names))
