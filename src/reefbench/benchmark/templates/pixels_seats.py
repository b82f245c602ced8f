"""reef-v2's pixels family: who sits across the table from someone on one of three
photographed seating plans (``pixels.seat_opposite``, listed with :mod:`.pixels_more`).

Each plan is of a table with five chair places along each long side and one at each end;
each long side leaves one place empty (a faint outline), at different places, so counting
chairs along one side and then along the other names the wrong person: the chair facing
a person is found by its place along the table, and the far side is drawn narrower
(photographed from the near side). Two plans are of the asked meeting on different days,
the third of another meeting on the asked day; headings give the day abbreviated
("Tue"). Near misses: the same meeting's other day, chairs counted from the left on both
sides, counted from opposite ends, the chair diagonally across, the person beside.
"""

from __future__ import annotations

import random
from typing import Any

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.benchmark import pixel_images as px
from reefbench.benchmark import pixel_scenes as ps
from reefbench.benchmark.templates.pixels import PIXELS_INTENT, _desktop, _submit, _view
from reefbench.environments.root import answer_one_of
from reefbench.tasks.subtask import NearMiss, SubTask
from reefbench.tasks.task import ActionStep

D = "desktop"

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
FAR, NEAR = "far", "near"

Plan = dict[str, Any]  # "heading", "far"/"near" (five places, "" for none), "ends" (two)


def _other(side: str) -> str:
    return NEAR if side == FAR else FAR


def _chairs(plan: Plan, side: str) -> list[int]:
    """The places of ``side`` that have a chair, left to right."""
    return [k for k, name in enumerate(plan[side]) if name]


def facing(plan: Plan, side: str, slot: int) -> str:
    """Who sits in the chair facing place ``slot`` of ``side`` ("" for none)."""
    return str(plan[_other(side)][slot])


def counted(plan: Plan, side: str, slot: int, from_other_end: bool = False) -> str:
    """The near miss of counting chairs: the person's chair is the k-th from the left on
    their side, and the k-th chair from the left (or from the right) on the other side is
    taken for the one facing them; "" when the other side has no k-th chair."""
    rank = _chairs(plan, side).index(slot)
    others = _chairs(plan, _other(side))
    if from_other_end:
        others = others[::-1]
    return str(plan[_other(side)][others[rank]]) if rank < len(others) else ""


def diagonal(plan: Plan, side: str, slot: int) -> str:
    """Who sits diagonally across: the nearest chair beside the facing one (left first)."""
    row = plan[_other(side)]
    return next((str(row[k]) for k in (slot - 1, slot + 1) if 0 <= k < len(row) and row[k]), "")


def beside(plan: Plan, side: str, slot: int) -> str:
    """Who sits in the next chair along the person's own side (right first)."""
    row = plan[side]
    return next((str(row[k]) for k in (slot + 1, slot - 1) if 0 <= k < len(row) and row[k]), "")


def _seat_of(plan: Plan, person: str) -> tuple[str, int] | None:
    for side in (FAR, NEAR):
        if person in plan[side]:
            return side, list(plan[side]).index(person)
    return None


def _misses(plan: Plan, side: str, slot: int) -> list[str]:
    """The answer, then the near misses on the same plan: counted from the left, counted
    from the other end, diagonally across, beside."""
    return [
        facing(plan, side, slot),
        counted(plan, side, slot),
        counted(plan, side, slot, from_other_end=True),
        diagonal(plan, side, slot),
        beside(plan, side, slot),
    ]


def _lay(rng: random.Random, names: list[str], heading: str) -> Plan:
    """Everyone seated at random: one empty place on each side, at different places."""
    gaps = rng.sample(range(ps.SLOTS), 2)
    order = rng.sample(names, len(names))
    rows: dict[str, list[str]] = {}
    for side, gap in zip((FAR, NEAR), gaps, strict=True):
        rows[side] = ["" if k == gap else order.pop() for k in range(ps.SLOTS)]
    return {"heading": heading, FAR: rows[FAR], NEAR: rows[NEAR], "ends": order}


def _heading(meeting: str, day: str, room: str) -> str:
    """The meeting, its day only abbreviated (Tue), and the room."""
    return f"{meeting.capitalize()} - {day[:3]} - {room}"


