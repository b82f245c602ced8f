"""Phone subtask templates: the account's apps on the phone (maps included), its settings
and dialer.

Solutions open apps from the app drawer and touch elements by label or resource id
(``tap_on``). Every instruction names the phone and every account checkpoint requires it
(``by=PHONE``): the same change made in the desktop browser is the template's "wrong
device" near miss, not a second solution, and the static device gate
(:mod:`reefbench.validation.devices`) refuses a certified solution that avoids the phone.
"""

from __future__ import annotations

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
    browser_form,
    contact_in_browser,
    mail_in_browser,
    mail_on_phone,
    mail_sent_from,
    note_in_browser,
    sms_in_browser,
    text_file_created_from,
    text_file_in_browser,
    text_file_on_phone,
    text_file_values,
    world_clock_added_from,
    world_clock_in_browser,
    world_clock_on_phone,
)
from reefbench.benchmark.templates.common import (
    CODES,
    EMAILS,
    MEMOS,
    NAME_NUMBER,
    NAMES,
    NUMBERS,
    PLACES,
    SUBJECTS,
    TASK_TITLES,
    TEXTS,
    TITLES,
    WORDS,
    browser_app,
    browser_fill,
    call,
    phone_app,
    phone_fill,
    read_on_phone,
)
from reefbench.environments.root import answer_equals
from reefbench.envs.phone import actions as pa
from reefbench.envs.phone import evaluators as pc
from reefbench.envs.services import evaluators as aev
from reefbench.envs.services import seeding as sd
from reefbench.envs.services.attribution import PHONE
from reefbench.envs.ui import evaluators as uev
from reefbench.tasks.subtask import NearMiss, SubTask
from reefbench.tasks.task import ActionStep
from reefbench.tasks.worldtime import DEFAULT_NOW

P = "phone"
TODAY = DEFAULT_NOW[:10]  # the world time of a task whose setup sets no clock
CONTACT_INTENT = "stay in touch from the phone"
PLAN_INTENT = "plan the day on the phone"
SETTINGS_INTENT = "configure the phone"
FILES_INTENT = "keep files in the cloud"
LOOKUP_INTENT = "look something up"
CODE_INTENT = "bring a code from the phone to the computer"
MEMO_INTENT = "take a message from the computer to the phone"
ROUTE_INTENT = "find the way on the phone"
ROUTE_CITIES = ["Berlin", "Paris", "Lyon", "Munich", "Hamburg", "Madrid", "Lisbon"]
TRAVEL_MODES = ["walking", "cycling", "driving"]

SETTINGS = {
    "Bluetooth": "bluetooth",
    "Airplane mode": "airplane_mode",
    "Dark theme": "dark_mode",
    "Do not disturb": "do_not_disturb",
    "Wi-Fi": "wifi",
}
APPS = {
    "Mail": "com.reef.mail",
    "Calendar": "com.reef.calendar",
    "Contacts": "com.reef.contacts",
    "Tasks": "com.reef.tasks",
    "Notes": "com.reef.notes",
    "Files": "com.reef.files",
    "Messages": "com.reef.messages",
    "Clock": "com.reef.clock",
}
# Who texts a pickup code (a code one may pass on to someone collecting for you: a bank's
# verification code is not, and asking to forward one invites a refusal).
SENDERS = ["Post office", "Courier", "Dry cleaner", "Library", "Pharmacy", "Bike shop"]
FOLDER_NAMES = ["Trips", "Receipts", "Recipes", "Taxes", "Photos 2024", "Manuals"]
FILE_NAMES = [f"{w}-list.txt" for w in WORDS[:12]]


def _services(action: object) -> ActionStep:
    return ActionStep(env="services", action=action)  # type: ignore[arg-type]


def _from_home(label: str) -> list[ActionCall]:
    """Open an app by its icon on the home screen (Mail, Messages, Maps are there): the
    other way to the same app, so a checkpoint is proven independent of how it was opened."""
    return [call(P, "press", key="home"), call(P, "tap_on", name=label)]


def _mail_from_home(to: str, subject: str, body: str) -> list[ActionCall]:
    return [*_from_home("Mail"), *mail_on_phone(to, subject, body)[2:]]


