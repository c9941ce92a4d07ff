"""SVG art and icons, read as untrusted input before anything draws them.

An SVG is XML, and XML can ask its reader for more than a picture: entities that expand a
billionfold, files and web addresses to fetch (DTDs, ``<image>``, ``<use href="other.svg">``,
CSS ``@import``), text in fonts looked up on the machine. :func:`check_svg` parses the file
with every fetch and every entity off (lxml: no network, no DTD loaded, no entity resolved),
then refuses what pnp will not draw, each with what to do instead:

- a DOCTYPE that declares entities; processing instructions are dropped;
- a reference to anything but a fragment of the same file (``href="#id"``, ``url(#id)``):
  other files, web addresses, ``data:`` URIs, CSS ``@import``;
- raster ``<image>`` and ``<text>`` (export the picture as its own PNG, the text as paths);
- more than :data:`MAX_SVG_ELEMENTS` elements once every ``<use>`` is expanded (counted on
  the tree, before anything is drawn), nesting deeper than :data:`MAX_SVG_DEPTH`;
- a size that is not a finite, positive number of at most :data:`MAX_SVG_UNITS` units.

What passes is turned into vector drawing operations by svglib (:mod:`pnp.compat.svglib`),
once per file and run.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

MAX_SVG_BYTES = 8 * 1024 * 1024
MAX_SVG_ELEMENTS = 50_000  # after <use> expansion
MAX_SVG_DEPTH = 100
MAX_SVG_UNITS = 100_000.0  # a width, height or viewBox side, in the SVG's own units
SVG_NS = "http://www.w3.org/2000/svg"
XLINK = "{http://www.w3.org/1999/xlink}href"
_URL_RE = re.compile(r"url\(\s*(['\"]?)([^)'\"]*)\1\s*\)", re.I)
_LENGTH_RE = re.compile(r"\s*([0-9.eE+-]+)\s*(px|pt|mm|cm|in|pc)?\s*$")
_UNIT_PX = {"px": 1.0, None: 1.0, "pt": 96 / 72, "pc": 16.0, "mm": 96 / 25.4, "cm": 96 / 2.54}
_UNIT_PX["in"] = 96.0


class SvgRefused(ValueError):
    """The SVG is not one pnp draws; the message says why and what to do."""


@dataclass(frozen=True)
class SvgInfo:
    width: float  # in CSS pixels (1/96 inch): what the file says its size is
    height: float
    root: Any  # the parsed lxml root element, checked


def looks_like_svg(head: bytes) -> bool:
    """Whether a file's first bytes are those of an SVG (XML: a declaration, a comment, or
    an ``<svg`` element), after an optional byte order mark and white space."""
    text = head.lstrip(b"\xef\xbb\xbf").lstrip()
    return text.startswith((b"<?xml", b"<svg", b"<!--", b"<!DOCTYPE svg"))


def check_svg(data: bytes, name: str) -> SvgInfo:
    """The SVG in ``data`` parsed and checked (see the module); SvgRefused otherwise."""
    if len(data) > MAX_SVG_BYTES:
        raise SvgRefused(
            f"{name} is {len(data) / 1e6:.1f} MB, over the {MAX_SVG_BYTES // 2**20} MB limit "
            "for an SVG; simplify it or export it as PNG"
        )
    from lxml import etree

    parser = etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        dtd_validation=False,
        huge_tree=False,
        remove_comments=True,
        remove_pis=True,
    )
    try:
        tree = etree.ElementTree(etree.fromstring(data, parser))
    except etree.XMLSyntaxError as exc:
        raise SvgRefused(f"{name} is not well-formed XML ({exc}); export it again") from exc
    dtd = tree.docinfo.internalDTD
    if dtd is not None and any(True for _ in dtd.iterentities()):
        raise SvgRefused(
            f"{name} declares XML entities in its DOCTYPE, which pnp does not expand; export "
            "it again as plain SVG (Inkscape: Save As > Plain SVG)"
        )
    root = tree.getroot()
    if not isinstance(root.tag, str) or root.tag not in (f"{{{SVG_NS}}}svg", "svg"):
        raise SvgRefused(f"{name} is XML but not an SVG (its root is not <svg>)")
    width, height = _size(root, name)
    _walk(root, name)
    return SvgInfo(width, height, root)


def _local(tag: Any) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _walk(root: Any, name: str) -> None:
    """Every element checked; ``<use>`` expansions counted, each target's subtree once per
    use (nested uses multiply), before anything is expanded."""
    ids: dict[str, Any] = {}
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue  # comments and entities left as they are: svglib ignores them
        ident = el.get("id")
        if ident is not None:
            ids.setdefault(ident, el)
        _check_element(el, name)
    sizes: dict[Any, int] = {}  # by element: the dict keeps lxml's proxies (and so who is
    total = _expanded(root, ids, sizes, set(), 0, name)  # who) alive while it counts
    if total > MAX_SVG_ELEMENTS:
        raise SvgRefused(
            f"{name} draws more than {MAX_SVG_ELEMENTS:,} elements once its <use> copies "
            "are counted, more than pnp draws; simplify it or export it as PNG"
        )


def _check_element(el: Any, name: str) -> None:
    tag = _local(el.tag)
    if tag == "image":
        raise SvgRefused(
            f"{name} holds a raster <image>: pnp draws SVG as vectors only; save the picture "
            "as its own PNG or JPEG and use that file"
        )
    if tag in ("text", "tspan", "textPath"):
        raise SvgRefused(
            f"{name} has text (<{tag}>), which would need fonts from this machine; convert "
            "its text to paths in your editor (Inkscape: Path > Object to Path)"
        )
    for attr, value in el.attrib.items():
        local = _local(attr) if attr.startswith("{") else attr
        if local == "href" and not value.strip().startswith("#") and tag != "a":
            raise SvgRefused(
                f"{name}: <{tag}> refers to {value[:60]!r}; an SVG may only refer to its own "
                'parts (href="#id"): put what it needs inside the file'
            )
        if attr == "style" or "url(" in value:
            _check_css(value, name, f"<{tag} {local}>")
    if tag == "style":
        _check_css(el.text or "", name, "<style>")


def _check_css(text: str, name: str, where: str) -> None:
    if "@import" in text.lower():
        raise SvgRefused(f"{name}: {where} imports a style sheet; put the styles in the file")
    for _quote, target in _URL_RE.findall(text):
        if not target.strip().startswith("#"):
            raise SvgRefused(
                f"{name}: {where} refers to {target[:60]!r}; an SVG may only refer to its own "
                "parts (url(#id)): put what it needs inside the file"
            )


def _expanded(el: Any, ids: dict[str, Any], sizes: dict[Any, int], busy: set[Any], depth: int,
              name: str) -> int:  # fmt: skip
    """How many elements ``el`` draws, its ``<use>`` targets counted as copies."""
    if depth > MAX_SVG_DEPTH:
        raise SvgRefused(f"{name} nests elements more than {MAX_SVG_DEPTH} deep; flatten it")
    if el in sizes:
        return sizes[el]
    if el in busy:
        raise SvgRefused(f"{name}: a <use> refers to itself, directly or through others")
    key = el
    busy.add(key)
    count = 1
    if _local(el.tag) == "use":
        href = (el.get(XLINK) or el.get("href") or "").strip()
        target = ids.get(href[1:]) if href.startswith("#") else None
        if target is not None:
            count += _expanded(target, ids, sizes, busy, depth + 1, name)
    for child in el:
        if isinstance(child.tag, str):
            count += _expanded(child, ids, sizes, busy, depth + 1, name)
        if count > MAX_SVG_ELEMENTS:
            break  # already too many: the caller says so
    busy.discard(key)
    sizes[key] = count
    return count


def _length(value: str | None) -> float | None:
    """A width or height as written (a number, px, pt, mm, cm, in, pc), in CSS pixels;
    None for a percentage or nothing."""
    if value is None or value.strip().endswith("%"):
        return None
    m = _LENGTH_RE.match(value)
    if not m:
        return None
    try:
        number = float(m.group(1))
    except ValueError:
        return None
    return number * _UNIT_PX[m.group(2)]


def _size(root: Any, name: str) -> tuple[float, float]:
    """The SVG's size: width and height, else its viewBox's."""
    box = root.get("viewBox")
    vb: list[float] = []
    if box is not None:
        try:
            vb = [float(v) for v in box.replace(",", " ").split()]
        except ValueError:
            vb = []
        if len(vb) != 4:
            raise SvgRefused(f"{name}: its viewBox {box[:60]!r} is not four numbers")
    width, height = _length(root.get("width")), _length(root.get("height"))
    if width is None and vb:
        width = vb[2]
    if height is None and vb:
        height = vb[3]
    sides = [width, height, *vb[2:]]
    if width is None or height is None:
        raise SvgRefused(f"{name} gives no size: give its <svg> a viewBox (or a width and height)")
    if not all(v is not None and math.isfinite(v) and 0 < v <= MAX_SVG_UNITS for v in sides):
        raise SvgRefused(
            f"{name}: its size ({root.get('width')} x {root.get('height')}, viewBox {box}) "
            f"must be positive and at most {MAX_SVG_UNITS:,.0f} units a side"
        )
    return width, height
