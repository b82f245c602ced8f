"""How hard a frozen suite is by construction: the figures [world]'s targets are stated in.

One JSON object per line, ``{"metric", "value", "unit"}``, read from the suite's frozen
data (nothing runs):

``tasks``
    Number of tasks (target for reef-v1: at least 200).
``median_solution_actions``
    Median length of the reference solutions, in actions (target: at least 15).
``share_short_tasks``
    Percent of tasks whose reference solution has at most 5 actions (target: at most 10).
``long_tasks``
    Tasks with at least 25 actions (target: at least 40).
``share_cross_device``
    Percent of tasks whose instruction involves more than one device (target: at least 30).
``subtasks_median`` / ``subtasks_max``
    Subtasks per task (VeriGUI-style chains have 4-8).
``app_categories``
    Distinct application categories the tasks' subtasks cover.
``crab_categories``
    How many of CRAB's application categories the suite covers (target: all of them),
    then one ``crab_category`` line per category with the number of tasks in it
    (:mod:`reefbench.suites.v1.crab_categories`).
``family_tasks`` / ``tier_tasks``
    For a suite whose tasks carry families and tiers (reef-v2: tags ``family:<name>``,
    ``tier:<tier>``), one line per family and one per tier (easy, medium, hard, each
    even when empty) with the number of tasks in it; none for a suite without them.

An *action* is a call of the reference solution other than ``root.wait`` (a turn of
slack for a slow screen is not work an agent has to find).

Usage: ``python bench/suite_difficulty.py [--suite v1]`` (``--suite v2-dev`` for reef-v2's
families and tiers).
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections import Counter

from reefbench.suites import get_suite
from reefbench.suites.v1.crab_categories import coverage
from reefbench.tasks.task import Task

SCREEN_DEVICES = frozenset({"desktop", "phone", "browser", "android"})


def devices(task: Task) -> set[str]:
    """The screen devices the task involves."""
    return set(task.metadata.environments) & SCREEN_DEVICES


def figures(tasks: list[Task]) -> list[tuple[str, float, str]]:
    """(metric, value, unit) for the suite."""
    lengths = [t.solution_actions for t in tasks]
    subtasks = [len(t.metadata.subtasks) for t in tasks]
    categories = {s.app_category for t in tasks for s in t.metadata.subtasks if s.app_category}
    n = len(tasks)
    return [
        ("tasks", n, "tasks"),
        ("median_solution_actions", statistics.median(lengths), "actions"),
        ("share_short_tasks", round(100 * sum(x <= 5 for x in lengths) / n, 1), "%"),
        ("long_tasks", sum(x >= 25 for x in lengths), "tasks"),
        ("share_cross_device", round(100 * sum(len(devices(t)) > 1 for t in tasks) / n, 1), "%"),
        ("subtasks_median", statistics.median(subtasks), "subtasks"),
        ("subtasks_max", max(subtasks), "subtasks"),
        ("app_categories", len(categories), "categories"),
        ("crab_categories", sum(n > 0 for n in coverage(tasks).values()), "categories"),
    ]


TIERS = ("easy", "medium", "hard")


def labelled_counts(tasks: list[Task]) -> list[dict[str, object]]:
    """One ``family_tasks`` line per family and one ``tier_tasks`` line per tier, for a
    suite whose tasks carry them (none otherwise)."""
    lines: list[dict[str, object]] = []
    families = Counter(t.metadata.family for t in tasks if t.metadata.family)
    for family, count in sorted(families.items()):
        lines.append({"metric": "family_tasks", "family": family, "value": count, "unit": "tasks"})
    tiers = Counter(t.metadata.tier for t in tasks if t.metadata.tier)
    if tiers:
        for tier in [*TIERS, *sorted(set(tiers) - set(TIERS))]:
            lines.append(
                {"metric": "tier_tasks", "tier": tier, "value": tiers[tier], "unit": "tasks"}
            )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", default="v1")
    args = parser.parse_args()
    tasks = get_suite(args.suite).load()
    for metric, value, unit in figures(tasks):
        print(json.dumps({"metric": metric, "value": value, "unit": unit, "suite": args.suite}))
    for category, count in coverage(tasks).items():
        line = {"metric": "crab_category", "category": category, "value": count, "unit": "tasks"}
        print(json.dumps({**line, "suite": args.suite}))
    for counted in labelled_counts(tasks):
        print(json.dumps({**counted, "suite": args.suite}))


if __name__ == "__main__":
    main()