def _route_browser(origin: str, destination: str, mode: str) -> list[ActionCall]:
    return [
        *browser_app("Maps"),
        call("browser", "click_on", name="Directions"),
        *browser_fill(("Start location", origin), ("Destination", destination)),
        call("browser", "click_on", name=mode.capitalize(), role="radio"),
        call("browser", "click_on", name="Get directions", role="button"),
    ]


def _note_phone(title: str, body: str) -> list[ActionCall]:
    return [
        *phone_app("drawer_notes"),
        call(P, "tap_on", name="New note"),
        *phone_fill(("title", title), ("body", body)),
        call(P, "tap_on", name="Save"),
    ]


def _route_phone(origin: str, destination: str, mode: str) -> list[ActionCall]:
    return [
        *phone_app("drawer_maps"),
        call(P, "tap_on", name="Directions"),
        *phone_fill(("origin", origin), ("destination", destination)),
        call(P, "tap_on", name=mode.capitalize()),
        call(P, "tap_on", name="Get directions"),
    ]


def _route_from_home(origin: str, destination: str, mode: str) -> list[ActionCall]:
    return [*_from_home("Maps"), *_route_phone(origin, destination, mode)[2:]]


def _sms_phone(to: str, text: str) -> list[ActionCall]:
    return [
        *phone_app("drawer_messages"),
        call(P, "tap_on", name="Start chat"),
        *phone_fill(("to", to), ("body", text)),
        call(P, "tap_on", name="Send"),
    ]


# The same changes made in the desktop browser instead: every account template's "wrong
# device" near miss. The account ends up in the right state, but not from the phone, so
# the checkpoint (``by=PHONE``) must refuse it.
WRONG_DEVICE = "does it in the desktop browser, not on the phone"


def _task_browser(title: str) -> list[ActionCall]:
    return browser_form("Tasks", None, [("New task", title)], "Add task")


def _complete_browser(title: str) -> list[ActionCall]:
    return [
        *browser_app("Tasks"),
        call("browser", "click_on", name=f"Mark \u201c{title}\u201d complete", role="button"),
    ]


def _event_today_browser(title: str, place: str) -> list[ActionCall]:
    return browser_form("Calendar", "New event", [("Title", title), ("Place", place)], "Save")


def _timer_browser(minutes: int) -> list[ActionCall]:
    return [
        *browser_app("Clock"),
        call("browser", "click_on", name="Timers", role="link"),
        *browser_fill(("Minutes", str(minutes))),
        call("browser", "click_on", name="Start timer", role="button"),
    ]


def _folder_browser(folder: str) -> list[ActionCall]:
    return browser_form("Files", None, [("New folder name", folder)], "Create folder")


def _code_sms_browser(code: str, number: str) -> list[ActionCall]:
    return sms_in_browser(number, code)


def _memo_note_browser(memo: str, title: str) -> list[ActionCall]:
    return note_in_browser(title, memo)


def _memo_mail_browser(memo: str, to: str, subject: str) -> list[ActionCall]:
    return mail_in_browser(to, subject, memo)


def _number_sms_browser(number: str, text: str) -> list[ActionCall]:
    return sms_in_browser(number, text)


SEND_MAIL = SubTask(
    id="phone.send_mail",
    description='On the phone, email {to} with the subject "{subject}" and the text "{body}".',
    attributes=MAIL_ATTRIBUTES,
    outputs=["mail"],
    env=P,
    app="mail",
    app_category="communication",
    intents=[CONTACT_INTENT],
    value_pools=MAIL_VALUES,
    evaluator_generator=mail_sent_from(PHONE),
    solution_generator=mail_on_phone,
    alternative_generators=[_mail_from_home],
    near_misses=[NearMiss(WRONG_DEVICE, solution=mail_in_browser), MAIL_TO_LOOKALIKE],
)


def add_contact_checkpoint(name: str, number: str) -> Evaluator:
    return aev.contact_has(by=PHONE, name=name, field="phone", value=number)


def add_contact_solution(name: str, number: str) -> list[ActionCall]:
    return [
        *phone_app("drawer_contacts"),
        call(P, "tap_on", name="New contact"),
        *phone_fill(("name", name), ("phone", number)),
        call(P, "tap_on", name="Save"),
    ]


def add_contact_output(name: str, number: str) -> str:
    return number


