"""reef-v2's long workflow :data:`LUNCH_ORDER` (hard, family 7): a thread of replies says
who comes to a team lunch (latest reply counts: two people change their minds, one is
spoken for by a colleague, one brings a guest); the order goes to the caterer at the
price of their updated quote plus its delivery fee, the total is texted to the person
paying (named by role only: their contact's note has it, and another contact's note says
they held it before), the guests are listed in a note on the phone, and the lunch put in
the calendar at the delivery time finally agreed (the user asked for another time than the
quote's, the caterer accepted; a later reminder restates the price only). Playtest: the
replies were all plain yes or no and fit the inbox's preview; these are what it asked for.

Near misses: the superseded quote, the quote's delivery time instead of the agreed one, a
changed mind missed, the spoken-for colleague or the guest missed, the delivery fee left
out, the former role holder texted, and a chain that stops short.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.benchmark.templates.common import PEOPLE as PHONE_PEOPLE
from reefbench.benchmark.templates.reasoning import PEOPLE, money
from reefbench.benchmark.templates.workflow import (
    CASES,
    WORKFLOW_INTENT,
    account,
    amount_spellings,
    event_in_browser,
    messages_to,
    note_lists,
    note_on_phone,
    open_mail,
    phone_number,
    reply,
    reply_states,
    said,
    text_from_phone,
    text_states,
)
from reefbench.envs.services import evaluators as aev
from reefbench.envs.services import seeding as sd
from reefbench.tasks.subtask import NearMiss, SubTask
from reefbench.tasks.task import ActionStep

# ------------------------------------------------------------------ the lunch order
CATERERS = [
    ("Pinecrest Catering", "orders@pinecrest.example.com"),
    ("Olive & Thyme", "hello@oliveandthyme.example.com"),
    ("Green Fork Kitchen", "catering@greenfork.example.com"),
]
LUNCH_DAY = "2024-06-07"
NOTE_TITLE = "Team lunch"
# Who may be invited (first names all different, none a payer's).
COLLEAGUES = [
    *PEOPLE,
    ("Rosa Kim", "rosa.kim@example.com"),
    ("Tariq Aziz", "tariq.aziz@example.com"),
    ("Nora Quinn", "nora.quinn@example.com"),
    ("Felix Braun", "felix.braun@example.com"),
]
# The roles in Contacts' notes: the organiser names the payer by role only.
ROLES = ["Office manager", "Team assistant", "Head of facilities"]
# Visitors a colleague brings (first names unlike any colleague's or contact's).
GUESTS = ["Marta Lindholm", "Paolo Greco", "Sven Aalto", "Amara Osei"]
# Each reply opens with a sentence longer than the inbox's preview: what it says is below.
OPENERS = [
    "Thanks for organising this, it's a lovely idea after the busy spring we have had.",
    "Good to see a team lunch on the calendar again; the last one was a very long time ago.",
    "Thank you for the invitation and for taking care of it while everyone is so busy.",
]
YES = [
    "Yes please, I'll be there. Could there be something vegetarian on the buffet?",
    "I'm in. I might be ten minutes late because of the weekly sync, so start without me.",
    "Count me in, thanks! Friday is a good day for it, most of us are in the office.",
    "Sounds great, see you then. Happy to help set up the table if needed.",
]


@dataclass(frozen=True)
class Lunch:
    organiser: tuple[str, str]
    payer: str
    caterer: tuple[str, str]
    coming: tuple[str, ...]  # first names, the organiser's and the guest's included
    dropped: str  # said yes, then no
    joined: str  # said no, then yes
    declined: str  # said no
    behalf: str  # never replied; a colleague said they are coming
    host: str  # brings the guest (and speaks for ``behalf``)
    guest: str  # the guest's full name
    old_price: float
    price: float
    fee: float  # delivery per order, in the updated quote only
    old_time: str
    quoted_time: str  # the updated quote's delivery time
    time: str  # the time asked for in reply, which the caterer then accepted
    roles: tuple[tuple[str, str], ...]  # (contact, role); the payer's role is the first
    former: str  # a contact whose note says they held the payer's role before

    def total(
        self, coming: tuple[str, ...] | None = None, price: float = 0.0, fee: bool = True
    ) -> float:
        """The order's total, or what a slip makes of it."""
        heads = len(coming or self.coming)
        return round(heads * (price or self.price) + (self.fee if fee else 0.0), 2)

    @property
    def quote_subject(self) -> str:
        return f"Updated quote: team lunch {LUNCH_DAY}"


