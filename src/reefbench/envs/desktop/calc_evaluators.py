"""Checkpoints on Calc work beyond one cell: a table's row order, a column filled with
formulas that read another sheet, frozen panes and an autofilter, all read from the saved
file through :func:`reefbench.documents.read_spreadsheet` (``.ods`` or ``.xlsx``).

Each checkpoint has a pure core on a :class:`~reefbench.documents.Sheet` (``*_problem``:
``""`` when the sheet passes, else what is wrong), which the unit tests exercise on small
generated files; the evaluator reads the file and calls it.
"""

from __future__ import annotations

import math
from typing import Any

from reefbench.actions.evaluators import EvalResult, evaluator
from reefbench.documents import DocumentUnreadable, Sheet, read_spreadsheet
from reefbench.documents.normal import column_letters
from reefbench.envs.desktop.device import DesktopDevice
from reefbench.envs.desktop.evaluators import _file, file_key


def _path_keys(path: str, **_: Any) -> list[str]:
    return [file_key(path)]


def _sheet(env: DesktopDevice, path: str, sheet: str) -> Sheet | str:
    """The sheet of the saved file, or why it cannot be read."""
    target = _file(env, path)
    if target is None:
        return f"{path} does not exist"
    try:
        return read_spreadsheet(target).sheet(sheet)
    except DocumentUnreadable as exc:
        return str(exc)


def _shown(sheet: Sheet, address: str) -> str:
    """A cell as the table compares it: a number by its value, text by its text."""
    cell = sheet.cells.get(address)
    if cell is None:
        return ""
    if cell.value is not None:
        return f"{cell.value:g}"
    return cell.text.strip()


def _canonical(text: str) -> str:
    try:
        return f"{float(text):g}"
    except ValueError:
        return text.strip()


def table_rows(sheet: Sheet, width: int, first: int, count: int) -> list[tuple[str, ...]]:
    """Rows ``first`` .. ``first + count - 1`` of the sheet, columns A.. of ``width``."""
    return [
        tuple(_shown(sheet, f"{column_letters(c)}{r}") for c in range(width))
        for r in range(first, first + count)
    ]


def sort_problem(sheet: Sheet, rows: list[list[str]], keys: list[tuple[int, bool]]) -> str:
    """Whether the data rows under the header are ``rows`` (each whole), in an order that
    satisfies ``keys`` (column index, ascending), ties in any order."""
    width = len(rows[0])
    expected = [tuple(_canonical(v) for v in row) for row in rows]
    found = table_rows(sheet, width, 2, len(rows))
    if sorted(found) != sorted(expected):
        return "the table's rows are not the original rows (a row was split, lost or changed)"
    if _shown(sheet, f"A{len(rows) + 2}"):
        return f"the table has more rows than the {len(rows)} it had"

    def key_of(row: tuple[str, ...], column: int) -> tuple[int, float, str]:
        text = row[column]
        try:
            return (0, float(text), "")
        except ValueError:
            return (1, 0.0, text.casefold())

    for index in range(1, len(found)):
        before, after = found[index - 1], found[index]
        for column, ascending in keys:
            a, b = key_of(before, column), key_of(after, column)
            if a == b:
                continue
            if (a < b) != ascending:
                name = column_letters(column)
                return f"rows {index + 1} and {index + 2} are out of order (column {name})"
            break
    return ""


@evaluator(governs=_path_keys)
def table_sorted(
    path: str, rows: list[list[str]], keys: list[list[Any]], sheet: str = "", *, env: DesktopDevice
) -> EvalResult:
    """The table (a header row, then ``rows``) holds the same rows, each kept whole, sorted
    by ``keys``: ``[["B", true], ["D", false]]`` is column B A to Z, then, for equal B,
    column D largest first. Rows equal on every key may be in any order.

    Args:
        path: The spreadsheet as the agent sees it.
        rows: The data rows as they were (cell texts from column A on).
        keys: The sort keys, most significant first: [column letter, ascending].
        sheet: The sheet's name; the first sheet when empty.
    """
    found = _sheet(env, path, sheet)
    if isinstance(found, str):
        return EvalResult(success=False, message=found)
    order = [(_column_index(str(c)), bool(asc)) for c, asc in keys]
    problem = sort_problem(found, rows, order)
    if problem:
        return EvalResult(success=False, message=f"{path}: {problem}")
    return EvalResult(success=True, message=f"{path}: the table is sorted as asked")


