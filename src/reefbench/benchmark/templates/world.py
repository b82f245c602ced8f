"""Hard templates on a seeded world: the value the agent needs is in the account, not in
the instruction.

Each template reads something in the lived-in account of a world seed (the invoice of one
vendor and month among six vendors' monthly invoices, the contact whose company is named
among look-alike names, the unchecked items of one checklist among similar ones) and
writes what it found on another device. The world itself is loaded by the task's setup
(:mod:`reefbench.benchmark.world_tasks` builds the tasks and derives every hidden value from
the same world generator); the templates take those values as attributes, so their
checkpoints compare against them and their near misses use the world's own distractors
(``decoy``: the neighbouring month's amount, the look-alike's number, the checked items'
count) rather than a typo.

They are not drawn by synthesis: the attributes only make sense for the world the task
loads, so they have an intent of their own that no composed request asks for.
"""

from __future__ import annotations

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.benchmark import checks as hp
from reefbench.benchmark.templates.account import note_in_browser, sms_in_browser
from reefbench.benchmark.templates.common import (
    NAMES,
    NUMBERS,
    TEXTS,
    TITLES,
    WORDS,
    browser_app,
    call,
    mousepad_new,
    phone_app,
    phone_fill,
)
from reefbench.environments.root import user_was_asked
from reefbench.environments.worlds import VENDORS
from reefbench.envs.services import evaluators as aev
from reefbench.envs.services.attribution import PHONE
from reefbench.tasks.subtask import NearMiss, SubTask

B, P, D = "browser", "phone", "desktop"
WORLD_INTENT = "find it in the lived-in account"
WHICH_CONTACT = "which contact"

# Value pools for the pool's lint and for playing a template alone: the tasks themselves
# take every value from their world (see the module docstring), never from these.
MONTHS = ["October 2025", "November 2025", "December 2025", "January 2026", "February 2026"]
AMOUNTS = ["48.20", "51.75", "112.40", "96.05", "230.10", "27.99"]
COUNTS = ["1", "2", "3", "4", "5", "6"]
CHECKLISTS = ["Groceries 2", "Weekend shopping 2", "Packing list 2", "Party 2"]
FIRSTS = [name.split()[0] for name in NAMES]
COMPANIES = ["Reynolds and Sons", "Evans-Ward", "Knight LLC", "Holmes PLC"]
WORLD_FILES = [f"~/Desktop/{word}-open-items.txt" for word in WORDS]


# ------------------------------------------------------------ reading steps
def find_mail_in_browser(query: str, subject: str) -> list[ActionCall]:
    """Search the mail in the browser and open the message with this subject."""
    return [
        *browser_app("Mail"),
        call(B, "click_on", name="Search mail"),
        call(B, "write_text", text=query + "\n"),
        call(B, "click_on", name=subject, role="link"),
    ]


def find_contact_in_browser(query: str, name: str) -> list[ActionCall]:
    """Search the contacts in the browser and open this person's card."""
    return [
        *browser_app("Contacts"),
        call(B, "click_on", name="Search contacts"),
        call(B, "write_text", text=query + "\n"),
        call(B, "click_on", name=name, role="link"),
    ]


def open_note_in_browser(title: str) -> list[ActionCall]:
    """Search the browser's Notes for this title and open the note (the board of 45
    notes is longer than the window)."""
    return [
        *browser_app("Notes"),
        call(B, "click_on", name="Search notes"),
        call(B, "write_text", text=title + "\n"),
        call(B, "click_on", name=f"Note {title}", role="link"),
    ]


def note_on_phone(title: str, body: str) -> list[ActionCall]:
    return [
        *phone_app("drawer_notes"),
        call(P, "tap_on", name="New note"),
        *phone_fill(("title", title), ("body", body)),
        call(P, "tap_on", name="Save"),
    ]


