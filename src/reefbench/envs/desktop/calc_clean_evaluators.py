"""Checkpoints on a cleaned customer list exported from Calc as an Excel workbook
(:mod:`reefbench.benchmark.templates.calc_clean`):

* :func:`clean_customer_list`: the first sheet holds, under titled columns in row 1 (any
  column order, other columns ignored), exactly one row per customer (matched by e-mail,
  letter case aside; rows in any order): first and last names split and trimmed, the
  company as written, the latest order date as a real date shown year-month-day, its
  value as a number shown with two decimals.
* :func:`xlsx_saved_by_libreoffice`: the file really is an Office Open XML workbook (not
  an ``.ods`` or a CSV under an ``.xlsx`` name) and LibreOffice wrote it (its
  ``docProps/app.xml``), not a script.

The pure core :func:`clean_list_problem` takes a :class:`~reefbench.documents.Spreadsheet`
for the unit tests; the evaluators read the file and call it.
"""

from __future__ import annotations

import math
import re
from typing import Any

from reefbench.actions.evaluators import EvalResult, evaluator
from reefbench.documents import Cell, DocumentUnreadable, Spreadsheet
from reefbench.documents.detect import NAMES, file_format
from reefbench.envs.desktop.calc_analysis_evaluators import _book, _path_keys, _result
from reefbench.envs.desktop.device import DesktopDevice
from reefbench.envs.desktop.evaluators import _file

# The clean list's columns, by their titles: the order of a customer's expected values.
COLUMNS = ("First name", "Last name", "Email", "Company", "Last order", "Order value")


def _plain(text: str) -> str:
    return " ".join(text.split()).casefold()


def _titles(cells: dict[str, Cell]) -> dict[str, str]:
    """Row 1's titles (spacing and case aside) -> their column letters."""
    found: dict[str, str] = {}
    for address, cell in cells.items():
        letters = address.rstrip("0123456789")
        if address[len(letters) :] == "1" and cell.text.strip():
            found.setdefault(_plain(cell.text), letters)
    return found


def _row_of(address: str) -> int:
    return int(address[len(address.rstrip("0123456789")) :])


def is_iso_date_format(code: str) -> bool:
    """Whether a number format shows a date as year-month-day with four-digit years and
    two-digit months and days ("YYYY-MM-DD"; a locale tag or Excel's ";@" aside)."""
    plain = re.sub(r"\[[^\]]*\]", "", code).split(";")[0].strip().upper()
    return plain in ("YYYY-MM-DD", "YYYY/MM/DD", "YYYY.MM.DD")


def is_two_decimals_format(code: str) -> bool:
    """Whether a number format shows exactly two decimals ("0.00", "#,##0.00", a currency
    format with two decimals)."""
    first = re.sub(r'"[^"]*"|\[[^\]]*\]|[^#0,.]', "", code.split(";")[0])
    return re.fullmatch(r"[#0,]*0\.00", first) is not None


def _name_problem(what: str, found: str, expected: str) -> str:
    if found == expected:
        return ""
    if found.split() == expected.split():
        return f"{what} {found!r} is not trimmed (want {expected!r})"
    return f"{what} is {found!r}, not {expected!r}"


def _company_problem(where: str, found: str, expected: str) -> str:
    if _plain(found) == _plain(expected):
        return ""
    return f"{where}: Company is {found!r}, not {expected!r}"


def _date_problem(cell: Cell | None, expected: str, dropped: list[str], where: str) -> str:
    if cell is None:
        return f"{where}: Last order is empty"
    if cell.kind != "date" or not cell.date:
        return f"{where}: Last order {cell.text!r} is text or a number, not a date"
    if cell.date != expected:
        if cell.date in dropped:
            return (
                f"{where}: keeps the row with the last order of {cell.date}, not the "
                f"latest one ({expected})"
            )
        return f"{where}: Last order is {cell.date}, not {expected}"
    if not is_iso_date_format(cell.number_format):
        shown = cell.number_format or "the default format"
        return f"{where}: Last order is shown as {shown}, not YYYY-MM-DD"
    return ""


def _amount_problem(cell: Cell | None, expected: float, where: str) -> str:
    if cell is None:
        return f"{where}: Order value is empty"
    if cell.value is None:
        return f"{where}: Order value {cell.text!r} is text, not a number"
    if not math.isclose(cell.value, expected, abs_tol=0.005):
        return f"{where}: Order value is {cell.value:g}, not {expected:.2f}"
    if not is_two_decimals_format(cell.number_format):
        shown = cell.number_format or "the default format"
        return f"{where}: Order value is shown as {shown}, not with two decimals"
    return ""


