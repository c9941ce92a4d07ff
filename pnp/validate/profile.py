"""A game against a print-on-demand profile (``pnp validate GAME --for PROFILE``, and every
``pnp build --for``): what the shop can print, and the shop's safe zone.

Each deck needs a card product (rule pod-size: an error that lists the sizes the shop
prints); a token set or board without a product is named in one line (pod-product). Every
face of what the shop prints is laid out at the product's trim in every language, with the
cut-line check of the home copy (:mod:`pnp.typeset.faces.cuts`) given the shop's safe zone
and cut tolerance instead of 1.5 mm: what a player reads and cannot be kept inside it is a
safe-zone finding at the layout element, for that face and language.
"""

from __future__ import annotations

from typing import Any

from ..content.load import Root
from ..content.model import Board, Card, Deck, Face, Game
from ..content.profiles import Match, Profile, match
from ..core.errors import BuildError
from ..core.findings import Pos, Report
from ..core.rules import POD_PRODUCT, POD_SIZE, SAFE_ZONE
from ..i18n import Translator
from ..typeset.faces import FaceEngine, LayoutCycle
from ..typeset.faces.cuts import Zone
from ..typeset.fonts import fontset


def check_profile(root: Root, game: Game, profile: Profile, report: Report) -> list[Match]:
    """Report what ``profile`` cannot print of ``game`` and what falls outside its safe zone;
    the product of each component."""
    from . import catalogs_for

    found = match(profile, game)
    for m in found:
        if m.product is None:
            _no_product(game, profile, m, report)
    printed = [m for m in found if m.product is not None]
    try:
        fonts = fontset(root.fonts, game.print.font, game.print.fallback_fonts)
    except BuildError:
        return found  # the font check reports it
    catalogs = catalogs_for(root, game, report)
    zone = zone_of(profile)
    for lang in dict.fromkeys([*game.languages, *catalogs]):
        translator = Translator(game, lang, catalogs.get(lang))
        engine = FaceEngine(
            game, root.game_dir(game.id), lang, translator, fonts, quick=True, cache=False
        )
        engine.zone = zone
        for m in printed:
            _lay_out(engine, m)
        for issue in engine.issues:
            if issue.rule == SAFE_ZONE:
                issue.report_to(report, game.id)
    return found


def zone_of(profile: Profile) -> Zone:
    """The profile's safe zone, as the face engine keeps texts inside it."""
    return Zone(profile.clearance, profile.name, profile.tolerance)


def _lay_out(engine: FaceEngine, m: Match) -> None:
    """Every face of the component at the product's trim."""
    trim = m.trim
    for face, card, side in faces_of(m.owner):
        try:
            engine.ops(face, m.owner, card, side, trim.w, trim.h, 0.0)
        except (KeyError, ValueError, LayoutCycle):
            continue  # reported by the structure checks


def faces_of(owner: Any) -> list[tuple[Face, Card | Board, str]]:
    """Each distinct face of a deck, token set or board: fronts, own backs, the shared back
    once (with the first card, whose values it sees)."""
    if isinstance(owner, Board):
        sides: list[tuple[Face, Card | Board, str]] = [(owner, owner, "front")]
        return sides + ([(owner.back, owner, "back")] if owner.back is not None else [])
    out: list[tuple[Face, Card | Board, str]] = []
    cards = [c for c in owner.cards if c.copies > 0]
    if owner.back is not None and cards and any(c.back is None for c in cards):
        out.append((owner.back, next(c for c in cards if c.back is None), "back"))
    for card in cards:
        out.append((card, card, "front"))
        if card.back is not None:
            out.append((card.back, card, "back"))
    return out


def _no_product(game: Game, profile: Profile, m: Match, report: Report) -> None:
    size = f"{m.size.w:g} x {m.size.h:g} mm"
    owner = m.owner
    if isinstance(owner, Deck):
        sizes = ", ".join(p.label() for p in m.candidates) or "none"
        report.add(
            POD_SIZE,
            _size_pos(game, owner),
            f"deck {owner.id}: {profile.name} prints no {size} card (nor one within "
            f"{profile.nearest:g} mm of it); its cards are {sizes}: give the deck one of these "
            f"sizes, or leave it out of this order (rules: pod-size: off in game.yaml)",
            game=game.id,
        )
        return
    what = "board" if isinstance(owner, Board) else f"{getattr(owner, 'shape', '')} token set"
    report.add(
        POD_PRODUCT,
        owner.pos,
        f"{what} {owner.id} ({size}): {profile.name} has no product for it; it is not in "
        f"the files for {profile.id}",
        game=game.id,
    )


def _size_pos(game: Game, deck: Deck) -> Pos:
    if deck.given("size"):
        return deck.at("size")
    if game.print.given("card_size"):
        return game.print.at("card_size")
    return deck.pos
