"""More of reef-v2's pixels family: the month two unlabelled lines cross, and who sits
opposite whom on a photographed seating plan.

The pictures (:mod:`reefbench.benchmark.pixel_scenes`, drawn by the pixels family's setup
action :func:`reefbench.benchmark.pixel_images.draw_pixel_images`) are in a folder of the
desktop's home under neutral names; the answer is in no file name, text or element list
(the image editor's list names its window and tools only), and is submitted
(``root.answer_one_of``: a month by its name or abbreviation, a person by full or first
name).

``pixels.line_cross``: a line chart of three series by month, no data labels. The asked
series rises above the other one month by 4 to 8 units (8 to 16 pixels), dips below it
later and rises above again; the third series crosses the asked one in a fourth month. Near
misses: the month before the crossing, the month after, the second rise, the month the
asked series passes the third one.

``pixels.seat_opposite``: three photographed seating plans of a ten-seat table (four a
side, one at each end), two of them for the same meeting on different days; the far side
is narrower (photographed from the near side). Near misses: who sits opposite the person
in the same meeting's other day's plan, the mirrored seat across the table (the same seat
counted from the other end), the seat diagonally across, the person beside them.
"""

from __future__ import annotations

import random
from typing import Any

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.benchmark import pixel_images as px
from reefbench.benchmark import pixel_scenes as ps
from reefbench.benchmark.templates.drawing import drawing_open
from reefbench.benchmark.templates.pixels import PIXELS_INTENT, _desktop, _submit, _view
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
# (asked series, the one it overtakes, the third): colours close in hue for the first two.
PALETTES = [
    ("blue", "purple", "orange"),
    ("purple", "blue", "teal"),
    ("teal", "blue", "orange"),
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
    image = {
        "name": _chart_file(v).rsplit("/", 1)[1],
        "kind": "lines",
        "title": f"{v['subject'].capitalize()} by channel, {v['year']}",
        "series": [lines[(turn + k) % 3] for k in range(3)],  # legend order varies
    }
    return [_desktop(px.draw_pixel_images(folder=v["folder"], images=[image]))]


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


def line_other_series(**v: Any) -> list[ActionCall]:
    """Submits the month the asked series passed the third series (the wrong line)."""
    return _read_lines(v, v["cross"])


def _line_records() -> list[dict[str, Any]]:
    records = []
    for i in range(15):
        rng = random.Random(f"line-cross:{i}")
        first = rng.randint(2, 5)
        dip = first + rng.randint(3, 4)
        again = dip + rng.randint(2, 3)
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
    ],
)


# --------------------------------------------- seating plans: who sits opposite whom
PEOPLE = [
    "Anna Berg",
    "Ravi Shah",
    "Tom Kelly",
    "Lena Vogel",
    "Omar Haddad",
    "Mia Chen",
    "Jonas Holm",
    "Sara Lind",
    "Paul Weber",
    "Nina Roos",
    "Eva Novak",
    "Ben Carter",
    "Ida Moreau",
    "Leo Russo",
]
MEETINGS = ["budget review", "design review", "quarterly planning", "hiring panel"]
DAYS = ["Tuesday", "Wednesday", "Thursday"]
ROOMS = ["Harbour Room", "Garden Room", "Room 3.12"]
SEAT_FOLDERS = ["~/Pictures/Meetings", "~/Documents/Seating", "~/Pictures/Office"]
PLANS = 3


def mirrored(seat: int) -> int:
    """The seat across the table counted from the other end (top k -> bottom 5 + k)."""
    return seat + 5 if seat < 4 else seat - 5


def diagonal(seat: int) -> int:
    """The seat diagonally across: the opposite seat's neighbour that is not mirrored."""
    across = ps.opposite(seat)
    side = range(0, 4) if across < 4 else range(5, 9)
    return next(s for s in (across - 1, across + 1) if s in side and s != mirrored(seat))


def beside(seat: int) -> int:
    """The seat next to ``seat`` along its side."""
    return seat + 1 if seat in (0, 1, 2, 5, 6, 7) else seat - 1


def _plans(v: dict[str, Any]) -> list[tuple[str, list[str]]]:
    """The three plans (heading, names in seat order) in file order: the asked meeting on
    its day, the same meeting on another day and another meeting, in turn by position."""
    rng = random.Random(f"seats:{v['variant']}")
    names = v["people"].split("|")
    seat = int(v["seat"])
    person = names[0]
    meetings = [
        (v["meeting"], v["day"]),
        (v["meeting"], v["other_day"]),
        (v["other_meeting"], v["day"]),
    ]
    plans: list[tuple[str, list[str]]] = []
    for k, (meeting, day) in enumerate(meetings):
        heading = f"{meeting.capitalize()}, {day}, {ROOMS[(k + int(v['variant'])) % 3]}"
        while True:
            order = rng.sample(names, ps.SEATS)
            if k == 0:
                order.remove(person)
                order.insert(seat, person)
                break
            there = order.index(person)
            if there not in (4, 9) and order[ps.opposite(there)] not in _seen(plans, seat):
                break
        plans.append((heading, order))
    turn = int(v["position"])
    return plans[turn:] + plans[:turn] if turn else plans


