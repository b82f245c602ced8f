"""reef-v2's long workflow :data:`LUNCH_ORDER` (hard, family 7): a thread of replies says
who comes to a team lunch (latest reply counts, two people change their minds); the order
goes to the caterer at the price of their updated quote, the total is texted to the person
paying (named by role only: their contact's note has it), the guests are listed in a note
on the phone, and the lunch put in the calendar at the delivery time finally agreed (the
user asked for another time than the quote's, and the caterer accepted in a later mail).

Near misses: the superseded quote, the quote's delivery time instead of the agreed one, a
changed mind missed, a contact with another role texted, and a chain that stops short.
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
YES = [
    "Yes please, I'll be there.",
    "I'm in.",
    "Count me in, thanks!",
    "Sounds great, see you then.",
]


@dataclass(frozen=True)
class Lunch:
    organiser: tuple[str, str]
    payer: str
    caterer: tuple[str, str]
    coming: tuple[str, ...]  # first names, the organiser's included
    dropped: str  # said yes, then no
    joined: str  # said no, then yes
    declined: str  # said no
    old_price: float
    price: float
    old_time: str
    quoted_time: str  # the updated quote's delivery time
    time: str  # the time asked for in reply, which the caterer then accepted
    roles: tuple[tuple[str, str], ...]  # (contact, role); the payer's role is the first

    @property
    def total(self) -> float:
        return round(len(self.coming) * self.price, 2)

    @property
    def quote_subject(self) -> str:
        return f"Updated quote: team lunch {LUNCH_DAY}"


def lunch_case(case: str, **_: object) -> Lunch:
    rng = random.Random(f"workflow-lunch-{case}")
    people = rng.sample(COLLEAGUES, 4 + rng.randint(1, 4))
    organiser = people[0]
    firsts = [p[0].split()[0] for p in people]
    dropped, joined, declined = firsts[1], firsts[2], firsts[3]
    coming = (firsts[0], joined, *firsts[4:])
    payer, *others = (p[0] for p in rng.sample(PHONE_PEOPLE, 3))
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
        old,
        round(old + rng.choice([0.6, 0.85, 1.1, 1.4]), 2),
        times[0],
        times[1],
        times[2],
        tuple(zip([payer, *others], roles, strict=True)),
    )


def lunch_setup(case: str, **_: object) -> list[ActionStep]:
    data = lunch_case(case)
    org_name, org_mail = data.organiser
    org = org_name.split()[0]
    by_first = {p[0].split()[0]: p[1] for p in COLLEAGUES}
    payer_role = data.roles[0][1].lower()
    replies = [
        (data.dropped, "Count me in!"),
        (data.joined, "Sorry, I can't make it on Friday."),
        (data.declined, "I'll have to skip this one, sorry."),
        *((first, YES[n % len(YES)]) for n, first in enumerate(data.coming[2:])),
        (data.joined, "Good news, my call moved: I can come after all."),
        (data.dropped, "Something came up on Friday, so I won't make it after all. Sorry!"),
    ]
    caterer, caterer_mail = data.caterer
    steps = [
        *(
            account(sd.add_contact(name=name, phone=phone_number(name), notes=role))
            for name, role in data.roles
        ),
        account(
            sd.add_mail(
                sender=org_mail,
                subject="Team lunch on Friday",
                body=f"Hi all,\n\nlet's have lunch together in the office on Friday "
                f"{LUNCH_DAY}. Reply to say whether you're coming. I'm coming, of course.\n\n"
                f"(To whoever orders: our {payer_role} pays with the company card, so please "
                "text them the total.)\n\n" + org,
                date="2024-05-29T09:10",
            )
        ),
    ]
    for n, (first, text) in enumerate(replies):
        steps.append(
            account(
                sd.add_mail(
                    sender=by_first[first],
                    subject="Re: Team lunch on Friday",
                    body=f"{text}\n\n{first}",
                    date=f"2024-05-{29 + n // 4:02d}T{10 + n:02d}:{7 * n + 3:02d}",
                )
            )
        )
    for subject, price, at, when in (
        (f"Quote: team lunch {LUNCH_DAY}", data.old_price, data.old_time, "2024-05-28T15:00"),
        (data.quote_subject, data.price, data.quoted_time, "2024-06-01T09:30"),
    ):
        body = (
            f"Hello,\n\nthank you for your enquiry. Our lunch buffet costs EUR {money(price)} "
            f"per person, delivered to your office on {LUNCH_DAY} at {at}. Reply to this mail "
            f"with the number of people to confirm.\n\n{caterer}"
        )
        if price == data.price:
            body = "Our prices have changed since our last quote, sorry.\n\n" + body
        steps.append(
            account(sd.add_mail(sender=caterer_mail, subject=subject, body=body, date=when))
        )
    # The delivery time is then moved: asked for in a reply, accepted the next day.
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
    ]
    return steps


def lunch_checkpoints(case: str, **_: object) -> list[Evaluator]:
    data = lunch_case(case)
    caterer_mail = data.caterer[1]
    total = amount_spellings(data.total)
    return [
        reply_states(
            [f"Re: {data.quote_subject}", f"Re: Quote: team lunch {LUNCH_DAY}"],
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
    price: float | None = None,
    time: str = "",
    event: bool = True,
    payer: str = "",
) -> list[ActionCall]:
    guests = coming or data.coming
    total = money(round(len(guests) * (price or data.price), 2))
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
    return _lunch(data, price=data.old_price, time=data.old_time)


def lunch_counts_dropout(case: str, **_: object) -> list[ActionCall]:
    data = lunch_case(case)
    return _lunch(data, coming=(*data.coming, data.dropped))


def lunch_misses_late_yes(case: str, **_: object) -> list[ActionCall]:
    data = lunch_case(case)
    return _lunch(data, coming=tuple(p for p in data.coming if p != data.joined))


def lunch_quoted_time(case: str, **_: object) -> list[ActionCall]:
    data = lunch_case(case)
    return _lunch(data, time=data.quoted_time)


def lunch_wrong_payer(case: str, **_: object) -> list[ActionCall]:
    data = lunch_case(case)
    return _lunch(data, payer=data.roles[1][0])


def lunch_no_event(case: str, **_: object) -> list[ActionCall]:
    return _lunch(lunch_case(case), event=False)


def lunch_allowances(case: str, **_: object) -> list[str]:
    data = lunch_case(case)
    return messages_to(data.payer, phone_number(data.payer))


LUNCH_ORDER = SubTask(
    id="workflow.lunch_order",
    description="I'm ordering Friday's team lunch that {organiser} organised. From the "
    "replies to {organiser}'s mail \"Team lunch on Friday\" in the browser's Mail (each "
    "person's latest reply counts, and {organiser} comes too), work out who is coming. "
    "Then reply to {caterer}'s latest quote with the number of people and the total price, "
    "text that total from the phone to the person paying (the mail names their role; "
    "Contacts say who has it), write the names of everyone coming into a new note titled "
    f'"{NOTE_TITLE}" on the phone, and put the lunch into the calendar as "{NOTE_TITLE}" '
    "at the delivery time finally agreed with {caterer}.",
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
        NearMiss("books the quote's time, not the one agreed after", solution=lunch_quoted_time),
        NearMiss("texts the contact with another role", solution=lunch_wrong_payer),
        NearMiss("stops before the calendar event", solution=lunch_no_event),
    ],
)
