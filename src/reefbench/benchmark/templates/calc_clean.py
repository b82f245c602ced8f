"""A hard Calc template of reef-v2's office family: cleaning a messy CRM export and
handing it on as an Excel workbook (:data:`CALC_CLEAN_EXPORT`, issue 33's "cleaning
(split, trim, de-duplicate), number and date formats, export to xlsx").

The export (an ``.ods`` of 50-65 rows, every cell text as a CRM writes it) has one Name
column "Last, First" with stray spaces before, after and inside, customers listed twice
or three times (the same e-mail in other capitals, other orders), order dates written
three ways (day-first "04/03/2026", ISO "2026-03-04", "4 Mar 2026") and order values with
thousands separators. The clean list (checked in the saved ``.xlsx`` through openpyxl,
:mod:`reefbench.envs.desktop.calc_clean_evaluators`) has first and last names apart and
trimmed, one row per customer (the one with the latest order), real dates shown
YYYY-MM-DD and numbers shown with two decimals. Some duplicates are traps: read
month-first, their day-first date falls on the other side of the other row's date, so
the wrong row looks the latest; and the latest row is not always the first (what Calc's
"No duplications" filter keeps).

The reference opens the export through Calc's Open dialog, turns AutoInput off (it would
complete a typed name from the column above), clears the sheet, types the clean list (it
knows it), gives the values two decimals (Ctrl+Shift+1), saves through Save As with the
Excel file type and quits. A person works it out with
Text to Columns, TRIM, a date formula per form, a sort and a filter: many more steps.
"""

from __future__ import annotations

import datetime
import random
import re

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.benchmark.templates.calc import go_to, menu, open_in_calc
from reefbench.benchmark.templates.common import call, expand
from reefbench.benchmark.templates.office import saved_document
from reefbench.envs.desktop import calc_clean_evaluators as ke
from reefbench.envs.desktop import setup as st
from reefbench.envs.desktop.evaluators import file_key
from reefbench.tasks.subtask import NearMiss, SubTask
from reefbench.tasks.task import ActionStep

D = "desktop"
CLEAN_INTENT = "clean up a spreadsheet on the computer"
SOURCE_HEADER = ["Name", "Email", "Company", "Last order", "Order value"]
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
FIRST_NAMES = [
    "Maria",
    "James",
    "Aisha",
    "Tomasz",
    "Ingrid",
    "Kwame",
    "Sofia",
    "Daniel",
    "Priya",
    "Lukas",
    "Chloe",
    "Mateo",
    "Hannah",
    "Omar",
    "Elena",
    "Victor",
    "Yuki",
    "Grace",
    "Felix",
    "Nadia",
    "Robert",
    "Leila",
    "Samuel",
    "Irene",
    "Mary Ann",
    "Jean Paul",
    "Ana Lucia",
    "Hugo",
    "Zara",
    "Patrick",
    "Martina",
    "Oskar",
]
LAST_NAMES = [
    "Garcia",
    "Novak",
    "Okafor",
    "Lindqvist",
    "Brennan",
    "Tanaka",
    "Moreau",
    "Schmidt",
    "Patel",
    "Kowalski",
    "Haddad",
    "Fischer",
    "Nakamura",
    "Whitfield",
    "Rossi",
    "Mensah",
    "Johansson",
    "Costa",
    "Sullivan",
    "Petrov",
    "De Luca",
    "Van Dijk",
    "Da Silva",
    "Le Roux",
    "Smith-Jones",
    "Abara",
    "Ferreira",
    "Holm",
]
# Company -> its e-mail domain.
COMPANIES = {
    "Northwind Traders": "northwind.com",
    "Bluefin Logistics": "bluefin-logistics.com",
    "Harbour Dental": "harbourdental.co.uk",
    "Kestrel Engineering": "kestrel-eng.com",
    "Maple Street Bakery": "maplestreetbakery.com",
    "Orion Software": "orionsoft.io",
    "Redwood Architects": "redwood-arch.com",
    "Silverline Travel": "silverlinetravel.com",
    "Tidewater Foods": "tidewaterfoods.com",
    "Alder Print Works": "alderprint.com",
    "Granite Legal": "granitelegal.com",
    "Pinecrest Clinic": "pinecrestclinic.org",
}
FIRST_DAY, LAST_DAY = datetime.date(2025, 1, 6), datetime.date(2026, 3, 13)


