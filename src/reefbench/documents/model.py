"""What an office document holds, in the same shape whatever its format.

A checkpoint asks "is B7 a SUM formula", "is there a bar chart titled Sales", "did Bob's
insertion survive": the answer must not depend on whether the agent saved ``.ods`` or
``.xlsx``. Each reader (:mod:`reefbench.documents.odf`, ``xlsx``, ``docx``, ``pptx``,
``pdf``) fills these plain dataclasses; a field a format cannot carry is left at its empty
default, and the reader's docstring says which.

Conventions shared by every reader:

* Cell addresses and ranges are Calc's A1 form without dollars: ``"B3"``, ``"A1:C10"``;
  a range on another sheet is ``"Sheet2!A1:C10"`` (Excel's separator, not ODF's dot).
* Levels are 1-based: a top-level heading, list item or bullet is level 1; 0 means "not a
  heading" or "not in a list".
* Lengths are millimetres, rounded to 0.1 mm.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from reefbench.errors import ReefError


class DocumentUnreadable(ReefError):
    """The file is missing, not a document, not of the kind asked for, encrypted or
    corrupt; the message is one line naming the file and what is wrong with it."""


# ----------------------------------------------------------------- spreadsheets
@dataclass(frozen=True)
class Cell:
    """One non-empty cell of a spreadsheet.

    Attributes:
        value: The number it holds (a formula's result; a percentage as its fraction, 0.25),
            or ``None`` for text, dates and empty results.
        text: What the cell shows (ODF stores it; an ``.xlsx`` reader has only the stored
            value, so for a number it is the value as typed, not as formatted).
        formula: The formula as Calc's input line shows it ("=SUM(A1:A3)"), ``""`` for a
            constant.
        number_format: The format code ("0.00", "YYYY-MM-DD", "#,##0.00 [$€-407]"), ``""``
            for the default (General / Standard).
        kind: What the value is: "float", "percentage", "currency", "date", "time",
            "boolean" or "string"; ``""`` when the format does not say.
        date: A date or date-time cell's value in ISO form ("2024-03-05",
            "2024-03-05T14:30:00"), ``""`` otherwise.
    """

    value: float | None
    text: str
    formula: str = ""
    number_format: str = ""
    kind: str = ""
    date: str = ""


@dataclass(frozen=True)
class ConditionalFormat:
    """One rule of conditional formatting.

    Attributes:
        range: The cells it applies to ("B2:B20"; several ranges joined by a space).
        kind: "cell-is" (compare the value), "formula", "color-scale", "data-bar",
            "icon-set", "duplicate", "unique", "top", "bottom", "contains-text" or another
            format-specific word.
        operator: For "cell-is": "=", "!=", "<", "<=", ">", ">=", "between",
            "not-between"; ``""`` otherwise.
        formulas: The operands or the formula, without a leading "=" ("100", "A2>B2").
        style: The name of the cell style applied (ODF); an ``.xlsx`` rule has no named
            style and describes its look instead.
        look: What the style does, normalised: "fill #FFC7CE", "font #9C0006", "bold",
            joined by ", " (``""`` when not known).
    """

    range: str
    kind: str
    operator: str = ""
    formulas: tuple[str, ...] = ()
    style: str = ""
    look: str = ""


@dataclass(frozen=True)
class Chart:
    """One chart, in a spreadsheet or on a slide.

    Attributes:
        kind: "column" (vertical bars), "bar" (horizontal bars), "line", "pie", "donut",
            "area", "scatter", "radar", "bubble" or "stock".
        title: Its main title, ``""`` without one.
        ranges: The cell ranges of its data ("Sheet1!B1:B5"), one per series as stored;
            a chart on a slide keeps its data inside itself and has none.
        anchor: The cell its top-left corner sits on ("E2"), ``""`` on a slide or when the
            format anchors it to the page.
        series: The names of its series, as far as the file stores them.
        categories: The cells of its category (x-axis) labels ("Sheet1!A2:A5"), ``""``
            when it has none (the axis then counts 1, 2, 3) or the format does not say.
    """

    kind: str
    title: str = ""
    ranges: tuple[str, ...] = ()
    anchor: str = ""
    series: tuple[str, ...] = ()
    categories: str = ""


@dataclass(frozen=True)
class PivotTable:
    """A pivot table (Calc's data pilot).

    Attributes:
        name: Its name ("DataPilot1", "PivotTable1").
        source: The range it summarises ("Data!A1:C20").
        target: Where its output starts or lies ("Sheet2!A3" or "Sheet2!A3:D9").
        rows: The row fields' names, in order.
        columns: The column fields' names, in order.
        data: (field, function) per data field; functions are lower-case "sum",
            "count", "average", "max", "min", "product", ...
        filters: The page (filter) fields' names.
    """

    name: str
    source: str
    target: str
    rows: tuple[str, ...] = ()
    columns: tuple[str, ...] = ()
    data: tuple[tuple[str, str], ...] = ()
    filters: tuple[str, ...] = ()


@dataclass(frozen=True)
class SortKey:
    """One key of a stored sort: the column's letter and its direction."""

    column: str
    ascending: bool = True


@dataclass(frozen=True)
class FilterCondition:
    """One condition of an autofilter or standard filter.

    Attributes:
        column: The column's letter ("C").
        operator: "=", "!=", "<", "<=", ">", ">=", "contains", "in" (a list of values),
            "top", "bottom" or a format-specific word.
        values: The values compared with (as text).
    """

    column: str
    operator: str
    values: tuple[str, ...] = ()


@dataclass(frozen=True)
class Sheet:
    """One sheet of a spreadsheet.

    Attributes:
        name: Its tab's name.
        cells: The non-empty cells by address ("B3").
        merged: The merged ranges ("A1:C1").
        frozen: The first cell below and right of frozen panes ("B2": one row and one
            column frozen), ``""`` when nothing is frozen.
        autofilter: The range with filter buttons ("A1:D20"), ``""`` without.
        filters: The conditions of that filter.
        sort: The sort last applied to it, when the file stores one.
        conditional_formats: Its conditional formatting rules.
        charts: Its charts.
        pivots: The pivot tables whose output is on it.
        hidden: Whether the sheet itself is hidden.
    """

    name: str
    cells: dict[str, Cell] = field(default_factory=dict)
    merged: tuple[str, ...] = ()
    frozen: str = ""
    autofilter: str = ""
    filters: tuple[FilterCondition, ...] = ()
    sort: tuple[SortKey, ...] = ()
    conditional_formats: tuple[ConditionalFormat, ...] = ()
    charts: tuple[Chart, ...] = ()
    pivots: tuple[PivotTable, ...] = ()
    hidden: bool = False


@dataclass(frozen=True)
class Spreadsheet:
    """A workbook: its sheets in tab order, and the program that saved it."""

    sheets: tuple[Sheet, ...]
    generator: str = ""

    def sheet(self, name: str = "") -> Sheet:
        """The sheet of that name (the first one when empty).

        Raises:
            DocumentUnreadable: no sheet has that name.
        """
        for sheet in self.sheets:
            if not name or sheet.name == name:
                return sheet
        names = ", ".join(s.name for s in self.sheets)
        raise DocumentUnreadable(f"the spreadsheet has no sheet {name!r} (it has {names})")


# ------------------------------------------------------------- text documents
@dataclass(frozen=True)
class Paragraph:
    """One paragraph or heading of a text document.

    Attributes:
        text: Its text (tabs, line breaks and repeated spaces as typed).
        style: The display name of its paragraph style ("Heading 1", "Body Text"), an
            automatic style (direct formatting) resolved to the style it is based on.
        heading_level: The outline level of a heading, 0 for a plain paragraph.
        list_level: Its depth in a bulleted or numbered list (1 = top), 0 outside lists.
    """

    text: str
    style: str
    heading_level: int = 0
    list_level: int = 0


@dataclass(frozen=True)
class Table:
    """A table: the text of each cell, row by row (a merged cell appears once)."""

    rows: tuple[tuple[str, ...], ...]
    name: str = ""


@dataclass(frozen=True)
class HeaderFooter:
    """A page header or footer.

    Attributes:
        kind: "header" or "footer".
        text: Its text, a field shown as what the file caches for it.
        page_number: It holds a page-number field (not a typed number).
        page_count: It holds a page-count field.
        page_style: The page style it belongs to ("Default Page Style"), or the docx
            section's variant ("default", "first", "even").
    """

    kind: str
    text: str
    page_number: bool = False
    page_count: bool = False
    page_style: str = ""


@dataclass(frozen=True)
class TableOfContents:
    """A table of contents: its title and the entries it showed when last updated."""

    title: str
    entries: tuple[str, ...] = ()


@dataclass(frozen=True)
class Note:
    """A footnote or endnote: its kind ("footnote"/"endnote"), mark and text."""

    kind: str
    text: str
    mark: str = ""


@dataclass(frozen=True)
class Comment:
    """A comment: who wrote it, what it says, and the text it is attached to (``""`` when
    it marks a point rather than a span)."""

    author: str
    text: str
    anchor: str = ""
    date: str = ""


@dataclass(frozen=True)
class Change:
    """A tracked change not yet accepted or rejected.

    Attributes:
        kind: "insertion", "deletion" or "format".
        author: Who made it.
        text: The text inserted or deleted (``""`` for a format change).
        date: When, ISO form, as stored.
    """

    kind: str
    author: str
    text: str = ""
    date: str = ""


@dataclass(frozen=True)
class PageLayout:
    """The page of a text document (its default page style or first section).

    Attributes:
        width: Page width in millimetres.
        height: Page height in millimetres.
        orientation: "portrait" or "landscape".
        margins: (top, bottom, left, right) in millimetres.
    """

    width: float
    height: float
    orientation: str
    margins: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)


