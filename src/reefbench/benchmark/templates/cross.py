"""Cross-device subtask templates: information that must travel between phone and computer.

Each seeds a fact on one device that the instruction does not state (a code in a text
message, a meeting room in a file on the computer, a place in the calendar) and checks
that it arrived on the other device, plus a checkpoint that it was actually looked at
where it lives. The pool's linking pairs (``phone.read_code`` -> ``desktop.save_code``,
``desktop.read_message`` -> ``phone.note_message``) make the same journey across subtasks.
"""

from __future__ import annotations

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.benchmark import checks as hp
from reefbench.benchmark.templates import near as nm
from reefbench.benchmark.templates.account import (
    contact_in_browser,
    mail_in_browser,
    note_in_browser,
    sms_in_browser,
)
from reefbench.benchmark.templates.common import (
    CODES,
    DESKTOP_FILES,
    EMAILS,
    MEMOS,
    NAME_NUMBER,
    NAMES,
    NUMBERS,
    PLACES,
    SUBJECTS,
    TITLES,
    call,
    phone_app,
    phone_fill,
    q,
    read_on_phone,
    terminal,
)
from reefbench.benchmark.templates.phone import SENDERS, TODAY
from reefbench.envs.desktop import setup as st
from reefbench.envs.services import evaluators as aev
from reefbench.envs.services import seeding as sd
from reefbench.envs.services.attribution import PHONE
from reefbench.envs.ui import evaluators as uev
from reefbench.tasks.subtask import NearMiss, SubTask
from reefbench.tasks.task import ActionStep

# The goal line of tasks built from these templates. A playtest read "bring a code" over a
# task that brought a place: the intent also seeds synthesis, so its rewording waits for
# the next release's composition (today's v0 plan and its tests follow from this text).
CODE_INTENT = "bring a code from the phone to the computer"
MEMO_INTENT = "take a message from the computer to the phone"
CATEGORY = "cross-device"


def _desk(action: object) -> ActionStep:
    return ActionStep(env="desktop", action=action)  # type: ignore[arg-type]


def _account(action: object) -> ActionStep:
    return ActionStep(env="services", action=action)  # type: ignore[arg-type]


def _save(text: str, path: str) -> list[ActionCall]:
    return terminal(f"printf '%s\\n' {q(text)} > {q(path)}")


def _show(path: str) -> list[ActionCall]:
    return [
        call("desktop", "search_app", name="terminal"),
        call("desktop", "write_text", text=f"cat {q(path)}\n"),
        call("desktop", "write_text", text="exit\n"),
    ]


def _on_phone(ev_: Evaluator) -> Evaluator:
    return ev_.on("phone")


def _on_desktop(ev_: Evaluator) -> Evaluator:
    return ev_.on("desktop")


# The phone's part done in the desktop browser instead: the "wrong device" near misses.
WRONG_DEVICE = "does the phone's part in the desktop browser"


def _file_then_note_in_browser(path: str, memo: str, title: str) -> list[ActionCall]:
    return [*_show(path), *note_in_browser(title, memo)]


def _file_then_mail_in_browser(path: str, memo: str, to: str, subject: str) -> list[ActionCall]:
    return [*_show(path), *mail_in_browser(to, subject, memo)]


def _file_then_contact_in_browser(path: str, name: str, number: str) -> list[ActionCall]:
    return [*_show(path), *contact_in_browser(name, number)]


def _file_then_sms_in_browser(path: str, code: str, number: str) -> list[ActionCall]:
    return [*_show(path), *sms_in_browser(number, code)]


def sms_code_to_file_setup(sender: str, code: str, path: str) -> list[ActionStep]:
    return [_account(sd.add_message(contact=sender, text=f"Your pickup code is {code}"))]


def sms_code_to_file_checkpoints(sender: str, code: str, path: str) -> list[Evaluator]:
    return [
        read_on_phone(f"Conversation with {sender}", code),
        _on_desktop(hp.file_holds(path=path, content=code)),
    ]


