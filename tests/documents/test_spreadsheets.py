"""Spreadsheets read alike from ``.ods`` and ``.xlsx``: a workbook built with odfpy (cells
with formats and a formula, a merged range, frozen panes, a filtered and sorted database
range, a conditional format, a bar chart anchored in a cell, a data pilot) is re-saved and
exported by real LibreOffice, and each reader must find every feature in what LibreOffice
wrote. openpyxl builds what the export does not test (a chart on its own, a rule of
another kind)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("odf")
pytest.importorskip("openpyxl")

from odf import chart, config, draw, number, style, table, text
from odf.element import Element
from odf.namespaces import nsdict
from odf.opendocument import OpenDocumentChart, OpenDocumentSpreadsheet

from reefbench.documents import Spreadsheet, read_spreadsheet
from reefbench.documents.odf_xml import CALCEXT

Convert = Callable[[list[Path], str], list[Path]]

ROWS = [
    ("North", "Tea", 120.5, "2024-03-05"),
    ("South", "Tea", 80.0, "2024-03-06"),
    ("North", "Coffee", 99.25, "2024-03-07"),
    ("South", "Coffee", 150.0, "2024-03-08"),
    ("East", "Tea", 60.0, "2024-03-09"),
]


nsdict.setdefault(CALCEXT, "calcext")


def _calcext(name: str, **attributes: str) -> Element:
    return Element(
        qname=(CALCEXT, name),
        qattributes={(CALCEXT, k.replace("_", "-")): v for k, v in attributes.items()},
        check_grammar=False,
    )


def _styles(doc: OpenDocumentSpreadsheet) -> None:
    """A number format "#,##0.00", a date format "YYYY-MM-DD" and a named cell style
    "Bad" (red fill, dark red bold font) for the conditional format."""
    money = number.NumberStyle(name="N1")
    money.addElement(number.Number(decimalplaces=2, minintegerdigits=1, grouping="true"))
    doc.automaticstyles.addElement(money)
    day = number.DateStyle(name="N2")
    for part in (number.Year(style="long"), "-", number.Month(style="long"), "-"):
        day.addElement(number.Text(text=part) if isinstance(part, str) else part)
    day.addElement(number.Day(style="long"))
    doc.automaticstyles.addElement(day)
    doc.automaticstyles.addElement(style.Style(name="ce1", family="table-cell", datastylename="N1"))
    doc.automaticstyles.addElement(style.Style(name="ce2", family="table-cell", datastylename="N2"))
    bad = style.Style(name="Bad", family="table-cell", parentstylename="Default")
    bad.addElement(style.TableCellProperties(backgroundcolor="#ffc7ce"))
    bad.addElement(style.TextProperties(color="#9c0006", fontweight="bold"))
    doc.styles.addElement(style.Style(name="Default", family="table-cell"))
    doc.styles.addElement(bad)


def _cell(value: Any, **extra: Any) -> table.TableCell:
    if isinstance(value, float):
        cell = table.TableCell(valuetype="float", value=value, stylename="ce1", **extra)
        cell.addElement(text.P(text=f"{value:,.2f}"))
    elif value.startswith("2024-"):
        cell = table.TableCell(valuetype="date", datevalue=value, stylename="ce2")
        cell.addElement(text.P(text=value))
    else:
        cell = table.TableCell(valuetype="string")
        cell.addElement(text.P(text=value))
    return cell


def _data_sheet(doc: OpenDocumentSpreadsheet) -> table.Table:
    sheet = table.Table(name="Data")
    header = table.TableRow()
    for name in ("Region", "Product", "Amount", "Date"):
        header.addElement(_cell(name))
    sheet.addElement(header)
    for row in ROWS:
        table_row = table.TableRow()
        for value in row:
            table_row.addElement(_cell(value))
        sheet.addElement(table_row)
    total = table.TableRow()
    label = table.TableCell(valuetype="string", numbercolumnsspanned=2)
    label.addElement(text.P(text="Total"))
    total.addElement(label)
    total.addElement(table.CoveredTableCell())
    total.addElement(_cell(509.75, formula="of:=SUM([.C2:.C6])"))
    chart_cell = table.TableCell()
    chart_cell.addElement(_chart_frame(doc))
    total.addElement(chart_cell)
    sheet.addElement(total)
    formats = _calcext("conditional-formats")
    block = _calcext("conditional-format", target_range_address="Data.C2:Data.C6")
    block.addElement(
        _calcext("condition", apply_style_name="Bad", value=">100", base_cell_address="Data.C2"),
        check_grammar=False,
    )
    formats.addElement(block, check_grammar=False)
    sheet.addElement(formats, check_grammar=False)
    return sheet


def _chart_frame(doc: OpenDocumentSpreadsheet) -> draw.Frame:
    """A horizontal bar chart of the amounts, titled "Sales", anchored in D7."""
    sub = OpenDocumentChart()
    horizontal = style.Style(name="pa", family="chart")
    horizontal.addElement(style.ChartProperties(vertical="true"))
    sub.automaticstyles.addElement(horizontal)
    body = chart.Chart(attributes={"class": "chart:bar"}, width="8cm", height="6cm")
    title = chart.Title()
    title.addElement(text.P(text="Sales"))
    body.addElement(title)
    area = chart.PlotArea(stylename="pa", cellrangeaddress="Data.C1:Data.C6")
    area.addElement(chart.Axis(dimension="x", name="primary-x"))
    area.addElement(chart.Axis(dimension="y", name="primary-y"))
    area.addElement(
        chart.Series(
            valuescellrangeaddress="Data.C2:Data.C6",
            labelcelladdress="Data.C1",
            attributes={"class": "chart:bar"},
        )
    )
    body.addElement(area)
    sub.chart.addElement(body)
    href = doc.addObject(sub)
    frame = draw.Frame(width="8cm", height="6cm", x="0cm", y="0cm", endcelladdress="Data.H20")
    frame.addElement(draw.Object(href=href, notifyonupdateofranges="Data.C1:Data.C6"))
    return frame


def _database(doc: OpenDocumentSpreadsheet) -> None:
    """The data range with filter buttons, Region = North, sorted by Amount descending;
    a data pilot of the amounts by region on sheet Summary."""
    ranges = table.DatabaseRanges()
    db = table.DatabaseRange(
        name="__Anonymous_Sheet_DB__0",
        targetrangeaddress="Data.A1:Data.D6",
        displayfilterbuttons="true",
    )
    only = table.Filter()
    only.addElement(table.FilterCondition(fieldnumber=0, value="North", operator="="))
    db.addElement(only)
    sort = table.Sort()
    sort.addElement(table.SortBy(fieldnumber=2, datatype="number", order="descending"))
    db.addElement(sort)
    ranges.addElement(db)
    doc.spreadsheet.addElement(ranges)
    pilots = table.DataPilotTables()
    pilot = table.DataPilotTable(
        name="DataPilot1", targetrangeaddress="Summary.A1:Summary.B6", buttons="Summary.A1"
    )
    pilot.addElement(table.SourceCellRange(cellrangeaddress="Data.A1:Data.D6"))
    pilot.addElement(table.DataPilotField(sourcefieldname="Region", orientation="row"))
    pilot.addElement(
        table.DataPilotField(sourcefieldname="Amount", orientation="data", function="sum")
    )
    pilot.addElement(
        table.DataPilotField(sourcefieldname="", orientation="column", isdatalayoutfield="true")
    )
    pilots.addElement(pilot)
    doc.spreadsheet.addElement(pilots)


def _frozen(doc: OpenDocumentSpreadsheet) -> None:
    """Row 1 and column A frozen on sheet Data (settings.xml, as Calc stores it)."""
    view = config.ConfigItemSet(name="ooo:view-settings")
    views = config.ConfigItemMapIndexed(name="Views")
    entry = config.ConfigItemMapEntry()
    item = config.ConfigItem(name="ViewId", type="string")
    item.addText("view1")
    entry.addElement(item)
    tables = config.ConfigItemMapNamed(name="Tables")
    data = config.ConfigItemMapEntry(name="Data")
    for name, value in (
        ("HorizontalSplitMode", "2"),
        ("VerticalSplitMode", "2"),
        ("HorizontalSplitPosition", "1"),
        ("VerticalSplitPosition", "1"),
        ("ActiveSplitRange", "2"),
        ("PositionLeft", "0"),
        ("PositionRight", "1"),
        ("PositionTop", "0"),
        ("PositionBottom", "1"),
    ):
        one = config.ConfigItem(name=name, type="int" if "Position" in name else "short")
        one.addText(value)
        data.addElement(one)
    tables.addElement(data)
    entry.addElement(tables)
    views.addElement(entry)
    view.addElement(views)
    doc.settings.addElement(view)


def _hidden_sheet(doc: OpenDocumentSpreadsheet) -> table.Table:
    """A hidden sheet "Notes" with a percentage (0.0%), a boolean (Calc's BOOLEAN format:
    Calc keeps no boolean without it) and a time (HH:MM)."""
    hidden = style.Style(name="ta2", family="table")
    hidden.addElement(style.TableProperties(display="false"))
    doc.automaticstyles.addElement(hidden)
    share = number.PercentageStyle(name="N3")
    share.addElement(number.Number(decimalplaces=1, minintegerdigits=1))
    share.addElement(number.Text(text="%"))
    clock = number.TimeStyle(name="N4")
    clock.addElement(number.Hours(style="long"))
    clock.addElement(number.Text(text=":"))
    clock.addElement(number.Minutes(style="long"))
    truth = number.BooleanStyle(name="N5")
    truth.addElement(number.Boolean())
    for data in (share, clock, truth):
        doc.automaticstyles.addElement(data)
    for name, data in (("ce3", "N3"), ("ce4", "N4"), ("ce5", "N5")):
        doc.automaticstyles.addElement(
            style.Style(name=name, family="table-cell", datastylename=data)
        )
    sheet = table.Table(name="Notes", stylename="ta2")
    for cell, shown in (
        (table.TableCell(valuetype="percentage", value=0.25, stylename="ce3"), "25.0%"),
        (table.TableCell(valuetype="boolean", booleanvalue="true", stylename="ce5"), "TRUE"),
        (table.TableCell(valuetype="time", timevalue="PT12H30M00S", stylename="ce4"), "12:30"),
    ):
        cell.addElement(text.P(text=shown))
        row = table.TableRow()
        row.addElement(cell)
        sheet.addElement(row)
    return sheet


def build_ods(path: Path) -> Path:
    doc = OpenDocumentSpreadsheet()
    _styles(doc)
    doc.spreadsheet.addElement(_data_sheet(doc))
    summary = table.Table(name="Summary")
    for label, amount in (("Region", "Sum - Amount"), ("East", 60.0), ("North", 219.75)):
        row = table.TableRow()
        row.addElement(_cell(label))
        row.addElement(_cell(amount))
        summary.addElement(row)
    doc.spreadsheet.addElement(summary)
    doc.spreadsheet.addElement(_hidden_sheet(doc))
    _database(doc)
    _frozen(doc)
    doc.save(str(path))
    return path


@pytest.fixture(scope="module")
def workbooks(tmp_path_factory: pytest.TempPathFactory, convert: Convert) -> dict[str, Path]:
    """The odfpy original, LibreOffice's re-save as ``.ods`` and its ``.xlsx`` export."""
    source = build_ods(tmp_path_factory.mktemp("calc") / "sales.ods")
    (ods,) = convert([source], "ods")
    (xlsx,) = convert([source], "xlsx")
    return {"odfpy": source, "ods": ods, "xlsx": xlsx}


