"""Setup and checkpoints of the Calc templates that make the agent work through many rows
(:mod:`reefbench.benchmark.templates.calc_ledger`): a bank statement reconciled against a
ledger, and per-region totals over a messy sales register.

* **Setup**: :func:`create_dated_workbook` writes a workbook whose ISO dates are real date
  cells (a bank statement or sales register has dates a formula can compare), unlike
  :func:`~reefbench.envs.desktop.setup.create_workbook`, which keeps them as text.
* **Checkpoints**: :func:`ledger_appended` (every original ledger row still there, and
  below them exactly the missing transactions, in any order, written as the ledger writes
  its rows) and :func:`labelled_totals` (on a named sheet, each label with its total in
  the cell right of it, wherever the agent put them).

Each checkpoint has a pure core on a :class:`~reefbench.documents.Sheet` (``*_problem``:
``""`` when it passes, else what is wrong), which the unit tests exercise.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from reefbench.actions.evaluators import EvalResult, evaluator
from reefbench.actions.spec import action
from reefbench.documents import DocumentUnreadable, Sheet, read_spreadsheet
from reefbench.documents.normal import column_letters
from reefbench.envs.desktop.device import DesktopDevice
from reefbench.envs.desktop.evaluators import _file, file_key

_NUMBER = re.compile(r"-?\d+(\.\d+)?")
_ISO_DATE = re.compile(r"\d{4}-\d\d-\d\d")


def _path_keys(path: str, **_: Any) -> list[str]:
    return [file_key(path)]


# ------------------------------------------------------------------------ setup
def write_dated_workbook(path: Path, sheets: Mapping[str, Sequence[Sequence[str]]]) -> None:
    """An ``.ods`` with these sheets (name -> rows): numbers as numbers, ``YYYY-MM-DD`` as
    date cells shown in that form, anything else as text."""
    from odf.number import DateStyle, Day, Month, Text, Year
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.style import Style
    from odf.table import Table, TableCell, TableRow
    from odf.text import P

    document = OpenDocumentSpreadsheet()
    iso = DateStyle(name="isodate")
    for part in (Year(style="long"), "-", Month(style="long"), "-", Day(style="long")):
        iso.addElement(Text(text=part) if isinstance(part, str) else part)
    document.automaticstyles.addElement(iso)
    dated = Style(name="datecell", family="table-cell", datastylename="isodate")
    document.automaticstyles.addElement(dated)
    for name, rows in sheets.items():
        table = Table(name=name)
        for row in rows:
            table_row = TableRow()
            for value in row:
                text = value.strip()
                if _NUMBER.fullmatch(text):
                    cell = TableCell(valuetype="float", value=text)
                elif _ISO_DATE.fullmatch(text):
                    cell = TableCell(valuetype="date", datevalue=text, stylename=dated)
                else:
                    cell = TableCell(valuetype="string")
                if text:
                    cell.addElement(P(text=value))
                else:
                    cell = TableCell()
                table_row.addElement(cell)
            table.addElement(table_row)
        document.spreadsheet.addElement(table)
    path.parent.mkdir(parents=True, exist_ok=True)
    document.save(str(path))


@action
def create_dated_workbook(path: str, sheets: dict[str, list[list[str]]], env: DesktopDevice) -> str:
    """Create (or overwrite) an OpenDocument spreadsheet (.ods) with several sheets, in
    order; cells that read as numbers are numbers, cells written YYYY-MM-DD are dates.

    Args:
        path: Path as the agent sees it, e.g. "~/Documents/bank.ods".
        sheets: Each sheet's name and its rows (top first, each a list of cell texts from
            column A on; an empty text leaves the cell empty).
    """
    target = env.session.host_path(path)
    write_dated_workbook(target, sheets)
    env.stamp_world_time(target)
    return f"created {path}"


def _sheet(env: DesktopDevice, path: str, sheet: str) -> Sheet | str:
    target = _file(env, path)
    if target is None:
        return f"{path} does not exist"
    try:
        return read_spreadsheet(target).sheet(sheet)
    except DocumentUnreadable as exc:
        return str(exc)


def _words(text: str) -> str:
    return " ".join(text.split()).casefold()


# ------------------------------------------------------------------------ ledger
def _shown(sheet: Sheet, address: str) -> str:
    cell = sheet.cells.get(address)
    if cell is None:
        return ""
    if cell.value is not None:
        return f"{cell.value:.2f}"
    return cell.text.strip()


def _canonical(text: str) -> str:
    return f"{float(text):.2f}" if _NUMBER.fullmatch(text.strip()) else text.strip()


def ledger_date(iso: str) -> str:
    """``2026-07-03`` as the ledger writes it: ``03.07.2026``."""
    year, month, day = iso.split("-")
    return f"{day}.{month}.{year}"


def _row_matches(sheet: Sheet, row: int, expected: Sequence[str]) -> bool:
    """Whether ledger row ``row`` is the transaction ``expected`` (ISO date, payee,
    "Dr"/"Cr", positive amount): the date as the ledger's text or as a date cell of that
    day, the payee up to case and spacing, the side, the amount as a number."""
    iso, payee, side, amount = expected
    date = sheet.cells.get(f"A{row}")
    if date is None or not (date.text.strip() == ledger_date(iso) or date.date[:10] == iso):
        return False
    if _words(_shown(sheet, f"B{row}")) != _words(payee):
        return False
    if _shown(sheet, f"C{row}").casefold() != side.casefold():
        return False
    value = sheet.cells.get(f"D{row}")
    return (
        value is not None
        and value.value is not None
        and math.isclose(value.value, float(amount), abs_tol=0.005)
    )


def ledger_problem(
    sheet: Sheet, original: Sequence[Sequence[str]], missing: Sequence[Sequence[str]]
) -> str:
    """Whether the ledger (a header row, then ``original`` in columns A to D) still holds
    every original row unchanged and in place, and below them exactly the ``missing``
    transactions (each once, any order, blank rows between them ignored). Columns right
    of D are the agent's helpers and are not read."""
    for offset, row in enumerate(original):
        number = offset + 2
        found = [_shown(sheet, f"{column_letters(c)}{number}") for c in range(4)]
        if found != [_canonical(v) for v in row]:
            return f"ledger row {number} was changed or moved (it reads {' | '.join(found)})"
    first = len(original) + 2
    last = max(
        (int(m.group(2)) for a in sheet.cells if (m := re.fullmatch(r"([A-D])(\d+)", a))),
        default=0,
    )
    added = [r for r in range(first, last + 1) if any(_shown(sheet, f"{c}{r}") for c in "ABCD")]
    left = list(range(len(missing)))
    for number in added:
        match = next((i for i in left if _row_matches(sheet, number, missing[i])), None)
        if match is None:
            shown = " | ".join(_shown(sheet, f"{c}{number}") for c in "ABCD")
            return f"the added ledger row {number} ({shown}) is not a missing bank transaction"
        left.remove(match)
    if left:
        iso, payee, side, amount = missing[left[0]]
        return (
            f"{len(left)} missing transaction(s) not added, e.g. {ledger_date(iso)} {payee} "
            f"{side} {amount}"
        )
    return ""


