"""What an office document holds, read through odfpy (the OpenDocument library).

LibreOffice saves Writer, Calc and Impress documents as OpenDocument (``.odt``, ``.ods``,
``.odp``) unless asked otherwise, so the checkpoints read that format as it is written
rather than asking the agent to export: a paragraph with its style, a cell with its value
*and* the formula that produced it, a slide with its title and layout. odfpy is imported
when a document is read, never with the package.

Each reader returns plain data (dataclasses), so the evaluators compare values and the
tests build documents with odfpy and read them back.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reefbench.errors import ReefError


class DocumentUnreadable(ReefError):
    """The file is not an OpenDocument of the expected kind (or not a document at all)."""


@dataclass(frozen=True)
class Paragraph:
    """One paragraph or heading of a text document.

    Attributes:
        text: Its text (tabs, line breaks and repeated spaces as typed).
        style: The display name of its paragraph style ("Heading 1", "Body Text"), an
            automatic style (direct formatting) resolved to the style it is based on.
        heading_level: The outline level of a heading, 0 for a plain paragraph.
    """

    text: str
    style: str
    heading_level: int = 0


@dataclass(frozen=True)
class Cell:
    """One non-empty cell of a spreadsheet.

    Attributes:
        value: The number it holds (a formula's result), or ``None`` for text.
        text: What the cell shows.
        formula: The formula as typed in Calc ("=SUM(A1:A3)"), ``""`` for a constant.
    """

    value: float | None
    text: str
    formula: str = ""


@dataclass(frozen=True)
class Slide:
    """One slide of a presentation.

    Attributes:
        name: Its name ("Slide 1" unless renamed).
        title: The text of its title placeholder (``""`` without one).
        layout: What its placeholders are, in LibreOffice's words ("Title Slide",
            "Title, Content", "Title Only", "Blank Slide"; others as their classes).
        texts: The text of every other text frame on it, in order.
    """

    name: str
    title: str
    layout: str
    texts: tuple[str, ...] = ()


# Placeholder classes of a slide -> the layout's name in LibreOffice's Layouts panel.
LAYOUTS: dict[tuple[str, ...], str] = {
    (): "Blank Slide",
    ("title", "subtitle"): "Title Slide",
    ("title", "outline"): "Title, Content",
    ("title",): "Title Only",
    ("title", "outline", "outline"): "Title and 2 Content",
    ("subtitle",): "Centered Text",
}


def _load(path: Path, kind: str = "") -> Any:
    from odf.opendocument import load

    try:
        document = load(str(path))
    except Exception as exc:  # odfpy raises zipfile, XML and key errors alike
        raise DocumentUnreadable(f"{path.name} is not an OpenDocument file ({exc})") from None
    if not str(document.mimetype).endswith(kind):
        raise DocumentUnreadable(f"{path.name} is a {document.mimetype}, not a {kind}")
    return document


def generator(path: Path) -> str:
    """The program that last saved the document, as it records itself ("LibreOffice/7.4...",
    "odfpy/1.4.1"), ``""`` when it does not say."""
    document = _load(path)
    found = _walk(document.meta, "METANS", ("generator",))
    return _text(found[0]).strip() if found else ""


def _ns(name: str) -> str:
    from odf import namespaces

    return str(getattr(namespaces, name))


def _attr(element: Any, namespace: str, name: str) -> str:
    value = element.attributes.get((_ns(namespace), name))
    return "" if value is None else str(value)


def _walk(element: Any, namespace: str, names: tuple[str, ...]) -> list[Any]:
    """Elements named ``names`` under ``element``, in document order."""
    found = []
    stack = list(reversed(element.childNodes))
    ns = _ns(namespace)
    while stack:
        node = stack.pop()
        if getattr(node, "qname", None) is None:
            continue
        if node.qname[0] == ns and node.qname[1] in names:
            found.append(node)
        stack.extend(reversed(node.childNodes))
    return found


def _text(element: Any) -> str:
    from odf import teletype

    return str(teletype.extractText(element))


# --------------------------------------------------------------------- Writer
def _style_names(document: Any) -> tuple[dict[str, str], dict[str, str]]:
    """(automatic style -> the style it is based on, style -> display name)."""
    parents: dict[str, str] = {}
    shown: dict[str, str] = {}
    for holder in (document.automaticstyles, document.styles):
        for style in _walk(holder, "STYLENS", ("style",)):
            name = _attr(style, "STYLENS", "name")
            parent = _attr(style, "STYLENS", "parent-style-name")
            if holder is document.automaticstyles and parent:
                parents[name] = parent
            shown[name] = (
                _SHOWN_AS.get(name) or _attr(style, "STYLENS", "display-name") or _decode(name)
            )
    return parents, shown


# Built-in styles whose file name is not what Writer shows (LibreOffice writes no display
# name for them): the checkpoint speaks the words the agent sees in the Styles list.
_SHOWN_AS = {
    "Standard": "Default Paragraph Style",
    "Text body": "Body Text",
    "Text_20_body": "Body Text",
}


def _decode(name: str) -> str:
    """ODF escapes characters of style names: ``Heading_20_1`` is "Heading 1"."""
    if name in _SHOWN_AS:
        return _SHOWN_AS[name]
    return re.sub(r"_([0-9a-fA-F]{2})_", lambda m: chr(int(m.group(1), 16)), name)


def paragraphs(path: Path) -> list[Paragraph]:
    """Every heading and paragraph of a text document (``.odt``), in order."""
    document = _load(path, "text")
    parents, shown = _style_names(document)
    found = []
    for element in _walk(document.text, "TEXTNS", ("h", "p")):
        style = _attr(element, "TEXTNS", "style-name")
        style = parents.get(style, style)
        level = 0
        if element.qname[1] == "h":
            level = int(_attr(element, "TEXTNS", "outline-level") or 1)
        found.append(Paragraph(_text(element), shown.get(style, _decode(style)), level))
    return found


# ----------------------------------------------------------------------- Calc
def column_letters(index: int) -> str:
    """0 -> "A", 25 -> "Z", 26 -> "AA"."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def normalise_formula(formula: str) -> str:
    """A formula as Calc's input line shows it, whatever form it was stored in.

    ODF stores ``of:=SUM([.A1:.A3])``; Calc shows ``=SUM(A1:A3)``. Case, spaces and the
    argument separator (";" or ",") are not the agent's choice of formula, so they go.
    """
    text = re.sub(r"^[a-z]+:", "", formula.strip())
    text = re.sub(r"\[\$?([^\]]*)\]", lambda m: m.group(1).replace(".", ""), text)
    text = text.replace(" ", "").replace(",", ";").upper()
    return text if text.startswith("=") else "=" + text


