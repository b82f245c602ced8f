"""Controlled synthesis at OmniBench scale: 36,076 tasks from a pool of 255 templates.

OmniBench reports 36,076 tasks composed from 255 subtasks over 49 applications in 12
categories and 20 scenarios (shared/seeds/002, §3.4, Table 11). This script builds a
synthetic pool of the same size and labels, deterministically:

* the 49 applications of Table 11 in their 12 categories;
* 14 resource types (``img_path``, ``doc_path``, ...), registered as attribute types;
* 255 templates: per application a producer (no input), transformers (one input), a
  merger (two inputs) and a consumer (an input, no output), each typed by its category's
  resources and its own value pools;
* 20 intents, each over 1-4 categories (a scenario, App. A.5), so tasks stay coherent.

Every template acts in the in-memory ``laptop`` device (write/copy/append files, the
clipboard) with real evaluators, so the tasks are real: a sample is loaded back through
:mod:`reefbench.tasks.taskfile` and must pass an oracle run and fail a do-nothing run.

Metrics (one JSON object per line):

``compose_tasks``          tasks made (must equal 36,076, all distinct);
``compose_wall_time``      seconds to synthesise all tasks and write them as composed-task
                           JSON lines to a temporary file (shape sampling, template
                           labelling, values, exact complexity, canonical digests,
                           instructions, topological-order counts, serialisation);
``compose_tasks_per_second``;
``compose_peak_rss``       peak resident memory of the process (``ru_maxrss``), MiB, and
                           ``compose_rss_growth`` its growth during synthesis;
``compose_build_per_task`` milliseconds to load one written task back into a full
                           :class:`reefbench.Task` (evaluator graph, solution) - measured on
                           the sample, not over all tasks;
``compose_sample_oracle``  share of the sample that the oracle solves and the null agent
                           does not (must be 1.0);
``compose_build_all_wall_time`` seconds to load *every* written task back into a full
                           :class:`reefbench.Task` (validated evaluator DAG, setup, reference
                           solution), one at a time; not part of the synthesis figure;
``compose_level_histogram`` the tasks per complexity level and dimension;
``compose_load``           the 1-minute load average before and after the run (the machine
                           is shared).

Usage: ``python bench/compose_scale.py [--n 36076] [--seed 0] [--sample 300] [--no-build-all]``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from reefbench.actions.spec import ActionCall
from reefbench.agents import NullAgent, OracleAgent
from reefbench.compose.synthesis import Request, Synthesizer
from reefbench.envs import memory as m
from reefbench.episodes.episode import Episode
from reefbench.suites.memory import make_environments
from reefbench.tasks.subtask import ATTRIBUTE_TYPES, SubTask, register_attribute_type
from reefbench.tasks.taskfile import task_from_dict

OMNIBENCH_TASKS = 36_076
POOL_SIZE = 255

CATEGORIES: dict[str, list[str]] = {
    "Social Communication": ["Zoom Workplace", "Skype", "People", "Mail"],
    "Multimedia Playback": ["Media Player", "Spotify", "Photos", "TuneIn"],
    "Multimedia Editing": [
        "Adobe Photoshop Express",
        "Microsoft Clipchamp",
        "paint.net",
        "Openshot",
        "Handbrake",
        "Paint",
    ],
    "Office": ["Word", "PowerPoint", "Excel"],
    "Utility Tools": [
        "Calculator",
        "7-Zip",
        "PDF24",
        "Power Automate",
        "Wikipedia",
        "BreeZip",
        "Maps",
        "Calendar",
        "Zotero",
        "DeepL",
    ],
    "Programming": ["Visual Studio Code", "Cursor", "Windows PowerShell ISE"],
    "System Management": ["File Explorer", "Settings", "Control Panel", "Microsoft Store"],
    "Web Browsing": ["Google Chrome", "Microsoft Edge"],
    "Screen Capture": ["Record Screen", "Snipping Tool", "OBS Studio", "ShareX"],
    "Task Management": ["Microsoft To Do", "Todoist", "Notion"],
    "Note management": ["Evernote", "OneNote", "Sticky Notes", "Sticky Notes (New)"],
    "Lifestyle": ["Recipe Keeper", "paisa"],
}

# Resource types per category (the first is what the category's producers make).
RESOURCES: dict[str, list[str]] = {
    "Social Communication": ["message_id", "contact_card"],
    "Multimedia Playback": ["audio_path", "img_path"],
    "Multimedia Editing": ["img_path", "video_path"],
    "Office": ["doc_path", "sheet_path", "slide_path"],
    "Utility Tools": ["pdf_path", "archive_path"],
    "Programming": ["code_path"],
    "System Management": ["archive_path", "doc_path"],
    "Web Browsing": ["page_url", "pdf_path"],
    "Screen Capture": ["video_path", "img_path"],
    "Task Management": ["todo_id"],
    "Note management": ["note_id"],
    "Lifestyle": ["recipe_id", "sheet_path"],
}

# 20 scenarios (App. A.5): 12 single-category ones and 8 combinations.
SCENARIOS: dict[str, list[str]] = {
    "communicate with colleagues": ["Social Communication"],
    "enjoy media": ["Multimedia Playback"],
    "edit creative media": ["Multimedia Editing"],
    "prepare office documents": ["Office"],
    "use everyday utilities": ["Utility Tools"],
    "write and run code": ["Programming"],
    "manage the system": ["System Management"],
    "research on the web": ["Web Browsing"],
    "capture the screen": ["Screen Capture"],
    "plan tasks": ["Task Management"],
    "take notes": ["Note management"],
    "run the household": ["Lifestyle"],
    "record and edit a screencast": ["Screen Capture", "Multimedia Editing"],
    "write a report from web research": ["Web Browsing", "Office", "Note management"],
    "share edited media": ["Multimedia Editing", "Social Communication", "Multimedia Playback"],
    "publish code documentation": ["Programming", "Office", "Web Browsing", "Utility Tools"],
    "organise a project": ["Task Management", "Note management", "Office", "Social Communication"],
    "archive and back up files": ["System Management", "Utility Tools", "Office"],
    "plan a trip": ["Web Browsing", "Lifestyle", "Task Management", "Utility Tools"],
    "present quarterly results": ["Office", "Screen Capture", "Social Communication", "Lifestyle"],
}

TEXTS = [
    "draft",
    "final",
    "for review",
    "urgent",
    "weekly",
    "Q3 figures",
    "team sync",
    "holiday",
    "budget",
    "ideas",
    "version 2",
    "approved",
    "needs edits",
    "archive",
    "public",
    "private",
]


def _call(name: str, **arguments: Any) -> ActionCall:
    return ActionCall(env="laptop", name=name, arguments=arguments)


def _slug(text: str) -> str:
    return "".join(ch if ch.isalnum() else "-" for ch in text.lower()).strip("-")


def _paths(app: str, kind: str, type_name: str) -> list[str]:
    return [f"{_slug(app)}/{kind}-{k}.{type_name.split('_')[0]}" for k in range(12)]


def _producer(tid: str, app: str, category: str, out: str, intents: list[str]) -> SubTask:
    return SubTask(
        id=tid,
        description=f'In {app}, create the {out.replace("_", " ")} "{{target}}" with "{{note}}".',
        attributes={"target": out, "note": "text"},
        output_type=out,
        outputs=[out],
        env="laptop",
        app=app,
        app_category=category,
        intents=intents,
        value_pools={"target": _paths(app, "new", out), "note": TEXTS},
        evaluator_generator=lambda target, note: m.file_contains(target, note),
        solution_generator=lambda target, note: [_call("write_file", path=target, content=note)],
        output_generator=lambda target, note: target,
    )


def _transformer(
    tid: str, app: str, category: str, src: str, out: str, intents: list[str]
) -> SubTask:
    return SubTask(
        id=tid,
        description=f'In {app}, turn "{{source}}" into the {out.replace("_", " ")} "{{target}}".',
        attributes={"source": src, "target": out},
        output_type=out,
        inputs=["source"],
        outputs=[out],
        env="laptop",
        app=app,
        app_category=category,
        intents=intents,
        value_pools={"target": _paths(app, tid.rsplit("/", 1)[-1], out)},
        evaluator_generator=lambda source, target: [
            m.file_exists(target),
            m.files_equal(source, target),
        ],
        solution_generator=lambda source, target: [
            _call("copy_file", source=source, target=target)
        ],
        output_generator=lambda source, target: target,
    )


def _merger(
    tid: str, app: str, category: str, a: str, b: str, out: str, intents: list[str]
) -> SubTask:
    return SubTask(
        id=tid,
        description=f'In {app}, combine "{{first}}" and "{{second}}" into "{{target}}".',
        attributes={"first": a, "second": b, "target": out},
        output_type=out,
        inputs=["first", "second"],
        outputs=[out],
        env="laptop",
        app=app,
        app_category=category,
        intents=intents,
        value_pools={"target": _paths(app, "merged", out)},
        evaluator_generator=lambda first, second, target: [
            m.file_exists(target),
            m.file_contains(target, "\n" + second),
        ],
        solution_generator=lambda first, second, target: [
            _call("copy_file", source=first, target=target),
            _call("append_file", path=target, text="\n" + second),
        ],
        output_generator=lambda first, second, target: target,
    )


def _consumer(tid: str, app: str, category: str, src: str, intents: list[str]) -> SubTask:
    return SubTask(
        id=tid,
        description=f'In {app}, share "{{source}}" with the note "{{note}}".',
        attributes={"source": src, "note": "text"},
        inputs=["source"],
        outputs=[],
        env="laptop",
        app=app,
        app_category=category,
        intents=intents,
        value_pools={"note": TEXTS},
        evaluator_generator=lambda source, note: m.clipboard_equals(f"{source}: {note}"),
        solution_generator=lambda source, note: [_call("copy_text", text=f"{source}: {note}")],
    )


def synthetic_pool(size: int = POOL_SIZE, seed: int = 0) -> dict[str, SubTask]:
    """255 labelled templates over OmniBench's 49 applications (deterministic)."""
    for types in RESOURCES.values():
        for type_name in types:
            if type_name not in ATTRIBUTE_TYPES:
                register_attribute_type(type_name, str)
    rng = random.Random(seed)
    scenarios_of: dict[str, list[str]] = {c: [] for c in CATEGORIES}
    for scenario, categories in SCENARIOS.items():
        for category in categories:
            scenarios_of[category].append(scenario)
    # Types reachable in each category's scenarios: transformers may read any of them.
    neighbours: dict[str, list[str]] = {}
    for category in CATEGORIES:
        types = {t for s in scenarios_of[category] for c in SCENARIOS[s] for t in RESOURCES[c]}
        neighbours[category] = sorted(types)
    pool: dict[str, SubTask] = {}
    apps = [(c, a) for c, names in CATEGORIES.items() for a in names]
    k = 0
    while len(pool) < size:
        category, app = apps[k % len(apps)]
        round_ = k // len(apps)
        k += 1
        own = RESOURCES[category]
        intents = scenarios_of[category]
        base = _slug(app)
        if round_ == 0:
            pool[f"{base}/produce"] = _producer(f"{base}/produce", app, category, own[0], intents)
        elif round_ in (1, 2):
            src = rng.choice(neighbours[category])
            out = own[round_ % len(own)]
            tid = f"{base}/convert{round_}"
            pool[tid] = _transformer(tid, app, category, src, out, intents)
        elif round_ == 3:
            a, b = rng.choice(neighbours[category]), rng.choice(neighbours[category])
            tid = f"{base}/merge"
            pool[tid] = _merger(tid, app, category, a, b, rng.choice(own), intents)
        elif round_ == 4:
            tid = f"{base}/share"
            pool[tid] = _consumer(tid, app, category, rng.choice(own), intents)
        else:
            tid = f"{base}/produce{round_}"
            pool[tid] = _producer(tid, app, category, own[round_ % len(own)], intents)
    return pool


