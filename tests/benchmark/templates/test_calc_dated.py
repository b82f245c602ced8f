"""reef-v2's date-dependent Calc templates: their tasks pass the static gates, their data
holds the traps the near misses fall into (a limit that changed inside the list, an
amount at each limit, a row on the change day; pre-orders and a part month that look like
sales), and their checkers (on spreadsheets built in memory) pass every right form of the
result and fail the near misses' results."""

from __future__ import annotations

from pathlib import Path

import pytest

from reefbench.benchmark import v2
from reefbench.benchmark.templates import calc_chart as cc
from reefbench.benchmark.templates import calc_dated as cd
from reefbench.documents import Cell, Chart, ConditionalFormat, Sheet, Spreadsheet
from reefbench.documents.odf import write_workbook
from reefbench.documents.odf_calc import read_spreadsheet
from reefbench.envs.desktop.calc_formula import evaluate, serial
from reefbench.envs.desktop.calc_rule_evaluators import (
    categorised_chart_problem,
    dated_highlight_problem,
)
from reefbench.validation.gates import static_problems

TEMPLATES = [*cd.TEMPLATES, *cc.TEMPLATES]
IDS = [t.id for t in TEMPLATES]


@pytest.mark.parametrize("template", TEMPLATES, ids=IDS)
def test_each_task_passes_the_static_gates_and_near_misses_differ(template: object) -> None:
    office = next(f for f in v2.families() if f.name == "office")
    entry = next(t for t in office.templates if t.subtask is template)
    assert entry.tier == "hard"
    only = v2.Family(office.name, office.description, (entry,))
    for task in v2.tasks_of(only, per_template=4):
        assert static_problems(task, v2.POOL) == [], task.id
    t = template
    values = t.value_records[0]  # type: ignore[attr-defined]
    solution = t.solution_generator(**values)  # type: ignore[attr-defined]
    assert len(t.near_misses) >= 4  # type: ignore[attr-defined]
    for near in t.near_misses:  # type: ignore[attr-defined]
        assert t.near_miss_calls(near, values) != solution, near.label  # type: ignore[attr-defined]


# -------------------------------------------------------------------- highlight
@pytest.mark.parametrize("record", cd.LIMIT_RECORDS, ids=lambda r: r["path"])
def test_the_expenses_hold_the_traps(record: dict[str, str]) -> None:
    old, new, change = record["old"], record["new"], record["change"]
    rows = [(str(d), float(a)) for d, a in cd.expense_rows(record["table"])]
    low, high = sorted((float(old), float(new)))
    before = [(d, a) for d, a in rows if d < change]
    after = [(d, a) for d, a in rows if d >= change]
    assert (float(old) in [a for _, a in before]) and (float(new) in [a for _, a in after])
    assert any(low < a < high for _, a in before) and any(low < a < high for _, a in after)
    assert any(d == change and low < a < high for d, a in rows)  # the change day itself
    dates = [d for d, _ in rows]
    assert dates != sorted(dates)  # listed by employee: the dates interleave


def _expenses(record: dict[str, str], *rules: ConditionalFormat) -> Spreadsheet:
    sheets = cd._expense_sheets(record["old"], record["new"], record["change"], record["table"])
    built = []
    for name, rows in sheets.items():
        cells = {}
        for r, row in enumerate(rows, 1):
            for c, text in enumerate(row):
                address = f"{'ABCD'[c]}{r}"
                if not text:
                    continue
                if name == "Expenses" and c == 0 and r > 1 and text[:2] == "20":
                    cells[address] = Cell(None, text, kind="date", date=text)
                    continue
                try:
                    cells[address] = Cell(float(text), text)
                except ValueError:
                    cells[address] = Cell(None, text)
        built.append(Sheet(name, cells, conditional_formats=rules if name == "Expenses" else ()))
    return Spreadsheet(tuple(built))


def _problem(record: dict[str, str], *rules: ConditionalFormat) -> str:
    rows = cd.expense_rows(record["table"])
    limits = cd.limit_periods(record["old"], record["new"], record["change"])
    return dated_highlight_problem(_expenses(record, *rules), "Expenses", "A", "D", rows, limits)


def _rule(where: str, operator: str, operand: str, kind: str = "cell-is") -> ConditionalFormat:
    return ConditionalFormat(where, kind, operator, (operand,), "Bad", "fill #ffcccc")


