"""The mail app with a world loaded, in a real Chromium (Debian's) as a phone and a desktop:
the folder tabs list Archive and the user's own folders, and a thread shows its attachments
by name and size."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from reefbench.envs.services import ServicesEnvironment
from reefbench.envs.services.seeding import load_world

pytestmark = pytest.mark.integration
playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

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
            executable_path="/usr/bin/chromium",
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--no-first-run"],
        )
        yield launched
        launched.close()


@pytest.fixture(params=list(VIEWPORTS))
def page(request: pytest.FixtureRequest, browser: Any, account: ServicesEnvironment) -> Any:
    load_world(seed=7).run(account)
    context = browser.new_context(**VIEWPORTS[request.param])
    context.set_default_timeout(10_000)
    expect.set_options(timeout=10_000)
    context.add_cookies([account.client.session_cookie()])
    yield context.new_page()
    context.close()


def test_folders_are_listed_and_hold_their_mail(page: Any, account: ServicesEnvironment) -> None:
    page.goto(account.url + "/mail")
    tabs = page.get_by_role("navigation", name="Mail folders")
    for name in ("Sent", "Archive", "Receipts", "Travel", "Trash"):
        expect(tabs.get_by_role("link", name=name, exact=True)).to_be_visible()
    tabs.get_by_role("link", name="Receipts", exact=True).click()
    expect(page.get_by_role("heading", name="Receipts")).to_be_visible()
    receipts = [m for m in account.rows("mail") if m["folder"] == "Receipts"]
    expect(page.get_by_role("list", name="Messages").get_by_role("listitem")).to_have_count(
        len(receipts)
    )


def test_a_thread_shows_its_attachments(page: Any, account: ServicesEnvironment) -> None:
    invoice = next(m for m in account.rows("mail") if m["subject"].startswith("Your invoice"))
    attachment = next(a for a in account.rows("attachments") if a["mail_id"] == invoice["id"])
    page.goto(f"{account.url}/mail/{invoice['id']}")
    listed = page.get_by_role("list", name="Attachments")
    expect(listed).to_contain_text(attachment["name"])
    expect(listed).to_contain_text(f"{len(attachment['content'])} bytes")
    with page.expect_download() as download:
        listed.get_by_role("link", name=f"Download {attachment['name']}").click()
    assert download.value.suggested_filename == attachment["name"]


def test_a_contact_shows_and_keeps_its_work_details(
    page: Any, account: ServicesEnvironment
) -> None:
    person = next(c for c in account.rows("contacts") if c["work_phone"] and c["work_email"])
    page.goto(f"{account.url}/contacts?q={person['work_email']}")
    page.get_by_role("link", name=person["name"]).click()
    expect(page.get_by_label("Work phone")).to_have_text(person["work_phone"])
    expect(page.get_by_label("Work email")).to_have_text(person["work_email"])
    page.get_by_role("link", name="Edit").click()
    page.get_by_label("Company").fill("Reef Labs")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_label("Company")).to_have_text("Reef Labs")
    saved = next(c for c in account.rows("contacts") if c["id"] == person["id"])
    assert (saved["work_phone"], saved["work_email"], saved["work_address"]) == (
        person["work_phone"],
        person["work_email"],
        person["work_address"],
    )