def sms_on_phone(to: str, text: str) -> list[ActionCall]:
    return [
        *phone_app("drawer_messages"),
        call(P, "tap_on", name="Start chat"),
        # The field by its label: the conversation list of a lived-in world holds texts
        # that contain "to", which a tap by the field's id could land on.
        *phone_fill(("To (name or phone number)", to), ("body", text)),
        call(P, "tap_on", name="Send"),
    ]


# ------------------------------------------- invoice amount -> phone note
def invoice_note_checkpoint(
    vendor: str, month: str, title: str, amount: str, decoy: str
) -> Evaluator:
    return aev.note_contains(by=PHONE, title=title, text=amount)


def invoice_note_solution(
    vendor: str, month: str, title: str, amount: str, decoy: str
) -> list[ActionCall]:
    return [
        *find_mail_in_browser(vendor, f"Your invoice for {month}"),
        *note_on_phone(title, amount),
    ]


def invoice_note_other_month(
    vendor: str, month: str, title: str, amount: str, decoy: str
) -> list[ActionCall]:
    """The look-alike: the same vendor's invoice of the month before."""
    return [
        *find_mail_in_browser(vendor, f"Your invoice for {month}"),
        *note_on_phone(title, decoy),
    ]


def invoice_note_in_browser(
    vendor: str, month: str, title: str, amount: str, decoy: str
) -> list[ActionCall]:
    return [
        *find_mail_in_browser(vendor, f"Your invoice for {month}"),
        *note_in_browser(title, amount),
    ]


INVOICE_NOTE = SubTask(
    id="world.invoice_to_phone_note",
    description="Find the {vendor} invoice for {month} in the mail (in the browser) and, on "
    'the phone, create a note titled "{title}" holding the amount due (just the number, '
    "like 12.34).",
    attributes={"vendor": "str", "month": "str", "title": "str", "amount": "str", "decoy": "str"},
    outputs=["note"],
    env=P,
    app="notes",
    app_category="cross-device",
    intents=[WORLD_INTENT],
    value_pools={
        "vendor": [name for name, _ in VENDORS],
        "month": MONTHS,
        "title": TITLES,
        "amount": AMOUNTS,
        "decoy": AMOUNTS[::-1],
    },
    evaluator_generator=invoice_note_checkpoint,
    solution_generator=invoice_note_solution,
    near_misses=[
        NearMiss("copies the amount of another month's invoice", solution=invoice_note_other_month),
        NearMiss(
            "writes the note in the browser, not on the phone", solution=invoice_note_in_browser
        ),
    ],
)


# ---------------------------------------- contact by company -> phone text
def company_sms_checkpoint(
    first: str, company: str, name: str, text: str, number: str, decoy: str
) -> Evaluator:
    return aev.message_sent(by=PHONE, to=number, text=text)


def company_sms_solution(
    first: str, company: str, name: str, text: str, number: str, decoy: str
) -> list[ActionCall]:
    return [*find_contact_in_browser(first, name), *sms_on_phone(number, text)]


def company_sms_lookalike(
    first: str, company: str, name: str, text: str, number: str, decoy: str
) -> list[ActionCall]:
    """Texts the look-alike (same first name, a surname a letter away)."""
    return [*find_contact_in_browser(first, name), *sms_on_phone(decoy, text)]


def company_sms_in_browser(
    first: str, company: str, name: str, text: str, number: str, decoy: str
) -> list[ActionCall]:
    return [*find_contact_in_browser(first, name), *sms_in_browser(number, text)]


COMPANY_SMS = SubTask(
    id="world.text_contact_by_company",
    description='From the phone, text "{text}" to {first} who works at {company} (look the '
    "number up in the contacts).",
    attributes={
        "first": "name",
        "company": "str",
        "name": "name",
        "text": "text",
        "number": "phone_number",
        "decoy": "phone_number",
    },
    outputs=["sms"],
    env=P,
    app="messages",
    app_category="communication",
    intents=[WORLD_INTENT],
    value_pools={
        "first": FIRSTS,
        "company": COMPANIES,
        "name": NAMES,
        "text": TEXTS,
        "number": NUMBERS,
        "decoy": NUMBERS[::-1],
    },
    evaluator_generator=company_sms_checkpoint,
    solution_generator=company_sms_solution,
    near_misses=[
        NearMiss("texts the look-alike contact", solution=company_sms_lookalike),
        NearMiss("sends it from the browser, not the phone", solution=company_sms_in_browser),
    ],
)


