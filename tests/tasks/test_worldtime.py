"""One world clock per task: every device shows the time recorded with the task.

The devices are reef-v0's (:func:`reefbench.benchmark.environments.make_environments`):
the account, a desktop, a phone and a browser. Each test resets them as an episode does,
runs a frozen reef-v1 task's setup, and reads the time the agent would see on one device:
``date`` and the panel's clock in the desktop's sandbox, the phone's status bar and home
screen, the browser's start page, the account's own clock.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from reefbench import ActionCall, Episode, action
from reefbench.agents import OracleAgent
from reefbench.environments.contract import Environment
from reefbench.environments.worlds import WORLD_NOW
from reefbench.envs import memory as m
from reefbench.envs.services.store import DEFAULT_NOW
from reefbench.plumbing.waiting import wait_until
from reefbench.suites import v1
from reefbench.tasks.task import ActionStep, Task

WORLD_TASK = "v1-world-ask-706c1c4c1e04"  # setup: load_world(seed=100), the clock 2026-03-16
PLAIN_TASK = "v1-hand-f54248b35e88"  # setup sets no clock: the default day, 2024-06-03
DEADLINE = 20.0


def _task(task_id: str) -> Task:
    return next(t for t in v1.load() if t.id == task_id)


def test_task_now_follows_the_setup_recorded_with_the_task() -> None:
    from reefbench.tasks.worldtime import task_now

    assert task_now(_task(WORLD_TASK).setup) == WORLD_NOW
    assert task_now(_task(PLAIN_TASK).setup) == DEFAULT_NOW
    worlds = [t for t in v1.load() if t.id.startswith("v1-world-")]
    assert worlds and all(task_now(t.setup) == WORLD_NOW for t in worlds)


@action
def set_now(now: str, env: Any = None) -> str:
    """Fix the device's clock.

    Args:
        now: The world time, YYYY-MM-DDTHH:MM.
    """
    env.files["clock"] = now
    return now


def test_an_episode_tells_a_device_the_tasks_world_time_before_resetting_it() -> None:
    # So the desktop's session starts on it, instead of restarting when the setup moves
    # the clock there (reefbench.tasks.worldtime.ExpectsWorldTime).
    events: list[tuple[str, str]] = []

    class Clocked(m.MemoryEnvironment):
        def expect_world_time(self, now: str | None) -> None:
            events.append(("expect", str(now)))

        def on_reset(self) -> None:
            events.append(("reset", ""))
            super().on_reset()

    write = ActionCall(env="laptop", name="write_file", arguments={"path": "a", "content": "1"})
    task = Task(
        id="clocked",
        instruction="write a",
        nodes={"a": m.file_exists("a").on("laptop")},
        setup=[ActionStep(env="laptop", action=set_now(now="2025-01-02T08:30"))],
        reference_solution=[write],
    )
    result = Episode(task, OracleAgent(), {"laptop": Clocked("laptop")}).run()
    assert result.success, result.termination
    assert events[:2] == [("expect", "2025-01-02T08:30"), ("reset", "")]


needs_desktop = pytest.mark.skipif(
    not all(shutil.which(t) for t in ("Xvfb", "bwrap", "xfce4-panel", "xprop"))
    or not Path("/usr/bin/python3").exists(),
    reason="needs Xvfb, bubblewrap, xfce4-panel, xprop and Debian's python3",
)


@pytest.fixture(scope="module")
def envs() -> Iterator[dict[str, Environment]]:
    from reefbench.benchmark.environments import make_environments

    made = make_environments()
    try:
        yield made
    finally:
        for env in made.values():
            env.stop()


def _prepare(envs: dict[str, Environment], task: Task) -> None:
    """What an episode does before the agent's first step: tell the devices that want it
    the task's world time, reset every device, then run the task's setup."""
    from reefbench.tasks.worldtime import ExpectsWorldTime, task_now

    for env in envs.values():
        if isinstance(env, ExpectsWorldTime):
            env.expect_world_time(task_now(task.setup))
    for env in envs.values():
        env.reset()
    for step in task.setup:
        envs[step.env].execute(step.action)


@pytest.fixture(params=[PLAIN_TASK, WORLD_TASK])
def world(request: pytest.FixtureRequest, envs: dict[str, Environment]) -> datetime:
    """Prepare a task whose setup leaves the plain default day, then one that loads a
    seeded world (the world task runs second: its clock must replace the first)."""
    _prepare(envs, _task(request.param))
    return datetime.fromisoformat(DEFAULT_NOW if request.param == PLAIN_TASK else WORLD_NOW)


def _shows_minutes_after(text: str, world: datetime, fmt: str) -> bool:
    """``text`` (parsed with ``fmt``) is the world's time, give or take the minutes the
    test itself takes: the desktop's clock ticks from the world time on."""
    try:
        shown = datetime.strptime(text, fmt)
    except ValueError:
        return False
    return 0 <= (shown - world).total_seconds() < 600


