"""End state and settling on a real desktop: a setting undone before the end fails the
episode, and checks wait for a save that is still landing."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from reefbench.actions.spec import ActionCall, action
from reefbench.agents.scripted import ScriptedAgent
from reefbench.envs.desktop import DesktopEnvironment
from reefbench.envs.desktop import evaluators as ev
from reefbench.envs.desktop.device import DesktopDevice
from reefbench.episodes.episode import Episode
from reefbench.errors import ActionFailed
from reefbench.plumbing.waiting import wait_until
from reefbench.tasks.task import ActionStep, Task

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(
        not all(shutil.which(t) for t in ("Xvfb", "bwrap", "xdotool", "openbox"))
        or not Path("/usr/bin/python3").exists(),
        reason="needs Xvfb, bubblewrap, xdotool, openbox and Debian's python3",
    ),
]

SCHEMA, KEY = "org.gnome.desktop.interface", "gtk-theme"


@action
def set_theme(theme: str, env: DesktopDevice) -> str:
    """Set the GTK theme with gsettings inside the desktop (returns when it is stored).

    Args:
        theme: Theme name.
    """
    result = env.session.run(["gsettings", "set", SCHEMA, KEY, theme], timeout=10)
    if result.returncode != 0:
        raise ActionFailed(result.stderr)
    return f"theme {theme}"


@action
def touch(path: str, env: DesktopDevice) -> str:
    """Create an empty file inside the desktop.

    Args:
        path: Path as the agent sees it.
    """
    env.session.host_path(path).touch()
    return f"touched {path}"


@action
def remove(path: str, env: DesktopDevice) -> str:
    """Delete a file inside the desktop.

    Args:
        path: Path as the agent sees it.
    """
    env.session.host_path(path).unlink()
    return f"removed {path}"


def _task() -> Task:
    return Task(
        id="theme-then-file",
        instruction='Set the GTK theme to "Adwaita-dark", then create ~/done.txt.',
        nodes={
            "theme": ev.gsetting_equals(SCHEMA, KEY, "Adwaita-dark").on("desktop"),
            "done": ev.file_exists("~/done.txt").on("desktop"),
        },
        edges=[("theme", "done")],
        extra_actions=[
            ActionStep(env="desktop", action=set_theme),
            ActionStep(env="desktop", action=touch),
        ],
    )


def _call(name: str, **arguments: str) -> ActionCall:
    return ActionCall(env="desktop", name=name, arguments=arguments)


def test_a_setting_undone_before_the_end_fails_the_episode(desk: DesktopEnvironment) -> None:
    kept = ScriptedAgent(
        [[_call("set_theme", theme="Adwaita-dark")], [_call("touch", path="~/done.txt")]]
    )
    result = Episode(_task(), kept, {"desktop": desk}).run()
    assert result.termination == "success" and result.regressed == []
    assert [c.verdict for c in result.end_checks] == ["held", "held"]

    undone = ScriptedAgent(
        [
            [_call("set_theme", theme="Adwaita-dark")],
            [_call("set_theme", theme="Adwaita"), _call("touch", path="~/done.txt")],
        ]
    )
    result = Episode(_task(), undone, {"desktop": desk}).run()
    assert result.completed_nodes == ["theme", "done"], "both held at some moment"
    assert result.termination == "false_completion" and not result.success
    assert result.regressed == ["theme"] and result.completion_ratio == 0.5
    theme = result.end_checks[0]
    assert theme.verdict == "regressed" and "'Adwaita'" in theme.message


def test_settling_waits_for_a_save_that_is_still_landing(desk: DesktopEnvironment) -> None:
    desk.reset()
    target = desk.session.host_path("~/saved.txt")
    # A writer like GIO's: a temporary file filled in two parts, then renamed into place.
    script = (
        "sleep 0.3; printf part > ~/.goutputstream-X1; sleep 0.6; "
        "printf ' and the rest' >> ~/.goutputstream-X1; mv ~/.goutputstream-X1 ~/saved.txt"
    )
    desk.session.spawn(["sh", "-c", script], name="writer")
    assert not target.exists(), "the writer has not saved yet"
    assert desk.settle_state(10.0)
    assert target.read_text() == "part and the rest"
    assert ev.file_content_equals("~/saved.txt", "part and the rest").evaluate(desk).success


def test_settling_returns_quickly_when_nothing_is_written(desk: DesktopEnvironment) -> None:
    desk.reset()
    assert desk.settle_state(10.0, quick=True)
    assert desk.settle_state(10.0)


def _file_task() -> Task:
    steps = [ActionStep(env="desktop", action=a) for a in (set_theme, touch, remove)]
    return Task(
        id="make-done",
        instruction="Create ~/done.txt.",
        nodes={"done": ev.file_exists("~/done.txt").on("desktop")},
        setup=[ActionStep(env="desktop", action=touch(path="~/Documents/keep.txt"))],
        extra_actions=steps,
    )


def test_collateral_changes_on_the_desktop_are_side_effects(desk: DesktopEnvironment) -> None:
    clean = Episode(
        _file_task(), ScriptedAgent([[_call("touch", path="~/done.txt")]]), {"desktop": desk}
    )
    assert clean.run().side_effects == []
    careless = ScriptedAgent(
        [
            [
                _call("remove", path="~/Documents/keep.txt"),
                _call("set_theme", theme="HighContrast"),
            ],
            [_call("touch", path="~/done.txt")],
        ]
    )
    result = Episode(_file_task(), careless, {"desktop": desk}).run()
    assert result.completed_nodes == ["done"] and result.termination == "side_effects"
    assert result.side_effects == [
        "desktop: deleted file ~/Documents/keep.txt",
        "desktop: setting org.gnome.desktop.interface/gtk-theme changed 'Adwaita' -> "
        "'HighContrast'",
    ]


def test_settling_waits_for_an_app_that_is_still_exiting(desk: DesktopEnvironment) -> None:
    desk.reset()
    target = desk.session.host_path("~/late-record.txt")
    # An editor whose window has closed but whose process is still shutting down, and
    # writes its record as it exits (as a GTK app writes recently-used.xbel): the home
    # tree stays quiet for longer than the settle's quiet time before that write.
    script = "sleep 1.5; printf saved > ~/late-record.txt"
    desk.session.spawn(["bash", "-c", f"exec -a mousepad bash -c '{script}'"], name="exiting")
    assert wait_until(lambda: "mousepad" in desk.exiting_apps(), 10.0), "it has started"
    assert desk.settle_state(10.0)
    assert target.read_text() == "saved"
    assert desk.exiting_apps() == []
