"""reef-v2's reasoning family: invoices received this quarter but missing from the ledger.

Playtesters passed the first version (seven mails, three answers) at a glance: every
invoice was clean text in one mail. This one makes the agent work through two dozen
items in three places: fifteen vendor mails in Mail, an eight-row ledger in the
account's Files and three paper invoices scanned into a folder on the computer (pictures
without a text layer: their number, date and amount are only in pixels). Six invoices
are missing, each found differently: an invoice mail that also got a reminder (counted
once), one named only by a reminder, one only in an attached file, one only on a scan,
one whose mail was sent twice, and one written with a decimal comma that a credit note
partly cancels. The look-alikes: a missing invoice whose number is a ledger entry's with
two digits swapped, a reminder for an invoice already recorded, a scan of an invoice
already recorded, an invoice mail and a scan dated late March. The instruction states
every rule (the quarter, where invoices came from, each counted once, credit notes
subtracted, no other number mentioned); the near misses are each slip's reply.
"""

from __future__ import annotations

from operator import attrgetter, itemgetter

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.benchmark import pixel_images as px
from reefbench.benchmark.templates.common import (
    DOWNLOADS_KEY,
    browser_app,
    browser_fill,
    call,
    expand,
)
from reefbench.benchmark.templates.drawing import drawing_open
from reefbench.benchmark.templates.reasoning import REASONING_INTENT, money, money_spellings
from reefbench.benchmark.templates.reasoning_ledger_items import (
    ACCOUNTANTS,
    ASK_SUBJECTS,
    CASES,
    LEDGER,
    SCAN_FOLDERS,
    TILTS,
    Invoice,
    Ledger,
    attachment_name,
    ledger_case,
    mail_day,
    scan_name,
    vendor_mails,
)
from reefbench.envs.services import evaluators as aev
from reefbench.envs.services import seeding as sd
from reefbench.envs.services.attribution import BROWSER
from reefbench.tasks.subtask import NearMiss, SubTask
from reefbench.tasks.task import ActionStep

B = "browser"
D = "desktop"


def reconcile_setup(
    case: str, accountant: str, email: str, subject: str, ledger: str, scans: str
) -> list[ActionStep]:
    data = ledger_case(case)
    paid = sorted([*data.recorded, *data.ledger_only], key=attrgetter("day"))
    rows = ["invoice,vendor,amount_eur,paid_on"] + [
        f"{i.number},{i.vendor},{money(i.amount)},{mail_day(i.day, 12)[:10]}" for i in paid
    ]
    steps = [
        ActionStep(env="services", action=sd.add_file(path=ledger, content="\n".join(rows) + "\n"))
    ]
    images = [
        {
            "name": scan_name(data, inv),
            "kind": "invoice",
            "vendor": inv.vendor,
            "number": inv.number,
            "date": inv.day,
            "total": money(inv.amount),
            "tilt": TILTS[k],
        }
        for k, inv in enumerate(data.scans)
    ]
    steps.append(ActionStep(env=D, action=px.draw_pixel_images(folder=scans, images=images)))
    for when, sender, subject_, body, files in sorted(vendor_mails(data), key=itemgetter(0, 2)):
        mail = sd.add_mail(sender=sender, subject=subject_, body=body, date=when, attachments=files)
        steps.append(ActionStep(env="services", action=mail))
    ask = (
        "Hi,\n\nbefore I close the quarter: which invoices dated this quarter did we receive, "
        f"by mail or on paper (you scanned those into {scans}), that are still not in the "
        f"ledger ({ledger})? Please send me their numbers and what they add up to, less any "
        f"credit notes.\n\nThanks,\n{accountant}"
    )
    mail = sd.add_mail(sender=email, subject=subject, body=ask, date="2024-06-03T08:30")
    steps.append(ActionStep(env="services", action=mail))
    return steps


def decoys(data: Ledger) -> list[str]:
    """Every other invoice number the items name: none may be in the reply."""
    others = (*data.recorded, *data.ledger_only, data.last_quarter, data.old_scan)
    return [i.number for i in others]


def reconcile_checkpoints(
    case: str, accountant: str, email: str, subject: str, ledger: str, scans: str
) -> list[Evaluator]:
    data = ledger_case(case)
    facts = [*(i.number for i in data.missing), money_spellings(data.total)]
    return [
        aev.mail_states(
            by=BROWSER, to=email, subject=f"Re: {subject}", facts=facts, forbidden=decoys(data)
        )
    ]


