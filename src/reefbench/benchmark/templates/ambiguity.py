"""reef-v2's ambiguity family (OS-MAP L3/L4): the instruction fits two targets in the
account, and only the user can say which one they mean.

Each template seeds two plausible targets (two contacts called Sam, two files named
``budget.txt`` in different folders, two meetings with the same person on Friday); the
instruction names what both share. The agent must ask the user (CALL_USER) before acting,
then act on the one the answer names: the task's ``user_data`` answers the kind the
template asks for (each template's ``*_answer`` gives it from the same values; reef-v2's
:class:`~reefbench.benchmark.v2.Template` attaches it to the task).

The checkpoints are a chain. The first node is "the user was asked, and neither target
has been acted on yet" (``user_was_asked & ~done(right) & ~done(decoy)``): acting first
and asking afterwards never completes it. The second is the change on the target the
answer names. The first node's state parts are superseded by the second for the right
target, and at the end the decoy must still be as it was when the user was asked, so
asking and then acting on both fails too. Near misses: acting without asking (on the
right target, by luck), asking and acting on the other one, acting and only then asking.
"""

from __future__ import annotations

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.benchmark.templates.account import mail_in_browser
from reefbench.benchmark.templates.common import browser_app, call
from reefbench.environments.root import user_was_asked
from reefbench.envs.services import evaluators as aev
from reefbench.envs.services import seeding as sd
from reefbench.envs.services.attribution import BROWSER
from reefbench.tasks.subtask import NearMiss, SubTask
from reefbench.tasks.task import ActionStep

B = "browser"
AMBIGUITY_INTENT = "ask the user which one they mean"
WHICH_CONTACT = "which contact"
WHICH_FILE = "which file"
WHICH_MEETING = "which meeting"
WITHOUT_ASKING = "acts on one of the two without asking (the right one, by luck)"
THE_OTHER = "asks, then acts on the other one"
ASKS_AFTER = "acts first and only then asks"


def _account(action: object) -> ActionStep:
    return ActionStep(env="services", action=action)  # type: ignore[arg-type]


def _ask(kind: str) -> list[ActionCall]:
    return [call("root", "call_user", kind=kind)]


# ------------------------------------------------ two contacts of one first name
NAMESAKES = [
    ("Sam", "Sam Ortega", "sam.ortega@example.com", "Sam Lindqvist", "sam.lindqvist@example.com"),
    (
        "Alex",
        "Alex Whitford",
        "alex.whitford@example.com",
        "Alex Moreau",
        "alex.moreau@example.com",
    ),
    ("Jamie", "Jamie Carver", "jamie.carver@example.com", "Jamie Osei", "jamie.osei@example.com"),
    ("Robin", "Robin Hale", "robin.hale@example.com", "Robin Sato", "robin.sato@example.com"),
    ("Nora", "Nora Quint", "nora.quint@example.com", "Nora Baptiste", "nora.baptiste@example.com"),
]
MAIL_TOPICS = [
    ("Dinner on Saturday", "are we still on for dinner at eight"),
    ("Borrowed ladder", "I can bring the ladder back on Sunday"),
    ("Book club", "the next book is on the shelf by the door"),
]


# Where the two namesakes belong; which of the two the user means changes with the
# names (a playtest saw the right one always in the club: a pattern a model could learn).
PLACES = [
    ("Riverside Rowing Club", "the rowing club"),
    ("Northwind Analytics", "Northwind Analytics"),
    ("Maple Street Choir", "the choir"),
    ("Harbour Dental", "Harbour Dental"),
]


