"""A to-do's done state is in the element list (issue 31, item 5): the Tasks app's
Complete/Undo buttons said it only through their names and a "Completed" heading. They are
toggle buttons now, listed as ``(checked)``/``(unchecked)`` on the phone and in the
browser, and keep the names and the role stored solutions (and near misses) click.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from reefbench.actions.spec import ActionCall
from reefbench.environments.grounding import element_call
from reefbench.envs.browser import BrowserEnvironment
from reefbench.envs.phone import PhoneEnvironment

pytest.importorskip("playwright")
pytest.importorskip("fastapi")
pytestmark = pytest.mark.integration

from reefbench.envs.services import ServicesEnvironment  # noqa: E402

Devices = tuple[ServicesEnvironment, PhoneEnvironment, BrowserEnvironment]


@pytest.fixture(scope="module")
def devices() -> Iterator[Devices]:
    services = ServicesEnvironment()
    phone = PhoneEnvironment(services=services)
    browser = BrowserEnvironment(services=services)
    try:
        phone.start()
        browser.start()
        yield services, phone, browser
    finally:
        phone.stop()
        browser.stop()
        services.stop()


@pytest.fixture
def seeded(devices: Devices) -> Devices:
    services, phone, browser = devices
    services.reset()
    phone.reset()
    browser.reset()
    services.call("add_task", title="Water the plants", list_name="My Tasks")
    services.call("add_task", title="Pay the rent", list_name="My Tasks", completed=True)
    return devices


def _completed(services: ServicesEnvironment, title: str) -> bool:
    rows = [t for t in services.rows("tasks") if t["title"] == title]
    assert len(rows) == 1, rows
    return bool(rows[0]["completed"])


def test_the_phone_lists_a_done_to_do_as_checked_and_an_open_one_unchecked(
    seeded: Devices,
) -> None:
    services, phone, _ = seeded
    phone.open_app("com.reef.tasks")
    lines = phone.observe_now().marks.marks.text().splitlines()
    toggles = [line for line in lines if '"Complete"' in line or '"Undo"' in line]
    assert len(toggles) == 2, lines
    # Named by the visible word, described by which to-do it is (as TalkBack reads it).
    assert toggles[0].endswith(
        '"Complete" description="Mark “Water the plants” complete" (unchecked)'
    ), toggles
    assert toggles[1].endswith('"Undo" description="Mark “Pay the rent” not complete" (checked)'), (
        toggles
    )
    # A stored solution's tap ("Complete", no class) still completes the open to-do.
    call = element_call(
        ActionCall(env="phone", name="tap_on", arguments={"name": "Complete"}), phone, fresh=True
    )
    phone.step(call.name, call.arguments)
    assert _completed(services, "Water the plants")
    toggles = [m.line() for m in phone.observe_now().marks.marks.marks if "Toggle" in m.role]
    # The list shows the first done to-do; the other is below the fold.
    assert toggles and all(t.endswith('not complete" (checked)') for t in toggles), toggles


def test_the_browser_lists_a_done_to_do_as_checked_and_an_open_one_unchecked(
    seeded: Devices,
) -> None:
    services, _, browser = seeded
    browser.goto(f"{services.url}/tasks")
    marks = browser.observe_now().marks.text()
    assert 'button "Mark “Water the plants” complete" (unchecked)' in marks, marks
    assert 'button "Mark “Pay the rent” not complete" (checked)' in marks, marks
    # The near misses of reef-v1 click it by this name and role.
    call = element_call(
        ActionCall(
            env="browser",
            name="click_on",
            arguments={"name": "Mark “Pay the rent” not complete", "role": "button"},
        ),
        browser,
        fresh=True,
    )
    browser.step(call.name, call.arguments)
    assert not _completed(services, "Pay the rent")
    marks = browser.observe_now().marks.text()
    assert 'button "Mark “Pay the rent” complete" (unchecked)' in marks, marks
