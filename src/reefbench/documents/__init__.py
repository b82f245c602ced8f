"""Office documents read through the libraries made for their formats.

The office checkpoints ask what a document holds (a cell's formula, a chart's type, a
paragraph's style, a tracked change's author) whatever format the agent saved it in:
``read_spreadsheet`` reads ``.ods`` (odfpy) and ``.xlsx`` (openpyxl),
``read_text_document`` ``.odt`` and ``.docx`` (python-docx), ``read_presentation``
``.odp`` and ``.pptx`` (python-pptx), ``read_pdf`` a PDF (pypdf). Each dispatches on what
the file really is (its bytes, not its suffix) and returns the format-neutral dataclasses
of :mod:`reefbench.documents.model`; a missing, foreign, encrypted or corrupt file is a
:class:`DocumentUnreadable` whose message is one line.

This package depends on the core only (it is a library, not part of an environment), and
imports the format libraries inside the readers: ``import reefbench.documents`` is light.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from reefbench.documents.detect import NAMES, file_format
from reefbench.documents.model import (
    Bullet,
    Cell,
    Change,
    Chart,
    Comment,
    ConditionalFormat,
    DocumentUnreadable,
    FilterCondition,
    HeaderFooter,
    Note,
    PageLayout,
    Paragraph,
    PdfDocument,
    PdfPage,
    Picture,
    PivotTable,
    Presentation,
    Sheet,
    Slide,
    SortKey,
    Spreadsheet,
    Table,
    TableOfContents,
    TextDocument,
)

__all__ = [
    "Bullet",
    "Cell",
    "Change",
    "Chart",
    "Comment",
    "ConditionalFormat",
    "DocumentUnreadable",
    "FilterCondition",
    "HeaderFooter",
    "Note",
    "PageLayout",
    "Paragraph",
    "PdfDocument",
    "PdfPage",
    "Picture",
    "PivotTable",
    "Presentation",
    "Sheet",
    "Slide",
    "SortKey",
    "Spreadsheet",
    "Table",
    "TableOfContents",
    "TextDocument",
    "file_format",
    "read_pdf",
    "read_presentation",
    "read_spreadsheet",
    "read_text_document",
]

T = TypeVar("T")


def _read(path: Path | str, what: str, readers: dict[str, Callable[[Path], T]]) -> T:
    """Read ``path`` with the reader for its real format; a file of another kind, or one
    the library cannot parse, is a one-line :class:`DocumentUnreadable`."""
    target = Path(path)
    kind = file_format(target)
    reader = readers.get(kind)
    if reader is None:
        raise DocumentUnreadable(f"{target} is {NAMES[kind]}, not {what}")
    try:
        return reader(target)
    except DocumentUnreadable:
        raise
    except Exception as exc:  # each library has its own errors for a damaged file
        reason = (str(exc).splitlines() or [""])[0][:200] or type(exc).__name__
        raise DocumentUnreadable(f"{target} is a damaged {kind} file ({reason})") from None


def read_spreadsheet(path: Path | str) -> Spreadsheet:
    """The workbook at ``path`` (``.ods`` or ``.xlsx``, whatever its name says)."""
    from reefbench.documents import odf, xlsx

    return _read(path, "a spreadsheet", {"ods": odf.read_spreadsheet, "xlsx": xlsx.read})


def read_text_document(path: Path | str) -> TextDocument:
    """The text document at ``path`` (``.odt`` or ``.docx``)."""
    from reefbench.documents import docx, odf

    return _read(path, "a text document", {"odt": odf.read_text_document, "docx": docx.read})


def read_presentation(path: Path | str) -> Presentation:
    """The presentation at ``path`` (``.odp`` or ``.pptx``)."""
    from reefbench.documents import odf, pptx

    return _read(path, "a presentation", {"odp": odf.read_presentation, "pptx": pptx.read})


def read_pdf(path: Path | str) -> PdfDocument:
    """The PDF at ``path``: text and size of each page."""
    from reefbench.documents import pdf

    return _read(path, "a PDF", {"pdf": pdf.read})
