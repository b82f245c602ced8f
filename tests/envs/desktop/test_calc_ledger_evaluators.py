"""The checkers of the reconciliation and region-totals templates, on small sheets built in
memory: every right form of the result passes (rows in any order, dates as text or as date
cells, helper columns beside the ledger, labels anywhere), the near misses' results fail;
and the dated-workbook writer gives real date cells a formula can compare."""

from __future__ import annotations

from pathlib import Path

import pytest

from reefbench.documents import Cell, Sheet, read_spreadsheet
from reefbench.envs.desktop.calc_ledger_evaluators import (
    ledger_date,
    ledger_problem,
    totals_problem,
    write_dated_workbook,
)

ORIGINAL = [
    ["01.07.2026", "Atlas Insurance", "Cr", "120.50"],
    ["04.07.2026", "Oakridge Dental", "Dr", "900.00"],
]
MISSING = [
    ["2026-07-02", "City Telecom", "Cr", "45.10"],
    ["2026-07-09", "Sunfield Hotels", "Dr", "1200.00"],
]


def _cell(text: str) -> Cell:
    try:
        return Cell(float(text), text)
    except ValueError:
        return Cell(None, text)


def _ledger(rows: list[list[str]], extra: dict[str, Cell] | None = None) -> Sheet:
    cells = {}
    for number, row in enumerate([["Date", "Payee", "Dr/Cr", "Amount"], *rows], 1):
        for column, text in zip("ABCD", row, strict=True):
            if text:
                cells[f"{column}{number}"] = _cell(text)
    return Sheet("Ledger", {**cells, **(extra or {})})


def _as_ledger(row: list[str]) -> list[str]:
    return [ledger_date(row[0]), *row[1:]]


def test_the_missing_rows_in_any_order_pass() -> None:
    sheet = _ledger([*ORIGINAL, *(_as_ledger(r) for r in reversed(MISSING))])
    assert ledger_problem(sheet, ORIGINAL, MISSING) == ""


def test_a_date_cell_of_the_right_day_and_helper_columns_pass() -> None:
    rows = [*ORIGINAL, ["", *MISSING[0][1:]], ["", "", "", ""], _as_ledger(MISSING[1])]
    extra = {
        "A4": Cell(None, "07/02/26", kind="date", date="2026-07-02"),
        "F2": Cell(1.0, "1"),
        "F7": Cell(None, "helper"),
    }
    assert ledger_problem(_ledger(rows, extra), ORIGINAL, MISSING) == ""


@pytest.mark.parametrize(
    "appended",
    [
        [MISSING[0]],  # one left out
        [*MISSING, MISSING[0]],  # one twice
        [MISSING[0], ["2026-07-16", "Sunfield Hotels", "Dr", "1200.00"]],  # a look-alike
        [MISSING[0], ["2026-07-09", "Sunfield Hotels", "Cr", "1200.00"]],  # the wrong side
    ],
)
def test_near_misses_fail(appended: list[list[str]]) -> None:
    sheet = _ledger([*ORIGINAL, *(_as_ledger(r) for r in appended)])
    assert ledger_problem(sheet, ORIGINAL, MISSING) != ""


def test_rows_in_the_banks_format_fail() -> None:
    bank = [["2026-07-02", "City Telecom", "SEPA 123", "-45.10"]]
    sheet = _ledger([*ORIGINAL, *bank, _as_ledger(MISSING[1])])
    assert "not a missing" in ledger_problem(sheet, ORIGINAL, MISSING)


def test_a_changed_or_moved_original_row_fails() -> None:
    moved = [ORIGINAL[1], ORIGINAL[0], *(_as_ledger(r) for r in MISSING)]
    assert "changed or moved" in ledger_problem(_ledger(moved), ORIGINAL, MISSING)


def _summary(cells: dict[str, str]) -> Sheet:
    return Sheet("Summary", {a: _cell(t) for a, t in cells.items()})


def test_totals_pass_wherever_the_labels_stand() -> None:
    sheet = _summary({"B3": "North", "C3": "100.004", "E9": "south", "F9": "-20"})
    assert totals_problem(sheet, {"North": 100.0, "South": -20.0}) == ""


@pytest.mark.parametrize(
    "cells",
    [
        {"A1": "North", "B1": "100", "A2": "South", "B2": "-20.5"},  # a wrong total
        {"A1": "North", "B1": "100"},  # a region missing
        {"A1": "North", "C1": "100", "A2": "South", "B2": "-20"},  # not right next to it
        {"A1": "North", "B1": "100", "A2": "South", "B2": "-20", "D1": "North", "E1": "7"},
    ],
)
def test_totals_fail(cells: dict[str, str]) -> None:
    assert totals_problem(_summary(cells), {"North": 100.0, "South": -20.0}) != ""


def test_the_writer_makes_dates_numbers_and_text(tmp_path: Path) -> None:
    pytest.importorskip("odf")
    path = tmp_path / "book.ods"
    write_dated_workbook(path, {"Bank": [["Date", "Amount"], ["2026-07-03", "-12.50"], [""]]})
    cells = read_spreadsheet(path).sheet("Bank").cells
    assert cells["A2"].kind == "date" and cells["A2"].date == "2026-07-03"
    assert cells["B2"].value == -12.5 and cells["A1"].value is None
    assert "A3" not in cells
