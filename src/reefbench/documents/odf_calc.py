"""Spreadsheets (``.ods``) through odfpy: cells with value, text, formula and format;
merged ranges; frozen panes (settings.xml's view items, which Calc writes only when it
saves from a window: a headless conversion writes none); filter and sort (the sheet's
database range); conditional formats (LibreOffice's calcext rules); charts; data pilots.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from reefbench.documents.model import (
    Cell,
    ConditionalFormat,
    FilterCondition,
    PivotTable,
    Sheet,
    SortKey,
    Spreadsheet,
)
from reefbench.documents.normal import column_letters, normalise_formula
from reefbench.documents.odf_xml import (
    CALCEXT,
    _attr,
    _chart,
    _decode,
    _generator,
    _is,
    _load,
    _look,
    _plain,
    _qualified,
    _references,
    _styles_by_name,
    _text,
    _walk,
    odf_range,
)

_DATE_PARTS = {
    "year": ("YY", "YYYY"),
    "month": ("M", "MM"),
    "day": ("D", "DD"),
    "day-of-week": ("NN", "NNN"),
    "hours": ("H", "HH"),
    "minutes": ("M", "MM"),
    "seconds": ("S", "SS"),
}


def _format_code(number_style: Any) -> str:
    """Calc's format code for a number:*-style element ("#,##0.00", "YYYY-MM-DD")."""
    code = []
    for part in number_style.childNodes:
        if getattr(part, "qname", None) is None:
            continue
        name = part.qname[1]
        long = _attr(part, "NUMBERNS", "style") == "long"
        if name in ("number", "scientific-number"):
            decimals = int(_attr(part, "NUMBERNS", "decimal-places") or 0)
            integer = "#,##0" if _attr(part, "NUMBERNS", "grouping") == "true" else "0"
            code.append(integer + ("." + "0" * decimals if decimals else ""))
            if name == "scientific-number":
                code.append("E+00")
        elif name == "month" and _attr(part, "NUMBERNS", "textual") == "true":
            code.append("MMMM" if long else "MMM")
        elif name in _DATE_PARTS:
            code.append(_DATE_PARTS[name][long])
        elif name == "am-pm":
            code.append("AM/PM")
        elif name == "fraction":
            code.append("# ?/?")
        elif name == "boolean":
            code.append("BOOLEAN")
        elif name == "text-content":
            code.append("@")
        elif name in ("text", "currency-symbol"):
            code.append(_text(part))
    return "".join(code)


def _number_formats(document: Any) -> dict[str, str]:
    """Cell style name -> the format code of its data style."""
    data_styles: dict[str, str] = {}
    kinds = (
        "number-style",
        "currency-style",
        "percentage-style",
        "date-style",
        "time-style",
        "boolean-style",
        "text-style",
    )
    for holder in (document.styles, document.automaticstyles):
        for element in _walk(holder, "NUMBERNS", kinds):
            data_styles[_attr(element, "STYLENS", "name")] = _format_code(element)
    found = {}
    for name, style in _styles_by_name(document).items():
        data = _attr(style, "STYLENS", "data-style-name")
        if data in data_styles:
            found[name] = data_styles[data]
    return found


def _cell(element: Any, formats: dict[str, str], column_style: str) -> Cell | None:
    """What one table:table-cell holds, ``None`` when it is empty."""
    text = "\n".join(_plain(p) for p in element.childNodes if _is(p, "TEXTNS", "p", "h"))
    formula = _attr(element, "TABLENS", "formula")
    kind = _attr(element, "OFFICENS", "value-type")
    if not (text or formula or kind):
        return None
    value: float | None = None
    date = ""
    if kind in ("float", "percentage", "currency"):
        raw = _attr(element, "OFFICENS", "value")
        value = float(raw) if raw else None
    elif kind == "boolean":
        value = 1.0 if _attr(element, "OFFICENS", "boolean-value") == "true" else 0.0
    elif kind == "date":
        date = _attr(element, "OFFICENS", "date-value")
    elif kind == "time":
        value = _duration_days(_attr(element, "OFFICENS", "time-value"))
    style = _attr(element, "TABLENS", "style-name") or column_style
    return Cell(
        value,
        text,
        normalise_formula(formula) if formula else "",
        formats.get(style, ""),
        kind,
        date,
    )


