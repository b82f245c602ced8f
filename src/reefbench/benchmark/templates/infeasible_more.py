"""reef-v2's infeasible family, continued (:mod:`.infeasible` has the first four): the
thing asked for plausibly exists, and only several checks show it does not.

- **Signed purchase order**: "forward Priya Raman's mail with the signed purchase order
  for the March delivery to accounts". Priya sent four purchase orders as attached files,
  their subjects only the PO number and the supplier: last month's (signed), this month's
  and its revision (both marked unsigned, signature pending, at the foot of the file), and
  next month's, issued in March and signed. A colleague with a near-identical address
  (priya.ramani@) sent a signed PO for the March delivery from the same supplier. The
  signature shows only at the bottom of each attachment, below what the file's view shows
  unscrolled, so every candidate has to be opened and read to its end; then the answer is
  that the signed March PO does not exist, said with the root action ``infeasible``.

Checkpoints follow :mod:`.infeasible`: declared infeasible, then (checked once declared)
nothing forwarded to accounts; the side-effect diff refuses anything else (a reply asking
Priya to sign, a forward elsewhere), beyond reading the attachments (saved to Files or
downloaded). Near misses are the nearest feasible things: the unsigned March PO forwarded
(ending with ``complete``, and again with ``infeasible``), last month's signed PO, the PO
issued in March for April's delivery, and the look-alike sender's signed March PO.
"""

from __future__ import annotations

from dataclasses import dataclass

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.benchmark.templates.common import DOWNLOADS_KEY, browser_app, browser_fill, call
from reefbench.environments.root import declared_infeasible
from reefbench.envs.services import evaluators as aev
from reefbench.envs.services import seeding as sd
from reefbench.tasks.subtask import NearMiss, SubTask
from reefbench.tasks.task import ActionStep

B = "browser"
SERVICES = "services"
INTENT = "handle requests that cannot be carried out"
CASES = [str(i) for i in range(10)]
DOMAIN = "reef-trading.example.com"
# (name, address, the look-alike colleague's name and address)
BUYERS = [
    ("Priya Raman", "priya.raman", "Priya Ramani", "priya.ramani"),
    ("Tomas Berg", "tomas.berg", "Tomas Bergh", "tomas.bergh"),
    ("Ines Duarte", "ines.duarte", "Ines Durante", "ines.durante"),
    ("Karl Weiss", "karl.weiss", "Karla Weiss", "karla.weiss"),
    ("Mei Lin", "mei.lin", "Mei Ling", "mei.ling"),
]
SUPPLIERS = [
    ("Kestrel Foods", ["rye flour 25 kg", "oat flakes 10 kg", "cane sugar 25 kg"]),
    ("Halden Packaging", ["carton 40x30x20", "carton 60x40x40", "pallet wrap 500 m"]),
    ("Orchard Valley Dairy", ["butter 10 kg block", "cream 35% 5 l", "skimmed milk 10 l"]),
    ("Brightwater Paper", ["A4 copier paper box", "kraft paper roll", "label sheets A4"]),
]
MONTHS = [
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
]  # fmt: skip
APPROVERS = ["Helen Ward, Finance Director", "Rafael Ortiz, Head of Purchasing"]
ACCOUNTS = [f"accounts@{DOMAIN}", f"payables@{DOMAIN}", f"ap.team@{DOMAIN}"]
PENDING = "NOT SIGNED - signature pending (awaiting budget approval)"


@dataclass(frozen=True)
class Order:
    number: str
    sender: str  # address
    month: int  # the delivery's month, 1..12
    issued: str  # YYYY-MM-DD
    signed: bool
    revision: int = 0

    @property
    def file(self) -> str:
        return f"PO-{self.number}" + (f"-rev{self.revision}" if self.revision else "") + ".txt"

    @property
    def subject(self) -> str:
        rev = f" rev {self.revision}" if self.revision else ""
        return f"PO {self.number}{rev}"


