"""reef-v2's Calc templates: their tasks pass the static gates, their near misses differ
from the reference, and their checkers (on small generated spreadsheets) pass what the
instruction asks and fail the near misses' results."""

from __future__ import annotations

from pathlib import Path

import pytest

from reefbench.benchmark import v2
from reefbench.benchmark.templates import calc
from reefbench.documents import Cell, Sheet, read_spreadsheet
from reefbench.documents.odf import write_workbook
from reefbench.envs.desktop import calc_evaluators as ce
from reefbench.validation.gates import static_problems

IDS = [t.id for t in calc.TEMPLATES]


def test_the_calc_templates_are_in_the_office_family() -> None:
    office = next(f for f in v2.families() if f.name == "office")
    in_family = {t.subtask.id: t.tier for t in office.templates}
    assert {t.id for t in calc.TEMPLATES} <= set(in_family)
    assert sum(in_family[i] == "hard" for i in IDS) >= 3


@pytest.mark.parametrize("template", calc.TEMPLATES, ids=IDS)
def test_each_task_passes_the_static_gates(template: object) -> None:
    office = next(f for f in v2.families() if f.name == "office")
    tasks = [t for t in v2.tasks_of(office) if t.id.startswith("v2-office-")]
    short = template.id.split(".", 1)[1].replace("_", "-")  # type: ignore[attr-defined]
    mine = [t for t in tasks if t.id.rsplit("-", 1)[0] == f"v2-office-{short}"]
    assert len(mine) >= 5
    for task in mine:
        assert static_problems(task, v2.POOL) == [], task.id


@pytest.mark.parametrize("template", calc.TEMPLATES, ids=IDS)
def test_near_misses_differ_from_the_solution(template: object) -> None:
    t = template  # a SubTask
    values = t.value_records[0]  # type: ignore[attr-defined]
    solution = t.solution_generator(**values)  # type: ignore[attr-defined]
    assert solution[0].name == "search_app"
    assert len(t.near_misses) >= 3  # type: ignore[attr-defined]
    for near in t.near_misses:  # type: ignore[attr-defined]
        assert t.near_miss_calls(near, values) != solution, near.label  # type: ignore[attr-defined]


# ------------------------------------------------------------------- sort
def _sheet(rows: list[list[str]]) -> Sheet:
    cells = {}
    for r, row in enumerate(rows, 1):
        for c, text in enumerate(row):
            try:
                cells[f"{'ABCDEFGH'[c]}{r}"] = Cell(float(text), text)
            except ValueError:
                cells[f"{'ABCDEFGH'[c]}{r}"] = Cell(None, text)
    return Sheet("Sheet1", cells)


def _sorted(rows: list[list[str]], column: int) -> list[list[str]]:
    by_amount = sorted(rows, key=lambda r: -float(r[3]))
    return sorted(by_amount, key=lambda r: r[column])


@pytest.mark.parametrize("record", calc.SORT_RECORDS)
def test_sort_checker_passes_the_two_key_order_and_fails_the_near_misses(
    record: dict[str, str],
) -> None:
    rows = calc._rows(record["table"])
    column = " BC".index(calc.SORT_COLUMNS[record["by"]])
    keys = [(column, True), (3, False)]
    header = calc.SORT_HEADER
    assert ce.sort_problem(_sheet([header, *_sorted(rows, column)]), rows, keys) == ""
    main_only = sorted(rows, key=lambda r: r[column])
    assert ce.sort_problem(_sheet([header, *main_only]), rows, keys)
    ascending = sorted(sorted(rows, key=lambda r: float(r[3])), key=lambda r: r[column])
    assert ce.sort_problem(_sheet([header, *ascending]), rows, keys)
    assert ce.sort_problem(_sheet([header, *rows]), rows, keys)
    split = [[*r[:3], rows[(i + 1) % len(rows)][3]] for i, r in enumerate(_sorted(rows, column))]
    assert "not the original rows" in ce.sort_problem(_sheet([header, *split]), rows, keys)


# ----------------------------------------------------------------- lookup
@pytest.mark.parametrize("record", calc.LOOKUP_RECORDS)
def test_the_price_list_is_unsorted_so_an_approximate_lookup_is_wrong(
    record: dict[str, str],
) -> None:
    codes = [row[0] for row in calc._rows(record["prices"])]
    assert codes != sorted(codes)
    assert {r[1] for r in calc._rows(record["orders"])} == set(codes)