def _duration_days(value: str) -> float | None:
    """``PT12H30M00S`` as a fraction of a day (Calc's value of a time)."""
    match = re.fullmatch(r"-?P(?:\d+D)?T(\d+)H(\d+)M([\d.]+)S", value)
    if not match:
        return None
    hours, minutes, seconds = (float(g) for g in match.groups())
    return (hours * 3600 + minutes * 60 + seconds) / 86400


def _column_styles(table: Any) -> list[str]:
    """The default cell style of each column (up to the last one that has one)."""
    styles: list[str] = []
    for column in _walk(table, "TABLENS", ("table-column",)):
        repeat = int(_attr(column, "TABLENS", "number-columns-repeated") or 1)
        style = _attr(column, "TABLENS", "default-cell-style-name")
        styles.extend([style] * min(repeat, 1024))
    return styles


# Calc compresses identical rows into one repeated row; a repeated row with content is
# expanded, up to this many copies (a whole column of one value stays readable).
_MAX_REPEAT = 100_000


class _Grid:
    """One pass over a sheet's rows: its cells, merged ranges and what is anchored in them."""

    def __init__(self, table: Any, formats: dict[str, str]) -> None:
        self.cells: dict[str, Cell] = {}
        self.merged: list[str] = []
        self.anchored: list[tuple[str, Any]] = []  # (address, draw:frame)
        columns = _column_styles(table)
        row = 0
        rows = _walk(table, "TABLENS", ("table-row",), skip=(("TABLENS", "table-cell"),))
        for table_row in rows:
            repeat = int(_attr(table_row, "TABLENS", "number-rows-repeated") or 1)
            filled = self._row(table_row, row, formats, columns)
            for copy in range(1, min(repeat, _MAX_REPEAT) if filled else 1):
                for address, cell in filled:
                    self.cells[re.sub(r"\d+$", str(row + 1 + copy), address)] = cell
            row += repeat

    def _row(
        self, table_row: Any, row: int, formats: dict[str, str], columns: list[str]
    ) -> list[tuple[str, Cell]]:
        filled = []
        column = 0
        for element in table_row.childNodes:
            if not _is(element, "TABLENS", "table-cell", "covered-table-cell"):
                continue
            repeat = int(_attr(element, "TABLENS", "number-columns-repeated") or 1)
            address = f"{column_letters(column)}{row + 1}"
            self._spans(element, column, row)
            for frame in _walk(element, "DRAWNS", ("frame",)):
                self.anchored.append((address, frame))
            style = columns[column] if column < len(columns) else ""
            cell = _cell(element, formats, style)
            if cell is not None:
                for offset in range(repeat):
                    here = f"{column_letters(column + offset)}{row + 1}"
                    self.cells[here] = cell
                    filled.append((here, cell))
            column += repeat
        return filled

    def _spans(self, element: Any, column: int, row: int) -> None:
        across = int(_attr(element, "TABLENS", "number-columns-spanned") or 1)
        down = int(_attr(element, "TABLENS", "number-rows-spanned") or 1)
        if across > 1 or down > 1:
            start = f"{column_letters(column)}{row + 1}"
            self.merged.append(f"{start}:{column_letters(column + across - 1)}{row + down}")


def _frozen(document: Any) -> dict[str, str]:
    """Sheet name -> the first unfrozen cell, from settings.xml's per-sheet view items."""
    found: dict[str, str] = {}
    if document.settings is None:
        return found
    for named in _walk(document.settings, "CONFIGNS", ("config-item-map-named",)):
        if _attr(named, "CONFIGNS", "name") != "Tables":
            continue
        for entry in _walk(named, "CONFIGNS", ("config-item-map-entry",)):
            items = {
                _attr(i, "CONFIGNS", "name"): _text(i)
                for i in _walk(entry, "CONFIGNS", ("config-item",))
            }
            columns = int(items.get("HorizontalSplitPosition") or 0)
            rows = int(items.get("VerticalSplitPosition") or 0)
            horizontal = items.get("HorizontalSplitMode") == "2" and columns
            vertical = items.get("VerticalSplitMode") == "2" and rows
            if horizontal or vertical:
                shown = f"{column_letters(columns if horizontal else 0)}"
                found[_attr(entry, "CONFIGNS", "name")] = f"{shown}{(rows if vertical else 0) + 1}"
    return found


