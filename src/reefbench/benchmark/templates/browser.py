"""Browser subtask templates: the account's apps in a desktop-sized Chromium.

The browser types into date and time fields as a keyboard does (month, day, year; hour,
minute, AM/PM), which the phone's soft keyboard cannot, so events with a date and time,
due dates and alarms live here. ``browser.sign_in`` starts signed out: the password comes
from the user (CALL_USER). Account checkpoints require the browser (``by=BROWSER``); the
wrong-device near misses do the same on the phone, or with curl from the computer's
terminal where a date or time is involved.
"""

from __future__ import annotations

from datetime import date as Date

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.benchmark.templates import near as nm
from reefbench.benchmark.templates.account import (
    MAIL_ATTRIBUTES,
    MAIL_TO_LOOKALIKE,
    MAIL_VALUES,
    TEXT_FILE_ATTRIBUTES,
    TEXT_FILE_TYPO,
    WORLD_CLOCK_ATTRIBUTES,
    WORLD_CLOCK_NEXT_CITY,
    WORLD_CLOCK_VALUES,
    mail_in_browser,
    mail_on_phone,
    mail_sent_from,
    text_file_created_from,
    text_file_in_browser,
    text_file_on_phone,
    text_file_values,
    world_clock_added_from,
    world_clock_in_browser,
    world_clock_on_phone,
)
from reefbench.benchmark.templates.common import (
    EMAILS,
    NAME_EMAIL,
    NAMES,
    TASK_TITLES,
    TITLES,
    WORDS,
    browser_app,
    browser_fill,
    call,
    curl_form,
    phone_app,
    phone_fill,
)
from reefbench.environments.root import user_was_asked
from reefbench.envs.browser import actions as bact
from reefbench.envs.browser import evaluators as bev
from reefbench.envs.services import evaluators as aev
from reefbench.envs.services.attribution import BROWSER
from reefbench.envs.services.login import DEFAULT_PASSWORD, DEFAULT_USERNAME
from reefbench.tasks.subtask import NearMiss, SubTask
from reefbench.tasks.task import ActionStep

B = "browser"
WORK_INTENT = "organise the week in the browser"
SIGN_IN_INTENT = "sign back in to the account"
DATES = ["2024-06-04", "2024-06-05", "2024-06-06", "2024-06-07", "2024-06-10", "2024-06-12"]
TIMES = ["08:30", "09:15", "10:00", "13:45", "15:30", "17:00"]
REPORT_NAMES = [f"{w}-report.txt" for w in WORDS[12:24]]


def typed_date(iso: str) -> str:
    """What to type into a date field (en-US order: month, day, year)."""
    day = Date.fromisoformat(iso)
    return f"{day.month:02d}{day.day:02d}{day.year}"


def typed_time(hhmm: str) -> str:
    """What to type into a time field (hour, minute, AM/PM)."""
    hour, minute = (int(x) for x in hhmm.split(":"))
    suffix = "AM" if hour < 12 else "PM"
    return f"{(hour % 12) or 12:02d}{minute:02d}{suffix}"


# The same changes made on the phone instead: every account template's "wrong device"
# near miss. The account ends up right, but not from the browser (``by=BROWSER``).
WRONG_DEVICE = "does it on the phone, not in the browser"


# The phone's date and time fields take no typed text, so templates with a date or a
# time are done from the computer's terminal instead (the desktop, another wrong device).
WRONG_DEVICE_CURL = "does it with curl from the computer's terminal, not in the browser"


def _event_by_curl(title: str, date: str, time: str) -> list[ActionCall]:
    return curl_form("/calendar/new", title=title, date=date, start=time)


def _contact_on_phone(name: str, email: str) -> list[ActionCall]:
    return [
        *phone_app("drawer_contacts"),
        call("phone", "tap_on", name="New contact"),
        *phone_fill(("name", name), ("email", email)),
        call("phone", "tap_on", name="Save"),
    ]


def _task_by_curl(title: str, due: str) -> list[ActionCall]:
    return curl_form("/tasks/new", list="1", title=title, due=due)


def _alarm_by_curl(time: str, label: str) -> list[ActionCall]:
    return curl_form("/clock/alarms/new", time=time, label=label)