# ------------------------------------------------------------------ the export
def _written(day: datetime.date, form: str) -> str:
    """A date as the export writes it: "dmy" (04/03/2026, day first), "iso" or "text"
    (4 Mar 2026)."""
    if form == "dmy":
        return f"{day.day:02d}/{day.month:02d}/{day.year}"
    if form == "iso":
        return day.isoformat()
    return f"{day.day} {MONTHS[day.month - 1]} {day.year}"


def read_date(text: str) -> datetime.date:
    """A date of the export, in any of its three forms (day first with slashes)."""
    text = text.strip()
    if re.fullmatch(r"\d{4}-\d\d-\d\d", text):
        return datetime.date.fromisoformat(text)
    slashed = re.fullmatch(r"(\d\d)/(\d\d)/(\d{4})", text)
    if slashed:
        day, month, year = (int(g) for g in slashed.groups())
        return datetime.date(year, month, day)
    day_s, month_s, year_s = text.split()
    return datetime.date(int(year_s), MONTHS.index(month_s) + 1, int(day_s))


def misread(text: str) -> datetime.date:
    """The date a month-first reading makes of ``text`` (only slashed dates change; one
    that cannot be a month-first date is read as written)."""
    slashed = re.fullmatch(r"(\d\d)/(\d\d)/(\d{4})", text.strip())
    if slashed and int(slashed.group(1)) <= 12:
        day, month, year = (int(g) for g in slashed.groups())
        return datetime.date(year, day, month)
    return read_date(text)


def _messy(last: str, first: str, rng: random.Random) -> str:
    """ "Last, First" as a CRM keeps it: spaces before, after, around the comma, doubled
    inside a two-word name."""
    if " " in last and rng.random() < 0.6:
        last = last.replace(" ", "  ")
    if " " in first and rng.random() < 0.6:
        first = first.replace(" ", "  ")
    comma = rng.choice([", ", ", ", ",  ", ",", " , "])
    before = rng.choice(["", "", " ", "  "])
    after = rng.choice(["", "", " ", "  ", "   "])
    return f"{before}{last}{comma}{first}{after}"


def _money(rng: random.Random) -> str:
    cents = rng.choice([rng.randrange(12000, 99900), rng.randrange(100000, 4800000)])
    return f"{cents / 100:,.2f}"


def _day(rng: random.Random, start: datetime.date = FIRST_DAY) -> datetime.date:
    return start + datetime.timedelta(days=rng.randrange((LAST_DAY - start).days + 1))


def _email(first: str, last: str, domain: str, rng: random.Random) -> str:
    local = f"{first.split()[0]}.{last.replace(' ', '')}"
    return rng.choice([local.lower(), local]) + "@" + domain


def _spellings(email: str, count: int, rng: random.Random) -> list[str]:
    """``email`` and ``count - 1`` other spellings of it, in other capitals each."""
    local, domain = email.split("@")
    others = [
        local.upper() + "@" + domain.upper(),
        local.title() + "@" + domain,
        email.lower(),
        local.upper() + "@" + domain,
    ]
    distinct = [o for o in dict.fromkeys(others) if o != email]
    return [email, *rng.sample(distinct, count - 1)]


def _trap(rng: random.Random) -> tuple[str, str]:
    """Two dates of one customer where reading the slashed one month-first puts it on the
    other side of the other: the slashed date's day is 1-12, the other lies between the
    true date and the misread one."""
    while True:
        year = rng.choice([2025, 2025, 2026])
        month, day = rng.randrange(1, 13), rng.randrange(1, 13)
        true, wrong = datetime.date(year, month, day), datetime.date(year, day, month)
        low, high = sorted((true, wrong))
        if (high - low).days >= 4 and low >= FIRST_DAY and high <= LAST_DAY:
            between = low + datetime.timedelta(days=rng.randrange(1, (high - low).days))
            return _written(true, "dmy"), _written(between, rng.choice(["iso", "text"]))


