"""reef-v2's long workflow :data:`SUPPLIER_HANDOVER` (hard, family 7): a supplier's rep
hands over to a colleague, whose own mail corrects the number given for her; she goes into
the phone's contacts with her direct line, gets a reply listing the supplier's open orders
(from a list of some thirty orders of six vendors in Files, longer than the page shows
unscrolled) and their total, a 30-minute intro call at the one of her two times that the
calendar leaves room for (both are near other events: one 15 minutes in, the other right
after a half-hour call), and a text naming the largest open order.

Near misses: the switchboard number, the delivered orders counted, the time the calendar
rules out, an hour-long call, and a chain that stops short.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from operator import itemgetter

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.benchmark.templates.reasoning import VENDORS, money
from reefbench.benchmark.templates.workflow import (
    CASES,
    WORKFLOW_INTENT,
    account,
    amount_spellings,
    contact_on_phone,
    event_in_browser,
    long_day,
    messages_to,
    open_file,
    open_mail,
    reply,
    reply_states,
    said,
    shift,
    text_from_phone,
    text_states_all,
)
from reefbench.envs.services import evaluators as aev
from reefbench.envs.services import seeding as sd
from reefbench.envs.services.attribution import PHONE
from reefbench.tasks.subtask import NearMiss, SubTask
from reefbench.tasks.task import ActionStep

# -------------------------------------------------------------- the supplier handover
ORDERS_FILE = "Purchasing/open-orders.csv"
REPS = [
    ("Nadia Bauer", "Clara Jensen"),
    ("Victor Hale", "Sofia Marin"),
    ("Rosa Lind", "Hanna Berg"),
]
SLOT_DAYS = ["2024-06-05", "2024-06-06", "2024-06-07"]


@dataclass(frozen=True)
class Handover:
    vendor: str
    domain: str
    old_rep: str
    new_rep: str
    switchboard: str
    direct: str
    orders: tuple[tuple[str, str, float, str], ...]  # (po, vendor, amount, status)
    slots: tuple[tuple[str, str], ...]  # offered (day, time); the first clashes
    clash: str  # the calendar event 15 minutes into the first slot
    after: str  # the calendar event right after a 30-minute call at the second slot

    @property
    def email(self) -> str:
        return f"{self.new_rep.split()[0].lower()}@{self.domain}"

    def open_orders(self) -> list[tuple[str, str, float, str]]:
        return [o for o in self.orders if o[1] == self.vendor and o[3] == "open"]

    @property
    def total(self) -> float:
        return round(sum(o[2] for o in self.open_orders()), 2)

    @property
    def largest(self) -> str:
        return max(self.open_orders(), key=itemgetter(2))[0]

    @property
    def subject(self) -> str:
        return f"Hello from {self.new_rep}"


def handover_case(case: str, **_: object) -> Handover:
    rng = random.Random(f"workflow-handover-{case}")
    vendors = rng.sample(VENDORS, 6)
    vendor, address = vendors[0][:2]
    old, new = rng.choice(REPS)
    numbers = rng.sample(range(30100, 39900), 27)
    mine = ("open", "open", "open", "open", "delivered", "delivered", "delivered")
    rows = [(vendor, s) for s in mine]
    rows += [
        (other, s) for other, _, _ in vendors[1:] for s in ("open", "open", "delivered", "open")
    ]
    orders = [
        (f"PO-{n}", who, rng.randint(12000, 480000) / 100, status)
        for n, (who, status) in zip(numbers, rows, strict=True)
    ]
    rng.shuffle(orders)
    first, second = rng.sample(SLOT_DAYS, 2)
    times = rng.sample(["09:30", "11:00", "14:30", "16:00"], 2)
    return Handover(
        vendor,
        address.split("@")[1],
        old,
        new,
        f"555-01{rng.randint(20, 59)}",
        f"555-01{rng.randint(60, 99)}",
        tuple(orders),
        ((first, times[0]), (second, times[1])),
        *rng.sample(["Dentist", "Quarterly review", "Call with the bank", "Team stand-up"], 2),
    )


def handover_setup(case: str, **_: object) -> list[ActionStep]:
    data = handover_case(case)
    (d1, t1), (d2, t2) = data.slots
    new_first = data.new_rep.split()[0]
    rows = ["po,vendor,amount_eur,status"] + [
        f"{po},{vendor},{money(amount)},{status}" for po, vendor, amount, status in data.orders
    ]
    return [
        account(sd.add_file(path=ORDERS_FILE, content="\n".join(rows) + "\n")),
        account(sd.add_event(title=data.clash, date=d1, start=shift(t1, 15), end=shift(t1, 75))),
        account(sd.add_event(title=data.after, date=d2, start=shift(t2, 30), end=shift(t2, 90))),
        account(
            sd.add_mail(
                sender=f"{data.old_rep.split()[0].lower()}@{data.domain}",
                subject="Handing over your account",
                body=f"Dear Alex,\n\nI'm leaving {data.vendor} at the end of this week. My "
                f"colleague {data.new_rep} takes over your account: {data.email}, phone "
                f"{data.switchboard}.\n\nIt was a pleasure,\n{data.old_rep}",
                date="2024-05-30T14:20",
            )
        ),
        account(
            sd.add_mail(
                sender=data.email,
                subject=data.subject,
                body=f"Dear Alex,\n\nI'm taking over your account from {data.old_rep}. One "
                f"correction: {data.switchboard} is our switchboard; my direct line is "
                f"{data.direct}.\n\nCould we have a 30-minute introduction call? I could do "
                f"{long_day(d1)} at {t1} or {long_day(d2)} at {t2}.\n\nBest,\n{new_first}",
                date="2024-06-01T10:02",
            )
        ),
    ]


def handover_checkpoints(case: str, **_: object) -> list[Evaluator]:
    data = handover_case(case)
    day, start = data.slots[1]
    busy_day, busy_start = data.slots[0]
    title = f"Intro call with {data.new_rep}"
    others = [o[0] for o in data.orders if o not in data.open_orders()]
    return [
        aev.contact_has(by=PHONE, name=data.new_rep, field="phone", value=data.direct),
        reply_states(
            [f"Re: {data.subject}"],
            data.email,
            facts=[*(o[0] for o in data.open_orders()), said(amount_spellings(data.total))],
            forbidden=others,
        ),
        # The call at the free time, and none left at the busy one (booked "to be safe").
        aev.event_spans(title=title, date=day, time=start, end=shift(start, 30))
        & ~aev.event_exists(title=title, date=busy_day, time=busy_start),
        text_states_all(data.direct, [[data.largest]]),
    ]


def _handover(
    data: Handover,
    number: str = "",
    orders: list[tuple[str, str, float, str]] | None = None,
    slot: tuple[str, str] | None = None,
    text: bool = True,
    minutes: int = 30,
    both: bool = False,
) -> list[ActionCall]:
    chosen = orders if orders is not None else data.open_orders()
    total = money(round(sum(o[2] for o in chosen), 2))
    listed = "\n".join(f"{po}: EUR {money(amount)}" for po, _, amount, _ in chosen)
    day, start = slot or data.slots[1]
    steps = [
        *open_mail("Handing over your account"),
        *open_file(ORDERS_FILE),
        *contact_on_phone(data.new_rep, number or data.direct),
        *reply(
            data.subject,
            f"Dear {data.new_rep.split()[0]},\n\nwelcome! Our open orders with you:\n{listed}\n"
            f"Total: EUR {total}\n\nLet's talk on {long_day(day)} at {start}.\n",
        ),
        *event_in_browser(f"Intro call with {data.new_rep}", day, start, minutes=minutes),
    ]
    if both:
        steps += event_in_browser(f"Intro call with {data.new_rep}", *data.slots[0], minutes=30)
    if text:
        largest = max(chosen, key=itemgetter(2))[0]
        steps += text_from_phone(
            number or data.direct, f"Hi, it's Alex. Could you check {largest} first?"
        )
    return steps


def handover_solution(case: str, **_: object) -> list[ActionCall]:
    return _handover(handover_case(case))


def handover_switchboard(case: str, **_: object) -> list[ActionCall]:
    data = handover_case(case)
    return _handover(data, number=data.switchboard)


def handover_with_delivered(case: str, **_: object) -> list[ActionCall]:
    data = handover_case(case)
    return _handover(data, orders=[o for o in data.orders if o[1] == data.vendor])


def handover_clashing_slot(case: str, **_: object) -> list[ActionCall]:
    data = handover_case(case)
    return _handover(data, slot=data.slots[0])


def handover_both_slots(case: str, **_: object) -> list[ActionCall]:
    return _handover(handover_case(case), both=True)


def handover_hour_long(case: str, **_: object) -> list[ActionCall]:
    return _handover(handover_case(case), minutes=60)


def handover_no_text(case: str, **_: object) -> list[ActionCall]:
    return _handover(handover_case(case), text=False)


def handover_allowances(case: str, **_: object) -> list[str]:
    return messages_to(handover_case(case).direct)


SUPPLIER_HANDOVER = SubTask(
    id="workflow.supplier_handover",
    description="Our account manager at {vendor} is handing over to {new_rep} (see the "
    "browser's Mail). Add {new_rep} to the phone's contacts with her direct number; reply "
    "to her mail with the order numbers of all our open orders with {vendor} and their "
    f"total amount in EUR (the list is {ORDERS_FILE} in the browser's Files); book the "
    'intro call she proposes in my calendar as "Intro call with {new_rep}", at the one of '
    "her times at which the whole call, as long as she asks for, fits in my calendar; and "
    "text her direct number from the phone which of those open orders is the largest, so "
    "she checks it first.",
    attributes={"case": "str", "vendor": "name", "new_rep": "name"},
    outputs=["contact", "mail", "event", "message"],
    env="browser",
    app="mail",
    app_category="communication",
    intents=[WORKFLOW_INTENT],
    value_records=[
        {"case": c, "vendor": handover_case(c).vendor, "new_rep": handover_case(c).new_rep}
        for c in CASES
    ],
    setup_generator=handover_setup,
    evaluator_generator=handover_checkpoints,
    solution_generator=handover_solution,
    allowances=handover_allowances,
    near_misses=[
        NearMiss("saves and texts the switchboard number", solution=handover_switchboard),
        NearMiss("lists the delivered orders too", solution=handover_with_delivered),
        NearMiss("books the slot the calendar rules out", solution=handover_clashing_slot),
        NearMiss("books the 30-minute call for an hour", solution=handover_hour_long),
        NearMiss("books the call at both her times", solution=handover_both_slots),
        NearMiss("stops before the text", solution=handover_no_text),
    ],
)
