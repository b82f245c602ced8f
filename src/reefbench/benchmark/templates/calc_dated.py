"""LibreOffice Calc template of reef-v2's office family (hard tier) whose answer turns on
dates read from the workbook: which limit applies to which expense. Checked in the saved
``.ods``
(:mod:`reefbench.envs.desktop.calc_rule_evaluators`).

* :data:`CALC_LIMIT_HIGHLIGHT`: expenses from February and March, listed by employee (so
  their dates interleave), and a second-approval limit that changed partway through (the
  Notes sheet: until a day, from the next). Every amount above the limit in force on *its
  own date* must stand out through conditional formatting; a playtest found one limit for
  every row too easy. The rule must depend on the date, e.g. "cell value >
  IF($A2<DATE(2026;3;16);800;1000)"; any form that marks the right cells passes (a
  formula rule, two rules, a helper column), rows matched by content. The data holds an
  amount exactly at each limit, amounts between the two limits on both sides of the
  change, one on the change day itself. Near misses: one limit for all rows (either
  one), ">=" instead of ">", the change day under the old limit, cells coloured by hand.
The chart of a shop's full months of trading is in
:mod:`reefbench.benchmark.templates.calc_chart`.

Reference solutions open the file through Calc's Open dialog, work through the menus and
dialogs, save with Ctrl+S and quit.
"""

from __future__ import annotations

import datetime
import random
from operator import itemgetter

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.benchmark.templates.calc import go_to, menu, open_in_calc, save_in_place
from reefbench.benchmark.templates.common import call
from reefbench.benchmark.templates.office import saved_document
from reefbench.envs.desktop import calc_rule_evaluators as re_
from reefbench.envs.desktop import office_evaluators as oe
from reefbench.envs.desktop import setup as st
from reefbench.tasks.subtask import NearMiss, SubTask
from reefbench.tasks.task import ActionStep

D = "desktop"
ANALYSIS_INTENT = "analyse a spreadsheet on the computer"
MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]


def _rows(table: str) -> list[list[str]]:
    return [line.split("|") for line in table.splitlines()]


def _day(iso: str) -> datetime.date:
    return datetime.date.fromisoformat(iso)


def spoken(day: datetime.date) -> str:
    """A date as the note writes it: "16 March 2026"."""
    return f"{day.day} {MONTHS[day.month - 1]} {day.year}"


# -------------------------------------------------------------------- highlight
EXPENSE_HEADER = ["Date", "Employee", "Category", "Amount"]
EMPLOYEES = ["J. Novak", "R. Mensah", "L. Ferreira", "K. Yilmaz", "D. Oyelaran", "S. Berg"]
CATEGORIES = ["Travel", "Hotel", "Equipment", "Training", "Client dinner", "Software"]
FIRST_DAY, LAST_DAY = datetime.date(2026, 2, 2), datetime.date(2026, 3, 31)


def _expense_table(seed: int, old: int, new: int, change: datetime.date) -> str:
    """26 expenses as ``date|employee|category|amount``, sorted by employee then date (so
    the dates interleave). Before the change: one amount exactly at the old limit, four
    between the limits (one the day before the change), two above both; from the change
    on: one exactly at the new limit, four between the limits (one on the change day),
    three above both; the rest below both."""
    rng = random.Random(seed)
    low, high = min(old, new), max(old, new)

    def between() -> float:
        return round(rng.uniform(low * 1.03, high * 0.97), 2)

    def above() -> float:
        return round(rng.uniform(high * 1.05, high * 2.0), 2)

    def below() -> float:
        return round(rng.uniform(25, low * 0.9), 2)

    def days(start: datetime.date, end: datetime.date, count: int) -> list[datetime.date]:
        span = (end - start).days
        return [start + datetime.timedelta(days=rng.randrange(span + 1)) for _ in range(count)]

    eve, after_end = change - datetime.timedelta(days=1), LAST_DAY
    before = [(eve, between())]
    before += [(d, float(old)) for d in days(FIRST_DAY, eve, 1)]
    before += [(d, between()) for d in days(FIRST_DAY, eve, 3)]
    before += [(d, above()) for d in days(FIRST_DAY, eve, 2)]
    before += [(d, below()) for d in days(FIRST_DAY, eve, 5)]
    after = [(change, between())]
    after += [(d, float(new)) for d in days(change, after_end, 1)]
    after += [(d, between()) for d in days(change, after_end, 3)]
    after += [(d, above()) for d in days(change, after_end, 3)]
    after += [(d, below()) for d in days(change, after_end, 6)]
    rows = [
        (EMPLOYEES[i % len(EMPLOYEES)], day, amount)
        for i, (day, amount) in enumerate(rng.sample(before + after, len(before) + len(after)))
    ]
    rows.sort(key=itemgetter(0, 1))
    return "\n".join(
        f"{day.isoformat()}|{who}|{rng.choice(CATEGORIES)}|{amount:.2f}"
        for who, day, amount in rows
    )