FORMATS = ["ods", "xlsx"]


def _read(workbooks: dict[str, Path], fmt: str) -> Spreadsheet:
    return read_spreadsheet(workbooks[fmt])


@pytest.mark.parametrize("fmt", FORMATS)
def test_sheets_cells_values_formulas_and_formats(workbooks: dict[str, Path], fmt: str) -> None:
    book = _read(workbooks, fmt)
    assert [(s.name, s.hidden) for s in book.sheets] == [
        ("Data", False),
        ("Summary", False),
        ("Notes", True),
    ]
    assert "LibreOffice" in book.generator
    cells = book.sheet("Data").cells
    assert cells["A2"].text == "North" and cells["A2"].value is None
    assert cells["C2"].value == 120.5 and cells["C2"].number_format == "#,##0.00"
    assert cells["C7"].formula == "=SUM(C2:C6)" and cells["C7"].value == 509.75
    assert cells["D2"].kind == "date" and cells["D2"].date == "2024-03-05"
    assert cells["D2"].number_format == "YYYY-MM-DD"
    assert book.sheet("Data").merged == ("A7:B7",)
    notes = book.sheet("Notes").cells
    assert (notes["A1"].kind, notes["A1"].value, notes["A1"].number_format) == (
        "percentage",
        0.25,
        "0.0%",
    )
    assert (notes["A2"].kind, notes["A2"].value) == ("boolean", 1.0)
    assert (notes["A3"].kind, notes["A3"].number_format) == ("time", "HH:MM")
    assert notes["A3"].value == pytest.approx(12.5 / 24)