@dataclass(frozen=True)
class Case:
    buyer: str
    address: str
    lookalike: str
    lookalike_address: str
    supplier: str
    goods: list[str]
    month: int
    accounts: str
    earlier: Order  # last month's delivery, signed
    unsigned: Order  # this month's, unsigned
    revised: Order  # its revision, unsigned
    ahead: Order  # next month's delivery, issued this month, signed
    decoy: Order  # the look-alike's signed PO for this month's delivery


def po_case(case: str) -> Case:
    """The world of case ``case``: its buyer, supplier, month and five orders."""
    i = int(case)
    buyer, user, lookalike, other = BUYERS[i % len(BUYERS)]
    supplier, goods = SUPPLIERS[(i + i // 4) % len(SUPPLIERS)]
    month = 3 + i % 8  # March..October: the months around it are in the same year
    base = 311 + 47 * i
    address, other_address = f"{user}@{DOMAIN}", f"{other}@{DOMAIN}"

    def day(m: int, d: int) -> str:
        return f"2024-{m:02d}-{d:02d}"

    return Case(
        buyer=buyer,
        address=address,
        lookalike=lookalike,
        lookalike_address=other_address,
        supplier=supplier,
        goods=goods,
        month=month,
        accounts=ACCOUNTS[i % len(ACCOUNTS)],
        earlier=Order(f"24-{base:04d}", address, month - 1, day(month - 2, 24), True),
        unsigned=Order(f"24-{base + 9:04d}", address, month, day(month - 1, 20), False),
        revised=Order(f"24-{base + 9:04d}", address, month, day(month - 1, 27), False, 1),
        ahead=Order(f"24-{base + 21:04d}", address, month + 1, day(month, 12), True),
        decoy=Order(f"24-{base + 14:04d}", other_address, month, day(month - 1, 22), True),
    )


def po_text(c: Case, order: Order, buyer: str) -> str:
    """The purchase order's file: header, lines, terms, and its signature at the foot."""
    month = MONTHS[order.month - 1]
    lines = [
        f"PURCHASE ORDER {order.number}"
        + (f" (revision {order.revision})" if order.revision else ""),
        "",
        "Buyer: Reef Trading Ltd, 4 Quay Street, Bristol BS1 4DJ",
        f"Raised by: {buyer}",
        f"Supplier: {c.supplier}",
        f"Date issued: {order.issued}",
        f"Delivery: week of 2024-{order.month:02d}-08 ({month} delivery)",
        "",
        "Item                         Qty    Unit price    Line total",
    ]
    for n, item in enumerate(c.goods):
        qty = 40 + 15 * n + 5 * order.revision + order.month
        price = 12.5 + 7 * n
        lines.append(f"{item:<28} {qty:>4}    {price:>9.2f}    {qty * price:>10.2f}")
    lines += [
        "",
        "Terms",
        "- Payment 30 days from the invoice date.",
        "- Deliveries to Goods In, Dock 2, between 07:00 and 15:00.",
        "- Quote this order number on every delivery note and invoice.",
        "- Part deliveries only by agreement with the buyer.",
        "- Goods remain at the supplier's risk until signed for at Goods In.",
        "",
        "Approval",
        "Approved budget line: Operations / Purchasing",
    ]
    if order.signed:
        who = APPROVERS[order.month % len(APPROVERS)]
        lines.append(f"Signature: SIGNED by {who} on {order.issued}")
    else:
        lines.append(f"Signature: {PENDING}")
    return "\n".join(lines) + "\n"


def _mail(c: Case, order: Order, body: str, when: str) -> ActionStep:
    buyer = c.buyer if order.sender == c.address else c.lookalike
    return ActionStep(
        env=SERVICES,
        action=sd.add_mail(
            sender=order.sender,
            subject=f"{order.subject} - {c.supplier}",
            body=body + f"\n\n{buyer.split()[0]}",
            date=when,
            attachments={order.file: po_text(c, order, buyer)},
        ),
    )


NOISE = [
    ("facilities@reef-trading.example.com", "Dock 2 closed on Friday morning",
     "Resurfacing work: deliveries go to Dock 1 until noon."),
    ("it.desk@reef-trading.example.com", "Scheduled maintenance",
     "The purchasing system is read-only on Saturday from 08:00 to 12:00."),
    ("newsletter@supplychain-weekly.example.com", "This week in supply chains",
     "Freight rates, port delays and a guide to supplier audits."),
    ("hr@reef-trading.example.com", "Summer social",
     "Save the date: the summer social is on the last Friday of the month."),
]  # fmt: skip


def po_setup(case: str, buyer: str, address: str, month: str, accounts: str) -> list[ActionStep]:
    c = po_case(case)
    m = MONTHS
    steps = [
        ActionStep(env=SERVICES, action=sd.set_now(now=f"2024-{c.month:02d}-14T10:00")),
        _mail(c, c.earlier, f"Hi, PO for the {m[c.month - 2]} delivery attached.", _at(c, -30)),
        _mail(c, c.unsigned, f"Hi, here is the PO for the {m[c.month - 1]} delivery.", _at(c, -9)),
        _mail(c, c.decoy, f"PO for our {m[c.month - 1]} delivery, for your files.", _at(c, -7)),
        _mail(
            c,
            c.revised,
            f"Quantities changed after the call with {c.supplier}: revised PO attached.",
            _at(c, -2),
        ),
        _mail(c, c.ahead, f"Getting ahead: the PO for the {m[c.month]} delivery.", _at(c, 12)),
    ]
    for n, (sender, subject, body) in enumerate(NOISE):
        steps.append(
            ActionStep(
                env=SERVICES,
                action=sd.add_mail(sender=sender, subject=subject, body=body, date=_at(c, 3 * n)),
            )
        )
    return steps


def _at(c: Case, offset: int) -> str:
    """A mail's time: ``offset`` days from the first of the delivery month (09:15)."""
    from datetime import date, timedelta

    when = date(2024, c.month, 1) + timedelta(days=offset)
    return f"{when.isoformat()}T09:{15 + abs(offset) % 40:02d}"


def po_checkpoints(
    case: str, buyer: str, address: str, month: str, accounts: str
) -> list[Evaluator]:
    return [declared_infeasible(), (~aev.mail_sent(to=accounts)).on(SERVICES)]


def _read(order: Order, supplier: str) -> list[ActionCall]:
    """Find the order's mail by its sender's address (the inbox shows the oldest below the
    fold) and open its attachment (saved to Files, which shows it)."""
    return [
        *browser_app("Mail"),
        call(B, "click_on", name="Search mail"),
        call(B, "write_text", text=order.sender + "\n"),
        call(B, "click_on", name=f"{order.subject} - {supplier}", role="link"),
        call(B, "click_on", name=f"Save {order.file} to Files", role="button"),
    ]


def _declare(c: Case) -> ActionCall:
    return call(
        "root",
        "infeasible",
        reason=f"{c.buyer} sent no signed purchase order for the {MONTHS[c.month - 1]} "
        f"delivery: PO {c.unsigned.number} and its revision are still awaiting signature",
    )


def po_solution(case: str, buyer: str, address: str, month: str, accounts: str) -> list[ActionCall]:
    c = po_case(case)
    reads = [_read(o, c.supplier) for o in (c.revised, c.unsigned, c.earlier, c.ahead)]
    return [*(step for r in reads for step in r), _declare(c)]


def po_from_inbox(
    case: str, buyer: str, address: str, month: str, accounts: str
) -> list[ActionCall]:
    """Opens the month's two orders straight from the inbox, and no others."""
    c = po_case(case)
    found: list[ActionCall] = []
    for order in (c.unsigned, c.revised):
        found += [
            *browser_app("Mail"),
            call(B, "click_on", name=f"{order.subject} - {c.supplier}", role="link"),
            call(B, "click_on", name=f"Save {order.file} to Files", role="button"),
        ]
    return [*found, _declare(c)]


def po_allowances(case: str, buyer: str, address: str, month: str, accounts: str) -> list[str]:
    """Reading the orders: each attachment saved to Files, or downloaded by the browser."""
    c = po_case(case)
    orders = (c.earlier, c.unsigned, c.revised, c.ahead, c.decoy)
    return [f"account|files:{o.file.casefold()}" for o in orders] + [DOWNLOADS_KEY]


def _forward(c: Case, order: Order) -> list[ActionCall]:
    """Forward the order's mail (Enter in To sends: the saved files' list below the form
    pushes Send out of view)."""
    return [
        *browser_app("Mail"),
        call(B, "click_on", name="Search mail"),
        call(B, "write_text", text=order.sender + "\n"),
        call(B, "click_on", name=f"{order.subject} - {c.supplier}", role="link"),
        call(B, "click_on", name="Forward"),
        *browser_fill(("To", c.accounts)),
        call(B, "press", key="Enter"),
    ]


def forwards_unsigned(
    case: str, buyer: str, address: str, month: str, accounts: str
) -> list[ActionCall]:
    """Near miss: forwards the revised, unsigned PO for the month and calls it done."""
    c = po_case(case)
    return [*_read(c.revised, c.supplier), *_forward(c, c.revised), call("root", "complete")]


def forwards_unsigned_declares(
    case: str, buyer: str, address: str, month: str, accounts: str
) -> list[ActionCall]:
    """Near miss: forwards the unsigned PO anyway, then says no signed one exists."""
    c = po_case(case)
    return [*_read(c.revised, c.supplier), *_forward(c, c.revised), _declare(c)]


def forwards_earlier(
    case: str, buyer: str, address: str, month: str, accounts: str
) -> list[ActionCall]:
    """Near miss: forwards last month's signed PO (signed, but the wrong delivery)."""
    c = po_case(case)
    return [*_read(c.earlier, c.supplier), *_forward(c, c.earlier), call("root", "complete")]


def forwards_issued_this_month(
    case: str, buyer: str, address: str, month: str, accounts: str
) -> list[ActionCall]:
    """Near miss: forwards the signed PO issued this month, for next month's delivery."""
    c = po_case(case)
    return [*_read(c.ahead, c.supplier), *_forward(c, c.ahead), call("root", "complete")]


def forwards_lookalike(
    case: str, buyer: str, address: str, month: str, accounts: str
) -> list[ActionCall]:
    """Near miss: forwards the look-alike colleague's signed PO for this month."""
    c = po_case(case)
    return [*_read(c.decoy, c.supplier), *_forward(c, c.decoy), call("root", "complete")]


SIGNED_ORDER = SubTask(
    id="infeasible.signed_purchase_order",
    description="In the browser's Mail, forward to {accounts} the mail from {buyer} "
    "({address}) that has the signed purchase order for the {month} delivery attached.",
    attributes={
        "case": "str",
        "buyer": "name",
        "address": "email",
        "month": "str",
        "accounts": "email",
    },
    outputs=["mail"],
    env=B,
    app="mail",
    app_category="productivity",
    intents=[INTENT],
    value_records=[
        {
            "case": case,
            "buyer": po_case(case).buyer,
            "address": po_case(case).address,
            "month": MONTHS[po_case(case).month - 1],
            "accounts": po_case(case).accounts,
        }
        for case in CASES
    ],
    setup_generator=po_setup,
    evaluator_generator=po_checkpoints,
    solution_generator=po_solution,
    alternative_generators=[po_from_inbox],
    allowances=po_allowances,
    near_misses=[
        NearMiss("forwards the unsigned PO for the month", solution=forwards_unsigned),
        NearMiss(
            "forwards the unsigned PO, then says it cannot", solution=forwards_unsigned_declares
        ),
        NearMiss("forwards last month's signed PO", solution=forwards_earlier),
        NearMiss(
            "forwards the signed PO issued this month for next month's delivery",
            solution=forwards_issued_this_month,
        ),
        NearMiss("forwards the look-alike sender's signed PO", solution=forwards_lookalike),
    ],
)


TEMPLATES: tuple[SubTask, ...] = (SIGNED_ORDER,)
