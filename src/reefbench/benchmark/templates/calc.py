"""LibreOffice Calc templates of reef-v2's office family: professional work on a
spreadsheet the user already has (seeded as ``.ods`` in ~/Documents by odfpy, so only a
save by LibreOffice passes :func:`~reefbench.envs.desktop.office_evaluators.saved_by_libreoffice`).

* :data:`CALC_SORT_TWO_KEYS` (hard): sort a 24-row table by a text column, then by amount
  largest first, rows kept whole. Checked on the saved row order (ties in any order), not
  on how it was sorted (one Sort dialog with two keys, or two stable one-key sorts).
* :data:`CALC_PRICE_LOOKUP` (hard): fill a column with formulas that take each order's
  unit price from a second sheet (unsorted, so an approximate-match VLOOKUP gives wrong
  prices; a range not anchored with ``$`` breaks lower rows). Checked per cell as a
  formula reading that sheet *and* its value.
* :data:`CALC_FREEZE_FILTER` (medium): freeze the header row and put AutoFilter buttons on
  the table, read from the saved view settings and database range.

Reference solutions open the file through Calc's Open dialog, work with the menus and the
Name Box (Ctrl+Shift+F5), save with Ctrl+S and quit.
"""

from __future__ import annotations

import random

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.benchmark.templates.common import call, expand
from reefbench.benchmark.templates.office import saved_document
from reefbench.envs.desktop import calc_evaluators as ce
from reefbench.envs.desktop import office_evaluators as oe
from reefbench.envs.desktop import setup as st
from reefbench.tasks.subtask import NearMiss, SubTask
from reefbench.tasks.task import ActionStep

D = "desktop"
CALC_INTENT = "organise a spreadsheet on the computer"
REGIONS = ["North", "South", "East", "West"]
REPS = ["Alvarez", "Brennan", "Chowdhury", "Dubois", "Eriksen"]
LETTERS = "ABCDEFGH"


# ------------------------------------------------------------------ shared steps
def open_in_calc(path: str) -> list[ActionCall]:
    """Start Calc and open ``path`` through its Open dialog (the cursor lands on A1)."""
    return [
        call(D, "search_app", name="spreadsheet"),
        call(D, "hotkey", keys=["ctrl", "o"]),
        call("root", "wait"),
        call(D, "write_text", text=expand(path)),
        call("root", "wait"),
        call(D, "press", key="enter"),
        call("root", "wait"),
    ]


def save_in_place() -> list[ActionCall]:
    """Save in the file's own format (Ctrl+S on an ``.ods`` asks nothing) and quit."""
    return [
        call(D, "hotkey", keys=["ctrl", "s"]),
        call("root", "wait"),
        call(D, "hotkey", keys=["ctrl", "q"]),
        call("root", "wait"),
    ]


def go_to(cell: str) -> list[ActionCall]:
    """Move the cursor (or select a range) through the Name Box."""
    return [
        call(D, "hotkey", keys=["ctrl", "shift", "F5"]),
        call(D, "write_text", text=f"{cell}\n"),
    ]


def menu(*names: str) -> list[ActionCall]:
    return [call(D, "click_on", name=name) for name in names]


def _rows(table: str) -> list[list[str]]:
    return [line.split("|") for line in table.splitlines()]


# ------------------------------------------------------------------------- sort
SORT_HEADER = ["Order", "Region", "Rep", "Amount"]
SORT_ROWS = 24
SORT_COLUMNS = {"region": "B", "rep": "C"}


def _sort_table(seed: int) -> str:
    """24 orders as ``order|region|rep|amount`` lines, in no order; every region and rep
    has several rows, so a one-key sort leaves amounts unsorted within them."""
    rng = random.Random(seed)
    lines = []
    for index in range(SORT_ROWS):
        amount = f"{rng.randrange(40, 2000)}.{rng.randrange(0, 100):02d}"
        lines.append(
            f"{4100 + index * 3 + rng.randrange(3)}|{rng.choice(REGIONS)}|"
            f"{rng.choice(REPS)}|{amount}"
        )
    return "\n".join(lines)


def _sort_record(seed: int, path: str, by: str) -> dict[str, str]:
    return {"path": path, "by": by, "table": _sort_table(seed)}