def _limit_record(seed: int, path: str, old: int, new: int, change: str) -> dict[str, str]:
    return {
        "path": path,
        "old": str(old),
        "new": str(new),
        "change": change,
        "table": _expense_table(seed, old, new, _day(change)),
    }


LIMIT_RECORDS = [
    _limit_record(60, "~/Documents/expenses-feb-mar.ods", 800, 1000, "2026-03-16"),
    _limit_record(61, "~/Documents/team-expenses.ods", 1200, 1500, "2026-03-01"),
    _limit_record(62, "~/Documents/claims-2026.ods", 2500, 2000, "2026-03-09"),
    _limit_record(63, "~/Documents/travel-claims.ods", 1000, 1250, "2026-02-23"),
    _limit_record(64, "~/Documents/spring-claims.ods", 750, 600, "2026-03-12"),
    _limit_record(65, "~/Documents/expense-report.ods", 1500, 2000, "2026-03-20"),
]


def expense_rows(table: str) -> list[list[str | float]]:
    """Each expense as ``[ISO date, amount]``, in the list's order."""
    return [[row[0], float(row[3])] for row in _rows(table)]


def limit_periods(old: str, new: str, change: str) -> list[list[str | float]]:
    return [["2000-01-01", float(old)], [change, float(new)]]


def is_over(date: str, amount: float, old: str, new: str, change: str) -> bool:
    return amount > float(new if date >= change else old)


def _expense_sheets(old: str, new: str, change: str, table: str) -> dict[str, list[list[str]]]:
    amounts = [float(a) for _, a in expense_rows(table)]
    total = ["", "", "Total", f"{sum(amounts):.2f}"]
    eve = _day(change) - datetime.timedelta(days=1)
    notes = [
        ["Second-approval limit (an expense above it needs a second approval)", ""],
        [f"Until {spoken(eve)}", old],
        [f"From {spoken(_day(change))}", new],
    ]
    return {"Expenses": [EXPENSE_HEADER, *_rows(table), total], "Notes": notes}


def limit_setup(path: str, old: str, new: str, change: str, table: str) -> list[ActionStep]:
    sheets = _expense_sheets(old, new, change, table)
    return [ActionStep(env=D, action=st.create_workbook(path=path, sheets=sheets, dates=True))]


def limit_checkpoints(path: str, old: str, new: str, change: str, table: str) -> list[Evaluator]:
    return [
        re_.amounts_over_dated_limits(
            path=path,
            sheet="Expenses",
            date_column="A",
            amount_column="D",
            rows=expense_rows(table),
            limits=limit_periods(old, new, change),
        ),
        oe.saved_by_libreoffice(path=path),
    ]


# Where the Conditional Formatting dialog draws its first condition's unnamed fields on
# the 1280x800 desktop (the dialog is centred; the fields carry no accessible name).
_OPERATOR = (641, 222)
_VALUE = (865, 222)
_STYLE = (641, 262)


def _condition(path: str, cells: str, operator: str, value: str) -> list[ActionCall]:
    """Open the file, select ``cells``, add one cell-value condition with the "Bad" style
    (a red fill), save."""
    return [
        *open_in_calc(path),
        *go_to(cells),
        *menu("Format", "Conditional", "Condition..."),
        call("root", "wait"),
        call(D, "click_at", x=_OPERATOR[0], y=_OPERATOR[1]),
        call(D, "click_on", name=operator),
        call(D, "click_at", x=_VALUE[0], y=_VALUE[1]),
        call(D, "write_text", text=value),
        call(D, "click_at", x=_STYLE[0], y=_STYLE[1]),
        call(D, "click_on", name="Bad"),
        call(D, "click_on", name="OK", role="push button"),
        call("root", "wait"),
        *save_in_place(),
    ]


