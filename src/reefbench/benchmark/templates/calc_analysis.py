"""LibreOffice Calc analysis templates of reef-v2's office family (hard tier): the request
comes from a colleague's note inside the workbook, and the result must be Calc's own
feature, checked in the saved ``.ods`` (:mod:`reefbench.envs.desktop.calc_analysis_evaluators`).

* :data:`CALC_PIVOT_SUMMARY`: a note on the Notes sheet asks for the total revenue per
  product, region or sales rep. Success is a real pivot table (a data pilot) on a sheet of
  its own, its one row field the asked one, its one data field the sum of Revenue, its
  output showing every total. Near misses: the totals typed in, the sum of Units (the
  other numeric column) instead of Revenue, the wrong row field.
* :data:`CALC_LIMIT_HIGHLIGHT`: the Notes sheet gives two second-approval limits, the old
  one and the one in force for the listed (March) expenses; the amounts above the current
  limit must stand out through conditional formatting. Checked by what the rules mark
  (any rule form, a constant or a reference to the note's cell), cell by cell, including
  that the total row below the expenses is not marked. Near misses: the cells coloured by
  hand, the old limit, the rule stretched over the total.
* :data:`CALC_OPENING_CHART`: a line chart of one shop's monthly sales over the months
  it has been open, which only the Notes sheet tells (the months before hold phone
  pre-orders that look like sales). Checked as a chart on the Sales sheet: its type, its
  title, its one series' cells. Near misses: the whole year, one month too early, a
  column chart.

Reference solutions open the file through Calc's Open dialog, work through the menus and
dialogs (the pivot table's layout dialog takes fields only by drag and drop: the
reference holds the mouse down, moves and releases in separate steps; its alternative
uses one ``drag`` action per field), save with Ctrl+S and quit.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.benchmark.templates.calc import go_to, menu, open_in_calc, save_in_place
from reefbench.benchmark.templates.common import call
from reefbench.benchmark.templates.office import saved_document
from reefbench.envs.desktop import calc_analysis_evaluators as ae
from reefbench.envs.desktop import office_evaluators as oe
from reefbench.envs.desktop import setup as st
from reefbench.tasks.subtask import NearMiss, SubTask
from reefbench.tasks.task import ActionStep

D = "desktop"
ANALYSIS_INTENT = "analyse a spreadsheet on the computer"


def _rows(table: str) -> list[list[str]]:
    return [line.split("|") for line in table.splitlines()]


# ------------------------------------------------------------------------ pivot
SALES_HEADER = ["Date", "Region", "Rep", "Product", "Units", "Revenue"]
SALES_ROWS = 28
REGIONS = ["North", "South", "East", "West"]
REPS = ["Okafor", "Lindqvist", "Moreau", "Tanaka", "Silva"]
PRODUCTS = ["Router", "Switch", "Access point", "Firewall"]
# The note's word for each field the summary may be by.
FIELD_WORDS = {"Product": "product", "Region": "region", "Rep": "sales rep"}
PEOPLE = ["Priya", "Marcus", "Helen", "Tomasz", "Aiko", "Fatima"]


def _sales_table(seed: int) -> str:
    """28 sales as ``date|region|rep|product|units|revenue`` lines; every value of every
    field appears, and revenue is not proportional to units (a sum of Units is no
    stand-in for the sum of Revenue)."""
    rng = random.Random(seed)
    lines = []
    for index in range(SALES_ROWS):
        units = rng.randrange(1, 40)
        price = rng.choice([89.5, 149.0, 219.9, 349.0, 72.25])
        revenue = round(units * price * rng.uniform(0.8, 1.0), 2)
        lines.append(
            f"2026-03-{1 + index:02d}|{REGIONS[index % 4] if index < 4 else rng.choice(REGIONS)}|"
            f"{REPS[index % 5] if index < 5 else rng.choice(REPS)}|"
            f"{PRODUCTS[index % 4] if index < 4 else rng.choice(PRODUCTS)}|{units}|{revenue:.2f}"
        )
    return "\n".join(lines)


def pivot_totals(table: str, by: str, column: str = "Revenue") -> dict[str, float]:
    """The sum of ``column`` per value of ``by``."""
    key, value = SALES_HEADER.index(by), SALES_HEADER.index(column)
    totals: dict[str, float] = {}
    for row in _rows(table):
        totals[row[key]] = round(totals.get(row[key], 0.0) + float(row[value]), 2)
    return totals


def _pivot_record(seed: int, path: str, by: str, person: str) -> dict[str, str]:
    return {"path": path, "by": by, "person": person, "table": _sales_table(seed)}


PIVOT_RECORDS = [
    _pivot_record(51, "~/Documents/march-sales.ods", "Product", "Priya"),
    _pivot_record(52, "~/Documents/sales-q1.ods", "Region", "Marcus"),
    _pivot_record(53, "~/Documents/team-sales.ods", "Rep", "Helen"),
    _pivot_record(54, "~/Documents/network-sales.ods", "Region", "Tomasz"),
    _pivot_record(55, "~/Documents/sales-march.ods", "Product", "Aiko"),
    _pivot_record(56, "~/Documents/reseller-sales.ods", "Rep", "Fatima"),
]


def _note(by: str, person: str) -> list[list[str]]:
    return [
        [f"Note from {person}"],
        [
            f"For Monday's meeting I need the total revenue for each {FIELD_WORDS[by]} "
            "over all the sales on the Sales sheet."
        ],
        ["Units don't matter for this one. Thanks!"],
    ]


def pivot_setup(path: str, by: str, person: str, table: str) -> list[ActionStep]:
    sheets = {"Sales": [SALES_HEADER, *_rows(table)], "Notes": _note(by, person)}
    return [ActionStep(env=D, action=st.create_workbook(path=path, sheets=sheets))]


def pivot_checkpoints(path: str, by: str, person: str, table: str) -> list[Evaluator]:
    return [
        ae.pivot_summary(
            path=path,
            data_sheet="Sales",
            row_field=by,
            data_field="Revenue",
            totals=pivot_totals(table, by),
        ),
        oe.saved_by_libreoffice(path=path),
    ]


# Where the Pivot Table Layout dialog draws its lists on the 1280x800 desktop: the
# Available Fields list's first entry, the step between entries, the two drop targets.
_FIELD_X, _FIELD_Y, _FIELD_STEP = 807, 284, 23
_ROW_FIELDS = (420, 460)
_DATA_FIELDS = (646, 460)


def _drag_field(field: str, to: tuple[int, int]) -> list[ActionCall]:
    """Drag a field from Available Fields onto a list, as a person drags: press, move a
    little (the toolkit starts a drag only on motion with the button held), move to the
    target, release."""
    y = _FIELD_Y + _FIELD_STEP * SALES_HEADER.index(field)
    return [
        call(D, "move_to", x=_FIELD_X, y=y),
        call(D, "mouse_down"),
        call(D, "move_to", x=_FIELD_X - 20, y=y + 10),
        call(D, "move_to", x=to[0], y=to[1]),
        call(D, "mouse_up"),
    ]


def _drag_in_one(field: str, to: tuple[int, int]) -> list[ActionCall]:
    """The same drag as one ``drag`` action (paced by the desktop's input)."""
    y = _FIELD_Y + _FIELD_STEP * SALES_HEADER.index(field)
    return [call(D, "drag", from_x=_FIELD_X, from_y=y, to_x=to[0], to_y=to[1])]


def _pivot(
    path: str,
    row: str,
    data: str,
    start: list[ActionCall] | None = None,
    drag: Callable[[str, tuple[int, int]], list[ActionCall]] = _drag_field,
) -> list[ActionCall]:
    """Open the file, start a pivot table on the data around A1 (the source dialog's
    "Current selection" takes the whole table), lay it out, OK (a new sheet is the
    default destination), save."""
    opening = start if start is not None else menu("Data", "Pivot Table", "Insert or Edit...")
    return [
        *open_in_calc(path),
        *opening,
        call("root", "wait"),
        call(D, "click_on", name="OK", role="push button"),
        call("root", "wait"),
        *drag(row, _ROW_FIELDS),
        *drag(data, _DATA_FIELDS),
        call(D, "click_on", name="OK", role="push button"),
        call("root", "wait"),
        *save_in_place(),
    ]


def pivot_solution(path: str, by: str, person: str, table: str) -> list[ActionCall]:
    return _pivot(path, by, "Revenue")


def pivot_from_toolbar(path: str, by: str, person: str, table: str) -> list[ActionCall]:
    """The toolbar's Pivot Table button instead of the Data menu, and each field dragged
    with one ``drag`` action instead of press, move and release (a composed task plays a
    template's first alternative only, so the two variations share it)."""
    start = [call(D, "click_on", name="Pivot Table", role="push button")]
    return _pivot(path, by, "Revenue", start=start, drag=_drag_in_one)


def pivot_sum_of_units(path: str, by: str, person: str, table: str) -> list[ActionCall]:
    """Near miss: the other numeric column summed (Units, not Revenue)."""
    return _pivot(path, by, "Units")


def pivot_wrong_field(path: str, by: str, person: str, table: str) -> list[ActionCall]:
    """Near miss: revenue summed by another field than the note's."""
    other = next(f for f in FIELD_WORDS if f != by)
    return _pivot(path, other, "Revenue")


def pivot_typed_totals(path: str, by: str, person: str, table: str) -> list[ActionCall]:
    """Near miss: the right totals worked out and typed in beside the data: no pivot."""
    totals = pivot_totals(table, by)
    typed = "".join(f"{label}\t{total:.2f}\n" for label, total in sorted(totals.items()))
    return [
        *open_in_calc(path),
        *go_to("H1"),
        call(D, "write_text", text=f"{by}\tRevenue\n{typed}"),
        *save_in_place(),
    ]


CALC_PIVOT_SUMMARY = SubTask(
    id="desktop.calc_pivot_summary",
    description=(
        "{person} left a note on the Notes sheet of the spreadsheet {path} saying which "
        "summary of the Sales sheet they need. Make that summary as a pivot table on a new "
        "sheet of its own, and save the spreadsheet in its own format."
    ),
    attributes={"path": "desktop_file", "by": "str", "person": "text", "table": "str"},
    output_type="desktop_file",
    outputs=["desktop_file"],
    env=D,
    app="calc",
    app_category="office",
    intents=[ANALYSIS_INTENT],
    value_records=PIVOT_RECORDS,
    setup_generator=pivot_setup,
    evaluator_generator=pivot_checkpoints,
    solution_generator=pivot_solution,
    alternative_generators=[pivot_from_toolbar],
    output_generator=saved_document,
    near_misses=[
        NearMiss("sums Units instead of Revenue", solution=pivot_sum_of_units),
        NearMiss("summarises by another field than the note's", solution=pivot_wrong_field),
        NearMiss("types the totals in instead of a pivot table", solution=pivot_typed_totals),
    ],
)


# -------------------------------------------------------------------- highlight
EXPENSE_HEADER = ["Date", "Employee", "Category", "Amount"]
EXPENSE_ROWS = 22
EMPLOYEES = ["J. Novak", "R. Mensah", "L. Ferreira", "K. Yilmaz", "D. Oyelaran", "S. Berg"]
CATEGORIES = ["Travel", "Hotel", "Equipment", "Training", "Client dinner", "Software"]
LIMITS = [(1200, 1500), (800, 1000), (2000, 2500), (1000, 1250), (600, 750), (1500, 2000)]


def _expense_table(seed: int, old: int, new: int) -> str:
    """22 March expenses as ``date|employee|category|amount``: several above the current
    limit, several between the old and the current one, and one exactly at the current
    limit (which is not above it)."""
    rng = random.Random(seed)
    amounts = [float(new)]
    amounts += [round(rng.uniform(new * 1.05, new * 2.2), 2) for _ in range(5)]
    amounts += [round(rng.uniform(old * 1.02, new * 0.97), 2) for _ in range(4)]
    amounts += [round(rng.uniform(25, old * 0.9), 2) for _ in range(EXPENSE_ROWS - len(amounts))]
    rng.shuffle(amounts)
    return "\n".join(
        f"2026-03-{1 + index:02d}|{rng.choice(EMPLOYEES)}|{rng.choice(CATEGORIES)}|{amount:.2f}"
        for index, amount in enumerate(amounts)
    )


def _limit_record(seed: int, path: str) -> dict[str, str]:
    old, new = LIMITS[seed % len(LIMITS)]
    return {
        "path": path,
        "old": str(old),
        "new": str(new),
        "table": _expense_table(seed, old, new),
    }


LIMIT_RECORDS = [
    _limit_record(60, "~/Documents/expenses-march.ods"),
    _limit_record(61, "~/Documents/team-expenses.ods"),
    _limit_record(62, "~/Documents/claims-2026-03.ods"),
    _limit_record(63, "~/Documents/travel-claims.ods"),
    _limit_record(64, "~/Documents/march-claims.ods"),
    _limit_record(65, "~/Documents/expense-report.ods"),
]


def expense_amounts(table: str) -> list[float]:
    return [float(row[3]) for row in _rows(table)]


def _expense_sheets(old: str, new: str, table: str) -> dict[str, list[list[str]]]:
    amounts = expense_amounts(table)
    total = ["", "", "Total", f"{sum(amounts):.2f}"]
    notes = [
        ["Second-approval limit (an expense above it needs a second approval)", ""],
        ["Until 28 February 2026", old],
        ["From 1 March 2026", new],
    ]
    return {"Expenses": [EXPENSE_HEADER, *_rows(table), total], "Notes": notes}


def limit_setup(path: str, old: str, new: str, table: str) -> list[ActionStep]:
    sheets = _expense_sheets(old, new, table)
    return [ActionStep(env=D, action=st.create_workbook(path=path, sheets=sheets))]


def limit_checkpoints(path: str, old: str, new: str, table: str) -> list[Evaluator]:
    marked = [amount > float(new) for amount in expense_amounts(table)]
    return [
        ae.cells_highlighted(path=path, sheet="Expenses", column="D", first_row=2, marked=marked),
        oe.saved_by_libreoffice(path=path),
    ]


# Where the Conditional Formatting dialog draws its first condition's unnamed fields on
# the 1280x800 desktop (the dialog is centred; the fields carry no accessible name).
_OPERATOR = (641, 222)
_VALUE = (865, 222)
_STYLE = (641, 262)


def _condition(
    path: str, cells: str, operator: str, value: str, start: list[ActionCall] | None = None
) -> list[ActionCall]:
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


def limit_solution(path: str, old: str, new: str, table: str) -> list[ActionCall]:
    return _condition(path, _amounts(table), "is greater than", new)


def limit_by_reference(path: str, old: str, new: str, table: str) -> list[ActionCall]:
    """The condition reads the limit from the note's cell instead of a typed number."""
    return _condition(path, _amounts(table), "is greater than", "$Notes.$B$3")


def limit_old_value(path: str, old: str, new: str, table: str) -> list[ActionCall]:
    """Near miss: the limit that ended in February."""
    return _condition(path, _amounts(table), "is greater than", old)


def limit_with_total(path: str, old: str, new: str, table: str) -> list[ActionCall]:
    """Near miss: the rule stretched over the total row, which it then marks."""
    return _condition(path, f"D2:D{len(_rows(table)) + 2}", "is greater than", new)


def limit_painted(path: str, old: str, new: str, table: str) -> list[ActionCall]:
    """Near miss: the right cells, coloured by hand (the Background Color button)."""
    steps = [*open_in_calc(path)]
    for row, amount in enumerate(expense_amounts(table), 2):
        if amount > float(new):
            steps += [*go_to(f"D{row}"), call(D, "click_on", name="Background Color")]
    return [*steps, *save_in_place()]


CALC_LIMIT_HIGHLIGHT = SubTask(
    id="desktop.calc_limit_highlight",
    description=(
        "The spreadsheet {path} lists this month's expenses, and its Notes sheet gives the "
        "second-approval limits. Make every expense amount above the limit in force for "
        "these expenses stand out, and nothing else, with conditional formatting (so the "
        "marking follows if an amount is corrected later), and save the spreadsheet in its "
        "own format."
    ),
    attributes={"path": "desktop_file", "old": "str", "new": "str", "table": "str"},
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
        NearMiss("colours the cells by hand", solution=limit_painted),
        NearMiss("uses the old limit", solution=limit_old_value),
        NearMiss("stretches the rule over the total row", solution=limit_with_total),
    ],
)