def lunch_case(case: str, **_: object) -> Lunch:
    rng = random.Random(f"workflow-lunch-{case}")
    people = rng.sample(COLLEAGUES, 6 + rng.randint(0, 3))
    organiser = people[0]
    firsts = [p[0].split()[0] for p in people]
    dropped, joined, declined, behalf, host = firsts[1:6]
    guest = rng.choice(GUESTS)
    coming = (firsts[0], joined, behalf, host, *firsts[6:], guest.split()[0])
    payer, former, *others = (p[0] for p in rng.sample(PHONE_PEOPLE, 4))
    old = rng.choice([12.5, 13.9, 14.25, 15.0])
    times = rng.sample(["12:00", "12:15", "12:30", "12:45", "13:00"], 3)
    roles = rng.sample(ROLES, 3)
    return Lunch(
        organiser,
        payer,
        rng.choice(CATERERS),
        coming,
        dropped,
        joined,
        declined,
        behalf,
        host,
        guest,
        old,
        round(old + rng.choice([0.6, 0.85, 1.1, 1.4]), 2),
        float(rng.choice([15, 18, 25, 29])),
        times[0],
        times[1],
        times[2],
        tuple(zip([payer, *others], roles, strict=True)),
        former,
    )


def _replies(data: Lunch) -> list[tuple[str, str]]:
    """(sender's first name, text) in the order they arrive."""
    visitor, org = data.guest, data.organiser[0].split()[0]
    return [
        (
            data.dropped,
            "Count me in! Looking forward to it, it has been a while since the "
            "whole team sat down together.",
        ),
        (data.joined, "Sorry, I can't make it on Friday: I have a customer call over lunch."),
        (data.declined, "I'll have to skip this one, sorry. Enjoy, and save me a dessert."),
        (
            data.host,
            f"I'm in, and I'd like to bring {visitor}, who is visiting us from our "
            f"partner office that week, if that's all right with you, {org}.",
        ),
        *((first, YES[n % len(YES)]) for n, first in enumerate(data.coming[4:-1])),
        (
            data.host,
            f"One more thing: {data.behalf} is out of office until Thursday and "
            "asked me to tell you they would love to come.",
        ),
        (data.joined, "Good news, my call moved to the afternoon: I can come after all."),
        (data.dropped, "Something came up on Friday, so I won't make it after all. Sorry!"),
    ]


