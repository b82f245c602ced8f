"""Checkpoints on Calc's analysis features, read from the saved file: a pivot table (a
real data pilot whose output cells hold the right sums) and conditional formatting (a real
rule that marks exactly the right cells, whatever form the rule takes).

Both judge what the feature *does*, not how it was written: a pivot table is accepted with
any name, on any sheet but the data's, with or without a grand total; a highlight rule is
accepted as "cell value > 1500", as "cell value > the note's cell", or as a formula
("$D2>1500") over the amounts or over whole rows. Typed-in numbers or hand-painted cells
hold no data pilot and no rule, and fail.

Each checkpoint has a pure core on a :class:`~reefbench.documents.Spreadsheet`
(``*_problem``: ``""`` when it passes, else what is wrong), which the unit tests exercise;
the evaluator reads the file and calls it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

from reefbench.actions.evaluators import EvalResult, evaluator
from reefbench.documents import (
    ConditionalFormat,
    DocumentUnreadable,
    Sheet,
    Spreadsheet,
    read_spreadsheet,
)
from reefbench.documents.normal import column_letters
from reefbench.envs.desktop.device import DesktopDevice
from reefbench.envs.desktop.evaluators import _file, file_key


def _path_keys(path: str, **_: Any) -> list[str]:
    return [file_key(path)]


def _book(env: DesktopDevice, path: str) -> Spreadsheet | str:
    target = _file(env, path)
    if target is None:
        return f"{path} does not exist"
    try:
        return read_spreadsheet(target)
    except DocumentUnreadable as exc:
        return str(exc)


def _result(problem: str, path: str, ok: str) -> EvalResult:
    if problem:
        return EvalResult(success=False, message=f"{path}: {problem}")
    return EvalResult(success=True, message=f"{path}: {ok}")


# ------------------------------------------------------------------------ pivot
def _same_text(a: str, b: str) -> bool:
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


def _pivot_output(sheet: Sheet, totals: dict[str, float]) -> str:
    """Whether each label of ``totals`` stands in a cell of the sheet with its total in a
    cell to its right on the same row (the pivot table's output as Calc lays it out)."""
    for label, total in totals.items():
        rows = [
            address
            for address, cell in sheet.cells.items()
            if cell.value is None and _same_text(cell.text, label)
        ]
        if not rows:
            return f"the pivot table's output on {sheet.name!r} has no row for {label!r}"
        found = []
        for address in rows:
            letters, number = re.fullmatch(r"([A-Z]+)(\d+)", address).groups()  # type: ignore[union-attr]
            start = _column(letters)
            right = [
                sheet.cells.get(f"{column_letters(c)}{number}") for c in range(start + 1, start + 4)
            ]
            found += [c.value for c in right if c is not None and c.value is not None]
        if not any(math.isclose(v, total, abs_tol=0.005) for v in found):
            shown = ", ".join(f"{v:g}" for v in found) or "no number"
            return f"{label!r} shows {shown} in the pivot table, not the total {total:g}"
    return ""


def _column(letters: str) -> int:
    index = 0
    for letter in letters:
        index = index * 26 + ord(letter) - ord("A") + 1
    return index - 1


def pivot_problem(
    book: Spreadsheet, data_sheet: str, row_field: str, data_field: str, totals: dict[str, float]
) -> str:
    """Whether a sheet other than ``data_sheet`` holds a pivot table that summarises the
    data by ``row_field`` (its one row field) with the sum of ``data_field`` (its one data
    field), and whose output shows each label's total in ``totals``."""
    pivots = [(sheet, p) for sheet in book.sheets for p in sheet.pivots]
    if not pivots:
        return "there is no pivot table (typed-in numbers are not one)"
    problems = []
    for sheet, pivot in pivots:
        if sheet.name == data_sheet:
            problems.append(f"{pivot.name} is on the data sheet {data_sheet!r}, not a new one")
        elif tuple(f.casefold() for f in pivot.rows) != (row_field.casefold(),):
            rows = ", ".join(pivot.rows) or "no field"
            problems.append(f"{pivot.name} has {rows} as its rows, not {row_field}")
        elif pivot.columns:
            problems.append(f"{pivot.name} also splits by {', '.join(pivot.columns)}")
        elif [(f.casefold(), fn) for f, fn in pivot.data] != [(data_field.casefold(), "sum")]:
            shown = ", ".join(f"{fn} of {f}" for f, fn in pivot.data) or "no data field"
            problems.append(f"{pivot.name} shows {shown}, not the sum of {data_field}")
        else:
            output = _pivot_output(sheet, totals)
            if not output:
                return ""
            problems.append(output)
    return "; ".join(problems)


@evaluator(governs=_path_keys)
def pivot_summary(
    path: str,
    data_sheet: str,
    row_field: str,
    data_field: str,
    totals: dict[str, float],
    *,
    env: DesktopDevice,
) -> EvalResult:
    """The spreadsheet has a pivot table (Calc's data pilot) on a sheet of its own that
    sums ``data_field`` by ``row_field``, and its output shows the right totals.

    Args:
        path: The spreadsheet as the agent sees it.
        data_sheet: The sheet with the data (the pivot table must not sit on it).
        row_field: The one row field (a column header of the data).
        data_field: The one data field, summed.
        totals: Each row label's expected total.
    """
    book = _book(env, path)
    if isinstance(book, str):
        return EvalResult(success=False, message=book)
    problem = pivot_problem(book, data_sheet, row_field, data_field, totals)
    return _result(problem, path, f"a pivot table sums {data_field} by {row_field}")


# --------------------------------------------------------- conditional formats
_COMPARE: dict[str, Callable[[float, float], bool]] = {
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    "=": lambda a, b: math.isclose(a, b),
    "!=": lambda a, b: not math.isclose(a, b),
}
_CELL = re.compile(r"(?:(.+)!)?\$?([A-Z]+)\$?(\d+)")


def _covers(ranges: str, column: int, row: int) -> tuple[int, int] | None:
    """The top-left (column, row) of the first range of ``ranges`` that holds the cell."""
    for one in ranges.split():
        ends = [_CELL.fullmatch(e.split("!")[-1].replace("$", "")) for e in one.split(":")]
        if not all(ends):
            continue
        corners = [(_column(m.group(2)), int(m.group(3))) for m in ends if m]
        left, top = corners[0]
        right, bottom = corners[-1]
        if left <= column <= right and top <= row <= bottom:
            return left, top
    return None


def _number(
    book: Spreadsheet, sheet: Sheet, operand: str, shift: tuple[int, int] = (0, 0)
) -> float | None:
    """An operand's number: a constant, or the value of the cell it names, moved by
    ``shift`` when it is on the rule's own sheet. The reader keeps no ``$``, so a reference
    to another sheet (the note's limit) is taken as anchored, and one on the rule's sheet
    as anchored in its column and relative in its row ("$D2")."""
    text = operand.strip()
    try:
        return float(text)
    except ValueError:
        pass
    if "!" not in text and "." in text:  # ODF's own form: $Notes.$B$3
        sheet_name, _, cell_name = text.replace("$", "").rpartition(".")
        text = f"{sheet_name}!{cell_name}" if sheet_name else cell_name
    match = _CELL.fullmatch(text)
    if match is None:
        return None
    name, letters, number = match.groups()
    try:
        target = book.sheet(name.strip("'$")) if name else sheet
    except DocumentUnreadable:
        return None
    if name:  # a reference to another sheet (the note's limit) is taken as anchored
        shift = (0, 0)
    column, row = _column(letters) + shift[0], int(number) + shift[1]
    cell = target.cells.get(f"{column_letters(column)}{row}")
    return cell.value if cell is not None else None


def _marks(book: Spreadsheet, sheet: Sheet, rule: ConditionalFormat, column: int, row: int) -> bool:
    """Whether ``rule`` applies its style to the cell (``column``, ``row``)."""
    corner = _covers(rule.range, column, row)
    if corner is None or not rule.style:
        return False
    cell = sheet.cells.get(f"{column_letters(column)}{row}")
    if rule.kind == "cell-is":
        value = cell.value if cell is not None else None
        operands = [_number(book, sheet, o) for o in rule.formulas]
        if value is None or None in operands:
            return False
        numbers = [o for o in operands if o is not None]
        if rule.operator in _COMPARE and numbers:
            return bool(_COMPARE[rule.operator](value, numbers[0]))
        if rule.operator in ("between", "not-between") and len(numbers) == 2:
            inside = min(numbers) <= value <= max(numbers)
            return inside == (rule.operator == "between")
        return False
    if rule.kind == "formula" and rule.formulas:
        match = re.fullmatch(r"(.+?)\s*(<=|>=|<>|!=|<|>|=)\s*(.+)", rule.formulas[0].strip())
        if match is None:
            return False
        left, operator, right = match.groups()
        shift = (0, row - corner[1])
        a, b = _number(book, sheet, left, shift), _number(book, sheet, right, shift)
        if a is None or b is None:
            return False
        return bool(_COMPARE["!=" if operator == "<>" else operator](a, b))
    return False


def highlight_problem(
    book: Spreadsheet, sheet_name: str, column: str, first_row: int, marked: list[bool]
) -> str:
    """Whether conditional formatting on the sheet marks, in ``column`` from ``first_row``
    down, exactly the cells ``marked`` says, and not the cell just below them (a total)."""
    try:
        sheet = book.sheet(sheet_name)
    except DocumentUnreadable as exc:
        return str(exc)
    rules = sheet.conditional_formats
    if not rules:
        hand = "colours set by hand do not count"
        return f"the sheet {sheet.name!r} has no conditional formatting ({hand})"
    index = _column(column)
    wrong = []
    for offset, expected in enumerate([*marked, False]):
        row = first_row + offset
        found = any(_marks(book, sheet, rule, index, row) for rule in rules)
        if found != expected:
            cell = sheet.cells.get(f"{column}{row}")
            shown = cell.text if cell is not None else "empty"
            wrong.append(f"{column}{row} ({shown}) is {'' if found else 'not '}marked")
    if wrong:
        more = f" and {len(wrong) - 3} more" if len(wrong) > 3 else ""
        return "the conditional formatting is wrong: " + "; ".join(wrong[:3]) + more
    return ""


@evaluator(governs=_path_keys)
def cells_highlighted(
    path: str, sheet: str, column: str, first_row: int, marked: list[bool], *, env: DesktopDevice
) -> EvalResult:
    """Conditional formatting (a rule with a style, in any form: a cell-value condition,
    one that reads another cell, a formula) marks exactly these cells of a column and not
    the one below them; cells coloured by hand do not count.

    Args:
        path: The spreadsheet as the agent sees it.
        sheet: The sheet's name ("" for the first).
        column: The column's letter.
        first_row: The first row checked.
        marked: Whether each cell from ``first_row`` down must be marked.
    """
    book = _book(env, path)
    if isinstance(book, str):
        return EvalResult(success=False, message=book)
    problem = highlight_problem(book, sheet, column.upper(), first_row, marked)
    return _result(problem, path, f"conditional formatting marks the right cells of {column}")


# ------------------------------------------------------------------------ chart
def _range_only(reference: str) -> str:
    return reference.split("!")[-1].replace("$", "").upper()


def chart_problem(
    book: Spreadsheet, sheet_name: str, kinds: list[str], values: str, title: str
) -> str:
    """Whether the sheet holds a chart of one of ``kinds``, titled ``title`` (case and
    spacing aside), whose one series takes its values from ``values`` ("C6:C13" on the
    data sheet; the category labels are the chart's own business)."""
    try:
        sheet = book.sheet(sheet_name)
    except DocumentUnreadable as exc:
        return str(exc)
    if not sheet.charts:
        return f"the sheet {sheet.name!r} has no chart"
    problems = []
    for chart in sheet.charts:
        ranges = [_range_only(r) for r in chart.ranges]
        if chart.kind not in kinds:
            problems.append(f"a {chart.kind} chart, not a {kinds[0]} chart")
        elif not _same_text(chart.title, title):
            problems.append(f"a chart titled {chart.title!r}, not {title!r}")
        elif ranges != [values.upper()]:
            shown = ", ".join(chart.ranges) or "no cells"
            problems.append(f"a chart of {shown}, not of {values} alone")
        else:
            return ""
    return f"the sheet {sheet.name!r} has " + "; ".join(problems)


@evaluator(governs=_path_keys)
def chart_of_range(
    path: str, sheet: str, kinds: list[str], values: str, title: str, *, env: DesktopDevice
) -> EvalResult:
    """A chart on ``sheet`` of one of ``kinds``, titled ``title``, whose one series is the
    cells ``values`` of that sheet.

    Args:
        path: The spreadsheet as the agent sees it.
        sheet: The sheet the chart must be on (and its data).
        kinds: The accepted chart types ("line"; "column" and "bar" for bars).
        values: The series' cells ("C6:C13").
        title: The chart's main title.
    """
    book = _book(env, path)
    if isinstance(book, str):
        return EvalResult(success=False, message=book)
    problem = chart_problem(book, sheet, kinds, values, title)
    return _result(problem, path, f"a {kinds[0]} chart of {values} titled {title!r}")
