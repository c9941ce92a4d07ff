"""Which texts a build prints: what translation templates hold."""

from __future__ import annotations

import contextlib

from ..content.load import Root
from ..content.model import Game
from ..printing.imposition import Options, plan_document


def printed_texts(root: Root, game: Game) -> set[str]:
    """The contexts of the texts a build of ``game`` prints: on faces (every card, token and
    board side, as their layouts draw them), page labels and the setup sheet.

    Texts outside it (validation messages, box inventories) need no translation."""
    from ..content.queries import item_size
    from ..i18n import Translator
    from ..printing.render import Renderer
    from ..typeset.faces import FaceEngine, LayoutCycle
    from ..typeset.fonts import fontset

    skip = (KeyError, ValueError, LayoutCycle)  # what validation reports
    fonts = fontset(root.fonts, game.print.font, game.print.fallback_fonts)
    seen: set[str] = set()
    lang = game.source_language
    translator = Translator(game, lang, seen=seen)
    engine = FaceEngine(game, root.game_dir(game.id), lang, translator, fonts, quick=True)
    for owner in game.owners():
        size = item_size(game, owner)
        for card in owner.cards:
            back = card.back if card.back is not None else owner.back  # a card's own back wins
            sides = [(card, "front")] + ([(back, "back")] if back is not None else [])
            for face, side in sides:
                with contextlib.suppress(*skip):
                    engine.ops(face, owner, card, side, size.w, size.h, 0.0)
    for board in game.boards.values():
        for bface, side in [(board, "front")] + ([(board.back, "back")] if board.back else []):
            with contextlib.suppress(*skip):
                engine.ops(bface, board, board, side, board.size.w, board.size.h, 0.0)
        translator.text(board.name or board.title)  # board tiles print it in their label
    renderer = Renderer(game, lang, engine, fonts, translator, translator.text(game.meta.title))
    renderer.setup_flowables()
    with contextlib.suppress(ValueError):
        for page in plan_document(game, Options(), setup_pages=1):
            renderer.label(page)
    return seen
