"""The claims of reef-v2's :data:`~reefbench.benchmark.templates.reasoning_expenses.
QUARTER_EXPENSES`: who claims what, the slips' totals, and how each claim reads in a mail
(kept apart so the template module stays readable)."""

from __future__ import annotations

import random
from dataclasses import dataclass

from reefbench.benchmark.templates.reasoning import money

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
    claims: tuple[Claim, ...]  # this quarter's, corrected (the answer's items)
    old: Claim  # dated in March, sent in April
    resent: Claim  # of ``claims``: sent twice, then partly refunded by ``refund``
    refund: float
    corrected: Claim  # of ``claims``: first sent with ``wrong`` amount
    wrong: float
    recat: Claim  # of ``claims``: first sent under ``first_category``
    first_category: str
    moved: Claim  # dated in March: first sent dated ``stated`` (in April)
    stated: str
    attached: Claim  # of ``claims``: its date and amount only in an attached file

    def totals(
        self,
        old: bool = False,
        resent: bool = False,
        wrong: bool = False,
        refund: bool = True,
        attached: bool = True,
        recat: bool = False,
        moved: bool = False,
    ) -> list[float]:
        """Each category's total, or the total a slip gives."""
        sums = dict.fromkeys(self.categories, 0.0)
        for c in self.claims:
            if c == self.attached and not attached:
                continue
            kind = self.first_category if (recat and c == self.recat) else c.category
            sums[kind] += self.wrong if (wrong and c == self.corrected) else c.amount
        for slip, c in ((old, self.old), (resent, self.resent), (moved, self.moved)):
            if slip:
                sums[c.category] += c.amount
        if refund:
            sums[self.resent.category] -= self.refund
        return [round(sums[k], 2) for k in self.categories]


def expenses_case(case: str) -> Expenses:
    rng = random.Random(f"reasoning-expenses-{case}")
    categories = tuple(rng.sample(sorted(WHAT), 3))
    people = [a for _, a in rng.sample(COLLEAGUES, 4)]
    refs = rng.sample(range(2100, 2999), 21)
    kinds = [(k, w) for k in categories for w in WHAT[k].split("; ")]
    rng.shuffle(kinds)

    def claim(n: int, day: str) -> Claim:
        category, what = kinds[n]
        amount = round(rng.randint(1200, 48000) / 100, 2)
        return Claim(f"EX-{refs[n]}", rng.choice(people), day, category, what, amount)

    def q2_day() -> str:
        return f"2024-{rng.choice(['04', '05'])}-{rng.randint(2, 20):02d}"

    claims = [claim(n, q2_day()) for n in range(19)]
    old = claim(19, f"2024-03-{rng.randint(25, 29):02d}")
    moved = claim(20, f"2024-03-{rng.randint(18, 28):02d}")
    stated = f"2024-04-{int(moved.day[8:]) - 14:02d}"
    resent, corrected, recat, attached = rng.sample(claims, 4)
    wrong = round(corrected.amount + rng.choice([-9, 9, -18, 27]), 2)
    if wrong <= 0:
        wrong = round(corrected.amount + 9, 2)
    refund = round(resent.amount * rng.choice([0.25, 0.4, 0.5]), 2)
    first_category = rng.choice([k for k in categories if k != recat.category])
    return Expenses(
        (categories[0], categories[1], categories[2]),
        tuple(claims),
        old,
        resent,
        refund,
        corrected,
        wrong,
        recat,
        first_category,
        moved,
        stated,
        attached,
    )


def first_name(address: str) -> str:
    return next(n for n, a in COLLEAGUES if a == address).split()[0]


def attachment_name(claim: Claim) -> str:
    return f"claim-{claim.ref}.txt"


def attached_subject(claim: Claim) -> str:
    return f"Expense claim {claim.ref} - receipt attached"


# Openings longer than the mail list's 80-character preview: the claim is below them.
OPENINGS = [
    "here is another expense from the last few weeks for the books; the original receipt "
    "is in the tray on your desk.",
    "sorry this one comes a little late, things have been busy with the project work and I "
    "only now got to my receipts.",
    "one more claim for this period, please. Let me know if anything about it is unclear "
    "or if you need the paper receipt.",
]


def claim_mail(
    c: Claim, amount: float, style: int, day: str = "", category: str = ""
) -> tuple[str, str]:
    """A claim by mail (its amount, date and category as first stated)."""
    me, day, category = first_name(c.who), day or c.day, category or c.category
    hi = f"Hi,\n\n{OPENINGS[style]}\n\n"
    if style == 0:
        return (
            f"Expense claim {c.ref}",
            f"{hi}Claim: {c.ref}\nDate: {day}\nCategory: {category}\nAmount: EUR "
            f"{money(amount)}\nWhat: {c.what}\n\n{me}",
        )
    if style == 1:
        return (
            f"{category} expense of {day}",
            f"{hi}{c.what} on {day}: EUR {money(amount)}, category {category}. Claim "
            f"reference {c.ref}.\n\nThanks,\n{me}",
        )
    return (
        f"Claim {c.ref} ({c.what})",
        f"{hi}  Claim     {c.ref}\n  Category  {category}\n  Dated     {day}\n"
        f"  Amount    EUR {money(amount)}\n\nCheers,\n{me}",
    )


def sent_at(day: str, later: int, n: int) -> str:
    month, dom = int(day[5:7]), int(day[8:10]) + later
    if dom > 28:
        month, dom = month + 1, dom - 27
    stamp = f"2024-{month:02d}-{dom:02d}"
    return f"{min(stamp, '2024-06-02')}T{8 + n % 9:02d}:{(13 * n) % 60:02d}"
