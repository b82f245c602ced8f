"""A file the checkpoint cannot read is one line saying which file and what is wrong
with it (missing, a folder, not a document, another kind of document, password-protected,
damaged), never a library's traceback; a file whose suffix lies is read as what it is."""

from __future__ import annotations

import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

pytest.importorskip("odf")
pytest.importorskip("openpyxl")
pytest.importorskip("docx")
pytest.importorskip("pypdf")

from reefbench.documents import (
    DocumentUnreadable,
    file_format,
    read_pdf,
    read_presentation,
    read_spreadsheet,
    read_text_document,
)
from reefbench.documents.odf import write_spreadsheet


def _xlsx(path: Path) -> Path:
    from openpyxl import Workbook

    book = Workbook()
    book.active["A1"] = 7
    book.save(path)
    return path


def _unreadable(read: Callable[[Path], object], path: Path, words: str) -> str:
    with pytest.raises(DocumentUnreadable) as caught:
        read(path)
    message = str(caught.value)
    assert words in message and path.name in message, message
    assert "\n" not in message
    return message


def test_missing_file_and_folder(tmp_path: Path) -> None:
    _unreadable(read_spreadsheet, tmp_path / "gone.ods", "does not exist")
    _unreadable(read_text_document, tmp_path, "is not a file")


def test_not_a_document(tmp_path: Path) -> None:
    notes = tmp_path / "notes.ods"
    notes.write_text("Region,Amount\nNorth,5\n")
    _unreadable(read_spreadsheet, notes, "not an office document")
    archive = tmp_path / "photos.docx"
    with zipfile.ZipFile(archive, "w") as package:
        package.writestr("a.txt", "x")
    _unreadable(read_text_document, archive, "zip archive, not an office document")


def test_another_kind_of_document(tmp_path: Path) -> None:
    book = _xlsx(tmp_path / "book.xlsx")
    _unreadable(read_text_document, book, "is an Excel workbook, not a text document")
    _unreadable(read_presentation, book, "not a presentation")
    _unreadable(read_pdf, book, "not a PDF")


def test_a_suffix_that_lies_is_read_as_what_the_file_is(tmp_path: Path) -> None:
    renamed = _xlsx(tmp_path / "book.ods")
    assert file_format(renamed) == "xlsx"
    assert read_spreadsheet(renamed).sheet().cells["A1"].value == 7
    ods = tmp_path / "sheet.xlsx"
    write_spreadsheet(ods, [["1"]])
    assert read_spreadsheet(ods).sheet().cells["A1"].value == 1


def test_password_protected_files(tmp_path: Path) -> None:
    """An encrypted OOXML file is an OLE2 container; an encrypted ODF lists how each part
    is encrypted in its manifest; an encrypted PDF needs its password."""
    ole = tmp_path / "locked.xlsx"
    ole.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 504)
    _unreadable(read_spreadsheet, ole, "password-protected or a legacy binary Office file")
    odt = tmp_path / "locked.odt"
    with zipfile.ZipFile(odt, "w") as package:
        package.writestr("mimetype", "application/vnd.oasis.opendocument.text")
        package.writestr(
            "META-INF/manifest.xml",
            '<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:'
            'manifest:1.0"><manifest:file-entry manifest:full-path="content.xml">'
            "<manifest:encryption-data/></manifest:file-entry></manifest:manifest>",
        )
        package.writestr("content.xml", b"\x8f\x01 not xml")
    _unreadable(read_text_document, odt, "is password-protected")

    from pypdf import PdfWriter

    writer = PdfWriter()
    writer.add_blank_page(width=595, height=842)
    writer.encrypt("secret", algorithm="RC4-128")
    pdf = tmp_path / "locked.pdf"
    with pdf.open("wb") as handle:
        writer.write(handle)
    _unreadable(read_pdf, pdf, "password-protected PDF")


def test_damaged_files(tmp_path: Path) -> None:
    whole = _xlsx(tmp_path / "whole.xlsx")
    cut = tmp_path / "cut.xlsx"
    cut.write_bytes(whole.read_bytes()[:300])
    _unreadable(read_spreadsheet, cut, "not an office document")
    broken = tmp_path / "broken.ods"
    with zipfile.ZipFile(broken, "w") as package:
        package.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet")
        package.writestr("META-INF/manifest.xml", "<manifest/>")
        package.writestr("content.xml", "<office:document-content")
    _unreadable(read_spreadsheet, broken, "is a damaged OpenDocument file")
    garbled = tmp_path / "garbled.docx"
    with zipfile.ZipFile(whole) as source, zipfile.ZipFile(garbled, "w") as package:
        package.writestr("[Content_Types].xml", source.read("[Content_Types].xml"))
        package.writestr("word/document.xml", "<w:document")
    _unreadable(read_text_document, garbled, "damaged docx file")


def test_a_pdf_reads_page_by_page(tmp_path: Path) -> None:
    from pypdf import PdfWriter

    writer = PdfWriter()
    writer.add_blank_page(width=841.89, height=595.28)  # A4 landscape, in points
    writer.add_blank_page(width=595.28, height=841.89)
    pdf = tmp_path / "two.pdf"
    with pdf.open("wb") as handle:
        writer.write(handle)
    found = read_pdf(pdf)
    assert found.page_count == 2
    assert [(p.orientation, p.width, p.height) for p in found.pages] == [
        ("landscape", 297.0, 210.0),
        ("portrait", 210.0, 297.0),
    ]
