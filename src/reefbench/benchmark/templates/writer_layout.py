"""reef-v2's Writer template on page layout: a report's appendix typed as tab-separated
lines becomes a real table on a landscape page, the rest of the report staying portrait.

The setup writes a three-to-four page A4 portrait report (a title, five numbered sections)
whose appendix, at the end, is a price list or a visit schedule of 8-14 rows and 6-7
columns typed as lines of tab-separated values: too wide to read on a portrait page. The
agent converts those lines into a table (Table > Convert > Text to Table, tabs), makes its
first row the heading row, bold and repeated on every page the table runs onto, and puts
the appendix on a landscape page (a page break with the Landscape page style before the
appendix heading) while the pages before it stay portrait. Values (companies, items,
figures) vary by document.

The checkpoints read the saved ``.odt`` with odfpy
(:mod:`reefbench.envs.desktop.writer_layout_evaluators`): a table holding exactly the
schedule's rows (no line left as tab-separated text), its first row a repeated heading row
and bold; the appendix heading and the table on a landscape page and everything before on
a portrait one; every paragraph of the report word for word as before, the table's cells in
place of the lines (``office.document_text_is``); a save by LibreOffice.

The reference finds the first schedule line (Find and Replace on its first cell), selects
to the end, converts it with the Heading option (which repeats the heading row), makes that
row bold, then inserts a manual page break with the Landscape style before the appendix
heading; the alternative does the page break first.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.benchmark.templates.common import call, desktop_menu, wait
from reefbench.benchmark.templates.office import saved_document
from reefbench.benchmark.templates.writer import WRITER_INTENT, open_in_writer, save_and_quit
from reefbench.envs.desktop import office_evaluators as oe
from reefbench.envs.desktop import writer_contract_evaluators as wce
from reefbench.envs.desktop import writer_layout_evaluators as wle
from reefbench.tasks.subtask import NearMiss, SubTask
from reefbench.tasks.task import ActionStep

D = "desktop"


@dataclass(frozen=True)
class Report:
    """One task's report: its file, title, the two companies, and what its appendix lists
    ("prices" or "visits")."""

    path: str
    title: str
    client: str
    supplier: str
    kind: str
    heading: str


REPORTS = [
    Report("~/Documents/furniture-review.odt", "Supplier Review: Office Furniture",
           "Harrow & Penn Architects", "Oakline Interiors Ltd", "prices",
           "Appendix A: Price list"),
    Report("~/Documents/cleaning-tender.odt", "Tender Evaluation: Site Cleaning",
           "Westbury Borough Council", "Brightside Facility Services", "visits",
           "Appendix A: Visit schedule"),
    Report("~/Documents/lab-supplies-report.odt", "Laboratory Supplies Report 2027",
           "Calder Biosciences", "Norrland Lab Supply AB", "prices",
           "Appendix B: Agreed prices"),
    Report("~/Documents/maintenance-plan.odt", "Maintenance Plan: Northern Depots",
           "Fenwick Freight Ltd", "Arkwright Engineering Services", "visits",
           "Appendix B: Maintenance schedule"),
    Report("~/Documents/catering-review.odt", "Catering Contract Review",
           "St Aldhelm's School Trust", "Greenfork Catering Co", "prices",
           "Appendix: Menu price list"),
    Report("~/Documents/inspection-plan.odt", "Fire Safety Inspection Plan",
           "Meridian Housing Group", "Blackwater Fire Protection", "visits",
           "Appendix: Inspection schedule"),
    Report("~/Documents/it-hardware-review.odt", "IT Hardware Refresh: Supplier Review",
           "Quayside Legal LLP", "Tessera Computing GmbH", "prices",
           "Appendix C: Hardware price list"),
]  # fmt: skip
BY_PATH = {r.path: r for r in REPORTS}

PRICE_HEADER = ["Item code", "Description", "Unit", "Quantity", "Unit price (EUR)",
                "Line total (EUR)", "Delivery"]  # fmt: skip
ITEMS = {
    "~/Documents/furniture-review.odt": [
        "Height-adjustable desk 160 x 80", "Task chair with lumbar support", "Pedestal, 3 drawers",
        "Meeting table, oak, 240 cm", "Acoustic screen 120 cm", "Bookcase, 5 shelves",
        "Locker bank, 8 doors", "Sofa, two seats, grey wool", "Monitor arm, double",
        "Coat stand, steel", "Filing cabinet, 4 drawers", "Stacking chair, beech",
        "Whiteboard 180 x 120", "Reception counter, white",
    ],
    "~/Documents/lab-supplies-report.odt": [
        "Nitrile gloves, box of 100", "Pipette tips 200 ul, rack of 96", "Centrifuge tubes 50 ml",
        "Petri dishes 90 mm, sleeve", "Ethanol 70 %, 5 litres", "Cryo vials 2 ml, pack of 50",
        "Lab coat, cotton, size M", "Safety goggles, anti-fog", "Parafilm roll 10 cm",
        "Serological pipettes 10 ml", "Sharps container 5 litres", "Microscope slides, box",
        "Weighing boats, pack of 500", "Autoclave tape roll",
    ],
    "~/Documents/catering-review.odt": [
        "Breakfast roll and juice", "Two-course lunch, standard", "Vegetarian lunch option",
        "Soup and bread", "Jacket potato with filling", "Fruit pot", "Sandwich platter, 10",
        "Tea and coffee, per person", "Afternoon cake slice", "Hot dinner, boarders",
        "Packed lunch for trips", "Allergen-free main course", "Salad bowl, seasonal",
        "Milk and biscuits",
    ],
    "~/Documents/it-hardware-review.odt": [
        "Laptop 14 inch, 16 GB", "Laptop 16 inch, 32 GB", "Docking station USB-C",
        "Monitor 27 inch QHD", "Keyboard and mouse set", "Headset, noise cancelling",
        "Webcam 1080p", "Desktop tower, 32 GB", "Tablet 11 inch, 256 GB", "Laser printer A4",
        "Network switch 24 ports", "Wireless access point", "UPS 1500 VA", "Conference speaker",
    ],
}  # fmt: skip
UNITS = ["piece", "box", "pack", "set"]
VISIT_HEADER = ["Visit ref", "Site", "Service", "Start date", "End date", "Crew",
                "Cost (GBP)"]  # fmt: skip
SITES = {
    "~/Documents/cleaning-tender.odt": (
        ["Town Hall", "Central Library", "Leisure Centre", "Museum of Trades",
         "Northgate Offices", "Depot Road Yard", "Civic Theatre", "Registry Office"],
        ["Deep clean", "Window cleaning", "Carpet shampoo", "Washroom service",
         "Kitchen degrease", "Floor polish"],
    ),
    "~/Documents/maintenance-plan.odt": (
        ["Carlisle depot", "Penrith depot", "Kendal depot", "Workington yard",
         "Hexham depot", "Alnwick cross-dock", "Morpeth yard", "Keswick store"],
        ["Dock leveller service", "Roller door repair", "Forklift charger check",
         "Roof gutter clearance", "Fire door survey", "Lighting upgrade"],
    ),
    "~/Documents/inspection-plan.odt": (
        ["Elm Court", "Riverside House", "Marston Tower", "Fairfield Terrace",
         "Kingsway Flats", "Abbey Gardens", "Orchard Rise", "Station Mews"],
        ["Alarm test", "Extinguisher service", "Emergency lighting test",
         "Fire door inspection", "Sprinkler check", "Risk assessment"],
    ),
}  # fmt: skip
MONTHS = ["March", "April", "May", "June", "July", "September", "October"]

SECTION_TITLES = ["1. Purpose of this report", "2. Background", "3. Findings",
                  "4. Options considered", "5. Recommendation"]  # fmt: skip
SENTENCES = [
    "{C} asked for this report to support the decision due at the next board meeting.",
    "{S} has supplied {C} since the last framework ended, under a call-off contract.",
    "The figures come from the supplier's latest quotation and were checked against invoices.",
    "Two other suppliers were contacted; neither could meet the required lead times.",
    "Service levels were reviewed every quarter, and no serious complaint was recorded.",
    "Prices rose by less than inflation over the period, which compares well with the market.",
    "The budget holder confirmed that the amounts fit within the approved allocation.",
    "Any change to the quantities is agreed in writing before an order is placed.",
    "Deliveries arrived on time in most months; the late ones were explained in advance.",
    "{S} keeps a named account manager who attends the quarterly review meetings.",
    "The contract allows {C} to end it with three months' notice at no extra cost.",
    "Staff who use the service were asked for their views in a short survey.",
    "The survey showed broad satisfaction, with a few remarks about communication.",
    "Insurance certificates and health and safety records were checked and are current.",
    "The risk of disruption during a change of supplier was judged to be high.",
    "A benchmarking exercise placed the rates in the lower half of comparable offers.",
    "The finance team recommends keeping the payment terms at thirty days.",
    "We propose that {C} renews the arrangement with {S} for a further two years.",
    "The renewal should include a review of prices after the first twelve months.",
    "Officers will report progress to the committee at the end of each quarter.",
    "Keeping the current arrangement avoids the cost and delay of a new procurement.",
    "A full retender would take about six months and need outside legal advice.",
    "Splitting the work between two suppliers was rejected as harder to manage.",
    "The appendix sets out the detail that the figures in this report are based on.",
    "Complaints are logged centrally and answered within five working days.",
    "The environmental policy of {S} was reviewed and meets the standard {C} requires.",
]


def _sections(report: Report) -> list[list[str]]:
    """The report's blocks before the appendix: each section's heading and three or four
    paragraphs of four sentences (seeded by the file, so a task's report never changes):
    two to three pages."""
    rng = random.Random(report.path)
    names = {"C": report.client, "S": report.supplier}
    blocks: list[list[str]] = []
    for title in SECTION_TITLES:
        blocks.append(["h", title])
        for _ in range(rng.choice((3, 4))):
            chosen = rng.sample(SENTENCES, 4)
            blocks.append(["p", " ".join(s.format(**names) for s in chosen)])
    return blocks


def schedule(report: Report) -> list[list[str]]:
    """The appendix's rows, the heading row first (seeded by the file)."""
    rng = random.Random(report.path + "#appendix")
    if report.kind == "prices":
        items = ITEMS[report.path]
        count = rng.randint(8, 14)
        header = PRICE_HEADER if rng.random() < 0.6 else PRICE_HEADER[:6]
        rows = [header]
        prefix = report.supplier[:2].upper()
        for number, item in enumerate(rng.sample(items, count), 1):
            quantity = rng.randint(2, 60)
            price = rng.randint(150, 98000) / 100
            row = [f"{prefix}-{100 + number * 7}", item, rng.choice(UNITS), str(quantity),
                   f"{price:,.2f}", f"{price * quantity:,.2f}"]  # fmt: skip
            if len(header) == 7:
                row.append(f"week {rng.randint(10, 48)}")
            rows.append(row)
        return rows
    sites, services = SITES[report.path]
    count = rng.randint(8, 14)
    header = VISIT_HEADER if rng.random() < 0.6 else VISIT_HEADER[:6]
    rows = [header]
    for number in range(1, count + 1):
        month = rng.choice(MONTHS)
        day = rng.randint(1, 24)
        row = [f"V-{number:02d}", rng.choice(sites), rng.choice(services), f"{day} {month} 2027",
               f"{day + rng.randint(0, 3)} {month} 2027", str(rng.randint(2, 6))]  # fmt: skip
        if len(header) == 7:
            row.append(f"{rng.randint(4, 90) * 25:,}")
        rows.append(row)
    return rows


def _intro(report: Report) -> str:
    what = "prices quoted by" if report.kind == "prices" else "visits planned with"
    return f"The table below lists the {what} {report.supplier} for {report.client}."


def blocks(report: Report) -> list[list[str]]:
    """The report's blocks for the setup: the sections, the appendix heading, its
    introduction and the schedule's lines of tab-separated cells."""
    return [
        *_sections(report),
        ["h", report.heading],
        ["p", _intro(report)],
        *(["tabs", *row] for row in schedule(report)),
    ]


def expected_text(report: Report) -> list[str]:
    """Every paragraph of the finished report in order: the title, the sections, the
    appendix heading and introduction, then the table's cells row by row."""
    texts = [report.title]
    texts += [b[1] for b in [*_sections(report), ["h", report.heading], ["p", _intro(report)]]]
    return texts + [cell for row in schedule(report) for cell in row]


LAYOUT_RECORDS = [{"path": r.path, "heading": r.heading} for r in REPORTS]


def layout_setup(path: str, heading: str) -> list[ActionStep]:
    report = BY_PATH[path]
    return [
        ActionStep(
            env=D,
            action=wle.create_tabbed_report(path=path, title=report.title, blocks=blocks(report)),
        )
    ]


def layout_checkpoints(path: str, heading: str) -> list[Evaluator]:
    report = BY_PATH[path]
    rows = schedule(report)
    return [
        wle.document_table_rows(path=path, rows=rows),
        wle.landscape_from(path=path, heading=heading, first_row=rows[0]),
        wce.document_text_is(path=path, paragraphs_expected=expected_text(report)),
        oe.saved_by_libreoffice(path=path),
    ]


def _find(text: str) -> list[ActionCall]:
    """Find and Replace (Ctrl+H) finds ``text`` (selected), Close, Home: the cursor at
    the start of the line where it stands. Ctrl+Home first drops any selection (with one,
    the dialog would search only inside it)."""
    return [
        call(D, "hotkey", keys=["ctrl", "home"]),
        call(D, "hotkey", keys=["ctrl", "h"]),
        wait(),
        call(D, "hotkey", keys=["ctrl", "a"]),
        call(D, "write_text", text=text),
        call(D, "click_on", name="Find Next", role="push button"),
        call(D, "click_on", name="Close", role="push button"),
        wait(),
        call(D, "press", key="home"),
    ]


def _to_table(first_cell: str, heading_option: bool = True) -> list[ActionCall]:
    """The schedule's lines (from its first line to the end of the document) selected and
    converted with Table > Convert > Text to Table: tabs (the default), the Heading option
    ticked (Repeat heading comes ticked with it)."""
    steps = [
        *_find(first_cell),
        call(D, "hotkey", keys=["ctrl", "shift", "end"]),
        *desktop_menu("Table", "Convert", "Text to Table..."),
        wait(),
    ]
    if heading_option:
        steps.append(call(D, "click_on", name="Heading", role="check box"))
    return [*steps, call(D, "click_on", name="OK", role="push button"), wait()]


def _bold_first_row(first_cell: str) -> list[ActionCall]:
    """The cursor into the first cell, Table > Select > Row, Ctrl+B."""
    return [
        *_find(first_cell),
        *desktop_menu("Table", "Select", "Row"),
        call(D, "hotkey", keys=["ctrl", "b"]),
    ]


def _landscape_break(heading: str) -> list[ActionCall]:
    """Before the appendix heading, Insert > More Breaks > Manual Break...: a page break
    (the default) with the page style Landscape from the Page Style list (Tab to it,
    Alt+Down opens it)."""
    return [
        *_find(heading),
        *desktop_menu("Insert", "More Breaks", "Manual Break..."),
        wait(),
        call(D, "press", key="tab"),
        call(D, "hotkey", keys=["alt", "down"]),
        wait(),
        call(D, "click_on", name="Landscape"),
        wait(),
        call(D, "click_on", name="OK", role="push button"),
        wait(),
    ]


def layout_solution(path: str, heading: str) -> list[ActionCall]:
    first = schedule(BY_PATH[path])[0][0]
    return [
        *open_in_writer(path),
        *_to_table(first),
        *_bold_first_row(first),
        *_landscape_break(heading),
        *save_and_quit(),
    ]


def layout_break_first(path: str, heading: str) -> list[ActionCall]:
    """Alternative: the landscape page break first, then the table."""
    first = schedule(BY_PATH[path])[0][0]
    return [
        *open_in_writer(path),
        *_landscape_break(heading),
        *_to_table(first),
        *_bold_first_row(first),
        *save_and_quit(),
    ]


def _whole_document_landscape() -> list[ActionCall]:
    """Format > Page Style...: the Page tab, Landscape, OK (the Default Page Style of
    every page turned)."""
    return [
        *desktop_menu("Format", "Page Style..."),
        wait(),
        call(D, "click_on", name="Page", role="page tab"),
        wait(),
        call(D, "click_on", name="Landscape", role="radio button"),
        call(D, "click_on", name="OK", role="push button"),
        wait(),
    ]


def layout_all_landscape(path: str, heading: str) -> list[ActionCall]:
    """Near miss: the table made, but the whole document's page style turned landscape."""
    first = schedule(BY_PATH[path])[0][0]
    return [
        *open_in_writer(path),
        *_to_table(first),
        *_bold_first_row(first),
        *_whole_document_landscape(),
        *save_and_quit(),
    ]


def layout_table_only(path: str, heading: str) -> list[ActionCall]:
    """Near miss: the table made, the page left portrait."""
    first = schedule(BY_PATH[path])[0][0]
    return [*open_in_writer(path), *_to_table(first), *_bold_first_row(first), *save_and_quit()]


def layout_page_only(path: str, heading: str) -> list[ActionCall]:
    """Near miss: the appendix put on a landscape page, its lines left as tabbed text."""
    return [*open_in_writer(path), *_landscape_break(heading), *save_and_quit()]


def layout_row_lost(path: str, heading: str) -> list[ActionCall]:
    """Near miss: the table made and landscape, its last row deleted (Ctrl+End: the empty
    paragraph Writer keeps after a table ending the document; Up: the last row; Table >
    Delete > Delete Rows)."""
    first = schedule(BY_PATH[path])[0][0]
    return [
        *open_in_writer(path),
        *_to_table(first),
        *_bold_first_row(first),
        *_landscape_break(heading),
        call(D, "hotkey", keys=["ctrl", "end"]),
        call(D, "press", key="up"),
        *desktop_menu("Table", "Delete", "Delete Rows"),
        *save_and_quit(),
    ]


WRITER_TABLE_LAYOUT = SubTask(
    id="desktop.writer_table_layout",
    description=(
        'The appendix "{heading}" at the end of the report {path} is typed as lines of '
        "tab-separated values, too wide for its portrait pages. Turn those lines into a real "
        "Writer table, one row per line and one cell per value, with nothing else changed in "
        "the text; make the table's first row its heading row, in bold and repeated at the "
        "top of every page the table runs onto. Put the appendix, from its heading on, on "
        "landscape pages while every page before it stays portrait. Save the document in "
        "place in its own format (.odt)."
    ),
    attributes={"path": "desktop_file", "heading": "text"},
    output_type="desktop_file",
    outputs=["desktop_file"],
    env=D,
    app="writer",
    app_category="office",
    intents=[WRITER_INTENT],
    value_records=LAYOUT_RECORDS,
    setup_generator=layout_setup,
    evaluator_generator=layout_checkpoints,
    solution_generator=layout_solution,
    alternative_generators=[layout_break_first],
    output_generator=saved_document,
    near_misses=[
        NearMiss("turns the whole document landscape", solution=layout_all_landscape),
        NearMiss("makes the table but leaves the page portrait", solution=layout_table_only),
        NearMiss("turns the page but leaves the tab-separated lines", solution=layout_page_only),
        NearMiss("loses the table's last row", solution=layout_row_lost),
    ],
)

TEMPLATES: list[SubTask] = [WRITER_TABLE_LAYOUT]