def sms_code_to_file_solution(sender: str, code: str, path: str) -> list[ActionCall]:
    return [
        *phone_app("drawer_messages"),
        call("phone", "tap_on", name=sender),
        *_save(code, path),
    ]


def sms_code_to_file_output(sender: str, code: str, path: str) -> str:
    return path


SMS_CODE_TO_FILE = SubTask(
    id="cross.sms_code_to_file",
    description="{sender} texted a pickup code to the phone. Save just the code on "
    "the computer in {path}.",
    attributes={"sender": "name", "code": "code", "path": "desktop_file"},
    output_type="desktop_file",
    outputs=["desktop_file"],
    env="phone",
    app="messages",
    app_category=CATEGORY,
    intents=[CODE_INTENT],
    value_pools={"sender": SENDERS, "code": CODES, "path": DESKTOP_FILES},
    setup_generator=sms_code_to_file_setup,
    evaluator_generator=sms_code_to_file_checkpoints,
    solution_generator=sms_code_to_file_solution,
    output_generator=sms_code_to_file_output,
    near_misses=[
        NearMiss("saves the code with two digits swapped", changes={"code": nm.digits_swapped}),
    ],
)


def mail_room_to_file_setup(subject: str, memo: str, path: str) -> list[ActionStep]:
    return [
        _account(
            sd.add_mail(sender="office@example.com", subject=subject, body=f"We meet at: {memo}")
        )
    ]


def mail_room_to_file_checkpoints(subject: str, memo: str, path: str) -> list[Evaluator]:
    return [
        read_on_phone("Message from office@example.com", memo),
        _on_desktop(hp.file_holds(path=path, content=memo)),
    ]


def mail_room_to_file_solution(subject: str, memo: str, path: str) -> list[ActionCall]:
    return [
        *phone_app("drawer_mail"),
        call("phone", "tap_on", name=subject),
        *_save(memo, path),
    ]


def mail_room_to_file_output(subject: str, memo: str, path: str) -> str:
    return path


MAIL_ROOM_TO_FILE = SubTask(
    id="cross.mail_room_to_file",
    # The mail says "We meet at: <memo>", and the memo may name a time too ("Studio C
    # after lunch"): the instruction asks for all of it, so writing only the room is
    # not a false failure of the task but a wrong answer to a clear question. (A playtest
    # looked for a time a memo did not give: reef-v1's published instructions are checked
    # against this wording, so a rewording waits for the next release's own pool.)
    description='The mail "{subject}" on the phone says where and when we meet. Write '
    "that meeting detail, exactly as the mail gives it, into {path} on the computer.",
    attributes={"subject": "str", "memo": "memo", "path": "desktop_file"},
    output_type="desktop_file",
    outputs=["desktop_file"],
    env="phone",
    app="mail",
    app_category=CATEGORY,
    intents=[CODE_INTENT],
    value_pools={"subject": SUBJECTS, "memo": MEMOS, "path": DESKTOP_FILES},
    setup_generator=mail_room_to_file_setup,
    evaluator_generator=mail_room_to_file_checkpoints,
    solution_generator=mail_room_to_file_solution,
    output_generator=mail_room_to_file_output,
    near_misses=[
        NearMiss("a typo in what the mail says", changes={"memo": nm.typo}),
    ],
)


def event_place_to_file_setup(title: str, place: str, path: str) -> list[ActionStep]:
    return [_account(sd.add_event(title=title, date=TODAY, start="11:00", place=place))]


def event_place_to_file_checkpoints(title: str, place: str, path: str) -> list[Evaluator]:
    return [
        _on_phone(uev.text_on_screen(text=place)),
        _on_desktop(hp.file_holds(path=path, content=place)),
    ]


def event_place_to_file_solution(title: str, place: str, path: str) -> list[ActionCall]:
    return [
        *phone_app("drawer_calendar"),
        call("phone", "tap_on", name=title),
        *_save(place, path),
    ]


def event_place_to_file_output(title: str, place: str, path: str) -> str:
    return path


