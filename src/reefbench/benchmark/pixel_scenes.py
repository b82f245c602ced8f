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


def draw_lines(title: str, series: list[dict[str, Any]], legend: list[int] | None = None) -> Image:
    """A line chart by month of ``series`` (each "name", "colour" (a :data:`LINE_COLOURS`
    name) and twelve "values" from 0 to 200), thin lines with a small dot on each month,
    gridlines every 10 (labelled every 20), no data labels, and a legend to the right of
    the plot, listing the series in the order ``legend`` (indices into ``series``; the
    drawing order otherwise): as in a spreadsheet's chart, its order need not be the order
    the lines are stacked in, so the legend is read by colour, not by position."""
    from PIL import Image as PILImage
    from PIL import ImageDraw, ImageFont

    font = ImageFont.load_default(size=15)
    image = PILImage.new("RGB", (1040, 600), "white")
    draw = ImageDraw.Draw(image)
    left, bottom, top, right = 70, 520, 120, 910  # 2 pixels per unit
    draw.text((490, 30), title, fill="#222", font=ImageFont.load_default(size=22), anchor="mm")
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
    for line in series:
        ink = LINE_COLOURS[str(line["colour"])]
        points = [
            (x, bottom - int(v) * (bottom - top) / LINE_TOP)
            for x, v in zip(xs, line["values"], strict=True)
        ]
        draw.line(points, fill=ink, width=2, joint="curve")
        for px_, py_ in points:
            draw.ellipse((px_ - 3, py_ - 3, px_ + 3, py_ + 3), fill=ink)
    order = legend if legend is not None else list(range(len(series)))
    legend_y = 280
    for index in order:
        line = series[index]
        ink = LINE_COLOURS[str(line["colour"])]
        draw.line((925, legend_y, 950, legend_y), fill=ink, width=2)
        draw.ellipse((934, legend_y - 3, 940, legend_y + 3), fill=ink)
        draw.text((956, legend_y), str(line["name"]), fill="#222", font=font, anchor="lm")
        legend_y += 26
    return image


def line_values(seed: str, pattern: dict[str, int]) -> dict[str, list[int]]:
    """Three series "a", "b", "c" of twelve monthly values (10 to 190) such that ``a`` is
    below ``b`` until month ``pattern["first"]`` (0-based) and above it there by 4 or 5
    units (8 or 10 pixels, the least the gridlines every 10 let a careful eye settle), after
    being below it by 4 or 5 the month before, falls below it at ``pattern["dip"]`` and
    rises above again at ``pattern["again"]`` (both by 4 to 8); ``c`` is above ``a`` until
    ``pattern["c"]`` and below it from there on, and first rises above ``b`` (after being
    below it) in a month none of those is, which the third series' month
    (:func:`third_over`) names."""
    rng = random.Random(f"lines:{seed}")
    first, dip, again, cross = (pattern[k] for k in ("first", "dip", "again", "c"))
    taken = {first - 1, first, first + 1, again, cross}
    for _ in range(20000):
        b = [rng.randint(70, 130)]
        for _ in MONTHS[1:]:
            b.append(max(50, min(150, b[-1] + rng.randint(-12, 12))))
        gap: list[int] = []
        for k in range(len(MONTHS)):
            above = first <= k < dip or k >= again
            if k in (first - 1, first):
                size = rng.randint(4, 5)
            elif k in (dip - 1, dip, again - 1, again):
                size = rng.randint(4, 8)
            else:
                size = rng.randint(12, 30)
            gap.append(size if above else -size)
        a = [v + d for v, d in zip(b, gap, strict=True)]
        c = [
            v + (rng.randint(6, 24) if k < cross else -rng.randint(6, 24)) for k, v in enumerate(a)
        ]
        lines = {"a": a, "b": b, "c": c}
        over = third_over(lines)
        if (
            all(10 <= v <= 190 for v in (*a, *c))
            and all(abs(x - y) >= 4 for x, y in zip(b, c, strict=True))
            and over is not None
            and over not in taken
        ):
            return lines
    raise ValueError(f"no chart for {pattern} in 20000 draws")


def third_over(lines: dict[str, list[int]]) -> int | None:
    """The first month (0-based) the third series ``c`` is above ``b``, or None when it
    never is: the answer of one who takes the third line (its colour is close) for the
    asked one."""
    c, b = lines["c"], lines["b"]
    return next((k for k in range(len(MONTHS)) if c[k] > b[k]), None)


# ------------------------------------------------------------------- seating plans
SLOTS = 5  # chair places along each long side; each side leaves one of them empty
FAR = 0.72  # the far side's width, as photographed from the near side


def slot_x(slot: int, far: bool, scale: float = FAR) -> int:
    """The centre (x) of chair place ``slot`` (0 at the left) on the far or near side: the
    far side is narrower (``scale``), so place k on top faces place k below although they
    are not in one column of the picture."""
    cx = 470
    return round(cx + (slot - (SLOTS - 1) / 2) * 124 * (scale if far else 1.0))


def draw_seats(
    heading: str, far: list[str], near: list[str], ends: list[str], tilt: float
) -> Image:
    """A printed seating plan of a meeting table photographed from the near side (the far
    side narrower), turned ``tilt`` degrees, with noise. ``far`` and ``near`` name who sits
    at each of the :data:`SLOTS` chair places of the long sides, left to right ("" where
    the place has no chair: the sides' empty places differ, so counting chairs along one
    side does not give the chair facing a person on the other); ``ends`` the left and
    right end. Place k on the far side faces place k on the near side."""
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
    spots: list[tuple[int, int, str, str]] = []
    for slot in range(SLOTS):
        spots.append((slot_x(slot, True), top - 45, "above", far[slot]))
        spots.append((slot_x(slot, False), bottom + 45, "below", near[slot]))
    spots.append((cx - 380, (top + bottom) // 2, "left", ends[0]))
    spots.append((cx + 380, (top + bottom) // 2, "right", ends[1]))
    for x, y, side, name in spots:
        if not name:  # a place without a chair: only its faint outline on the print
            draw.rounded_rectangle((x - 18, y - 18, x + 18, y + 18), radius=7, outline="#c8c4bb")
            continue
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
