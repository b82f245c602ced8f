"""Excel workbooks (``.xlsx``), read through openpyxl.

What the format cannot give: a cell's shown text (the file stores the value and the
format code, not the rendering; ``Cell.text`` is the value as text), a formula's result
when the saving program stored none, and a pivot table's target beyond its location
range. Conditional formats name no cell style: ``style`` and ``look`` both describe the
differential format ("fill #ffc7ce, font #9c0006, bold"). openpyxl is imported when a
workbook is read.
"""

from __future__ import annotations

import datetime
import io
import re
from pathlib import Path
from typing import Any

from reefbench.documents.model import (
    Cell,
    Chart,
    ConditionalFormat,
    FilterCondition,
    PivotTable,
    Sheet,
    SortKey,
    Spreadsheet,
)
from reefbench.documents.normal import column_letters, describe_look, normalise_formula


def read(path: Path) -> Spreadsheet:
    """Every sheet of the workbook, with what :class:`Sheet` has a field for."""
    import openpyxl  # type: ignore[import-untyped]

    content = path.read_bytes()  # openpyxl refuses a name without an Excel suffix
    formulas = openpyxl.load_workbook(io.BytesIO(content), data_only=False)
    values = openpyxl.load_workbook(io.BytesIO(content), data_only=True)
    sheets = tuple(_sheet(formulas[name], values[name]) for name in formulas.sheetnames)
    creator = formulas.properties.creator or ""
    application = _application(path)
    return Spreadsheet(sheets, application or str(creator))


def _application(path: Path) -> str:
    """docProps/app.xml's Application ("LibreOffice/7.4.7.2$Linux_X86_64 ...")."""
    import zipfile

    with zipfile.ZipFile(path) as package:
        try:
            text = package.read("docProps/app.xml").decode("utf-8", "replace")
        except KeyError:
            return ""
    match = re.search(r"<Application>([^<]*)</Application>", text)
    return match.group(1) if match else ""


def _sheet(ws: Any, cached: Any) -> Sheet:
    start = _start_column(ws.auto_filter.ref)
    return Sheet(
        name=ws.title,
        cells=_cells(ws, cached),
        merged=tuple(str(r) for r in ws.merged_cells.ranges),
        frozen=_frozen(ws),
        autofilter=_plain_range(ws.auto_filter.ref or ""),
        filters=_filters(ws.auto_filter, start),
        sort=_sort(ws),
        conditional_formats=_conditional_formats(ws),
        charts=tuple(_chart(c) for c in getattr(ws, "_charts", [])),
        pivots=tuple(_pivot(p, ws.title) for p in getattr(ws, "_pivots", [])),
        hidden=ws.sheet_state != "visible",
    )


def _cells(ws: Any, cached: Any) -> dict[str, Cell]:
    found = {}
    for row in ws.iter_rows():
        for cell in row:
            if cell.value is None or cell.__class__.__name__ == "MergedCell":
                continue
            found[cell.coordinate] = _cell(cell, cached[cell.coordinate].value)
    return found


def _cell(cell: Any, result: Any) -> Cell:
    """One cell: its formula (if any) and its value (the cached result of a formula)."""
    raw = cell.value
    formula = ""
    if hasattr(raw, "text"):  # an array formula
        formula = normalise_formula(str(raw.text))
    elif isinstance(raw, str) and raw.startswith("=") and cell.data_type == "f":
        formula = normalise_formula(raw)
    value = result if formula else raw
    fmt = number_format(str(cell.number_format))
    if isinstance(value, bool):
        return Cell(float(value), str(value).upper(), formula, fmt, "boolean")
    if isinstance(value, int | float):
        return Cell(float(value), _number_text(value), formula, fmt, _number_kind(fmt))
    if isinstance(value, datetime.datetime | datetime.date):
        iso = value.isoformat()
        if isinstance(value, datetime.datetime) and value.time() == datetime.time():
            iso = value.date().isoformat()
        return Cell(None, iso, formula, fmt, "date", iso)
    if isinstance(value, datetime.time):
        seconds = value.hour * 3600 + value.minute * 60 + value.second
        return Cell(seconds / 86400, value.isoformat(), formula, fmt, "time")
    if value is None:
        return Cell(None, "", formula, fmt, "")
    return Cell(None, str(value), formula, fmt, "string")


