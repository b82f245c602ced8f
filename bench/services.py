"""Reset time and page-load time of the local cloud services (reefbench.envs.services).

An episode resets the shared account before every task and the agent's browser loads app
pages at every step, so both must be quick: targets are reset <= 0.2 s and page load
<= 0.3 s on the project machine.

Setup: one :class:`reefbench.envs.services.ServicesEnvironment` seeded with a realistic account
(200 contacts, 300 mails, 200 events, 100 tasks, 50 notes, 100 files of 2 KB, 200 text
messages, 20 alarms), snapshotted as the seed.

``services_reset_median``
    ``ServicesEnvironment.reset()`` as an episode calls it (the internal API's HTTP call
    plus restoring the seed with SQLite's backup API), after each repetition changed the
    account (a contact and a mail added through the internal API; not timed). Median of 30.

``services_page_load_median`` / ``services_page_load_max_app_median``
    Debian's Chromium driven by Playwright, desktop viewport 1280x800, signed in: wall
    time of ``page.goto(url, wait_until="load")`` for each app's main page (/, /mail,
    /calendar/month, /contacts, /tasks, /notes, /files, /messages, /maps?q=Paris,
    /clock/alarms, /clock/world, /settings), 20 rounds after one warm-up round. The first
    figure is the median over all loads; the second is the slowest app's median.

``services_page_load_navigation_timing_median``
    The same loads measured by the page itself: Navigation Timing ``loadEventEnd``
    (request start to end of the load event), median over all loads.
"""

from __future__ import annotations

import json
import statistics
import time

from reefbench.envs.services import ServicesEnvironment

PAGES = (
    "/",
    "/mail",
    "/calendar/month",
    "/contacts",
    "/tasks",
    "/notes",
    "/files",
    "/messages",
    "/maps?q=Paris",
    "/clock/alarms",
    "/clock/world",
    "/settings",
)


def emit(metric: str, value: float, unit: str) -> None:
    print(json.dumps({"metric": metric, "value": round(value, 4), "unit": unit}), flush=True)


def seed(env: ServicesEnvironment) -> None:
    call = env.call
    for i in range(200):
        call("add_contact", name=f"Person {i}", phone=f"+1 555 {i:04d}", email=f"p{i}@x.test")
    for i in range(300):
        call("add_mail", sender=f"p{i % 200}@x.test", subject=f"Subject {i}", body="text " * 50)
    for i in range(200):
        call("add_event", title=f"Event {i}", date=f"2024-06-{i % 28 + 1:02d}", start="10:00")
    for i in range(100):
        call("add_task", title=f"Task {i}", list_name=f"List {i % 4}")
    for i in range(50):
        call("add_note", title=f"Note {i}", body="note text " * 20)
    for i in range(100):
        call("add_file", path=f"Folder {i % 10}/file{i}.txt", content="x" * 2048)
    for i in range(200):
        call("add_message", contact=f"+1 555 {i % 50:04d}", text=f"message {i}")
    for i in range(20):
        call("add_alarm", time=f"{i % 24:02d}:30", label=f"Alarm {i}")
    env.client.snapshot()


def bench_reset(env: ServicesEnvironment, repetitions: int = 30) -> None:
    times = []
    for i in range(repetitions):
        env.call("add_contact", name=f"Extra {i}")
        env.call("add_mail", sender="x@x.test", subject="extra")
        t0 = time.perf_counter()
        env.reset()
        times.append(time.perf_counter() - t0)
    assert len(env.rows("contacts")) == 200, "reset did not restore the seed"
    emit("services_reset_median", statistics.median(times), "s")


def bench_pages(env: ServicesEnvironment, rounds: int = 20) -> None:
    from playwright.sync_api import sync_playwright

    wall: dict[str, list[float]] = {p: [] for p in PAGES}
    timing: list[float] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path="/usr/bin/chromium",
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        context.add_cookies([env.client.session_cookie()])
        page = context.new_page()
        for path in PAGES:  # warm-up: caches, the places data set, Chromium's first paint
            page.goto(env.url + path, wait_until="load")
        for _ in range(rounds):
            for path in PAGES:
                t0 = time.perf_counter()
                page.goto(env.url + path, wait_until="load")
                wall[path].append(time.perf_counter() - t0)
                timing.append(
                    page.evaluate(
                        "performance.getEntriesByType('navigation')[0].loadEventEnd / 1000"
                    )
                )
        browser.close()
    every = [t for times in wall.values() for t in times]
    emit("services_page_load_median", statistics.median(every), "s")
    emit(
        "services_page_load_max_app_median",
        max(statistics.median(times) for times in wall.values()),
        "s",
    )
    emit("services_page_load_navigation_timing_median", statistics.median(timing), "s")


def main() -> None:
    with ServicesEnvironment() as env:
        seed(env)
        bench_reset(env)
        bench_pages(env)


if __name__ == "__main__":
    main()
