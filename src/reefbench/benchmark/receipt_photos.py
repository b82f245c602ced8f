"""Photographed till receipts for reef-v2's pixels family (``pixels.receipt_total``).

A receipt (:func:`receipt_of`) prints its shop, date, number and time, 3 to 5 items (one
of them perhaps taken back by a VOID line), a subtotal, a member's discount, 10 % tax as
a printed amount and the TOTAL. :func:`draw_receipt` photographs it on a grey desk,
turned a few degrees, with sensor noise, in one of three states: the plain print; its
customer copy (the same print under a "CUSTOMER COPY" banner, so one purchase is on two
photos); or damaged, an ink blot over the subtotal's amount and the bottom corner torn
away with the TOTAL's amount, so what was paid is rebuilt from the lines left (the items
less the voided one, less the discount, plus the printed tax). The damage never touches
those lines: :func:`paper_layout` says where every line and the damage are, for the tests.
Everything is drawn with Pillow's bundled font, the same pixels on every machine.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from reefbench.benchmark.pixel_scenes import noisy

if TYPE_CHECKING:
    from PIL.Image import Image

ITEMS = [
    "Coffee beans",
    "Oat milk",
    "Sourdough loaf",
    "Notebook A5",
    "Batteries AA",
    "Dish soap",
    "Olive oil",
    "Tomatoes",
    "Cheddar",
    "Pencils",
    "Light bulb",
    "Tea bags",
    "Pasta",
    "Rice 1kg",
    "Apples",
    "Envelopes",
]
PAPER = "#f7f4ec"
DESK = "#7d7a74"
INK = "#1d2340"  # the blot: blue-black fountain-pen ink
WIDTH = 380
LINE = 34  # an item line's height
SUMS = 38  # a subtotal, discount, tax or total line's height
BANNER = 44  # what a customer copy's banner adds at the top


@dataclass(frozen=True)
class Receipt:
    shop: str
    date: str
    number: int  # the receipt's number, printed under the date and time
    time: str  # "14:32"
    items: tuple[tuple[str, int], ...]  # (item, price in cents), as scanned
    discount: int  # cents off the subtotal (a member's discount), before tax
    tax: int  # cents, printed
    void: int | None = None  # the index of the item a VOID line takes back

    @property
    def voided(self) -> int:
        """Cents of the item the VOID line takes back (0 without one)."""
        return 0 if self.void is None else self.items[self.void][1]

    @property
    def subtotal(self) -> int:
        return sum(p for _, p in self.items) - self.voided

    @property
    def total(self) -> int:
        return self.subtotal - self.discount + self.tax


def money(cents: int) -> str:
    """12.50 from 1250; -3.40 from -340."""
    sign = "-" if cents < 0 else ""
    return f"{sign}{abs(cents) // 100}.{abs(cents) % 100:02d}"


def receipt_of(shop: str, variant: int, void: bool = False) -> Receipt:
    """The receipt of ``shop`` in draw ``variant``: 3 to 5 items (4 or 5 with ``void``, one
    of them taken back by a VOID line), a member's discount of 5 to 15 % (whole 10 cents)
    off the subtotal, then 10 % tax on the rest (rounded half up to the cent, printed). The
    discount, the tax and a voided item's price differ, so each misreading sums apart."""
    rng = random.Random(f"receipt:{shop}:{variant}:{'void' if void else ''}")
    while True:
        count = rng.randint(4, 5) if void else rng.randint(3, 5)
        names = rng.sample(ITEMS, count)
        items = tuple((n, rng.randint(120, 2490)) for n in names)
        voided = rng.randrange(count - 1) if void else None  # never the last line
        day = rng.randint(3, 27)
        number, time = rng.randint(1000, 9999), f"{rng.randint(8, 19)}:{rng.randint(0, 59):02d}"
        gone = 0 if voided is None else items[voided][1]
        subtotal = sum(p for _, p in items) - gone
        discount = max(10, round(subtotal * rng.randint(5, 15) / 1000) * 10)
        tax = ((subtotal - discount) + 5) // 10
        if len({discount, tax, gone}) == 3:
            date = f"2024-05-{day:02d}"
            return Receipt(shop, date, number, time, items, discount, tax, voided)


@dataclass(frozen=True)
class Line:
    """A printed line: what it is ("item", "void", "subtotal", "discount", "tax", "total"
    or "head"), its label and amount, its top on the paper and whether it is large."""

    key: str
    label: str
    amount: str
    y: int
    big: bool = False


def printed_lines(receipt: Receipt, copy: bool = False) -> list[Line]:
    """The receipt's lines below its heading, top to bottom, where they are printed."""
    y = 120 + (BANNER if copy else 0)
    lines = []
    for k, (name, price) in enumerate(receipt.items):
        lines.append(Line("item", name, money(price), y))
        y += LINE
        if k == receipt.void:
            lines.append(Line("void", f"VOID {name}", money(-price), y))
            y += LINE
    y += 16
    for key, label, amount in (
        ("subtotal", "Subtotal", money(receipt.subtotal)),
        ("discount", "Member discount", money(-receipt.discount)),
        ("tax", "Tax 10%", money(receipt.tax)),
    ):
        lines.append(Line(key, label, amount, y))
        y += SUMS
    lines.append(Line("total", "TOTAL", money(receipt.total), y, big=True))
    return lines


