"""The phone on real Chromium with the real services: drawer, Mail, evaluators, reset.

One services server, one phone and one desktop browser serve the whole module; every test
starts from a reset.
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from reefbench.actions.spec import ActionCall
from reefbench.environments.grounding import element_call
from reefbench.environments.pointer import png_size
from reefbench.envs.browser import BrowserEnvironment
from reefbench.envs.chromium import process_tree
from reefbench.envs.phone import PhoneEnvironment
from reefbench.envs.phone.actions import set_phone_setting
from reefbench.envs.phone.evaluators import call_made, phone_setting_is
from reefbench.envs.ui import StaticScreen
from reefbench.envs.ui.evaluators import (
    current_app,
    element_checked,
    element_text,
    list_item_count,
    text_on_screen,
)
from reefbench.errors import ActionFailed, InvalidAction
from reefbench.plumbing.waiting import wait_until

pytest.importorskip("playwright")
pytest.importorskip("fastapi")
pytestmark = pytest.mark.integration

from reefbench.envs.services import ServicesEnvironment  # noqa: E402
from reefbench.envs.services.evaluators import mail_sent  # noqa: E402

DUMPS = Path("/work/shared/android")
if not DUMPS.exists():
    DUMPS = Path(__file__).resolve().parents[3].parent / "shared" / "android"
LITERAL = 'It\'s "odd"; echo $(id) `x` & 100% %s\nnext line: Grüße, 東京 — ok'


@pytest.fixture(scope="module")
def devices() -> Iterator[tuple[ServicesEnvironment, PhoneEnvironment, BrowserEnvironment]]:
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
def phone(
    devices: tuple[ServicesEnvironment, PhoneEnvironment, BrowserEnvironment],
) -> PhoneEnvironment:
    services, phone, _ = devices
    services.reset()
    phone.reset()
    return phone


def mark_of(phone: PhoneEnvironment, label: str, within: float = 10.0) -> int:
    """The number of the element named ``label`` (or with resource id ``label``), waiting
    up to ``within`` seconds for it (an app's page may still be loading on a busy machine)."""

    def find() -> tuple[int] | None:
        snapshot = phone.observe_now()
        for mark, node in zip(snapshot.marks.marks.marks, snapshot.marks.nodes, strict=True):
            if mark.name == label or node.id_name == label:
                return (mark.id,)
        return None

    found = wait_until(find, within, interval=0.1)
    if found is None:
        shown = phone.observe_now().marks.marks.text()
        raise AssertionError(f"no element {label!r} on screen:\n{shown}")
    return found[0]


def test_show_all_drawer_then_tap_opens_mail(phone: PhoneEnvironment):
    assert phone.current_package() == "com.reef.launcher"
    phone.step("show_all_drawer")
    listed = phone.observe()["elements"]
    for name in ("Account", "Calendar", "Clock", "Mail", "Phone", "Settings", "Tasks"):
        assert f'TextView "{name}"' in listed
    phone.step("tap", {"elem": mark_of(phone, "Mail")})
    assert phone.current_package() == "com.reef.mail"
    assert current_app(package="com.reef.mail").evaluate(phone).success
    assert text_on_screen(text="Compose").evaluate(phone).success


def compose(phone: PhoneEnvironment, to: str, subject: str, body: str) -> None:
    phone.open_app("com.reef.mail")
    phone.step("tap", {"elem": mark_of(phone, "Compose")})
    for field, text in (("to", to), ("subject", subject), ("body", body)):
        phone.step("tap", {"elem": mark_of(phone, field)})
        phone.step("write_text", {"text": text})


def test_sending_mail_on_the_phone_passes_the_services_evaluator_and_the_browser_sees_it(
    devices: tuple[ServicesEnvironment, PhoneEnvironment, BrowserEnvironment],
    phone: PhoneEnvironment,
):
    services, _, browser = devices
    browser.reset()
    check = mail_sent(to="bob@example.com", subject="Quarterly numbers", body="see you at 3")
    assert not check.evaluate(phone).success
    compose(phone, "bob@example.com", "Quarterly numbers", "Hi Bob,\nsee you at 3")
    phone.step("tap", {"elem": mark_of(phone, "Send")})
    assert check.evaluate(phone).success  # routed through phone.services
    assert check.evaluate(services).success
    browser.goto(f"{services.url}/mail?folder=sent")
    assert "Quarterly numbers" in browser.text_content()
    assert "To: bob@example.com" in browser.text_content()


def test_write_text_arrives_literally(phone: PhoneEnvironment):
    compose(phone, "x@example.com", "s", LITERAL)
    value = phone.page.evaluate(
        "() => document.getElementById('app_frame').contentDocument.getElementById('body').value"
    )
    assert value == LITERAL
    # The dump carries it too (newlines escaped so a parser gives them back).
    assert element_text(resource_id="body", text=LITERAL).evaluate(phone).success
    node = phone.ui_hierarchy().find(resource_id="com.reef.mail:id/body")
    assert node is not None and node.text == LITERAL and node.short_class == "EditText"


def test_write_text_without_a_focused_field_says_what_to_do(phone: PhoneEnvironment):
    with pytest.raises(ActionFailed, match="tap the field first"):
        phone.step("write_text", {"text": "hello"})


def test_unknown_element_numbers_are_invalid_actions(phone: PhoneEnvironment):
    with pytest.raises(InvalidAction, match="no observation"):
        phone.step("tap", {"elem": 1})
    phone.observe()
    with pytest.raises(InvalidAction, match=r"valid ids: 1\.\."):
        phone.step("tap", {"elem": 500})


def test_one_set_of_xml_evaluators_reads_the_phone_and_real_dumps(phone: PhoneEnvironment):
    phone.open_app("com.reef.settings")
    phone.step("tap", {"elem": mark_of(phone, "Bluetooth")})
    assert phone.state.settings["bluetooth"] is True
    dialog = StaticScreen.from_file(DUMPS / "maps_delete_timeline_dialog.xml")
    on = element_checked(text="Bluetooth")
    assert on.evaluate(phone).success
    assert not element_checked(text="Airplane mode").evaluate(phone).success
    assert element_checked(text="I understand and want to delete.").evaluate(dialog).success
    assert not on.evaluate(dialog).success  # same evaluator, other screen: no such row
    assert current_app(package="com.reef.settings").evaluate(phone).success
    assert current_app(package="com.google.android.apps.maps").evaluate(dialog).success
    # The phone's dump parses like a device's: window roots, device-pixel bounds.
    ui = phone.ui_hierarchy()
    assert [r.package for r in ui.roots] == [
        "com.android.systemui",
        "com.reef.settings",
        "com.android.systemui",
    ]
    assert ui.size == phone.screen_size()
    assert text_on_screen(text=phone.clock()[11:16]).evaluate(phone).success  # account clock
    items = len(ui.find(resource_id="settings_list").children)
    assert list_item_count(resource_id="settings_list", count=items).evaluate(phone).success


def test_long_tap_opens_the_app_menu_and_back_closes_it(phone: PhoneEnvironment):
    phone.step("long_tap", {"elem": mark_of(phone, "Mail")})
    assert text_on_screen(text="App info", exact=True).evaluate(phone).success
    phone.step("press", {"key": "back"})
    assert not text_on_screen(text="App info", exact=True).evaluate(phone).success
    phone.step("long_tap", {"elem": mark_of(phone, "Mail")})
    phone.step("tap", {"elem": mark_of(phone, "App info")})
    assert phone.current_package() == "com.reef.settings"
    assert text_on_screen(text="com.reef.mail", exact=True).evaluate(phone).success


def test_back_walks_app_history_then_closes_the_app(phone: PhoneEnvironment):
    phone.open_app("com.reef.mail")
    phone.step("tap", {"elem": mark_of(phone, "Compose")})
    assert text_on_screen(text="New message").evaluate(phone).success
    phone.step("press", {"key": "back"})
    assert not text_on_screen(text="New message").evaluate(phone).success
    assert phone.current_package() == "com.reef.mail"
    phone.step("press", {"key": "back"})
    assert phone.current_package() == "com.reef.launcher"
    phone.open_app("com.reef.mail")
    phone.step("press", {"key": "home"})
    assert phone.current_package() == "com.reef.launcher"


def test_swipe_scrolls_a_long_list(
    devices: tuple[ServicesEnvironment, PhoneEnvironment, BrowserEnvironment],
    phone: PhoneEnvironment,
):
    services, _, _ = devices
    for i in range(30):
        services.call("add_contact", name=f"Person {i:02d}", phone=f"555-01{i:02d}")
    phone.open_app("com.reef.contacts")

    def top() -> int:
        return int(
            phone.page.evaluate(
                "() => document.getElementById('app_frame')"
                ".contentDocument.scrollingElement.scrollTop"
            )
        )

    phone.step(
        "swipe",
        {"elem": mark_of(phone, "Person 05 555-0105"), "direction": "up", "distance": "medium"},
    )
    scrolled = top()
    assert scrolled > 100
    phone.observe()
    phone.step("swipe", {"elem": 12, "direction": "down", "distance": "long"})
    assert top() < scrolled


def test_dialer_records_calls_in_the_phone_state(phone: PhoneEnvironment):
    assert not call_made(number="555-0100").evaluate(phone).success
    phone.open_app("com.reef.dialer")
    phone.step("tap", {"elem": mark_of(phone, "digits")})
    phone.step("write_text", {"text": "555-0100"})
    phone.step("tap", {"elem": mark_of(phone, "call")})
    assert text_on_screen(text="Calling 5550100").evaluate(phone).success
    assert phone.state.calls[-1]["number"] == "5550100"
    phone.step("tap", {"elem": mark_of(phone, "end_call")})
    assert text_on_screen(text="Outgoing").evaluate(phone).success
    assert call_made(number="(555) 0100").evaluate(phone).success


def test_reset_restores_the_seed(
    devices: tuple[ServicesEnvironment, PhoneEnvironment, BrowserEnvironment],
    phone: PhoneEnvironment,
):
    services, _, _ = devices
    phone.open_app("com.reef.settings")
    phone.step("tap", {"elem": mark_of(phone, "Dark theme")})
    compose(phone, "eve@example.com", "Before reset", "x")
    phone.step("tap", {"elem": mark_of(phone, "Send")})
    assert phone_setting_is(key="dark_mode", value="on").evaluate(phone).success
    assert mail_sent(to="eve@example.com").evaluate(phone).success
    services.reset()
    phone.reset()
    assert phone_setting_is(key="dark_mode", value="off").evaluate(phone).success
    assert not mail_sent(to="eve@example.com").evaluate(phone).success
    assert phone.current_package() == "com.reef.launcher"
    assert phone.snapshot is None
    phone.open_app("com.reef.settings")
    assert not element_checked(text="Dark theme").evaluate(phone).success


def test_stop_leaves_no_process():
    phone = PhoneEnvironment()
    phone.start()
    pids = phone.pids()
    assert len(pids) >= 3  # browser, zygotes, renderer ...
    assert phone.memory_bytes() > 10 * 2**20
    phone.stop()
    alive = [p for p in pids if _alive(p)]
    assert alive == []
    assert phone.pids() == []
    assert all(not process_tree(p) or not _alive(p) for p in pids)


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z" and os.path.exists(f"/proc/{pid}")


def test_setup_actions_change_what_the_screen_shows(phone: PhoneEnvironment):
    phone.execute(set_phone_setting(key="bluetooth_name", value="Kitchen speaker"))
    phone.execute(set_phone_setting(key="airplane_mode", value="on"))
    phone.open_app("com.reef.settings")
    assert (
        element_text(resource_id="device_name_value", text="Kitchen speaker")
        .evaluate(phone)
        .success
    )
    assert element_checked(text="Airplane mode").evaluate(phone).success
    assert phone_setting_is(key="bluetooth_name", value="kitchen  SPEAKER").evaluate(phone).success
    with pytest.raises(ActionFailed, match="no setting"):
        phone.execute(set_phone_setting(key="volume", value="11"))


# ------------------------------------------------------- coordinates (pointer)
def screenshot_point(phone: PhoneEnvironment, label: str) -> tuple[int, int]:
    """The centre of the element called ``label`` in the screenshot the agent sees."""
    from PIL import Image

    elem = mark_of(phone, label)
    snapshot = phone.snapshot
    assert snapshot is not None
    mark = next(m for m in snapshot.marks.marks.marks if m.id == elem)
    shown = phone.observe()["screenshot"]
    assert isinstance(shown, bytes)
    with Image.open(io.BytesIO(shown)) as image:
        width = image.width
    with Image.open(io.BytesIO(snapshot.png)) as raw:
        per_device = width / raw.width * snapshot.image_scale
    x, y = mark.center
    return round(x * per_device), round(y * per_device)


def test_tap_at_a_screenshot_point_opens_the_app_there(phone: PhoneEnvironment):
    phone.step("show_all_drawer")
    x, y = screenshot_point(phone, "Mail")
    phone.step("tap_at", {"x": x, "y": y})
    assert phone.current_package() == "com.reef.mail"


def test_tap_at_outside_the_screenshot_is_an_invalid_action(phone: PhoneEnvironment):
    phone.observe()
    with pytest.raises(InvalidAction, match="outside the"):
        phone.step("tap_at", {"x": 5000, "y": 10})


def test_clear_text_empties_the_field_so_typing_replaces_its_value(phone: PhoneEnvironment):
    compose(phone, "x@example.com", "draft subject", "0")
    phone.step("tap", {"elem": mark_of(phone, "body")})
    phone.step("clear_text")
    phone.step("write_text", {"text": "25"})
    assert element_text(resource_id="body", text="25").evaluate(phone).success
    node = phone.ui_hierarchy().find(resource_id="com.reef.mail:id/body")
    assert node is not None and node.text == "25"  # not "025"


def test_clear_text_without_a_focused_field_says_what_to_do(phone: PhoneEnvironment):
    with pytest.raises(ActionFailed, match="tap the field first"):
        phone.step("clear_text")


def test_swipe_from_scrolls_a_long_list_by_coordinates(
    devices: tuple[ServicesEnvironment, PhoneEnvironment, BrowserEnvironment],
    phone: PhoneEnvironment,
):
    services, _, _ = devices
    for i in range(30):
        services.call("add_contact", name=f"Person {i:02d}", phone=f"555-01{i:02d}")
    phone.open_app("com.reef.contacts")
    x, y = screenshot_point(phone, "Person 05 555-0105")
    phone.step("swipe_from", {"x": x, "y": y, "to_x": x, "to_y": 0})
    scrolled = phone.page.evaluate(
        "() => document.getElementById('app_frame').contentDocument.scrollingElement.scrollTop"
    )
    assert scrolled > 100


def test_under_pixels_a_tap_at_an_elements_point_lands_on_it(
    devices: tuple[ServicesEnvironment, PhoneEnvironment, BrowserEnvironment],
):
    """The pixels set on the phone: a plain screenshot in the agent's (here halved) pixel
    space, no element tools, and the oracle's point for a named app opens that app."""
    services, phone, _ = devices
    services.reset()
    phone.reset(action_set="pixels")
    phone.screenshot_width = 206
    try:
        assert not {"tap", "long_tap", "swipe"} & set(phone.action_space)
        assert {"tap_at", "long_tap_at", "swipe_from", "clear_text"} <= set(phone.action_space)
        assert "numbered boxes" not in phone.description
        phone.step("show_all_drawer")
        observation = phone.observe()
        assert set(observation) == {"screenshot"}  # no element list
        assert png_size(observation["screenshot"]) == (206, 458)
        assert phone.snapshot is not None
        assert observation["screenshot"] == phone.snapshot.plain_png(206)
        by_name = ActionCall(env="phone", name="tap_on", arguments={"name": "Mail"})
        call = element_call(by_name, phone)
        assert call.name == "tap_at" and call.arguments["x"] < 206, call
        phone.step(call.name, call.arguments)
        assert phone.current_package() == "com.reef.mail"
    finally:
        phone.screenshot_width = None
        phone.end_episode()
    assert "tap" in phone.action_space and "numbered boxes" in phone.description


def _line(listed: str, fragment: str) -> str:
    found = [x for x in listed.splitlines() if fragment in x]
    assert found, listed
    return found[0]


def test_fields_are_named_by_their_labels_with_the_value_apart(phone: PhoneEnvironment):
    phone.open_app("com.reef.clock")
    phone.step("tap", {"elem": mark_of(phone, "Timers")})
    listed = phone.observe()["elements"]
    for label in ("Hours", "Minutes", "Seconds"):
        assert f'EditText "{label}" value="0"' in listed, listed
    assert 'EditText "0"' not in listed
    phone.step("tap", {"elem": mark_of(phone, "Minutes")})
    phone.step("write_text", {"text": "25"})
    assert 'EditText "Minutes" value="025"' in phone.observe()["elements"]


def test_switches_show_whether_they_are_on(phone: PhoneEnvironment):
    phone.open_app("com.reef.settings")
    before = _line(phone.observe()["elements"], '"Wi-Fi"')
    assert before.endswith(("(checked)", "(unchecked)")), before
    phone.step("tap", {"elem": mark_of(phone, "Wi-Fi")})
    after = _line(phone.observe()["elements"], '"Wi-Fi"')
    flipped = "(checked)" if before.endswith("(unchecked)") else "(unchecked)"
    assert after.endswith(flipped), (before, after)


def test_static_text_such_as_a_mail_body_is_listed_whole_up_to_a_cap(phone: PhoneEnvironment):
    from reefbench.environments.grounding import ground
    from reefbench.envs.services.seeding import add_mail
    from reefbench.envs.ui.marks import TEXT_ITEM_CAP, TEXT_TOTAL_CAP

    body = "Meet me at the Harbour Cafe at noon on Friday. " + "More words follow. " * 40
    huge = "A very long letter begins here. " + "More words follow. " * 100
    phone.execute(add_mail(sender="ada@example.org", subject="Lunch plans", body=body))
    phone.execute(add_mail(sender="ada@example.org", subject="Long letter", body=huge))
    phone.open_app("com.reef.mail")
    phone.step("tap", {"elem": ground(phone, "Lunch plans")})  # the row holds more text
    listed = phone.observe()["elements"]
    assert "Text on screen (not elements):" in listed, listed
    static = listed.split("Text on screen (not elements):\n", 1)[1].splitlines()
    assert f'- "{body.strip()}"' in static  # a mail's body is read whole
    phone.press_key("back")
    phone.step("tap", {"elem": ground(phone, "Long letter")})
    listed = phone.observe()["elements"]
    static = listed.split("Text on screen (not elements):\n", 1)[1].splitlines()
    item = next(x for x in static if "A very long letter" in x)
    assert len(item) <= TEXT_ITEM_CAP + len('- ""') and item.endswith('..."')
    assert sum(len(x) for x in static) <= TEXT_TOTAL_CAP + 4 * len(static)


def test_the_foreground_app_follows_navigation_inside_the_app(phone: PhoneEnvironment):
    phone.open_app("com.reef.mail")
    assert phone.current_package() == "com.reef.mail"
    phone.step("tap", {"elem": mark_of(phone, "Calendar")})
    assert phone.current_package() == "com.reef.calendar"
    listed = phone.observe()["elements"]
    assert listed.startswith("Foreground app: com.reef.calendar"), listed
    assert current_app(package="com.reef.calendar").evaluate(phone).success
    phone.step("press", {"key": "back"})  # back inside the frame: Mail again
    assert phone.current_package() == "com.reef.mail"