def reply_text(invoices: list[Invoice], total: float) -> str:
    listed = "\n".join(f"{i.number} ({i.vendor}, EUR {money(i.amount)})" for i in invoices)
    return (
        f"Hi,\n\nthese invoices are not in the ledger yet:\n{listed}\n"
        f"Total, less the credit note: EUR {money(total)}\n"
    )


def _reply(subject: str, text: str) -> list[ActionCall]:
    return [
        *browser_app("Mail"),
        call(B, "click_on", name=subject, role="link"),
        call(B, "click_on", name="Reply", role="link"),
        call(B, "click_on", name="Message", role="textbox"),
        call(B, "press", key="Control+Home"),
        call(B, "write_text", text=text),
        call(B, "click_on", name="Send", role="button"),
    ]


def _read_ledger(ledger: str) -> list[ActionCall]:
    folder, name = ledger.split("/")
    return [
        *browser_app("Files"),
        call(B, "click_on", name=folder, role="link"),
        call(B, "click_on", name=name, role="link"),
    ]


def _read_scans(data: Ledger, scans: str) -> list[ActionCall]:
    """Open the first scan in the image editor, each next one in a new tab."""
    paths = [f"{scans}/{scan_name(data, inv)}" for inv in data.scans]
    more = [
        a
        for path in paths[1:]
        for a in (
            call(D, "hotkey", keys=["ctrl", "o"]),
            call(D, "write_text", text=expand(path) + "\n"),
            call(D, "click_on", name="New Tab", role="push button"),
        )
    ]
    return [*drawing_open(paths[0]), *more]


def _save_attachment(inv: Invoice) -> list[ActionCall]:
    return [
        *browser_app("Mail"),
        call(B, "click_on", name=f"Documents from {inv.vendor}", role="link"),
        call(B, "click_on", name=f"Save {attachment_name(inv)} to Files", role="button"),
    ]


def _answer(
    data: Ledger, scans: str, ledger: str, subject: str, invoices: list[Invoice], total: float
) -> list[ActionCall]:
    """Read the scans and the ledger, then reply listing ``invoices`` and ``total``."""
    return [
        *_read_scans(data, scans),
        *_read_ledger(ledger),
        *_reply(subject, reply_text(invoices, total)),
    ]


def reconcile_solution(
    case: str, accountant: str, email: str, subject: str, ledger: str, scans: str
) -> list[ActionCall]:
    data = ledger_case(case)
    right = list(data.missing)
    return [
        *_save_attachment(data.attached),
        *_answer(data, scans, ledger, subject, right, data.total),
    ]


def reconcile_allowances(
    case: str, accountant: str, email: str, subject: str, ledger: str, scans: str
) -> list[str]:
    """Reading the attached invoice: saved to Files (the reference's way) or downloaded by
    the browser into ~/Downloads (a playtest's right answer failed on it as a side
    effect)."""
    return [
        f"account|files:{attachment_name(ledger_case(case).attached).casefold()}",
        DOWNLOADS_KEY,
    ]


def reconcile_new_mail(
    case: str, accountant: str, email: str, subject: str, ledger: str, scans: str
) -> list[ActionCall]:
    """Reads the attachment through the mail's Download link and writes a new mail with
    the reply's subject instead of pressing Reply."""
    data = ledger_case(case)
    name = attachment_name(data.attached)
    text = reply_text(list(data.missing), data.total)
    return [
        *browser_app("Mail"),
        call(B, "click_on", name=f"Documents from {data.attached.vendor}", role="link"),
        call(B, "click_on", name=f"Download {name}", role="link"),
        *_read_scans(data, scans),
        *browser_app("Mail"),
        call(B, "click_on", name="Compose"),
        *browser_fill(("To", email), ("Subject", f"Re: {subject}"), ("Message", text)),
        call(B, "click_on", name="Send", role="button"),
    ]


def _slip(
    case: str,
    subject: str,
    ledger: str,
    scans: str,
    add: tuple[Invoice, ...] = (),
    drop: Invoice | None = None,
    extra: float = 0.0,
) -> list[ActionCall]:
    """The reply a slip gives: ``add`` listed too, ``drop`` left out (and its amount),
    ``extra`` added to the total."""
    data = ledger_case(case)
    listed = [i for i in data.missing if i != drop] + list(add)
    total = data.total - (drop.amount if drop else 0.0) + extra
    total += sum(i.amount for i in add)
    return _answer(data, scans, ledger, subject, listed, round(total, 2))


