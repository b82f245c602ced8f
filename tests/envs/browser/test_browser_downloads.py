"""The computer's browser saves what it downloads into another device's folder (the
desktop's ~/Downloads in reef's world), on real Chromium against a small local site."""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("playwright")
pytestmark = pytest.mark.integration

from reefbench.envs.browser import BrowserEnvironment  # noqa: E402
from reefbench.envs.downloads import DownloadFolder, store_download  # noqa: E402

PHOTO = b"\x89PNG\r\n\x1a\n not really a picture, but bytes that must arrive unchanged"
PAGE = """<!doctype html><title>Photo</title>
<h1>IMG_0004.png</h1>
<a href="/photo" download>Download</a>
<a href="/photo" download onclick="event.preventDefault()">Cancelled</a>
<a href="/elsewhere">Elsewhere</a>"""


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        if self.path == "/photo":
            body, kind = PHOTO, "image/png"
            disposition = 'attachment; filename="IMG_0004.png"'
        else:
            body, kind, disposition = PAGE.encode(), "text/html; charset=utf-8", ""
        self.send_response(200)
        self.send_header("Content-Type", kind)
        if disposition:
            self.send_header("Content-Disposition", disposition)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


class Folder:
    """A download folder like the desktop's, in a temporary directory."""

    downloads_description = "the test's folder"

    def __init__(self, path: Path) -> None:
        self.path = path

    def receive_download(self, name: str, source: Path) -> str:
        return store_download(self.path, name, source).name


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Folder:
    return Folder(tmp_path_factory.mktemp("downloads"))


@pytest.fixture(scope="module")
def module_browser(site: str, folder: Folder) -> Iterator[BrowserEnvironment]:
    env = BrowserEnvironment(start_url=site + "/", downloads=folder)
    env.start()
    yield env
    env.stop()


@pytest.fixture
def browser(module_browser: BrowserEnvironment, folder: Folder) -> BrowserEnvironment:
    for old in folder.path.iterdir():
        old.unlink()
    module_browser.reset()
    return module_browser


def mark(env: BrowserEnvironment, name: str) -> int:
    snapshot = env.observe_now()
    found = next((m for m in snapshot.marks.marks if m.name == name), None)
    assert found is not None, snapshot.marks.text()
    return found.id


def test_the_folder_satisfies_the_protocol(folder: Folder) -> None:
    assert isinstance(folder, DownloadFolder)


def test_a_download_is_in_the_folder_when_the_click_returns(
    browser: BrowserEnvironment, folder: Folder
) -> None:
    said = browser.step("click", {"elem": mark(browser, "Download")})
    # Saved before the action returned, and the agent is told where (no download bar).
    assert (folder.path / "IMG_0004.png").read_bytes() == PHOTO
    assert said.endswith("; downloaded IMG_0004.png")
    again = browser.step("click", {"elem": mark(browser, "Download")})
    assert again.endswith("; downloaded IMG_0004 (1).png")
    assert sorted(p.name for p in folder.path.iterdir()) == ["IMG_0004 (1).png", "IMG_0004.png"]


def test_a_cancelled_download_link_and_a_plain_link_download_nothing(
    browser: BrowserEnvironment, folder: Folder
) -> None:
    assert browser.step("click", {"elem": mark(browser, "Cancelled")}).endswith('"Cancelled"')
    browser.step("click", {"elem": mark(browser, "Elsewhere")})
    assert list(folder.path.iterdir()) == []


def test_the_description_says_where_downloads_go(browser: BrowserEnvironment) -> None:
    assert "A file it downloads is saved in the test's folder." in browser.description
    assert "downloads" not in BrowserEnvironment().description
