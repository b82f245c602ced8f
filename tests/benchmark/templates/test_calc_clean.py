"""reef-v2's CRM-export cleaning template: its tasks pass the static gates, its exports
hold the mess and the traps the instruction names (stray spaces, duplicates in other
capitals, three date forms with day-first slashes, duplicates a month-first reading
decides wrongly), and its checker, on ``.xlsx`` files written with openpyxl, passes the
clean list in any row and column order and fails each near miss with its own message."""

from __future__ import annotations

import dataclasses
import datetime
import re
from pathlib import Path
from typing import Any

import openpyxl  # type: ignore[import-untyped]
import pytest

from reefbench.benchmark import v2
from reefbench.benchmark.templates import calc_clean as cc
from reefbench.documents import Spreadsheet, read_spreadsheet
from reefbench.envs.desktop.calc_clean_evaluators import (
    COLUMNS,
    clean_list_problem,
    is_iso_date_format,
    is_two_decimals_format,
)
from reefbench.validation.gates import static_problems

RECORDS = cc.CLEAN_RECORDS
IDS = [r["source"] for r in RECORDS]


def test_each_task_passes_the_static_gates_and_near_misses_differ() -> None:
    office = next(f for f in v2.families() if f.name == "office")
    entry = next(t for t in office.templates if t.subtask is cc.CALC_CLEAN_EXPORT)
    assert entry.tier == "hard"
    only = v2.Family(office.name, office.description, (entry,))
    tasks = v2.tasks_of(only, per_template=4)
    assert tasks
    for task in tasks:
        assert static_problems(task, v2.POOL) == [], task.id
        # Saving over the export first is no side effect: the instruction does not forbid it.
        assert any(k.endswith(".ods") for k in task.may_change), task.id
    t = cc.CALC_CLEAN_EXPORT
    values = t.value_records[0]
    assert t.solution_generator is not None
    solution = t.solution_generator(**values)
    assert len(t.near_misses) >= 5
    for near in t.near_misses:
        assert t.near_miss_calls(near, values) != solution, near.label


def test_the_instruction_states_every_rule_the_checker_enforces() -> None:
    text = cc.CALC_CLEAN_EXPORT.description
    for needed in [
        "Excel workbook",
        "first sheet",
        "row 1",
        *COLUMNS[:-1],
        "Order value",
        "one row per customer",
        "any order",
        "no spaces before or after",
        "single spaces between words",
        "latest Last order",
        "other capitals",
        "day first",
        "real date shown as YYYY-MM-DD",
        "number shown with two decimals",
        "as they are",
    ]:
        assert needed in " ".join(text.split()), needed


# ------------------------------------------------------------------- the data
@pytest.mark.parametrize("record", RECORDS, ids=IDS)
def test_the_export_is_messy_in_every_way_the_instruction_names(record: dict[str, str]) -> None:
    rows = cc._rows(record["table"])
    assert 40 <= len(rows) <= 70
    names = [r[0] for r in rows]
    assert any(n != n.strip() for n in names)  # spaces before or after
    assert any("  " in n.strip() for n in names)  # doubled inside
    assert any(re.search(r",\S", n) for n in names)  # no space after the comma
    dates = [r[3] for r in rows]
    assert all(cc.read_date(d) for d in dates)
    assert any("/" in d for d in dates) and any("-" in d for d in dates)
    assert any(re.fullmatch(r"\d{1,2} [A-Z][a-z]{2} \d{4}", d) for d in dates)
    assert any("," in r[4] for r in rows)  # thousands separators
    groups = cc._groups(record["table"])
    doubled = [g for g in groups.values() if len(g) > 1]
    assert len(doubled) >= 8 and any(len(g) == 3 for g in doubled)
    for group in doubled:
        assert len({r[1] for r in group}) == len(group)  # other capitals each time
        assert len({cc.read_date(r[3]) for r in group}) == len(group)  # no tie
    assert len(cc.customers(record["table"])) == len(groups)
    assert len(cc.dropped(record["table"])) == len(rows) - len(groups)


@pytest.mark.parametrize("record", RECORDS, ids=IDS)
def test_the_traps_turn_on_reading_dates_and_on_row_order(record: dict[str, str]) -> None:
    table = record["table"]
    right = cc.customers(table)
    misread = cc.customers(table, month_first=True)
    emails = {str(c[2]).casefold() for c in right}
    # A month-first reading keeps another row (another spelling) of two customers or more.
    chosen = {c[2] for c in right} - {c[2] for c in misread}
    assert len(chosen) >= 2
    assert len(emails) == len(right)
    assert cc.customers(table, keep="earliest") != right
    assert cc.customers(table, keep="first") != right


def test_dates_read_day_first_in_each_form() -> None:
    day = datetime.date(2026, 3, 4)
    assert [cc.read_date(t) for t in ("04/03/2026", "2026-03-04", "4 Mar 2026")] == [day] * 3
    assert cc.misread("04/03/2026") == datetime.date(2026, 4, 3)
    assert cc.misread("25/03/2026") == datetime.date(2026, 3, 25)