def cells(path: Path, sheet: str = "") -> dict[str, Cell]:
    """The non-empty cells of one sheet of a spreadsheet (``.ods``) by address ("B3").

    Args:
        path: The document on the host.
        sheet: The sheet's name; the first sheet when empty.

    Raises:
        DocumentUnreadable: not a spreadsheet, or no sheet of that name.
    """
    document = _load(path, "spreadsheet")
    tables = _walk(document.spreadsheet, "TABLENS", ("table",))
    chosen = [t for t in tables if not sheet or _attr(t, "TABLENS", "name") == sheet]
    if not chosen:
        names = ", ".join(_attr(t, "TABLENS", "name") for t in tables)
        raise DocumentUnreadable(f"{path.name} has no sheet {sheet!r} (it has {names})")
    found: dict[str, Cell] = {}
    row = 0
    for table_row in _walk(chosen[0], "TABLENS", ("table-row",)):
        column = 0
        for cell in table_row.childNodes:
            repeat = int(_attr(cell, "TABLENS", "number-columns-repeated") or 1)
            text = _text(cell)
            formula = _attr(cell, "TABLENS", "formula")
            value = _attr(cell, "OFFICENS", "value")
            if text or formula or value:
                number = float(value) if value else None
                shown_formula = normalise_formula(formula) if formula else ""
                for offset in range(repeat):
                    found[f"{column_letters(column + offset)}{row + 1}"] = Cell(
                        number, text, shown_formula
                    )
            column += repeat
        row += int(_attr(table_row, "TABLENS", "number-rows-repeated") or 1)
    return found


# -------------------------------------------------------------------- Impress
def _page_layouts(document: Any) -> dict[str, tuple[str, ...]]:
    layouts = {}
    for layout in _walk(document.automaticstyles, "STYLENS", ("presentation-page-layout",)):
        objects = [
            _attr(p, "PRESENTATIONNS", "object")
            for p in _walk(layout, "PRESENTATIONNS", ("placeholder",))
        ]
        layouts[_attr(layout, "STYLENS", "name")] = tuple(objects)
    for layout in _walk(document.styles, "STYLENS", ("presentation-page-layout",)):
        objects = [
            _attr(p, "PRESENTATIONNS", "object")
            for p in _walk(layout, "PRESENTATIONNS", ("placeholder",))
        ]
        layouts.setdefault(_attr(layout, "STYLENS", "name"), tuple(objects))
    return layouts


def layout_name(classes: tuple[str, ...]) -> str:
    """The Layouts panel's name for a slide whose placeholders are ``classes``."""
    return LAYOUTS.get(classes, ", ".join(classes))


def slides(path: Path) -> list[Slide]:
    """Every slide of a presentation (``.odp``), in order."""
    document = _load(path, "presentation")
    layouts = _page_layouts(document)
    found = []
    for page in _walk(document.presentation, "DRAWNS", ("page",)):
        frames = _walk(page, "DRAWNS", ("frame",))
        title = ""
        texts: list[str] = []
        classes: list[str] = []
        for frame in frames:
            kind = _attr(frame, "PRESENTATIONNS", "class")
            content = "\n".join(_text(p) for p in _walk(frame, "TEXTNS", ("p", "h")))
            if kind in ("title", "subtitle", "outline"):
                classes.append(kind)
            if kind == "title" and not title:
                title = content
            elif content:
                texts.append(content)
        layout = _attr(page, "PRESENTATIONNS", "presentation-page-layout-name")
        placeholders = layouts.get(layout, tuple(classes))
        found.append(
            Slide(_attr(page, "DRAWNS", "name"), title, layout_name(placeholders), tuple(texts))
        )
    return found


# ------------------------------------------------------------------- writing
def _is_number(text: str) -> bool:
    return bool(re.fullmatch(r"-?\d+(\.\d+)?", text.strip()))


def write_spreadsheet(path: Path, rows: Sequence[Sequence[str]]) -> None:
    """Write a one-sheet spreadsheet (``.ods``) with these rows, for a task's setup: the
    document a user already had. Numbers are stored as numbers (so a formula can add them);
    the file records odfpy as its generator, so only a save by LibreOffice makes it pass
    :func:`~reefbench.envs.desktop.office_evaluators.saved_by_libreoffice`."""
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.table import Table, TableCell, TableRow
    from odf.text import P

    document = OpenDocumentSpreadsheet()
    table = Table(name="Sheet1")
    for row in rows:
        table_row = TableRow()
        for value in row:
            if _is_number(value):
                cell = TableCell(valuetype="float", value=value.strip())
            else:
                cell = TableCell(valuetype="string")
            cell.addElement(P(text=value))
            table_row.addElement(cell)
        table.addElement(table_row)
    document.spreadsheet.addElement(table)
    path.parent.mkdir(parents=True, exist_ok=True)
    document.save(str(path))
