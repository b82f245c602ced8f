"""reef-v2's reasoning family: this quarter's expenses per category, from two dozen mails.

Colleagues claim their expenses by mail (three categories, each claim with a reference,
a date and an amount, in three writing styles, each below an opening longer than the mail
list's preview). The controller asks for the quarter's total per category. The answer
needs every claim read, and seven of them closely: one is dated last quarter (sent in
April); one is sent again and later partly refunded (the refund comes after the resend);
one amount is corrected by a later mail; one claim's category is corrected into another
of the three; one claim's date is corrected back into March, out of the quarter; one
claim's date and amount are only in an attached file. (Playtest: reading 22 claims one
step each was mechanical; the corrections that move a claim were asked for.) The
instruction states each rule; the near misses reply with the totals each slip gives.
"""

from __future__ import annotations

from operator import itemgetter

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.benchmark.templates.common import DOWNLOADS_KEY, browser_app, browser_fill, call
from reefbench.benchmark.templates.reasoning import money, money_spellings
from reefbench.benchmark.templates.reasoning_expenses_claims import (
    OPENINGS,
    Expenses,
    attached_subject,
    attachment_name,
    claim_mail,
    first_name,
    sent_at,
)
from reefbench.benchmark.templates.reasoning_expenses_claims import (
    expenses_case as expenses_case,
)
from reefbench.envs.services import evaluators as aev
from reefbench.envs.services import seeding as sd
from reefbench.envs.services.attribution import BROWSER
from reefbench.tasks.subtask import NearMiss, SubTask
from reefbench.tasks.task import ActionStep

B = "browser"
INTENT = "reason over many items to find the answer"
CASES = [str(i) for i in range(12)]
CONTROLLERS = [
    ("Rita Albrecht", "rita.albrecht@example.com"),
    ("George Mensah", "george.mensah@example.com"),
    ("Elin Sandberg", "elin.sandberg@example.com"),
]
SUBJECTS = ["Q2 expenses by category", "Expense totals for the quarter"]


def expenses_setup(
    case: str, controller: str, email: str, subject: str, categories: str
) -> list[ActionStep]:
    data = expenses_case(case)
    # (when, sender, subject, body, attachments)
    mails: list[tuple[str, str, str, str, dict[str, str]]] = []
    for n, c in enumerate((*data.claims, data.old, data.moved)):
        if c == data.attached:
            body = (
                f"Hi,\n\n{OPENINGS[n % 3]}\n\nMy claim {c.ref} ({c.what}, {c.category}): "
                f"the date and amount are in the attached receipt.\n\n{first_name(c.who)}"
            )
            receipt = (
                f"EXPENSE CLAIM {c.ref}\n\nDate: {c.day}\nCategory: {c.category}\nItem: "
                f"{c.what}\nAmount: EUR {money(c.amount)}\n"
            )
            files = {attachment_name(c): receipt}
            mails.append((sent_at(c.day, 2, n), c.who, attached_subject(c), body, files))
            continue
        amount = data.wrong if c == data.corrected else c.amount
        day = data.stated if c == data.moved else c.day
        kind = data.first_category if c == data.recat else c.category
        subj, body = claim_mail(c, amount, n % 3, day, kind)
        later = 6 if c == data.old else 1 + n % 3
        mails.append((sent_at(day, later, n), c.who, subj, body, {}))
    r = data.resent
    _, again = claim_mail(r, r.amount, 0)
    again = again.replace(
        OPENINGS[0], "I'm not sure my mail about this claim arrived, so here it is again:"
    )
    mails.append((sent_at(r.day, 9, 1), r.who, f"Resending claim {r.ref}", again, {}))
    back = (
        f"Hello,\n\nfor my claim {r.ref} ({r.what}) I got EUR {money(data.refund)} back to my "
        f"card as a partial refund, so please take that off.\n\n{first_name(r.who)}"
    )
    mails.append((sent_at(r.day, 14, 3), r.who, f"Refund on claim {r.ref}", back, {}))
    c = data.corrected
    fix = (
        f"Hi,\n\nsorry, I typed the amount of claim {c.ref} wrong: it is EUR "
        f"{money(c.amount)}, not EUR {money(data.wrong)}.\n\n{first_name(c.who)}"
    )
    mails.append((sent_at(c.day, 5, 2), c.who, f"Correction: claim {c.ref}", fix, {}))
    k = data.recat
    fix = (
        f"Hi,\n\nI put claim {k.ref} ({k.what}) under the wrong category: it should be "
        f"booked under {k.category}, not {data.first_category}. The amount is right."
        f"\n\n{first_name(k.who)}"
    )
    mails.append((sent_at(k.day, 4, 5), k.who, f"Claim {k.ref}: wrong category", fix, {}))
    m = data.moved
    fix = (
        f"Hi,\n\nthe date on my claim {m.ref} ({m.what}) is wrong: the receipt is dated "
        f"{m.day}, not {data.stated}. Everything else is right.\n\n{first_name(m.who)}"
    )
    mails.append((sent_at(data.stated, 3, 4), m.who, f"Claim {m.ref}: wrong date", fix, {}))
    ask = (
        f"Hi,\n\ncould you send me this quarter's expense totals per category ({categories})"
        f"? The claims all came to you by mail.\n\nThanks,\n{controller}"
    )
    mails.append(("2024-06-03T08:10", email, subject, ask, {}))
    return [
        ActionStep(
            env="services",
            action=sd.add_mail(sender=who, subject=s, body=b, date=when, attachments=files),
        )
        for when, who, s, b, files in sorted(mails, key=itemgetter(0, 2))
    ]


