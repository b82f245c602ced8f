"""reef-v2's reasoning family: the answer is not in any one item, but in reasoning over
many.

Each template seeds the account with a dozen items that each hold a piece (invoice mails
and reminders against a ledger in Files; three colleagues' constraints against the
calendar; payment receipts and refunds from several vendors) and asks for what only
follows from all of them together: the invoices missing from the ledger and their total,
the one meeting slot that suits everyone, the vendor paid the most. The instruction states
every rule the answer follows (which dates count, that an invoice counts once, that a
refund is subtracted); what makes it hard is the items: duplicates and reminders for the
same invoice, invoices of last quarter, partial overlaps with calendar events, a vendor
whose single payment is the largest but whose total is not.

Every task's data comes from its ``case`` (a seeded draw, so the tasks differ in people,
vendors, amounts and which items are the decoys); the checkpoint and the near misses are
computed from the same draw. Near misses are the plausible reasoning slips: counting last
quarter's invoice, counting a reminder twice, missing the invoice only a reminder names,
picking a slot that only the calendar rules out, submitting the vendor of the largest
single payment.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date as Date
from operator import attrgetter, itemgetter

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.benchmark.templates.browser import typed_date, typed_time
from reefbench.benchmark.templates.common import browser_app, browser_fill, call
from reefbench.environments.root import answer_equals
from reefbench.envs.services import evaluators as aev
from reefbench.envs.services import seeding as sd
from reefbench.envs.services.attribution import BROWSER
from reefbench.tasks.subtask import NearMiss, SubTask
from reefbench.tasks.task import ActionStep

B = "browser"
REASONING_INTENT = "reason over many items to find the answer"
CASES = [str(i) for i in range(10)]


def _account(action: object) -> ActionStep:
    return ActionStep(env="services", action=action)  # type: ignore[arg-type]


def money(amount: float) -> str:
    return f"{amount:.2f}"


def money_spellings(amount: float) -> str:
    """The ways a total may be written ("1234.50", "1,234.50", "1 234.50", and with a
    decimal comma "1234,50", "1.234,50"), as a fact; a total whose cents end in 0 also
    with one decimal ("1234.5": playtest H5 noted "22644.2" would have failed). Whole
    pounds are not written without decimals: as whole words "1234" is in "1234.50"."""
    plain, grouped = f"{amount:.2f}", f"{amount:,.2f}"
    european = grouped.replace(",", " ").replace(".", ",").replace(" ", ".")
    spellings = [plain, grouped, grouped.replace(",", " "), plain.replace(".", ","), european]
    if plain.endswith("0") and not plain.endswith(".00"):
        spellings += [s[:-1] for s in spellings]
    return "|".join(dict.fromkeys(spellings))


def _reply(subject: str, text: str) -> list[ActionCall]:
    """Open the mail with this subject and reply with ``text`` above the quote."""
    return [
        *browser_app("Mail"),
        call(B, "click_on", name=subject, role="link"),
        call(B, "click_on", name="Reply", role="link"),
        call(B, "click_on", name="Message", role="textbox"),
        call(B, "press", key="Control+Home"),
        call(B, "write_text", text=text),
        call(B, "click_on", name="Send", role="button"),
    ]


def _new_mail(to: str, subject: str, text: str) -> list[ActionCall]:
    return [
        *browser_app("Mail"),
        call(B, "click_on", name="Compose"),
        *browser_fill(("To", to), ("Subject", subject), ("Message", text)),
        call(B, "click_on", name="Send", role="button"),
    ]


# ------------------------------------------- reconciliation: invoices not in the ledger
VENDORS = [
    ("Northbeam Supplies", "billing@northbeam.example.com", "NBS"),
    ("Cobalt Print", "accounts@cobaltprint.example.com", "CP"),
    ("Vantage Cloud", "invoices@vantagecloud.example.com", "VC"),
    ("Harbor Office Furniture", "ar@harborfurniture.example.com", "HOF"),
    ("Pinecrest Catering", "office@pinecrest.example.com", "PC"),
    ("Lumen Electric", "billing@lumenelectric.example.com", "LE"),
    ("Ridgeway Logistics", "finance@ridgeway.example.com", "RL"),
    ("Brightside Cleaning", "hello@brightside.example.com", "BC"),
]
ACCOUNTANTS = [
    ("Maria Keller", "maria.keller@keller-accounting.example.com"),
    ("Tom Brandt", "tom.brandt@brandt-tax.example.com"),
    ("Aisha Rahman", "aisha@rahman-books.example.com"),
]
LEDGER = "Finance/ledger-q2-2024.csv"
ASK_SUBJECTS = ["Invoices missing from the Q2 ledger?", "Closing Q2: open invoices"]


@dataclass(frozen=True)
class Invoice:
    number: str
    vendor: str
    address: str
    day: str  # invoice date, YYYY-MM-DD
    amount: float


@dataclass(frozen=True)
class Ledger:
    """One reconciliation case: what the mailbox and the ledger hold."""

    recorded: tuple[Invoice, ...]  # in the mail and in the ledger
    missing: tuple[Invoice, ...]  # in the mail, not in the ledger: the answer
    reminded: Invoice  # of ``missing``: its invoice mail and a reminder
    only_reminded: Invoice  # of ``missing``: only a reminder names it
    attached: Invoice  # of ``missing``: its date and amount only in an attached file
    last_quarter: Invoice  # in the mail, not in the ledger, dated March (mailed in April)
    ledger_only: tuple[Invoice, ...]  # paid by other routes: in the ledger only

    @property
    def total(self) -> float:
        return round(sum(i.amount for i in self.missing), 2)


def attachment_name(inv: Invoice) -> str:
    return f"invoice-{inv.number}.txt"


def _attached_mail(inv: Invoice) -> tuple[str, str, dict[str, str]]:
    """(subject, body, attachments) of an invoice sent as an attached file only."""
    content = (
        f"{inv.vendor}\nINVOICE\n\nInvoice number: {inv.number}\nInvoice date: {inv.day}\n"
        f"Total due: EUR {money(inv.amount)}\nPayment terms: 14 days\n"
    )
    body = (
        "Good morning,\n\nyour invoice is attached as a text file. Please forward it to "
        f"whoever handles payments.\n\nAccounts receivable\n{inv.vendor}"
    )
    return f"Documents from {inv.vendor}", body, {attachment_name(inv): content}


def _amount(rng: random.Random) -> float:
    return round(rng.randint(8000, 190000) / 100, 2)


def ledger_case(case: str) -> Ledger:
    rng = random.Random(f"reasoning-ledger-{case}")
    vendors = rng.sample(VENDORS, 5)
    numbers: set[str] = set()

    def invoice(vendor_index: int, day: str) -> Invoice:
        name, address, prefix = vendors[vendor_index]
        while True:
            number = f"{prefix}-{rng.randint(1000, 9899)}"
            if number not in numbers:
                numbers.add(number)
                return Invoice(number, name, address, day, _amount(rng))

    def q2_day() -> str:
        return f"2024-{rng.choice(['04', '05'])}-{rng.randint(2, 27):02d}"

    recorded = tuple(invoice(i, q2_day()) for i in (0, 1, 2))
    missing = (invoice(3, q2_day()), invoice(1, q2_day()), invoice(4, q2_day()))
    # Dated late March, mailed in April: received this quarter, not of it.
    last_quarter = invoice(rng.choice([0, 3, 4]), f"2024-03-{rng.randint(22, 29):02d}")
    ledger_only = (invoice(2, q2_day()), invoice(0, q2_day()))
    return Ledger(recorded, missing, missing[0], missing[2], missing[1], last_quarter, ledger_only)


def _invoice_mail(inv: Invoice, style: int) -> tuple[str, str]:
    """(subject, body) of an invoice mail, in one of a few vendors' styles."""
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
    return (
        f"{inv.vendor}: new invoice available",
        f"Hi,\n\na new invoice is ready.\n\n  No.      {inv.number}\n  Dated    {inv.day}\n"
        f"  Total    EUR {money(inv.amount)}\n\nThanks,\n{inv.vendor}",
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


def _mail_day(day: str, later: int) -> str:
    start = Date.fromisoformat(day)
    when = start.toordinal() + later
    stamp = min(Date.fromordinal(when), Date(2024, 6, 2))
    return f"{stamp.isoformat()}T{9 + later % 8:02d}:{(17 * later) % 60:02d}"


def reconcile_setup(
    case: str, accountant: str, email: str, subject: str, ledger: str
) -> list[ActionStep]:
    data = ledger_case(case)
    steps = []
    paid = sorted([*data.recorded, *data.ledger_only], key=attrgetter("day"))
    rows = ["invoice,vendor,amount_eur,paid_on"] + [
        f"{i.number},{i.vendor},{money(i.amount)},{_mail_day(i.day, 12)[:10]}" for i in paid
    ]
    steps.append(_account(sd.add_file(path=ledger, content="\n".join(rows) + "\n")))
    # (date, sender, subject, body, attachments)
    mails: list[tuple[str, str, str, str, dict[str, str]]] = []
    by_body = (*data.recorded, data.reminded, data.last_quarter)
    for n, inv in enumerate(by_body):
        subject_, body = _invoice_mail(inv, n % 3)
        later = 10 if inv == data.last_quarter else 1
        mails.append((_mail_day(inv.day, later), inv.address, subject_, body, {}))
    subject_, body, files = _attached_mail(data.attached)
    mails.append((_mail_day(data.attached.day, 2), data.attached.address, subject_, body, files))
    for inv, later in ((data.reminded, 20), (data.recorded[1], 9)):
        subject_, body = _reminder_mail(inv, first_only=False)
        mails.append((_mail_day(inv.day, later), inv.address, subject_, body, {}))
    subject_, body = _reminder_mail(data.only_reminded, first_only=True)
    late = _mail_day(data.only_reminded.day, 25)
    mails.append((late, data.only_reminded.address, subject_, body, {}))
    for when, sender, subject_, body, files in sorted(mails, key=itemgetter(0, 2)):
        steps.append(
            _account(
                sd.add_mail(
                    sender=sender, subject=subject_, body=body, date=when, attachments=files
                )
            )
        )
    ask = (
        f"Hi,\n\nbefore I close the quarter: which invoices dated this quarter did you receive "
        f"by mail that are still not in the ledger ({ledger})? Please send me their numbers "
        f"and what they add up to.\n\nThanks,\n{accountant}"
    )
    steps.append(
        _account(sd.add_mail(sender=email, subject=subject, body=ask, date="2024-06-03T08:30"))
    )
    return steps


def _reconcile_facts(invoices: list[Invoice]) -> list[str]:
    total = round(sum(i.amount for i in invoices), 2)
    return [*(i.number for i in invoices), money_spellings(total)]


def reconcile_checkpoints(
    case: str, accountant: str, email: str, subject: str, ledger: str
) -> list[Evaluator]:
    data = ledger_case(case)
    decoys = [i.number for i in (*data.recorded, *data.ledger_only, data.last_quarter)]
    return [
        aev.mail_states(
            by=BROWSER,
            to=email,
            subject=f"Re: {subject}",
            facts=_reconcile_facts(list(data.missing)),
            forbidden=decoys,
        )
    ]


def _reconcile_text(invoices: list[Invoice], total: float) -> str:
    listed = "\n".join(f"{i.number} ({i.vendor}, EUR {money(i.amount)})" for i in invoices)
    return (
        f"Hi,\n\nthese invoices are not in the ledger yet:\n{listed}\nTotal: EUR {money(total)}\n"
    )


def _reconcile_reply(
    ledger: str, subject: str, invoices: list[Invoice], total: float
) -> list[ActionCall]:
    folder, name = ledger.split("/")
    return [
        *browser_app("Files"),
        call(B, "click_on", name=folder, role="link"),
        call(B, "click_on", name=name, role="link"),
        *_reply(subject, _reconcile_text(invoices, total)),
    ]


def _read_attachment(inv: Invoice) -> list[ActionCall]:
    """Open the mail that only attaches the invoice and save the file to Files (which
    shows it)."""
    return [
        *browser_app("Mail"),
        call(B, "click_on", name=f"Documents from {inv.vendor}", role="link"),
        call(B, "click_on", name=f"Save {attachment_name(inv)} to Files", role="button"),
    ]


def reconcile_solution(
    case: str, accountant: str, email: str, subject: str, ledger: str
) -> list[ActionCall]:
    data = ledger_case(case)
    return [
        *_read_attachment(data.attached),
        *_reconcile_reply(ledger, subject, list(data.missing), data.total),
    ]


def reconcile_allowances(
    case: str, accountant: str, email: str, subject: str, ledger: str
) -> list[str]:
    """Reading the attached invoice: saved to Files (the reference's way) or downloaded by
    the browser into ~/Downloads (the mail's Download link; a playtest's right answer failed
    on it as a side effect)."""
    return [
        f"account|files:{attachment_name(ledger_case(case).attached).casefold()}",
        "desktop|file:/home/user/Downloads",
    ]


def reconcile_new_mail(
    case: str, accountant: str, email: str, subject: str, ledger: str
) -> list[ActionCall]:
    """Writes a new mail with the reply's subject instead of pressing Reply."""
    data = ledger_case(case)
    text = _reconcile_text(list(data.missing), data.total)
    return _new_mail(email, f"Re: {subject}", text)


def reconcile_by_download(
    case: str, accountant: str, email: str, subject: str, ledger: str
) -> list[ActionCall]:
    """Reads the attached invoice through the mail's Download link (the browser saves it
    in the computer's ~/Downloads) instead of saving it to Files."""
    data = ledger_case(case)
    name = attachment_name(data.attached)
    return [
        *browser_app("Mail"),
        call(B, "click_on", name=f"Documents from {data.attached.vendor}", role="link"),
        call(B, "click_on", name=f"Download {name}", role="link"),
        *_reconcile_reply(ledger, subject, list(data.missing), data.total),
    ]


def reconcile_with_last_quarter(
    case: str, accountant: str, email: str, subject: str, ledger: str
) -> list[ActionCall]:
    data = ledger_case(case)
    invoices = [*data.missing, data.last_quarter]
    return _reconcile_reply(ledger, subject, invoices, data.total + data.last_quarter.amount)


def reconcile_counts_reminder_twice(
    case: str, accountant: str, email: str, subject: str, ledger: str
) -> list[ActionCall]:
    data = ledger_case(case)
    return _reconcile_reply(
        ledger, subject, list(data.missing), round(data.total + data.reminded.amount, 2)
    )


def reconcile_misses_reminder_only(
    case: str, accountant: str, email: str, subject: str, ledger: str
) -> list[ActionCall]:
    data = ledger_case(case)
    invoices = [i for i in data.missing if i != data.only_reminded]
    return _reconcile_reply(ledger, subject, invoices, round(sum(i.amount for i in invoices), 2))


def reconcile_attachment_unread(
    case: str, accountant: str, email: str, subject: str, ledger: str
) -> list[ActionCall]:
    """Lists the attached invoice's number but leaves its unread amount out of the total."""
    data = ledger_case(case)
    total = round(data.total - data.attached.amount, 2)
    return _reconcile_reply(ledger, subject, list(data.missing), total)


def reconcile_includes_recorded(
    case: str, accountant: str, email: str, subject: str, ledger: str
) -> list[ActionCall]:
    """Lists the reminded, already paid invoice too (its total still right)."""
    data = ledger_case(case)
    return _reconcile_reply(ledger, subject, [*data.missing, data.recorded[1]], data.total)


UNRECORDED_INVOICES = SubTask(
    id="reasoning.unrecorded_invoices",
    description='In the browser, reply to the mail "{subject}" from our accountant '
    "{accountant}. Put in the reply the invoice number of every invoice dated this quarter "
    "(April to June 2024) that is named in a vendor's mail in the browser's Mail (an invoice "
    "mail or a payment reminder) but is not listed in the ledger {ledger} in the browser's "
    "Files, and the total amount of those invoices in EUR, counting each invoice once. Do "
    "not mention any other invoice number.",
    attributes={
        "case": "str",
        "accountant": "name",
        "email": "email",
        "subject": "str",
        "ledger": "str",
    },
    outputs=["mail"],
    env=B,
    app="mail",
    app_category="communication",
    intents=[REASONING_INTENT],
    value_records=[
        {
            "case": case,
            "accountant": ACCOUNTANTS[n % len(ACCOUNTANTS)][0],
            "email": ACCOUNTANTS[n % len(ACCOUNTANTS)][1],
            "subject": ASK_SUBJECTS[n % len(ASK_SUBJECTS)],
            "ledger": LEDGER,
        }
        for n, case in enumerate(CASES)
    ],
    setup_generator=reconcile_setup,
    evaluator_generator=reconcile_checkpoints,
    solution_generator=reconcile_solution,
    alternative_generators=[reconcile_new_mail, reconcile_by_download],
    allowances=reconcile_allowances,
    near_misses=[
        NearMiss("includes last quarter's invoice", solution=reconcile_with_last_quarter),
        NearMiss(
            "counts a reminded invoice twice in the total", solution=reconcile_counts_reminder_twice
        ),
        NearMiss(
            "misses the invoice only a reminder names", solution=reconcile_misses_reminder_only
        ),
        NearMiss("lists an invoice the ledger already has", solution=reconcile_includes_recorded),
        NearMiss(
            "leaves the attached invoice's amount out of the total",
            solution=reconcile_attachment_unread,
        ),
    ],
)


# ------------------------------------------------ scheduling under constraints
DAYS = [("Tuesday", "2024-06-11"), ("Wednesday", "2024-06-12"), ("Thursday", "2024-06-13")]
TIMES = ["10:00", "14:00", "16:00"]
PEOPLE = [
    ("Dana Ruiz", "dana.ruiz@example.com"),
    ("Marek Novak", "marek.novak@example.com"),
    ("Yuki Tanaka", "yuki.tanaka@example.com"),
    ("Omar Haddad", "omar.haddad@example.com"),
    ("Lena Fischer", "lena.fischer@example.com"),
    ("Priya Shah", "priya.shah@example.com"),
]
MEETINGS = ["Budget planning", "Launch retrospective", "Vendor review", "Hiring plan"]
TOPIC = "Finding an hour next week"


def _time_spellings(hhmm: str) -> str:
    """The ways a start time may be written ("14:00", "14.00", "2 pm", "2:00 p.m.", ...)."""
    hour = int(hhmm[:2])
    twelve, half = (hour % 12) or 12, "am" if hour < 12 else "pm"
    dotted = f"{half[0]}.m"
    spoken = [
        f"{twelve}{minutes}{gap}{suffix}"
        for minutes in ("", ":00")
        for gap in ("", " ")
        for suffix in (half, dotted)
    ]
    return "|".join(dict.fromkeys([hhmm, hhmm.replace(":", "."), f"{hour}h00", *spoken]))


SPOKEN_TIME = {at: _time_spellings(at) for at in ("10:00", "14:00", "16:00")}


@dataclass(frozen=True)
class Slots:
    """One scheduling case: who rules out what, and what the calendar holds."""

    people: tuple[tuple[str, str], ...]
    answer: tuple[int, int]  # (day index, time index)
    day_out: int  # the first person cannot do this day
    time_out: int  # the second cannot do this time on any day
    person_out: tuple[int, int]  # the third cannot do this slot
    calendar_out: tuple[tuple[int, int], ...]  # overlapped by the calendar
    stale: tuple[int, int]  # the one free slot if the first person's first mail counted
    events: tuple[tuple[str, int, str, str], ...]  # (title, day index, start, end)


def _shift(hhmm: str, minutes: int) -> str:
    hour, minute = (int(x) for x in hhmm.split(":"))
    total = hour * 60 + minute + minutes
    return f"{total // 60:02d}:{total % 60:02d}"


def slots_case(case: str) -> Slots:
    rng = random.Random(f"reasoning-slots-{case}")
    people = tuple(rng.sample(PEOPLE, 3))
    day, time = rng.randrange(3), rng.randrange(3)
    day_out = rng.choice([d for d in range(3) if d != day])
    time_out = rng.choice([t for t in range(3) if t != time])
    other_day = next(d for d in range(3) if d not in (day, day_out))
    other_time = next(t for t in range(3) if t not in (time, time_out))
    left = [(day, other_time), (other_day, time), (other_day, other_time)]
    rng.shuffle(left)
    person_out, calendar_out = left[0], tuple(left[1:])
    events: list[tuple[str, int, str, str]] = []
    clashes = ["Dentist", "Team lunch", "Call with the bank", "Parents' evening"]
    rng.shuffle(clashes)
    for (d, t), title, offset in zip(calendar_out, clashes, (-30, 30), strict=False):
        start = _shift(TIMES[t], offset)
        events.append((title, d, start, _shift(start, 60)))
    # Events that touch the answer without overlapping it, and one on a day out anyway.
    at = TIMES[time]
    events.append(("Coffee with Sam", day, _shift(at, -60), at))
    events.append(("Gym", day, _shift(at, 60), _shift(at, 90)))
    events.append(("Quarterly review", day_out, TIMES[time], _shift(TIMES[time], 60)))
    stale = (day_out, other_time)
    return Slots(
        people, (day, time), day_out, time_out, person_out, calendar_out, stale, tuple(events)
    )


def _constraint_mails(data: Slots) -> list[tuple[str, str]]:
    (a, a_mail), (b, b_mail), (c, c_mail) = data.people
    day_name, day_iso = DAYS[data.day_out]
    first_name, first_iso = DAYS[data.answer[0]]
    pd, pt = data.person_out
    return [
        (
            a_mail,
            f"Hi,\n\nI'm at a customer site all day on {first_name} ({first_iso}), so that day "
            "is out for me. Any of the other slots works.\n\n" + a.split()[0],
        ),
        (
            b_mail,
            f"Hello,\n\n{TIMES[data.time_out]} doesn't work for me on any day next week, I have "
            "a standing call then. Everything else is fine.\n\n" + b.split()[0],
        ),
        (
            c_mail,
            f"Hi,\n\nthe only slot I can't make is {DAYS[pd][0]} at {TIMES[pt]}. Otherwise I'm "
            "flexible.\n\nCheers,\n" + c.split()[0],
        ),
        (
            a_mail,
            f"Hi again,\n\nsmall change: the customer visit moved. I'm now out all day on "
            f"{day_name} ({day_iso}) instead, and {first_name} is free for me after all.\n\n"
            + a.split()[0],
        ),
    ]


def slot_setup(case: str, title: str, replier: str) -> list[ActionStep]:
    data = slots_case(case)
    steps = [
        _account(sd.add_event(title=name, date=DAYS[d][1], start=start, end=end))
        for name, d, start, end in data.events
    ]
    for n, (sender, body) in enumerate(_constraint_mails(data)):
        # The Friday before the account's today (2024-06-03 09:00): in the order they came,
        # and none from the future (a playtest saw replies dated after the clock).
        when = f"2024-05-31T{9 + n:02d}:{10 + 7 * n:02d}"
        steps.append(
            _account(sd.add_mail(sender=sender, subject=f"Re: {TOPIC}", body=body, date=when))
        )
    return steps


def _day_spellings(day: int) -> str:
    name, iso = DAYS[day]
    d = Date.fromisoformat(iso)
    return f"{name}|{iso}|{d.day} June|June {d.day}|{d.day}th June|June {d.day}th|{d.day}th of June"


def slot_checkpoints(case: str, title: str, replier: str) -> list[Evaluator]:
    data = slots_case(case)
    day, time = data.answer
    _, last_mail = data.people[2]
    return [
        aev.event_exists(by=BROWSER, title=title, date=DAYS[day][1], time=TIMES[time]),
        aev.mail_states(
            by=BROWSER,
            to=last_mail,
            subject=f"Re: {TOPIC}",
            facts=[_day_spellings(day), SPOKEN_TIME[TIMES[time]]],
        ),
    ]


def _book(title: str, slot: tuple[int, int], last: str) -> list[ActionCall]:
    day, time = slot
    start = TIMES[time]
    return [
        *browser_app("Calendar"),
        call(B, "click_on", name="New event"),
        *browser_fill(("Title", title), ("Date", typed_date(DAYS[day][1]))),
        *browser_fill(
            ("Start time", typed_time(start)), ("End time", typed_time(_shift(start, 60)))
        ),
        call(B, "click_on", name="Save", role="button"),
        *browser_app("Mail"),
        call(B, "click_on", name="Search mail"),
        call(B, "write_text", text=last + "\n"),
        call(B, "click_on", name=f"Re: {TOPIC}", role="link"),
        call(B, "click_on", name="Reply", role="link"),
        call(B, "click_on", name="Message", role="textbox"),
        call(B, "press", key="Control+Home"),
        call(B, "write_text", text=f"Let's meet on {DAYS[day][0]} at {start}.\n"),
        call(B, "click_on", name="Send", role="button"),
    ]


def slot_solution(case: str, title: str, replier: str) -> list[ActionCall]:
    data = slots_case(case)
    return _book(title, data.answer, data.people[2][1])


def slot_calendar_clash(case: str, title: str, replier: str) -> list[ActionCall]:
    """Honours everyone's mail but not the calendar."""
    data = slots_case(case)
    return _book(title, data.calendar_out[0], data.people[2][1])


def slot_outdated(case: str, title: str, replier: str) -> list[ActionCall]:
    """Follows the first colleague's first mail, not their correction."""
    data = slots_case(case)
    return _book(title, data.stale, data.people[2][1])


def slot_person_clash(case: str, title: str, replier: str) -> list[ActionCall]:
    """Honours the calendar but forgets the third person's one slot."""
    data = slots_case(case)
    return _book(title, data.person_out, data.people[2][1])


MEETING_SLOT = SubTask(
    id="reasoning.meeting_slot",
    description="I asked three colleagues for a one-hour {title} meeting next week, on "
    "Tuesday 11, Wednesday 12 or Thursday 13 June, starting at 10:00, 14:00 or 16:00. "
    "Their answers are in the browser's Mail, each with the subject \"Re: Finding an hour "
    'next week". In the browser, add an event titled "{title}" to the calendar at the one '
    "of those slots that every colleague can make and that does not overlap anything "
    "already in my calendar, one hour long (if a colleague wrote more than once, their "
    "latest mail is what counts). Then reply to {replier}'s mail with the day and start "
    "time you chose.",
    attributes={"case": "str", "title": "str", "replier": "name"},
    outputs=["event"],
    env=B,
    app="calendar",
    app_category="productivity",
    intents=[REASONING_INTENT],
    value_records=[
        {
            "case": case,
            "title": MEETINGS[n % len(MEETINGS)],
            "replier": slots_case(case).people[2][0],
        }
        for n, case in enumerate(CASES)
    ],
    setup_generator=slot_setup,
    evaluator_generator=slot_checkpoints,
    solution_generator=slot_solution,
    near_misses=[
        NearMiss("picks a slot that overlaps a calendar event", solution=slot_calendar_clash),
        NearMiss("picks the slot the third colleague ruled out", solution=slot_person_clash),
        NearMiss("follows a colleague's first mail, not their correction", solution=slot_outdated),
    ],
)


# --------------------------------------------- aggregation: the vendor paid the most
PAYEES = [
    "Northbeam Supplies",
    "Cobalt Print",
    "Vantage Cloud",
    "Harbor Office Furniture",
    "Pinecrest Catering",
    "Lumen Electric",
    "Ridgeway Logistics",
    "Brightside Cleaning",
]


@dataclass(frozen=True)
class Payments:
    """One aggregation case: payments (vendor, date, amount), refunds the same."""

    winner: str  # the most paid this quarter, refunds subtracted
    biggest: str  # the largest single payment, a smaller total
    with_old: str  # the most if last quarter counted
    gross: str  # the most if refunds are ignored
    twice: str  # the most if a receipt sent twice counts twice (its last payment's)
    payments: tuple[tuple[str, str, float], ...]
    refunds: tuple[tuple[str, str, float], ...]

    def totals(self, old: bool = False, refunds: bool = True) -> dict[str, float]:
        out: dict[str, float] = {}
        for vendor, day, amount in self.payments:
            if old or day >= "2024-04-01":
                out[vendor] = round(out.get(vendor, 0.0) + amount, 2)
        for vendor, _, amount in self.refunds if refunds else ():
            out[vendor] = round(out.get(vendor, 0.0) - amount, 2)
        return out


def _split(rng: random.Random, total: int, parts: int) -> list[float]:
    """``total`` cents in ``parts`` payments of similar size (none above 0.62 of it)."""
    weights = [rng.uniform(1.0, 1.6) for _ in range(parts)]
    cents = [round(total * w / sum(weights)) for w in weights[:-1]]
    cents.append(total - sum(cents))
    return [round(c / 100, 2) for c in cents]


def payments_case(case: str) -> Payments:
    rng = random.Random(f"reasoning-payments-{case}")
    winner, biggest, with_old, gross, extra = rng.sample(PAYEES, 5)
    w = rng.randint(260000, 340000)  # cents
    # Paid dates this quarter, none after the account's today (2024-06-03).
    q2 = [f"2024-{m}-{rng.randint(2, 28):02d}" for m in ("04", "05", "05", "04", "05", "05")]
    q2[4] = f"2024-06-0{rng.randint(1, 2)}"
    payments: list[tuple[str, str, float]] = []
    for k, amount in enumerate(_split(rng, w, 3)):
        payments.append((winner, q2[k], amount))
    big = w - rng.randint(15000, 40000)
    payments.append((biggest, q2[3], round((big - 20000) / 100, 2)))
    payments.append((biggest, q2[4], 200.0))
    old_q2 = w - rng.randint(20000, 50000)
    for k, amount in enumerate(_split(rng, old_q2, 2)):
        payments.append((with_old, q2[k + 1], amount))
    payments.append(
        (with_old, f"2024-03-{rng.randint(5, 28):02d}", round(rng.randint(90000, 140000) / 100, 2))
    )
    g = w + rng.randint(20000, 50000)
    for k, amount in enumerate(_split(rng, g, 3)):
        payments.append((gross, q2[k + 2], amount))
    refund = round((g - w + rng.randint(15000, 30000)) / 100, 2)
    # Its larger payment's receipt arrives twice: counted twice, it tops everyone.
    extra_parts = sorted(_split(rng, w - rng.randint(30000, 45000), 2))
    for k, amount in enumerate(extra_parts):
        payments.append((extra, q2[k + 3], amount))
    return Payments(
        winner,
        biggest,
        with_old,
        gross,
        extra,
        tuple(payments),
        ((gross, f"2024-05-{rng.randint(10, 30):02d}", refund),),
    )


def _top(totals: dict[str, float]) -> str:
    return max(totals, key=totals.__getitem__)


def payments_setup(case: str, question: str) -> list[ActionStep]:
    data = payments_case(case)
    mails: list[tuple[str, str, str, str]] = []
    for n, (vendor, day, amount) in enumerate(data.payments):
        sender = f"payments@{vendor.split()[0].lower()}.example.com"
        ref = f"PAY-{4100 + 37 * n}"
        if n % 2:
            subject = f"Payment received - thank you ({vendor})"
            body = (
                f"Dear customer,\n\nwe received your payment of EUR {money(amount)} on {day}. "
                f"Reference {ref}.\n\nThank you,\n{vendor}"
            )
        else:
            subject = f"Receipt {ref}"
            body = (
                f"Receipt from {vendor}\nReference: {ref}\n\nDate paid: {day}\n"
                f"Amount paid: EUR {money(amount)}\nMethod: bank transfer\n"
            )
        mails.append((f"{day}T{10 + n % 7:02d}:15", sender, subject, body))
    vendor, day, amount = data.payments[-1]
    body = (
        "This is a copy of an earlier receipt, sent again as requested.\n\n"
        f"Receipt from {vendor}\nReference: PAY-{4100 + 37 * (len(data.payments) - 1)}\n"
        f"Date paid: {day}\nAmount paid: EUR {money(amount)}\n"
    )
    sender = f"payments@{vendor.split()[0].lower()}.example.com"
    mails.append(("2024-06-02T18:05", sender, f"Copy of your receipt ({vendor})", body))
    for vendor, day, amount in data.refunds:
        sender = f"payments@{vendor.split()[0].lower()}.example.com"
        body = (
            f"Dear customer,\n\nwe have refunded EUR {money(amount)} to your account on {day} "
            f"for items returned.\n\n{vendor}"
        )
        mails.append((f"{day}T15:40", sender, f"Refund issued by {vendor}", body))
    return [
        _account(sd.add_mail(sender=sender, subject=subject, body=body, date=when, read=True))
        for when, sender, subject, body in sorted(mails)
    ]


def payments_checkpoints(case: str, question: str) -> list[Evaluator]:
    return [answer_equals(expected=payments_case(case).winner)]


def _submit(vendor: str) -> list[ActionCall]:
    return [
        *browser_app("Mail"),
        call(B, "click_on", name="Search mail"),
        call(B, "write_text", text="EUR\n"),
        call("root", "submit", answer=vendor),
    ]


def payments_solution(case: str, question: str) -> list[ActionCall]:
    return _submit(payments_case(case).winner)


def payments_with_last_quarter(case: str, question: str) -> list[ActionCall]:
    return _submit(payments_case(case).with_old)


def payments_ignores_refund(case: str, question: str) -> list[ActionCall]:
    return _submit(payments_case(case).gross)


def payments_counts_copy_twice(case: str, question: str) -> list[ActionCall]:
    return _submit(payments_case(case).twice)


def payments_single_biggest(case: str, question: str) -> list[ActionCall]:
    return _submit(payments_case(case).biggest)


QUESTIONS = [
    "Which vendor did we pay the most this quarter?",
    "Who got the most money from us this quarter?",
]

TOP_VENDOR = SubTask(
    id="reasoning.top_vendor",
    description="{question} The vendors' payment receipts and refund notices are in the "
    "browser's Mail. Count only payments made this quarter (April to June 2024), count a "
    "payment once even if its receipt was sent more than once (each has a reference), "
    "subtract any refund a vendor made to us, and submit as the answer just the name of "
    "the vendor with the highest total.",
    attributes={"case": "str", "question": "str"},
    outputs=["answer"],
    env=B,
    app="mail",
    app_category="communication",
    intents=[REASONING_INTENT],
    value_records=[
        {"case": case, "question": QUESTIONS[n % len(QUESTIONS)]} for n, case in enumerate(CASES)
    ],
    setup_generator=payments_setup,
    evaluator_generator=payments_checkpoints,
    solution_generator=payments_solution,
    near_misses=[
        NearMiss("counts last quarter's payment too", solution=payments_with_last_quarter),
        NearMiss("ignores the refund", solution=payments_ignores_refund),
        NearMiss("takes the largest single payment", solution=payments_single_biggest),
        NearMiss("counts a receipt sent twice twice", solution=payments_counts_copy_twice),
    ],
)


TEMPLATES: list[SubTask] = [UNRECORDED_INVOICES, MEETING_SLOT, TOP_VENDOR]
POOL: dict[str, SubTask] = {t.id: t for t in TEMPLATES}