# ------------------------------------------------------------------------ chart
CHART_HEADER = ["Month", "Harbour Street", "Mill Lane", "Station Road"]
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


def _shop_table(seed: int, shop: str, opened: int) -> str:
    """A year of monthly sales per shop as ``month|shop|shop|shop`` lines; the new shop's
    months before ``opened`` (1-based) hold phone pre-orders in the range of a quiet shop
    month, not zeros, so only the note tells where its shop sales start."""
    rng = random.Random(seed)
    lines: list[list[str]] = []
    for index, month in enumerate(MONTHS, 1):
        values = []
        for name in CHART_HEADER[1:]:
            if name == shop and index < opened:
                values.append(rng.randrange(1500, 4500))
            else:
                values.append(rng.randrange(4000, 12000))
        lines.append([month, *(str(v) for v in values)])
    # The last month of pre-orders outsells the quietest month of shop sales.
    column = CHART_HEADER.index(shop)
    quietest = min(int(line[column]) for line in lines[opened - 1 :])
    lines[opened - 2][column] = str(quietest + rng.randrange(100, 600))
    return "\n".join("|".join(line) for line in lines)


def _chart_record(seed: int, path: str, shop: str, opened: int) -> dict[str, str]:
    return {
        "path": path,
        "shop": shop,
        "opened": str(opened),
        "table": _shop_table(seed, shop, opened),
    }


