"""Word documents (``.docx``), read through python-docx (and its lxml tree where
python-docx has no API: footnotes, tracked changes, fields, a table of contents).

What the format carries differently from ODF: the body text is what Word shows with
pending changes (insertions in, deletions out), as in ODF; "Normal" is reported as
LibreOffice shows it on import ("Default Paragraph Style"); a header's ``page_style`` is
the section's variant ("default", "first", "even"), since Word has no page styles; a
table of contents is found as the content control Word and LibreOffice wrap it in (or, in
a file without one, the paragraphs in "TOC n"/"Contents n" styles), and has no title when
it was written without a heading paragraph. python-docx is imported when a document is
read.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from reefbench.documents.model import (
    Change,
    Comment,
    HeaderFooter,
    Note,
    PageLayout,
    Paragraph,
    Table,
    TableOfContents,
    TextDocument,
)

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_SHOWN_AS = {"Normal": "Default Paragraph Style"}


def _q(name: str) -> str:
    return f"{{{W}}}{name}"


def read(path: Path) -> TextDocument:
    """Everything of the document that :class:`TextDocument` has a field for."""
    import docx

    document = docx.Document(str(path))
    body = document.element.body
    toc_area = _toc_area(body)
    headers, footers = _headers_footers(document)
    return TextDocument(
        paragraphs=tuple(_paragraphs(document, body, toc_area)),
        tables=tuple(_table(t) for t in body.iter(_q("tbl"))),
        headers=tuple(headers),
        footers=tuple(footers),
        toc=_toc(document, body, toc_area),
        notes=_notes(document),
        comments=_comments(document, body),
        changes=_changes(body),
        page=_page(document),
        generator=_generator(document),
    )


def _generator(document: Any) -> str:
    """docProps/app.xml's Application ("LibreOffice/7.4..."), else the last author."""
    for part in document.part.package.iter_parts():
        if str(part.partname) == "/docProps/app.xml":
            match = re.search(rb"<Application>([^<]*)</Application>", part.blob)
            if match:
                return match.group(1).decode("utf-8", "replace")
    return str(document.core_properties.last_modified_by or "")


def text_of(element: Any) -> str:
    """The text an element shows: runs' text, tabs and breaks; deleted text left out."""
    parts = []
    for node in element.iter(_q("t"), _q("tab"), _q("br"), _q("cr"), _q("noBreakHyphen")):
        if node.tag == _q("t"):
            parts.append(node.text or "")
        elif node.tag == _q("tab"):
            if node.getparent().tag == _q("r"):  # not a tab stop of the paragraph's style
                parts.append("\t")
        elif node.tag == _q("noBreakHyphen"):
            parts.append("-")
        else:
            parts.append("\n")
    return "".join(parts)


# ------------------------------------------------------------------- body
def _toc_area(body: Any) -> set[Any]:
    """The paragraphs of the table of contents (its content control, or its styles)."""
    for sdt in body.iter(_q("sdt")):
        gallery = sdt.find(f".//{_q('docPartGallery')}")
        if gallery is not None and "Contents" in (gallery.get(_q("val")) or ""):
            return set(sdt.iter(_q("p")))
    return set()


def _style_name(document: Any, p: Any) -> str:
    style_id = p.find(f"{_q('pPr')}/{_q('pStyle')}")
    sid = style_id.get(_q("val")) if style_id is not None else None
    style = document.styles.default(1) if sid is None else _by_id(document, sid)
    name = str(style.name) if style is not None else (sid or "Normal")
    return _SHOWN_AS.get(name, name)


def _by_id(document: Any, style_id: str) -> Any:
    for style in document.styles:
        if style.style_id == style_id:
            return style
    return None