def _amounts(table: str) -> str:
    return f"D2:D{len(_rows(table)) + 1}"


def _by_date(change: str, before: str, after: str, test: str = "<") -> str:
    """The limit as an expression of the row's date (its base cell row 2)."""
    day = _day(change)
    return f"IF($A2{test}DATE({day.year};{day.month};{day.day});{before};{after})"


def limit_solution(path: str, old: str, new: str, change: str, table: str) -> list[ActionCall]:
    return _condition(path, _amounts(table), "is greater than", _by_date(change, old, new))


def limit_by_reference(path: str, old: str, new: str, change: str, table: str) -> list[ActionCall]:
    """The limits read from the Notes sheet's cells instead of typed numbers."""
    limit = _by_date(change, "$Notes.$B$2", "$Notes.$B$3")
    return _condition(path, _amounts(table), "is greater than", limit)


def limit_new_for_all(path: str, old: str, new: str, change: str, table: str) -> list[ActionCall]:
    """Near miss: the newer limit applied to every row."""
    return _condition(path, _amounts(table), "is greater than", new)


def limit_old_for_all(path: str, old: str, new: str, change: str, table: str) -> list[ActionCall]:
    """Near miss: the older limit applied to every row."""
    return _condition(path, _amounts(table), "is greater than", old)


def limit_at_or_above(path: str, old: str, new: str, change: str, table: str) -> list[ActionCall]:
    """Near miss: ">=" (an amount exactly at its limit is not above it)."""
    limit = _by_date(change, old, new)
    return _condition(path, _amounts(table), "is greater than or equal to", limit)


def limit_day_late(path: str, old: str, new: str, change: str, table: str) -> list[ActionCall]:
    """Near miss: the change day itself judged by the old limit ("<=" on the date)."""
    limit = _by_date(change, old, new, test="<=")
    return _condition(path, _amounts(table), "is greater than", limit)


def limit_painted(path: str, old: str, new: str, change: str, table: str) -> list[ActionCall]:
    """Near miss: the right cells, coloured by hand (the Background Color button)."""
    steps = [*open_in_calc(path)]
    for row, (date, amount) in enumerate(expense_rows(table), 2):
        if is_over(str(date), float(amount), old, new, change):
            steps += [*go_to(f"D{row}"), call(D, "click_on", name="Background Color")]
    return [*steps, *save_in_place()]


CALC_LIMIT_HIGHLIGHT = SubTask(
    id="desktop.calc_limit_highlight",
    description=(
        "The spreadsheet {path} lists expenses from February and March, and its Notes "
        "sheet gives the second-approval limit, which changed during that time. Make "
        "every expense amount that is above the limit in force on that expense's own "
        "date stand out, and nothing else, with conditional formatting (so the marking "
        "follows if an amount is corrected later), and save the spreadsheet in its own "
        "format."
    ),
    attributes={
        "path": "desktop_file",
        "old": "str",
        "new": "str",
        "change": "str",
        "table": "str",
    },
    output_type="desktop_file",
    outputs=["desktop_file"],
    env=D,
    app="calc",
    app_category="office",
    intents=[ANALYSIS_INTENT],
    value_records=LIMIT_RECORDS,
    setup_generator=limit_setup,
    evaluator_generator=limit_checkpoints,
    solution_generator=limit_solution,
    alternative_generators=[limit_by_reference],
    output_generator=saved_document,
    near_misses=[
        NearMiss("applies the newer limit to every row", solution=limit_new_for_all),
        NearMiss("applies the older limit to every row", solution=limit_old_for_all),
        NearMiss("marks amounts at their limit too (>=)", solution=limit_at_or_above),
        NearMiss("judges the change day by the old limit", solution=limit_day_late),
        NearMiss("colours the cells by hand", solution=limit_painted),
    ],
)

TEMPLATES: list[SubTask] = [CALC_LIMIT_HIGHLIGHT]
