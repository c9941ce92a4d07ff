"""What pnp/compat relies on in other libraries still holds: these fail loudly, naming the
library, when an upgrade changes an internal pnp uses (pyproject.toml caps the versions)."""

from __future__ import annotations

import ast
import inspect
import io
from collections.abc import Iterator
from importlib.metadata import version

import pytest
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase import pdfdoc, pdfmetrics
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph

from pnp.compat import bidi, harfbuzz, jinja, ruamel
from pnp.compat import reportlab as rl
from pnp.compat import simpleeval as se
from pnp.compat import svglib as sv
from pnp.compat import typer as ty

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
        ("python-bidi", bidi.WRITTEN_FOR),
        ("uharfbuzz", harfbuzz.WRITTEN_FOR),
        ("simpleeval", se.WRITTEN_FOR),
        ("typer", ty.WRITTEN_FOR),
        ("svglib", sv.WRITTEN_FOR),
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


def test_reportlab_internals_of_images_alpha_and_forms() -> None:
    """Words with inline images (_getFragWords, _HSFrag), the colour hook text objects copy
    (_enforceColorSpace), and what a form XObject is given (_setXObjects, _shadingUsed,
    PDFFormXObject.format): what glue_inline_images, colours_at_alpha and complete_forms
    wrap."""
    from reportlab.pdfgen.canvas import Canvas as C
    from reportlab.platypus import paragraph

    assert callable(paragraph._getFragWords) and issubclass(paragraph._HSFrag, list)
    rl.glue_inline_images()
    canvas = C(io.BytesIO())
    assert hasattr(canvas, "_enforceColorSpace") and isinstance(canvas._shadingUsed, dict)
    assert callable(C._setXObjects) and callable(pdfdoc.PDFFormXObject.format)
    with rl.colours_at_alpha(canvas, 0.5):
        text = canvas.beginText()
        assert text._enforceColorSpace is canvas._enforceColorSpace  # copied when made
        canvas.setFillColor("#ff0000")
    rl.complete_forms()
    canvas.beginForm("f")
    canvas.linearGradient(0, 0, 10, 10, ["#ff0000", "#0000ff"])
    canvas.endForm()
    canvas.doForm("f")
    canvas.showPage()
    canvas.save()
    data = canvas.getpdfdata()
    assert b"/ca .5" in data and b"/Shading" in data


def test_svglib_renders_a_tree_it_is_given() -> None:
    from lxml import etree

    root = etree.fromstring(
        b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 20 10"><rect width="20" '
        b'height="10" fill="#ff0000"/></svg>'
    )
    drawing = sv.svg_drawing(root)
    assert drawing.width == pytest.approx(15) and drawing.height == pytest.approx(7.5)


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


def test_nothing_falls_back_silently() -> None:
    """The paths pnp keeps for a broken install (a finding says so when content needs them)
    are not the ones this installation takes: python-bidi's mirror table and reportlab's
    shaping (uharfbuzz) are there."""
    assert bidi.AVAILABLE, "python-bidi: bidi.mirror.MIRRORED is gone; brackets would not mirror"
    assert rl.shaping_available(), "reportlab: ttfonts.uharfbuzz is gone; nothing would be shaped"


def test_bidi_mirror_table() -> None:
    assert [bidi.mirrored(c) for c in "()[]«»<a"] == list(")(][»«>a")


def test_python_bidi_algorithm_functions() -> None:
    """The second opinion tests/test_scripts.py asks python-bidi's pure-Python algorithm for."""
    assert bidi._python_levels("abc \u05d0\u05d1 12", True) == [2, 2, 2, 1, 1, 1, 1, 2, 2]


def test_harfbuzz_guesses_a_direction_from_the_script() -> None:
    assert harfbuzz.guessed_rtl("\u05e9\u05dc\u05d5\u05dd")
    assert harfbuzz.guessed_rtl("\u0628\u0637\u0627\u0642\u0627\u062a")
    assert not harfbuzz.guessed_rtl("card")
    assert harfbuzz.guessed_rtl("\u0663\u0664")  # Arabic digits, which read left to right


