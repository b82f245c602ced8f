"""reef-v2's reasoning family: the cheapest offer across sources.

We need a number of one product; five suppliers have offered it, some by mail, some in a
price list in Files. The answer (the supplier whose offer for that quantity costs least,
delivery included, without VAT) follows only from all offers together, each read closely:
the cheapest states its price with VAT (the others without); one
supplier's first quote is the cheapest but a later mail raises it; one price list's
cheapest row is a look-alike model (its row for the product asked for is dear); one
supplier has the lowest unit price but a delivery charge that outweighs it. The
instruction says every rule (the quantity, delivery counts, a later offer replaces an
earlier one); the near misses submit the supplier each slip would pick.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.benchmark.templates.common import browser_app, call
from reefbench.environments.root import answer_equals
from reefbench.envs.services import seeding as sd
from reefbench.tasks.subtask import NearMiss, SubTask
from reefbench.tasks.task import ActionStep

B = "browser"
INTENT = "reason over many items to find the answer"
CASES = [str(i) for i in range(12)]
FOLDER = "Purchasing"
VAT = 1.19

SUPPLIERS = [
    ("Lindqvist Office", "sales@lindqvist-office.example.com"),
    ("Brennan & Cole", "quotes@brennancole.example.com"),
    ("Deskworks Direct", "offers@deskworks.example.com"),
    ("Meridian Supply Co", "sales@meridiansupply.example.com"),
    ("Halden Workplace", "team@halden-workplace.example.com"),
    ("Oakridge Business Store", "orders@oakridge-store.example.com"),
    ("Tallis Interiors", "sales@tallis.example.com"),
    ("Quayside Equipment", "hello@quayside-equipment.example.com"),
]
# (the product we need, a look-alike model of it)
PRODUCTS = [
    ("Kestrel K2 task chair", "Kestrel K2 Lite task chair"),
    ("Aurora 27 monitor", "Aurora 24 monitor"),
    ("Summit 160 standing desk", "Summit 140 standing desk"),
    ("Orbit 500 headset", "Orbit 500 Mono headset"),
    ("Nimbus X4 docking station", "Nimbus X2 docking station"),
    ("Corvid 8 pedestal", "Corvid 6 pedestal"),
]
FILLER = [
    "Vela desk lamp",
    "Pico webcam",
    "Fjord whiteboard 120",
    "Lumo monitor arm",
    "Tern keyboard",
    "Brisk wireless mouse",
    "Atlas filing cabinet",
]
REQUESTERS = ["Sofia Marin", "Jonas Weber", "Ines Duarte", "Callum Reid", "Hana Kobayashi"]


def money(amount: float) -> str:
    return f"{amount:.2f}"


@dataclass(frozen=True)
class Offers:
    """One comparison case: five suppliers' offers for ``quantity`` of ``product``."""

    product: str
    lookalike: str
    quantity: int
    winner: str  # the lowest total, delivery included
    superseded: str  # cheapest by its first quote, dearer by its later one
    lookalike_seller: str  # its price list's look-alike row is the cheapest of all
    delivery_heavy: str  # the lowest unit price; its delivery makes it dear
    other: str  # an ordinary, dearer offer
    unit: dict[str, float]  # each supplier's (latest) unit price for the product
    delivery: dict[str, float]
    old_unit: float  # the superseded supplier's first unit price
    gross: float  # the winner's unit price as it states it: with VAT
    lookalike_unit: float
    by_file: tuple[str, ...]  # suppliers whose offer is a price list in Files

    def total(self, supplier: str) -> float:
        return round(self.quantity * self.unit[supplier] + self.delivery[supplier], 2)

    @property
    def runner_up(self) -> str:
        """The cheapest if the winner's price with VAT is taken for a net one."""
        others = [s for s in self.unit if s != self.winner]
        return min(others, key=self.total)


def _price(rng: random.Random, low: float, high: float) -> float:
    """A price between low and high, ending in .00, .50, .90 or .95."""
    return int(rng.uniform(low, high)) + rng.choice([0.0, 0.5, 0.9, 0.95])


