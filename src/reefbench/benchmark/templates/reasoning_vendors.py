"""reef-v2's reasoning family: the vendor we paid the most this quarter.

Playtesters passed the first version (five vendors, fourteen clean text receipts). This
one spreads seven vendors' payments over twenty mails and three paper receipts scanned
into a folder on the computer (pictures without a text layer), and each rule of the
instruction decides the winner in exactly one place: the winner leads only with its
payment whose receipt exists only as a scan (a close runner-up leads otherwise); a
vendor leads if its March payment (on a scan) is counted, another if its refund is not
subtracted, another if a receipt mailed twice counts twice, another if a payment its
bank declined counts; one vendor made the largest single payment but not the largest
total; one vendor writes amounts with a decimal comma, and one scan is a paper copy of a
receipt also mailed (same reference: counted once). Each slip submits another vendor
(the near misses).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.benchmark import pixel_images as px
from reefbench.benchmark.templates.common import browser_app, call, expand
from reefbench.benchmark.templates.drawing import drawing_open
from reefbench.benchmark.templates.reasoning import PAYEES, REASONING_INTENT, money
from reefbench.benchmark.templates.reasoning_ledger_items import comma
from reefbench.environments.root import answer_equals
from reefbench.envs.services import seeding as sd
from reefbench.tasks.subtask import NearMiss, SubTask
from reefbench.tasks.task import ActionStep

B = "browser"
D = "desktop"
CASES = [str(i) for i in range(10)]
SCAN_FOLDERS = ["~/Documents/Receipts", "~/Pictures/Receipts"]
TILTS = [-1.5, 2.0, -2.5]
QUESTIONS = [
    "Which vendor did we pay the most this quarter?",
    "Who got the most money from us this quarter?",
]


@dataclass(frozen=True)
class Payment:
    vendor: str
    ref: str
    day: str
    amount: float


@dataclass(frozen=True)
class Payments:
    """One case: who wins, who each slip makes win, and every item."""

    winner: str
    no_scan: str  # the most if the scanned receipts are not read
    biggest: str  # the largest single payment, a smaller total
    with_old: str  # the most if its March payment (a scan) counted
    gross: str  # the most if its refund is ignored
    twice: str  # the most if its receipt mailed twice counted twice
    declined: str  # the most if its declined payment counted
    comma_vendor: str  # writes amounts with a decimal comma
    payments: tuple[Payment, ...]  # made, this quarter and March's, each once
    scanned: tuple[Payment, ...]  # of ``payments``: on paper only (the winner's, March's)
    paper_copy: Payment  # of ``payments``: mailed and scanned too
    mailed_twice: Payment  # of ``payments``: its receipt mailed twice
    refund: Payment  # a refund to us
    failed: Payment  # declined: not made

    def totals(
        self,
        scans: bool = True,
        old: bool = False,
        refunds: bool = True,
        copies: bool = False,
        declined: bool = False,
    ) -> dict[str, float]:
        """Each vendor's total under the rules, or under a slip."""
        out: dict[str, float] = {}

        def add(p: Payment, sign: float = 1.0) -> None:
            out[p.vendor] = round(out.get(p.vendor, 0.0) + sign * p.amount, 2)

        for p in self.payments:
            if (scans or p not in self.scanned) and (old or p.day >= "2024-04-01"):
                add(p)
        if copies:
            add(self.mailed_twice)
        if refunds:
            add(self.refund, -1.0)
        if declined:
            add(self.failed)
        return out


def top(totals: dict[str, float]) -> str:
    return max(totals, key=totals.__getitem__)


def _split(rng: random.Random, total: int, parts: int) -> list[int]:
    """``total`` cents in ``parts`` payments of similar size."""
    weights = [rng.uniform(1.0, 1.6) for _ in range(parts)]
    cents = [round(total * w / sum(weights)) for w in weights[:-1]]
    return [*cents, total - sum(cents)]


