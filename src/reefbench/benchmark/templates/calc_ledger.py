"""A hard Calc template of reef-v2's office family that makes the agent work through the
data (:data:`CALC_RECONCILE`): too many rows to compare by eye, so a person reaches for
formulas, a helper column, a sort or a filter. Checked in the saved ``.ods``
(:func:`~reefbench.envs.desktop.calc_ledger_evaluators.ledger_appended`).

A quarter's bank statement (115-140 rows, real dates, signed amounts) against the
company's ledger (sorted by payee, dates as ``DD.MM.YYYY`` text, positive amounts with a
Dr/Cr column, three cheques the bank has not seen yet); 4-6 bank transactions are
missing from the ledger and must be appended in the ledger's way. Look-alikes make
eyeballing fail: for two missing ones the same payee paid the same amount on another
date (that one is in the ledger), another has a twin amount from another payee, a
payment and its refund are both in the ledger, and payees come in near-identical pairs.
Near misses: a look-alike appended instead, one left out, one appended twice, the rows
copied in the bank's format.

The reference opens the file through Calc's Open dialog, fills a helper column on the
Bank sheet (SUMPRODUCT over the ledger: 0 when missing) with Alt+Enter, types the missing
rows below the ledger, saves with Ctrl+S and quits; its alternative builds helper columns
on the Ledger sheet (a real date, a signed amount) and a COUNTIFS filled down with Ctrl+D.
:mod:`reefbench.benchmark.templates.calc_totals` is its sibling (totals over a messy
register).
"""

from __future__ import annotations

import random
from datetime import date, timedelta
from operator import itemgetter

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.benchmark.templates.calc import go_to, open_in_calc, save_in_place
from reefbench.benchmark.templates.common import call
from reefbench.benchmark.templates.office import saved_document
from reefbench.envs.desktop import calc_ledger_evaluators as le
from reefbench.envs.desktop import office_evaluators as oe
from reefbench.tasks.subtask import NearMiss, SubTask
from reefbench.tasks.task import ActionStep

D = "desktop"
LEDGER_INTENT = "reconcile or total a spreadsheet's data on the computer"
YEAR = 2026


def _rows(table: str) -> list[list[str]]:
    return [line.split("|") for line in table.splitlines()]


def _money(cents: int) -> str:
    return f"{cents / 100:.2f}"


# -------------------------------------------------------------------- reconcile
BANK_HEADER = ["Date", "Payee", "Reference", "Amount"]
LEDGER_HEADER = ["Date", "Payee", "Dr/Cr", "Amount"]
# Suppliers are paid (money out), customers pay (money in); near-identical pairs on
# purpose, none a prefix of another (Calc's AutoInput would complete it).
SUPPLIERS = [
    "Hansen Office Supply",
    "Hanssen Office Supplies",
    "Nordlicht Energie GmbH",
    "Nordlicht Energy Ltd",
    "Brightway Logistics",
    "Brightwave Logistics",
    "City Telecom",
    "Kestrel Cleaning",
    "Atlas Insurance",
    "Meridian Software",
    "Parkside Catering",
    "Vantage Print",
]
CUSTOMERS = [
    "Oakridge Dental",
    "Oakbridge Dental",
    "Sunfield Hotels",
    "Riverbank School",
    "Greenleaf Pharmacy",
    "Harbourview Clinic",
    "Morton & Daughters",
    "Lakeside Motors",
]
QUARTER_START = date(YEAR, 7, 1)
QUARTER_DAYS = 92  # July to September


def _reference(rng: random.Random) -> str:
    return rng.choice(["SEPA", "CARD", "TRF", "DD"]) + f" {rng.randrange(10**7, 10**8)}"


