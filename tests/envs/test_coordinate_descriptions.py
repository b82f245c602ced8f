"""Every coordinate a model may pass says the size of the screenshot it is measured in
(issue 31, item 4), and that size is the one of the screenshot the device really sends.

The phone's said "as sent to you" with no size; the desktop's and the browser's say
"1280 wide ... 800 high" (their descriptions give another size when configured so). Here
each device is started, its screenshot observation taken, and every coordinate parameter
of every tool a model receives for it (``Toolbox`` definitions, as sent natively, under
the ``marks`` and ``pixels`` sets) must state that screenshot's width (x) or height (y).
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from reefbench.agents.tools import Toolbox
from reefbench.environments.contract import Environment
from reefbench.environments.pointer import png_size

pytest.importorskip("playwright")
pytestmark = pytest.mark.integration

X_LIKE = ("x", "from_x", "to_x")
Y_LIKE = ("y", "from_y", "to_y")
HAS_DESKTOP = (
    all(shutil.which(t) for t in ("Xvfb", "bwrap", "xdotool", "openbox"))
    and Path("/usr/bin/python3").exists()
)


def _device(kind: str) -> Environment:
    if kind == "phone":
        from reefbench.envs.phone import PhoneEnvironment

        return PhoneEnvironment("phone")
    if kind == "browser":
        from reefbench.envs.browser import BrowserEnvironment

        return BrowserEnvironment("browser")
    if not HAS_DESKTOP:
        pytest.skip("needs Xvfb, bubblewrap, xdotool, openbox and Debian's python3")
    from reefbench.envs.desktop import DesktopEnvironment

    return DesktopEnvironment("desktop")


@pytest.fixture(scope="module", params=["phone", "browser", "desktop"])
def device(request: pytest.FixtureRequest) -> Iterator[Environment]:
    env = _device(request.param)
    env.start()
    try:
        env.reset()
        yield env
    finally:
        env.stop()


def _screenshot_size(env: Environment) -> tuple[int, int]:
    """The size of the screenshot the device's observation sends a model."""
    shots = [v for v in env.observe().values() if isinstance(v, bytes) and v[:4] == b"\x89PNG"]
    assert shots, f"{env.name} sent no screenshot"
    return png_size(shots[0])


def _coordinate_properties(env: Environment) -> list[tuple[str, str, dict[str, Any]]]:
    """(tool, parameter, property) of every coordinate a model is sent for ``env``."""
    found = []
    for action_set in ("marks", "pixels"):
        space = env.episode_space(action_set=action_set)
        toolbox = Toolbox({env.name: list(space.values())}, shared=True)
        for spec in toolbox.specs:
            properties = spec.schema("openai")["function"]["parameters"]["properties"]
            for name, prop in properties.items():
                if name in X_LIKE + Y_LIKE:
                    found.append((spec.name, name, prop))
    return found


def test_each_coordinate_states_the_size_of_the_screenshot_the_device_sends(
    device: Environment,
) -> None:
    width, height = _screenshot_size(device)
    properties = _coordinate_properties(device)
    tools = {tool for tool, _, _ in properties}
    assert len(tools) >= 2, tools  # every device has coordinate actions to check
    for tool, name, prop in properties:
        text = " ".join(str(prop.get("description", "")).split())
        size = f"{width} wide" if name in X_LIKE else f"{height} high"
        assert size in text, f"{tool}.{name} should say {size!r}: {text!r}"
