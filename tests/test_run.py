"""One run owns what it caches: after a run, nothing it learnt of the user's files is kept in
the process (pnp watch runs many builds in one process), and a Renderer can render twice."""

from __future__ import annotations

import functools
import sys
from pathlib import Path

from pnp.build import BuildOptions, build
from pnp.content.load import open_root
from pnp.core.findings import Report
from pnp.core.run import active, current, running

from helpers import FIXTURES, REPO, make_root

# Caches kept between runs on purpose: they depend only on pnp itself and fixed inputs
# (pnp/core/run.py says why each is safe).
SHARED = {
    "pnp.content.schema._HINTS",  # type hints of the format's classes
    "pnp.content.schema._PLANS",  # how to convert each annotation
    "pnp.content.schema._DATACLASS_PLANS",
    "pnp.typeset.text._width",  # width of a text in a font (named by its content's digest)
    "pnp.typeset.text._WIDTHS",
    "pnp.typeset.text._rl_color",
    "pnp.typeset.layout.rl_color",  # the same memo of colours (text._rl_color is it)
    "pnp.typeset.layout._shaped",  # a word shaped in a font (named by its content's digest)
    "pnp.typeset.scripts.is_rtl",  # a language's direction (CLDR)
    "pnp.typeset.scripts._parser",  # BudouX's line-break models
    "pnp.typeset.text._hyphenator",
    "pnp.typeset.text.hyphenation_language",
    "pnp.printing.render._color",
    "pnp.content.model.types.resolve_box",
    "pnp.content.model.types.valid_language",
    "pnp.content.model.resolve_box",
    "pnp.content.model.valid_language",
    "pnp.validate.texts.part_of",
    "pnp.typeset.faces.builtin_layouts",
    "pnp.i18n.words.builtin",  # pnp's own catalogs
    "pnp.i18n.plural._evaluator_for",  # a Plural-Forms expression, compiled
    "pnp.i18n.plural._inspect_cached",
    "pnp.content.assets._is_image_suffix",
    "pnp.content.expr._attributes_of",  # the fields of pnp's record classes, as imported
    "pnp.validate.sentences._dice_re_of",  # the dice pattern of a language's die letters
}


def _sizes() -> dict[str, int]:
    """Every module-level container and memo of pnp, by where it is defined, with its size."""
    out: dict[str, int] = {}
    for name, module in list(sys.modules.items()):
        if not name.startswith("pnp.") or module is None:
            continue
        for attr, value in list(vars(module).items()):
            if isinstance(value, functools._lru_cache_wrapper):
                where = f"{value.__module__}.{value.__qualname__}"
                out[where] = value.cache_info().currsize
            elif isinstance(value, dict | list | set) and not attr.startswith("__"):
                out.setdefault(f"{name}.{attr}", len(value))
    return out


def _build(root: Path, out: Path) -> None:
    report = Report()
    with running(fresh=True):
        build(open_root(root), None, BuildOptions(out_dir=out, force=True), report)


def test_nothing_of_a_run_stays_in_the_process(tmp_path: Path) -> None:
    _build(make_root(tmp_path / "a", FIXTURES / "clean"), tmp_path / "out-a")  # pnp warmed up
    before = _sizes()
    _build(REPO, tmp_path / "out-b")  # other games, other files, fonts, texts
    after = _sizes()
    grown = sorted(k for k, n in after.items() if n > before.get(k, 0) and k not in SHARED)
    assert not grown, f"module-level state grew during a run: {grown}"


def test_caches_live_as_long_as_their_run() -> None:
    assert active() is not None  # tests run in a run of their own (conftest.py)
    with running(fresh=True) as run:
        run.store("x")["a"] = 1
        with running() as inner:
            assert inner is run and current().store("x") == {"a": 1}
    assert current().store("x") == {}


def test_a_renderer_renders_twice(tmp_path: Path) -> None:
    """A second render() of the same Renderer gives the same PDF (its Form XObjects belong to
    one PDF: before, the second raised "forward reference to 'FormXob.face0'")."""
    from pnp.content.load import load_game
    from pnp.core.units import PAPERS
    from pnp.i18n import Translator
    from pnp.printing.imposition import Options, plan_document
    from pnp.printing.render import Renderer
    from pnp.typeset.faces import FaceEngine
    from pnp.typeset.fonts import fontset

    root = open_root(make_root(tmp_path, FIXTURES / "clean"))
    game = load_game(root, "mini", Report())
    assert game is not None
    fonts = fontset(root.fonts, game.print.font, game.print.fallback_fonts)
    tr = Translator(game, "en")
    engine = FaceEngine(game, root.game_dir(game.id), "en", tr, fonts, cache=False)
    renderer = Renderer(game, "en", engine, fonts, tr, tr.text(game.meta.title))
    setup = renderer.count_setup_pages(PAPERS["a4"].portrait())
    pages = plan_document(game, Options(), setup_pages=setup)
    first = renderer.render(pages)
    second = renderer.render(pages)
    assert first == second and first.startswith(b"%PDF")


def test_findings_name_their_language_and_face(tmp_path: Path) -> None:
    """Text findings carry the language and the face they are on: the preview and i18n
    status use those, instead of reading them out of messages."""
    from helpers import run_validate

    report = run_validate(make_root(tmp_path, FIXTURES / "text-overflow"))
    over = [f for f in report.sorted() if f.rule == "text-overflow"]
    assert {f.lang for f in over} == {"en", "it"}
    assert {f.face for f in over} == {"main/beta/front"}  # decks.yaml:13 is beta's text
    assert all(f.message.startswith(f"[{f.lang}]") for f in over)