ADD_CONTACT = SubTask(
    id="phone.add_contact",
    description="Add {name} with the phone number {number} to the phone's contacts.",
    attributes={"name": "name", "number": "phone_number"},
    output_type="phone_number",
    outputs=["phone_number"],
    env=P,
    app="contacts",
    app_category="communication",
    intents=[CONTACT_INTENT],
    value_pools={"name": NAMES, "number": NUMBERS},
    value_records=NAME_NUMBER,
    evaluator_generator=add_contact_checkpoint,
    solution_generator=add_contact_solution,
    output_generator=add_contact_output,
    near_misses=[
        NearMiss(WRONG_DEVICE, solution=contact_in_browser),
        NearMiss("swaps two digits of the number", changes={"number": nm.digits_swapped}),
    ],
)


def call_number_checkpoint(number: str) -> Evaluator:
    return pc.call_made(number=number)


def call_number_solution(number: str) -> list[ActionCall]:
    return [
        *phone_app("drawer_dialer"),
        *phone_fill(("digits", number)),
        call(P, "tap_on", name="call"),
    ]


CALL_NUMBER = SubTask(
    id="phone.call_number",
    description="Call {number} from the phone.",
    attributes={"number": "phone_number"},
    outputs=["call"],
    env=P,
    app="dialer",
    app_category="communication",
    intents=[CONTACT_INTENT],
    value_pools={"number": NUMBERS},
    evaluator_generator=call_number_checkpoint,
    solution_generator=call_number_solution,
    near_misses=[
        NearMiss("dials two digits swapped", changes={"number": nm.digits_swapped}),
    ],
)


def send_sms_checkpoint(number: str, text: str) -> Evaluator:
    return aev.message_sent(by=PHONE, to=number, text=text)


def send_sms_solution(number: str, text: str) -> list[ActionCall]:
    return _sms_phone(number, text)


SEND_SMS = SubTask(
    id="phone.send_sms",
    description='Text "{text}" to {number} from the phone.',
    attributes={"number": "phone_number", "text": "text"},
    outputs=["sms"],
    env=P,
    app="messages",
    app_category="communication",
    intents=[CONTACT_INTENT],
    value_pools={"number": NUMBERS, "text": TEXTS},
    evaluator_generator=send_sms_checkpoint,
    solution_generator=send_sms_solution,
    near_misses=[
        NearMiss(WRONG_DEVICE, solution=_number_sms_browser),
        NearMiss("texts a number with two digits swapped", changes={"number": nm.digits_swapped}),
    ],
)


def add_note_checkpoint(title: str, body: str) -> Evaluator:
    return aev.note_contains(by=PHONE, text=body, title=title)


def add_note_swapped(title: str, body: str) -> list[ActionCall]:
    return _note_phone(body, title)


ADD_NOTE = SubTask(
    id="phone.add_note",
    description='On the phone, create a note titled "{title}" with the text "{body}".',
    attributes={"title": "str", "body": "text"},
    outputs=["note"],
    env=P,
    app="notes",
    app_category="productivity",
    intents=[PLAN_INTENT],
    value_pools={"title": TITLES, "body": TEXTS},
    evaluator_generator=add_note_checkpoint,
    solution_generator=_note_phone,
    near_misses=[
        NearMiss(WRONG_DEVICE, solution=note_in_browser),
        NearMiss(
            "swaps the title and the text",
            solution=add_note_swapped,
        ),
    ],
)


def add_task_checkpoint(title: str) -> Evaluator:
    return aev.task_exists(by=PHONE, title=title)


def add_task_solution(title: str) -> list[ActionCall]:
    return [
        *phone_app("drawer_tasks"),
        *phone_fill(("task-title", title)),
        call(P, "tap_on", name="Add task"),
    ]


ADD_TASK = SubTask(
    id="phone.add_task",
    description='On the phone, add the to-do "{title}" to the task list.',
    attributes={"title": "text"},
    outputs=["task"],
    env=P,
    app="tasks",
    app_category="productivity",
    intents=[PLAN_INTENT],
    value_pools={"title": TASK_TITLES},
    evaluator_generator=add_task_checkpoint,
    solution_generator=add_task_solution,
    near_misses=[
        NearMiss(WRONG_DEVICE, solution=_task_browser),
        NearMiss("a typo in the title", changes={"title": nm.typo}),
    ],
)


def complete_task_setup(title: str) -> list[ActionStep]:
    return [_services(sd.add_task(title=title))]


