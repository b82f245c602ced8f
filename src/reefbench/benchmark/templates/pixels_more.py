"""More of reef-v2's pixels family: the month two unlabelled lines cross, and (from
:mod:`.pixels_seats`) who sits opposite whom on a photographed seating plan.

The pictures (:mod:`reefbench.benchmark.pixel_scenes`, drawn by the pixels family's setup
action :func:`reefbench.benchmark.pixel_images.draw_pixel_images`) are in a folder of the
desktop's home under neutral names; the answer is in no file name, text or element list
(the image editor's list names its window and tools only), and is submitted
(``root.answer_one_of``: a month by its name or abbreviation, a person by full or first
name).

``pixels.line_cross``: a line chart of three series by month in three close cool hues
(blue, purple, teal), thin lines, no data labels, the legend to the right in an order that
is neither the lines' stacking at either end nor their drawing order. The asked series is
4 or 5 units (8 or 10 pixels) below the other the month before it first rises above it,
by 4 or 5 again, dips below it later and rises above again; the third series crosses the
asked one in another month. Near misses: the month before the crossing, the month after,
the second rise, the month the asked series passes the third one, and the month the third
series first rises above the other one (the third line, a close colour, taken for the
asked one).
"""

from __future__ import annotations

import random
from itertools import permutations
from typing import Any

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.benchmark import pixel_images as px
from reefbench.benchmark import pixel_scenes as ps
from reefbench.benchmark.templates.drawing import drawing_open
from reefbench.benchmark.templates.pixels import PIXELS_INTENT, _desktop, _submit
from reefbench.benchmark.templates.pixels_seats import SEAT_OPPOSITE
from reefbench.environments.root import answer_one_of
from reefbench.tasks.subtask import NearMiss, SubTask
from reefbench.tasks.task import ActionStep

D = "desktop"

# ------------------------------------------------ line chart: the month lines cross
SERIES = [
    ("Online", "In store", "Phone"),
    ("Web shop", "Retail", "Wholesale"),
    ("North", "South", "East"),
    ("Mobile", "Desktop", "Tablet"),
    ("App", "Website", "Partners"),
]
SUBJECTS = ["orders", "sales", "sign-ups", "bookings", "tickets"]
# (asked series, the one it overtakes, the third): three cool colours, close in hue, that
# the legend tells apart (blue, purple and teal, not a contrasting orange).
PALETTES = [
    ("blue", "purple", "teal"),
    ("purple", "blue", "teal"),
    ("teal", "blue", "purple"),
    ("blue", "teal", "purple"),
]
LINE_FOLDERS = ["~/Pictures/Reports", "~/Documents/Charts", "~/Pictures/Charts"]
YEARS = [2023, 2022]  # full past years: the task clock is June 2024


def _chart_file(v: dict[str, Any]) -> str:
    return f"{v['folder']}/{v['subject']}-{v['year']}.png"


def _lines(v: dict[str, Any]) -> dict[str, list[int]]:
    pattern = {"first": v["first"], "dip": v["dip"], "again": v["again"], "c": v["cross"]}
    return ps.line_values(f"{v['subject']}:{v['leader']}:{v['variant']}", pattern)


def line_setup(**v: Any) -> list[ActionStep]:
    values = _lines(v)
    names = (v["leader"], v["trailer"], v["third"])
    lines = [
        {"name": name, "colour": colour, "values": values[key]}
        for key, name, colour in zip("abc", names, v["colours"].split("|"), strict=True)
    ]
    turn = int(v["variant"])
    drawn = [lines[(turn + k) % 3] for k in range(3)]  # which line lies on top varies
    image = {
        "name": _chart_file(v).rsplit("/", 1)[1],
        "kind": "lines",
        "title": f"{v['subject'].capitalize()} by channel, {v['year']}",
        "series": drawn,
        "legend": legend_order([list(line["values"]) for line in drawn], turn),
    }
    return [_desktop(px.draw_pixel_images(folder=v["folder"], images=[image]))]


def _stacked(values: list[list[int]], month: int) -> list[int]:
    """The series' indices top to bottom at ``month``."""
    heights = sorted(((-row[month], k) for k, row in enumerate(values)))
    return [k for _, k in heights]


