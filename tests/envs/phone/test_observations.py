"""What the phone's (and the browser's) observations say is what their screens show
(issue 31, item 5): fields by their labels, photos never under a
mark's number, ticked items as checked, no page-long names, the apps dark in Dark theme,
and long texts whole.

One services server, one phone and one desktop browser serve the whole module; every test
starts from a reset.
"""

from __future__ import annotations

import io
from collections.abc import Iterator

import pytest

from reefbench.actions.spec import ActionCall
from reefbench.environments.grounding import element_call
from reefbench.envs.browser import BrowserEnvironment
from reefbench.envs.phone import PhoneEnvironment
from reefbench.perception.marks import MarkSet

pytest.importorskip("playwright")
pytest.importorskip("fastapi")
pytestmark = pytest.mark.integration

from reefbench.envs.services import ServicesEnvironment  # noqa: E402

Devices = tuple[ServicesEnvironment, PhoneEnvironment, BrowserEnvironment]
# Longer than any cap the lists had (80 for a name, 200 for a text), and cut mid-word there.
LONG = (
    "Hi! The photos from Saturday are in the shared album now. Please do not enlarge the "
    "blurry ones for the poster, the printer says they will look grainy; use the three "
    "sharp ones from the pier instead, and send me the final layout by Thursday evening "
    "so that I can still ask for changes before the print run on Friday morning. Thanks!"
)


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
def fresh(devices: Devices) -> Devices:
    services, phone, browser = devices
    services.reset()
    phone.reset()
    browser.reset()
    return devices


def tap(phone: PhoneEnvironment, name: str) -> None:
    """Tap the element called ``name`` as a stored solution does (waits for it to show)."""
    call = element_call(
        ActionCall(env="phone", name="tap_on", arguments={"name": name}), phone, fresh=True
    )
    phone.step(call.name, call.arguments)


def click(browser: BrowserEnvironment, name: str) -> None:
    call = element_call(
        ActionCall(env="browser", name="click_on", arguments={"name": name}), browser, fresh=True
    )
    browser.step(call.name, call.arguments)


def listed(phone: PhoneEnvironment) -> MarkSet:
    return phone.observe_now().marks.marks


def seed_parking(services: ServicesEnvironment) -> None:
    services.call("add_photo", album="Parking", name="IMG_1184.png", caption="Bay 31 orw C")
    services.call(
        "add_photo",
        album="Parking",
        name="IMG_1185.png",
        caption="Bay 31 row C",
        colour="teal",
        shape="triangle",
        edits=["rotate_left"],
    )


def test_a_field_is_named_by_its_label_and_its_placeholder_is_a_hint(fresh: Devices) -> None:
    services, phone, browser = fresh
    seed_parking(services)
    phone.open_app("com.reef.gallery")
    tap(phone, "Parking")
    tap(phone, "IMG_1185.png")
    text = listed(phone).text()
    assert 'EditText "Save a copy to folder, hint: Photos/Parking" value=""' in text, text
    assert 'EditText "Copy name, hint: IMG_1185.png" value=""' in text, text
    # Stored solutions that named the field by its placeholder still find it.
    tap(phone, "Photos/Parking")
    assert phone.page.evaluate(
        "() => document.getElementById('app_frame').contentDocument.activeElement.id"
    ) == ("copy-folder")
    browser.goto(f"{services.url}/gallery")
    click(browser, "Parking")
    click(browser, "IMG_1185.png")
    marks = browser.observe_now().marks.text()
    assert 'textbox "Save a copy to folder, hint: Photos/Parking" value=""' in marks, marks


def _label_boxes(marks: MarkSet, png: bytes) -> list[tuple[float, float, float, float]]:
    """Where draw_marks puts each mark's number (its filled tag), in screenshot pixels."""
    from PIL import Image

    from reefbench.perception.marks import tag_boxes

    with Image.open(io.BytesIO(png)) as image:
        placed = tag_boxes(marks, image.size, image=image)
    return [(x, y, x + w, y + h) for x, y, w, h in placed.values()]