CHART_RECORDS = [
    _chart_record(70, "~/Documents/shop-sales-2025.ods", "Mill Lane", 5),
    _chart_record(71, "~/Documents/branches-2025.ods", "Station Road", 7),
    _chart_record(72, "~/Documents/store-sales.ods", "Harbour Street", 4),
    _chart_record(73, "~/Documents/monthly-sales.ods", "Mill Lane", 8),
    _chart_record(74, "~/Documents/sales-by-shop.ods", "Station Road", 3),
    _chart_record(75, "~/Documents/retail-2025.ods", "Harbour Street", 6),
]


def chart_title(shop: str) -> str:
    return f"{shop} since opening"


def _shop_column(shop: str) -> str:
    return "ABCD"[CHART_HEADER.index(shop)]


def shop_range(shop: str, first_month: int) -> str:
    """The shop's cells from ``first_month`` (1-based; January is row 2) to December."""
    column = _shop_column(shop)
    return f"{column}{first_month + 1}:{column}{len(MONTHS) + 1}"


def chart_setup(path: str, shop: str, opened: str, table: str) -> list[ActionStep]:
    notes = [
        ["Notes"],
        [f"{shop} opened its doors on 1 {MONTHS[int(opened) - 1]} 2025."],
        ["Its figures for the months before that are phone pre-orders, not shop sales."],
    ]
    sheets = {"Sales": [CHART_HEADER, *_rows(table)], "Notes": notes}
    return [ActionStep(env=D, action=st.create_workbook(path=path, sheets=sheets))]


