"""Text documents read alike from ``.odt`` and ``.docx``: a document built with odfpy
(headings, a nested list, a table, a header and a footer with page fields, a table of
contents, a footnote, a comment, tracked changes by two authors, an A4 landscape page) is
re-saved and exported by real LibreOffice, and each reader must find every feature in what
LibreOffice wrote; python-docx builds a comment and a change of its own."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("odf")
pytest.importorskip("docx")

from odf import dc, office, style, table, text
from odf.namespaces import OFFICENS, TEXTNS, XMLNS
from odf.opendocument import OpenDocumentText

from reefbench.documents import TextDocument, read_pdf, read_text_document

Convert = Callable[[list[Path], str], list[Path]]


def _styles(doc: OpenDocumentText) -> None:
    for name, shown in (
        ("Standard", ""),
        ("Heading_20_1", "Heading 1"),
        ("Heading_20_2", "Heading 2"),
        ("Text_20_body", "Body Text"),
        ("Contents_20_Heading", "Contents Heading"),
        ("Contents_20_1", "Contents 1"),
    ):
        extra = {"displayname": shown} if shown else {}
        level = {"defaultoutlinelevel": name[-1]} if name.startswith("Heading") else {}
        doc.styles.addElement(style.Style(name=name, family="paragraph", **extra, **level))
    layout = style.PageLayout(name="pm1")
    layout.addElement(
        style.PageLayoutProperties(
            pagewidth="29.7cm",
            pageheight="21.0cm",
            printorientation="landscape",
            margintop="2cm",
            marginbottom="1.5cm",
            marginleft="2.5cm",
            marginright="2.5cm",
        )
    )
    doc.automaticstyles.addElement(layout)
    master = style.MasterPage(name="Standard", pagelayoutname="pm1")
    header = style.Header()
    header.addElement(text.P(stylename="Standard", text="Quarterly report"))
    footer = style.Footer()
    line = text.P(stylename="Standard", text="Page ")
    line.addElement(text.PageNumber(selectpage="current", text="1"))
    line.addText(" of ")
    line.addElement(text.PageCount(text="1"))
    footer.addElement(line)
    master.addElement(header)
    master.addElement(footer)
    doc.masterstyles.addElement(master)


def _toc() -> Any:
    toc = text.TableOfContent(name="Table of Contents1")
    source = text.TableOfContentSource(outlinelevel=10)
    template = text.IndexTitleTemplate(stylename="Contents_20_Heading")
    template.addText("Contents")
    source.addElement(template)
    toc.addElement(source)
    body = text.IndexBody()
    title = text.IndexTitle(name="Table of Contents1_Head")
    title.addElement(text.P(stylename="Contents_20_Heading", text="Contents"))
    body.addElement(title)
    for entry in ("Introduction", "Method"):
        p = text.P(stylename="Contents_20_1", text=entry)
        p.addElement(text.Tab())
        p.addText("1")
        body.addElement(p)
    toc.addElement(body)
    return toc


def _changes(doc: OpenDocumentText) -> None:
    """Alice inserted "new text"; Bob deleted "old words"."""
    tracked = text.TrackedChanges()
    for region_id, kind, author, deleted in (
        ("ct1", text.Insertion, "Alice", ""),
        ("ct2", text.Deletion, "Bob", "old words"),
    ):
        region = text.ChangedRegion(
            qattributes={(TEXTNS, "id"): region_id, (XMLNS, "id"): region_id}
        )
        change = kind()
        info = office.ChangeInfo()
        info.addElement(dc.Creator(text=author))
        info.addElement(dc.Date(text="2024-03-05T10:00:00"))
        change.addElement(info)
        if deleted:
            change.addElement(text.P(stylename="Text_20_body", text=deleted))
        region.addElement(change)
        tracked.addElement(region)
    doc.text.addElement(tracked)


def _body(doc: OpenDocumentText) -> None:
    doc.text.addElement(_toc())
    heading = text.H(outlinelevel=1, stylename="Heading_20_1", text="Introduction")
    note = text.Note(noteclass="footnote", id="ftn1")
    note.addElement(text.NoteCitation(text="1"))
    note_body = text.NoteBody()
    note_body.addElement(text.P(stylename="Standard", text="A source."))
    note.addElement(note_body)
    heading.addElement(note)
    doc.text.addElement(heading)
    commented = text.P(stylename="Text_20_body", text="We measured ")
    remark = office.Annotation()
    remark.setAttrNS(OFFICENS, "name", "__Annotation__1")  # odfpy's name= is draw:name
    remark.addElement(dc.Creator(text="Ann"))
    remark.addElement(dc.Date(text="2024-03-05T09:00:00"))
    remark.addElement(text.P(text="Check the tea."))
    commented.addElement(remark)
    commented.addText("tea prices")
    commented.addElement(office.AnnotationEnd(name="__Annotation__1"))
    commented.addText(".")
    doc.text.addElement(commented)
    changed = text.P(stylename="Text_20_body", text="Added ")
    changed.addElement(text.ChangeStart(changeid="ct1"))
    changed.addText("new text")
    changed.addElement(text.ChangeEnd(changeid="ct1"))
    changed.addText(" here.")
    changed.addElement(text.Change(changeid="ct2"))
    doc.text.addElement(changed)
    outer = text.List()
    for words in ("First", "Second"):
        item = text.ListItem()
        item.addElement(text.P(stylename="Standard", text=words))
        outer.addElement(item)
    inner = text.List()
    nested = text.ListItem()
    nested.addElement(text.P(stylename="Standard", text="Nested"))
    inner.addElement(nested)
    item.addElement(inner)
    doc.text.addElement(outer)
    grid = table.Table(name="Prices")
    grid.addElement(table.TableColumn(numbercolumnsrepeated=2))
    for row in (("Item", "Price"), ("Tea", "3.50")):
        table_row = table.TableRow()
        for value in row:
            cell = table.TableCell(valuetype="string")
            cell.addElement(text.P(stylename="Standard", text=value))
            table_row.addElement(cell)
        grid.addElement(table_row)
    doc.text.addElement(grid)
    doc.text.addElement(text.H(outlinelevel=2, stylename="Heading_20_2", text="Method"))


def build_odt(path: Path) -> Path:
    doc = OpenDocumentText()
    _styles(doc)
    _changes(doc)
    _body(doc)
    doc.save(str(path))
    return path


@pytest.fixture(scope="module")
def documents(tmp_path_factory: pytest.TempPathFactory, convert: Convert) -> dict[str, Path]:
    source = build_odt(tmp_path_factory.mktemp("writer") / "report.odt")
    (odt,) = convert([source], "odt")
    (docx,) = convert([source], "docx")
    (pdf,) = convert([source], "pdf")
    return {"odfpy": source, "odt": odt, "docx": docx, "pdf": pdf}


FORMATS = ["odt", "docx"]


def _read(documents: dict[str, Path], fmt: str) -> TextDocument:
    return read_text_document(documents[fmt])


@pytest.mark.parametrize("fmt", FORMATS)
def test_paragraphs_styles_headings_and_lists(documents: dict[str, Path], fmt: str) -> None:
    doc = _read(documents, fmt)
    assert "LibreOffice" in doc.generator
    shown = {p.text: p for p in doc.paragraphs}
    assert (shown["Introduction"].style, shown["Introduction"].heading_level) == ("Heading 1", 1)
    assert (shown["Method"].style, shown["Method"].heading_level) == ("Heading 2", 2)
    assert shown["We measured tea prices."].style == "Body Text"
    assert [(t, shown[t].list_level) for t in ("First", "Second", "Nested")] == [
        ("First", 1),
        ("Second", 1),
        ("Nested", 2),
    ]
    assert "Contents" not in shown  # the table of contents is not body text


@pytest.mark.parametrize("fmt", FORMATS)
def test_tables_headers_and_footers(documents: dict[str, Path], fmt: str) -> None:
    doc = _read(documents, fmt)
    assert [t.rows for t in doc.tables] == [(("Item", "Price"), ("Tea", "3.50"))]
    (header,) = doc.headers
    (footer,) = doc.footers
    assert header.text == "Quarterly report" and not header.page_number
    assert footer.text.startswith("Page ") and footer.page_number and footer.page_count


@pytest.mark.parametrize("fmt", FORMATS)
def test_table_of_contents_and_footnote(documents: dict[str, Path], fmt: str) -> None:
    doc = _read(documents, fmt)
    assert doc.toc is not None
    assert (doc.toc.title, doc.toc.entries) == ("Contents", ("Introduction", "Method"))
    assert [(n.kind, n.text) for n in doc.notes] == [("footnote", "A source.")]


@pytest.mark.parametrize("fmt", FORMATS)
def test_comment_with_its_anchor(documents: dict[str, Path], fmt: str) -> None:
    (comment,) = _read(documents, fmt).comments
    assert (comment.author, comment.text, comment.anchor) == ("Ann", "Check the tea.", "tea prices")


@pytest.mark.parametrize("fmt", FORMATS)
def test_tracked_changes_by_author(documents: dict[str, Path], fmt: str) -> None:
    doc = _read(documents, fmt)
    assert [(c.kind, c.author, c.text) for c in doc.changes] == [
        ("insertion", "Alice", "new text"),
        ("deletion", "Bob", "old words"),
    ]
    assert any(p.text == "Added new text here." for p in doc.paragraphs)


@pytest.mark.parametrize("fmt", FORMATS)
def test_page_size_orientation_and_margins(documents: dict[str, Path], fmt: str) -> None:
    """Word measures the top and bottom margins to the body text, over the header and
    footer; ODF to the header and footer: the side margins are the same in both."""
    page = _read(documents, fmt).page
    assert page is not None
    assert (page.width, page.height, page.orientation) == (297.0, 210.0, "landscape")
    top, bottom, left, right = page.margins
    assert (left, right) == (25.0, 25.0)
    if fmt == "odt":
        assert (top, bottom) == (20.0, 15.0)
    else:
        assert top > 20.0 and bottom > 15.0


def test_the_pdf_export_has_the_text_and_the_page(documents: dict[str, Path]) -> None:
    pdf = read_pdf(documents["pdf"])
    assert pdf.page_count == 1 and "LibreOffice" in pdf.producer
    page = pdf.pages[0]
    assert (page.width, page.height, page.orientation) == (297.0, 210.0, "landscape")
    assert "We measured tea prices." in pdf.text and "Quarterly report" in pdf.text


def test_python_docx_comment_and_a_word_insertion(tmp_path: Path) -> None:
    """What Word writes: a comment through python-docx 1.2's API and a w:ins run."""
    import docx
    from docx.oxml import parse_xml

    document = docx.Document()
    document.add_heading("Plan", level=1)
    paragraph = document.add_paragraph("Ship on ")
    run = paragraph.add_run("Friday")
    document.add_comment(run, text="Too early?", author="Dan")
    w = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
    paragraph._p.append(
        parse_xml(
            f'<w:ins xmlns:w="{w}" w:id="9" w:author="Eve" w:date="2024-03-05T10:00:00Z">'
            "<w:r><w:t> morning</w:t></w:r></w:ins>"
        )
    )
    document.add_paragraph("Step one", style="List Number")
    path = tmp_path / "plan.docx"
    document.save(str(path))

    doc = read_text_document(path)
    assert [(p.text, p.style, p.heading_level) for p in doc.paragraphs[:2]] == [
        ("Plan", "Heading 1", 1),
        ("Ship on Friday morning", "Default Paragraph Style", 0),
    ]
    assert doc.paragraphs[2].list_level == 1
    assert [(c.author, c.text, c.anchor) for c in doc.comments] == [("Dan", "Too early?", "Friday")]
    assert [(c.kind, c.author, c.text) for c in doc.changes] == [("insertion", "Eve", " morning")]
    assert doc.toc is None and doc.headers == () and doc.page is not None
    assert doc.page.orientation == "portrait"