def test_lookup_checker_wants_formulas_reading_the_price_sheet() -> None:
    good = {"D2": Cell(3.5, "3.5", "=VLOOKUP(B2;PRICES!$A$2:$C$9;3;0)")}
    assert ce.lookup_problem(Sheet("Orders", good), "D", 2, [3.5], "Prices") == ""
    typed = {"D2": Cell(3.5, "3.5")}
    assert "constant" in ce.lookup_problem(Sheet("Orders", typed), "D", 2, [3.5], "Prices")
    wrong = {"D2": Cell(7.0, "7", "=VLOOKUP(B2;PRICES!$A$2:$C$9;3)")}
    assert "not 3.5" in ce.lookup_problem(Sheet("Orders", wrong), "D", 2, [3.5], "Prices")
    na = {"D2": Cell(None, "#N/A", "=VLOOKUP(B2;PRICES!A2:C9;3;0)")}
    assert ce.lookup_problem(Sheet("Orders", na), "D", 2, [3.5], "Prices")


def test_lookup_checker_reads_a_saved_workbook(tmp_path: Path) -> None:
    path = tmp_path / "o.ods"
    write_workbook(path, {"Orders": [["Order", "Code"], ["1", "A1"]], "Prices": [["A1", "2"]]})
    sheet = read_spreadsheet(path).sheet("Orders")
    assert "empty" in ce.lookup_problem(sheet, "D", 2, [2.0], "Prices")
    assert [s.name for s in read_spreadsheet(path).sheets] == ["Orders", "Prices"]


def test_a_total_asked_as_a_formula_must_be_one_giving_the_total() -> None:
    """Playtest K: the filtered-total task asked for a formula and a typed total passed."""
    good = {"F1": Cell(5192.65, "5192.65", "=SUM(D2:D40)")}
    assert ce.formula_value_problem(Sheet("2026", good), "F1", 5192.65) == ""
    typed = {"F1": Cell(5192.65, "5192.65")}
    assert "typed value" in ce.formula_value_problem(Sheet("2026", typed), "F1", 5192.65)
    short = {"F1": Cell(5100.0, "5100", "=SUM(D2:D39)")}
    assert "not 5192.65" in ce.formula_value_problem(Sheet("2026", short), "F1", 5192.65)
    assert "empty" in ce.formula_value_problem(Sheet("2026", {}), "F1", 5192.65)


# ---------------------------------------------------------- freeze/filter
def test_freeze_and_filter_checkers() -> None:
    good = Sheet("S", frozen="A2", autofilter="A1:E46")
    assert ce.frozen_problem(good, "A2") == ""
    assert ce.autofilter_problem(good, "A:E", 46) == ""
    assert ce.frozen_problem(Sheet("S", frozen="B1"), "A2")
    assert ce.frozen_problem(Sheet("S"), "A2")
    assert "no autofilter" in ce.autofilter_problem(Sheet("S"), "A:E", 46)
    assert ce.autofilter_problem(Sheet("S", autofilter="A1:C46"), "A:E", 46)
    assert ce.autofilter_problem(Sheet("S", autofilter="A1:E10"), "A:E", 46)


# -------------------------------------------------------------- CSV import
def test_the_bank_export_is_german_and_amounts_parse() -> None:
    export = calc.CSV_RECORDS[0]["export"]
    assert export.startswith(calc.CSV_HEADER)
    amounts = calc.csv_amounts(export)
    assert len(amounts) == calc.CSV_ROWS
    assert any(abs(a) >= 1000 for a in amounts) and any(a < 0 for a in amounts)
    assert calc._german(-1234.5) == "-1.234,50"


def test_numbers_checker_refuses_text_amounts() -> None:
    assert ce.numbers_problem(Sheet("S", {"D2": Cell(1.5, "1.5")}), "D", 2, [1.5]) == ""
    text = Sheet("S", {"D2": Cell(None, "1,50")})
    assert "text" in ce.numbers_problem(text, "D", 2, [1.5])
    split = Sheet("S", {"D2": Cell(1.0, "1")})
    assert ce.numbers_problem(split, "D", 2, [1.5])
