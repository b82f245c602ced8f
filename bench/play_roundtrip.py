"""How long a person waits per action in ``reef play``: the page's round trip.

A real session (reef-v1's mail task: every device started, the page served on loopback,
Chromium on the page through Playwright) is played by clicking the views: taps on an
empty part of the phone's home screen and clicks on the desktop's background, which
change nothing. For each action the page itself measures, in the browser, the time from
the pointer event to the refreshed view having loaded (``window.reefTimings``): the
request, the episode's step (the device acts and settles, the graph checks, every device
is observed), the answer, and the new screenshot's download and decoding.

``play_roundtrip_phone_tap``
    Median from the tap's pointer event to the phone's new view.
``play_roundtrip_desktop_click``
    The same for a desktop click, which the page holds for 300 ms first (a second click
    within that time makes a double click); ``from_send`` is without that wait.

Usage: ``python bench/play_roundtrip.py [--repeat N]`` (one JSON object per line).
"""

from __future__ import annotations

import argparse
import json
import secrets
import statistics
import tempfile
from pathlib import Path
from typing import Any

from reefbench.envs.chromium import chromium_executable
from reefbench.play.server import create_app
from reefbench.play.session import PlaySession
from reefbench.plumbing.net import ServedApp

TASK = "v1-hand-8815ffeea21d"
TIMEOUT_MS = 60_000


def emit(metric: str, value: float, unit: str, **extra: Any) -> None:
    print(json.dumps({"metric": metric, "value": round(value, 1), "unit": unit, **extra}))


def click(page: Any, env: str, x: int, y: int) -> None:
    """Click the view of ``env`` at its screenshot's pixel (x, y); wait for the new view."""
    count = page.evaluate("window.reefTimings.length")
    view = page.locator(f"#view-{env}")
    view.scroll_into_view_if_needed()
    box = view.bounding_box()
    width, height = view.evaluate("img => [img.naturalWidth, img.naturalHeight]")
    page.mouse.click(box["x"] + x * box["width"] / width, box["y"] + y * box["height"] / height)
    page.wait_for_function("n => window.reefTimings.length > n", arg=count, timeout=TIMEOUT_MS)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=10)
    repeat = parser.parse_args().repeat
    from playwright.sync_api import sync_playwright

    out = Path(tempfile.mkdtemp()) / "run"
    session = PlaySession("v1", TASK, out, step_limit=2 * repeat + 5)
    token = secrets.token_urlsafe(24)
    try:
        session.start()
        with ServedApp(create_app(session, token)) as served, sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium_executable())
            page = browser.new_page(viewport={"width": 1500, "height": 1000})
            page.goto(f"{served.url}/?token={token}")
            page.wait_for_function(
                "() => (views => views.length > 0"
                " && views.every(i => i.complete && i.naturalWidth))"
                "([...document.querySelectorAll('img.view')])"
            )
            for _ in range(repeat):
                click(page, "phone", 206, 560)  # empty home screen
            for _ in range(repeat):
                click(page, "desktop", 900, 300)  # the wallpaper
            timings: list[dict[str, Any]] = page.evaluate("window.reefTimings")
            browser.close()
    finally:
        session.close()
    for env, metric in (
        ("phone", "play_roundtrip_phone_tap"),
        ("desktop", "play_roundtrip_desktop_click"),
    ):
        rows = [t for t in timings if t["env"] == env]
        emit(
            metric,
            statistics.median(t["fromEvent"] for t in rows),
            "ms",
            from_send=round(statistics.median(t["fromSend"] for t in rows), 1),
            server=round(statistics.median(t["server"] for t in rows), 1),
            max=round(max(t["fromEvent"] for t in rows), 1),
            n=len(rows),
        )


if __name__ == "__main__":
    main()