@dataclass(frozen=True)
class Layout:
    """Where things are on the paper (before it is turned): each line's label and amount
    boxes (left, top, right, bottom) and the damage, a torn-away polygon and a blot."""

    size: tuple[int, int]
    lines: list[Line]
    boxes: dict[int, tuple[tuple[int, int, int, int], tuple[int, int, int, int]]]
    tear: list[tuple[int, int]]
    blot: list[tuple[int, int, int, int]]  # ellipses' boxes


def paper_layout(receipt: Receipt, copy: bool = False) -> Layout:
    from PIL import ImageFont

    lines = printed_lines(receipt, copy)
    boxes: dict[int, tuple[tuple[int, int, int, int], tuple[int, int, int, int]]] = {}
    for k, line in enumerate(lines):
        font = ImageFont.load_default(size=28 if line.big else 20)
        left, top, right, bottom = (int(v) for v in font.getbbox(line.label))
        label = (24 + left, line.y + top, 24 + right, line.y + bottom)
        width = int(font.getlength(line.amount))
        _, top, _, bottom = (int(v) for v in font.getbbox(line.amount))
        amount = (356 - width, line.y + top, 356, line.y + bottom)
        boxes[k] = (label, amount)
    total = lines[-1].y
    height = total + SUMS + 50
    # The bottom right corner torn off just under the tax line: the TOTAL's amount and
    # the foot go, the word TOTAL stays, so the reader sees what is missing.
    rng = random.Random(f"tear:{receipt.shop}:{receipt.number}")
    edge = [(x, total - rng.randint(2, 7)) for x in range(WIDTH, 230, -18)]
    side = [(int(222 - 8 * k + rng.randint(-5, 5)), total + 6 + 12 * k) for k in range(7)]
    tear = [(WIDTH + 2, total - 4), *edge, *side, (150, height + 2), (WIDTH + 2, height + 2)]
    # The blot: an oval of ink over the subtotal's amount, a few drops around it, all
    # between the line above (the rule under the items) and the discount line.
    sub = next(k for k, line in enumerate(lines) if line.key == "subtotal")
    x0, y0, x1, y1 = boxes[sub][1]
    drops = random.Random(f"blot:{receipt.shop}:{receipt.number}")
    blot = [(x0 - 14, y0 - 11, x1 + 12, y1 + 11)]
    for _ in range(5):
        cx, cy, r = drops.randint(x0 - 16, x1 + 10), drops.choice([y0 - 9, y1 + 9]), 3
        blot.append((cx - r, cy - r, cx + r, cy + r))
    return Layout((WIDTH, height), lines, boxes, tear, blot)


def draw_paper(
    receipt: Receipt, copy: bool = False, damaged: bool = False, lines: list[Line] | None = None
) -> Image:
    """The receipt's paper, flat: ``lines`` overrides what is printed (the tests redraw a
    damaged receipt with another total to show the damage hides it)."""
    from PIL import Image as PILImage
    from PIL import ImageDraw, ImageFont

    font = ImageFont.load_default(size=20)
    big = ImageFont.load_default(size=28)
    layout = paper_layout(receipt, copy)
    paper = PILImage.new("RGB", layout.size, PAPER)
    draw = ImageDraw.Draw(paper)
    top = 0
    if copy:
        draw.rectangle((70, 8, 310, 40), outline="#222", width=2)
        draw.text((190, 24), "CUSTOMER COPY", fill="#222", font=font, anchor="mm")
        top = BANNER
    draw.text((190, top + 26), receipt.shop, fill="#222", font=big, anchor="mm")
    stamp = f"{receipt.date}   {receipt.time}"
    draw.text((190, top + 58), stamp, fill="#444", font=font, anchor="mm")
    draw.text((190, top + 84), f"Receipt No. {receipt.number}", fill="#444", font=font, anchor="mm")
    shown = layout.lines if lines is None else lines
    rule = next(line.y for line in shown if line.key == "subtotal") - 12
    draw.line((20, top + 104, 360, top + 104), fill="#888", width=1)
    draw.line((20, rule, 360, rule), fill="#888", width=1)
    for line in shown:
        face = big if line.big else font
        draw.text((24, line.y), line.label, fill="#111", font=face)
        draw.text((356, line.y), line.amount, fill="#111", font=face, anchor="ra")
        # Dot leaders tie each amount to its label on a turned photo (a 6 degree turn
        # lifts the amount column by about one line).
        start = 24 + int(face.getlength(line.label)) + 10
        end = 356 - int(face.getlength(line.amount)) - 8
        base = line.y + (24 if line.big else 17)
        for x in range(start, end, 8):
            draw.point([(x, base), (x + 1, base)], fill="#8a8a8a")
    draw.text((190, layout.size[1] - 30), "Thank you!", fill="#555", font=font, anchor="mm")
    if damaged:
        draw.polygon(layout.tear, fill=DESK)
        for box in layout.blot:
            draw.ellipse(box, fill=INK)
    return paper


def draw_receipt(receipt: Receipt, tilt: float, copy: bool = False, damaged: bool = False) -> Image:
    """A receipt photographed on a grey desk, turned ``tilt`` degrees, with noise."""
    from PIL import Image as PILImage

    paper = draw_paper(receipt, copy, damaged)
    turned = paper.rotate(tilt, resample=PILImage.Resampling.BICUBIC, expand=True, fillcolor=DESK)
    desk = PILImage.new("RGB", (turned.width + 60, turned.height + 60), DESK)
    desk.paste(turned, (30, 30))
    return noisy(desk, f"{receipt.shop}:{tilt}:{'copy' if copy else ''}")
