"""reef-v2's long workflow :data:`MINUTES_FOLLOW_UP` (hard, family 7): a Monday meeting's
minutes in Notes give the user four action items whose content is elsewhere: a budget
total from the latest revision in Files, the next meeting two weeks on at the same time
and for the same (not an hour's) length as the calendar's, a to-do due the last working
day before it (the Friday: the day before is a Sunday), and a head count of the confirmed
replies in a file of some thirty replies (longer than the page shows unscrolled), texted.

Near misses: the older budget revision, the meeting a week on, an hour-long meeting, the
to-do due on the meeting's day or on the Sunday, "maybe" counted as yes, the yeses shown
unscrolled only, and a chain that stops short.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date as Date
from datetime import timedelta

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.benchmark.templates.common import PEOPLE as PHONE_PEOPLE
from reefbench.benchmark.templates.reasoning import money
from reefbench.benchmark.templates.workflow import (
    CASES,
    WORKFLOW_INTENT,
    account,
    amount_spellings,
    event_in_browser,
    messages_to,
    open_file,
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

# ------------------------------------------------------------------ the minutes
BUDGET_ROWS = ["Venue", "Catering", "Travel", "Equipment", "Speakers", "Printing"]
CLIENTS = [
    ("Liam Byrne", "liam.byrne@northwind.example.com"),
    ("Elif Kaya", "elif.kaya@bluepeak.example.com"),
    ("Hiro Tanaka", "hiro.tanaka@tanaka-design.example.com"),
]
GUESTS = [
    "Ana", "Ben", "Chloe", "Dev", "Femi", "Greta", "Ines", "Jonas", "Liam", "Mara", "Nils",
    "Olga", "Pia", "Rui", "Sami", "Tess", "Uma", "Vik", "Wen", "Yara", "Zoe", "Aldo", "Bea",
    "Cem", "Dara", "Emil", "Fay", "Gus", "Hana", "Ivo", "Jade", "Kai", "Lena", "Milo",
    "Nia", "Omar", "Pavel", "Quinn", "Rhea", "Stan", "Tomas", "Ugo",
]  # fmt: skip
# The replies file's textarea in Files shows this many lines (its title, a blank line and
# ten replies): the file runs longer, and its visible yeses alone undercount.
SHOWN_ROWS = 12
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
    guests = rng.sample(GUESTS, 34)
    yes = rng.randint(14, 21)
    answers = ["yes"] * yes + ["no"] * (29 - yes) + ["maybe"] * 5
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
    number = phone_number(data.colleague)
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
        aev.event_spans(title="Project sync", date=data.next_sync, time=data.time, end=data.end),
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


def minutes_visible_rows(case: str, **_: object) -> list[ActionCall]:
    """Counts the yeses among the replies the Files page shows before scrolling."""
    data = minutes_case(case)
    shown = data.replies[: SHOWN_ROWS - 2]
    return _minutes(data, count=sum(1 for _, answer in shown if answer == "yes"))


def minutes_counts_maybes(case: str, **_: object) -> list[ActionCall]:
    data = minutes_case(case)
    return _minutes(data, count=data.confirmed + data.maybes)


def minutes_no_text(case: str, **_: object) -> list[ActionCall]:
    return _minutes(minutes_case(case), text=False)


def minutes_allowances(case: str, **_: object) -> list[str]:
    data = minutes_case(case)
    return messages_to(data.colleague, phone_number(data.colleague))


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
        NearMiss("counts the yeses shown unscrolled only", solution=minutes_visible_rows),
        NearMiss("makes the to-do due on the sync's day", solution=minutes_due_on_sync),
        NearMiss("makes the to-do due on the Sunday before", solution=minutes_due_on_sunday),
        NearMiss("books the next sync for an hour", solution=minutes_hour_long),
        NearMiss("counts the maybes as confirmed", solution=minutes_counts_maybes),
        NearMiss("stops before the text", solution=minutes_no_text),
    ],
)