def _seen(plans: list[tuple[str, list[str]]], seat: int) -> set[str]:
    """The names the asked plan's reference and near misses submit (kept apart)."""
    if not plans:
        return set()
    order = plans[0][1]
    return {
        order[s] for s in (seat, ps.opposite(seat), mirrored(seat), diagonal(seat), beside(seat))
    }


def _asked_plan(v: dict[str, Any]) -> list[str]:
    heading = _plans({**v, "position": 0})[0][0]
    return next(order for h, order in _plans(v) if h == heading)


def _other_day_plan(v: dict[str, Any]) -> list[str]:
    heading = _plans({**v, "position": 0})[1][0]
    return next(order for h, order in _plans(v) if h == heading)


def seat_setup(**v: Any) -> list[ActionStep]:
    images = [
        {"name": f"plan_{k + 1}.png", "kind": "seats", "heading": heading, "names": order,
         "tilt": (-3.0, 2.5, 4.0)[k]}
        for k, (heading, order) in enumerate(_plans(v))
    ]  # fmt: skip
    return [_desktop(px.draw_pixel_images(folder=v["folder"], images=images))]


def name_spellings(name: str) -> list[str]:
    """The ways to write ``name``: "Anna Berg", "Anna", "Berg, Anna" (first names are
    unique on a plan)."""
    first, last = name.split(" ", 1)
    return [name, first, f"{last}, {first}"]


def seat_checkpoint(**v: Any) -> Evaluator:
    across = _asked_plan(v)[ps.opposite(int(v["seat"]))]
    return answer_one_of(accepted=name_spellings(across))


def _read_seats(v: dict[str, Any], name: str) -> list[ActionCall]:
    return [*_view([f"{v['folder']}/plan_{k + 1}.png" for k in range(PLANS)]), _submit(name)]


def seat_solution(**v: Any) -> list[ActionCall]:
    return _read_seats(v, _asked_plan(v)[ps.opposite(int(v["seat"]))])


def seat_other_day(**v: Any) -> list[ActionCall]:
    """Reads the same meeting's plan for the other day."""
    order = _other_day_plan(v)
    return _read_seats(v, order[ps.opposite(order.index(v["people"].split("|")[0]))])


def seat_mirrored(**v: Any) -> list[ActionCall]:
    """Takes the seat across counted from the other end of the table."""
    return _read_seats(v, _asked_plan(v)[mirrored(int(v["seat"]))])


def seat_diagonal(**v: Any) -> list[ActionCall]:
    """Takes the seat diagonally across (the far side is drawn narrower)."""
    return _read_seats(v, _asked_plan(v)[diagonal(int(v["seat"]))])


def seat_beside(**v: Any) -> list[ActionCall]:
    """Names the person sitting beside, not opposite."""
    return _read_seats(v, _asked_plan(v)[beside(int(v["seat"]))])


def _seat_records() -> list[dict[str, Any]]:
    records = []
    long_side = [0, 1, 2, 3, 5, 6, 7, 8]
    for i in range(15):
        rng = random.Random(f"seat-opposite:{i}")
        people = rng.sample(PEOPLE, ps.SEATS)
        meeting, other = rng.sample(MEETINGS, 2)
        day, other_day = rng.sample(DAYS, 2)
        records.append(
            {
                "people": "|".join(people),
                "person": people[0],
                "seat": long_side[(i * 3) % len(long_side)],
                "meeting": meeting,
                "day": day,
                "other_day": other_day,
                "other_meeting": other,
                "position": i % PLANS,
                "variant": i,
                "folder": SEAT_FOLDERS[i % len(SEAT_FOLDERS)],
            }
        )
    return records


SEAT_OPPOSITE = SubTask(
    id="pixels.seat_opposite",
    description="The folder {folder} on the computer holds photos of this week's seating "
    "plans. Who sits directly across the table from {person} at {day}'s {meeting}? Submit "
    "their name.",
    attributes={
        "people": "str",
        "person": "str",
        "seat": "int",
        "meeting": "str",
        "day": "str",
        "other_day": "str",
        "other_meeting": "str",
        "position": "int",
        "variant": "int",
        "folder": "str",
    },
    outputs=["answer"],
    env=D,
    app="image-editor",
    app_category="productivity",
    intents=[PIXELS_INTENT],
    value_records=_seat_records(),
    setup_generator=seat_setup,
    evaluator_generator=seat_checkpoint,
    solution_generator=seat_solution,
    near_misses=[
        NearMiss("reads the same meeting's plan for another day", solution=seat_other_day),
        NearMiss("takes the mirrored seat across", solution=seat_mirrored),
        NearMiss("takes the seat diagonally across", solution=seat_diagonal),
        NearMiss("names the person beside them", solution=seat_beside),
    ],
)


TEMPLATES: list[SubTask] = [LINE_CROSS, SEAT_OPPOSITE]
POOL: dict[str, SubTask] = {t.id: t for t in TEMPLATES}