@pytest.mark.parametrize("record", cd.LIMIT_RECORDS, ids=lambda r: r["path"])
def test_highlight_checker_accepts_every_right_rule(record: dict[str, str]) -> None:
    old, new, change = record["old"], record["new"], record["change"]
    last = len(cd.expense_rows(record["table"])) + 1
    day = serial(change)
    forms = [
        _rule(f"D2:D{last}", ">", cd._by_date(change, old, new)),
        _rule(f"D2:D{last}", ">", cd._by_date(change, "Notes!B2", "Notes!B3")),
        _rule(f"A2:D{last}", "", f"$D2>IF($A2>={day:g},{new},{old})", kind="formula"),
        _rule(
            f"D2:D{last}",
            "",
            f'OR(AND(A2<{day:g};D2>{old});AND(A2>=DATEVALUE("{change}");D2>{new}))',
            kind="formula",
        ),
    ]
    for rule in forms:
        assert _problem(record, rule) == "", rule
    # Two rules, one per period, together.
    two = (
        _rule(f"D2:D{last}", "", f"AND(A2<{day:g};D2>{old})", kind="formula"),
        _rule(f"D2:D{last}", "", f"AND(A2>={day:g};D2>{new})", kind="formula"),
    )
    assert _problem(record, *two) == ""


@pytest.mark.parametrize("record", cd.LIMIT_RECORDS, ids=lambda r: r["path"])
def test_highlight_checker_fails_the_near_misses(record: dict[str, str]) -> None:
    old, new, change = record["old"], record["new"], record["change"]
    last = len(cd.expense_rows(record["table"])) + 1
    assert "no conditional formatting" in _problem(record)
    for rule in [
        _rule(f"D2:D{last}", ">", new),
        _rule(f"D2:D{last}", ">", old),
        _rule(f"D2:D{last}", ">=", cd._by_date(change, old, new)),
        _rule(f"D2:D{last}", ">", cd._by_date(change, old, new, test="<=")),
        _rule(f"D2:D{last + 1}", ">", cd._by_date(change, old, new)),
        _rule(f"D2:D{last}", ">", "IF(A2<DATE(2026;3;1);BOGUS(1);2)"),
    ]:
        assert _problem(record, rule).startswith("the conditional formatting is wrong"), rule


def test_the_formula_reader_follows_calc() -> None:
    book = Spreadsheet(
        (Sheet("S", {"A1": Cell(None, "x", date="2026-03-16"), "B1": Cell(3.0, "3")}),)
    )
    sheet = book.sheets[0]
    assert evaluate(book, sheet, "A1=DATE(2026;3;16)") == 1.0
    assert evaluate(book, sheet, "DATE(2026;14;1)") == serial("2027-02-01")
    assert evaluate(book, sheet, 'B1*2+1&"!"') == "7!"
    assert evaluate(book, sheet, 'B1<"text"') == 1.0  # numbers sort before text
    assert evaluate(book, sheet, "MONTH(A1)") == 3.0


def test_dates_are_written_as_dates(tmp_path: Path) -> None:
    path = tmp_path / "dated.ods"
    write_workbook(path, {"S": [["Date"], ["2026-03-16"]]}, dates=True)
    cell = read_spreadsheet(path).sheets[0].cells["A2"]
    assert cell.date == "2026-03-16" and cell.value is None


# ------------------------------------------------------------------------ chart
def test_the_pre_orders_and_the_part_month_look_like_sales() -> None:
    """Without the note the first full month cannot be told from the numbers."""
    for record in cc.CHART_RECORDS:
        column = cc.CHART_HEADER.index(record["shop"])
        values = [int(r.split("|")[column]) for r in record["table"].splitlines()]
        first = int(record["first"])
        assert max(values[: first - 1]) > min(values[first - 1 :]), record["path"]
        opened = cd._day(record["opened"])
        assert opened.day > 1 and record["table"].splitlines()[first - 2].startswith(
            cd.MONTHS[opened.month - 1]
        )


def test_chart_checker_wants_the_months_as_labels() -> None:
    title, values, months = "Mill Lane since opening", "C6:C13", "A6:A13"

    def problem(*charts: Chart) -> str:
        book = Spreadsheet((Sheet("Sales", charts=charts), Sheet("Notes")))
        return categorised_chart_problem(book, "Sales", ["line"], values, months, title)

    right = Chart("line", title, ("Sales!C6:C13",), categories="Sales!$A$6:$A$13")
    assert problem(right) == ""
    assert "no chart" in problem()
    for wrong, says in [
        (Chart("line", title, ("Sales!C6:C13",)), "labelled by no cells"),
        (Chart("line", title, ("Sales!C6:C13",), categories="Sales!A2:A13"), "not by A6:A13"),
        (Chart("line", title, ("Sales!C5:C13",), categories="Sales!A5:A13"), "not of C6:C13"),
        (Chart("column", title, ("Sales!C6:C13",), categories="Sales!A6:A13"), "column"),
    ]:
        assert says in problem(wrong)