@dataclass(frozen=True)
class TextDocument:
    """A text document (Writer's ``.odt``, Word's ``.docx``).

    Attributes:
        paragraphs: Every heading and paragraph of the body in order, those in tables
            included (a table of contents' entries are not: see ``toc``).
        tables: Its tables in order.
        headers: Its page headers.
        footers: Its page footers.
        toc: Its table of contents, ``None`` without one.
        notes: Its footnotes and endnotes in order.
        comments: Its comments in order.
        changes: Its tracked changes not yet accepted or rejected.
        page: Its page layout, ``None`` when the file does not say.
        generator: The program that saved it, as it records itself.
    """

    paragraphs: tuple[Paragraph, ...] = ()
    tables: tuple[Table, ...] = ()
    headers: tuple[HeaderFooter, ...] = ()
    footers: tuple[HeaderFooter, ...] = ()
    toc: TableOfContents | None = None
    notes: tuple[Note, ...] = ()
    comments: tuple[Comment, ...] = ()
    changes: tuple[Change, ...] = ()
    page: PageLayout | None = None
    generator: str = ""


# -------------------------------------------------------------- presentations
@dataclass(frozen=True)
class Bullet:
    """One paragraph of a slide's content placeholder and its indent level (1 = top)."""

    text: str
    level: int = 1