def _levels(document: Any, p: Any, style: str) -> tuple[int, int]:
    """(outline level of a heading, list level), both 1-based, 0 when not."""
    heading = 0
    outline = p.find(f"{_q('pPr')}/{_q('outlineLvl')}")
    if outline is not None and int(outline.get(_q("val"))) < 9:
        heading = int(outline.get(_q("val"))) + 1
    match = re.fullmatch(r"Heading (\d)", style)
    if not heading and match:
        heading = int(match.group(1))
    listed = 0
    numbering = p.find(f"{_q('pPr')}/{_q('numPr')}")
    if numbering is None:
        numbering = _style_numbering(document, p)
    if numbering is not None:
        num = numbering.find(_q("numId"))
        level = numbering.find(_q("ilvl"))
        if num is not None and num.get(_q("val")) != "0":
            listed = int(level.get(_q("val"))) + 1 if level is not None else 1
    if heading and listed:
        listed = 0  # a numbered heading is a heading, as in ODF's text:h
    return heading, listed


def _style_numbering(document: Any, p: Any) -> Any:
    """The numbering a paragraph's style (or a style it is based on) gives it."""
    style_id = p.find(f"{_q('pPr')}/{_q('pStyle')}")
    style = _by_id(document, style_id.get(_q("val"))) if style_id is not None else None
    seen = 0
    while style is not None and seen < 10:
        numbering = style.element.find(f"{_q('pPr')}/{_q('numPr')}")
        if numbering is not None:
            return numbering
        style, seen = style.base_style, seen + 1
    return None


def _paragraphs(document: Any, body: Any, toc_area: set[Any]) -> list[Paragraph]:
    found = []
    for p in body.iter(_q("p")):
        if p in toc_area or _inside(p, "txbxContent"):
            continue
        style = _style_name(document, p)
        heading, listed = _levels(document, p, style)
        found.append(Paragraph(text_of(p), style, heading, listed))
    return found


def _inside(element: Any, name: str) -> bool:
    parent = element.getparent()
    while parent is not None:
        if parent.tag == _q(name):
            return True
        parent = parent.getparent()
    return False


def _table(tbl: Any) -> Table:
    rows = []
    for tr in tbl.findall(_q("tr")):
        cells = []
        for tc in tr.findall(_q("tc")):
            merge = tc.find(f"{_q('tcPr')}/{_q('vMerge')}")
            if merge is not None and merge.get(_q("val")) in (None, "continue"):
                continue  # the lower part of a vertically merged cell
            cells.append("\n".join(text_of(p) for p in tc.findall(_q("p"))))
        rows.append(tuple(cells))
    return Table(tuple(rows))


# ------------------------------------------------------- headers and footers
def _fields(element: Any) -> str:
    """Every field instruction in ``element`` (simple and complex fields), upper-case."""
    instructions = [f.get(_q("instr")) or "" for f in element.iter(_q("fldSimple"))]
    instructions += [i.text or "" for i in element.iter(_q("instrText"))]
    return " ".join(instructions).upper()


def _headers_footers(document: Any) -> tuple[list[HeaderFooter], list[HeaderFooter]]:
    headers: list[HeaderFooter] = []
    footers: list[HeaderFooter] = []
    for section in document.sections:
        variants = [("default", section.header, section.footer)]
        if section.different_first_page_header_footer:
            variants.append(("first", section.first_page_header, section.first_page_footer))
        if document.settings.odd_and_even_pages_header_footer:
            variants.append(("even", section.even_page_header, section.even_page_footer))
        for variant, header, footer in variants:
            for kind, part, into in (("header", header, headers), ("footer", footer, footers)):
                if part.is_linked_to_previous:  # no definition of its own
                    continue
                element = part._element
                fields = _fields(element)
                into.append(
                    HeaderFooter(
                        kind,
                        "\n".join(text_of(p) for p in element.iter(_q("p"))),
                        bool(re.search(r"(?<!NUM)\bPAGE\b", fields)),
                        "NUMPAGES" in fields,
                        variant,
                    )
                )
    return headers, footers


