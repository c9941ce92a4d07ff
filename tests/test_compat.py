"""What pnp/compat relies on in other libraries still holds: these fail loudly, naming the
library, when an upgrade changes an internal pnp uses (pyproject.toml caps the versions)."""

from __future__ import annotations

import inspect
import io
from importlib.metadata import version

import pytest
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase import pdfdoc, pdfmetrics
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph

from pnp.compat import jinja, ruamel
from pnp.compat import reportlab as rl

from helpers import REPO


def _major_minor(text: str) -> tuple[int, int]:
    major, minor = text.split(".")[:2]
    return int(major), int("".join(c for c in minor if c.isdigit()) or 0)


@pytest.mark.parametrize(
    ("dist", "written_for"),
    [
        ("reportlab", rl.WRITTEN_FOR),
        ("ruamel.yaml", ruamel.WRITTEN_FOR),
        ("jinja2", jinja.WRITTEN_FOR),
    ],
)
def test_installed_versions_are_the_ones_compat_was_written_for(
    dist: str, written_for: tuple[str, str]
) -> None:
    have = _major_minor(version(dist))
    low, high = (_major_minor(v) for v in written_for)
    assert low <= have <= high, (
        f"{dist} {version(dist)} is installed; pnp/compat was written for {written_for[0]} to "
        f"{written_for[1]}: check every internal it uses, then widen WRITTEN_FOR and the cap"
    )


def test_reportlab_canvas_internals() -> None:
    canvas = Canvas(io.BytesIO())
    doc = rl.document(canvas)
    assert isinstance(doc, pdfdoc.PDFDocument), "reportlab: canvas._doc is not the document"
    assert isinstance(canvas._code, list), "reportlab: canvas._code (content stream) changed"
    assert isinstance(canvas._formsinuse, list), "reportlab: canvas._formsinuse changed"
    assert callable(canvas._setXObjects), "reportlab: canvas._setXObjects is gone"
    rl.place_xobject(canvas, "FormXob.x", "x", 1, 2, 3, 4)
    assert "/FormXob.x Do" in canvas._code and "x" in canvas._formsinuse


def test_reportlab_document_collects_output_through_pdffile() -> None:
    source = inspect.getsource(pdfdoc.PDFDocument.format)
    assert "PDFFile(" in source, (
        "reportlab: PDFDocument.format no longer makes its output collector from "
        "pdfdoc.PDFFile; pnp/compat/reportlab.saving_to must change"
    )


def _drawn(sink: io.BytesIO) -> Canvas:
    canvas = Canvas(sink, invariant=1, pageCompression=1)
    canvas.drawString(72, 72, "pnp streams its PDFs")
    canvas.rect(10, 10, 50, 50)
    canvas.showPage()
    return canvas


def test_streaming_save_writes_what_save_writes() -> None:
    with rl.pdf_settings():
        plain = io.BytesIO()
        _drawn(plain).save()
        streamed = io.BytesIO()
        rl.saving_to(_drawn(streamed), streamed)
    assert streamed.getvalue() == plain.getvalue()
    assert pdfdoc.PDFFile.__module__ == "reportlab.pdfbase.pdfdoc"  # put back afterwards


def test_pdf_settings_are_put_back() -> None:
    from reportlab import rl_config

    before = rl_config.useA85
    with rl.pdf_settings():
        assert rl_config.useA85 == 0
    assert rl_config.useA85 == before


def test_paragraph_parser_and_lines() -> None:
    style = ParagraphStyle("s", fontName="Helvetica", fontSize=10)
    frags = rl.parse_fragments("x", style)
    assert frags and frags[0].text == "x" and frags[0].fontName == "Helvetica"
    para = Paragraph("a few words that wrap over lines", style)
    para.wrap(40, 1000)
    lines = rl.wrapped_lines(para)
    assert lines is not None and len(lines) > 1, "reportlab: Paragraph.blPara.lines changed"


def test_font_characters() -> None:
    from reportlab.pdfbase.ttfonts import TTFont

    path = REPO / "pnp" / "data" / "fonts" / "NotoSans-Regular.ttf"  # one with Latin letters
    pdfmetrics.registerFont(TTFont("pnp-compat-test", str(path)))
    chars = rl.font_characters(pdfmetrics.getFont("pnp-compat-test"))
    assert ord("A") in chars and len(chars) > 200, "reportlab: TTFont.face.charToGlyph changed"


def test_ruamel_tags_and_resolver() -> None:
    from ruamel.yaml import YAML
    from ruamel.yaml.resolver import VersionedResolver

    text = "a: 1\nb: yes\nc: '2'\nd: [1.5, null, true, ~, 0o17, 2026-11-26]\ne: {f: x}\n"
    fast = YAML(typ="safe", pure=False)
    fast.Resolver = ruamel.FastResolver
    plain = YAML(typ="safe", pure=False)
    plain.Resolver = VersionedResolver

    def tags(yaml: YAML) -> list[str]:
        out, todo = [], [yaml.compose(text)]
        while todo:
            node = todo.pop()
            out.append(ruamel.tag_of(node))
            value = node.value
            if isinstance(value, list):
                for item in value:
                    todo.extend(item if isinstance(item, tuple) else [item])
        return out

    got = tags(fast)
    assert got == tags(plain), "ruamel.yaml: the resolver's table or default tags changed"
    assert "tag:yaml.org,2002:int" in got and "tag:yaml.org,2002:str" in got


def test_jinja_concatenation_goes_through_the_sandbox() -> None:
    """compat/jinja.py replaces the code generated for ``~``: the sandbox's bounded_join sees
    every concatenation (jinja2 renamed or inlined str_join if this fails)."""
    from pnp.typeset.templates import sandbox

    env = sandbox()
    seen: list[tuple[object, ...]] = []
    real = env.bounded_join
    env.bounded_join = lambda parts: seen.append(parts) or real(parts)  # type: ignore[method-assign]
    assert env.from_string("{{ a ~ '-' ~ b }}").render(a=1, b="x") == "1-x"
    assert seen == [(1, "-", "x")]
    source = env.compile("{{ a ~ b }}", raw=True)
    body = source.split("def root", 1)[1]  # the import line names str_join; the code must not
    assert "environment.bounded_join((" in body and "str_join" not in body
