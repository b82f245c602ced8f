"""OpenDocument (``.ods``, ``.odt``, ``.odp``), read through odfpy.

LibreOffice saves Writer, Calc and Impress documents as OpenDocument unless asked
otherwise, so the checkpoints read that format as it is written rather than asking the
agent to export: a paragraph with its style, a cell with its value *and* the formula that
produced it, a slide with its title and layout. odfpy is imported when a document is read,
never with the package.

ODF carries everything :mod:`reefbench.documents.model` has a field for, with these
limits: a pivot table's target is the range its output covered when saved; a chart's
series names are those of its cached data table; a picture's name is its frame's name
(LibreOffice leaves it empty unless the user names it, so ``image`` says which file it is);
frozen panes are view settings, which LibreOffice writes only when saving from a window.

One module per application reads the whole document (``odf_calc``, ``odf_writer``,
``odf_impress``, on ``odf_xml``); this one gathers them, with reef-v1's small API
(:func:`paragraphs`, :func:`cells`, :func:`slides`, :func:`generator`,
:func:`write_spreadsheet`) on top, kept as it was.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from reefbench.documents.model import Cell, DocumentUnreadable, Paragraph, Slide
from reefbench.documents.normal import column_letters, layout_name, normalise_formula
from reefbench.documents.odf_calc import read_spreadsheet
from reefbench.documents.odf_impress import read_presentation
from reefbench.documents.odf_writer import read_text_document
from reefbench.documents.odf_xml import _generator, _load

__all__ = [
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
    "read_presentation",
    "read_spreadsheet",
    "read_text_document",
    "slides",
    "write_spreadsheet",
    "write_workbook",
]


def generator(path: Path) -> str:
    """The program that last saved the document, as it records itself ("LibreOffice/7.4...",
    "odfpy/1.4.1"), ``""`` when it does not say."""
    return _generator(_load(path))


def paragraphs(path: Path) -> list[Paragraph]:
    """Every heading and paragraph of a text document (``.odt``), in order."""
    return list(read_text_document(path).paragraphs)


def cells(path: Path, sheet: str = "") -> dict[str, Cell]:
    """The non-empty cells of one sheet of a spreadsheet (``.ods``) by address ("B3").

    Args:
        path: The document on the host.
        sheet: The sheet's name; the first sheet when empty.

    Raises:
        DocumentUnreadable: not a spreadsheet, or no sheet of that name.
    """
    try:
        return read_spreadsheet(path).sheet(sheet).cells
    except DocumentUnreadable as exc:
        if str(exc).startswith("the spreadsheet"):
            raise DocumentUnreadable(f"{path.name}{str(exc)[len('the spreadsheet') :]}") from None
        raise


def slides(path: Path) -> list[Slide]:
    """Every slide of a presentation (``.odp``), in order."""
    return list(read_presentation(path).slides)


def _is_number(text: str) -> bool:
    return bool(re.fullmatch(r"-?\d+(\.\d+)?", text.strip()))


def write_spreadsheet(path: Path, rows: Sequence[Sequence[str]]) -> None:
    """Write a one-sheet spreadsheet (``.ods``) with these rows, for a task's setup: the
    document a user already had. Numbers are stored as numbers (so a formula can add them);
    the file records odfpy as its generator, so only a save by LibreOffice makes it pass
    :func:`~reefbench.envs.desktop.office_evaluators.saved_by_libreoffice`."""
    write_workbook(path, {"Sheet1": rows})


def write_workbook(
    path: Path, sheets: Mapping[str, Sequence[Sequence[str]]], dates: bool = False
) -> None:
    """Write a spreadsheet (``.ods``) with these sheets in this order (name -> rows), as
    :func:`write_spreadsheet` writes its one sheet. With ``dates``, a cell reading as an
    ISO date ("2026-03-16") is stored as a date shown that way, so a formula can compare
    it with DATE(...) as a person's own date column allows (without, it stays text)."""
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.table import Table as OdfTable
    from odf.table import TableCell, TableRow
    from odf.text import P

    document = OpenDocumentSpreadsheet()
    date_style = _iso_date_style(document) if dates else None
    for name, rows in sheets.items():
        table = OdfTable(name=name)
        for row in rows:
            table_row = TableRow()
            for value in row:
                if _is_number(value):
                    cell = TableCell(valuetype="float", value=value.strip())
                elif date_style is not None and re.fullmatch(r"\d{4}-\d\d-\d\d", value):
                    cell = TableCell(valuetype="date", datevalue=value, stylename=date_style)
                else:
                    cell = TableCell(valuetype="string")
                cell.addElement(P(text=value))
                table_row.addElement(cell)
            table.addElement(table_row)
        document.spreadsheet.addElement(table)
    path.parent.mkdir(parents=True, exist_ok=True)
    document.save(str(path))


def _iso_date_style(document: Any) -> Any:
    """A cell style showing a date as YYYY-MM-DD, added to the document's styles."""
    from odf.number import DateStyle, Day, Month, Text, Year
    from odf.style import Style

    shown = DateStyle(name="IsoDate")
    for part in (Year(style="long"), Text(text="-"), Month(style="long"), Text(text="-")):
        shown.addElement(part)
    shown.addElement(Day(style="long"))
    document.automaticstyles.addElement(shown)
    cell = Style(name="IsoDateCell", family="table-cell", datastylename="IsoDate")
    document.automaticstyles.addElement(cell)
    return cell