@dataclass(frozen=True)
class Picture:
    """A picture on a slide: its shape's name, its alternative text (description) and the
    name of the image stored in the file."""

    name: str
    description: str = ""
    image: str = ""


@dataclass(frozen=True)
class Slide:
    """One slide of a presentation.

    Attributes:
        name: Its name ("Slide 1" unless renamed; a ``.pptx`` slide has none stored and
            gets "Slide N" by position).
        title: The text of its title placeholder (``""`` without one).
        layout: What its placeholders are, in LibreOffice's words ("Title Slide",
            "Title, Content", "Title Only", "Blank Slide"; others as their classes).
        texts: The text of every other text frame on it, in order.
        bullets: The paragraphs of its content (outline) placeholders, with their levels.
        notes: Its speaker notes.
        pictures: Its pictures.
        tables: Its tables.
        charts: Its charts.
    """

    name: str
    title: str
    layout: str
    texts: tuple[str, ...] = ()
    bullets: tuple[Bullet, ...] = ()
    notes: str = ""
    pictures: tuple[Picture, ...] = ()
    tables: tuple[Table, ...] = ()
    charts: tuple[Chart, ...] = ()


@dataclass(frozen=True)
class Presentation:
    """A presentation: its slides in order and the program that saved it."""

    slides: tuple[Slide, ...]
    generator: str = ""


# ------------------------------------------------------------------------ PDF
@dataclass(frozen=True)
class PdfPage:
    """One page of a PDF: its extracted text and its size in millimetres."""

    text: str
    width: float
    height: float

    @property
    def orientation(self) -> str:
        return "landscape" if self.width > self.height else "portrait"


@dataclass(frozen=True)
class PdfDocument:
    """A PDF: its pages, and the program that produced it ("LibreOffice 7.4" in the
    Producer or Creator entry; ``""`` when it does not say)."""

    pages: tuple[PdfPage, ...]
    producer: str = ""

    @property
    def page_count(self) -> int:
        return len(self.pages)

    @property
    def text(self) -> str:
        return "\n".join(page.text for page in self.pages)
