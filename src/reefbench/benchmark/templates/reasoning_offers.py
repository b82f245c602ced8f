"""reef-v2's reasoning family: the cheapest offer across sources, each under its own terms.

We need a number of one product; seven suppliers have offered it, some by mail (one only
in an attached file), some in a price list in Files. The answer (the supplier whose offer
for exactly that quantity costs least, every charge included, without VAT) follows only
from every offer's terms applied to that quantity, and the runner-up is a few euros dearer,
so each term must be read and reckoned right (playtest: the old version's bodies fit the
mail list's preview and each trap showed at a glance). The traps, each making another
supplier look cheapest: the winner states its price with VAT; a first quote is revised
upwards ("delivery terms unchanged"); a price list's cheapest row is a look-alike model;
the lowest unit price pays delivery per lot of 10 units; a low price carries a small-order
fee below a minimum goods value; a quantity price applies only from more units than we
need. The instruction says every rule; the near misses submit the supplier each slip picks.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, replace

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.benchmark.templates.common import DOWNLOADS_KEY, browser_app, call
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
QUANTITIES = [12, 13, 14, 16, 17, 18, 19, 22, 23, 24, 26, 27]
# An opening longer than the mail list's 80-character preview: the terms are below it.
OPENINGS = [
    "thank you for your enquiry about furnishing your new office, and sorry that our "
    "reply took a few days.",
    "many thanks for thinking of us for the new office. We have checked stock and "
    "delivery slots with our warehouse.",
    "following your request last week, our sales team has put together the terms below "
    "for your order.",
]


def money(amount: float) -> str:
    return f"{amount:.2f}"


@dataclass(frozen=True)
class Terms:
    """One supplier's terms for the product, as its offer states them."""

    unit: float  # per unit, net unless ``gross``
    gross: bool = False  # the unit price includes 19 % VAT
    flat: float = 0.0  # delivery per order
    per_ten: float = 0.0  # delivery per lot of 10 units or part of one
    tier: tuple[int, float] | None = None  # (from this many units, unit price)
    minimum: tuple[float, float] | None = None  # (goods value below which, fee)

    def total(self, n: int, vat: bool = False, tier: bool = False, fee: bool = True) -> float:
        """The net cost of ``n`` units; the flags make the slips (a price with VAT taken
        for a net one, a quantity price taken below its threshold, a fee left out)."""
        unit = self.unit
        if self.tier and (tier or n >= self.tier[0]):
            unit = self.tier[1]
        if self.gross and not vat:
            unit = unit / VAT
        goods = n * unit
        cost = goods + self.flat + self.per_ten * math.ceil(n / 10)
        if fee and self.minimum and goods < self.minimum[0]:
            cost += self.minimum[1]
        return round(cost, 2)


@dataclass(frozen=True)
class Offers:
    """One comparison case: seven suppliers' offers for ``quantity`` of ``product``."""

    product: str
    lookalike: str
    quantity: int
    winner: str  # states its price with VAT; its offer is an attached file
    runner_up: str  # a few euros dearer
    superseded: str  # cheapest by its first quote, dearer by its revision
    lookalike_seller: str  # its price list's look-alike row is the cheapest of all
    per_lot: str  # the lowest unit price; delivery per lot of 10 makes it dear
    small_order: str  # cheap goods under a minimum value: its fee makes it dear
    tiered: str  # its quantity price, from more units than we need, would be cheapest
    terms: dict[str, Terms]  # each supplier's latest terms
    old_unit: float  # the superseded supplier's first unit price
    lookalike_unit: float
    by_file: tuple[str, ...]  # suppliers whose offer is a price list in Files

    def total(self, supplier: str) -> float:
        return self.terms[supplier].total(self.quantity)


def _price(rng: random.Random, low: float, high: float) -> float:
    """A price between low and high, ending in .00, .50, .90 or .95."""
    return int(rng.uniform(low, high)) + rng.choice([0.0, 0.5, 0.9, 0.95])


