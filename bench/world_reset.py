"""What a seeded world costs: building it once, and resetting to it before every task.

A task opts into a world with ``load_world(seed)`` on the services and on the desktop; the
world is built once per seed into a cache and every later reset copies it. Targets (issue
18): services <= 0.3 s, desktop <= 1 s. Figures (``time.perf_counter``), one JSON object
per line:

``world_account_build_cold`` / ``world_home_build_cold``
    Seconds to generate world 7 into an empty cache (Faker; Pillow for the home's images).
``world_account_reset_warm_median``
    ``ServicesEnvironment.reset()`` then ``load_world(seed=7)`` as a task's reset and setup
    run them (two internal-API calls; the second copies the cached database over the
    account with SQLite's backup API), after each repetition changed the account. Median
    of 20.
``world_account_snapshot_median`` / ``world_account_changes_median``
    ``state_snapshot()`` and ``state_changes()`` of the services with the world loaded
    (every table dumped over the internal API, blobs hashed): the side-effect check's cost
    per episode. Median of 10.
``world_home_reset_warm_median``
    The desktop reset's file work with a world: ``restore_home`` (clear the home, copy the
    baseline) then ``copy_world_into`` (copy the cached tree), into a temporary home after
    each repetition changed it. The sandbox restart the real reset also does is the same
    with or without a world, so it is not part of this figure. Median of 20.
``world_home_snapshot_median``
    ``hometree.snapshot`` of that home (the desktop's side-effect snapshot). Median of 20.
``world_desktop_reset_median``
    A real :class:`~reefbench.envs.desktop.DesktopEnvironment` (Xvfb, sandbox, window
    manager, accessibility reader): ``env.reset()`` then ``load_world(seed=7)``, after
    each repetition changed the home, told the world's time first as an episode tells it
    (so the session starts on it rather than restarting). ``peer`` is the same reset
    without a world. Median of 10; skipped when Xvfb or bubblewrap is missing.

Usage: ``python bench/world_reset.py`` (builds into a temporary cache, so "cold" is cold).
"""

from __future__ import annotations

import json
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from reefbench.environments.worlds import CACHE_ENV

SEED = 7


def emit(metric: str, value: float, unit: str) -> None:
    print(json.dumps({"metric": metric, "value": round(value, 4), "unit": unit}), flush=True)


def timed(work: Callable[[], object]) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def median(work: Callable[[], object], prepare: Callable[[], object], repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        prepare()
        samples.append(timed(work))
    return statistics.median(samples)


def account(root: Path) -> None:
    from reefbench.envs.services import ServicesEnvironment
    from reefbench.envs.services.seeding import load_world
    from reefbench.envs.services.world import account_world

    emit("world_account_build_cold", timed(lambda: account_world(SEED)), "s")
    env = ServicesEnvironment()
    env.start()
    try:

        def dirty() -> None:
            env.call("add_contact", name="Bench Person")

        def reset_and_load() -> None:
            env.reset()
            load_world(seed=SEED).run(env)

        emit("world_account_reset_warm_median", median(reset_and_load, dirty, 20), "s")
        before = env.state_snapshot()
        emit("world_account_snapshot_median", median(env.state_snapshot, lambda: None, 10), "s")
        changes = median(lambda: env.state_changes(before), lambda: None, 10)
        emit("world_account_changes_median", changes, "s")
    finally:
        env.stop()


def home(root: Path) -> None:
    from reefbench.envs.desktop import hometree
    from reefbench.envs.desktop.reset import build_baseline, restore_home
    from reefbench.envs.desktop.world import copy_world_into, home_world

    emit("world_home_build_cold", timed(lambda: home_world(SEED)), "s")
    baseline = build_baseline(root / "baseline")
    target = root / "home"
    target.mkdir()
    copy_world_into(target, SEED)

    def dirty() -> None:
        (target / "Documents" / "changed.txt").write_text("an episode was here")

    def reset_and_load() -> None:
        restore_home(target, baseline)
        copy_world_into(target, SEED)

    emit("world_home_reset_warm_median", median(reset_and_load, dirty, 20), "s")
    snap = median(lambda: hometree.snapshot(target), lambda: None, 20)
    emit("world_home_snapshot_median", snap, "s")


def desktop() -> None:
    import shutil

    if not (shutil.which("Xvfb") and shutil.which("bwrap")):
        return
    from reefbench.envs.desktop import DesktopEnvironment
    from reefbench.envs.desktop.setup import load_world
    from reefbench.tasks.worldtime import WORLD_NOW

    env = DesktopEnvironment()
    env.start()
    try:

        def dirty() -> None:
            (env.session.home / "Documents" / "changed.txt").write_text("an episode was here")

        def reset_and_load() -> None:
            # As an episode does: told the task's world time before each reset
            # (reefbench.tasks.worldtime.ExpectsWorldTime), the session starts on it.
            env.expect_world_time(WORLD_NOW)
            env.reset()
            load_world(seed=SEED).run(env)

        with_world = median(reset_and_load, dirty, 10)
        bare = median(env.reset, dirty, 10)
        print(
            json.dumps(
                {
                    "metric": "world_desktop_reset_median",
                    "value": round(with_world, 4),
                    "unit": "s",
                    "peer": "the same reset without a world",
                    "peer_value": round(bare, 4),
                }
            ),
            flush=True,
        )
    finally:
        env.stop()


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="reef-world-bench-") as tmp:
        root = Path(tmp)
        os.environ[CACHE_ENV] = str(root / "cache")
        account(root)
        home(root)
        desktop()


if __name__ == "__main__":
    main()
