"""reef-v2's ambiguity family, continued (:mod:`.ambiguity` has the first three): the
instruction fits two targets the account holds, and both look right on a close reading.

- **Text namesake**: "text Alex our new address", with two contacts called Alex but a
  conversation (about the move) with only one of them, at the top of Messages: the other
  Alex is only in Contacts, so an agent must think to check before texting the Alex it
  sees (playtest: with two threads the second Alex was just below the fold and asking was
  plainly right). Half the time the user means the Alex without a conversation.
- **Invoice reply**: "reply to the mail about the invoice", with two vendors' invoice
  mails waiting for approval in the inbox (the newest mail, and one from days earlier
  below other mail) and a third mail that only reminds of one of the two: three invoice
  mails, two invoices, and the reminder makes its invoice look like the one meant (the
  playtest asked for it). The user alone knows which invoice is approved; a reply in the
  reminder's thread, when the reminder is the meant vendor's, counts as the reply.

Checkpoints and near misses follow :mod:`.ambiguity`: "asked, and neither target acted
on yet", then the change on the target the answer names, with the decoy's state governed
so acting on both fails; near misses: acting without asking, asking and acting on the
other one, acting and only then asking.
"""

from __future__ import annotations

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.benchmark.templates.account import sms_in_browser
from reefbench.benchmark.templates.ambiguity import (
    AMBIGUITY_INTENT,
    ASKS_AFTER,
    THE_OTHER,
    WHICH_CONTACT,
    WITHOUT_ASKING,
    _account,
    _ask,
)
from reefbench.benchmark.templates.common import browser_app, call
from reefbench.benchmark.templates.workflow import reply
from reefbench.environments.root import user_was_asked
from reefbench.envs.services import evaluators as aev
from reefbench.envs.services import seeding as sd
from reefbench.envs.services.attribution import BROWSER
from reefbench.tasks.subtask import NearMiss, SubTask
from reefbench.tasks.task import ActionStep

B = "browser"
WHICH_MAIL = "which mail"


# ------------------------------------------- two contacts of one name, two threads
# (first name, full name, number) twice: the one meant and the decoy swap by record.
ALEXES = [
    ("Alex", "Alex Whitmore", "555-0261", "Alex Duarte", "555-0274"),
    ("Sam", "Sam Keller", "555-0283", "Sam Achebe", "555-0219"),
    ("Charlie", "Charlie Brandt", "555-0236", "Charlie Oyelaran", "555-0292"),
    ("Jo", "Jo Tremaine", "555-0245", "Jo Nakamura", "555-0228"),
    ("Kim", "Kim Lindgren", "555-0257", "Kim Abara", "555-0213"),
]
NUMBERS = {full: number for _, a, an, b, bn in ALEXES for full, number in ((a, an), (b, bn))}
ADDRESSES = [
    "14 Elm Row, Leith EH7 4AA",
    "3 Garden Terrace, Bristol BS6 5JL",
    "27 Quarry Lane, Sheffield S11 8RT",
]
# What the Alex with a conversation last said: about the move, not asking for the address.
LUCK = "Good luck with the move this weekend! Shout if you need anything."
# Other people's conversations (name|number|last text|when), all below the Alex's.
OTHERS = [
    line.split("|")
    for line in (
        "Priya Raman|555-0301|Running club is at 7 tomorrow, see you there|2024-06-02T18:40",
        "Tom Fairley|555-0302|Thanks for dinner, it was lovely|2024-06-01T22:05",
        "Dentist reminder|555-0303|Your check-up is on 12 June at 14:20|2024-06-01T10:00",
        "Mira Castell|555-0304|Can you send me the photos from the hike?|2024-05-31T19:12",
        "Ollie Brennan|555-0305|Match is on at the pub at 8|2024-05-31T15:30",
        "Grandma|555-0306|Lovely to see you, come again soon x|2024-05-31T11:02",
        "Nadia Sousa|555-0307|Did you get the concert tickets?|2024-05-30T21:17",
        "Parcel Depot|555-0308|Your parcel is ready for collection|2024-05-30T19:50",
        "Ray Lombard|555-0309|Sure, Tuesday works for the bike repair|2024-05-29T12:40",
        "Ellie Hart|555-0310|Happy birthday!! Have a great day|2024-05-28T08:15",
    )
]
TOP = "2024-06-03T08:20"


