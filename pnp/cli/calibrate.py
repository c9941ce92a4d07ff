"""`pnp calibrate`: a duplex calibration sheet, to read a printer's back offset."""

from __future__ import annotations

from typing import Annotated, Literal

import typer

from ..content.load import open_root
from ..core.errors import PnpError, UsageError
from ..i18n.words import tr
from .common import Duplex, OutOpt, Paper, PaperOpt, RootOpt, app, fail, parse_offset, say


@app.command("calibrate")
def calibrate_cmd(
    paper: PaperOpt = Paper.a4,
    duplex: Annotated[
        Duplex, typer.Option("--duplex", help="Flip edge you print with (long or short).")
    ] = Duplex.long,
    back_offset: Annotated[
        str | None,
        typer.Option("--back-offset", help="Check an offset: the crosses should then read 0."),
    ] = None,
    lang: Annotated[str, typer.Option("--lang", help="Language of the instructions.")] = "en",
    out: OutOpt = None,
    root: RootOpt = None,
) -> None:
    """Write a duplex calibration sheet: print it double-sided, read the back offset."""
    from ..content.model import valid_language
    from ..core.files import out_folder, real, write_atomic
    from ..core.units import PAPERS
    from ..printing.render import render_calibration
    from ..printing.render.calibration import MAX_OFFSET
    from ..typeset.fonts import fontset

    try:
        r = open_root(root)
        if duplex is Duplex.none:
            raise UsageError("calibration is for double-sided printing: --duplex long or short")
        if not valid_language(lang):
            raise UsageError(f"--lang {lang!r} is not a locale code (examples: en, it, es)")
        offset = parse_offset(back_offset)
        if any(abs(v) > MAX_OFFSET for v in offset):
            raise UsageError(
                f"--back-offset {back_offset!r}: the calibration sheet checks offsets "
                f"within ±{MAX_OFFSET:g} mm"
            )
        fonts = fontset(r.fonts, "NotoSans", ["DejaVuSans"])
        edge: Literal["long", "short"] = "long" if duplex is Duplex.long else "short"
        data = render_calibration(fonts, lang, PAPERS[paper.value].portrait(), edge, offset)
        folder = real(out) if out else out_folder(r.path, "output")
        target = folder / f"calibration-{paper.value}-{duplex.value}.pdf"
        write_atomic(target, data)
    except PnpError as exc:
        fail(exc)
    say(
        tr("wrote {path}: print it double-sided ({edge} edge) at 100 %").format(
            path=target, edge=duplex.value
        )
    )
