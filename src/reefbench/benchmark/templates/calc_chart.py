"""LibreOffice Calc template of reef-v2's office family (hard tier): a chart of one shop's
full months of trading, checked in the saved ``.ods``
(:func:`~reefbench.envs.desktop.calc_rule_evaluators.chart_with_categories`).

:data:`CALC_OPENING_CHART`: a line chart of one shop's monthly sales over its full months
of trading. The twelve months cross a year boundary; the shop opened partway through a
month (the Notes sheet gives the day), so its first full month is the next one; the
months before hold phone pre-orders that look like sales. The chart must take its axis
labels from the month names (a playtest found a chart without them passed). Near misses:
the whole year, the part month of the opening included, a column chart, no month labels.

The reference opens the file through Calc's Open dialog, selects the shop's cells,
inserts the chart through the wizard (the months typed as its categories), saves with
Ctrl+S and quits.
"""

from __future__ import annotations

import datetime
import random

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.benchmark.templates.calc import go_to, menu, open_in_calc, save_in_place
from reefbench.benchmark.templates.calc_dated import MONTHS, _day, _rows, spoken
from reefbench.benchmark.templates.common import call
from reefbench.benchmark.templates.office import saved_document
from reefbench.envs.desktop import calc_rule_evaluators as re_
from reefbench.envs.desktop import office_evaluators as oe
from reefbench.envs.desktop import setup as st
from reefbench.tasks.subtask import NearMiss, SubTask
from reefbench.tasks.task import ActionStep

D = "desktop"
ANALYSIS_INTENT = "analyse a spreadsheet on the computer"


# ------------------------------------------------------------------------ chart
CHART_HEADER = ["Month", "Harbour Street", "Mill Lane", "Station Road"]
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


def _months(start: str) -> list[str]:
    """Twelve month labels from ``start`` ("2025-09"): "September 2025" ... "August 2026"."""
    year, month = (int(p) for p in start.split("-"))
    labels = []
    for step in range(12):
        y, m = year + (month - 1 + step) // 12, (month - 1 + step) % 12
        labels.append(f"{MONTHS[m]} {y}")
    return labels


def _shop_table(seed: int, start: str, shop: str, first: int) -> str:
    """Twelve months of sales per shop as ``month|shop|shop|shop`` lines. The new shop's
    months before ``first`` (1-based: its first full month) hold phone pre-orders, then
    the part month it opened in; neither is zero, and the last of them outsells its
    quietest full month, so only the note tells where its full months start."""
    rng = random.Random(seed)
    lines: list[list[str]] = []
    for index, month in enumerate(_months(start), 1):
        values = []
        for name in CHART_HEADER[1:]:
            if name == shop and index < first - 1:
                values.append(rng.randrange(1500, 4500))
            elif name == shop and index == first - 1:
                values.append(rng.randrange(3000, 6000))
            else:
                values.append(rng.randrange(4000, 12000))
        lines.append([month, *(str(v) for v in values)])
    column = CHART_HEADER.index(shop)
    quietest = min(int(line[column]) for line in lines[first - 1 :])
    lines[first - 2][column] = str(quietest + rng.randrange(100, 600))
    return "\n".join("|".join(line) for line in lines)


def _opening(start: str, first: int, day: int) -> str:
    """The opening date: ``day`` of the month before the ``first`` full month."""
    year, month = (int(p) for p in start.split("-"))
    y, m = year + (month - 1 + first - 2) // 12, (month - 1 + first - 2) % 12 + 1
    return datetime.date(y, m, day).isoformat()


def _chart_record(
    seed: int, path: str, start: str, shop: str, first: int, day: int
) -> dict[str, str]:
    return {
        "path": path,
        "shop": shop,
        "opened": _opening(start, first, day),
        "first": str(first),
        "table": _shop_table(seed, start, shop, first),
    }


# Each opening falls in the year's last months or the next year's first, so the months
# charted cross the year boundary in most records.
CHART_RECORDS = [
    _chart_record(70, "~/Documents/shop-sales.ods", "2025-09", "Mill Lane", 5, 14),
    _chart_record(71, "~/Documents/branches-2025-26.ods", "2025-07", "Station Road", 6, 9),
    _chart_record(72, "~/Documents/store-sales.ods", "2025-10", "Harbour Street", 4, 22),
    _chart_record(73, "~/Documents/monthly-sales.ods", "2025-06", "Mill Lane", 7, 17),
    _chart_record(74, "~/Documents/sales-by-shop.ods", "2025-08", "Station Road", 4, 11),
    _chart_record(75, "~/Documents/retail-12-months.ods", "2025-11", "Harbour Street", 5, 3),
]


def chart_title(shop: str) -> str:
    return f"{shop} since opening"


def _shop_column(shop: str) -> str:
    return "ABCD"[CHART_HEADER.index(shop)]