def _column_index(letters: str) -> int:
    index = 0
    for letter in letters.upper():
        index = index * 26 + ord(letter) - ord("A") + 1
    return index - 1


def lookup_problem(
    sheet: Sheet, column: str, first: int, values: list[float], source_sheet: str
) -> str:
    """Whether each cell of ``column`` from row ``first`` on is a formula that reads the
    sheet ``source_sheet`` and gives the value in ``values``."""
    reference = source_sheet.upper().replace(" ", "") + "!"
    for offset, value in enumerate(values):
        address = f"{column}{first + offset}"
        cell = sheet.cells.get(address)
        if cell is None:
            return f"{address} is empty"
        if not cell.formula:
            return f"{address} holds a constant, not a formula"
        if reference not in cell.formula.replace("'", ""):
            return f"{address} holds {cell.formula}, which does not read the {source_sheet} sheet"
        if cell.value is None or not math.isclose(cell.value, value, abs_tol=1e-6):
            return f"{address} gives {cell.text!r}, not {value:g}"
    return ""


@evaluator(governs=_path_keys)
def column_looked_up(
    path: str,
    sheet: str,
    column: str,
    first_row: int,
    values: list[float],
    source_sheet: str,
    *,
    env: DesktopDevice,
) -> EvalResult:
    """Each cell of a column holds a formula that takes its value from another sheet
    (VLOOKUP, XLOOKUP, INDEX and MATCH, SUMIF: any formula reading that sheet) and gives
    the expected value; a typed number does not count.

    Args:
        path: The spreadsheet as the agent sees it.
        sheet: The sheet with the column.
        column: The column's letter.
        first_row: Its first row to check.
        values: The value each cell must give, from ``first_row`` down.
        source_sheet: The sheet the formulas must read.
    """
    found = _sheet(env, path, sheet)
    if isinstance(found, str):
        return EvalResult(success=False, message=found)
    problem = lookup_problem(found, column.upper(), first_row, values, source_sheet)
    if problem:
        return EvalResult(success=False, message=f"{path}: {problem}")
    return EvalResult(success=True, message=f"{path}: {column} reads {source_sheet}")


def frozen_problem(sheet: Sheet, frozen: str) -> str:
    if sheet.frozen != frozen:
        shown = f"frozen at {sheet.frozen}" if sheet.frozen else "not frozen"
        return f"the sheet is {shown}, not frozen above and left of {frozen}"
    return ""


@evaluator(governs=_path_keys)
def panes_frozen(path: str, frozen: str, sheet: str = "", *, env: DesktopDevice) -> EvalResult:
    """The sheet's panes are frozen above and left of ``frozen`` ("A2": the first row only).

    Args:
        path: The spreadsheet as the agent sees it.
        frozen: The first cell below and right of the frozen panes.
        sheet: The sheet's name; the first sheet when empty.
    """
    found = _sheet(env, path, sheet)
    if isinstance(found, str):
        return EvalResult(success=False, message=found)
    problem = frozen_problem(found, frozen)
    if problem:
        return EvalResult(success=False, message=f"{path}: {problem}")
    return EvalResult(success=True, message=f"{path}: panes frozen at {frozen}")


def autofilter_problem(sheet: Sheet, columns: str, last_row: int) -> str:
    """Whether the sheet has filter buttons on a range from row 1 over columns ``columns``
    ("A:E") down to at least ``last_row``, with no filter condition applied."""
    if not sheet.autofilter:
        return "the sheet has no autofilter"
    start, _, end = sheet.autofilter.partition(":")
    first_column, last_column = columns.split(":")
    top = start.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    bottom = end.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ") if end else top
    if (
        start.rstrip("0123456789") != first_column
        or end.rstrip("0123456789") != last_column
        or top != "1"
        or int(bottom or 0) < last_row
    ):
        table = f"{first_column}1:{last_column}{last_row}"
        return f"the autofilter covers {sheet.autofilter}, not the table {table}"
    if sheet.filters:
        return "the autofilter hides rows (a filter condition is set)"
    return ""


