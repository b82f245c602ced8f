"""What loading reef-v1 as frozen data costs, against synthesising the same tasks.

Figures, one JSON object per line (each load in a fresh interpreter, so imports count):

``suite_load``
    Seconds (median wall time and CPU time of the child process) for
    ``get_suite(name).load()``: ``v1`` parses ``suites/v1/data/tasks.jsonl`` and resolves
    its evaluator references; ``v0`` synthesises the same tasks from the templates.
``freeze``
    Seconds for ``reef suite freeze v1 --check`` (synthesis + rendering + comparison, what
    the lead runs after merging template changes), and the data file's size in bytes.

Usage: ``python bench/suite_load.py [--repetitions 5]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

from reefbench.suites.v1 import DATA

PROBE = """
import json, time
start = time.perf_counter()
from reefbench.suites import get_suite
tasks = get_suite({name!r}).load()
print(json.dumps([len(tasks), time.perf_counter() - start, time.process_time()]))
"""


def _load(name: str) -> tuple[int, float, float]:
    out = subprocess.run(
        [sys.executable, "-c", PROBE.format(name=name)], capture_output=True, text=True, check=True
    )
    count, wall, cpu = json.loads(out.stdout)
    return int(count), float(wall), float(cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repetitions", type=int, default=5)
    args = parser.parse_args()
    for name in ("v1", "v0"):
        runs = [_load(name) for _ in range(args.repetitions)]
        print(
            json.dumps(
                {
                    "figure": "suite_load",
                    "suite": name,
                    "tasks": runs[0][0],
                    "wall_s": round(statistics.median(r[1] for r in runs), 3),
                    "cpu_s": round(statistics.median(r[2] for r in runs), 3),
                }
            )
        )
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "reefbench.cli", "suite", "freeze", "v1", "--check"],
        capture_output=True,
        check=True,
    )
    print(
        json.dumps(
            {
                "figure": "freeze",
                "check_s": round(time.perf_counter() - start, 2),
                "tasks_jsonl_bytes": (DATA / "tasks.jsonl").stat().st_size,
            }
        )
    )


if __name__ == "__main__":
    main()
