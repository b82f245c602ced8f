"""reef-v2's long workflow :data:`INVOICE_REVIEW` (hard, family 7): a colleague's mail asks
for the month's invoice total and its costliest line, worked out from an itemised invoice
of some twenty lines in Files (longer than the page shows unscrolled; a line costs its
quantity times its unit price); the total texted from the phone to the vendor's approver
(the list in Files names a role, whose holder only Contacts' notes give); the half-hour
review put in the calendar at the time the thread finally agreed; and a to-do to pay the
invoice, due when its terms say: the plain due date is always a weekend day, which the
terms move to the next business day.

Near misses: last month's invoice, the costliest unit price instead of line, the lines
shown unscrolled only, the wrong approver, the first proposed time, an hour-long review,
the invoice date or the weekend day as due date, and a chain that stops short.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from datetime import date as Date
from datetime import timedelta
from operator import itemgetter

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.benchmark.templates.common import PEOPLE as PHONE_PEOPLE
from reefbench.benchmark.templates.reasoning import PEOPLE, VENDORS, money
from reefbench.benchmark.templates.workflow import (
    CASES,
    WORKFLOW_INTENT,
    account,
    amount_spellings,
    event_in_browser,
    long_day,
    messages_to,
    open_file,
    open_mail,
    phone_number,
    reply,
    reply_states,
    said,
    shift,
    text_from_phone,
    text_states,
    todo_in_browser,
)
from reefbench.envs.services import evaluators as aev
from reefbench.envs.services import seeding as sd
from reefbench.tasks.subtask import NearMiss, SubTask
from reefbench.tasks.task import ActionStep

# ------------------------------------------------------------ the invoice review
ITEMS = [
    "Printer toner", "Copy paper", "Desk chairs", "Monitor arms", "Whiteboard markers",
    "Laptop stands", "Filing cabinets", "Headsets", "Coffee beans", "Cable trays",
    "Sticky notes", "Staplers", "Desk lamps", "USB hubs", "Label tape", "Hand soap",
    "Paper towels", "Extension cords", "Notebooks", "Ballpoint pens", "Mouse pads", "Keyboards",
    "Webcams", "Bin liners",
]  # fmt: skip
# The invoice's textarea in Files shows this many lines: a longer invoice needs scrolling
# (the element list gives it whole), and its visible lines alone give a wrong total.
SHOWN_ROWS = 12
APPROVERS_FILE = "Finance/approvers.txt"
# The approvers list names roles; the approvers' contacts say who holds which (their notes).
APPROVER_ROLES = ["Head of Facilities", "Procurement lead", "IT manager", "Office manager"]


def _line_total(line: tuple[str, int, float]) -> float:
    """What a line costs: quantity times unit price."""
    return line[1] * line[2]


@dataclass(frozen=True)
class Invoice:
    number: str
    day: str  # invoice date
    lines: tuple[tuple[str, int, float], ...]  # (item, quantity, unit price)

    @property
    def total(self) -> float:
        return round(sum(q * p for _, q, p in self.lines), 2)

    @property
    def top_line(self) -> str:
        return max(self.lines, key=_line_total)[0]

    @property
    def top_unit(self) -> str:
        return max(self.lines, key=itemgetter(2))[0]


@dataclass(frozen=True)
class Review:
    vendor: str
    vendor_mail: str
    colleague: str
    colleague_mail: str
    approver: str
    other_approver: str
    may: Invoice
    april: Invoice
    terms: int  # days
    proposed: tuple[str, str]  # (day, time) first proposed
    agreed: tuple[str, str]  # (day, time) finally agreed
    roles: tuple[str, str]  # the approver's, the other approver's

    @property
    def slug(self) -> str:
        return self.vendor.split()[0].lower()

    @property
    def may_file(self) -> str:
        return f"Invoices/{self.slug}-2024-05.csv"

    @property
    def april_file(self) -> str:
        return f"Invoices/{self.slug}-2024-04.csv"

    @property
    def plain_due(self) -> str:
        """The invoice date plus the terms: a weekend day, so not yet the due date."""
        return (Date.fromisoformat(self.may.day) + timedelta(days=self.terms)).isoformat()

    @property
    def due(self) -> str:
        return _next_business_day(Date.fromisoformat(self.plain_due)).isoformat()

    @property
    def subject(self) -> str:
        return f"Re: May invoice from {self.vendor}"

    @property
    def title(self) -> str:
        return f"{self.vendor} invoice review"


def _invoice(rng: random.Random, prefix: str, day: str, count: int = 5) -> Invoice:
    """``count`` lines whose costliest unit price is not the costliest line."""
    while True:
        items = rng.sample(ITEMS, count)
        lines = tuple(
            (item, rng.randint(2, 24), round(rng.randint(450, 9900) / 100, 2)) for item in items
        )
        pricey = lines.index(max(lines, key=itemgetter(2)))
        lines = tuple((i, 1, p) if n == pricey else (i, q, p) for n, (i, q, p) in enumerate(lines))
        invoice = Invoice(f"{prefix}-{rng.randint(1000, 9899)}", day, lines)
        totals = sorted((q * p for _, q, p in lines), reverse=True)
        if invoice.top_line != invoice.top_unit and totals[0] - totals[1] > 5:
            return invoice


def _next_business_day(day: Date) -> Date:
    while day.weekday() >= 5:
        day += timedelta(days=1)
    return day


def review_case(case: str, **_: object) -> Review:
    rng = random.Random(f"workflow-review-{case}")
    (vendor, vendor_mail, prefix) = rng.choice(VENDORS)
    colleague, colleague_mail = rng.choice(PEOPLE)
    approver, other = (p[0] for p in rng.sample(PHONE_PEOPLE, 2))
    # An invoice date and terms whose plain due date is a weekend day: the stated terms
    # then make the next business day the due date.
    day, terms = rng.choice(
        [
            (f"2024-05-{d}", t)
            for d in range(27, 32)
            for t in (10, 14, 20, 21, 30)
            if (Date(2024, 5, d) + timedelta(days=t)).weekday() >= 5
        ]
    )
    may = _invoice(rng, prefix, day, count=rng.randint(18, 22))
    april = _invoice(rng, prefix, f"2024-04-{rng.randint(26, 30)}")
    days = ["2024-06-05", "2024-06-06", "2024-06-07"]
    first, second = rng.sample(days, 2)
    times = rng.sample(["10:00", "11:30", "14:00", "15:30"], 2)
    role, other_role = rng.sample(APPROVER_ROLES, 2)
    return Review(
        vendor,
        vendor_mail,
        colleague,
        colleague_mail,
        approver,
        other,
        may,
        april,
        terms,
        (first, times[0]),
        (second, times[1]),
        (role, other_role),
    )


def _csv(invoice: Invoice) -> str:
    rows = ["item,quantity,unit_price_eur"] + [f"{i},{q},{money(p)}" for i, q, p in invoice.lines]
    return "\n".join(rows) + "\n"


def review_setup(case: str, **_: object) -> list[ActionStep]:
    data = review_case(case)
    approvers = {data.approver: data.roles[0], data.other_approver: data.roles[1]}
    others = [v[0] for v in VENDORS if v[0] != data.vendor][:3]
    listing = [f"{data.vendor}: {data.roles[0]}"] + [
        f"{v}: {data.roles[1]}" if n == 0 else f"{v}: Finance director"
        for n, v in enumerate(others)
    ]
    first = data.colleague.split()[0]
    steps = [
        account(sd.add_file(path=data.may_file, content=_csv(data.may))),
        account(sd.add_file(path=data.april_file, content=_csv(data.april))),
        account(
            sd.add_file(
                path=APPROVERS_FILE,
                content="Who approves payments to each vendor (by role: Contacts' notes say "
                "who holds each role)\n\n" + "\n".join(listing) + "\n",
            )
        ),
        *(
            account(sd.add_contact(name=name, phone=number, notes=approvers[name]))
            for name, number, _ in PHONE_PEOPLE
            if name in approvers
        ),
    ]
    for invoice, when in ((data.april, "2024-05-02T08:40"), (data.may, "2024-06-01T08:40")):
        month = Date.fromisoformat(invoice.day).strftime("%B")
        body = (
            f"Dear customer,\n\nour invoice {invoice.number} of {invoice.day} for {month} is "
            f"ready. The itemised invoice is in your shared folder as "
            f"{data.may_file if invoice is data.may else data.april_file}.\nPayment terms: "
            f"payable within {data.terms} days of the invoice date; if that day falls on a "
            f"weekend, on the next business day.\n\nKind regards,\n{data.vendor}"
        )
        steps.append(
            account(
                sd.add_mail(
                    sender=data.vendor_mail,
                    subject=f"Invoice {invoice.number}",
                    body=body,
                    date=when,
                )
            )
        )
    (d1, t1), (d2, t2) = data.proposed, data.agreed
    thread = [
        (
            data.colleague_mail,
            f"May invoice from {data.vendor}",
            f"Hi,\n\nthe May invoice from {data.vendor} is in. Shall we go through it "
            f"together on {long_day(d1)} at {t1}?\n\n{first}",
            "2024-06-01T10:05",
            "inbox",
        ),
        (
            "me",
            f"Re: May invoice from {data.vendor}",
            f"Hi {first},\n\n{long_day(d1)} doesn't work for me. Could we do "
            f"{long_day(d2)} at {t2} instead?\n\nAlex",
            "2024-06-01T11:20",
            "sent",
        ),
        (
            data.colleague_mail,
            data.subject,
            f"Fine, {long_day(d2)} at {t2} it is, for half an hour. Before then, could you "
            "please:\n- reply to this mail with the invoice's total and the line that "
            "costs us the most;\n- text that total from the phone to whoever approves "
            f"payments to {data.vendor} (see {APPROVERS_FILE});\n- put our review in the "
            f'calendar as "{data.title}";\n- add a to-do titled "Pay" and the invoice '
            'number (like "Pay AB-1234"), due on the day payment is due.\n\nThanks,\n' + first,
            "2024-06-02T16:45",
            "inbox",
        ),
    ]
    for sender, subject, body, when, folder in thread:
        if folder == "sent":
            steps.append(
                account(
                    sd.add_mail(
                        sender="alex.morgan@reef.test",
                        to=data.colleague_mail,
                        subject=subject,
                        body=body,
                        date=when,
                        folder="sent",
                        read=True,
                    )
                )
            )
        else:
            steps.append(account(sd.add_mail(sender=sender, subject=subject, body=body, date=when)))
    return steps


def review_checkpoints(case: str, **_: object) -> list[Evaluator]:
    data = review_case(case)
    day, start = data.agreed
    return [
        reply_states(
            [data.subject],
            data.colleague_mail,
            facts=[said(amount_spellings(data.may.total)), data.may.top_line],
        ),
        text_states(data.approver, amount_spellings(data.may.total)),
        aev.event_spans(title=data.title, date=day, time=start, end=shift(start, 30)),
        aev.task_exists(title=f"Pay {data.may.number}", due=data.due),
    ]


def _review(
    data: Review,
    invoice: Invoice | None = None,
    top: str = "",
    approver: str = "",
    slot: tuple[str, str] | None = None,
    due: str = "",
    to_do: bool = True,
    minutes: int = 30,
) -> list[ActionCall]:
    invoice = invoice or data.may
    total = money(invoice.total)
    day, start = slot or data.agreed
    steps = [
        *open_mail(f"Invoice {data.may.number}"),
        *open_file(data.may_file),
        *open_file(APPROVERS_FILE),
        *reply(
            data.subject,
            f"Hi,\n\nthe May invoice {data.may.number} comes to EUR {total}; the costliest "
            f"line is {top or invoice.top_line}.\n",
        ),
        *text_from_phone(approver or data.approver, f"{data.vendor} May invoice: EUR {total}"),
        *event_in_browser(data.title, day, start, minutes=minutes),
    ]
    if to_do:
        steps += todo_in_browser(f"Pay {data.may.number}", due or data.due)
    return steps


def review_solution(case: str, **_: object) -> list[ActionCall]:
    return _review(review_case(case))


def review_april(case: str, **_: object) -> list[ActionCall]:
    data = review_case(case)
    return _review(data, invoice=replace(data.april, number=data.may.number))


def review_unit_price(case: str, **_: object) -> list[ActionCall]:
    data = review_case(case)
    return _review(data, top=data.may.top_unit)


def review_wrong_approver(case: str, **_: object) -> list[ActionCall]:
    data = review_case(case)
    return _review(data, approver=data.other_approver)


def review_first_time(case: str, **_: object) -> list[ActionCall]:
    data = review_case(case)
    return _review(data, slot=data.proposed)


def review_due_on_invoice_date(case: str, **_: object) -> list[ActionCall]:
    data = review_case(case)
    return _review(data, due=data.may.day)


def review_visible_rows(case: str, **_: object) -> list[ActionCall]:
    """Totals only the lines the Files page shows before scrolling."""
    data = review_case(case)
    shown = replace(data.may, lines=data.may.lines[: SHOWN_ROWS - 1])
    return _review(data, invoice=shown, top=data.may.top_line)


def review_weekend_due(case: str, **_: object) -> list[ActionCall]:
    data = review_case(case)
    return _review(data, due=data.plain_due)


def review_hour_long(case: str, **_: object) -> list[ActionCall]:
    return _review(review_case(case), minutes=60)


def review_no_todo(case: str, **_: object) -> list[ActionCall]:
    return _review(review_case(case), to_do=False)


def review_allowances(case: str, **_: object) -> list[str]:
    """The text to the approver, keyed by their number when sent to their name."""
    data = review_case(case)
    return messages_to(data.approver, phone_number(data.approver))


INVOICE_REVIEW = SubTask(
    id="workflow.invoice_review",
    description="{colleague} and I are reviewing the May invoice from {vendor} together. "
    'Please do everything {colleague} asks in the latest mail of the thread "May invoice '
    "from {vendor}\" in the browser's Mail, working out the figures from the itemised "
    "invoice in the browser's Files (a line costs its quantity times its unit price).",
    attributes={"case": "str", "colleague": "name", "vendor": "name"},
    outputs=["mail", "message", "event", "task"],
    env="browser",
    app="mail",
    app_category="communication",
    intents=[WORKFLOW_INTENT],
    value_records=[
        {"case": c, "colleague": review_case(c).colleague, "vendor": review_case(c).vendor}
        for c in CASES
    ],
    setup_generator=review_setup,
    evaluator_generator=review_checkpoints,
    solution_generator=review_solution,
    allowances=review_allowances,
    near_misses=[
        NearMiss("uses April's invoice figures", solution=review_april),
        NearMiss("names the line with the highest unit price", solution=review_unit_price),
        NearMiss("texts another vendor's approver", solution=review_wrong_approver),
        NearMiss("books the first proposed time", solution=review_first_time),
        NearMiss("makes the to-do due on the invoice date", solution=review_due_on_invoice_date),
        NearMiss("totals only the invoice lines shown unscrolled", solution=review_visible_rows),
        NearMiss("makes the to-do due on the weekend day", solution=review_weekend_due),
        NearMiss("books the half-hour review for an hour", solution=review_hour_long),
        NearMiss("stops before the to-do", solution=review_no_todo),
    ],
)