def _below(rng: random.Random, limit: float) -> float:
    return _price(rng, limit - 6, limit - 1)


def _above(rng: random.Random, limit: float) -> float:
    return _price(rng, limit + 1, limit + 6)


def offers_case(case: str) -> Offers:
    rng = random.Random(f"reasoning-offers-{case}")
    product, lookalike = PRODUCTS[int(case) % len(PRODUCTS)]
    n = QUANTITIES[int(case) % len(QUANTITIES)]
    w, r, s, la, d, m, t = (name for name, _ in rng.sample(SUPPLIERS, 7))
    base = rng.uniform(140, 320)
    gross = _price(rng, base * VAT, base * VAT + 1)
    terms = {w: Terms(gross, gross=True, flat=float(rng.choice([0, 25, 40])))}
    best = terms[w].total(n)
    # The runner-up: a few euros dearer.
    flat = float(rng.choice([0, 30, 45]))
    terms[r] = Terms(round((best + rng.uniform(2.5, 6.0) - flat) / n, 2), flat=flat)
    dear = terms[r].total(n) + 10  # every other true total is at least this
    cheap = best - 8  # every slip's total is at most this

    def flat_fee() -> float:
        return float(rng.choice([0, 25, 35, 50]))

    terms[s] = Terms(0.0, flat=flat_fee())
    terms[s] = replace(terms[s], unit=_above(rng, (dear - terms[s].flat) / n))
    old_unit = _below(rng, (cheap - terms[s].flat) / n)
    terms[la] = Terms(0.0, flat=flat_fee())
    terms[la] = replace(terms[la], unit=_above(rng, (dear - terms[la].flat) / n))
    lookalike_unit = _below(rng, (cheap - terms[la].flat) / n)
    # The lowest unit price, delivered per lot of 10: counted once it would win.
    net = gross / VAT
    d_unit = _price(rng, net - 12, net - 7)
    lots = math.ceil(n / 10)
    per_ten = 5.0 * math.ceil((dear - n * d_unit) / lots / 5) + rng.choice([0, 5])
    terms[d] = Terms(d_unit, per_ten=per_ten)
    # Cheap goods, but under a minimum order value: the fee makes them dear.
    m_unit = _price(rng, d_unit + 1, d_unit + 3)
    goods = n * m_unit
    fee = 5.0 * math.ceil((dear - goods) / 5) + rng.choice([0, 5, 10])
    floor = 1000.0 * (int(goods // 1000) + 1) + rng.choice([0, 500, 1000])
    terms[m] = Terms(m_unit, minimum=(floor, fee))
    # A quantity price from more units than we need.
    t_flat = flat_fee()
    threshold = 10 * (n // 10 + 1) + rng.choice([0, 5])
    tier = (threshold, _below(rng, (cheap - t_flat) / n))
    terms[t] = Terms(_above(rng, (dear - t_flat) / n), flat=t_flat, tier=tier)
    by_file = tuple(sorted({la, rng.choice([r, t])}))
    return Offers(
        product, lookalike, n, w, r, s, la, d, m, t, terms, old_unit, lookalike_unit, by_file
    )


def _address(name: str) -> str:
    return next(a for n, a in SUPPLIERS if n == name)


def file_name(supplier: str) -> str:
    return f"{FOLDER}/price-list-{supplier.split()[0].lower()}.txt"


def attachment_name(supplier: str) -> str:
    return f"offer-{supplier.split()[0].lower()}.txt"


def _delivery(terms: Terms) -> str:
    if terms.per_ten:
        return (
            f"EUR {money(terms.per_ten)} per lot of 10 units or part of a lot (a part lot "
            "costs as much as a full one)"
        )
    return f"EUR {money(terms.flat)} per order" if terms.flat else "free of charge"


def _extras(terms: Terms, product: str) -> list[str]:
    """The lines a tier or a minimum order value adds to an offer."""
    lines = []
    if terms.tier:
        lines.append(
            f"For orders of {terms.tier[0]} units or more of the {product}, its unit price "
            f"is EUR {money(terms.tier[1])}."
        )
    if terms.minimum:
        lines.append(
            f"Orders with a goods value below EUR {money(terms.minimum[0])} (without VAT) "
            f"carry a small-order fee of EUR {money(terms.minimum[1])}."
        )
    return lines


def _price_list(data: Offers, supplier: str, rng: random.Random) -> str:
    terms = data.terms[supplier]
    rows = [(data.product, terms.unit)]
    if supplier == data.lookalike_seller:
        rows.append((data.lookalike, data.lookalike_unit))
    for item in rng.sample(FILLER, 4):
        rows.append((item, _price(rng, 20, 400)))
    rng.shuffle(rows)
    lines = [
        f"{supplier} - price list, valid from 1 May 2024",
        "",
        "All prices in EUR per unit, VAT excluded.",
        "",
        f"{'Item':<32}Unit price",
    ]
    lines += [f"{item:<32}{money(price)}" for item, price in rows]
    lines += [
        "",
        *_extras(terms, data.product),
        f"Delivery: {_delivery(terms)}, anywhere in the country.",
    ]
    return "\n".join(lines) + "\n"


def _quote(data: Offers, supplier: str, unit: float, style: int) -> tuple[str, str]:
    """A quote by mail: the subject and the body (the terms below a long opening)."""
    terms = replace(data.terms[supplier], unit=unit)
    vat = "including 19% VAT" if terms.gross else "VAT excluded"
    extras = "".join(f"\n{line}" for line in _extras(terms, data.product))
    opening = f"Hello,\n\n{OPENINGS[style % len(OPENINGS)]}\n\n"
    if style % 2 == 0:
        return (
            f"Quote from {supplier}: {data.product}",
            f"{opening}We can supply the {data.product} at EUR {money(unit)} per unit "
            f"({vat}); delivery: {_delivery(terms)}.{extras}\n\nKind regards,\n{supplier}",
        )
    return (
        f"Your enquiry - {data.product} ({supplier})",
        f"{opening}Our offer:\n\n  Item        {data.product}\n  Unit price  EUR "
        f"{money(unit)} ({vat})\n  Delivery    {_delivery(terms)}{extras}"
        f"\n\nBest wishes,\n{supplier}",
    )


def winner_subject(data: Offers) -> str:
    return f"Offer {data.product} - {data.winner}"


def offers_setup(case: str, requester: str, quantity: int, product: str) -> list[ActionStep]:
    data = offers_case(case)
    rng = random.Random(f"reasoning-offers-files-{case}")
    steps = [
        ActionStep(
            env="services", action=sd.add_file(path=file_name(s), content=_price_list(data, s, rng))
        )
        for s in data.by_file
    ]
    # (when, supplier, subject, body, attachments)
    mails: list[tuple[str, str, str, str, dict[str, str]]] = []
    by_mail = [
        x
        for x in (data.superseded, data.per_lot, data.small_order, data.runner_up, data.tiered)
        if x not in data.by_file
    ]
    for k, supplier in enumerate(by_mail):
        unit = data.old_unit if supplier == data.superseded else data.terms[supplier].unit
        subject, body = _quote(data, supplier, unit, k)
        mails.append((f"2024-05-{13 + 2 * k:02d}T{9 + k:02d}:20", supplier, subject, body, {}))
    w = data.winner
    _, offer = _quote(data, w, data.terms[w].unit, 1)
    offer = offer.split("Our offer:\n\n", 1)[1].rsplit("\n\nBest wishes", 1)[0]
    note = (
        f"Hello,\n\n{OPENINGS[2]}\n\nPlease find our offer for the {data.product} in the "
        f"attached file.\n\nKind regards,\n{w}"
    )
    sheet = f"{w} - offer of 20 May 2024\n\n{offer}\n"
    mails.append(("2024-05-20T16:40", w, winner_subject(data), note, {attachment_name(w): sheet}))
    s = data.superseded
    revised = (
        f"Hello again,\n\nI am sorry: the unit price in my earlier mail came from last "
        f"year's price list by mistake. Our current price for the {data.product} is EUR "
        f"{money(data.terms[s].unit)} per unit (VAT excluded); this replaces the earlier "
        f"quote. Delivery terms are unchanged.\n\nKind regards,\n{s}"
    )
    mails.append(("2024-05-29T15:05", s, f"Revised quote: {data.product}", revised, {}))
    return steps + [
        ActionStep(
            env="services",
            action=sd.add_mail(
                sender=_address(sup), subject=subj, body=body, date=when, attachments=files
            ),
        )
        for when, sup, subj, body, files in sorted(mails)
    ]


def offers_checkpoints(case: str, requester: str, quantity: int, product: str) -> list[Evaluator]:
    return [answer_equals(expected=offers_case(case).winner)]


def offers_allowances(case: str, requester: str, quantity: int, product: str) -> list[str]:
    """The winner's attached offer saved to Files (the reference's way) or downloaded."""
    name = attachment_name(offers_case(case).winner)
    return [f"account|files:{name.casefold()}", DOWNLOADS_KEY]


def _submit(data: Offers, supplier: str) -> list[ActionCall]:
    opened = [
        *browser_app("Files"),
        call(B, "click_on", name=FOLDER, role="link"),
        call(B, "click_on", name=file_name(data.by_file[0]).split("/")[1], role="link"),
    ]
    name = attachment_name(data.winner)
    return [
        *opened,
        *browser_app("Mail"),
        call(B, "click_on", name="Search mail"),
        call(B, "write_text", text=data.product + "\n"),
        call(B, "click_on", name=winner_subject(data), role="link"),
        call(B, "click_on", name=f"Save {name} to Files", role="button"),
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
    """Takes the winner's price with VAT for a net price: the runner-up wins."""
    data = offers_case(case)
    return _submit(data, data.runner_up)


def offers_one_lot(case: str, requester: str, quantity: int, product: str) -> list[ActionCall]:
    """Charges delivery per lot of 10 once (or not at all)."""
    data = offers_case(case)
    return _submit(data, data.per_lot)


def offers_skips_fee(case: str, requester: str, quantity: int, product: str) -> list[ActionCall]:
    """Leaves out the small-order fee."""
    data = offers_case(case)
    return _submit(data, data.small_order)


def offers_takes_tier(case: str, requester: str, quantity: int, product: str) -> list[ActionCall]:
    """Takes a quantity price that starts above the quantity needed."""
    data = offers_case(case)
    return _submit(data, data.tiered)


BEST_OFFER = SubTask(
    id="reasoning.best_offer",
    description="{requester} needs {quantity} units of the {product} for the new office. "
    "Seven suppliers have sent offers: some by mail (in the browser's Mail), some as price "
    "lists in the Purchasing folder of the browser's Files. Find the supplier from whom "
    "buying exactly {quantity} units costs the least in total: the goods plus every "
    "delivery charge and fee the offer states for that quantity, all compared without VAT "
    "(which is 19 %). If a supplier sent more than one offer, its latest one counts; only "
    "the {product} itself counts, no other model. Submit as the answer just that "
    "supplier's name, as it signs its offer.",
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
    allowances=offers_allowances,
    near_misses=[
        NearMiss("counts a supplier's superseded first quote", solution=offers_takes_first_quote),
        NearMiss("takes a look-alike model's price", solution=offers_takes_lookalike),
        NearMiss("charges delivery per lot of 10 units once", solution=offers_one_lot),
        NearMiss("compares a price with VAT with net ones", solution=offers_counts_vat),
        NearMiss("leaves out a small-order fee", solution=offers_skips_fee),
        NearMiss("takes a quantity price the order does not reach", solution=offers_takes_tier),
    ],
)

TEMPLATES: list[SubTask] = [BEST_OFFER]