def complete_task_checkpoint(title: str) -> Evaluator:
    return aev.task_completed(by=PHONE, title=title)


def complete_task_solution(title: str) -> list[ActionCall]:
    return [
        *phone_app("drawer_tasks"),
        call(P, "tap_on", name="Complete"),
    ]


def complete_task_adds_again(title: str) -> list[ActionCall]:
    return [
        *phone_app("drawer_tasks"),
        *phone_fill(("task-title", title)),
        call(P, "tap_on", name="Add task"),
    ]


COMPLETE_TASK = SubTask(
    id="phone.complete_task",
    description='The to-do "{title}" is done: mark it complete on the phone.',
    attributes={"title": "text"},
    outputs=["task"],
    env=P,
    app="tasks",
    app_category="productivity",
    intents=[PLAN_INTENT],
    value_pools={"title": TASK_TITLES},
    setup_generator=complete_task_setup,
    evaluator_generator=complete_task_checkpoint,
    solution_generator=complete_task_solution,
    near_misses=[
        NearMiss(WRONG_DEVICE, solution=_complete_browser),
        NearMiss(
            "adds the to-do again instead of completing it",
            solution=complete_task_adds_again,
        ),
    ],
)


def add_event_today_checkpoint(title: str, place: str) -> Evaluator:
    return aev.event_exists(by=PHONE, title=title, date=TODAY, place=place)


def add_event_today_solution(title: str, place: str) -> list[ActionCall]:
    return [
        *phone_app("drawer_calendar"),
        call(P, "tap_on", name="New event"),
        *phone_fill(("title", title), ("place", place)),
        call(P, "tap_on", name="Save"),
    ]


ADD_EVENT_TODAY = SubTask(
    id="phone.add_event_today",
    description='On the phone, add an event "{title}" at {place} to today\'s calendar.',
    attributes={"title": "str", "place": "str"},
    outputs=["event"],
    env=P,
    app="calendar",
    app_category="productivity",
    intents=[PLAN_INTENT],
    value_pools={"title": TITLES, "place": PLACES},
    evaluator_generator=add_event_today_checkpoint,
    solution_generator=add_event_today_solution,
    near_misses=[
        NearMiss(WRONG_DEVICE, solution=_event_today_browser),
        NearMiss("puts it at another place", changes={"place": nm.neighbour_in(PLACES)}),
    ],
)


WORLD_CLOCK = SubTask(
    id="phone.world_clock",
    description="Add {city} to the phone's world clock.",
    attributes=WORLD_CLOCK_ATTRIBUTES,
    outputs=["clock"],
    env=P,
    app="clock",
    app_category="utilities",
    intents=[PLAN_INTENT],
    value_pools=WORLD_CLOCK_VALUES,
    evaluator_generator=world_clock_added_from(PHONE),
    solution_generator=world_clock_on_phone,
    near_misses=[NearMiss(WRONG_DEVICE, solution=world_clock_in_browser), WORLD_CLOCK_NEXT_CITY],
)


def start_timer_checkpoint(minutes: int) -> Evaluator:
    return aev.timer_set(by=PHONE, seconds=minutes * 60)


def start_timer_solution(minutes: int) -> list[ActionCall]:
    return [
        *phone_app("drawer_clock"),
        call(P, "tap_on", name="Timers"),
        *phone_fill(("minutes", str(minutes))),
        call(P, "tap_on", name="Start timer"),
    ]


START_TIMER = SubTask(
    id="phone.start_timer",
    description="Start a {minutes}-minute timer on the phone.",
    attributes={"minutes": "int"},
    outputs=["timer"],
    env=P,
    app="clock",
    app_category="utilities",
    intents=[PLAN_INTENT],
    value_pools={"minutes": [3, 5, 10, 12, 15, 20, 25, 40]},
    evaluator_generator=start_timer_checkpoint,
    solution_generator=start_timer_solution,
    near_misses=[
        NearMiss(WRONG_DEVICE, solution=_timer_browser),
        NearMiss("sets one minute too many", changes={"minutes": nm.one_more}),
    ],
)


def turn_on_checkpoint(setting: str) -> Evaluator:
    return pc.phone_setting_is(key=SETTINGS[setting], value="on")