@evaluator(governs=_path_keys)
def autofilter_on(
    path: str, columns: str, last_row: int, sheet: str = "", *, env: DesktopDevice
) -> EvalResult:
    """The table has autofilter buttons on its header row over all its columns and rows,
    with every row still shown.

    Args:
        path: The spreadsheet as the agent sees it.
        columns: The table's first and last column ("A:E").
        last_row: The table's last row.
        sheet: The sheet's name; the first sheet when empty.
    """
    found = _sheet(env, path, sheet)
    if isinstance(found, str):
        return EvalResult(success=False, message=found)
    problem = autofilter_problem(found, columns, last_row)
    if problem:
        return EvalResult(success=False, message=f"{path}: {problem}")
    return EvalResult(success=True, message=f"{path}: autofilter on {found.autofilter}")


def numbers_problem(sheet: Sheet, column: str, first: int, values: list[float]) -> str:
    """Whether the cells of ``column`` from row ``first`` on hold these numbers (as
    numbers, not text that looks like them)."""
    for offset, value in enumerate(values):
        address = f"{column}{first + offset}"
        cell = sheet.cells.get(address)
        if cell is None:
            return f"{address} is empty"
        if cell.value is None:
            return f"{address} holds the text {cell.text!r}, not a number"
        if not math.isclose(cell.value, value, abs_tol=1e-6):
            return f"{address} holds {cell.value:g}, not {value:g}"
    return ""


@evaluator(governs=_path_keys)
def column_numbers(
    path: str,
    column: str,
    first_row: int,
    values: list[float],
    sheet: str = "",
    *,
    env: DesktopDevice,
) -> EvalResult:
    """The cells of a column, from ``first_row`` down, hold these numbers as numbers.

    Args:
        path: The spreadsheet as the agent sees it.
        column: The column's letter.
        first_row: Its first row to check.
        values: The number each cell must hold, from ``first_row`` down.
        sheet: The sheet's name; the first sheet when empty.
    """
    found = _sheet(env, path, sheet)
    if isinstance(found, str):
        return EvalResult(success=False, message=found)
    problem = numbers_problem(found, column.upper(), first_row, values)
    if problem:
        return EvalResult(success=False, message=f"{path}: {problem}")
    return EvalResult(success=True, message=f"{path}: column {column} holds the numbers")


def formula_value_problem(sheet: Sheet, address: str, value: float) -> str:
    """Why ``address`` is not a formula giving ``value`` (to the cent); ``""`` when it is."""
    cell = sheet.cells.get(address)
    if cell is None:
        return f"{address} is empty"
    if not cell.formula:
        return f"{address} holds a typed value, not a formula"
    if cell.value is None or not math.isclose(cell.value, value, abs_tol=0.005):
        return f"{address} holds {cell.formula}, which gives {cell.text!r}, not {value:g}"
    return ""


@evaluator(governs=_path_keys)
def formula_gives(
    path: str, cell: str, value: float, sheet: str = "", *, env: DesktopDevice
) -> EvalResult:
    """The cell holds a formula (any: the task asked for one, not for a particular one)
    whose value is ``value`` to the cent; a typed number does not count, since the task's
    point is a total that follows the data.

    Args:
        path: The spreadsheet as the agent sees it.
        cell: The cell's address, e.g. "F1".
        value: The number the formula must give.
        sheet: The sheet's name; the first sheet when empty.
    """
    found = _sheet(env, path, sheet)
    if isinstance(found, str):
        return EvalResult(success=False, message=found)
    address = cell.strip().upper()
    problem = formula_value_problem(found, address, value)
    if problem:
        return EvalResult(success=False, message=f"{path}: {problem}")
    return EvalResult(success=True, message=f"{path}: {address} is a formula giving {value:g}")