def test_no_mark_number_covers_a_gallery_photo(fresh: Devices) -> None:
    """What a photo shows (the text on a sign, how it stands) is in its pixels only, as
    for a person: the element list does not say it, so no mark's number may hide it."""
    services, phone, _ = fresh
    seed_parking(services)
    phone.open_app("com.reef.gallery")
    tap(phone, "Parking")
    snapshot = phone.observe_now()
    text = snapshot.marks.marks.text()
    assert "Bay 31" not in text, text
    # Every picture on the screen, in screenshot pixels (CSS pixels: the phone's scale).
    pictures = phone.page.evaluate(
        """() => {
          const frame = document.getElementById('app_frame');
          const at = frame.getBoundingClientRect();
          return Array.from(frame.contentDocument.querySelectorAll('img')).map((img) => {
            const r = img.getBoundingClientRect();
            return [at.left + r.left, at.top + r.top, at.left + r.right, at.top + r.bottom];
          });
        }"""
    )
    assert len(pictures) == 2
    from reefbench.envs.ui.marks import scaled

    shown = scaled(snapshot.marks.marks, snapshot.image_scale)
    for x1, y1, x2, y2 in _label_boxes(shown, snapshot.png):
        for px1, py1, px2, py2 in pictures:
            assert x2 <= px1 or x1 >= px2 or y2 <= py1 or y1 >= py2, (
                f"a mark's number at {(x1, y1, x2, y2)} covers a photo at {(px1, py1, px2, py2)}"
            )


def test_a_ticked_checklist_item_is_listed_as_checked(fresh: Devices) -> None:
    services, phone, browser = fresh
    services.call("add_note", title="Camping", items=["tent", "torch"], checked=["torch"])
    phone.open_app("com.reef.notes")
    board = listed(phone).text()
    assert '- "torch (checked)"' in board and '- "tent"' in board, board  # struck through
    tap(phone, "Note Camping")
    text = listed(phone).text()
    assert 'CheckBox "Check “tent”" (unchecked)' in text, text
    assert 'CheckBox "Uncheck “torch”" (checked)' in text, text
    browser.goto(f"{services.url}/notes")
    click(browser, "Note Camping")
    marks = browser.observe_now().marks.text()
    assert 'checkbox "Check “tent”" (unchecked)' in marks, marks
    assert 'checkbox "Uncheck “torch”" (checked)' in marks, marks


def test_a_scrolling_app_screen_is_not_named_after_everything_on_it(fresh: Devices) -> None:
    services, phone, _ = fresh
    for n in range(12):
        services.call("add_note", title=f"Errand {n}", body=f"buy item number {n}")
    phone.open_app("com.reef.notes")
    marks = listed(phone)
    frames = [m for m in marks.marks if m.role == "FrameLayout"]
    assert frames, marks.text()  # the page scrolls: its frame is a mark
    for frame in frames:
        assert "Errand" not in frame.name and len(frame.name) < 30, marks.text()


def _brightness(png: bytes, x: int, y: int) -> float:
    from PIL import Image

    with Image.open(io.BytesIO(png)) as image:
        pixel = image.convert("RGB").getpixel((x, y))
    assert isinstance(pixel, tuple)
    return sum(pixel[:3]) / 3


def test_dark_theme_darkens_the_apps_too(fresh: Devices) -> None:
    _, phone, _ = fresh
    phone.open_app("com.reef.notes")
    # A point of the app's page background, below the last element (in CSS pixels).
    x, y = 200, 700
    before = _brightness(phone.observe_now().png, x, y)
    assert before > 200
    phone.open_app("com.reef.settings")
    tap(phone, "Dark theme")
    assert "(checked)" in next(m.line() for m in listed(phone).marks if m.name == "Dark theme")
    phone.open_app("com.reef.notes")
    assert _brightness(phone.observe_now().png, x, y) < 60
    # Off again: light again.
    phone.set_setting("dark_mode", False)
    assert _brightness(phone.observe_now().png, x, y) > 200


def test_a_long_message_is_readable_whole(fresh: Devices) -> None:
    services, phone, browser = fresh
    services.call("add_contact", name="Mina Rossi", phone="+1 555 0101")
    services.call("add_message", contact="Mina Rossi", text=LONG)
    phone.open_app("com.reef.messages")
    preview = listed(phone).text()
    assert "Please do not…" in preview, preview  # cut at a word, marked
    tap(phone, "Mina Rossi")
    assert LONG in listed(phone).text()
    browser.goto(f"{services.url}/messages")
    click(browser, "Mina Rossi")
    assert LONG in browser.observe_now().marks.text()


def test_a_long_note_is_readable_whole(fresh: Devices) -> None:
    services, phone, browser = fresh
    services.call("add_note", title="Poster", body=LONG)
    phone.open_app("com.reef.notes")
    tap(phone, "Note Poster")
    assert LONG in listed(phone).text()
    browser.goto(f"{services.url}/notes")
    click(browser, "Note Poster")
    assert LONG in browser.observe_now().marks.text()
