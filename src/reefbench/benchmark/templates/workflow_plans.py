"""Long workflows about plans and people (reef-v2, family 7): a time, a number or a name
is found in the mail, Files or a note and travels on to the calendar, the phone's
contacts, notes and messages, and a reply.

* :data:`TRIP_PICKUP` (medium): a booked flight was rescheduled by a later mail; the
  flight goes into the calendar at its new departure, the new arrival is texted from the
  phone to the driver whose number the host's mail gives and told in a reply to the
  host, and the booking reference is kept in a note on the phone.
* :data:`SUPPLIER_HANDOVER` (hard): a supplier's rep hands over to a colleague, whose own
  mail corrects the number given for her; she goes into the phone's contacts with her
  direct line, gets a reply listing the supplier's open orders (from a list in Files) and
  their total, an intro call at the one slot she offered that the calendar leaves free,
  and a text naming the largest open order.
* :data:`MINUTES_FOLLOW_UP` (hard): a meeting's minutes in Notes give the user four
  action items whose content is elsewhere: a budget total from the latest revision in
  Files, the next meeting two weeks on at the same time as the calendar's, a to-do due
  the day before it, and a head count of the confirmed replies in a file, texted.

Near misses: the superseded schedule or number, the departure time for the arrival, the
delivered orders counted, the offered slot the calendar rules out, the older budget
revision, the meeting a week on, the to-do due on the meeting's day, "maybe" counted as
yes, and a chain that stops short.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date as Date
from datetime import timedelta

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.benchmark.templates.common import PEOPLE as PHONE_PEOPLE
from reefbench.benchmark.templates.reasoning import VENDORS, money
from reefbench.benchmark.templates.workflow import (
    CASES,
    WORKFLOW_INTENT,
    account,
    amount_spellings,
    contact_on_phone,
    event_in_browser,
    messages_to,
    note_lists,
    note_on_phone,
    open_file,
    open_mail,
    reply,
    reply_states,
    said,
    shift,
    text_from_phone,
    text_states,
    text_states_all,
    time_spellings,
    todo_in_browser,
)
from reefbench.envs.services import evaluators as aev
from reefbench.envs.services import seeding as sd
from reefbench.envs.services.attribution import PHONE
from reefbench.tasks.subtask import NearMiss, SubTask
from reefbench.tasks.task import ActionStep


def _long_day(iso: str) -> str:
    d = Date.fromisoformat(iso)
    return f"{d.strftime('%A')} {d.day} {d.strftime('%B')}"


# ------------------------------------------------------------------ the trip pickup
CITIES = ["Lisbon", "Vienna", "Copenhagen", "Dublin", "Prague", "Milan", "Helsinki", "Porto"]
AIRLINES = ["RB", "NX", "QA", "TL"]
HOSTS = [
    ("Ines Costa", "ines.costa@costa-partners.example.com"),
    ("Jonas Weber", "jonas.weber@weber-group.example.com"),
    ("Greta Lind", "greta.lind@lindco.example.com"),
]
DRIVERS = [
    ("Paulo", "555-0147"),
    ("Mirela", "555-0163"),
    ("Sven", "555-0178"),
    ("Aoife", "555-0182"),
]


@dataclass(frozen=True)
class Trip:
    city: str
    flight: str  # "RB 2417"
    day: str
    old: tuple[str, str]  # (departure, arrival) as booked
    mid: tuple[str, str]  # after the first schedule change
    new: tuple[str, str]  # after the second
    booking: str
    host: tuple[str, str]
    driver: tuple[str, str]

    @property
    def flight_spellings(self) -> list[str]:
        return [self.flight, self.flight.replace(" ", "")]

    @property
    def host_subject(self) -> str:
        return f"Your visit to {self.city}"


def trip_case(case: str, **_: object) -> Trip:
    rng = random.Random(f"workflow-trip-{case}")
    dep = f"{rng.randint(6, 10):02d}:{rng.choice(['05', '20', '35', '50'])}"
    length = rng.randint(95, 170)
    later = rng.choice([75, 95, 110, 130])
    mid_dep = shift(dep, later)
    new_dep = shift(mid_dep, rng.choice([-50, -35, 40, 55]))
    booking = "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ") for _ in range(6))
    return Trip(
        CITIES[int(case) % len(CITIES)],
        f"{rng.choice(AIRLINES)} {rng.randint(1100, 8900)}",
        f"2024-06-{rng.randint(10, 14)}",
        (dep, shift(dep, length)),
        (mid_dep, shift(mid_dep, length)),
        (new_dep, shift(new_dep, length)),
        booking,
        rng.choice(HOSTS),
        rng.choice(DRIVERS),
    )


def trip_setup(case: str, **_: object) -> list[ActionStep]:
    data = trip_case(case)
    (dep, arr), (mid_dep, mid_arr), (new_dep, new_arr) = data.old, data.mid, data.new
    host, host_mail = data.host
    driver, number = data.driver
    mails = [
        (
            "bookings@skyways.example.com",
            f"Booking confirmation {data.booking}",
            f"Thank you for booking with Skyways.\n\nBooking reference: {data.booking}\n"
            f"Flight {data.flight}, {_long_day(data.day)}\nDeparts {dep}, arrives "
            f"{data.city} {arr} (local time)\n",
            "2024-05-20T18:02",
        ),
        (
            host_mail,
            data.host_subject,
            f"Hello Alex,\n\nwe look forward to your visit. {driver}, our driver, will meet "
            f"you at arrivals: please text {driver} your flight number and arrival time at "
            f"{number}, and reply to me with your arrival time too.\n\nBest regards,\n{host}",
            "2024-05-27T11:15",
        ),
        (
            "bookings@skyways.example.com",
            f"Schedule change for booking {data.booking}",
            f"Dear passenger,\n\nthe schedule of your flight {data.flight} on "
            f"{_long_day(data.day)} has changed. New times: departs {mid_dep}, arrives "
            f"{data.city} {mid_arr} (local time). Your booking stays valid.\n\nSkyways",
            "2024-05-30T07:44",
        ),
        (
            "bookings@skyways.example.com",
            f"Further schedule change for booking {data.booking}",
            f"Dear passenger,\n\nwe are sorry: the schedule of your flight {data.flight} on "
            f"{_long_day(data.day)} has changed again and replaces our last notice. New "
            f"times: departs {new_dep}, arrives {data.city} {new_arr} (local time).\n\n"
            "Skyways",
            "2024-06-01T07:44",
        ),
    ]
    return [
        account(sd.add_mail(sender=s, subject=subj, body=body, date=when))
        for s, subj, body, when in mails
    ]


def trip_checkpoints(case: str, **_: object) -> list[Evaluator]:
    data = trip_case(case)
    new_dep, new_arr = data.new
    return [
        aev.event_exists(title=f"Flight {data.flight}", date=data.day, time=new_dep)
        | aev.event_exists(
            title=f"Flight {data.flight.replace(' ', '')}", date=data.day, time=new_dep
        ),
        text_states_all(data.driver[1], [data.flight_spellings, time_spellings(new_arr)]),
        reply_states(
            [f"Re: {data.host_subject}"],
            data.host[1],
            facts=[said(time_spellings(new_arr))],
        ),
        note_lists(f"Trip to {data.city}", [data.booking]),
    ]


def _trip(
    data: Trip, times: tuple[str, str] | None = None, texted: str = "", note: bool = True
) -> list[ActionCall]:
    dep, arr = times or data.new
    steps = [
        *open_mail(f"Further schedule change for booking {data.booking}"),
        *event_in_browser(f"Flight {data.flight}", data.day, dep, minutes=90),
        *text_from_phone(
            data.driver[1], f"Hi, this is Alex: flight {data.flight}, arriving {texted or arr}."
        ),
        *reply(data.host_subject, f"Hello,\n\nthank you! I arrive at {arr}.\n"),
    ]
    if note:
        steps += note_on_phone(f"Trip to {data.city}", f"Booking reference {data.booking}")
    return steps


def trip_solution(case: str, **_: object) -> list[ActionCall]:
    return _trip(trip_case(case))


def trip_old_schedule(case: str, **_: object) -> list[ActionCall]:
    data = trip_case(case)
    return _trip(data, times=data.old)


def trip_first_change(case: str, **_: object) -> list[ActionCall]:
    data = trip_case(case)
    return _trip(data, times=data.mid)


def trip_texts_departure(case: str, **_: object) -> list[ActionCall]:
    data = trip_case(case)
    return _trip(data, texted=data.new[0])


def trip_no_note(case: str, **_: object) -> list[ActionCall]:
    return _trip(trip_case(case), note=False)


def trip_allowances(case: str, **_: object) -> list[str]:
    """The event under either spelling of the flight number; the text to the driver."""
    data = trip_case(case)
    return [
        f"account|events:flight {data.flight.replace(' ', '').casefold()}",
        *messages_to(data.driver[1]),
    ]


TRIP_PICKUP = SubTask(
    id="workflow.trip_pickup",
    description="I'm flying to {city} for my visit to {host}. Using my flight's details "
    "from the browser's Mail (mind any later changes), put the flight in my calendar at "
    'its departure time, titled "Flight" and the flight number (like "Flight AB 123"), '
    "do what {host}'s mail about "
    "the visit asks (the text from the phone), and keep the booking reference in a new "
    'note on the phone titled "Trip to {city}".',
    attributes={"case": "str", "city": "name", "host": "name"},
    outputs=["event", "message", "mail", "note"],
    env="browser",
    app="mail",
    app_category="communication",
    intents=[WORKFLOW_INTENT],
    value_records=[
        {"case": c, "city": trip_case(c).city, "host": trip_case(c).host[0]} for c in CASES
    ],
    setup_generator=trip_setup,
    evaluator_generator=trip_checkpoints,
    solution_generator=trip_solution,
    allowances=trip_allowances,
    near_misses=[
        NearMiss("follows the schedule before the change", solution=trip_old_schedule),
        NearMiss("follows the first change, not the second", solution=trip_first_change),
        NearMiss("texts the departure time as the arrival", solution=trip_texts_departure),
        NearMiss("stops before the note", solution=trip_no_note),
    ],
)


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
        return max(self.open_orders(), key=lambda o: o[2])[0]

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
                f"{_long_day(d1)} at {t1} or {_long_day(d2)} at {t2}.\n\nBest,\n{new_first}",
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
        aev.event_exists(title=title, date=day, time=start, end=shift(start, 30))
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
            f"Total: EUR {total}\n\nLet's talk on {_long_day(day)} at {start}.\n",
        ),
        *event_in_browser(f"Intro call with {data.new_rep}", day, start, minutes=minutes),
    ]
    if both:
        steps += event_in_browser(f"Intro call with {data.new_rep}", *data.slots[0], minutes=30)
    if text:
        largest = max(chosen, key=lambda o: o[2])[0]
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


# ------------------------------------------------------------------ the minutes
BUDGET_ROWS = ["Venue", "Catering", "Travel", "Equipment", "Speakers", "Printing"]
CLIENTS = [
    ("Liam Byrne", "liam.byrne@northwind.example.com"),
    ("Elif Kaya", "elif.kaya@bluepeak.example.com"),
    ("Hiro Tanaka", "hiro.tanaka@tanaka-design.example.com"),
]
GUESTS = [
    "Ana", "Ben", "Chloe", "Dev", "Femi", "Greta", "Ines", "Jonas", "Liam", "Mara", "Nils",
    "Olga", "Pia", "Rui", "Sami", "Tess",
]  # fmt: skip
SYNC_DAY = "2024-05-27"  # a Monday: the day before the next sync is a Sunday


@dataclass(frozen=True)
class Minutes:
    client: tuple[str, str]
    colleague: str  # who books the venue and gets the head count
    time: str  # of the sync
    length: int  # minutes; the next sync lasts as long
    rev1: tuple[float, ...]
    rev2: tuple[float, ...]
    replies: tuple[tuple[str, str], ...]  # (guest, yes/no/maybe)

    @property
    def next_sync(self) -> str:
        return (Date.fromisoformat(SYNC_DAY) + timedelta(days=14)).isoformat()

    @property
    def end(self) -> str:
        return shift(self.time, self.length)

    @property
    def day_before(self) -> str:
        return (Date.fromisoformat(self.next_sync) - timedelta(days=1)).isoformat()

    @property
    def report_due(self) -> str:
        """The last working day before the next sync (a Monday): the Friday."""
        return (Date.fromisoformat(self.next_sync) - timedelta(days=3)).isoformat()

    @property
    def confirmed(self) -> int:
        return sum(1 for _, answer in self.replies if answer == "yes")

    @property
    def maybes(self) -> int:
        return sum(1 for _, answer in self.replies if answer == "maybe")


def minutes_case(case: str, **_: object) -> Minutes:
    rng = random.Random(f"workflow-minutes-{case}")
    rev1 = tuple(rng.randint(50000, 900000) / 100 for _ in BUDGET_ROWS)
    rev2 = tuple(
        round(v + rng.choice([-1, 1]) * rng.randint(2000, 40000) / 100, 2) if k % 2 else v
        for k, v in enumerate(rev1)
    )
    guests = rng.sample(GUESTS, 11)
    yes = rng.randint(4, 7)
    answers = ["yes"] * yes + ["no"] * (8 - yes) + ["maybe"] * 3
    rng.shuffle(answers)
    return Minutes(
        rng.choice(CLIENTS),
        rng.choice(PHONE_PEOPLE[:8])[0],
        rng.choice(["09:30", "10:00", "11:00", "15:00"]),
        rng.choice([45, 75, 90]),
        rev1,
        rev2,
        tuple(zip(guests, answers, strict=True)),
    )


def _budget(values: tuple[float, ...]) -> str:
    return "category,amount_eur\n" + "".join(
        f"{row},{money(v)}\n" for row, v in zip(BUDGET_ROWS, values, strict=True)
    )


def minutes_setup(case: str, **_: object) -> list[ActionStep]:
    data = minutes_case(case)
    client, client_mail = data.client
    first = data.colleague.split()[0]
    number = next(n for name, n, _ in PHONE_PEOPLE if name == data.colleague)
    minutes = (
        f"Project sync, {SYNC_DAY}\n\nAction items:\n"
        f"- Alex: answer {client.split()[0]}'s budget question with the total of the latest "
        "budget revision (Budget folder in Files)\n"
        '- Alex: put the next sync in the calendar as "Project sync": two weeks after this '
        "one, same time and length\n"
        f"- {first}: book the offsite venue\n"
        f"- Alex: text {data.colleague} how many people have confirmed for the offsite "
        "(Events/offsite-replies.txt), for the venue\n"
        '- Alex: to-do "Prepare the status report", due the last working day before the '
        "next sync\n"
    )
    replies = "Offsite: who is coming\n\n" + "".join(f"{g}: {a}\n" for g, a in data.replies)
    return [
        account(sd.add_contact(name=data.colleague, phone=number)),
        account(sd.add_event(title="Project sync", date=SYNC_DAY, start=data.time, end=data.end)),
        account(sd.add_note(title=f"Minutes: project sync {SYNC_DAY}", body=minutes)),
        account(sd.add_file(path="Budget/budget-rev1.csv", content=_budget(data.rev1))),
        account(sd.add_file(path="Budget/budget-rev2.csv", content=_budget(data.rev2))),
        account(sd.add_file(path="Events/offsite-replies.txt", content=replies)),
        account(
            sd.add_mail(
                sender=client_mail,
                subject="Budget question",
                body=f"Hi Alex,\n\nwhat is the total of the project budget now, after the "
                f"latest revision?\n\nThanks,\n{client.split()[0]}",
                date="2024-05-30T16:40",
            )
        ),
    ]


def minutes_checkpoints(case: str, **_: object) -> list[Evaluator]:
    data = minutes_case(case)
    return [
        reply_states(
            ["Re: Budget question"],
            data.client[1],
            facts=[said(amount_spellings(round(sum(data.rev2), 2)))],
        ),
        aev.event_exists(title="Project sync", date=data.next_sync, time=data.time, end=data.end),
        aev.task_exists(title="Prepare the status report", due=data.report_due),
        text_states(data.colleague, [str(data.confirmed)]),
    ]


def _minutes(
    data: Minutes,
    budget: tuple[float, ...] | None = None,
    day: str = "",
    due: str = "",
    count: int | None = None,
    text: bool = True,
    minutes: int = 0,
) -> list[ActionCall]:
    total = money(round(sum(budget or data.rev2), 2))
    steps = [
        *open_file("Budget/budget-rev2.csv"),
        *reply("Budget question", f"Hi,\n\nthe budget's total is now EUR {total}.\n"),
        *event_in_browser("Project sync", day or data.next_sync, data.time, minutes or data.length),
        *todo_in_browser("Prepare the status report", due or data.report_due),
        *open_file("Events/offsite-replies.txt"),
    ]
    if text:
        confirmed = data.confirmed if count is None else count
        steps += text_from_phone(data.colleague, f"{confirmed} people confirmed for the offsite.")
    return steps


def minutes_solution(case: str, **_: object) -> list[ActionCall]:
    return _minutes(minutes_case(case))


def minutes_old_budget(case: str, **_: object) -> list[ActionCall]:
    data = minutes_case(case)
    return _minutes(data, budget=data.rev1)


def minutes_one_week(case: str, **_: object) -> list[ActionCall]:
    data = minutes_case(case)
    return _minutes(data, day=(Date.fromisoformat(SYNC_DAY) + timedelta(days=7)).isoformat())


def minutes_due_on_sync(case: str, **_: object) -> list[ActionCall]:
    data = minutes_case(case)
    return _minutes(data, due=data.next_sync)


def minutes_due_on_sunday(case: str, **_: object) -> list[ActionCall]:
    data = minutes_case(case)
    return _minutes(data, due=data.day_before)


def minutes_hour_long(case: str, **_: object) -> list[ActionCall]:
    return _minutes(minutes_case(case), minutes=60)


def minutes_counts_maybes(case: str, **_: object) -> list[ActionCall]:
    data = minutes_case(case)
    return _minutes(data, count=data.confirmed + data.maybes)


def minutes_no_text(case: str, **_: object) -> list[ActionCall]:
    return _minutes(minutes_case(case), text=False)


def minutes_allowances(case: str, **_: object) -> list[str]:
    data = minutes_case(case)
    return messages_to(data.colleague, next(n for p, n, _ in PHONE_PEOPLE if p == data.colleague))


MINUTES_FOLLOW_UP = SubTask(
    id="workflow.minutes_follow_up",
    description="Please do my action items (I'm Alex) from the minutes of the project "
    "sync of {day} in Notes, finding what each needs in the account (the browser's Mail, "
    "Files, Calendar); texts go from the phone.",
    attributes={"case": "str", "day": "date"},
    outputs=["mail", "event", "task", "message"],
    env="browser",
    app="notes",
    app_category="productivity",
    intents=[WORKFLOW_INTENT],
    value_records=[{"case": c, "day": SYNC_DAY} for c in CASES],
    setup_generator=minutes_setup,
    evaluator_generator=minutes_checkpoints,
    solution_generator=minutes_solution,
    allowances=minutes_allowances,
    near_misses=[
        NearMiss("answers with the older budget revision's total", solution=minutes_old_budget),
        NearMiss("puts the next sync one week on", solution=minutes_one_week),
        NearMiss("makes the to-do due on the sync's day", solution=minutes_due_on_sync),
        NearMiss("makes the to-do due on the Sunday before", solution=minutes_due_on_sunday),
        NearMiss("books the next sync for an hour", solution=minutes_hour_long),
        NearMiss("counts the maybes as confirmed", solution=minutes_counts_maybes),
        NearMiss("stops before the text", solution=minutes_no_text),
    ],
)

TEMPLATES: list[SubTask] = [TRIP_PICKUP, SUPPLIER_HANDOVER, MINUTES_FOLLOW_UP]