def _statement(seed: int) -> tuple[list[list[str]], list[list[str]]]:
    """A quarter's bank rows ``[iso, payee, reference, signed amount]`` in date order and
    the ledger's rows ``[dd.mm.yyyy, payee, Dr/Cr, amount]`` (sorted by payee, then date):
    the bank's minus the missing ones, plus three entries only the ledger has."""
    rng = random.Random(seed)
    count = rng.randrange(110, 136)
    keys: set[tuple[str, str, int]] = set()
    bank: list[tuple[str, str, str, int]] = []

    def add(day: date, payee: str, cents: int) -> int:
        key = (day.isoformat(), payee, cents)
        if key in keys:
            return -1
        keys.add(key)
        bank.append((day.isoformat(), payee, _reference(rng), cents))
        return len(bank) - 1

    def some_day() -> date:
        return QUARTER_START + timedelta(days=rng.randrange(QUARTER_DAYS))

    while len(bank) < count:
        if rng.random() < 0.3:
            add(some_day(), rng.choice(CUSTOMERS), rng.randrange(20000, 950000))
        else:
            add(some_day(), rng.choice(SUPPLIERS), -rng.randrange(1500, 420000))
    missing_count = rng.randrange(4, 7)
    missing = rng.sample(range(len(bank)), missing_count)
    # Look-alikes, all in the ledger: the same payee and amount on another date (twice),
    # the same amount from another payee, a payment and its refund.
    for index in missing[:2]:
        _, payee, _, cents = bank[index]
        while add(some_day(), payee, cents) < 0:
            pass
    _, payee, _, cents = bank[missing[2]]
    group = CUSTOMERS if cents > 0 else SUPPLIERS
    while add(some_day(), rng.choice([p for p in group if p != payee]), cents) < 0:
        pass
    refund = rng.randrange(5000, 90000)
    paid = QUARTER_START + timedelta(days=rng.randrange(QUARTER_DAYS - 3))
    add(paid, SUPPLIERS[0], -refund)
    add(paid + timedelta(days=3), SUPPLIERS[0], refund)
    chosen = {(*bank[i][:2], bank[i][3]) for i in missing}
    ledger = [
        (iso, payee, cents) for iso, payee, _, cents in bank if (iso, payee, cents) not in chosen
    ]
    while len(ledger) < len(bank) - missing_count + 3:  # cheques not yet through the bank
        cheque = (some_day().isoformat(), rng.choice(SUPPLIERS), -rng.randrange(5000, 80000))
        if cheque not in keys:
            ledger.append(cheque)
    ledger.sort(key=itemgetter(1, 0))
    bank.sort(key=itemgetter(0))
    bank_rows = [[iso, payee, ref, _money(cents)] for iso, payee, ref, cents in bank]
    ledger_rows = [
        [le.ledger_date(iso), payee, "Dr" if cents > 0 else "Cr", _money(abs(cents))]
        for iso, payee, cents in ledger
    ]
    return bank_rows, ledger_rows


def _ledger_key(row: list[str]) -> tuple[str, str, str]:
    day, month, year = row[0].split(".")
    signed = row[3] if row[2] == "Dr" else f"-{row[3]}"
    return (f"{year}-{month}-{day}", row[1], signed)


def missing_rows(bank: str, ledger: str) -> list[list[str]]:
    """The bank transactions no ledger row has (same date, payee and signed amount), as
    the ledger would write them: ``[iso date, payee, "Dr"/"Cr", positive amount]``."""
    booked = {_ledger_key(row) for row in _rows(ledger)}
    return [
        [iso, payee, "Cr" if amount.startswith("-") else "Dr", amount.lstrip("-")]
        for iso, payee, _, amount in _rows(bank)
        if (iso, payee, amount) not in booked
    ]


def _reconcile_record(seed: int, path: str, company: str) -> dict[str, str]:
    bank, ledger = _statement(seed)
    return {
        "path": path,
        "company": company,
        "bank": "\n".join("|".join(r) for r in bank),
        "ledger": "\n".join("|".join(r) for r in ledger),
    }


RECONCILE_RECORDS = [
    _reconcile_record(301, "~/Documents/bank-reconciliation-q3.ods", "Fernhill Studio"),
    _reconcile_record(302, "~/Documents/q3-bank-check.ods", "Calder & Webb"),
    _reconcile_record(303, "~/Documents/cashbook-q3.ods", "Northgate Joinery"),
    _reconcile_record(304, "~/Documents/bank-vs-ledger.ods", "Pillar Design"),
    _reconcile_record(305, "~/Documents/reconcile-jul-sep.ods", "Ashdown Bakery"),
    _reconcile_record(306, "~/Documents/statement-q3-2026.ods", "Brookline Events"),
    _reconcile_record(307, "~/Documents/ledger-check.ods", "Wren Architects"),
    _reconcile_record(308, "~/Documents/bank-q3.ods", "Tidewater Marine"),
]


