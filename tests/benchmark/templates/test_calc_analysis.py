"""reef-v2's Calc analysis templates (pivot table, conditional formatting): their tasks
pass the static gates, their data holds the traps the near misses fall into, and their
checkers (on small spreadsheets built in memory) pass every right form of the result and
fail the near misses' results."""

from __future__ import annotations

import pytest

from reefbench.benchmark import v2
from reefbench.benchmark.templates import calc_analysis as ca
from reefbench.documents import Cell, Chart, ConditionalFormat, PivotTable, Sheet, Spreadsheet
from reefbench.envs.desktop.calc_analysis_evaluators import (
    chart_problem,
    highlight_problem,
    pivot_problem,
)
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


# -------------------------------------------------------------------- highlight
RECORD = ca.LIMIT_RECORDS[0]
AMOUNTS = ca.expense_amounts(RECORD["table"])
LAST = len(AMOUNTS) + 1
MARKED = [a > float(RECORD["new"]) for a in AMOUNTS]


def _expenses(*rules: ConditionalFormat) -> Spreadsheet:
    sheets = ca._expense_sheets(RECORD["old"], RECORD["new"], RECORD["table"])
    built = []
    for name, rows in sheets.items():
        cells = {}
        for r, row in enumerate(rows, 1):
            for c, text in enumerate(row):
                if text:
                    try:
                        cells[f"{'ABCD'[c]}{r}"] = Cell(float(text), text)
                    except ValueError:
                        cells[f"{'ABCD'[c]}{r}"] = Cell(None, text)
        built.append(Sheet(name, cells, conditional_formats=rules if name == "Expenses" else ()))
    return Spreadsheet(tuple(built))


def _rule(where: str, operator: str, operand: str, kind: str = "cell-is") -> ConditionalFormat:
    return ConditionalFormat(where, kind, operator, (operand,), "Bad", "fill #ffcccc")


def test_the_expenses_hold_the_traps() -> None:
    new, old = float(RECORD["new"]), float(RECORD["old"])
    assert new in AMOUNTS  # at the limit is not above it: ">=" marks one too many
    assert any(old < a < new for a in AMOUNTS)  # the old limit marks too many
    assert sum(AMOUNTS) > new  # the total row is above the limit


def test_highlight_checker_accepts_every_right_rule() -> None:
    new = RECORD["new"]
    forms = [
        _rule(f"D2:D{LAST}", ">", new),
        _rule(f"D2:D{LAST}", ">", "Notes!B3"),
        _rule(f"D2:D{LAST}", ">", "$Notes.$B$3"),
        _rule(f"A2:D{LAST}", "", f"D2>{new}", kind="formula"),
        _rule(f"D2:D{LAST}", "", "D2>Notes!B3", kind="formula"),
    ]
    for rule in forms:
        assert highlight_problem(_expenses(rule), "Expenses", "D", 2, MARKED) == "", rule


def test_highlight_checker_fails_the_near_misses() -> None:
    new, old = RECORD["new"], RECORD["old"]
    assert "no conditional formatting" in highlight_problem(_expenses(), "Expenses", "D", 2, MARKED)
    for rule in [
        _rule(f"D2:D{LAST}", ">", old),
        _rule(f"D2:D{LAST}", ">=", new),
        _rule(f"D2:D{LAST + 1}", ">", new),
        _rule(f"D2:D{LAST}", ">", "Notes!B2"),
        ConditionalFormat(f"D2:D{LAST}", "cell-is", ">", (new,), ""),  # no style
    ]:
        problem = highlight_problem(_expenses(rule), "Expenses", "D", 2, MARKED)
        assert problem.startswith("the conditional formatting is wrong"), rule


# ------------------------------------------------------------------------ chart
def _charted(*charts: Chart) -> Spreadsheet:
    return Spreadsheet((Sheet("Sales", charts=charts), Sheet("Notes")))


def test_the_pre_orders_look_like_sales() -> None:
    """Without the note the opening month cannot be told from the numbers: some month
    before it sold more than some month after it."""
    for record in ca.CHART_RECORDS:
        column = ca.CHART_HEADER.index(record["shop"])
        values = [int(r.split("|")[column]) for r in record["table"].splitlines()]
        opened = int(record["opened"])
        assert max(values[: opened - 1]) > min(values[opened - 1 :]), record["path"]


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
