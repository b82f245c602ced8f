"""The Gallery over real HTTP: albums in Files, the camera, edits and copies, attributed
to the client whose session made them; its checkpoints compare pixels."""

from __future__ import annotations

import http.cookiejar
import urllib.error
import urllib.parse
import urllib.request

import pytest

from reefbench.envs.services import ServicesEnvironment, photos
from reefbench.envs.services import evaluators as aev
from reefbench.envs.services import seeding as sd
from reefbench.envs.services.attribution import BROWSER, PHONE
from reefbench.errors import ActionFailed

pytestmark = pytest.mark.integration


class Device:
    """A signed-in client of the account (the phone's or the desktop browser's session)."""

    def __init__(self, account: ServicesEnvironment, client: str) -> None:
        cookie = account.session_cookie(client)
        jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        self.opener.addheaders = [("Cookie", f"{cookie['name']}={cookie['value']}")]
        self.url = account.url

    def get(self, path: str) -> tuple[str, bytes]:
        with self.opener.open(self.url + path) as page:
            return str(page.url), page.read()

    def post(self, path: str, **form: str) -> tuple[str, bytes]:
        data = urllib.parse.urlencode(form).encode()
        with self.opener.open(self.url + path, data) as page:
            return str(page.url), page.read()


def _id_of(account: ServicesEnvironment, path: str) -> int:
    rows = {r["id"]: r for r in account.rows("files")}

    def full(row: dict[str, object]) -> str:
        parts = [str(row["name"])]
        while row["parent_id"] is not None:
            row = rows[row["parent_id"]]
            parts.append(str(row["name"]))
        return "/".join(reversed(parts))

    return next(i for i, r in rows.items() if full(r) == path)


def test_albums_are_folders_of_photos_and_the_camera_draws_its_scene(
    account: ServicesEnvironment,
) -> None:
    sd.add_photo(album="Trip", name="IMG_0001.png", caption="Gate 27").run(account)
    sd.set_camera_scene(caption="Plate KX 6291", colour="red", shape="square").run(account)
    phone = Device(account, PHONE)
    _, albums = phone.get("/gallery")
    assert b">Trip</a>" in albums and b"1 photo<" in albums
    url, page = phone.post("/gallery/camera")
    assert url.split("?")[0].endswith(
        f"/gallery/photo/{_id_of(account, 'Photos/Camera/IMG_0001.png')}"
    )
    assert b"Photo taken" in page
    sd.set_camera_scene(caption="Plate KX 6219", colour="red", shape="square").run(account)
    phone.post("/gallery/camera")  # the next shot gets the next number
    first = aev.photo_at(
        path="Photos/Camera/IMG_0001.png", caption="Plate KX 6291", colour="red", shape="square"
    )
    assert first.evaluate(account).success
    by_phone = aev.photo_at(
        path="Photos/Camera/IMG_0001.png",
        caption="Plate KX 6291",
        colour="red",
        shape="square",
        by=PHONE,
    )
    assert by_phone.evaluate(account).success
    in_browser = aev.photo_at(
        path="Photos/Camera/IMG_0001.png",
        caption="Plate KX 6291",
        colour="red",
        shape="square",
        by=BROWSER,
    ).evaluate(account)
    assert not in_browser.success and "made in the desktop browser" in in_browser.message
    second = aev.photo_at(
        path="Photos/Camera/IMG_0002.png", caption="Plate KX 6291", colour="red", shape="square"
    ).evaluate(account)
    assert not second.success and "the photo of 'Plate KX 6291'" in second.message


def test_edits_and_copies_are_checked_by_pixels(account: ServicesEnvironment) -> None:
    sd.add_photo(
        album="Receipts",
        name="IMG_0412.png",
        caption="Cafe Blue 17.35",
        colour="teal",
        edits=["rotate_left"],
    ).run(account)
    upright = aev.photo_at(
        path="Photos/Receipts/IMG_0412.png", caption="Cafe Blue 17.35", colour="teal"
    )
    assert not upright.evaluate(account).success  # stored sideways
    browser = Device(account, BROWSER)
    photo = _id_of(account, "Photos/Receipts/IMG_0412.png")
    browser.post(f"/gallery/photo/{photo}/edit", edit="rotate_right")
    assert upright.evaluate(account).success
    sd.add_folder(path="Documents/Scans").run(account)
    url, _ = browser.post(
        f"/gallery/photo/{photo}/save", folder="My Drive/Documents/Scans", name="cafe.png"
    )
    assert "/files/" in url
    copy = aev.photo_at(
        path="Documents/Scans/cafe.png", caption="Cafe Blue 17.35", colour="teal", by=BROWSER
    )
    assert copy.evaluate(account).success
    # Without a folder or a name, the copy keeps both (and refuses to overwrite the photo).
    with pytest.raises(urllib.error.HTTPError) as clash:
        browser.post(f"/gallery/photo/{photo}/save")
    assert clash.value.code == 400 and b"already an item called" in clash.value.read()
    with pytest.raises(urllib.error.HTTPError) as missing:
        browser.post(f"/gallery/photo/{photo}/save", folder="Nowhere")
    assert b"there is no folder" in missing.value.read()
    with pytest.raises(urllib.error.HTTPError) as bad:
        browser.post(f"/gallery/photo/{photo}/edit", edit="crop")
    assert b"unknown edit" in bad.value.read()


def test_a_mailed_photo_is_recognised_by_its_picture(account: ServicesEnvironment) -> None:
    sd.add_photo(album="Trip", name="IMG_0851.png", caption="Gate 27 at 07:45").run(account)
    sd.add_photo(album="Trip", name="IMG_0852.png", caption="Gate 72 at 07:45").run(account)
    phone = Device(account, PHONE)
    lookalike = _id_of(account, "Photos/Trip/IMG_0852.png")
    phone.post(
        "/mail/send", to="ana.ruiz@example.com", subject="Gate", body="", attach=str(lookalike)
    )
    check = aev.photo_mailed(
        to="ana.ruiz@example.com", caption="Gate 27 at 07:45", subject="Gate", by=PHONE
    )
    result = check.evaluate(account)
    assert not result.success and "the photo of 'Gate 27 at 07:45' attached" in result.message
    # The Gallery's share sheet mails the photo as it is now, and returns to it.
    right = _id_of(account, "Photos/Trip/IMG_0851.png")
    url, page = phone.post(
        f"/gallery/photo/{right}/share", to="ana.ruiz@example.com", subject="Gate", body="see"
    )
    assert url.split("?")[0].endswith(f"/gallery/photo/{right}") and b"Mail sent" in page
    assert check.evaluate(account).success
    with_text = aev.photo_mailed(
        to="ana.ruiz@example.com", caption="Gate 27 at 07:45", body="not this", by=PHONE
    ).evaluate(account)
    assert not with_text.success and "body contains 'not this'" in with_text.message


def test_bad_seeds_are_one_line_action_failures(account: ServicesEnvironment) -> None:
    with pytest.raises(ActionFailed, match=r"photo names end in \.png"):
        sd.add_photo(album="Trip", name="x.jpg", caption="x").run(account)
    with pytest.raises(ActionFailed, match="unknown colour"):
        sd.set_camera_scene(caption="x", colour="pink").run(account)
    assert photos.SIZE == (320, 240)
