"""``pnp build --min-translated PERCENT``: a language with fewer of its printed texts translated
is not built, and one line says so (a release or a CI build of every language skips the ones
a translator has only started)."""

from __future__ import annotations

from ..content.load import Root
from ..content.model import Game
from ..core.errors import PnpError
from ..i18n.catalog import Translations, status
from ..i18n.words import ngettext
from .failures import Verdict
from .options import BuildOptions
from .printed import printed_texts


def below_threshold(
    root: Root,
    game: Game,
    langs: list[str],
    catalogs: Translations,
    opts: BuildOptions,
    verdict: Verdict,
) -> list[str]:
    """Mark the languages of ``game`` below ``opts.min_translated`` as skipped in ``verdict``;
    one line for each."""
    least = opts.min_translated
    if least is None:
        return []
    try:
        printed: set[str] | None = printed_texts(root, game)
    except PnpError:
        printed = None
    rows = {st.lang: st for st in status(root, game, catalogs, printed)}
    notes = []
    for lang in langs:
        st = rows.get(lang)
        percent = st.percent if st is not None else None
        if st is None or st.source or percent is None or percent >= least:
            continue  # a catalog that cannot be read stops its language anyway
        verdict.skipped.add((game.id, lang))
        notes.append(
            ngettext(
                "{game} {lang}: skipped, {percent}% translated (--min-translated {least}): "
                "{translated} of {total} text",
                "{game} {lang}: skipped, {percent}% translated (--min-translated {least}): "
                "{translated} of {total} texts",
                st.total,
            ).format(
                game=game.id,
                lang=lang,
                percent=f"{percent:.1f}",
                least=f"{least:g}",
                translated=st.translated,
                total=st.total,
            )
        )
    return notes