_FILTER_OPERATORS = {
    "=": "=",
    "!=": "!=",
    "<": "<",
    "<=": "<=",
    ">": ">",
    ">=": ">=",
    "contains": "contains",
    "!contains": "!contains",
    "begins": "begins",
    "ends": "ends",
    "top values": "top",
    "bottom values": "bottom",
}


def _database_ranges(document: Any) -> dict[str, dict[str, Any]]:
    """Sheet name -> {"autofilter", "filters", "sort"} from its database ranges."""
    found: dict[str, dict[str, Any]] = {}
    for db in _walk(document.spreadsheet, "TABLENS", ("database-range",)):
        sheet, cells_ = odf_range(_attr(db, "TABLENS", "target-range-address"))
        first = re.match(r"[A-Z]+", cells_)
        start = _column_index(first.group(0)) if first else 0
        entry = found.setdefault(sheet, {"autofilter": "", "filters": (), "sort": ()})
        if _attr(db, "TABLENS", "display-filter-buttons") == "true":
            entry["autofilter"] = cells_
        conditions = []
        for condition in _walk(db, "TABLENS", ("filter-condition",)):
            column = column_letters(start + int(_attr(condition, "TABLENS", "field-number")))
            items = [
                _attr(i, "TABLENS", "value")
                for i in _walk(condition, "TABLENS", ("filter-set-item",))
            ]
            operator = _attr(condition, "TABLENS", "operator")
            operator = "in" if len(items) > 1 else _FILTER_OPERATORS.get(operator, operator)
            values = tuple(items) if len(items) > 1 else (_attr(condition, "TABLENS", "value"),)
            conditions.append(FilterCondition(column, operator, values))
        if conditions:
            entry["filters"] = tuple(conditions)
        keys = [
            SortKey(
                column_letters(start + int(_attr(by, "TABLENS", "field-number"))),
                _attr(by, "TABLENS", "order") != "descending",
            )
            for by in _walk(db, "TABLENS", ("sort-by",))
        ]
        if keys:
            entry["sort"] = tuple(keys)
    return found


def _column_index(letters: str) -> int:
    index = 0
    for letter in letters:
        index = index * 26 + ord(letter) - ord("A") + 1
    return index - 1


_CONDITIONS = (
    (r"cell-content\(\)\s*(<=|>=|!=|<|>|=)\s*(.+)", "cell-is"),  # style:map's form
    (r"(<=|>=|!=|<|>|=)\s*(.+)", "cell-is"),  # calcext's form
    (r"(not-between|between)\((.+)\)", "cell-is"),
    (r"is-true-formula\((.+)\)", "formula"),
    (r"formula-is\((.+)\)", "formula"),
    (r"top-elements\((.+)\)", "top"),
    (r"bottom-elements\((.+)\)", "bottom"),
    (r"contains-text\((.+)\)", "contains-text"),
)


def _condition(value: str) -> tuple[str, str, tuple[str, ...]]:
    """A calcext:condition's value as (kind, operator, operands)."""
    for pattern, kind in _CONDITIONS:
        match = re.fullmatch(pattern, value.strip())
        if not match:
            continue
        if kind == "cell-is" and match.group(1) in ("between", "not-between"):
            operands = tuple(_references(a) for a in _split_arguments(match.group(2)))
            return kind, match.group(1), operands
        if kind == "cell-is":
            return kind, match.group(1), (_references(match.group(2)),)
        return kind, "", (_references(match.group(1)),)
    word = re.sub(r"\(.*", "", value.strip())
    return word, "", ()


def _split_arguments(text: str) -> list[str]:
    """Top-level comma- or semicolon-separated arguments (not inside brackets or quotes)."""
    parts, depth, current, quoted = [], 0, "", False
    for char in text:
        if char == '"':
            quoted = not quoted
        elif not quoted and char in "([":
            depth += 1
        elif not quoted and char in ")]":
            depth -= 1
        elif not quoted and depth == 0 and char in ",;":
            parts.append(current)
            current = ""
            continue
        current += char
    return [*parts, current]


_SCALES = {"color-scale": "color-scale", "data-bar": "data-bar", "icon-set": "icon-set"}


