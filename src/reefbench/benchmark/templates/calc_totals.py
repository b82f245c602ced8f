"""A hard Calc template of reef-v2's office family that makes the agent work through a
messy register (:data:`CALC_REGION_TOTALS`): a year's sales of 160-240 rows in two blocks
(shop sales, then, below a gap of blank rows, the web shop's with their own header), one
region's monthly subtotal line inside the first block, some sales in USD (the rate is in a
cell at the top), returns as negative rows. A new Summary sheet must give each region's
net total in EUR over a stated quarter, checked in the saved ``.ods`` wherever the agent
put the labels (:func:`~reefbench.envs.desktop.calc_ledger_evaluators.labelled_totals`).
Too many rows to add up by eye: a person uses SUMIFS, a helper column or a pivot table.
Near misses: the first block only, the subtotal counted again, USD left unconverted,
returns ignored, the whole year.

The reference opens the file through Calc's Open dialog, fills a helper column (each sale
in EUR) with Alt+Enter, appends the Summary sheet through the Sheet menu, types one
SUMIFS per region, saves with Ctrl+S and quits; its alternative needs no helper column
(two SUMIFS per region, EUR and USD).
"""

from __future__ import annotations

import random
from datetime import date, timedelta

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.benchmark.templates.calc import go_to, menu, open_in_calc, save_in_place
from reefbench.benchmark.templates.calc_ledger import LEDGER_INTENT, YEAR, _money, _rows
from reefbench.benchmark.templates.common import call
from reefbench.benchmark.templates.office import saved_document
from reefbench.envs.desktop import calc_ledger_evaluators as le
from reefbench.envs.desktop import office_evaluators as oe
from reefbench.tasks.subtask import NearMiss, SubTask
from reefbench.tasks.task import ActionStep

D = "desktop"