def reconcile_setup(path: str, company: str, bank: str, ledger: str) -> list[ActionStep]:
    sheets = {"Bank": [BANK_HEADER, *_rows(bank)], "Ledger": [LEDGER_HEADER, *_rows(ledger)]}
    return [ActionStep(env=D, action=le.create_dated_workbook(path=path, sheets=sheets))]


def reconcile_checkpoints(path: str, company: str, bank: str, ledger: str) -> list[Evaluator]:
    return [
        le.ledger_appended(
            path=path, sheet="Ledger", original=_rows(ledger), missing=missing_rows(bank, ledger)
        ),
        oe.saved_by_libreoffice(path=path),
    ]


def _typed(rows: list[list[str]]) -> str:
    return "".join(f"{le.ledger_date(r[0])}\t{r[1]}\t{r[2]}\t{r[3]}\n" for r in rows)


def _in_ledger_column(bank: str) -> list[ActionCall]:
    """A helper column E on the Bank sheet: how many ledger rows have the transaction's
    date (as the ledger writes it), payee and signed amount (0: missing)."""
    last = len(_rows(bank)) + 1
    formula = (
        '=SUMPRODUCT($Ledger.$A$2:$A$400=TEXT(A2;"DD.MM.YYYY");$Ledger.$B$2:$B$400=B2;'
        '(2*($Ledger.$C$2:$C$400="Dr")-1)*$Ledger.$D$2:$D$400=D2)'
    )
    return [
        *go_to(f"E2:E{last}"),
        call(D, "write_text", text=formula),
        call(D, "hotkey", keys=["alt", "enter"]),
    ]


def _ledger_keys(bank: str, ledger: str) -> list[ActionCall]:
    """Helper columns F (the ledger's date as a date) and G (the signed amount) on the
    Ledger sheet, then a COUNTIFS over them typed in E2 of the Bank sheet and filled down
    (Ctrl+D)."""
    last = len(_rows(ledger)) + 1
    count = (
        f"=COUNTIFS($Ledger.$F$2:$F${last};A2;$Ledger.$B$2:$B${last};B2;$Ledger.$G$2:$G${last};D2)"
    )
    return [
        call(D, "hotkey", keys=["ctrl", "pagedown"]),
        *go_to(f"F2:F{last}"),
        call(D, "write_text", text="=DATE(RIGHT(A2;4);MID(A2;4;2);LEFT(A2;2))"),
        call(D, "hotkey", keys=["alt", "enter"]),
        *go_to(f"G2:G{last}"),
        call(D, "write_text", text='=IF(C2="Dr";D2;-D2)'),
        call(D, "hotkey", keys=["alt", "enter"]),
        call(D, "hotkey", keys=["ctrl", "pageup"]),
        *go_to("E2"),
        call(D, "write_text", text=count + "\n"),
        *go_to(f"E2:E{len(_rows(bank)) + 1}"),
        call(D, "hotkey", keys=["ctrl", "d"]),
    ]


def _append(
    path: str, bank: str, ledger: str, rows: list[list[str]], check: list[ActionCall], typed: str
) -> list[ActionCall]:
    """Open the file, run the check, go to the Ledger sheet (the second tab), type the
    rows below its last row, save."""
    return [
        *open_in_calc(path),
        *check,
        call(D, "hotkey", keys=["ctrl", "pagedown"]),
        *go_to(f"A{len(_rows(ledger)) + 2}"),
        call(D, "write_text", text=typed or _typed(rows)),
        *save_in_place(),
    ]


def reconcile_solution(path: str, company: str, bank: str, ledger: str) -> list[ActionCall]:
    rows = missing_rows(bank, ledger)
    return _append(path, bank, ledger, rows, _in_ledger_column(bank), "")