def turn_on_solution(setting: str) -> list[ActionCall]:
    return [
        *phone_app("drawer_settings"),
        call(P, "tap_on", name=setting),
    ]


TURN_ON = SubTask(
    id="phone.turn_on",
    description='In the phone\'s Settings, turn on "{setting}".',
    attributes={"setting": "setting"},
    outputs=["phone_setting"],
    env=P,
    app="settings",
    app_category="system",
    intents=[SETTINGS_INTENT],
    value_pools={"setting": [s for s in SETTINGS if s != "Wi-Fi"]},
    evaluator_generator=turn_on_checkpoint,
    solution_generator=turn_on_solution,
    near_misses=[
        NearMiss(
            "switches the setting next to it",
            changes={"setting": nm.neighbour_in(list(SETTINGS))},
        ),
    ],
)


def turn_off_setup(setting: str) -> list[ActionStep]:
    return [ActionStep(env=P, action=pa.set_phone_setting(key=SETTINGS[setting], value="on"))]


def turn_off_checkpoint(setting: str) -> Evaluator:
    return pc.phone_setting_is(key=SETTINGS[setting], value="off")


def turn_off_solution(setting: str) -> list[ActionCall]:
    return [
        *phone_app("drawer_settings"),
        call(P, "tap_on", name=setting),
    ]


TURN_OFF = SubTask(
    id="phone.turn_off",
    description='In the phone\'s Settings, turn off "{setting}".',
    attributes={"setting": "setting"},
    outputs=["phone_setting"],
    env=P,
    app="settings",
    app_category="system",
    intents=[SETTINGS_INTENT],
    value_pools={"setting": list(SETTINGS)},
    setup_generator=turn_off_setup,
    evaluator_generator=turn_off_checkpoint,
    solution_generator=turn_off_solution,
    near_misses=[
        NearMiss(
            "switches the setting next to it",
            changes={"setting": nm.neighbour_in(list(SETTINGS))},
        ),
    ],
)


def open_app_checkpoint(app: str) -> Evaluator:
    return uev.current_app(package=APPS[app])


def open_app_solution(app: str) -> list[ActionCall]:
    return phone_app("drawer_" + APPS[app].rsplit(".", 1)[1])


OPEN_APP = SubTask(
    id="phone.open_app",
    description="Open the {app} app on the phone.",
    attributes={"app": "app_name"},
    outputs=["screen"],
    env=P,
    app="launcher",
    app_category="system",
    intents=[SETTINGS_INTENT],
    value_pools={"app": list(APPS)},
    evaluator_generator=open_app_checkpoint,
    solution_generator=open_app_solution,
    near_misses=[
        NearMiss("opens the app next to it", changes={"app": nm.neighbour_in(list(APPS))}),
    ],
)


def new_folder_checkpoint(folder: str) -> Evaluator:
    return aev.folder_exists(by=PHONE, path=folder)


def new_folder_solution(folder: str) -> list[ActionCall]:
    return [
        *phone_app("drawer_files"),
        *phone_fill(("New folder name", folder)),
        call(P, "tap_on", name="Create folder"),
    ]


NEW_FOLDER = SubTask(
    id="phone.new_folder",
    description='In the phone\'s Files app, create the folder "{folder}".',
    attributes={"folder": "str"},
    outputs=["cloud_folder"],
    env=P,
    app="files",
    app_category="file management",
    intents=[FILES_INTENT],
    value_pools={"folder": FOLDER_NAMES},
    evaluator_generator=new_folder_checkpoint,
    solution_generator=new_folder_solution,
    near_misses=[
        NearMiss(WRONG_DEVICE, solution=_folder_browser),
        NearMiss("a typo in the name", changes={"folder": nm.typo}),
    ],
)


NEW_TEXT_FILE = SubTask(
    id="phone.new_text_file",
    description='In the phone\'s Files app, create the text file "{name}" containing "{content}".',
    attributes=TEXT_FILE_ATTRIBUTES,
    outputs=["cloud_file"],
    env=P,
    app="files",
    app_category="file management",
    intents=[FILES_INTENT],
    value_pools=text_file_values(FILE_NAMES),
    evaluator_generator=text_file_created_from(PHONE),
    solution_generator=text_file_on_phone,
    near_misses=[NearMiss(WRONG_DEVICE, solution=text_file_in_browser), TEXT_FILE_TYPO],
)


