"""Phone and browser step latency, and memory per phone instance.

A step is what an episode does per agent action: the action, the wait until the screen
settles, then the next observation (screenshot with Set-of-Marks, element list, and for
the phone the uiautomator XML it is built from). Medians over ``--repeat`` steps.

    .venv/bin/python bench/phone_step.py [--repeat 30]

Prints one JSON object per line: {"metric", "value", "unit", ...}.
"""

from __future__ import annotations

import argparse
import http.server
import json
import statistics
import threading
import time
from collections.abc import Callable

from reefbench.envs import procs
from reefbench.envs.browser import BrowserEnvironment
from reefbench.envs.phone import PhoneEnvironment
from reefbench.envs.services import ServicesEnvironment


def emit(metric: str, value: float, unit: str, **extra: object) -> None:
    print(json.dumps({"metric": metric, "value": round(value, 4), "unit": unit, **extra}))


def median_seconds(step: Callable[[], object], repeat: int) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        step()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), max(times)


def mark_of(env: PhoneEnvironment, label: str) -> int:
    snapshot = env.observe_now()
    for mark, node in zip(snapshot.marks.marks.marks, snapshot.marks.nodes, strict=True):
        if mark.name == label or node.id_name == label:
            return mark.id
    raise SystemExit(f"no element {label!r} on the phone screen")


def bench_phone(repeat: int) -> None:
    services = ServicesEnvironment()
    phone = PhoneEnvironment(services=services)
    t0 = time.perf_counter()
    phone.start()
    emit("phone_start", time.perf_counter() - t0, "s")
    t0 = time.perf_counter()
    phone.reset()
    emit("phone_reset", time.perf_counter() - t0, "s")
    try:
        # 1. A switch in Settings: tap -> fetch to the phone API -> DOM update.
        phone.open_app("com.reef.settings")
        switch = mark_of(phone, "Dark theme")

        def toggle() -> None:
            phone.step("tap", {"elem": switch})
            phone.observe()

        toggle_median, toggle_max = median_seconds(toggle, repeat)
        emit("phone_step_tap_switch", toggle_median, "s", max=round(toggle_max, 4), n=repeat)

        # 2. Navigation inside an app: open a page of Mail, then press back.
        phone.open_app("com.reef.mail")
        compose = mark_of(phone, "Compose")
        state = {"open": False}

        def navigate() -> None:
            if state["open"]:
                phone.step("press", {"key": "back"})
            else:
                phone.step("tap", {"elem": compose})
            state["open"] = not state["open"]
            phone.observe()

        nav_median, nav_max = median_seconds(navigate, repeat)
        emit("phone_step_navigate", nav_median, "s", max=round(nav_max, 4), n=repeat)

        # 3. The observation alone (XML dump + screenshot + marks drawing).
        obs_median, _ = median_seconds(phone.observe, repeat)
        emit("phone_observe", obs_median, "s", n=repeat)
        xml_median, _ = median_seconds(phone.dump_xml, repeat)
        emit("phone_xml_dump", xml_median, "s", n=repeat)

        overall = statistics.median([toggle_median, nav_median])
        emit("phone_step", overall, "s", target=0.25, meets_target=overall <= 0.25)
        pids = phone.pids()
        emit("phone_memory_rss", phone.memory_bytes() / 2**20, "MiB", processes=len(pids))
        emit("phone_memory_pss", procs.pss_bytes(pids) / 2**20, "MiB", processes=len(pids))
    finally:
        phone.stop()
        services.stop()


PAGE = b"""<!doctype html><title>Bench</title><h1>Bench</h1>
<button onclick="document.getElementById('n').textContent = +document.getElementById('n')
.textContent + 1">Add</button><p id="n">0</p>
<a href="/">Reload</a><input aria-label="Name">"""


class _Page(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(PAGE)))
        self.end_headers()
        self.wfile.write(PAGE)

    def log_message(self, *args: object) -> None:
        pass


def bench_browser(repeat: int) -> None:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    browser = BrowserEnvironment(start_url=f"http://127.0.0.1:{server.server_address[1]}/")
    browser.start()
    try:
        browser.observe()
        add = next(m.id for m in browser.observe_now().marks.marks if m.name == "Add")
        reload = next(m.id for m in browser.observe_now().marks.marks if m.name == "Reload")

        def click() -> None:
            browser.step("click", {"elem": add})
            browser.observe()

        click_median, click_max = median_seconds(click, repeat)
        emit("browser_step_click", click_median, "s", max=round(click_max, 4), n=repeat)

        def navigate() -> None:
            browser.step("click", {"elem": reload})
            browser.observe()

        nav_median, _ = median_seconds(navigate, repeat)
        emit("browser_step_navigate", nav_median, "s", n=repeat)
        emit("browser_memory_rss", browser.memory_bytes() / 2**20, "MiB")
    finally:
        browser.stop()
        server.shutdown()
        server.server_close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=30, help="steps per measurement (>= 20)")
    args = parser.parse_args()
    repeat = max(20, args.repeat)
    bench_phone(repeat)
    bench_browser(repeat)


if __name__ == "__main__":
    main()
