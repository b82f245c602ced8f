"""PowerPoint presentations (``.pptx``), read through python-pptx.

What the format carries differently from ODF: a slide's layout is named from the
placeholders on the slide (title, subtitle, content) in LibreOffice's words, as for
``.odp``, not from the layout's own name (which differs between programs); a slide with no
stored name is "Slide N" by position; a chart keeps its data in an embedded workbook, so it
has series names but no cell ranges and no anchor cell. python-pptx is imported when a
presentation is read.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from reefbench.documents.model import (
    Bullet,
    Chart,
    Picture,
    Presentation,
    Slide,
    Table,
)
from reefbench.documents.normal import layout_name

# Placeholder types (PP_PLACEHOLDER names) -> the ODF presentation class.
_CLASSES = {
    "TITLE": "title",
    "CENTER_TITLE": "title",
    "VERTICAL_TITLE": "title",
    "SUBTITLE": "subtitle",
    "BODY": "outline",
    "OBJECT": "outline",
    "VERTICAL_BODY": "outline",
    "VERTICAL_OBJECT": "outline",
}
_ORDER = {"title": 0, "subtitle": 1, "outline": 2}


def read(path: Path) -> Presentation:
    """Every slide in order with what :class:`Slide` has a field for."""
    import pptx

    deck = pptx.Presentation(str(path))
    slides = tuple(_slide(number, slide) for number, slide in enumerate(deck.slides, 1))
    return Presentation(slides, _generator(deck))


def _generator(deck: Any) -> str:
    import re

    for part in deck.part.package.iter_parts():
        if str(part.partname) == "/docProps/app.xml":
            match = re.search(rb"<Application>([^<]*)</Application>", part.blob)
            if match:
                return match.group(1).decode("utf-8", "replace")
    return str(deck.core_properties.last_modified_by or "")


def _shapes(shapes: Any) -> Iterator[Any]:
    """Every shape, those inside groups included, in order."""
    for shape in shapes:
        if shape.shape_type is not None and shape.shape_type.name == "GROUP":
            yield from _shapes(shape.shapes)
        else:
            yield shape


def _placeholder_class(shape: Any) -> str:
    if not shape.is_placeholder:
        return ""
    return _CLASSES.get(shape.placeholder_format.type.name, "")


def _slide(number: int, slide: Any) -> Slide:
    title, texts, classes = "", [], []
    bullets: list[Bullet] = []
    pictures, tables, charts = [], [], []
    for shape in _shapes(slide.shapes):
        kind = _placeholder_class(shape)
        if kind:
            classes.append(kind)
        text = shape.text_frame.text if shape.has_text_frame else ""
        if kind == "title" and not title:
            title = text
        elif text:
            texts.append(text)
        if kind == "outline" and shape.has_text_frame:
            bullets += [Bullet(p.text, p.level + 1) for p in shape.text_frame.paragraphs if p.text]
        if shape.shape_type is not None and shape.shape_type.name == "PICTURE":
            pictures.append(_picture(shape))
        if getattr(shape, "has_table", False):
            tables.append(_table(shape.table))
        if getattr(shape, "has_chart", False):
            charts.append(_chart(shape.chart))
    notes = ""
    if slide.has_notes_slide and slide.notes_slide.notes_text_frame is not None:
        notes = slide.notes_slide.notes_text_frame.text
    return Slide(
        slide.name or f"Slide {number}",
        title,
        layout_name(tuple(sorted(classes, key=_ORDER.__getitem__))),
        tuple(texts),
        tuple(bullets),
        notes,
        tuple(pictures),
        tuple(tables),
        tuple(charts),
    )


def _picture(shape: Any) -> Picture:
    description = shape._element._nvXxPr.cNvPr.get("descr") or ""
    try:
        image = str(shape.image.filename or "")
    except (AttributeError, ValueError, KeyError):
        image = ""
    return Picture(str(shape.name), description, image)


def _table(table: Any) -> Table:
    rows = []
    for row in table.rows:
        rows.append(tuple(c.text for c in row.cells if not c.is_spanned))
    return Table(tuple(rows))


_CHART_WORDS = (
    ("DOUGHNUT", "donut"),
    ("PIE", "pie"),
    ("COLUMN", "column"),
    ("BAR", "bar"),
    ("LINE", "line"),
    ("AREA", "area"),
    ("XY_SCATTER", "scatter"),
    ("RADAR", "radar"),
    ("BUBBLE", "bubble"),
    ("STOCK", "stock"),
)


def _chart(chart: Any) -> Chart:
    try:
        name = chart.chart_type.name
    except (NotImplementedError, KeyError, AttributeError):
        name = ""
    kind = next((word for key, word in _CHART_WORDS if name.startswith(key)), name.lower())
    title = chart.chart_title.text_frame.text if chart.has_title else ""
    series = tuple(s.name for plot in chart.plots for s in plot.series if s.name)
    return Chart(kind, title, series=series)