def test_frozen_panes_as_calc_stores_them(workbooks: dict[str, Path]) -> None:
    """Calc keeps frozen panes in the view settings, which a headless conversion (no view)
    does not write: the odfpy file holds them as Calc's GUI saves them."""
    book = read_spreadsheet(workbooks["odfpy"])
    assert (book.sheet("Data").frozen, book.sheet("Summary").frozen) == ("B2", "")


@pytest.mark.parametrize("fmt", FORMATS)
def test_autofilter_and_sort(workbooks: dict[str, Path], fmt: str) -> None:
    """LibreOffice 7.4 writes no sortState into an xlsx: there the sort is not stored."""
    sheet = _read(workbooks, fmt).sheet("Data")
    assert sheet.autofilter == "A1:D6"
    assert [(f.column, f.operator, f.values) for f in sheet.filters] == [("A", "=", ("North",))]
    sort = [(k.column, k.ascending) for k in sheet.sort]
    assert sort == ([("C", False)] if fmt == "ods" else [])


@pytest.mark.parametrize("fmt", FORMATS)
def test_conditional_format(workbooks: dict[str, Path], fmt: str) -> None:
    (rule,) = _read(workbooks, fmt).sheet("Data").conditional_formats
    assert (rule.range, rule.kind, rule.operator, rule.formulas) == (
        "C2:C6",
        "cell-is",
        ">",
        ("100",),
    )
    assert "fill #ffc7ce" in rule.look and "font #9c0006" in rule.look
    assert "bold" in rule.look


