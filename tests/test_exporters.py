"""Issue 28: output formats behind one seam (pnp/printing/exporters).

Each format is one class registered in EXPORTERS; a build asks the exporters of its options
and never which format it is. Shown by the contact sheets (a format added as one module, its
option and this test) and by a format defined here, in the test, that a build makes without a
change anywhere else.
"""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path
from typing import Any, ClassVar

from PIL import Image

from pnp.build.pipeline import BuildOptions, build
from pnp.content.load import open_root
from pnp.core.findings import Report
from pnp.printing.exporters import (
    EXPORTERS,
    ContactSheet,
    DocumentExporter,
    ExportJob,
    FaceExporter,
    Files,
    GameExporter,
    JobExporter,
    PrintPdf,
)

from helpers import REPO, exports


def test_every_format_is_one_registered_class() -> None:
    assert set(EXPORTERS) == {"pdf", "proof", "png", "tts", "contact", "pod", "release"}
    for name, cls in EXPORTERS.items():
        assert cls.name == name
        assert dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen  # type: ignore[attr-defined]
        kinds = DocumentExporter | FaceExporter | JobExporter | GameExporter
        assert issubclass(cls, kinds), name
        module = Path(__import__(cls.__module__, fromlist=["x"]).__file__ or "")
        assert module.parent.name == "exporters"
    # the options' repr is in the build stamps: settings must show in it
    assert repr(ContactSheet(dpi=50)) == "ContactSheet(dpi=50, every=False)"


def test_the_build_names_no_format() -> None:
    """No condition on a particular format outside its exporter: pnp/build and the CLI's
    build command do not name an exporter class or a format (but the CLI, which maps each
    option to its exporter)."""
    names = {cls.__name__ for cls in EXPORTERS.values()}
    formats = set(EXPORTERS)
    for path in sorted((REPO / "pnp" / "build").glob("*.py")):
        tree = ast.parse(path.read_text("utf-8"))
        for node in ast.walk(tree):
            ident = getattr(node, "id", None) or getattr(node, "attr", None)
            assert ident not in names, f"{path.name}:{node.lineno} names {ident}"  # type: ignore[attr-defined]
            for field in ("png_dpi", "tts", "proof"):
                assert ident != field, f"{path.name}:{node.lineno} asks for {field}"  # type: ignore[attr-defined]
            if isinstance(node, ast.Constant) and node.value in formats:
                raise AssertionError(f"{path.name}:{node.lineno} names format {node.value!r}")


def _build(out: Path, *more: Any) -> Any:
    opts = BuildOptions(langs=("en",), out_dir=out, exports=(*exports(), *more), jobs=1)
    (found,) = build(open_root(REPO), ["fabg"], opts, Report())
    return found


def test_contact_sheets_show_each_deck_and_token_set(tmp_path: Path) -> None:
    plain = _build(tmp_path / "plain")
    out = _build(tmp_path / "contact", ContactSheet(dpi=40))
    folder = tmp_path / "contact" / "fabg" / "fabg-en-contact"
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        f"{o}.jpg"
        for o in (
            "roles",
            "robots",
            "events",
            "contracts",
            "specials",
            "phases",
            "player-aids",
            "personal",
            "marker",
        )
    )
    with Image.open(folder / "events.jpg") as im:  # 17 events: 10 + 7, poker cards at 40 dpi
        assert im.size == (10 * round(63 / 25.4 * 40), 2 * round(88 / 25.4 * 40))
    assert set(out.extra) == set(folder.iterdir())
    assert out.path.read_bytes() == plain.path.read_bytes()  # the PDF is the same


@dataclasses.dataclass(frozen=True)
class Thumbnails(FaceExporter):
    """A format written in this test: each deck's first front as a PNG, and a list."""

    name: ClassVar[str] = "thumbs"
    dpi: float = 20.0

    def png_dpi(self) -> float | None:
        return self.dpi

    def after(self, job: ExportJob, folder: Path, sizes: Any, plan: Any) -> Files:
        names = "\n".join(d.id for d in job.game.decks.values())
        return Files(notes=["thumbnails written"], data={"decks.txt": names.encode()})


def test_a_new_format_needs_no_change_in_the_build(tmp_path: Path) -> None:
    out = _build(tmp_path, Thumbnails())
    folder = tmp_path / "fabg" / "fabg-en-thumbs"
    assert (folder / "decks.txt").read_text().splitlines()[0] == "roles"
    pngs = sorted(folder.glob("*.png"))
    assert pngs and all(Image.open(p).info.get("dpi", (0,))[0] > 19 for p in pngs)
    assert out.notes == ["thumbnails written"]


def test_faces_are_made_once_a_language_not_once_a_paper(tmp_path: Path) -> None:
    """Issue 30: what does not depend on the paper (per_paper False: faces, a shop's files)
    is made with the first paper's job only."""
    from pnp.printing.exporters import Png

    opts = BuildOptions(
        langs=("en",), papers=("a4", "letter"), out_dir=tmp_path, exports=(*exports(), Png(dpi=20)),
        jobs=1,
    )  # fmt: skip
    a4, letter = build(open_root(REPO), ["fabg"], opts, Report())
    assert a4.path.name.endswith("-a4.pdf") and a4.extra
    assert letter.path.name.endswith("-letter.pdf") and not letter.extra
    assert not Png.per_paper and PrintPdf.per_paper
