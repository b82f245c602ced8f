"""What a file really is, from its bytes: an agent may save an ``.xlsx`` under an ``.ods``
name (or a PDF under any name), and the checkpoint must read what is there, or say in one
line what is wrong with it."""

from __future__ import annotations

import zipfile
from pathlib import Path

from reefbench.documents.model import DocumentUnreadable

# The ODF mimetype (its first entry) -> the short name of the format.
_ODF = {
    "application/vnd.oasis.opendocument.spreadsheet": "ods",
    "application/vnd.oasis.opendocument.spreadsheet-template": "ods",
    "application/vnd.oasis.opendocument.text": "odt",
    "application/vnd.oasis.opendocument.text-template": "odt",
    "application/vnd.oasis.opendocument.presentation": "odp",
    "application/vnd.oasis.opendocument.presentation-template": "odp",
}
# The main part of an Office Open XML package -> the short name of the format.
_OOXML = {"xl/workbook.xml": "xlsx", "word/document.xml": "docx", "ppt/presentation.xml": "pptx"}
# An OLE2 compound file: a password-protected OOXML document, or a legacy .xls/.doc/.ppt.
_OLE2 = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"

NAMES = {
    "ods": "an OpenDocument spreadsheet",
    "odt": "an OpenDocument text document",
    "odp": "an OpenDocument presentation",
    "xlsx": "an Excel workbook",
    "docx": "a Word document",
    "pptx": "a PowerPoint presentation",
    "pdf": "a PDF",
}


def file_format(path: Path) -> str:
    """The format of the file at ``path``: a key of :data:`NAMES`.

    Raises:
        DocumentUnreadable: it is missing, a folder, encrypted, or not a document this
            package reads.
    """
    if not path.exists():
        raise DocumentUnreadable(f"{path} does not exist")
    if not path.is_file():
        raise DocumentUnreadable(f"{path} is not a file")
    with path.open("rb") as handle:
        head = handle.read(8)
    if head.startswith(b"%PDF-"):
        return "pdf"
    if head == _OLE2:
        raise DocumentUnreadable(
            f"{path} is password-protected or a legacy binary Office file (not readable)"
        )
    if not zipfile.is_zipfile(path):
        raise DocumentUnreadable(f"{path} is not an office document or PDF")
    return _package_format(path)


def _package_format(path: Path) -> str:
    try:
        with zipfile.ZipFile(path) as package:
            names = set(package.namelist())
            if "mimetype" in names:
                mimetype = package.read("mimetype").decode("ascii", "replace").strip()
                if mimetype in _ODF:
                    _refuse_encrypted(path, package)
                    return _ODF[mimetype]
                raise DocumentUnreadable(f"{path} is an OpenDocument of type {mimetype}")
    except (zipfile.BadZipFile, OSError, KeyError) as exc:
        raise DocumentUnreadable(f"{path} is a corrupt zip file ({exc})") from None
    for part, kind in _OOXML.items():
        if part in names:
            return kind
    raise DocumentUnreadable(f"{path} is a zip archive, not an office document")


def _refuse_encrypted(path: Path, package: zipfile.ZipFile) -> None:
    """ODF keeps its manifest in clear and lists how each encrypted part is encrypted."""
    try:
        manifest = package.read("META-INF/manifest.xml")
    except KeyError:
        return
    if b"encryption-data" in manifest:
        raise DocumentUnreadable(f"{path} is password-protected (not readable)")
