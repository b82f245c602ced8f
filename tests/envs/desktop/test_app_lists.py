"""Issue 31, item 4: what the agent is told matches the machine. Every list of the
desktop's apps comes from the one table (``apps.APPS``), and every coordinate parameter
says it is a pixel of that device's screenshot, with its size."""

from __future__ import annotations

import pytest

from reefbench.actions.spec import Action
from reefbench.agents.shared_parameters import shared_text, strip_shared
from reefbench.envs.browser import actions as browser_actions
from reefbench.envs.desktop import DesktopEnvironment
from reefbench.envs.desktop import actions as desktop_actions
from reefbench.envs.desktop.apps import APPS
from reefbench.envs.ui import actions as touch_actions

COORDINATES = ("x", "y", "from_x", "from_y", "to_x", "to_y")
# The default screenshot of each device kind: (width, height).
SIZES = {"desktop": (1280, 800), "browser": (1280, 800), "phone": (412, 915)}


def test_search_app_and_the_desktop_description_list_every_app_of_the_table() -> None:
    listed = desktop_actions.search_app.description
    description = DesktopEnvironment("desktop").description
    for spec in APPS.values():
        assert spec.title in listed, spec.title
        assert spec.title in description, spec.title
    # The apps photo and settings tasks ask for, which the hand-written list left out.
    for title in ("Drawing", "Desktop Settings", "Appearance"):
        assert title in listed and title in description


def test_the_desktop_description_gives_the_screenshot_size_coordinates_are_in() -> None:
    assert "(1280x800)" in DesktopEnvironment("desktop").description
    shrunk = DesktopEnvironment("desktop", width=1920, height=1080, screenshot_width=1280)
    assert "(1280x720)" in shrunk.description


def _coordinate_actions() -> list[tuple[str, Action]]:
    found = []
    for device, module in (
        ("desktop", desktop_actions),
        ("browser", browser_actions),
        ("phone", touch_actions),
    ):
        for value in vars(module).values():
            if isinstance(value, Action) and set(value.parameters_schema["properties"]) & {
                "x",
                "to_x",
            }:
                found.append((device, value))
    return found


@pytest.mark.parametrize(
    ("device", "act"), _coordinate_actions(), ids=lambda v: getattr(v, "name", v)
)
def test_each_coordinate_describes_itself_as_pixels_of_its_device_s_screenshot(
    device: str, act: Action
) -> None:
    properties = act.parameters_schema["properties"]
    for name in COORDINATES:
        if name not in properties:
            continue
        text = " ".join(str(properties[name].get("description", "")).split())
        assert f"the {device}'s screenshot" in text, (act.name, name)
        # Its default size (tests/envs/test_coordinate_descriptions.py compares it with a
        # real screenshot of each device).
        width, height = SIZES[device]
        assert (f"{width} wide" if "x" in name else f"{height} high") in text, (act.name, name)


def test_the_description_survives_in_the_tool_and_the_prompt_calls_them_pixels() -> None:
    properties = dict(desktop_actions.click_at.parameters_schema["properties"])
    strip_shared(properties)
    assert "desktop's screenshot" in properties["x"]["description"]
    assert "maximum" not in properties["x"]  # the cap is said once, as a cap
    assert "0 to 10000" not in shared_text() and "never a normalised scale" in shared_text()
