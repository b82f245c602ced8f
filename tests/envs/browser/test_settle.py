"""The page settle on real Chromium: a page's own fetch counts as work in flight from
the moment the page calls it, before the browser reports the request to the harness; a
frame a script has just added still loads while it shows its first, empty document."""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator
from typing import Any, ClassVar

import pytest

pytest.importorskip("playwright")
pytestmark = pytest.mark.integration

from reefbench.envs.browser import BrowserEnvironment  # noqa: E402
from reefbench.envs.browser.settle import settle  # noqa: E402

PAGE = b"""<!doctype html><title>Settings</title>
<label for="dnd">Do not disturb</label><input type="checkbox" role="switch" id="dnd" checked>
<script>
document.getElementById('dnd').addEventListener('change', (e) =>
  fetch('/save', {method: 'POST', body: String(e.target.checked)}));
</script>"""


class Handler(http.server.BaseHTTPRequestHandler):
    """Answers ``/save`` only once the test lets it (``release``), like a slow server."""

    release: ClassVar[threading.Event] = threading.Event()
    saved: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        if self.path == "/slow":
            self.release.wait(10)
            self._answer(b"<!doctype html><title>Tasks</title><p>Water the plants", "text/html")
            return
        self._answer(PAGE, "text/html")

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"])).decode()
        self.release.wait(10)
        self.saved.append(body)
        self._answer(b"{}", "application/json")

    def _answer(self, body: bytes, kind: str) -> None:
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def browser(serve_site: Any) -> Iterator[BrowserEnvironment]:
    Handler.release.clear()
    Handler.saved.clear()
    with serve_site(Handler) as url:
        env = BrowserEnvironment(start_url=url + "/")
        env.start()
        env.reset()
        try:
            yield env
        finally:
            Handler.release.set()
            env.stop()


def test_a_pages_fetch_keeps_it_unsettled_until_answered(browser: BrowserEnvironment) -> None:
    page = browser.page
    page.click("#dnd")
    # No request tracker: only the page's own count can tell the switch's save is on its
    # way (the DOM does not change when a checkbox is ticked).
    assert not settle(page, None, quiet=0.05, timeout=0.5)
    Handler.release.set()
    assert settle(page, None, quiet=0.05, timeout=5.0)
    assert Handler.saved == ["false"]


def test_a_fetch_older_than_the_long_request_limit_does_not_hold_the_settle(
    browser: BrowserEnvironment,
) -> None:
    page = browser.page
    page.click("#dnd")
    # A long poll: unanswered, but past ``long_request`` it no longer counts.
    assert settle(page, None, quiet=0.05, timeout=5.0, long_request=0.2)
    assert Handler.saved == []


def test_a_frame_a_script_adds_keeps_the_page_unsettled_until_its_document_loads(
    browser: BrowserEnvironment,
) -> None:
    """The phone opens an app so: an iframe appended with a ``src``. Until the request
    answers, the frame holds Chromium's initial about:blank, whose readyState is already
    "complete" (a CI run observed the Tasks app's empty frame under load)."""
    page = browser.page
    page.evaluate(
        "() => { const f = document.createElement('iframe'); f.src = '/slow';"
        " document.body.appendChild(f); }"
    )
    assert not settle(page, None, quiet=0.05, timeout=0.5)
    Handler.release.set()
    assert settle(page, None, quiet=0.05, timeout=5.0)
    assert "Water the plants" in page.frames[1].content()
