"""Text documents (``.odt``) through odfpy: paragraphs with style, outline and list level;
tables; headers and footers with their page fields; the table of contents; notes;
comments with the text they span; tracked changes; the page layout.
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
    TableOfContents,
    TextDocument,
)
from reefbench.documents.odf_xml import (
    _ancestors,
    _attr,
    _decode,
    _generator,
    _is,
    _length,
    _lines,
    _load,
    _plain,
    _style_names,
    _tables,
    _text,
    _walk,
)

_OUTSIDE_BODY = (
    ("DRAWNS", "frame"),  # text boxes and captions, as a docx reader leaves text boxes
    ("TEXTNS", "table-of-content"),
    ("TEXTNS", "note"),
    ("OFFICENS", "annotation"),
    ("TEXTNS", "tracked-changes"),
)


def _paragraph(element: Any, parents: dict[str, str], shown: dict[str, str]) -> Paragraph:
    style = _attr(element, "TEXTNS", "style-name")
    style = parents.get(style, style)
    level = 0
    if element.qname[1] == "h":
        level = int(_attr(element, "TEXTNS", "outline-level") or 1)
    depth = sum(1 for a in _ancestors(element) if _is(a, "TEXTNS", "list"))
    return Paragraph(_plain(element), shown.get(style, _decode(style)), level, depth)


_HEADERS = ("header", "header-left", "header-first", "footer", "footer-left", "footer-first")


def _headers_footers(document: Any) -> tuple[list[HeaderFooter], list[HeaderFooter]]:
    headers: list[HeaderFooter] = []
    footers: list[HeaderFooter] = []
    for master in _walk(document.masterstyles, "STYLENS", ("master-page",)):
        page = _attr(master, "STYLENS", "display-name") or _decode(_attr(master, "STYLENS", "name"))
        page = "Default Page Style" if page == "Default Paragraph Style" else page
        for element in master.childNodes:
            if not _is(element, "STYLENS", *_HEADERS) or not element.childNodes:
                continue
            if _attr(element, "STYLENS", "display") == "false":  # switched off
                continue
            kind = element.qname[1].split("-")[0]
            found = HeaderFooter(
                kind,
                _lines(element),
                bool(_walk(element, "TEXTNS", ("page-number",))),
                bool(_walk(element, "TEXTNS", ("page-count",))),
                page,
            )
            (headers if kind == "header" else footers).append(found)
    return headers, footers


def _toc(document: Any) -> TableOfContents | None:
    tocs = _walk(document.text, "TEXTNS", ("table-of-content",))
    if not tocs:
        return None
    titles = _walk(tocs[0], "TEXTNS", ("index-title",))
    title = _lines(titles[0]) if titles else ""
    if not title:
        templates = _walk(tocs[0], "TEXTNS", ("index-title-template",))
        title = _text(templates[0]) if templates else ""
    bodies = _walk(tocs[0], "TEXTNS", ("index-body",))
    entries = []
    if bodies:
        skip = (("TEXTNS", "index-title"),)
        for p in _walk(bodies[0], "TEXTNS", ("p",), skip=skip):
            entries.append(re.sub(r"\t\s*\S*$", "", _plain(p)).strip())
    return TableOfContents(title.strip(), tuple(e for e in entries if e))


def _notes(document: Any) -> tuple[Note, ...]:
    found = []
    for note in _walk(document.text, "TEXTNS", ("note",)):
        citation = _walk(note, "TEXTNS", ("note-citation",))
        body = _walk(note, "TEXTNS", ("note-body",))
        found.append(
            Note(
                _attr(note, "TEXTNS", "note-class") or "footnote",
                _lines(body[0]) if body else "",
                _text(citation[0]) if citation else "",
            )
        )
    return tuple(found)


def _spans(document: Any) -> tuple[dict[str, str], dict[str, str]]:
    """The body's text between each comment's start and end (by comment name), and between
    each tracked change's start and end (by change id), in one pass in document order."""
    comments: dict[str, str] = {}
    changes: dict[str, str] = {}
    open_comments: set[str] = set()
    open_changes: set[str] = set()

    def visit(node: Any) -> None:
        if node.nodeType == node.TEXT_NODE:
            for name in open_comments:
                comments[name] = comments.get(name, "") + str(node.data)
            for name in open_changes:
                changes[name] = changes.get(name, "") + str(node.data)
            return
        if _is(node, "OFFICENS", "annotation"):
            open_comments.add(_annotation_name(node))
            return
        if _is(node, "OFFICENS", "annotation-end"):
            open_comments.discard(_attr(node, "OFFICENS", "name"))
        elif _is(node, "TEXTNS", "change-start"):
            open_changes.add(_attr(node, "TEXTNS", "change-id"))
        elif _is(node, "TEXTNS", "change-end"):
            open_changes.discard(_attr(node, "TEXTNS", "change-id"))
        elif any(_is(node, ns, name) for ns, name in _OUTSIDE_BODY):
            return
        elif _is(node, "TEXTNS", "s"):
            for holder, names in ((comments, open_comments), (changes, open_changes)):
                for name in names:
                    holder[name] = holder.get(name, "") + " "
        for child in node.childNodes:
            visit(child)

    visit(document.text)
    return comments, changes