SORT_RECORDS = [
    _sort_record(11, "~/Documents/q3-orders.ods", "region"),
    _sort_record(12, "~/Documents/sales-log.ods", "rep"),
    _sort_record(13, "~/Documents/orders-2026.ods", "region"),
    _sort_record(14, "~/Documents/pipeline.ods", "rep"),
    _sort_record(15, "~/Documents/invoices.ods", "region"),
    _sort_record(16, "~/Documents/deals.ods", "rep"),
]


def sort_setup(path: str, by: str, table: str) -> list[ActionStep]:
    return [
        ActionStep(
            env=D, action=st.create_spreadsheet(path=path, rows=[SORT_HEADER, *_rows(table)])
        )
    ]


def sort_checkpoints(path: str, by: str, table: str) -> list[Evaluator]:
    keys = [[SORT_COLUMNS[by], True], ["D", False]]
    return [
        ce.table_sorted(path=path, rows=_rows(table), keys=keys),
        oe.saved_by_libreoffice(path=path),
    ]


def _sort_on(column: str, direction: str, where: str = "menu") -> list[ActionCall]:
    """Put the cursor in ``column``'s header and sort the table by it (Calc extends the
    sort to the whole table and keeps the header row on top)."""
    button = f"Sort {direction}"
    clicks = (
        menu("Data", button)
        if where == "menu"
        else [call(D, "click_on", name=button, role="push button")]
    )
    return [*go_to(f"{column}1"), *clicks]


def sort_solution(path: str, by: str, table: str) -> list[ActionCall]:
    """Two stable one-key sorts: amount largest first, then the main key A to Z."""
    return [
        *open_in_calc(path),
        *_sort_on("D", "Descending"),
        *_sort_on(SORT_COLUMNS[by], "Ascending"),
        *save_in_place(),
    ]


def sort_with_toolbar(path: str, by: str, table: str) -> list[ActionCall]:
    """The same two sorts through the toolbar's Sort buttons."""
    return [
        *open_in_calc(path),
        *_sort_on("D", "Descending", where="toolbar"),
        *_sort_on(SORT_COLUMNS[by], "Ascending", where="toolbar"),
        *save_in_place(),
    ]


def sort_main_key_only(path: str, by: str, table: str) -> list[ActionCall]:
    """Near miss: sorted by the main key only, amounts left in their old order."""
    return [*open_in_calc(path), *_sort_on(SORT_COLUMNS[by], "Ascending"), *save_in_place()]


def sort_amount_ascending(path: str, by: str, table: str) -> list[ActionCall]:
    """Near miss: both keys, but amounts smallest first."""
    return [
        *open_in_calc(path),
        *_sort_on("D", "Ascending"),
        *_sort_on(SORT_COLUMNS[by], "Ascending"),
        *save_in_place(),
    ]


def sort_keys_swapped(path: str, by: str, table: str) -> list[ActionCall]:
    """Near miss: the two sorts in the wrong order (the last one wins: by amount only)."""
    return [
        *open_in_calc(path),
        *_sort_on(SORT_COLUMNS[by], "Ascending"),
        *_sort_on("D", "Descending"),
        *save_in_place(),
    ]


CALC_SORT_TWO_KEYS = SubTask(
    id="desktop.calc_sort_two_keys",
    description=(
        "The spreadsheet {path} lists orders (order number, region, rep, amount) under a "
        "header row. Sort the table by {by} from A to Z and, within the same {by}, by "
        "amount from largest to smallest, keeping every order's row together and the "
        "header on top, and save it in its own format."
    ),
    attributes={"path": "desktop_file", "by": "text", "table": "str"},
    output_type="desktop_file",
    outputs=["desktop_file"],
    env=D,
    app="calc",
    app_category="office",
    intents=[CALC_INTENT],
    value_records=SORT_RECORDS,
    setup_generator=sort_setup,
    evaluator_generator=sort_checkpoints,
    solution_generator=sort_solution,
    alternative_generators=[sort_with_toolbar],
    output_generator=saved_document,
    near_misses=[
        NearMiss("sorts by the main key only", solution=sort_main_key_only),
        NearMiss("sorts amounts smallest first", solution=sort_amount_ascending),
        NearMiss("applies the two sorts in the wrong order", solution=sort_keys_swapped),
    ],
)