@pytest.mark.parametrize("fmt", FORMATS)
def test_chart_type_title_range_and_anchor(workbooks: dict[str, Path], fmt: str) -> None:
    (found,) = _read(workbooks, fmt).sheet("Data").charts
    assert (found.kind, found.title, found.anchor) == ("bar", "Sales", "D7")
    assert found.ranges == ("Data!C2:C6",)


@pytest.mark.parametrize("fmt", FORMATS)
def test_pivot_table_fields(workbooks: dict[str, Path], fmt: str) -> None:
    (pivot,) = _read(workbooks, fmt).sheet("Summary").pivots
    assert pivot.source == "Data!A1:D6"
    assert pivot.target.startswith("Summary!A")
    assert pivot.rows == ("Region",) and pivot.data == (("Amount", "sum"),)


def test_a_quoted_sheet_name_with_spaces_stays_one_address() -> None:
    """Calc puts a pivot table on a sheet named "Pivot Table_Data_1": the target range
    names it quoted, and the space inside the quotes does not split the address."""
    from reefbench.documents.odf_xml import _qualified

    target = "'Pivot Table_Data_1'.A1:'Pivot Table_Data_1'.B5"
    assert _qualified(target) == "Pivot Table_Data_1!A1:B5"
    assert _qualified("Data.A1:Data.C13 'My Sheet'.E1") == "Data!A1:C13 My Sheet!E1"


def test_the_odfpy_original_reads_as_the_libreoffice_save(workbooks: dict[str, Path]) -> None:
    """The reader does not depend on what only LibreOffice adds: the hand-built file gives
    the same cells and features (so a setup document reads as a saved one)."""
    original = read_spreadsheet(workbooks["odfpy"]).sheet("Data")
    saved = read_spreadsheet(workbooks["ods"]).sheet("Data")
    assert original.cells["C7"] == saved.cells["C7"]
    assert (original.autofilter, original.charts[0].kind) == ("A1:D6", "bar")
    assert original.conditional_formats == saved.conditional_formats


def test_openpyxl_workbook_chart_rules_and_filter(tmp_path: Path) -> None:
    from openpyxl import Workbook
    from openpyxl.chart import LineChart, Reference
    from openpyxl.formatting.rule import FormulaRule
    from openpyxl.styles import Font

    book = Workbook()
    ws = book.active
    ws.title = "Q1"
    for row in (("Month", "Sales"), ("Jan", 10), ("Feb", 30), ("Mar", 20)):
        ws.append(row)
    ws["C2"] = 0.25
    ws["C2"].number_format = "0%"
    ws.freeze_panes = "A2"
    ws.auto_filter.ref = "A1:B4"
    ws.auto_filter.add_filter_column(0, ["Jan", "Mar"])
    ws.auto_filter.add_sort_condition("B2:B4", descending=True)
    ws.conditional_formatting.add("B2:B4", FormulaRule(formula=["B2>15"], font=Font(b=True)))
    line = LineChart()
    line.title = "Trend"
    line.add_data(Reference(ws, min_col=2, min_row=1, max_row=4), titles_from_data=True)
    ws.add_chart(line, "E3")
    path = tmp_path / "q1.xlsx"
    book.save(path)

    sheet = read_spreadsheet(path).sheet("Q1")
    assert sheet.cells["C2"].kind == "percentage" and sheet.cells["C2"].value == 0.25
    assert (sheet.autofilter, sheet.frozen) == ("A1:B4", "A2")
    assert [(f.column, f.operator, f.values) for f in sheet.filters] == [
        ("A", "in", ("Jan", "Mar"))
    ]
    assert [(k.column, k.ascending) for k in sheet.sort] == [("B", False)]
    (rule,) = sheet.conditional_formats
    assert (rule.kind, rule.formulas, rule.look) == ("formula", ("B2>15",), "bold")
    (found,) = sheet.charts
    assert (found.kind, found.title, found.anchor) == ("line", "Trend", "E3")
    assert found.ranges == ("Q1!B2:B4",)