# ------------------------------- unchecked items of a checklist -> desktop
def checklist_file_checkpoint(note: str, path: str, count: str, decoy: str) -> Evaluator:
    return hp.file_holds(path=path, content=count)


def checklist_file_solution(note: str, path: str, count: str, decoy: str) -> list[ActionCall]:
    return [*open_note_in_browser(note), *mousepad_new(count, path)]


def checklist_file_checked(note: str, path: str, count: str, decoy: str) -> list[ActionCall]:
    """Counts the ticked items instead of the open ones."""
    return [*open_note_in_browser(note), *mousepad_new(decoy, path)]


CHECKLIST_FILE = SubTask(
    id="world.checklist_count_to_desktop",
    description='Count the items of the "{note}" checklist note that are not ticked yet and, '
    "on the computer, save just that number in the text file {path} with the text editor.",
    attributes={"note": "str", "path": "desktop_file", "count": "str", "decoy": "str"},
    outputs=["desktop_file"],
    env=D,
    app="text editor",
    app_category="cross-device",
    intents=[WORLD_INTENT],
    value_pools={"note": CHECKLISTS, "path": WORLD_FILES, "count": COUNTS, "decoy": COUNTS[::-1]},
    evaluator_generator=checklist_file_checkpoint,
    solution_generator=checklist_file_solution,
    near_misses=[NearMiss("counts the ticked items", solution=checklist_file_checked)],
)


# ------------------- two contacts match: only the user can say which (L3)
def ask_which_checkpoints(first: str, text: str, number: str, decoy: str) -> list[Evaluator]:
    return [
        user_was_asked(kind=WHICH_CONTACT),
        aev.message_sent(by=PHONE, to=number, text=text),
    ]


def ask_which_solution(first: str, text: str, number: str, decoy: str) -> list[ActionCall]:
    return [
        *phone_app("drawer_contacts"),
        call("root", "call_user", kind=WHICH_CONTACT),
        *sms_on_phone(number, text),
    ]


def ask_which_guessing(first: str, text: str, number: str, decoy: str) -> list[ActionCall]:
    """Picks one of the matching contacts without asking (here, the right one: luck)."""
    return [*phone_app("drawer_contacts"), *sms_on_phone(number, text)]


def ask_which_other(first: str, text: str, number: str, decoy: str) -> list[ActionCall]:
    """Asks, but texts the other match anyway."""
    return [
        *phone_app("drawer_contacts"),
        call("root", "call_user", kind=WHICH_CONTACT),
        *sms_on_phone(decoy, text),
    ]


ASK_WHICH = SubTask(
    id="world.text_ambiguous_contact",
    description='From the phone, text "{text}" to {first}.',
    attributes={"first": "name", "text": "text", "number": "phone_number", "decoy": "phone_number"},
    outputs=["sms"],
    env=P,
    app="messages",
    app_category="communication",
    intents=[WORLD_INTENT],
    value_pools={"first": FIRSTS, "text": TEXTS, "number": NUMBERS, "decoy": NUMBERS[::-1]},
    evaluator_generator=ask_which_checkpoints,
    solution_generator=ask_which_solution,
    near_misses=[
        NearMiss("texts one of the matches without asking which", solution=ask_which_guessing),
        NearMiss("asks, then texts the other match", solution=ask_which_other),
    ],
)


TEMPLATES: list[SubTask] = [INVOICE_NOTE, COMPANY_SMS, CHECKLIST_FILE, ASK_WHICH]