def _annotation_name(note: Any) -> str:
    """The name tying a comment to its end (odfpy writes it as draw:name)."""
    return _attr(note, "OFFICENS", "name") or _attr(note, "DRAWNS", "name")


def _comments(document: Any, anchors: dict[str, str]) -> tuple[Comment, ...]:
    found = []
    for note in _walk(document.text, "OFFICENS", ("annotation",)):
        creators = _walk(note, "DCNS", ("creator",))
        dates = _walk(note, "DCNS", ("date",))
        body = "\n".join(_plain(p) for p in note.childNodes if _is(p, "TEXTNS", "p", "h"))
        found.append(
            Comment(
                _text(creators[0]) if creators else "",
                body,
                anchors.get(_annotation_name(note), ""),
                _text(dates[0]) if dates else "",
            )
        )
    return tuple(found)


_CHANGE_KINDS = {"insertion": "insertion", "deletion": "deletion", "format-change": "format"}


def _changes(document: Any, inserted: dict[str, str]) -> tuple[Change, ...]:
    found = []
    for region in _walk(document.text, "TEXTNS", ("changed-region",)):
        region_id = _attr(region, "TEXTNS", "id") or _attr(region, "XMLNS", "id")
        for change in region.childNodes:
            kind = _CHANGE_KINDS.get(getattr(change, "qname", ("", ""))[1])
            if kind is None:
                continue
            creators = _walk(change, "DCNS", ("creator",))
            dates = _walk(change, "DCNS", ("date",))
            if kind == "deletion":
                text = "\n".join(_plain(p) for p in change.childNodes if _is(p, "TEXTNS", "p", "h"))
            else:
                text = inserted.get(region_id, "") if kind == "insertion" else ""
            found.append(
                Change(
                    kind,
                    _text(creators[0]) if creators else "",
                    text,
                    _text(dates[0]) if dates else "",
                )
            )
    return tuple(found)


def _page(document: Any) -> PageLayout | None:
    """The layout of the page style the first master page ("Standard") uses."""
    masters = _walk(document.masterstyles, "STYLENS", ("master-page",))
    if not masters:
        return None
    wanted = _attr(masters[0], "STYLENS", "page-layout-name")
    for holder in (document.automaticstyles, document.styles):
        for layout in _walk(holder, "STYLENS", ("page-layout",)):
            if _attr(layout, "STYLENS", "name") != wanted:
                continue
            props = _walk(layout, "STYLENS", ("page-layout-properties",))
            if not props:
                return None
            width = _length(_attr(props[0], "FONS", "page-width"))
            height = _length(_attr(props[0], "FONS", "page-height"))
            orientation = _attr(props[0], "STYLENS", "print-orientation")
            margins = tuple(
                _length(_attr(props[0], "FONS", f"margin-{side}"))
                for side in ("top", "bottom", "left", "right")
            )
            return PageLayout(
                width,
                height,
                orientation or ("landscape" if width > height else "portrait"),
                (margins[0], margins[1], margins[2], margins[3]),
            )
    return None


def read_text_document(path: Path) -> TextDocument:
    """Everything of a text document (``.odt``) that :class:`TextDocument` has a field for."""
    document = _load(path, "text")
    parents, shown = _style_names(document)
    body = _walk(document.text, "TEXTNS", ("h", "p"), skip=_OUTSIDE_BODY)
    headers, footers = _headers_footers(document)
    anchors, inserted = _spans(document)
    return TextDocument(
        paragraphs=tuple(_paragraph(p, parents, shown) for p in body),
        tables=_tables(document.text),
        headers=tuple(headers),
        footers=tuple(footers),
        toc=_toc(document),
        notes=_notes(document),
        comments=_comments(document, anchors),
        changes=_changes(document, inserted),
        page=_page(document),
        generator=_generator(document),
    )
