"""reef-v2's reasoning family: this quarter's expenses per category, from two dozen mails.

Colleagues claim their expenses by mail (three categories, each claim with a reference,
a date and an amount, in three writing styles). The controller asks for the quarter's
total per category. The answer needs every claim read, and five of them closely: one is
dated last quarter (sent in April), one is sent again, one amount is corrected by a later
mail, one is partly refunded, and one claim's date and amount are only in an attached
file. The instruction states each rule; the near misses reply with the totals each slip
gives (last quarter counted, the resent claim twice, the first amount, the refund kept,
the attached claim left out).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from operator import itemgetter

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.benchmark.templates.common import browser_app, browser_fill, call
from reefbench.benchmark.templates.reasoning import money, money_spellings
from reefbench.envs.services import evaluators as aev
from reefbench.envs.services import seeding as sd
from reefbench.envs.services.attribution import BROWSER
from reefbench.tasks.subtask import NearMiss, SubTask
from reefbench.tasks.task import ActionStep

B = "browser"
INTENT = "reason over many items to find the answer"
CASES = [str(i) for i in range(12)]
# Each category's seven kinds of expense ("; " between them).
WHAT = {
    "Travel": "train to Hamburg; taxi to the airport; hotel in Lyon; "
    "flight to Vienna; rental car; parking at the trade fair; train to Utrecht",
    "Meals": "team lunch; client dinner; workshop catering; "
    "breakfast meeting; lunch with a supplier; farewell dinner; coffee for the offsite",
    "Software": "design tool licence; cloud storage subscription; PDF editor licence; "
    "survey tool subscription; font licence; password manager seats; video editing licence",
    "Office supplies": "printer toner; notebooks and pens; desk lamp; "
    "USB-C cables; whiteboard markers; label printer tape; monitor stand",
    "Training": "online course; conference ticket; workshop fee; "
    "book on negotiation; language lessons; certification exam; webinar series",
}
COLLEAGUES = [
    ("Nadia Okafor", "nadia.okafor@example.com"),
    ("Pieter de Vries", "pieter.devries@example.com"),
    ("Carla Benedetti", "carla.benedetti@example.com"),
    ("Samuel Lindgren", "samuel.lindgren@example.com"),
    ("Mei Chen", "mei.chen@example.com"),
    ("Tobias Krause", "tobias.krause@example.com"),
]
CONTROLLERS = [
    ("Rita Albrecht", "rita.albrecht@example.com"),
    ("George Mensah", "george.mensah@example.com"),
    ("Elin Sandberg", "elin.sandberg@example.com"),
]
SUBJECTS = ["Q2 expenses by category", "Expense totals for the quarter"]


@dataclass(frozen=True)
class Claim:
    ref: str
    who: str  # the colleague's address
    day: str
    category: str
    what: str
    amount: float


@dataclass(frozen=True)
class Expenses:
    categories: tuple[str, str, str]
    claims: tuple[Claim, ...]  # this quarter's, with corrected amounts (the answer's items)
    old: Claim  # dated in March, sent in April
    resent: Claim  # of ``claims``: sent twice
    corrected: Claim  # of ``claims``: first sent with ``wrong`` amount
    wrong: float
    refunded: Claim  # of ``claims``: partly refunded by ``refund``
    refund: float
    attached: Claim  # of ``claims``: its date and amount only in an attached file

    def totals(
        self,
        old: bool = False,
        resent: bool = False,
        wrong: bool = False,
        refund: bool = True,
        attached: bool = True,
    ) -> list[float]:
        """Each category's total, or the total a slip gives."""
        sums = dict.fromkeys(self.categories, 0.0)
        for c in self.claims:
            if c == self.attached and not attached:
                continue
            sums[c.category] += self.wrong if (wrong and c == self.corrected) else c.amount
        if old:
            sums[self.old.category] += self.old.amount
        if resent:
            sums[self.resent.category] += self.resent.amount
        if refund:
            sums[self.refunded.category] -= self.refund
        return [round(sums[k], 2) for k in self.categories]


def expenses_case(case: str) -> Expenses:
    rng = random.Random(f"reasoning-expenses-{case}")
    categories = tuple(rng.sample(sorted(WHAT), 3))
    people = [a for _, a in rng.sample(COLLEAGUES, 4)]
    refs = rng.sample(range(2100, 2999), 22)
    whats = {k: rng.sample(WHAT[k].split("; "), 7) for k in categories}

    def claim(n: int, category: str, day: str) -> Claim:
        what = whats[category].pop()
        amount = round(rng.randint(1200, 48000) / 100, 2)
        return Claim(f"EX-{refs[n]}", rng.choice(people), day, category, what, amount)

    def q2_day() -> str:
        return f"2024-{rng.choice(['04', '05'])}-{rng.randint(2, 20):02d}"

    claims = [claim(n, categories[n % 3], q2_day()) for n in range(18)]
    old = claim(18, rng.choice(categories), f"2024-03-{rng.randint(25, 29):02d}")
    resent, corrected, refunded, attached = rng.sample(claims, 4)
    wrong = round(corrected.amount + rng.choice([-9, 9, -18, 27]), 2)
    if wrong <= 0:
        wrong = round(corrected.amount + 9, 2)
    refund = round(refunded.amount * rng.choice([0.25, 0.4, 0.5]), 2)
    assert categories[0] and len(categories) == 3
    return Expenses(
        (categories[0], categories[1], categories[2]),
        tuple(claims),
        old,
        resent,
        corrected,
        wrong,
        refunded,
        refund,
        attached,
    )