def slip_old_scan(
    case: str, accountant: str, email: str, subject: str, ledger: str, scans: str
) -> list[ActionCall]:
    return _slip(case, subject, ledger, scans, add=(ledger_case(case).old_scan,))


def slip_last_quarter_mail(
    case: str, accountant: str, email: str, subject: str, ledger: str, scans: str
) -> list[ActionCall]:
    return _slip(case, subject, ledger, scans, add=(ledger_case(case).last_quarter,))


def slip_recorded_scan(
    case: str, accountant: str, email: str, subject: str, ledger: str, scans: str
) -> list[ActionCall]:
    """Lists the scanned invoice the ledger already has, its amount not added."""
    data = ledger_case(case)
    return _slip(
        case, subject, ledger, scans, add=(data.recorded[4],), extra=-data.recorded[4].amount
    )


def slip_resent_twice(
    case: str, accountant: str, email: str, subject: str, ledger: str, scans: str
) -> list[ActionCall]:
    return _slip(case, subject, ledger, scans, extra=ledger_case(case).resent.amount)


def slip_credit_ignored(
    case: str, accountant: str, email: str, subject: str, ledger: str, scans: str
) -> list[ActionCall]:
    return _slip(case, subject, ledger, scans, extra=ledger_case(case).credit)


def slip_reminder_only_missed(
    case: str, accountant: str, email: str, subject: str, ledger: str, scans: str
) -> list[ActionCall]:
    return _slip(case, subject, ledger, scans, drop=ledger_case(case).only_reminded)


def slip_scan_missed(
    case: str, accountant: str, email: str, subject: str, ledger: str, scans: str
) -> list[ActionCall]:
    return _slip(case, subject, ledger, scans, drop=ledger_case(case).scanned)


def slip_lookalike_missed(
    case: str, accountant: str, email: str, subject: str, ledger: str, scans: str
) -> list[ActionCall]:
    """Takes the invoice whose number is a ledger entry's, two digits swapped, for that
    entry."""
    return _slip(case, subject, ledger, scans, drop=ledger_case(case).lookalike)


UNRECORDED_INVOICES = SubTask(
    id="reasoning.unrecorded_invoices",
    description='In the browser, reply to the mail "{subject}" from our accountant '
    "{accountant}. In the reply, list the invoice number of every invoice dated this "
    "quarter (April to June 2024) that we received but that is not listed in the ledger "
    "{ledger} in the browser's Files, and the total amount of those invoices in EUR. "
    "Invoices reached us in two ways: named in vendors' mails in the browser's Mail (in an "
    "invoice mail, a payment reminder or an attached file), and on paper, scanned into the "
    "folder {scans} on the computer. Count each invoice once even if it was sent more than "
    "once, and subtract from the total any credit note a vendor issued against one of "
    "those invoices. Do not mention any other invoice number.",
    attributes={
        "case": "str",
        "accountant": "name",
        "email": "email",
        "subject": "str",
        "ledger": "str",
        "scans": "str",
    },
    outputs=["mail"],
    env=B,
    app="mail",
    app_category="communication",
    intents=[REASONING_INTENT],
    value_records=[
        {
            "case": case,
            "accountant": ACCOUNTANTS[n % len(ACCOUNTANTS)][0],
            "email": ACCOUNTANTS[n % len(ACCOUNTANTS)][1],
            "subject": ASK_SUBJECTS[n % len(ASK_SUBJECTS)],
            "ledger": LEDGER,
            "scans": SCAN_FOLDERS[n % len(SCAN_FOLDERS)],
        }
        for n, case in enumerate(CASES)
    ],
    setup_generator=reconcile_setup,
    evaluator_generator=reconcile_checkpoints,
    solution_generator=reconcile_solution,
    alternative_generators=[reconcile_new_mail],
    allowances=reconcile_allowances,
    near_misses=[
        NearMiss("includes the scanned invoice dated March", solution=slip_old_scan),
        NearMiss("includes the mailed invoice dated March", solution=slip_last_quarter_mail),
        NearMiss("lists the scanned invoice the ledger has", solution=slip_recorded_scan),
        NearMiss("counts the invoice sent twice twice", solution=slip_resent_twice),
        NearMiss("ignores the credit note", solution=slip_credit_ignored),
        NearMiss("misses the invoice only a reminder names", solution=slip_reminder_only_missed),
        NearMiss("misses the invoice only a scan shows", solution=slip_scan_missed),
        NearMiss(
            "takes the invoice with a look-alike number for the ledger's",
            solution=slip_lookalike_missed,
        ),
    ],
)