# ---------------------------------------------------------------- the checker
def _write(
    path: Path,
    rows: list[list[Any]],
    header: list[str] | None = None,
    date_format: str = "yyyy-mm-dd",
    amount_format: str = "#,##0.00",
) -> Spreadsheet:
    """``rows`` as an xlsx (a date column of ``datetime.date`` gets ``date_format``, a
    number column ``amount_format``), read back as LibreOffice's save would be."""
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(header or list(COLUMNS))
    for row in rows:
        sheet.append(row)
    for line in sheet.iter_rows(min_row=2):
        for cell in line:
            if isinstance(cell.value, datetime.date):
                cell.number_format = date_format
            elif isinstance(cell.value, float):
                cell.number_format = amount_format
    book.save(path)
    return dataclasses.replace(read_spreadsheet(path), generator="LibreOffice/7.4.7.2")


def _cells(customer: list[Any]) -> list[Any]:
    first, last, email, company, day, amount = customer
    return [first, last, email, company, datetime.date.fromisoformat(day), float(amount)]


def _problem(book: Spreadsheet, table: str) -> str:
    return clean_list_problem(book, cc.customers(table), cc.dropped(table))


@pytest.mark.parametrize("record", RECORDS[:3], ids=IDS[:3])
def test_checker_passes_the_clean_list_in_any_order(record: dict[str, str], tmp_path: Path) -> None:
    table = record["table"]
    rows = [_cells(c) for c in cc.customers(table)]
    assert _problem(_write(tmp_path / "a.xlsx", rows), table) == ""
    # Rows reversed, e-mails in lower case, columns in another order, an extra column.
    order = [5, 1, 0, 4, 2, 3]
    header = [COLUMNS[i] for i in order] + ["Notes"]
    moved = [[(r[i].lower() if i == 2 else r[i]) for i in order] + ["ok"] for r in rows[::-1]]
    assert _problem(_write(tmp_path / "b.xlsx", moved, header), table) == ""
    # Titles in other capitals, a plain two-decimals format, Excel's ";@" date format.
    lower = [t.lower() for t in COLUMNS]
    book = _write(tmp_path / "c.xlsx", rows, lower, "yyyy-mm-dd;@", "0.00")
    assert _problem(book, table) == ""


def _near(tmp_path: Path, table: str, rows: list[list[Any]], **kwargs: Any) -> str:
    return _problem(_write(tmp_path / "near.xlsx", rows, **kwargs), table)


@pytest.mark.parametrize("record", RECORDS[:3], ids=IDS[:3])
def test_checker_fails_each_near_miss_with_its_message(
    record: dict[str, str], tmp_path: Path
) -> None:
    table = record["table"]
    right = [_cells(c) for c in cc.customers(table)]

    every = [_cells(cc._customer(row)) for row in cc._rows(table)]
    assert "more than one row" in _near(tmp_path, table, every)

    earliest = [_cells(c) for c in cc.customers(table, keep="earliest")]
    assert "not the latest one" in _near(tmp_path, table, earliest)
    first = [_cells(c) for c in cc.customers(table, keep="first")]
    assert "not the latest one" in _near(tmp_path, table, first)
    month_first = [_cells(c) for c in cc.customers(table, month_first=True)]
    assert "Last order is" in _near(tmp_path, table, month_first)

    as_text = [[*r[:4], r[4].isoformat(), r[5]] for r in right]
    assert "is text or a number, not a date" in _near(tmp_path, table, as_text)
    us_dates = _near(tmp_path, table, right, date_format="mm/dd/yyyy")
    assert "not YYYY-MM-DD" in us_dates

    amounts_text = [[*r[:5], f"{r[5]:,.2f}"] for r in right]
    assert "is text, not a number" in _near(tmp_path, table, amounts_text)
    assert "not with two decimals" in _near(tmp_path, table, right, amount_format="General")

    untrimmed = []
    for rows in cc._groups(table).values():
        row = cc._pick(rows, "latest", False)
        last, given = row[0].split(",", 1)
        untrimmed.append([given, last, *_cells(cc._customer(row))[2:]])
    assert "is not trimmed" in _near(tmp_path, table, untrimmed)

    joined = [[f"{r[1]}, {r[0]}", *r[2:]] for r in right]
    header = ["Name", *COLUMNS[2:]]
    assert "no column titled 'First name', 'Last name'" in _near(
        tmp_path, table, joined, header=header
    )

    assert "customers have no row" in _near(tmp_path, table, right[1:])
    stranger = [*right, ["Ann", "Other", "ann@nowhere.com", "X", datetime.date(2026, 1, 2), 1.0]]
    assert "no customer of the export" in _near(tmp_path, table, stranger)


def test_number_formats_are_judged_by_what_they_show() -> None:
    for code in ["YYYY-MM-DD", "yyyy-mm-dd;@", "[$-409]YYYY-MM-DD"]:
        assert is_iso_date_format(code), code
    for code in ["MM/DD/YY", "DD.MM.YYYY", "YYYY-MM", "", "YYYY-MM-DD HH:MM"]:
        assert not is_iso_date_format(code), code
    for code in ["0.00", "#,##0.00", "#,##0.00 [$€-407]", "[$$-409]#,##0.00;-[$$-409]#,##0.00"]:
        assert is_two_decimals_format(code), code
    for code in ["", "0", "#,##0", "0.0", "0.000", "General"]:
        assert not is_two_decimals_format(code), code