def text_setup(
    first: str, name: str, decoy_name: str, address: str, meant_in_thread: bool
) -> list[ActionStep]:
    steps = [_account(sd.add_contact(name=n, phone=NUMBERS[n])) for n in (name, decoy_name)]
    steps += [_account(sd.add_contact(name=o, phone=n)) for o, n, _, _ in OTHERS]
    threaded = name if meant_in_thread else decoy_name
    steps.append(_account(sd.add_message(contact=threaded, text=LUCK, date=TOP)))
    return steps + [
        _account(sd.add_message(contact=o, text=t, date=d, read=True)) for o, _, t, d in OTHERS
    ]


def text_checkpoints(
    first: str, name: str, decoy_name: str, address: str, meant_in_thread: bool
) -> list[Evaluator]:
    return [
        user_was_asked(kind=WHICH_CONTACT)
        & ~aev.message_sent(to=NUMBERS[name])
        & ~aev.message_sent(to=NUMBERS[decoy_name]),
        # the street names the address, however the rest of it is written
        aev.message_sent(by=BROWSER, to=NUMBERS[name], text=address.split(",")[0]),
    ]


def text_solution(
    first: str, name: str, decoy_name: str, address: str, meant_in_thread: bool
) -> list[ActionCall]:
    return [*browser_app("Messages"), *_ask(WHICH_CONTACT), *sms_in_browser(name, address)]


def text_without_asking(
    first: str, name: str, decoy_name: str, address: str, meant_in_thread: bool
) -> list[ActionCall]:
    return [*browser_app("Messages"), *sms_in_browser(name, address)]


def text_the_other(
    first: str, name: str, decoy_name: str, address: str, meant_in_thread: bool
) -> list[ActionCall]:
    return [*browser_app("Messages"), *_ask(WHICH_CONTACT), *sms_in_browser(decoy_name, address)]


def text_asks_after(
    first: str, name: str, decoy_name: str, address: str, meant_in_thread: bool
) -> list[ActionCall]:
    return [*browser_app("Messages"), *sms_in_browser(name, address), *_ask(WHICH_CONTACT)]


