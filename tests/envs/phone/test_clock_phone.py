"""The phone's clock ticks on from the task's start time, and a tick alone is no change.

The status bar draws its time only on events; every dump and screenshot the phone takes
shows the time it has now, while an observation whose only difference from the last is
the status bar's minute keeps the last screenshot (as the desktop does for its panel
clock). A fake time source shared by the account and the phone moves time by hand.
"""

from __future__ import annotations

import io
from collections.abc import Iterator

import pytest

pytest.importorskip("playwright")
pytest.importorskip("fastapi")

from PIL import Image

from reefbench.envs.phone import PhoneEnvironment
from reefbench.envs.phone.system import clock_boxes
from reefbench.envs.services import ServicesEnvironment
from reefbench.perception.image import differs_only_inside
from reefbench.tasks.worldtime import WorldClock

pytestmark = pytest.mark.integration


class Seconds:
    """A time source that moves only when told."""

    def __init__(self) -> None:
        self.value = 100.0

    def __call__(self) -> float:
        return self.value


@pytest.fixture(scope="module")
def seconds() -> Seconds:
    return Seconds()


@pytest.fixture(scope="module")
def devices(seconds: Seconds) -> Iterator[tuple[ServicesEnvironment, PhoneEnvironment]]:
    services = ServicesEnvironment(clock=WorldClock(seconds))
    phone = PhoneEnvironment(services=services, clock=WorldClock(seconds))
    try:
        phone.start()
        yield services, phone
    finally:
        phone.stop()
        services.stop()


@pytest.fixture
def phone(devices: tuple[ServicesEnvironment, PhoneEnvironment]) -> PhoneEnvironment:
    services, phone = devices
    services.reset()
    phone.reset()
    return phone


def _image(png: bytes) -> Image.Image:
    with Image.open(io.BytesIO(png)) as image:
        return image.convert("RGB")


def _status_time(phone: PhoneEnvironment) -> str:
    node = phone.ui_hierarchy().find(resource_id="clock")
    assert node is not None
    return node.text


def test_the_status_bar_shows_the_ticked_time_in_every_screenshot(
    phone: PhoneEnvironment, seconds: Seconds
) -> None:
    assert _status_time(phone) == "09:00"
    first, scale = phone.capture_png()
    seconds.value += 61  # no event on the page: only the phone knows a minute passed
    assert _status_time(phone) == "09:01"
    second, _ = phone.capture_png()
    assert first != second
    boxes = clock_boxes(phone.ui_hierarchy(), scale)
    assert boxes
    # Real screenshots a minute apart differ only inside the status bar's clock...
    assert differs_only_inside(_image(first), _image(second), boxes)
    # ... and not only inside some other box of the same size.
    x, y, w, h = boxes[0]
    assert not differs_only_inside(_image(first), _image(second), [(x + 2 * w, y, w, h)])
    # The home screen's date follows the clock too.
    seconds.value += 24 * 3600
    date = phone.ui_hierarchy().find(resource_id="date_widget")
    assert date is not None and date.text == "Tue, Jun 4"


def test_a_minute_tick_alone_keeps_the_last_screenshot(
    phone: PhoneEnvironment, seconds: Seconds
) -> None:
    before = phone.observe_now()
    seconds.value += 60
    after = phone.observe_now()
    assert _status_time(phone) == "09:01"
    assert after.png == before.png  # not a change: an observation policy sends nothing new
    # A change the agent makes is a new screenshot, with the ticked time.
    phone.open_drawer()
    phone.settle()
    changed = phone.observe_now()
    assert changed.png != before.png
    boxes = clock_boxes(changed.ui, changed.image_scale)
    assert not differs_only_inside(_image(before.png), _image(changed.png), boxes)