def chart_checkpoints(path: str, shop: str, opened: str, table: str) -> list[Evaluator]:
    return [
        ae.chart_of_range(
            path=path,
            sheet="Sales",
            kinds=["line"],
            values=shop_range(shop, int(opened)),
            title=chart_title(shop),
        ),
        oe.saved_by_libreoffice(path=path),
    ]


def _chart(
    path: str, shop: str, first: int, kind: str = "Line", start: list[ActionCall] | None = None
) -> list[ActionCall]:
    """Select the shop's cells, insert a chart of them through the wizard (type, then the
    month names as categories on the Data Series page, then the title), leave the
    chart's edit mode, save."""
    last = len(MONTHS) + 1
    opening = start if start is not None else menu("Insert", "Chart...")
    return [
        *open_in_calc(path),
        *go_to(shop_range(shop, first)),
        *opening,
        call("root", "wait"),
        call(D, "click_on", name=kind, role="table cell"),
        call(D, "click_on", name="Next >", role="push button"),
        call(D, "click_on", name="Next >", role="push button"),
        call(D, "click_on", name="Categories", role="text"),
        call(D, "write_text", text=f"$Sales.$A${first + 1}:$A${last}"),
        call(D, "click_on", name="Next >", role="push button"),
        call(D, "click_on", name="Title", role="text"),
        call(D, "write_text", text=chart_title(shop)),
        call(D, "click_on", name="Finish", role="push button"),
        call("root", "wait"),
        call(D, "press", key="escape"),
        *save_in_place(),
    ]


