"""A real ``reef play`` session for the page tests: a task's devices started, the page
served on loopback behind its token, and Chromium (Playwright's sync API) on the page.

:class:`Player` acts as a person does: it finds an element on a device's screenshot (where
the device says the element is, in screenshot pixels, as a person sees it), clicks that
point of the view on the page, types on the focused view, and waits for the page to show
the new turn (a condition with a deadline, never a sleep).
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from reefbench.envs.chromium import chromium_executable
from reefbench.play.server import create_app
from reefbench.play.session import PlaySession
from reefbench.plumbing.net import ServedApp

TURN_TIMEOUT_MS = 60_000


class Player:
    """A person on the page of a started session."""

    def __init__(self, session: PlaySession, page: Any, url: str) -> None:
        self.session = session
        self.page = page
        self.url = url
        self.played: list[tuple[str, int, int]] = []  # (env, x, y) clicked, in screenshot px

    def version(self) -> int:
        return int(self.page.evaluate("document.body.dataset.version || '0'"))

    def timings(self) -> list[dict[str, float]]:
        result: list[dict[str, float]] = self.page.evaluate("window.reefTimings")
        return result

    def wait_turn(self, before: int, timings: int | None = None) -> None:
        """Until the page shows a turn after ``before`` (and, if given, more than
        ``timings`` refreshed views have loaded)."""
        self.page.wait_for_function(
            "v => Number(document.body.dataset.version) > v"
            " || document.body.dataset.ended === 'true'",
            arg=before,
            timeout=TURN_TIMEOUT_MS,
        )
        if timings is not None and self.page.evaluate("document.body.dataset.ended") != "true":
            self.page.wait_for_function(
                "n => window.reefTimings.length > n", arg=timings, timeout=TURN_TIMEOUT_MS
            )

    def point(self, env: str, x: int, y: int) -> tuple[float, float]:
        """Where the screenshot's pixel (x, y) is on the page."""
        view = self.page.locator(f"#view-{env}")
        view.scroll_into_view_if_needed()
        box = view.bounding_box()
        natural = view.evaluate("img => [img.naturalWidth, img.naturalHeight]")
        return (
            box["x"] + (x + 0.5) * box["width"] / natural[0],
            box["y"] + (y + 0.5) * box["height"] / natural[1],
        )

    def click(self, env: str, x: int, y: int, *, button: str = "left") -> None:
        """Click the view at the screenshot's pixel (x, y) and wait for the next turn."""
        before, timings = self.version(), len(self.timings())
        px, py = self.point(env, x, y)
        self.page.mouse.click(px, py, button=button)
        self.played.append((env, x, y))
        self.wait_turn(before, timings)

    def click_on(self, env: str, name: str, role: str = "") -> tuple[int, int]:
        """Click the element called ``name`` where the device shows it."""
        x, y = self.session.locate(env, name, role)
        self.click(env, x, y)
        return x, y

    def type(self, env: str, text: str, *, enter: bool = False) -> None:
        """Type on the focused view (the page sends the characters as one write_text)."""
        before, timings = self.version(), len(self.timings())
        self.page.locator(f"#view-{env}").focus()
        self.page.keyboard.type(text)
        if enter:
            self.page.keyboard.press("Enter")
        self.wait_turn(before, timings)

    def press_button(self, selector: str) -> None:
        before = self.version()
        self.page.locator(selector).click()
        self.wait_turn(before)


@contextlib.contextmanager
def playing(
    task_id: str, out: Path, *, author: bool = False, suite: str = "v1"
) -> Iterator[Player]:
    """A started session of ``task_id`` with Chromium on its page."""
    from playwright.sync_api import sync_playwright

    session = PlaySession(suite, task_id, out, author=author)
    token = secrets.token_urlsafe(24)
    try:
        session.start()
        with ServedApp(create_app(session, token)) as served, sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium_executable())
            try:
                page = browser.new_page(viewport={"width": 1500, "height": 1000})
                page.goto(f"{served.url}/?token={token}")
                page.wait_for_function("() => document.body.dataset.version > 0")
                # Every view has loaded: clicks are scaled by the images' natural size.
                # (A task without screens has none: its page shows devices' texts only.)
                screens = sum(d["view"] for d in session.state()["devices"])
                page.wait_for_function(
                    "n => (views => views.length === n"
                    " && views.every(i => i.complete && i.naturalWidth))"
                    "([...document.querySelectorAll('img.view')]"
                    ".filter(i => i.getAttribute('src')))",
                    arg=screens,
                )
                yield Player(session, page, served.url)
            finally:
                browser.close()
    finally:
        session.close()


@pytest.fixture
def play(tmp_path: Path) -> Callable[..., contextlib.AbstractContextManager[Player]]:
    def start(
        task_id: str, *, author: bool = False, suite: str = "v1"
    ) -> contextlib.AbstractContextManager[Player]:
        return playing(task_id, tmp_path / "run", author=author, suite=suite)

    return start