# ----------------------------------------------------------------------- lookup
ORDER_HEADER = ["Order", "Code", "Qty", "Unit price"]
PRICE_HEADER = ["Code", "Product", "Price"]
PRODUCTS = ["Stapler", "Toner", "Paper A4", "Binder", "Desk lamp", "Headset", "Webcam", "Cable"]
ORDERS = 20


def _price_table(seed: int) -> str:
    """Eight products as ``code|product|price`` lines, codes not in sorted order (so an
    approximate-match lookup finds wrong rows)."""
    rng = random.Random(seed)
    codes = [f"{letter}{rng.randrange(10, 99)}" for letter in LETTERS]
    order = list(range(len(codes)))
    while order == sorted(order) or order[0] == 0:
        rng.shuffle(order)
    lines = []
    for index in order:
        price = f"{rng.randrange(2, 180)}.{rng.choice(['00', '25', '50', '75', '99'])}"
        lines.append(f"{codes[index]}|{PRODUCTS[index]}|{price}")
    return "\n".join(lines)


def _order_table(seed: int, prices: str) -> str:
    rng = random.Random(seed + 1000)
    codes = [row[0] for row in _rows(prices)]
    picked = [*codes, *rng.choices(codes, k=ORDERS - len(codes))]
    rng.shuffle(picked)
    return "\n".join(f"{7200 + i}|{code}|{rng.randrange(1, 25)}" for i, code in enumerate(picked))


def _lookup_record(seed: int, path: str) -> dict[str, str]:
    prices = _price_table(seed)
    return {"path": path, "orders": _order_table(seed, prices), "prices": prices}


LOOKUP_RECORDS = [
    _lookup_record(21, "~/Documents/order-book.ods"),
    _lookup_record(22, "~/Documents/supplies.ods"),
    _lookup_record(23, "~/Documents/purchases.ods"),
    _lookup_record(24, "~/Documents/stock-orders.ods"),
    _lookup_record(25, "~/Documents/requisitions.ods"),
    _lookup_record(26, "~/Documents/shop-orders.ods"),
]


def unit_prices(orders: str, prices: str) -> list[float]:
    price_of = {row[0]: float(row[2]) for row in _rows(prices)}
    return [price_of[row[1]] for row in _rows(orders)]


def lookup_setup(path: str, orders: str, prices: str) -> list[ActionStep]:
    sheets = {
        "Orders": [ORDER_HEADER, *_rows(orders)],
        "Prices": [PRICE_HEADER, *_rows(prices)],
    }
    return [ActionStep(env=D, action=st.create_workbook(path=path, sheets=sheets))]


def lookup_checkpoints(path: str, orders: str, prices: str) -> list[Evaluator]:
    return [
        ce.column_looked_up(
            path=path,
            sheet="Orders",
            column="D",
            first_row=2,
            values=unit_prices(orders, prices),
            source_sheet="Prices",
        ),
        oe.saved_by_libreoffice(path=path),
    ]


def _fill_column(path: str, orders: str, formula: str) -> list[ActionCall]:
    """Select D2:D<last> through the Name Box and enter ``formula`` (written for row 2)
    into every cell of it at once (Alt+Enter fills the selection, references adjusted)."""
    last = len(_rows(orders)) + 1
    return [
        *open_in_calc(path),
        *go_to(f"D2:D{last}"),
        call(D, "write_text", text=formula),
        call(D, "hotkey", keys=["alt", "enter"]),
        *save_in_place(),
    ]


def _price_range(prices: str, anchored: bool = True) -> str:
    last = len(_rows(prices)) + 1
    return f"$Prices.$A$2:$C${last}" if anchored else f"$Prices.A2:C{last}"


def lookup_solution(path: str, orders: str, prices: str) -> list[ActionCall]:
    return _fill_column(path, orders, f"=VLOOKUP(B2;{_price_range(prices)};3;0)")


def lookup_index_match(path: str, orders: str, prices: str) -> list[ActionCall]:
    """INDEX and MATCH instead of VLOOKUP."""
    last = len(_rows(prices)) + 1
    formula = f"=INDEX($Prices.$C$2:$C${last};MATCH(B2;$Prices.$A$2:$A${last};0))"
    return _fill_column(path, orders, formula)