def lunch_setup(case: str, **_: object) -> list[ActionStep]:
    data = lunch_case(case)
    org_name, org_mail = data.organiser
    org = org_name.split()[0]
    by_first = {p[0].split()[0]: p[1] for p in COLLEAGUES}
    role = data.roles[0][1]
    caterer, caterer_mail = data.caterer
    contacts = [*data.roles, (data.former, f"Former {role.lower()} (moved to Sales in March)")]
    steps = [
        *(
            account(sd.add_contact(name=name, phone=phone_number(name), notes=note))
            for name, note in contacts
        ),
        account(
            sd.add_mail(
                sender=org_mail,
                subject="Team lunch on Friday",
                body=f"Hi all,\n\nlet's have lunch together in the office on Friday "
                f"{LUNCH_DAY}. Reply to say whether you're coming; guests are welcome too, "
                "just say whom you bring. I'm coming, of course.\n\n(To whoever orders: our "
                f"{role.lower()} pays with the company card, so please text them the total.)"
                f"\n\n{org}",
                date="2024-05-29T09:10",
            )
        ),
    ]
    for n, (first, text) in enumerate(_replies(data)):
        steps.append(
            account(
                sd.add_mail(
                    sender=by_first[first],
                    subject="Re: Team lunch on Friday",
                    body=f"Hi {org},\n\n{OPENERS[n % len(OPENERS)]}\n\n{text}\n\n{first}",
                    date=f"2024-05-{29 + n // 4:02d}T{10 + n % 4:02d}:{(7 * n + 3) % 60:02d}",
                )
            )
        )
    for subject, price, at, when in (
        (f"Quote: team lunch {LUNCH_DAY}", data.old_price, data.old_time, "2024-05-28T15:00"),
        (data.quote_subject, data.price, data.quoted_time, "2024-06-01T09:30"),
    ):
        delivery = "Delivery is free."
        if price == data.price:
            delivery = f"Delivery costs EUR {money(data.fee)} per order."
        body = (
            f"Hello,\n\nthank you for your enquiry. Our lunch buffet costs EUR {money(price)} "
            f"per person, delivered to your office on {LUNCH_DAY} at {at}. {delivery} Reply "
            f"to this mail with the number of people to confirm.\n\n{caterer}"
        )
        if price == data.price:
            changed = "Our prices and delivery terms have changed since our last quote, sorry."
            body = f"Hello,\n\n{changed}\n\n" + body.split("Hello,\n\n", 1)[1]
        steps.append(
            account(sd.add_mail(sender=caterer_mail, subject=subject, body=body, date=when))
        )
    # The delivery time is then moved: asked for in a reply, accepted the next day; a
    # reminder after that restates the price per person only.
    steps += [
        account(
            sd.add_mail(
                sender="alex.morgan@reef.test",
                to=caterer_mail,
                subject=f"Re: {data.quote_subject}",
                body=f"Hello,\n\nthank you. Could you deliver at {data.time} instead of "
                f"{data.quoted_time}? We'll confirm the number of people soon.\n\nAlex",
                date="2024-06-01T11:05",
                folder="sent",
                read=True,
            )
        ),
        account(
            sd.add_mail(
                sender=caterer_mail,
                subject=f"Re: {data.quote_subject}",
                body=f"Hello Alex,\n\nyes, {data.time} works for us. The price stays as "
                f"quoted.\n\n{caterer}",
                date="2024-06-02T08:50",
            )
        ),
        account(
            sd.add_mail(
                sender=caterer_mail,
                subject=reminder_subject(),
                body=f"Hello,\n\na friendly reminder to confirm the number of people for "
                f"your team lunch on {LUNCH_DAY} by Wednesday noon. Our lunch buffet is EUR "
                f"{money(data.price)} per person, as quoted.\n\n{caterer}",
                date="2024-06-02T16:15",
            )
        ),
    ]
    return steps


def reminder_subject() -> str:
    return f"Reminder: team lunch {LUNCH_DAY}"


def lunch_checkpoints(case: str, **_: object) -> list[Evaluator]:
    data = lunch_case(case)
    caterer_mail = data.caterer[1]
    total = amount_spellings(data.total())
    subjects = [f"Re: {data.quote_subject}", f"Re: Quote: team lunch {LUNCH_DAY}"]
    return [
        reply_states(
            [*subjects, f"Re: {reminder_subject()}"],
            caterer_mail,
            facts=[str(len(data.coming)), said(total)],
        ),
        text_states(data.payer, total),
        note_lists(NOTE_TITLE, list(data.coming), forbidden=[data.dropped, data.declined]),
        aev.event_exists(title=NOTE_TITLE, date=LUNCH_DAY, time=data.time),
    ]


def _lunch(
    data: Lunch,
    coming: tuple[str, ...] | None = None,
    price: float = 0.0,
    fee: bool = True,
    time: str = "",
    event: bool = True,
    payer: str = "",
) -> list[ActionCall]:
    guests = coming or data.coming
    total = money(data.total(guests, price, fee))
    steps = [
        *open_mail("Team lunch on Friday"),
        *open_mail("Re: Team lunch on Friday"),
        *reply(
            data.quote_subject,
            f"Hello,\n\nwe confirm lunch for {len(guests)} people, EUR {total} in total.\n",
        ),
        *text_from_phone(payer or data.payer, f"Team lunch on Friday: EUR {total}"),
        *note_on_phone(NOTE_TITLE, ", ".join(guests)),
    ]
    if event:
        steps += event_in_browser("Team lunch", LUNCH_DAY, time or data.time)
    return steps