def _rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _emit(metric: str, value: float | int, unit: str, **extra: Any) -> None:
    print(json.dumps({"metric": metric, "value": value, "unit": unit, **extra}), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=OMNIBENCH_TASKS)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--sample", type=int, default=300)
    parser.add_argument(
        "--no-build-all",
        dest="build_all",
        action="store_false",
        help="skip loading every task back into a full Task",
    )
    args = parser.parse_args()

    load_before = os.getloadavg()[0]
    pool = synthetic_pool()
    assert len(pool) == POOL_SIZE
    rss_before = _rss_mib()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "tasks.jsonl"
        started = time.perf_counter()
        synthesizer = Synthesizer(pool, Request(id_prefix="omni"), args.seed)
        with out.open("w", encoding="utf-8") as handle:
            for spec in synthesizer.run(args.n):
                handle.write(json.dumps(spec.to_dict(), ensure_ascii=False) + "\n")
        wall = time.perf_counter() - started
        rss_after = _rss_mib()
        report = synthesizer.report
        if not report.complete:
            print(report.summary(), file=sys.stderr)
        lines = out.read_text(encoding="utf-8").splitlines()
        ids = [json.loads(line)["id"] for line in lines]
        assert len(set(ids)) == len(ids), "duplicate task ids"

        _emit("compose_tasks", len(lines), "tasks", pool_templates=len(pool))
        _emit("compose_wall_time", round(wall, 2), "s", target=60)
        _emit("compose_tasks_per_second", round(len(lines) / wall), "tasks/s")
        _emit("compose_peak_rss", round(rss_after, 1), "MiB")
        _emit("compose_rss_growth", round(rss_after - rss_before, 1), "MiB")

        sample = random.Random(args.seed).sample(lines, min(args.sample, len(lines)))
        passed = 0
        build_time = 0.0
        for line in sample:
            t0 = time.perf_counter()
            task = task_from_dict(json.loads(line), pool)
            build_time += time.perf_counter() - t0
            oracle = Episode(task, OracleAgent(), make_environments()).run()
            null = Episode(task, NullAgent(), make_environments()).run()
            if oracle.success and null.completion_ratio == 0.0:
                passed += 1
            else:
                print(f"sample task {task.id} failed: {oracle.termination}", file=sys.stderr)
        _emit("compose_build_per_task", round(build_time / len(sample) * 1e3, 3), "ms")
        _emit("compose_sample_oracle", passed / len(sample), "share", sample=len(sample))
        if args.build_all:
            started = time.perf_counter()
            for line in lines:
                task_from_dict(json.loads(line), pool)
            _emit("compose_build_all_wall_time", round(time.perf_counter() - started, 2), "s")
    levels = {d: dict(c) for d, c in report.made_levels.items()}
    _emit("compose_level_histogram", len(lines), "tasks", levels=levels)
    _emit(
        "compose_load",
        round(os.getloadavg()[0], 2),
        "loadavg-1min",
        before=round(load_before, 2),
        cpus=os.cpu_count(),
    )


if __name__ == "__main__":
    main()
