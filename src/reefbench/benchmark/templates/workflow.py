"""What reef-v2's long workflows share: the account's steps (a reply, a text from the
phone, an event, a dated to-do, a note on the phone), the checkpoints on what they say,
and the spellings a person may give a figure, a time or a date.

A long workflow (issue 33, family 7) is a chain of four steps across the
account's apps and the phone, where each step needs what an earlier one found: the total
computed from a file goes into a reply and a text message, the time agreed in a thread
into an event. Each template is one subtask whose checkpoints form a chain, one per step,
and every checkpoint checks the content that flowed (the number, the name, the time), so
the completion ratio says how far along the chain an agent got with the right content.
The templates live in one module each (:mod:`.workflow_invoice`, :mod:`.workflow_lunch`,
:mod:`.workflow_trip`, :mod:`.workflow_handover`, :mod:`.workflow_minutes`), gathered by
theme in :mod:`.workflow_money` and :mod:`.workflow_plans`.
"""

from __future__ import annotations

from datetime import date as Date

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.benchmark.templates.browser import typed_date, typed_time
from reefbench.benchmark.templates.common import PEOPLE as PHONE_PEOPLE
from reefbench.benchmark.templates.common import browser_app, browser_fill, call, phone_app
from reefbench.benchmark.templates.reasoning import money_spellings
from reefbench.envs.services import evaluators as aev
from reefbench.envs.services.attribution import PHONE
from reefbench.tasks.task import ActionStep

B = "browser"
P = "phone"
WORKFLOW_INTENT = "carry a piece of work through several apps"
# Eight cases per template: five templates give the family's forty tasks.
CASES = [str(i) for i in range(8)]


def account(action: object) -> ActionStep:
    return ActionStep(env="services", action=action)  # type: ignore[arg-type]


# ------------------------------------------------------------------- spellings
def time_spellings(hhmm: str) -> list[str]:
    """The ways a time may be written ("14:30", "14.30", "2:30 pm", "2.30pm", ...)."""
    hour, minute = (int(x) for x in hhmm.split(":"))
    twelve, half = (hour % 12) or 12, "am" if hour < 12 else "pm"
    clocks = [f"{twelve}:{minute:02d}", f"{twelve}.{minute:02d}"]
    if not minute:
        clocks.append(str(twelve))
    spoken = [f"{c}{gap}{s}" for c in clocks for gap in ("", " ") for s in (half, f"{half[0]}.m")]
    plain = [hhmm, hhmm.replace(":", "."), f"{hour}:{minute:02d}", f"{hour}h{minute:02d}"]
    return list(dict.fromkeys([*plain, *spoken]))


def day_spellings(iso: str) -> list[str]:
    d = Date.fromisoformat(iso)
    month = d.strftime("%B")
    return [
        iso,
        f"{d.day} {month}",
        f"{month} {d.day}",
        f"{d.day}th {month}",
        f"{month} {d.day}th",
        f"{d.day}/{d.month}",
        f"{d.month}/{d.day}",
    ]


def long_day(iso: str) -> str:
    """A day as a person writes it in a mail: "Wednesday 5 June"."""
    d = Date.fromisoformat(iso)
    return f"{d.strftime('%A')} {d.day} {d.strftime('%B')}"


def phone_number(name: str) -> str:
    """The number of one of the phone's people (:data:`~.common.PEOPLE`)."""
    return next(number for person, number, _ in PHONE_PEOPLE if person == name)


def amount_spellings(amount: float) -> list[str]:
    return money_spellings(amount).split("|")


def said(spellings: list[str]) -> str:
    """One fact of :func:`~reefbench.envs.services.evaluators.mail_states`: any spelling."""
    return "|".join(spellings)


# ------------------------------------------------------------------ checkpoints
def text_states(to: str, spellings: list[str]) -> Evaluator:
    """A text message sent from the phone to ``to`` (a contact's name or a number) says
    one of ``spellings``."""
    checks = [aev.message_sent(by=PHONE, to=to, text=s) for s in spellings]
    found = checks[0]
    for check in checks[1:]:
        found = found | check
    return found


def text_states_all(to: str, facts: list[list[str]]) -> Evaluator:
    """Texts from the phone to ``to`` say every fact (each in one of its spellings)."""
    found = text_states(to, facts[0])
    for spellings in facts[1:]:
        found = found & text_states(to, spellings)
    return found


