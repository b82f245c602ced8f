"""Pictures whose information exists only in their pixels, for reef-v2's pixels family.

A setup action (:func:`draw_pixel_images`) draws them into a folder of the desktop's home:
a photographed till receipt (:mod:`.receipt_photos`: items, a discount, tax and total;
paper slightly turned, sensor noise; a customer copy, or torn and blotted), a bar chart
without data labels (gridlines at round values) and a product photo of a jar with a
coloured label. Everything is drawn with Pillow's bundled font, so
the pictures are the same on every machine; what a task asks (a total, a bar's height, a
label's colour) is in no file name, text file or mail, only in these pixels.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from reefbench.actions.spec import action
from reefbench.benchmark import invoice_scans, pixel_scenes, receipt_photos
from reefbench.benchmark.pixel_scenes import noisy
from reefbench.envs.desktop.device import DesktopDevice

if TYPE_CHECKING:
    from PIL.Image import Image


# -------------------------------------------------------------------------- charts
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun"]
CHART_TOP = 400  # the axis runs 0..400, a gridline every GRID
GRID = 20


def chart_values(metric: str, variant: int) -> list[int]:
    """Six monthly values, multiples of 10 from 60 to 380: one highest, midway between two
    gridlines and exactly one gridline step (20) above the runner-up, a small margin that is
    still 20 pixels on the picture."""
    rng = random.Random(f"chart:{metric}:{variant}")
    while True:
        values = [rng.randrange(60, 390, 10) for _ in MONTHS]
        ranked = sorted(values, reverse=True)
        if ranked[0] - ranked[1] == GRID and ranked[0] % GRID:
            return values


def draw_chart(title: str, values: list[int]) -> Image:
    """A bar chart of ``values`` by month: labelled gridlines every 20, no data labels."""
    from PIL import Image as PILImage
    from PIL import ImageDraw, ImageFont

    font = ImageFont.load_default(size=16)
    image = PILImage.new("RGB", (760, 560), "white")
    draw = ImageDraw.Draw(image)
    left, bottom, top, right = 80, 500, 100, 730  # 1 pixel per unit: 400 units, 400 px
    draw.text((380, 40), title, fill="#222", font=ImageFont.load_default(size=24), anchor="mm")
    for value in range(0, CHART_TOP + 1, GRID):
        y = bottom - value * (bottom - top) // CHART_TOP
        draw.line((left, y, right, y), fill="#d0d0d0" if value else "#333", width=1)
        draw.text((left - 8, y), str(value), fill="#333", font=font, anchor="rm")
    step = (right - left) // len(values)
    for k, (month, value) in enumerate(zip(MONTHS, values, strict=True)):
        x0 = left + k * step + step // 5
        x1 = left + (k + 1) * step - step // 5
        draw.rectangle((x0, bottom - value, x1, bottom - 1), fill="#3a6fb0")
        draw.text(((x0 + x1) // 2, bottom + 16), month, fill="#333", font=font, anchor="mm")
    draw.line((left, top, left, bottom), fill="#333", width=1)
    return image


# ---------------------------------------------------------------------- jar photos
# Label colours: each asked one (red, blue, green) with a look-alike on either side of its
# hue, 25 to 50 degrees away (red 0, orange 27, magenta 322; blue 222, teal 180, purple 267;
# green 131, lime 92): close, but colours a person names otherwise.
LABEL_COLOURS = {
    "red": "#d42a2a",
    "orange": "#e87a1e",
    "magenta": "#c8288c",
    "blue": "#2456c9",
    "teal": "#1f9a9a",
    "purple": "#7a3fc0",
    "green": "#2f9e44",
    "lime": "#65b81d",
}
DARK_INK = {"lime"}  # labels light enough for black print


def draw_jar(product: str, colour: str) -> Image:
    """A glass jar on a shelf, its label ``colour`` (a :data:`LABEL_COLOURS` name) with the
    product's name printed small in white or black on it, photographed a few degrees
    askew."""
    from PIL import Image as PILImage
    from PIL import ImageDraw, ImageFont

    image = PILImage.new("RGB", (520, 520), "#e9e2d3")
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 430, 520, 520), fill="#b08a5a")  # shelf
    draw.rounded_rectangle((150, 80, 370, 440), radius=40, fill="#c9d6d8", outline="#8fa3a6")
    draw.rectangle((170, 50, 350, 95), fill="#6b6b6b")  # lid
    draw.rectangle((150, 200, 370, 330), fill=LABEL_COLOURS[colour])
    ink = "black" if colour in DARK_INK else "white"
    words = product.split()
    font = ImageFont.load_default(size=20)
    for k, word in enumerate(words):
        y = 265 + (k - (len(words) - 1) / 2) * 26
        draw.text((260, y), word, fill=ink, font=font, anchor="mm")
    # The camera held a little askew: the print is turned 2 to 4 degrees, either way.
    tilt = random.Random(f"jar:{product}:{colour}").choice([-4.0, -3.0, -2.0, 2.0, 3.0, 4.0])
    turned = image.rotate(tilt, resample=PILImage.Resampling.BICUBIC, fillcolor="#e9e2d3")
    return noisy(turned, f"jar:{product}:{colour}", 16)


def picture(spec: dict[str, Any]) -> Image:
    """The picture a :func:`draw_pixel_images` entry describes."""
    kind = spec["kind"]
    if kind == "receipt":
        receipt = receipt_photos.receipt_of(
            str(spec["shop"]), int(spec["variant"]), bool(spec.get("void", False))
        )
        copy, damaged = bool(spec.get("copy", False)), bool(spec.get("damaged", False))
        return receipt_photos.draw_receipt(receipt, float(spec["tilt"]), copy, damaged)
    if kind == "chart":
        return draw_chart(str(spec["title"]), [int(v) for v in spec["values"]])
    if kind == "jar":
        return draw_jar(str(spec["product"]), str(spec["colour"]))
    if kind == "invoice":
        vendor, number, day = str(spec["vendor"]), str(spec["number"]), str(spec["date"])
        tilt = float(spec["tilt"])
        return invoice_scans.draw_invoice(vendor, number, day, str(spec["total"]), tilt)
    if kind == "payment":
        vendor, ref, day = str(spec["vendor"]), str(spec["reference"]), str(spec["date"])
        tilt = float(spec["tilt"])
        return invoice_scans.draw_payment(vendor, ref, day, str(spec["amount"]), tilt)
    if kind in ("lines", "seats"):
        if kind == "lines":
            legend = spec.get("legend")
            order = [int(k) for k in legend] if legend is not None else None
            return pixel_scenes.draw_lines(str(spec["title"]), list(spec["series"]), order)
        far, near = [str(n) for n in spec["far"]], [str(n) for n in spec["near"]]
        ends = [str(n) for n in spec["ends"]]
        heading, tilt = str(spec["heading"]), float(spec["tilt"])
        return pixel_scenes.draw_seats(heading, far, near, ends, tilt)
    raise ValueError(f"unknown picture kind {kind!r}")


@action
def draw_pixel_images(folder: str, images: list[dict[str, Any]], env: DesktopDevice) -> str:
    """Draw pictures into a folder of the home (setup).

    Args:
        folder: The folder, as the agent sees it (e.g. "~/Pictures/Receipts").
        images: One entry per file: "name" (e.g. "receipt_02.png") and "kind", with its
            fields: "receipt" ("shop", "variant", "tilt" in degrees; optional
            "void": a VOID line takes an item back, "copy": the customer copy, "damaged":
            torn and blotted), "chart" ("title",
            "values": six monthly values), "jar" ("product", "colour"), "lines"
            ("title", "series": each "name", "colour", twelve "values", drawn in that
            order; "legend": the series' indices in the legend's order, optional) or "seats"
            ("heading", "far" and "near": the long sides' five chair places left to
            right, "" for none, "ends": left and right, "tilt" in degrees) or "invoice" (a
            scanned paper invoice: "vendor", "number", "date", "total", "tilt") or
            "payment" (a scanned paper receipt: "vendor", "reference", "date", "amount",
            "tilt").
    """
    target = env.session.host_path(folder)
    target.mkdir(parents=True, exist_ok=True)
    for spec in images:
        picture(spec).save(target / str(spec["name"]), format="PNG")
    return f"drew {len(images)} pictures in {folder}"
