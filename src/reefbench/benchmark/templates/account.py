"""The account's apps as both the phone and the browser offer them, defined once.

A phone template and its browser variant (send a mail, add a world clock city, create a
text file) ask for the same change with the same values and accept it on the same
checkpoint, from a different device; and each one's reference solution is the other's
"wrong device" near miss. So the attributes, value pools, checkpoint, value near misses
and the way to make the change on each device live here, and ``phone.py`` and
``browser.py`` keep only what differs: the wording, the intent and the device.
"""

from __future__ import annotations

from collections.abc import Callable

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.benchmark.templates import near as nm
from reefbench.benchmark.templates.common import (
    CITIES,
    EMAILS,
    SUBJECTS,
    TEXTS,
    browser_app,
    browser_fill,
    call,
    phone_app,
    phone_fill,
)
from reefbench.envs.services import evaluators as aev
from reefbench.tasks.subtask import NearMiss


def browser_form(
    app: str, opener: str | None, fields: list[tuple[str, str]], submit: str
) -> list[ActionCall]:
    """Open the app's page in the browser, perhaps its form, fill the fields, press the
    submit button."""
    return [
        *browser_app(app),
        *([call("browser", "click_on", name=opener)] if opener else []),
        *browser_fill(*fields),
        call("browser", "click_on", name=submit, role="button"),
    ]


# ---------------------------------------------------------------------- mail
MAIL_ATTRIBUTES = {"to": "email", "subject": "str", "body": "text"}
MAIL_VALUES = {"to": EMAILS, "subject": SUBJECTS, "body": TEXTS}
MAIL_TO_LOOKALIKE = NearMiss(
    "sends it to a look-alike address", changes={"to": nm.lookalike_address}
)


def mail_sent_from(device: str) -> Callable[[str, str, str], Evaluator]:
    """The checkpoint: this mail was sent from ``device``."""

    def mail_sent(to: str, subject: str, body: str) -> Evaluator:
        return aev.mail_sent(by=device, to=to, subject=subject, body=body)

    return mail_sent


def mail_on_phone(to: str, subject: str, body: str) -> list[ActionCall]:
    return [
        *phone_app("drawer_mail"),
        call("phone", "tap_on", name="Compose"),
        *phone_fill(("to", to), ("subject", subject), ("body", body)),
        call("phone", "tap_on", name="Send"),
    ]


def mail_in_browser(to: str, subject: str, body: str) -> list[ActionCall]:
    return browser_form(
        "Mail", "Compose", [("To", to), ("Subject", subject), ("Message", body)], "Send"
    )


# --------------------------------------------------------------- world clock
WORLD_CLOCK_ATTRIBUTES = {"city": "city"}
WORLD_CLOCK_VALUES = {"city": CITIES}
WORLD_CLOCK_NEXT_CITY = NearMiss(
    "adds the city next to it", changes={"city": nm.neighbour_in(CITIES)}
)


def world_clock_added_from(device: str) -> Callable[[str], Evaluator]:
    """The checkpoint: this city was added to the world clock from ``device``."""

    def world_clock_added(city: str) -> Evaluator:
        return aev.world_clock_added(by=device, city=city)

    return world_clock_added


def world_clock_on_phone(city: str) -> list[ActionCall]:
    return [
        *phone_app("drawer_clock"),
        call("phone", "tap_on", name="World clock"),
        *phone_fill(("city", city)),
        call("phone", "tap_on", name="Add city", role="Button"),
    ]


def world_clock_in_browser(city: str) -> list[ActionCall]:
    return browser_form("Clock", "World clock", [("Add city", city)], "Add city")


# ---------------------------------------------------------------- text files
TEXT_FILE_ATTRIBUTES = {"name": "str", "content": "text"}
TEXT_FILE_TYPO = NearMiss("a typo in the text", changes={"content": nm.typo})


def text_file_values(names: list[str]) -> dict[str, list[str]]:
    """The value pools, with the file names each device's template draws from."""
    return {"name": names, "content": TEXTS}


def text_file_created_from(device: str) -> Callable[[str, str], Evaluator]:
    """The checkpoint: this text file was created, with this content, from ``device``."""

    def file_in_folder(name: str, content: str) -> Evaluator:
        return aev.file_in_folder(by=device, name=name, content=content)

    return file_in_folder


def text_file_on_phone(name: str, content: str) -> list[ActionCall]:
    return [
        *phone_app("drawer_files"),
        call("phone", "tap_on", name="New text file"),
        *phone_fill(("name", name), ("content", content)),
        call("phone", "tap_on", name="Create file"),
    ]


def text_file_in_browser(name: str, content: str) -> list[ActionCall]:
    return browser_form(
        "Files", "New text file", [("File name", name), ("Content", content)], "Create file"
    )


# ------------------------------------------- phone-only apps, in the browser
# The phone's notes, messages and contacts templates have no browser variant, but the
# same change made in the browser is their "wrong device" near miss (and the cross-device
# templates' too).
def note_in_browser(title: str, body: str) -> list[ActionCall]:
    return browser_form("Notes", "New note", [("Title", title), ("Note", body)], "Save")


def sms_in_browser(to: str, text: str) -> list[ActionCall]:
    return browser_form(
        "Messages", "Start chat", [("To (name or phone number)", to), ("Message", text)], "Send"
    )


def contact_in_browser(name: str, number: str) -> list[ActionCall]:
    return browser_form("Contacts", "New contact", [("Name", name), ("Phone", number)], "Save")
