"""The ODF readers' shared part: a file loaded with odfpy, its XML walked, text as shown,
style names as the user sees them, ranges in A1 form, and charts (an embedded object in a
Calc sheet and on an Impress slide alike). Internal to the ``odf_*`` modules.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from reefbench.documents.model import Chart, DocumentUnreadable, Table
from reefbench.documents.normal import describe_look, mm

CALCEXT = "urn:org:documentfoundation:names:experimental:calc:xmlns:calcext:1.0"


def _load(path: Path, kind: str = "") -> Any:
    from odf.opendocument import load

    try:
        document = load(str(path))
    except Exception as exc:  # odfpy raises zipfile, XML and key errors alike
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise DocumentUnreadable(f"{path.name} is not an OpenDocument file ({reason})") from None
    if not str(document.mimetype).endswith(kind):
        raise DocumentUnreadable(f"{path.name} is a {document.mimetype}, not a {kind}")
    if kind and getattr(document, kind, None) is None:
        raise DocumentUnreadable(f"{path.name} is a damaged OpenDocument file (no {kind} body)")
    return document


def _generator(document: Any) -> str:
    found = _walk(document.meta, "METANS", ("generator",))
    return _text(found[0]).strip() if found else ""


def _ns(name: str) -> str:
    if name.startswith("urn:"):
        return name
    from odf import namespaces

    return str(getattr(namespaces, name))


def _attr(element: Any, namespace: str, name: str) -> str:
    value = element.attributes.get((_ns(namespace), name))
    return "" if value is None else str(value)


def _is(node: Any, namespace: str, *names: str) -> bool:
    qname = getattr(node, "qname", None)
    return qname is not None and qname[0] == _ns(namespace) and qname[1] in names


def _walk(
    element: Any, namespace: str, names: tuple[str, ...], skip: tuple[tuple[str, str], ...] = ()
) -> list[Any]:
    """Elements named ``names`` under ``element``, in document order, not looking inside
    elements whose (namespace, name) is in ``skip``."""
    found = []
    stack = list(reversed(element.childNodes))
    ns = _ns(namespace)
    skipped = {(_ns(n), name) for n, name in skip}
    while stack:
        node = stack.pop()
        if getattr(node, "qname", None) is None:
            continue
        if node.qname[0] == ns and node.qname[1] in names:
            found.append(node)
        if node.qname not in skipped:
            stack.extend(reversed(node.childNodes))
    return found


def _text(element: Any) -> str:
    from odf import teletype

    return str(teletype.extractText(element))


# What a paragraph's own text leaves out: notes, comments and index bodies are elsewhere.
_NOT_TEXT = {("TEXTNS", "note"), ("OFFICENS", "annotation"), ("TEXTNS", "tracked-changes")}


def _plain(element: Any) -> str:
    """The text of a paragraph as shown, without its notes' and comments' text."""
    parts: list[str] = []
    for node in element.childNodes:
        if node.nodeType == node.TEXT_NODE:
            parts.append(str(node.data))
        elif any(_is(node, ns, name) for ns, name in _NOT_TEXT):
            continue
        elif _is(node, "TEXTNS", "s"):
            parts.append(" " * int(_attr(node, "TEXTNS", "c") or 1))
        elif _is(node, "TEXTNS", "tab"):
            parts.append("\t")
        elif _is(node, "TEXTNS", "line-break"):
            parts.append("\n")
        else:
            parts.append(_plain(node))
    return "".join(parts)


def _lines(element: Any) -> str:
    """The paragraphs under ``element`` joined by newlines."""
    return "\n".join(_plain(p) for p in _walk(element, "TEXTNS", ("p", "h")))


def _ancestors(node: Any) -> Iterator[Any]:
    parent = node.parentNode
    while parent is not None and getattr(parent, "qname", None) is not None:
        yield parent
        parent = parent.parentNode


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


def _styles_by_name(document: Any) -> dict[str, Any]:
    """Every style:style of the document (named and automatic) by its name."""
    found: dict[str, Any] = {}
    for holder in (document.styles, document.automaticstyles):
        for style in _walk(holder, "STYLENS", ("style",)):
            found.setdefault(_attr(style, "STYLENS", "name"), style)
    return found


def _look(styles: dict[str, Any], name: str) -> str:
    """What a cell style does ("fill #ffc7ce, font #9c0006, bold"), following its parents."""
    fill = color = weight = ""
    seen: set[str] = set()
    while name in styles and name not in seen:
        seen.add(name)
        style = styles[name]
        for props in _walk(style, "STYLENS", ("table-cell-properties",)):
            fill = fill or _attr(props, "FONS", "background-color")
        for props in _walk(style, "STYLENS", ("text-properties",)):
            color = color or _attr(props, "FONS", "color")
            weight = weight or _attr(props, "FONS", "font-weight")
        name = _attr(style, "STYLENS", "parent-style-name")
    return describe_look(fill, color, weight == "bold")


def _length(value: str) -> float:
    """An ODF length ("2.01cm", "0.7874in", "12pt") in millimetres; 0 when absent."""
    match = re.fullmatch(r"(-?[\d.]+)\s*(mm|cm|in|pt|pc)?", value.strip())
    if not match:
        return 0.0
    return mm(float(match.group(1)), match.group(2) or "mm")


def odf_range(address: str) -> tuple[str, str]:
    """An ODF cell or range address as (sheet, A1 range): ``$'My Sheet'.$A$1:.$C$9`` is
    ("My Sheet", "A1:C9"), ``.B3`` is ("", "B3")."""
    sheet = ""
    parts = []
    for end in address.split(":"):
        end = end.replace("$", "")
        name, _, cell = end.rpartition(".")
        if name and not sheet:
            sheet = name.strip("'").replace("''", "'")
        parts.append(cell)
    if len(parts) == 2 and parts[0] == parts[1]:
        parts = parts[:1]
    return sheet, ":".join(parts)


def _qualified(address: str) -> str:
    """ODF addresses (several, space-separated) as "Sheet!A1:B5" joined by spaces."""
    shown = []
    # A quoted sheet name may hold spaces ("'Pivot Table_Data_1'.A1"): split outside quotes.
    for one in re.findall(r"(?:'[^']*'|[^\s'])+", address):
        sheet, cells_ = odf_range(one)
        shown.append(f"{sheet}!{cells_}" if sheet else cells_)
    return " ".join(shown)


def _references(formula: str) -> str:
    """An ODF expression with its references in A1 form, case and spaces kept:
    ``[.A2]>[.B2]`` is ``A2>B2``, ``[$Data.A1]`` is ``Data!A1``."""

    def one(match: re.Match[str]) -> str:
        sheet, cells_ = odf_range(match.group(1))
        return f"{sheet}!{cells_}" if sheet else cells_

    return re.sub(r"\[([^\]]*)\]", one, re.sub(r"^[a-z]+:=?", "", formula.strip()))


_CHART_KINDS = {
    "bar": "column",
    "line": "line",
    "circle": "pie",
    "ring": "donut",
    "area": "area",
    "scatter": "scatter",
    "radar": "radar",
    "filled-radar": "radar",
    "bubble": "bubble",
    "stock": "stock",
}


def _chart(document: Any, frame: Any, anchor: str) -> Chart | None:
    """The chart a draw:frame shows, ``None`` when it holds something else."""
    objects = _walk(frame, "DRAWNS", ("object",))
    if not objects:
        return None
    href = _attr(objects[0], "XLINKNS", "href").removeprefix("./").strip("/")
    sub = next((c for c in document.childobjects if c.folder.strip("/") == href), None)
    if sub is None or "chart" not in str(sub.mimetype):
        return None
    charts = _walk(sub.topnode, "CHARTNS", ("chart",))
    if not charts:
        return None
    chart = charts[0]
    kind = _CHART_KINDS.get(_attr(chart, "CHARTNS", "class").removeprefix("chart:"), "")
    if kind == "column" and _vertical(sub, chart):
        kind = "bar"
    titles = [t for t in chart.childNodes if _is(t, "CHARTNS", "title")]
    ranges = [
        _qualified(_attr(s, "CHARTNS", "values-cell-range-address"))
        for s in _walk(chart, "CHARTNS", ("series",))
    ]
    categories = [
        _qualified(
            _attr(c, "CHARTNS", "cell-range-address") or _attr(c, "TABLENS", "cell-range-address")
        )
        for c in _walk(chart, "CHARTNS", ("categories",))
    ]
    return Chart(
        kind or _attr(chart, "CHARTNS", "class"),
        _lines(titles[0]) if titles else "",
        tuple(r for r in ranges if r),
        anchor,
        _series_names(chart),
        next((c for c in categories if c), ""),
    )


def _vertical(sub: Any, chart: Any) -> bool:
    """Whether a bar chart's bars lie (chart:vertical on its plot area's style)."""
    areas = _walk(chart, "CHARTNS", ("plot-area",))
    if not areas:
        return False
    style = _attr(areas[0], "CHARTNS", "style-name")
    for element in _walk(sub.automaticstyles, "STYLENS", ("style",)):
        if _attr(element, "STYLENS", "name") == style:
            for props in _walk(element, "STYLENS", ("chart-properties",)):
                return _attr(props, "CHARTNS", "vertical") == "true"
    return False


def _series_names(chart: Any) -> tuple[str, ...]:
    """The series' names from the chart's cached data table (its header row, less the
    first cell, which heads the categories)."""
    headers = _walk(chart, "TABLENS", ("table-header-rows",))
    if not headers:
        return ()
    rows = _walk(headers[0], "TABLENS", ("table-row",))
    if not rows:
        return ()
    cells_ = [_lines(c) for c in _walk(rows[0], "TABLENS", ("table-cell",))]
    return tuple(c for c in cells_[1:] if c)


def _tables(holder: Any) -> tuple[Table, ...]:
    found = []
    for table in _walk(holder, "TABLENS", ("table",)):
        rows = []
        for row in _walk(table, "TABLENS", ("table-row",), skip=(("TABLENS", "table"),)):
            cells_ = [_lines(c) for c in row.childNodes if _is(c, "TABLENS", "table-cell")]
            rows.append(tuple(cells_))
        found.append(Table(tuple(rows), _attr(table, "TABLENS", "name")))
    return tuple(found)