SEND_MAIL = SubTask(
    id="browser.send_mail",
    description='In the browser, email {to} with the subject "{subject}" and the text "{body}".',
    attributes=MAIL_ATTRIBUTES,
    outputs=["mail"],
    env=B,
    app="mail",
    app_category="communication",
    intents=[WORK_INTENT],
    value_pools=MAIL_VALUES,
    evaluator_generator=mail_sent_from(BROWSER),
    solution_generator=mail_in_browser,
    near_misses=[NearMiss(WRONG_DEVICE, solution=mail_on_phone), MAIL_TO_LOOKALIKE],
)


def add_event_checkpoint(title: str, date: str, time: str) -> Evaluator:
    return aev.event_exists(by=BROWSER, title=title, date=date, time=time)


def add_event_solution(title: str, date: str, time: str) -> list[ActionCall]:
    return [
        *browser_app("Calendar"),
        call(B, "click_on", name="New event"),
        *browser_fill(("Title", title), ("Date", typed_date(date))),
        *browser_fill(("Start time", typed_time(time))),
        call(B, "click_on", name="Save", role="button"),
    ]


ADD_EVENT = SubTask(
    id="browser.add_event",
    description='In the browser calendar, add the event "{title}" on {date} at {time}.',
    attributes={"title": "str", "date": "date", "time": "time"},
    outputs=["event"],
    env=B,
    app="calendar",
    app_category="productivity",
    intents=[WORK_INTENT],
    value_pools={"title": TITLES, "date": DATES, "time": TIMES},
    evaluator_generator=add_event_checkpoint,
    solution_generator=add_event_solution,
    near_misses=[
        NearMiss(WRONG_DEVICE_CURL, solution=_event_by_curl),
        NearMiss("puts it on the next date in the list", changes={"date": nm.neighbour_in(DATES)}),
    ],
)


def add_contact_checkpoint(name: str, email: str) -> Evaluator:
    return aev.contact_has(by=BROWSER, name=name, field="email", value=email)


def add_contact_solution(name: str, email: str) -> list[ActionCall]:
    return [
        *browser_app("Contacts"),
        call(B, "click_on", name="New contact"),
        *browser_fill(("Name", name), ("Email", email)),
        call(B, "click_on", name="Save", role="button"),
    ]


ADD_CONTACT = SubTask(
    id="browser.add_contact",
    description="In the browser, add the contact {name} with the email address {email}.",
    attributes={"name": "name", "email": "email"},
    outputs=["contact"],
    env=B,
    app="contacts",
    app_category="communication",
    intents=[WORK_INTENT],
    value_pools={"name": NAMES, "email": EMAILS},
    value_records=NAME_EMAIL,
    evaluator_generator=add_contact_checkpoint,
    solution_generator=add_contact_solution,
    near_misses=[
        NearMiss(WRONG_DEVICE, solution=_contact_on_phone),
        NearMiss("saves a look-alike address", changes={"email": nm.lookalike_address}),
    ],
)


def task_due_checkpoint(title: str, due: str) -> Evaluator:
    return aev.task_exists(by=BROWSER, title=title, due=due)


def task_due_solution(title: str, due: str) -> list[ActionCall]:
    return [
        *browser_app("Tasks"),
        *browser_fill(("New task", title), ("Due date", typed_date(due))),
        call(B, "click_on", name="Add task", role="button"),
    ]


TASK_DUE = SubTask(
    id="browser.task_due",
    description='In the browser, add the to-do "{title}" due on {due}.',
    attributes={"title": "text", "due": "date"},
    outputs=["task"],
    env=B,
    app="tasks",
    app_category="productivity",
    intents=[WORK_INTENT],
    value_pools={"title": TASK_TITLES, "due": DATES},
    evaluator_generator=task_due_checkpoint,
    solution_generator=task_due_solution,
    near_misses=[
        NearMiss(WRONG_DEVICE_CURL, solution=_task_by_curl),
        NearMiss("sets the next date in the list", changes={"due": nm.neighbour_in(DATES)}),
    ],
)


def set_alarm_checkpoint(time: str, label: str) -> Evaluator:
    return aev.alarm_set(by=BROWSER, time=time, label=label)


