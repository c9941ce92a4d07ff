"""Exporters: the output formats of a build, one class each, in one table.

:data:`EXPORTERS` maps a format's name to its class. A build's options hold the exporters it
was asked for (with their settings): exactly one *document* exporter (the print PDF, or a
translator's proof) and any number of *face* exporters (PNG faces, Tabletop Simulator
sheets), which share one rasterisation of the faces, any number of *job* exporters (files of
a print-on-demand shop) and *game* exporters (a release bundle, from every job of a game). A
new format is a module here with its class, a line in :data:`EXPORTERS`, its command-line
option and its test.
"""

from __future__ import annotations

from .base import (
    Document,
    DocumentExporter,
    Exporter,
    ExportJob,
    FaceProgress,
    Files,
    GameExporter,
    GameJob,
    JobExporter,
    Made,
)
from .contact import ContactSheet
from .faces import FaceExporter, export_faces
from .pdf import PrintPdf
from .png import Png
from .pod import PrintOnDemand
from .proof import Proof
from .release import Release
from .staging import discard
from .tts import Tts

EXPORTERS: dict[str, type[Exporter]] = {
    cls.name: cls for cls in (PrintPdf, Proof, Png, Tts, ContactSheet, PrintOnDemand, Release)
}
DEFAULT: tuple[Exporter, ...] = (PrintPdf(),)  # a build's formats when none is asked: the PDF

__all__ = [
    "DEFAULT",
    "EXPORTERS",
    "ContactSheet",
    "Document",
    "DocumentExporter",
    "ExportJob",
    "Exporter",
    "FaceExporter",
    "FaceProgress",
    "Files",
    "GameExporter",
    "GameJob",
    "JobExporter",
    "Made",
    "Png",
    "PrintOnDemand",
    "PrintPdf",
    "Proof",
    "Release",
    "Tts",
    "discard",
    "export_faces",
]