def _export(seed: int, count: int, doubles: int) -> str:
    """The export as ``name|email|company|date|value`` lines, in the CRM's (shuffled)
    order: ``count`` customers, ``doubles`` of them listed twice (one three times), two of
    the pairs month-first traps."""
    rng = random.Random(seed)
    people = rng.sample([(f, s) for f in FIRST_NAMES for s in LAST_NAMES], count)
    rows: list[list[str]] = []
    forms = ["dmy", "iso", "text"]
    for index, (first, last) in enumerate(people):
        company = rng.choice(sorted(COMPANIES))
        email = _email(first, last, COMPANIES[company], rng)
        copies = 1 if index >= doubles else (3 if index == 0 else 2)
        if index in (1, 2):
            dates = list(_trap(rng))
        else:
            picked: set[datetime.date] = set()
            while len(picked) < copies:
                picked.add(_day(rng))
            dates = [_written(d, rng.choice(forms)) for d in picked]
        rng.shuffle(dates)
        for date, address in zip(dates, _spellings(email, len(dates), rng), strict=True):
            rows.append([_messy(last, first, rng), address, company, date, _money(rng)])
    rng.shuffle(rows)
    return "\n".join("|".join(row) for row in rows)


def _clean_record(seed: int, source: str, path: str, count: int, doubles: int) -> dict[str, str]:
    return {"source": source, "path": path, "table": _export(seed, count, doubles)}


CLEAN_RECORDS = [
    _clean_record(501, "~/Documents/crm-export.ods", "~/Documents/customers-clean.xlsx", 46, 9),
    _clean_record(502, "~/Documents/contacts-export.ods", "~/Documents/contacts.xlsx", 50, 11),
    _clean_record(503, "~/Documents/customer-list.ods", "~/Documents/customers.xlsx", 44, 8),
    _clean_record(504, "~/Documents/crm-contacts.ods", "~/Documents/clean-contacts.xlsx", 52, 10),
    _clean_record(505, "~/Documents/accounts-dump.ods", "~/Documents/accounts.xlsx", 48, 12),
    _clean_record(506, "~/Documents/export-2026-03.ods", "~/Documents/customers-2026.xlsx", 42, 9),
]


def _rows(table: str) -> list[list[str]]:
    return [line.split("|") for line in table.splitlines()]


def _amount(text: str) -> float:
    return round(float(text.replace(",", "")), 2)


def _split(name: str) -> tuple[str, str]:
    last, first = name.split(",", 1)
    return " ".join(first.split()), " ".join(last.split())


def _groups(table: str) -> dict[str, list[list[str]]]:
    """The export's rows by customer (e-mail, letter case aside), in the export's order."""
    groups: dict[str, list[list[str]]] = {}
    for row in _rows(table):
        groups.setdefault(row[1].casefold(), []).append(row)
    return groups


def _customer(row: list[str], day: datetime.date | None = None) -> list[str | float]:
    first, last = _split(row[0])
    return [first, last, row[1], row[2], (day or read_date(row[3])).isoformat(), _amount(row[4])]


def _pick(rows: list[list[str]], keep: str, month_first: bool) -> list[str]:
    if keep == "first":
        return rows[0]
    dates = [(misread if month_first else read_date)(row[3]) for row in rows]
    return rows[dates.index(min(dates) if keep == "earliest" else max(dates))]


def customers(
    table: str, keep: str = "latest", month_first: bool = False
) -> list[list[str | float]]:
    """One ``[first, last, email, company, ISO date, amount]`` per customer, from the row
    ``keep`` says: the "latest" order, the "earliest", the "first" listed (what Calc's No
    duplications filter keeps); with ``month_first`` slashed dates are read month first
    (for choosing and as the date)."""
    kept = []
    for rows in _groups(table).values():
        row = _pick(rows, keep, month_first)
        kept.append(_customer(row, misread(row[3]) if month_first else None))
    return kept


