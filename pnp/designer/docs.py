"""pnp's documentation, from the installed package: `pnp docs [TOPIC]`.

The docs are the Markdown files of ``docs/`` in pnp's repository. A wheel carries them as
``pnp/data/docs/`` (``setup.py`` copies them there when the wheel is built), so an install from
PyPI has them; in a checkout (an editable install) they are read from ``docs/`` itself. Every
file is a topic named after it: a new file in ``docs/`` is a new topic, with nothing to
register. ``--open`` renders every topic as an HTML page, the pages linked to one another, in a
new temporary folder, and opens one in the browser.
"""

from __future__ import annotations

import difflib
import functools
import html
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.errors import PnpError, UsageError
from ..i18n.words import tr

PACKAGE = Path(__file__).resolve().parent.parent
SHIPPED = PACKAGE / "data" / "docs"  # in a wheel
CHECKOUT = PACKAGE.parent / "docs"  # in pnp's repository
DISTRIBUTION = 'name = "pnp-press"'  # how the checkout's pyproject.toml names pnp


@dataclass(frozen=True)
class Topic:
    name: str  # the file's name without .md: format, rules, ...
    title: str  # its first heading
    path: Path

    def text(self) -> str:
        return self.path.read_text("utf-8")


def docs_folder() -> Path:
    """Where the docs are: ``docs/`` of the checkout pnp runs from, else the wheel's copy."""
    project = CHECKOUT.parent / "pyproject.toml"
    try:
        if CHECKOUT.is_dir() and DISTRIBUTION in project.read_text("utf-8"):
            return CHECKOUT
    except (OSError, UnicodeDecodeError):
        pass
    if SHIPPED.is_dir():
        return SHIPPED
    raise PnpError(
        tr(
            "this installation of pnp has no documentation ({path} is missing): reinstall pnp"
        ).format(path=SHIPPED)
    )


def topics() -> dict[str, Topic]:
    """Every topic, by name, in alphabetical order."""
    found: dict[str, Topic] = {}
    for path in sorted(docs_folder().glob("*.md")):
        heading = re.search(r"^# (.+)$", path.read_text("utf-8"), re.M)
        found[path.stem] = Topic(path.stem, heading.group(1).strip() if heading else "", path)
    return found


def topic(name: str) -> Topic:
    """The topic ``name`` (``FORMAT`` and ``format.md`` name it too); a UsageError naming the
    topics for any other name."""
    known = topics()
    wanted = name.strip().lower().removesuffix(".md")
    if wanted in known:
        return known[wanted]
    close = difflib.get_close_matches(wanted, list(known), n=1, cutoff=0.5)
    hint = tr("did you mean {name}? ").format(name=close[0]) if close else ""
    raise UsageError(
        tr("unknown topic '{name}'; {hint}the topics: {topics}").format(
            name=name, hint=hint, topics=", ".join(known)
        )
    )


# --- as HTML pages, for --open ------------------------------------------------------------------

STYLE = """
body { font: 16px/1.5 system-ui, sans-serif; margin: 0; color: #222; background: #fafaf8; }
nav { position: fixed; top: 0; left: 0; bottom: 0; width: 13rem; padding: 1rem;
      background: #f0efe9; border-right: 1px solid #ddd; overflow-y: auto; }
nav a { display: block; padding: .15rem 0; color: #1f4e9c; text-decoration: none; }
nav a.here { font-weight: 700; color: #222; }
main { margin-left: 15rem; max-width: 52rem; padding: 1rem 2rem 4rem; }
code { font: .9em ui-monospace, monospace; background: #eeede7; padding: 0 .2em; }
pre { background: #eeede7; padding: .6rem .8rem; overflow-x: auto; }
pre code { background: none; padding: 0; }
table { border-collapse: collapse; margin: .5rem 0; font-size: .92rem; }
th, td { border: 1px solid #ddd; padding: .25rem .5rem; text-align: left; vertical-align: top; }
th { background: #f0efe9; }
@media (max-width: 50rem) { nav { position: static; width: auto; } main { margin: 0; } }
"""


def slug(text: str) -> str:
    """A heading's anchor as GitHub makes it: `game.yaml` -> gameyaml, "How to read" ->
    how-to-read (the links between the docs are written for GitHub)."""
    text = re.sub(r"[^\w\- ]", "", text.strip().lower())
    return text.replace(" ", "-")


@functools.cache
def _markdown() -> Any:
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": False}).enable("table")

    def anchors(state: Any) -> None:
        """Headings get their GitHub anchors; links to another topic go to its page."""
        seen: dict[str, int] = {}
        for i, token in enumerate(state.tokens):
            if token.type == "heading_open":
                base = slug(state.tokens[i + 1].content)
                n = seen.get(base, 0)
                seen[base] = n + 1
                token.attrSet("id", base if n == 0 else f"{base}-{n}")
            for child in token.children or ():
                href = child.attrGet("href") if child.type == "link_open" else None
                if href and not re.match(r"[a-z]+:", href):
                    child.attrSet("href", re.sub(r"\.md(?=$|#)", ".html", str(href)))

    md.core.ruler.push("pnp_anchors", anchors)
    return md


def page(name: str, title: str, body: str, every: dict[str, Topic]) -> str:
    """A whole HTML page: ``body`` (HTML), with the list of topics beside it."""
    links = "\n".join(
        f'<a href="{t.name}.html"{" class=here" if t.name == name else ""}>'
        f"{html.escape(t.title or t.name)}</a>"
        for t in every.values()
    )
    return (
        f'<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{html.escape(title)} — pnp</title>\n<style>{STYLE}</style>\n</head>\n"
        f'<body>\n<nav><a href="index.html"><strong>pnp docs</strong></a>\n{links}\n</nav>\n'
        f'<main id="{name}">\n{body}</main>\n</body>\n</html>\n'
    )


def write_html(folder: Path) -> dict[str, Path]:
    """Every topic as ``folder/TOPIC.html``, and ``folder/index.html`` listing them; their
    paths, by topic ('' for the index)."""
    every = topics()
    written = {"": folder / "index.html"}
    for t in every.values():
        written[t.name] = folder / f"{t.name}.html"
        text = page(t.name, t.title, _markdown().render(t.text()), every)
        written[t.name].write_text(text, "utf-8")
    rows = "".join(
        f'<li><a href="{t.name}.html">{html.escape(t.title or t.name)}</a>: '
        f"<code>pnp docs {t.name}</code></li>\n"
        for t in every.values()
    )
    index = f"<h1>pnp</h1>\n<ul>\n{rows}</ul>\n"
    written[""].write_text(page("", "pnp", index, every), "utf-8")
    return written