def lookup_approximate(path: str, orders: str, prices: str) -> list[ActionCall]:
    """Near miss: VLOOKUP without its exact-match argument on an unsorted price list."""
    return _fill_column(path, orders, f"=VLOOKUP(B2;{_price_range(prices)};3)")


def lookup_unanchored(path: str, orders: str, prices: str) -> list[ActionCall]:
    """Near miss: the price range not anchored, so it slides down with each row."""
    return _fill_column(path, orders, f"=VLOOKUP(B2;{_price_range(prices, False)};3;0)")


def lookup_typed_prices(path: str, orders: str, prices: str) -> list[ActionCall]:
    """Near miss: the prices looked up by eye and typed in as numbers."""
    typed = "".join(f"{p:g}\n" for p in unit_prices(orders, prices))
    return [*open_in_calc(path), *go_to("D2"), call(D, "write_text", text=typed), *save_in_place()]


CALC_PRICE_LOOKUP = SubTask(
    id="desktop.calc_price_lookup",
    description=(
        "In the spreadsheet {path}, the Orders sheet lists orders by product code and the "
        'Prices sheet gives each code\'s price. Fill the "Unit price" column of the Orders '
        "sheet (column D, every order) with formulas that take each order's price from the "
        "Prices sheet, so that they follow any later price change, and save the "
        "spreadsheet in its own format."
    ),
    attributes={"path": "desktop_file", "orders": "str", "prices": "str"},
    output_type="desktop_file",
    outputs=["desktop_file"],
    env=D,
    app="calc",
    app_category="office",
    intents=[CALC_INTENT],
    value_records=LOOKUP_RECORDS,
    setup_generator=lookup_setup,
    evaluator_generator=lookup_checkpoints,
    solution_generator=lookup_solution,
    alternative_generators=[lookup_index_match],
    output_generator=saved_document,
    near_misses=[
        NearMiss("VLOOKUP without exact match on an unsorted list", solution=lookup_approximate),
        NearMiss("a price range that slides down the rows", solution=lookup_unanchored),
        NearMiss("types the prices instead of formulas", solution=lookup_typed_prices),
    ],
)


# ---------------------------------------------------------------- freeze/filter
FILTER_HEADER = ["Date", "Region", "Rep", "Product", "Amount"]
FILTER_ROWS = 45


def _filter_table(seed: int) -> str:
    rng = random.Random(seed)
    lines = []
    for index in range(FILTER_ROWS):
        day = f"2026-0{1 + index // 15}-{1 + index % 15 * 2:02d}"
        lines.append(
            f"{day}|{rng.choice(REGIONS)}|{rng.choice(REPS)}|{rng.choice(PRODUCTS)}|"
            f"{rng.randrange(20, 900)}"
        )
    return "\n".join(lines)


FILTER_RECORDS = [
    {"path": path, "table": _filter_table(seed)}
    for seed, path in enumerate(
        [
            "~/Documents/sales-q1.ods",
            "~/Documents/transactions.ods",
            "~/Documents/field-sales.ods",
            "~/Documents/ledger-2026.ods",
            "~/Documents/revenue.ods",
        ],
        31,
    )
]


def filter_setup(path: str, table: str) -> list[ActionStep]:
    rows = [FILTER_HEADER, *_rows(table)]
    return [ActionStep(env=D, action=st.create_spreadsheet(path=path, rows=rows))]


def filter_checkpoints(path: str, table: str) -> list[Evaluator]:
    return [
        ce.panes_frozen(path=path, frozen="A2"),
        ce.autofilter_on(path=path, columns="A:E", last_row=len(_rows(table)) + 1),
        oe.saved_by_libreoffice(path=path),
    ]


def _freeze_first_row() -> list[ActionCall]:
    return menu("View", "Freeze Cells", "Freeze First Row")


def _autofilter() -> list[ActionCall]:
    return [call(D, "hotkey", keys=["ctrl", "home"]), *menu("Data", "AutoFilter")]


def filter_solution(path: str, table: str) -> list[ActionCall]:
    return [*open_in_calc(path), *_freeze_first_row(), *_autofilter(), *save_in_place()]


def filter_at_cursor(path: str, table: str) -> list[ActionCall]:
    """Freeze Rows and Columns with the cursor on A2, AutoFilter from the toolbar."""
    return [
        *open_in_calc(path),
        *go_to("A2"),
        *menu("View", "Freeze Rows and Columns"),
        call(D, "hotkey", keys=["ctrl", "home"]),
        call(D, "click_on", name="AutoFilter", role="push button"),
        *save_in_place(),
    ]


