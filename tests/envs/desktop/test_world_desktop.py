"""A seeded home on a real desktop: loaded by a task's setup, reset away afterwards, and one
deleted file among 200 reported as the episode's only side effect."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from reefbench.actions.spec import ActionCall, action
from reefbench.agents.scripted import ScriptedAgent
from reefbench.environments.worlds import CACHE_ENV
from reefbench.envs.desktop import DesktopEnvironment
from reefbench.envs.desktop import evaluators as ev
from reefbench.envs.desktop.device import DesktopDevice
from reefbench.envs.desktop.setup import load_world
from reefbench.episodes.episode import Episode
from reefbench.tasks.task import ActionStep, Task

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(
        not all(shutil.which(t) for t in ("Xvfb", "bwrap", "xdotool", "openbox"))
        or not Path("/usr/bin/python3").exists(),
        reason="needs Xvfb, bubblewrap, xdotool, openbox and Debian's python3",
    ),
]

NEW = "~/Documents/summary.txt"


@action
def write_summary(env: DesktopDevice) -> str:
    """Write the summary file the task asks for.

    Args:
    """
    env.session.host_path(NEW).write_text("Total: 88.20\n")
    return "written"


@action
def remove(path: str, env: DesktopDevice) -> str:
    """Delete a file inside the desktop.

    Args:
        path: Path as the agent sees it.
    """
    env.session.host_path(path).unlink()
    return f"removed {path}"


@pytest.fixture(scope="module")
def desk(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DesktopEnvironment]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(CACHE_ENV, str(tmp_path_factory.mktemp("world-cache")))
        env = DesktopEnvironment()
        env.start()
        try:
            yield env
        finally:
            env.stop()


def _task() -> Task:
    return Task(
        id="world-summary",
        instruction="Write the March total into ~/Documents/summary.txt.",
        nodes={"summary": ev.file_exists(NEW).on("desktop")},
        setup=[ActionStep(env="desktop", action=load_world(seed=7))],
        extra_actions=[
            ActionStep(env="desktop", action=write_summary),
            ActionStep(env="desktop", action=remove),
        ],
    )


def _call(name: str, **arguments: str) -> ActionCall:
    return ActionCall(env="desktop", name=name, arguments=arguments)


def test_the_world_is_loaded_and_one_deleted_file_is_the_only_side_effect(
    desk: DesktopEnvironment,
) -> None:
    clean = Episode(_task(), ScriptedAgent([[_call("write_summary")]]), {"desktop": desk}).run()
    assert clean.termination == "success" and clean.side_effects == []
    home = desk.session.home
    assert sum(1 for p in home.joinpath("Documents").rglob("*") if p.is_file()) >= 100
    turns = [
        [_call("remove", path="~/Downloads/invoice_2026-03 (1).pdf")],
        [_call("write_summary")],
    ]
    dirty = Episode(_task(), ScriptedAgent(turns), {"desktop": desk}).run()
    assert dirty.termination == "side_effects"
    assert len(dirty.side_effects) == 1 and "invoice_2026-03 (1).pdf" in dirty.side_effects[0]


def test_a_reset_takes_the_world_away(desk: DesktopEnvironment) -> None:
    load_world(seed=7).run(desk)
    assert (desk.session.home / "Downloads" / "invoice_2026-03.pdf").is_file()
    desk.reset()
    assert not (desk.session.home / "Downloads" / "invoice_2026-03.pdf").exists()
    assert not (desk.session.home / "Documents" / "Invoices").exists()
