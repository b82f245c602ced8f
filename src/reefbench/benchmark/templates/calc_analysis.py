"""LibreOffice Calc analysis template of reef-v2's office family (hard tier): the request
comes from a colleague's note inside the workbook, and the result must be Calc's own
feature, checked in the saved ``.ods`` (:mod:`reefbench.envs.desktop.calc_analysis_evaluators`).

* :data:`CALC_PIVOT_SUMMARY`: a note on the Notes sheet asks for the total revenue per
  product, region or sales rep. Success is a real pivot table (a data pilot) on a sheet of
  its own, its one row field the asked one, its one data field the sum of Revenue, its
  output showing every total. Near misses: the totals typed in, the sum of Units (the
  other numeric column) instead of Revenue, the wrong row field.

The conditional-formatting and chart templates, whose answers depend on dates, are in
:mod:`reefbench.benchmark.templates.calc_dated`.

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


TEMPLATES: list[SubTask] = [CALC_PIVOT_SUMMARY]