def payments_case(case: str) -> Payments:
    rng = random.Random(f"reasoning-vendors-{case}")
    winner, no_scan, biggest, with_old, gross, twice, declined = rng.sample(PAYEES, 7)
    refs = iter(rng.sample(range(4100, 9900), 30))
    days = iter(f"2024-{rng.choice(['04', '05'])}-{rng.randint(2, 28):02d}" for _ in range(40))
    made: list[Payment] = []

    def pay(vendor: str, cents: int, day: str = "") -> Payment:
        p = Payment(vendor, f"PAY-{next(refs)}", day or next(days), round(cents / 100, 2))
        made.append(p)
        return p

    w = rng.randint(300000, 360000)
    scan_cents = rng.randint(20000, 30000)
    for cents in _split(rng, w - scan_cents, 3):
        pay(winner, cents)
    on_paper = pay(winner, scan_cents)
    # 60 to 120 below the winner, so first without the winner's scan; everyone else is
    # 150 to 500 below.
    for cents in _split(rng, w - rng.randint(6000, 12000), 3):
        pay(no_scan, cents)
    big = w - rng.randint(15000, 40000)
    pay(biggest, big - 20000)
    pay(biggest, 20000, f"2024-06-0{rng.randint(1, 2)}")
    for cents in _split(rng, w - rng.randint(20000, 50000), 2):
        pay(with_old, cents)
    march = pay(with_old, rng.randint(90000, 140000), f"2024-03-{rng.randint(5, 28):02d}")
    g = w + rng.randint(20000, 50000)
    gross_parts = [pay(gross, cents) for cents in _split(rng, g, 3)]
    refund_cents = g - w + rng.randint(15000, 30000)
    # Late May: after every payment it refunds part of.
    late_may = f"2024-05-{rng.randint(29, 31)}"
    refund = Payment(gross, f"RF-{next(refs)}", late_may, round(refund_cents / 100, 2))
    parts = sorted(_split(rng, w - rng.randint(30000, 45000), 2))
    twice_parts = [pay(twice, cents) for cents in parts]
    d = w - rng.randint(30000, 50000)
    for cents in _split(rng, d, 2):
        pay(declined, cents)
    failed_cents = w - d + rng.randint(10000, 20000)
    failed = Payment(declined, f"PAY-{next(refs)}", next(days), round(failed_cents / 100, 2))
    return Payments(
        winner=winner,
        no_scan=no_scan,
        biggest=biggest,
        with_old=with_old,
        gross=gross,
        twice=twice,
        declined=declined,
        comma_vendor=with_old,
        payments=tuple(made),
        scanned=(on_paper, march),
        paper_copy=gross_parts[0],
        mailed_twice=twice_parts[-1],
        refund=refund,
        failed=failed,
    )


def _amount(data: Payments, p: Payment) -> str:
    return comma(p.amount) if p.vendor == data.comma_vendor else money(p.amount)


def _sender(vendor: str) -> str:
    return f"payments@{vendor.split()[0].lower()}.example.com"


def _receipt_mail(data: Payments, p: Payment, n: int) -> tuple[str, str]:
    amount = _amount(data, p)
    if n % 2:
        return (
            f"Payment received - thank you ({p.vendor})",
            f"Dear customer,\n\nwe received your payment of EUR {amount} on {p.day}. "
            f"Reference {p.ref}.\n\nThank you,\n{p.vendor}",
        )
    return (
        f"Receipt {p.ref}",
        f"Receipt from {p.vendor}\nReference: {p.ref}\n\nDate paid: {p.day}\n"
        f"Amount paid: EUR {amount}\nMethod: bank transfer\n",
    )


def _mails(data: Payments) -> list[tuple[str, str, str, str]]:
    """(when, sender, subject, body) of every vendor mail."""
    mails = []
    for n, p in enumerate(data.payments):
        if p in data.scanned:
            continue
        subject, body = _receipt_mail(data, p, n)
        mails.append((f"{p.day}T{10 + n % 7:02d}:15", _sender(p.vendor), subject, body))
    p = data.mailed_twice
    again = (
        "This is a copy of an earlier receipt, sent again as requested.\n\n"
        f"Receipt from {p.vendor}\nReference: {p.ref}\nDate paid: {p.day}\n"
        f"Amount paid: EUR {_amount(data, p)}\n"
    )
    mails.append(
        ("2024-06-02T18:05", _sender(p.vendor), f"Copy of your receipt ({p.vendor})", again)
    )
    r = data.refund
    back = (
        f"Dear customer,\n\nwe have refunded EUR {money(r.amount)} to your account on {r.day} "
        f"for items returned (refund {r.ref}).\n\n{r.vendor}"
    )
    mails.append((f"{r.day}T15:40", _sender(r.vendor), f"Refund issued by {r.vendor}", back))
    f = data.failed
    no = (
        f"Dear customer,\n\nyour payment of EUR {money(f.amount)} on {f.day} (reference "
        f"{f.ref}) was declined by your bank and has not been received. Nothing was charged."
        f"\n\n{f.vendor}"
    )
    mails.append((f"{f.day}T16:20", _sender(f.vendor), f"Payment declined ({f.vendor})", no))
    return sorted(mails)


