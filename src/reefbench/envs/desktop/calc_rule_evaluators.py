"""Checkpoints on Calc features whose right answer depends on each row's own content,
read from the saved file:

* :func:`amounts_over_dated_limits`: conditional formatting marks exactly the amounts
  above the limit in force on *their row's date* (a limit that changed partway through
  the list). A rule is judged by what it marks, row by row, whatever its form: a
  cell-value condition with an expression ("> IF($A2<DATE(2026;3;16);800;1000)"), a
  formula rule, two rules with AND, a helper column the rule reads. Rows are matched by
  their content, so sorting the list first is no fault; changing the amounts is.
* :func:`chart_with_categories`: a chart of one series whose category labels (the
  months on its axis) come from the asked cells, for when the instruction asks for them.

Pure cores (``*_problem``) take a :class:`~reefbench.documents.Spreadsheet` for the unit
tests; the evaluators read the file and call them.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from reefbench.actions.evaluators import EvalResult, evaluator
from reefbench.documents import ConditionalFormat, DocumentUnreadable, Sheet, Spreadsheet
from reefbench.envs.desktop.calc_analysis_evaluators import _book, _path_keys, _result
from reefbench.envs.desktop.calc_formula import Unsupported, column_of, compare, evaluate
from reefbench.envs.desktop.device import DesktopDevice


def _corners(ranges: str) -> list[tuple[int, int, int, int]]:
    """Each range of ``ranges`` ("D2:D23 F2:F9") as (left, top, right, bottom)."""
    found = []
    for one in ranges.split():
        ends = []
        for end in one.split(":"):
            address = end.split("!")[-1].replace("$", "").upper()
            letters = address.rstrip("0123456789")
            if not letters or letters == address:
                break
            ends.append((column_of(letters), int(address[len(letters) :])))
        if ends:
            found.append((ends[0][0], ends[0][1], ends[-1][0], ends[-1][1]))
    return found


def rule_marks(book: Spreadsheet, sheet: Sheet, rule: ConditionalFormat, cell: str) -> bool:
    """Whether ``rule`` applies its style to ``cell`` ("D7"): its relative references
    move from the rule's base cell (the first range's top-left) to the cell's row."""
    letters = cell.rstrip("0123456789")
    column, row = column_of(letters), int(cell[len(letters) :])
    corners = _corners(rule.range)
    inside = any(lt <= column <= rt and tp <= row <= bm for lt, tp, rt, bm in corners)
    if not inside or not rule.style:
        return False
    shift = row - corners[0][1]
    try:
        if rule.kind == "cell-is":
            held = sheet.cells.get(cell)
            if held is None or held.value is None:
                return False
            operands = [evaluate(book, sheet, o, shift) for o in rule.formulas]
            numbers = [o for o in operands if isinstance(o, float)]
            if len(numbers) != len(operands) or not numbers:
                return False
            if rule.operator in ("between", "not-between") and len(numbers) == 2:
                inside = min(numbers) <= held.value <= max(numbers)
                return inside == (rule.operator == "between")
            if rule.operator in ("=", "!=", "<", ">", "<=", ">="):
                return compare(held.value, rule.operator, numbers[0])
            return False
        if rule.kind == "formula" and rule.formulas:
            result = evaluate(book, sheet, rule.formulas[0], shift)
            return isinstance(result, float) and result != 0
    except Unsupported:
        return False
    return False


def _limit(date: str, limits: list[list[Any]]) -> float:
    """The limit in force on ``date``: the last entry whose start is on or before it."""
    return float(max((s, float(v)) for s, v in limits if str(s) <= date)[1])


def _row_key(sheet: Sheet, date_column: str, amount_column: str, row: int) -> tuple[str, float]:
    date = sheet.cells.get(f"{date_column}{row}")
    amount = sheet.cells.get(f"{amount_column}{row}")
    shown = (date.date[:10] or date.text) if date is not None else ""
    value = amount.value if amount is not None and amount.value is not None else float("nan")
    return shown, round(value, 2)