# -------------------------------------------------------------- region totals
SALES_HEADER = ["Date", "Region", "Customer", "Invoice", "Currency", "Amount"]
FIRST_DATA_ROW = 5  # title, rate, a blank row, the header
SHOP_CUSTOMERS = [
    "Albion Garden Centre",
    "Bexley Hardware",
    "Corran Outdoor",
    "Dalton Bikes",
    "Elmstead Farm Shop",
    "Foxglove Florists",
    "Glenmore Sports",
    "Hollins Pet Supplies",
    "Ivybridge Cafe",
    "Juniper Home",
]
QUARTERS = {
    2: "second quarter of 2026 (April to June)",
    3: "third quarter of 2026 (July to September)",
    4: "fourth quarter of 2026 (October to December)",
}
MONTH_NAMES = [
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


def _sale(rng: random.Random, regions: list[str], prefix: str, number: int) -> list[str]:
    """One sale (or, one time in twelve, a return: a credit note with a negative
    amount), in USD one time in six; the date is filled in by the caller."""
    currency = "USD" if rng.random() < 1 / 6 else "EUR"
    if rng.random() < 1 / 12:
        invoice, cents = f"CN-{number}", -rng.randrange(4000, 150000)
    else:
        invoice, cents = f"{prefix}-{number}", rng.randrange(8000, 600000)
    return ["", rng.choice(regions), rng.choice(SHOP_CUSTOMERS), invoice, currency, _money(cents)]


def _block(rng: random.Random, regions: list[str], count: int, prefix: str) -> list[list[str]]:
    days = sorted(rng.randrange(365) for _ in range(count))
    rows = []
    for index, day in enumerate(days):
        row = _sale(rng, regions, prefix, 10000 + index * 7 + rng.randrange(7))
        row[0] = (date(YEAR, 1, 1) + timedelta(days=day)).isoformat()
        rows.append(row)
    return rows


def _in_quarter(iso: str, quarter: int) -> bool:
    return 3 * quarter - 2 <= int(iso[5:7]) <= 3 * quarter


def _eur(row: list[str], rate: float) -> float:
    return float(row[5]) * (rate if row[4] == "USD" else 1.0)


def _with_subtotal(rows: list[list[str]], region: str, month: int, rate: float) -> list[list[str]]:
    """``rows`` with a subtotal line of ``region``'s sales in ``month`` after the month's
    last row: dated its last day, no invoice number, the sum in EUR."""
    mine = [r for r in rows if int(r[0][5:7]) == month and r[1] == region]
    total = round(sum(_eur(r, rate) for r in mine), 2)
    last = max(i for i, r in enumerate(rows) if int(r[0][5:7]) <= month)
    end = (date(YEAR, month % 12 + 1, 1) - timedelta(days=1)) if month < 12 else date(YEAR, 12, 31)
    line = [end.isoformat(), region, f"Subtotal {region} {MONTH_NAMES[month - 1]}", "", "EUR"]
    return [*rows[: last + 1], [*line, f"{total:.2f}"], *rows[last + 1 :]]


def _table(rows: list[list[str]]) -> str:
    return "\n".join("|".join(r) for r in rows)


def _register(seed: int, regions: list[str], quarter: int) -> tuple[str, str, str]:
    """The rate and the two blocks (``iso|region|customer|invoice|currency|amount``
    lines), drawn until the quarter has USD sales, returns and web orders in it."""
    rng = random.Random(seed)
    while True:
        rate = round(rng.uniform(0.84, 0.95), 4)
        shop = _block(rng, regions, rng.randrange(110, 151), "S")
        web = _block(rng, regions, rng.randrange(50, 91), "W")
        both = [r for r in shop + web if _in_quarter(r[0], quarter)]
        if (
            any(r[4] == "USD" for r in both)
            and any(r[5].startswith("-") for r in both)
            and any(_in_quarter(r[0], quarter) for r in web)
        ):
            break
    month = 3 * quarter - 2 + rng.randrange(3)
    region = rng.choice(
        [g for g in regions if any(r[1] == g and int(r[0][5:7]) == month for r in shop)]
    )
    return f"{rate:.4f}", _table(_with_subtotal(shop, region, month, rate)), _table(web)


def _totals_record(
    seed: int, path: str, company: str, regions: str, quarter: int, gap: int
) -> dict[str, str]:
    rate, shop, web = _register(seed, regions.split(","), quarter)
    return {
        "path": path,
        "company": company,
        "regions": regions,
        "quarter": str(quarter),
        "period": QUARTERS[quarter],
        "rate": rate,
        "shop": shop,
        "web": web,
        "gap": str(gap),
    }


# Regions named so that none starts another (Calc's AutoInput would complete it).
_NORTH, _COAST, _NORDIC = (
    "North,South,East,West",
    "Coast,Valley,Highlands,Lowlands",
    ("Nordic,Benelux,Iberia,Alpine"),
)
# (seed, file name, company, regions, quarter, blank rows between the blocks)
_TOTALS = [
    (401, "sales-register-2026", "Heron Garden Supply", _NORTH, 3, 3),
    (402, "sales-2026", "Kitefield Tools", _COAST, 2, 4),
    (403, "regional-sales", "Marlow Outdoor", _NORDIC, 4, 5),
    (404, "sales-book", "Pennant Cycles", _NORTH, 2, 3),
    (405, "turnover-2026", "Quayside Pets", _COAST, 3, 6),
    (406, "sales-ledger-2026", "Rowan Home", _NORDIC, 3, 4),
    (407, "orders-2026-all", "Stonebridge Sports", _NORTH, 4, 5),
    (408, "invoiced-sales", "Thistle Florists", _COAST, 4, 3),
]
TOTALS_RECORDS = [
    _totals_record(seed, f"~/Documents/{name}.ods", company, regions, quarter, gap)
    for seed, name, company, regions, quarter, gap in _TOTALS
]


def region_totals(
    regions: str,
    quarter: str,
    rate: str,
    shop: str,
    web: str,
    *,
    first_only: bool = False,
    subtotal: bool = False,
    unconverted: bool = False,
    no_returns: bool = False,
    whole_year: bool = False,
) -> dict[str, float]:
    """Each region's net total in EUR over the quarter; the flags give the near misses'
    totals (one block, the subtotal line counted, USD taken as EUR, returns left out, the
    whole year)."""
    rows = _rows(shop) + ([] if first_only else _rows(web))
    totals = {}
    for region in regions.split(","):
        total = 0.0
        for row in rows:
            if row[1] != region or not (whole_year or _in_quarter(row[0], int(quarter))):
                continue
            if (not row[3] and not subtotal) or (no_returns and row[5].startswith("-")):
                continue
            total += float(row[5]) if unconverted else _eur(row, float(rate))
        totals[region] = round(total, 2)
    return totals


def _sales_rows(company: str, rate: str, shop: str, web: str, gap: str) -> list[list[str]]:
    return [
        [f"{company}: sales register {YEAR}"],
        ["USD sales are converted at (EUR per 1 USD):", rate],
        [""],
        SALES_HEADER,
        *_rows(shop),
        *([[""]] * int(gap)),
        ["Web shop orders (imported)"],
        SALES_HEADER,
        *_rows(web),
    ]


def _last_row(shop: str, web: str, gap: str) -> int:
    return FIRST_DATA_ROW - 1 + len(_rows(shop)) + int(gap) + 2 + len(_rows(web))


def totals_setup(
    path: str,
    company: str,
    regions: str,
    quarter: str,
    period: str,
    rate: str,
    shop: str,
    web: str,
    gap: str,
) -> list[ActionStep]:
    sheets = {"Sales": _sales_rows(company, rate, shop, web, gap)}
    return [ActionStep(env=D, action=le.create_dated_workbook(path=path, sheets=sheets))]


def totals_checkpoints(
    path: str,
    company: str,
    regions: str,
    quarter: str,
    period: str,
    rate: str,
    shop: str,
    web: str,
    gap: str,
) -> list[Evaluator]:
    totals = region_totals(regions, quarter, rate, shop, web)
    return [
        le.labelled_totals(path=path, sheet="Summary", totals=totals),
        oe.saved_by_libreoffice(path=path),
    ]


def _summary(path: str, before: list[ActionCall], lines: list[str]) -> list[ActionCall]:
    """Open the file, do ``before`` on the Sales sheet, append a sheet named Summary
    (Sheet > Insert Sheet at End), type ``lines`` from A1 down (Tab between cells), save."""
    return [
        *open_in_calc(path),
        *before,
        *menu("Sheet", "Insert Sheet at End..."),
        call("root", "wait"),
        call(D, "write_text", text="Summary\n"),
        call("root", "wait"),
        call(D, "write_text", text="".join(f"{line}\n" for line in lines)),
        *save_in_place(),
    ]


def _bounds(quarter: str) -> tuple[str, str]:
    first = 3 * int(quarter) - 2
    end = f"{YEAR + 1};1;1" if first == 10 else f"{YEAR};{first + 3};1"
    return f"{YEAR};{first};1", end


def totals_solution(
    path: str,
    company: str,
    regions: str,
    quarter: str,
    period: str,
    rate: str,
    shop: str,
    web: str,
    gap: str,
) -> list[ActionCall]:
    """A helper column G with each sale in EUR (empty for the subtotal line, which has no
    invoice number), then one SUMIFS per region over the quarter's dates."""
    last = _last_row(shop, web, gap)
    helper = '=IF(D5="";"";IF(E5="USD";F5*$B$2;F5))'
    start, end = _bounds(quarter)
    cells = f"$Sales.$%s${FIRST_DATA_ROW}:$%s${last}"
    a, b, g = cells % ("A", "A"), cells % ("B", "B"), cells % ("G", "G")
    lines = ["Region\tNet sales EUR"]
    for row, region in enumerate(regions.split(","), 2):
        lines.append(
            f'{region}\t=ROUND(SUMIFS({g};{b};A{row};{a};">="&DATE({start});{a};"<"&DATE({end}));2)'
        )
    before = [
        *go_to(f"G{FIRST_DATA_ROW}:G{last}"),
        call(D, "write_text", text=helper),
        call(D, "hotkey", keys=["alt", "enter"]),
    ]
    return _summary(path, before, lines)


def totals_two_sumifs(
    path: str,
    company: str,
    regions: str,
    quarter: str,
    period: str,
    rate: str,
    shop: str,
    web: str,
    gap: str,
) -> list[ActionCall]:
    """No helper column: per region, the EUR sales plus the rate times the USD sales, each
    a SUMIFS over rows with an invoice number in the quarter."""
    last = _last_row(shop, web, gap)
    start, end = _bounds(quarter)
    cells = f"$Sales.$%s${FIRST_DATA_ROW}:$%s${last}"
    col = {c: cells % (c, c) for c in "ABDEF"}
    lines = ["Region\tNet sales EUR"]
    for row, region in enumerate(regions.split(","), 2):
        parts = [
            f'SUMIFS({col["F"]};{col["B"]};A{row};{col["A"]};">="&DATE({start});'
            f'{col["A"]};"<"&DATE({end});{col["D"]};"<>";{col["E"]};"{currency}")'
            for currency in ("EUR", "USD")
        ]
        lines.append(f"{region}\t=ROUND({parts[0]}+$Sales.$B$2*{parts[1]};2)")
    return _summary(path, [], lines)


def _typed_totals(values: dict[str, str], **flags: bool) -> list[ActionCall]:
    """Near misses' shape: the Summary sheet with wrong totals typed in."""
    totals = region_totals(
        values["regions"],
        values["quarter"],
        values["rate"],
        values["shop"],
        values["web"],
        **flags,
    )
    lines = ["Region\tNet sales EUR", *(f"{k}\t{v:.2f}" for k, v in totals.items())]
    return _summary(values["path"], [], lines)


def totals_first_block(**values: str) -> list[ActionCall]:
    """Near miss: the shop block only (the web orders below the gap missed)."""
    return _typed_totals(values, first_only=True)


def totals_subtotal_counted(**values: str) -> list[ActionCall]:
    """Near miss: the subtotal line added as if it were a sale."""
    return _typed_totals(values, subtotal=True)


def totals_unconverted(**values: str) -> list[ActionCall]:
    """Near miss: USD amounts added as if they were EUR."""
    return _typed_totals(values, unconverted=True)


def totals_without_returns(**values: str) -> list[ActionCall]:
    """Near miss: returns (negative rows) left out."""
    return _typed_totals(values, no_returns=True)


def totals_whole_year(**values: str) -> list[ActionCall]:
    """Near miss: the whole year, not the quarter."""
    return _typed_totals(values, whole_year=True)


CALC_REGION_TOTALS = SubTask(
    id="desktop.calc_region_totals",
    description=(
        "The Sales sheet of the spreadsheet {path} records all of {company}'s sales in "
        "2026. On a new sheet named Summary, give each sales region's net sales in the "
        "{period} in EUR, rounded to cents: the region's name in one cell and its total in "
        "the cell right of it. Count every sale once, convert USD amounts at the rate given "
        "at the top of the Sales sheet, and take returns off. Save the spreadsheet in its "
        "own format."
    ),
    attributes={
        "path": "desktop_file",
        "company": "text",
        "regions": "str",
        "quarter": "str",
        "period": "text",
        "rate": "str",
        "shop": "str",
        "web": "str",
        "gap": "str",
    },
    output_type="desktop_file",
    outputs=["desktop_file"],
    env=D,
    app="calc",
    app_category="office",
    intents=[LEDGER_INTENT],
    value_records=TOTALS_RECORDS,
    setup_generator=totals_setup,
    evaluator_generator=totals_checkpoints,
    solution_generator=totals_solution,
    alternative_generators=[totals_two_sumifs],
    output_generator=saved_document,
    near_misses=[
        NearMiss("totals the first block only", solution=totals_first_block),
        NearMiss("counts the subtotal line as a sale", solution=totals_subtotal_counted),
        NearMiss("adds USD amounts as EUR", solution=totals_unconverted),
        NearMiss("leaves the returns out", solution=totals_without_returns),
        NearMiss("totals the whole year", solution=totals_whole_year),
    ],
)

TEMPLATES: list[SubTask] = [CALC_REGION_TOTALS]