def amount_facts(totals: list[float]) -> list[str]:
    return [money_spellings(t) for t in totals]


def expenses_checkpoints(
    case: str, controller: str, email: str, subject: str, categories: str
) -> list[Evaluator]:
    data = expenses_case(case)
    return [
        aev.mail_states(
            by=BROWSER, to=email, subject=f"Re: {subject}", facts=amount_facts(data.totals())
        )
    ]


def _text(data: Expenses, totals: list[float]) -> str:
    lines = [f"{k}: EUR {money(t)}" for k, t in zip(data.categories, totals, strict=True)]
    return "Hi,\n\nthis quarter's expenses per category:\n" + "\n".join(lines) + "\n"


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


def _answer(case: str, subject: str, **slips: bool) -> list[ActionCall]:
    data = expenses_case(case)
    read = [
        *browser_app("Mail"),
        call(B, "click_on", name="Search mail"),
        call(B, "write_text", text=data.attached.ref + "\n"),
        call(B, "click_on", name=attached_subject(data.attached), role="link"),
        call(B, "click_on", name=f"Save {attachment_name(data.attached)} to Files", role="button"),
    ]
    return [*read, *_reply(subject, _text(data, data.totals(**slips)))]


def expenses_solution(
    case: str, controller: str, email: str, subject: str, categories: str
) -> list[ActionCall]:
    return _answer(case, subject)


def expenses_new_mail(
    case: str, controller: str, email: str, subject: str, categories: str
) -> list[ActionCall]:
    """Writes a new mail with the reply's subject instead of pressing Reply."""
    data = expenses_case(case)
    return [
        *browser_app("Mail"),
        call(B, "click_on", name="Compose"),
        *browser_fill(
            ("To", email), ("Subject", f"Re: {subject}"), ("Message", _text(data, data.totals()))
        ),
        call(B, "click_on", name="Send", role="button"),
    ]


def expenses_allowances(
    case: str, controller: str, email: str, subject: str, categories: str
) -> list[str]:
    """The attached receipt saved to Files (the reference's way) or downloaded."""
    name = attachment_name(expenses_case(case).attached)
    return [f"account|files:{name.casefold()}", DOWNLOADS_KEY]


def expenses_with_old(
    case: str, controller: str, email: str, subject: str, categories: str
) -> list[ActionCall]:
    return _answer(case, subject, old=True)


def expenses_resent_twice(
    case: str, controller: str, email: str, subject: str, categories: str
) -> list[ActionCall]:
    return _answer(case, subject, resent=True)


def expenses_first_amount(
    case: str, controller: str, email: str, subject: str, categories: str
) -> list[ActionCall]:
    return _answer(case, subject, wrong=True)


def expenses_keeps_refund(
    case: str, controller: str, email: str, subject: str, categories: str
) -> list[ActionCall]:
    return _answer(case, subject, refund=False)


def expenses_misses_attached(
    case: str, controller: str, email: str, subject: str, categories: str
) -> list[ActionCall]:
    return _answer(case, subject, attached=False)


def expenses_first_category(
    case: str, controller: str, email: str, subject: str, categories: str
) -> list[ActionCall]:
    return _answer(case, subject, recat=True)


def expenses_first_date(
    case: str, controller: str, email: str, subject: str, categories: str
) -> list[ActionCall]:
    return _answer(case, subject, moved=True)


def _records() -> list[dict[str, str]]:
    out = []
    for n, case in enumerate(CASES):
        a, b, c = expenses_case(case).categories
        name, email = CONTROLLERS[n % len(CONTROLLERS)]
        subject = SUBJECTS[n % len(SUBJECTS)]
        out.append(
            {
                "case": case,
                "controller": name,
                "email": email,
                "subject": subject,
                "categories": f"{a}, {b} and {c}",
            }
        )
    return out


QUARTER_EXPENSES = SubTask(
    id="reasoning.quarter_expenses",
    description='In the browser, reply to the mail "{subject}" from our controller '
    "{controller} with this quarter's total in EUR for each of the categories {categories}. "
    "The expense claims are colleagues' mails in the browser's Mail. Count only expenses "
    "dated this quarter (April to June 2024); count a claim once even if it was sent again; "
    "where a colleague corrected a claim (its amount, date or category), the correction "
    "counts; subtract any refund a colleague reports on a claim.",
    attributes={
        "case": "str",
        "controller": "name",
        "email": "email",
        "subject": "str",
        "categories": "str",
    },
    outputs=["mail"],
    env=B,
    app="mail",
    app_category="communication",
    intents=[INTENT],
    value_records=_records(),
    setup_generator=expenses_setup,
    evaluator_generator=expenses_checkpoints,
    solution_generator=expenses_solution,
    alternative_generators=[expenses_new_mail],
    allowances=expenses_allowances,
    near_misses=[
        NearMiss("counts the claim dated last quarter", solution=expenses_with_old),
        NearMiss("counts the resent claim twice", solution=expenses_resent_twice),
        NearMiss("uses an amount its sender corrected", solution=expenses_first_amount),
        NearMiss("ignores the refund", solution=expenses_keeps_refund),
        NearMiss(
            "leaves out the claim whose amount is attached", solution=expenses_misses_attached
        ),
        NearMiss(
            "books a claim under the category it was corrected from",
            solution=expenses_first_category,
        ),
        NearMiss(
            "counts a claim whose date was corrected into March", solution=expenses_first_date
        ),
    ],
)

TEMPLATES: list[SubTask] = [QUARTER_EXPENSES]
