"""Screenshots scaled for each provider and its coordinates mapped back, exactly; devices
told apart by their real action spaces."""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reefbench.agents.computer_use.base import to_device
from reefbench.agents.computer_use.displays import find_devices, pointer_kind, screen_for
from reefbench.agents.providers.anthropic.computer_use import xga
from reefbench.agents.providers.gemini.computer_use import normalized
from reefbench.agents.providers.openai.computer_use import fit
from reefbench.environments.pointer import PointerOp, png_size

RULES = {"anthropic": xga, "openai": fit, "google": normalized}
sizes = st.tuples(st.integers(64, 3000), st.integers(64, 3000))


@settings(max_examples=300, deadline=None)
@given(device=sizes, data=st.data())
def test_a_point_the_model_names_round_trips_through_the_device(
    device: tuple[int, int], data: st.DataObject
) -> None:
    for name, rule in RULES.items():
        scale = rule(device)
        mw, mh = scale.model
        x, y = data.draw(st.integers(0, mw - 1)), data.draw(st.integers(0, mh - 1))
        dx, dy = scale.to_device(x, y)
        assert 0 <= dx < device[0] and 0 <= dy < device[1], name
        if mw <= device[0] and mh <= device[1]:
            # Scaling down: every model pixel is a device pixel and comes back the same.
            assert scale.to_model(dx, dy) == (x, y), name
        # The device point lies under the model pixel the model named.
        assert abs(dx - (x + 0.5) * device[0] / mw) <= device[0] / mw / 2 + 1, name
        assert abs(dy - (y + 0.5) * device[1] / mh) <= device[1] / mh / 2 + 1, name


@settings(max_examples=200, deadline=None)
@given(device=st.tuples(st.integers(32, 999), st.integers(32, 999)), data=st.data())
def test_gemini_reaches_every_device_pixel_of_small_screens(
    device: tuple[int, int], data: st.DataObject
) -> None:
    scale = normalized(device)
    x, y = data.draw(st.integers(0, device[0] - 1)), data.draw(st.integers(0, device[1] - 1))
    assert scale.to_device(*scale.to_model(x, y)) == (x, y)


@settings(max_examples=200, deadline=None)
@given(device=sizes)
def test_the_documented_sizes(device: tuple[int, int]) -> None:
    for rule in (xga, fit):
        mw, mh = rule(device).model
        assert mw <= min(1024, device[0]) and mh <= min(768, device[1])
        # As large as fits (one side touches its limit), proportions kept to a pixel.
        assert mw >= min(device[0], 1024) - 1 or mh >= min(device[1], 768) - 1
        assert abs(mw / device[0] - mh / device[1]) <= 1 / min(mw, mh)
    assert normalized(device).model == (1000, 1000)


def _png(size: tuple[int, int]) -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", size, (20, 40, 60)).save(out, format="PNG")
    return out.getvalue()


@pytest.mark.parametrize("size", [(1280, 800), (412, 915), (1024, 768), (800, 600)])
def test_the_image_sent_has_the_scale_s_size(size: tuple[int, int]) -> None:
    pytest.importorskip("PIL")
    shot = _png(size)
    for rule in (xga, fit):
        screen = screen_for("d", "desktop", shot, rule)
        assert png_size(screen.png) == screen.scale.model == screen.size
        assert screen.scale.device == size
    screen = screen_for("d", "desktop", shot, normalized, resize=False)
    assert screen.png == shot and screen.scale.model == (1000, 1000)


def test_ops_map_both_points() -> None:
    shot = _png((1280, 800))
    screen = screen_for("d", "desktop", shot, xga)  # 1024x640
    op = to_device(PointerOp("drag", 0, 0, 1023, 639), screen)
    assert (op.x, op.y, op.to_x, op.to_y) == (0, 0, 1279, 799)
    assert to_device(PointerOp("type", text="hi"), screen) == PointerOp("type", text="hi")


def test_the_real_kinds_are_told_apart_by_their_actions() -> None:
    from reefbench.environments.root import RootEnvironment
    from reefbench.envs.browser.actions import BROWSER_ACTIONS
    from reefbench.envs.desktop.actions import DESKTOP_ACTIONS
    from reefbench.envs.memory import MemoryEnvironment
    from reefbench.envs.ui.actions import TOUCH_ACTIONS

    assert pointer_kind(DESKTOP_ACTIONS) == "desktop"
    assert pointer_kind(BROWSER_ACTIONS) == "browser"
    assert pointer_kind(TOUCH_ACTIONS) == "touch"
    root = list(RootEnvironment().action_space.values())
    memory = list(MemoryEnvironment("laptop").action_space.values())
    assert pointer_kind(root) is None and pointer_kind(memory) is None
    spaces = {
        "desktop": DESKTOP_ACTIONS,
        "phone": TOUCH_ACTIONS,
        "browser": BROWSER_ACTIONS,
        "root": root,
    }
    assert find_devices(spaces) == {"desktop": "desktop", "phone": "touch", "browser": "browser"}
