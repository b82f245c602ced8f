"""Waiting until a page has settled after an action, without fixed sleeps.

A page has settled when, with a deadline:

* no request of the context is in flight (a navigation, a fetch, an image), ignoring
  requests older than ``long_request`` seconds (streams, long polls); a page's own
  ``fetch()`` counts from the call, as the init script sees it, since the browser reports
  the request to the harness a moment later (after a probe that found the page quiet);
* every frame readable from the top (same origin) has finished loading (a frame given a
  ``src`` that still shows its initial about:blank is loading);
* no click on a link or form submission is waiting for its navigation to start (the init
  script notes them as they happen, which closes the gap between a click returning and
  the browser issuing the request), and no page script has announced that a navigation
  is coming (``window.__reef.busy = Date.now()``, for pages that navigate from script);
* the DOM of those frames has not changed for ``quiet`` seconds (a MutationObserver).
"""

from __future__ import annotations

import time
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext, Page, Request

JS_DIR = Path(__file__).with_name("js")


@cache
def script(name: str) -> str:
    """A JavaScript file of this package (kept as .js so it reads and lints as code)."""
    return (JS_DIR / name).read_text(encoding="utf-8")


# Installed in every frame of a context before any page script runs.
INIT_SCRIPT = script("settle_init.js")

# Evaluated in the top frame: {ready, quiet (ms), nav}.
_PROBE = script("settle_probe.js")
# Download links clicked in the top frame since the last call (the count is taken).
TAKE_DOWNLOAD_CLICKS = (
    "() => { const s = window.__reef; const n = s ? s.downloads : 0; "
    "if (s) s.downloads = 0; return n; }"
)


class RequestTracker:
    """Requests of a context that started and have not finished or failed yet."""

    def __init__(self, context: BrowserContext) -> None:
        self._open: dict[int, float] = {}
        context.on("request", self._started)
        context.on("requestfinished", self._ended)
        context.on("requestfailed", self._ended)

    def _started(self, request: Request) -> None:
        self._open[id(request)] = time.monotonic()

    def _ended(self, request: Request) -> None:
        self._open.pop(id(request), None)

    def idle(self, long_request: float) -> bool:
        cutoff = time.monotonic() - long_request
        return all(started < cutoff for started in self._open.values())

    def clear(self) -> None:
        self._open.clear()


def settle(
    page: Page,
    tracker: RequestTracker | None,
    *,
    quiet: float = 0.05,
    timeout: float = 5.0,
    nav_grace: float = 1.0,
    long_request: float = 2.0,
    poll: float = 0.01,
) -> bool:
    """Wait until ``page`` has settled (see the module docstring); ``False`` on timeout.

    Polls with a deadline: each round asks the page for its state, and the wait between
    rounds lets Playwright deliver the request events.
    """
    deadline = time.monotonic() + timeout
    quiet_ms = quiet * 1000
    while True:
        state: dict[str, Any] | None
        try:
            state = page.evaluate(_PROBE, [nav_grace * 1000, long_request * 1000])
        except Exception:  # the top document is being replaced: not settled yet
            state = None
        if (
            state is not None
            and state["ready"]
            and not state["nav"]
            and state["quiet"] >= quiet_ms
            and (tracker is None or tracker.idle(long_request))
        ):
            return True
        if time.monotonic() >= deadline:
            return False
        wait = quiet_ms - state["quiet"] if state and state["quiet"] < quiet_ms else poll * 1000
        page.wait_for_timeout(max(poll * 1000, min(wait, 100)))


# Scroll events seen by the top frame and the same-origin frames inside it.
SCROLL_COUNT = script("scroll_count.js")


def wait_for_scroll(page: Page, before: int, timeout: float = 1.0) -> bool:
    """Wait until a scroll event follows a wheel or swipe (they scroll asynchronously);
    ``False`` when nothing scrolled within ``timeout`` (already at the end)."""
    try:
        page.wait_for_function(
            f"(n) => ({SCROLL_COUNT})() > n", arg=before, timeout=timeout * 1000, polling="raf"
        )
    except Exception:
        return False
    return True
