"""Hard office templates for reef-v1: reasoning over a spreadsheet the user already has,
then reporting the result in a text document.

The spreadsheet is seeded as a real ``.ods`` (written by odfpy at setup, so only a save by
LibreOffice passes :func:`~reefbench.envs.desktop.office_evaluators.saved_by_libreoffice`)
with a dozen expenses in several categories, one of them a look-alike ("Food delivery"
beside "Food"). The values the agent must write are in no instruction: it computes them
with conditional formulas in Calc (checked as formula *and* value) and copies the results
into a Writer report (checked as text *and* heading style).
"""

from __future__ import annotations

import random

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.benchmark.templates.common import call, expand
from reefbench.benchmark.templates.office import save_and_quit, saved_document
from reefbench.envs.desktop import office_evaluators as oe
from reefbench.envs.desktop import setup as st
from reefbench.tasks.subtask import NearMiss, SubTask
from reefbench.tasks.task import ActionStep
from reefbench.tasks.worldtime import DEFAULT_NOW

D = "desktop"
REPORT_INTENT = "report on a spreadsheet on the computer"
HEADER = ["Date", "Category", "Description", "Amount"]
CATEGORIES = ["Food", "Travel", "Office", "Food delivery", "Rent"]
DESCRIPTIONS = {
    "Food": ["Groceries", "Market", "Bakery", "Butcher"],
    "Travel": ["Train ticket", "Taxi", "Bus pass", "Flight"],
    "Office": ["Printer paper", "Pens", "Desk lamp", "Toner"],
    "Food delivery": ["Pizza order", "Curry order", "Sushi order"],
    "Rent": ["Garage rent", "Storage unit"],
}
ROWS = 12
# "This month's expenses" are dated in the month of the task's world time (a task whose
# setup sets no clock: reefbench.tasks.worldtime.DEFAULT_NOW); a playtest saw a sheet of March
# 2026 under a clock showing June 2024. reef-v1's published sheets keep their dates.
MONTH = DEFAULT_NOW[:7]


def _sheet(seed: int, averaged: str) -> str:
    """A month of expenses as ``date|category|description|amount`` lines; the amounts of
    ``averaged`` add up to a multiple of their count, so its average is a whole number."""
    rng = random.Random(seed)
    categories = [*CATEGORIES, *rng.choices(CATEGORIES, k=ROWS - len(CATEGORIES))]
    rng.shuffle(categories)
    rows: list[list[str]] = []
    amounts: list[int] = []
    for day, category in enumerate(categories, 1):
        amounts.append(rng.randrange(8, 120))
        rows.append([f"{MONTH}-{day * 2:02d}", category, rng.choice(DESCRIPTIONS[category])])
    mine = [i for i, row in enumerate(rows) if row[1] == averaged]
    amounts[mine[-1]] += (-sum(amounts[i] for i in mine)) % len(mine)
    return "\n".join(
        "|".join([*row, str(amount)]) for row, amount in zip(rows, amounts, strict=True)
    )


def _rows(sheet: str) -> list[list[str]]:
    return [line.split("|") for line in sheet.splitlines()]


def _total(sheet: str, category: str) -> int:
    return sum(int(r[3]) for r in _rows(sheet) if r[1] == category)


def _average(sheet: str, category: str) -> int:
    amounts = [int(r[3]) for r in _rows(sheet) if r[1] == category]
    return sum(amounts) // len(amounts)


def _record(seed: int, path: str, report: str, total: str, average: str) -> dict[str, str]:
    return {
        "path": path,
        "report": report,
        "total_of": total,
        "average_of": average,
        "sheet": _sheet(seed, average),
    }


RECORDS = [
    _record(1, "~/Documents/expenses.ods", "~/Documents/expense-report.odt", "Food", "Travel"),
    _record(2, "~/Documents/march.ods", "~/Documents/march-report.odt", "Office", "Food"),
    _record(3, "~/Documents/spending.ods", "~/Documents/spending-note.odt", "Travel", "Office"),
    _record(4, "~/Documents/costs.ods", "~/Documents/costs-summary.odt", "Food", "Office"),
    _record(5, "~/Documents/ledger.ods", "~/Documents/ledger-report.odt", "Travel", "Food"),
    _record(6, "~/Documents/outgoings.ods", "~/Documents/outgoings.odt", "Office", "Travel"),
]


def report_setup(
    path: str, report: str, total_of: str, average_of: str, sheet: str
) -> list[ActionStep]:
    rows = [HEADER, *_rows(sheet)]
    return [ActionStep(env=D, action=st.create_spreadsheet(path=path, rows=rows))]


def _last_row(sheet: str) -> int:
    return len(_rows(sheet)) + 1


def _formulas(sheet: str, total_of: str, average_of: str) -> tuple[str, str]:
    last = _last_row(sheet)
    return (
        f'=SUMIF(B2:B{last};"{total_of}";D2:D{last})',
        f'=AVERAGEIF(B2:B{last};"{average_of}";D2:D{last})',
    )


def _lines(total_of: str, total: int, average_of: str, average: int) -> list[str]:
    return [f"Total {total_of}: {total}", f"Average {average_of}: {average}"]