def filter_without_freeze(path: str, table: str) -> list[ActionCall]:
    """Near miss: the filter buttons, but the header scrolls away."""
    return [*open_in_calc(path), *_autofilter(), *save_in_place()]


def filter_without_filter(path: str, table: str) -> list[ActionCall]:
    """Near miss: the header frozen, no filter buttons."""
    return [*open_in_calc(path), *_freeze_first_row(), *save_in_place()]


def filter_first_column(path: str, table: str) -> list[ActionCall]:
    """Near miss: the first column frozen instead of the first row."""
    return [
        *open_in_calc(path),
        *menu("View", "Freeze Cells", "Freeze First Column"),
        *_autofilter(),
        *save_in_place(),
    ]


CALC_FREEZE_FILTER = SubTask(
    id="desktop.calc_freeze_filter",
    description=(
        "The spreadsheet {path} has a long table of sales under a header row. Make the "
        "header row stay in view while scrolling down (freeze it), give the table's header "
        "AutoFilter buttons for every column, with all rows still shown, and save the "
        "spreadsheet in its own format."
    ),
    attributes={"path": "desktop_file", "table": "str"},
    output_type="desktop_file",
    outputs=["desktop_file"],
    env=D,
    app="calc",
    app_category="office",
    intents=[CALC_INTENT],
    value_records=FILTER_RECORDS,
    setup_generator=filter_setup,
    evaluator_generator=filter_checkpoints,
    solution_generator=filter_solution,
    alternative_generators=[filter_at_cursor],
    output_generator=saved_document,
    near_misses=[
        NearMiss("AutoFilter without freezing the header", solution=filter_without_freeze),
        NearMiss("freezes the header without AutoFilter", solution=filter_without_filter),
        NearMiss("freezes the first column instead of the row", solution=filter_first_column),
    ],
)


# ---------------------------------------------------------------- CSV import
CSV_HEADER = "Date;Payee;Reference;Amount"
PAYEES = ["Stadtwerke", "Müller, K.", "Rewe", "Deutsche Bahn", "Schmidt & Co", "Finanzamt"]
CSV_ROWS = 18


def _german(amount: float) -> str:
    """1234.5 as a German bank writes it: "1.234,50"."""
    whole, cents = f"{abs(amount):,.2f}".split(".")
    return ("-" if amount < 0 else "") + whole.replace(",", ".") + "," + cents


def _bank_export(seed: int) -> str:
    """A bank's CSV export: semicolons between fields, decimal commas, thousands dots,
    a payee with a comma in its name."""
    rng = random.Random(seed)
    lines = [CSV_HEADER]
    for index in range(CSV_ROWS):
        cents = rng.randrange(-250000, 60000) if index % 3 else rng.randrange(100000, 400000)
        lines.append(
            f"2026-02-{index + 1:02d};{rng.choice(PAYEES)};RF{rng.randrange(10**5, 10**6)};"
            f"{_german(cents / 100)}"
        )
    return "\n".join(lines) + "\n"


def csv_amounts(export: str) -> list[float]:
    return [
        float(line.rsplit(";", 1)[1].replace(".", "").replace(",", "."))
        for line in export.splitlines()[1:]
    ]


CSV_RECORDS = [
    {
        "csv": f"~/Documents/{name}.csv",
        "path": f"~/Documents/{name}.ods",
        "export": _bank_export(seed),
    }
    for seed, name in enumerate(
        ["umsaetze-feb", "konto-export", "bank-feb-2026", "girokonto", "account-export"], 41
    )
]


def csv_setup(csv: str, path: str, export: str) -> list[ActionStep]:
    return [ActionStep(env=D, action=st.create_file(path=csv, content=export))]


def csv_checkpoints(csv: str, path: str, export: str) -> list[Evaluator]:
    amounts = csv_amounts(export)
    last = len(amounts) + 1
    return [
        ce.column_numbers(path=path, column="D", first_row=2, values=amounts),
        oe.spreadsheet_formula(
            path=path, cell=f"D{last + 1}", value=round(sum(amounts), 2), uses="SUM"
        ),
        oe.saved_by_libreoffice(path=path),
    ]


