"""A sheet of faces (fronts, backs, tokens, their backs, folded sheets): the faces in their
slots, the cut lines of round and hexagonal tokens, the crop marks, the fold line and the
sheet's furniture, in that order."""

from __future__ import annotations

from ..imposition import Page
from .faces import FaceDrawer
from .furniture import SheetFurniture, fold_line
from .marks import draw_marks, draw_outlines
from .pen import Pen


class SheetPage:
    """Draws a sheet of faces, with the faces' drawer and the furniture's."""

    def __init__(self, faces: FaceDrawer, furniture: SheetFurniture) -> None:
        self.faces = faces
        self.furniture = furniture

    def draw(self, pen: Pen, page: Page) -> None:
        for slot in page.slots:
            self.faces.slot(pen, slot)
        draw_outlines(pen, page)
        draw_marks(pen, page.marks)
        if page.fold is not None:
            fold_line(pen, page)
        self.furniture.draw(pen, page)