def lunch_solution(case: str, **_: object) -> list[ActionCall]:
    return _lunch(lunch_case(case))


def lunch_old_quote(case: str, **_: object) -> list[ActionCall]:
    data = lunch_case(case)
    return _lunch(data, price=data.old_price, fee=False, time=data.old_time)


def lunch_counts_dropout(case: str, **_: object) -> list[ActionCall]:
    data = lunch_case(case)
    return _lunch(data, coming=(*data.coming, data.dropped))


def _without(data: Lunch, first: str) -> tuple[str, ...]:
    return tuple(p for p in data.coming if p != first)


def lunch_misses_late_yes(case: str, **_: object) -> list[ActionCall]:
    data = lunch_case(case)
    return _lunch(data, coming=_without(data, data.joined))


def lunch_misses_behalf(case: str, **_: object) -> list[ActionCall]:
    data = lunch_case(case)
    return _lunch(data, coming=_without(data, data.behalf))


def lunch_misses_guest(case: str, **_: object) -> list[ActionCall]:
    data = lunch_case(case)
    return _lunch(data, coming=_without(data, data.guest.split()[0]))


def lunch_no_fee(case: str, **_: object) -> list[ActionCall]:
    return _lunch(lunch_case(case), fee=False)


def lunch_quoted_time(case: str, **_: object) -> list[ActionCall]:
    data = lunch_case(case)
    return _lunch(data, time=data.quoted_time)


def lunch_former_payer(case: str, **_: object) -> list[ActionCall]:
    data = lunch_case(case)
    return _lunch(data, payer=data.former)


def lunch_no_event(case: str, **_: object) -> list[ActionCall]:
    return _lunch(lunch_case(case), event=False)


def lunch_allowances(case: str, **_: object) -> list[str]:
    data = lunch_case(case)
    return messages_to(data.payer, phone_number(data.payer))


LUNCH_ORDER = SubTask(
    id="workflow.lunch_order",
    description="I'm ordering Friday's team lunch that {organiser} organised. From the "
    "replies to {organiser}'s mail \"Team lunch on Friday\" in the browser's Mail (each "
    "person's latest reply counts, also one a colleague sent for them; {organiser} comes "
    "too, and so does any guest a colleague brings), work out who is coming. Then reply to "
    "{caterer}'s latest quote with the number of people and the total price (its delivery "
    "fee included), text that total from the phone to the person paying (the mail names "
    "their role; Contacts say who holds it now), write the first names of everyone coming "
    f'(guests too) into a new note titled "{NOTE_TITLE}" on the phone, and put the lunch '
    f'into the calendar as "{NOTE_TITLE}" at the delivery time finally agreed with '
    "{caterer}.",
    attributes={"case": "str", "organiser": "name", "caterer": "name"},
    outputs=["mail", "message", "note", "event"],
    env="browser",
    app="mail",
    app_category="communication",
    intents=[WORKFLOW_INTENT],
    value_records=[
        {
            "case": c,
            "organiser": lunch_case(c).organiser[0].split()[0],
            "caterer": lunch_case(c).caterer[0],
        }
        for c in CASES
    ],
    setup_generator=lunch_setup,
    evaluator_generator=lunch_checkpoints,
    solution_generator=lunch_solution,
    allowances=lunch_allowances,
    near_misses=[
        NearMiss("orders at the superseded quote's price and time", solution=lunch_old_quote),
        NearMiss("counts someone who cancelled", solution=lunch_counts_dropout),
        NearMiss("misses someone who said yes late", solution=lunch_misses_late_yes),
        NearMiss("misses the colleague another replied for", solution=lunch_misses_behalf),
        NearMiss("misses the guest a colleague brings", solution=lunch_misses_guest),
        NearMiss("leaves out the delivery fee", solution=lunch_no_fee),
        NearMiss("books the quote's time, not the one agreed after", solution=lunch_quoted_time),
        NearMiss("texts the former holder of the payer's role", solution=lunch_former_payer),
        NearMiss("stops before the calendar event", solution=lunch_no_event),
    ],
)