def read_code_setup(sender: str, code: str) -> list[ActionStep]:
    return [_services(sd.add_message(contact=sender, text=f"Your pickup code is {code}"))]


def read_code_checkpoint(sender: str, code: str) -> Evaluator:
    return read_on_phone(f"Conversation with {sender}", code)


def read_code_solution(sender: str, code: str) -> list[ActionCall]:
    return [
        *phone_app("drawer_messages"),
        call(P, "tap_on", name=sender),
    ]


def read_code_output(sender: str, code: str) -> str:
    return code


def read_code_list_only(sender: str, code: str) -> list[ActionCall]:
    return phone_app("drawer_messages")


READ_CODE = SubTask(
    id="phone.read_code",
    description="{sender} texted a pickup code to the phone. Open the message and read the code.",
    attributes={"sender": "name", "code": "code"},
    output_type="code",
    outputs=["code"],
    env=P,
    app="messages",
    app_category="communication",
    intents=[CODE_INTENT, CONTACT_INTENT],
    value_pools={"sender": SENDERS, "code": CODES},
    setup_generator=read_code_setup,
    evaluator_generator=read_code_checkpoint,
    solution_generator=read_code_solution,
    output_generator=read_code_output,
    near_misses=[
        NearMiss(
            "opens the list of conversations, not the message",
            solution=read_code_list_only,
        ),
    ],
)


def mail_answer_setup(subject: str, code: str) -> list[ActionStep]:
    return [
        _services(
            sd.add_mail(
                sender="bookings@example.com",
                subject=subject,
                body=f"Thank you. Your booking reference is {code}.",
            )
        )
    ]


def mail_answer_checkpoint(subject: str, code: str) -> Evaluator:
    return answer_equals(expected=code)


def mail_answer_solution(subject: str, code: str) -> list[ActionCall]:
    return [
        *phone_app("drawer_mail"),
        call(P, "tap_on", name=subject),
        call("root", "submit", answer=code),
    ]


MAIL_ANSWER = SubTask(
    id="phone.mail_answer",
    description='Open the mail "{subject}" on the phone and submit the booking reference it gives.',
    attributes={"subject": "str", "code": "code"},
    outputs=["answer"],
    env=P,
    app="mail",
    app_category="communication",
    intents=[LOOKUP_INTENT],
    value_pools={"subject": SUBJECTS, "code": CODES},
    setup_generator=mail_answer_setup,
    evaluator_generator=mail_answer_checkpoint,
    solution_generator=mail_answer_solution,
    near_misses=[
        NearMiss(
            "submits the reference with two digits swapped", changes={"code": nm.digits_swapped}
        ),
    ],
)


def text_code_checkpoint(code: str, number: str) -> Evaluator:
    return aev.message_sent(by=PHONE, to=number, text=code)


def text_code_solution(code: str, number: str) -> list[ActionCall]:
    return _sms_phone(number, code)


TEXT_CODE = SubTask(
    id="phone.text_code",
    description="Text that code to {number} from the phone.",
    attributes={"code": "code", "number": "phone_number"},
    inputs=["code"],
    outputs=["sms"],
    env=P,
    app="messages",
    app_category="communication",
    intents=[CODE_INTENT, CONTACT_INTENT],
    value_pools={"code": CODES, "number": NUMBERS},
    evaluator_generator=text_code_checkpoint,
    solution_generator=text_code_solution,
    near_misses=[
        NearMiss(WRONG_DEVICE, solution=_code_sms_browser),
        NearMiss(
            "texts the code to a number with two digits swapped",
            changes={"number": nm.digits_swapped},
        ),
    ],
)


def note_message_checkpoint(memo: str, title: str) -> Evaluator:
    return aev.note_contains(by=PHONE, text=memo, title=title)


def note_message_solution(memo: str, title: str) -> list[ActionCall]:
    return _note_phone(title, memo)


def note_message_swapped(memo: str, title: str) -> list[ActionCall]:
    return _note_phone(memo, title)