def dropped(table: str) -> list[list[str | float]]:
    """``[email, ISO date, amount]`` of every row the clean list leaves out."""
    gone: list[list[str | float]] = []
    for rows in _groups(table).values():
        kept = _pick(rows, "latest", False)
        gone += [[r[1], read_date(r[3]).isoformat(), _amount(r[4])] for r in rows if r is not kept]
    return gone


def clean_setup(source: str, path: str, table: str) -> list[ActionStep]:
    sheets = {"Contacts": [SOURCE_HEADER, *_rows(table)]}
    return [ActionStep(env=D, action=st.create_workbook(path=source, sheets=sheets))]


def clean_checkpoints(source: str, path: str, table: str) -> list[Evaluator]:
    return [
        ke.clean_customer_list(path=path, customers=customers(table), dropped=dropped(table)),
        ke.xlsx_saved_by_libreoffice(path=path),
    ]


def clean_allowances(source: str, path: str, table: str) -> list[str]:
    """The export itself: the instruction does not ask to keep it as it was, and a
    person may save their working copy over it before exporting."""
    return [file_key(source)]


# --------------------------------------------------------------- the solution
HEADER = "\t".join(ke.COLUMNS)


def _line(customer: list[str | float]) -> str:
    first, last, email, company, day, amount = customer
    return f"{first}\t{last}\t{email}\t{company}\t{day}\t{float(amount):.2f}"


def _type_list(header: str, lines: list[str]) -> list[ActionCall]:
    """Turn AutoInput off, clear the sheet, type ``header`` and ``lines`` from A1 (Tab
    between cells; Enter goes back to column A), a row a call, then give the value
    column (the last) two decimals and a thousands separator (Ctrl+Shift+1)."""
    steps = [
        *menu("Tools", "AutoInput"),
        call(D, "hotkey", keys=["ctrl", "a"]),
        call(D, "press", key="delete"),
        call(D, "hotkey", keys=["ctrl", "home"]),
        call(D, "write_text", text=header + "\n"),
    ]
    # A row a call: each call settles before the next, so Calc has taken every key
    # before the menus and dialogs that follow (a long burst of typing outruns it).
    steps += [call(D, "write_text", text=f"{line}\n") for line in lines]
    column = "ABCDEFG"[header.count("\t")]
    return [
        *steps,
        *go_to(f"{column}2:{column}{len(lines) + 1}"),
        call(D, "hotkey", keys=["ctrl", "shift", "1"]),
    ]


# The file type as Calc's Save As dialog names it (an en dash, not a hyphen).
EXCEL_TYPE = "Excel 2007\u2013365 (.xlsx)"


def _save_as_xlsx(path: str) -> list[ActionCall]:
    """Save As with the file type switched to Excel 2007-365, and quit (no Keep Current
    Format question: the desktop's LibreOffice profile sets WarnAlienFormat off)."""
    return [
        call(D, "hotkey", keys=["ctrl", "shift", "s"]),
        call("root", "wait"),
        call(D, "click_on", name="ODF Spreadsheet (.ods)", role="combo box"),
        call(D, "click_on", name=EXCEL_TYPE),
        call(D, "click_on", name="Name", role="text"),
        call(D, "hotkey", keys=["ctrl", "a"]),
        call(D, "write_text", text=expand(path)),
        call("root", "wait"),
        call(D, "press", key="enter"),
        call("root", "wait"),
        call(D, "hotkey", keys=["ctrl", "q"]),
        call("root", "wait"),
    ]


def _typed(source: str, path: str, lines: list[str], header: str = HEADER) -> list[ActionCall]:
    return [*open_in_calc(source), *_type_list(header, lines), *_save_as_xlsx(path)]


def clean_solution(source: str, path: str, table: str) -> list[ActionCall]:
    return _typed(source, path, [_line(c) for c in customers(table)])


def clean_duplicates_kept(source: str, path: str, table: str) -> list[ActionCall]:
    """Near miss: every row cleaned, the duplicates left in."""
    return _typed(source, path, [_line(_customer(row)) for row in _rows(table)])


