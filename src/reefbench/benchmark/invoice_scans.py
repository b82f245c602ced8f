"""Paper invoices and payment receipts scanned to pictures, for the reasoning family.

A scan (:func:`draw_invoice`, :func:`draw_payment`) is a vendor's printed page: its name,
a heading ("INVOICE", "PAYMENT RECEIPT"), the number or reference, a date and the amount,
in Pillow's bundled font, turned a degree or two on the scanner's glass, with sensor
noise. It is a PNG with no text layer and a file name that says nothing
(``scan_0001.png``): its facts are only in its pixels, so an agent has to look at it (the
playtests' point: data that is clean text in one place is read at a glance).
:mod:`.pixel_images` draws them as its ``invoice`` and ``payment`` kinds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from reefbench.benchmark.pixel_scenes import noisy

if TYPE_CHECKING:
    from PIL.Image import Image


def draw_invoice(vendor: str, number: str, day: str, total: str, tilt: float) -> Image:
    """The scanned page: ``vendor``'s invoice ``number`` of ``day`` for EUR ``total``
    (as printed, e.g. "1234.50"), turned ``tilt`` degrees, with noise."""
    rows = (("Invoice number", number), ("Invoice date", day), ("Payment terms", "30 days"))
    return draw_page(vendor, "INVOICE", rows, ("TOTAL DUE", total), f"{number}:{tilt}", tilt)


def draw_payment(vendor: str, reference: str, day: str, amount: str, tilt: float) -> Image:
    """A scanned paper receipt: ``vendor`` confirms a payment ``reference`` of EUR
    ``amount`` on ``day``."""
    rows = (("Reference", reference), ("Date paid", day), ("Method", "bank transfer"))
    pair = ("AMOUNT PAID", amount)
    return draw_page(vendor, "PAYMENT RECEIPT", rows, pair, f"{reference}:{tilt}", tilt)


def draw_page(
    vendor: str,
    heading: str,
    rows: tuple[tuple[str, str], ...],
    total: tuple[str, str],
    seed: str,
    tilt: float,
) -> Image:
    """A vendor's printed page: its name, a heading, labelled rows and a total line in
    large type (``total``: its label and the amount as printed, "EUR" put before it)."""
    from PIL import Image as PILImage
    from PIL import ImageDraw, ImageFont

    font = ImageFont.load_default(size=22)
    big = ImageFont.load_default(size=34)
    page = PILImage.new("RGB", (620, 560), "#fbfaf6")
    draw = ImageDraw.Draw(page)
    draw.text((40, 40), vendor, fill="#1d2a44", font=big)
    draw.text((40, 92), "Accounts department", fill="#555", font=font)
    draw.text((580, 150), heading, fill="#222", font=big, anchor="ra")
    draw.line((40, 200, 580, 200), fill="#999", width=2)
    y = 225
    for label, value in rows:
        draw.text((40, y), label, fill="#333", font=font)
        draw.text((580, y), value, fill="#111", font=font, anchor="ra")
        y += 44
    draw.line((40, y + 10, 580, y + 10), fill="#999", width=2)
    draw.text((40, y + 40), total[0], fill="#111", font=big)
    draw.text((580, y + 40), f"EUR {total[1]}", fill="#111", font=big, anchor="ra")
    note = "Please quote the reference with any query."
    draw.text((40, 500), note, fill="#666", font=font)
    turned = page.rotate(
        tilt, resample=PILImage.Resampling.BICUBIC, expand=True, fillcolor="#d8d8d4"
    )
    return noisy(turned, f"page:{seed}", 18)