@evaluator(governs=_path_keys)
def ledger_appended(
    path: str,
    sheet: str,
    original: list[list[str]],
    missing: list[list[str]],
    *,
    env: DesktopDevice,
) -> EvalResult:
    """The ledger sheet still holds its rows unchanged, and below them the missing bank
    transactions, each once (in any order), as the ledger writes them.

    Args:
        path: The spreadsheet as the agent sees it.
        sheet: The ledger's sheet.
        original: The ledger's rows under its header as they were (date, payee, Dr/Cr,
            amount).
        missing: The transactions to add: [ISO date, payee, "Dr" or "Cr", amount].
    """
    found = _sheet(env, path, sheet)
    if isinstance(found, str):
        return EvalResult(success=False, message=found)
    problem = ledger_problem(found, original, missing)
    if problem:
        return EvalResult(success=False, message=f"{path}: {problem}")
    return EvalResult(success=True, message=f"{path}: the {len(missing)} missing rows added")


# ------------------------------------------------------------------------ totals
def _split(address: str) -> tuple[int, int]:
    letters, number = re.fullmatch(r"([A-Z]+)(\d+)", address).groups()  # type: ignore[union-attr]
    index = 0
    for letter in letters:
        index = index * 26 + ord(letter) - ord("A") + 1
    return index - 1, int(number)


def totals_problem(sheet: Sheet, totals: Mapping[str, float], tolerance: float = 0.01) -> str:
    """Whether each label of ``totals`` stands in a text cell of the sheet with a number in
    the cell right of it within ``tolerance`` of its total (and no copy of the label with
    another number beside it)."""
    for label, total in totals.items():
        beside = []
        for address, cell in sheet.cells.items():
            if cell.value is not None or _words(cell.text) != _words(label):
                continue
            column, row = _split(address)
            right = sheet.cells.get(f"{column_letters(column + 1)}{row}")
            if right is not None and right.value is not None:
                beside.append(right.value)
        if not beside:
            return f"{sheet.name!r} has no {label!r} with a number right of it"
        wrong = [v for v in beside if not math.isclose(v, total, abs_tol=tolerance)]
        if wrong:
            return f"{sheet.name!r} gives {label!r} {wrong[0]:.2f}, not {total:.2f}"
    return ""


@evaluator(governs=_path_keys)
def labelled_totals(
    path: str, sheet: str, totals: dict[str, float], *, env: DesktopDevice
) -> EvalResult:
    """A sheet of that name holds, for each label, the label in a cell and its total as a
    number in the cell right of it (anywhere on the sheet; within a cent).

    Args:
        path: The spreadsheet as the agent sees it.
        sheet: The sheet the totals must be on.
        totals: Each label and its total.
    """
    found = _sheet(env, path, sheet)
    if isinstance(found, str):
        return EvalResult(success=False, message=found)
    problem = totals_problem(found, totals)
    if problem:
        return EvalResult(success=False, message=f"{path}: {problem}")
    return EvalResult(success=True, message=f"{path}: every total on {sheet}")