@pytest.mark.integration
@needs_desktop
def test_the_desktop_shows_the_world_time_in_date_and_on_the_panel(
    envs: dict[str, Environment], world: datetime
) -> None:
    from reefbench.envs.desktop import DesktopEnvironment

    desk = envs["desktop"]
    assert isinstance(desk, DesktopEnvironment)
    out = desk.session.run(["date", "+%Y-%m-%dT%H:%M:%S"], timeout=5).stdout.strip()
    assert _shows_minutes_after(out, world, "%Y-%m-%dT%H:%M:%S"), out
    # The panel's clock: its element is named by the day and time it shows.
    day = world.strftime("%Y-%m-%d")

    def panel_day() -> bool:
        names = [m.name for m in desk.observe_now().marks.marks]
        # The panel shows no year ("Mon 03 Jun 09:00").
        shown = (f"{world.year} {name}" for name in names)
        return any(_shows_minutes_after(text, world, "%Y %a %d %b %H:%M") for text in shown)

    assert wait_until(panel_day, DEADLINE, interval=0.2), [
        m.name for m in desk.observe_now().marks.marks
    ]
    # A program the agent starts reads it too (Python in the terminal, say).
    today = desk.session.run(
        ["python3", "-c", "import datetime; print(datetime.date.today().isoformat())"], timeout=5
    )
    assert today.stdout.strip() == day
    # A file the setup writes carries the world's time too (the kernel would stamp the
    # host's); ``stat`` inside the sandbox, as the file manager shows it.
    from reefbench.envs.desktop.setup import create_file

    desk.execute(create_file(path="~/Documents/clock-check.txt", content="x"))
    stamped = desk.session.run(["stat", "-c", "%y", "/home/user/Documents/clock-check.txt"])
    assert stamped.stdout.startswith(day), stamped.stdout


@pytest.mark.integration
@needs_desktop
def test_the_phone_shows_the_world_time_in_its_status_bar_and_home_screen(
    envs: dict[str, Environment], world: datetime
) -> None:
    from reefbench.envs.phone import PhoneEnvironment

    phone = envs["phone"]
    assert isinstance(phone, PhoneEnvironment)
    expected_day = f"{world.strftime('%a, %b')} {world.day}"  # "Mon, Mar 16"

    def shown() -> tuple[str | None, str | None]:
        page = phone.page
        return page.text_content("#clock"), page.text_content("#date_widget")

    assert wait_until(lambda: shown() == (world.strftime("%H:%M"), expected_day), DEADLINE), shown()


@pytest.mark.integration
@needs_desktop
def test_the_browsers_start_page_shows_the_world_time(
    envs: dict[str, Environment], world: datetime
) -> None:
    from reefbench.envs.browser import BrowserEnvironment

    browser = envs["browser"]
    assert isinstance(browser, BrowserEnvironment)
    label = world.strftime("%a %d %b %Y")  # the account's pages: "Mon 16 Mar 2026, 09:00"

    def clock() -> str:
        return browser.page.text_content("[aria-label='Current date and time']") or ""

    assert wait_until(lambda: clock().startswith(label), DEADLINE), clock()


@pytest.mark.integration
@needs_desktop
def test_the_accounts_today_is_the_world_time_recorded_with_the_task(
    envs: dict[str, Environment], world: datetime
) -> None:
    from reefbench.tasks.worldtime import task_now

    services = envs["services"]
    now = services.settings()["now"]  # type: ignore[attr-defined]
    assert now == world.strftime("%Y-%m-%dT%H:%M")
    task = _task(WORLD_TASK if world.year == 2026 else PLAIN_TASK)
    assert now == task_now(task.setup)
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d", now)