def reconcile_by_helpers(path: str, company: str, bank: str, ledger: str) -> list[ActionCall]:
    """Helper columns on the Ledger sheet (a real date, a signed amount) and COUNTIFS."""
    rows = missing_rows(bank, ledger)
    return _append(path, bank, ledger, rows, _ledger_keys(bank, ledger), "")


def _twin(bank: str, row: list[str]) -> list[str]:
    """The bank transaction with the same payee and amount on another date."""
    iso, payee, side, amount = row
    for b_iso, b_payee, _, b_amount in _rows(bank):
        if b_payee == payee and b_amount.lstrip("-") == amount and b_iso != iso:
            return [b_iso, payee, side, amount]
    raise ValueError(f"no look-alike of {row}")


def _twinned(bank: str, rows: list[list[str]]) -> int:
    for index, row in enumerate(rows):
        try:
            _twin(bank, row)
        except ValueError:
            continue
        return index
    raise ValueError("no missing transaction has a look-alike")


def reconcile_lookalike(path: str, company: str, bank: str, ledger: str) -> list[ActionCall]:
    """Near miss: for one missing payment, the same payee's same amount on another date
    (already in the ledger) appended instead."""
    rows = missing_rows(bank, ledger)
    index = _twinned(bank, rows)
    rows[index] = _twin(bank, rows[index])
    return _append(path, bank, ledger, rows, [], "")


def reconcile_one_left_out(path: str, company: str, bank: str, ledger: str) -> list[ActionCall]:
    """Near miss: one missing transaction not added."""
    return _append(path, bank, ledger, missing_rows(bank, ledger)[:-1], [], "")


def reconcile_one_twice(path: str, company: str, bank: str, ledger: str) -> list[ActionCall]:
    """Near miss: one missing transaction added twice."""
    rows = missing_rows(bank, ledger)
    return _append(path, bank, ledger, [*rows, rows[0]], [], "")


def reconcile_bank_format(path: str, company: str, bank: str, ledger: str) -> list[ActionCall]:
    """Near miss: the missing rows copied as the bank writes them (ISO date, payee, the
    bank's reference where the ledger has Dr/Cr, the signed amount)."""
    missing = {(r[0], r[1]) for r in missing_rows(bank, ledger)}
    typed = "".join("\t".join(row) + "\n" for row in _rows(bank) if (row[0], row[1]) in missing)
    return _append(path, bank, ledger, [], [], typed)


CALC_RECONCILE = SubTask(
    id="desktop.calc_reconcile",
    description=(
        "The spreadsheet {path} holds {company}'s bank statement for July to September "
        "2026 (the Bank sheet) and the company's ledger (the Ledger sheet). Some bank "
        "transactions were never entered in the ledger; a bank transaction is in the "
        "ledger when a ledger row has the same date, payee and amount. Add each missing "
        "bank transaction once, as a new row below the last ledger row, written the way "
        "the ledger writes its rows: the date as DD.MM.YYYY, the payee, Dr for money in "
        "or Cr for money out, and the amount as a positive number. Leave the existing "
        "ledger rows as they are (helper columns or sheets may stay), and save the "
        "spreadsheet in its own format."
    ),
    attributes={"path": "desktop_file", "company": "text", "bank": "str", "ledger": "str"},
    output_type="desktop_file",
    outputs=["desktop_file"],
    env=D,
    app="calc",
    app_category="office",
    intents=[LEDGER_INTENT],
    value_records=RECONCILE_RECORDS,
    setup_generator=reconcile_setup,
    evaluator_generator=reconcile_checkpoints,
    solution_generator=reconcile_solution,
    alternative_generators=[reconcile_by_helpers],
    output_generator=saved_document,
    near_misses=[
        NearMiss("appends a look-alike instead of a missing one", solution=reconcile_lookalike),
        NearMiss("leaves one missing transaction out", solution=reconcile_one_left_out),
        NearMiss("appends one missing transaction twice", solution=reconcile_one_twice),
        NearMiss("copies the rows in the bank's format", solution=reconcile_bank_format),
    ],
)

TEMPLATES: list[SubTask] = [CALC_RECONCILE]