def legend_order(values: list[list[int]], turn: int) -> list[int]:
    """The legend's order (indices into the drawn series): never the order the lines are
    stacked in at either end of the chart, top to bottom, nor their drawing order, so a
    legend read by position instead of by colour names the wrong line."""
    avoid = [_stacked(values, 0), _stacked(values, len(values[0]) - 1), [0, 1, 2]]
    orders = [list(p) for p in permutations(range(3)) if list(p) not in avoid]
    return orders[turn % len(orders)]


def month_spellings(month: int, year: int) -> list[str]:
    """Ways to write month ``month`` (0-based): "March", "Mar", "March 2024", "Mar 2024"."""
    names = [ps.MONTH_NAMES[month], ps.MONTHS[month]]
    return [*names, *(f"{n} {year}" for n in names)]


def line_checkpoint(**v: Any) -> Evaluator:
    return answer_one_of(accepted=month_spellings(int(v["first"]), int(v["year"])))


def _read_lines(v: dict[str, Any], month: int) -> list[ActionCall]:
    return [*drawing_open(_chart_file(v)), _submit(ps.MONTH_NAMES[month])]


def line_solution(**v: Any) -> list[ActionCall]:
    return _read_lines(v, v["first"])


def line_month_before(**v: Any) -> list[ActionCall]:
    """Submits the month before the crossing (the lines nearly touch there)."""
    return _read_lines(v, v["first"] - 1)


def line_month_after(**v: Any) -> list[ActionCall]:
    """Submits the month after the crossing (the first month clearly above)."""
    return _read_lines(v, v["first"] + 1)


def line_second_rise(**v: Any) -> list[ActionCall]:
    """Submits the month it rose above again after dipping (not the first time)."""
    return _read_lines(v, v["again"])


def line_third_over(**v: Any) -> list[ActionCall]:
    """Submits the month the third series (a close colour) first rose above the other
    one: the third line taken for the asked one."""
    over = ps.third_over(_lines(v))
    assert over is not None  # line_values draws only charts where it is
    return _read_lines(v, over)


def line_other_series(**v: Any) -> list[ActionCall]:
    """Submits the month the asked series passed the third series (the wrong line)."""
    return _read_lines(v, v["cross"])


def _line_records() -> list[dict[str, Any]]:
    records = []
    for i in range(15):
        rng = random.Random(f"line-cross:{i}")
        first = 2 + i % 5  # from March to July
        dip = first + rng.randint(3, 4)
        again = min(dip + rng.randint(2, 3), 11)
        taken = {first - 1, first, first + 1, again}
        cross = rng.choice([m for m in range(1, 12) if m not in taken])
        leader, trailer, third = SERIES[(i * 2) % len(SERIES)]
        records.append(
            {
                "subject": SUBJECTS[i % len(SUBJECTS)],
                "leader": leader,
                "trailer": trailer,
                "third": third,
                "colours": "|".join(PALETTES[i % len(PALETTES)]),
                "year": YEARS[i % len(YEARS)],
                "first": first,
                "dip": dip,
                "again": again,
                "cross": cross,
                "variant": i,
                "folder": LINE_FOLDERS[i % len(LINE_FOLDERS)],
            }
        )
    return records


LINE_CROSS = SubTask(
    id="pixels.line_cross",
    description="The picture {folder}/{subject}-{year}.png on the computer charts our "
    "monthly {subject} by channel through {year}. In which month of {year} were {leader} "
    "{subject} higher than {trailer} {subject} for the first time? Submit the month's name.",
    attributes={
        "subject": "str",
        "leader": "str",
        "trailer": "str",
        "third": "str",
        "colours": "str",
        "year": "int",
        "first": "int",
        "dip": "int",
        "again": "int",
        "cross": "int",
        "variant": "int",
        "folder": "str",
    },
    outputs=["answer"],
    env=D,
    app="image-editor",
    app_category="productivity",
    intents=[PIXELS_INTENT],
    value_records=_line_records(),
    setup_generator=line_setup,
    evaluator_generator=line_checkpoint,
    solution_generator=line_solution,
    near_misses=[
        NearMiss("submits the month before the crossing", solution=line_month_before),
        NearMiss("submits the month after the crossing", solution=line_month_after),
        NearMiss("submits the second time it rose above", solution=line_second_rise),
        NearMiss("reads the crossing with the third series", solution=line_other_series),
        NearMiss(
            "takes the third line (a close colour) for the asked one", solution=line_third_over
        ),
    ],
)


TEMPLATES: list[SubTask] = [LINE_CROSS, SEAT_OPPOSITE]
POOL: dict[str, SubTask] = {t.id: t for t in TEMPLATES}