def clean_list_problem(
    book: Spreadsheet, customers: list[list[Any]], dropped: list[list[Any]]
) -> str:
    """``""`` when the first sheet of ``book`` is the clean list, else what is wrong.

    ``customers``: ``[first, last, email, company, ISO date, amount]`` per customer (the
    rows to keep); ``dropped``: ``[email, ISO date, amount]`` per duplicate row that must
    go (named in the messages when it was kept instead)."""
    sheet = book.sheets[0] if book.sheets else None
    if sheet is None:
        return "the workbook has no sheet"
    titles = _titles(sheet.cells)
    missing = [t for t in COLUMNS if _plain(t) not in titles]
    if missing:
        held = ", ".join(repr(c.text) for a, c in sheet.cells.items() if _row_of(a) == 1)
        return (
            f"row 1 of the first sheet ({sheet.name!r}) has no column titled "
            f"{', '.join(repr(m) for m in missing)} (it has {held or 'nothing'})"
        )
    letters = [titles[_plain(t)] for t in COLUMNS]
    rows = sorted(
        {_row_of(a) for a, c in sheet.cells.items() if c.text.strip() or c.value is not None} - {1}
    )
    rows = [r for r in rows if any(f"{x}{r}" in sheet.cells for x in letters)]
    wanted = {str(c[2]).casefold(): c for c in customers}
    dates_dropped: dict[str, list[str]] = {}
    for email, day, _ in dropped:
        dates_dropped.setdefault(str(email).casefold(), []).append(str(day))
    seen: dict[str, list[int]] = {}
    for row in rows:
        email = sheet.cells.get(f"{letters[2]}{row}")
        key = email.text.strip().casefold() if email is not None else ""
        if key not in wanted:
            return f"row {row} has the e-mail {key!r}, which is no customer of the export"
        seen.setdefault(key, []).append(row)
    twice = {k: v for k, v in seen.items() if len(v) > 1}
    if twice:
        shown = "; ".join(f"{k} in rows {', '.join(map(str, v))}" for k, v in twice.items())
        return f"{len(twice)} customers have more than one row ({shown[:300]})"
    absent = [k for k in wanted if k not in seen]
    if absent:
        return f"{len(absent)} customers have no row ({', '.join(absent[:3])})"
    problems = []
    for key, (row,) in seen.items():
        first, last, _, company, day, amount = wanted[key]
        where = f"row {row} ({key})"
        cells = [sheet.cells.get(f"{letter}{row}") for letter in letters]
        text = [c.text if c is not None else "" for c in cells]
        found = [
            _name_problem(f"{where}: First name", text[0], str(first)),
            _name_problem(f"{where}: Last name", text[1], str(last)),
            _company_problem(where, text[3], str(company)),
            _date_problem(cells[4], str(day), dates_dropped.get(key, []), where),
            _amount_problem(cells[5], float(amount), where),
        ]
        problems += [p for p in found if p]
    if problems:
        more = f" and {len(problems) - 3} more" if len(problems) > 3 else ""
        return "; ".join(problems[:3]) + more
    return ""


@evaluator(governs=_path_keys)
def clean_customer_list(
    path: str, customers: list[list[Any]], dropped: list[list[Any]], *, env: DesktopDevice
) -> EvalResult:
    """The first sheet of the workbook is the clean customer list: row 1 titles the
    columns First name, Last name, Email, Company, Last order and Order value (any order;
    other columns ignored); below it exactly one row per customer (by e-mail, letter case
    aside; any row order) with the names split and trimmed, the company as written, the
    latest order's date as a real date shown YYYY-MM-DD and its value as a number shown
    with two decimals.

    Args:
        path: The workbook as the agent sees it, e.g. "~/Documents/customers.xlsx".
        customers: ``[first name, last name, email, company, ISO date, amount]`` per
            customer, the rows to keep.
        dropped: ``[email, ISO date, amount]`` per duplicate row that must go.
    """
    book = _book(env, path)
    if isinstance(book, str):
        return EvalResult(success=False, message=book)
    problem = clean_list_problem(book, customers, dropped)
    return _result(problem, path, f"one clean row for each of the {len(customers)} customers")


@evaluator(governs=_path_keys)
def xlsx_saved_by_libreoffice(path: str, *, env: DesktopDevice) -> EvalResult:
    """The file is an Excel workbook (Office Open XML, whatever its name says) that
    LibreOffice wrote, not a renamed OpenDocument file nor one written by a script.

    Args:
        path: The workbook as the agent sees it.
    """
    target = _file(env, path)
    if target is None:
        return EvalResult(success=False, message=f"{path} does not exist")
    try:
        kind = file_format(target)
    except DocumentUnreadable as exc:
        return EvalResult(success=False, message=str(exc))
    if kind != "xlsx":
        return EvalResult(success=False, message=f"{path} is {NAMES[kind]}, not an xlsx workbook")
    book = _book(env, path)
    if isinstance(book, str):
        return EvalResult(success=False, message=book)
    if not book.generator.startswith("LibreOffice/"):
        made_by = book.generator or "an unknown program"
        return EvalResult(success=False, message=f"{path} was written by {made_by}")
    return EvalResult(success=True, message=f"{path} is an xlsx workbook saved by LibreOffice")