def set_alarm_solution(time: str, label: str) -> list[ActionCall]:
    return [
        *browser_app("Clock"),
        *browser_fill(("Alarm time", typed_time(time)), ("Label", label)),
        call(B, "click_on", name="Set alarm", role="button"),
    ]


SET_ALARM = SubTask(
    id="browser.set_alarm",
    description='In the browser\'s Clock, set an alarm at {time} labelled "{label}".',
    attributes={"time": "time", "label": "str"},
    outputs=["alarm"],
    env=B,
    app="clock",
    app_category="utilities",
    intents=[WORK_INTENT],
    value_pools={"time": TIMES, "label": TITLES},
    evaluator_generator=set_alarm_checkpoint,
    solution_generator=set_alarm_solution,
    near_misses=[
        NearMiss(WRONG_DEVICE_CURL, solution=_alarm_by_curl),
        NearMiss("sets the alarm at another time", changes={"time": nm.neighbour_in(TIMES)}),
    ],
)


NEW_TEXT_FILE = SubTask(
    id="browser.new_text_file",
    description='In the browser\'s Files, create the text file "{name}" containing "{content}".',
    attributes=TEXT_FILE_ATTRIBUTES,
    outputs=["cloud_file"],
    env=B,
    app="files",
    app_category="file management",
    intents=[WORK_INTENT],
    value_pools=text_file_values(REPORT_NAMES),
    evaluator_generator=text_file_created_from(BROWSER),
    solution_generator=text_file_in_browser,
    near_misses=[NearMiss(WRONG_DEVICE, solution=text_file_on_phone), TEXT_FILE_TYPO],
)


WORLD_CLOCK = SubTask(
    id="browser.world_clock",
    description="In the browser's Clock, add {city} to the world clock.",
    attributes=WORLD_CLOCK_ATTRIBUTES,
    outputs=["clock"],
    env=B,
    app="clock",
    app_category="utilities",
    intents=[WORK_INTENT],
    value_pools=WORLD_CLOCK_VALUES,
    evaluator_generator=world_clock_added_from(BROWSER),
    solution_generator=world_clock_in_browser,
    near_misses=[NearMiss(WRONG_DEVICE, solution=world_clock_on_phone), WORLD_CLOCK_NEXT_CITY],
)


def sign_in_setup() -> list[ActionStep]:
    return [ActionStep(env=B, action=bact.sign_out_browser())]


def sign_in_checkpoints() -> list[Evaluator]:
    return [
        user_was_asked(kind="password"),
        bev.browser_signed_in(),
    ]


def sign_in_solution() -> list[ActionCall]:
    return [
        call("root", "call_user", kind="password"),
        *browser_fill(("Username", DEFAULT_USERNAME)),
        call(B, "click_on", name="Password", role="textbox"),
        call(B, "write_text", text=DEFAULT_PASSWORD),
        call(B, "click_on", name="Sign in", role="button"),
    ]


def sign_in_without_asking() -> list[ActionCall]:
    return [
        *browser_fill(("Username", DEFAULT_USERNAME)),
        call(B, "click_on", name="Password", role="textbox"),
        call(B, "write_text", text=DEFAULT_PASSWORD),
        call(B, "click_on", name="Sign in", role="button"),
    ]


SIGN_IN = SubTask(
    id="browser.sign_in",
    description=f"The browser is signed out of the cloud account. Sign in again as "
    f'"{DEFAULT_USERNAME}"; ask the user for the password.',
    attributes={},
    outputs=["session"],
    env=B,
    app="account",
    app_category="system",
    intents=[SIGN_IN_INTENT],
    setup_generator=sign_in_setup,
    evaluator_generator=sign_in_checkpoints,
    solution_generator=sign_in_solution,
    near_misses=[
        NearMiss(
            "signs in without asking the user for the password",
            solution=sign_in_without_asking,
        ),
    ],
)


TEMPLATES: list[SubTask] = [
    SEND_MAIL,
    ADD_EVENT,
    ADD_CONTACT,
    TASK_DUE,
    SET_ALARM,
    NEW_TEXT_FILE,
    WORLD_CLOCK,
    SIGN_IN,
]