def _conditional_formats(table: Any, styles: dict[str, Any]) -> tuple[ConditionalFormat, ...]:
    """The calcext:conditional-format rules of one sheet (LibreOffice's own form)."""
    rules = []
    for block in _walk(table, CALCEXT, ("conditional-format",)):
        where = _qualified(_attr(block, CALCEXT, "target-range-address"))
        where = " ".join(r.split("!")[-1] for r in where.split())
        for rule in block.childNodes:
            name = getattr(rule, "qname", ("", ""))[1]
            if name in _SCALES:
                rules.append(ConditionalFormat(where, _SCALES[name]))
            elif name in ("condition", "date-is"):
                style = _attr(rule, CALCEXT, "apply-style-name")
                if name == "date-is":
                    kind, operator = "date-is", _attr(rule, CALCEXT, "date")
                    operands: tuple[str, ...] = ()
                else:
                    kind, operator, operands = _condition(_attr(rule, CALCEXT, "value"))
                look = _look(styles, style)
                rules.append(
                    ConditionalFormat(where, kind, operator, operands, _decode(style), look)
                )
    return tuple(rules)


def _pivots(document: Any) -> list[PivotTable]:
    found = []
    for pilot in _walk(document.spreadsheet, "TABLENS", ("data-pilot-table",)):
        sources = _walk(pilot, "TABLENS", ("source-cell-range",))
        source = _qualified(_attr(sources[0], "TABLENS", "cell-range-address")) if sources else ""
        fields: dict[str, list[Any]] = {}
        for element in _walk(pilot, "TABLENS", ("data-pilot-field",)):
            if _attr(element, "TABLENS", "is-data-layout-field") == "true":
                continue
            orientation = _attr(element, "TABLENS", "orientation")
            name = _attr(element, "TABLENS", "source-field-name")
            if orientation == "data":
                function = _attr(element, "TABLENS", "function").lower()
                fields.setdefault("data", []).append((name, function.removeprefix("of:")))
            else:
                fields.setdefault(orientation, []).append(name)
        found.append(
            PivotTable(
                _attr(pilot, "TABLENS", "name"),
                source,
                _qualified(_attr(pilot, "TABLENS", "target-range-address")),
                tuple(fields.get("row", ())),
                tuple(fields.get("column", ())),
                tuple(fields.get("data", ())),
                tuple(fields.get("page", ())),
            )
        )
    return found


def _hidden(table: Any, styles: dict[str, Any]) -> bool:
    style = styles.get(_attr(table, "TABLENS", "style-name"))
    if style is None:
        return False
    props = _walk(style, "STYLENS", ("table-properties",))
    return bool(props) and _attr(props[0], "TABLENS", "display") == "false"


def read_spreadsheet(path: Path) -> Spreadsheet:
    """Every sheet of a spreadsheet (``.ods``) with its cells, merged ranges, frozen panes,
    filter and sort (from its database range), conditional formats, charts and the pivot
    tables whose output is on it."""
    document = _load(path, "spreadsheet")
    formats = _number_formats(document)
    styles = _styles_by_name(document)
    frozen = _frozen(document)
    databases = _database_ranges(document)
    pivots = _pivots(document)
    sheets = []
    for table in _walk(document.spreadsheet, "TABLENS", ("table",)):
        name = _attr(table, "TABLENS", "name")
        grid = _Grid(table, formats)
        charts = [_chart(document, frame, where) for where, frame in grid.anchored]
        for shapes in _walk(table, "TABLENS", ("shapes",)):
            charts.extend(_chart(document, f, "") for f in _walk(shapes, "DRAWNS", ("frame",)))
        database = databases.get(name, {})
        sheets.append(
            Sheet(
                name=name,
                cells=grid.cells,
                merged=tuple(grid.merged),
                frozen=frozen.get(name, ""),
                autofilter=database.get("autofilter", ""),
                filters=database.get("filters", ()),
                sort=database.get("sort", ()),
                conditional_formats=_conditional_formats(table, styles),
                charts=tuple(c for c in charts if c is not None),
                pivots=tuple(p for p in pivots if p.target.split("!")[0] == name),
                hidden=_hidden(table, styles),
            )
        )
    return Spreadsheet(tuple(sheets), _generator(document))