def reply_states(
    subjects: list[str],
    to: str,
    facts: list[str],
    forbidden: list[str] = (),  # type: ignore[assignment]
) -> Evaluator:
    """A mail to ``to`` under one of ``subjects`` (a reply to either mail of a thread)
    states every fact and none of the forbidden ones."""
    checks = [
        aev.mail_states(to=to, subject=s, facts=facts, forbidden=list(forbidden)) for s in subjects
    ]
    found = checks[0]
    for check in checks[1:]:
        found = found | check
    return found


def note_lists(title: str, facts: list[str], forbidden: list[str] = ()) -> Evaluator:  # type: ignore[assignment]
    """A note titled ``title``, made on the phone, says every fact and none of the
    forbidden ones."""
    found = aev.note_contains(by=PHONE, title=title, text=facts[0])
    for fact in facts[1:]:
        found = found & aev.note_contains(by=PHONE, title=title, text=fact)
    for fact in forbidden:
        found = found & ~aev.note_contains(title=title, text=fact)
    return found


# ------------------------------------------------------------------ reference steps
def open_file(path: str) -> list[ActionCall]:
    """Open a file in the browser's Files (its content shows in the page)."""
    *folders, name = path.split("/")
    return [
        *browser_app("Files"),
        *(call(B, "click_on", name=f, role="link") for f in folders),
        call(B, "click_on", name=name, role="link"),
    ]


def open_mail(subject: str) -> list[ActionCall]:
    return [*browser_app("Mail"), call(B, "click_on", name=subject, role="link")]


def reply(subject: str, text: str) -> list[ActionCall]:
    """Open the mail with this subject and reply with ``text`` above the quote."""
    return [
        *open_mail(subject),
        call(B, "click_on", name="Reply", role="link"),
        call(B, "click_on", name="Message", role="textbox"),
        call(B, "press", key="Control+Home"),
        call(B, "write_text", text=text),
        call(B, "click_on", name="Send", role="button"),
    ]


def text_from_phone(to: str, text: str) -> list[ActionCall]:
    return [
        *phone_app("drawer_messages"),
        call(P, "tap_on", name="Start chat"),
        call(P, "tap_on", name="to"),
        call(P, "write_text", text=to),
        call(P, "tap_on", name="body"),
        call(P, "write_text", text=text),
        call(P, "tap_on", name="Send"),
    ]


def note_on_phone(title: str, body: str) -> list[ActionCall]:
    return [
        *phone_app("drawer_notes"),
        call(P, "tap_on", name="New note"),
        call(P, "tap_on", name="title"),
        call(P, "write_text", text=title),
        call(P, "tap_on", name="body"),
        call(P, "write_text", text=body),
        call(P, "tap_on", name="Save"),
    ]


def contact_on_phone(name: str, number: str) -> list[ActionCall]:
    return [
        *phone_app("drawer_contacts"),
        call(P, "tap_on", name="New contact"),
        call(P, "tap_on", name="name"),
        call(P, "write_text", text=name),
        call(P, "tap_on", name="phone"),
        call(P, "write_text", text=number),
        call(P, "tap_on", name="Save"),
    ]


def shift(hhmm: str, minutes: int) -> str:
    hour, minute = (int(x) for x in hhmm.split(":"))
    total = hour * 60 + minute + minutes
    return f"{total // 60:02d}:{total % 60:02d}"


def event_in_browser(title: str, day: str, start: str, minutes: int = 60) -> list[ActionCall]:
    return [
        *browser_app("Calendar"),
        call(B, "click_on", name="New event"),
        *browser_fill(("Title", title), ("Date", typed_date(day))),
        *browser_fill(
            ("Start time", typed_time(start)), ("End time", typed_time(shift(start, minutes)))
        ),
        call(B, "click_on", name="Save", role="button"),
    ]


def todo_in_browser(title: str, due: str) -> list[ActionCall]:
    return [
        *browser_app("Tasks"),
        *browser_fill(("New task", title), ("Due date", typed_date(due))),
        call(B, "click_on", name="Add task", role="button"),
    ]


def messages_to(*peers: str) -> list[str]:
    """The account's state keys of texts to these peers (a contact's name, their number as
    stored and as bare digits): a text is keyed by the peer it went to, which is the
    number when the agent typed a contact's name, so a checkpoint on the name alone would
    count the right text as a side effect."""
    spellings = [*peers, *("".join(ch for ch in p if ch.isdigit()) for p in peers)]
    return [f"account|messages:{' '.join(p.split()).casefold()}" for p in spellings if p]