def first_name(address: str) -> str:
    return next(n for n, a in COLLEAGUES if a == address).split()[0]


def attachment_name(claim: Claim) -> str:
    return f"claim-{claim.ref}.txt"


def attached_subject(claim: Claim) -> str:
    return f"Expense claim {claim.ref} - receipt attached"


def _claim_mail(c: Claim, amount: float, style: int) -> tuple[str, str]:
    me = first_name(c.who)
    if style == 0:
        return (
            f"Expense claim {c.ref}",
            f"Hi,\n\nplease book this expense:\n\nClaim: {c.ref}\nDate: {c.day}\nCategory: "
            f"{c.category}\nAmount: EUR {money(amount)}\nWhat: {c.what}\n\n{me}",
        )
    if style == 1:
        return (
            f"{c.category} expense of {c.day}",
            f"Hello,\n\n{c.what} on {c.day}: EUR {money(amount)}, category {c.category}. "
            f"Claim reference {c.ref}.\n\nThanks,\n{me}",
        )
    return (
        f"Claim {c.ref} ({c.what})",
        f"Hi,\n\n  Claim     {c.ref}\n  Category  {c.category}\n  Dated     {c.day}\n"
        f"  Amount    EUR {money(amount)}\n\nCheers,\n{me}",
    )


def _sent(day: str, later: int, n: int) -> str:
    month, dom = int(day[5:7]), int(day[8:10]) + later
    if dom > 28:
        month, dom = month + 1, dom - 27
    stamp = f"2024-{month:02d}-{dom:02d}"
    return f"{min(stamp, '2024-06-02')}T{8 + n % 9:02d}:{(13 * n) % 60:02d}"


def expenses_setup(
    case: str, controller: str, email: str, subject: str, categories: str
) -> list[ActionStep]:
    data = expenses_case(case)
    # (when, sender, subject, body, attachments)
    mails: list[tuple[str, str, str, str, dict[str, str]]] = []
    for n, c in enumerate((*data.claims, data.old)):
        if c == data.attached:
            body = (
                f"Hi,\n\nmy claim {c.ref} ({c.what}, {c.category}): the date and amount are "
                f"in the attached receipt.\n\n{first_name(c.who)}"
            )
            receipt = (
                f"EXPENSE CLAIM {c.ref}\n\nDate: {c.day}\nCategory: {c.category}\nItem: "
                f"{c.what}\nAmount: EUR {money(c.amount)}\n"
            )
            files = {attachment_name(c): receipt}
            mails.append((_sent(c.day, 2, n), c.who, attached_subject(c), body, files))
            continue
        amount = data.wrong if c == data.corrected else c.amount
        subj, body = _claim_mail(c, amount, n % 3)
        later = 6 if c == data.old else 1 + n % 3
        mails.append((_sent(c.day, later, n), c.who, subj, body, {}))
    r = data.resent
    _, again = _claim_mail(r, r.amount, 0)
    again = again.replace(
        "please book this expense:",
        "I'm not sure my mail about this claim arrived, so here it is again:",
    )
    mails.append((_sent(r.day, 9, 1), r.who, f"Resending claim {r.ref}", again, {}))
    c = data.corrected
    fix = (
        f"Hi,\n\nsorry, I typed the amount of claim {c.ref} wrong: it is EUR "
        f"{money(c.amount)}, not EUR {money(data.wrong)}.\n\n{first_name(c.who)}"
    )
    mails.append((_sent(c.day, 5, 2), c.who, f"Correction: claim {c.ref}", fix, {}))
    f = data.refunded
    back = (
        f"Hello,\n\nfor my claim {f.ref} ({f.what}) I got EUR {money(data.refund)} back to my "
        f"card as a partial refund, so please take that off.\n\n{first_name(f.who)}"
    )
    mails.append((_sent(f.day, 11, 3), f.who, f"Refund on claim {f.ref}", back, {}))
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
    return [f"account|files:{name.casefold()}", "desktop|file:/home/user/Downloads"]


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
    "where a colleague corrected an amount, the correction counts; subtract any refund a "
    "colleague reports on a claim.",
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
    ],
)

TEMPLATES: list[SubTask] = [QUARTER_EXPENSES]