def _places(name: str, decoy_name: str) -> tuple[tuple[str, str], tuple[str, str]]:
    """(company, how the user says it) of the one meant and of the decoy: a pair of
    :data:`PLACES` and its order picked by the names (stable for a task)."""
    key = sum(map(ord, name + decoy_name))
    pair = PLACES[(key // 2) % 2 * 2 : (key // 2) % 2 * 2 + 2]
    return (pair[0], pair[1]) if key % 2 else (pair[1], pair[0])


def mail_setup(
    first: str, name: str, email: str, decoy_name: str, decoy_email: str, subject: str, body: str
) -> list[ActionStep]:
    (meant, _), (other, _) = _places(name, decoy_name)
    return [
        _account(sd.add_contact(name=name, email=email, company=meant)),
        _account(sd.add_contact(name=decoy_name, email=decoy_email, company=other)),
    ]


def mail_checkpoints(
    first: str, name: str, email: str, decoy_name: str, decoy_email: str, subject: str, body: str
) -> list[Evaluator]:
    return [
        user_was_asked(kind=WHICH_CONTACT)
        & ~aev.mail_sent(to=email)
        & ~aev.mail_sent(to=decoy_email),
        aev.mail_sent(by=BROWSER, to=email, subject=subject, body=body),
    ]


def _look_up(first: str) -> list[ActionCall]:
    return [
        *browser_app("Contacts"),
        call(B, "click_on", name="Search contacts"),
        call(B, "write_text", text=first + "\n"),
    ]


def mail_solution(
    first: str, name: str, email: str, decoy_name: str, decoy_email: str, subject: str, body: str
) -> list[ActionCall]:
    return [*_look_up(first), *_ask(WHICH_CONTACT), *mail_in_browser(email, subject, body)]


def mail_without_asking(
    first: str, name: str, email: str, decoy_name: str, decoy_email: str, subject: str, body: str
) -> list[ActionCall]:
    return [*_look_up(first), *mail_in_browser(email, subject, body)]


def mail_the_other(
    first: str, name: str, email: str, decoy_name: str, decoy_email: str, subject: str, body: str
) -> list[ActionCall]:
    return [*_look_up(first), *_ask(WHICH_CONTACT), *mail_in_browser(decoy_email, subject, body)]


def mail_asks_after(
    first: str, name: str, email: str, decoy_name: str, decoy_email: str, subject: str, body: str
) -> list[ActionCall]:
    return [*_look_up(first), *mail_in_browser(email, subject, body), *_ask(WHICH_CONTACT)]


MAIL_NAMESAKE = SubTask(
    id="ambiguity.mail_namesake",
    description='In the browser, email {first} the subject "{subject}" and the text "{body}" '
    "(the address is in Contacts).",
    attributes={
        "first": "name",
        "name": "name",
        "email": "email",
        "decoy_name": "name",
        "decoy_email": "email",
        "subject": "str",
        "body": "text",
    },
    outputs=["mail"],
    env=B,
    app="mail",
    app_category="communication",
    intents=[AMBIGUITY_INTENT],
    value_records=[
        {
            "first": first,
            "name": pair[0] if i % 2 == 0 else pair[2],
            "email": pair[1] if i % 2 == 0 else pair[3],
            "decoy_name": pair[2] if i % 2 == 0 else pair[0],
            "decoy_email": pair[3] if i % 2 == 0 else pair[1],
            "subject": MAIL_TOPICS[i % len(MAIL_TOPICS)][0],
            "body": MAIL_TOPICS[i % len(MAIL_TOPICS)][1],
        }
        for i, (first, *pair) in enumerate(NAMESAKES * 3)
    ],
    setup_generator=mail_setup,
    evaluator_generator=mail_checkpoints,
    solution_generator=mail_solution,
    near_misses=[
        NearMiss(WITHOUT_ASKING, solution=mail_without_asking),
        NearMiss(THE_OTHER, solution=mail_the_other),
        NearMiss(ASKS_AFTER, solution=mail_asks_after),
    ],
)


def mail_answer(
    first: str, name: str, email: str, decoy_name: str, decoy_email: str, subject: str, body: str
) -> dict[str, str]:
    (_, said), _ = _places(name, decoy_name)
    return {WHICH_CONTACT: f"I mean {name}, from {said}."}


# ------------------------------------------- two files of one name, two folders
FILE_PAIRS = [
    ("budget.txt", "Household", "Book Club"),
    ("budget.txt", "Wedding", "Garden Project"),
    ("travel-budget.txt", "Summer Trip", "Conference"),
    ("budget-2024.txt", "Flat", "Choir"),
    ("budget.txt", "Renovation", "Charity Run"),
]


def file_setup(name: str, folder: str, decoy_folder: str) -> list[ActionStep]:
    return [
        _account(sd.add_file(path=f"{folder}/{name}", content=f"{folder} costs\nTotal: 1840\n")),
        _account(
            sd.add_file(
                path=f"{decoy_folder}/{name}", content=f"{decoy_folder} costs\nTotal: 615\n"
            )
        ),
    ]


def file_checkpoints(name: str, folder: str, decoy_folder: str) -> list[Evaluator]:
    return [
        user_was_asked(kind=WHICH_FILE)
        & ~aev.file_shared(path=f"{folder}/{name}")
        & ~aev.file_shared(path=f"{decoy_folder}/{name}"),
        aev.file_shared(by=BROWSER, path=f"{folder}/{name}"),
    ]


def _share(name: str, folder: str) -> list[ActionCall]:
    return [
        *browser_app("Files"),
        call(B, "click_on", name=folder, role="link"),
        call(B, "click_on", name=name, role="link"),
        call(B, "click_on", name="Get share link", role="button"),
    ]


def file_solution(name: str, folder: str, decoy_folder: str) -> list[ActionCall]:
    return [*browser_app("Files"), *_ask(WHICH_FILE), *_share(name, folder)]


def file_without_asking(name: str, folder: str, decoy_folder: str) -> list[ActionCall]:
    return [*browser_app("Files"), *_share(name, folder)]


def file_the_other(name: str, folder: str, decoy_folder: str) -> list[ActionCall]:
    return [*browser_app("Files"), *_ask(WHICH_FILE), *_share(name, decoy_folder)]


def file_asks_after(name: str, folder: str, decoy_folder: str) -> list[ActionCall]:
    return [*browser_app("Files"), *_share(name, folder), *_ask(WHICH_FILE)]


FILE_NAMESAKE = SubTask(
    id="ambiguity.share_namesake_file",
    description='In the browser\'s Files, get a share link for my file "{name}" so I can '
    "send it to the accountant.",
    attributes={"name": "str", "folder": "str", "decoy_folder": "str"},
    outputs=["cloud_file"],
    env=B,
    app="files",
    app_category="file management",
    intents=[AMBIGUITY_INTENT],
    value_records=[
        {
            "name": name,
            "folder": a if i % 2 == 0 else b,
            "decoy_folder": b if i % 2 == 0 else a,
        }
        for i, (name, a, b) in enumerate(FILE_PAIRS * 3)
    ],
    setup_generator=file_setup,
    evaluator_generator=file_checkpoints,
    solution_generator=file_solution,
    near_misses=[
        NearMiss(WITHOUT_ASKING, solution=file_without_asking),
        NearMiss(THE_OTHER, solution=file_the_other),
        NearMiss(ASKS_AFTER, solution=file_asks_after),
    ],
)


def file_answer(name: str, folder: str, decoy_folder: str) -> dict[str, str]:
    return {WHICH_FILE: f"The one in the {folder} folder."}


# ------------------------------------ two meetings with one person on Friday
FRIDAY = "2024-06-07"  # the Friday of the account's default week (now: Monday 2024-06-03)
MEETINGS = [
    ("Dana", "Budget review with Dana", "10:00", "Hiring sync with Dana", "15:00"),
    ("Marek", "Roadmap check-in with Marek", "09:30", "Vendor call with Marek", "14:00"),
    ("Yuki", "Design critique with Yuki", "11:00", "Quarterly plan with Yuki", "16:30"),
    ("Omar", "Contract review with Omar", "13:00", "Onboarding chat with Omar", "10:30"),
    ("Lena", "Sprint demo with Lena", "15:30", "Coffee catch-up with Lena", "08:45"),
]
ROOMS = ["Room 4B", "Studio C", "Meeting room Atlas"]


def _an_hour_after(start: str) -> str:
    hour, minute = start.split(":")
    return f"{int(hour) + 1:02d}:{minute}"


def meeting_setup(
    person: str, title: str, time: str, decoy_title: str, decoy_time: str, room: str
) -> list[ActionStep]:
    end = _an_hour_after
    return [
        _account(sd.add_event(title=title, date=FRIDAY, start=time, end=end(time))),
        _account(
            sd.add_event(title=decoy_title, date=FRIDAY, start=decoy_time, end=end(decoy_time))
        ),
    ]


def meeting_checkpoints(
    person: str, title: str, time: str, decoy_title: str, decoy_time: str, room: str
) -> list[Evaluator]:
    return [
        user_was_asked(kind=WHICH_MEETING)
        & ~aev.event_exists(title=title, place=room)
        & ~aev.event_exists(title=decoy_title, place=room),
        aev.event_exists(by=BROWSER, title=title, date=FRIDAY, time=time, place=room),
    ]


def _set_place(title: str, room: str) -> list[ActionCall]:
    return [
        *browser_app("Calendar"),
        call(B, "click_on", name=title, role="link"),
        call(B, "click_on", name="Edit"),
        call(B, "click_on", name="Place", role="textbox"),
        call(B, "write_text", text=room),
        call(B, "click_on", name="Save", role="button"),
    ]


def meeting_solution(
    person: str, title: str, time: str, decoy_title: str, decoy_time: str, room: str
) -> list[ActionCall]:
    return [*browser_app("Calendar"), *_ask(WHICH_MEETING), *_set_place(title, room)]


def meeting_without_asking(
    person: str, title: str, time: str, decoy_title: str, decoy_time: str, room: str
) -> list[ActionCall]:
    return [*browser_app("Calendar"), *_set_place(title, room)]


def meeting_the_other(
    person: str, title: str, time: str, decoy_title: str, decoy_time: str, room: str
) -> list[ActionCall]:
    return [*browser_app("Calendar"), *_ask(WHICH_MEETING), *_set_place(decoy_title, room)]


def meeting_asks_after(
    person: str, title: str, time: str, decoy_title: str, decoy_time: str, room: str
) -> list[ActionCall]:
    return [*browser_app("Calendar"), *_set_place(title, room), *_ask(WHICH_MEETING)]


MEETING_NAMESAKE = SubTask(
    id="ambiguity.place_for_friday_meeting",
    description="In the browser's calendar, set the place of my meeting with {person} this "
    'Friday to "{room}".',
    attributes={
        "person": "name",
        "title": "str",
        "time": "time",
        "decoy_title": "str",
        "decoy_time": "time",
        "room": "str",
    },
    outputs=["event"],
    env=B,
    app="calendar",
    app_category="productivity",
    intents=[AMBIGUITY_INTENT],
    value_records=[
        {
            "person": person,
            "title": a if i % 2 == 0 else b,
            "time": at if i % 2 == 0 else bt,
            "decoy_title": b if i % 2 == 0 else a,
            "decoy_time": bt if i % 2 == 0 else at,
            "room": ROOMS[i % len(ROOMS)],
        }
        for i, (person, a, at, b, bt) in enumerate(MEETINGS * 3)
    ],
    setup_generator=meeting_setup,
    evaluator_generator=meeting_checkpoints,
    solution_generator=meeting_solution,
    near_misses=[
        NearMiss(WITHOUT_ASKING, solution=meeting_without_asking),
        NearMiss(THE_OTHER, solution=meeting_the_other),
        NearMiss(ASKS_AFTER, solution=meeting_asks_after),
    ],
)


def meeting_answer(
    person: str, title: str, time: str, decoy_title: str, decoy_time: str, room: str
) -> dict[str, str]:
    return {WHICH_MEETING: f"The {title} at {time}."}


TEMPLATES: list[SubTask] = [MAIL_NAMESAKE, FILE_NAMESAKE, MEETING_NAMESAKE]
POOL: dict[str, SubTask] = {t.id: t for t in TEMPLATES}