EVENT_PLACE_TO_FILE = SubTask(
    id="cross.event_place_to_file",
    description='Look up on the phone where today\'s event "{title}" takes place and write '
    "the place into {path} on the computer.",
    attributes={"title": "str", "place": "str", "path": "desktop_file"},
    output_type="desktop_file",
    outputs=["desktop_file"],
    env="phone",
    app="calendar",
    app_category=CATEGORY,
    intents=[CODE_INTENT],
    value_pools={"title": TITLES, "place": PLACES, "path": DESKTOP_FILES},
    setup_generator=event_place_to_file_setup,
    evaluator_generator=event_place_to_file_checkpoints,
    solution_generator=event_place_to_file_solution,
    output_generator=event_place_to_file_output,
    near_misses=[
        NearMiss("writes another place", changes={"place": nm.neighbour_in(PLACES)}),
    ],
)


def file_to_note_setup(path: str, memo: str, title: str) -> list[ActionStep]:
    return [_desk(st.create_file(path=path, content=memo + "\n"))]


def file_to_note_checkpoints(path: str, memo: str, title: str) -> list[Evaluator]:
    return [
        _on_desktop(hp.window_shows(text=memo)),
        _on_phone(aev.note_contains(by=PHONE, text=memo, title=title)),
    ]


def file_to_note_solution(path: str, memo: str, title: str) -> list[ActionCall]:
    return [
        *_show(path),
        *phone_app("drawer_notes"),
        call("phone", "tap_on", name="New note"),
        *phone_fill(("title", title), ("body", memo)),
        call("phone", "tap_on", name="Save"),
    ]


FILE_TO_NOTE = SubTask(
    id="cross.file_to_note",
    description="The file {path} on the computer holds a message. Put it into a new phone "
    'note titled "{title}".',
    attributes={"path": "desktop_file", "memo": "memo", "title": "str"},
    outputs=["note"],
    env="desktop",
    app="notes",
    app_category=CATEGORY,
    intents=[MEMO_INTENT],
    value_pools={"path": DESKTOP_FILES, "memo": MEMOS, "title": TITLES},
    setup_generator=file_to_note_setup,
    evaluator_generator=file_to_note_checkpoints,
    solution_generator=file_to_note_solution,
    near_misses=[
        NearMiss(WRONG_DEVICE, solution=_file_then_note_in_browser),
        NearMiss("a typo in the message", changes={"memo": nm.typo}),
    ],
)


def file_to_mail_setup(path: str, memo: str, to: str, subject: str) -> list[ActionStep]:
    return [_desk(st.create_file(path=path, content=memo + "\n"))]


def file_to_mail_checkpoints(path: str, memo: str, to: str, subject: str) -> list[Evaluator]:
    return [
        _on_desktop(hp.window_shows(text=memo)),
        _on_phone(aev.mail_sent(by=PHONE, to=to, subject=subject, body=memo)),
    ]


def file_to_mail_solution(path: str, memo: str, to: str, subject: str) -> list[ActionCall]:
    return [
        *_show(path),
        *phone_app("drawer_mail"),
        call("phone", "tap_on", name="Compose"),
        *phone_fill(("to", to), ("subject", subject), ("body", memo)),
        call("phone", "tap_on", name="Send"),
    ]


FILE_TO_MAIL = SubTask(
    id="cross.file_to_mail",
    description="From the phone, email the message stored in {path} on the computer to "
    '{to} with the subject "{subject}".',
    attributes={"path": "desktop_file", "memo": "memo", "to": "email", "subject": "str"},
    outputs=["mail"],
    env="desktop",
    app="mail",
    app_category=CATEGORY,
    intents=[MEMO_INTENT],
    value_pools={"path": DESKTOP_FILES, "memo": MEMOS, "to": EMAILS, "subject": SUBJECTS},
    setup_generator=file_to_mail_setup,
    evaluator_generator=file_to_mail_checkpoints,
    solution_generator=file_to_mail_solution,
    near_misses=[
        NearMiss(WRONG_DEVICE, solution=_file_then_mail_in_browser),
        NearMiss("sends it to a look-alike address", changes={"to": nm.lookalike_address}),
    ],
)