NOTE_MESSAGE = SubTask(
    id="phone.note_message",
    description='On the phone, create a note titled "{title}" holding that message.',
    attributes={"memo": "memo", "title": "str"},
    inputs=["memo"],
    outputs=["note"],
    env=P,
    app="notes",
    app_category="productivity",
    intents=[MEMO_INTENT],
    value_pools={"memo": MEMOS, "title": TITLES},
    evaluator_generator=note_message_checkpoint,
    solution_generator=note_message_solution,
    near_misses=[
        NearMiss(WRONG_DEVICE, solution=_memo_note_browser),
        NearMiss(
            "swaps the title and the text",
            solution=note_message_swapped,
        ),
    ],
)


def mail_message_checkpoint(memo: str, to: str, subject: str) -> Evaluator:
    return aev.mail_sent(by=PHONE, to=to, subject=subject, body=memo)


def mail_message_solution(memo: str, to: str, subject: str) -> list[ActionCall]:
    return mail_on_phone(to, subject, memo)


def mail_message_from_home(memo: str, to: str, subject: str) -> list[ActionCall]:
    return _mail_from_home(to, subject, memo)


MAIL_MESSAGE = SubTask(
    id="phone.mail_message",
    description='From the phone, email that message to {to} with the subject "{subject}".',
    attributes={"memo": "memo", "to": "email", "subject": "str"},
    inputs=["memo"],
    outputs=["mail"],
    env=P,
    app="mail",
    app_category="communication",
    intents=[MEMO_INTENT],
    value_pools={"memo": MEMOS, "to": EMAILS, "subject": SUBJECTS},
    evaluator_generator=mail_message_checkpoint,
    solution_generator=mail_message_solution,
    alternative_generators=[mail_message_from_home],
    near_misses=[
        NearMiss(WRONG_DEVICE, solution=_memo_mail_browser),
        NearMiss("sends it to a look-alike address", changes={"to": nm.lookalike_address}),
    ],
)


def text_contact_checkpoint(number: str, text: str) -> Evaluator:
    return aev.message_sent(by=PHONE, to=number, text=text)


def text_contact_solution(number: str, text: str) -> list[ActionCall]:
    return _sms_phone(number, text)


TEXT_CONTACT = SubTask(
    id="phone.text_contact",
    description='Text "{text}" to that number from the phone.',
    attributes={"number": "phone_number", "text": "text"},
    inputs=["number"],
    outputs=["sms"],
    env=P,
    app="messages",
    app_category="communication",
    intents=[CONTACT_INTENT],
    value_pools={"number": NUMBERS, "text": TEXTS},
    evaluator_generator=text_contact_checkpoint,
    solution_generator=text_contact_solution,
    near_misses=[
        NearMiss(WRONG_DEVICE, solution=_number_sms_browser),
        NearMiss("texts a number with two digits swapped", changes={"number": nm.digits_swapped}),
    ],
)


def maps_directions_checkpoint(origin: str, destination: str, mode: str) -> Evaluator:
    return aev.directions_requested(by=PHONE, origin=origin, destination=destination, mode=mode)


MAPS_DIRECTIONS = SubTask(
    id="phone.maps_directions",
    description="On the phone, look up {mode} directions from {origin} to {destination}.",
    attributes={"origin": "city", "destination": "city", "mode": "str"},
    outputs=["route"],
    env=P,
    app="maps",
    app_category="navigation",
    intents=[ROUTE_INTENT],
    value_pools={"origin": ROUTE_CITIES, "destination": ROUTE_CITIES, "mode": TRAVEL_MODES},
    evaluator_generator=maps_directions_checkpoint,
    solution_generator=_route_phone,
    alternative_generators=[_route_from_home],
    near_misses=[
        NearMiss(WRONG_DEVICE, solution=_route_browser),
        NearMiss("asks for another way to travel", changes={"mode": nm.neighbour_in(TRAVEL_MODES)}),
    ],
)


TEMPLATES: list[SubTask] = [
    SEND_MAIL,
    ADD_CONTACT,
    CALL_NUMBER,
    SEND_SMS,
    ADD_NOTE,
    ADD_TASK,
    COMPLETE_TASK,
    ADD_EVENT_TODAY,
    WORLD_CLOCK,
    START_TIMER,
    TURN_ON,
    TURN_OFF,
    OPEN_APP,
    NEW_FOLDER,
    NEW_TEXT_FILE,
    READ_CODE,
    MAIL_ANSWER,
    TEXT_CODE,
    NOTE_MESSAGE,
    MAIL_MESSAGE,
    TEXT_CONTACT,
    MAPS_DIRECTIONS,
]
