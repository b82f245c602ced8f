"""The desktop starts on the task's world time when told it before the reset.

A task whose setup loads a seeded world moves the account's clock; a desktop following it
used to restart its whole session then (the panel draws its clock once a minute, and
libfaketime moves the monotonic clocks with the offset). An episode now tells the desktop
the task's world time first (``expect_world_time``), so the session starts on it and the
setup's move is no restart: the same sandbox, showing the world time in ``date``.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from reefbench.envs.desktop import DesktopEnvironment
from reefbench.envs.services import ServicesEnvironment
from reefbench.tasks.worldtime import DEFAULT_NOW, WORLD_NOW

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(
        not all(shutil.which(t) for t in ("Xvfb", "bwrap", "xfce4-panel", "xprop"))
        or not Path("/usr/bin/python3").exists(),
        reason="needs Xvfb, bubblewrap, xfce4-panel, xprop and Debian's python3",
    ),
]


@pytest.fixture(scope="module")
def devices() -> Iterator[tuple[ServicesEnvironment, DesktopEnvironment]]:
    services = ServicesEnvironment()
    desk = DesktopEnvironment(services=services)
    try:
        services.start()
        desk.start()
        yield services, desk
    finally:
        desk.stop()
        services.stop()


def _sandbox_pid(desk: DesktopEnvironment) -> int:
    sandbox = desk.session._sandbox
    assert sandbox is not None
    return sandbox.pid


def _date(desk: DesktopEnvironment) -> datetime:
    out = desk.session.run(["date", "+%Y-%m-%dT%H:%M:%S"], timeout=5).stdout.strip()
    return datetime.fromisoformat(out)


def _prepare(services: ServicesEnvironment, desk: DesktopEnvironment) -> None:
    """An episode's resets, then a setup that moves the clock as ``load_world`` does."""
    services.reset()
    desk.reset()


def test_a_desktop_told_the_world_time_starts_on_it_and_does_not_restart(
    devices: tuple[ServicesEnvironment, DesktopEnvironment],
) -> None:
    services, desk = devices
    desk.expect_world_time(WORLD_NOW)
    _prepare(services, desk)
    started = _sandbox_pid(desk)
    services.call("set_now", now=WORLD_NOW)  # what the seeded world's load does to the clock
    assert _sandbox_pid(desk) == started  # no restart
    shown = _date(desk)
    assert 0 <= (shown - datetime.fromisoformat(WORLD_NOW)).total_seconds() < 600, shown
    # The next task sets no clock: its reset starts on the default day again.
    desk.expect_world_time(DEFAULT_NOW)
    _prepare(services, desk)
    shown = _date(desk)
    assert 0 <= (shown - datetime.fromisoformat(DEFAULT_NOW)).total_seconds() < 600, shown


def test_a_clock_the_expectation_did_not_foresee_is_still_followed(
    devices: tuple[ServicesEnvironment, DesktopEnvironment],
) -> None:
    services, desk = devices
    desk.expect_world_time(WORLD_NOW)
    _prepare(services, desk)
    started = _sandbox_pid(desk)
    services.call("set_now", now="2025-01-02T08:30")  # a setup task_now did not read
    assert _sandbox_pid(desk) != started  # the session restarted on the new time
    shown = _date(desk)
    assert 0 <= (shown - datetime(2025, 1, 2, 8, 30)).total_seconds() < 600, shown


def test_files_a_setup_writes_carry_the_world_time_and_so_do_new_folders(
    devices: tuple[ServicesEnvironment, DesktopEnvironment],
) -> None:
    """A playtest saw ``ls -la ~/Pictures`` show a setup's picture (and the folder made for
    it) on the host's day, next to the home's files on the task's day: every file a setup
    writes is stamped with the world time once the setup has run, whichever helper wrote
    it (here one that never stamps, ``draw_picture``)."""
    from reefbench.actions.spec import ActionCall
    from reefbench.agents import OracleAgent
    from reefbench.benchmark.checks import draw_picture
    from reefbench.envs.desktop.evaluators import file_exists
    from reefbench.episodes.episode import Episode
    from reefbench.tasks.task import ActionStep, Task

    services, desk = devices
    task = Task(
        id="setup-file-times",
        instruction="Look at the picture.",
        nodes={"there": file_exists("~/Pictures/Fresh/amber.png").on("desktop")},
        setup=[
            ActionStep(
                env="desktop",
                action=draw_picture(
                    path="~/Pictures/Fresh/amber.png", width=40, height=30, color="orange"
                ),
            )
        ],
        reference_solution=[ActionCall(env="root", name="complete", arguments={})],
    )
    seen: dict[str, str] = {}

    class Look(OracleAgent):
        def act(self, turn):  # type: ignore[no-untyped-def]
            listing = desk.session.run(
                [
                    "stat",
                    "-c",
                    "%y %n",
                    "/home/user/Pictures/Fresh",
                    "/home/user/Pictures/Fresh/amber.png",
                ],
                timeout=5,
            ).stdout
            seen["stat"] = listing
            return super().act(turn)

    Episode(task, Look(observe=False), {"desktop": desk, "services": services}).run()
    days = {line.split()[0] for line in seen["stat"].splitlines()}
    assert days == {DEFAULT_NOW[:10]}, seen["stat"]