def card_to_contact_setup(path: str, name: str, number: str) -> list[ActionStep]:
    return [_desk(st.create_file(path=path, content=f"Name: {name}\nPhone: {number}\n"))]


def card_to_contact_checkpoint(path: str, name: str, number: str) -> Evaluator:
    return _on_phone(aev.contact_has(by=PHONE, name=name, field="phone", value=number))


def card_to_contact_solution(path: str, name: str, number: str) -> list[ActionCall]:
    return [
        *_show(path),
        *phone_app("drawer_contacts"),
        call("phone", "tap_on", name="New contact"),
        *phone_fill(("name", name), ("phone", number)),
        call("phone", "tap_on", name="Save"),
    ]


def card_to_contact_output(path: str, name: str, number: str) -> str:
    return number


CARD_TO_CONTACT = SubTask(
    id="cross.card_to_contact",
    description="{path} on the computer is a contact card. Add that person, with the "
    "phone number on the card, to the phone's contacts.",
    attributes={"path": "desktop_file", "name": "name", "number": "phone_number"},
    output_type="phone_number",
    outputs=["phone_number"],
    env="desktop",
    app="contacts",
    app_category=CATEGORY,
    intents=[MEMO_INTENT],
    value_pools={"path": DESKTOP_FILES, "name": NAMES, "number": NUMBERS},
    value_records=NAME_NUMBER,
    setup_generator=card_to_contact_setup,
    evaluator_generator=card_to_contact_checkpoint,
    solution_generator=card_to_contact_solution,
    output_generator=card_to_contact_output,
    near_misses=[
        NearMiss(WRONG_DEVICE, solution=_file_then_contact_in_browser),
        NearMiss("swaps two digits of the number", changes={"number": nm.digits_swapped}),
    ],
)


def file_code_to_sms_setup(path: str, code: str, number: str) -> list[ActionStep]:
    return [_desk(st.create_file(path=path, content=f"pickup code: {code}\n"))]


def file_code_to_sms_checkpoints(path: str, code: str, number: str) -> list[Evaluator]:
    return [
        _on_desktop(hp.window_shows(text=code)),
        _on_phone(aev.message_sent(by=PHONE, to=number, text=code)),
    ]


def file_code_to_sms_solution(path: str, code: str, number: str) -> list[ActionCall]:
    return [
        *_show(path),
        *phone_app("drawer_messages"),
        call("phone", "tap_on", name="Start chat"),
        *phone_fill(("to", number), ("body", code)),
        call("phone", "tap_on", name="Send"),
    ]


FILE_CODE_TO_SMS = SubTask(
    id="cross.file_code_to_sms",
    description="{path} on the computer holds a parcel pickup code. Text that code to "
    "{number} from the phone.",
    attributes={"path": "desktop_file", "code": "code", "number": "phone_number"},
    outputs=["sms"],
    env="desktop",
    app="messages",
    app_category=CATEGORY,
    intents=[MEMO_INTENT],
    value_pools={"path": DESKTOP_FILES, "code": CODES, "number": NUMBERS},
    setup_generator=file_code_to_sms_setup,
    evaluator_generator=file_code_to_sms_checkpoints,
    solution_generator=file_code_to_sms_solution,
    near_misses=[
        NearMiss(WRONG_DEVICE, solution=_file_then_sms_in_browser),
        NearMiss("texts the code with two digits swapped", changes={"code": nm.digits_swapped}),
    ],
)


TEMPLATES: list[SubTask] = [
    SMS_CODE_TO_FILE,
    MAIL_ROOM_TO_FILE,
    EVENT_PLACE_TO_FILE,
    FILE_TO_NOTE,
    FILE_TO_MAIL,
    CARD_TO_CONTACT,
    FILE_CODE_TO_SMS,
]
