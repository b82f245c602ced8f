"""The reconciliation's case and its items (:mod:`.reasoning_ledger` is the template):
which invoices a case has and what each vendor mail says about them.

Kept apart from the template so both stay small. Every item is drawn from the case's seed,
so the checkpoint, the reference and the near misses are computed from the same draw.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date as Date

from reefbench.benchmark.templates.reasoning import VENDORS, money

CASES = [str(i) for i in range(10)]
ACCOUNTANTS = [
    ("Maria Keller", "maria.keller@keller-accounting.example.com"),
    ("Tom Brandt", "tom.brandt@brandt-tax.example.com"),
    ("Aisha Rahman", "aisha@rahman-books.example.com"),
]
LEDGER = "Finance/ledger-q2-2024.csv"
ASK_SUBJECTS = ["Invoices missing from the Q2 ledger?", "Closing Q2: open invoices"]
SCAN_FOLDERS = ["~/Documents/Scans", "~/Pictures/Scans"]
TILTS = [1.5, -2.0, 2.5]


@dataclass(frozen=True)
class Invoice:
    number: str
    vendor: str
    address: str
    day: str  # invoice date, YYYY-MM-DD
    amount: float


@dataclass(frozen=True)
class Ledger:
    """One reconciliation case: what the mailbox, the scans and the ledger hold."""

    recorded: tuple[Invoice, ...]  # received and in the ledger; [1] reminded, [4] scanned
    # The answer (``missing``), each found another way:
    reminded: Invoice  # missing: an invoice mail and a reminder
    lookalike: Invoice  # missing: its number a ledger-only one's with two digits swapped
    only_reminded: Invoice  # missing: only a reminder names it
    attached: Invoice  # missing: only in an attached text file
    scanned: Invoice  # missing: only on a scan
    resent: Invoice  # missing: its invoice mail sent twice
    credited: Invoice  # missing: amount with a decimal comma, partly cancelled
    credit: float  # the credit note's amount against ``credited``
    last_quarter: Invoice  # mailed in April, dated March
    old_scan: Invoice  # scanned, dated March
    ledger_only: tuple[Invoice, ...]  # paid by other routes: in the ledger only

    @property
    def missing(self) -> tuple[Invoice, ...]:
        return (
            self.reminded,
            self.lookalike,
            self.only_reminded,
            self.attached,
            self.scanned,
            self.resent,
            self.credited,
        )

    @property
    def total(self) -> float:
        return round(sum(i.amount for i in self.missing) - self.credit, 2)

    @property
    def scans(self) -> tuple[Invoice, ...]:
        """The scanned paper invoices, in file order (scan_0001.png ...)."""
        by_number = sorted((self.recorded[4], self.scanned, self.old_scan), key=_scan_order)
        return tuple(by_number)


def _scan_order(inv: Invoice) -> str:
    return inv.number[::-1]


def comma(amount: float) -> str:
    """1.234,50: the amount as a European vendor writes it."""
    return f"{amount:,.2f}".replace(",", " ").replace(".", ",").replace(" ", ".")


def ledger_case(case: str) -> Ledger:
    rng = random.Random(f"reasoning-ledger-v2-{case}")
    vendors = rng.sample(VENDORS, 6)
    numbers: set[str] = set()

    def invoice(vendor_index: int, day: str, number: str = "") -> Invoice:
        name, address, prefix = vendors[vendor_index]
        while not number or number in numbers:
            digits = rng.sample("123456789", 4)
            number = f"{prefix}-{''.join(digits)}"
        numbers.add(number)
        amount = round(rng.randint(8000, 190000) / 100, 2)
        return Invoice(number, name, address, day, amount)

    def q2_day() -> str:
        return f"2024-{rng.choice(['04', '05'])}-{rng.randint(2, 27):02d}"

    recorded = tuple(invoice(i, q2_day()) for i in (0, 1, 2, 3, 4))
    ledger_only = (invoice(5, q2_day()), invoice(2, q2_day()), invoice(0, q2_day()))
    twin = ledger_only[0].number
    swapped = twin[:-2] + twin[-1] + twin[-2]  # digits are distinct: a new number
    lookalike = invoice(5, q2_day(), swapped)
    credited = invoice(3, q2_day())
    credited = Invoice(
        credited.number,
        credited.vendor,
        credited.address,
        credited.day,
        round(rng.randint(110000, 290000) / 100, 2),  # above 1000: a grouping dot too
    )
    credit = round(credited.amount * rng.choice([0.1, 0.2, 0.25]), 2)
    return Ledger(
        recorded=recorded,
        reminded=invoice(1, q2_day()),
        lookalike=lookalike,
        only_reminded=invoice(4, q2_day()),
        attached=invoice(2, q2_day()),
        scanned=invoice(0, q2_day()),
        resent=invoice(rng.choice([1, 3]), q2_day()),
        credited=credited,
        credit=credit,
        last_quarter=invoice(rng.choice([0, 3]), f"2024-03-{rng.randint(22, 29):02d}"),
        old_scan=invoice(rng.choice([1, 4]), f"2024-03-{rng.randint(22, 29):02d}"),
        ledger_only=ledger_only,
    )


def attachment_name(inv: Invoice) -> str:
    return f"invoice-{inv.number}.txt"


def _attached_mail(inv: Invoice) -> tuple[str, str, dict[str, str]]:
    content = (
        f"{inv.vendor}\nINVOICE\n\nInvoice number: {inv.number}\nInvoice date: {inv.day}\n"
        f"Total due: EUR {money(inv.amount)}\nPayment terms: 14 days\n"
    )
    body = (
        "Good morning,\n\nyour invoice is attached as a text file. Please forward it to "
        f"whoever handles payments.\n\nAccounts receivable\n{inv.vendor}"
    )
    return f"Documents from {inv.vendor}", body, {attachment_name(inv): content}


def _invoice_mail(inv: Invoice, style: int) -> tuple[str, str]:
    """(subject, body) of an invoice mail in one of four vendors' styles (the last writes
    amounts with a decimal comma)."""
    if style == 0:
        return (
            f"Invoice {inv.number}",
            f"Dear customer,\n\nplease find below our invoice.\n\nInvoice number: {inv.number}"
            f"\nInvoice date: {inv.day}\nAmount due: EUR {money(inv.amount)}\n"
            "Payment within 30 days.\n\nKind regards,\n" + inv.vendor,
        )
    if style == 1:
        return (
            f"Your {inv.vendor} invoice",
            f"Hello,\n\nthank you for your order. Our invoice {inv.number} of {inv.day} comes "
            f"to EUR {money(inv.amount)} including VAT.\n\nBest wishes,\nAccounts team, "
            + inv.vendor,
        )
    if style == 2:
        return (
            f"{inv.vendor}: new invoice available",
            f"Hi,\n\na new invoice is ready.\n\n  No.      {inv.number}\n  Dated    {inv.day}\n"
            f"  Total    EUR {money(inv.amount)}\n\nThanks,\n{inv.vendor}",
        )
    return (
        f"Rechnung / invoice {inv.number}",
        f"Dear customer,\n\nour invoice {inv.number}, dated {inv.day}: total EUR "
        f"{comma(inv.amount)} (VAT included).\n\nWith kind regards,\n{inv.vendor}",
    )


def _reminder_mail(inv: Invoice, first_only: bool) -> tuple[str, str]:
    if first_only:
        return (
            f"Second reminder from {inv.vendor}",
            f"Hello,\n\nour records show that invoice {inv.number} dated {inv.day}, for EUR "
            f"{money(inv.amount)}, is still unpaid. We may have mailed it to an old address; "
            "this reminder replaces it. Please arrange payment.\n\nRegards,\n" + inv.vendor,
        )
    return (
        f"Payment reminder: {inv.number}",
        f"Dear customer,\n\na friendly reminder that invoice {inv.number} (dated {inv.day}, EUR "
        f"{money(inv.amount)}) is due. If you have already paid, please ignore this mail."
        f"\n\n{inv.vendor}",
    )


def _credit_mail(inv: Invoice, credit: float) -> tuple[str, str]:
    return (
        f"Credit note for invoice {inv.number}",
        f"Dear customer,\n\nsome items on invoice {inv.number} arrived damaged. We have issued "
        f"credit note no. 2024/{int(credit) % 97 + 3} for EUR {comma(credit)}, which reduces "
        f"what you owe on that invoice.\n\nWith kind regards,\n{inv.vendor}",
    )


def mail_day(day: str, later: int) -> str:
    when = Date.fromisoformat(day).toordinal() + later
    stamp = min(Date.fromordinal(when), Date(2024, 6, 2))
    return f"{stamp.isoformat()}T{9 + later % 8:02d}:{(17 * later) % 60:02d}"


def scan_name(data: Ledger, inv: Invoice) -> str:
    return f"scan_{data.scans.index(inv) + 1:04d}.png"


def vendor_mails(data: Ledger) -> list[tuple[str, str, str, str, dict[str, str]]]:
    """(date, sender, subject, body, attachments) of every vendor mail."""
    mails: list[tuple[str, str, str, str, dict[str, str]]] = []
    bodies = (
        *data.recorded[:4],
        data.reminded,
        data.lookalike,
        data.resent,
        data.credited,
        data.last_quarter,
    )
    for n, inv in enumerate(bodies):
        subject, body = _invoice_mail(inv, 3 if inv == data.credited else n % 4)
        later = 10 if inv == data.last_quarter else 1
        mails.append((mail_day(inv.day, later), inv.address, subject, body, {}))
    subject, body = _invoice_mail(data.resent, 0)
    again = body.replace("please find below our invoice.", "we are sending our invoice again:")
    mails.append((mail_day(data.resent.day, 8), data.resent.address, subject, again, {}))
    subject, body, files = _attached_mail(data.attached)
    mails.append((mail_day(data.attached.day, 2), data.attached.address, subject, body, files))
    for inv, later in ((data.reminded, 20), (data.recorded[1], 9)):
        subject, body = _reminder_mail(inv, first_only=False)
        mails.append((mail_day(inv.day, later), inv.address, subject, body, {}))
    subject, body = _reminder_mail(data.only_reminded, first_only=True)
    late = mail_day(data.only_reminded.day, 25)
    mails.append((late, data.only_reminded.address, subject, body, {}))
    subject, body = _credit_mail(data.credited, data.credit)
    mails.append((mail_day(data.credited.day, 6), data.credited.address, subject, body, {}))
    return mails
