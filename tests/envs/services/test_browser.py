"""Every app driven through a real Chromium (Debian's) in a phone and a desktop viewport.

Each flow uses the UI the way an agent would (role and label locators, so the accessible
names are tested too) and then checks the state evaluators read.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from reefbench.envs.services import ServicesEnvironment
from reefbench.envs.services import evaluators as ev
from reefbench.envs.services import seeding as s

pytestmark = pytest.mark.integration
playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

CHROMIUM = "/usr/bin/chromium"
VIEWPORTS: dict[str, dict[str, Any]] = {
    "phone": {
        "viewport": {"width": 412, "height": 915},
        "is_mobile": True,
        "has_touch": True,
        "device_scale_factor": 2,
    },
    "desktop": {"viewport": {"width": 1280, "height": 800}},
}


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as pw:
        launched = pw.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--no-first-run",
            ],
        )
        yield launched
        launched.close()


@pytest.fixture(params=list(VIEWPORTS))
def device(request: pytest.FixtureRequest, browser: Any) -> Iterator[Any]:
    """A fresh browser context in one viewport; not signed in."""
    context = browser.new_context(**VIEWPORTS[request.param])
    context.set_default_timeout(10_000)
    expect.set_options(timeout=10_000)
    yield context
    context.close()


@pytest.fixture
def page(device: Any, account: ServicesEnvironment) -> Any:
    """A signed-in page on a freshly reset account."""
    device.add_cookies([account.client.session_cookie()])
    return device.new_page()


def _ok(check: Any, account: ServicesEnvironment) -> bool:
    return bool(check.evaluate(account).success)


def test_login_flow_and_internal_api_is_closed(device: Any, account: ServicesEnvironment) -> None:
    page = device.new_page()
    page.goto(account.url + "/contacts")
    expect(page).to_have_url(account.url + "/login?next=%2Fcontacts")
    page.get_by_label("Username").fill("alex")
    page.get_by_label("Password").fill("wrong")
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("alert")).to_have_text("Wrong username or password.")
    page.get_by_label("Password").fill(account.password)
    page.get_by_role("button", name="Sign in").click()
    expect(page).to_have_url(account.url + "/contacts")
    expect(page.get_by_role("heading", name="Contacts")).to_be_visible()
    # The agent's browser, signed in or not, cannot use the internal API.
    response = page.request.get(account.url + "/internal/tables/mail")
    assert response.status == 401
    page.goto(account.url + "/")
    for name in ("Mail", "Calendar", "Contacts", "Tasks", "Notes", "Files", "Messages", "Maps"):
        expect(page.get_by_role("main").get_by_role("link", name=name)).to_be_visible()
    page.get_by_role("button", name="Sign out").click()
    page.goto(account.url + "/mail")
    expect(page).to_have_url(account.url + "/login?next=%2Fmail")


def test_mail_reply_forward_attach_search_delete(page: Any, account: ServicesEnvironment) -> None:
    s.add_mail(
        sender="john@x.test", subject="Trip", body="See the plan", attachments={"a.txt": "A"}
    ).run(account)
    s.add_file(path="Documents/plan.txt", content="the plan").run(account)
    replied = ev.mail_sent(to="john@x.test", subject="Re: Trip", body="Sounds good")
    assert not _ok(replied, account)
    page.goto(account.url + "/mail")
    page.get_by_role("link", name="Trip").click()
    expect(page.get_by_text("See the plan")).to_be_visible()
    page.get_by_role("link", name="Reply").click()
    expect(page.get_by_label("To", exact=True)).to_have_value("john@x.test")
    page.get_by_label("Message", exact=True).fill("Sounds good")
    page.get_by_role("button", name="Send").click()
    expect(page.get_by_role("status")).to_have_text("Message sent")
    assert _ok(replied, account)

    page.goto(account.url + "/mail")
    page.get_by_role("link", name="Compose").click()
    page.get_by_label("To", exact=True).fill("ann@x.test")
    page.get_by_label("Subject", exact=True).fill("The plan")
    page.get_by_label("Documents/plan.txt").check()
    page.get_by_role("button", name="Send").click()
    expect(page.get_by_role("status")).to_have_text("Message sent")
    assert _ok(ev.mail_sent(to="ann@x.test", subject="The plan", attachment="plan.txt"), account)

    page.goto(account.url + "/mail")
    page.get_by_role("link", name="Trip").click()
    page.get_by_role("link", name="Forward").first.click()
    page.get_by_label("To", exact=True).fill("bo@x.test")
    page.get_by_role("button", name="Send").click()
    assert _ok(ev.mail_sent(to="bo@x.test", subject="Fwd: Trip", attachment="a.txt"), account)

    page.goto(account.url + "/mail")
    page.get_by_role("searchbox", name="Search mail").fill("plan")
    page.get_by_role("button", name="Search").click()
    expect(page.get_by_role("list", name="Messages").get_by_role("listitem")).to_have_count(3)
    page.goto(account.url + "/mail")
    page.get_by_role("link", name="Trip").click()
    page.get_by_role("button", name="Delete message").first.click()
    expect(page.get_by_role("status")).to_have_text("Message moved to Trash")
    folders = {m["subject"]: m["folder"] for m in account.rows("mail")}
    assert folders["Trip"] == "trash"


def test_calendar_create_edit_delete(page: Any, account: ServicesEnvironment) -> None:
    check = ev.event_exists(title="Dentist", date="2024-06-12", time="09:30", place="High St")
    page.goto(account.url + "/calendar")
    expect(page.get_by_role("heading", name="June 2024")).to_be_visible()
    page.get_by_role("link", name="New event").click()
    page.get_by_label("Title", exact=True).fill("Dentist")
    page.get_by_label("Date", exact=True).fill("2024-06-12")
    page.get_by_label("Start time", exact=True).fill("09:30")
    page.get_by_label("End time", exact=True).fill("10:00")
    page.get_by_label("Place", exact=True).fill("1 High St")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("status")).to_have_text("Event saved")
    assert _ok(check, account)
    page.goto(account.url + "/calendar/week?d=2024-06-12")
    expect(page.get_by_role("link", name="Dentist, 09:30–10:00, at 1 High St")).to_be_visible()
    page.get_by_role("link", name="Dentist, 09:30–10:00, at 1 High St").click()
    page.get_by_role("link", name="Edit").click()
    page.get_by_label("Start time", exact=True).fill("11:00")
    page.get_by_label("End time", exact=True).fill("")
    page.get_by_role("button", name="Save").click()
    assert not _ok(check, account)
    assert _ok(ev.event_exists(title="Dentist", time="11:00"), account)
    page.goto(account.url + "/calendar/day?d=2024-06-12")
    page.get_by_role("link", name="Dentist").click()
    page.get_by_role("button", name="Delete event").click()
    expect(page.get_by_role("status")).to_have_text("Event deleted")
    assert account.rows("events") == []


def test_contacts_create_search_edit_delete(page: Any, account: ServicesEnvironment) -> None:
    page.goto(account.url + "/contacts")
    page.get_by_role("link", name="New contact").click()
    page.get_by_label("Name", exact=True).fill("John Lauphin")
    page.get_by_label("Phone", exact=True).fill("+1 555 0100")
    page.get_by_label("Email", exact=True).fill("john@x.test")
    page.get_by_label("Address", exact=True).fill("1 Main St, Springfield")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("heading", name="John Lauphin")).to_be_visible()
    assert _ok(ev.contact_has(name="John Lauphin", field="phone", value="15550100"), account)
    page.goto(account.url + "/contacts")
    page.get_by_role("searchbox", name="Search contacts").fill("laup")
    page.get_by_role("button", name="Search").click()
    page.get_by_role("link", name="John Lauphin").click()
    page.get_by_role("link", name="Edit").click()
    page.get_by_label("Email", exact=True).fill("jl@y.test")
    page.get_by_role("button", name="Save").click()
    assert _ok(ev.contact_has(name="John Lauphin", field="email", value="jl@y.test"), account)
    page.get_by_role("button", name="Delete contact").click()
    expect(page.get_by_role("status")).to_have_text("Contact deleted")
    assert not _ok(ev.contact_has(name="John Lauphin"), account)


def test_tasks_add_order_complete_move(page: Any, account: ServicesEnvironment) -> None:
    page.goto(account.url + "/tasks")
    for title in ("Pack", "Buy milk"):
        page.get_by_label("New task", exact=True).fill(title)
        page.get_by_role("button", name="Add task").click()
        expect(page.get_by_text(title, exact=True)).to_be_visible()
    page.get_by_label("Due date", exact=True).fill("2024-06-04")
    page.get_by_label("New task", exact=True).fill("Call mum")
    page.get_by_role("button", name="Add task").click()
    assert _ok(ev.task_exists(title="Call mum", list_name="My Tasks", due="2024-06-04"), account)
    page.get_by_role("button", name="Move “Call mum” up").click()
    expect(page.get_by_role("button", name="Move “Pack” up")).to_have_count(0)
    order = sorted(account.rows("tasks"), key=lambda t: t["position"])
    assert [t["title"] for t in order] == ["Pack", "Call mum", "Buy milk"]
    page.get_by_role("button", name="Mark “Buy milk” complete").click()
    assert _ok(ev.task_completed(title="Buy milk"), account)
    page.get_by_role("button", name="Mark “Buy milk” not complete").click()
    assert _ok(ev.task_completed(title="Buy milk", completed=False), account)
    page.get_by_label("New list").fill("Trip")
    page.get_by_role("button", name="Create list").click()
    expect(page.get_by_role("heading", name="Trip")).to_be_visible()
    page.get_by_role("link", name="My Tasks").click()
    page.get_by_role("link", name="Edit “Pack”").click()
    page.get_by_label("List", exact=True).select_option(label="Trip")
    page.get_by_role("button", name="Save").click()
    assert _ok(ev.task_exists(title="Pack", list_name="Trip"), account)
    page.get_by_role("button", name="Delete “Pack”").click()
    assert not _ok(ev.task_exists(title="Pack"), account)


def test_notes_checklist_and_text(page: Any, account: ServicesEnvironment) -> None:
    page.goto(account.url + "/notes")
    page.get_by_role("link", name="New list").click()
    page.get_by_label("Title", exact=True).fill("Packing")
    page.get_by_label("List items (one per line)").fill("passport\ntickets")
    page.get_by_role("button", name="Save").click()
    page.get_by_role("checkbox", name="Check “tickets”").click()
    expect(page.get_by_role("checkbox", name="Uncheck “tickets”")).to_be_checked()
    page.get_by_label("New list item").fill("charger")
    page.get_by_role("button", name="Add item").click()
    assert _ok(ev.note_contains(title="Packing", text="charger"), account)
    assert [i["checked"] for i in account.rows("note_items")] == [0, 1, 0]
    page.goto(account.url + "/notes")
    page.get_by_role("link", name="New note").click()
    page.get_by_label("Note", exact=True).fill("Door code 4711")
    page.get_by_role("button", name="Save").click()
    page.get_by_label("Note", exact=True).fill("Door code 1234")
    page.get_by_role("button", name="Save").click()
    assert _ok(ev.note_contains(text="code 1234"), account)
    page.get_by_role("button", name="Delete note").click()
    assert not _ok(ev.note_contains(text="code 1234"), account)


def test_files_folder_upload_rename_share_download(page: Any, account: ServicesEnvironment) -> None:
    page.goto(account.url + "/files")
    page.get_by_label("New folder name").fill("Reports")
    page.get_by_role("button", name="Create folder").click()
    page.get_by_label("Choose files").set_input_files(
        {"name": "q2.txt", "mimeType": "text/plain", "buffer": b"revenue up"}
    )
    page.get_by_role("button", name="Upload", exact=True).click()
    expect(page.get_by_role("status")).to_have_text("Uploaded 1 file(s)")
    page.get_by_role("link", name="q2.txt").click()
    page.get_by_role("link", name="Rename or move").click()
    page.get_by_label("Name", exact=True).fill("q2-report.txt")
    page.get_by_label("Folder", exact=True).select_option(label="Reports")
    page.get_by_role("button", name="Save").click()
    check = ev.file_in_folder(name="q2-report.txt", folder="Reports", content="revenue")
    assert _ok(check, account)
    page.get_by_role("link", name="q2-report.txt").click()
    with page.expect_download() as download:
        page.get_by_role("link", name="Download").click()
    assert download.value.suggested_filename == "q2-report.txt"
    page.get_by_role("button", name="Get share link").click()
    link = page.get_by_label("Share link").input_value()
    assert _ok(ev.file_shared(path="Reports/q2-report.txt"), account)
    assert page.context.browser.new_context().request.get(link).body() == b"revenue up"
    page.get_by_role("button", name="Delete file").click()
    assert not _ok(check, account)


def test_messages_thread_and_new_chat(page: Any, account: ServicesEnvironment) -> None:
    s.add_contact(name="Mia", phone="+44 7700 900123").run(account)
    s.add_message(contact="Mia", text="Dinner at 8?").run(account)
    page.goto(account.url + "/messages")
    page.get_by_role("link", name="Mia").click()
    expect(page.get_by_role("log")).to_contain_text("Dinner at 8?")
    page.get_by_label("Text message").fill("Yes, see you there")
    page.get_by_role("button", name="Send").click()
    assert _ok(ev.message_sent(to="Mia", text="see you there"), account)
    page.goto(account.url + "/messages/new")
    page.get_by_label("To (name or phone number)").fill("+1 555 0199")
    page.get_by_label("Message", exact=True).fill("Hello stranger")
    page.get_by_role("button", name="Send").click()
    expect(page.get_by_role("heading", name="+1 555 0199")).to_be_visible()
    assert _ok(ev.message_sent(to="15550199", text="hello stranger"), account)


def test_maps_search_and_directions(page: Any, account: ServicesEnvironment) -> None:
    page.goto(account.url + "/maps")
    page.get_by_role("searchbox").fill("Paris")
    page.get_by_role("button", name="Search").click()
    page.get_by_role("link", name="Paris").first.click()
    expect(page.get_by_role("heading", name="Paris, France")).to_be_visible()
    page.get_by_role("link", name="Directions to here").click()
    page.get_by_label("Start location", exact=True).fill("London")
    page.get_by_label("Walking").check()
    page.get_by_role("button", name="Get directions").click()
    expect(page.get_by_label("Start location, London, United Kingdom")).to_be_visible()
    expect(page.get_by_label("Destination, Paris, France")).to_be_visible()
    assert _ok(
        ev.directions_requested(origin="London", destination="Paris", mode="walking"), account
    )
    distance = page.get_by_label("Distance", exact=False).inner_text()
    page.reload()
    assert page.get_by_label("Distance", exact=False).inner_text() == distance == "412.5 km"


def test_clock_alarm_timer_world(page: Any, account: ServicesEnvironment) -> None:
    page.goto(account.url + "/clock")
    page.get_by_label("Alarm time").fill("06:45")
    page.get_by_label("Label", exact=True).fill("Flight")
    page.get_by_label("Mon", exact=True).check()
    page.get_by_role("button", name="Set alarm").click()
    assert _ok(ev.alarm_set(time="06:45", label="Flight"), account)
    assert account.rows("alarms")[0]["days"] == "Mon"
    page.get_by_role("button", name="Turn off alarm 06:45").click()
    assert _ok(ev.alarm_set(time="06:45", enabled=False), account)
    page.get_by_role("link", name="Timers").click()
    page.get_by_label("Minutes", exact=True).fill("5")
    page.get_by_role("button", name="Start timer").click()
    expect(page.get_by_text("0:05:00")).to_be_visible()
    assert _ok(ev.timer_set(seconds=300), account)
    page.get_by_role("link", name="World clock").click()
    page.get_by_label("Add city").fill("Tokyo")
    page.get_by_role("button", name="Add city").click()
    # Account clock: 09:00 in London (BST) is 17:00 in Tokyo, every run.
    expect(page.get_by_role("list", name="World clocks")).to_contain_text("17:00")
    assert _ok(ev.world_clock_added(city="Tokyo"), account)


def test_settings_change_theme_and_clock(page: Any, account: ServicesEnvironment) -> None:
    s.set_now(now="2025-02-10T14:05").run(account)
    page.goto(account.url + "/settings")
    expect(page.get_by_label("Current date and time")).to_have_text("Mon 10 Feb 2025, 14:05")
    page.get_by_label("Theme", exact=True).select_option("dark")
    page.get_by_label("Time format", exact=True).select_option("12h")
    page.get_by_role("button", name="Save settings").click()
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    expect(page.get_by_label("Current date and time")).to_have_text("Mon 10 Feb 2025, 02:05 PM")
    assert _ok(ev.setting_equals(key="theme", value="dark"), account)


def test_reset_restores_what_the_ui_changed(device: Any) -> None:
    with ServicesEnvironment(seed=[s.add_contact(name="Seed")]) as seeded:
        device.add_cookies([seeded.client.session_cookie()])
        page = device.new_page()
        page.goto(seeded.url + "/contacts/new")
        page.get_by_label("Name", exact=True).fill("Typed In")
        page.get_by_role("button", name="Save").click()
        expect(page.get_by_role("heading", name="Typed In")).to_be_visible()
        seeded.reset()
        page.goto(seeded.url + "/contacts")
        contacts = page.get_by_role("list", name="Contacts").get_by_role("link")
        expect(contacts).to_have_text(["Seed"])


def test_a_device_that_signs_in_again_keeps_its_identity(
    device: Any, account: ServicesEnvironment
) -> None:
    """What the phone and the browser devices do (envs/browser, envs/phone): their context
    sends the device's key, so a sign-in through the login form is still that device, and
    its changes are attributed to it."""
    device.set_extra_http_headers(account.client_headers("phone"))
    page = device.new_page()
    page.goto(account.url + "/contacts/new")
    page.get_by_label("Username").fill("alex")
    page.get_by_label("Password").fill(account.password)
    page.get_by_role("button", name="Sign in").click()
    page.get_by_label("Name").fill("Ana Ruiz")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("heading", name="Ana Ruiz")).to_be_visible()
    assert _ok(ev.contact_has(name="Ana Ruiz", by="phone"), account)
    assert not _ok(ev.contact_has(name="Ana Ruiz", by="browser"), account)
    clients = {(c["tbl"], c["client"]) for c in account.rows("changes")}
    assert clients == {("contacts", "phone")}