TEXT_NAMESAKE = SubTask(
    id="ambiguity.text_new_address",
    description="In the browser's Messages, text {first} our new address: {address}.",
    attributes={
        "first": "name",
        "name": "name",
        "decoy_name": "name",
        "address": "str",
        "meant_in_thread": "bool",
    },
    outputs=["message"],
    env=B,
    app="messages",
    app_category="communication",
    intents=[AMBIGUITY_INTENT],
    value_records=[
        {
            "first": first,
            # the second round swaps which of the two is meant
            "name": b if (i // len(ALEXES)) % 2 else a,
            "decoy_name": a if (i // len(ALEXES)) % 2 else b,
            "address": ADDRESSES[i % len(ADDRESSES)],
            # the one meant has the only conversation in about half the tasks
            "meant_in_thread": i % 2 == 0,
        }
        for i, (first, a, _, b, _) in enumerate(ALEXES * 3)
    ],
    setup_generator=text_setup,
    evaluator_generator=text_checkpoints,
    solution_generator=text_solution,
    near_misses=[
        NearMiss(WITHOUT_ASKING, solution=text_without_asking),
        NearMiss(THE_OTHER, solution=text_the_other),
        NearMiss(ASKS_AFTER, solution=text_asks_after),
    ],
)


def text_answer(
    first: str, name: str, decoy_name: str, address: str, meant_in_thread: bool
) -> dict[str, str]:
    return {WHICH_CONTACT: f"I mean {name}."}


# ------------------------------------------------- two invoices waiting for approval
# vendor -> (sender, subject, invoice number, amount)
VENDORS = {
    line.split("|")[0]: tuple(line.split("|")[1:])
    for line in (
        "Brightline Print|billing@brightline-print.example|Invoice BP-4471 for May|BP-4471|"
        "€1,240.00",
        "Keystone Cleaning|accounts@keystone-clean.example|Your invoice KC-0932|KC-0932|€685.50",
        "Orbit Catering|invoices@orbit-catering.example|Invoice OC-2210 awaiting approval|"
        "OC-2210|€2,015.75",
        "Harbour IT Services|billing@harbour-it.example|Invoice HIT-118 (support, May)|HIT-118|"
        "€930.00",
        "Fernwood Office Supply|ar@fernwood-supply.example|Fernwood invoice FW-5506|FW-5506|"
        "€412.20",
    )
}
PAIRS = [(0, 1), (2, 3), (4, 0), (1, 2), (3, 4)]
REPLIES = [
    "Approved, thanks. Payment goes out on Friday",
    "Approved. We will pay it this week",
    "Thanks, this is approved for payment",
]
# Other mail (sender|subject|text|when): six come between the two invoices.
FILLER_MAILS = [
    line.split("|")
    for line in (
        "facilities@example.com|Fire drill on Wednesday|The drill is at 11:00.|2024-06-02T16:10",
        "newsletter@citynews.example|This week in the city|Markets, road works.|2024-06-01T09:30",
        "it-desk@example.com|Password expiry notice|It expires in 14 days.|2024-05-31T12:00",
        "lena.fischer@example.com|Team lunch|The new place on Thursday?|2024-05-31T08:45",
        "hr@example.com|Summer leave requests|Please send them by 14 June.|2024-05-30T17:20",
        "marek.novak@example.com|Slides for Monday|They are in the shared folder.|2024-05-30T16:05",
        "events@example.com|Quarterly all-hands|It is on 20 June in the atrium.|2024-05-29T10:40",
        "priya.shah@example.com|Parking spaces|Two are free from next week.|2024-05-28T15:55",
    )
]
NEWEST, OLDER, REMINDER = "2024-06-03T08:05", "2024-05-30T14:30", "2024-06-02T11:35"


def _sender(vendor: str) -> str:
    return VENDORS[vendor][0]


def _subject(vendor: str) -> str:
    return VENDORS[vendor][1]


def _invoice_mail(vendor: str, date: str) -> ActionStep:
    sender, subject, number, amount = VENDORS[vendor]
    body = (
        f"Hello,\n\nplease find our invoice {number} for {amount}. Could you reply to "
        f"confirm it is approved so we can schedule it?\n\nKind regards,\n{vendor} accounts"
    )
    return _account(sd.add_mail(sender=sender, subject=subject, body=body, date=date))


def reminder_subject(vendor: str) -> str:
    return f"Reminder: invoice {VENDORS[vendor][2]}"


def _reminder(vendor: str) -> ActionStep:
    sender, subject, number, amount = VENDORS[vendor]
    body = (
        f"Hello,\n\na friendly reminder that our invoice {number} for {amount} (our mail "
        f'"{subject}") is still waiting for your approval. A short reply is all we need.'
        f"\n\nKind regards,\n{vendor} accounts"
    )
    return _account(
        sd.add_mail(sender=sender, subject=reminder_subject(vendor), body=body, date=REMINDER)
    )


def invoice_setup(
    vendor: str, decoy_vendor: str, text: str, right_newest: bool, reminded_meant: bool
) -> list[ActionStep]:
    newest, older = (vendor, decoy_vendor) if right_newest else (decoy_vendor, vendor)
    steps = [_invoice_mail(older, OLDER), _invoice_mail(newest, NEWEST)]
    steps.append(_reminder(vendor if reminded_meant else decoy_vendor))
    return steps + [
        _account(sd.add_mail(sender=s, subject=t, body=b, date=d, read=True))
        for s, t, b, d in FILLER_MAILS
    ]


def _replied(to: str, subject: str, text: str) -> Evaluator:
    """A reply (its subject "Re: ...", or the subject kept) to ``to`` saying ``text``."""
    return aev.mail_sent(by=BROWSER, to=to, subject=f"Re: {subject}", body=text) | aev.mail_sent(
        by=BROWSER, to=to, subject=subject, body=text
    )


def invoice_checkpoints(
    vendor: str, decoy_vendor: str, text: str, right_newest: bool, reminded_meant: bool
) -> list[Evaluator]:
    return [
        user_was_asked(kind=WHICH_MAIL)
        & ~aev.mail_sent(to=_sender(vendor))
        & ~aev.mail_sent(to=_sender(decoy_vendor)),
        # in the invoice's thread, or the reminder's (when it reminds of this invoice)
        _replied(_sender(vendor), _subject(vendor), text)
        | _replied(_sender(vendor), reminder_subject(vendor), text),
    ]


def _reply_to(vendor: str, text: str) -> list[ActionCall]:
    """Find the invoice's mail by its number (the older one is past the inbox's first
    page), then reply in its thread."""
    return [
        call(B, "click_on", name="Search mail"),
        call(B, "write_text", text=VENDORS[vendor][2] + "\n"),
        call(B, "click_on", name=_subject(vendor), role="link"),
        *reply(_subject(vendor), text)[2:],
    ]


def invoice_solution(
    vendor: str, decoy_vendor: str, text: str, right_newest: bool, reminded_meant: bool
) -> list[ActionCall]:
    return [*browser_app("Mail"), *_ask(WHICH_MAIL), *_reply_to(vendor, text)]


def invoice_without_asking(
    vendor: str, decoy_vendor: str, text: str, right_newest: bool, reminded_meant: bool
) -> list[ActionCall]:
    return [*browser_app("Mail"), *_reply_to(vendor, text)]


def invoice_the_other(
    vendor: str, decoy_vendor: str, text: str, right_newest: bool, reminded_meant: bool
) -> list[ActionCall]:
    return [*browser_app("Mail"), *_ask(WHICH_MAIL), *_reply_to(decoy_vendor, text)]


def invoice_asks_after(
    vendor: str, decoy_vendor: str, text: str, right_newest: bool, reminded_meant: bool
) -> list[ActionCall]:
    return [*browser_app("Mail"), *_reply_to(vendor, text), *_ask(WHICH_MAIL)]


_NAMES = list(VENDORS)

INVOICE_REPLY = SubTask(
    id="ambiguity.reply_invoice_mail",
    description='In the browser\'s Mail, reply to the mail about the invoice: "{text}"',
    attributes={
        "vendor": "str",
        "decoy_vendor": "str",
        "text": "text",
        "right_newest": "bool",
        "reminded_meant": "bool",
    },
    outputs=["mail"],
    env=B,
    app="mail",
    app_category="communication",
    intents=[AMBIGUITY_INTENT],
    value_records=[
        {
            # the second round swaps which of the two is meant
            "vendor": _NAMES[b if (i // len(PAIRS)) % 2 else a],
            "decoy_vendor": _NAMES[a if (i // len(PAIRS)) % 2 else b],
            "text": REPLIES[i % len(REPLIES)],
            # the one meant is the newest mail in about half the tasks
            "right_newest": i % 2 == 1,
            # the reminder is of the invoice meant in about half the tasks
            "reminded_meant": (i // 2) % 2 == 0,
        }
        for i, (a, b) in enumerate(PAIRS * 3)
    ],
    setup_generator=invoice_setup,
    evaluator_generator=invoice_checkpoints,
    solution_generator=invoice_solution,
    near_misses=[
        NearMiss(WITHOUT_ASKING, solution=invoice_without_asking),
        NearMiss(THE_OTHER, solution=invoice_the_other),
        NearMiss(ASKS_AFTER, solution=invoice_asks_after),
    ],
)


def invoice_answer(
    vendor: str, decoy_vendor: str, text: str, right_newest: bool, reminded_meant: bool
) -> dict[str, str]:
    return {WHICH_MAIL: f"The one from {vendor}, invoice {VENDORS[vendor][2]}."}


TEMPLATES: list[SubTask] = [TEXT_NAMESAKE, INVOICE_REPLY]
POOL: dict[str, SubTask] = {t.id: t for t in TEMPLATES}