def report_checkpoints(
    path: str, report: str, total_of: str, average_of: str, sheet: str
) -> list[Evaluator]:
    total, average = _total(sheet, total_of), _average(sheet, average_of)
    first, second = _lines(total_of, total, average_of, average)
    return [
        oe.spreadsheet_formula(path=path, cell="G1", value=total, uses="SUMIF"),
        oe.spreadsheet_formula(path=path, cell="G2", value=average, uses="AVERAGEIF"),
        oe.saved_by_libreoffice(path=path),
        oe.document_paragraph(path=report, text="Expense report", style="Heading 1"),
        oe.document_paragraph(path=report, text=first),
        oe.document_paragraph(path=report, text=second),
        oe.saved_by_libreoffice(path=report),
    ]


def _to_column_f() -> list[ActionCall]:
    """From column A of a row of the table: Ctrl+Right to its last column (D), two more."""
    return [
        call(D, "hotkey", keys=["ctrl", "right"]),
        call(D, "press", key="right"),
        call(D, "press", key="right"),
    ]


def _calc_steps(path: str, first: str, second: str) -> list[ActionCall]:
    """Open the spreadsheet through Calc's Open dialog, fill F1:G2 (the cursor starts at
    A1; the arrow keys move it; Tab between two entries), save it in its own format and quit."""
    return [
        call(D, "search_app", name="spreadsheet"),
        call(D, "hotkey", keys=["ctrl", "o"]),
        call("root", "wait"),
        call(D, "write_text", text=expand(path)),
        call("root", "wait"),
        call(D, "press", key="enter"),
        call("root", "wait"),
        *_to_column_f(),
        call(D, "write_text", text=first + "\n"),
        call(D, "hotkey", keys=["ctrl", "home"]),
        call(D, "press", key="down"),
        *_to_column_f(),
        call(D, "write_text", text=second + "\n"),
        call(D, "hotkey", keys=["ctrl", "s"]),
        call("root", "wait"),
        call(D, "hotkey", keys=["ctrl", "q"]),
        call("root", "wait"),
    ]


def _writer_steps(report: str, lines: list[str]) -> list[ActionCall]:
    return [
        call(D, "search_app", name="word processor"),
        call(D, "hotkey", keys=["ctrl", "1"]),
        call(D, "write_text", text="Expense report\n" + "\n".join(lines)),
        *save_and_quit(report),
    ]


def report_solution(
    path: str, report: str, total_of: str, average_of: str, sheet: str
) -> list[ActionCall]:
    sum_formula, average_formula = _formulas(sheet, total_of, average_of)
    lines = _lines(total_of, _total(sheet, total_of), average_of, _average(sheet, average_of))
    return [
        *_calc_steps(
            path, f"Total {total_of}\t{sum_formula}", f"Average {average_of}\t{average_formula}"
        ),
        *_writer_steps(report, lines),
    ]


def report_typed_values(
    path: str, report: str, total_of: str, average_of: str, sheet: str
) -> list[ActionCall]:
    """Near miss: the results worked out by hand and typed into the sheet as numbers."""
    total, average = _total(sheet, total_of), _average(sheet, average_of)
    return [
        *_calc_steps(path, f"Total {total_of}\t{total}", f"Average {average_of}\t{average}"),
        *_writer_steps(report, _lines(total_of, total, average_of, average)),
    ]


def report_look_alike(
    path: str, report: str, total_of: str, average_of: str, sheet: str
) -> list[ActionCall]:
    """Near miss: every row whose category starts with the name ("Food delivery" with
    "Food"), added up with a wildcard criterion, and that total reported."""
    last = _last_row(sheet)
    _, average_formula = _formulas(sheet, total_of, average_of)
    loose = sum(int(r[3]) for r in _rows(sheet) if r[1].startswith(total_of))
    wrong = f'=SUMPRODUCT(LEFT(B2:B{last};{len(total_of)})="{total_of}";D2:D{last})'
    if loose == _total(sheet, total_of):  # no look-alike in this sheet: a wrong column
        wrong, loose = f'=SUMIF(B2:B{last};"{total_of}";A2:A{last})', 0
    lines = _lines(total_of, loose, average_of, _average(sheet, average_of))
    return [
        *_calc_steps(
            path, f"Total {total_of}\t{wrong}", f"Average {average_of}\t{average_formula}"
        ),
        *_writer_steps(report, lines),
    ]


CALC_WRITER_REPORT = SubTask(
    id="desktop.calc_writer_report",
    description=(
        "The spreadsheet {path} lists this month's expenses (date, category, description, "
        'amount). In it, write "Total {total_of}" in F1 and in G1 a formula giving the total '
        'amount of the {total_of} expenses; write "Average {average_of}" in F2 and in G2 a '
        "formula giving the average amount of the {average_of} expenses; save the "
        "spreadsheet in its own format. Then write a new text document with the heading "
        '"Expense report" (Heading 1 style) and two lines below it, "Total {total_of}: N" '
        'and "Average {average_of}: M" with N and M the results, and save it as {report}.'
    ),
    attributes={
        "path": "desktop_file",
        "report": "desktop_file",
        "total_of": "text",
        "average_of": "text",
        "sheet": "str",
    },
    output_type="desktop_file",
    outputs=["desktop_file"],
    env=D,
    app="calc",
    app_category="office",
    intents=[REPORT_INTENT],
    value_records=RECORDS,
    setup_generator=report_setup,
    evaluator_generator=report_checkpoints,
    solution_generator=report_solution,
    output_generator=saved_document,
    near_misses=[
        NearMiss("types the results instead of formulas", solution=report_typed_values),
        NearMiss("adds the look-alike category too", solution=report_look_alike),
    ],
)

TEMPLATES: list[SubTask] = [CALC_WRITER_REPORT]
