"""More pictures for reef-v2's pixels family: a line chart of three series without data
labels and a photographed seating plan of a meeting table.

:func:`reefbench.benchmark.pixel_images.picture` draws them for the kinds ``lines`` and
``seats``. As there, everything is drawn with Pillow's bundled font (the same pixels on
every machine) and what a task asks (the month two lines cross, who sits opposite whom) is
in no file name or text, only in these pixels.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from PIL.Image import Image

MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
MONTH_NAMES = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]
LINE_TOP = 200  # the axis runs 0..200: a labelled gridline every 20, a faint one every 10
LINE_COLOURS = {
    "blue": "#2a5caa",
    "purple": "#7b4bb7",
    "teal": "#1f9488",
    "orange": "#e0761c",
}


def noisy(image: Image, seed: str, amount: int = 28) -> Image:
    """``image`` with grey sensor noise blended in (seeded, so the same every time): every
    generated photo of the pixels family carries it (:mod:`.pixel_images` too)."""
    from PIL import Image as PILImage

    rng = random.Random(seed)
    noise = PILImage.frombytes("L", image.size, rng.randbytes(image.width * image.height))
    return PILImage.blend(image, PILImage.merge("RGB", [noise] * 3), amount / 255)


def draw_lines(title: str, series: list[dict[str, Any]]) -> Image:
    """A line chart by month of ``series`` (each "name", "colour" (a :data:`LINE_COLOURS`
    name) and twelve "values" from 0 to 200), a dot on each month, a legend, gridlines
    every 10 (labelled every 20) and no data labels."""
    from PIL import Image as PILImage
    from PIL import ImageDraw, ImageFont

    font = ImageFont.load_default(size=15)
    image = PILImage.new("RGB", (940, 600), "white")
    draw = ImageDraw.Draw(image)
    left, bottom, top, right = 70, 520, 120, 910  # 2 pixels per unit
    draw.text((470, 30), title, fill="#222", font=ImageFont.load_default(size=22), anchor="mm")
    for value in range(0, LINE_TOP + 1, 10):
        y = bottom - value * (bottom - top) // LINE_TOP
        colour = "#333" if value == 0 else "#cfcfcf" if value % 20 == 0 else "#ececec"
        draw.line((left, y, right, y), fill=colour, width=1)
        if value % 20 == 0:
            draw.text((left - 8, y), str(value), fill="#333", font=font, anchor="rm")
    step = (right - left) / len(MONTHS)
    xs = [round(left + step * (k + 0.5)) for k in range(len(MONTHS))]
    for x, month in zip(xs, MONTHS, strict=True):
        draw.line((x, bottom, x, bottom + 5), fill="#333")
        draw.text((x, bottom + 18), month, fill="#333", font=font, anchor="mm")
    draw.line((left, top, left, bottom), fill="#333", width=1)
    legend_x = 160
    for line in series:
        ink = LINE_COLOURS[str(line["colour"])]
        points = [
            (x, bottom - int(v) * (bottom - top) / LINE_TOP)
            for x, v in zip(xs, line["values"], strict=True)
        ]
        draw.line(points, fill=ink, width=3, joint="curve")
        for px_, py_ in points:
            draw.ellipse((px_ - 4, py_ - 4, px_ + 4, py_ + 4), fill=ink)
        draw.line((legend_x, 72, legend_x + 30, 72), fill=ink, width=3)
        draw.ellipse((legend_x + 11, 68, legend_x + 19, 76), fill=ink)
        draw.text((legend_x + 38, 72), str(line["name"]), fill="#222", font=font, anchor="lm")
        legend_x += 38 + int(draw.textlength(str(line["name"]), font=font)) + 50
    return image


def line_values(seed: str, pattern: dict[str, int]) -> dict[str, list[int]]:
    """Three series "a", "b", "c" of twelve monthly values (10 to 190) such that ``a`` is
    below ``b`` until month ``pattern["first"]`` (0-based) and above it there, by 4 to 8
    (2 to 4 pixels a unit: a small gap), falls below it at ``pattern["dip"]`` and rises
    above again at ``pattern["again"]``; ``c`` is above ``a`` until ``pattern["c"]`` and
    below it from there on."""
    rng = random.Random(f"lines:{seed}")
    first, dip, again, cross = (pattern[k] for k in ("first", "dip", "again", "c"))
    while True:
        b = [rng.randint(70, 130)]
        for _ in MONTHS[1:]:
            b.append(max(50, min(150, b[-1] + rng.randint(-12, 12))))
        gap: list[int] = []
        for k in range(len(MONTHS)):
            above = first <= k < dip or k >= again
            close = k in (first - 1, first, dip - 1, dip, again - 1, again)
            size = rng.randint(4, 8) if close else rng.randint(12, 30)
            gap.append(size if above else -size)
        a = [v + d for v, d in zip(b, gap, strict=True)]
        c = [
            v + (rng.randint(6, 24) if k < cross else -rng.randint(6, 24)) for k, v in enumerate(a)
        ]
        if all(10 <= v <= 190 for v in (*a, *c)) and all(
            abs(x - y) >= 4 for x, y in zip(b, c, strict=True)
        ):
            return {"a": a, "b": b, "c": c}


# ------------------------------------------------------------------- seating plans
SEATS = 10  # four along each long side, one at each end
FAR = 0.72  # the far side's width, as photographed from the near side


def seat_positions(near: float = 1.0, far: float = FAR) -> list[tuple[int, int, str]]:
    """The ten seats' centres and where their name goes, in seat order: 0-3 along the far
    (top) side left to right, 4 at the right end, 5-8 along the near (bottom) side right
    to left, 9 at the left end. The plan is photographed from the near side, so the far
    side is narrower (``far``): seat k on top faces seat 8 - k below."""
    cx, top, bottom = 470, 170, 420
    far_xs = [round(cx + (k - 1.5) * 150 * far) for k in range(4)]
    near_xs = [round(cx + (k - 1.5) * 150 * near) for k in range(4)]
    spots = [(x, top - 45, "above") for x in far_xs]
    spots.append((cx + 380, (top + bottom) // 2, "right"))
    spots += [(x, bottom + 45, "below") for x in reversed(near_xs)]
    spots.append((cx - 380, (top + bottom) // 2, "left"))
    return spots


def opposite(seat: int) -> int:
    """The seat across the table from ``seat`` (ends face each other)."""
    if seat in (4, 9):
        return 13 - seat
    return 8 - seat


def draw_seats(heading: str, names: list[str], tilt: float) -> Image:
    """A printed seating plan of a meeting table (``names`` in seat order, see
    :func:`seat_positions`), photographed from the near side (the far side narrower),
    turned ``tilt`` degrees, with noise."""
    from PIL import Image as PILImage
    from PIL import ImageDraw, ImageFont

    font = ImageFont.load_default(size=16)
    paper = PILImage.new("RGB", (940, 600), "#f8f6f0")
    draw = ImageDraw.Draw(paper)
    draw.text((470, 34), heading, fill="#222", font=ImageFont.load_default(size=22), anchor="mm")
    cx, top, bottom = 470, 170, 420
    draw.polygon(
        [(cx - 330 * FAR, top), (cx + 330 * FAR, top), (cx + 330, bottom), (cx - 330, bottom)],
        fill="#c9a77c",
        outline="#7a5c38",
    )
    draw.text((cx, (top + bottom) // 2), "TABLE", fill="#7a5c38", font=font, anchor="mm")
    draw.text((cx, 575), "door", fill="#777", font=font, anchor="mm")
    draw.line((cx - 60, 560, cx + 60, 560), fill="#777", width=3)
    for (x, y, side), name in zip(seat_positions(), names, strict=True):
        draw.rounded_rectangle((x - 18, y - 18, x + 18, y + 18), radius=7, fill="#5b6f8a")
        first, _, last = name.partition(" ")
        if side in ("above", "below"):
            base = y - 58 if side == "above" else y + 30
            for k, word in enumerate((first, last)):
                draw.text((x, base + k * 18), word, fill="#111", font=font, anchor="mt")
        else:
            anchor = "lm" if side == "right" else "rm"
            dx = 26 if side == "right" else -26
            draw.text((x + dx, y - 10), first, fill="#111", font=font, anchor=anchor)
            draw.text((x + dx, y + 10), last, fill="#111", font=font, anchor=anchor)
    turned = paper.rotate(tilt, resample=PILImage.Resampling.BICUBIC, fillcolor="#8a8578")
    return noisy(turned, f"seats:{heading}:{tilt}", 22)