def number_format(code: str) -> str:
    """An Excel format code as Calc shows it: ``yyyy\\-mm\\-dd`` is "YYYY-MM-DD" (Calc
    writes date codes in capitals and needs no escapes), "General" is ``""``."""
    if code == "General":
        return ""
    plain = re.sub(r"\\(.)", r"\1", code)
    outside = re.sub(r'"[^"]*"|\[[^\]]*\]', "", plain)
    if re.search(r"[ydhs]", outside, re.IGNORECASE) and not re.search(r"[0#]", outside):
        return re.sub(
            r'("[^"]*"|\[[^\]]*\])|([a-zA-Z]+)',
            lambda m: m.group(1) or m.group(2).upper(),
            plain,
        )
    return plain


def _number_text(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def _number_kind(fmt: str) -> str:
    if "%" in fmt:
        return "percentage"
    if re.search(r"\[\$|[€$£¥]", fmt):
        return "currency"
    return "float"


def _plain_range(ref: str) -> str:
    return ref.replace("$", "")


def _start_column(ref: str | None) -> int:
    match = re.match(r"\$?([A-Z]+)", ref or "")
    if not match:
        return 0
    index = 0
    for letter in match.group(1):
        index = index * 26 + ord(letter) - ord("A") + 1
    return index - 1


def _frozen(ws: Any) -> str:
    pane = ws.sheet_view.pane
    if pane is None or pane.state not in ("frozen", "frozenSplit"):
        return ""
    return str(pane.topLeftCell or "")


_OPERATORS = {
    "equal": "=",
    "notEqual": "!=",
    "lessThan": "<",
    "lessThanOrEqual": "<=",
    "greaterThan": ">",
    "greaterThanOrEqual": ">=",
    "between": "between",
    "notBetween": "not-between",
}


def _filters(auto_filter: Any, start: int) -> tuple[FilterCondition, ...]:
    found = []
    for column in auto_filter.filterColumn:
        letter = column_letters(start + int(column.colId))
        if column.filters is not None:
            values = tuple(str(f) for f in column.filters.filter)
            found.append(FilterCondition(letter, "in" if len(values) > 1 else "=", values))
        if column.customFilters is not None:
            for custom in column.customFilters.customFilter:
                operator = _OPERATORS.get(custom.operator or "equal", str(custom.operator))
                found.append(FilterCondition(letter, operator, (str(custom.val),)))
        if column.top10 is not None:
            word = "bottom" if column.top10.top is False else "top"
            found.append(FilterCondition(letter, word, (_number_text(column.top10.val),)))
    return tuple(found)


def _sort(ws: Any) -> tuple[SortKey, ...]:
    state = ws.auto_filter.sortState or getattr(ws, "sort_state", None)
    if state is None or not state.sortCondition:
        return ()
    return tuple(
        SortKey(re.sub(r"[^A-Z].*", "", str(c.ref).lstrip("$")), not c.descending)
        for c in state.sortCondition
    )


_KINDS = {
    "cellIs": "cell-is",
    "expression": "formula",
    "colorScale": "color-scale",
    "dataBar": "data-bar",
    "iconSet": "icon-set",
    "duplicateValues": "duplicate",
    "uniqueValues": "unique",
    "containsText": "contains-text",
}


def _conditional_formats(ws: Any) -> tuple[ConditionalFormat, ...]:
    found = []
    for block in ws.conditional_formatting:
        where = _plain_range(str(block.sqref))
        for rule in block.rules:
            kind = _KINDS.get(rule.type, rule.type)
            if rule.type == "top10":
                kind = "bottom" if rule.bottom else "top"
            operator = _OPERATORS.get(rule.operator or "", rule.operator or "")
            look = _dxf_look(rule.dxf)
            formulas = tuple(str(f) for f in (rule.formula or ()))
            found.append(ConditionalFormat(where, kind, operator, formulas, look, look))
    return tuple(found)


def _dxf_look(dxf: Any) -> str:
    if dxf is None:
        return ""
    fill = ""
    if dxf.fill is not None:
        for color in (dxf.fill.bgColor, dxf.fill.fgColor):
            if color is not None and isinstance(color.rgb, str) and color.rgb != "00000000":
                fill = color.rgb
                break
    font = ""
    bold = False
    if dxf.font is not None:
        if dxf.font.color is not None and isinstance(dxf.font.color.rgb, str):
            font = dxf.font.color.rgb
        bold = bool(dxf.font.b)
    return describe_look(fill, font, bold)


_CHARTS = {
    "LineChart": "line",
    "LineChart3D": "line",
    "PieChart": "pie",
    "PieChart3D": "pie",
    "DoughnutChart": "donut",
    "AreaChart": "area",
    "AreaChart3D": "area",
    "ScatterChart": "scatter",
    "RadarChart": "radar",
    "BubbleChart": "bubble",
    "StockChart": "stock",
}


def _chart(chart: Any) -> Chart:
    name = chart.__class__.__name__
    kind = _CHARTS.get(name, name)
    if name in ("BarChart", "BarChart3D"):
        kind = "bar" if chart.barDir == "bar" else "column"
    ranges = []
    series = []
    for s in chart.series:
        reference = s.val.numRef.f if s.val is not None and s.val.numRef is not None else ""
        if not reference and s.yVal is not None and s.yVal.numRef is not None:
            reference = s.yVal.numRef.f
        if reference:
            ranges.append(_plain_range(str(reference)).replace("'", ""))
        series.append(_series_name(s))
    return Chart(
        kind,
        rich_text(chart.title),
        tuple(ranges),
        _anchor(chart.anchor),
        tuple(s for s in series if s),
    )


def rich_text(title: Any) -> str:
    """The text of a chart title (openpyxl's Title, or a plain string)."""
    if title is None:
        return ""
    if isinstance(title, str):
        return title
    tx = getattr(title, "tx", None)
    rich = getattr(tx, "rich", None)
    if rich is None:
        return ""
    lines = []
    for paragraph in rich.p:
        lines.append("".join(str(run.t) for run in (paragraph.r or [])))
    return "\n".join(lines)


def _series_name(series: Any) -> str:
    tx = series.tx
    if tx is None:
        return ""
    if tx.v:
        return str(tx.v)
    cache = tx.strRef.strCache if tx.strRef is not None else None
    if cache is not None and cache.pt:
        return str(cache.pt[0].v)
    return ""


def _anchor(anchor: Any) -> str:
    start = getattr(anchor, "_from", None)
    if start is None:
        return str(anchor) if isinstance(anchor, str) else ""
    return f"{column_letters(int(start.col))}{int(start.row) + 1}"


def _pivot(pivot: Any, sheet: str) -> PivotTable:
    cache = pivot.cache
    names = [f.name for f in cache.cacheFields]
    source = cache.cacheSource.worksheetSource
    where = ""
    if source is not None:
        where = _plain_range(str(source.ref or source.name or ""))
        where = f"{source.sheet}!{where}" if source.sheet else where

    def fields(items: Any) -> tuple[str, ...]:
        return tuple(names[f.x] for f in (items or ()) if 0 <= f.x < len(names))

    data = tuple((names[d.fld], str(d.subtotal or "sum").lower()) for d in (pivot.dataFields or ()))
    pages = tuple(names[p.fld] for p in (pivot.pageFields or ()))
    return PivotTable(
        str(pivot.name),
        where,
        f"{sheet}!{_plain_range(str(pivot.location.ref))}",
        fields(pivot.rowFields),
        fields(pivot.colFields),
        data,
        pages,
    )
