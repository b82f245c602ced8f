"""Presentations (``.odp``) through odfpy: slides with title, layout (named from the page
layout's placeholders), bullets with their levels, speaker notes, pictures, tables and
charts.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from reefbench.documents.model import Bullet, Picture, Presentation, Slide
from reefbench.documents.normal import layout_name
from reefbench.documents.odf_xml import (
    _ancestors,
    _attr,
    _chart,
    _generator,
    _is,
    _lines,
    _load,
    _plain,
    _tables,
    _text,
    _walk,
)

# A content placeholder of a deck imported from PowerPoint ("obj") is an "object"
# placeholder in ODF: it takes bullets like an outline, and is named as one.
_CONTENT = {"object": "outline"}


def _page_layouts(document: Any) -> dict[str, tuple[str, ...]]:
    layouts: dict[str, tuple[str, ...]] = {}
    for holder in (document.automaticstyles, document.styles):
        for layout in _walk(holder, "STYLENS", ("presentation-page-layout",)):
            objects = [
                _CONTENT.get(kind, kind)
                for p in _walk(layout, "PRESENTATIONNS", ("placeholder",))
                if (kind := _attr(p, "PRESENTATIONNS", "object"))
            ]
            layouts.setdefault(_attr(layout, "STYLENS", "name"), tuple(objects))
    return layouts


def _bullets(frame: Any) -> list[Bullet]:
    found = []
    for p in _walk(frame, "TEXTNS", ("p", "h")):
        depth = sum(1 for a in _ancestors(p) if _is(a, "TEXTNS", "list"))
        text = _plain(p)
        if text:
            found.append(Bullet(text, max(depth, 1)))
    return found


def _picture(frame: Any) -> Picture | None:
    """The picture a frame shows; ``None`` for a frame whose image only stands in for a
    table, chart or OLE object (LibreOffice stores such a replacement image beside it)."""
    images = [i for i in frame.childNodes if _is(i, "DRAWNS", "image")]
    content = [
        c
        for c in frame.childNodes
        if _is(c, "DRAWNS", "object", "object-ole", "plugin") or _is(c, "TABLENS", "table")
    ]
    if not images or content:
        return None
    titles = _walk(frame, "SVGNS", ("title",))
    descriptions = _walk(frame, "SVGNS", ("desc",))
    description = _text(descriptions[0]) if descriptions else ""
    return Picture(
        _attr(frame, "DRAWNS", "name"),
        description or (_text(titles[0]) if titles else ""),
        _attr(images[0], "XLINKNS", "href").rsplit("/", 1)[-1],
    )


def _slide(document: Any, page: Any, layouts: dict[str, tuple[str, ...]]) -> Slide:
    frames = _walk(page, "DRAWNS", ("frame",), skip=(("PRESENTATIONNS", "notes"),))
    title, texts, classes = "", [], []
    bullets: list[Bullet] = []
    pictures, charts = [], []
    for frame in frames:
        kind = _attr(frame, "PRESENTATIONNS", "class")
        content = _lines(frame)
        if kind in ("title", "subtitle", "outline"):
            classes.append(kind)
        if kind == "outline":
            bullets.extend(_bullets(frame))
        if kind == "title" and not title:
            title = content
        elif content:
            texts.append(content)
        picture = _picture(frame)
        chart = _chart(document, frame, "")
        pictures += [picture] if picture else []
        charts += [chart] if chart else []
    notes = [
        _lines(f)
        for n in _walk(page, "PRESENTATIONNS", ("notes",))
        for f in _walk(n, "DRAWNS", ("frame",))
        if _attr(f, "PRESENTATIONNS", "class") == "notes"
    ]
    layout = _attr(page, "PRESENTATIONNS", "presentation-page-layout-name")
    return Slide(
        _attr(page, "DRAWNS", "name"),
        title,
        layout_name(layouts.get(layout, tuple(classes))),
        tuple(texts),
        tuple(bullets),
        "\n".join(n for n in notes if n),
        tuple(pictures),
        _tables(page),
        tuple(charts),
    )


def read_presentation(path: Path) -> Presentation:
    """Every slide of a presentation (``.odp``) in order, with its title, layout, bullets,
    speaker notes, pictures, tables and charts."""
    document = _load(path, "presentation")
    layouts = _page_layouts(document)
    pages = _walk(document.presentation, "DRAWNS", ("page",))
    return Presentation(
        tuple(_slide(document, page, layouts) for page in pages), _generator(document)
    )