# -------------------------------------------------------- table of contents
def _toc(document: Any, body: Any, toc_area: set[Any]) -> TableOfContents | None:
    paragraphs = [p for p in body.iter(_q("p")) if p in toc_area]
    if not paragraphs:
        paragraphs = [
            p
            for p in body.iter(_q("p"))
            if re.match(r"(TOC|Contents) \d", _style_name(document, p))
        ]
        if not paragraphs:
            return None
    title = ""
    entries = []
    for p in paragraphs:
        style = _style_name(document, p)
        text = text_of(p)
        if re.search(r"Heading|TOC Heading", style) and not title and "\t" not in text:
            title = text.strip()
        elif text.strip():
            entries.append(re.sub(r"\t\s*\S*$", "", text).strip())
    return TableOfContents(title, tuple(entries))


# ---------------------------------------------------------- notes, comments
def _notes(document: Any) -> tuple[Note, ...]:
    from docx.opc.constants import RELATIONSHIP_TYPE as RT
    from docx.oxml import parse_xml

    found = []
    for kind, relation, tag in (
        ("footnote", RT.FOOTNOTES, "footnote"),
        ("endnote", RT.ENDNOTES, "endnote"),
    ):
        try:
            part = document.part.part_related_by(relation)
        except KeyError:
            continue
        root = parse_xml(part.blob)
        number = 0
        for note in root.iter(_q(tag)):
            if note.get(_q("type")) in ("separator", "continuationSeparator"):
                continue
            number += 1
            text = "\n".join(text_of(p) for p in note.iter(_q("p")))
            found.append(Note(kind, text.strip(), str(number)))
    return tuple(found)


def _comments(document: Any, body: Any) -> tuple[Comment, ...]:
    anchors = _anchors(body)
    try:
        comments = list(document.comments)
    except Exception:
        return ()
    return tuple(
        Comment(
            c.author or "",
            c.text,
            anchors.get(str(c.comment_id), ""),
            c.timestamp.isoformat() if c.timestamp else "",
        )
        for c in comments
    )


def _anchors(body: Any) -> dict[str, str]:
    """The text between each comment's range start and end, in document order."""
    found: dict[str, str] = {}
    open_ids: set[str] = set()
    for node in body.iter(_q("commentRangeStart"), _q("commentRangeEnd"), _q("t")):
        if node.tag == _q("commentRangeStart"):
            open_ids.add(node.get(_q("id")))
        elif node.tag == _q("commentRangeEnd"):
            open_ids.discard(node.get(_q("id")))
        else:
            for comment_id in open_ids:
                found[comment_id] = found.get(comment_id, "") + (node.text or "")
    return found


def _changes(body: Any) -> tuple[Change, ...]:
    found = []
    for node in body.iter(_q("ins"), _q("del"), _q("rPrChange"), _q("pPrChange")):
        parent = node.getparent().tag
        if node.tag in (_q("ins"), _q("del")) and parent == _q("rPr"):
            continue  # a paragraph mark inserted or deleted with its neighbour
        author = node.get(_q("author")) or ""
        date = node.get(_q("date")) or ""
        if node.tag == _q("ins"):
            found.append(Change("insertion", author, text_of(node), date))
        elif node.tag == _q("del"):
            text = "".join(t.text or "" for t in node.iter(_q("delText")))
            found.append(Change("deletion", author, text, date))
        else:
            found.append(Change("format", author, "", date))
    return tuple(found)


def _page(document: Any) -> PageLayout | None:
    if not document.sections:
        return None
    section = document.sections[0]
    if section.page_width is None or section.page_height is None:
        return None
    width = round(section.page_width.mm, 1)
    height = round(section.page_height.mm, 1)
    orientation = "landscape" if int(section.orientation) == 1 else "portrait"

    def length(value: Any) -> float:
        return round(value.mm, 1) if value is not None else 0.0

    margins = (
        length(section.top_margin),
        length(section.bottom_margin),
        length(section.left_margin),
        length(section.right_margin),
    )
    return PageLayout(width, height, orientation, margins)