def chart_solution(path: str, shop: str, opened: str, table: str) -> list[ActionCall]:
    return _chart(path, shop, int(opened))


def chart_from_toolbar(path: str, shop: str, opened: str, table: str) -> list[ActionCall]:
    """The toolbar's Insert Chart button instead of the Insert menu."""
    start = [call(D, "click_on", name="Chart", role="push button")]
    return _chart(path, shop, int(opened), start=start)


def chart_whole_year(path: str, shop: str, opened: str, table: str) -> list[ActionCall]:
    """Near miss: the whole year, pre-orders included."""
    return _chart(path, shop, 1)


def chart_month_early(path: str, shop: str, opened: str, table: str) -> list[ActionCall]:
    """Near miss: one month too early (the last month of pre-orders included)."""
    return _chart(path, shop, int(opened) - 1)


def chart_columns(path: str, shop: str, opened: str, table: str) -> list[ActionCall]:
    """Near miss: the right months as a column chart, not a line chart."""
    return _chart(path, shop, int(opened), kind="Column")


CALC_OPENING_CHART = SubTask(
    id="desktop.calc_opening_chart",
    description=(
        'On the Sales sheet of the spreadsheet {path}, add a line chart titled "{shop} '
        "since opening\" of {shop}'s monthly sales over the months the shop has been open "
        "(the Notes sheet says since when), with no other shop's figures in it, and save "
        "the spreadsheet in its own format."
    ),
    attributes={"path": "desktop_file", "shop": "text", "opened": "str", "table": "str"},
    output_type="desktop_file",
    outputs=["desktop_file"],
    env=D,
    app="calc",
    app_category="office",
    intents=[ANALYSIS_INTENT],
    value_records=CHART_RECORDS,
    setup_generator=chart_setup,
    evaluator_generator=chart_checkpoints,
    solution_generator=chart_solution,
    alternative_generators=[chart_from_toolbar],
    output_generator=saved_document,
    near_misses=[
        NearMiss("charts the whole year, pre-orders included", solution=chart_whole_year),
        NearMiss("starts one month before the opening", solution=chart_month_early),
        NearMiss("makes a column chart, not a line chart", solution=chart_columns),
    ],
)

TEMPLATES: list[SubTask] = [CALC_PIVOT_SUMMARY, CALC_LIMIT_HIGHLIGHT, CALC_OPENING_CHART]