def dated_highlight_problem(
    book: Spreadsheet,
    sheet_name: str,
    date_column: str,
    amount_column: str,
    rows: list[list[Any]],
    limits: list[list[Any]],
) -> str:
    """Whether conditional formatting marks, among the rows from 2 down (the list's
    ``rows``, ``[date, amount]`` each, in any order), exactly the amounts above the limit
    in force on their date (``limits``: ``[first day, limit]`` each), and not the cell
    below the last row (a total)."""
    try:
        sheet = book.sheet(sheet_name)
    except DocumentUnreadable as exc:
        return str(exc)
    if not sheet.conditional_formats:
        return f"the sheet {sheet.name!r} has no conditional formatting (hand colours do not count)"
    last = len(rows) + 1
    saved = [_row_key(sheet, date_column, amount_column, r) for r in range(2, last + 1)]
    if Counter(saved) != Counter((str(d), round(float(a), 2)) for d, a in rows):
        return f"rows 2-{last} no longer hold the list's dates and amounts"
    wrong = []
    for row, (date, amount) in enumerate([*saved, ("", 0.0)], 2):
        expected = bool(date) and amount > _limit(date, limits)
        cell = f"{amount_column}{row}"
        found = any(rule_marks(book, sheet, rule, cell) for rule in sheet.conditional_formats)
        if found != expected:
            held = sheet.cells.get(cell)
            shown = held.text if held is not None else "empty"
            wrong.append(f"{cell} ({shown}, {date or 'total'}) is {'' if found else 'not '}marked")
    if wrong:
        more = f" and {len(wrong) - 3} more" if len(wrong) > 3 else ""
        return "the conditional formatting is wrong: " + "; ".join(wrong[:3]) + more
    return ""


@evaluator(governs=_path_keys)
def amounts_over_dated_limits(
    path: str,
    sheet: str,
    date_column: str,
    amount_column: str,
    rows: list[list[Any]],
    limits: list[list[Any]],
    *,
    env: DesktopDevice,
) -> EvalResult:
    """Conditional formatting (any rule form) marks exactly the amounts above the limit
    in force on their own row's date, and not the total below them; hand colours do not
    count.

    Args:
        path: The spreadsheet as the agent sees it.
        sheet: The sheet with the list.
        date_column: The column of the rows' dates.
        amount_column: The column of the amounts.
        rows: The list's rows as ``[ISO date, amount]``, from row 2 down (any order).
        limits: ``[ISO first day, limit]`` per period, the earliest first.
    """
    book = _book(env, path)
    if isinstance(book, str):
        return EvalResult(success=False, message=book)
    problem = dated_highlight_problem(book, sheet, date_column, amount_column, rows, limits)
    return _result(problem, path, "conditional formatting marks the amounts over their limit")


# ------------------------------------------------------------------------ chart
def _cells(reference: str) -> str:
    return reference.split("!")[-1].replace("$", "").upper()


def categorised_chart_problem(
    book: Spreadsheet, sheet_name: str, kinds: list[str], values: str, categories: str, title: str
) -> str:
    """Whether the sheet holds a chart of one of ``kinds``, titled ``title`` (case and
    spacing aside), whose one series is ``values`` and whose category labels are
    ``categories`` (both on the data sheet)."""
    try:
        sheet = book.sheet(sheet_name)
    except DocumentUnreadable as exc:
        return str(exc)
    if not sheet.charts:
        return f"the sheet {sheet.name!r} has no chart"
    problems = []
    for chart in sheet.charts:
        ranges = [_cells(r) for r in chart.ranges]
        if chart.kind not in kinds:
            problems.append(f"a {chart.kind} chart, not a {kinds[0]} chart")
        elif " ".join(chart.title.split()).casefold() != " ".join(title.split()).casefold():
            problems.append(f"a chart titled {chart.title!r}, not {title!r}")
        elif ranges != [values.upper()]:
            shown = ", ".join(chart.ranges) or "no cells"
            problems.append(f"a chart of {shown}, not of {values} alone")
        elif _cells(chart.categories) != categories.upper():
            shown = chart.categories or "no cells (numbers 1, 2, 3...)"
            problems.append(f"a chart labelled by {shown}, not by {categories}")
        else:
            return ""
    return f"the sheet {sheet.name!r} has " + "; ".join(problems)


@evaluator(governs=_path_keys)
def chart_with_categories(
    path: str,
    sheet: str,
    kinds: list[str],
    values: str,
    categories: str,
    title: str,
    *,
    env: DesktopDevice,
) -> EvalResult:
    """A chart on ``sheet`` of one of ``kinds``, titled ``title``, whose one series is the
    cells ``values`` and whose axis labels are the cells ``categories``.

    Args:
        path: The spreadsheet as the agent sees it.
        sheet: The sheet the chart must be on (and its data).
        kinds: The accepted chart types ("line"; "column" and "bar" for bars).
        values: The series' cells ("C6:C13").
        categories: The cells of its category labels ("A6:A13").
        title: The chart's main title.
    """
    book = _book(env, path)
    if isinstance(book, str):
        return EvalResult(success=False, message=book)
    problem = categorised_chart_problem(book, sheet, kinds, values, categories, title)
    return _result(problem, path, f"a {kinds[0]} chart of {values} by {categories}")
