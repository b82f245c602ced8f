"""reef-v2's long workflow :data:`TRIP_PICKUP` (medium, family 7): a booked flight was
rescheduled twice by later mails; the flight goes into the calendar at its latest
departure, the latest arrival is texted from the phone to the driver whose number the
host's mails give (a later one names another driver than the first) and told in a reply
to the host, and the booking reference is kept in a note on the phone.

Near misses: the schedule as booked, the first change instead of the second, the
departure time texted as the arrival, the driver first named, and a chain that stops
short.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.benchmark.templates.workflow import (
    CASES,
    WORKFLOW_INTENT,
    account,
    event_in_browser,
    long_day,
    messages_to,
    note_lists,
    note_on_phone,
    open_mail,
    reply,
    reply_states,
    said,
    shift,
    text_from_phone,
    text_states_all,
    time_spellings,
)
from reefbench.envs.services import evaluators as aev
from reefbench.envs.services import seeding as sd
from reefbench.tasks.subtask import NearMiss, SubTask
from reefbench.tasks.task import ActionStep

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
    driver: tuple[str, str]  # named in the host's first mail
    relief: tuple[str, str]  # who meets the user instead, says the host's later mail

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
        *rng.sample(DRIVERS, 2),
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
            f"Flight {data.flight}, {long_day(data.day)}\nDeparts {dep}, arrives "
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
            f"{long_day(data.day)} has changed. New times: departs {mid_dep}, arrives "
            f"{data.city} {mid_arr} (local time). Your booking stays valid.\n\nSkyways",
            "2024-05-30T07:44",
        ),
        (
            host_mail,
            f"Re: {data.host_subject}",
            f"Hello Alex,\n\none change on our side: {driver} is off that day, so "
            f"{data.relief[0]} will meet you instead. Please text {data.relief[0]} at "
            f"{data.relief[1]} rather than {driver}.\n\nBest regards,\n{host}",
            "2024-05-31T16:20",
        ),
        (
            "bookings@skyways.example.com",
            f"Further schedule change for booking {data.booking}",
            f"Dear passenger,\n\nwe are sorry: the schedule of your flight {data.flight} on "
            f"{long_day(data.day)} has changed again and replaces our last notice. New "
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
        text_states_all(data.relief[1], [data.flight_spellings, time_spellings(new_arr)]),
        reply_states(
            [f"Re: {data.host_subject}"],
            data.host[1],
            facts=[said(time_spellings(new_arr))],
        ),
        note_lists(f"Trip to {data.city}", [data.booking]),
    ]


def _trip(
    data: Trip,
    times: tuple[str, str] | None = None,
    texted: str = "",
    note: bool = True,
    driver: str = "",
) -> list[ActionCall]:
    dep, arr = times or data.new
    steps = [
        *open_mail(f"Further schedule change for booking {data.booking}"),
        *event_in_browser(f"Flight {data.flight}", data.day, dep, minutes=90),
        *text_from_phone(
            driver or data.relief[1],
            f"Hi, this is Alex: flight {data.flight}, arriving {texted or arr}.",
        ),
        *reply(f"Re: {data.host_subject}", f"Hello,\n\nthank you! I arrive at {arr}.\n"),
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


def trip_first_driver(case: str, **_: object) -> list[ActionCall]:
    data = trip_case(case)
    return _trip(data, driver=data.driver[1])


def trip_no_note(case: str, **_: object) -> list[ActionCall]:
    return _trip(trip_case(case), note=False)


def trip_allowances(case: str, **_: object) -> list[str]:
    """The event under either spelling of the flight number; the text to the driver."""
    data = trip_case(case)
    return [
        f"account|events:flight {data.flight.replace(' ', '').casefold()}",
        *messages_to(data.relief[1]),
    ]


TRIP_PICKUP = SubTask(
    id="workflow.trip_pickup",
    description="I'm flying to {city} for my visit to {host}. Using my flight's details "
    "from the browser's Mail (mind any later changes), put the flight in my calendar at "
    'its departure time, titled "Flight" and the flight number (like "Flight AB 123"), '
    "do what {host}'s mails about "
    "the visit ask (the text from the phone), and keep the booking reference in a new "
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
        NearMiss("texts the driver the host first named", solution=trip_first_driver),
        NearMiss("stops before the note", solution=trip_no_note),
    ],
)