def clean_earliest_kept(source: str, path: str, table: str) -> list[ActionCall]:
    """Near miss: the duplicate with the earliest order kept instead of the latest."""
    return _typed(source, path, [_line(c) for c in customers(table, keep="earliest")])


def clean_dates_as_text(source: str, path: str, table: str) -> list[ActionCall]:
    """Near miss: the dates rewritten as YYYY-MM-DD but kept as text (a leading
    apostrophe)."""
    lines = []
    for first, last, email, company, day, amount in customers(table):
        lines.append(f"{first}\t{last}\t{email}\t{company}\t'{day}\t{float(amount):.2f}")
    return _typed(source, path, lines)


def clean_names_untrimmed(source: str, path: str, table: str) -> list[ActionCall]:
    """Near miss: the names split at the comma (as Text to Columns does) but not
    trimmed."""
    lines = []
    for rows in _groups(table).values():
        row = _pick(rows, "latest", False)
        last, first = row[0].split(",", 1)
        lines.append(_line([first, last, *_customer(row)[2:]]))
    return _typed(source, path, lines)


def clean_names_joined(source: str, path: str, table: str) -> list[ActionCall]:
    """Near miss: everything cleaned but the names left in one "Last, First" column."""
    header = "\t".join(["Name", *ke.COLUMNS[2:]])
    lines = []
    for customer in customers(table):
        cells = _line(customer).split("\t")
        lines.append("\t".join([f"{cells[1]}, {cells[0]}", *cells[2:]]))
    return _typed(source, path, lines, header)


def clean_saved_as_ods(source: str, path: str, table: str) -> list[ActionCall]:
    """Near miss: the right list, saved over the export in its own format (no xlsx)."""
    return [
        *open_in_calc(source),
        *_type_list(HEADER, [_line(c) for c in customers(table)]),
        call(D, "hotkey", keys=["ctrl", "s"]),
        call("root", "wait"),
        call(D, "hotkey", keys=["ctrl", "q"]),
        call("root", "wait"),
    ]


CALC_CLEAN_EXPORT = SubTask(
    id="desktop.calc_clean_export",
    description=(
        "{source} is a customer export from our CRM, and it is messy. Make a clean list "
        "from it and save it as an Excel workbook, {path}. On its first sheet, row 1 "
        "titles the columns First name, Last name, Email, Company, Last order and Order "
        "value, and below it there is one row per customer, in any order. Split each "
        'Name ("Last name, First name") into the First name and Last name columns, '
        "spelled and capitalised as written but with no spaces before or after and single "
        "spaces between words. Some customers are listed more than once (the same e-mail "
        "address, in other capitals): keep only their row with the latest Last order "
        "date. The dates are written in several ways, and those with slashes put the day "
        "first (day/month/year). Every Last order must be a real date shown as YYYY-MM-DD "
        "and every Order value a number shown with two decimals; keep the e-mail "
        "addresses (any capitals) and company names as they are."
    ),
    attributes={"source": "desktop_file", "path": "desktop_file", "table": "str"},
    output_type="desktop_file",
    outputs=["desktop_file"],
    env=D,
    app="calc",
    app_category="office",
    intents=[CLEAN_INTENT],
    value_records=CLEAN_RECORDS,
    setup_generator=clean_setup,
    evaluator_generator=clean_checkpoints,
    solution_generator=clean_solution,
    output_generator=saved_document,
    allowances=clean_allowances,
    near_misses=[
        NearMiss("keeps the duplicate rows", solution=clean_duplicates_kept),
        NearMiss("keeps each customer's earliest row", solution=clean_earliest_kept),
        NearMiss("leaves the dates as text", solution=clean_dates_as_text),
        NearMiss("splits the names without trimming them", solution=clean_names_untrimmed),
        NearMiss("leaves the names in one column", solution=clean_names_joined),
        NearMiss("saves only the .ods, no xlsx", solution=clean_saved_as_ods),
    ],
)

TEMPLATES: list[SubTask] = [CALC_CLEAN_EXPORT]
