"""reef-v2's Calc pivot-table template: its tasks
pass the static gates, their data holds the traps the near misses fall into, and their
checkers (on small spreadsheets built in memory) pass every right form of the result and
fail the near misses' results."""

from __future__ import annotations

import pytest

from reefbench.benchmark import v2
from reefbench.benchmark.templates import calc_analysis as ca
from reefbench.documents import Cell, Chart, PivotTable, Sheet, Spreadsheet
from reefbench.envs.desktop.calc_analysis_evaluators import chart_problem, pivot_problem
from reefbench.validation.gates import static_problems

IDS = [t.id for t in ca.TEMPLATES]


def test_the_templates_are_hard_office_templates() -> None:
    office = next(f for f in v2.families() if f.name == "office")
    tiers = {t.subtask.id: t.tier for t in office.templates}
    assert all(tiers.get(i) == "hard" for i in IDS)


@pytest.mark.parametrize("template", ca.TEMPLATES, ids=IDS)
def test_each_task_passes_the_static_gates(template: object) -> None:
    office = next(f for f in v2.families() if f.name == "office")
    short = template.id.split(".", 1)[1].replace("_", "-")  # type: ignore[attr-defined]
    mine = [t for t in v2.tasks_of(office) if t.id.rsplit("-", 1)[0] == f"v2-office-{short}"]
    assert len(mine) >= 5
    for task in mine:
        assert static_problems(task, v2.POOL) == [], task.id


@pytest.mark.parametrize("template", ca.TEMPLATES, ids=IDS)
def test_near_misses_differ_from_the_solution(template: object) -> None:
    t = template
    values = t.value_records[0]  # type: ignore[attr-defined]
    solution = t.solution_generator(**values)  # type: ignore[attr-defined]
    assert len(t.near_misses) >= 3  # type: ignore[attr-defined]
    for near in t.near_misses:  # type: ignore[attr-defined]
        assert t.near_miss_calls(near, values) != solution, near.label  # type: ignore[attr-defined]


# ------------------------------------------------------------------------ pivot
def _output(name: str, totals: dict[str, float], header: str = "Sum - Revenue") -> Sheet:
    cells = {"A1": Cell(None, "Product"), "B1": Cell(None, header)}
    for row, (label, total) in enumerate(sorted(totals.items()), 2):
        cells[f"A{row}"] = Cell(None, label)
        cells[f"B{row}"] = Cell(total, f"{total}")
    return Sheet(name, cells)


def _book(pivot: PivotTable | None, totals: dict[str, float], on: str = "Pivot") -> Spreadsheet:
    sheets = {"Sales": Sheet("Sales"), on: _output(on, totals)}
    if pivot is not None:
        sheets[on] = Sheet(on, sheets[on].cells, pivots=(pivot,))
    return Spreadsheet(tuple(sheets.values()))


def _pivot(
    rows: tuple[str, ...] = ("Product",), data: str = "Revenue", fn: str = "sum"
) -> PivotTable:
    return PivotTable("DataPilot1", "Sales!A1:F29", "Pivot!A1:B6", rows, (), ((data, fn),))


def test_the_sales_table_makes_units_no_stand_in_for_revenue() -> None:
    table = ca.PIVOT_RECORDS[0]["table"]
    for by in ca.FIELD_WORDS:
        revenue, units = ca.pivot_totals(table, by), ca.pivot_totals(table, by, "Units")
        assert set(revenue) == set(units) and len(revenue) >= 4
        assert all(revenue[k] != units[k] for k in revenue)


def test_pivot_checker_passes_a_real_pivot_and_fails_the_near_misses() -> None:
    totals = ca.pivot_totals(ca.PIVOT_RECORDS[0]["table"], "Product")
    ok = _book(_pivot(), totals, on="Pivot Table_Sales_1")
    assert pivot_problem(ok, "Sales", "Product", "Revenue", totals) == ""

    typed = _book(None, totals)
    assert "no pivot table" in pivot_problem(typed, "Sales", "Product", "Revenue", totals)
    units = _book(_pivot(data="Units"), totals)
    assert "sum of Units" in pivot_problem(units, "Sales", "Product", "Revenue", totals)
    count = _book(_pivot(fn="count"), totals)
    assert "count of Revenue" in pivot_problem(count, "Sales", "Product", "Revenue", totals)
    wrong = _book(_pivot(rows=("Region",)), totals)
    assert "Region as its rows" in pivot_problem(wrong, "Sales", "Product", "Revenue", totals)
    on_data = _book(_pivot(), totals, on="Sales")
    assert "data sheet" in pivot_problem(on_data, "Sales", "Product", "Revenue", totals)


def test_pivot_checker_reads_the_output_numbers() -> None:
    totals = {"Router": 1000.5, "Switch": 250.0}
    short = {"Router": 900.5, "Switch": 250.0}  # a source range that missed rows
    problem = pivot_problem(_book(_pivot(), short), "Sales", "Product", "Revenue", totals)
    assert "'Router' shows 900.5" in problem


# ------------------------------------------------------------------------ chart
def _charted(*charts: Chart) -> Spreadsheet:
    return Spreadsheet((Sheet("Sales", charts=charts), Sheet("Notes")))


def test_chart_checker_passes_the_right_chart_and_fails_the_near_misses() -> None:
    title, values = "Mill Lane since opening", "C6:C13"
    right = Chart("line", title, ("Sales!C6:C13",))
    assert chart_problem(_charted(right), "Sales", ["line"], values, title) == ""
    loose = Chart("line", "mill lane  since opening", ("Sales!$C$6:$C$13",))
    assert chart_problem(_charted(loose), "Sales", ["line"], values, title) == ""

    assert "no chart" in chart_problem(_charted(), "Sales", ["line"], values, title)
    for wrong, says in [
        (Chart("line", title, ("Sales!C2:C13",)), "not of C6:C13"),
        (Chart("line", title, ("Sales!C5:C13",)), "not of C6:C13"),
        (Chart("line", title, ("Sales!C6:C13", "Sales!D6:D13")), "not of C6:C13"),
        (Chart("column", title, ("Sales!C6:C13",)), "a column chart"),
        (Chart("line", "Mill Lane", ("Sales!C6:C13",)), "titled 'Mill Lane'"),
    ]:
        assert says in chart_problem(_charted(wrong), "Sales", ["line"], values, title)