def _plans(v: dict[str, Any]) -> list[Plan]:
    """The three plans in file order: the asked meeting on its day, the same meeting on
    another day and another meeting on the asked day, in turn by position. On the asked
    plan the person sits on a long side, the chair facing theirs is taken and every near
    miss names someone else; on the other day's plan too the person has someone facing
    them, whom none of the asked plan's answers names."""
    rng = random.Random(f"seats:{v['variant']}")
    names = v["people"].split("|")
    person = names[0]
    meetings = [
        (v["meeting"], v["day"]),
        (v["meeting"], v["other_day"]),
        (v["other_meeting"], v["day"]),
    ]
    plans: list[Plan] = []
    for k, (meeting, day) in enumerate(meetings):
        heading = _heading(meeting, day, ROOMS[(k + int(v["variant"])) % 3])
        while True:
            plan = _lay(rng, names, heading)
            seat = _seat_of(plan, person)
            found = _misses(plan, *seat) if seat else []
            if k == 0 and found and "" not in found and len(set(found)) == len(found):
                break
            if k == 1 and found and found[0] and found[0] not in _asked_answers(plans, person):
                break
            if k == 2:
                break
        plans.append(plan)
    turn = int(v["position"])
    return plans[turn:] + plans[:turn] if turn else plans


def _asked_answers(plans: list[Plan], person: str) -> list[str]:
    """The answer and near misses on the asked plan (the first one made)."""
    seat = _seat_of(plans[0], person)
    assert seat is not None
    return _misses(plans[0], *seat)


def _plan_of(v: dict[str, Any], meeting: str, day: str) -> Plan:
    return next(p for p in _plans(v) if p["heading"].startswith(_heading(meeting, day, "")))


def _answers(v: dict[str, Any]) -> list[str]:
    """On the asked plan: the answer, then the near misses (see :func:`_misses`)."""
    plan = _plan_of(v, v["meeting"], v["day"])
    seat = _seat_of(plan, v["person"])
    assert seat is not None
    return _misses(plan, *seat)


def seat_setup(**v: Any) -> list[ActionStep]:
    images = [
        {"name": f"plan_{k + 1}.png", "kind": "seats", **plan, "tilt": (-3.0, 2.5, 4.0)[k]}
        for k, plan in enumerate(_plans(v))
    ]
    return [_desktop(px.draw_pixel_images(folder=v["folder"], images=images))]


def name_spellings(name: str) -> list[str]:
    """The ways to write ``name``: "Anna Berg", "Anna", "Berg, Anna" (first names are
    unique on a plan)."""
    first, last = name.split(" ", 1)
    return [name, first, f"{last}, {first}"]


def seat_checkpoint(**v: Any) -> Evaluator:
    return answer_one_of(accepted=name_spellings(_answers(v)[0]))


def _read_seats(v: dict[str, Any], name: str) -> list[ActionCall]:
    return [*_view([f"{v['folder']}/plan_{k + 1}.png" for k in range(PLANS)]), _submit(name)]


def seat_solution(**v: Any) -> list[ActionCall]:
    return _read_seats(v, _answers(v)[0])


def seat_other_day(**v: Any) -> list[ActionCall]:
    """Reads the same meeting's plan for the other day."""
    plan = _plan_of(v, v["meeting"], v["other_day"])
    seat = _seat_of(plan, v["person"])
    assert seat is not None
    return _read_seats(v, facing(plan, *seat))


def seat_counted(**v: Any) -> list[ActionCall]:
    """Counts chairs from the left on both sides (the empty places differ)."""
    return _read_seats(v, _answers(v)[1])


def seat_mirrored(**v: Any) -> list[ActionCall]:
    """Counts chairs from the left on their side and from the right on the other."""
    return _read_seats(v, _answers(v)[2])


def seat_diagonal(**v: Any) -> list[ActionCall]:
    """Takes the chair diagonally across (the far side is drawn narrower)."""
    return _read_seats(v, _answers(v)[3])


def seat_beside(**v: Any) -> list[ActionCall]:
    """Names the person sitting beside, not opposite."""
    return _read_seats(v, _answers(v)[4])


def _seat_records() -> list[dict[str, Any]]:
    records = []
    for i in range(15):
        rng = random.Random(f"seat-opposite:{i}")
        people = rng.sample(PEOPLE, 10)
        meeting, other = rng.sample(MEETINGS, 2)
        day, other_day = rng.sample(DAYS, 2)
        records.append(
            {
                "people": "|".join(people),
                "person": people[0],
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
    "plans. Who sits directly across the table from {person} at {day}'s {meeting}, in "
    "the chair facing theirs? Submit their name.",
    attributes={
        "people": "str",
        "person": "str",
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
        NearMiss("counts chairs from the left on both sides", solution=seat_counted),
        NearMiss("counts chairs from opposite ends", solution=seat_mirrored),
        NearMiss("takes the chair diagonally across", solution=seat_diagonal),
        NearMiss("names the person beside them", solution=seat_beside),
    ],
)