def offers_case(case: str) -> Offers:
    rng = random.Random(f"reasoning-offers-{case}")
    product, lookalike = PRODUCTS[int(case) % len(PRODUCTS)]
    quantity = rng.choice([12, 14, 16, 18, 20, 24])
    w, s, la, d, o = (name for name, _ in rng.sample(SUPPLIERS, 5))
    base = rng.uniform(140, 320)
    # The winner quotes its price with VAT (the others without): net, it is the cheapest.
    gross = _price(rng, base * VAT, base * VAT + 1)
    unit = {w: round(gross / VAT, 2)}
    delivery = {w: 0.0}
    # The delivery-heavy supplier: a lower unit price, a charge that outweighs it.
    unit[d] = _price(rng, unit[w] - 9, unit[w] - 4)
    gap = quantity * (unit[w] - unit[d]) + delivery[w]
    delivery[d] = float(int(gap + rng.uniform(40, 90)) // 5 * 5)
    # The others: dearer than the winner by a clear margin, each by its own route.
    for name in (s, la, o):
        delivery[name] = float(rng.choice([0, 30, 45, 60]))
        unit[name] = _price(rng, base + 9, base + 25)
    old_unit = _price(rng, base - 19, base - 11)
    lookalike_unit = _price(rng, base - 45, base - 25)
    by_file = tuple(sorted({la, rng.choice([w, d, o])}))
    return Offers(
        product,
        lookalike,
        quantity,
        w,
        s,
        la,
        d,
        o,
        unit,
        delivery,
        old_unit,
        gross,
        lookalike_unit,
        by_file,
    )


def _address(name: str) -> str:
    return next(a for n, a in SUPPLIERS if n == name)


def file_name(supplier: str) -> str:
    return f"{FOLDER}/price-list-{supplier.split()[0].lower()}.txt"


def _price_list(data: Offers, supplier: str, rng: random.Random) -> str:
    with_vat = supplier == data.winner
    rows = [(data.product, data.gross if with_vat else data.unit[supplier])]
    if supplier == data.lookalike_seller:
        rows.append((data.lookalike, data.lookalike_unit))
    for item in rng.sample(FILLER, 4):
        rows.append((item, _price(rng, 20, 400)))
    rng.shuffle(rows)
    vat = "including 19% VAT" if with_vat else "VAT excluded"
    lines = [
        f"{supplier} - price list, valid from 1 May 2024",
        "",
        f"All prices in EUR per unit, {vat}.",
        "",
        f"{'Item':<32}Unit price",
    ]
    lines += [f"{item:<32}{money(price)}" for item, price in rows]
    fee = data.delivery[supplier]
    charge = "free of charge" if not fee else f"EUR {money(fee)} per order"
    lines += ["", f"Delivery: {charge}, anywhere in the country."]
    return "\n".join(lines) + "\n"


def _quote_mail(data: Offers, supplier: str, unit: float, style: int) -> tuple[str, str]:
    fee = data.delivery[supplier]
    charge = "delivery is free" if not fee else f"delivery is EUR {money(fee)} per order"
    vat = "VAT excluded"
    if supplier == data.winner:
        unit, vat = data.gross, "including 19% VAT"
    if style == 0:
        return (
            f"Quote: {data.product}",
            f"Hello,\n\nthank you for your enquiry. We can supply the {data.product} at EUR "
            f"{money(unit)} per unit ({vat}); {charge}.\n\nKind regards,\n{supplier}",
        )
    return (
        f"Your enquiry - {data.product}",
        f"Hi,\n\nhere is our offer:\n\n  Item        {data.product}\n  Unit price  EUR "
        f"{money(unit)} ({vat})\n  Delivery    "
        + ("free" if not fee else f"EUR {money(fee)} per order")
        + f"\n\nBest wishes,\n{supplier}",
    )


def offers_setup(case: str, requester: str, quantity: int, product: str) -> list[ActionStep]:
    data = offers_case(case)
    rng = random.Random(f"reasoning-offers-files-{case}")
    steps = [
        ActionStep(
            env="services", action=sd.add_file(path=file_name(s), content=_price_list(data, s, rng))
        )
        for s in data.by_file
    ]
    mails: list[tuple[str, str, str, str]] = []
    by_mail = [
        s
        for s in (data.winner, data.superseded, data.delivery_heavy, data.other)
        if s not in data.by_file
    ]
    for n, supplier in enumerate(by_mail):
        unit = data.old_unit if supplier == data.superseded else data.unit[supplier]
        subject, body = _quote_mail(data, supplier, unit, n % 2)
        mails.append((f"2024-05-{14 + 2 * n:02d}T{9 + n:02d}:20", supplier, subject, body))
    s = data.superseded
    revised = (
        f"Hello again,\n\nI am sorry: the unit price in my earlier mail was last year's. "
        f"Our current price for the {data.product} is EUR {money(data.unit[s])} per unit "
        f"(VAT excluded); this replaces the earlier quote. Delivery terms are unchanged."
        f"\n\nKind regards,\n{s}"
    )
    mails.append(("2024-05-29T15:05", s, f"Revised quote: {data.product}", revised))
    return steps + [
        ActionStep(
            env="services",
            action=sd.add_mail(sender=_address(sup), subject=subj, body=body, date=when),
        )
        for when, sup, subj, body in sorted(mails)
    ]


def offers_checkpoints(case: str, requester: str, quantity: int, product: str) -> list[Evaluator]:
    return [answer_equals(expected=offers_case(case).winner)]


def _submit(data: Offers, supplier: str) -> list[ActionCall]:
    opened = [
        *browser_app("Files"),
        call(B, "click_on", name=FOLDER, role="link"),
        call(B, "click_on", name=file_name(data.by_file[0]).split("/")[1], role="link"),
    ]
    return [
        *opened,
        *browser_app("Mail"),
        call(B, "click_on", name="Search mail"),
        call(B, "write_text", text=data.product + "\n"),
        call("root", "submit", answer=supplier),
    ]


def offers_solution(case: str, requester: str, quantity: int, product: str) -> list[ActionCall]:
    data = offers_case(case)
    return _submit(data, data.winner)


def offers_takes_first_quote(
    case: str, requester: str, quantity: int, product: str
) -> list[ActionCall]:
    """Counts the superseded quote, not its revision."""
    data = offers_case(case)
    return _submit(data, data.superseded)


def offers_takes_lookalike(
    case: str, requester: str, quantity: int, product: str
) -> list[ActionCall]:
    """Takes a price list's cheapest row: a look-alike model."""
    data = offers_case(case)
    return _submit(data, data.lookalike_seller)


def offers_counts_vat(case: str, requester: str, quantity: int, product: str) -> list[ActionCall]:
    """Takes the winner's price with VAT for a net price."""
    data = offers_case(case)
    return _submit(data, data.runner_up)


def offers_ignores_delivery(
    case: str, requester: str, quantity: int, product: str
) -> list[ActionCall]:
    """Compares unit prices only."""
    data = offers_case(case)
    return _submit(data, data.delivery_heavy)


BEST_OFFER = SubTask(
    id="reasoning.best_offer",
    description="{requester} needs {quantity} units of the {product} for the new office. Five "
    "suppliers have sent offers: some by mail (in the browser's Mail), some as price lists "
    "in the Purchasing folder of the browser's Files. Find the supplier from whom buying "
    "exactly {quantity} units costs the least in total, delivery included (compare "
    "amounts without VAT, which is 19 %; if a supplier sent more than one offer, its latest "
    "one counts; only the "
    "{product} itself counts, no other model). Submit as the answer just that supplier's "
    "name, as it signs its offer.",
    attributes={"case": "str", "requester": "name", "quantity": "int", "product": "str"},
    outputs=["answer"],
    env=B,
    app="mail",
    app_category="communication",
    intents=[INTENT],
    value_records=[
        {
            "case": case,
            "requester": REQUESTERS[n % len(REQUESTERS)],
            "quantity": offers_case(case).quantity,
            "product": offers_case(case).product,
        }
        for n, case in enumerate(CASES)
    ],
    setup_generator=offers_setup,
    evaluator_generator=offers_checkpoints,
    solution_generator=offers_solution,
    near_misses=[
        NearMiss("counts a supplier's superseded first quote", solution=offers_takes_first_quote),
        NearMiss("takes a look-alike model's price", solution=offers_takes_lookalike),
        NearMiss("compares unit prices without delivery", solution=offers_ignores_delivery),
        NearMiss("compares a price with VAT with net ones", solution=offers_counts_vat),
    ],
)

TEMPLATES: list[SubTask] = [BEST_OFFER]
