"""The computer's browser moves files to and from the computer's desktop: downloads are
saved in its Downloads folder and a page's file chooser picks one of its files, on real
Chromium against a small local site."""

from __future__ import annotations

import http.server
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest

pytest.importorskip("playwright")
pytestmark = pytest.mark.integration

from reefbench.envs.browser import BrowserEnvironment  # noqa: E402
from reefbench.envs.filetransfer import ComputerFiles, store_download  # noqa: E402
from reefbench.errors import ActionFailed  # noqa: E402

PHOTO = b"\x89PNG\r\n\x1a\n not really a picture, but bytes that must arrive unchanged"
PAGE = """<!doctype html><title>Photo</title>
<h1>IMG_0004.png</h1>
<a href="/photo" download>Download</a>
<a href="/photo" download onclick="event.preventDefault()">Cancelled</a>
<a href="/elsewhere">Elsewhere</a>
<form method="post" action="/upload" enctype="multipart/form-data">
  <label for="file">Choose files</label><input id="file" name="file" type="file">
  <button type="submit">Upload</button>
</form>"""


class Handler(http.server.BaseHTTPRequestHandler):
    received: ClassVar[list[bytes]] = []

    def do_GET(self) -> None:
        if self.path == "/photo":
            self._send(PHOTO, "image/png", 'attachment; filename="IMG_0004.png"')
        else:
            self._send(PAGE.encode(), "text/html; charset=utf-8")

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        Handler.received.append(body)
        self._send(b"<!doctype html><title>Uploaded</title><p>Uploaded</p>", "text/html")

    def _send(self, body: bytes, kind: str, disposition: str = "") -> None:
        self.send_response(200)
        self.send_header("Content-Type", kind)
        if disposition:
            self.send_header("Content-Disposition", disposition)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


class Computer:
    """A computer's files like the desktop's, in temporary directories."""

    files_description = "the test's folders"

    def __init__(self, root: Path) -> None:
        self.downloads = root / "Downloads"
        self.home = root / "home"
        self.home.mkdir()

    def receive_download(self, name: str, source: Path) -> str:
        return store_download(self.downloads, name, source).name

    def file_to_upload(self, path: str) -> Path:
        target = self.home / path.removeprefix("~/")
        if not target.is_file():
            raise ActionFailed(f"there is no file {path!r}")
        return target


@pytest.fixture(scope="module")
def site(serve_site: Any) -> Iterator[str]:
    with serve_site(Handler) as url:
        yield url


@pytest.fixture(scope="module")
def computer(tmp_path_factory: pytest.TempPathFactory) -> Computer:
    return Computer(tmp_path_factory.mktemp("computer"))


@pytest.fixture(scope="module")
def module_browser(site: str, computer: Computer) -> Iterator[BrowserEnvironment]:
    env = BrowserEnvironment(start_url=site + "/", computer=computer)
    env.start()
    yield env
    env.stop()


@pytest.fixture
def browser(module_browser: BrowserEnvironment, computer: Computer) -> BrowserEnvironment:
    if computer.downloads.exists():
        for old in computer.downloads.iterdir():
            old.unlink()
    Handler.received.clear()
    module_browser.reset(action_set="a11y")  # elements by name, as the suite's solutions
    return module_browser


def test_the_computer_satisfies_the_protocol(computer: Computer) -> None:
    assert isinstance(computer, ComputerFiles)


def test_a_download_is_in_the_folder_when_the_click_returns(
    browser: BrowserEnvironment, computer: Computer
) -> None:
    said = browser.step("click_on", {"name": "Download"})
    # Saved before the action returned, and the agent is told where (no download bar).
    assert (computer.downloads / "IMG_0004.png").read_bytes() == PHOTO
    assert said.endswith("; downloaded IMG_0004.png")
    again = browser.step("click_on", {"name": "Download"})
    assert again.endswith("; downloaded IMG_0004 (1).png")
    saved = sorted(p.name for p in computer.downloads.iterdir())
    assert saved == ["IMG_0004 (1).png", "IMG_0004.png"]


def test_a_cancelled_download_link_and_a_plain_link_download_nothing(
    browser: BrowserEnvironment, computer: Computer
) -> None:
    assert browser.step("click_on", {"name": "Cancelled"}).endswith('"Cancelled"')
    browser.step("click_on", {"name": "Elsewhere"})
    assert not computer.downloads.exists() or list(computer.downloads.iterdir()) == []


def test_a_file_chooser_picks_the_computers_file_and_the_form_uploads_it(
    browser: BrowserEnvironment, computer: Computer
) -> None:
    (computer.home / "edited.jpg").write_bytes(b"the edited photo")
    with pytest.raises(ActionFailed, match="no file chooser is open"):
        browser.step("choose_file", {"path": "~/edited.jpg"})
    browser.step("click_on", {"name": "Choose files"})
    assert "A file chooser is open" in browser.tabs_text()
    with pytest.raises(ActionFailed, match=r"there is no file '~/missing\.jpg'"):
        browser.step("choose_file", {"path": "~/missing.jpg"})
    assert browser.step("choose_file", {"path": "~/edited.jpg"}) == "chose ~/edited.jpg"
    assert "A file chooser is open" not in browser.tabs_text()
    browser.step("click_on", {"name": "Upload"})
    assert browser.page.title() == "Uploaded"
    (body,) = Handler.received
    assert b'filename="edited.jpg"' in body and b"the edited photo" in body


def test_the_description_and_the_actions_follow_the_computer(
    browser: BrowserEnvironment,
) -> None:
    assert "It is the computer's browser: the test's folders." in browser.description
    assert "choose_file" in browser.action_space
    alone = BrowserEnvironment()
    assert "computer's browser" not in alone.description
    assert "choose_file" not in alone.action_space