def _scans(data: Payments) -> list[Payment]:
    """The three paper receipts, in file order."""
    return sorted([*data.scanned, data.paper_copy], key=_scan_order)


def _scan_order(p: Payment) -> str:
    return p.ref[::-1]


def scan_name(data: Payments, p: Payment) -> str:
    return f"scan_{_scans(data).index(p) + 1:04d}.png"


def payments_setup(case: str, question: str, scans: str) -> list[ActionStep]:
    data = payments_case(case)
    images = [
        {
            "name": scan_name(data, p),
            "kind": "payment",
            "vendor": p.vendor,
            "reference": p.ref,
            "date": p.day,
            "amount": _amount(data, p),
            "tilt": TILTS[k],
        }
        for k, p in enumerate(_scans(data))
    ]
    steps = [ActionStep(env=D, action=px.draw_pixel_images(folder=scans, images=images))]
    for when, sender, subject, body in _mails(data):
        mail = sd.add_mail(sender=sender, subject=subject, body=body, date=when, read=True)
        steps.append(ActionStep(env="services", action=mail))
    return steps


def payments_checkpoints(case: str, question: str, scans: str) -> list[Evaluator]:
    return [answer_equals(expected=payments_case(case).winner)]


def _read_scans(data: Payments, scans: str) -> list[ActionCall]:
    paths = [f"{scans}/{scan_name(data, p)}" for p in _scans(data)]
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


def _submit(case: str, scans: str, vendor: str) -> list[ActionCall]:
    return [
        *_read_scans(payments_case(case), scans),
        *browser_app("Mail"),
        call(B, "click_on", name="Search mail"),
        call(B, "write_text", text="EUR\n"),
        call("root", "submit", answer=vendor),
    ]


def payments_solution(case: str, question: str, scans: str) -> list[ActionCall]:
    return _submit(case, scans, payments_case(case).winner)


def slip_no_scans(case: str, question: str, scans: str) -> list[ActionCall]:
    return _submit(case, scans, payments_case(case).no_scan)


def slip_march(case: str, question: str, scans: str) -> list[ActionCall]:
    return _submit(case, scans, payments_case(case).with_old)


def slip_refund(case: str, question: str, scans: str) -> list[ActionCall]:
    return _submit(case, scans, payments_case(case).gross)


def slip_copy(case: str, question: str, scans: str) -> list[ActionCall]:
    return _submit(case, scans, payments_case(case).twice)


def slip_declined(case: str, question: str, scans: str) -> list[ActionCall]:
    return _submit(case, scans, payments_case(case).declined)


def slip_biggest(case: str, question: str, scans: str) -> list[ActionCall]:
    return _submit(case, scans, payments_case(case).biggest)


TOP_VENDOR = SubTask(
    id="reasoning.top_vendor",
    description="{question} The vendors' payment receipts, refund notices and notices of "
    "declined payments are in the browser's Mail, and some paper receipts were scanned "
    "into the folder {scans} on the computer. Count only payments made this quarter "
    "(April to June 2024; a declined payment was not made), count a payment once even if "
    "its receipt exists more than once (each has a reference), subtract any refund a "
    "vendor made to us, and submit as the answer just the name of the vendor with the "
    "highest total.",
    attributes={"case": "str", "question": "str", "scans": "str"},
    outputs=["answer"],
    env=B,
    app="mail",
    app_category="communication",
    intents=[REASONING_INTENT],
    value_records=[
        {
            "case": case,
            "question": QUESTIONS[n % len(QUESTIONS)],
            "scans": SCAN_FOLDERS[n % len(SCAN_FOLDERS)],
        }
        for n, case in enumerate(CASES)
    ],
    setup_generator=payments_setup,
    evaluator_generator=payments_checkpoints,
    solution_generator=payments_solution,
    near_misses=[
        NearMiss("leaves out the scanned receipts", solution=slip_no_scans),
        NearMiss("counts the March payment on a scan", solution=slip_march),
        NearMiss("ignores the refund", solution=slip_refund),
        NearMiss("counts a receipt mailed twice twice", solution=slip_copy),
        NearMiss("counts the declined payment", solution=slip_declined),
        NearMiss("takes the largest single payment", solution=slip_biggest),
    ],
)


def amount_of(p: Payment) -> float:
    """A payment's amount (a sort key)."""
    return p.amount
