"""reef-v1's name for the OpenDocument reader, which now lives in
:mod:`reefbench.documents.odf` (beside the xlsx, docx, pptx and PDF readers).

reef-v1's frozen code path imports these names from here, so they stay importable.
"""

from __future__ import annotations

from reefbench.documents.normal import LAYOUTS
from reefbench.documents.odf import (
    Cell,
    DocumentUnreadable,
    Paragraph,
    Slide,
    cells,
    column_letters,
    generator,
    layout_name,
    normalise_formula,
    paragraphs,
    slides,
    write_spreadsheet,
)

__all__ = [
    "LAYOUTS",
    "Cell",
    "DocumentUnreadable",
    "Paragraph",
    "Slide",
    "cells",
    "column_letters",
    "generator",
    "layout_name",
    "normalise_formula",
    "paragraphs",
    "slides",
    "write_spreadsheet",
]
