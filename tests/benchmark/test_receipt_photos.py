"""Receipt photos of the pixels family: a damaged receipt hides its TOTAL (and its
subtotal) by design and nothing a person needs to rebuild it; a customer copy prints the
same receipt; a VOID line takes an item back."""

from __future__ import annotations

import dataclasses

import pytest
from PIL.Image import Image

from reefbench.benchmark import receipt_photos as rp
from reefbench.benchmark.templates import pixels

RECEIPTS = [
    rp.receipt_of(shop, variant, void)
    for shop in pixels.SHOPS
    for variant in (0, 3, 51, 64)
    for void in (False, True)
]
NEEDED = ("item", "void", "discount", "tax")  # the lines a rebuilt total is made from


def _shifted(amount: str) -> str:
    """Every digit of ``amount`` another (the same width: the font's digits are tabular)."""
    return "".join(str((int(c) + 3) % 10) if c.isdigit() else c for c in amount)


def _crop(image: Image, box: tuple[int, int, int, int]) -> bytes:
    left, top, right, bottom = box
    return image.crop((left - 2, top - 2, right + 2, bottom + 2)).tobytes()


def test_money_prints_cents_with_a_sign() -> None:
    assert rp.money(1250) == "12.50" and rp.money(5) == "0.05" and rp.money(-340) == "-3.40"


@pytest.mark.parametrize("receipt", [r for r in RECEIPTS if r.void is not None][:6])
def test_the_damage_hides_the_total_and_the_subtotal(receipt: rp.Receipt) -> None:
    """Whatever amounts the TOTAL and subtotal lines print, the damaged paper is the same
    pixels: those two amounts are unreadable by design (torn away, under the blot)."""
    lines = rp.printed_lines(receipt)
    other = [
        dataclasses.replace(line, amount=_shifted(line.amount))
        if line.key in ("total", "subtotal")
        else line
        for line in lines
    ]
    damaged = rp.draw_paper(receipt, damaged=True)
    assert rp.draw_paper(receipt, damaged=True, lines=other).tobytes() == damaged.tobytes()
    # ... while undamaged paper shows them (the comparison above could fail).
    shown = rp.draw_paper(receipt, lines=other).tobytes()
    assert shown != rp.draw_paper(receipt).tobytes()


@pytest.mark.parametrize("receipt", RECEIPTS[:8])
def test_the_damage_touches_no_line_a_rebuilt_total_needs(receipt: rp.Receipt) -> None:
    """Every item, the VOID line, the discount and the tax (label and amount), the heading
    and the word TOTAL are the same pixels on the damaged paper as on the whole one; the
    TOTAL's and the subtotal's amounts are not."""
    layout = rp.paper_layout(receipt)
    whole, damaged = rp.draw_paper(receipt), rp.draw_paper(receipt, damaged=True)
    keys = [line.key for line in layout.lines]
    assert keys.count("void") == (receipt.void is not None)
    for k, line in enumerate(layout.lines):
        label, amount = layout.boxes[k]
        if line.key in NEEDED:
            assert _crop(damaged, label) == _crop(whole, label), line
            assert _crop(damaged, amount) == _crop(whole, amount), line
        else:
            assert _crop(damaged, amount) != _crop(whole, amount), line
    total_label = layout.boxes[len(layout.lines) - 1][0]
    assert _crop(damaged, total_label) == _crop(whole, total_label)  # "TOTAL" stays
    heading = (0, 0, rp.WIDTH, layout.lines[0].y)
    assert damaged.crop(heading).tobytes() == whole.crop(heading).tobytes()


def test_a_customer_copy_prints_the_same_receipt_under_a_banner() -> None:
    receipt = RECEIPTS[1]
    plain, copy = rp.printed_lines(receipt), rp.printed_lines(receipt, copy=True)
    assert [(c.key, c.label, c.amount, c.y - rp.BANNER) for c in copy] == [
        (p.key, p.label, p.amount, p.y) for p in plain
    ]
    banner = rp.draw_paper(receipt, copy=True)
    assert banner.height == rp.draw_paper(receipt).height + rp.BANNER
    below = (0, rp.BANNER, rp.WIDTH, banner.height)
    assert banner.crop(below).tobytes() == rp.draw_paper(receipt).tobytes()
    photo = rp.draw_receipt(receipt, -7.0, copy=True)
    assert photo.tobytes() != rp.draw_receipt(receipt, 5.0).tobytes()


@pytest.mark.parametrize("receipt", [r for r in RECEIPTS if r.void is not None])
def test_a_void_line_takes_its_item_back(receipt: rp.Receipt) -> None:
    assert receipt.void is not None
    lines = rp.printed_lines(receipt)
    k = [line.key for line in lines].index("void")
    name, price = receipt.items[receipt.void]
    assert (lines[k - 1].label, lines[k - 1].amount) == (name, rp.money(price))
    assert (lines[k].label, lines[k].amount) == (f"VOID {name}", rp.money(-price))
    assert receipt.subtotal == sum(p for _, p in receipt.items) - price
    assert len(receipt.items) - 1 >= 3  # three items or more are still paid
    # The misreadings sum apart: the voided price, the discount and the tax differ.
    assert len({receipt.voided, receipt.discount, receipt.tax}) == 3


def test_receipts_are_drawn_from_their_seed() -> None:
    assert rp.receipt_of("Green Grocer", 7, True) == rp.receipt_of("Green Grocer", 7, True)
    assert rp.receipt_of("Green Grocer", 7) != rp.receipt_of("Green Grocer", 8)
    for receipt in RECEIPTS:
        assert receipt.total == receipt.subtotal - receipt.discount + receipt.tax
        assert receipt.tax == (receipt.subtotal - receipt.discount + 5) // 10  # 10 %, half up
        assert 3 <= len(receipt.items) - (receipt.void is not None) <= 5