def _import(csv: str, comma: bool = False, german: bool = True) -> list[ActionCall]:
    """Open the CSV through the Open dialog; in Text Import, untick Comma (ticked here by
    default) and set the locale to German, whose decimal separator is the comma."""
    steps = [*open_in_calc(csv)]
    if not comma:
        steps.append(call(D, "click_on", name="Comma", role="check box"))
    if german:
        steps += [
            call(D, "hotkey", keys=["alt", "l"]),
            call(D, "hotkey", keys=["alt", "down"]),
            call("root", "wait"),
            call(D, "write_text", text="German (Germany)"),
            call(D, "press", key="enter"),
        ]
    return [*steps, call(D, "click_on", name="OK", role="push button"), call("root", "wait")]


def _total(export: str) -> list[ActionCall]:
    last = len(csv_amounts(export)) + 1
    return [*go_to(f"D{last + 1}"), call(D, "write_text", text=f"=SUM(D2:D{last})\n")]


def _save_as_ods(path: str) -> list[ActionCall]:
    """Save As, with the file type switched from Text CSV to ODF Spreadsheet."""
    return [
        call(D, "hotkey", keys=["ctrl", "shift", "s"]),
        call("root", "wait"),
        call(D, "click_on", name="Text CSV (.csv)", role="combo box"),
        call(D, "click_on", name="ODF Spreadsheet (.ods)"),
        call(D, "click_on", name="Name", role="text"),
        call(D, "hotkey", keys=["ctrl", "a"]),
        call(D, "write_text", text=expand(path)),
        call("root", "wait"),
        call(D, "press", key="enter"),
        call("root", "wait"),
        call(D, "hotkey", keys=["ctrl", "q"]),
        call("root", "wait"),
    ]


def csv_solution(csv: str, path: str, export: str) -> list[ActionCall]:
    return [*_import(csv), *_total(export), *_save_as_ods(path)]


def csv_comma_kept(csv: str, path: str, export: str) -> list[ActionCall]:
    """Near miss: Comma left ticked, so every amount splits at its decimal comma."""
    return [*_import(csv, comma=True), *_total(export), *_save_as_ods(path)]


def csv_english_locale(csv: str, path: str, export: str) -> list[ActionCall]:
    """Near miss: the locale left English, so the amounts stay text and add up to 0."""
    return [*_import(csv, german=False), *_total(export), *_save_as_ods(path)]


def csv_kept_as_csv(csv: str, path: str, export: str) -> list[ActionCall]:
    """Near miss: imported right, but saved back as CSV (Keep Current Format)."""
    return [
        *_import(csv),
        *_total(export),
        call(D, "hotkey", keys=["ctrl", "s"]),
        call("root", "wait"),
        call(D, "press", key="enter"),
        call("root", "wait"),
        call(D, "hotkey", keys=["ctrl", "q"]),
        call("root", "wait"),
    ]


CALC_CSV_IMPORT = SubTask(
    id="desktop.calc_csv_import",
    description=(
        "{csv} is an export from a German bank: fields separated by semicolons, amounts "
        'written with a decimal comma and thousands dots ("1.234,56"). Open it in Calc so '
        "that each field is in its own column and every amount in column D is a number "
        "with its right value, put a formula for the total of the amounts in the first "
        "empty cell below them in column D, and save the result as an ODF spreadsheet "
        "{path}."
    ),
    attributes={"csv": "desktop_file", "path": "desktop_file", "export": "str"},
    output_type="desktop_file",
    outputs=["desktop_file"],
    env=D,
    app="calc",
    app_category="office",
    intents=[CALC_INTENT],
    value_records=CSV_RECORDS,
    setup_generator=csv_setup,
    evaluator_generator=csv_checkpoints,
    solution_generator=csv_solution,
    output_generator=saved_document,
    near_misses=[
        NearMiss("leaves Comma ticked as a separator", solution=csv_comma_kept),
        NearMiss("imports with the English locale", solution=csv_english_locale),
        NearMiss("saves back as CSV, not ODF", solution=csv_kept_as_csv),
    ],
)

TEMPLATES: list[SubTask] = [
    CALC_SORT_TWO_KEYS,
    CALC_PRICE_LOOKUP,
    CALC_FREEZE_FILTER,
    CALC_CSV_IMPORT,
]
