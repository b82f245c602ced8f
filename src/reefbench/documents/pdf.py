"""PDF files, read through pypdf: each page's text and size, and the producer.

A PDF is a picture of pages, not a document model: it carries no styles, cells or slide
layouts, so a checkpoint on an export asks what was exported (page count, page size and
orientation, the text on each page). Text comes out in the order the producer drew it,
with line breaks where it broke lines. An encrypted PDF is unreadable unless its user
password is empty. pypdf is imported when a PDF is read.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from reefbench.documents.model import DocumentUnreadable, PdfDocument, PdfPage
from reefbench.documents.normal import mm


def read(path: Path) -> PdfDocument:
    """The pages of the PDF at ``path``."""
    from pypdf import PdfReader

    reader = PdfReader(str(path))
    if reader.is_encrypted and not _opens_without_password(reader):
        raise DocumentUnreadable(f"{path} is a password-protected PDF")
    pages = []
    for page in reader.pages:
        box = page.mediabox
        width, height = float(box.width), float(box.height)
        if int(page.get("/Rotate", 0) or 0) % 180:
            width, height = height, width
        pages.append(PdfPage(page.extract_text() or "", mm(width, "pt"), mm(height, "pt")))
    info = reader.metadata
    producer = ""
    if info is not None:
        producer = str(info.producer or info.creator or "")
    return PdfDocument(tuple(pages), producer)


def _opens_without_password(reader: Any) -> bool:
    """Whether an encrypted PDF opens with the empty user password (many "protected"
    PDFs only restrict printing or copying)."""
    try:
        return bool(reader.decrypt(""))
    except Exception:  # pypdf needs the cryptography package for AES: then it cannot
        return False