def test_simpleeval_reads_the_limits_pnp_sets() -> None:
    """pnp.content.expr sets simpleeval's module globals; simpleeval must still read them."""
    import simpleeval

    import pnp.content.expr  # noqa: F401 - sets the limits

    assert (simpleeval.MAX_STRING_LENGTH, simpleeval.MAX_POWER) == (10_000, 1_000_000)
    assert simpleeval.MAX_COMPREHENSION_LENGTH == 100_000
    ev = simpleeval.EvalWithCompoundTypes()
    assert len(ev.eval("'x' * 10000")) == 10_000
    for expr in ("'x' * 10001", "2 ** 1000001", "[x for x in range(100001)]"):
        with pytest.raises(simpleeval.InvalidExpression):
            ev.eval(expr)


def test_simpleeval_attributes_of_one_type_only() -> None:
    import simpleeval

    class Row:
        players = 3

    names = {"row": Row(), "n": 3}
    ev = simpleeval.EvalWithCompoundTypes(names=names, allowed_attrs=se.every_attribute_of(Row))
    assert ev.eval("row.players") == 3
    with pytest.raises(simpleeval.FeatureNotAvailable):
        ev.eval("n.real")


def test_typer_still_has_its_shell_detection_switch() -> None:
    """pnp.compat.typer turns off typer's shell detection for `--show-completion zsh`."""
    import typer.completion

    source = inspect.getsource(typer.completion)
    assert f'os.getenv("{ty.SHELL_DETECTION_SWITCH}")' in source, (
        "typer: the completion options no longer read the shell detection switch; "
        "pnp/compat/typer.py must change"
    )


# --- the wall: outside pnp/compat, no private name and no setting of another library ----------

# pnp's own names (a record's slots) and a C library's documented version variable
_NOT_A_BREACH = {
    ("pnp/content/expr.py", "_data"),
    ("pnp/content/expr.py", "_pos"),
    ("pnp/i18n/gnuwrap/maketable.py", "_libunistring_version"),
}


def _third_party(module: str) -> bool:
    import sys

    top = module.split(".")[0]
    return top not in sys.stdlib_module_names and top not in ("pnp", "__future__")


def _breaches(path: str, tree: ast.AST) -> Iterator[str]:
    """Private names imported from a library, a library module's attribute set or read by a
    private name, and text naming a private attribute or switch (``"_name"``)."""
    modules = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if _third_party(alias.name):
                    modules.add((alias.asname or alias.name).split(".")[0])
                    yield from (p for p in alias.name.split(".") if p.startswith("_"))
        elif (
            isinstance(node, ast.ImportFrom) and not node.level and _third_party(node.module or "")
        ):
            parts = (node.module or "").split(".") + [a.name for a in node.names]
            yield from (p for p in parts if p.startswith("_"))
            modules.update(a.asname or a.name for a in node.names)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            if node.value.id in modules and isinstance(node.ctx, ast.Store):
                yield f"{node.value.id}.{node.attr} = (a library's setting)"
            if node.value.id in modules and node.attr[:1] == "_" and node.attr[:2] != "__":
                yield f"{node.value.id}.{node.attr}"
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
            private = text[:1] == "_" and text[1:2].isalpha() and text.replace("_", "").isalnum()
            if private and (path, text) not in _NOT_A_BREACH:
                yield repr(text)


def test_no_library_internals_outside_compat() -> None:
    found = []
    for path in sorted((REPO / "pnp").rglob("*.py")):
        rel = path.relative_to(REPO).as_posix()
        if not rel.startswith("pnp/compat/"):
            tree = ast.parse(path.read_text("utf-8"))
            found += [f"{rel}: {what}" for what in _breaches(rel, tree)]
    assert not found, "move these into pnp/compat (one module per library): " + "; ".join(found)