def shop_range(shop: str, first: int) -> str:
    """The shop's cells from month ``first`` (1-based; the first month is row 2) on."""
    column = _shop_column(shop)
    return f"{column}{first + 1}:{column}13"


def month_range(first: int) -> str:
    return f"A{first + 1}:A13"


def chart_setup(path: str, shop: str, opened: str, first: str, table: str) -> list[ActionStep]:
    day = _day(opened)
    notes = [
        ["Notes"],
        [f"{shop} opened its doors on {WEEKDAYS[day.weekday()]} {spoken(day)}."],
        ["Its figures for the months before that are phone pre-orders, not shop sales."],
    ]
    sheets = {"Sales": [CHART_HEADER, *_rows(table)], "Notes": notes}
    return [ActionStep(env=D, action=st.create_workbook(path=path, sheets=sheets))]


def chart_checkpoints(path: str, shop: str, opened: str, first: str, table: str) -> list[Evaluator]:
    return [
        re_.chart_with_categories(
            path=path,
            sheet="Sales",
            kinds=["line"],
            values=shop_range(shop, int(first)),
            categories=month_range(int(first)),
            title=chart_title(shop),
        ),
        oe.saved_by_libreoffice(path=path),
    ]


def _chart(
    path: str,
    shop: str,
    first: int,
    kind: str = "Line",
    start: list[ActionCall] | None = None,
    labels: bool = True,
) -> list[ActionCall]:
    """Select the shop's cells, insert a chart of them through the wizard (type, then the
    month names as categories on the Data Series page, then the title), leave the
    chart's edit mode, save."""
    opening = start if start is not None else menu("Insert", "Chart...")
    categories = [
        call(D, "click_on", name="Categories", role="text"),
        call(D, "write_text", text=f"$Sales.$A${first + 1}:$A$13"),
    ]
    return [
        *open_in_calc(path),
        *go_to(shop_range(shop, first)),
        *opening,
        call("root", "wait"),
        call(D, "click_on", name=kind, role="table cell"),
        call(D, "click_on", name="Next >", role="push button"),
        call(D, "click_on", name="Next >", role="push button"),
        *(categories if labels else []),
        call(D, "click_on", name="Next >", role="push button"),
        call(D, "click_on", name="Title", role="text"),
        call(D, "write_text", text=chart_title(shop)),
        call(D, "click_on", name="Finish", role="push button"),
        call("root", "wait"),
        call(D, "press", key="escape"),
        *save_in_place(),
    ]


def chart_solution(path: str, shop: str, opened: str, first: str, table: str) -> list[ActionCall]:
    return _chart(path, shop, int(first))


def chart_from_toolbar(
    path: str, shop: str, opened: str, first: str, table: str
) -> list[ActionCall]:
    """The toolbar's Insert Chart button instead of the Insert menu."""
    start = [call(D, "click_on", name="Chart", role="push button")]
    return _chart(path, shop, int(first), start=start)


def chart_whole_year(path: str, shop: str, opened: str, first: str, table: str) -> list[ActionCall]:
    """Near miss: all twelve months, pre-orders included."""
    return _chart(path, shop, 1)


def chart_part_month(path: str, shop: str, opened: str, first: str, table: str) -> list[ActionCall]:
    """Near miss: from the month it opened in (a part month of trading)."""
    return _chart(path, shop, int(first) - 1)


def chart_columns(path: str, shop: str, opened: str, first: str, table: str) -> list[ActionCall]:
    """Near miss: the right months as a column chart, not a line chart."""
    return _chart(path, shop, int(first), kind="Column")


def chart_unlabelled(path: str, shop: str, opened: str, first: str, table: str) -> list[ActionCall]:
    """Near miss: the right line, its axis numbered 1, 2, 3 instead of the months."""
    return _chart(path, shop, int(first), labels=False)


CALC_OPENING_CHART = SubTask(
    id="desktop.calc_opening_chart",
    description=(
        'On the Sales sheet of the spreadsheet {path}, add a line chart titled "{shop} '
        "since opening\" of {shop}'s monthly sales over its full months of trading: from "
        "the first whole calendar month after it opened (the Notes sheet says when) to "
        "the last month listed. Its axis must be labelled with those months' names from "
        "column A, and no other shop's figures may be in it. Save the spreadsheet in its "
        "own format."
    ),
    attributes={
        "path": "desktop_file",
        "shop": "text",
        "opened": "str",
        "first": "str",
        "table": "str",
    },
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
        NearMiss("starts with the part month it opened in", solution=chart_part_month),
        NearMiss("makes a column chart, not a line chart", solution=chart_columns),
        NearMiss("leaves the months off the axis", solution=chart_unlabelled),
    ],
)

TEMPLATES: list[SubTask] = [CALC_OPENING_CHART]
