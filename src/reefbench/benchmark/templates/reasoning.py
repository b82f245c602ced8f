"""reef-v2's reasoning family: the answer is not in any one item, but in reasoning over
many. This module holds what the family shares (money spellings, vendors, people) and the
scheduling template; the others are in ``reasoning_ledger`` (invoices missing from the
ledger), ``reasoning_vendors`` (the vendor paid the most), ``reasoning_offers`` and
``reasoning_expenses``.

Scheduling (MEETING_SLOT): players passed the first version (three colleagues, nine
slots, four mails). Now five colleagues answer in six mails about sixteen slots (four
days, four start times), each ruling slots out differently (a whole day, corrected in a
later mail; one time every day; one slot; the mornings of one day; two slots), and the
calendar holds some ten events: overlaps by half an hour, events that only touch the
answer, the same time a week earlier. Exactly one slot is left; the near misses are
each slip's slot (the calendar ignored, the single slot forgotten, the first mail
followed instead of the correction, the afternoons-only mail overlooked).

Every task's data comes from its ``case`` (a seeded draw, so the tasks differ in people,
slots and which items are the decoys); the checkpoints and the near misses are computed
from the same draw.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date as Date

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.benchmark.templates.browser import typed_date, typed_time
from reefbench.benchmark.templates.common import browser_app, browser_fill, call
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


# Vendors (the reconciliation of reasoning_ledger and the workflows use them).
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
# ------------------------------------------------ scheduling under constraints
DAYS = [
    ("Monday", "2024-06-10"),
    ("Tuesday", "2024-06-11"),
    ("Wednesday", "2024-06-12"),
    ("Thursday", "2024-06-13"),
]
TIMES = ["09:00", "11:00", "14:00", "16:00"]
MORNING = (0, 1)  # indexes of TIMES before noon
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
CLASHES = [  # one per slot the calendar alone rules out (at most seven)
    "Dentist",
    "Team lunch",
    "Call with the bank",
    "Design review",
    "Site visit",
    "Interview",
    "Board prep",
]


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


SPOKEN_TIME = {at: _time_spellings(at) for at in TIMES}
Slot = tuple[int, int]  # (day index, time index)
ALL_SLOTS: list[Slot] = [(d, t) for d in range(len(DAYS)) for t in range(len(TIMES))]


@dataclass(frozen=True)
class Slots:
    """One scheduling case: who rules out what, and what the calendar holds. People:
    [0] out a day (first another: their correction counts), [1] out a time every day,
    [2] out one slot (the one replied to), [3] mornings out one day, [4] out two slots."""

    people: tuple[tuple[str, str], ...]
    answer: Slot
    day_out: int  # the first person's day, by their correction
    time_out: int  # the second person's time
    person_out: Slot  # the third person's slot, ruled out by nothing else
    morning_day: int  # the fourth person's day of afternoons only
    morning_only: Slot  # ruled out by the fourth person alone
    two_out: tuple[Slot, Slot]  # the fifth person's slots
    calendar_out: tuple[Slot, ...]  # overlapped by the calendar, by nothing else
    stale: Slot  # the one free slot if the first person's first mail counted
    events: tuple[tuple[str, str, str, str], ...]  # (title, date, start, end)

    def ruled_out(self, day_out: int) -> set[Slot]:
        """Every slot someone or the calendar rules out, the first person out ``day_out``."""
        out = {(day_out, t) for t in range(len(TIMES))}
        out |= {(d, self.time_out) for d in range(len(DAYS))}
        out |= {self.person_out, *self.two_out, *self.calendar_out}
        return out | {(self.morning_day, t) for t in MORNING}


def _shift(hhmm: str, minutes: int) -> str:
    hour, minute = (int(x) for x in hhmm.split(":"))
    total = hour * 60 + minute + minutes
    return f"{total // 60:02d}:{total % 60:02d}"


def slots_case(case: str) -> Slots:
    rng = random.Random(f"reasoning-slots-v2-{case}")
    people = tuple(rng.sample(PEOPLE, 5))
    days, times = range(len(DAYS)), range(len(TIMES))
    answer = rng.choice(ALL_SLOTS)
    day_out = rng.choice([d for d in days if d != answer[0]])
    time_out = rng.choice([t for t in times if t != answer[1]])
    morning_day = rng.choice([d for d in days if d != day_out])
    if morning_day == answer[0] and answer[1] in MORNING:
        answer = (answer[0], rng.choice([t for t in times if t not in (*MORNING, time_out)]))
    morning_only = next((morning_day, t) for t in MORNING if t != time_out)
    covered = {(day_out, t) for t in times} | {(d, time_out) for d in days}
    covered |= {(morning_day, t) for t in MORNING}
    left = [s for s in ALL_SLOTS if s not in covered and s != answer]
    rng.shuffle(left)
    # The first person's day: one slot only the first person rules out (the outdated
    # reading's answer); the other two also someone else's, so reading the first mail
    # instead leaves exactly that one.
    row = [(day_out, t) for t in times if t != time_out]
    rng.shuffle(row)
    stale, extra = row[0], row[1:]
    person_out = left.pop()
    two_out = (left.pop(), extra[0])
    calendar_out = (*left, extra[1])
    at = TIMES[answer[1]]
    events = [
        (title, DAYS[d][1], _shift(TIMES[t], off), _shift(TIMES[t], off + 60))
        for (d, t), title, off in zip(calendar_out, CLASHES, (-30, 30) * 4, strict=False)
    ]
    # Events that touch the answer without overlapping it; the same time a week earlier;
    # a meeting at a slot two colleagues rule out anyway.
    day = DAYS[answer[0]][1]
    events.append(("Coffee with Sam", day, _shift(at, -60), at))
    events.append(("Gym", day, _shift(at, 60), _shift(at, 90)))
    week_before = Date.fromordinal(Date.fromisoformat(day).toordinal() - 7).isoformat()
    events.append(("Parents' evening", week_before, at, _shift(at, 60)))
    review = TIMES[time_out]
    events.append(("Quarterly review", DAYS[day_out][1], review, _shift(review, 60)))
    return Slots(
        people,
        answer,
        day_out,
        time_out,
        person_out,
        morning_day,
        morning_only,
        two_out,
        calendar_out,
        stale,
        tuple(events),
    )


def _slot_words(slot: Slot) -> str:
    return f"{DAYS[slot[0]][0]} at {TIMES[slot[1]]}"


def _constraint_mails(data: Slots) -> list[tuple[str, str]]:
    (a, a_mail), (b, b_mail), (c, c_mail), (d, d_mail), (e, e_mail) = data.people
    day_name, day_iso = DAYS[data.day_out]
    first_name, first_iso = DAYS[data.answer[0]]
    first, second = data.two_out
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
            d_mail,
            f"Hi,\n\non {DAYS[data.morning_day][0]} I'm in workshops all morning, so only the "
            "afternoon slots work for me that day. Any other day I can do any time.\n\n"
            + d.split()[0],
        ),
        (
            c_mail,
            f"Hi,\n\nthe only slot I can't make is {_slot_words(data.person_out)}. Otherwise "
            "I'm flexible.\n\nCheers,\n" + c.split()[0],
        ),
        (
            e_mail,
            f"Hello,\n\ntwo slots are out for me: {_slot_words(first)} and "
            f"{_slot_words(second)}. The rest is fine.\n\n" + e.split()[0],
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
        _account(sd.add_event(title=name, date=day, start=start, end=end))
        for name, day, start, end in data.events
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


def slot_morning_clash(case: str, title: str, replier: str) -> list[ActionCall]:
    """Overlooks the colleague who can do only the afternoon on one day."""
    data = slots_case(case)
    return _book(title, data.morning_only, data.people[2][1])


MEETING_SLOT = SubTask(
    id="reasoning.meeting_slot",
    description="I asked five colleagues for a one-hour {title} meeting next week, on "
    "Monday 10, Tuesday 11, Wednesday 12 or Thursday 13 June, starting at 09:00, 11:00, "
    "14:00 or 16:00. Their answers are in the browser's Mail, each with the subject "
    '"Re: Finding an hour next week". In the browser, add an event titled "{title}" to '
    "the calendar at the one of those slots that every colleague can make and that does "
    "not overlap anything already in my calendar, one hour long (if a colleague wrote "
    "more than once, their latest mail is what counts). Then reply to {replier}'s mail "
    "with the day and start time you chose.",
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
        NearMiss("overlooks the colleague free only in the afternoon", solution=slot_morning_clash),
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


TEMPLATES: list[SubTask] = [MEETING_SLOT]
POOL: dict[str, SubTask] = {t.id: t for t in TEMPLATES}
