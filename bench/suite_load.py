"""What loading reef-v1 as frozen data costs, against synthesising the same tasks.

One JSON object per line, ``{"metric", "value", "unit"}`` plus ``"peer"``/``"peer_value"``
(each load in a fresh interpreter, so imports count):

``suite_load_wall`` / ``suite_load_cpu``
    Seconds (median wall time and CPU time of the child process) for
    ``get_suite("v1").load()``, which parses ``suites/v1/data/tasks.jsonl`` and resolves its
    evaluator references; the peer is reef-v0, which synthesises the same tasks from the
    templates, measured in the same run.
``freeze_check``
    Seconds for ``reef suite freeze v1 --check`` (synthesis + rendering + comparison, what
    to run after changing templates).
``tasks_jsonl_size``
    The data file's size in bytes.

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


def emit(metric: str, value: float, unit: str, peer_value: float | None = None) -> None:
    row: dict[str, object] = {"metric": metric, "value": value, "unit": unit}
    if peer_value is not None:
        row |= {"peer": "reef-v0 synthesised at load time", "peer_value": peer_value}
    print(json.dumps(row), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repetitions", type=int, default=5)
    args = parser.parse_args()
    frozen = [_load("v1") for _ in range(args.repetitions)]
    synthesised = [_load("v0") for _ in range(args.repetitions)]
    for metric, column in (("suite_load_wall", 1), ("suite_load_cpu", 2)):
        emit(
            metric,
            round(statistics.median(r[column] for r in frozen), 3),
            "s",
            round(statistics.median(r[column] for r in synthesised), 3),
        )
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "reefbench.cli", "suite", "freeze", "v1", "--check"],
        capture_output=True,
        check=True,
    )
    emit("freeze_check", round(time.perf_counter() - start, 2), "s")
    emit("tasks_jsonl_size", (DATA / "tasks.jsonl").stat().st_size, "bytes")


if __name__ == "__main__":
    main()
